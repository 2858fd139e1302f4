"""Rows for the primitives private to cellonnx.numpy (cellonnx/numpy/_prims.py): the inverse trigonometric
and hyperbolic functions, arctan2, the bitwise operations, the cumulative product and unique."""
from __future__ import annotations

import numpy as np

from cellonnx.numpy import _prims
from tests.ops.harness import OpCase, positive, rand

U = rand(3, 4, seed=41) * 0.9
A = rand(3, 4, seed=42)
BIG = positive(3, 4, seed=43) + 1.0
INTS = np.array([[3, -2, 5, 0], [-7, 4, 1, 6]], np.int64)
INTS2 = np.array([[2, 3, -2, 1], [3, 5, 7, -3]], np.int64)
SIGNS = np.array([[0.5, -2.0, 0.0, 3.0, -1.5], [-0.25, -4.0, 1.5, 0.5, 2.0]])


def _unary(fn, x, ref, **kw):
    return OpCase(f"numpy_{fn}", lambda t: _prims.unary(fn, t), [x], ref, second_order=True, **kw)


CASES = [
    _unary("tan", U, np.tan),
    _unary("arcsin", U, np.arcsin),
    _unary("arccos", U, np.arccos),
    _unary("arctan", A * 3, np.arctan),
    _unary("sinh", A * 2, np.sinh),
    _unary("cosh", A * 2, np.cosh),
    _unary("arcsinh", A * 3, np.arcsinh),
    _unary("arccosh", BIG, np.arccosh),
    _unary("arctanh", U, np.arctanh),
    OpCase("numpy_arctan2", lambda y, x: _prims.arctan2(y, x), [A, rand(3, 4, seed=44)], np.arctan2,
           second_order=True),
    OpCase("numpy_arctan2_broadcast_quadrants", lambda y, x: _prims.arctan2(y, x),
           [np.array([[0.0], [1.0], [-1.0]]), np.array([0.0, -2.0, 3.0, -0.5])], np.arctan2, grad=(),
           note="the axes and the x < 0 half-plane, where the lowering shifts Atan(y / x) by +-pi"),
    OpCase("numpy_bitwise_and", lambda a, b: _prims.bitwise("and", a, b), [INTS, INTS2], np.bitwise_and,
           opsets=(18, 21), note="integers need ONNX's Bitwise* operators (opset 18)"),
    OpCase("numpy_bitwise_or_broadcast", lambda a, b: _prims.bitwise("or", a, b), [INTS, INTS2[:1]],
           np.bitwise_or,
           opsets=(18, 21)),
    OpCase("numpy_bitwise_xor_bool", lambda a, b: _prims.bitwise("xor", a, b), [A > 0, U > 0],
           np.bitwise_xor),
    OpCase("numpy_invert", lambda a: _prims.invert(a), [INTS], np.invert, opsets=(18, 21)),
    OpCase("numpy_invert_bool", lambda a: _prims.invert(a), [A > 0], np.invert),
    OpCase("numpy_cumprod", lambda x: _prims.cumprod(x, 1),
           [positive(3, 5, seed=45) * np.sign(SIGNS[:1] + 0.1)],
           lambda x: np.cumprod(x, 1), second_order=True, ort_rtol=1e-4,
           note="the lowering multiplies through exp(cumsum(log|x|)): about 1e-6 relative per term"),
    OpCase("numpy_cumprod_zero_and_signs", lambda x: _prims.cumprod(x, 1), [SIGNS],
           lambda x: np.cumprod(x, 1),
           grad=(), ort_rtol=1e-4, note="a zero zeroes what follows; the gradient divides by the input"),
    OpCase("numpy_cumprod_int", lambda x: _prims.cumprod(x, 0), [INTS], lambda x: np.cumprod(x, 0)),
    OpCase("numpy_unique_first_occurrence", lambda x: _prims.unique(x, False),
           [np.array([3, 1, 2, 1, 5, 3, 0, 2], np.int64)],
           lambda x: (np.array([3, 1, 2, 5, 0]), np.array([0, 1, 2, 1, 3, 0, 4, 2]))),
    OpCase("numpy_unique_sorted", lambda x: _prims.unique(x, True), [np.array([[2.5, -1.0], [2.5, 0.5]])],
           lambda x: (np.unique(x), np.unique(x, return_inverse=True)[1].reshape(-1)), grad=(),
           note="no gradient: MindSpore's Unique has none"),
]
