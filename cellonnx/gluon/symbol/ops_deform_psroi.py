"""Deformable R-FCN's ``_contrib_DeformablePSROIPooling``: position-sensitive ROI pooling whose bins move by
learned offsets (``trans``, one (dx, dy) per class and part, times ``trans_std`` and the region's size), each
bin the mean of ``sample_per_part``^2 bilinear samples inside the map. As MXNet's CPU kernel; the samples'
places come from the rois' values (so the operator runs eagerly), the feature map and the offsets get
gradients through ops."""

from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import ops
from cellonnx.tensor import Tensor

__all__ = ["DEFORM_PSROI_OPS"]

_F = np.float32


def _rois(rois: Any) -> np.ndarray:
    if isinstance(rois, Tensor):
        return np.asarray(rois._data, np.float32)
    return np.asarray(rois.asnumpy() if hasattr(rois, "asnumpy") else rois, np.float32)


def _c_round(x: np.ndarray) -> np.ndarray:
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


def deformable_psroi_pooling(data: Tensor, rois: Any, trans: Tensor | None = None, spatial_scale: float = 1.0,
                             output_dim: int = 1, group_size: int = 1, pooled_size: int = 1,
                             part_size: int = 0,
                             sample_per_part: int = 1, trans_std: float = 0.0, no_trans: bool = False,
                             **_: Any) -> Tensor:
    """(R, output_dim, pooled_size, pooled_size) deformable position-sensitive averages of ``data``
    (N, output_dim * group_size^2, H, W) over ``rois`` (R, 5), bins moved by ``trans`` (R, 2 * classes,
    part_size, part_size) unless ``no_trans``."""
    from cellonnx.ops import registry

    if registry.TRACE_HOOK is not None:
        raise NotImplementedError("DeformablePSROIPooling reads its rois' values to place the bins and runs "
                                  "eagerly only; call it outside a hybridized block or an exported graph")
    p, od, g = int(pooled_size), int(output_dim), int(group_size)
    part = int(part_size) or p
    sp = int(sample_per_part)
    _, c, h, w = (int(v) for v in data.shape)
    r = _rois(rois)
    nr = len(r)
    use_trans = not no_trans and trans is not None
    classes = int(trans.shape[1]) // 2 if use_trans else 1
    per_class = od // classes if use_trans else od
    scale = _F(spatial_scale)
    start_w = _c_round(r[:, 1]) * scale - _F(0.5)
    start_h = _c_round(r[:, 2]) * scale - _F(0.5)
    end_w = (_c_round(r[:, 3]) + 1) * scale - _F(0.5)
    end_h = (_c_round(r[:, 4]) + 1) * scale - _F(0.5)
    roi_w = np.maximum(end_w - start_w, _F(0.1))
    roi_h = np.maximum(end_h - start_h, _F(0.1))
    bin_w, bin_h = roi_w / _F(p), roi_h / _F(p)
    sub_w, sub_h = bin_w / _F(sp), bin_h / _F(sp)
    grid = np.arange(p)
    part_idx = np.floor(grid.astype(np.float32) / _F(p) * _F(part)).astype(np.int64)  # part_h of ph
    grp = np.clip(np.floor(grid.astype(np.float32) * g / p).astype(np.int64), 0, g - 1)  # gh of ph
    shape = (nr, od, p, p)
    rr = np.arange(nr)[:, None, None, None]
    ct = np.arange(od)[None, :, None, None]
    ph, pw = grid[None, None, :, None], grid[None, None, None, :]
    # bin starts without the offsets (R, 1, P, P), then the offsets' share (R, od, P, P)
    col = (slice(None), None, None, None)
    w0 = np.broadcast_to(pw.astype(np.float32) * bin_w[col] + start_w[col], shape)
    h0 = np.broadcast_to(ph.astype(np.float32) * bin_h[col] + start_h[col], shape)
    wstart, hstart = Tensor(np.ascontiguousarray(w0)), Tensor(np.ascontiguousarray(h0))
    if use_trans:
        cls = ct // per_class
        base = (rr * classes + cls) * 2
        ix = ((base * part + part_idx[ph]) * part + part_idx[pw])
        iy = (((base + 1) * part + part_idx[ph]) * part + part_idx[pw])
        flat_t = ops.reshape(trans, (-1,))
        tx = ops.gather(flat_t, Tensor(np.broadcast_to(ix, shape).astype(np.int64)), 0) * float(trans_std)
        ty = ops.gather(flat_t, Tensor(np.broadcast_to(iy, shape).astype(np.int64)), 0) * float(trans_std)
        wstart = wstart + tx * Tensor(roi_w[:, None, None, None])
        hstart = hstart + ty * Tensor(roi_h[:, None, None, None])
    ih, iw = np.meshgrid(np.arange(sp), np.arange(sp), indexing="ij")
    ws = ops.expand_dims(wstart, -1) + Tensor((iw.ravel()[None, :] * sub_w[:, None]).reshape(nr, 1, 1, 1, -1))
    hs = ops.expand_dims(hstart, -1) + Tensor((ih.ravel()[None, :] * sub_h[:, None]).reshape(nr, 1, 1, 1, -1))
    valid = (ws >= -0.5) & (ws <= float(w) - 0.5) & (hs >= -0.5) & (hs <= float(h) - 0.5)
    ws = ops.clip(ws, 0.0, float(w - 1))
    hs = ops.clip(hs, 0.0, float(h - 1))
    x1, y1 = ops.floor(ops.stop_gradient(ws)), ops.floor(ops.stop_gradient(hs))
    x2, y2 = ops.ceil(ops.stop_gradient(ws)), ops.ceil(ops.stop_gradient(hs))
    dx, dy = ws - x1, hs - y1
    chan = (ct * g + grp[ph]) * g + grp[pw]  # (1, od, P, P)
    plane = Tensor(((r[:, 0].astype(np.int64)[:, None, None, None] * c + chan) * h * w)[..., None])
    flat = ops.reshape(data, (-1,))

    def at(yy: Tensor, xx: Tensor) -> Tensor:
        return ops.gather(flat, plane + ops.cast(yy, np.int64) * w + ops.cast(xx, np.int64), 0)

    val = ((1.0 - dx) * (1.0 - dy) * at(y1, x1) + (1.0 - dx) * dy * at(y2, x1) + dx * (1.0 - dy) * at(y1, x2)
           + dx * dy * at(y2, x2))
    val = ops.where(valid, val, ops.zeros_like(val))
    count = ops.sum(ops.cast(valid, val.dtype), -1)
    total = ops.sum(val, -1)
    return ops.where(count > 0.0, total / ops.maximum(count, 1.0), ops.zeros_like(total))


DEFORM_PSROI_OPS = {"_contrib_DeformablePSROIPooling": deformable_psroi_pooling}
