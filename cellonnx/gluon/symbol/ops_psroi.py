"""R-FCN's position-sensitive ROI pooling, ``_contrib_PSROIPooling``: each (ph, pw) bin of a region averages
its own channel group ``(ctop * group_size + gh) * group_size + gw`` over the bin's cells. The bins' cell
rectangles come from the rois (which get no gradient, as in MXNet); the averages are differences of a
summed-area table gathered at the rectangles' corners, so the operator differentiates with respect to the
feature map. The rectangles are read from the rois' values, so a traced graph (hybridize, export) cannot hold
the operator."""

from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import ops
from cellonnx.tensor import Tensor

__all__ = ["PSROI_OPS"]


def _c_round(x: np.ndarray) -> np.ndarray:
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


def _rois(rois: Any) -> np.ndarray:
    if isinstance(rois, Tensor):
        return np.asarray(rois._data, np.float32)
    return np.asarray(rois.asnumpy() if hasattr(rois, "asnumpy") else rois, np.float32)


def psroi_pooling(data: Tensor, rois: Tensor, spatial_scale: float, output_dim: int, pooled_size: int,
                  group_size: int = 0, **_: Any) -> Tensor:
    """(R, output_dim, pooled_size, pooled_size) position-sensitive averages of ``data`` (N, C, H, W) with
    C = output_dim * group_size^2 (group_size 0: pooled_size), for ``rois`` (R, 5) of batch index and
    corners (rounded, the end inclusive, then scaled by ``spatial_scale``); empty bins give 0."""
    from cellonnx.ops import registry

    if registry.TRACE_HOOK is not None:
        raise NotImplementedError("PSROIPooling reads its rois' values to place the bins and runs eagerly "
                                  "only; call it outside a hybridized block or an exported graph")
    p, od = int(pooled_size), int(output_dim)
    g = int(group_size) or p
    _, c, h, w = (int(s) for s in data.shape)
    if c != od * g * g:
        raise ValueError(f"PSROIPooling: data has {c} channels, expected output_dim * group_size^2 = "
                         f"{od} * {g}^2 = {od * g * g}")
    r = _rois(rois)
    scale = np.float32(spatial_scale)
    start_w, start_h = _c_round(r[:, 1]) * scale, _c_round(r[:, 2]) * scale
    end_w, end_h = (_c_round(r[:, 3]) + 1) * scale, (_c_round(r[:, 4]) + 1) * scale
    bin_h = np.maximum(end_h - start_h, np.float32(0.1)) / np.float32(p)
    bin_w = np.maximum(end_w - start_w, np.float32(0.1)) / np.float32(p)
    grid = np.arange(p, dtype=np.float32)
    hs = np.clip(np.floor(grid[None] * bin_h[:, None] + start_h[:, None]), 0, h).astype(np.int64)  # (R, P)
    he = np.clip(np.ceil((grid[None] + 1) * bin_h[:, None] + start_h[:, None]), 0, h).astype(np.int64)
    ws = np.clip(np.floor(grid[None] * bin_w[:, None] + start_w[:, None]), 0, w).astype(np.int64)
    we = np.clip(np.ceil((grid[None] + 1) * bin_w[:, None] + start_w[:, None]), 0, w).astype(np.int64)
    group = np.clip(np.floor(grid * g / p), 0, g - 1).astype(np.int64)  # gh of each ph (gw of each pw)
    chan = (np.arange(od)[:, None, None] * g + group[None, :, None]) * g + group[None, None, :]  # (od, P, P)
    # corners of every (roi, ctop, ph, pw) bin in the (H + 1) x (W + 1) summed-area table, flattened
    y0, y1 = hs[:, None, :, None], he[:, None, :, None]
    x0, x1 = ws[:, None, None, :], we[:, None, None, :]
    base = chan[None] * (h + 1) * (w + 1)
    corners = [base + y * (w + 1) + x for y, x in ((y1, x1), (y0, x1), (y1, x0), (y0, x0))]
    index = np.stack([np.broadcast_to(k, (len(r), od, p, p)) for k in corners], -1).reshape(len(r), -1)
    area = ((he - hs)[:, None, :, None] * (we - ws)[:, None, None, :]).astype(np.float32)
    empty = area <= 0
    batch = Tensor(r[:, 0].astype(np.int64))
    feats = ops.gather(data, batch, 0)  # (R, C, H, W)
    table = ops.pad(ops.cumsum(ops.cumsum(feats, 2), 3), (1, 0, 1, 0))  # (R, C, H + 1, W + 1)
    picked = ops.gather_elements(ops.reshape(table, (len(r), -1)), 1, Tensor(index))
    picked = ops.reshape(picked, (len(r), od, p, p, 4))
    sums = picked[..., 0] - picked[..., 1] - picked[..., 2] + picked[..., 3]
    weight = np.where(empty, 0.0, 1.0 / np.where(empty, 1.0, area)).astype(np.float32)
    return sums * Tensor(np.ascontiguousarray(np.broadcast_to(weight, (len(r), od, p, p))), data.dtype)


PSROI_OPS = {"_contrib_PSROIPooling": psroi_pooling}
