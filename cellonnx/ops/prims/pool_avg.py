"""Average pooling over 1-D and 2-D windows: AvgPool and its gradient AvgPoolGrad (linear; each is the
other's adjoint) with the functional avg_pool2d / avg_pool1d (ceil_mode, count_include_pad,
divisor_override and MindSpore's pad modes).

NumPy: one strided add per kernel position, then a divisor per output position; the gradient spreads the
divided values back the same way (col2im).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.ops.prims.conv import SCRATCH, compute_dtype, int_tuple, pad2d, require_static, to2d
from cellonnx.ops.prims.pool import (
    check_input,
    check_output,
    geometry,
    lift2d,
    onnx_ceil,
    onnx_col2im,
    pool_pads,
    window_views,
)
from cellonnx.ops.registry import Op
from cellonnx.tensor import Tensor


def avg_divisor(spatial: tuple, kernel: tuple, stride: tuple, pads: tuple, outs: tuple, count_include_pad: bool,
                divisor_override: int | None, dtype: np.dtype) -> np.ndarray:
    """The divisor of each output position (PyTorch's / MindSpore's rule), shape outs."""
    nd = len(kernel)
    if divisor_override:
        return np.full(outs, float(divisor_override), dtype)
    div = np.ones(outs, dtype)
    for i in range(nd):
        start = np.arange(outs[i]) * stride[i] - pads[i]
        end = np.minimum(start + kernel[i], int(spatial[i]) + pads[i + nd])
        if not count_include_pad:
            start, end = np.maximum(start, 0), np.minimum(end, int(spatial[i]))
        shape = [1] * nd
        shape[i] = outs[i]
        div = div * (end - start).reshape(shape).astype(dtype)
    return div


def avg_pool_forward(x: np.ndarray, kernel: tuple, stride: tuple, pads: tuple, ceil_mode: bool,
                     count_include_pad: bool, divisor_override: int | None) -> np.ndarray:
    ones = (1,) * len(kernel)
    outs, extra = geometry(x.shape[2:], kernel, stride, pads, ones, ceil_mode)
    ct = compute_dtype(x.dtype)
    if len(kernel) == 3:
        from cellonnx.ops.prims.pool_nd import avg_pool_sum_nd
        acc = avg_pool_sum_nd(x, kernel, stride, pads, outs, extra)
        acc /= avg_divisor(x.shape[2:], kernel, stride, pads, outs, count_include_pad, divisor_override, ct)
        return acc if ct == x.dtype else acc.astype(x.dtype)
    k2, s2, p2, d2, e2, o2 = lift2d(kernel, stride, pads, ones, extra, outs)
    x2 = to2d(x).astype(ct, copy=False)
    xp = pad2d(x2, p2, 0.0, e2)
    views = [v for _, v in window_views(xp, k2, s2, d2, o2)]
    acc = views[0].copy()
    for v in views[1:]:
        acc += v
    if xp is not x2:
        SCRATCH.give(xp)
    acc = acc.reshape(x.shape[:2] + outs)
    acc /= avg_divisor(x.shape[2:], kernel, stride, pads, outs, count_include_pad, divisor_override, ct)
    return acc if ct == x.dtype else acc.astype(x.dtype)


def avg_pool_backward(gy: np.ndarray, in_shape: tuple, kernel: tuple, stride: tuple, pads: tuple,
                      ceil_mode: bool, count_include_pad: bool, divisor_override: int | None) -> np.ndarray:
    ones = (1,) * len(kernel)
    outs, extra = geometry(in_shape, kernel, stride, pads, ones, ceil_mode)
    ct = compute_dtype(gy.dtype)
    gd = gy.astype(ct) / avg_divisor(in_shape, kernel, stride, pads, outs, count_include_pad, divisor_override, ct)
    if len(kernel) == 3:
        from cellonnx.ops.prims.pool_nd import avg_pool_spread_nd
        dx = avg_pool_spread_nd(gd, in_shape, kernel, stride, pads, outs, extra)
        return dx if ct == gy.dtype else dx.astype(gy.dtype)
    k2, s2, p2, d2, e2, o2 = lift2d(kernel, stride, pads, ones, extra, outs)
    gd = to2d(gd)
    n, c = gy.shape[:2]
    h, w = (1, int(in_shape[0])) if len(in_shape) == 1 else (int(in_shape[0]), int(in_shape[1]))
    full = np.zeros((n, c, h + p2[0] + p2[2] + e2[0], w + p2[1] + p2[3] + e2[1]), ct)
    for _, v in window_views(full, k2, s2, d2, o2):
        v += gd  # the views are writable slices of ``full``: col2im
    dx = full[:, :, p2[0]:p2[0] + h, p2[1]:p2[1] + w]
    dx = np.ascontiguousarray(dx).reshape((n, c) + tuple(int(s) for s in in_shape))
    return dx if ct == gy.dtype else dx.astype(gy.dtype)


class AvgPool(Op):
    """Average over windows, lowered to one ONNX AveragePool when ONNX's divisor agrees (no ceil-mode
    overhang, no divisor_override); otherwise Pad + AveragePool + a constant rescale."""

    def forward(self, x, *, kernel, stride, pads, ceil_mode, count_include_pad, divisor_override):
        return avg_pool_forward(x, kernel, stride, pads, ceil_mode, count_include_pad, divisor_override)

    def backward(self, ctx, gy, **attrs):
        return (AvgPoolGrad.apply(gy, in_shape=tuple(ctx.inputs[0]._data.shape[2:]), **attrs),)

    def lower(self, g, x, *, kernel, stride, pads, ceil_mode, count_include_pad, divisor_override):
        nd = len(kernel)
        spatial = g.in_tensors[0]._data.shape[2:]
        outs, _ = geometry(spatial, kernel, stride, pads, (1,) * nd, ceil_mode)
        extra, ceil = onnx_ceil(g, "average pooling", kernel, stride, pads, (1,) * nd, ceil_mode)
        if not any(extra) and not divisor_override:
            return g.op("AveragePool", x, kernel_shape=list(kernel), strides=list(stride), pads=list(pads),
                        count_include_pad=int(bool(count_include_pad)), ceil_mode=ceil or None)
        require_static(g.in_tensors[0], "average pooling with divisor_override or ceil_mode")
        dt = g.in_tensors[0]._data.dtype
        ends = [pads[nd + i] + extra[i] for i in range(nd)]
        xp = g.op("Pad", x, g.i64([0, 0] + list(pads[:nd]) + [0, 0] + ends))
        mean = g.op("AveragePool", xp, kernel_shape=list(kernel), strides=list(stride))
        div = avg_divisor(spatial, kernel, stride, pads, outs, count_include_pad, divisor_override, np.float64)
        return g.op("Mul", mean, g.const((np.prod(kernel) / div).astype(dt)))


class AvgPoolGrad(Op):
    """The gradient of AvgPool: each pooled gradient spread over its window, divided by the window's
    divisor. Linear; its own gradient is AvgPool."""

    def forward(self, gy, *, in_shape, kernel, stride, pads, ceil_mode, count_include_pad, divisor_override):
        return avg_pool_backward(gy, in_shape, kernel, stride, pads, ceil_mode, count_include_pad,
                                 divisor_override)

    def backward(self, ctx, g, *, in_shape, **attrs):
        return (AvgPool.apply(g, **attrs),)

    def lower(self, g, gy, *, in_shape, kernel, stride, pads, ceil_mode, count_include_pad, divisor_override):
        nd = len(kernel)
        require_static(g.in_tensors[0], "average pooling gradient")
        ones = (1,) * nd
        outs, extra = geometry(in_shape, kernel, stride, pads, ones, ceil_mode)
        dt = g.in_tensors[0]._data.dtype
        div = avg_divisor(in_shape, kernel, stride, pads, outs, count_include_pad, divisor_override, np.float64)
        scaled = g.op("Mul", gy, g.const((1.0 / div).astype(dt)))
        cols = g.op("Reshape", scaled, g.i64([-1, 1] + list(outs)))
        full = g.shape_value(list(g.in_tensors[0].shape[:2]) + [int(s) for s in in_shape])
        return onnx_col2im(g, cols, np.ones([1, 1] + list(kernel), dt), in_shape, kernel, stride, pads, ones, outs,
                       extra, full)


# ---------------------------------------------------------------- functional API (MindSpore names)
def _avg_pool(op: str, nd: int, x: Any, kernel_size: Any, stride: Any, padding: Any, ceil_mode: bool,
              count_include_pad: bool, divisor_override: Any, pad_mode: str) -> Tensor:
    x = check_input(op, nd, x, True)
    k = int_tuple(kernel_size, nd, "kernel_size", op)
    s = k if stride is None else int_tuple(stride, nd, "stride", op)
    pads = pool_pads(op, nd, x, k, s, padding, pad_mode)
    if isinstance(pad_mode, str) and pad_mode.lower() == "same":
        count_include_pad, ceil_mode = False, False  # MindSpore's 'same' averages over the real pixels only
    if divisor_override is not None and (not isinstance(divisor_override, (int, np.integer))
                                         or divisor_override < 0):
        raise ValueError(f"{op}: divisor_override must be a positive int (0 or None: not set), "
                         f"got {divisor_override!r}")
    check_output(op, x, k, s, pads, (1,) * nd, bool(ceil_mode))
    return AvgPool.apply(x, kernel=k, stride=s, pads=pads, ceil_mode=bool(ceil_mode),
                         count_include_pad=bool(count_include_pad), divisor_override=int(divisor_override or 0))


def avg_pool2d(input_x: Tensor, kernel_size: Any = 1, stride: Any = 1, padding: Any = 0, ceil_mode: bool = False,
               count_include_pad: bool = True, divisor_override: int = 0, *,
               pad_mode: str = "pad") -> Tensor:
    """2D average pooling over an NCHW input, as MindSpore's ``ops.avg_pool2d``.

    Args:
        input_x: (N, C, H, W), float.
        kernel_size: int or (kH, kW).
        stride: int or (sH, sW); default 1 as in MindSpore 2.x (None means kernel_size).
        padding: int, (pad_h, pad_w) or (top, bottom, left, right) of zero padding (at most half the kernel).
        ceil_mode: round the output size up (windows past the end are averaged over what they cover).
        count_include_pad: count the zero padding in the divisor.
        divisor_override: if non-zero, the divisor of every window (0 or None: not set).
        pad_mode: keyword-only, for nn.AvgPool2d: 'pad' (default), 'same' (output ceil(in / stride), averages
            over the real pixels of each window) or 'valid'.

    Returns:
        (N, C, H_out, W_out).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(16).reshape(1, 1, 4, 4), ms.float32)
        >>> print(ops.avg_pool2d(x, kernel_size=2, stride=2))
        [[[[ 2.5  4.5]
           [10.5 12.5]]]]
    """
    return _avg_pool("avg_pool2d", 2, input_x, kernel_size, stride, padding, ceil_mode, count_include_pad,
                     divisor_override, pad_mode)


def avg_pool1d(input_x: Tensor, kernel_size: Any = 1, stride: Any = 1, padding: Any = 0, ceil_mode: bool = False,
               count_include_pad: bool = True, *, pad_mode: str = "pad") -> Tensor:
    """1D average pooling over an (N, C, L) input, as MindSpore's ``ops.avg_pool1d`` (padding: int, (p,) or
    (left, right)).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[[1.0, 5.0, 2.0, 8.0]]]), ms.float32)
        >>> print(ops.avg_pool1d(x, kernel_size=2, stride=2))
        [[[3. 5.]]]
    """
    return _avg_pool("avg_pool1d", 1, input_x, kernel_size, stride, padding, ceil_mode, count_include_pad,
                     None, pad_mode)


__all__ = ["avg_pool1d", "avg_pool2d"]
