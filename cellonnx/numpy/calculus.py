"""Differences, integrals and sliding products: diff, ediff1d, gradient, trapz, unwrap, convolve, correlate
(mindspore.numpy.math_ops)."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from cellonnx import ops as F
from cellonnx.graph.symint import is_symbolic
from cellonnx.graph.trace import require_static
from cellonnx.numpy._utils import (
    as_float,
    axes_tuple,
    axis_index,
    cast,
    int_arg,
    slice_axis,
    to_tensor,
    to_tensors,
)
from cellonnx.numpy.arithmetic import remainder
from cellonnx.numpy.dtypes import promote
from cellonnx.numpy.manipulation import concatenate
from cellonnx.numpy.reductions import cumsum
from cellonnx.ops.prims.index import Pad
from cellonnx.tensor import Tensor


def _edge(extra: Any, like: Tensor, axis: int) -> Tensor:
    """``prepend`` / ``append`` of diff: a scalar is broadcast to ``like``'s shape, size 1 along ``axis``."""
    t = to_tensor(extra)
    if t.ndim == 0:
        shape = list(like.shape)
        shape[axis] = 1
        t = F.broadcast_to(t, tuple(shape))
    return t


def _difference(t: Tensor, axis: int) -> Tensor:
    hi, lo = slice_axis(t, axis, 1, None), slice_axis(t, axis, None, -1)
    return F.not_equal(hi, lo) if t._data.dtype == np.bool_ else F.sub(hi, lo)


def diff(a: Any, n: int = 1, axis: int = -1, prepend: Any = None, append: Any = None) -> Tensor:
    """Calculates the n-th discrete difference along the given axis: ``out[i] = a[i + 1] - a[i]``, n times.

    Args:
        a (Tensor): input.
        n (int): how many times to difference. Default: 1.
        axis (int): the axis. Default: -1.
        prepend (Union[Tensor, int, float], optional): values put before ``a`` along the axis first.
        append (Union[Tensor, int, float], optional): values put after ``a`` along the axis first.

    Returns:
        Tensor, shorter by ``n`` along the axis (empty when ``n`` reaches its size).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.diff(mnp.array([1, 3, 6, 10])))
        [2 3 4]
    """
    a = to_tensor(a)
    ax = axis_index(axis, a.ndim, "diff")
    n = int_arg(n, "n", "diff")
    if n < 0:
        raise ValueError(f"diff: n must be non-negative, got {n}")
    if n == 0:
        return a
    parts = []
    if prepend is not None:
        parts.append(_edge(prepend, a, ax))
    parts.append(a)
    if append is not None:
        parts.append(_edge(append, a, ax))
    if len(parts) > 1:
        a = concatenate(parts, ax)
    for _ in range(n):
        a = _difference(a, ax)
    return a


def ediff1d(ary: Any, to_end: Any = None, to_begin: Any = None) -> Tensor:
    """The differences between consecutive elements of a tensor (flattened).

    Args:
        ary (Tensor): input.
        to_end (Union[Tensor, list, int, float], optional): appended to the differences.
        to_begin (Union[Tensor, list, int, float], optional): prepended to the differences.

    Returns:
        Tensor, 1-D, of the input's dtype.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.ediff1d(mnp.array([1, 3, 6, 10])))
        [2 3 4]
    """
    ary = to_tensor(ary)
    parts = []
    if to_begin is not None:
        parts.append(cast(F.reshape(to_tensor(to_begin), (-1,)), ary.dtype))
    parts.append(diff(F.reshape(ary, (-1,))))
    if to_end is not None:
        parts.append(cast(F.reshape(to_tensor(to_end), (-1,)), ary.dtype))
    return F.concat(parts, 0) if len(parts) > 1 else parts[0]


def trapz(y: Any, x: Any = None, dx: Any = 1.0, axis: int = -1) -> Tensor:
    """Integrates along the given axis using the composite trapezoidal rule.

    Args:
        y (Tensor): the values.
        x (Tensor, optional): the sample points, 1-D along the axis or of ``y``'s shape. Default: spaced
            ``dx`` apart.
        dx (Union[int, float]): the spacing when ``x`` is None. Default: 1.0.
        axis (int): the axis. Default: -1.

    Returns:
        Tensor with the axis removed; integers give float32.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.trapz(mnp.array([1.0, 2.0, 3.0])))
        4.0
    """
    y = as_float(to_tensor(y))
    ax = axis_index(axis, y.ndim, "trapz")
    if x is not None:
        x = to_tensor(x)
        if x.ndim == 1:
            shape = [1] * y.ndim
            shape[ax] = x.shape[0] - 1
            d = F.reshape(diff(x), tuple(shape))
        else:
            d = diff(x, axis=ax)
        d = cast(d, y.dtype)
    else:
        d = cast(to_tensor(dx), y.dtype)
    left, right = slice_axis(y, ax, None, -1), slice_axis(y, ax, 1, None)
    return F.sum(F.div(F.add(F.mul(left, d), F.mul(right, d)), 2.0), ax)


def _gradient_along(f: Tensor, h: Any, axis: int, edge_order: int) -> Tensor:
    n = f.shape[axis]  # (a dynamic size is never equal to 2: the middle part is kept for it)

    def at(i: int) -> Tensor:  # element i (counted from the end when negative), keeping the axis
        return slice_axis(f, axis, i, i + 1 or None)

    if edge_order == 1:
        first = F.sub(at(1), at(0))
        last = F.sub(at(-1), at(-2))
    else:
        first = F.add(F.add(F.mul(at(0), -1.5), F.mul(at(1), 2.0)), F.mul(at(2), -0.5))
        last = F.add(F.add(F.mul(at(-1), 1.5), F.mul(at(-2), -2.0)), F.mul(at(-3), 0.5))
    middle = F.sub(slice_axis(f, axis, 2, None), slice_axis(f, axis, 0, -2))
    parts = [first, last] if n == 2 else [first, F.mul(middle, 0.5), last]
    return F.div(concatenate(parts, axis), h)


def gradient(f: Any, *varargs: Any, axis: Any = None, edge_order: int = 1) -> Any:
    """Returns the gradient of an N-dimensional tensor: central differences inside, one-sided differences
    (first or second order) at the boundaries.

    Args:
        f (Tensor): the samples.
        *varargs (Union[int, float]): the spacing, one for all axes or one per axis. Default: 1.
        axis (Union[int, tuple[int]], optional): the axes. Default: all of them.
        edge_order (int): the order of the boundary differences, 1 or 2. Default: 1.

    Returns:
        Tensor for one axis, else a list of tensors (float32, float64 for float64 input).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.gradient(mnp.array([1.0, 2.0, 4.0, 7.0])))
        [1.  1.5 2.5 3. ]
    """
    if edge_order not in (1, 2):
        raise ValueError(f"gradient: edge_order must be 1 or 2, got {edge_order}")
    f = to_tensor(f)
    if f._data.dtype != np.float64:
        f = cast(f, np.float32)
    axes = axes_tuple(axis, f.ndim, "gradient")
    if not varargs:
        spacing = (1,) * len(axes)
    elif len(varargs) == 1:
        spacing = varargs * len(axes)
    elif len(varargs) == len(axes):
        spacing = varargs
    else:
        raise TypeError(f"gradient: {len(varargs)} spacings for {len(axes)} axes")
    out = []
    for h, ax in zip(spacing, axes):
        if int(f.shape[ax]) < edge_order + 1:
            raise ValueError(f"gradient: axis {ax} of size {int(f.shape[ax])} is too small for a numerical "
                             f"gradient; at least {edge_order + 1} elements are needed")
        if not (isinstance(h, (int, float, bool)) or (isinstance(h, Tensor) and h.ndim == 0)):
            raise NotImplementedError("gradient: only scalar spacings are implemented, not coordinate arrays")
        out.append(_gradient_along(f, h, ax, edge_order))
    return out[0] if len(out) == 1 else out


def unwrap(p: Any, discont: float = math.pi, axis: int = -1) -> Tensor:
    """Unwraps phase angles: jumps larger than ``discont`` between neighbours are replaced by their
    ``2 * pi`` complement.

    Args:
        p (Tensor): the phases.
        discont (float): the largest jump left as it is. Default: pi.
        axis (int): the axis. Default: -1.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.unwrap(mnp.array([0.0, 3.0, 6.5])).asnumpy().round(4))
        [0.     3.     0.2168]
    """
    if not isinstance(discont, (int, float)):
        raise TypeError(f"unwrap: discont must be a number, got {type(discont).__name__}")
    p = as_float(to_tensor(p))
    ax = axis_index(axis, p.ndim, "unwrap")
    dd = diff(p, axis=ax)
    ddmod = F.sub(remainder(F.add(dd, math.pi), 2 * math.pi), math.pi)
    ddmod = F.where(F.logical_and(F.equal(ddmod, -math.pi), F.greater(dd, 0)), math.pi, ddmod)
    correction = F.where(F.less(F.abs(dd), float(discont)), 0.0, F.sub(ddmod, dd))
    head = slice_axis(p, ax, 0, 1)
    tail = F.add(slice_axis(p, ax, 1, None), cumsum(correction, ax))
    return concatenate((head, tail), ax)


def _sliding(a: Tensor, w: Tensor, mode: str, op: str) -> Tensor:
    """``out[i] = sum_k a_padded[i + k] * w[k]`` (a correlation), the padding set by ``mode``."""
    for d in (*w.shape, *(a.shape if mode != "full" else ())):  # full: the same output whichever is longer
        require_static(d, f"{op} (mode {mode!r}) compares the lengths and")
    k = int(w.size)
    if mode == "full":
        left, right = k - 1, k - 1
    elif mode == "same":
        left, right = k // 2, k - 1 - k // 2
    elif mode == "valid":
        left = right = 0
    else:
        raise ValueError(f"{op}: mode must be 'full', 'same' or 'valid', got {mode!r}")
    if left or right:
        a = Pad.apply(a, pads=(left, right), mode="constant", value=0)
    length = a.shape[0] - k + 1
    taps = np.arange(k, dtype=np.int64)[None, :]
    if is_symbolic(length):  # the windows' starts read from the graph
        windows = F.add(F.reshape(F.cast(F.arange(0, length, 1), np.int64), (-1, 1)), Tensor(taps))
    else:
        windows = Tensor(np.arange(length, dtype=np.int64)[:, None] + taps)
    return F.matmul(F.gather(a, windows, 0), w)


def _vectors(a: Any, v: Any, op: str) -> tuple[Tensor, Tensor, Any]:
    a, v = to_tensors(a, v)
    if a.size == 0 or v.size == 0:
        raise ValueError(f"{op}: the inputs cannot be empty")
    a, v = (F.reshape(t, (1,)) if t.ndim == 0 else t for t in (a, v))
    if a.ndim != 1 or v.ndim != 1:
        raise ValueError(f"{op}: a and v must be 1-D, got shapes {tuple(a.shape)} and {tuple(v.shape)}")
    d = promote(a.dtype, v.dtype)
    return cast(a, np.float32), cast(v, np.float32), d


def convolve(a: Any, v: Any, mode: str = "full") -> Tensor:
    """Returns the discrete, linear convolution of two 1-D sequences.

    Args:
        a (Union[Tensor, list]): the first sequence.
        v (Union[Tensor, list]): the second sequence.
        mode (str): 'full' (every overlap, length M + N - 1), 'same' (length max(M, N)) or 'valid' (complete
            overlaps only). Default: 'full'.

    Returns:
        Tensor (computed in float32, then given the promoted dtype of the inputs).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.convolve(mnp.array([1.0, 2.0, 3.0]), mnp.array([0.0, 1.0, 0.5])))
        [0.  1.  2.5 4.  1.5]
    """
    a, v, d = _vectors(a, v, "convolve")
    if a.size < v.size:
        a, v = v, a
    return cast(_sliding(a, F.flip(v, (0,)), mode, "convolve"), d)


def correlate(a: Any, v: Any, mode: str = "valid") -> Tensor:
    """Cross-correlation of two 1-D sequences: ``c[k] = sum_n a[n + k] * v[n]``.

    Args:
        a (Union[Tensor, list]): the first sequence.
        v (Union[Tensor, list]): the second sequence.
        mode (str): 'valid', 'same' or 'full' (see ``convolve``). Default: 'valid'.

    Returns:
        Tensor (computed in float32, then given the promoted dtype of the inputs).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.correlate(mnp.array([1.0, 2.0, 3.0]), mnp.array([0.0, 1.0, 0.5])))
        [3.5]
    """
    a, v, d = _vectors(a, v, "correlate")
    if a.size < v.size:
        return cast(F.flip(_sliding(v, a, mode, "correlate"), (0,)), d)
    return cast(_sliding(a, v, mode, "correlate"), d)

__all__ = ["convolve", "correlate", "diff", "ediff1d", "gradient", "trapz", "unwrap"]
