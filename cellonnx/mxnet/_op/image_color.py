"""The color kernels of MXNet's image operators that take more than one line: the hue rotation through HLS
(OpenCV's conversion formulas as MXNet's kernel writes them, in float32) and the PCA lighting shift."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import ops
from cellonnx.tensor import Tensor

__all__ = ["adjust_hue", "lighting_shift"]

# AlexNet's lighting eigenvectors scaled by their eigenvalues (computed in double, stored as float)
_EIG = np.asarray([[55.46 * -0.5675, 4.794 * 0.7192, 1.148 * 0.4009],
                   [55.46 * -0.5808, 4.794 * -0.0045, 1.148 * -0.8140],
                   [55.46 * -0.5836, 4.794 * -0.6948, 1.148 * 0.4203]], np.float64).astype(np.float32)
# which of (p2, p1, falling, rising) gives B, G, R in each 60-degree sector
_SECTORS = ((1, 3, 0), (1, 0, 2), (3, 0, 1), (0, 2, 1), (0, 1, 3), (2, 1, 0))
_F = np.float32


def lighting_shift(alpha: Any) -> Any:
    """The (3,) float32 shift of R, G, B for lighting ``alpha`` (3 values or a (3,) Tensor)."""
    if isinstance(alpha, Tensor):
        a = [alpha[i] for i in range(3)]
        rows = [Tensor(_EIG[c, 0]) * a[0] + Tensor(_EIG[c, 1]) * a[1] + Tensor(_EIG[c, 2]) * a[2]
                for c in range(3)]
        return ops.stack(rows)
    a = np.asarray(alpha, np.float32).reshape(-1)
    if a.size != 3:
        raise ValueError(f"adjust_lighting: alpha must have 3 values (R, G, B), got {a.size}")
    return np.asarray([_EIG[c, 0] * a[0] + _EIG[c, 1] * a[1] + _EIG[c, 2] * a[2] for c in range(3)],
                      np.float32)


def _sel(cond: Tensor, a: Any, b: Any) -> Tensor:
    return ops.where(cond, a, b)


def _to_hls(r: Tensor, g: Tensor, b: Tensor) -> tuple[Tensor, Tensor, Tensor]:
    r, g, b = r / _F(255.0), g / _F(255.0), b / _F(255.0)
    vmax = ops.maximum(ops.maximum(r, g), b)
    vmin = ops.minimum(ops.minimum(r, g), b)
    diff = vmax - vmin
    light = (vmax + vmin) * _F(0.5)
    colored = diff > _F(np.finfo(np.float32).eps)
    one = _F(1.0)
    low = light < _F(0.5)
    low_c = ops.logical_and(low, colored)
    high_c = ops.logical_and(ops.logical_not(low), colored)
    s = _sel(low, diff / _sel(low_c, vmax + vmin, one), diff / _sel(high_c, _F(2.0) - vmax - vmin, one))
    step = _F(60.0) / _sel(colored, diff, one)
    is_r = vmax == r
    is_g = ops.logical_and(ops.logical_not(is_r), vmax == g)
    h = _sel(is_r, (g - b) * step, _sel(is_g, (b - r) * step + _F(120.0), (r - g) * step + _F(240.0)))
    h = _sel(h < _F(0.0), h + _F(360.0), h)
    zero = ops.zeros_like(h)
    return _sel(colored, h, zero), light, _sel(colored, s, zero)


def _to_rgb(h: Tensor, light: Tensor, s: Tensor) -> tuple[Tensor, Tensor, Tensor]:
    p2 = _sel(light <= _F(0.5), light * (_F(1.0) + s), light + s - light * s)
    p1 = _F(2.0) * light - p2
    h = h * _F(1.0 / 60.0)
    for _ in range(4):  # into [0, 6) a step of 6 at a time, as the kernel's loops do
        h = _sel(h < _F(0.0), h + _F(6.0), h)
        h = _sel(h >= _F(6.0), h - _F(6.0), h)
    sector = ops.floor(h)
    h = h - sector
    tab = (p2, p1, p1 + (p2 - p1) * (_F(1.0) - h), p1 + (p2 - p1) * h)
    out = []
    for channel in range(3):  # B, G, R
        value = tab[_SECTORS[5][channel]]
        for k in range(4, -1, -1):
            value = _sel(sector == _F(k), tab[_SECTORS[k][channel]], value)
        out.append(value)
    grey = s == _F(0.0)
    b, g, r = (_sel(grey, light, v) * _F(255.0) for v in out)
    return r, g, b


def adjust_hue(x: Tensor, alpha: Any) -> Tensor:
    """(..., 3) float32 RGB with the hue turned by ``alpha * 360`` degrees."""
    h, light, s = _to_hls(x[..., 0], x[..., 1], x[..., 2])
    r, g, b = _to_rgb(h + alpha * _F(360.0), light, s)
    return ops.stack([r, g, b], axis=-1)
