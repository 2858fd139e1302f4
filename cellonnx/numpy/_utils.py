"""Conversions and checks shared by cellonnx.numpy's modules: operands to Tensors, dtype arguments, axes.

MindSpore's numpy makes Python ints and floats (and lists of them) 32-bit tensors before it computes: ``1``
is an int32 tensor, ``1.5`` a float32 one, and a NumPy-style int64 / float64 list becomes int32 / float32.
``np.add(int8_tensor, 1)`` is therefore int32 there, not int8 as in NumPy. That rule lives here, in
``PYTHON_INT`` / ``PYTHON_FLOAT`` and ``to_tensor``, so a front end with other defaults can change it in one
place.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from cellonnx import dtypes
from cellonnx import ops as F
from cellonnx.dtypes import DType
from cellonnx.graph.symint import sym_broadcast_shapes
from cellonnx.ops.prims._util import is_float_dtype
from cellonnx.tensor import Tensor

# MindSpore maps Python's int and float (and NumPy's int64 / float64 inferred from Python lists) to these
PYTHON_INT = dtypes.int32
PYTHON_FLOAT = dtypes.float32

# dtype names accepted as strings (mindspore.numpy.dtypes.dtype_map)
_DTYPE_NAMES = {
    "int": dtypes.int32, "int8": dtypes.int8, "int16": dtypes.int16, "int32": dtypes.int32,
    "int64": dtypes.int64, "uint": dtypes.uint32, "uint8": dtypes.uint8, "uint16": dtypes.uint16,
    "uint32": dtypes.uint32, "uint64": dtypes.uint64, "float": dtypes.float32, "float16": dtypes.float16,
    "float32": dtypes.float32, "float64": dtypes.float64, "bool": dtypes.bool_, "bool_": dtypes.bool_,
}


def check_dtype(dtype: Any, op: str = "numpy") -> DType:
    """A cellonnx dtype for a dtype argument: a dtype, a name ('int32', 'float'), NumPy's dtypes or Python's
    ``int`` / ``float`` / ``bool`` (int and float meaning 32 bits, as in MindSpore)."""
    if isinstance(dtype, DType):
        return dtype
    if isinstance(dtype, str):
        found = _DTYPE_NAMES.get(dtype.lower())
        if found is None:
            raise TypeError(f"{op}: unknown dtype {dtype!r}; expected one of {sorted(_DTYPE_NAMES)}")
        return found
    if dtype is int:
        return PYTHON_INT
    if dtype is float:
        return PYTHON_FLOAT
    try:
        return dtypes.dtype(dtype)
    except TypeError:
        raise TypeError(f"{op}: {dtype!r} is not a dtype") from None


def _nested_array(obj: Any) -> np.ndarray:
    """np.asarray of a nested list / tuple that may hold Tensors."""
    if isinstance(obj, Tensor):
        return obj._data
    if isinstance(obj, (list, tuple)):
        parts = [_nested_array(o) for o in obj]
        if any(isinstance(o, (list, tuple, Tensor)) for o in obj):
            try:
                return np.stack([np.asarray(p) for p in parts]) if parts else np.asarray([])
            except ValueError:
                raise ValueError("numpy: input arrays must have the same size across all dimensions, got "
                                 f"shapes {[np.shape(p) for p in parts]}") from None
        return np.asarray(parts if parts else [])
    return np.asarray(obj)


def to_tensor(x: Any, dtype: Any = None) -> Tensor:
    """A Tensor for an array-like (MindSpore numpy's ``_to_tensor`` / ``asarray``): Tensors pass through,
    Python bools / ints / floats become bool / int32 / float32, lists and tuples become arrays whose int64 /
    float64 (what NumPy infers from Python numbers) are narrowed to int32 / float32; NumPy arrays keep
    their dtype."""
    if isinstance(x, Tensor):
        out = x
    elif isinstance(x, (bool, np.bool_)):
        out = Tensor._make(np.asarray(x, np.bool_))
    elif isinstance(x, int):
        out = Tensor._make(np.asarray(x, PYTHON_INT.np_dtype))
    elif isinstance(x, float):
        out = Tensor._make(np.asarray(x, PYTHON_FLOAT.np_dtype))
    elif isinstance(x, (list, tuple)) and _holds_tensor(x):
        out = _narrow(_stacked(x))
    elif isinstance(x, (list, tuple)):
        arr = _nested_array(x)
        if arr.dtype == np.float64:
            arr = arr.astype(PYTHON_FLOAT.np_dtype)
        elif arr.dtype == np.int64:
            arr = arr.astype(PYTHON_INT.np_dtype)
        elif arr.dtype.kind not in "biuf":
            raise TypeError(f"numpy: cannot make a tensor from {x!r} (NumPy dtype {arr.dtype})")
        out = Tensor(arr)
    elif isinstance(x, (np.ndarray, np.generic)):
        out = Tensor(np.asarray(x))
    else:
        raise TypeError(f"numpy: expected an array-like (Tensor, number, list or tuple), got "
                        f"{type(x).__name__}")
    if dtype is not None:
        out = F.cast(out, check_dtype(dtype).np_dtype)
    return out


def _holds_tensor(x: Any) -> bool:
    return isinstance(x, Tensor) or (isinstance(x, (list, tuple)) and any(_holds_tensor(e) for e in x))


def _stacked(x: Any) -> Tensor:
    """A nested list holding Tensors stacked with ops, so gradients flow to its Tensors."""
    if not isinstance(x, (list, tuple)):
        return to_tensor(x)
    parts = [_stacked(e) for e in x]
    shapes = {tuple(p.shape) for p in parts}
    if len(shapes) > 1:
        raise ValueError(f"numpy: input arrays must have the same size across all dimensions, got shapes "
                         f"{sorted(shapes)}")
    return F.stack(parts, 0)


def _narrow(t: Tensor) -> Tensor:
    """float64 / int64 made float32 / int32, as MindSpore converts the arrays NumPy infers from lists."""
    if t._data.dtype == np.float64:
        return F.cast(t, PYTHON_FLOAT.np_dtype)
    if t._data.dtype == np.int64:
        return F.cast(t, PYTHON_INT.np_dtype)
    return t


def to_tensors(*xs: Any) -> list[Tensor]:
    return [to_tensor(x) for x in xs]


def np_dtype(t: Tensor) -> np.dtype:
    return t._data.dtype


def is_float(t: Tensor) -> bool:
    return is_float_dtype(t._data.dtype)


def is_int(t: Tensor) -> bool:
    return t._data.dtype.kind in "iu"


def as_float(t: Tensor, dtype: Any = np.float32) -> Tensor:
    """``t`` if it is a float tensor, else ``t`` cast to ``dtype`` (float32)."""
    return t if is_float(t) else F.cast(t, dtype)


def cast(t: Tensor, dtype: Any) -> Tensor:
    target = dtype.np_dtype if isinstance(dtype, DType) else np.dtype(dtype)
    return t if t._data.dtype == target else F.cast(t, target)


def finish(out: Any, dtype: Any) -> Any:
    """The ``dtype`` argument of the elementwise functions: the result cast to it (when given)."""
    if dtype is None:
        return out
    d = check_dtype(dtype)
    if isinstance(out, (tuple, list)):
        return type(out)(cast(o, d) for o in out)
    return cast(out, d)


def apply(fn: Callable[..., Any], *args: Any, dtype: Any = None) -> Any:
    """``fn`` over the operands made Tensors, its result cast to ``dtype`` when given."""
    return finish(fn(*to_tensors(*args)), dtype)


def axis_index(axis: Any, ndim: int, op: str) -> int:
    """One axis, made non-negative; errors name the function, the axis and the rank."""
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
        raise TypeError(f"{op}: axis must be an int, got {type(axis).__name__}")
    if not -ndim <= axis < ndim:
        raise ValueError(f"{op}: axis {axis} is out of bounds for a tensor of dimension {ndim}")
    return int(axis) % ndim


def axes_tuple(axis: Any, ndim: int, op: str) -> tuple[int, ...]:
    """None (every axis), an int or a sequence of ints as a tuple of non-negative axes, in the given order;
    a repeated axis is an error."""
    if axis is None:
        return tuple(range(ndim))
    items = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    out = tuple(axis_index(a, ndim, op) for a in items)
    if len(set(out)) != len(out):
        raise ValueError(f"{op}: repeated axis in {axis}")
    return out


def broadcast_shape(*shapes: Sequence[int], op: str = "numpy") -> tuple[int, ...]:
    """``np.broadcast_shapes`` keeping a traced dynamic dim a graph value (NumPy reads the example's size)."""
    try:
        return tuple(sym_broadcast_shapes(*[tuple(s) for s in shapes]))
    except ValueError:
        raise ValueError(f"{op}: operands could not be broadcast together with shapes "
                         f"{', '.join(str(tuple(s)) for s in shapes)}") from None


def broadcast(t: Tensor, shape: Sequence[int]) -> Tensor:
    return F.broadcast_to(t, tuple(shape)) if tuple(t.shape) != tuple(shape) else t


def slice_axis(t: Tensor, axis: int, start: int | None, stop: int | None, step: int = 1) -> Tensor:
    """``t[..., start:stop:step, ...]`` along ``axis``."""
    index = [slice(None)] * t.ndim
    index[axis] = slice(start, stop, step)
    return at(t, tuple(index))


def at(t: Any, index: Any) -> Tensor:
    """``t[index]`` (Tensor indexing is attached by cellonnx.ops, out of sight of type checkers)."""
    from cellonnx.ops.prims.getitem import getitem
    return getitem(t, index)


def int_arg(value: Any, name: str, op: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{op}: {name} must be an int, got {type(value).__name__}")
    return int(value)


def reduce_any(x: Tensor, axis: Any = None, keepdims: bool = False) -> Tensor:
    """Whether any element is true (non-zero) over ``axis`` (every axis when None), as a bool tensor."""
    flags = F.cast(F.not_equal(x, 0) if x._data.dtype != np.bool_ else x, np.float32)
    return F.cast(F.amax(flags, axis, keepdims), np.bool_)


def reduce_all(x: Tensor, axis: Any = None, keepdims: bool = False) -> Tensor:
    """Whether every element is true (non-zero) over ``axis`` (every axis when None), as a bool tensor."""
    flags = F.cast(F.not_equal(x, 0) if x._data.dtype != np.bool_ else x, np.float32)
    return F.cast(F.amin(flags, axis, keepdims), np.bool_)


def scalar_like(value: Any, t: Tensor) -> Tensor:
    """A 0-d tensor of ``value`` in ``t``'s dtype."""
    return Tensor._make(np.asarray(value, dtype=t._data.dtype))
