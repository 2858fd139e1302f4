"""The few primitives cellonnx.numpy needs that cellonnx.ops does not have yet: inverse trigonometric and
hyperbolic functions (one ONNX node each), arctan2, the bitwise operations, a cumulative product and unique.

They are private to cellonnx.numpy (registered as ``Numpy*``) until cellonnx.ops has public equivalents.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from cellonnx import dtypes
from cellonnx import ops as F
from cellonnx.ops.prims._util import is_float_dtype, promote, sum_to
from cellonnx.ops.registry import Op
from cellonnx.tensor import Tensor


# ---------------------------------------------------------------- unary transcendental functions
def _rsqrt_of(t: Tensor) -> Tensor:
    return F.rsqrt(t)


# name: (NumPy function, ONNX op, vector-Jacobian product (x, y, g) written with ops)
_UNARY: dict[str, tuple[Any, str, Callable[[Tensor, Tensor, Tensor], Tensor]]] = {
    "tan": (np.tan, "Tan", lambda x, y, g: F.mul(g, F.add(F.mul(y, y), 1))),
    "arcsin": (np.arcsin, "Asin", lambda x, y, g: F.mul(g, _rsqrt_of(F.sub(1, F.mul(x, x))))),
    "arccos": (np.arccos, "Acos", lambda x, y, g: F.neg(F.mul(g, _rsqrt_of(F.sub(1, F.mul(x, x)))))),
    "arctan": (np.arctan, "Atan", lambda x, y, g: F.div(g, F.add(F.mul(x, x), 1))),
    "sinh": (np.sinh, "Sinh", lambda x, y, g: F.mul(g, unary("cosh", x))),
    "cosh": (np.cosh, "Cosh", lambda x, y, g: F.mul(g, unary("sinh", x))),
    "arcsinh": (np.arcsinh, "Asinh", lambda x, y, g: F.mul(g, _rsqrt_of(F.add(F.mul(x, x), 1)))),
    "arccosh": (np.arccosh, "Acosh",
                lambda x, y, g: F.mul(g, _rsqrt_of(F.mul(F.sub(x, 1), F.add(x, 1))))),
    "arctanh": (np.arctanh, "Atanh", lambda x, y, g: F.div(g, F.sub(1, F.mul(x, x)))),
}


class NumpyUnary(Op):
    """An elementwise function of ``_UNARY`` (``fn`` names it): NumPy forward, its derivative in ops, and the
    ONNX node of the same name."""

    save_output = True

    def forward(self, x, *, fn):
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            return _UNARY[fn][0](x)

    def backward(self, ctx, g, *, fn):
        return (_UNARY[fn][2](ctx.inputs[0], ctx.out, g),)

    def lower(self, g, x, *, fn):
        return g.op(_UNARY[fn][1], x)

    def check(self, x, *, fn):
        if fn not in _UNARY:
            return f"unknown function {fn!r}; expected one of {sorted(_UNARY)}"
        if not is_float_dtype(x.dtype):
            return f"{fn} takes a float tensor, got {x.dtype}"
        return None


def unary(fn: str, x: Tensor) -> Tensor:
    return NumpyUnary.apply(x, fn=fn)


class NumpyArctan2(Op):
    """``arctan2(y, x)``, the angle of the point (x, y), with broadcasting. ONNX has no Atan2: it lowers to
    Atan(y / x) shifted by +-pi where x < 0 (0 where x and y are both 0)."""

    def forward(self, y, x):
        return np.arctan2(y, x)

    def backward(self, ctx, g):
        y, x = ctx.inputs
        r2 = F.add(F.mul(x, x), F.mul(y, y))
        return (sum_to(F.div(F.mul(g, x), r2), y.shape) if y.requires_grad else None,
                sum_to(F.neg(F.div(F.mul(g, y), r2)), x.shape) if x.requires_grad else None)

    def lower(self, g, y, x):
        zero = g.like(0)
        angle = g.op("Atan", g.op("Div", y, x))
        shift = g.op("Where", g.op("Less", y, zero), g.like(-math.pi), g.like(math.pi))
        angle = g.op("Add", angle, g.op("Where", g.op("Less", x, zero), shift, zero))
        origin = g.op("And", g.op("Equal", x, zero), g.op("Equal", y, zero))
        return g.op("Where", origin, zero, angle)

    def check(self, y, x):
        try:
            np.broadcast_shapes(y.shape, x.shape)
        except ValueError:
            return f"shapes {y.shape} and {x.shape} do not broadcast"
        return None


def arctan2(y: Tensor, x: Tensor) -> Tensor:
    return NumpyArctan2.apply(*promote(y, x))


# ---------------------------------------------------------------- bitwise operations
_BITWISE = {"and": (np.bitwise_and, "BitwiseAnd", "And"), "or": (np.bitwise_or, "BitwiseOr", "Or"),
            "xor": (np.bitwise_xor, "BitwiseXor", "Xor")}


def _bitwise_opset(g: Any, what: str) -> None:
    if g.opset < 18:
        raise ValueError(f"{what} of integers lowers to ONNX's Bitwise* operators, which need opset 18 or "
                         f"newer (the graph is being built for opset {g.opset})")


class NumpyBitwise(Op):
    """Bitwise and / or / xor (``op``) of two integer or bool tensors, with broadcasting."""

    differentiable = False

    def forward(self, a, b, *, op):
        return _BITWISE[op][0](a, b)

    def lower(self, g, a, b, *, op):
        if g.in_tensors[0]._data.dtype == np.bool_:
            return g.op(_BITWISE[op][2], a, b)
        _bitwise_opset(g, f"bitwise_{op}")
        return g.op(_BITWISE[op][1], a, b)

    def check(self, a, b, *, op):
        if a.dtype.kind not in "biu":
            return f"bitwise_{op} takes integer or bool tensors, got {a.dtype}"
        return None


class NumpyInvert(Op):
    """Bitwise not of an integer tensor (logical not of a bool one)."""

    differentiable = False

    def forward(self, x):
        return np.invert(x)

    def lower(self, g, x):
        if g.in_tensors[0]._data.dtype == np.bool_:
            return g.op("Not", x)
        _bitwise_opset(g, "invert")
        return g.op("BitwiseNot", x)

    def check(self, x):
        if x.dtype.kind not in "biu":
            return f"invert takes an integer or bool tensor, got {x.dtype}"
        return None


def bitwise(op: str, a: Tensor, b: Tensor) -> Tensor:
    return NumpyBitwise.apply(*promote(a, b), op=op)


def invert(x: Tensor) -> Tensor:
    return NumpyInvert.apply(x)


# ---------------------------------------------------------------- cumulative product
class NumpyCumProd(Op):
    """Cumulative product along ``axis``. The gradient is ``reverse_cumsum(g * out) / x`` (inputs without
    zeros, as for ReduceProd). ONNX has no CumProd: the lowering multiplies magnitudes through
    exp(CumSum(log|x|)), with the sign from the running count of negative entries and zeros after the first
    zero (agreeing with the eager product to about 1e-6 relative per term)."""

    save_output = True

    def forward(self, x, *, axis):
        return np.cumprod(x, axis=axis, dtype=x.dtype)

    def backward(self, ctx, g, *, axis):
        from cellonnx.ops.prims.sort import CumSum
        x = ctx.inputs[0]
        acc = CumSum.apply(F.mul(g, ctx.out), axis=axis, exclusive=False, reverse=True)
        return (F.div(acc, x),)

    def lower(self, g, x, *, axis):
        dt = g.in_tensors[0]._data.dtype
        work = dt if is_float_dtype(dt) and dt != dtypes.bfloat16.np_dtype else np.dtype(np.float64)
        onnx_work = dtypes.dtype(work).onnx
        v = x if work == dt else g.op("Cast", x, to=onnx_work)

        def c(value: float) -> str:
            return g.const(np.asarray(value, dtype=work))

        ax = g.i64(axis)
        zero = g.op("Equal", v, c(0))
        safe = g.op("Where", zero, c(1), g.op("Abs", v))
        magnitude = g.op("Exp", g.op("CumSum", g.op("Log", safe), ax))
        negatives = g.op("CumSum", g.op("Cast", g.op("Less", v, c(0)), to=onnx_work), ax)
        odd = g.op("Mod", negatives, c(2), fmod=1)
        signed = g.op("Mul", magnitude, g.op("Sub", c(1), g.op("Mul", odd, c(2))))
        zeros_seen = g.op("CumSum", g.op("Cast", zero, to=onnx_work), ax)
        out = g.op("Where", g.op("Greater", zeros_seen, c(0)), c(0), signed)
        if work == dt:
            return out
        return g.op("Cast", g.op("Round", out), to=dtypes.dtype(dt).onnx)  # exp/log leave integers inexact


def cumprod(x: Tensor, axis: int) -> Tensor:
    return NumpyCumProd.apply(x, axis=axis)


# ---------------------------------------------------------------- unique
class NumpyUnique(Op):
    """The distinct values of a tensor (flattened) and, for each input element, the index of its value
    among them (int64). ``ordered`` sorts the values (NumPy's unique); otherwise they come in the order of
    their first occurrence (MindSpore's Unique). Lowers to ONNX Unique."""

    differentiable = False
    n_outputs = 2

    def forward(self, x, *, ordered):
        flat = x.reshape(-1)
        values, first, inverse = np.unique(flat, return_index=True, return_inverse=True)
        if ordered:
            return values, inverse.reshape(-1).astype(np.int64)
        order = np.argsort(first, kind="stable")
        rank = np.empty_like(order)
        rank[order] = np.arange(order.size)
        return values[order], rank[inverse.reshape(-1)].astype(np.int64)

    def lower(self, g, x, *, ordered):
        y, _, inverse, _ = g.op("Unique", x, sorted=int(ordered), outputs=4)
        return y, inverse


def unique(x: Tensor, ordered: bool) -> tuple[Tensor, Tensor]:
    return NumpyUnique.apply(x, ordered=bool(ordered))
