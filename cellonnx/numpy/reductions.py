"""Reductions and scans: sum, mean, amax / amin, ptp, var / std, average, count_nonzero, the nan* forms,
cumsum / cumprod / nancumsum, argmax / argmin (mindspore.numpy.math_ops)."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from cellonnx import dtypes
from cellonnx import ops as F
from cellonnx.numpy._utils import (
    as_float,
    axes_tuple,
    axis_index,
    broadcast,
    broadcast_shape,
    cast,
    check_dtype,
    finish,
    is_float,
    is_int,
    reduce_all,
    to_tensor,
)
from cellonnx.ops.prims._util import promote as promote_tensors
from cellonnx.ops.prims.math import Div
from cellonnx.tensor import Tensor


def _axes(axis: Any, ndim: int, op: str) -> tuple[int, ...] | None:
    """Sorted non-negative axes; None (or an empty tuple, as MindSpore reads it) for all of them."""
    if axis is None or (isinstance(axis, (tuple, list)) and not axis):
        return None
    return tuple(sorted(axes_tuple(axis, ndim, op)))


def _count(t: Tensor, axes: tuple[int, ...] | None) -> int:
    """The number of elements reduced over: a product of dims, so a dynamic one stays a graph value."""
    n = 1
    for a in range(t.ndim) if axes is None else axes:
        n = n * t.shape[a]
    return n


def _reduced_shape(t: Tensor, axes: tuple[int, ...] | None, keepdims: bool) -> tuple[int, ...]:
    keep = [1 if axes is None or i in axes else d for i, d in enumerate(t.shape)]
    if keepdims:
        return tuple(keep)
    return tuple(d for i, d in enumerate(t.shape) if axes is not None and i not in axes)


def sum_(a: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False, initial: Any = None) -> Tensor:
    """Returns the sum of array elements over the given axes.

    Args:
        a (Union[Tensor, list, int, float, bool]): input.
        axis (Union[int, tuple[int]], optional): the axes. Default: all of them.
        dtype (Union[DType, str], optional): cast the result to it.
        keepdims (bool): keep the reduced axes with size 1. Default: False.
        initial (Union[int, float, bool], optional): added to the sum.

    Returns:
        Tensor; integers and bools are summed as int64 (as MindSpore's sum).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.array([[1, 2, 3], [4, 5, 6]])
        >>> print(mnp.sum(x))
        21
        >>> print(mnp.sum(x, axis=0))
        [5 7 9]
    """
    if initial is not None and not isinstance(initial, (int, float, bool)):
        raise TypeError(f"sum: initial must be an int, float or bool, got {type(initial).__name__}")
    t = to_tensor(a)
    if t._data.dtype.kind in "biu":
        t = cast(t, np.int64)
    res = F.sum(t, _axes(axis, t.ndim, "sum"), keepdims)
    if initial is not None:
        res = F.add(res, initial)
    return finish(res, dtype)


def mean(a: Any, axis: Any = None, keepdims: bool = False, dtype: Any = None) -> Tensor:
    """Computes the arithmetic mean along the specified axes.

    Args:
        a (Tensor): input.
        axis (Union[int, tuple[int]], optional): the axes. Default: all of them.
        keepdims (bool): keep the reduced axes with size 1. Default: False.
        dtype (Union[DType, str], optional): the result's dtype. Default: the input's (the mean of integers is
            truncated to an integer, as MindSpore's).

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.array([[1.0, 2.0], [3.0, 4.0]])
        >>> print(mnp.mean(x))
        2.5
        >>> print(mnp.mean(x, axis=1))
        [1.5 3.5]
    """
    t = to_tensor(a)
    axes = _axes(axis, t.ndim, "mean")
    work = t if is_float(t) else cast(t, np.float64)
    res = F.mean(work, axes, keepdims)
    return cast(res, check_dtype(dtype, "mean") if dtype is not None else t.dtype)


def _extreme(fn: Any, cmp: Any, a: Any, axis: Any, keepdims: bool, initial: Any, where: Any,
             op: str) -> Tensor:
    t = to_tensor(a)
    axes = _axes(axis, t.ndim, op)
    if initial is not None and not isinstance(initial, (int, float, bool, np.number)) and not (
            isinstance(initial, Tensor) and initial.ndim == 0):
        raise TypeError(f"{op}: initial must be a scalar, got {type(initial).__name__}")
    masked = where is not True and where is not None
    if masked and initial is None:
        raise ValueError(f"{op}: an initial value must be given with a where mask")
    if t.size == 0:
        if initial is None:
            raise ValueError(f"{op}: zero-size tensors have no {op} unless an initial value is given")
        return F.full(_reduced_shape(t, axes, keepdims), initial, dtype=t.dtype)
    if initial is not None:
        init = cast(to_tensor(initial), t.dtype)
        t = cmp(t, init)
        if masked:
            mask = F.cast(to_tensor(where), np.bool_)
            shape = broadcast_shape(tuple(mask.shape), tuple(t.shape))
            extra = len(shape) - t.ndim
            t = F.where(broadcast(mask, shape), broadcast(t, shape), init)
            if axes is not None and extra:
                axes = tuple(range(extra)) + tuple(ax + extra for ax in axes)
    return fn(t, axes, keepdims)


def amax(a: Any, axis: Any = None, keepdims: bool = False, initial: Any = None, where: Any = True) -> Tensor:
    """Returns the maximum of a tensor or the maxima along the given axes.

    Args:
        a (Tensor): input.
        axis (Union[int, tuple[int]], optional): the axes. Default: all of them.
        keepdims (bool): keep the reduced axes with size 1. Default: False.
        initial (Union[int, float, bool], optional): the smallest value the result can take.
        where (Union[bool, Tensor]): which elements to include (needs ``initial``). Default: True.

    Returns:
        Tensor of the input's dtype.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.array([[1, 7, 3], [9, 5, 6]])
        >>> print(mnp.amax(x, axis=1))
        [7 9]
    """
    return _extreme(F.amax, F.maximum, a, axis, keepdims, initial, where, "amax")


def amin(a: Any, axis: Any = None, keepdims: bool = False, initial: Any = None, where: Any = True) -> Tensor:
    """Returns the minimum of a tensor or the minima along the given axes (see ``amax``).

    Args:
        a (Tensor): input.
        axis (Union[int, tuple[int]], optional): the axes. Default: all of them.
        keepdims (bool): keep the reduced axes with size 1. Default: False.
        initial (Union[int, float, bool], optional): the largest value the result can take.
        where (Union[bool, Tensor]): which elements to include (needs ``initial``). Default: True.

    Returns:
        Tensor of the input's dtype.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.array([[1, 7, 3], [9, 5, 6]])
        >>> print(mnp.amin(x, axis=0))
        [1 5 3]
    """
    return _extreme(F.amin, F.minimum, a, axis, keepdims, initial, where, "amin")


def ptp(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    """Range of values (maximum - minimum) along the given axes.

    Args:
        x (Tensor): input.
        axis (Union[int, tuple[int]], optional): the axes. Default: all of them.
        keepdims (bool): keep the reduced axes with size 1. Default: False.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.ptp(mnp.array([[1, 7, 3], [9, 5, 6]]), axis=1))
        [6 4]
    """
    if not isinstance(keepdims, bool):
        raise TypeError(f"ptp: keepdims must be a bool, got {type(keepdims).__name__}")
    return F.sub(amax(x, axis, keepdims), amin(x, axis, keepdims))


def _var(t: Tensor, axes: tuple[int, ...] | None, ddof: Any, keepdims: bool, op: str) -> Tensor:
    if isinstance(ddof, bool) or not isinstance(ddof, (int, np.integer)):
        raise TypeError(f"{op}: ddof must be an int, got {type(ddof).__name__}")
    if t.size == 0:
        return Tensor(np.asarray(np.nan, as_float(t)._data.dtype))
    # as in MindSpore, the mean of integers is itself an integer (truncated) before the deviations are taken
    centered = F.sub(as_float(t), as_float(mean(t, axes, True)))
    total = F.sum(F.mul(centered, centered), axes, keepdims)
    count = F.sum(F.ones_like(centered), axes, keepdims)  # from the run-time shape, for dynamic dims
    return F.div(total, F.sub(count, float(ddof)) if ddof else count)


def var(x: Any, axis: Any = None, ddof: int = 0, keepdims: bool = False) -> Tensor:
    """Computes the variance along the specified axes: the mean of the squared deviations, divided by
    ``N - ddof`` instead of N. For integer input the mean the deviations are taken from is truncated to an
    integer first, as in MindSpore.

    Args:
        x (Tensor): input.
        axis (Union[int, tuple[int]], optional): the axes. Default: all of them.
        ddof (int): delta degrees of freedom. Default: 0.
        keepdims (bool): keep the reduced axes with size 1. Default: False.

    Returns:
        Tensor; integers give float32.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.array([[1.0, 3.0], [2.0, 6.0]])
        >>> print(mnp.var(x, axis=1))
        [1. 4.]
    """
    t = to_tensor(x)
    return _var(t, _axes(axis, t.ndim, "var"), ddof, keepdims, "var")


def std(x: Any, axis: Any = None, ddof: int = 0, keepdims: bool = False) -> Tensor:
    """Computes the standard deviation along the specified axes (the square root of ``var``).

    Args:
        x (Tensor): input.
        axis (Union[int, tuple[int]], optional): the axes. Default: all of them.
        ddof (int): delta degrees of freedom. Default: 0.
        keepdims (bool): keep the reduced axes with size 1. Default: False.

    Returns:
        Tensor; integers give float32.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.array([[1.0, 3.0], [2.0, 6.0]])
        >>> print(mnp.std(x, axis=1))
        [1. 2.]
    """
    t = to_tensor(x)
    return F.sqrt(_var(t, _axes(axis, t.ndim, "std"), ddof, keepdims, "std"))


def average(x: Any, axis: Any = None, weights: Any = None, returned: bool = False) -> Any:
    """Computes the weighted average along the specified axes.

    Args:
        x (Tensor): input.
        axis (Union[int, tuple[int]], optional): the axes. Default: all of them.
        weights (Tensor, optional): of ``x``'s shape, or 1-D along an int ``axis``. Default: equal weights.
        returned (bool): also return the sum of the weights. Default: False.

    Returns:
        Tensor, or (average, sum of weights) with ``returned``.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.array([1.0, 2.0, 3.0])
        >>> print(mnp.average(x, weights=mnp.array([3.0, 1.0, 0.0])))
        1.25
    """
    t = to_tensor(x)
    axes = _axes(axis, t.ndim, "average")
    if weights is None:
        avg = mean(t, axes)
        total = F.broadcast_to(Tensor(_count(t, axes), t.dtype), tuple(avg.shape))
    else:
        w = to_tensor(weights)
        if tuple(w.shape) != tuple(t.shape):
            if w.ndim != 1:
                raise TypeError("average: weights must be None, 1-D or of the input's shape")
            if not isinstance(axis, (int, np.integer)):
                raise TypeError("average: axis must be an int when the input and weights differ in shape")
            ax = axis_index(axis, t.ndim, "average")
            shape = [1] * t.ndim
            shape[ax] = w.shape[0]
            w = F.reshape(w, tuple(shape))
        total = F.sum(w, axes)
        weighted = F.sum(F.mul(t, w), axes)
        if is_int(weighted) and is_int(total):  # integers divide with truncation, as in MindSpore
            avg = Div.apply(*promote_tensors(weighted, total))
        else:
            avg = F.div(weighted, total)
    if returned:
        return avg, broadcast(cast(total, avg.dtype) if tuple(total.shape) != tuple(avg.shape) else total,
                              tuple(avg.shape))
    return avg


def count_nonzero(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    """Counts the non-zero values along the given axes.

    Args:
        x (Tensor): input.
        axis (Union[int, tuple[int]], optional): the axes. Default: all of them.
        keepdims (bool): keep the reduced axes with size 1. Default: False.

    Returns:
        Tensor, int32.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.count_nonzero(mnp.array([[0, 1, 2], [0, 0, 3]])))
        3
    """
    t = to_tensor(x)
    if t.size == 0:
        return Tensor(np.asarray(0, np.int32))
    flags = cast(F.not_equal(t, 0) if t._data.dtype != np.bool_ else t, np.int32)
    return F.sum(flags, _axes(axis, t.ndim, "count_nonzero"), keepdims)


# ---------------------------------------------------------------- ignoring NaN
def _not_nan(t: Tensor) -> Tensor:
    return F.logical_not(F.isnan(t)) if is_float(t) else F.ones_like(t, dtype=dtypes.bool_)


def _zero_nan(t: Tensor) -> Tensor:
    return F.where(F.isnan(t), 0, t) if is_float(t) else t


def nansum(a: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Tensor:
    """Returns the sum over the given axes, treating NaN as zero.

    Args:
        a (Tensor): input.
        axis (Union[int, tuple[int]], optional): the axes. Default: all of them.
        dtype (Union[DType, str], optional): the result's dtype. Default: the input's.
        keepdims (bool): keep the reduced axes with size 1. Default: False.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.nansum(mnp.array([1.0, float('nan'), 2.0])))
        3.0
    """
    t = to_tensor(a)
    res = F.sum(_zero_nan(t), _axes(axis, t.ndim, "nansum"), keepdims)
    return cast(res, check_dtype(dtype, "nansum") if dtype is not None else t.dtype)


def _nanmean(t: Tensor, axes: tuple[int, ...] | None, keepdims: bool, d: Any) -> Tensor:
    total = cast(F.sum(_zero_nan(t), axes, keepdims), d)
    count = F.sum(cast(_not_nan(t), t._data.dtype if t._data.dtype != np.bool_ else np.int32), axes, keepdims)
    return F.div(total, count)


def nanmean(a: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Tensor:
    """Computes the arithmetic mean along the specified axes, ignoring NaNs.

    Args:
        a (Tensor): input.
        axis (Union[int, tuple[int]], optional): the axes. Default: all of them.
        dtype (Union[DType, str], optional): the dtype of the sum. Default: float32.
        keepdims (bool): keep the reduced axes with size 1. Default: False.

    Returns:
        Tensor (NaN where a slice holds only NaN).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.nanmean(mnp.array([1.0, float('nan'), 3.0])))
        2.0
    """
    t = to_tensor(a)
    d = dtypes.float32 if dtype is None else check_dtype(dtype, "nanmean")
    return _nanmean(t, _axes(axis, t.ndim, "nanmean"), keepdims, d)


def _nanvar(a: Any, axis: Any, dtype: Any, ddof: int, keepdims: bool, op: str) -> Tensor:
    t = to_tensor(a)
    axes = _axes(axis, t.ndim, op)
    centered = F.sub(t, _nanmean(t, axes, True, dtypes.float32))
    total = F.sum(_zero_nan(F.mul(centered, centered)), axes, keepdims)
    count = F.sum(cast(_not_nan(t), total._data.dtype), axes, keepdims)
    res = F.div(total, F.sub(count, float(ddof)))
    return cast(res, dtypes.float32 if dtype is None else check_dtype(dtype, op))


def nanvar(a: Any, axis: Any = None, dtype: Any = None, ddof: int = 0, keepdims: bool = False) -> Tensor:
    """Computes the variance along the specified axes, ignoring NaNs.

    Args:
        a (Tensor): input.
        axis (Union[int, tuple[int]], optional): the axes. Default: all of them.
        dtype (Union[DType, str], optional): the result's dtype. Default: float32.
        ddof (int): delta degrees of freedom. Default: 0.
        keepdims (bool): keep the reduced axes with size 1. Default: False.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.nanvar(mnp.array([1.0, float('nan'), 3.0])))
        1.0
    """
    return _nanvar(a, axis, dtype, ddof, keepdims, "nanvar")


def nanstd(a: Any, axis: Any = None, dtype: Any = None, ddof: int = 0, keepdims: bool = False) -> Tensor:
    """Computes the standard deviation along the specified axes, ignoring NaNs (see ``nanvar``).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.nanstd(mnp.array([1.0, float('nan'), 3.0])))
        1.0
    """
    return F.sqrt(_nanvar(a, axis, dtype, ddof, keepdims, "nanstd"))


def _nan_extreme(fn: Any, fill: float, a: Any, axis: Any, dtype: Any, keepdims: bool, op: str) -> Tensor:
    if not isinstance(keepdims, (int, bool)):
        raise TypeError(f"{op}: keepdims must be an int or bool, got {type(keepdims).__name__}")
    t = to_tensor(a)
    axes = _axes(axis, t.ndim, op)
    if is_float(t):
        nan = F.isnan(t)
        res = fn(F.where(nan, fill, t), axes, bool(keepdims))
        res = F.where(reduce_all(nan, axes, bool(keepdims)), math.nan, res)  # all-NaN slices give NaN
    else:
        res = fn(t, axes, bool(keepdims))
    return finish(res, dtype)


def nanmax(a: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Tensor:
    """Returns the maximum along the given axes, ignoring NaNs.

    Args:
        a (Tensor): input.
        axis (Union[int, tuple[int]], optional): the axes. Default: all of them.
        dtype (Union[DType, str], optional): cast the result to it.
        keepdims (bool): keep the reduced axes with size 1. Default: False.

    Returns:
        Tensor (NaN where a slice holds only NaN).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.nanmax(mnp.array([1.0, float('nan'), 3.0])))
        3.0
    """
    return _nan_extreme(F.amax, -math.inf, a, axis, dtype, keepdims, "nanmax")


def nanmin(a: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Tensor:
    """Returns the minimum along the given axes, ignoring NaNs (see ``nanmax``).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.nanmin(mnp.array([1.0, float('nan'), 3.0])))
        1.0
    """
    return _nan_extreme(F.amin, math.inf, a, axis, dtype, keepdims, "nanmin")


# ---------------------------------------------------------------- scans
_SCAN_INT32 = (np.dtype(np.bool_), np.dtype(np.int8), np.dtype(np.int16), np.dtype(np.uint8))


def cumsum(a: Any, axis: int | None = None, dtype: Any = None) -> Tensor:
    """Returns the cumulative sum of the elements along a given axis.

    Args:
        a (Tensor): input.
        axis (int, optional): the axis. Default: over the flattened tensor.
        dtype (Union[DType, str], optional): cast the result to it.

    Returns:
        Tensor; bool, int8, int16 and uint8 inputs are summed as int32 (as MindSpore).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.cumsum(mnp.array([1, 2, 3, 4])))
        [ 1  3  6 10]
    """
    t = to_tensor(a)
    if t._data.dtype in _SCAN_INT32:
        t = cast(t, np.int32)
    if axis is None:
        t, axis = F.reshape(t, (-1,)), 0
    res = F.cumsum(t, axis_index(axis, max(t.ndim, 1), "cumsum"))
    return finish(res, dtype)


def nancumsum(a: Any, axis: int | None = None, dtype: Any = None) -> Tensor:
    """Returns the cumulative sum along a given axis, treating NaN as zero (see ``cumsum``).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.nancumsum(mnp.array([1.0, float('nan'), 2.0])))
        [1. 1. 3.]
    """
    return cumsum(_zero_nan(to_tensor(a)), axis, dtype)


def cumprod(a: Any, axis: int | None = None, dtype: Any = None) -> Tensor:
    """Returns the cumulative product of the elements along a given axis.

    Args:
        a (Tensor): input.
        axis (int, optional): the axis. Default: over the flattened tensor.
        dtype (Union[DType, str], optional): the result's dtype. Default: the input's, except int8 / int16 /
            bool give int32 and uint8 / uint16 give uint32 (the product is computed in float32, float64 for
            float64 inputs, as MindSpore).

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.cumprod(mnp.array([1, 2, 3, 4])))
        [ 1  2  6 24]
    """
    t = to_tensor(a)
    if axis is not None and (isinstance(axis, bool) or not isinstance(axis, (int, np.integer))):
        raise TypeError(f"cumprod: axis must be an int, got {type(axis).__name__}")
    original = t._data.dtype
    if axis is None:
        t, axis = F.reshape(t, (-1,)), 0
    ax = axis_index(axis, t.ndim, "cumprod")
    work = t if original == np.float64 else cast(t, np.float32)
    res = F.cumprod(work, ax)
    if dtype is not None:
        target = check_dtype(dtype, "cumprod").np_dtype
    elif original in (np.int8, np.int16, np.bool_):
        target = np.dtype(np.int32)
    elif original in (np.uint8, np.uint16):
        target = np.dtype(np.uint32)
    else:
        target = original
    return cast(res, target)


# ---------------------------------------------------------------- arg reductions
def argmax(a: Any, axis: int | None = None) -> Tensor:
    """Returns the indices of the maximum values along an axis (the first one on ties).

    Args:
        a (Tensor): input.
        axis (int, optional): the axis. Default: over the flattened tensor.

    Returns:
        Tensor, int64.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.array([[1, 7, 3], [9, 5, 6]])
        >>> print(mnp.argmax(x, axis=1))
        [1 0]
    """
    t = to_tensor(a)
    if t._data.dtype == np.bool_:
        t = cast(t, np.int32)
    return F.argmax(t, axis)


def argmin(a: Any, axis: int | None = None) -> Tensor:
    """Returns the indices of the minimum values along an axis (the first one on ties).

    Args:
        a (Tensor): input.
        axis (int, optional): the axis. Default: over the flattened tensor.

    Returns:
        Tensor, int32 (as MindSpore's; argmax gives int64).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.array([[1, 7, 3], [9, 5, 6]])
        >>> print(mnp.argmin(x, axis=1))
        [0 1]
    """
    t = to_tensor(a)
    if t._data.dtype == np.bool_:
        t = cast(t, np.int32)
    return cast(F.argmin(t, axis), np.int32)

__all__ = ["amax", "amin", "argmax", "argmin", "average", "count_nonzero", "cumprod", "cumsum", "mean",
           "nancumsum", "nanmax", "nanmean", "nanmin", "nanstd", "nansum", "nanvar", "ptp", "std", "sum_",
           "var"]
