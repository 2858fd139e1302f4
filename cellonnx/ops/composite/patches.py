"""Sliding-window functions behind MindSpore's operator classes ``ops.ExtractImagePatches``,
``ops.ExtractVolumePatches``, ``ops.Dilation2D`` and ``ops.DepthwiseConv2dNative``, written over slicing,
padding, stack and conv2d (gradients and the ONNX lowering come from those ops).

Padding 'same' is TensorFlow's rule, which these MindSpore ops follow: the output is ``ceil(in / stride)``
and the padding needed for it is split evenly, the odd pixel going to the end (bottom / right).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from cellonnx import ops as _ops
from cellonnx.dtypes import float64, to_numpy
from cellonnx.ops.prims._util import is_float_dtype
from cellonnx.tensor import Tensor

F: Any = _ops

__all__: list[str] = []


def _check_input(x: Any, ndim: int, layout: str, op: str) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{op}', the input must be a Tensor, but got {type(x).__name__}.")
    if x.ndim != ndim:
        raise ValueError(f"For '{op}', the input must be {ndim}-D ({layout}), but got shape "
                         f"{tuple(x.shape)}.")
    return x


def same_or_valid(size: Sequence[int], kernel: Sequence[int], stride: Sequence[int], rate: Sequence[int],
                  padding: str, op: str) -> tuple[list[int], list[tuple[int, int]]]:
    """The output sizes and the (begin, end) padding of each spatial dim for padding 'SAME' / 'VALID'."""
    out, pads = [], []
    for n, k, s, r in zip(size, kernel, stride, rate):
        extent = (k - 1) * r + 1
        if padding == "SAME":
            o = -(-n // s)
            need = max((o - 1) * s + extent - n, 0)
            pads.append((need // 2, need - need // 2))
        else:
            o = (n - extent) // s + 1
            pads.append((0, 0))
        if o < 1:
            raise ValueError(f"For '{op}', the input's spatial size {tuple(size)} is smaller than the window "
                             f"{tuple((k - 1) * r + 1 for k, r in zip(kernel, rate))} with padding "
                             f"'{padding}'.")
        out.append(o)
    return out, pads


def _pad(x: Tensor, pads: list[tuple[int, int]], value: Any = None) -> Tensor:
    if not any(b or e for b, e in pads):
        return x
    flat = [p for b_e in reversed(pads) for p in b_e]  # ops.pad lists the last dim first
    return F.pad(x, tuple(flat), value=value)


def _taps(x: Tensor, lead: int, kernel: Sequence[int], stride: Sequence[int], rate: Sequence[int],
          out: Sequence[int]) -> list[Tensor]:
    """One strided view of the (padded) input per kernel tap, kernel positions in row-major order."""
    views = []
    for offs in np.ndindex(*kernel):
        index = (slice(None),) * lead + tuple(
            slice(i * r, i * r + (o - 1) * s + 1, s) for i, r, o, s in zip(offs, rate, out, stride))
        views.append(x[index])
    return views


def extract_image_patches(input_x: Tensor, ksizes: Sequence[int], strides: Sequence[int],
                          rates: Sequence[int], padding: str = "VALID") -> Tensor:
    """Patches of an (N, C, H, W) image as channels: (N, kh * kw * C, out_h, out_w), the patch values
    ordered (kernel row, kernel column, channel), channel fastest, as MindSpore's ExtractImagePatches.

    Args:
        input_x (Tensor): (N, C, H, W).
        ksizes, strides, rates (Sequence[int]): [1, 1, row, col] each: window, step and sampling spacing.
        padding (str): 'VALID' or 'SAME' (zero padding).

    Returns:
        Tensor of input_x's dtype.
    """
    op = "ExtractImagePatches"
    x = _check_input(input_x, 4, "N, C, H, W", op)
    k, s, r = tuple(ksizes[2:]), tuple(strides[2:]), tuple(rates[2:])
    out, pads = same_or_valid(x.shape[2:], k, s, r, padding, op)
    views = _taps(_pad(x, pads), 2, k, s, r, out)
    patches = F.stack(views, 1)  # (N, kh * kw, C, oh, ow)
    return F.reshape(patches, (x.shape[0], len(views) * x.shape[1], out[0], out[1]))


def extract_volume_patches(input_x: Tensor, kernel_size: Sequence[int], strides: Sequence[int],
                           padding: str) -> Tensor:
    """Patches of an (N, C, D, H, W) volume as channels: (N, C * kd * kh * kw, out_d, out_h, out_w), the
    patch values ordered (kernel depth, row, column, channel), channel fastest, as MindSpore's
    ExtractVolumePatches.

    Args:
        input_x (Tensor): (N, C, D, H, W).
        kernel_size, strides (Sequence[int]): (1, 1, d, h, w) each.
        padding (str): 'VALID' or 'SAME' (zero padding).

    Returns:
        Tensor of input_x's dtype.
    """
    op = "ExtractVolumePatches"
    x = _check_input(input_x, 5, "N, C, D, H, W", op)
    k, s = tuple(kernel_size[2:]), tuple(strides[2:])
    out, pads = same_or_valid(x.shape[2:], k, s, (1, 1, 1), padding, op)
    if padding == "SAME":  # MindSpore refuses a window that ends before the input does
        for n, kk, ss, o in zip(x.shape[2:], k, s, out):
            if (o - 1) * ss + kk - n < 0:
                raise ValueError(f"For '{op}', with padding 'SAME' the padding (ceil(in / stride) - 1) * "
                                 f"stride + kernel_size - in must be >= 0, but got {(o - 1) * ss + kk - n} "
                                 f"for in {n}, kernel_size {kk}, stride {ss}.")
    views = _taps(_pad(x, pads), 2, k, s, (1, 1, 1), out)
    patches = F.stack(views, 1)  # (N, kd * kh * kw, C, od, oh, ow)
    return F.reshape(patches, (x.shape[0], len(views) * x.shape[1], *out))


def dilation2d(x: Tensor, filter: Tensor, stride: Sequence[int], dilation: Sequence[int],
               pad_mode: str) -> Tensor:
    """Grayscale dilation (N, C, H, W) with a (C, kh, kw) filter: the maximum over the window of
    ``x + filter``, as MindSpore's Dilation2D; positions in the 'SAME' padding take no part.

    Args:
        x (Tensor): (N, C, H, W).
        filter (Tensor): (C, kh, kw), x's dtype.
        stride, dilation (Sequence[int]): (1, 1, h, w) each.
        pad_mode (str): 'VALID' or 'SAME'.

    Returns:
        Tensor of x's dtype.
    """
    op = "Dilation2D"
    x = _check_input(x, 4, "N, C, H, W", op)
    if not isinstance(filter, Tensor) or filter.ndim != 3 or int(filter.shape[0]) != int(x.shape[1]):
        raise ValueError(f"For '{op}', the filter must be a 3-D Tensor (C, kh, kw) with C = "
                         f"{int(x.shape[1])}, but got "
                         f"{tuple(filter.shape) if isinstance(filter, Tensor) else type(filter).__name__}.")
    if x.dtype != filter.dtype:
        raise TypeError(f"For '{op}', x and filter must have the same dtype, but got {x.dtype} and "
                        f"{filter.dtype}.")
    dtype = x.dtype
    if not is_float_dtype(to_numpy(dtype)):  # integer inputs: -inf marks the padding, so work in float64
        x, filter = F.cast(x, float64), F.cast(filter, float64)
    k, s, r = tuple(int(v) for v in filter.shape[1:]), tuple(stride[2:]), tuple(dilation[2:])
    out, pads = same_or_valid(x.shape[2:], k, s, r, pad_mode, op)
    views = _taps(_pad(x, pads, float("-inf")), 2, k, s, r, out)
    taps = F.reshape(filter, (int(filter.shape[0]), -1))
    sums = [v + F.reshape(taps[:, i], (-1, 1, 1)) for i, v in enumerate(views)]
    result = F.amax(F.stack(sums, 0), 0)
    return result if result.dtype == dtype else F.cast(result, dtype)


def depthwise_conv2d_native(x: Tensor, w: Tensor, channel_multiplier: int, kernel_size: Sequence[int],
                            pad_mode: str, pad: Sequence[int], stride: Sequence[int],
                            dilation: Sequence[int]) -> Tensor:
    """Depthwise convolution (N, C, H, W) with a (1, C, kh, kw) weight, each channel with its own filter,
    as MindSpore's DepthwiseConv2dNative (pad given (top, bottom, left, right)).

    Returns:
        Tensor (N, C, out_h, out_w) of x's dtype.
    """
    op = "DepthwiseConv2dNative"
    x = _check_input(x, 4, "N, C, H, W", op)
    if not isinstance(w, Tensor) or w.ndim != 4:
        raise ValueError(f"For '{op}', the weight must be a 4-D Tensor (1, C, kh, kw), but got "
                         f"{tuple(w.shape) if isinstance(w, Tensor) else type(w).__name__}.")
    from cellonnx.graph.trace import require_static
    require_static(x.shape[1], f"{op}'s group count (one group per channel)", attribute=True)
    c = int(x.shape[1])
    if int(w.shape[1]) != c:
        raise ValueError(f"For '{op}', 'x_shape[1]' must be equal to 'w_shape[1]', but got {c} and "
                         f"{int(w.shape[1])}.")
    if tuple(int(v) for v in w.shape[2:]) != tuple(kernel_size):
        raise ValueError(f"For '{op}', 'kernel_size' {tuple(kernel_size)} must be equal to 'w_shape[2:4]' "
                         f"{tuple(int(v) for v in w.shape[2:])}.")
    if int(w.shape[0]) != 1:
        raise ValueError(f"For '{op}', the batch of 'weight' must be 1, but got {int(w.shape[0])}")
    if channel_multiplier != 1:
        raise ValueError(f"For '{op}', a (1, C, kh, kw) weight holds one filter per channel, so "
                         f"'channel_multiplier' must be 1, but got {channel_multiplier}.")
    weight = F.transpose(w, (1, 0, 2, 3))
    if pad_mode == "pad":
        top, bottom, left, right = pad
        x = _pad(x, [(top, bottom), (left, right)])
        pad_mode = "valid"
    if pad_mode == "same":
        _, pads = same_or_valid(x.shape[2:], kernel_size, stride, dilation, "SAME", op)
        x = _pad(x, pads)
    return F.conv2d(x, weight, None, tuple(stride), "valid", 0, tuple(dilation), c)
