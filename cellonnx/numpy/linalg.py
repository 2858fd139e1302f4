"""Products and norms: matmul, dot, inner, outer, tensordot, multi_dot, matrix_power, kron, cross, norm
(mindspore.numpy.math_ops)."""
from __future__ import annotations

import math
import sys
from typing import Any

import numpy as np

from cellonnx import ops as F
from cellonnx.numpy._utils import (
    at,
    axes_tuple,
    axis_index,
    broadcast_shape,
    cast,
    finish,
    to_tensor,
    to_tensors,
)
from cellonnx.numpy.dtypes import promote
from cellonnx.numpy.manipulation import moveaxis
from cellonnx.ops.prims._util import promote as promote_tensors
from cellonnx.tensor import Tensor


def matmul(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Returns the matrix product of two tensors (broadcasting the leading axes; a 1-D operand is a vector).

    Args:
        x1 (Tensor): input.
        x2 (Tensor): input.
        dtype (Union[DType, str], optional): cast the result to it.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> a = mnp.ones((2, 3))
        >>> b = mnp.ones((3, 4))
        >>> print(mnp.matmul(a, b))
        [[3. 3. 3. 3.]
         [3. 3. 3. 3.]]
    """
    a, b = to_tensors(x1, x2)
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("matmul: the inputs cannot be scalars")
    return finish(F.matmul(a, b), dtype)


def _rows(t: Tensor) -> Tensor:
    """``t`` as a matrix of its last axis: (prod(leading), last)."""
    return F.reshape(t, (-1, t.shape[-1]))


def _matmul_t(a: Tensor, b: Tensor) -> Tensor:
    """``a @ b.T`` of two matrices."""
    a, b = promote_tensors(a, b)
    return F.matmul(a, F.transpose(b, (1, 0)))


def dot(a: Any, b: Any) -> Tensor:
    """Returns the dot product of two tensors: for N-D tensors a sum product over the last axis of ``a`` and
    the second-to-last of ``b``.

    Args:
        a (Tensor): input.
        b (Tensor): input.

    Returns:
        Tensor of shape ``a.shape[:-1] + b.shape[:-2] + b.shape[-1:]``.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> a = mnp.array([[1.0, 2.0], [3.0, 4.0]])
        >>> print(mnp.dot(a, mnp.array([1.0, 1.0])))
        [3. 7.]
    """
    a, b = to_tensors(a, b)
    if a.ndim == 0 or b.ndim == 0:
        return F.mul(a, b)
    b_shape, axis = tuple(b.shape), max(b.ndim - 2, 0)   # dot sums a's last axis with b's second-to-last
    if b.ndim >= 2:
        b = F.swapaxes(b, -1, -2)
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"dot: shapes {tuple(a.shape)} and {b_shape} are not aligned: {a.shape[-1]} (dim "
                         f"{a.ndim - 1}) != {b_shape[axis]} (dim {axis})")
    res = _matmul_t(_rows(a), _rows(b))
    return F.reshape(res, tuple(a.shape[:-1]) + tuple(b.shape[:-1]))


def inner(a: Any, b: Any) -> Tensor:
    """Returns the inner product of two tensors: a sum product over their last axes.

    Args:
        a (Tensor): input.
        b (Tensor): input.

    Returns:
        Tensor of shape ``a.shape[:-1] + b.shape[:-1]``.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.inner(mnp.array([1, 2, 3]), mnp.array([0, 1, 2])))
        8
    """
    a, b = to_tensors(a, b)
    if a.ndim == 0 or b.ndim == 0:
        return F.mul(a, b)
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"inner: shapes {tuple(a.shape)} and {tuple(b.shape)} are not aligned: "
                         f"{a.shape[-1]} != {b.shape[-1]}")
    res = _matmul_t(_rows(a), _rows(b))
    return F.reshape(res, tuple(a.shape[:-1]) + tuple(b.shape[:-1]))


def outer(a: Any, b: Any) -> Tensor:
    """Computes the outer product of two vectors (inputs are flattened).

    Args:
        a (Tensor): input.
        b (Tensor): input.

    Returns:
        Tensor of shape (a.size, b.size).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.outer(mnp.array([1, 2, 3]), mnp.array([1, 10])))
        [[ 1 10]
         [ 2 20]
         [ 3 30]]
    """
    a, b = to_tensors(a, b)
    return F.mul(F.reshape(a, (-1, 1)), F.reshape(b, (1, -1)))


def tensordot(a: Any, b: Any, axes: Any = 2) -> Tensor:
    """Computes the tensor dot product along specified axes.

    Args:
        a (Tensor): input.
        b (Tensor): input.
        axes (Union[int, tuple, list]): N sums over the last N axes of ``a`` and the first N of ``b``; a pair
            of sequences names the axes of each. Default: 2.

    Returns:
        Tensor: the free axes of ``a``, then those of ``b``.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> a = mnp.ones((2, 3))
        >>> b = mnp.ones((3, 4))
        >>> print(mnp.tensordot(a, b, axes=1))
        [[3. 3. 3. 3.]
         [3. 3. 3. 3.]]
    """
    a, b = to_tensors(a, b)
    if isinstance(axes, (int, np.integer)):
        n = int(axes)
        if n < 0 or n > min(a.ndim, b.ndim):
            raise ValueError(f"tensordot: axes={n} does not fit inputs of dimensions {a.ndim} and {b.ndim}")
        axes_a, axes_b = tuple(range(a.ndim - n, a.ndim)), tuple(range(n))
    else:
        first, second = axes
        axes_a = axes_tuple(first, a.ndim, "tensordot")
        axes_b = axes_tuple(second, b.ndim, "tensordot")
    if len(axes_a) != len(axes_b) or any(int(a.shape[i]) != int(b.shape[j]) for i, j in zip(axes_a, axes_b)):
        raise ValueError(f"tensordot: the summed axes {axes_a} of {tuple(a.shape)} and {axes_b} of "
                         f"{tuple(b.shape)} must match in number and size")
    free_a = [i for i in range(a.ndim) if i not in axes_a]
    free_b = [j for j in range(b.ndim) if j not in axes_b]
    k = 1
    for i in axes_a:
        k = k * a.shape[i]  # a dynamic summed axis stays a graph value
    left = F.reshape(F.transpose(a, free_a + list(axes_a)), (-1, k))
    right = F.reshape(F.transpose(b, list(axes_b) + free_b), (k, -1))
    left, right = promote_tensors(left, right)
    res = F.matmul(left, right)
    return F.reshape(res, tuple(a.shape[i] for i in free_a) + tuple(b.shape[j] for j in free_b))


def _chain_order(dims: list[int]) -> list[list[int]]:
    """The split points of the cheapest matrix-chain product (dynamic programming over the dims)."""
    n = len(dims) - 1
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = sys.maxsize
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k
    return split


def multi_dot(arrays: Any) -> Tensor:
    """Computes the dot product of two or more tensors in one call, choosing the cheapest evaluation order.

    Args:
        arrays (Union[tuple[Tensor], list[Tensor], Tensor]): 2-D tensors; the first and last may be 1-D.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> a = mnp.ones((2, 3))
        >>> b = mnp.ones((3, 4))
        >>> c = mnp.ones((4, 1))
        >>> print(mnp.multi_dot([a, b, c]))
        [[12.]
         [12.]]
    """
    if isinstance(arrays, Tensor):
        arrays = [at(arrays, i) for i in range(int(arrays.shape[0]))]
    if len(arrays) < 2:
        raise ValueError("multi_dot: at least two tensors are needed")
    arrs = [to_tensor(x) for x in arrays]
    if len(arrs) == 2:
        return dot(arrs[0], arrs[1])
    shape_out: tuple[int, ...] = ()
    if arrs[0].ndim == 1:
        arrs[0] = F.reshape(arrs[0], (1, -1))
    else:
        shape_out += (arrs[0].shape[0],)
    if arrs[-1].ndim == 1:
        arrs[-1] = F.reshape(arrs[-1], (-1, 1))
    else:
        shape_out += (arrs[-1].shape[1],)
    if any(t.ndim != 2 for t in arrs):
        raise ValueError(f"multi_dot: tensors must be 2-D (the ends may be 1-D), got shapes "
                         f"{[tuple(t.shape) for t in arrays]}")
    dims = [int(t.shape[0]) for t in arrs] + [int(arrs[-1].shape[1])]
    if any(int(t.shape[1]) != d for t, d in zip(arrs[:-1], dims[1:])):
        raise ValueError(f"multi_dot: shapes {[tuple(t.shape) for t in arrs]} are not aligned")
    split = _chain_order(dims)

    def product(i: int, j: int) -> Tensor:
        if i == j:
            return arrs[i]
        k = split[i][j]
        return dot(product(i, k), product(k + 1, j))

    return F.reshape(product(0, len(arrs) - 1), shape_out)


def matrix_power(a: Any, n: int) -> Tensor:
    """Raises a square matrix (or a stack of them) to the integer power ``n`` >= 0.

    Args:
        a (Tensor): input whose last two axes are square.
        n (int): the exponent.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.matrix_power(mnp.array([[1.0, 1.0], [0.0, 1.0]]), 3))
        [[1. 3.]
         [0. 1.]]
    """
    a = to_tensor(a)
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"matrix_power: the exponent must be an int, got {type(n).__name__}")
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"matrix_power: the last two axes must be square, got shape {tuple(a.shape)}")
    if n < 0:
        raise ValueError(f"matrix_power: negative exponents need a matrix inverse, got n={n}")
    if n == 0:
        return F.broadcast_to(F.eye(a.shape[-1], a.shape[-1], a.dtype), tuple(a.shape))
    res = a
    for _ in range(n - 1):
        res = F.matmul(res, a)
    return res


def kron(a: Any, b: Any) -> Tensor:
    """Kronecker product of two tensors: blocks of ``b`` scaled by the elements of ``a``.

    Args:
        a (Tensor): input.
        b (Tensor): input.

    Returns:
        Tensor of shape ``a.shape * b.shape`` (after padding the shorter shape with leading ones).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.kron(mnp.array([1, 2]), mnp.array([1, 10])))
        [ 1 10  2 20]
    """
    a, b = to_tensors(a, b)
    nd = max(a.ndim, b.ndim)
    if nd == 0:
        return F.mul(a, b)
    a = F.reshape(a, (1,) * (nd - a.ndim) + tuple(a.shape))
    b = F.reshape(b, (1,) * (nd - b.ndim) + tuple(b.shape))
    sa, sb = tuple(a.shape), tuple(b.shape)
    a2 = F.reshape(a, tuple(d for s in sa for d in (s, 1)))
    b2 = F.reshape(b, tuple(d for s in sb for d in (1, s)))
    return F.reshape(F.mul(a2, b2), tuple(x * y for x, y in zip(sa, sb)))


def cross(a: Any, b: Any, axisa: int = -1, axisb: int = -1, axisc: int = -1,
          axis: int | None = None) -> Tensor:
    """Returns the cross product of two (arrays of) vectors of 2 or 3 components.

    Args:
        a (Tensor): the first vectors.
        b (Tensor): the second vectors.
        axisa (int): the axis of ``a`` holding the vectors. Default: -1.
        axisb (int): the axis of ``b`` holding the vectors. Default: -1.
        axisc (int): the axis of the result holding the vectors (for 3-component results). Default: -1.
        axis (int, optional): overrides axisa, axisb and axisc. Default: None.

    Returns:
        Tensor; two 2-component inputs give the z-components only.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.cross(mnp.array([1.0, 0.0, 0.0]), mnp.array([0.0, 1.0, 0.0])))
        [0. 0. 1.]
    """
    a, b = to_tensors(a, b)
    if axis is not None:
        axisa = axisb = axisc = axis
    a = moveaxis(a, axis_index(axisa, a.ndim, "cross"), -1)
    b = moveaxis(b, axis_index(axisb, b.ndim, "cross"), -1)
    na, nb = int(a.shape[-1]), int(b.shape[-1])
    if na not in (2, 3) or nb not in (2, 3):
        raise ValueError(f"cross: incompatible dimensions for the cross product (the vectors have {na} and "
                         f"{nb} components; 2 or 3 expected)")
    d = promote(a.dtype, b.dtype)
    a, b = cast(a, d), cast(b, d)
    lead = broadcast_shape(tuple(a.shape[:-1]), tuple(b.shape[:-1]), op="cross")

    def ca(i: int) -> Tensor:
        return a[..., i]

    def cb(i: int) -> Tensor:
        return b[..., i]

    cz = F.sub(F.mul(ca(0), cb(1)), F.mul(ca(1), cb(0)))
    if na == 2 and nb == 2:
        return F.broadcast_to(cz, lead)
    if na == 3 and nb == 3:
        cx = F.sub(F.mul(ca(1), cb(2)), F.mul(ca(2), cb(1)))
        cy = F.sub(F.mul(ca(2), cb(0)), F.mul(ca(0), cb(2)))
    elif na == 3:
        cx, cy = F.neg(F.mul(ca(2), cb(1))), F.mul(ca(2), cb(0))
    else:
        cx, cy = F.mul(ca(1), cb(2)), F.neg(F.mul(ca(0), cb(2)))
    parts = [F.broadcast_to(c, lead) for c in (cx, cy, cz)]
    res = F.stack(parts, -1)
    return moveaxis(res, -1, axis_index(axisc, res.ndim, "cross"))


# ---------------------------------------------------------------- norms
def _vector_norm(x: Tensor, ord: Any, axes: tuple[int, ...], keepdims: bool) -> Tensor:
    if ord in ("fro", "nuc"):
        raise ValueError("norm: the Frobenius and nuclear norms are only defined for matrices")
    ax = axes[0]
    if ord is None or ord == 2:
        return F.sqrt(F.sum(F.mul(x, x), ax, keepdims))
    if ord == math.inf:
        return F.amax(F.abs(x), ax, keepdims)
    if ord == -math.inf:
        return F.amin(F.abs(x), ax, keepdims)
    if ord == 0:
        return F.sum(cast(F.not_equal(x, 0), np.float32), ax, keepdims)
    if ord == 1:
        return F.sum(F.abs(x), ax, keepdims)
    p = float(ord)
    return F.pow(F.sum(F.pow(F.abs(x), p), ax, keepdims), 1.0 / p)


def _matrix_norm(x: Tensor, ord: Any, axes: tuple[int, ...], keepdims: bool) -> Tensor:
    if ord == 0:
        raise ValueError("norm: ord=0 is defined only for vectors")
    if ord == "nuc" or ord in (2, -2):
        raise NotImplementedError(f"norm: the matrix norm ord={ord!r} needs a singular value decomposition, "
                                  "which is not implemented")
    if ord is None or ord == "fro":
        return F.sqrt(F.sum(F.mul(x, x), axes, keepdims))
    row, col = axes
    if ord in (math.inf, -math.inf):  # over rows of the absolute row sums
        inner_axis, outer_axis = col, row
    elif ord in (1, -1):  # over columns of the absolute column sums
        inner_axis, outer_axis = row, col
    else:
        raise ValueError(f"norm: invalid norm order {ord!r} for matrices")
    sums = F.sum(F.abs(x), inner_axis, True)
    out = F.amax(sums, outer_axis, True) if ord in (math.inf, 1) else F.amin(sums, outer_axis, True)
    return out if keepdims else F.squeeze(out, (row, col))


def norm(x: Any, ord: Any = None, axis: Any = None, keepdims: bool = False) -> Tensor:
    """Matrix or vector norm.

    Args:
        x (Tensor): input.
        ord (Union[None, int, float, str]): vectors: None/2, inf, -inf, 0, 1 or any p; matrices: None/'fro',
            1, -1, inf, -inf. Default: None.
        axis (Union[None, int, tuple[int]]): one axis (vector norms) or two (matrix norms); None: the 2-norm
            of the flattened input when ``ord`` is None, else the input must be 1-D or 2-D. Default: None.
        keepdims (bool): keep the reduced axes with size 1. Default: False.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.norm(mnp.array([3.0, 4.0])))
        5.0
    """
    if not isinstance(ord, (int, float)) and ord not in (None, "fro", "nuc"):
        raise ValueError(f"norm: invalid value for ord: {ord!r}")
    x = to_tensor(x)
    if not x.dtype.is_floating_point:
        x = cast(x, np.float32)
    ndim = x.ndim
    if axis is None:
        if ord is None:
            x = F.reshape(x, (-1,))
        if x.ndim not in (1, 2):
            raise ValueError(f"norm: with axis None the input must be 1-D or 2-D, got shape {tuple(x.shape)}")
        axis = tuple(range(x.ndim))
    axes = axes_tuple(axis, x.ndim, "norm")
    if len(axes) == 1:
        res = _vector_norm(x, ord, axes, keepdims)
    elif len(axes) == 2:
        res = _matrix_norm(x, ord, axes, keepdims)
    else:
        raise ValueError(f"norm: axis must name one or two axes, got {axis}")
    if keepdims and ndim > res.ndim:
        res = F.reshape(res, (1,) * (ndim - res.ndim) + tuple(res.shape))
    return res

__all__ = ["cross", "dot", "inner", "kron", "matmul", "matrix_power", "multi_dot", "norm", "outer",
           "tensordot"]
