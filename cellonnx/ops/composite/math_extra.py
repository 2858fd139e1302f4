"""Math written over primitives (gradient and lowering come from them): logsumexp, var / std (and the
*_mean forms), norm, outer, addmm, lerp, trace."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from cellonnx.graph.symint import sym_max, sym_min
from cellonnx import ops as _ops
from cellonnx.autograd.tape import no_grad
from cellonnx.ops.prims._util import is_float_dtype, norm_axes, norm_axis, to_tensor
from cellonnx.tensor import Tensor

F: Any = _ops  # the functional API; its names are filled in at import time, so typed loosely


def _floatify(x: Any) -> Tensor:
    x = to_tensor(x)
    return x if is_float_dtype(x._data.dtype) else F.cast(x, np.float32)


def _axes(axis: Any, ndim: int, op: str) -> tuple[int, ...] | None:
    return norm_axes(axis, ndim, op)


def logsumexp(input: Tensor, dim: Any = None, keepdim: bool = False, *, axis: Any = None,
              keep_dims: bool | None = None) -> Tensor:
    """``log(sum(exp(input), dim))``, computed stably: the maximum is subtracted first (without gradient
    through it; the result's gradient is the softmax either way).

    Args:
        input (Tensor): float input.
        dim (Union[int, tuple[int]]): axes to reduce (all when ``()``); ``axis`` is accepted as an alias.
        keepdim (bool): keep the reduced axes as size 1 (``keep_dims`` is an alias). Default: False.

    Examples:
        >>> ops.logsumexp(Tensor([[1.0, 2.0], [3.0, 4.0]]), 1).shape
        (2,)
    """
    if dim is None and axis is None:
        raise TypeError("logsumexp: give the axes to reduce (dim)")
    keep_dims = keepdim if keep_dims is None else keep_dims
    x = _floatify(input)
    axes = _axes(dim if axis is None else axis, x.ndim, "logsumexp")
    with no_grad():  # a stop-gradient that still traces: the shift is a recorded op, not a constant
        m = F.amax(x, axes, True)
        m = F.where(F.isfinite(m), m, F.zeros_like(m))  # rows of -inf (or inf) must not become nan here
    out = F.add(F.log(F.sum(F.exp(F.sub(x, m)), axes, keepdim=True)), m)
    if not keep_dims:
        out = F.squeeze(out, axes) if axes is not None else F.reshape(out, ())
    return out


def _ddof(ddof: Any, op: str) -> int:
    if isinstance(ddof, bool):
        return int(ddof)
    if not isinstance(ddof, (int, np.integer)):
        raise TypeError(f"{op}: ddof must be an int or bool, got {type(ddof).__name__}")
    return int(ddof)


def var_mean(input: Tensor, axis: Any = None, ddof: Any = 0, keepdims: bool = False) -> tuple[Tensor, Tensor]:
    """(variance, mean) over ``axis`` (all when None); the variance divides by ``N - ddof`` (ddof True = 1).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 3.0], [2.0, 6.0]]), ms.float32)
        >>> var, mean = ops.var_mean(x, axis=1)
        >>> print(var)
        [1. 4.]
        >>> print(mean)
        [2. 4.]
    """
    x = _floatify(input)
    axes = _axes(axis, x.ndim, "var")
    # the count is a graph value where an axis is dynamic (a float of it would hold the example's size)
    n = math.prod(x.shape if axes is None else [x.shape[a] for a in axes])
    d = _ddof(ddof, "var")
    mean = F.mean(x, axes, True)
    centered = F.sub(x, mean)
    var = F.div(F.sum(F.mul(centered, centered), axes, keepdim=keepdims), sym_max(n - d, 0))
    if not keepdims:
        mean = F.squeeze(mean, axes) if axes is not None else F.reshape(mean, ())
    return var, mean


def var(input: Tensor, axis: Any = None, ddof: Any = 0, keepdims: bool = False) -> Tensor:
    """Variance over ``axis`` (all when None), dividing by ``N - ddof`` (``ddof=True`` is Bessel's 1).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 3.0], [2.0, 6.0]]), ms.float32)
        >>> print(ops.var(x, axis=1))
        [1. 4.]
    """
    return var_mean(input, axis, ddof, keepdims)[0]


def std_mean(input: Tensor, axis: Any = None, ddof: Any = 0, keepdims: bool = False) -> tuple[Tensor, Tensor]:
    """The standard deviation and the mean over ``axis`` (all axes when None).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 3.0], [2.0, 6.0]]), ms.float32)
        >>> std, mean = ops.std_mean(x, axis=1)
        >>> print(std)
        [1. 2.]
        >>> print(mean)
        [2. 4.]
    """
    v, m = var_mean(input, axis, ddof, keepdims)
    return F.sqrt(v), m


def std(input: Tensor, axis: Any = None, ddof: Any = 0, keepdims: bool = False) -> Tensor:
    """Standard deviation over ``axis`` (all when None), dividing by ``N - ddof``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 3.0], [2.0, 6.0]]), ms.float32)
        >>> print(ops.std(x, axis=1))
        [1. 2.]
    """
    return F.sqrt(var(input, axis, ddof, keepdims))


def _vector_norm(x: Tensor, ord: Any, axes: tuple[int, ...] | None, keepdim: bool) -> Tensor:
    if ord is None or ord == 2:
        return F.sqrt(F.sum(F.mul(x, x), axes, keepdim=keepdim))
    if ord == math.inf:
        return F.amax(F.abs(x), axes, keepdim)
    if ord == -math.inf:
        return F.amin(F.abs(x), axes, keepdim)
    if ord == 0:
        return F.sum(F.cast(F.not_equal(x, 0), x._data.dtype), axes, keepdim=keepdim)
    if ord == 1:
        return F.sum(F.abs(x), axes, keepdim=keepdim)
    if isinstance(ord, str):
        raise TypeError(f"norm: ord {ord!r} is a matrix norm; give dim as a pair of axes")
    p = float(ord)
    return F.pow(F.sum(F.pow(F.abs(x), p), axes, keepdim=keepdim), 1.0 / p)


def _matrix_norm(x: Tensor, ord: Any, dims: tuple[int, int], keepdim: bool) -> Tensor:
    r, c = dims
    if ord is None or ord == "fro":
        return F.sqrt(F.sum(F.mul(x, x), dims, keepdim=keepdim))
    if ord in (1, -1, math.inf, -math.inf):
        # 1: max over columns of the column sums; inf: max over rows of the row sums
        inner, outer = (r, c) if ord in (1, -1) else (c, r)
        sums = F.sum(F.abs(x), inner, keepdim=True)
        out = F.amax(sums, outer, True) if ord in (1, math.inf) else F.amin(sums, outer, True)
        return out if keepdim else F.squeeze(out, dims)
    if ord in ("nuc", 2, -2):
        from cellonnx.ops.composite.linalg_ext import matrix_norm
        return matrix_norm(x, ord, (r, c), keepdim)
    raise ValueError(f"norm: the matrix norm ord={ord!r} is not supported (supported: None, 'fro', 'nuc', 1, -1, "
                     "2, -2, inf, -inf)")


def norm(A: Tensor, ord: Any = None, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    """Vector or matrix norm (MindSpore's ops.norm).

    ``dim`` an int: a vector norm over it; a pair: a matrix norm over those two axes; None: the 2-norm of
    the flattened input when ``ord`` is None, else a vector norm (1-D input) or matrix norm (2-D input).
    Vector ords: None/2, inf, -inf, 0 (count of non-zeros), 1 and any other number p
    (``sum(abs(x)**p)**(1/p)``).
    Matrix ords: None/'fro', 'nuc', 1, -1, 2, -2, inf, -inf.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[3.0, 4.0], [6.0, 8.0]]), ms.float32)
        >>> print(ops.norm(x, dim=1))
        [ 5. 10.]
        >>> print(ops.norm(x, ord=1, dim=1))
        [ 7. 14.]
    """
    x = _floatify(A)
    if dtype is not None:
        x = F.cast(x, dtype)
    if dim is None:
        if ord is None:
            out = _vector_norm(F.reshape(x, (-1,)), None, None, False)
            return F.reshape(out, (1,) * x.ndim) if keepdim else out
        if x.ndim == 1:
            return _vector_norm(x, ord, None, keepdim)
        if x.ndim == 2:
            return _matrix_norm(x, ord, (0, 1), keepdim)
        raise ValueError(f"norm: with ord={ord!r} and dim None the input must be 1-D or 2-D, got shape "
                         f"{tuple(x.shape)}")
    if isinstance(dim, (tuple, list)) and len(dim) == 2:
        r, c = (norm_axis(int(d), x.ndim, "norm") for d in dim)
        if r == c:
            raise ValueError(f"norm: dim {tuple(dim)} must name two different axes")
        return _matrix_norm(x, ord, (r, c), keepdim)
    if isinstance(dim, (tuple, list)) and len(dim) == 1:
        dim = dim[0]
    if isinstance(dim, (tuple, list)):
        raise TypeError(f"norm: dim must be an int or a pair of ints, got {tuple(dim)}")
    return _vector_norm(x, ord, _axes(dim, x.ndim, "norm"), keepdim)


def outer(input: Tensor, vec2: Tensor) -> Tensor:
    """The outer product of two 1-D tensors: ``out[i, j] = input[i] * vec2[j]``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> a = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> b = Tensor(np.array([1.0, 10.0]), ms.float32)
        >>> print(ops.outer(a, b))
        [[ 1. 10.]
         [ 2. 20.]
         [ 3. 30.]]
    """
    input, vec2 = to_tensor(input), to_tensor(vec2)
    if input.ndim != 1 or vec2.ndim != 1:
        raise ValueError(f"outer: expected two 1-D tensors, got shapes {tuple(input.shape)} and {tuple(vec2.shape)}")
    return F.mul(F.reshape(input, (-1, 1)), F.reshape(vec2, (1, -1)))


def addmm(input: Tensor, mat1: Tensor, mat2: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """``beta * input + alpha * (mat1 @ mat2)``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 1.0], [1.0, 1.0]]), ms.float32)
        >>> a = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]]), ms.float32)
        >>> b = Tensor(np.eye(2), ms.float32)
        >>> print(ops.addmm(x, a, b, beta=1, alpha=2))
        [[3. 5.]
         [7. 9.]]
    """
    prod = F.matmul(mat1, mat2)
    if alpha != 1:
        prod = F.mul(prod, alpha)
    if beta == 0:
        return prod
    return F.add(F.mul(input, beta) if beta != 1 else input, prod)


def lerp(input: Tensor, end: Tensor, weight: Any) -> Tensor:
    """``input + weight * (end - input)``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> start = Tensor(np.array([0.0, 10.0]), ms.float32)
        >>> end = Tensor(np.array([10.0, 20.0]), ms.float32)
        >>> print(ops.lerp(start, end, 0.25))
        [ 2.5 12.5]
    """
    return F.add(input, F.mul(weight, F.sub(end, input)))


def trace(input: Tensor) -> Tensor:
    """The sum of the main diagonal of a 2-D tensor.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(9).reshape(3, 3), ms.float32)
        >>> print(ops.trace(x))
        12.0
    """
    input = to_tensor(input)
    if input.ndim != 2:
        raise ValueError(f"trace: expected a 2-D tensor, got shape {tuple(input.shape)}")
    n, m = input.shape
    k = sym_min(n, m)
    diag = F.gather_elements(F.slice(input, (0, 0), (k, k)), 1, F.reshape(F.arange(k), (k, 1)))
    return F.sum(diag)


def _tensor_var(self: Tensor, axis: Any = None, ddof: Any = 0, keepdims: bool = False) -> Tensor:
    return var(self, axis, ddof, keepdims)


def _tensor_std(self: Tensor, axis: Any = None, ddof: Any = 0, keepdims: bool = False) -> Tensor:
    return std(self, axis, ddof, keepdims)


def _tensor_logsumexp(self: Tensor, axis: Any, keepdims: bool = False) -> Tensor:
    return logsumexp(self, axis, keepdims)


TENSOR_METHODS = {"var": _tensor_var, "std": _tensor_std, "norm": norm, "logsumexp": _tensor_logsumexp,
                  "outer": outer, "addmm": addmm, "lerp": lerp, "trace": trace}

__all__ = ["addmm", "lerp", "logsumexp", "norm", "outer", "std", "std_mean", "trace", "var", "var_mean"]
