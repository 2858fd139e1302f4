"""OpenCV 3.4's ``cv::warpAffine`` on uint8 images, bit for bit (the OpenCV that MXNet 1.9.1's wheel links):
the matrix inverted in double, source positions in 1/32 pixel steps from 10-bit fixed point, and the 2x2
(bilinear, area), 4x4 (bicubic) or 8x8 (Lanczos-4) taps weighted by OpenCV's 15-bit tables, outside pixels
taking the border value."""
from __future__ import annotations

from functools import cache

import numpy as np

__all__ = ["warp_affine"]

_TAB = 32  # INTER_TAB_SIZE: 5 fraction bits
_AB_BITS = 10
_COEF_SCALE = 1 << 15
_KSIZE = {1: 2, 2: 4, 3: 2, 4: 8}


def _taps(method: int, x: np.float32) -> np.ndarray:
    """OpenCV's 1-D interpolation weights (float32) at fraction ``x``."""
    f = np.float32
    if method in (1, 3):
        return np.array([f(1) - x, x], np.float32)
    if method == 2:
        a = f(-0.75)
        c0 = ((a * (x + f(1)) - f(5) * a) * (x + f(1)) + f(8) * a) * (x + f(1)) - f(4) * a
        c1 = ((a + f(2)) * x - (a + f(3))) * x * x + f(1)
        c2 = ((a + f(2)) * (f(1) - x) - (a + f(3))) * (f(1) - x) * (f(1) - x) + f(1)
        return np.array([c0, c1, c2, f(1) - c0 - c1 - c2], np.float32)
    if x < np.finfo(np.float32).eps:
        out = np.zeros(8, np.float32)
        out[3] = 1
        return out
    s45 = 0.70710678118654752440084436210485
    cs = [(1, 0), (-s45, -s45), (0, 1), (s45, -s45), (-1, 0), (s45, s45), (0, -1), (-s45, s45)]
    y0 = -(float(x) + 3) * np.pi * 0.25
    s0, c0 = np.sin(y0), np.cos(y0)
    coeffs = np.zeros(8, np.float32)
    total = f(0)
    for i in range(8):
        y = -(float(x) + 3 - i) * np.pi * 0.25
        coeffs[i] = f((cs[i][0] * s0 + cs[i][1] * c0) / (y * y))
        total = f(total + coeffs[i])
    return coeffs * (f(1) / total)


@cache
def _table(method: int) -> np.ndarray:
    """(32 * 32, k, k) int64: OpenCV's fixed-point 2-D weights per (y fraction, x fraction), each set summing
    to 2**15 (the rounding error put on the largest or smallest of the central taps)."""
    k = _KSIZE[method]
    one = [_taps(method, np.float32(i) * np.float32(1.0 / _TAB)) for i in range(_TAB)]
    out = np.zeros((_TAB * _TAB, k, k), np.int64)
    for i in range(_TAB):
        for j in range(_TAB):
            v = (one[i][:, None] * one[j][None, :]) * np.float32(_COEF_SCALE)
            # flat, with room past the end: for the 2x2 taps OpenCV's search of the "central" taps reads
            # (still zero) entries of the next set
            itab = np.zeros(2 * k * k, np.int64)
            itab[:k * k] = np.clip(np.rint(v), -32768, 32767).ravel()
            diff = int(itab[:k * k].sum()) - _COEF_SCALE
            if diff:
                c = k // 2
                lo = hi = c * k + c
                for k1 in range(c, c + 2):
                    for k2 in range(c, c + 2):
                        if itab[k1 * k + k2] < itab[lo]:
                            lo = k1 * k + k2
                        elif itab[k1 * k + k2] > itab[hi]:
                            hi = k1 * k + k2
                itab[hi if diff < 0 else lo] -= diff
            out[i * _TAB + j] = itab[:k * k].reshape(k, k)
    return out


def _inverse(m: np.ndarray) -> np.ndarray:
    """The inverse affine map of the float32 2x3 ``m``, in double, as warpAffine computes it."""
    m0, m1, m2, m3, m4, m5 = (float(v) for v in np.asarray(m, np.float32).ravel())
    d = m0 * m4 - m1 * m3
    d = 1.0 / d if d != 0 else 0.0
    a11, a22 = m4 * d, m0 * d
    m0, m1, m3, m4 = a11, m1 * -d, m3 * -d, a22
    return np.array([m0, m1, -m0 * m2 - m1 * m5, m3, m4, -m3 * m2 - m4 * m5])


def warp_affine(src: np.ndarray, m: np.ndarray, width: int, height: int, method: int,
                fill: int) -> np.ndarray:
    """``cv::warpAffine(src, dst, m, Size(width, height), method, BORDER_CONSTANT, fill)`` of an (H, W, C)
    uint8 image; ``method`` 0 nearest, 1 bilinear, 2 bicubic, 3 area (bilinear here, as OpenCV does),
    4 Lanczos-4."""
    inv = _inverse(m)
    xs, ys = np.arange(width, dtype=np.float64), np.arange(height, dtype=np.float64)
    scale = float(1 << _AB_BITS)
    adelta = np.rint(inv[0] * xs * scale).astype(np.int64)
    bdelta = np.rint(inv[3] * xs * scale).astype(np.int64)
    delta = (1 << _AB_BITS) // 2 if method == 0 else (1 << _AB_BITS) // _TAB // 2
    x0 = np.rint((inv[1] * ys + inv[2]) * scale).astype(np.int64) + delta
    y0 = np.rint((inv[4] * ys + inv[5]) * scale).astype(np.int64) + delta
    gx, gy = x0[:, None] + adelta[None, :], y0[:, None] + bdelta[None, :]
    rows, cols, channels = src.shape
    img = src.astype(np.int64)
    if method == 0:
        sx, sy = gx >> _AB_BITS, gy >> _AB_BITS
        inside = (sx >= 0) & (sx < cols) & (sy >= 0) & (sy < rows)
        picked = img[np.clip(sy, 0, rows - 1), np.clip(sx, 0, cols - 1)]
        return np.where(inside[..., None], picked, fill).astype(np.uint8)
    gx, gy = gx >> (_AB_BITS - 5), gy >> (_AB_BITS - 5)
    weights = _table(method)[(gy & (_TAB - 1)) * _TAB + (gx & (_TAB - 1))]  # (h, w, k, k)
    k = weights.shape[-1]
    first = k // 2 - 1
    total = np.zeros((height, width, channels), np.int64)
    for ky in range(k):
        sy = (gy >> 5) - first + ky
        for kx in range(k):
            sx = (gx >> 5) - first + kx
            inside = (sx >= 0) & (sx < cols) & (sy >= 0) & (sy < rows)
            value = np.where(inside[..., None], img[np.clip(sy, 0, rows - 1), np.clip(sx, 0, cols - 1)],
                             fill)
            total += value * weights[:, :, ky, kx][..., None]
    return np.clip((total + (1 << 14)) >> 15, 0, 255).astype(np.uint8)
