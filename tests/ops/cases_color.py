"""Rows for the colour-space operator classes (cellonnx/ops/operations/color_ops.py), against a float64
reference written from the definition (Python's colorsys, element by element). The gradient inputs keep the
channels apart, so no input sits on a tie between two channels (where the hue's branch switches)."""
from __future__ import annotations

import colorsys

import numpy as np

from cellonnx import Tensor, ops
from tests.ops.harness import OpCase


def _apply(fn, x):
    flat = x.reshape(-1, 3)
    return np.array([fn(*row) for row in flat], dtype=np.float64).reshape(x.shape)


def ref_rgb_to_hsv(x):
    return _apply(colorsys.rgb_to_hsv, x)


def ref_hsv_to_rgb(x):
    return _apply(colorsys.hsv_to_rgb, x)


def ref_adjust_hue(x, delta):
    def one(r, g, b):
        h, s, v = colorsys.rgb_to_hsv(r, g, b)
        return colorsys.hsv_to_rgb((h + delta) % 1.0, s, v)
    return _apply(one, x)


def ref_adjust_saturation(x, scale):
    def one(r, g, b):
        h, s, v = colorsys.rgb_to_hsv(r, g, b)
        return colorsys.hsv_to_rgb(h, min(max(s * scale, 0.0), 1.0), v)
    return _apply(one, x)


def _distinct(shape, seed):
    """RGB values in (0.05, 0.95) whose channels differ by at least 0.1 (away from the hue's ties)."""
    rng = np.random.default_rng(seed)
    base = rng.permuted(np.tile(np.array([0.1, 0.45, 0.85]), shape[:-1] + (1,)), axis=-1)
    return base + rng.uniform(-0.04, 0.04, shape)


RGB = _distinct((2, 3, 4, 3), 701)
HSV = np.stack([np.random.default_rng(702).uniform(0.02, 0.98, (2, 5)),
                np.random.default_rng(703).uniform(0.1, 0.9, (2, 5)),
                np.random.default_rng(704).uniform(0.1, 0.9, (2, 5))], -1)
HSV[..., 0] = np.where(np.abs(HSV[..., 0] * 6 - np.round(HSV[..., 0] * 6)) < 0.05, 0.55, HSV[..., 0])

CASES = [
    OpCase("rgb_to_hsv", lambda x: ops.RGBToHSV()(x), [RGB], ref_rgb_to_hsv),
    OpCase("hsv_to_rgb", lambda x: ops.HSVToRGB()(x), [HSV], ref_hsv_to_rgb),
    OpCase("adjust_hue", lambda x: ops.AdjustHue()(x, Tensor(np.float32(0.3))), [RGB],
           lambda x: ref_adjust_hue(x, 0.3)),
    OpCase("adjust_hue_negative", lambda x: ops.AdjustHue()(x, -0.45), [RGB],
           lambda x: ref_adjust_hue(x, -0.45), grad=()),
    OpCase("adjust_saturation", lambda x: ops.AdjustSaturation()(x, Tensor(np.float32(0.6))), [RGB],
           lambda x: ref_adjust_saturation(x, 0.6)),
]
