"""Special functions: expm1, log1p, erfc, erfinv, the gamma family (lgamma, digamma, polygamma, the
regularized incomplete gamma functions igamma / igammac), the Hurwitz zeta function and the Bessel
functions. Forwards are scipy's (NumPy for expm1 / log1p); gradients are written with cellonnx ops.

ONNX has none of these functions. expm1, log1p, erfc, erfinv, lgamma and digamma are lowered as formulas of
ONNX ops (accurate to float32 rounding; lgamma and digamma computed in float64 by reflection, recurrence and
asymptotic series); the others raise an error naming the op when a graph holding them is exported, and run
eagerly only.
"""
from __future__ import annotations

import math as _math
from typing import Any

import numpy as np

from cellonnx import dtypes
from cellonnx._lazy import lazy_import
from cellonnx.ops.prims._eager import not_exportable
from cellonnx.ops.prims._util import promote, sum_to
from cellonnx.ops.prims.math import _floatify, add, div, equal, exp, log, mul, neg, sign, sub, where
from cellonnx.ops.registry import REGISTRY, Op, apply
from cellonnx.tensor import Tensor

_sp = lazy_import("scipy.special")


def _compute(fn: Any, *xs: np.ndarray) -> np.ndarray:
    """fn over the inputs in float64 where their dtype has no scipy loop (float16, bfloat16), rounded back
    to the first input's dtype."""
    dt = xs[0].dtype
    work = [x if x.dtype in (np.float32, np.float64) else x.astype(np.float32) for x in xs]
    with np.errstate(all="ignore"):
        out = np.asarray(fn(*work))
    return out.astype(dt, copy=False)


def _over_x(v: Tensor, x: Tensor, limit: float) -> Tensor:
    """v / x with the value ``limit`` where x == 0 (and no NaN in the gradient there)."""
    zero = equal(x, 0)
    safe = where(zero, 1.0, x)
    return where(zero, limit, div(v, safe))


# ---------------------------------------------------------------- exp / log near zero, erfc, erfinv
class Expm1(Op):
    saved_inputs = ()  # backward reads only the output
    save_output = True

    def forward(self, x):
        return np.expm1(x)

    def backward(self, ctx, g):
        return (mul(g, add(ctx.out, 1)),)

    def lower(self, g, x):
        # Kahan: with u = exp(x), expm1(x) = (u - 1) * x / log(u), exact to rounding; x itself where u == 1
        one = g.like(1)
        u = g.op("Exp", x)
        um1 = g.op("Sub", u, one)
        ratio = g.op("Div", g.op("Mul", um1, x), g.op("Log", u))
        # u - 1 == -1 (x very negative): -1; u == inf: inf (the ratio would be inf / inf)
        out = g.op("Where", g.op("Equal", um1, g.like(-1)), g.like(-1), ratio)
        out = g.op("Where", g.op("IsInf", u), u, out)
        return g.op("Where", g.op("Equal", u, one), x, out)


class Log1p(Op):
    def forward(self, x):
        return np.log1p(x)

    def backward(self, ctx, g):
        return (div(g, add(ctx.inputs[0], 1)),)

    def lower(self, g, x):
        # with u = 1 + x, log1p(x) = log(u) * x / (u - 1), exact to rounding; x itself where u == 1
        one = g.like(1)
        u = g.op("Add", x, one)
        ratio = g.op("Div", g.op("Mul", g.op("Log", u), x), g.op("Sub", u, one))
        out = g.op("Where", g.op("IsInf", u), g.op("Log", u), ratio)
        return g.op("Where", g.op("Equal", u, one), x, out)


class Erfc(Op):
    def forward(self, x):
        return _compute(_sp.erfc, x)

    def backward(self, ctx, g):
        x = ctx.inputs[0]
        return (mul(g, mul(exp(neg(mul(x, x))), -2.0 / _math.sqrt(_math.pi))),)

    def lower(self, g, x):
        # 1 - erf(x): the absolute error stays within float32 rounding of 1 (relative error grows for x > 3)
        return g.op("Sub", g.like(1), g.op("Erf", x))


# M. Giles, "Approximating the erfinv function" (GPU Computing Gems, 2011), single-precision version
_GILES_CENTRAL = (2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
                  -0.00125372503, -0.00417768164, 0.246640727, 1.50140941)
_GILES_TAIL = (-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
               -0.0076224613, 0.00943887047, 1.00167406, 2.83297682)


class Erfinv(Op):
    saved_inputs = ()  # backward reads only the output
    save_output = True

    def forward(self, x):
        return _compute(_sp.erfinv, x)

    def backward(self, ctx, g):
        y = ctx.out
        return (mul(g, mul(exp(mul(y, y)), _math.sqrt(_math.pi) / 2.0)),)

    def lower(self, g, x):
        # Giles' approximation (relative error below 4e-7), then one Newton step on erf(y) = x
        def poly(w: str, coeffs: tuple[float, ...]) -> str:
            p = g.like(coeffs[0])
            for c in coeffs[1:]:
                p = g.op("Add", g.op("Mul", p, w), g.like(c))
            return p

        one = g.like(1)
        w = g.op("Neg", g.op("Log", g.op("Mul", g.op("Sub", one, x), g.op("Add", one, x))))
        central = poly(g.op("Sub", w, g.like(2.5)), _GILES_CENTRAL)
        tail = poly(g.op("Sub", g.op("Sqrt", w), g.like(3.0)), _GILES_TAIL)
        y = g.op("Mul", g.op("Where", g.op("Less", w, g.like(5.0)), central, tail), x)
        # Newton: y -= (erf(y) - x) / (2 / sqrt(pi) * exp(-y^2)); the ends (+-1 -> +-inf) kept as they are
        slope = g.op("Mul", g.like(2.0 / _math.sqrt(_math.pi)), g.op("Exp", g.op("Neg", g.op("Mul", y, y))))
        step = g.op("Div", g.op("Sub", g.op("Erf", y), x), slope)
        refined = g.op("Sub", y, step)
        # +-1 -> +-inf (the polynomial in w = inf has no sign of its own)
        return g.op("Where", g.op("Equal", g.op("Abs", x), one), g.op("Mul", x, g.like(np.inf)), refined)


# ---------------------------------------------------------------- gamma family
# Lowerings of lgamma and digamma: in float64, the argument reflected below 1/2 (y = 1 - x), shifted up by
# _SHIFT (the recurrence), then the asymptotic series, whose next term is below 1e-12 from 8 up
_SHIFT = 8
_LGAMMA_SERIES = (1 / 12, -1 / 360, 1 / 1260, -1 / 1680)
_DIGAMMA_SERIES = (-1 / 12, 1 / 120, -1 / 252, 1 / 240)


def _f64_prologue(g: Any, x: str) -> tuple[Any, str, str, str, str]:
    """(constant maker, x in float64, y = x or 1 - x, below = x < 1/2, z = y + _SHIFT)."""
    from onnx import TensorProto

    def c(v: float) -> str:
        return g.const(np.asarray(v, np.float64))

    xd = g.op("Cast", x, to=TensorProto.DOUBLE)
    below = g.op("Less", xd, c(0.5))
    y = g.op("Where", below, g.op("Sub", c(1.0), xd), xd)
    return c, xd, below, y, g.op("Add", y, c(float(_SHIFT)))


def _series(g: Any, c: Any, inv_z2: str, coeffs: tuple[float, ...], start: str) -> str:
    """start * (c0 + c1 w + c2 w^2 + ...), w = 1 / z^2 (Horner)."""
    acc = c(coeffs[-1])
    for k in reversed(coeffs[:-1]):
        acc = g.op("Add", g.op("Mul", acc, inv_z2), c(k))
    return g.op("Mul", acc, start)


def _back_to(g: Any, value: str) -> str:
    return g.op("Cast", value, to=dtypes.dtype(g.out_tensors[0]._data.dtype).onnx)


class Lgamma(Op):
    def forward(self, x):
        out = _compute(_sp.gammaln, x)
        out[np.isneginf(x)] = np.inf  # MindSpore: lgamma(-inf) = inf
        return out

    def backward(self, ctx, g):
        return (mul(g, Digamma.apply(ctx.inputs[0])),)

    def lower(self, g, x):
        c, xd, below, y, z = _f64_prologue(g, x)
        # lgamma(z) - log(y (y + 1) ... (y + SHIFT - 1)), lgamma(z) by Stirling's series
        prod = y
        for k in range(1, _SHIFT):
            prod = g.op("Mul", prod, g.op("Add", y, c(float(k))))
        inv_z = g.op("Reciprocal", z)
        stirling = g.op("Add", g.op("Sub", g.op("Mul", g.op("Sub", z, c(0.5)), g.op("Log", z)), z),
                        c(0.5 * _math.log(2 * _math.pi)))
        stirling = g.op("Add", stirling, _series(g, c, g.op("Mul", inv_z, inv_z), _LGAMMA_SERIES, inv_z))
        upper = g.op("Sub", stirling, g.op("Log", g.op("Abs", prod)))
        # reflection below 1/2: log(pi / |sin(pi x)|) - lgamma(1 - x); the poles (0, -1, ...) give inf
        sin = g.op("Abs", g.op("Sin", g.op("Mul", xd, c(_math.pi))))
        pole = g.op("Equal", xd, g.op("Floor", xd))
        reflected = g.op("Sub", g.op("Log", g.op("Div", c(_math.pi), sin)), upper)
        out = g.op("Where", below, g.op("Where", pole, c(np.inf), reflected), upper)
        out = g.op("Where", g.op("IsInf", xd), c(np.inf), out)  # +-inf -> inf
        return _back_to(g, out)


class Digamma(Op):
    def forward(self, x):
        return _compute(_sp.psi, x)

    def backward(self, ctx, g):
        return (mul(g, Polygamma.apply(ctx.inputs[0], n=1)),)

    def lower(self, g, x):
        c, xd, below, y, z = _f64_prologue(g, x)
        # digamma(z) - sum 1 / (y + k), digamma(z) by its asymptotic series
        shift = g.op("Reciprocal", y)
        for k in range(1, _SHIFT):
            shift = g.op("Add", shift, g.op("Reciprocal", g.op("Add", y, c(float(k)))))
        inv_z = g.op("Reciprocal", z)
        inv_z2 = g.op("Mul", inv_z, inv_z)
        asym = g.op("Sub", g.op("Log", z), g.op("Mul", inv_z, c(0.5)))
        asym = g.op("Add", asym, _series(g, c, inv_z2, _DIGAMMA_SERIES, inv_z2))
        upper = g.op("Sub", asym, shift)
        # reflection below 1/2: digamma(x) = digamma(1 - x) - pi / tan(pi x); NaN at the negative poles,
        # -inf at 0 (as scipy and MindSpore)
        px = g.op("Mul", xd, c(_math.pi))  # pi / tan(pi x) as pi cos / sin (no float64 Tan in onnxruntime)
        cot = g.op("Div", g.op("Mul", c(_math.pi), g.op("Cos", px)), g.op("Sin", px))
        reflected = g.op("Sub", upper, cot)
        pole = g.op("Equal", xd, g.op("Floor", xd))
        at_pole = g.op("Where", g.op("Equal", xd, c(0.0)), c(-np.inf), c(np.nan))
        out = g.op("Where", below, g.op("Where", pole, at_pole, reflected), upper)
        return _back_to(g, out)


class Polygamma(Op):
    """The n-th derivative of digamma (n = 0 is digamma itself)."""

    def forward(self, x, *, n):
        return _compute(lambda v: _sp.polygamma(n, v), x)

    def backward(self, ctx, g, *, n):
        return (mul(g, Polygamma.apply(ctx.inputs[0], n=n + 1)),)

    lower = not_exportable("polygamma")


def _igamma_nan(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    # MindSpore's kernels: NaN where a <= 0 or x < 0
    return (a <= 0) | (x < 0)


class Igamma(Op):
    """P(a, x), the lower regularized incomplete gamma function."""

    def forward(self, a, x):
        out = _compute(_sp.gammainc, a, x)
        out[np.broadcast_to(_igamma_nan(a, x), out.shape)] = np.nan
        return out

    def backward(self, ctx, g):
        a, x = ctx.inputs
        ga = sum_to(mul(g, IgammaGradA.apply(a, x)), a.shape) if a.requires_grad else None
        gx = sum_to(mul(g, _igamma_dx(a, x)), x.shape) if x.requires_grad else None
        return ga, gx

    lower = not_exportable("igamma")


class Igammac(Op):
    """Q(a, x) = 1 - P(a, x), the upper regularized incomplete gamma function."""

    def forward(self, a, x):
        out = _compute(_sp.gammaincc, a, x)
        out[np.broadcast_to(_igamma_nan(a, x) | np.isposinf(x), out.shape)] = np.nan
        return out

    def backward(self, ctx, g):
        a, x = ctx.inputs
        ga = sum_to(neg(mul(g, IgammaGradA.apply(a, x))), a.shape) if a.requires_grad else None
        gx = sum_to(neg(mul(g, _igamma_dx(a, x))), x.shape) if x.requires_grad else None
        return ga, gx

    lower = not_exportable("igammac")


def _igamma_dx(a: Tensor, x: Tensor) -> Tensor:
    """d P(a, x) / dx = x^(a-1) e^-x / Gamma(a)."""
    return exp(sub(sub(mul(sub(a, 1), log(x)), x), Lgamma.apply(a)))


class IgammaGradA(Op):
    """d P(a, x) / da (no closed form): a central difference of P in float64 with a step scaled to a,
    accurate to about 1e-9. Its own gradient is not provided."""

    differentiable = False

    def forward(self, a, x):
        a64, x64 = np.broadcast_arrays(a.astype(np.float64), x.astype(np.float64))
        h = 1e-5 * np.maximum(np.abs(a64), 1e-3)
        with np.errstate(all="ignore"):
            d = (_sp.gammainc(a64 + h, x64) - _sp.gammainc(a64 - h, x64)) / (2 * h)
        return d.astype(a.dtype)

    lower = not_exportable("igamma", "its gradient with respect to a has no ONNX form")


class Betainc(Op):
    """I_x(a, b), the regularized incomplete beta function (MindSpore's Betainc; NaN outside a, b > 0 and
    0 <= x <= 1). Differentiable in x only, as in MindSpore."""

    def forward(self, a, b, x):
        # in float64 (scipy's float32 loop loses about 1e-5 relative), rounded to the inputs' dtype
        out = _compute(_sp.betainc, a.astype(np.float64), b, x).astype(a.dtype)
        bad = (a <= 0) | (b <= 0) | (x < 0) | (x > 1)
        out[np.broadcast_to(bad, out.shape)] = np.nan
        return out

    def backward(self, ctx, g):
        # d I_x(a, b) / dx = x^(a-1) (1-x)^(b-1) / B(a, b)
        a, b, x = ctx.inputs
        if not x.requires_grad:
            return None, None, None
        log_beta = sub(add(Lgamma.apply(a), Lgamma.apply(b)), Lgamma.apply(add(a, b)))
        dx = exp(sub(add(mul(sub(a, 1), log(x)), mul(sub(b, 1), log(sub(1, x)))), log_beta))
        return None, None, sum_to(mul(g, dx), x.shape)

    lower = not_exportable("betainc")


class Zeta(Op):
    """The Hurwitz zeta function zeta(x, q) = sum_k (k + q)^-x."""

    def forward(self, x, q):
        return _compute(_sp.zeta, x, q)

    def backward(self, ctx, g):
        # d/dq zeta(x, q) = -x zeta(x + 1, q); no gradient for x (as in MindSpore)
        x, q = ctx.inputs
        gq = sum_to(neg(mul(g, mul(x, Zeta.apply(add(x, 1), q)))), q.shape) if q.requires_grad else None
        return None, gq

    lower = not_exportable("zeta")


# ---------------------------------------------------------------- Bessel functions
def _bessel_forward(fn: str, negative: float | None, at_zero: float | None = None) -> Any:
    """scipy.special's function ``fn``; MindSpore's kernels give ``negative`` for x < 0 where scipy says NaN
    (y*, k*)."""
    def forward(self: Op, x: np.ndarray) -> np.ndarray:
        out = _compute(getattr(_sp, fn), x)
        if negative is not None:
            out[x < 0] = negative
        if at_zero is not None:
            out[x == 0] = at_zero
        return out
    return forward


def _b(name: str, x: Tensor) -> Tensor:
    """Bessel function ``name`` of x (the derivatives below name functions defined after them)."""
    return apply(REGISTRY[name], (x,), {})


def _bessel(name: str, fn: str, grad: Any, negative: float | None = None, at_zero: float | None = None,
            save_output: bool = False) -> type[Op]:
    def backward(self: Op, ctx: Any, g: Tensor) -> tuple[Tensor]:
        return (mul(g, grad(ctx.inputs[0], ctx)),)

    attrs = {"forward": _bessel_forward(fn, negative, at_zero), "backward": backward,
             "lower": not_exportable(_FUNCTION_NAMES[name]), "save_output": save_output,
             "__module__": __name__,
             "__doc__": f"MindSpore's {_FUNCTION_NAMES[name]} (scipy.special.{fn})"}
    return type(name, (Op,), attrs)


_FUNCTION_NAMES = {"BesselJ0": "bessel_j0", "BesselJ1": "bessel_j1", "BesselY0": "bessel_y0",
                   "BesselY1": "bessel_y1", "BesselI0": "bessel_i0", "BesselI0e": "bessel_i0e",
                   "BesselI1": "bessel_i1", "BesselI1e": "bessel_i1e", "BesselK0": "bessel_k0",
                   "BesselK0e": "bessel_k0e", "BesselK1": "bessel_k1", "BesselK1e": "bessel_k1e"}

# the derivatives: J0' = -J1, J1' = J0 - J1/x, Y likewise; I0' = I1, I1' = I0 - I1/x; K0' = -K1,
# K1' = -K0 - K1/x; the exponentially scaled forms (ie = i e^-|x|, ke = k e^x) by the product rule
BesselJ0 = _bessel("BesselJ0", "j0", lambda x, c: neg(_b("BesselJ1", x)))
BesselJ1 = _bessel("BesselJ1", "j1",
                   lambda x, c: sub(_b("BesselJ0", x), _over_x(_b("BesselJ1", x), x, 0.5)))
BesselY0 = _bessel("BesselY0", "y0", lambda x, c: neg(_b("BesselY1", x)), negative=-np.inf)
BesselY1 = _bessel("BesselY1", "y1", lambda x, c: sub(_b("BesselY0", x), div(_b("BesselY1", x), x)),
                   negative=-np.inf, at_zero=np.nan)
BesselI0 = _bessel("BesselI0", "i0", lambda x, c: _b("BesselI1", x))
BesselI1 = _bessel("BesselI1", "i1",
                   lambda x, c: sub(_b("BesselI0", x), _over_x(_b("BesselI1", x), x, 0.5)))
BesselI0e = _bessel("BesselI0e", "i0e", lambda x, c: sub(_b("BesselI1e", x), mul(sign(x), c.out)),
                    save_output=True)
BesselI1e = _bessel("BesselI1e", "i1e",
                    lambda x, c: sub(sub(_b("BesselI0e", x), _over_x(c.out, x, 0.5)), mul(sign(x), c.out)),
                    save_output=True)
BesselK0 = _bessel("BesselK0", "k0", lambda x, c: neg(_b("BesselK1", x)), negative=np.inf)
BesselK1 = _bessel("BesselK1", "k1", lambda x, c: neg(add(_b("BesselK0", x), div(c.out, x))),
                   negative=np.inf, save_output=True)
BesselK0e = _bessel("BesselK0e", "k0e", lambda x, c: sub(c.out, _b("BesselK1e", x)), negative=np.inf,
                    save_output=True)
BesselK1e = _bessel("BesselK1e", "k1e",
                    lambda x, c: sub(sub(c.out, _b("BesselK0e", x)), div(c.out, x)), negative=np.inf,
                    save_output=True)


# ---------------------------------------------------------------- functional API (MindSpore names)
def _float_pair(a: Any, b: Any) -> tuple[Tensor, Tensor]:
    a, b = promote(a, b)
    return _floatify(a), _floatify(b)


def expm1(input: Tensor) -> Tensor:
    """``exp(input) - 1``, accurate near 0.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.0, 1.0]), ms.float32)
        >>> print(ops.expm1(x).asnumpy().round(4))
        [0.     1.7183]
    """
    return Expm1.apply(_floatify(input))


def log1p(input: Tensor) -> Tensor:
    """``log(1 + input)``, accurate near 0.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.0, 1.0]), ms.float32)
        >>> print(ops.log1p(x).asnumpy().round(4))
        [0.     0.6931]
    """
    return Log1p.apply(_floatify(input))


def erfc(input: Tensor) -> Tensor:
    """The complementary error function ``1 - erf(input)``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-1.0, 0.0, 1.0]), ms.float32)
        >>> print(ops.erfc(x).asnumpy().round(4))
        [1.8427 1.     0.1573]
    """
    return Erfc.apply(_floatify(input))


def erfinv(input: Tensor) -> Tensor:
    """The inverse error function: ``erf(erfinv(x)) = x`` on (-1, 1); +-inf at +-1, NaN outside.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.0, 0.5, -0.9]), ms.float32)
        >>> print(ops.erfinv(x).asnumpy().round(4))
        [ 0.      0.4769 -1.1631]
    """
    return Erfinv.apply(_floatify(input))


def lgamma(input: Tensor) -> Tensor:
    """``log(|Gamma(input)|)``; inf at the poles (0, -1, -2, ...).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 3.0, 5.0]), ms.float32)
        >>> print(ops.lgamma(x).asnumpy().round(4))
        [0.     0.6931 3.1781]
    """
    return Lgamma.apply(_floatify(input))


def digamma(input: Tensor) -> Tensor:
    """The digamma function, the derivative of ``lgamma``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> print(ops.digamma(x).asnumpy().round(4))
        [-0.5772  0.4228]
    """
    return Digamma.apply(_floatify(input))


def polygamma(n: Any, input: Tensor) -> Tensor:
    """The n-th derivative of the digamma function.

    Args:
        n (Union[Tensor, int]): the order, a non-negative integer (a 0-D integer tensor in MindSpore).
        input (Tensor): float input.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> print(ops.polygamma(Tensor(1, ms.int64), x).asnumpy().round(4))
        [1.6449 0.6449]
    """
    order = int(n._data.reshape(()) if isinstance(n, Tensor) else n)
    if order < 0:
        raise ValueError(f"polygamma: n must be a non-negative integer, got {order}")
    return Polygamma.apply(_floatify(input), n=order)


def igamma(input: Tensor, other: Tensor) -> Tensor:
    """The lower regularized incomplete gamma function P(input, other) (``input`` is a, ``other`` x).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> a = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> x = Tensor(np.array([1.0, 1.0]), ms.float32)
        >>> print(ops.igamma(a, x).asnumpy().round(4))
        [0.6321 0.2642]
    """
    return Igamma.apply(*_float_pair(input, other))


def igammac(input: Tensor, other: Tensor) -> Tensor:
    """The upper regularized incomplete gamma function Q(input, other) = 1 - P(input, other).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> a = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> x = Tensor(np.array([1.0, 1.0]), ms.float32)
        >>> print(ops.igammac(a, x).asnumpy().round(4))
        [0.3679 0.7358]
    """
    return Igammac.apply(*_float_pair(input, other))


def betainc(a: Tensor, b: Tensor, x: Tensor) -> Tensor:
    """The regularized incomplete beta function I_x(a, b) (``ops.Betainc()(a, b, x)``), broadcast; the
    gradient is in ``x`` only.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> a = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> b = Tensor(np.array([1.0, 3.0]), ms.float32)
        >>> x = Tensor(np.array([0.5, 0.5]), ms.float32)
        >>> print(ops.betainc(a, b, x).asnumpy().round(4))
        [0.5    0.6875]
    """
    a, b = _float_pair(a, b)
    a, x = _float_pair(a, x)
    b, x = _float_pair(b, x)
    return Betainc.apply(a, b, x)


def zeta(input: Tensor, other: Tensor) -> Tensor:
    """The Hurwitz zeta function: ``sum over k >= 0 of (k + other) ** -input``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([2.0]), ms.float32)
        >>> q = Tensor(np.array([1.0]), ms.float32)
        >>> print(ops.zeta(x, q).asnumpy().round(4))
        [1.6449]
    """
    return Zeta.apply(*_float_pair(input, other))


def bessel_j0(x: Tensor) -> Tensor:
    """The Bessel function of the first kind of order 0.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([0.5, 1.0, 2.0]), ms.float32)
        >>> print(ops.bessel_j0(x).asnumpy().round(4))
        [0.9385 0.7652 0.2239]
    """
    return BesselJ0.apply(_floatify(x))


def bessel_j1(x: Tensor) -> Tensor:
    """The Bessel function of the first kind of order 1.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([0.5, 1.0, 2.0]), ms.float32)
        >>> print(ops.bessel_j1(x).asnumpy().round(4))
        [0.2423 0.4401 0.5767]
    """
    return BesselJ1.apply(_floatify(x))


def bessel_y0(x: Tensor) -> Tensor:
    """The Bessel function of the second kind of order 0 (-inf for x <= 0, as in MindSpore).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([0.5, 1.0, 2.0]), ms.float32)
        >>> print(ops.bessel_y0(x).asnumpy().round(4))
        [-0.4445  0.0883  0.5104]
    """
    return BesselY0.apply(_floatify(x))


def bessel_y1(x: Tensor) -> Tensor:
    """The Bessel function of the second kind of order 1 (-inf for x < 0, NaN at 0, as in MindSpore).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([0.5, 1.0, 2.0]), ms.float32)
        >>> print(ops.bessel_y1(x).asnumpy().round(4))
        [-1.4715 -0.7812 -0.107 ]
    """
    return BesselY1.apply(_floatify(x))


def bessel_i0(x: Tensor) -> Tensor:
    """The modified Bessel function of the first kind of order 0.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([0.5, 1.0, 2.0]), ms.float32)
        >>> print(ops.bessel_i0(x).asnumpy().round(4))
        [1.0635 1.2661 2.2796]
    """
    return BesselI0.apply(_floatify(x))


def bessel_i0e(x: Tensor) -> Tensor:
    """The exponentially scaled modified Bessel function of the first kind of order 0: ``i0(x) e^-|x|``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([0.5, 1.0, 2.0]), ms.float32)
        >>> print(ops.bessel_i0e(x).asnumpy().round(4))
        [0.645  0.4658 0.3085]
    """
    return BesselI0e.apply(_floatify(x))


def bessel_i1(x: Tensor) -> Tensor:
    """The modified Bessel function of the first kind of order 1.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([0.5, 1.0, 2.0]), ms.float32)
        >>> print(ops.bessel_i1(x).asnumpy().round(4))
        [0.2579 0.5652 1.5906]
    """
    return BesselI1.apply(_floatify(x))


def bessel_i1e(x: Tensor) -> Tensor:
    """The exponentially scaled modified Bessel function of the first kind of order 1: ``i1(x) e^-|x|``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([0.5, 1.0, 2.0]), ms.float32)
        >>> print(ops.bessel_i1e(x).asnumpy().round(4))
        [0.1564 0.2079 0.2153]
    """
    return BesselI1e.apply(_floatify(x))


def bessel_k0(x: Tensor) -> Tensor:
    """The modified Bessel function of the second kind of order 0 (inf for x <= 0, as in MindSpore).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([0.5, 1.0, 2.0]), ms.float32)
        >>> print(ops.bessel_k0(x).asnumpy().round(4))
        [0.9244 0.421  0.1139]
    """
    return BesselK0.apply(_floatify(x))


def bessel_k0e(x: Tensor) -> Tensor:
    """The exponentially scaled modified Bessel function of the second kind of order 0: ``k0(x) e^x``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([0.5, 1.0, 2.0]), ms.float32)
        >>> print(ops.bessel_k0e(x).asnumpy().round(4))
        [1.5241 1.1445 0.8416]
    """
    return BesselK0e.apply(_floatify(x))


def bessel_k1(x: Tensor) -> Tensor:
    """The modified Bessel function of the second kind of order 1 (inf for x <= 0, as in MindSpore).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([0.5, 1.0, 2.0]), ms.float32)
        >>> print(ops.bessel_k1(x).asnumpy().round(4))
        [1.6564 0.6019 0.1399]
    """
    return BesselK1.apply(_floatify(x))


def bessel_k1e(x: Tensor) -> Tensor:
    """The exponentially scaled modified Bessel function of the second kind of order 1: ``k1(x) e^x``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([0.5, 1.0, 2.0]), ms.float32)
        >>> print(ops.bessel_k1e(x).asnumpy().round(4))
        [2.731  1.6362 1.0335]
    """
    return BesselK1e.apply(_floatify(x))


def i0(input: Tensor) -> Tensor:
    """Alias of :func:`bessel_i0`.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.0, 1.0]), ms.float32)
        >>> print(ops.i0(x).asnumpy().round(4))
        [1.     1.2661]
    """
    return bessel_i0(input)


__all__ = ["bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e", "bessel_j0", "bessel_j1", "bessel_k0",
           "bessel_k0e", "bessel_k1", "bessel_k1e", "bessel_y0", "bessel_y1", "digamma", "erfc", "erfinv",
           "expm1", "i0", "igamma", "igammac", "lgamma", "log1p", "polygamma", "zeta"]
__all__ += ["betainc"]
