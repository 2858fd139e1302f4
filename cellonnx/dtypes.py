"""The dtype table: one row per cellonnx dtype, mapping it to NumPy, ONNX and the checkpoint type names of
MindSpore (.ckpt tensor_type), MXNet (.params type_flag), PyTorch (storage / dtype name) and safetensors.

Every other module converts dtypes through this table; nothing else spells these names.
"""
from __future__ import annotations

from typing import Any, ClassVar

import ml_dtypes
import numpy as np
from onnx import TensorProto


class Type:
    """Base of MindSpore's type objects (``mindspore.dtype.Type``): the tensor element types below, and the
    abstract ones (``number``, ``int_``, ``float_``, ``tensor_type``, ``list_``, ``string`` ...). ``str``
    gives MindSpore's name (``Float32``), ``repr`` its qualified one (``mindspore.float32``).

    Examples:
        >>> import cellonnx as ms
        >>> print(isinstance(ms.float32, ms.Type), isinstance(ms.tensor_type, ms.Type))
        True True
    """

    def __init__(self, name: str, qualname: str) -> None:
        self.name = name
        self._qualname = qualname

    def __repr__(self) -> str:
        return f"mindspore.{self._qualname}"

    def __str__(self) -> str:
        return self.name

    def __reduce__(self) -> str:
        return _PICKLE_NAMES[id(self)]


class Number(Type):
    """The abstract number type (``mindspore.number``); base of every element type."""


class _KindMeta(type):
    """``isinstance(mindspore.int32, dtype.Int)`` holds, as in MindSpore: an element type is an instance of
    its kind's class (Int, UInt, Float, BFloat, Complex, Bool) as well as of DType."""

    def __instancecheck__(cls, obj: Any) -> bool:
        if type.__instancecheck__(cls, obj):
            return True
        return isinstance(obj, DType) and obj.element_type().kind == cls.__name__


class _Kind(Number, metaclass=_KindMeta):
    """A kind of element type: ``Int()`` is the abstract Int (``mindspore.int_``), ``Int(8)`` is int8."""

    _abstract: ClassVar[dict[str, _Kind]] = {}

    def __new__(cls, nbits: int | None = None) -> Any:
        if nbits is None:
            if cls.__name__ not in _Kind._abstract:
                obj = object.__new__(cls)
                obj.name, obj._qualname = cls.__name__, _ABSTRACT_QUALNAMES[cls.__name__]
                _Kind._abstract[cls.__name__] = obj
            return _Kind._abstract[cls.__name__]
        for d in _BY_NAME.values():
            if d.kind == cls.__name__ and d.itemsize * 8 == nbits and d is not hifloat8:
                return d
        raise TypeError(f"{cls.__name__}({nbits}): no {cls.__name__.lower()} type of {nbits} bits")

    def __init__(self, nbits: int | None = None) -> None:
        pass


class Bool(_Kind):
    """The bool kind."""


class Int(_Kind):
    """Signed integers: ``Int()`` is ``mindspore.int_``, ``Int(32)`` is int32.

    Examples:
        >>> import cellonnx as ms
        >>> print(ms.Int(32), ms.Int() == ms.int_)
        Int32 True
    """


class UInt(_Kind):
    """Unsigned integers."""


class Float(_Kind):
    """IEEE floating point (float16/32/64) and the 8-bit float formats."""


class BFloat(_Kind):
    """bfloat16."""


class Complex(_Kind):
    """complex64 and complex128."""


_ABSTRACT_QUALNAMES = {"Bool": "bool", "Int": "int", "UInt": "uint", "Float": "float", "BFloat": "bfloat",
                       "Complex": "complex"}


def _kind_of(np_dtype: np.dtype | None) -> str:
    if np_dtype == np.dtype(ml_dtypes.bfloat16):
        return "BFloat"
    return {"f": "Float", "i": "Int", "u": "UInt", "b": "Bool", "c": "Complex"}[np_dtype.kind]  # type: ignore


class DType(Number):
    """A tensor element type (``cellonnx.float32`` ...). Prints as MindSpore does: ``str`` is ``Float32``,
    ``repr`` is ``mindspore.float32``.

    Each row maps MindSpore's name (also the .ckpt tensor_type) to NumPy, ONNX, MXNet's NDArray type_flag,
    PyTorch's dtype and storage names, and the safetensors header name.

    Examples:
        >>> import cellonnx as ms
        >>> print(ms.float32, repr(ms.float32), ms.float32.itemsize)
        Float32 mindspore.float32 4
    """

    def __init__(self, name: str, np_dtype: np.dtype | None, onnx: int | None, mxnet_flag: int | None,
                 torch: str | None, torch_storage: str | None, safetensors: str | None, kind: str = "",
                 qualname: str = "") -> None:
        super().__init__(name, qualname or (torch or name.lower()))
        self.np_dtype = np_dtype        # None: no NumPy representation (hifloat8)
        self.onnx = onnx                # onnx.TensorProto data type
        self.mxnet_flag = mxnet_flag    # MXNet NDArray type_flag
        self.torch = torch              # torch dtype attribute name: "float32"
        self.torch_storage = torch_storage  # torch storage class in pickles: "FloatStorage"
        self.safetensors = safetensors  # safetensors header dtype: "F32"
        self.kind = kind or _kind_of(np_dtype)  # Int, UInt, Float, BFloat, Complex or Bool

    def __setattr__(self, key: str, value: Any) -> None:
        if key in self.__dict__:
            raise AttributeError(f"dtype {self.name}: {key} cannot be changed")
        object.__setattr__(self, key, value)

    def element_type(self) -> DType:
        """The cellonnx element type this object stands for (itself; a framework's view of a dtype, such
        as MXNet's, returns the type it wraps)."""
        return self

    @property
    def is_floating_point(self) -> bool:
        return self.kind in ("Float", "BFloat")

    @property
    def is_complex(self) -> bool:
        return self.kind == "Complex"

    @property
    def is_signed(self) -> bool:
        return self.kind in ("Int", "Float", "BFloat", "Complex")

    @property
    def itemsize(self) -> int:
        return {"HiFloat8": 1, "Int4": 1}.get(self.name) or self.np_dtype.itemsize  # type: ignore[union-attr]

    def to_complex(self) -> DType:
        """The complex type with this type's precision (float32 -> complex64, float64 -> complex128)."""
        found = {"Float32": complex64, "Float64": complex128, "Complex64": complex64,
                 "Complex128": complex128}.get(self.name)
        if found is None:
            raise TypeError(f"{self.name} has no complex counterpart; expected Float32 or Float64")
        return found

    def to_real(self) -> DType:
        """The real type of a complex type (complex64 -> float32); a real type itself."""
        return {"Complex64": float32, "Complex128": float64}.get(self.name, self)


_BF16 = np.dtype(ml_dtypes.bfloat16)

float16 = DType("Float16", np.dtype(np.float16), TensorProto.FLOAT16, 2, "float16", "HalfStorage", "F16")
float32 = DType("Float32", np.dtype(np.float32), TensorProto.FLOAT, 0, "float32", "FloatStorage", "F32")
float64 = DType("Float64", np.dtype(np.float64), TensorProto.DOUBLE, 1, "float64", "DoubleStorage", "F64")
bfloat16 = DType("BFloat16", _BF16, TensorProto.BFLOAT16, 12, "bfloat16", "BFloat16Storage", "BF16")
int8 = DType("Int8", np.dtype(np.int8), TensorProto.INT8, 5, "int8", "CharStorage", "I8")
int16 = DType("Int16", np.dtype(np.int16), TensorProto.INT16, 8, "int16", "ShortStorage", "I16")
int32 = DType("Int32", np.dtype(np.int32), TensorProto.INT32, 4, "int32", "IntStorage", "I32")
int64 = DType("Int64", np.dtype(np.int64), TensorProto.INT64, 6, "int64", "LongStorage", "I64")
uint8 = DType("UInt8", np.dtype(np.uint8), TensorProto.UINT8, 3, "uint8", "ByteStorage", "U8")
uint16 = DType("UInt16", np.dtype(np.uint16), TensorProto.UINT16, 9, "uint16", "UInt16Storage", "U16")
uint32 = DType("UInt32", np.dtype(np.uint32), TensorProto.UINT32, 10, "uint32", "UInt32Storage", "U32")
uint64 = DType("UInt64", np.dtype(np.uint64), TensorProto.UINT64, 11, "uint64", "UInt64Storage", "U64")
bool_ = DType("Bool", np.dtype(np.bool_), TensorProto.BOOL, 7, "bool", "BoolStorage", "BOOL")

# the types every checkpoint format carries
ALL: tuple[DType, ...] = (float16, float32, float64, bfloat16, int8, int16, int32, int64,
                          uint8, uint16, uint32, uint64, bool_)

# tensors of these exist (NumPy / ml_dtypes hold them, ONNX names them) but few ops and formats take them
complex64 = DType("Complex64", np.dtype(np.complex64), TensorProto.COMPLEX64, None, "complex64",
                  "ComplexFloatStorage", "C64", "Complex")
complex128 = DType("Complex128", np.dtype(np.complex128), TensorProto.COMPLEX128, None, "complex128",
                   "ComplexDoubleStorage", None, "Complex")
float8_e4m3fn = DType("Float8E4M3FN", np.dtype(ml_dtypes.float8_e4m3fn), TensorProto.FLOAT8E4M3FN, None,
                      "float8_e4m3fn", None, "F8_E4M3", "Float")
float8_e5m2 = DType("Float8E5M2", np.dtype(ml_dtypes.float8_e5m2), TensorProto.FLOAT8E5M2, None,
                    "float8_e5m2", None, "F8_E5M2", "Float")
qint4x2 = DType("Int4", np.dtype(ml_dtypes.int4), TensorProto.INT4, None, None, None, None, "Int", "int4")
# Huawei's HiFloat8 has no NumPy or ONNX representation: the name exists, tensors of it do not
hifloat8 = DType("HiFloat8", None, None, None, None, None, None, "Float", "hifloat8")
EXTRA: tuple[DType, ...] = (complex64, complex128, float8_e4m3fn, float8_e5m2, qint4x2)

# MindSpore-style aliases
half, single, double = float16, float32, float64
byte, short, intc, long, intp = int8, int16, int32, int64, int64
ubyte, ushort, uintc, uintp = uint8, uint16, uint32, uint64
cfloat, cdouble = complex64, complex128

# abstract types
number = Number("Number", "number")
int_, uint, float_ = Int(), UInt(), Float()
string = Type("String", "string_")
list_ = Type("List", "list_")
tuple_ = Type("Tuple", "tuple_")
type_none = Type("None", "type_none")


class TypeNull(Type):
    """MindSpore's Null type (``mindspore.dtype._null``)."""


_null = TypeNull("Null", "Null")
function = Type("Func", "function")
type_type = Type("TypeType", "type_type")


class TensorType(Type):
    """The type of a tensor: ``TensorType(float32)`` prints ``Tensor[Float32]``; ``tensor_type``
    (``TensorType()``) is any tensor.

    Examples:
        >>> import cellonnx as ms
        >>> t = ms.TensorType(ms.float32)
        >>> print(t, t.element_type())
        Tensor[Float32] Float32
    """

    def __init__(self, element: DType | None = None) -> None:
        super().__init__("Tensor" if element is None else f"Tensor[{element}]",
                         "tensor" if element is None else f"tensor[{element!r}]".replace("mindspore.", ""))
        self._element = element

    def element_type(self) -> DType | None:
        return self._element

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TensorType) and other._element is self._element

    def __hash__(self) -> int:
        return hash(("TensorType", id(self._element)))


tensor_type = TensorType()

_BY_NUMPY = {d.np_dtype: d for d in (*ALL, *EXTRA)}
_BY_NAME: dict[str, DType] = {}
for _d in (*ALL, *EXTRA, hifloat8):
    for _key in (_d.name, _d.name.lower(), _d.torch, _d.safetensors, _d._qualname,
                 str(_d.np_dtype) if _d.np_dtype is not None else None):
        if _key:
            _BY_NAME.setdefault(_key, _d)
_BY_NAME.update({"bool_": bool_, "float": float32, "half": float16, "double": float64, "int": int32,
                 "long": int64, "cfloat": complex64, "cdouble": complex128, "qint4x2": qint4x2})
_BY_ONNX = {d.onnx: d for d in (*ALL, *EXTRA)}
_BY_MXNET = {d.mxnet_flag: d for d in ALL if d.mxnet_flag is not None}
_BY_TORCH_STORAGE = {d.torch_storage: d for d in (*ALL, *EXTRA) if d.torch_storage}
# pickling a dtype gives back the one object
_PICKLE_NAMES: dict[int, str] = {}
for _k, _v in list(globals().items()):
    if isinstance(_v, Type):
        _PICKLE_NAMES.setdefault(id(_v), _k)
_DEFAULT_OF_KIND = {"Int": int32, "UInt": uint32, "Float": float32, "BFloat": bfloat16, "Complex": complex64,
                    "Bool": bool_}

DEFAULT_FLOAT = float32


def dtype(value: Any) -> DType:
    """The cellonnx dtype for a DType, NumPy dtype, Python type or name ("float32", "Float32", "F32"); the
    abstract kinds give their default (``int_`` int32, ``float_`` float32), as ``ops.cast`` takes them."""
    if isinstance(value, DType):
        if value.np_dtype is None:
            raise TypeError(f"{value} has no NumPy or ONNX representation: tensors of it cannot be made")
        return value
    if isinstance(value, _Kind):  # the abstract kinds: int_ -> int32, float_ -> float32
        return _DEFAULT_OF_KIND[type(value).__name__]
    if isinstance(value, str):
        try:
            return _BY_NAME[value]
        except KeyError:
            raise TypeError(f"unknown dtype name {value!r}; expected one of "
                            f"{sorted(d.name.lower() for d in ALL)}") from None
    if value is float:
        return float32
    if value is int:
        return int64
    if value is bool:
        return bool_
    if value is complex:
        return complex128
    if isinstance(value, Type):
        raise TypeError(f"{value!r} is not a tensor element type")
    try:
        npd = np.dtype(value)
    except TypeError:
        raise TypeError(f"cannot interpret {value!r} as a dtype") from None
    try:
        return _BY_NUMPY[npd]
    except KeyError:
        raise TypeError(f"NumPy dtype {npd} has no cellonnx dtype; supported: "
                        f"{[str(d.np_dtype) for d in ALL]}") from None


def from_onnx(code: int) -> DType:
    try:
        return _BY_ONNX[code]
    except KeyError:
        raise TypeError(f"ONNX data type {code} has no cellonnx dtype") from None


def from_mxnet_flag(flag: int) -> DType:
    try:
        return _BY_MXNET[flag]
    except KeyError:
        raise TypeError(f"MXNet type_flag {flag} is not a known dtype") from None


def from_torch_storage(storage: str) -> DType:
    try:
        return _BY_TORCH_STORAGE[storage]
    except KeyError:
        raise TypeError(f"PyTorch storage type {storage!r} is not a known dtype") from None


def to_numpy(value: Any) -> np.dtype:
    """The NumPy dtype behind any dtype-like value."""
    return dtype(value).np_dtype


def is_float(value: Any) -> bool:
    return dtype(value).is_floating_point
