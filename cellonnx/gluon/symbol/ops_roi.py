"""Region-of-interest operators of detection exports: ``ROIPooling`` (Fast R-CNN's max pooling over each
region's bins) and ``_contrib_ROIAlign`` (Mask R-CNN's averaged bilinear samples), written with cellonnx ops
(so they differentiate with respect to the feature map and export). ``rois`` is (R, 5): batch index, x1,
y1, x2, y2 in input-image coordinates, scaled by ``spatial_scale``; as in MXNet, ``rois`` gets no
gradient."""

from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import ops
from cellonnx.graph import trace
from cellonnx.graph.trace import require_static
from cellonnx.mxnet._op._util import int_tuple
from cellonnx.ops.prims._eager import NotExportable
from cellonnx.tensor import Tensor

__all__ = ["ROI_OPS"]


def _regions(data: Tensor, rois: Tensor) -> tuple[Tensor, Tensor]:
    """The feature map of each region's image (R, C, H, W) and the rois without gradient."""
    rois = ops.stop_gradient(rois) + rois * 0.0  # connected, with zero gradient (MXNet's)
    batch = ops.cast(ops.stop_gradient(rois[:, 0]), np.int64)
    return ops.gather(data, batch, 0), rois


def _round(x: Tensor) -> Tensor:
    """C's round: halves away from zero."""
    return ops.sign(x) * ops.floor(ops.abs(x) + 0.5)


def roi_pooling(data: Tensor, rois: Tensor, pooled_size: Any = (1, 1), spatial_scale: float = 1.0,
                **_: Any) -> Tensor:
    """(R, C, PH, PW): the maximum of each bin of each region, 0 for an empty bin. The region's corners
    are rounded to feature cells; bin (ph, pw) spans rows floor(ph * h / PH) .. ceil((ph + 1) * h / PH)
    of its h = y2 - y1 + 1 rows (at least 1), clipped to the map."""
    ph_n, pw_n = int_tuple(pooled_size, 2, "pooled_size", "ROIPooling")
    feats, rois = _regions(data, rois)
    for d in data.shape[2:]:  # the bins are clipped with floats of the map's size
        require_static(d, "ROIPooling's bins hold a float of the map size, which", float_read=True)
    height, width = int(data.shape[2]), int(data.shape[3])
    corners = _round(ops.stop_gradient(rois[:, 1:5]) * float(spatial_scale))

    def bins(start: Tensor, end: Tensor, n: int, size: int) -> Tensor:
        """(R, n, size): which cells each of the n bins covers."""
        extent = ops.maximum(end - start + 1.0, 1.0) / float(n)  # (R,)
        k = Tensor(np.arange(n, dtype=np.float32))
        lo = ops.floor(ops.expand_dims(extent, 1) * k) + ops.expand_dims(start, 1)
        hi = ops.ceil(ops.expand_dims(extent, 1) * (k + 1.0)) + ops.expand_dims(start, 1)
        lo, hi = ops.clamp(lo, 0.0, float(size)), ops.clamp(hi, 0.0, float(size))
        cells = Tensor(np.arange(size, dtype=np.float32))
        return ops.logical_and(ops.greater_equal(cells, ops.expand_dims(lo, -1)),
                               ops.less(cells, ops.expand_dims(hi, -1)))

    rows = bins(corners[:, 1], corners[:, 3], ph_n, height)  # (R, PH, H)
    cols = bins(corners[:, 0], corners[:, 2], pw_n, width)  # (R, PW, W)
    low = Tensor(np.asarray(-np.inf, feats._data.dtype))
    # the maximum over each bin's columns, then over its rows
    x = ops.where(cols[:, None, None, :, :], ops.expand_dims(feats, 3), low)  # (R, C, H, PW, W)
    x = ops.amax(x, -1)  # (R, C, H, PW)
    x = ops.where(rows[:, None, :, :, None], ops.expand_dims(x, 2), low)  # (R, C, PH, H, PW)
    x = ops.amax(x, 3)  # (R, C, PH, PW)
    return ops.where(ops.isinf(x), ops.zeros_like(x), x)


def roi_align(data: Tensor, rois: Tensor, pooled_size: Any = (1, 1), spatial_scale: float = 1.0,
              sample_ratio: int = -1, position_sensitive: bool = False, aligned: bool = False,
              **_: Any) -> Tensor:
    """(R, C, PH, PW): each bin's average of a regular grid of bilinear samples at the centres of its cells
    (regions at least 1 cell wide unless ``aligned``, which also shifts by half a cell); samples beyond one
    cell outside the map count as 0. The grid is sample_ratio x sample_ratio, or with ``sample_ratio <= 0``
    (MXNet's default) ceil(region height / PH) x ceil(region width / PW) for each region, read from the
    rois' values."""
    if position_sensitive:
        raise NotImplementedError("_contrib_ROIAlign: position_sensitive=True is not supported")
    ph_n, pw_n = int_tuple(pooled_size, 2, "pooled_size", "ROIAlign")
    if int(sample_ratio) > 0:
        grid = int(sample_ratio)
        return _roi_align(data, rois, ph_n, pw_n, grid, grid, spatial_scale, aligned)
    tracer = trace.current()
    if tracer is not None and tracer.is_traced(rois):
        raise NotExportable("_contrib_ROIAlign with sample_ratio <= 0 sizes each region's sampling grid from "
                            "the rois' values, a graph would hold the example's; give sample_ratio > 0")
    box = rois._data[:, 1:5].astype(np.float32) * np.float32(spatial_scale)
    extent = box[:, 2:4] - box[:, 0:2]
    if not aligned:
        extent = np.maximum(extent, np.float32(1.0))
    grids = np.ceil(extent / np.array([pw_n, ph_n], np.float32)).astype(int).clip(min=1)
    parts = [_roi_align(data, rois[i:i + 1], ph_n, pw_n, int(grids[i, 1]), int(grids[i, 0]), spatial_scale,
                        aligned) for i in range(int(rois.shape[0]))]
    if not parts:
        return ops.zeros((0, int(data.shape[1]), ph_n, pw_n), data.dtype)
    return parts[0] if len(parts) == 1 else ops.concat(parts, 0)


def _roi_align(data: Tensor, rois: Tensor, ph_n: int, pw_n: int, grid_y: int, grid_x: int,
               spatial_scale: float, aligned: bool) -> Tensor:
    feats, rois = _regions(data, rois)
    height, width = int(data.shape[2]), int(data.shape[3])
    box = ops.stop_gradient(rois[:, 1:5]) * float(spatial_scale) - (0.5 if aligned else 0.0)

    def samples(start: Tensor, end: Tensor, n: int, size: int,
                grid: int) -> tuple[Tensor, Tensor, Tensor, Tensor]:
        """Per region (R, n * grid): low and high cell indices, the weight of the high one, validity."""
        extent = end - start
        if not aligned:
            extent = ops.maximum(extent, 1.0)
        offsets = np.array([p + (i + 0.5) / grid for p in range(n) for i in range(grid)], np.float32)
        pos = ops.expand_dims(start, 1) + ops.expand_dims(extent / float(n), 1) * Tensor(offsets)
        valid = ops.logical_and(ops.greater_equal(pos, -1.0), ops.less_equal(pos, float(size)))
        pos = ops.maximum(pos, 0.0)
        low = ops.floor(pos)
        edge = ops.greater_equal(low, float(size - 1))
        low = ops.where(edge, ops.full_like(low, float(size - 1)), low)
        high = ops.where(edge, low, low + 1.0)
        frac = ops.where(edge, ops.zeros_like(pos), pos - low)
        return ops.cast(low, np.int64), ops.cast(high, np.int64), frac, valid

    y0, y1, ly, vy = samples(box[:, 1], box[:, 3], ph_n, height, grid_y)  # (R, Y)
    x0, x1, lx, vx = samples(box[:, 0], box[:, 2], pw_n, width, grid_x)  # (R, X)
    r, c = int(feats.shape[0]), int(feats.shape[1])
    ny, nx = ph_n * grid_y, pw_n * grid_x

    # one region (the adaptive grid's case, whose samples may outnumber the cells): a plain gather
    def rows(index: Tensor) -> Tensor:  # (R, C, Y, W)
        if r == 1:
            return ops.gather(feats, index[0], 2)
        idx = ops.broadcast_to(index[:, None, :, None], (r, c, ny, width))
        return ops.gather_elements(feats, 2, idx)

    def cols(x: Tensor, index: Tensor) -> Tensor:  # (R, C, Y, X)
        if r == 1:
            return ops.gather(x, index[0], 3)
        idx = ops.broadcast_to(index[:, None, None, :], (r, c, ny, nx))
        return ops.gather_elements(x, 3, idx)

    top, bottom = rows(y0), rows(y1)
    wy1, wx1 = ly[:, None, :, None], lx[:, None, None, :]
    wy0, wx0 = 1.0 - wy1, 1.0 - wx1
    val = (cols(top, x0) * wy0 * wx0 + cols(top, x1) * wy0 * wx1 + cols(bottom, x0) * wy1 * wx0
           + cols(bottom, x1) * wy1 * wx1)
    inside = ops.logical_and(vy[:, None, :, None], vx[:, None, None, :])
    val = ops.where(inside, val, ops.zeros_like(val))
    return ops.mean(ops.reshape(val, (r, c, ph_n, grid_y, pw_n, grid_x)), (3, 5))


ROI_OPS = {"ROIPooling": roi_pooling, "_contrib_ROIAlign": roi_align}
