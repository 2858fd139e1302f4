"""The result types of mx.np's functions where MXNet's differ from cellonnx.numpy's.

MXNet 1.9.1 computes a list of its NumPy functions with NumPy itself (mxnet/numpy/fallback.py) and hands back
what NumPy gives: arrays wrapped as ndarray, NumPy's dtypes (``cov`` of float32 is float64, ``digitize`` is
int64) and NumPy's scalars where NumPy gives a scalar (``count_nonzero`` without an axis is an int,
``array_equal`` a bool, ``nanmax`` of a whole array a numpy.float32). The functions here run cellonnx.numpy's
implementation (so they stay differentiable where they were) and give MXNet's types; the splitting functions
return lists, as MXNet's do.
"""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as _onp

from cellonnx import ops as _ops
from cellonnx.mxnet.numpy.multiarray import to_np
from cellonnx.tensor import Tensor

__all__ = ["FALLBACK", "conform"]

# MXNet 1.9.1's functions that run NumPy itself (mxnet/numpy/fallback.py)
FALLBACK = frozenset({
    "allclose", "alltrue", "apply_along_axis", "apply_over_axes", "argpartition", "argwhere", "array_equal",
    "array_equiv", "choose", "compress", "corrcoef", "correlate", "count_nonzero", "cov", "digitize",
    "divmod", "extract", "flatnonzero", "float_power", "frexp", "heaviside", "histogram2d",
    "histogram_bin_edges", "histogramdd", "i0", "in1d", "interp", "intersect1d", "isclose", "isin", "ix_",
    "lexsort", "min_scalar_type", "mirr", "modf", "msort", "nanargmax", "nanargmin", "nancumprod",
    "nancumsum", "nanmax", "nanmedian", "nanmin", "nanpercentile", "nanprod", "nanquantile", "ndim", "npv",
    "partition", "piecewise", "packbits", "poly", "polyadd", "polydiv", "polyfit", "polyint", "polymul",
    "polysub", "positive", "ppmt", "promote_types", "ptp", "pv", "rate", "real", "result_type", "rollaxis",
    "roots", "searchsorted", "select", "setdiff1d", "setxor1d", "signbit", "size", "spacing",
    "take_along_axis", "trapz", "tril_indices_from", "trim_zeros", "triu_indices_from", "union1d",
    "unpackbits", "unwrap", "vander"})
# NumPy computes these in float64 whatever the float inputs (float_power by definition, the statistics and
# interpolations through float64 intermediates)
_FLOAT64 = {"float_power", "cov", "corrcoef", "histogram2d", "histogramdd", "interp", "polyint",
            "nanpercentile", "nanquantile"}
# NumPy's indices and counts are int64 (cellonnx.numpy's, as MindSpore's, int32)
_INT64 = {"digitize", "searchsorted", "tril_indices_from", "triu_indices_from", "count_nonzero", "argwhere"}
# flat indices, int64 as NumPy's (cellonnx.numpy's, as MindSpore's, are float32)
_FLAT_INDEX = {"ravel_multi_index"}
# NumPy gives Python values here, not 0-d arrays
_PYTHON = {"count_nonzero": int, "array_equal": bool, "array_equiv": bool}
_LISTS = {"split", "array_split", "hsplit", "vsplit", "dsplit", "histogram"}
# element-wise functions cellonnx.numpy computes in float32 at least (MindSpore promotes float16 with
# float32); MXNet keeps a float input's dtype
_KEEP_FLOAT = {"cbrt"}
# counts that MXNet gives as integers (cellonnx.numpy's are float32): bincount without weights in the
# input's dtype, histogram's counts without weights int64
_COUNTS = {"bincount", "histogram"}


def _counts(name: str, out: Any, args: tuple, kwargs: dict) -> Any:
    weighted = kwargs.get("weights") is not None or (name == "bincount" and len(args) > 1
                                                     and args[1] is not None)
    if weighted:
        return out
    if name == "bincount":
        x = args[0] if args else kwargs.get("x")
        dt = x._data.dtype if isinstance(x, Tensor) else _onp.dtype(_onp.int64)
        return to_np(_ops.cast(out, dt))
    return (to_np(_ops.cast(out[0], _onp.int64)), *out[1:])


def _to_float64(value: Any) -> Any:
    if isinstance(value, Tensor) and value._data.dtype.kind == "f" and value._data.dtype != _onp.float64:
        return _ops.cast(value, _onp.float64)
    if isinstance(value, (list, tuple)):
        return type(value)(_to_float64(v) for v in value)
    return value


def _retype(value: Any, name: str) -> Any:
    if isinstance(value, (list, tuple)):
        return type(value)(_retype(v, name) for v in value)
    if not isinstance(value, Tensor):
        return value
    kind = value._data.dtype.kind
    if name in _FLAT_INDEX and value._data.dtype != _onp.int64:
        value = to_np(_ops.cast(value, _onp.int64))
    if name in _INT64 and kind in "iu" and value._data.dtype != _onp.int64:
        value = to_np(_ops.cast(value, _onp.int64))
    if name in _FLOAT64 and kind == "f" and value._data.dtype != _onp.float64:
        value = to_np(_ops.cast(value, _onp.float64))
    if name == "vander":  # NumPy's vander promotes with int64: float32 -> float64, int32 -> int64
        wanted = _onp.promote_types(value._data.dtype, _onp.int64)
        if wanted != value._data.dtype:
            value = to_np(_ops.cast(value, wanted))
    if name in _PYTHON and value.ndim == 0:
        return _PYTHON[name](value._data)
    if name in FALLBACK and value.ndim == 0:
        return value._data[()]  # NumPy's scalar of the array's dtype
    return value


def conform(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` (mx.np's ``name``) giving MXNet's result types."""
    if name not in FALLBACK | _LISTS | _COUNTS | _KEEP_FLOAT | _FLAT_INDEX:
        return fn

    @functools.wraps(fn)
    def op(*args: Any, **kwargs: Any) -> Any:
        if name in _FLOAT64:
            args = tuple(_to_float64(a) for a in args)
            kwargs = {k: _to_float64(v) for k, v in kwargs.items()}
        out = fn(*args, **kwargs)
        first = args[0] if args else next(iter(kwargs.values()), None)
        if name in _KEEP_FLOAT and isinstance(first, Tensor) and first._data.dtype.kind == "f" \
                and isinstance(out, Tensor) and out._data.dtype != first._data.dtype:
            out = to_np(_ops.cast(out, first._data.dtype))
        if name in _COUNTS:
            out = _counts(name, out, args, kwargs)
        out = _retype(out, name)
        return list(out) if name in _LISTS and isinstance(out, tuple) else out
    return op
