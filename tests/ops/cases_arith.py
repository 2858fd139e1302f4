"""Rows for the elementwise compositions (cellonnx/ops/composite/arith.py): gradient and lowering come from
the primitives they are built of, and each row checks all three faces."""
from __future__ import annotations

import numpy as np

from cellonnx import ops
from tests.ops.harness import OpCase, positive, rand

A, B = rand(3, 4, seed=41), rand(3, 4, seed=42)
P, Q = positive(3, 4, seed=43), positive(3, 4, seed=44)
ROW = rand(1, 4, seed=45)
INTS = np.array([[7, -7, 5, 0], [-3, 9, 2, 1]], dtype=np.int64)
SPECIAL = np.array([[np.nan, np.inf, -np.inf, -0.0], [0.0, -1.5, 2.5, 1e-30]])
NAN_MIX = np.array([[np.nan, 1.0, -2.0, np.nan], [3.0, np.nan, 0.5, -1.0]])
PROB = positive(3, 4, seed=46) / 2.5     # in (0.2, 0.8)


def _sinc(x):
    return np.sinc(x)


def _logaddexp2(a, b):
    return np.logaddexp2(a, b)


def _fast_gelu(x):
    return x / (1 + np.exp(-1.702 * np.abs(x))) * np.exp(0.851 * (x - np.abs(x)))


CASES = [
    OpCase("multiply", lambda x, y: ops.multiply(x, y), [A, B], np.multiply),
    OpCase("divide_floor", lambda x, y: ops.divide(x, y, rounding_mode="floor"), [INTS, INTS * 0 + 2],
           np.floor_divide),
    OpCase("subtract_alpha", lambda x, y: ops.subtract(x, y, alpha=2.5), [A, ROW], lambda x, y: x - 2.5 * y),
    OpCase("eq", lambda x, y: ops.eq(x, y), [INTS, INTS * 0 + 7], np.equal),
    OpCase("positive", lambda x: ops.positive(x), [A], lambda x: x),
    OpCase("addn", lambda x, y: ops.addn([x, y, x]), [A, B], lambda x, y: 2 * x + y),
    OpCase("accumulate_n", lambda x, y: ops.accumulate_n((x, y)), [A, B], np.add),
    OpCase("addcdiv", lambda x, a, b: ops.addcdiv(x, a, b, 0.5), [A, B, P], lambda x, a, b: x + 0.5 * a / b),
    OpCase("addcmul_tensor_value", lambda x, a, b, v: ops.addcmul(x, a, b, v), [A, B, P, ROW],
           lambda x, a, b, v: x + v * a * b),
    OpCase("inv", lambda x: ops.inv(x), [P], np.reciprocal),
    OpCase("inv_int_truncates", lambda x: ops.inv(x), [np.array([1, 2, -1, 3], dtype=np.int32)],
           lambda x: np.trunc(1 / x).astype(np.int32)),
    OpCase("exp2", lambda x: ops.exp2(x), [A * 3], np.exp2, second_order=True),
    OpCase("log2", lambda x: ops.log2(x), [P], np.log2, second_order=True),
    OpCase("log10", lambda x: ops.log10(x), [P], np.log10),
    OpCase("logaddexp", lambda x, y: ops.logaddexp(x, y), [A * 30, B * 30], np.logaddexp, second_order=True),
    OpCase("logaddexp2", lambda x, y: ops.logaddexp2(x, y), [A * 30, B * 30], _logaddexp2),
    OpCase("xlogy", lambda x, y: ops.xlogy(x, y), [A, P], lambda x, y: x * np.log(y), second_order=True),
    OpCase("xdivy", lambda x, y: ops.xdivy(x, y), [np.where(A > 0.3, 0.0, A), P],
           lambda x, y: np.where(x == 0, 0.0, x / y), note="0 where x is 0"),
    OpCase("xdivy_zero_by_zero", lambda x, y: ops.xdivy(x, y), [np.array([0.0, 0.0, 1.0]),
                                                                 np.array([0.0, 2.0, 4.0])],
           lambda x, y: np.array([0.0, 0.0, 0.25]), grad=()),
    OpCase("float_power", lambda x: ops.float_power(x, 2.5), [P], lambda x: np.power(x, 2.5),
           note="computed in float64 (the result is float64)"),
    OpCase("float_power_ext_tensor", lambda x, y: ops.float_power_ext(x, y), [P, A], np.power),
    OpCase("ldexp", lambda x, e: ops.ldexp(x, e), [A, np.array([[1, -2, 0, 3]], dtype=np.int64)],
           lambda x, e: np.ldexp(x, e.astype(np.int32))),
    OpCase("logit", lambda x: ops.logit(x), [PROB], lambda p: np.log(p / (1 - p)), second_order=True),
    OpCase("logit_eps", lambda x: ops.logit(x, 0.3), [PROB], lambda p: np.log(np.clip(p, 0.3, 0.7) /
                                                                               (1 - np.clip(p, 0.3, 0.7)))),
    OpCase("hypot", lambda x, y: ops.hypot(x, y), [A, B], np.hypot, second_order=True),
    OpCase("copysign", lambda x, y: ops.copysign(x, y), [A, B], np.copysign, grad=(0,)),
    OpCase("heaviside", lambda x, v: ops.heaviside(x, v), [np.array([[-1.0, 0.0, 2.0, 0.0]]), ROW],
           np.heaviside, grad=(1,)),
    OpCase("fmax_nan", lambda x, y: ops.fmax(x, y), [NAN_MIX, B[:2]], np.fmax, grad=(),
           note="NaN only where both are NaN"),
    OpCase("fmin", lambda x, y: ops.fmin(x, y), [A, B], np.fmin),
    OpCase("frac", lambda x: ops.frac(x), [A * 5], lambda x: x - np.trunc(x)),
    OpCase("sinc", lambda x: ops.sinc(x), [np.array([[0.0, 0.5, -1.5, 2.25], [0.1, -0.3, 3.0, 1e-3]])], _sinc,
           second_order=True, note="1 at 0, with a finite gradient there"),
    OpCase("sgn", lambda x: ops.sgn(x), [A], np.sign),
    OpCase("signbit", lambda x: ops.signbit(x), [SPECIAL], lambda x: x < 0,
           note="-0.0 and NaN give False, as MindSpore's signbit"),
    OpCase("nan_to_num", lambda x: ops.nan_to_num(x), [SPECIAL],
           lambda x: np.nan_to_num(x.astype(np.float32)).astype(np.float64), grad=()),
    OpCase("nan_to_num_values", lambda x: ops.nan_to_num(x, 1.0, 2.0, -3.0), [SPECIAL],
           lambda x: np.nan_to_num(x, nan=1.0, posinf=2.0, neginf=-3.0), grad=()),
    OpCase("isclose", lambda x, y: ops.isclose(x, y), [A, A + np.where(B > 0, 1e-6, 1e-3)],
           lambda a, b: np.isclose(a, b, rtol=1e-5, atol=1e-8)),
    OpCase("isclose_special_equal_nan", lambda x, y: ops.isclose(x, y, equal_nan=True), [SPECIAL, SPECIAL],
           lambda a, b: np.isclose(a, b, equal_nan=True)),
    OpCase("approximate_equal", lambda x, y: ops.approximate_equal(x, y, 0.5), [A, B],
           lambda a, b: np.abs(a - b) < 0.5),
    OpCase("isposinf", lambda x: ops.isposinf(x), [SPECIAL], np.isposinf),
    OpCase("isneginf", lambda x: ops.isneginf(x), [SPECIAL], np.isneginf),
    OpCase("isnan_ext", lambda x: ops.isnan_ext(x), [SPECIAL], np.isnan),
    OpCase("isreal", lambda x: ops.isreal(x), [A], np.isreal),
    OpCase("eps", lambda x: ops.eps(x), [A], lambda x: np.full_like(x, np.finfo(np.float32).eps), grad=()),
    OpCase("tanhshrink", lambda x: ops.tanhshrink(x), [A * 3], lambda x: x - np.tanh(x), second_order=True),
    OpCase("softshrink", lambda x: ops.softshrink(x, 0.3), [A],
           lambda x: np.where(x > 0.3, x - 0.3, np.where(x < -0.3, x + 0.3, 0.0))),
    OpCase("hardshrink", lambda x: ops.hardshrink(x, 0.3), [A], lambda x: np.where(np.abs(x) > 0.3, x, 0.0)),
    OpCase("fast_gelu", lambda x: ops.fast_gelu(x), [A * 4], _fast_gelu, second_order=True),
]
