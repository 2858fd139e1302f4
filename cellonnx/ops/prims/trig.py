"""Trigonometric and hyperbolic primitives beyond sin / cos / tanh: tan, the inverse functions, sinh, cosh,
their inverses and atan2. Each has an ONNX node of its own except atan2 (lowered as atan of the quotient
with the quadrant fixed by Where)."""
from __future__ import annotations

import math as _math

import numpy as np

from cellonnx.ops.prims._util import promote, sum_to
from cellonnx.ops.prims.math import _floatify, add, div, mul, neg, sqrt, sub
from cellonnx.ops.registry import Op
from cellonnx.tensor import Tensor


class _Unary(Op, register=False):
    onnx_type = ""

    def lower(self, g, x):
        return g.op(self.onnx_type, x)


class Tan(_Unary):
    saved_inputs = ()  # backward reads only the output
    onnx_type = "Tan"
    save_output = True

    def forward(self, x):
        return np.tan(x)

    def backward(self, ctx, g):
        y = ctx.out
        return (mul(g, add(mul(y, y), 1)),)


class Asin(_Unary):
    onnx_type = "Asin"

    def forward(self, x):
        return np.arcsin(x)

    def backward(self, ctx, g):
        x = ctx.inputs[0]
        return (div(g, sqrt(sub(1, mul(x, x)))),)


class Acos(_Unary):
    onnx_type = "Acos"

    def forward(self, x):
        return np.arccos(x)

    def backward(self, ctx, g):
        x = ctx.inputs[0]
        return (neg(div(g, sqrt(sub(1, mul(x, x))))),)


class Atan(_Unary):
    onnx_type = "Atan"

    def forward(self, x):
        return np.arctan(x)

    def backward(self, ctx, g):
        x = ctx.inputs[0]
        return (div(g, add(mul(x, x), 1)),)


class Sinh(_Unary):
    onnx_type = "Sinh"

    def forward(self, x):
        return np.sinh(x)

    def backward(self, ctx, g):
        return (mul(g, cosh(ctx.inputs[0])),)


class Cosh(_Unary):
    onnx_type = "Cosh"

    def forward(self, x):
        return np.cosh(x)

    def backward(self, ctx, g):
        return (mul(g, sinh(ctx.inputs[0])),)


class Asinh(_Unary):
    onnx_type = "Asinh"

    def forward(self, x):
        return np.arcsinh(x)

    def backward(self, ctx, g):
        x = ctx.inputs[0]
        return (div(g, sqrt(add(mul(x, x), 1))),)


class Acosh(_Unary):
    onnx_type = "Acosh"

    def forward(self, x):
        return np.arccosh(x)

    def backward(self, ctx, g):
        x = ctx.inputs[0]
        return (div(g, sqrt(sub(mul(x, x), 1))),)


class Atanh(_Unary):
    onnx_type = "Atanh"

    def forward(self, x):
        return np.arctanh(x)

    def backward(self, ctx, g):
        x = ctx.inputs[0]
        return (div(g, sub(1, mul(x, x))),)


class Atan2(Op):
    """atan2(y, x), the angle of the point (x, y) in (-pi, pi]."""

    def forward(self, y, x):
        return np.arctan2(y, x)

    def backward(self, ctx, g):
        y, x = ctx.inputs
        r2 = add(mul(x, x), mul(y, y))
        return (sum_to(div(mul(g, x), r2), y.shape) if y.requires_grad else None,
                sum_to(neg(div(mul(g, y), r2)), x.shape) if x.requires_grad else None)

    def lower(self, g, y, x):
        dt = g.out_tensors[0]._data.dtype

        def c(v: float) -> str:
            return g.const(np.asarray(v, dtype=dt))

        zero = c(0.0)
        base = g.op("Atan", g.op("Div", y, x))
        # x < 0: shift by +pi above the axis (y >= 0, -0.0 included as NumPy does for +0.0) and -pi below
        shift = g.op("Where", g.op("Less", y, zero), c(-_math.pi), c(_math.pi))
        on_axis = g.op("Where", g.op("Greater", y, zero), c(_math.pi / 2),
                       g.op("Where", g.op("Less", y, zero), c(-_math.pi / 2), zero))
        left = g.op("Add", base, shift)
        return g.op("Where", g.op("Greater", x, zero), base,
                    g.op("Where", g.op("Less", x, zero), left, on_axis))


# ---------------------------------------------------------------- functional API (MindSpore names)
def tan(input: Tensor) -> Tensor:
    """Tangent of each element (integers are computed in float32).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.0, 0.7853982]), ms.float32)
        >>> print(ops.tan(x).asnumpy().round(4))
        [0. 1.]
    """
    return Tan.apply(_floatify(input))


def asin(input: Tensor) -> Tensor:
    """Arcsine of each element, in [-pi/2, pi/2]; NaN outside [-1, 1].

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 0.0, -0.5]), ms.float32)
        >>> print(ops.asin(x).asnumpy().round(4))
        [ 1.5708  0.     -0.5236]
    """
    return Asin.apply(_floatify(input))


def acos(input: Tensor) -> Tensor:
    """Arccosine of each element, in [0, pi]; NaN outside [-1, 1].

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 0.0, -1.0]), ms.float32)
        >>> print(ops.acos(x).asnumpy().round(4))
        [0.     1.5708 3.1416]
    """
    return Acos.apply(_floatify(input))


def atan(input: Tensor) -> Tensor:
    """Arctangent of each element, in (-pi/2, pi/2).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 0.0, -1.0]), ms.float32)
        >>> print(ops.atan(x).asnumpy().round(4))
        [ 0.7854  0.     -0.7854]
    """
    return Atan.apply(_floatify(input))


def sinh(input: Tensor) -> Tensor:
    """Hyperbolic sine of each element.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.0, 1.0]), ms.float32)
        >>> print(ops.sinh(x).asnumpy().round(4))
        [0.     1.1752]
    """
    return Sinh.apply(_floatify(input))


def cosh(input: Tensor) -> Tensor:
    """Hyperbolic cosine of each element.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.0, 1.0]), ms.float32)
        >>> print(ops.cosh(x).asnumpy().round(4))
        [1.     1.5431]
    """
    return Cosh.apply(_floatify(input))


def asinh(input: Tensor) -> Tensor:
    """Inverse hyperbolic sine of each element.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.0, 1.0]), ms.float32)
        >>> print(ops.asinh(x).asnumpy().round(4))
        [0.     0.8814]
    """
    return Asinh.apply(_floatify(input))


def acosh(input: Tensor) -> Tensor:
    """Inverse hyperbolic cosine of each element; NaN below 1.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> print(ops.acosh(x).asnumpy().round(4))
        [0.    1.317]
    """
    return Acosh.apply(_floatify(input))


def atanh(input: Tensor) -> Tensor:
    """Inverse hyperbolic tangent of each element; +-inf at +-1, NaN outside [-1, 1].

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.0, 0.5]), ms.float32)
        >>> print(ops.atanh(x).asnumpy().round(4))
        [0.     0.5493]
    """
    return Atanh.apply(_floatify(input))


def atan2(input: Tensor, other: Tensor) -> Tensor:
    """Arctangent of ``input / other`` in the quadrant of the point (other, input), in (-pi, pi].

    Args:
        input (Tensor): the y coordinates.
        other (Tensor): the x coordinates; broadcasts with ``input``.

    Returns:
        Tensor, float (integers are computed in float32).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> y = Tensor(np.array([1.0, 1.0]), ms.float32)
        >>> x = Tensor(np.array([1.0, -1.0]), ms.float32)
        >>> print(ops.atan2(y, x).asnumpy().round(4))
        [0.7854 2.3562]
    """
    y, x = promote(input, other)
    return Atan2.apply(_floatify(y), _floatify(x))


def arcsin(x: Tensor) -> Tensor:
    """Alias of :func:`asin`.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.0, 1.0]), ms.float32)
        >>> print(ops.arcsin(x).asnumpy().round(4))
        [0.     1.5708]
    """
    return asin(x)


def arccos(input: Tensor) -> Tensor:
    """Alias of :func:`acos`.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 0.0]), ms.float32)
        >>> print(ops.arccos(x).asnumpy().round(4))
        [0.     1.5708]
    """
    return acos(input)


def arctan(input: Tensor) -> Tensor:
    """Alias of :func:`atan`.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.0, 1.0]), ms.float32)
        >>> print(ops.arctan(x).asnumpy().round(4))
        [0.     0.7854]
    """
    return atan(input)


def arcsinh(input: Tensor) -> Tensor:
    """Alias of :func:`asinh`.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([0.0, 1.0]), ms.float32)
        >>> print(ops.arcsinh(x).asnumpy().round(4))
        [0.     0.8814]
    """
    return asinh(input)


def arccosh(input: Tensor) -> Tensor:
    """Alias of :func:`acosh`.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> print(ops.arccosh(x).asnumpy().round(4))
        [0.    1.317]
    """
    return acosh(input)


def arctanh(input: Tensor) -> Tensor:
    """Alias of :func:`atanh`.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([0.0, 0.5]), ms.float32)
        >>> print(ops.arctanh(x).asnumpy().round(4))
        [0.     0.5493]
    """
    return atanh(input)


def arctan2(input: Tensor, other: Tensor) -> Tensor:
    """Alias of :func:`atan2`.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> y = Tensor(np.array([1.0, 1.0]), ms.float32)
        >>> x = Tensor(np.array([1.0, -1.0]), ms.float32)
        >>> print(ops.arctan2(y, x).asnumpy().round(4))
        [0.7854 2.3562]
    """
    return atan2(input, other)


def deg2rad(x: Tensor) -> Tensor:
    """Degrees to radians: ``x * pi / 180``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.0, 90.0, 180.0]), ms.float32)
        >>> print(ops.deg2rad(x).asnumpy().round(4))
        [0.     1.5708 3.1416]
    """
    return div(mul(_floatify(x), _math.pi), 180.0)


def rad2deg(x: Tensor) -> Tensor:
    """Radians to degrees: ``x * 180 / pi``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.0, 1.5707964]), ms.float32)
        >>> print(ops.rad2deg(x).asnumpy().round(2))
        [ 0. 90.]
    """
    return div(mul(_floatify(x), 180.0), _math.pi)


__all__ = ["acos", "acosh", "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctan2", "arctanh", "asin",
           "asinh", "atan", "atan2", "atanh", "cosh", "deg2rad", "rad2deg", "sinh", "tan"]
