"""Elementwise primitives with rounding toward zero and integer arithmetic: trunc, fmod (C's remainder,
the sign of the dividend), signbit, gcd, lcm and nextafter."""
from __future__ import annotations

import numpy as np

from cellonnx.ops.prims._eager import not_exportable
from cellonnx.ops.prims._util import is_float_dtype, promote, sum_to, to_tensor
from cellonnx.ops.prims.math import Div, cast, div, mul, neg
from cellonnx.ops.registry import Op
from cellonnx.tensor import Tensor


class Trunc(Op):
    """Rounding toward zero (no gradient: the function is piecewise constant)."""

    differentiable = False

    def forward(self, x):
        return np.trunc(x)

    def lower(self, g, x):
        return g.op("Where", g.op("Less", x, g.like(0)), g.op("Ceil", x), g.op("Floor", x))


class Fmod(Op):
    """C's fmod: ``a - trunc(a / b) * b``, the sign of ``a``."""

    def forward(self, a, b):
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.fmod(a, b)

    def backward(self, ctx, g):
        a, b = ctx.inputs
        gb = sum_to(neg(mul(g, Trunc.apply(div(a, b)))), b.shape) if b.requires_grad else None
        return sum_to(g, a.shape) if a.requires_grad else None, gb

    def lower(self, g, a, b):
        return g.op("Mod", a, b, fmod=1)


class SignBit(Op):
    """Whether the sign bit is set (True for -0.0 and negative NaN)."""

    differentiable = False

    def forward(self, x):
        return np.signbit(x)

    def lower(self, g, x):
        if not is_float_dtype(g.in_tensors[0]._data.dtype):
            return g.op("Less", x, g.like(0))
        # -0.0 is not below 0, but 1 / -0.0 is
        zero = g.like(0)
        negative_zero = g.op("And", g.op("Equal", x, zero), g.op("Less", g.op("Div", g.like(1), x), zero))
        return g.op("Or", g.op("Less", x, zero), negative_zero)


class Gcd(Op):
    differentiable = False

    def forward(self, a, b):
        return np.gcd(a, b)

    lower = not_exportable("gcd")


class Lcm(Op):
    differentiable = False

    def forward(self, a, b):
        return np.lcm(a, b)

    lower = not_exportable("lcm")


class NextAfter(Op):
    differentiable = False

    def forward(self, a, b):
        return np.nextafter(a, b)

    lower = not_exportable("nextafter")


# ---------------------------------------------------------------- functional API (MindSpore names)
def trunc(input: Tensor) -> Tensor:
    """Round toward zero; integers are returned as they are.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.7, -1.7]), ms.float32)
        >>> print(ops.trunc(x))
        [ 1. -1.]
    """
    x = to_tensor(input)
    return Trunc.apply(x) if is_float_dtype(x._data.dtype) else x


def fmod(input: Tensor, other: Tensor) -> Tensor:
    """The remainder of ``input / other`` with the sign of ``input`` (C's fmod).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-3.0, -1.0, 4.0]), ms.float32)
        >>> print(ops.fmod(x, 3.0))
        [-0. -1.  1.]
    """
    return Fmod.apply(*promote(input, other))


def truncate_div(x: Tensor, y: Tensor) -> Tensor:
    """Division rounded toward zero; integer inputs give integers.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([7, -7]), ms.int32)
        >>> print(ops.truncate_div(x, Tensor(np.array([2, 2]), ms.int32)))
        [ 3 -3]
    """
    a, b = promote(x, y)
    if not is_float_dtype(a._data.dtype):
        return Div.apply(a, b)
    return Trunc.apply(Div.apply(a, b))


def truncate_mod(x: Tensor, y: Tensor) -> Tensor:
    """The remainder of the truncating division: the sign of ``x`` (as :func:`fmod`).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([7, -7]), ms.int32)
        >>> print(ops.truncate_mod(x, Tensor(np.array([3, 3]), ms.int32)))
        [ 1 -1]
    """
    return fmod(x, y)


def _int_pair(a: Tensor, b: Tensor, op: str) -> tuple[Tensor, Tensor]:
    a, b = promote(a, b)
    if a._data.dtype.kind not in "iu":
        raise TypeError(f"{op}: inputs must be integer tensors, got {a.dtype}")
    return a, b


def gcd(input: Tensor, other: Tensor) -> Tensor:
    """The greatest common divisor, elementwise (non-negative; gcd(0, 0) = 0).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([12, 18]), ms.int32)
        >>> y = Tensor(np.array([8, 27]), ms.int32)
        >>> print(ops.gcd(x, y))
        [4 9]
    """
    return Gcd.apply(*_int_pair(input, other, "gcd"))


def lcm(input: Tensor, other: Tensor) -> Tensor:
    """The least common multiple, elementwise (non-negative; 0 when either is 0).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([4, 6]), ms.int32)
        >>> y = Tensor(np.array([6, 10]), ms.int32)
        >>> print(ops.lcm(x, y))
        [12 30]
    """
    return Lcm.apply(*_int_pair(input, other, "lcm"))


def nextafter(input: Tensor, other: Tensor) -> Tensor:
    """The next representable float after ``input`` toward ``other``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([0.0]), ms.float32)
        >>> y = Tensor(np.array([1.0]), ms.float32)
        >>> print(ops.nextafter(x, y))
        [1.e-45]
    """
    a, b = promote(input, other)
    if not is_float_dtype(a._data.dtype):
        a, b = cast(a, np.float32), cast(b, np.float32)
    return NextAfter.apply(a, b)


__all__ = ["fmod", "gcd", "lcm", "nextafter", "trunc", "truncate_div", "truncate_mod"]
