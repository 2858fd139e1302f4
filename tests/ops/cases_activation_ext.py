"""Rows for glu, soft_shrink, threshold, rrelu, bias_add (cellonnx/ops/composite/activation_ext.py), lrn
(cellonnx/ops/prims/lrn.py) and mirror_pad (cellonnx/ops/composite/padding.py). References are NumPy written
from the definitions; inputs stay away from the thresholds where finite differences are undefined."""
from __future__ import annotations

import numpy as np

from cellonnx import ops
from tests.ops.harness import OpCase, rand


def _away_from(x: np.ndarray, points: tuple[float, ...], gap: float = 0.05) -> np.ndarray:
    x = x.copy()
    for p in points:
        near = np.abs(x - p) < gap
        x[near] = p + np.where(x[near] >= p, gap, -gap)
    return x


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def ref_lrn(x, r, bias, alpha, beta):
    c = x.shape[1]
    s = np.stack([(x[:, max(0, k - r):min(c, k + r + 1)] ** 2).sum(1) for k in range(c)], 1)
    return x / (bias + alpha * s) ** beta


def ref_mirror(x, pairs, mode):
    return np.pad(x, pairs, mode="reflect" if mode == "REFLECT" else "symmetric")


X = _away_from(rand(3, 4, 6, seed=401) * 2, (0.0, 0.5, -0.5, 0.3, -0.3))
IMG = rand(2, 7, 3, 4, seed=402)

CASES = [
    OpCase("glu_last", lambda x: ops.glu(x), [X], lambda x: x[..., :3] * _sigmoid(x[..., 3:]),
           second_order=True),
    OpCase("glu_axis1", lambda x: ops.glu(x, 1), [X], lambda x: x[:, :2] * _sigmoid(x[:, 2:])),
    OpCase("soft_shrink", lambda x: ops.soft_shrink(x), [X],
           lambda x: np.where(x > 0.5, x - 0.5, np.where(x < -0.5, x + 0.5, 0.0))),
    OpCase("soft_shrink_lambd", lambda x: ops.soft_shrink(x, 0.3), [X],
           lambda x: np.where(x > 0.3, x - 0.3, np.where(x < -0.3, x + 0.3, 0.0))),
    OpCase("threshold", lambda x: ops.threshold(x, 0.3, -2.0), [X], lambda x: np.where(x > 0.3, x, -2.0)),
    OpCase("rrelu_fixed_slope", lambda x: ops.rrelu(x, 0.25, 0.25), [X],
           lambda x: np.where(x < 0, 0.25 * x, x),
           note="lower == upper: no randomness; random slopes are checked by the layer table"),
    OpCase("rrelu_random_bounds",
           lambda x: ops.rrelu(x) / x, [X],
           lambda x: np.where(x < 0, 0.2291666, 1.0), grad=(), lower=False, rtol=0, atol=0.105,
           note="every negative element's slope lies in [1/8, 1/3); the exported graph draws its own"),
    OpCase("bias_add_4d", lambda x, b: ops.bias_add(x, b), [IMG, rand(7, seed=403)],
           lambda x, b: x + b[:, None, None]),
    OpCase("bias_add_2d", lambda x, b: ops.bias_add(x, b), [rand(3, 5, seed=404), rand(5, seed=405)],
           lambda x, b: x + b),
    OpCase("lrn_default", lambda x: ops.lrn(x), [IMG], lambda x: ref_lrn(x, 5, 1.0, 1.0, 0.5),
           second_order=True),
    OpCase("lrn_radius1", lambda x: ops.lrn(x, 1, 2.0, 0.5, 0.75), [IMG],
           lambda x: ref_lrn(x, 1, 2.0, 0.5, 0.75),
           dynamic=True),
    OpCase("mirror_pad_reflect", lambda x: ops.mirror_pad(x, ((0, 0), (1, 2), (3, 1)), "REFLECT"), [X],
           lambda x: ref_mirror(x, ((0, 0), (1, 2), (3, 1)), "REFLECT"), second_order=True),
    OpCase("mirror_pad_symmetric", lambda x: ops.mirror_pad(x, ((1, 1), (0, 4), (6, 2)), "SYMMETRIC"), [X],
           lambda x: ref_mirror(x, ((1, 1), (0, 4), (6, 2)), "SYMMETRIC"), second_order=True),
]
