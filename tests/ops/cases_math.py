"""Rows for the elementwise family (cellonnx/ops/prims/math.py)."""
from __future__ import annotations

import numpy as np

from cellonnx import ops
from cellonnx.ops.prims.math import ReluGrad
from tests.ops.harness import OpCase, positive, rand


def _erf(x):
    import math
    return np.vectorize(math.erf)(x)


A, B = rand(3, 4, seed=1), rand(3, 4, seed=2)
ROW = rand(1, 4, seed=3)
INTS = np.array([[7, -7, 5], [-3, 9, 0]], dtype=np.int64)
SPECIAL = np.array([[np.nan, np.inf, -np.inf, -0.0], [0.0, -1.5, 2.5, 1e-30]])
DIVS = np.array([[2, 3, -2], [2, -4, 5]], dtype=np.int64)

CASES = [
    OpCase("add", lambda x, y: ops.add(x, y), [A, B], np.add, second_order=True),
    OpCase("add_broadcast", lambda x, y: x + y, [A, ROW], np.add),
    OpCase("add_scalar", lambda x: x + 2.5, [A], lambda x: x + 2.5),
    OpCase("sub_broadcast", lambda x, y: ops.sub(x, y), [rand(2, 1, 3), rand(4, 3, seed=5)], np.subtract),
    OpCase("rsub_scalar", lambda x: 1.0 - x, [A], lambda x: 1.0 - x),
    OpCase("mul", lambda x, y: ops.mul(x, y), [A, B], np.multiply, second_order=True),
    OpCase("mul_broadcast", lambda x, y: x * y, [rand(2, 3, 1), rand(3, 4, seed=9)], np.multiply),
    OpCase("div", lambda x, y: ops.div(x, y), [A, positive(3, 4)], np.divide, second_order=True),
    OpCase("div_int_gives_float", lambda x, y: ops.div(x, y), [INTS, DIVS], lambda a, b: a / b, grad=()),
    OpCase("floor_div_int", lambda x, y: ops.floor_div(x, y), [INTS, DIVS], np.floor_divide),
    OpCase("floor_div_float", lambda x, y: x // y, [rand(3, 4) * 5, positive(3, 4)], np.floor_divide, grad=()),
    OpCase("floor_mod_int", lambda x, y: ops.floor_mod(x, y), [INTS, DIVS], np.mod),
    OpCase("floor_mod_float", lambda x, y: x % y, [rand(3, 4) * 5, positive(3, 4)], np.mod, grad=(0,)),
    OpCase("pow", lambda x, y: ops.pow(x, y), [positive(3, 4), rand(3, 4)], np.power, second_order=True),
    OpCase("pow_scalar", lambda x: x ** 3, [A], lambda x: x ** 3),
    OpCase("maximum", lambda x, y: ops.maximum(x, y), [A, B], np.maximum),
    OpCase("minimum", lambda x, y: ops.minimum(x, y), [A, B], np.minimum),
    OpCase("maximum_scalar_special_values", lambda x: ops.maximum(x, 0.5), [SPECIAL],
           lambda x: np.maximum(x, 0.5),
           grad=()),
    OpCase("minimum_scalar_first", lambda x: ops.minimum(0.5, x), [A], lambda x: np.minimum(0.5, x)),
    OpCase("maximum_nan_scalar", lambda x: ops.maximum(x, float("nan")), [A], lambda x: np.maximum(x, np.nan),
           grad=()),
    OpCase("equal", lambda x, y: ops.equal(x, y), [INTS, DIVS * 0 + 7], np.equal),
    OpCase("not_equal", lambda x, y: ops.not_equal(x, y), [A, np.where(A > 0, A, B)], np.not_equal),
    OpCase("less", lambda x, y: ops.less(x, y), [A, B], np.less),
    OpCase("less_equal", lambda x, y: ops.less_equal(x, y), [A, B], np.less_equal),
    OpCase("greater", lambda x, y: ops.greater(x, y), [A, B], np.greater),
    OpCase("greater_equal", lambda x, y: ops.greater_equal(x, y), [A, B], np.greater_equal),
    OpCase("logical_and", lambda x, y: ops.logical_and(x > 0, y > 0), [A, B], lambda a, b: (a > 0) & (b > 0)),
    OpCase("logical_or", lambda x, y: ops.logical_or(x > 0, y > 0), [A, B], lambda a, b: (a > 0) | (b > 0)),
    OpCase("logical_xor", lambda x, y: ops.logical_xor(x > 0, y > 0), [A, B], lambda a, b: (a > 0) ^ (b > 0)),
    OpCase("logical_not", lambda x: ops.logical_not(x > 0), [A], lambda a: ~(a > 0)),
    OpCase("isnan", lambda x: ops.isnan(ops.log(x)), [A], lambda a: np.isnan(np.log(a))),
    OpCase("isinf", lambda x: ops.isinf(ops.div(x, x - x)), [A], lambda a: np.isinf(a / (a - a))),
    OpCase("neg", lambda x: -x, [A], np.negative, second_order=True),
    OpCase("abs", lambda x: ops.abs(x), [A], np.abs),
    OpCase("sign", lambda x: ops.sign(x), [A], np.sign),
    OpCase("exp", lambda x: ops.exp(x), [A], np.exp, second_order=True),
    OpCase("log", lambda x: ops.log(x), [positive(3, 4)], np.log, second_order=True),
    OpCase("sqrt", lambda x: ops.sqrt(x), [positive(3, 4)], np.sqrt, second_order=True),
    OpCase("rsqrt", lambda x: ops.rsqrt(x), [positive(3, 4)], lambda x: 1 / np.sqrt(x), second_order=True),
    OpCase("reciprocal", lambda x: ops.reciprocal(x), [positive(3, 4)], np.reciprocal, second_order=True),
    OpCase("square", lambda x: ops.square(x), [A], np.square),
    OpCase("sin", lambda x: ops.sin(x), [A], np.sin, second_order=True),
    OpCase("cos", lambda x: ops.cos(x), [A], np.cos, second_order=True),
    OpCase("tanh", lambda x: ops.tanh(x), [A], np.tanh, second_order=True),
    OpCase("sigmoid_special_values", lambda x: ops.sigmoid(x), [SPECIAL * 100],
           lambda x: 1 / (1 + np.exp(-x)),
           grad=(), lower=False, atol=1e-30, note="-inf, -250 and NaN: 1 / (1 + inf) = 0, no NaN"),
    OpCase("pow_square", lambda x: ops.pow(x, 2.0), [SPECIAL], lambda x: np.power(x, 2.0), grad=(),
           lower=False),
    OpCase("sigmoid", lambda x: ops.sigmoid(x), [rand(3, 4) * 30], lambda x: 1 / (1 + np.exp(-x)),
           second_order=True),
    OpCase("erf", lambda x: ops.erf(x), [A * 2], _erf, second_order=True,
           note="float32 erf is a float64 rational approximation (|err| < 1.5e-7)"),
    OpCase("floor", lambda x: ops.floor(x), [A * 3], np.floor),
    OpCase("ceil", lambda x: ops.ceil(x), [A * 3], np.ceil),
    OpCase("round", lambda x: ops.round(x), [A * 3], np.round),
    OpCase("relu", lambda x: ops.relu(x), [A], lambda x: np.maximum(x, 0), second_order=True),
    OpCase("relu_special_values", lambda x: ops.relu(x), [SPECIAL], lambda x: np.maximum(x, 0), grad=()),
    OpCase("relu_int", lambda x: ops.relu(x), [INTS], lambda x: np.maximum(x, 0)),
    OpCase("relu_float16", lambda x: ops.relu(x), [SPECIAL.astype(np.float16)], lambda x: np.maximum(x, 0),
           grad=(), lower=False, note="float16 takes NumPy's maximum (its clip is slower for float16)"),
    OpCase("relu_grad_prim", lambda g, x: ReluGrad.apply(g, x), [B, A], lambda g, x: g * (x > 0), grad=(0,),
           second_order=True, note="Relu's backward primitive; zero gradient for x"),
    OpCase("clamp", lambda x: ops.clamp(x, -0.5, 0.5), [A], lambda x: np.clip(x, -0.5, 0.5)),
    OpCase("clamp_min_only", lambda x: ops.clamp(x, min=0.1), [A], lambda x: np.maximum(x, 0.1)),
    OpCase("clamp_max_only_special_values", lambda x: ops.clamp(x, max=0.5), [SPECIAL],
           lambda x: np.minimum(x, 0.5),
           grad=()),
    OpCase("clamp_tensor_bounds", lambda x, lo: ops.clamp(x, lo, 0.6), [A, ROW * 0.3],
           lambda x, lo: np.minimum(np.maximum(x, lo), 0.6)),
    OpCase("cast_float_to_int", lambda x: ops.cast(x * 4, np.int32), [A], lambda x: (x * 4).astype(np.int32)),
    OpCase("cast_float64", lambda x: ops.cast(x, "float64") * 2, [A], lambda x: x * 2),
    OpCase("where_special_values_int", lambda c, x, y: ops.where(c > 0, x, y),
           [rand(2, 1, seed=5), SPECIAL, INTS[:, :1].astype(np.float64)],
           lambda c, x, y: np.where(c > 0, x, y),
           grad=()),
    OpCase("where_int64", lambda c, x, y: ops.where(c > 0, x, y), [rand(2, 3, seed=6), INTS, DIVS],
           lambda c, x, y: np.where(c > 0, x, y)),
    OpCase("where", lambda c, x, y: ops.where(c > 0, x, y), [rand(3, 1, seed=4), A, B],
           lambda c, x, y: np.where(c > 0, x, y)),
    OpCase("int_plus_float_promotes_to_float", lambda i, x: i + x, [INTS[:, :2].reshape(2, 2)[:1], rand(1, 2)],
           lambda i, x: i + x, grad=(1,)),
]
