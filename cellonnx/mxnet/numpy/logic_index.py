"""mx.np's truth tests, index functions and array edits that MXNet 1.9.1 implements as its own operators:
``all`` / ``any`` (0-d bool arrays, not Python bools), ``nonzero`` (int64 indices), ``percentile`` /
``quantile`` (MXNet's ``interpolation=``, not differentiable), ``insert`` / ``delete`` / ``resize``,
``diag_indices_from`` and the memory-sharing tests. None of them is differentiable, as in MXNet.
"""
from __future__ import annotations

import sys
from typing import Any

import numpy as _onp

from cellonnx import ops as _ops
from cellonnx.mxnet._op._util import eager_only
from cellonnx.mxnet.numpy.multiarray import to_np
from cellonnx.tensor import Tensor

__all__ = ["all", "any", "delete", "diag_indices_from", "insert", "may_share_memory", "nonzero",
           "percentile", "quantile", "resize", "shares_memory", "sometrue"]

_builtin_all, _builtin_any = all, any


def _values(x: Any, name: str | None = None) -> _onp.ndarray:
    """``x``'s values for NumPy; a traced array refuses (NotExportable): a graph would hold the example's.
    ``name``: the function's (by default the caller's)."""
    eager_only(f"np.{name or sys._getframe(1).f_code.co_name}", x)
    return x._data if isinstance(x, Tensor) else _onp.asarray(x)


def _axis(axis: Any) -> Any:
    return tuple(axis) if isinstance(axis, list) else axis


def _wrap(value: Any, out: Any = None) -> Any:
    result = to_np(Tensor(_onp.array(value, order="C")))
    if out is not None:
        out[...] = result
        return out
    return result


def _reduced(reduce: Any, a: Any, axis: Any, keepdims: bool, out: Any) -> Any:
    """all / any with ops (a graph when traced): of ``a != 0``, over ``axis`` (every axis when None)."""
    t = a if isinstance(a, Tensor) else Tensor(_onp.asarray(a))
    truth = t if t._data.dtype == _onp.bool_ else _ops.not_equal(t, 0)
    axes = tuple(range(t.ndim)) if axis is None else _axis(axis)
    result = to_np(reduce(truth, axes, bool(keepdims)) if axes != () else truth)
    if out is not None:
        out[...] = result
        return out
    return result


def all(a: Any, axis: Any = None, keepdims: bool = False, out: Any = None) -> Any:
    """Whether every element along ``axis`` (all axes when None) is non-zero: a bool array (0-d for a whole
    array), as MXNet gives it.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> x = np.array([[1.0, 0.0], [2.0, 3.0]])
        >>> print(np.all(x))
        False
        >>> print(np.all(x, axis=1))
        [False  True]
    """
    return _reduced(_ops.all, a, axis, keepdims, out)


def any(a: Any, axis: Any = None, keepdims: bool = False, out: Any = None) -> Any:
    """Whether some element along ``axis`` (all axes when None) is non-zero: a bool array (0-d for a whole
    array), as MXNet gives it.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> x = np.array([[0.0, 0.0], [2.0, 0.0]])
        >>> print(np.any(x))
        True
        >>> print(np.any(x, axis=1))
        [False  True]
    """
    return _reduced(_ops.any, a, axis, keepdims, out)


sometrue = any  # MXNet's alias of any


def nonzero(a: Any) -> tuple:
    """The int64 indices of the non-zero elements, one array per axis.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> x = np.array([[3.0, 0.0], [0.0, 4.0]])
        >>> rows, cols = np.nonzero(x)
        >>> print(rows, cols)
        [0 1] [0 1]
    """
    return tuple(_wrap(i.astype(_onp.int64)) for i in _onp.nonzero(_values(a)))


_METHODS = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile(name: str, a: Any, q: Any, axis: Any, out: Any, interpolation: str, keepdims: bool,
              scale: float) -> Any:
    if interpolation not in _METHODS:
        raise ValueError(f"np.{name}: interpolation must be one of {_METHODS}, got {interpolation!r}")
    x = _values(a, name)
    qs = _values(q, name).astype(_onp.float64) / scale
    if _onp.any(qs < 0) or _onp.any(qs > 1):
        raise ValueError(f"np.{name}: q must be in [0, {scale:g}], got {_values(q)}")
    result = _onp.quantile(x.astype(_onp.float64), qs, axis=_axis(axis), method=interpolation,
                           keepdims=keepdims)
    dt = x.dtype if x.dtype.kind == "f" else _onp.dtype(_onp.float32)  # MXNet's default float type
    return _wrap(_onp.asarray(result).astype(dt), out)


def percentile(a: Any, q: Any, axis: Any = None, out: Any = None, overwrite_input: Any = None,
               interpolation: str = "linear", keepdims: bool = False) -> Any:
    """The ``q``-th percentiles (0 to 100) of ``a`` along ``axis`` (of the whole array when None), between
    data points as ``interpolation`` says ('linear', 'lower', 'higher', 'midpoint', 'nearest'); a float
    array keeps its dtype (integers give float32). Not differentiable (as in MXNet).

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> x = np.array([[10.0, 7.0, 4.0], [3.0, 2.0, 1.0]])
        >>> print(np.percentile(x, 50))
        3.5
        >>> print(np.percentile(x, 50, axis=1))
        [7. 2.]
    """
    return _quantile("percentile", a, q, axis, out, interpolation, keepdims, 100.0)


def quantile(a: Any, q: Any, axis: Any = None, out: Any = None, overwrite_input: Any = None,
             interpolation: str = "linear", keepdims: bool = False) -> Any:
    """The ``q``-th quantiles (0 to 1) of ``a`` along ``axis`` (of the whole array when None), between data
    points as ``interpolation`` says; a float array keeps its dtype (integers give float32). Not
    differentiable (as in MXNet).

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> x = np.array([1.0, 2.0, 3.0, 4.0])
        >>> print(np.quantile(x, 0.5))
        2.5
        >>> print(np.quantile(x, np.array([0.25, 0.75]), interpolation='lower'))
        [1. 3.]
    """
    return _quantile("quantile", a, q, axis, out, interpolation, keepdims, 1.0)


def _obj(obj: Any) -> Any:
    if isinstance(obj, Tensor):
        data = obj._data
        return data.astype(_onp.int64) if data.dtype.kind == "f" else data
    return obj


def insert(arr: Any, obj: Any, values: Any, axis: Any = None) -> Any:
    """``arr`` with ``values`` inserted before the indices ``obj`` along ``axis`` (of the flattened array
    when None), cast to ``arr``'s dtype.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> x = np.array([[1.0, 2.0], [3.0, 4.0]])
        >>> print(np.insert(x, 1, 5.0, axis=1))
        [[1. 5. 2.]
         [3. 5. 4.]]
    """
    data = _values(arr)
    return _wrap(_onp.insert(data, _obj(obj), _onp.asarray(_values(values), data.dtype), axis=axis))


def delete(arr: Any, obj: Any, axis: Any = None) -> Any:
    """``arr`` without the entries ``obj`` (an index, a slice or indices) along ``axis`` (of the flattened
    array when None).

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> x = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
        >>> print(np.delete(x, 1, axis=1))
        [[1. 3.]
         [4. 6.]]
    """
    return _wrap(_onp.delete(_values(arr), _obj(obj), axis=axis))


def resize(a: Any, new_shape: Any) -> Any:
    """An array of ``new_shape`` filled with ``a``'s elements in order, repeated as often as needed.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> print(np.resize(np.array([1.0, 2.0, 3.0]), (2, 4)))
        [[1. 2. 3. 1.]
         [2. 3. 1. 2.]]
    """
    return _wrap(_onp.resize(_values(a), new_shape))


def diag_indices_from(arr: Any) -> tuple:
    """The int64 indices of the main diagonal of ``arr`` (every axis of the same length), one array per
    axis.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> rows, cols = np.diag_indices_from(np.ones((3, 3)))
        >>> print(rows, cols)
        [0 1 2] [0 1 2]
    """
    data = _values(arr)
    if data.ndim < 2 or not _builtin_all(d == data.shape[0] for d in data.shape):
        raise ValueError(f"np.diag_indices_from: the array must have at least 2 axes, all of the same "
                         f"length; got shape {data.shape}")
    return tuple(_wrap(i.astype(_onp.int64)) for i in _onp.diag_indices_from(data))


def shares_memory(a: Any, b: Any, max_work: Any = None) -> bool:
    """Whether ``a`` and ``b`` share memory (views of one buffer).

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> x = np.ones((4,))
        >>> np.shares_memory(x, np.ones((4,)))
        False
    """
    return bool(_onp.shares_memory(_values(a), _values(b)))


def may_share_memory(a: Any, b: Any, max_work: Any = None) -> bool:
    """Whether ``a`` and ``b`` might share memory (their buffers overlap).

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> x = np.ones((4,))
        >>> np.may_share_memory(x, np.ones((4,)))
        False
    """
    return bool(_onp.may_share_memory(_values(a), _values(b)))

