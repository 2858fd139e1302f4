"""Deformable convolutions of MXNet 1.9.1's contrib set: ``_contrib_DeformableConvolution`` (v1: every kernel
tap sampled bilinearly at its place moved by a learned offset) and ``_contrib_ModulatedDeformableConvolution``
(v2: the samples also scaled by a learned mask), written with cellonnx ops - gathers of the four neighbours
and their bilinear weights, then a grouped matrix product - so they differentiate with respect to the data,
the offsets, the mask, the weight and the bias, and export.

The two follow MXNet's CPU kernels, which sample differently: v1 takes positions in [0, H) x [0, W) (0
outside) and clamps the far neighbours at the last row / column; v2 takes positions in (-1, H) x (-1, W) with
neighbours outside the map read as 0."""

from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import ops
from cellonnx.graph.trace import require_static
from cellonnx.mxnet._op._util import int_tuple
from cellonnx.tensor import Tensor

__all__ = ["DEFORM_OPS"]


def _sample(data: Tensor, ys: Tensor, xs: Tensor, groups: int, clamp: bool) -> Tensor:
    """Bilinear samples of ``data`` (N, C, H, W) at (N, groups, S) positions, channel group g at group g's
    positions: (N, C, S)."""
    for d in data.shape[2:]:  # positions are compared with floats of the map's size
        require_static(d, "a deformable convolution's sampling bounds hold a float of the map size, which",
                       float_read=True)
    c, h, w = (int(v) for v in data.shape[1:])
    s = int(ys.shape[-1])
    if clamp:
        valid = (ys >= 0.0) & (xs >= 0.0) & (ys < float(h)) & (xs < float(w))
        y0, x0 = ops.floor(ys), ops.floor(xs)
        y_edge, x_edge = y0 >= float(h - 1), x0 >= float(w - 1)
        ys = ops.where(y_edge, y0, ys)
        xs = ops.where(x_edge, x0, xs)
        y1 = ops.where(y_edge, y0, y0 + 1.0)
        x1 = ops.where(x_edge, x0, x0 + 1.0)
        inside = [valid] * 4
    else:
        valid = (ys > -1.0) & (xs > -1.0) & (ys < float(h)) & (xs < float(w))
        y0, x0 = ops.floor(ys), ops.floor(xs)
        y1, x1 = y0 + 1.0, x0 + 1.0
        ok_y0, ok_x0 = valid & (y0 >= 0.0), valid & (x0 >= 0.0)
        ok_y1, ok_x1 = valid & (y1 <= float(h - 1)), valid & (x1 <= float(w - 1))
        inside = [ok_y0 & ok_x0, ok_y0 & ok_x1, ok_y1 & ok_x0, ok_y1 & ok_x1]
    ly, lx = ys - ops.stop_gradient(y0), xs - ops.stop_gradient(x0)
    hy, hx = 1.0 - ly, 1.0 - lx
    flat = ops.reshape(data, (-1, c * h * w))
    # the first element of each (group, channel) map in a sample's flattened data
    first = Tensor((np.arange(c) * (h * w)).reshape(1, groups, c // groups, 1).astype(np.int64))
    out = None
    for (yy, xx, wt), ok in zip(((y0, x0, hy * hx), (y0, x1, hy * lx), (y1, x0, ly * hx), (y1, x1, ly * lx)),
                                inside):
        yi = ops.cast(ops.clip(ops.stop_gradient(yy), 0.0, float(h - 1)), np.int64)
        xi = ops.cast(ops.clip(ops.stop_gradient(xx), 0.0, float(w - 1)), np.int64)
        index = ops.reshape(first + ops.expand_dims(yi * w + xi, 2), (-1, c * s))  # (N, C * S)
        picked = ops.reshape(ops.gather(flat, index, 1, batch_dims=1), (-1, groups, c // groups, s))
        term = picked * ops.expand_dims(ops.where(ok, wt, ops.zeros_like(wt)), 2)
        out = term if out is None else out + term
    return ops.reshape(out, (-1, c, s))


def _deformable(data: Tensor, offset: Tensor, mask: Tensor | None, weight: Tensor, bias: Tensor | None,
                kernel: Any, stride: Any, dilate: Any, pad: Any, num_filter: int, num_group: int,
                num_deformable_group: int, no_bias: bool, op: str, clamp: bool) -> Tensor:
    if data.ndim != 4:
        raise NotImplementedError(f"{op}: only 2-d (NCHW) inputs are supported, got shape "
                                  f"{tuple(data.shape)}")
    kh, kw = int_tuple(kernel, 2, "kernel", op)
    sh, sw = int_tuple(stride or 1, 2, "stride", op)
    dh, dw = int_tuple(dilate or 1, 2, "dilate", op)
    ph, pw = int_tuple(pad or 0, 2, "pad", op)
    c, h, w = (int(s) for s in data.shape[1:])
    dg, g, k = int(num_deformable_group), int(num_group), kh * kw
    ho = (h + 2 * ph - (dh * (kh - 1) + 1)) // sh + 1
    wo = (w + 2 * pw - (dw * (kw - 1) + 1)) // sw + 1
    if tuple(int(v) for v in offset.shape[1:]) != (2 * k * dg, ho, wo):
        raise ValueError(f"{op}: offset must be (N, {2 * k * dg}, {ho}, {wo}), got {tuple(offset.shape)}")
    if c % dg or c % g:
        raise ValueError(f"{op}: {c} channels do not split into {dg} deformable groups and {g} groups")
    base_y = (np.arange(kh)[:, None, None, None] * dh + np.arange(ho)[None, None, :, None] * sh - ph)
    base_x = (np.arange(kw)[None, :, None, None] * dw + np.arange(wo)[None, None, None, :] * sw - pw)
    base_y = np.broadcast_to(base_y, (kh, kw, ho, wo)).reshape(k, ho, wo).astype(np.float32)
    base_x = np.broadcast_to(base_x, (kh, kw, ho, wo)).reshape(k, ho, wo).astype(np.float32)
    off = ops.reshape(offset, (-1, dg, k, 2, ho, wo))
    ys = ops.reshape(off[:, :, :, 0] + Tensor(base_y, data.dtype), (-1, dg, k * ho * wo))
    xs = ops.reshape(off[:, :, :, 1] + Tensor(base_x, data.dtype), (-1, dg, k * ho * wo))
    cols = _sample(data, ys, xs, dg, clamp)  # (N, C, K * Ho * Wo)
    cols = ops.reshape(cols, (-1, dg, c // dg, k, ho * wo))
    if mask is not None:
        if tuple(int(v) for v in mask.shape[1:]) != (k * dg, ho, wo):
            raise ValueError(f"{op}: mask must be (N, {k * dg}, {ho}, {wo}), got {tuple(mask.shape)}")
        cols = cols * ops.expand_dims(ops.reshape(mask, (-1, dg, k, ho * wo)), 2)
    cols = ops.reshape(cols, (-1, g, (c // g) * k, ho * wo))
    f = int(num_filter)
    wmat = ops.reshape(weight, (1, g, f // g, (c // g) * k))
    out = ops.reshape(ops.matmul(wmat, cols), (-1, f, ho, wo))
    if not no_bias and bias is not None:
        out = out + ops.reshape(bias, (1, f, 1, 1))
    return out


def deformable_convolution(data: Tensor, offset: Tensor, weight: Tensor, bias: Tensor | None = None,
                           kernel: Any = None, stride: Any = (), dilate: Any = (), pad: Any = (),
                           num_filter: int | None = None, num_group: int = 1, num_deformable_group: int = 1,
                           no_bias: bool = False, layout: Any = None, **_: Any) -> Tensor:
    """Deformable convolution v1: ``data`` (N, C, H, W), ``offset`` (N, 2 * kH * kW * deformable groups, Ho,
    Wo) of (dy, dx) pairs per tap, ``weight`` (num_filter, C / num_group, kH, kW)."""
    return _deformable(data, offset, None, weight, bias, kernel, stride, dilate, pad,
                       num_filter or int(weight.shape[0]), num_group, num_deformable_group, bool(no_bias),
                       "DeformableConvolution", clamp=True)


def modulated_deformable_convolution(data: Tensor, offset: Tensor, mask: Tensor, weight: Tensor,
                                     bias: Tensor | None = None, kernel: Any = None, stride: Any = (),
                                     dilate: Any = (), pad: Any = (), num_filter: int | None = None,
                                     num_group: int = 1, num_deformable_group: int = 1, no_bias: bool = False,
                                     layout: Any = None, **_: Any) -> Tensor:
    """Deformable convolution v2: as v1, each sample also scaled by ``mask`` (N, kH * kW * deformable groups,
    Ho, Wo)."""
    return _deformable(data, offset, mask, weight, bias, kernel, stride, dilate, pad,
                       num_filter or int(weight.shape[0]), num_group, num_deformable_group, bool(no_bias),
                       "ModulatedDeformableConvolution", clamp=False)


DEFORM_OPS = {"_contrib_DeformableConvolution": deformable_convolution,
              "_contrib_ModulatedDeformableConvolution": modulated_deformable_convolution}
