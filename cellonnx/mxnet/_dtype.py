"""The ``dtype`` of MXNet arrays: cellonnx's dtype that also equals NumPy's spellings.

MXNet code compares ``x.dtype == np.float32`` and passes ``x.dtype`` to NumPy; cellonnx code reads
``x.dtype.np_dtype``. ``mx_dtype(dt)`` gives an object that does both: a cellonnx DType (same hash, equal
to it) that is also equal to the NumPy dtype, its scalar type and its name, and that NumPy accepts as a
dtype. NDArray's prints as MXNet 1.x's (``<class 'numpy.float32'>``), ndarray's as NumPy's.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import dtypes
from cellonnx.dtypes import DType

__all__ = ["mx_dtype"]


class _MXDType(DType):
    _base: DType

    def __eq__(self, other: object) -> bool:
        if isinstance(other, DType):
            return other.np_dtype == self.np_dtype
        try:
            return np.dtype(other) == self.np_dtype  # type: ignore[arg-type]
        except TypeError:
            return False

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return object.__hash__(self._base)

    def element_type(self) -> DType:
        """cellonnx's DType (so ``isinstance(x.dtype, cellonnx.dtype.Float)`` holds for a float32 array)."""
        return self._base

    @property
    def dtype(self) -> np.dtype:
        """The NumPy dtype (so that ``np.dtype(x.dtype)`` works)."""
        return self.np_dtype

    @property
    def type(self) -> type:
        return self.np_dtype.type

    @property
    def kind(self) -> str:
        """NumPy's kind character ('f', 'i' ...), as MXNet code reads it."""
        return self.np_dtype.kind

    @kind.setter
    def kind(self, value: str) -> None:
        # DType.__init__ sets cellonnx's kind ('Float' ...); the type tests below read it from the base
        object.__setattr__(self, "_cellonnx_kind", value)

    @property
    def is_floating_point(self) -> bool:
        return self._base.is_floating_point

    @property
    def is_complex(self) -> bool:
        return self._base.is_complex

    @property
    def is_signed(self) -> bool:
        return self._base.is_signed

    @property
    def char(self) -> str:
        return self.np_dtype.char

    def __reduce__(self) -> Any:
        return (mx_dtype, (str(self.np_dtype), type(self) is _NPDType))


class _NDDType(_MXDType):
    def __repr__(self) -> str:
        return repr(self.np_dtype.type)

    def __str__(self) -> str:
        return str(self.np_dtype)


class _NPDType(_MXDType):
    """mx.np's dtypes: an array's ``dtype`` and the names ``mx.np.float32`` ..., which NumPy-style code also
    uses as NumPy's scalar types (``mx.np.float32(1)``, ``isinstance(v, mx.np.float32)``)."""

    def __repr__(self) -> str:
        return repr(self.np_dtype)

    def __str__(self) -> str:
        return str(self.np_dtype)

    def __call__(self, *args: Any) -> Any:
        return self.np_dtype.type(*args)

    def __instancecheck__(self, obj: Any) -> bool:
        return isinstance(obj, self.np_dtype.type)

    def __subclasscheck__(self, cls: Any) -> bool:
        return isinstance(cls, type) and issubclass(cls, self.np_dtype.type)

    @property
    def __name__(self) -> str:  # type: ignore[override]
        return self.np_dtype.type.__name__


_CACHE: dict[tuple[Any, bool], _MXDType] = {}


def mx_dtype(dt: Any, numpy_style: bool = False) -> _MXDType:
    """The MXNet-facing dtype object for ``dt`` (a DType, NumPy dtype or name)."""
    base = dtypes.dtype(dt)
    key = (base.np_dtype, numpy_style)
    out = _CACHE.get(key)
    if out is None:
        cls = _NPDType if numpy_style else _NDDType
        out = cls(base.name, base.np_dtype, base.onnx, base.mxnet_flag, base.torch, base.torch_storage,
                  base.safetensors)
        object.__setattr__(out, "_base", base)
        _CACHE[key] = out
    return out
