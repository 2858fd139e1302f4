"""Elementwise primitives: arithmetic, transcendental functions, comparisons, logic, cast, where, clip."""
from __future__ import annotations

import math as _math
from typing import Any

import numpy as np

from cellonnx import dtypes
from cellonnx.ops.prims._util import clip_scalars, is_float_dtype, promote, select, sum_to, to_tensor
from cellonnx.ops.registry import Op
from cellonnx.tensor import Tensor


# ---------------------------------------------------------------- binary arithmetic
class _Binary(Op, register=False):
    onnx_type = ""

    def lower(self, g: Any, a: str, b: str) -> str:
        return g.op(self.onnx_type, a, b)

    def check(self, a: np.ndarray, b: np.ndarray) -> str | None:
        try:
            np.broadcast_shapes(a.shape, b.shape)
        except ValueError:
            return f"shapes {a.shape} and {b.shape} do not broadcast"
        return None


class Add(_Binary):
    saved_inputs = ()  # backward reads only the shapes
    onnx_type = "Add"

    def forward(self, a, b):
        return a + b

    def backward(self, ctx, g):
        a, b = ctx.inputs
        return sum_to(g, a.shape), sum_to(g, b.shape)


class Sub(_Binary):
    saved_inputs = ()  # backward reads only the shapes
    onnx_type = "Sub"

    def forward(self, a, b):
        return a - b

    def backward(self, ctx, g):
        a, b = ctx.inputs
        return sum_to(g, a.shape), sum_to(neg(g), b.shape)


class Mul(_Binary):
    onnx_type = "Mul"

    def forward(self, a, b):
        return a * b

    def backward(self, ctx, g):
        a, b = ctx.inputs
        return (sum_to(mul(g, b), a.shape) if a.requires_grad else None,
                sum_to(mul(g, a), b.shape) if b.requires_grad else None)


class Div(_Binary):
    onnx_type = "Div"
    save_output = True
    saved_inputs = (1,)  # as MindSpore: the divisor and the quotient

    def forward(self, a, b):
        if a.dtype.kind in "iu":
            return np.trunc(a / b).astype(a.dtype)  # ONNX Div on integers truncates
        return a / b

    def backward(self, ctx, g):
        a, b = ctx.inputs
        ga = sum_to(div(g, b), a.shape) if a.requires_grad else None
        gb = sum_to(neg(div(mul(g, ctx.out), b)), b.shape) if b.requires_grad else None
        return ga, gb


class FloorDiv(_Binary):
    differentiable = False

    def forward(self, a, b):
        return np.floor_divide(a, b)

    def lower(self, g, a, b):
        if is_float_dtype(g.in_tensors[0]._data.dtype):
            return g.op("Floor", g.op("Div", a, b))
        # integer floor division: truncating Div, then subtract 1 where the signs differ and a remainder is left
        q = g.op("Div", a, b)
        r = g.op("Sub", a, g.op("Mul", q, b))
        zero = g.like(0)
        fix = g.op("And", g.op("Not", g.op("Equal", r, zero)),
                   g.op("Xor", g.op("Less", a, zero), g.op("Less", b, zero)))
        return g.op("Sub", q, g.op("Cast", fix, to=g.in_tensors[0].dtype.onnx))


class Mod(_Binary):
    """Python / NumPy modulo: the result takes the divisor's sign."""

    def forward(self, a, b):
        return np.mod(a, b)

    def backward(self, ctx, g):
        a, b = ctx.inputs
        return sum_to(g, a.shape), (sum_to(neg(mul(g, floor_div(a, b))), b.shape) if b.requires_grad else None)

    def lower(self, g, a, b):
        return g.op("Mod", a, b, fmod=0) if not is_float_dtype(g.in_tensors[0]._data.dtype) else \
            g.op("Sub", a, g.op("Mul", g.op("Floor", g.op("Div", a, b)), b))


class Pow(_Binary):
    onnx_type = "Pow"
    save_output = True

    def forward(self, a, b):
        if b.size == 1 and b.ndim <= a.ndim and b.dtype.kind == "f" and b.reshape(-1)[0] == 2:
            return np.square(a)  # the same values; NumPy's power(x, 2) runs 4x slower
        return np.power(a, b)

    def backward(self, ctx, g):
        a, b = ctx.inputs
        ga = gb = None
        if a.requires_grad:
            ga = sum_to(mul(g, mul(b, pow(a, sub(b, 1)))), a.shape)
        if b.requires_grad:
            safe = where(greater(a, 0), a, ones_like_(a))
            gb = sum_to(mul(g, mul(ctx.out, log(safe))), b.shape)
        return ga, gb


def _against_scalar(fn: Any, a: np.ndarray, b: np.ndarray, clip: Any) -> np.ndarray:
    """fn(a, b) (np.maximum / np.minimum); against one number that is not NaN, through ``clip`` (NumPy's
    loop against a scalar is 3-4x slower than a clip). Either operand may be the number."""
    if a.size == 1 and b.size > 1:
        a, b = b, a
    if b.size == 1 and b.ndim <= a.ndim and a.dtype == b.dtype and a.dtype.kind == "f":
        v = b.reshape(-1)[0]
        if not np.isnan(v):
            return clip(a, v)
    return fn(a, b)


class Maximum(_Binary):
    onnx_type = "Max"

    def forward(self, a, b):
        return _against_scalar(np.maximum, a, b, lambda x, v: clip_scalars(x, v, None))

    def backward(self, ctx, g):
        a, b = ctx.inputs
        pick_a = cast(greater_equal(a, b), g.dtype)  # ties go to the first input, as in MindSpore
        return sum_to(mul(g, pick_a), a.shape), sum_to(mul(g, sub(1, pick_a)), b.shape)


class Minimum(_Binary):
    onnx_type = "Min"

    def forward(self, a, b):
        return _against_scalar(np.minimum, a, b, lambda x, v: clip_scalars(x, None, v))

    def backward(self, ctx, g):
        a, b = ctx.inputs
        pick_a = cast(less_equal(a, b), g.dtype)
        return sum_to(mul(g, pick_a), a.shape), sum_to(mul(g, sub(1, pick_a)), b.shape)


# ---------------------------------------------------------------- comparisons and logic (no gradient)
class _Compare(_Binary, register=False):
    differentiable = False
    np_fn: Any = None

    def forward(self, a, b):
        return type(self).np_fn(a, b)


class Equal(_Compare):
    onnx_type, np_fn = "Equal", np.equal


class Less(_Compare):
    onnx_type, np_fn = "Less", np.less


class Greater(_Compare):
    onnx_type, np_fn = "Greater", np.greater


class LessEqual(_Compare):
    onnx_type, np_fn = "LessOrEqual", np.less_equal


class GreaterEqual(_Compare):
    onnx_type, np_fn = "GreaterOrEqual", np.greater_equal


class NotEqual(_Compare):
    np_fn = np.not_equal

    def lower(self, g, a, b):
        return g.op("Not", g.op("Equal", a, b))


class LogicalAnd(_Compare):
    onnx_type, np_fn = "And", np.logical_and


class LogicalOr(_Compare):
    onnx_type, np_fn = "Or", np.logical_or


class LogicalXor(_Compare):
    onnx_type, np_fn = "Xor", np.logical_xor


class LogicalNot(Op):
    differentiable = False

    def forward(self, x):
        return np.logical_not(x)

    def lower(self, g, x):
        return g.op("Not", x)


class IsNan(Op):
    differentiable = False

    def forward(self, x):
        return np.isnan(x)

    def lower(self, g, x):
        return g.op("IsNaN", x)


class IsInf(Op):
    differentiable = False

    def forward(self, x):
        return np.isinf(x)

    def lower(self, g, x):
        return g.op("IsInf", x)


# ---------------------------------------------------------------- unary
class _Unary(Op, register=False):
    onnx_type = ""

    def lower(self, g, x):
        return g.op(self.onnx_type, x)


class Neg(_Unary):
    saved_inputs = ()  # backward reads only the shapes
    onnx_type = "Neg"

    def forward(self, x):
        return np.negative(x)

    def backward(self, ctx, g):
        return (neg(g),)


class Abs(_Unary):
    onnx_type = "Abs"

    def forward(self, x):
        return np.abs(x)

    def backward(self, ctx, g):
        return (mul(g, sign(ctx.inputs[0])),)


class Sign(_Unary):
    onnx_type = "Sign"
    differentiable = False

    def forward(self, x):
        return np.sign(x)


class Exp(_Unary):
    saved_inputs = ()  # backward reads only the output
    onnx_type = "Exp"
    save_output = True

    def forward(self, x):
        return np.exp(x)

    def backward(self, ctx, g):
        return (mul(g, ctx.out),)


class Log(_Unary):
    onnx_type = "Log"

    def forward(self, x):
        return np.log(x)

    def backward(self, ctx, g):
        return (div(g, ctx.inputs[0]),)


class Sqrt(_Unary):
    saved_inputs = ()  # backward reads only the output
    onnx_type = "Sqrt"
    save_output = True

    def forward(self, x):
        return np.sqrt(x)

    def backward(self, ctx, g):
        return (div(mul(g, 0.5), ctx.out),)


class Rsqrt(Op):
    saved_inputs = ()  # backward reads only the output
    save_output = True

    def forward(self, x):
        return (1 / np.sqrt(x)).astype(x.dtype, copy=False)

    def backward(self, ctx, g):
        y = ctx.out
        return (mul(mul(g, -0.5), mul(y, mul(y, y))),)

    def lower(self, g, x):
        return g.op("Reciprocal", g.op("Sqrt", x))


class Reciprocal(_Unary):
    saved_inputs = ()  # backward reads only the output
    onnx_type = "Reciprocal"
    save_output = True

    def forward(self, x):
        return np.reciprocal(x)

    def backward(self, ctx, g):
        y = ctx.out
        return (neg(mul(g, mul(y, y))),)


class Sin(_Unary):
    onnx_type = "Sin"

    def forward(self, x):
        return np.sin(x)

    def backward(self, ctx, g):
        return (mul(g, cos(ctx.inputs[0])),)


class Cos(_Unary):
    onnx_type = "Cos"

    def forward(self, x):
        return np.cos(x)

    def backward(self, ctx, g):
        return (neg(mul(g, sin(ctx.inputs[0]))),)


class Tanh(_Unary):
    saved_inputs = ()  # backward reads only the output
    onnx_type = "Tanh"
    save_output = True

    def forward(self, x):
        return np.tanh(x)

    def backward(self, ctx, g):
        y = ctx.out
        return (mul(g, sub(1, mul(y, y))),)


class Sigmoid(_Unary):
    saved_inputs = ()  # backward reads only the output
    onnx_type = "Sigmoid"
    save_output = True

    def forward(self, x):
        # 1 / (1 + e^-x): e^-x overflows to inf below x = -88 (float32), which gives the right limit, 0 (the
        # result is below the smallest normal float there); the overflow warning says nothing
        with np.errstate(over="ignore"):
            e = np.exp(np.negative(x))
        e += x.dtype.type(1)
        return np.reciprocal(e, out=e)

    def backward(self, ctx, g):
        y = ctx.out
        return (mul(g, mul(y, sub(1, y))),)


_erf_scalar = np.frompyfunc(_math.erf, 1, 1)

# Abramowitz & Stegun 7.1.26: erf(z) = 1 - t*poly(t)*exp(-z^2), t = 1/(1 + P z); |error| < 1.5e-7
ERF_P = 0.3275911
ERF_A = (1.061405429, -1.453152027, 1.421413741, -0.284496736, 0.254829592)


def _erf(x: np.ndarray, block: int = 1 << 16) -> np.ndarray:
    """erf: exact for float64 (math.erf); float32/16 through A&S 7.1.26 in float64, below float32
    resolution near 1. Blocks of 64k values reuse small buffers instead of whole-array temporaries."""
    if x.dtype == np.float64:
        return _erf_scalar(x).astype(np.float64)
    flat = x.reshape(-1)
    out = np.empty(flat.shape, x.dtype)
    n0 = min(block, flat.size)
    t_buf, e_buf, p_buf = np.empty(n0), np.empty(n0), np.empty(n0)
    for s in range(0, flat.size, block):
        xs = flat[s:s + block]
        n = xs.size
        t, e, p = t_buf[:n], e_buf[:n], p_buf[:n]
        np.abs(xs, out=t, dtype=np.float64)
        np.multiply(t, t, out=e)
        np.negative(e, out=e)
        np.exp(e, out=e)
        t *= ERF_P
        t += 1.0
        np.reciprocal(t, out=t)
        np.multiply(t, ERF_A[0], out=p)
        for c in ERF_A[1:]:
            p += c
            p *= t
        p *= e
        np.subtract(1.0, p, out=p)
        np.copysign(p, xs, out=p)
        out[s:s + n] = p
    return out.reshape(x.shape)


class Erf(_Unary):
    onnx_type = "Erf"

    def forward(self, x):
        return _erf(x)

    def backward(self, ctx, g):
        x = ctx.inputs[0]
        return (mul(g, mul(exp(neg(mul(x, x))), 2.0 / _math.sqrt(_math.pi))),)


class Floor(_Unary):
    onnx_type = "Floor"
    differentiable = False

    def forward(self, x):
        return np.floor(x)


class Ceil(_Unary):
    onnx_type = "Ceil"
    differentiable = False

    def forward(self, x):
        return np.ceil(x)


class Round(_Unary):
    onnx_type = "Round"  # both round half to even
    differentiable = False

    def forward(self, x):
        return np.round(x)


class Relu(_Unary):
    onnx_type = "Relu"

    def forward(self, x):
        return clip_scalars(x, 0, None).astype(x.dtype, copy=False)

    def backward(self, ctx, g):
        # NOTE: the gradient at exactly 0 is 0, as in MindSpore and PyTorch
        return (ReluGrad.apply(g, ctx.inputs[0]),)

    def lower(self, g, x):
        if g.in_tensors[0]._data.dtype.kind in "iu":  # ONNX Relu takes integers from opset 14; onnxruntime no
            return g.op("Max", x, g.like(0))
        return g.op("Relu", x)


class ReluGrad(Op):
    """Relu's gradient ``g * (x > 0)`` as one primitive (one dispatch and tape node instead of Greater, Cast
    and Mul); linear in ``g``, so its own gradient is ReluGrad again, and none for ``x``. Lowered as
    Mul(g, Cast(Greater(x, 0))), which keeps g * 0 = NaN where g is not finite, as the eager product."""

    def forward(self, g, x):
        mask = np.greater(x, 0)
        if g.dtype in (np.float32, np.float64, np.float16):  # the bool mask cast inside the loop
            return np.multiply(g, mask, dtype=g.dtype)
        return np.multiply(g, mask.astype(g.dtype), dtype=g.dtype)

    def backward(self, ctx, gz):
        return (ReluGrad.apply(gz, ctx.inputs[1]) if ctx.needs_grad(0) else None, None)

    def lower(self, g, gy, x):
        to = dtypes.dtype(g.in_tensors[0]._data.dtype).onnx
        mask = g.op("Cast", g.op("Greater", x, g.like(0, 1)), to=to)
        return g.op("Mul", gy, mask)

    def check(self, g, x):
        if g.shape != x.shape:
            return f"gradient {g.shape} and input {x.shape} must have the same shape"
        return None


class Clip(Op):
    """Clamp to [min, max]; either bound may be None. The gradient passes where min <= x <= max."""

    def forward(self, x, *, min=None, max=None):
        return clip_scalars(x, min, max).astype(x.dtype, copy=False)

    def backward(self, ctx, g, *, min=None, max=None):
        x = ctx.inputs[0]
        keep = None
        if min is not None:
            keep = greater_equal(x, min)
        if max is not None:
            upper = less_equal(x, max)
            keep = upper if keep is None else logical_and(keep, upper)
        return (g if keep is None else mul(g, cast(keep, g.dtype)),)

    def lower(self, g, x, *, min=None, max=None):
        if is_float_dtype(g.in_tensors[0]._data.dtype) and (min is None) != (max is None):
            # an absent ONNX Clip bound is the dtype's lowest / largest finite value: it would clip -inf / inf
            min, max = -np.inf if min is None else min, np.inf if max is None else max
        lo = g.like(min) if min is not None else None
        hi = g.like(max) if max is not None else None
        return g.op("Clip", x, lo, hi)


class Cast(Op):
    saved_inputs = ()  # backward reads only the shapes
    def forward(self, x, *, dtype):
        return x.astype(dtype)

    def backward(self, ctx, g, *, dtype):
        src = ctx.inputs[0]._data.dtype
        # an integer input (a Parameter that requires grad) gets the gradient cast to it, as MindSpore gives
        return (cast(g, src) if src.kind != "b" else None,)

    def lower(self, g, x, *, dtype):
        return g.op("Cast", x, to=dtypes.dtype(dtype).onnx)


class Where(Op):
    def forward(self, cond, x, y):
        return select(cond, x, y)

    def backward(self, ctx, g):
        c, x, y = ctx.inputs
        zero = zeros_like_(g)
        return (None,
                sum_to(where(c, g, zero), x.shape) if x.requires_grad else None,
                sum_to(where(c, zero, g), y.shape) if y.requires_grad else None)

    def lower(self, g, c, x, y):
        return g.op("Where", c, x, y)


# ---------------------------------------------------------------- functional API (MindSpore names)
def add(input: Any, other: Any) -> Tensor:
    """Adds two tensors elementwise, broadcasting their shapes (a number counts as a scalar tensor).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> y = Tensor(np.array([4.0, 5.0, 6.0]), ms.float32)
        >>> print(ops.add(x, y))
        [5. 7. 9.]
        >>> print(ops.add(x, 1))
        [2. 3. 4.]
    """
    return Add.apply(*promote(input, other))


def sub(input: Any, other: Any) -> Tensor:
    """Subtracts ``other`` from ``input`` elementwise, with broadcasting.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> y = Tensor(np.array([4.0, 5.0, 6.0]), ms.float32)
        >>> print(ops.sub(x, y))
        [-3. -3. -3.]
    """
    return Sub.apply(*promote(input, other))


def mul(input: Any, other: Any) -> Tensor:
    """Multiplies two tensors elementwise, with broadcasting.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]]), ms.float32)
        >>> y = Tensor(np.array([10.0, 100.0]), ms.float32)
        >>> print(ops.mul(x, y))
        [[ 10. 200.]
         [ 30. 400.]]
    """
    return Mul.apply(*promote(input, other))


def div(input: Any, other: Any, rounding_mode: str | None = None) -> Tensor:
    """True division (an integer input is computed in float32); ``rounding_mode`` 'floor' or 'trunc'.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, -3.0]), ms.float32)
        >>> y = Tensor(np.array([4.0, 5.0, 2.0]), ms.float32)
        >>> print(ops.div(x, y))
        [ 0.25  0.4  -1.5 ]
        >>> print(ops.div(x, y, rounding_mode='floor'))
        [ 0.  0. -2.]
    """
    a, b = promote(input, other)
    if rounding_mode == "floor":
        return FloorDiv.apply(a, b)
    if rounding_mode == "trunc" and not is_float_dtype(a._data.dtype):
        return Div.apply(a, b)  # integer division truncates
    if not is_float_dtype(a._data.dtype) and a._data.dtype.kind != "c":
        a, b = cast(a, np.float32), cast(b, np.float32)
    out = Div.apply(a, b)
    if rounding_mode == "trunc":
        from cellonnx.ops.prims.elementwise import Trunc
        out = Trunc.apply(out)
    elif rounding_mode is not None:
        raise ValueError(f"div: rounding_mode must be None, 'floor' or 'trunc', got {rounding_mode!r}")
    return out


def true_divide(dividend: Any, divisor: Any) -> Tensor:
    """``dividend / divisor`` with true division (integers are computed in float32).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1, 2, 3]), ms.int32)
        >>> print(ops.true_divide(x, 2))
        [0.5 1.  1.5]
    """
    return div(dividend, divisor)


def floor_div(x: Any, y: Any) -> Tensor:
    """``x // y``: division rounded toward minus infinity.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([7.0, -7.0]), ms.float32)
        >>> print(ops.floor_div(x, 2.0))
        [ 3. -4.]
    """
    return FloorDiv.apply(*promote(x, y))


def floor_divide(input: Any, other: Any) -> Tensor:
    """``input // other`` (as :func:`floor_div`).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([7.0, -7.0]), ms.float32)
        >>> print(ops.floor_divide(x, 2.0))
        [ 3. -4.]
    """
    return FloorDiv.apply(*promote(input, other))


def floor_mod(x: Any, y: Any) -> Tensor:
    """``x - floor(x / y) * y``: the remainder with the divisor's sign.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-3.0, -1.0, 4.0]), ms.float32)
        >>> print(ops.floor_mod(x, 3.0))
        [0. 2. 1.]
    """
    return Mod.apply(*promote(x, y))


def remainder(input: Any, other: Any) -> Tensor:
    """The remainder with the divisor's sign (as :func:`floor_mod`).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-3.0, -1.0, 4.0]), ms.float32)
        >>> print(ops.remainder(x, 3.0))
        [0. 2. 1.]
    """
    return Mod.apply(*promote(input, other))


def pow(input: Any, exponent: Any) -> Tensor:
    """``input`` raised to the power ``exponent``, elementwise with broadcasting.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> print(ops.pow(x, 2.0))
        [1. 4. 9.]
        >>> print(ops.pow(x, Tensor(np.array([3.0, 2.0, 1.0]), ms.float32)))
        [1. 4. 3.]
    """
    return Pow.apply(*promote(input, exponent))


def maximum(input: Any, other: Any) -> Tensor:
    """The larger of two tensors, elementwise with broadcasting.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 5.0, 3.0]), ms.float32)
        >>> y = Tensor(np.array([4.0, 2.0, 6.0]), ms.float32)
        >>> print(ops.maximum(x, y))
        [4. 5. 6.]
    """
    return Maximum.apply(*promote(input, other))


def minimum(input: Any, other: Any) -> Tensor:
    """The smaller of two tensors, elementwise with broadcasting.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 5.0, 3.0]), ms.float32)
        >>> y = Tensor(np.array([4.0, 2.0, 6.0]), ms.float32)
        >>> print(ops.minimum(x, y))
        [1. 2. 3.]
    """
    return Minimum.apply(*promote(input, other))


def equal(input: Any, other: Any) -> Tensor:
    """Whether the elements of two tensors are equal, elementwise with broadcasting.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1, 2, 3]), ms.int32)
        >>> print(ops.equal(x, Tensor(np.array([1, 0, 3]), ms.int32)))
        [ True False  True]
    """
    return Equal.apply(*promote(input, other))


def not_equal(input: Any, other: Any) -> Tensor:
    """Whether ``input != other``, elementwise with broadcasting.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1, 2, 3]), ms.int32)
        >>> print(ops.ne(x, 2))
        [ True False  True]
    """
    return NotEqual.apply(*promote(input, other))


ne = not_equal


def less(input: Any, other: Any) -> Tensor:
    """Whether ``input < other``, elementwise with broadcasting.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1, 2, 3]), ms.int32)
        >>> print(ops.less(x, 2))
        [ True False False]
    """
    return Less.apply(*promote(input, other))


lt = less


def less_equal(input: Any, other: Any) -> Tensor:
    """Whether ``input <= other``, elementwise with broadcasting.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1, 2, 3]), ms.int32)
        >>> print(ops.le(x, 2))
        [ True  True False]
    """
    return LessEqual.apply(*promote(input, other))


le = less_equal


def greater(input: Any, other: Any) -> Tensor:
    """Whether ``input > other``, elementwise with broadcasting.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1, 2, 3]), ms.int32)
        >>> print(ops.greater(x, 2))
        [False False  True]
    """
    return Greater.apply(*promote(input, other))


gt = greater


def greater_equal(input: Any, other: Any) -> Tensor:
    """Whether ``input >= other``, elementwise with broadcasting.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1, 2, 3]), ms.int32)
        >>> print(ops.greater_equal(x, 2))
        [False  True  True]
    """
    return GreaterEqual.apply(*promote(input, other))


ge = greater_equal


def _as_bool(x: Any) -> Tensor:
    x = to_tensor(x)
    return x if x._data.dtype == np.bool_ else cast(x, np.bool_)


def logical_and(input: Any, other: Any) -> Tensor:
    """Logical AND of two tensors, elementwise with broadcasting.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([True, False, True]), ms.bool_)
        >>> y = Tensor(np.array([True, True, False]), ms.bool_)
        >>> print(ops.logical_and(x, y))
        [ True False False]
    """
    return LogicalAnd.apply(_as_bool(input), _as_bool(other))


def logical_or(input: Any, other: Any) -> Tensor:
    """Logical OR of two tensors, elementwise with broadcasting.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([True, False, False]), ms.bool_)
        >>> y = Tensor(np.array([False, False, True]), ms.bool_)
        >>> print(ops.logical_or(x, y))
        [ True False  True]
    """
    return LogicalOr.apply(_as_bool(input), _as_bool(other))


def logical_xor(input: Any, other: Any) -> Tensor:
    """Logical XOR of two tensors, elementwise with broadcasting.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([True, False, True]), ms.bool_)
        >>> y = Tensor(np.array([True, True, False]), ms.bool_)
        >>> print(ops.logical_xor(x, y))
        [False  True  True]
    """
    return LogicalXor.apply(_as_bool(input), _as_bool(other))


def logical_not(input: Any) -> Tensor:
    """Logical NOT, elementwise.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([True, False]), ms.bool_)
        >>> print(ops.logical_not(x))
        [False  True]
    """
    return LogicalNot.apply(_as_bool(input))


def isnan(input: Tensor) -> Tensor:
    """Whether each element is NaN.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, np.nan, np.inf]), ms.float32)
        >>> print(ops.isnan(x))
        [False  True False]
    """
    return IsNan.apply(input)


def isinf(input: Tensor) -> Tensor:
    """Whether each element is positive or negative infinity.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, np.nan, -np.inf]), ms.float32)
        >>> print(ops.isinf(x))
        [False False  True]
    """
    return IsInf.apply(input)


def isfinite(input: Tensor) -> Tensor:
    """Whether each element is finite (neither infinite nor NaN).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, np.nan, -np.inf]), ms.float32)
        >>> print(ops.isfinite(x))
        [ True False False]
    """
    return logical_not(logical_or(isnan(input), isinf(input)))


def neg(input: Tensor) -> Tensor:
    """``-input``, elementwise.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, -2.0, 0.0]), ms.float32)
        >>> print(ops.neg(x))
        [-1.  2. -0.]
    """
    return Neg.apply(to_tensor(input))


negative = neg


def abs(input: Tensor) -> Tensor:
    """Absolute value, elementwise.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-1.5, 0.0, 2.0]), ms.float32)
        >>> print(ops.abs(x))
        [1.5 0.  2. ]
    """
    return Abs.apply(input)


absolute = abs


def sign(input: Tensor) -> Tensor:
    """The sign of each element: -1, 0 or 1.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-3.0, 0.0, 2.5]), ms.float32)
        >>> print(ops.sign(x))
        [-1.  0.  1.]
    """
    return Sign.apply(input)


def _floatify(x: Any) -> Tensor:
    x = to_tensor(x)
    return x if is_float_dtype(x._data.dtype) else cast(x, np.float32)


def exp(input: Tensor) -> Tensor:
    """Exponential, elementwise.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.0, 1.0, 2.0]), ms.float32)
        >>> print(ops.exp(x).asnumpy().round(4))
        [1.     2.7183 7.3891]
    """
    return Exp.apply(_floatify(input))


def log(input: Tensor) -> Tensor:
    """Natural logarithm, elementwise.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 4.0]), ms.float32)
        >>> print(ops.log(x).asnumpy().round(4))
        [0.     0.6931 1.3863]
    """
    return Log.apply(_floatify(input))


def sqrt(x: Tensor) -> Tensor:
    """Square root, elementwise.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 4.0, 9.0]), ms.float32)
        >>> print(ops.sqrt(x))
        [1. 2. 3.]
    """
    return Sqrt.apply(_floatify(x))


def rsqrt(input: Tensor) -> Tensor:
    """Reciprocal of the square root, elementwise.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 4.0, 16.0]), ms.float32)
        >>> print(ops.rsqrt(x))
        [1.   0.5  0.25]
    """
    return Rsqrt.apply(_floatify(input))


def reciprocal(input: Tensor) -> Tensor:
    """``1 / input``, elementwise.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 4.0]), ms.float32)
        >>> print(ops.reciprocal(x))
        [1.   0.5  0.25]
    """
    return Reciprocal.apply(_floatify(input))


def square(input: Tensor) -> Tensor:
    """The square of each element.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-2.0, 3.0]), ms.float32)
        >>> print(ops.square(x))
        [4. 9.]
    """
    return mul(input, input)


def sin(input: Tensor) -> Tensor:
    """Sine, elementwise (radians).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.0, np.pi / 6, np.pi / 2]), ms.float32)
        >>> print(ops.sin(x).asnumpy().round(4))
        [0.  0.5 1. ]
    """
    return Sin.apply(_floatify(input))


def cos(input: Tensor) -> Tensor:
    """Cosine, elementwise (radians).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.0, np.pi / 3, np.pi]), ms.float32)
        >>> print(ops.cos(x).asnumpy().round(4))
        [ 1.   0.5 -1. ]
    """
    return Cos.apply(_floatify(input))


def tanh(input: Tensor) -> Tensor:
    """Hyperbolic tangent, elementwise.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-1.0, 0.0, 1.0]), ms.float32)
        >>> print(ops.tanh(x).asnumpy().round(4))
        [-0.7616  0.      0.7616]
    """
    return Tanh.apply(_floatify(input))


def sigmoid(input: Tensor) -> Tensor:
    """The logistic function ``1 / (1 + exp(-x))``, elementwise.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-1.0, 0.0, 1.0]), ms.float32)
        >>> print(ops.sigmoid(x).asnumpy().round(4))
        [0.2689 0.5    0.7311]
    """
    return Sigmoid.apply(_floatify(input))


def erf(input: Tensor) -> Tensor:
    """The Gauss error function, elementwise.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-1.0, 0.0, 0.5]), ms.float32)
        >>> print(ops.erf(x).asnumpy().round(4))
        [-0.8427  0.      0.5205]
    """
    return Erf.apply(_floatify(input))


def floor(input: Tensor) -> Tensor:
    """Rounds each element down to an integer value.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.1, 2.5, -1.5]), ms.float32)
        >>> print(ops.floor(x))
        [ 1.  2. -2.]
    """
    return Floor.apply(input)


def ceil(input: Tensor) -> Tensor:
    """Rounds each element up to an integer value.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.1, 2.5, -1.5]), ms.float32)
        >>> print(ops.ceil(x))
        [ 2.  3. -1.]
    """
    return Ceil.apply(input)


def round(input: Tensor, *, decimals: int = 0) -> Tensor:
    """Round half to even; with ``decimals`` != 0, to that many decimal places (``round(x * 10**d) / 10**d``,
    negative ``decimals`` rounding to tens, hundreds ...).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.5, 1.5, 2.4, -2.6]), ms.float32)
        >>> print(ops.round(x))
        [ 0.  2.  2. -3.]
    """
    if not decimals:
        return Round.apply(input)
    x = to_tensor(input)
    if not is_float_dtype(x._data.dtype):
        if decimals > 0:
            return x
        step = 10.0 ** -decimals
        return cast(mul(Round.apply(div(cast(x, np.float64), step)), step), x._data.dtype)
    scale = 10.0 ** decimals
    return div(Round.apply(mul(x, scale)), scale)


def relu(input: Tensor, inplace: bool = False) -> Tensor:
    """``max(input, 0)``; with ``inplace`` the result is written into ``input``, which is returned.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[-1.0, 4.0, -8.0], [2.0, -5.0, 9.0]]), ms.float32)
        >>> print(ops.relu(x))
        [[0. 4. 0.]
         [2. 0. 9.]]
    """
    if inplace:
        from cellonnx.ops.composite.clip import _inplace
        return _inplace(input, Relu.apply, "relu")
    return Relu.apply(input)


def clamp(input: Tensor, min: Any = None, max: Any = None) -> Tensor:
    """Clamp ``input`` to [min, max]; bounds are numbers or tensors (then broadcast).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-3.0, 0.5, 2.0, 7.0]), ms.float32)
        >>> print(ops.clamp(x, 0.0, 1.0))
        [0.  0.5 1.  1. ]
        >>> print(ops.clamp(x, min=1.0))
        [1. 1. 2. 7.]
    """
    if min is None and max is None:
        raise ValueError("clamp: at least one of min and max must be given")
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        out = input
        if min is not None:
            out = maximum(out, min)
        if max is not None:
            out = minimum(out, max)
        return out
    return Clip.apply(input, min=min, max=max)


clip = clamp


def cast(input: Any, dtype: Any) -> Tensor:
    """Convert to ``dtype`` (a cellonnx dtype, NumPy dtype or name).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.7, -2.2]), ms.float32)
        >>> y = ops.cast(x, ms.int32)
        >>> y.dtype
        mindspore.int32
        >>> print(y)
        [ 1 -2]
    """
    input = to_tensor(input)
    target = dtypes.to_numpy(dtype)
    if input._data.dtype == target:
        return input
    return Cast.apply(input, dtype=target)


def where(condition: Any, input: Any, other: Any) -> Tensor:
    """Elementwise ``input if condition else other`` with broadcasting.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, -2.0, 3.0, -4.0]), ms.float32)
        >>> print(ops.where(x > 0, x, 0.0))
        [1. 0. 3. 0.]
    """
    x, y = promote(input, other)
    return Where.apply(_as_bool(condition), x, y)


def ones_like_(t: Tensor) -> Tensor:
    from cellonnx.ops.prims.creation import ones_like
    return ones_like(t)


def zeros_like_(t: Tensor) -> Tensor:
    from cellonnx.ops.prims.creation import zeros_like
    return zeros_like(t)

__all__ = ["abs", "absolute", "add", "cast", "ceil", "clamp", "clip", "cos", "div", "equal", "erf", "exp", "floor", "floor_div", "floor_divide", "floor_mod", "ge", "greater", "greater_equal", "gt", "isfinite", "isinf", "isnan", "le", "less", "less_equal", "log", "logical_and", "logical_not", "logical_or", "logical_xor", "lt", "maximum", "minimum", "mul", "ne", "neg", "negative", "not_equal", "pow", "reciprocal", "relu", "remainder", "round", "rsqrt", "sigmoid", "sign", "sin", "sqrt", "square", "sub", "tanh", "true_divide", "where"]
