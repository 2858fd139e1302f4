"""Bitwise primitives on integer (and bool) tensors: and, or, xor, not (``invert``) and the shifts.

The shifts follow MindSpore's CPU kernels, which shift in 32-bit registers (64-bit for 64-bit types) with
the amount taken modulo the register width: ``int8(3) << 9`` is 0 (the 32-bit result truncated), and
``int32(5) << 40`` is ``5 << 8``. Signed right shifts are arithmetic. ONNX's BitShift takes unsigned
integers only, so signed shifts are lowered through unsigned casts.
"""
from __future__ import annotations

from typing import Any

import numpy as np
from onnx import TensorProto

from cellonnx import dtypes
from cellonnx.ops.prims._util import promote, to_tensor
from cellonnx.ops.registry import Op
from cellonnx.tensor import Tensor


def _onnx(dt: Any) -> int:
    return dtypes.dtype(dt).onnx


class _Bitwise(Op, register=False):
    differentiable = False
    onnx_type = ""
    bool_type = ""
    np_fn: Any = None

    def forward(self, a, b):
        return type(self).np_fn(a, b)

    def lower(self, g, a, b):
        if g.in_tensors[0]._data.dtype == np.bool_:
            return g.op(self.bool_type, a, b)
        if g.opset < 18:
            raise NotImplementedError(f"ops.{self.onnx_type}: ONNX has bitwise operators on integers from "
                                      f"opset 18; export with opset >= 18 (asked for {g.opset})")
        return g.op(self.onnx_type, a, b)


class BitwiseAnd(_Bitwise):
    onnx_type, bool_type, np_fn = "BitwiseAnd", "And", np.bitwise_and


class BitwiseOr(_Bitwise):
    onnx_type, bool_type, np_fn = "BitwiseOr", "Or", np.bitwise_or


class BitwiseXor(_Bitwise):
    onnx_type, bool_type, np_fn = "BitwiseXor", "Xor", np.bitwise_xor


class BitwiseNot(Op):
    differentiable = False

    def forward(self, x):
        return np.invert(x)

    def lower(self, g, x):
        if g.in_tensors[0]._data.dtype == np.bool_:
            return g.op("Not", x)
        if g.opset < 18:
            raise NotImplementedError("ops.invert: ONNX has BitwiseNot from opset 18; export with opset >= "
                                      f"18 (asked for {g.opset})")
        return g.op("BitwiseNot", x)


def _work(dt: np.dtype) -> tuple[np.dtype, np.dtype, int]:
    """The register types a shift runs in: (signed or unsigned working type, its unsigned twin, bits)."""
    bits = 64 if dt.itemsize == 8 else 32
    unsigned = np.dtype(f"uint{bits}")
    return (unsigned if dt.kind == "u" else np.dtype(f"int{bits}")), unsigned, bits


class BitShift(Op):
    """``x << s`` (``left``) or ``x >> s``, elementwise with broadcasting (see the module docstring)."""

    differentiable = False

    def forward(self, x, s, *, left):
        work, _, bits = _work(x.dtype)
        xs = x.astype(work)
        amount = np.bitwise_and(s.astype(np.int64), bits - 1).astype(work)
        out = np.left_shift(xs, amount) if left else np.right_shift(xs, amount)
        return out.astype(x.dtype)

    def lower(self, g, x, s, *, left):
        dt = g.in_tensors[0]._data.dtype
        work, unsigned, bits = _work(dt)
        xw = g.op("Cast", x, to=_onnx(work)) if work != dt else x
        sw = g.op("Mod", g.op("Cast", s, to=TensorProto.INT64), g.const(np.asarray(bits, np.int64)), fmod=0)
        su = g.op("Cast", sw, to=_onnx(unsigned))
        if work == unsigned:
            out = g.op("BitShift", xw, su, direction="LEFT" if left else "RIGHT")
        elif left:
            out = g.op("Cast", g.op("BitShift", g.op("Cast", xw, to=_onnx(unsigned)), su, direction="LEFT"),
                       to=_onnx(work))
        else:
            # arithmetic shift of a negative x: ~((~x) >> s), with ~x = -1 - x (non-negative)
            minus_one = g.const(np.asarray(-1, work))
            negative = g.op("Less", xw, g.const(np.asarray(0, work)))
            v = g.op("Where", negative, g.op("Sub", minus_one, xw), xw)
            vu = g.op("Cast", v, to=_onnx(unsigned))
            shifted = g.op("Cast", g.op("BitShift", vu, su, direction="RIGHT"), to=_onnx(work))
            out = g.op("Where", negative, g.op("Sub", minus_one, shifted), shifted)
        return g.op("Cast", out, to=_onnx(dt)) if work != dt else out


# ---------------------------------------------------------------- functional API (MindSpore names)
def _ints(input: Any, other: Any, op: str) -> tuple[Tensor, Tensor]:
    a, b = promote(input, other)
    if a._data.dtype.kind not in "iub":
        raise TypeError(f"{op}: inputs must be integer or bool tensors, got {a.dtype}")
    return a, b


def bitwise_and(input: Tensor, other: Tensor) -> Tensor:
    """Bitwise AND of two integer or bool tensors (broadcast).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([12, 10]), ms.int32)
        >>> y = Tensor(np.array([10, 6]), ms.int32)
        >>> print(ops.bitwise_and(x, y))
        [8 2]
    """
    return BitwiseAnd.apply(*_ints(input, other, "bitwise_and"))


def bitwise_or(input: Tensor, other: Tensor) -> Tensor:
    """Bitwise OR of two integer or bool tensors (broadcast).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([12, 10]), ms.int32)
        >>> y = Tensor(np.array([10, 6]), ms.int32)
        >>> print(ops.bitwise_or(x, y))
        [14 14]
    """
    return BitwiseOr.apply(*_ints(input, other, "bitwise_or"))


def bitwise_xor(input: Tensor, other: Tensor) -> Tensor:
    """Bitwise XOR of two integer or bool tensors (broadcast).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([12, 10]), ms.int32)
        >>> y = Tensor(np.array([10, 6]), ms.int32)
        >>> print(ops.bitwise_xor(x, y))
        [ 6 12]
    """
    return BitwiseXor.apply(*_ints(input, other, "bitwise_xor"))


def invert(x: Tensor) -> Tensor:
    """Flip every bit of an integer tensor (``~x``).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0, 1, -2]), ms.int32)
        >>> print(ops.invert(x))
        [-1 -2  1]
    """
    x = to_tensor(x)
    if x._data.dtype.kind not in "iu":
        raise TypeError(f"invert: x must be an integer tensor, got {x.dtype}")
    return BitwiseNot.apply(x)


def _shift(input: Any, other: Any, left: bool, op: str) -> Tensor:
    if not isinstance(input, Tensor):
        input = to_tensor(input, other if isinstance(other, Tensor) else None)
    x = to_tensor(input)
    s = to_tensor(other, x)
    if x._data.dtype.kind not in "iu" or s._data.dtype.kind not in "iu":
        raise TypeError(f"{op}: inputs must be integer tensors, got {x.dtype} and {s.dtype}")
    x, s = promote(x, s)
    return BitShift.apply(x, s, left=left)


def bitwise_left_shift(input: Tensor, other: Tensor) -> Tensor:
    """``input << other`` elementwise (see the module docstring for shifts past the width).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1, 2, 3]), ms.int32)
        >>> print(ops.bitwise_left_shift(x, Tensor(np.array([1, 2, 3]), ms.int32)))
        [ 2  8 24]
    """
    return _shift(input, other, True, "bitwise_left_shift")


def bitwise_right_shift(input: Tensor, other: Tensor) -> Tensor:
    """``input >> other`` elementwise, arithmetic for signed integers.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([8, 8, 8]), ms.int32)
        >>> print(ops.bitwise_right_shift(x, Tensor(np.array([1, 2, 3]), ms.int32)))
        [4 2 1]
    """
    return _shift(input, other, False, "bitwise_right_shift")


__all__ = ["bitwise_and", "bitwise_left_shift", "bitwise_or", "bitwise_right_shift", "bitwise_xor", "invert"]
