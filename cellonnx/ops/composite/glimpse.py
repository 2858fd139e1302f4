"""Glimpses (windows) of NHWC images, as MindSpore's ``ops.ExtractGlimpse`` (TensorFlow's kernel, which
MindSpore follows).

Each window's centre is given per image as (y, x): in pixels from the top-left corner, or, when
``centered``, in half-sizes of the image from its centre (``y / 2 + H / 2``: pixels offsets are halved too,
as MindSpore's kernel does); ``normalized`` offsets are first multiplied by the image size. The
window's top-left pixel is the centre minus half the window, truncated toward zero. Pixels outside the image
are noise: 'zero', 'uniform' (between the image's per-channel minimum and maximum) or 'gaussian' (its
per-channel mean and standard deviation), drawn from cellonnx's random streams. The window is read by
padding and slicing, so the image gets a gradient (the noise does not depend on it).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import ops as _ops
from cellonnx.tensor import Tensor

F: Any = _ops

__all__: list[str] = []


def window_origin(offset: tuple[float, float], size: tuple[int, int], window: tuple[int, int], centered: bool,
                  normalized: bool) -> tuple[int, int]:
    """The (row, column) of a window's top-left pixel (float32 arithmetic, truncated toward zero)."""
    f32 = np.float32
    origin = []
    for v, n, w in zip(offset, size, window):
        v = f32(v)
        if normalized:
            v = v * f32(n)
        if centered:  # MindSpore halves centred offsets in pixels too (its CPU kernel; TensorFlow does not)
            v = v / f32(2.0) + f32(n) / f32(2.0)
        origin.append(int(v - f32(w) / f32(2.0)))
    return origin[0], origin[1]


def extract_glimpse(x: Tensor, size: tuple[int, int], offsets: np.ndarray, centered: bool, normalized: bool,
                    noise: str, rng: np.random.Generator) -> Tensor:
    """(N, gh, gw, C) windows of the (N, H, W, C) float ``x`` at ``offsets`` (N, 2); see the module."""
    from cellonnx.graph.trace import require_static
    require_static(x.shape[0], "extract_glimpse cuts one window per image and")
    for d in x.shape[1:3]:
        require_static(d, "extract_glimpse places its windows by a float of the image size, which",
                       float_read=True)
    n, h, w, c = (int(v) for v in x.shape)
    gh, gw = size
    xp = F.pad(x, (0, 0, gw, gw, gh, gh))  # room for a window wholly outside the image
    data = x.asnumpy() if noise != "zero" else None
    parts = []
    for b in range(n):
        r0, c0 = window_origin((offsets[b, 0], offsets[b, 1]), (h, w), (gh, gw), centered, normalized)
        r0, c0 = min(max(r0, -gh), h), min(max(c0, -gw), w)  # beyond that the window is all noise anyway
        win = xp[b:b + 1, r0 + gh:r0 + 2 * gh, c0 + gw:c0 + 2 * gw]
        rows, cols = np.arange(r0, r0 + gh), np.arange(c0, c0 + gw)
        outside = ~(((rows >= 0) & (rows < h))[:, None] & ((cols >= 0) & (cols < w))[None, :])
        if noise != "zero" and outside.any():
            img = data[b].reshape(-1, c).astype(np.float64)
            if noise == "uniform":
                fill = rng.uniform(img.min(0), img.max(0), (gh, gw, c))
            else:
                fill = rng.normal(img.mean(0), img.std(0), (gh, gw, c))
            fill = np.where(outside[:, :, None], fill, 0.0).astype(data.dtype)
            win = win + Tensor(fill[None])
        parts.append(win)
    return F.concat(parts, 0)
