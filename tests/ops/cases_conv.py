"""Rows for the convolution family (cellonnx/ops/prims/conv.py, conv_grad.py).

The references are direct loops over output positions in float64 (written independently of the im2col
kernels); gradient rows trace ``ops.grad`` so the ConvTranspose / ConvGradWeight lowerings run too.
"""
from __future__ import annotations

import numpy as np

from cellonnx import ops
from tests.ops.harness import OpCase, rand, seed_like, seed_of


def _pair(v, n=2):
    return (v,) * n if isinstance(v, int) else tuple(v)


def _lift(x, w, stride, pads, dilation):
    """1-D arrays and geometry as 2-D with H = 1 (pads as (top, bottom, left, right))."""
    pads = (0,) * (2 * (x.ndim - 2)) if pads is None else pads
    if x.ndim == 4:
        return x, w, _pair(stride), tuple(pads), _pair(dilation)
    return (x[:, :, None], w[:, :, None], (1,) + _pair(stride, 1), (0, 0) + tuple(pads),
            (1,) + _pair(dilation, 1))


def ref_conv(x, w, b=None, stride=1, pads=None, dilation=1, groups=1):
    """Cross-correlation by loops over output positions; pads (top, bottom, left, right) or (left, right)."""
    nd = x.ndim
    x, w, (sh, sw), (pt, pb, pl, pr), (dh, dw) = _lift(x, w, stride, pads, dilation)
    n, _c, h, wd = x.shape
    co, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pt, pb), (pl, pr)))
    ho = (h + pt + pb - dh * (kh - 1) - 1) // sh + 1
    wo = (wd + pl + pr - dw * (kw - 1) - 1) // sw + 1
    cog = co // groups
    y = np.zeros((n, co, ho, wo))
    for i in range(ho):
        for j in range(wo):
            patch = xp[:, :, i * sh:i * sh + dh * (kh - 1) + 1:dh, j * sw:j * sw + dw * (kw - 1) + 1:dw]
            for g in range(groups):
                y[:, g * cog:(g + 1) * cog, i, j] = np.einsum(
                    "ncab,ocab->no", patch[:, g * cg:(g + 1) * cg], w[g * cog:(g + 1) * cog])
    if b is not None:
        y += b[None, :, None, None]
    return y if nd == 4 else y[:, :, 0]


def ref_conv_grads(x, w, gy, stride=1, pads=None, dilation=1, groups=1):
    """(dx, dw) of sum(conv(x, w) * gy) by loops over output positions."""
    nd = x.ndim
    x, w, (sh, sw), (pt, pb, pl, pr), (dh, dw) = _lift(x, w, stride, pads, dilation)
    gy = gy if nd == 4 else gy[:, :, None]
    _n, _c, h, wd = x.shape
    co, cg, kh, kw = w.shape
    cog = co // groups
    xp = np.pad(x, ((0, 0), (0, 0), (pt, pb), (pl, pr)))
    gxp, gw = np.zeros_like(xp), np.zeros_like(w)
    for i in range(gy.shape[2]):
        for j in range(gy.shape[3]):
            rows = slice(i * sh, i * sh + dh * (kh - 1) + 1, dh)
            cols = slice(j * sw, j * sw + dw * (kw - 1) + 1, dw)
            for g in range(groups):
                cs, os_ = slice(g * cg, (g + 1) * cg), slice(g * cog, (g + 1) * cog)
                gw[os_] += np.einsum("no,ncab->ocab", gy[:, os_, i, j], xp[:, cs, rows, cols])
                gxp[:, cs, rows, cols] += np.einsum("no,ocab->ncab", gy[:, os_, i, j], w[os_])
    gx = gxp[:, :, pt:pt + h, pl:pl + wd]
    return (gx, gw) if nd == 4 else (gx[:, :, 0], gw[:, :, 0])


def ref_conv_transpose(u, w, b=None, stride=1, pads=(0, 0, 0, 0), output_padding=0, dilation=1, groups=1):
    """The adjoint of ref_conv in its input: dx of a conv whose output gradient is ``u``, on an input of the
    transposed convolution's output size."""
    nd = u.ndim - 2
    s, d, op = _pair(stride, nd), _pair(dilation, nd), _pair(output_padding, nd)
    out = tuple((u.shape[2 + i] - 1) * s[i] - pads[2 * i] - pads[2 * i + 1] + d[i] * (w.shape[2 + i] - 1) + 1
                + op[i] for i in range(nd))
    gx, _ = ref_conv_grads(np.zeros((u.shape[0], w.shape[1] * groups) + out), w, u, stride, pads, dilation,
                           groups)
    return gx + (0 if b is None else b.reshape((1, -1) + (1,) * nd))


X = rand(1, 2, 5, 5, seed=1)
W = rand(3, 2, 3, 3, seed=2)
B = rand(3, seed=3)
GROUP_W = rand(4, 1, 3, 2, seed=4)
X1 = rand(2, 2, 9, seed=5)
W1 = rand(4, 2, 3, seed=6)


def _grads(fn, n):
    """ops.grad of sum(fn(...) * seed) in all ``n`` arguments, the seed made from the output's shape (so the
    row holds at other sizes of a dynamic axis); the inputs are marked so a trace keeps them as graph
    inputs."""
    def run(*args):
        def loss(*a):
            y = fn(*a)
            return ops.sum(y * seed_like(y))
        return ops.grad(loss, tuple(range(n)))(*[a.requires_grad_() for a in args])
    return run


def _conv_grad_ref(stride, pads, dilation, groups, bias):
    def ref(x, w, *rest):
        y = ref_conv(x, w, None, stride, pads, dilation, groups)
        gy = seed_of(y.shape)
        gx, gw = ref_conv_grads(x, w, gy, stride, pads, dilation, groups)
        return (gx, gw, gy.sum(axis=(0,) + tuple(range(2, gy.ndim)))) if bias else (gx, gw)
    return ref


CASES = [
    OpCase("conv2d_valid_bias", lambda x, w, b: ops.conv2d(x, w, b), [X, W, B], ref_conv, second_order=True),
    OpCase("conv2d_no_bias_stride", lambda x, w: ops.conv2d(x, w, stride=(2, 1)), [rand(1, 2, 6, 5), W],
           lambda x, w: ref_conv(x, w, stride=(2, 1))),
    OpCase("conv2d_same_stride1", lambda x, w, b: ops.conv2d(x, w, b, pad_mode="same"), [X, W, B],
           lambda x, w, b: ref_conv(x, w, b, pads=(1, 1, 1, 1))),
    OpCase("conv2d_same_even_kernel", lambda x, w: ops.conv2d(x, w, pad_mode="same"),
           [X, rand(3, 2, 2, 4, seed=7)], lambda x, w: ref_conv(x, w, pads=(0, 1, 1, 2)),
           note="even kernels put the odd padding pixel at the bottom / right, as MindSpore"),
    OpCase("conv2d_same_stride2", lambda x, w: ops.conv2d(x, w, None, 2, "same"), [rand(1, 2, 6, 5), W],
           lambda x, w: ref_conv(x, w, stride=2, pads=(0, 1, 1, 1))),
    OpCase("conv2d_pad_int", lambda x, w: ops.conv2d(x, w, None, 1, "pad", 1), [X, W],
           lambda x, w: ref_conv(x, w, pads=(1, 1, 1, 1))),
    OpCase("conv2d_pad_hw", lambda x, w, b: ops.conv2d(x, w, b, 2, "pad", (2, 1)), [X, W, B],
           lambda x, w, b: ref_conv(x, w, b, 2, (2, 2, 1, 1))),
    OpCase("conv2d_pad_4tuple_dilation", lambda x, w: ops.conv2d(x, w, None, 1, "pad", (1, 0, 2, 1), (2, 1)),
           [X, W], lambda x, w: ref_conv(x, w, None, 1, (1, 0, 2, 1), (2, 1))),
    OpCase("conv2d_groups", lambda x, w, b: ops.conv2d(x, w, b, 1, "pad", 1, 1, 2),
           [rand(1, 4, 4, 5, seed=8), rand(6, 2, 3, 3, seed=9), rand(6, seed=10)],
           lambda x, w, b: ref_conv(x, w, b, 1, (1, 1, 1, 1), 1, 2)),
    OpCase("conv2d_depthwise", lambda x, w: ops.conv2d(x, w, None, (1, 2), "same", 0, 1, 2),
           [rand(2, 2, 5, 5, seed=11), GROUP_W], lambda x, w: ref_conv(x, w, None, (1, 2), (1, 1, 0, 1), 1, 2),
           note="channel multiplier 2"),
    OpCase("conv2d_dynamic_batch", lambda x, w, b: ops.conv2d(x, w, b, 2, "same"), [rand(2, 2, 5, 6), W, B],
           lambda x, w, b: ref_conv(x, w, b, 2, (1, 1, 0, 1)), dynamic=True, grad=()),
    OpCase("conv2d_float32_large", lambda x, w: ops.conv2d(x, w, None, 1, "same"),
           [rand(2, 8, 9, 9, seed=12), rand(8, 8, 3, 3, seed=13)], lambda x, w: ref_conv(x, w, pads=(1,) * 4),
           grad=(), atol=1e-5, note="72-term float32 dot products: accumulation error ~1e-6 absolute"),
    OpCase("conv2d_1x1", lambda x, w: ops.conv2d(x, w), [X, rand(4, 2, 1, 1, seed=31)], ref_conv,
           note="a 1x1 convolution multiplies the input itself (no im2col copy)"),
    OpCase("conv2d_transposed_view_input", lambda x, w: ops.conv2d(ops.transpose(x, (0, 1, 3, 2)), w, None, 1, "pad", 1),
           [rand(1, 2, 6, 5, seed=32), W], lambda x, w: ref_conv(x.transpose(0, 1, 3, 2), w, pads=(1, 1, 1, 1))),
    OpCase("conv1d_valid_bias", lambda x, w, b: ops.conv1d(x, w, b), [X1, W1, rand(4, seed=14)], ref_conv),
    OpCase("conv1d_same_stride_dilation", lambda x, w: ops.conv1d(x, w, None, 2, "same", 0, 2), [X1, W1],
           lambda x, w: ref_conv(x, w, None, 2, (2, 2), 2)),
    OpCase("conv1d_pad_groups", lambda x, w: ops.conv1d(x, w, None, 1, "pad", (1, 2), 1, 2),
           [X1, rand(4, 1, 3, seed=15)], lambda x, w: ref_conv(x, w, None, 1, (1, 2), 1, 2)),
    # transposed convolution
    OpCase("conv_transpose2d_stride_pad_outpad",
           lambda u, w, b: ops.conv_transpose2d(u, w, b, 2, 1, 1),
           [rand(1, 3, 3, 4, seed=16), rand(3, 2, 3, 3, seed=17), rand(2, seed=18)],
           lambda u, w, b: ref_conv_transpose(u, w, b, 2, (1, 1, 1, 1), 1)),
    OpCase("conv_transpose2d_groups_dilation",
           lambda u, w: ops.conv_transpose2d(u, w, None, (1, 2), (0, 1), (0, 1), 2, (2, 1)),
           [rand(1, 4, 3, 3, seed=19), rand(4, 1, 2, 3, seed=20)],
           lambda u, w: ref_conv_transpose(u, w, None, (1, 2), (0, 0, 1, 1), (0, 1), (2, 1), 2)),
    OpCase("conv_transpose2d_stride1_dilation_pad", lambda u, w: ops.conv_transpose2d(u, w, None, 1, (1, 2), 0, 1, 2),
           [rand(2, 3, 4, 3, seed=33), rand(3, 2, 3, 3, seed=34)],
           lambda u, w: ref_conv_transpose(u, w, None, 1, (1, 1, 2, 2), 0, 2)),
    OpCase("conv_transpose2d_pad_mode_same", lambda u, w: ops.conv_transpose2d(u, w, stride=2, pad_mode="same"),
           [rand(1, 3, 3, 3, seed=21), rand(3, 2, 4, 3, seed=22)],
           lambda u, w: ref_conv_transpose(u, w, None, 2, (1, 1, 0, 1)),
           note="MindSpore nn.Conv2dTranspose 'same': output = input * stride"),
    OpCase("conv_transpose2d_pad_mode_valid", lambda u, w: ops.conv_transpose2d(u, w, stride=3, pad_mode="valid"),
           [rand(1, 3, 2, 3, seed=23), rand(3, 2, 2, 1, seed=24)],
           lambda u, w: ref_conv_transpose(u, w, None, 3, (0, 0, 0, 0), (1, 2)),
           note="kernel smaller than stride: output = input * stride (the last rows get no contribution)"),
    # gradient graphs: the ConvTranspose / ConvGradWeight lowerings
    OpCase("conv2d_grad_lowering", _grads(lambda x, w, b: ops.conv2d(x, w, b, (2, 1), "pad", (1, 0, 2, 1),
                                                                     (1, 2), 2), 3),
           [rand(1, 4, 6, 5, seed=25), rand(4, 2, 2, 3, seed=26), rand(4, seed=27)],
           _conv_grad_ref((2, 1), (1, 0, 2, 1), (1, 2), 2, True)),
    OpCase("conv1d_grad_lowering", _grads(lambda x, w: ops.conv1d(x, w, None, 2, "pad", 1), 2), [X1, W1],
           _conv_grad_ref(2, (1, 1), 1, 1, False)),
    # small outputs with a batch: the one-GEMM lowerings (cellonnx/ops/prims/conv_gemm.py) from opset 18
    OpCase("conv2d_grad_pointwise_stride_lowering",
           _grads(lambda x, w: ops.conv2d(x, w, None, 2, "valid"), 2),
           [rand(3, 4, 6, 6, seed=40), rand(5, 4, 1, 1, seed=41)],
           _conv_grad_ref(2, (0, 0, 0, 0), 1, 1, False)),
    OpCase("conv2d_grad_one_pixel_lowering", _grads(lambda x, w, b: ops.conv2d(x, w, b, 2, "pad", 1), 3),
           [rand(2, 3, 2, 2, seed=42), rand(4, 3, 3, 3, seed=43), rand(4, seed=44)],
           _conv_grad_ref(2, (1, 1, 1, 1), 1, 1, True)),
    OpCase("conv2d_grad_one_tap_lowering", _grads(lambda x, w, b: ops.conv2d(x, w, b, 1, "pad", 1), 3),
           [rand(2, 3, 1, 1, seed=58), rand(4, 3, 3, 3, seed=59), rand(4, seed=60)],
           _conv_grad_ref(1, (1, 1, 1, 1), 1, 1, True),
           note="a one-pixel input and output: only the kernel's centre tap reads the input"),
    OpCase("conv2d_small_output_gemm", lambda x, w, b: ops.conv2d(x, w, b, 2, "pad", 1),
           [rand(3, 4, 4, 4, seed=50), rand(5, 4, 3, 3, seed=51), rand(5, seed=52)],
           lambda x, w, b: ref_conv(x, w, b, 2, (1, 1, 1, 1))),
    OpCase("conv2d_grad_small_output_lowering", _grads(lambda x, w: ops.conv2d(x, w, None, 2, "pad", 1), 2),
           [rand(3, 4, 4, 4, seed=50), rand(5, 4, 3, 3, seed=51)], _conv_grad_ref(2, (1, 1, 1, 1), 1, 1, False)),
    OpCase("conv2d_grad_one_pixel_dilation_lowering",
           _grads(lambda x, w, b: ops.conv2d(x, w, b, 1, "valid", 0, 2), 3),
           [rand(2, 3, 3, 3, seed=53), rand(4, 3, 2, 2, seed=54), rand(4, seed=55)],
           _conv_grad_ref(1, (0, 0, 0, 0), 2, 1, True)),
    OpCase("conv2d_grad_many_channels_lowering",
           _grads(lambda x, w: ops.conv2d(x, w, None, (2, 1), "pad", 1, (1, 2)), 2),
           [rand(2, 64, 5, 6, seed=56), rand(3, 64, 3, 3, seed=57)],
           _conv_grad_ref((2, 1), (1, 1, 1, 1), (1, 2), 1, False),
           grad=(), note="64 input channels: the CPU weight gradient by the rows each tap reads, one product a tap"),
    OpCase("conv2d_grad_gathered_forward_lowering",
           _grads(lambda x, w, b: ops.conv2d(x, w, b, 1, "pad", (1, 0, 2, 1), (1, 2)), 3),
           [rand(3, 3, 4, 4, seed=63), rand(4, 3, 3, 2, seed=64), rand(4, seed=65)],
           _conv_grad_ref(1, (1, 0, 2, 1), (1, 2), 1, True),
           note="15 output pixels: the forward of a training graph as one GEMM over gathered windows, with bias"),
    OpCase("conv2d_grad_tap_rows_lowering",
           _grads(lambda x, w: ops.conv2d(x, w, None, (2, 1), "pad", (1, 0, 2, 1), (1, 2)), 2),
           [rand(2, 3, 7, 5, seed=61), rand(4, 3, 3, 2, seed=62)],
           _conv_grad_ref((2, 1), (1, 0, 2, 1), (1, 2), 1, False),
           note="few channels, uneven pads, stride and dilation: taps that read the padding gather a zero row"),
    OpCase("conv_transpose2d_batch_bias_gemm", lambda u, w, b: ops.conv_transpose2d(u, w, b, 2, 1, 1),
           [rand(2, 3, 3, 3, seed=45), rand(3, 2, 3, 3, seed=46), rand(2, seed=47)],
           lambda u, w, b: ref_conv_transpose(u, w, b, 2, (1, 1, 1, 1), 1)),
    OpCase("conv_transpose2d_batch_dilation_gemm",
           lambda u, w: ops.conv_transpose2d(u, w, None, 1, 1, 0, 1, 2),
           [rand(2, 3, 4, 3, seed=48), rand(3, 2, 3, 3, seed=49)],
           lambda u, w: ref_conv_transpose(u, w, None, 1, (1, 1, 1, 1), 0, 2)),
    OpCase("conv_transpose2d_grad_lowering",
           _grads(lambda u, w, b: ops.conv_transpose2d(u, w, b, 2, 1, 1), 3),
           [rand(1, 3, 3, 3, seed=28), rand(3, 2, 3, 3, seed=29), rand(2, seed=30)],
           lambda u, w, b: _conv_transpose_grad_ref(u, w)),
]


def _conv_transpose_grad_ref(u, w):
    z = ref_conv_transpose(u, w, None, 2, (1, 1, 1, 1), 1)
    gz = seed_of(z.shape)
    # z = convT(u, w) is the adjoint of the conv x -> conv(x, w): du = conv(gz, w), dw from the conv's rule
    gu = ref_conv(gz, w, None, 2, (1, 1, 1, 1))
    _, gw = ref_conv_grads(gz, w, u, 2, (1, 1, 1, 1))
    return gu, gw, gz.sum(axis=(0, 2, 3))
