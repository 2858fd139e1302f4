"""mx.np: MXNet 2.x's NumPy interface - ``mx.np.ndarray`` and NumPy's functions, results as mx.np.ndarray.

MXNet's differences from NumPy kept here: ``array`` of Python data is float32 (MXNet's default dtype, also
for integers) unless a dtype is given; ``device=`` / ``ctx=`` are accepted by constructors.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as _onp

from cellonnx import dtypes as _dtypes
from cellonnx import ops as _ops
from cellonnx.mxnet import _op
from cellonnx.mxnet._dtype import mx_dtype
from cellonnx.mxnet.numpy import linalg, random
from cellonnx.mxnet.numpy.multiarray import ndarray, to_np
from cellonnx.tensor import Tensor

pi, e, inf, nan, newaxis = math.pi, math.e, _onp.inf, _onp.nan, None
# NumPy's types as mx_dtype objects: NumPy takes them (np.dtype, dtype=, scalar construction, isinstance) and
# so does cellonnx (isinstance(mx.np.float32, cellonnx.dtype.Float), ops.cast(x, mx.np.int32))
float16, float32, float64 = (mx_dtype(n, numpy_style=True) for n in ("float16", "float32", "float64"))
int8, int32, int64, uint8, bool_ = (mx_dtype(n, numpy_style=True) for n in ("int8", "int32", "int64", "uint8",
                                                                           "bool"))
dtype = _onp.dtype


def _dt(value: Any, default: Any = _onp.float32) -> _onp.dtype:
    return _dtypes.to_numpy(value) if value is not None else _onp.dtype(default)


def array(object: Any, dtype: Any = None, device: Any = None, ctx: Any = None) -> ndarray:
    """An ndarray: float32 for Python data unless ``dtype`` is given; arrays keep their dtype."""
    if isinstance(object, Tensor):
        arr = object._data.astype(_dt(dtype, object._data.dtype), copy=True)
    elif hasattr(object, "dtype"):
        arr = _onp.array(object, dtype=_dt(dtype, object.dtype))
    else:
        arr = _onp.array(object, dtype=_dt(dtype))
    return to_np(Tensor(arr))


def asarray(obj: Any, dtype: Any = None, device: Any = None) -> ndarray:
    if isinstance(obj, ndarray) and (dtype is None or _dt(dtype) == obj._data.dtype):
        return obj
    return array(obj, dtype)


def _shape(shape: Any) -> tuple[int, ...]:
    return (int(shape),) if isinstance(shape, (int, _onp.integer)) else tuple(int(s) for s in shape)


def zeros(shape: Any, dtype: Any = None, order: str = "C", device: Any = None, ctx: Any = None) -> ndarray:
    return to_np(Tensor(_onp.zeros(_shape(shape), _dt(dtype))))


def ones(shape: Any, dtype: Any = None, order: str = "C", device: Any = None, ctx: Any = None) -> ndarray:
    return to_np(Tensor(_onp.ones(_shape(shape), _dt(dtype))))


def full(shape: Any, fill_value: Any, dtype: Any = None, order: str = "C", device: Any = None,
         ctx: Any = None) -> ndarray:
    return to_np(Tensor(_onp.full(_shape(shape), fill_value, _dt(dtype))))


empty = zeros


def zeros_like(a: Tensor, dtype: Any = None, **_: Any) -> ndarray:
    return to_np(_ops.zeros_like(a) if dtype is None else Tensor(_onp.zeros(a.shape, _dt(dtype))))


def ones_like(a: Tensor, dtype: Any = None, **_: Any) -> ndarray:
    return to_np(_ops.ones_like(a) if dtype is None else Tensor(_onp.ones(a.shape, _dt(dtype))))


def full_like(a: Tensor, fill_value: Any, dtype: Any = None, **_: Any) -> ndarray:
    return to_np(Tensor(_onp.full(a.shape, fill_value, _dt(dtype, a._data.dtype))))


def arange(start: Any, stop: Any = None, step: Any = 1, dtype: Any = None, device: Any = None,
           ctx: Any = None) -> ndarray:
    """Evenly spaced values in [start, stop); float32 by default (MXNet's default dtype)."""
    if stop is None:
        start, stop = 0, start
    return to_np(Tensor(_onp.arange(start, stop, step).astype(_dt(dtype))))


def linspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, retstep: bool = False,
             dtype: Any = None, axis: int = 0, device: Any = None, ctx: Any = None) -> Any:
    out = to_np(Tensor(_onp.linspace(start, stop, num, endpoint).astype(_dt(dtype))))
    return (out, (stop - start) / max(num - (1 if endpoint else 0), 1)) if retstep else out


def eye(N: int, M: int | None = None, k: int = 0, dtype: Any = None, **_: Any) -> ndarray:
    return to_np(Tensor(_onp.eye(N, M, k, dtype=_dt(dtype))))


def _t(x: Any) -> Tensor:
    return x if isinstance(x, Tensor) else Tensor(_onp.asarray(x, _onp.float32) if isinstance(x, float)
                                                 else _onp.asarray(x))


def _pair(a: Any, b: Any) -> tuple[Tensor, Tensor]:
    if isinstance(a, Tensor) and not isinstance(b, Tensor):
        keep = not isinstance(b, float) or a._data.dtype.kind == "f"
        return a, Tensor(_onp.asarray(b, a._data.dtype if keep else _onp.float32))
    if isinstance(b, Tensor) and not isinstance(a, Tensor):
        return _pair(b, a)[::-1]  # type: ignore[return-value]
    return _t(a), _t(b)


def _unary(fn: Any) -> Any:
    def op(x: Any, out: Any = None, **_: Any) -> ndarray:
        return to_np(fn(_t(x)))
    return op


def _binary(fn: Any) -> Any:
    def op(x1: Any, x2: Any, out: Any = None, **_: Any) -> ndarray:
        return to_np(fn(*_pair(x1, x2)))
    return op


for _name, _impl in {"exp": _ops.exp, "log": _ops.log, "sqrt": _ops.sqrt, "square": _ops.square,
                     "tanh": _ops.tanh, "sin": _ops.sin, "cos": _ops.cos, "abs": _ops.abs,
                     "absolute": _ops.abs, "negative": _ops.neg, "sign": _ops.sign, "floor": _ops.floor,
                     "ceil": _ops.ceil, "reciprocal": _ops.reciprocal, "logical_not": _ops.logical_not,
                     "isnan": _ops.isnan, "isinf": _ops.isinf, "isfinite": _ops.isfinite}.items():
    globals()[_name] = _unary(_impl)
for _name, _impl in {"add": _ops.add, "subtract": _ops.sub, "multiply": _ops.mul, "divide": _ops.div,
                     "true_divide": _ops.div, "power": _ops.pow, "maximum": _ops.maximum,
                     "minimum": _ops.minimum, "mod": _ops.floor_mod, "remainder": _ops.floor_mod,
                     "floor_divide": _ops.floor_div, "equal": _ops.equal, "not_equal": _ops.not_equal,
                     "greater": _ops.greater, "greater_equal": _ops.greater_equal, "less": _ops.less,
                     "less_equal": _ops.less_equal, "logical_and": _ops.logical_and,
                     "logical_or": _ops.logical_or, "matmul": _ops.matmul}.items():
    globals()[_name] = _binary(_impl)


def clip(a: Tensor, a_min: Any, a_max: Any, out: Any = None) -> ndarray:
    return to_np(_ops.clamp(_t(a), a_min, a_max))


def concatenate(seq: Any, axis: int = 0, out: Any = None) -> ndarray:
    return to_np(_ops.concat([_t(x) for x in seq], axis=axis))


def stack(arrays: Any, axis: int = 0, out: Any = None) -> ndarray:
    return to_np(_ops.stack([_t(x) for x in arrays], axis=axis))


def reshape(a: Tensor, newshape: Any, order: str = "C") -> ndarray:
    return to_np(_ops.reshape(a, (newshape,) if isinstance(newshape, int) else tuple(newshape)))


def transpose(a: Tensor, axes: Any = None) -> ndarray:
    return to_np(_ops.transpose(a, tuple(axes) if axes else tuple(range(a.ndim))[::-1]))


def swapaxes(a: Tensor, axis1: int, axis2: int) -> ndarray:
    return to_np(_ops.swapaxes(a, axis1, axis2))


def expand_dims(a: Tensor, axis: int) -> ndarray:
    return to_np(_ops.expand_dims(a, axis))


def squeeze(a: Tensor, axis: Any = None) -> ndarray:
    return to_np(_ops.squeeze(a, axis))


def split(ary: Tensor, indices_or_sections: Any, axis: int = 0) -> list[ndarray]:
    out = _op.TABLE["split_v2"](ary, indices_or_sections, axis)
    return [to_np(o) for o in (out if isinstance(out, list) else [out])]


def _reduce(fn: Any) -> Any:
    def op(a: Tensor, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: bool = False,
           **_: Any) -> ndarray:
        return to_np(fn(_t(a), tuple(axis) if isinstance(axis, list) else axis, keepdims))
    return op


sum = _reduce(lambda a, axis, keep: _ops.sum(a, axis, keep))
mean = _reduce(_ops.mean)
max = _reduce(_ops.amax)
min = _reduce(_ops.amin)
amax, amin = max, min
prod = _reduce(_ops.prod)


def argmax(a: Tensor, axis: int | None = None, out: Any = None) -> ndarray:
    return ndarray.argmax(to_np(a), axis)


def argmin(a: Tensor, axis: int | None = None, out: Any = None) -> ndarray:
    return ndarray.argmin(to_np(a), axis)


def dot(a: Any, b: Any, out: Any = None) -> ndarray:
    return to_np(_op.TABLE["dot"](_t(a), _t(b)))


def where(condition: Any, x: Any = None, y: Any = None) -> ndarray:
    c = _t(condition)
    if c._data.dtype != _onp.bool_:
        c = _ops.not_equal(c, 0)
    a, b = _pair(x, y)
    return to_np(_ops.where(c, a, b))


def tile(A: Tensor, reps: Any) -> ndarray:
    return to_np(_op.TABLE["tile"](_t(A), (reps,) if isinstance(reps, int) else reps))


def repeat(a: Tensor, repeats: int, axis: int | None = None) -> ndarray:
    return to_np(_op.TABLE["repeat"](_t(a), repeats, axis))


def take(a: Tensor, indices: Any, axis: int | None = None, mode: str = "raise", out: Any = None) -> ndarray:
    return ndarray.take(to_np(a), indices, axis, mode)


def flip(m: Tensor, axis: Any = None) -> ndarray:
    return to_np(_ops.flip(m, tuple(range(m.ndim)) if axis is None else (axis,) if isinstance(axis, int)
                           else tuple(axis)))


def shape(a: Tensor) -> tuple:
    return tuple(a.shape)


def ndim(a: Tensor) -> int:
    return a.ndim


__all__ = ["abs", "absolute", "add", "amax", "amin", "arange", "argmax", "argmin", "array", "asarray", "ceil",
           "clip", "concatenate", "cos", "divide", "dot", "e", "empty", "equal", "exp", "expand_dims", "eye",
           "flip", "floor", "floor_divide", "full", "full_like", "greater", "greater_equal", "inf",
           "isfinite",
           "isinf", "isnan", "less", "less_equal", "linalg", "linspace", "log", "logical_and", "logical_not",
           "logical_or", "matmul", "max", "maximum", "mean", "min", "minimum", "mod", "multiply", "nan",
           "ndarray", "ndim", "negative", "newaxis", "not_equal", "ones", "ones_like", "pi", "power", "prod",
           "random", "reciprocal", "remainder", "repeat", "reshape", "shape", "sign", "sin", "split", "sqrt",
           "square", "squeeze", "stack", "subtract", "sum", "swapaxes", "take", "tanh", "tile", "transpose",
           "true_divide", "where", "zeros", "zeros_like"]
