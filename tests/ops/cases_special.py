"""Rows for the special functions (cellonnx/ops/prims/special.py) against scipy in float64.

The gamma family, zeta and the Bessel functions have no ONNX form (their rows say lower=False); expm1,
log1p, erfc and erfinv are lowered as formulas of ONNX operators and checked with onnxruntime."""
from __future__ import annotations

import numpy as np
import scipy.special as sp

from cellonnx import ops
from tests.ops.harness import OpCase, positive, rand

EAGER = "ONNX has no operator for it: eager only (the lowering raises, tests/ops/test_ops_math_extra.py)"
A = rand(3, 4, seed=21)
SMALL = np.array([[1e-7, -1e-7, 1e-4, -1e-4], [0.5, -0.5, 3.0, -3.0]])
PROBS = rand(3, 4, seed=22) * 0.95
POS = positive(3, 4, seed=23) * 2            # in (1, 4)
ORDER = positive(3, 4, seed=24)              # in (0.5, 2)
BESSEL_X = positive(2, 5, seed=25) * 1.5     # in (0.75, 3)
MIXED = np.array([[-2.5, -0.7, 0.3, 1.7, 4.0], [-0.2, 0.9, 2.2, -3.1, 6.0]])
LGAMMA_X = np.array([[0.0, -3.0, 1.0, 2.0, 1e-4, 0.5, 7.9, 35.0],
                     [-0.001, 1.0001, 2.5, 150.0, -7.3, 12.0, 0.999, 3e-3]])


def _row(name, fn, ref, inputs, grad=None, lower=False, **kw):
    return OpCase(name, fn, inputs, ref, grad=grad, lower=lower, note=kw.pop("note", EAGER), **kw)


CASES = [
    OpCase("expm1", lambda x: ops.expm1(x), [A * 3], np.expm1, second_order=True),
    OpCase("expm1_near_zero", lambda x: ops.expm1(x), [SMALL], np.expm1, rtol=1e-6, atol=0, grad=(),
           note="relative accuracy near 0 (exp(x) - 1 would lose it); onnxruntime runs Kahan's formula"),
    OpCase("log1p", lambda x: ops.log1p(x), [A * 0.9], np.log1p, second_order=True),
    OpCase("log1p_near_zero", lambda x: ops.log1p(x), [SMALL], np.log1p, rtol=1e-6, atol=0, grad=()),
    OpCase("erfc", lambda x: ops.erfc(x), [A * 2], sp.erfc, second_order=True,
           note="onnxruntime computes 1 - erf(x): exact to float32 rounding of 1"),
    OpCase("erfinv", lambda x: ops.erfinv(x), [PROBS], sp.erfinv, second_order=True, ort_rtol=2e-6,
           ort_atol=1e-6,
           note="onnxruntime runs Giles' approximation plus one Newton step"),
    OpCase("erfinv_tails", lambda x: ops.erfinv(x), [np.array([[0.999, -0.9999, 0.9, 0.0, 1.0, -1.0]])],
           sp.erfinv, grad=(), ort_rtol=2e-6, note="tail branch of the approximation and +-1 -> +-inf"),
    OpCase("lgamma", lambda x: ops.lgamma(x), [MIXED], sp.gammaln, second_order=True,
           note="onnxruntime: reflection, recurrence and Stirling's series in float64"),
    OpCase("lgamma_poles_and_range", lambda x: ops.lgamma(x), [LGAMMA_X], sp.gammaln, grad=(),
           ort_atol=2e-6, note="poles (0, -3) are inf; near 1 and 2 lgamma crosses 0"),
    OpCase("digamma", lambda x: ops.digamma(x), [MIXED], sp.psi, second_order=True),
    OpCase("digamma_range", lambda x: ops.digamma(x), [LGAMMA_X[:, 2:]], sp.psi, grad=(), ort_rtol=1e-5,
           ort_atol=2e-6),
    _row("polygamma_1", lambda x: ops.polygamma(1, x), lambda x: sp.polygamma(1, x), [POS],
         second_order=True),
    _row("polygamma_3_tensor_n", lambda x: ops.polygamma(ops.cast(ops.full((), 3), "int64"), x),
         lambda x: sp.polygamma(3, x), [POS]),
    _row("igamma", lambda a, x: ops.igamma(a, x), sp.gammainc, [ORDER, POS], grad_rtol=1e-4, grad_atol=1e-6,
         note=f"the gradient in a is a float64 central difference of P (accurate to ~1e-9); {EAGER}"),
    _row("igammac", lambda a, x: ops.igammac(a, x), sp.gammaincc, [ORDER, POS], grad_rtol=1e-4,
         grad_atol=1e-6,
         note=EAGER),
    _row("betainc", lambda a, b, x: ops.Betainc()(a, b, x), sp.betainc,
         [ORDER, POS, positive(3, 4, seed=26) * 0.4],
         grad=(2,), note=f"gradient in x only (none in a, b, as MindSpore); {EAGER}"),
    _row("zeta", lambda x, q: ops.zeta(x, q), sp.zeta, [POS + 1, ORDER], grad=(1,),
         note=f"gradient in q only (none in x, as MindSpore); {EAGER}"),
    _row("bessel_j0", lambda x: ops.bessel_j0(x), sp.j0, [MIXED], second_order=True),
    _row("bessel_j1", lambda x: ops.bessel_j1(x), sp.j1, [MIXED], second_order=True),
    _row("bessel_y0", lambda x: ops.bessel_y0(x), sp.y0, [BESSEL_X], second_order=True),
    _row("bessel_y1", lambda x: ops.bessel_y1(x), sp.y1, [BESSEL_X], second_order=True),
    _row("bessel_i0", lambda x: ops.bessel_i0(x), sp.i0, [MIXED], second_order=True),
    _row("i0_alias", lambda x: ops.i0(x), sp.i0, [MIXED]),
    _row("bessel_i0e", lambda x: ops.bessel_i0e(x), sp.i0e, [MIXED], second_order=True),
    _row("bessel_i1", lambda x: ops.bessel_i1(x), sp.i1, [MIXED], second_order=True),
    _row("bessel_i1e", lambda x: ops.bessel_i1e(x), sp.i1e, [MIXED], second_order=True),
    _row("bessel_k0", lambda x: ops.bessel_k0(x), sp.k0, [BESSEL_X], second_order=True),
    _row("bessel_k0e", lambda x: ops.bessel_k0e(x), sp.k0e, [BESSEL_X], second_order=True),
    _row("bessel_k1", lambda x: ops.bessel_k1(x), sp.k1, [BESSEL_X], second_order=True),
    _row("bessel_k1e", lambda x: ops.bessel_k1e(x), sp.k1e, [BESSEL_X], second_order=True),
    _row("bessel_j1_i1_at_zero_grad", lambda x: ops.bessel_j1(x) + ops.bessel_i1(x), None,
         [np.array([[0.0, 0.3]])], note=f"J1'(0) = I1'(0) = 1/2 (no NaN from J1(x) / x); {EAGER}"),
]
