"""Reductions and statistics over primitives: all / any, count_nonzero, nansum / nanmean, median /
nanmedian (values and indices), quantile / nanquantile, cov, histc, bincount, diff and trapz."""
from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from cellonnx import dtypes
from cellonnx import ops as _ops
from cellonnx.ops.prims._util import is_float_dtype, norm_axes, norm_axis, to_tensor
from cellonnx.ops.prims.math import _floatify
from cellonnx.tensor import Tensor

F: Any = _ops  # the functional API; its names are filled in at import time, so typed loosely


def _keep(out: Tensor, x: Tensor, axes: tuple[int, ...] | None, keepdims: bool) -> Tensor:
    """Drop the reduced axes of a keep-dims result unless ``keepdims``."""
    if keepdims:
        return out
    if axes is None:
        return F.reshape(out, ())
    return F.squeeze(out, axes) if axes else out


# ---------------------------------------------------------------- logical and counting reductions
def all(input: Tensor, axis: Any = None, keep_dims: bool = False) -> Tensor:
    """Whether every element along ``axis`` (all axes when None or ``()``) is non-zero.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[True, False], [True, True]]), ms.bool_)
        >>> print(ops.all(x, axis=1))
        [False  True]
    """
    x = to_tensor(input)
    off = F.cast(F.logical_not(x), np.int32)
    return F.equal(F.sum(off, norm_axes(axis, x.ndim, "all"), keep_dims), 0)


def any(input: Tensor, axis: Any = None, keep_dims: bool = False) -> Tensor:
    """Whether any element along ``axis`` (all axes when None or ``()``) is non-zero.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[True, False], [False, False]]), ms.bool_)
        >>> print(ops.any(x, axis=1))
        [ True False]
    """
    x = to_tensor(input)
    on = F.cast(F.not_equal(x, 0) if x._data.dtype != np.bool_ else x, np.int32)
    return F.greater(F.sum(on, norm_axes(axis, x.ndim, "any"), keep_dims), 0)


def count_nonzero(x: Tensor, axis: Any = (), keep_dims: bool = False, dtype: Any = dtypes.int32) -> Tensor:
    """The number of non-zero elements along ``axis`` (all axes when ``()``), in ``dtype``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[0, 1, 2], [0, 0, 3]]), ms.int32)
        >>> print(ops.count_nonzero(x, axis=1))
        [2 1]
    """
    x = to_tensor(x)
    counts = F.sum(F.cast(F.not_equal(x, 0), np.float32), norm_axes(axis, x.ndim, "count_nonzero"), keep_dims)
    return F.cast(counts, dtype)


def nansum(input: Tensor, axis: Any = None, keepdims: bool = False, *, dtype: Any = None) -> Tensor:
    """The sum along ``axis`` (all axes when None), NaN counting as zero.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, np.nan, 2.0]), ms.float32)
        >>> print(ops.nansum(x))
        3.0
    """
    x = to_tensor(input)
    if is_float_dtype(x._data.dtype):
        x = F.where(F.isnan(x), F.zeros_like(x), x)
    return F.sum(x, norm_axes(axis, x.ndim, "nansum"), keepdims, dtype=dtype)


def nanmean(input: Tensor, axis: Any = None, keepdims: bool = False, *, dtype: Any = None) -> Tensor:
    """The mean along ``axis`` (all axes when None) of the elements that are not NaN.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, np.nan, 3.0]), ms.float32)
        >>> print(ops.nanmean(x))
        2.0
    """
    x = _floatify(input)
    if dtype is not None:
        x = F.cast(x, dtype)
    valid = F.logical_not(F.isnan(x))
    axes = norm_axes(axis, x.ndim, "nanmean")
    total = F.sum(F.where(valid, x, F.zeros_like(x)), axes, keepdims)
    return F.div(total, F.sum(F.cast(valid, x._data.dtype), axes, keepdims))


# ---------------------------------------------------------------- order statistics
def _median(input: Tensor, axis: int, keepdims: bool, ignore_nan: bool, op: str) -> tuple[Tensor, Tensor]:
    x = to_tensor(input)
    if x.ndim == 0:
        return x, F.zeros((), dtype=dtypes.int64)
    a = norm_axis(axis, x.ndim, op)
    n = x.shape[a]  # a graph value where the axis is dynamic
    ordered, order = F.sort(x, a)  # stable, NaN last
    floats = is_float_dtype(x._data.dtype)
    if ignore_nan and floats:
        valid = F.sum(F.cast(F.logical_not(F.isnan(x)), np.int64), a, True)
        # an all-NaN slice gives NaN at the middle position of the whole slice (as MindSpore)
        middle = F.mul(F.ones_like(valid), (n - 1) // 2)
        k = F.where(F.equal(valid, 0), middle, F.floor_div(F.sub(valid, 1), 2))
        value, index = F.gather_elements(ordered, a, k), F.gather_elements(order, a, k)
    else:
        value, index = F.narrow(ordered, a, (n - 1) // 2, 1), F.narrow(order, a, (n - 1) // 2, 1)
        if floats:  # any NaN makes the median NaN, and its index the first NaN's
            nan = F.isnan(x)
            has_nan = F.any(nan, a, True)
            value = F.where(has_nan, F.full_like(value, np.nan), value)
            index = F.where(has_nan, F.argmax(F.cast(nan, np.int32), a, True), index)
    if not keepdims:
        value, index = F.squeeze(value, a), F.squeeze(index, a)
    return value, F.cast(index, np.int64)


def median(input: Tensor, axis: int = -1, keepdims: bool = False) -> tuple[Tensor, Tensor]:
    """The median along ``axis`` (the lower of the two middle values for an even count) and its index (of
    the element a stable sort puts in the middle); a slice holding NaN has median NaN (index: its first NaN).

    Returns:
        tuple (values, indices int64).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]]), ms.float32)
        >>> values, indices = ops.median(x, axis=1)
        >>> print(values)
        [3. 4.]
        >>> print(indices)
        [2 0]
    """
    return _median(input, axis, keepdims, False, "median")


def nanmedian(input: Tensor, axis: int = -1, keepdims: bool = False) -> tuple[Tensor, Tensor]:
    """The median along ``axis`` of the elements that are not NaN (NaN for an all-NaN slice) and its index,
    as :func:`median`.

    Returns:
        tuple (values, indices int64).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, np.nan, 3.0, 2.0]), ms.float32)
        >>> print(ops.nanmedian(x))
        (Tensor(shape=[], dtype=Float32, value= 2), Tensor(shape=[], dtype=Int64, value= 3))
    """
    return _median(input, axis, keepdims, True, "nanmedian")


def _quantile(input: Tensor, q: Any, axis: Any, keepdims: bool, ignore_nan: bool, op: str) -> Tensor:
    x = _floatify(input)
    scalar_q = not isinstance(q, Tensor) or q.ndim == 0
    qt = to_tensor(q) if isinstance(q, Tensor) else Tensor(np.asarray(q, dtype=x._data.dtype))
    if qt.ndim > 1:
        raise ValueError(f"{op}: q must be a number or a 0-D / 1-D tensor, got shape {tuple(qt.shape)}")
    qv = qt._data if not qt.requires_grad else None
    if qv is not None and qv.size and (np.nanmin(qv) < 0 or np.nanmax(qv) > 1):
        raise ValueError(f"{op}: q must lie in [0, 1], got {qv.tolist()}")
    qt = F.cast(F.reshape(qt, (-1,)), x._data.dtype)
    if axis is None:
        flat = F.reshape(x, (-1,))
        a, work = 0, flat
    else:
        a = norm_axis(int(axis), x.ndim, op)
        work = x
    n = work.shape[a]  # a graph value where the axis is dynamic
    ordered, _ = F.sort(work, a)
    nq = int(qt._data.shape[0])
    # positions q * (count - 1), per quantile, broadcast against the sorted values' keep-dims shape
    qshape = (nq,) + (1,) * work.ndim
    if ignore_nan:
        count = F.sum(F.cast(F.logical_not(F.isnan(work)), x._data.dtype), a, True)
    else:
        count = F.mul(F.ones_like(F.narrow(work, a, 0, 1)), n)
    pos = F.mul(F.reshape(qt, qshape), F.sub(count, 1.0))          # (nq, ..., 1, ...)
    pos = F.maximum(pos, F.zeros_like(pos))
    lo = F.floor(pos)
    hi = F.minimum(F.ceil(pos), F.maximum(F.sub(count, 1.0), F.zeros_like(count)))
    frac = F.sub(pos, lo)
    expand = F.broadcast_to(F.expand_dims(ordered, 0), (nq,) + tuple(ordered.shape))
    lo_v = F.gather_elements(expand, a + 1, F.cast(lo, np.int64))
    hi_v = F.gather_elements(expand, a + 1, F.cast(hi, np.int64))
    out = F.add(lo_v, F.mul(F.sub(hi_v, lo_v), frac))
    if not ignore_nan:
        has_nan = F.expand_dims(F.any(F.isnan(work), a, True), 0)
        out = F.where(has_nan, F.full_like(out, np.nan), out)
    else:
        out = F.where(F.equal(F.expand_dims(count, 0), 0), F.full_like(out, np.nan), out)
    # out: (nq, ..., 1 at a, ...)
    if keepdims:
        if axis is None:
            out = F.reshape(out, (nq,) + (1,) * x.ndim)
    else:
        out = F.squeeze(out, a + 1)
    return F.squeeze(out, 0) if scalar_q else out


def quantile(input: Tensor, q: Any, axis: int | None = None, keepdims: bool = False) -> Tensor:
    """The ``q``-th quantiles along ``axis`` (of all elements when None), interpolating linearly between
    the order statistics; a slice holding NaN gives NaN.

    Args:
        input (Tensor): float input.
        q (Union[float, Tensor]): quantiles in [0, 1]; a 1-D tensor adds a leading axis of its length.
        axis (int, optional): the axis to reduce. Default None (all elements).
        keepdims (bool): keep the reduced axis (axes) as size 1. Default False.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 3.0, 4.0]), ms.float32)
        >>> print(ops.quantile(x, 0.5))
        2.5
    """
    return _quantile(input, q, axis, keepdims, False, "quantile")


def nanquantile(input: Tensor, q: Any, axis: int | None = None, keepdims: bool = False) -> Tensor:
    """:func:`quantile` of the elements that are not NaN (NaN for an all-NaN slice).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([1.0, np.nan, 3.0, 2.0]), ms.float32)
        >>> print(ops.nanquantile(x, 0.5))
        2.0
    """
    return _quantile(input, q, axis, keepdims, True, "nanquantile")


# ---------------------------------------------------------------- covariance, histograms
def cov(input: Tensor, *, correction: int = 1, fweights: Tensor | None = None,
        aweights: Tensor | None = None) -> Tensor:
    """The covariance matrix of the variables in the rows of ``input`` (observations in the columns).

    Args:
        input (Tensor): 1-D (one variable) or 2-D (variables, observations).
        correction (int): subtracted from the (weighted) count in the divisor: 1 unbiased, 0 the maximum
            likelihood estimate. Default 1.
        fweights (Tensor, optional): 1-D integer frequency weights of the observations.
        aweights (Tensor, optional): 1-D float observation weights.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]]), ms.float32)
        >>> print(ops.cov(x))
        [[ 1. -1.]
         [-1.  1.]]
    """
    x = to_tensor(input)
    if x.ndim > 2:
        raise ValueError(f"cov: input must have two or fewer dimensions, got shape {tuple(x.shape)}")
    if x._data.dtype == np.bool_:
        raise TypeError("cov: input must not be bool")
    x = F.reshape(x, (1, -1)) if x.ndim < 2 else x
    if not is_float_dtype(x._data.dtype) or x._data.dtype in (np.float16, dtypes.bfloat16.np_dtype):
        x = F.cast(x, np.float32)
    n = x.shape[1]  # a graph value where it is dynamic
    w = None
    for weights, name in ((fweights, "fweights"), (aweights, "aweights")):
        if weights is not None:
            weights = to_tensor(weights)
            if weights.ndim != 1 or int(weights._data.shape[0]) != int(n):
                raise ValueError(f"cov: {name} must be 1-D with {n} elements, got shape "
                                 f"{tuple(weights.shape)}")
            weights = F.cast(weights, x._data.dtype)
            w = weights if w is None else F.mul(w, weights)
    if w is not None:
        w_sum = F.sum(w)
        avg = F.div(F.sum(F.mul(x, w), 1), w_sum)
    else:
        w_sum = F.cast(Tensor(n), x._data.dtype)
        avg = F.mean(x, 1)
    if w is not None and aweights is not None and correction != 0:
        a = F.cast(to_tensor(aweights), x._data.dtype)
        norm = F.sub(w_sum, F.div(F.mul(F.sum(F.mul(w, a)), float(correction)), w_sum))
    else:
        norm = F.sub(w_sum, float(correction))
    norm = F.maximum(norm, F.zeros_like(norm))
    xc = F.sub(x, F.expand_dims(avg, 1))
    c = F.matmul(xc, F.transpose(F.mul(xc, w) if w is not None else xc, (1, 0)))
    out = F.div(c, norm)
    return F.reshape(out, ()) if tuple(out.shape) == (1, 1) else out


def histc(input: Tensor, bins: int = 100, min: float = 0.0, max: float = 0.0) -> Tensor:
    """The histogram of ``input`` in ``bins`` equal bins over [min, max] (the data's range when both are
    equal); values outside are ignored, ``max`` itself falls in the last bin. Float inputs count in their
    dtype, integer inputs in int32.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 1.0, 4.0]), ms.float32)
        >>> print(ops.histc(x, bins=4, min=0.0, max=4.0))
        [0. 2. 1. 1.]
    """
    if not isinstance(min, (int, float)) or not isinstance(max, (int, float)):
        raise TypeError(f"histc: min and max must be numbers, got {type(min).__name__} and "
                        f"{type(max).__name__}")
    if int(bins) <= 0:
        raise ValueError(f"histc: bins must be positive, got {bins}")
    if min > max:
        raise ValueError(f"histc: min {min} must not exceed max {max}")
    x = F.reshape(to_tensor(input), (-1,))
    out_dt = x._data.dtype if is_float_dtype(x._data.dtype) else np.dtype(np.int32)
    xf = F.cast(x, np.float64) if x._data.dtype != np.float64 else x
    if min == max:
        if x._data.size == 0:
            return F.zeros((int(bins),), dtype=out_dt)
        lo, hi = F.amin(xf), F.amax(xf)
        same = F.equal(lo, hi)
        lo, hi = F.where(same, F.sub(lo, 1.0), lo), F.where(same, F.add(hi, 1.0), hi)
    else:
        lo, hi = Tensor(np.float64(min)), Tensor(np.float64(max))
    inside = F.logical_and(F.greater_equal(xf, lo), F.less_equal(xf, hi))
    idx = F.floor(F.div(F.mul(F.sub(xf, lo), float(bins)), F.sub(hi, lo)))
    idx = F.clamp(F.where(inside, idx, F.zeros_like(idx)), 0.0, float(bins - 1))
    positions = F.expand_dims(F.cast(idx, np.int64), 1)
    # float32 counts (exact up to 2**24 per bin): onnxruntime's scatter-add and one-hot run on them
    counts = F.tensor_scatter_add(F.zeros((int(bins),), dtype=dtypes.float32), positions,
                                  F.cast(inside, np.float32))
    return F.cast(counts, out_dt)


def bincount(input: Tensor, weights: Tensor | None = None, minlength: int = 0) -> Tensor:
    """How often each value 0, 1, ... occurs in a 1-D tensor of non-negative integers (the sum of the
    ``weights`` at its positions), float32, of length ``max(max(input) + 1, minlength)``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0, 1, 1, 3]), ms.int32)
        >>> print(ops.bincount(x))
        [1. 2. 0. 1.]
    """
    x = to_tensor(input)
    if x.ndim != 1:
        raise ValueError(f"bincount: input must be 1-D, got shape {tuple(x.shape)}")
    if isinstance(minlength, bool) or not isinstance(minlength, int) or minlength < 0:
        raise ValueError(f"bincount: minlength must be a non-negative int, got {minlength!r}")
    if x._data.dtype.kind not in "iu":
        raise TypeError(f"bincount: input must be an integer tensor, got {x.dtype}")
    if x._data.size == 0:
        return F.zeros((minlength,), dtype=dtypes.float32)
    if int(x._data.min()) < 0:
        raise ValueError(f"bincount: input must be non-negative, got {int(x._data.min())}")
    length = builtins.max(int(x._data.max()) + 1, minlength)
    vals = F.ones(x.shape, dtype=dtypes.float32) if weights is None else F.cast(weights, np.float32)
    if weights is not None and tuple(vals.shape) != tuple(x.shape):
        raise ValueError(f"bincount: weights {tuple(vals.shape)} must have the shape of input "
                         f"{tuple(x.shape)}")
    positions = F.expand_dims(F.cast(x, np.int64), 1)
    return F.tensor_scatter_add(F.zeros((length,), dtype=dtypes.float32), positions, vals)


# ---------------------------------------------------------------- differences and integration
def diff(x: Tensor, n: int = 1, axis: int = -1, prepend: Tensor | None = None,
         append: Tensor | None = None) -> Tensor:
    """The ``n``-th forward difference along ``axis``, after ``prepend`` / ``append`` are joined to the
    input there; a bool input gives whether neighbours differ.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1, 3, 6, 10]), ms.int32)
        >>> print(ops.diff(x))
        [2 3 4]
    """
    x = to_tensor(x)
    if x.ndim == 0:
        raise ValueError("diff: input must have at least one dimension")
    a = norm_axis(axis, x.ndim, "diff")
    parts = [t for t in (prepend, x, append) if t is not None]
    if len(parts) > 1:
        x = F.concat([F.cast(to_tensor(t), x._data.dtype) for t in parts], a)
    for _ in range(int(n)):
        m = x.shape[a]  # a graph value where the axis is dynamic
        if int(m) == 0:
            break
        hi, lo = F.narrow(x, a, 1, m - 1), F.narrow(x, a, 0, m - 1)
        x = F.not_equal(hi, lo) if x._data.dtype == np.bool_ else F.sub(hi, lo)
    return x


def diff_ext(input: Tensor, n: int = 1, dim: int = -1, prepend: Tensor | None = None,
             append: Tensor | None = None) -> Tensor:
    """The ``n``-th forward difference along ``dim`` (as :func:`diff`).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([1, 3, 6, 10]), ms.int32)
        >>> print(ops.diff_ext(x))
        [2 3 4]
    """
    return diff(input, n, dim, prepend, append)


def trapz(y: Tensor, x: Tensor | None = None, *, dx: float = 1.0, dim: int = -1) -> Tensor:
    """The integral of ``y`` along ``dim`` by the trapezoidal rule, at sample points ``x`` (1-D, or the
    shape of ``y``) or spaced ``dx`` apart.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> y = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> print(ops.trapz(y))
        4.0
    """
    y = _floatify(y)
    a = norm_axis(dim, y.ndim, "trapz")
    m = y.shape[a]  # a graph value where the axis is dynamic
    if m < 2:
        return F.sum(F.mul(y, 0.0), a)
    mid = F.mul(F.add(F.narrow(y, a, 1, m - 1), F.narrow(y, a, 0, m - 1)), 0.5)
    if x is None:
        return F.mul(F.sum(mid, a), float(dx))
    xt = F.cast(to_tensor(x), y._data.dtype)
    if xt.ndim == 1:
        if int(xt._data.shape[0]) != int(m):
            raise ValueError(f"trapz: x has {int(xt._data.shape[0])} points, y has {m} along dim {a}")
        shape = [1] * y.ndim
        shape[a] = m
        xt = F.reshape(xt, tuple(shape))
    spacing = diff(xt, 1, a)
    return F.sum(F.mul(mid, spacing), a)


__all__ = ["all", "any", "bincount", "count_nonzero", "cov", "diff", "diff_ext", "histc", "median", "nanmean",
           "nanmedian", "nanquantile", "nansum", "quantile", "trapz"]
