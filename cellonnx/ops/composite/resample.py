"""Separable image resampling behind MindSpore's ``ops.ResizeArea`` and ``ops.ScaleAndTranslate``
(TensorFlow's kernels, which MindSpore follows): each output row is a fixed weighted sum of input rows, and
likewise for columns, so the resampling is ``Wy @ image @ Wx^T`` per channel. The weight matrices are built
in NumPy (float64) from the sizes, scales and translations; the products are ops, so the images get gradients
and the product exports to ONNX (the weights become constants of the graph).
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from cellonnx import dtypes
from cellonnx import ops as _ops
from cellonnx.tensor import Tensor

F: Any = _ops

__all__: list[str] = []


def area_weights(n_in: int, n_out: int, align_corners: bool) -> np.ndarray:
    """(n_out, n_in): each output pixel averages the input pixels its area covers, in proportion."""
    scale = (n_in - 1) / (n_out - 1) if align_corners and n_out > 1 else n_in / n_out
    w = np.zeros((n_out, n_in))
    for o in range(n_out):
        lo, hi = o * scale, (o + 1) * scale
        for i in range(math.floor(lo), math.ceil(hi)):
            w[o, min(i, n_in - 1)] += (min(i + 1, hi) - max(i, lo)) / scale
    return w


def _lanczos(radius: float) -> Any:
    def k(x: np.ndarray) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            v = radius * np.sin(np.pi * x) * np.sin(np.pi * x / radius) / (np.pi * np.pi * x * x)
        return np.where(x > radius, 0.0, np.where(x < 1e-3, 1.0, v))
    return k


def _keys(x: np.ndarray) -> np.ndarray:
    return np.where(x >= 2, 0.0, np.where(x >= 1, ((-0.5 * x + 2.5) * x - 4.0) * x + 2.0,
                                          (1.5 * x - 2.5) * x * x + 1.0))


def _mitchell(x: np.ndarray) -> np.ndarray:
    return np.where(x >= 2, 0.0, np.where(x >= 1, (((-7 / 18) * x + 2.0) * x - 10 / 3) * x + 16 / 9,
                                          ((7 / 6) * x - 2.0) * x * x + 8 / 9))


KERNELS = {  # name: (function of |x|, radius)
    "lanczos1": (_lanczos(1.0), 1.0), "lanczos3": (_lanczos(3.0), 3.0), "lanczos5": (_lanczos(5.0), 5.0),
    "gaussian": (lambda x: np.where(x < 1.5, np.exp(-2.0 * x * x), 0.0), 1.5),  # sigma 0.5
    "box": (lambda x: np.where(x < 0.5, 1.0, np.where(x == 0.5, 0.5, 0.0)), 1.0),
    "triangle": (lambda x: np.where(x < 1.0, 1.0 - x, 0.0), 1.0),
    "keyscubic": (_keys, 2.0), "mitchellcubic": (_mitchell, 2.0),
}


def scale_translate_weights(n_in: int, n_out: int, scale: float, translate: float, kernel_type: str,
                            antialias: bool) -> np.ndarray:
    """(n_out, n_in): output pixel ``o`` samples the input at ``(o + 0.5 - translate) / scale``, the kernel
    widened by ``1 / scale`` when antialiasing a downscale, its weights normalised to sum 1."""
    # the sampling positions in float32 arithmetic, as the kernels compute them: the box kernel's edge
    # (|x| == 0.5) and the span ends are decided by exact comparisons
    f32 = np.float32
    kernel, radius = KERNELS[kernel_type]
    inv = f32(1.0) / f32(scale)
    shift = -inv * f32(translate)
    kernel_scale = max(inv, f32(1.0)) if antialias else f32(1.0)
    one_over = f32(1.0) / kernel_scale
    reach = f32(radius) * kernel_scale
    w = np.zeros((n_out, n_in))
    for o in range(n_out):
        sample = (f32(o) + f32(0.5)) * inv + shift
        if sample < 0 or sample > n_in:
            continue
        lo = min(max(math.ceil(sample - reach - f32(0.5)), 0), n_in - 1)
        hi = min(max(math.floor(sample + reach - f32(0.5)), 0), n_in - 1) + 1
        pos = (np.arange(lo, hi).astype(f32) + f32(0.5) - sample) * one_over
        weights = kernel(np.abs(pos).astype(np.float64))
        total = weights.sum()
        if abs(total) >= 1000.0 * np.finfo(f32).tiny:
            weights = weights / total
        w[o, lo:hi] = weights
    return w


def separable(images: Tensor, wy: np.ndarray, wx: np.ndarray) -> Tensor:
    """float32 ``Wy @ image @ Wx^T`` over the (H, W) of NHWC ``images``."""
    x = F.transpose(F.cast(images, dtypes.float32), (0, 3, 1, 2))
    y = F.matmul(F.matmul(Tensor(wy.astype(np.float32)), x), Tensor(wx.T.astype(np.float32)))
    return F.transpose(y, (0, 2, 3, 1))
