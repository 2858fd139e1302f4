"""Dtype names, constants and type promotion of cellonnx.numpy (mindspore.numpy.dtypes).

As in MindSpore, ``int_``, ``uint`` and ``float_`` are the 32-bit types (NumPy's are 64-bit).
"""
from __future__ import annotations

from typing import Any

from cellonnx import dtypes as _d
from cellonnx.dtypes import DType
from cellonnx.numpy._utils import PYTHON_FLOAT, PYTHON_INT, check_dtype, to_tensor
from cellonnx.tensor import Tensor

int8, int16, int32, int64 = _d.int8, _d.int16, _d.int32, _d.int64
uint8, uint16, uint32, uint64 = _d.uint8, _d.uint16, _d.uint32, _d.uint64
float16, float32, float64 = _d.float16, _d.float32, _d.float64
bool_ = _d.bool_
int_, uint, float_ = int32, uint32, float32

inf = PINF = float("inf")
NINF = float("-inf")
nan = float("nan")
pi = 3.141592653589793

numeric_types = ["int_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float_",
                 "float16", "float32", "float64", "bool_"]

_SIGNED = (int8, int16, int32, int64)
_UNSIGNED = (uint8, uint16, uint32, uint64)
_FLOATS = (float16, float32, float64)


def _table() -> dict[tuple[DType, DType], DType]:
    """MindSpore numpy's promotion table (mindspore.numpy.dtypes.promotion_rule), one entry per unordered
    pair. It is NumPy's table except that an integer with a float gives that float (NumPy widens int32 with
    float16 to float64) and uint16 with float64 gives float32 (a MindSpore quirk, kept)."""
    rule: dict[tuple[DType, DType], DType] = {}
    for i, a in enumerate(_UNSIGNED):
        for b in _UNSIGNED[i + 1:]:
            rule[a, b] = b
        for j, b in enumerate(_SIGNED):
            wider = next((s for s in _SIGNED[j:] if s.itemsize > a.itemsize), None)
            rule[a, b] = wider if wider is not None else float64
        for f in _FLOATS:
            rule[a, f] = f
    for i, a in enumerate(_SIGNED):
        for b in _SIGNED[i + 1:]:
            rule[a, b] = b
        for f in _FLOATS:
            rule[a, f] = f
    rule[float16, float32] = rule[float16, float64] = rule[float32, float64] = float64
    rule[float16, float32] = float32
    rule[uint16, float64] = float32
    for t in _UNSIGNED + _SIGNED + _FLOATS:
        rule[bool_, t] = t
    return rule


PROMOTION = _table()


def promote(type1: DType, type2: DType) -> DType:
    """The promoted dtype of two cellonnx dtypes by MindSpore numpy's table (a framework's view of a dtype,
    such as an MXNet array's, promotes as the type it stands for)."""
    type1, type2 = type1.element_type(), type2.element_type()
    if type1 is type2:
        return type1
    found = PROMOTION.get((type1, type2)) or PROMOTION.get((type2, type1))
    if found is None:
        raise TypeError(f"promote_types: no promotion rule for {type1} and {type2}")
    return found


def promote_types(type1: Any, type2: Any) -> DType:
    """Returns the data type with the smallest size and smallest scalar kind to which both ``type1`` and
    ``type2`` may be safely cast.

    Args:
        type1 (Union[DType, str, type]): first data type.
        type2 (Union[DType, str, type]): second data type.

    Returns:
        The promoted data type.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> mnp.promote_types(mnp.int32, mnp.float32)
        mindspore.float32
    """
    return promote(check_dtype(type1, "promote_types"), check_dtype(type2, "promote_types"))


def _dtype_of(x: Any) -> DType:
    if isinstance(x, Tensor):
        return x.dtype
    if isinstance(x, bool):
        return bool_
    if isinstance(x, int):
        return PYTHON_INT
    if isinstance(x, float):
        return PYTHON_FLOAT
    if isinstance(x, (list, tuple)):
        return to_tensor(x).dtype
    return check_dtype(x, "result_type")


def result_type(*arrays_and_dtypes: Any) -> DType:
    """Returns the type that results from applying the type promotion rules to the arguments.

    Args:
        *arrays_and_dtypes: Tensors, Python numbers, dtypes or dtype names.

    Returns:
        The result dtype (Python ints count as int32 and floats as float32, as in MindSpore).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> mnp.result_type(mnp.int32, mnp.float32)
        mindspore.float32
    """
    if not arrays_and_dtypes:
        raise ValueError("result_type: at least one array or dtype is required")
    out = _dtype_of(arrays_and_dtypes[0])
    for x in arrays_and_dtypes[1:]:
        out = promote(out, _dtype_of(x))
    return out

__all__ = [
    "NINF",
    "PINF",
    "bool_",
    "float16",
    "float32",
    "float64",
    "float_",
    "inf",
    "int8",
    "int16",
    "int32",
    "int64",
    "int_",
    "nan",
    "numeric_types",
    "pi",
    "promote_types",
    "result_type",
    "uint",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
]
