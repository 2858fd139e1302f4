"""Rows for the sliding-window composites behind ops.ExtractImagePatches, ExtractVolumePatches, Dilation2D and
DepthwiseConv2dNative (composite/patches.py), called through the operator classes.

References are float64 loops over output positions written from MindSpore's documented formulas (output
sizes, 'SAME' padding split evenly with the odd pixel at the end, TensorFlow's patch order: kernel
positions, then channels). MindSpore's CPU build has no kernel for ExtractImagePatches, Dilation2D and
DepthwiseConv2dNative; ExtractVolumePatches is also compared with MindSpore itself in
tests/ops/operations/test_pending_ops.py.
"""
from __future__ import annotations

import numpy as np

from cellonnx import ops
from cellonnx.ops.composite.glimpse import extract_glimpse
from cellonnx.tensor import Tensor
from tests.ops.harness import OpCase, rand


def _same(n, k, s, r):
    o = -(-n // s)
    need = max((o - 1) * s + (k - 1) * r + 1 - n, 0)
    return o, need // 2


def _geometry(shape, k, s, r, padding):
    outs, begins = [], []
    for n, kk, ss, rr in zip(shape, k, s, r):
        if padding == "SAME":
            o, b = _same(n, kk, ss, rr)
        else:
            o, b = (n - (kk - 1) * rr - 1) // ss + 1, 0
        outs.append(o)
        begins.append(b)
    return outs, begins


def _patches_ref(x, k, s, r, padding):
    """(N, C, *sp) -> (N, prod(k) * C, *out), value at channel (tap, c) = x[c, o * s - begin + tap * r]."""
    nd = len(k)
    outs, begins = _geometry(x.shape[2:], k, s, r, padding)
    taps = list(np.ndindex(*k))
    c = x.shape[1]
    out = np.zeros((x.shape[0], len(taps) * c, *outs))
    for t, tap in enumerate(taps):
        for pos in np.ndindex(*outs):
            src = [p * ss - b + i * rr for p, ss, b, i, rr in zip(pos, s, begins, tap, r)]
            if all(0 <= v < n for v, n in zip(src, x.shape[2:])):
                out[(slice(None), slice(t * c, (t + 1) * c)) + pos] = x[(slice(None), slice(None), *src)]
    assert nd == len(outs)
    return out


def _dilation_ref(x, f, s, r, padding):
    k = f.shape[1:]
    outs, begins = _geometry(x.shape[2:], k, s, r, padding)
    out = np.full(x.shape[:2] + tuple(outs), -np.inf)
    for tap in np.ndindex(*k):
        for pos in np.ndindex(*outs):
            src = [p * ss - b + i * rr for p, ss, b, i, rr in zip(pos, s, begins, tap, r)]
            if all(0 <= v < n for v, n in zip(src, x.shape[2:])):
                val = x[:, :, src[0], src[1]] + f[:, tap[0], tap[1]]
                out[(slice(None), slice(None)) + pos] = np.maximum(out[(slice(None), slice(None)) + pos], val)
    return out


def _depthwise_ref(x, w, s, d, pads):
    xp = np.pad(x, [(0, 0), (0, 0), pads[0:2], pads[2:4]])
    kh, kw = w.shape[2:]
    oh = (xp.shape[2] - (kh - 1) * d - 1) // s + 1
    ow = (xp.shape[3] - (kw - 1) * d - 1) // s + 1
    out = np.zeros(x.shape[:2] + (oh, ow))
    for i, j in np.ndindex(kh, kw):
        view = xp[:, :, i * d:i * d + (oh - 1) * s + 1:s, j * d:j * d + (ow - 1) * s + 1:s]
        out += view * w[0, :, i, j, None, None]
    return out


def _distinct(*shape, seed=0):
    """Values far apart, so a window's maximum is not a near-tie that finite differences would straddle."""
    rng = np.random.default_rng(seed)
    return rng.permutation(np.prod(shape)).reshape(shape) * 0.1


def _regular_pool_ref(x, k, overlapping, reduce):
    """NHWC pooling over cells of k pixels (the fractional pools when the ratio divides the input: their
    cells are then fixed), a cell reaching one pixel further when overlapping."""
    n, h, w, c = x.shape
    oh, ow = h // k, w // k
    out = np.zeros((n, oh, ow, c))
    for a, b in np.ndindex(oh, ow):
        e = 1 if overlapping else 0
        out[:, a, b] = reduce(x[:, a * k:min(a * k + k + e, h), b * k:min(b * k + k + e, w)], axis=(1, 2))
    return out


_RESAMPLE_NOTE = ("values against MindSpore 2.10 in tests/ops/operations/test_resample_ops.py; this row "
                  "checks the gradient and the lowering. Computed in float32 (MindSpore's output dtype) also "
                  "for float64 input; the output is linear in the image, so a large finite-difference step "
                  "is exact")
F32_GRAD = {"eps": 1e-2, "grad_rtol": 1e-4, "grad_atol": 1e-5}


def _i32(v):
    return Tensor(np.array(v, np.int32))


def _f32(v):
    return Tensor(np.array(v, np.float32))


def _glimpse_ref(x, size, origins):
    """Zero-noise windows at the given top-left pixels."""
    n, h, w, c = x.shape
    out = np.zeros((n, *size, c))
    for b, (r0, c0) in enumerate(origins):
        for i, j in np.ndindex(*size):
            if 0 <= r0 + i < h and 0 <= c0 + j < w:
                out[b, i, j] = x[b, r0 + i, c0 + j]
    return out


_FRACTIONAL_NOTE = "eager only: the pooling cells are drawn per call, so there is no ONNX lowering"

CASES = [
    OpCase("deformable_offsets", lambda x, o: ops.DeformableOffsets((1, 1, 2, 1), (1, 0, 1, 1), (2, 2))(x, o),
           [rand(1, 2, 4, 5), rand(1, 12, 2, 6, seed=1, low=-0.7, high=0.7)], None,
           note="values against MindSpore 2.10 in tests/ops/operations/test_window_ops.py; this row checks "
                "the gradients (bilinear sampling: offsets kept off whole pixels) and the lowering"),
    # centred offsets in pixels: row 3 + (-1.0) / 2 - 1.5 = 1 (truncated), col 3.5 + 2.4 / 2 - 2 = 2.7 -> 2;
    # the second (row 3 - 3 - 1.5 = -1.5 -> -1, toward zero; col 3.5 - 3.5 - 2 = -2) hangs over the corner
    # (the composite behind ops.ExtractGlimpse, which takes float32 only: float64 gradients are checked)
    OpCase("extract_glimpse_zero_noise",
           lambda x: extract_glimpse(x, (3, 4), np.array([[-1.0, 2.4], [-6.0, -7.0]]), True, False, "zero",
                                     None),
           [rand(2, 6, 7, 2)], lambda x: _glimpse_ref(x, (3, 4), [(1, 2), (-1, -2)])),
    OpCase("resize_area", lambda x: ops.ResizeArea()(x, _i32([3, 5])), [rand(2, 5, 7, 3)], None,
           note=_RESAMPLE_NOTE, **F32_GRAD),
    OpCase("resize_area_align_corners_up", lambda x: ops.ResizeArea(True)(x, _i32([6, 4])),
           [rand(1, 4, 3, 2)],
           None, note=_RESAMPLE_NOTE, **F32_GRAD),
    OpCase("scale_and_translate", lambda x: ops.ScaleAndTranslate()(x, _i32([3, 4]), _f32([0.6, 0.55]),
                                                                    _f32([0.3, -0.2])),
           [rand(1, 5, 7, 2)], None, note=_RESAMPLE_NOTE, **F32_GRAD),
    OpCase("scale_and_translate_keyscubic_up",
           lambda x: ops.ScaleAndTranslate("keyscubic", False)(x, _i32([7, 6]), _f32([1.5, 1.2]),
                                                               _f32([0, 1])),
           [rand(1, 4, 5, 1)], None, note=_RESAMPLE_NOTE, **F32_GRAD),
    OpCase("fractional_max_pool_regular", lambda x: ops.FractionalMaxPool([1.0, 2.0, 2.0, 1.0])(x)[0],
           [_distinct(2, 4, 6, 3)], lambda x: _regular_pool_ref(x, 2, False, np.max), lower=False,
           note=_FRACTIONAL_NOTE),
    OpCase("fractional_avg_pool_regular_overlapping",
           lambda x: ops.FractionalAvgPool([1.0, 2.0, 2.0, 1.0], True, True)(x)[0], [rand(1, 6, 4, 2)],
           lambda x: _regular_pool_ref(x, 2, True, np.mean), lower=False, note=_FRACTIONAL_NOTE),
    OpCase("extract_image_patches_valid",
           lambda x: ops.ExtractImagePatches([1, 1, 2, 3], [1, 1, 1, 2], [1, 1, 2, 1])(x), [rand(2, 3, 5, 6)],
           lambda x: _patches_ref(x, (2, 3), (1, 2), (2, 1), "VALID")),
    OpCase("extract_image_patches_same",
           lambda x: ops.ExtractImagePatches([1, 1, 3, 2], [1, 1, 2, 2], [1, 1, 1, 1], "same")(x),
           [rand(1, 2, 5, 4)], lambda x: _patches_ref(x, (3, 2), (2, 2), (1, 1), "SAME")),
    OpCase("extract_volume_patches_same",
           lambda x: ops.ExtractVolumePatches((1, 1, 2, 3, 2), (1, 1, 2, 1, 2), "SAME")(x),
           [rand(1, 2, 3, 4, 5)],
           lambda x: _patches_ref(x, (2, 3, 2), (2, 1, 2), (1, 1, 1), "SAME")),
    OpCase("extract_volume_patches_valid", lambda x: ops.ExtractVolumePatches(2, 1, "valid")(x),
           [rand(1, 2, 3, 3, 4)], lambda x: _patches_ref(x, (2, 2, 2), (1, 1, 1), (1, 1, 1), "VALID")),
    OpCase("dilation2d_same", lambda x, f: ops.Dilation2D(stride=(2, 1), dilation=1)(x, f),
           [_distinct(2, 2, 5, 5), _distinct(2, 3, 2, seed=1)],
           lambda x, f: _dilation_ref(x, f, (2, 1), (1, 1), "SAME")),
    OpCase("dilation2d_valid_dilated", lambda x, f: ops.Dilation2D(1, (1, 1, 2, 1), "valid")(x, f),
           [_distinct(1, 3, 6, 5), _distinct(3, 2, 2, seed=2)],
           lambda x, f: _dilation_ref(x, f, (1, 1), (2, 1), "VALID")),
    OpCase("depthwise_conv2d_native_valid", lambda x, w: ops.DepthwiseConv2dNative(1, 3)(x, w),
           [rand(2, 3, 5, 6), rand(1, 3, 3, 3, seed=1)],
           lambda x, w: _depthwise_ref(x, w, 1, 1, (0, 0, 0, 0))),
    OpCase("depthwise_conv2d_native_same_strided",
           lambda x, w: ops.DepthwiseConv2dNative(1, (2, 2), pad_mode="same", stride=2)(x, w),
           [rand(1, 2, 5, 5), rand(1, 2, 2, 2, seed=1)],
           lambda x, w: _depthwise_ref(x, w, 2, 1, (0, 1, 0, 1))),
    OpCase("depthwise_conv2d_native_pad_dilated",
           lambda x, w: ops.DepthwiseConv2dNative(1, 2, pad_mode="pad", pad=(1, 0, 2, 1), dilation=2)(x, w),
           [rand(1, 2, 5, 5), rand(1, 2, 2, 2, seed=1)],
           lambda x, w: _depthwise_ref(x, w, 1, 2, (1, 0, 2, 1))),
]
