"""Rows for the trigonometric and hyperbolic family (cellonnx/ops/prims/trig.py)."""
from __future__ import annotations

import numpy as np

from cellonnx import ops
from tests.ops.harness import OpCase, rand

A = rand(3, 4, seed=11)                       # in (-1, 1)
WIDE = rand(3, 4, seed=12) * 3.0
ABOVE_ONE = 1.2 + np.abs(rand(3, 4, seed=13))
INTS = np.array([[1, -2, 3], [0, 4, -1]], dtype=np.int64)
QUADRANTS = np.array([[1.0, -1.0, -1.0, 1.0, 0.0, 0.0], [2.0, 0.5, -3.0, -0.2, 1.0, -1.0]])
XS = np.array([[1.0, -1.0, 1.0, -1.0, 0.5, -0.5], [-0.7, 2.0, -0.1, 0.3, -2.0, 0.0]])

CASES = [
    OpCase("tan", lambda x: ops.tan(x), [A], np.tan, second_order=True),
    OpCase("tan_int", lambda x: ops.tan(x), [INTS], lambda x: np.tan(x),
           note="integers are computed in float32"),
    OpCase("asin", lambda x: ops.asin(x), [A * 0.9], np.arcsin, second_order=True),
    OpCase("arcsin_alias", lambda x: ops.arcsin(x), [A * 0.9], np.arcsin),
    OpCase("acos", lambda x: ops.acos(x), [A * 0.9], np.arccos, second_order=True),
    OpCase("arccos_alias", lambda x: ops.arccos(x), [A * 0.9], np.arccos),
    OpCase("atan", lambda x: ops.atan(x), [WIDE], np.arctan, second_order=True),
    OpCase("arctan_alias", lambda x: ops.arctan(x), [WIDE], np.arctan),
    OpCase("sinh", lambda x: ops.sinh(x), [WIDE], np.sinh, second_order=True),
    OpCase("cosh", lambda x: ops.cosh(x), [WIDE], np.cosh, second_order=True),
    OpCase("asinh", lambda x: ops.asinh(x), [WIDE], np.arcsinh, second_order=True),
    OpCase("arcsinh_alias", lambda x: ops.arcsinh(x), [WIDE], np.arcsinh),
    OpCase("acosh", lambda x: ops.acosh(x), [ABOVE_ONE], np.arccosh, second_order=True),
    OpCase("arccosh_alias", lambda x: ops.arccosh(x), [ABOVE_ONE], np.arccosh),
    OpCase("atanh", lambda x: ops.atanh(x), [A * 0.9], np.arctanh, second_order=True),
    OpCase("arctanh_alias", lambda x: ops.arctanh(x), [A * 0.9], np.arctanh),
    OpCase("atan2_quadrants", lambda y, x: ops.atan2(y, x), [QUADRANTS, XS], np.arctan2,
           grad=(), note="every quadrant and both axes (x = 0, y = 0); the gradient row is away from 0"),
    OpCase("atan2", lambda y, x: ops.atan2(y, x), [A, rand(3, 4, seed=14)], np.arctan2, second_order=True),
    OpCase("arctan2_broadcast", lambda y, x: ops.arctan2(y, x), [A, rand(1, 4, seed=15)], np.arctan2),
    OpCase("deg2rad", lambda x: ops.deg2rad(x), [WIDE * 60], np.deg2rad),
    OpCase("rad2deg", lambda x: ops.rad2deg(x), [WIDE], np.rad2deg),
]
