"""Rotated ROI align, ``_contrib_RROIAlign`` (text detection's rotated regions): each region (batch index,
center x, center y, width, height, angle in degrees) is cut into pooled bins, each bin averages bilinear
samples of a rotated grid. As MXNet's CPU kernel, in float32; the sample positions and weights are read from
the rois' values (so the operator runs eagerly) and the feature map is gathered with ops, so it gets a
gradient (MXNet's RROIAlign has no backward)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from cellonnx import ops
from cellonnx.mxnet._op._util import int_tuple
from cellonnx.tensor import Tensor

__all__ = ["RROI_OPS"]

_F = np.float32


def _rois(rois: Any) -> np.ndarray:
    if isinstance(rois, Tensor):
        return np.asarray(rois._data, np.float32)
    return np.asarray(rois.asnumpy() if hasattr(rois, "asnumpy") else rois, np.float32)


def _samples(roi: np.ndarray, height: int, width: int, ph_n: int, pw_n: int, scale: float,
             sampling_ratio: int) -> tuple[np.ndarray, np.ndarray, int]:
    """Flat positions (P, 4) and weights (P, 4) of every sample, ordered (ph, pw, iy, ix), and the samples
    per bin."""
    cw, ch = roi[1] * _F(scale), roi[2] * _F(scale)
    rw, rh = max(roi[3] * _F(scale), _F(1)), max(roi[4] * _F(scale), _F(1))
    theta = _F(roi[5] * math.pi / 180.0)
    start_h, start_w = -rh / _F(2), -rw / _F(2)
    bin_h, bin_w = rh / _F(ph_n), rw / _F(pw_n)
    gh = sampling_ratio if sampling_ratio > 0 else math.ceil(rh / ph_n)
    gw = sampling_ratio if sampling_ratio > 0 else math.ceil(rw / pw_n)
    cos_t, sin_t = np.cos(theta), np.sin(theta)
    ph, pw, iy, ix = np.meshgrid(np.arange(ph_n), np.arange(pw_n), np.arange(gh), np.arange(gw),
                                 indexing="ij")
    yy = start_h + ph.astype(np.float32) * bin_h + (iy.astype(np.float32) + _F(0.5)) * bin_h / _F(gh)
    xx = start_w + pw.astype(np.float32) * bin_w + (ix.astype(np.float32) + _F(0.5)) * bin_w / _F(gw)
    x = (xx * cos_t + yy * sin_t + cw).ravel().astype(np.float32)
    y = (yy * cos_t - xx * sin_t + ch).ravel().astype(np.float32)
    outside = (y < -1.0) | (y > height) | (x < -1.0) | (x > width)
    y, x = np.maximum(y, _F(0)), np.maximum(x, _F(0))
    y_low, x_low = y.astype(np.int64), x.astype(np.int64)
    y_edge, x_edge = y_low >= height - 1, x_low >= width - 1
    y_low = np.where(y_edge, height - 1, y_low)
    x_low = np.where(x_edge, width - 1, x_low)
    y_high = np.where(y_edge, y_low, y_low + 1)
    x_high = np.where(x_edge, x_low, x_low + 1)
    y = np.where(y_edge, y_low.astype(np.float32), y)
    x = np.where(x_edge, x_low.astype(np.float32), x)
    ly, lx = y - y_low, x - x_low
    hy, hx = _F(1) - ly, _F(1) - lx
    pos = np.stack([y_low * width + x_low, y_low * width + x_high, y_high * width + x_low,
                    y_high * width + x_high], -1)
    wts = np.stack([hy * hx, hy * lx, ly * hx, ly * lx], -1).astype(np.float32)
    pos[outside], wts[outside] = 0, 0.0
    return pos, wts, gh * gw


def rroi_align(data: Tensor, rois: Any, pooled_size: Any, spatial_scale: float, sampling_ratio: int = -1,
               **_: Any) -> Tensor:
    """(R, C, pooled_h, pooled_w) rotated-ROI-aligned features of ``data`` (N, C, H, W) for ``rois``
    (R, 6) of batch index, center x, center y, width, height (image units, times ``spatial_scale``) and
    angle (degrees, counter-clockwise); ``sampling_ratio`` samples per bin side (<= 0: ceil of the bin
    size)."""
    from cellonnx.ops import registry

    if registry.TRACE_HOOK is not None:
        raise NotImplementedError("RROIAlign reads its rois' values to place the samples and runs eagerly "
                                  "only; call it outside a hybridized block or an exported graph")
    ph_n, pw_n = int_tuple(pooled_size, 2, "pooled_size", "RROIAlign")
    c, h, w = (int(v) for v in data.shape[1:])
    outs = []
    for roi in _rois(rois):
        pos, wts, count = _samples(roi, h, w, ph_n, pw_n, float(spatial_scale), int(sampling_ratio))
        feat = ops.reshape(data[int(roi[0])], (c, h * w))
        picked = ops.gather(feat, Tensor(pos.reshape(-1)), 1)  # (C, P * 4)
        weighted = picked * Tensor(wts.reshape(1, -1), data.dtype)
        val = ops.sum(ops.reshape(weighted, (c, ph_n * pw_n, count * 4)), 2)
        outs.append(ops.reshape(val / float(count), (1, c, ph_n, pw_n)))
    return ops.concat(outs, 0)


RROI_OPS = {"_contrib_RROIAlign": rroi_align}
