"""``mindspore.common.dtype`` (``from mindspore import dtype as mstype``): every type name, the kind classes
and MindSpore's conversion functions between its types, NumPy's and Python's. The objects themselves live in
cellonnx/dtypes.py, the one table every module converts through."""
from __future__ import annotations

import builtins
import enum
import inspect
from typing import Any

import numpy as np

from cellonnx.dtypes import (
    BFloat,
    Bool,
    Complex,
    DType,
    Float,
    Int,
    Number,
    TensorType,
    Type,
    TypeNull,
    UInt,
    _Kind,
    _null,  # noqa: F401 (MindSpore's dtype module has it)
    bfloat16,
    bool_,
    byte,
    cdouble,
    cfloat,
    complex64,
    complex128,
    double,
    float8_e4m3fn,
    float8_e5m2,
    float16,
    float32,
    float64,
    float_,
    function,
    half,
    hifloat8,
    int8,
    int16,
    int32,
    int64,
    int_,
    intc,
    intp,
    list_,
    long,
    number,
    qint4x2,
    short,
    single,
    string,
    tensor_type,
    tuple_,
    type_none,
    type_type,
    ubyte,
    uint,
    uint8,
    uint16,
    uint32,
    uint64,
    uintc,
    uintp,
    ushort,
)

_NullType = TypeNull

__all__ = ["BFloat", "Bool", "Complex", "DType", "Float", "Int", "Number", "QuantDtype", "TensorType", "Type",
           "UInt", "bfloat16", "bool_", "byte", "cdouble", "cfloat", "complex64", "complex128", "double",
           "dtype_to_nptype", "dtype_to_pytype", "float8_e4m3fn", "float8_e5m2", "float16", "float32",
           "float64", "float_", "get_py_obj_dtype", "half", "hifloat8", "int8", "int16", "int32", "int64",
           "int_", "intc", "intp", "list_", "long", "number", "pytype_to_dtype", "qint4x2", "short", "single",
           "string", "tensor_type", "tuple_", "type_none", "ubyte", "uint", "uint8", "uint16", "uint32",
           "uint64", "uintc", "uintp", "ushort"]

# MindSpore's groupings (its validators test membership in these)
number_type = (int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, float64, bfloat16,
               complex64, complex128, qint4x2, float8_e4m3fn, float8_e5m2, hifloat8)
int_type = (int8, int16, int32, int64)
uint_type = (uint8, uint16, uint32, uint64)
float_type = (float16, float32, float64, bfloat16, float8_e4m3fn, float8_e5m2, hifloat8)
signed_type = (int8, int16, int32, int64, float16, float32, float64, bfloat16, complex64, complex128, qint4x2,
               float8_e4m3fn, float8_e5m2, hifloat8)
complex_type = (complex64, complex128)
all_types = (bool_, *number_type[:-4], qint4x2, float8_e4m3fn, float8_e5m2, hifloat8)

_SIMPLE_TYPES: dict[Any, Type] = {
    list: list_, tuple: tuple_, type(None): type_none, builtins.bool: bool_, builtins.int: int64,
    builtins.float: float64, complex: complex128, str: string, np.bool_: bool_, np.str_: string,
    np.int8: int8, np.int16: int16, np.int32: int32, np.int64: int64, np.uint8: uint8, np.uint16: uint16,
    np.uint32: uint32, np.uint64: uint64, np.float16: float16, np.float32: float32, np.float64: float64,
}


def pytype_to_dtype(obj: Any) -> Type:
    """The MindSpore type of a Python or NumPy type (``float`` -> Float64, ``np.dtype('int8')`` -> Int8).

    Raises:
        TypeError: ``obj`` is not a type.
        NotImplementedError: a type with no MindSpore counterpart.

    Examples:
        >>> import cellonnx as ms
        >>> ms.pytype_to_dtype(bool)
        mindspore.bool
    """
    if isinstance(obj, np.dtype):
        obj = obj.type
    if isinstance(obj, Type):
        return obj
    if not isinstance(obj, type):
        raise TypeError("For 'pytype_to_dtype', the argument 'obj' must be a python type object,such as int, "
                        f"float, str, etc. But got type {type(obj)}.")
    if obj in _SIMPLE_TYPES:
        return _SIMPLE_TYPES[obj]
    raise NotImplementedError(f"The python type {obj} cannot be converted to MindSpore type.")


def get_py_obj_dtype(obj: Any) -> Type:
    """The MindSpore type of a Python object or type: ``TensorType(dtype)`` for a tensor, ``function`` for a
    Cell or function, ``type_type`` for a MindSpore type, else the type of ``obj`` (or ``obj`` itself when
    it is a type) as ``pytype_to_dtype`` maps it.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor
        >>> x = Tensor(np.ones((2,)), ms.float32)
        >>> print(ms.get_py_obj_dtype(x), ms.get_py_obj_dtype(3))
        Tensor[Float32] Int64
    """
    if hasattr(obj, "shape") and isinstance(getattr(obj, "dtype", None), Type):
        return TensorType(obj.dtype)
    if hasattr(obj, "construct") or inspect.isfunction(obj):
        return function
    if isinstance(obj, Type):
        return type_type
    if isinstance(obj, type):
        return pytype_to_dtype(obj)
    return pytype_to_dtype(type(obj))


_NPTYPES = {d: d.np_dtype.type for d in (bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
                                         float16, float32, float64, complex64, complex128, bfloat16)}


def dtype_to_nptype(type_: Type) -> type:
    """The NumPy scalar type of a MindSpore type (``int8`` -> ``numpy.int8``; bfloat16 -> ml_dtypes').

    Examples:
        >>> import cellonnx as ms
        >>> ms.dtype_to_nptype(ms.float16)
        <class 'numpy.float16'>
    """
    return _NPTYPES[type_]  # type: ignore[index]


_PYTYPES: dict[Any, type] = {
    bool_: builtins.bool, int_: builtins.int, int8: builtins.int, int16: builtins.int, int32: builtins.int,
    int64: builtins.int, uint8: builtins.int, uint16: builtins.int, uint32: builtins.int,
    uint64: builtins.int, float_: builtins.float, float16: builtins.float, float32: builtins.float,
    float64: builtins.float, bfloat16: builtins.float, list_: list, tuple_: tuple, string: str,
    complex64: complex, complex128: complex, type_none: type(None)}


def dtype_to_pytype(type_: Type) -> type:
    """The Python type of a MindSpore type (``bool_`` -> ``bool``, ``float32`` -> ``float``).

    Examples:
        >>> import cellonnx as ms
        >>> ms.dtype_to_pytype(ms.int32)
        <class 'int'>
    """
    return _PYTYPES[type_]


def type_size_in_bytes(dtype: Type) -> int:
    """The size of one element of ``dtype`` in bytes."""
    if not isinstance(dtype, DType):
        raise TypeError(f"type_size_in_bytes: expected a tensor element type, got {dtype!r}")
    return dtype.itemsize


def _issubclass_(type_: Any, dtype: Any) -> bool:
    """Whether ``type_`` is ``dtype`` or of its kind (``float32`` of ``float_``, anything of ``number``)."""
    if not isinstance(type_, Type):
        return False
    if type_ is dtype:
        return True
    if dtype is number:
        return isinstance(type_, Number)
    return isinstance(dtype, _Kind) and isinstance(type_, type(dtype))


@enum.unique
class QuantDtype(enum.Enum):
    """Quantization data types, ``INT1`` ... ``INT16`` and ``UINT1`` ... ``UINT16`` (as MindSpore's).

    Examples:
        >>> ms.QuantDtype.INT8.value()
        7
    """

    INT1 = 0
    INT2 = 1
    INT3 = 2
    INT4 = 3
    INT5 = 4
    INT6 = 5
    INT7 = 6
    INT8 = 7
    INT9 = 8
    INT10 = 9
    INT11 = 10
    INT12 = 11
    INT13 = 12
    INT14 = 13
    INT15 = 14
    INT16 = 15

    UINT1 = 100
    UINT2 = 101
    UINT3 = 102
    UINT4 = 103
    UINT5 = 104
    UINT6 = 105
    UINT7 = 106
    UINT8 = 107
    UINT9 = 108
    UINT10 = 109
    UINT11 = 110
    UINT12 = 111
    UINT13 = 112
    UINT14 = 113
    UINT15 = 114
    UINT16 = 115

    def __str__(self) -> str:
        return self.name

    def value(self) -> int:  # type: ignore[override]
        """The enum's number (MindSpore serializes QuantDtype through it)."""
        return self._value_
