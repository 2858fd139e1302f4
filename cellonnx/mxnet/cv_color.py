"""OpenCV 3.4's uint8 colour kernels that MXNet 1.9.1's image augmenter calls, bit for bit: ``cvtColor``
to gray (14-bit fixed point) and to / from HLS (float32 arithmetic, 8-bit H in [0, 180]),
``Mat::convertTo`` with a scale and shift and ``addWeighted`` (float32, rounded half to even, saturated).
Images are (H, W, 3) uint8 in OpenCV's channel order."""
from __future__ import annotations

import numpy as np

__all__ = ["add_weighted", "bgr_to_hls", "convert_scale", "gray", "hls_to_bgr"]

_F = np.float32


def _saturate(values: np.ndarray) -> np.ndarray:
    return np.clip(np.rint(values), 0, 255).astype(np.uint8)


def gray(img: np.ndarray, red_first: bool = True) -> np.ndarray:
    """``cvtColor(img, RGB2GRAY)`` (``red_first``) or ``BGR2GRAY``: (H, W) uint8."""
    r, g, b = (4899, 9617, 1868) if red_first else (1868, 9617, 4899)
    x = img.astype(np.int64)
    return ((x[..., 0] * r + x[..., 1] * g + x[..., 2] * b + (1 << 13)) >> 14).astype(np.uint8)


def convert_scale(img: np.ndarray, alpha: float, beta: float) -> np.ndarray:
    """``img.convertTo(out, -1, alpha, beta)``: ``x * alpha + beta`` in float32, saturated to uint8."""
    return _saturate(img.astype(_F) * _F(alpha) + _F(beta))


def add_weighted(a: np.ndarray, alpha: float, b: np.ndarray, beta: float, gamma: float) -> np.ndarray:
    """``addWeighted(a, alpha, b, beta, gamma)`` in float32, saturated to uint8."""
    return _saturate((a.astype(_F) * _F(alpha) + b.astype(_F) * _F(beta)) + _F(gamma))


def bgr_to_hls(img: np.ndarray) -> np.ndarray:
    """``cvtColor(img, BGR2HLS)``: (H, W, 3) uint8 H (degrees / 2), L, S."""
    x = img.astype(_F) * _F(1.0 / 255.0)
    b, g, r = x[..., 0], x[..., 1], x[..., 2]
    vmax = np.maximum(np.maximum(r, g), b)
    vmin = np.minimum(np.minimum(r, g), b)
    diff = vmax - vmin
    light = (vmax + vmin) * _F(0.5)
    colour = diff > np.finfo(np.float32).eps
    with np.errstate(divide="ignore", invalid="ignore"):
        sat = np.where(light < _F(0.5), diff / (vmax + vmin), diff / (_F(2) - vmax - vmin))
        step = _F(60) / diff
        hue = np.where(vmax == r, (g - b) * step,
                       np.where(vmax == g, (b - r) * step + _F(120), (r - g) * step + _F(240)))
    hue = np.where(hue < 0, hue + _F(360), hue)
    hue, sat = np.where(colour, hue, _F(0)), np.where(colour, sat, _F(0))
    return np.stack([_saturate(hue * _F(0.5)), _saturate(light * _F(255)), _saturate(sat * _F(255))], -1)


_SECTORS = np.array([[1, 3, 0], [1, 0, 2], [3, 0, 1], [0, 2, 1], [0, 1, 3], [2, 1, 0]])


def hls_to_bgr(img: np.ndarray) -> np.ndarray:
    """``cvtColor(img, HLS2BGR)`` of (H, W, 3) uint8 H (degrees / 2), L, S."""
    h = img[..., 0].astype(_F)
    light = img[..., 1].astype(_F) * _F(1.0 / 255.0)
    sat = img[..., 2].astype(_F) * _F(1.0 / 255.0)
    p2 = np.where(light <= _F(0.5), light * (_F(1) + sat), light + sat - light * sat)
    p1 = _F(2) * light - p2
    h = h * (_F(6) / _F(180))
    h = np.where(h >= _F(6), h - _F(6), h)  # h is at most 180 * (6 / 180): one turn at most
    sector = np.floor(h).astype(np.int64)
    h = h - sector.astype(_F)
    tab = np.stack([p2, p1, p1 + (p2 - p1) * (_F(1) - h), p1 + (p2 - p1) * h], -1)
    picks = _SECTORS[np.clip(sector, 0, 5)]
    bgr = np.take_along_axis(tab, picks, -1)
    bgr = np.where((sat == 0)[..., None], light[..., None], bgr)
    return _saturate(bgr * _F(255))
