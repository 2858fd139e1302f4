"""OpenCV 3.4's ``cv::resize`` of uint8 images with INTER_CUBIC and INTER_LANCZOS4, bit for bit: per axis,
source positions ``(d + 0.5) * scale - 0.5`` in float32, the taps' weights in 11-bit fixed point (not
renormalised), edge pixels repeated past the borders; a horizontal pass in integers, then a vertical one
whose bicubic rows go through float32 eight values at a time (its SSE2 kernel) and the rest in integers."""
from __future__ import annotations

import numpy as np

from cellonnx.mxnet.cv_warp import _taps

__all__ = ["resize_u8"]

_SCALE = 2048  # INTER_RESIZE_COEF_SCALE


def _axis(src: int, dst: int, method: int) -> tuple[np.ndarray, np.ndarray]:
    """(dst, k) source indices (clamped) and (dst, k) int64 weights along one axis."""
    k = 4 if method == 2 else 8
    scale = 1.0 / (dst / src)
    idx, weights = np.zeros((dst, k), np.int64), np.zeros((dst, k), np.int64)
    for d in range(dst):
        f = np.float32((d + 0.5) * scale - 0.5)
        s = int(np.floor(f))
        f = np.float32(f - np.float32(s))
        weights[d] = np.clip(np.rint(_taps(method, f) * np.float32(_SCALE)), -32768, 32767)
        idx[d] = np.clip(s - k // 2 + 1 + np.arange(k), 0, src - 1)
    return idx, weights


def resize_u8(img: np.ndarray, width: int, height: int, method: int) -> np.ndarray:
    """``cv::resize(img, out, Size(width, height), 0, 0, method)`` of an (H, W, C) uint8 image, ``method``
    2 (bicubic) or 4 (Lanczos-4)."""
    rows, cols, channels = img.shape
    xi, xw = _axis(cols, width, method)
    yi, yw = _axis(rows, height, method)
    x = img.astype(np.int64)
    horiz = np.einsum("hwkc,wk->hwc", x[:, xi], xw)  # (rows, width, C), exact integers
    taps = horiz[yi]  # (height, k, width, C)
    if method == 4:
        total = np.einsum("ykwc,yk->ywc", taps, yw)
        return np.clip((total + (1 << 21)) >> 22, 0, 255).astype(np.uint8)
    flat = taps.reshape(height, 4, width * channels)
    out = np.empty((height, width * channels), np.int64)
    n_vec = (width * channels) // 8 * 8
    beta = yw.astype(np.float32) * np.float32(1.0 / (_SCALE * _SCALE))
    acc = flat[:, 0, :n_vec].astype(np.float32) * beta[:, 0:1]
    for j in range(1, 4):
        acc = acc + flat[:, j, :n_vec].astype(np.float32) * beta[:, j:j + 1]
    out[:, :n_vec] = np.clip(np.rint(acc), -32768, 32767)
    rest = (flat[:, :, n_vec:] * yw[:, :, None]).sum(1)
    out[:, n_vec:] = (rest + (1 << 21)) >> 22
    return np.clip(out, 0, 255).astype(np.uint8).reshape(height, width, channels)
