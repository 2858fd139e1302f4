"""Rows for the 3-D convolutions (cellonnx/ops/prims/conv3d.py over Conv / ConvTranspose, NumPy kernels in
conv_nd.py): references loop over every output position and kernel offset in float64."""
from __future__ import annotations

import itertools

import numpy as np

from cellonnx import ops
from tests.ops.harness import OpCase, rand


def _t(v, nd):
    return (v,) * nd if isinstance(v, int) else tuple(v)


def ref_conv(x, w, b=None, stride=1, pads=None, dilation=1, groups=1):
    """N-D cross-correlation; pads in ONNX order (all begins, then all ends)."""
    nd = x.ndim - 2
    s, d = _t(stride, nd), _t(dilation, nd)
    p = pads or (0,) * (2 * nd)
    xp = np.pad(x, [(0, 0), (0, 0)] + [(p[i], p[i + nd]) for i in range(nd)])
    k = w.shape[2:]
    out = [(xp.shape[2 + i] - d[i] * (k[i] - 1) - 1) // s[i] + 1 for i in range(nd)]
    n, c = x.shape[:2]
    co = w.shape[0]
    cg, cog = c // groups, co // groups
    y = np.zeros((n, co) + tuple(out))
    for o in itertools.product(*[range(v) for v in out]):
        for kk in itertools.product(*[range(v) for v in k]):
            v = xp[(slice(None), slice(None)) + tuple(o[i] * s[i] + kk[i] * d[i] for i in range(nd))]
            for g in range(groups):
                rows = slice(g * cog, (g + 1) * cog)
                y[(slice(None), rows) + o] += v[:, g * cg:(g + 1) * cg] @ w[(rows, slice(None)) + kk].T
    if b is not None:
        y += b.reshape((1, -1) + (1,) * nd)
    return y


def ref_conv_transpose(u, w, stride=1, pads=None, dilation=1, groups=1, output_padding=0):
    nd = u.ndim - 2
    s, d, op = _t(stride, nd), _t(dilation, nd), _t(output_padding, nd)
    p = pads or (0,) * (2 * nd)
    k = w.shape[2:]
    n, ci = u.shape[:2]
    cog, cig = w.shape[1], ci // groups
    full = [(u.shape[2 + i] - 1) * s[i] + d[i] * (k[i] - 1) + 1 + op[i] for i in range(nd)]
    y = np.zeros((n, cog * groups) + tuple(full))
    for o in itertools.product(*[range(v) for v in u.shape[2:]]):
        for kk in itertools.product(*[range(v) for v in k]):
            at = tuple(o[i] * s[i] + kk[i] * d[i] for i in range(nd))
            for g in range(groups):
                src = u[(slice(None), slice(g * cig, (g + 1) * cig)) + o]
                y[(slice(None), slice(g * cog,
                                      (g + 1) * cog)) + at] += src @ w[(slice(g * cig, (g + 1) * cig),
                                                                                slice(None)) + kk]
    return y[(slice(None), slice(None)) + tuple(slice(p[i], full[i] - p[i + nd]) for i in range(nd))]


X = rand(2, 4, 4, 5, 4, seed=301)
W = rand(6, 2, 2, 3, 2, seed=302)
B = rand(6, seed=303)
U = rand(2, 4, 3, 2, 3, seed=304)
WT = rand(4, 3, 2, 2, 3, seed=305)

CASES = [
    OpCase("conv3d_valid", lambda x, w: ops.conv3d(x, w[:, :, :2, :2, :2], groups=2), [X, W],
           lambda x, w: ref_conv(x, w[:, :, :2, :2, :2], groups=2), second_order=True),
    OpCase("conv3d_pad_stride_dilation_bias",
           lambda x, w, b: ops.conv3d(x, w, b, (1, 2, 1), "pad", (1, 0, 2, 1, 0, 1), (2, 1, 1), 2), [X, W, B],
           lambda x, w, b: ref_conv(x, w, b, (1, 2, 1), (1, 2, 0, 0, 1, 1), (2, 1, 1), 2)),
    OpCase("conv3d_same_stride2_dynamic", lambda x, w: ops.conv3d(x, w, None, 2, "same", groups=2), [X, W],
           lambda x, w: ref_conv(x, w, None, 2, (0, 1, 0, 0, 1, 0), 1, 2), dynamic=True,
           note="'same' with stride 2: (0, 1, 0) at the front, (0, 1, 0) at the back for a 2x3x2 kernel"),
    OpCase("conv3d_padding_per_dim", lambda x, w: ops.conv3d(x, w[:3, :, :, :, :1], None, 1, "pad",
                                                             (1, 0, 2)),
           [rand(1, 2, 3, 3, 3, seed=306), W], lambda x, w: ref_conv(x, w[:3, :, :, :, :1], None, 1,
                                                                       (1, 0, 2, 1, 0, 2))),
    OpCase("conv3d_transpose_pad_output_padding",
           lambda u, w: ops.conv3d_transpose(u, w, "pad", 1, 2, 1, 2, 1), [U, WT],
           lambda u, w: ref_conv_transpose(u, w, 2, (1,) * 6, 1, 2, 1), second_order=True),
    OpCase("conv3d_transpose_valid_dilation", lambda u, w: ops.conv3d_transpose(u, w, stride=(1, 2, 1),
                                                                                 dilation=(1, 1, 2)),
           [U, WT[:, :, :, :, :2]], lambda u, w: ref_conv_transpose(u, w, (1, 2, 1), None, (1, 1, 2))),
    OpCase("conv3d_transpose_same", lambda u, w: ops.conv3d_transpose(u, w, "same", stride=2), [U, WT],
           lambda u, w: ref_conv_transpose(u, w, 2, None)[:, :, :6, :4, :6],
           note="'same': output in * stride; (k - stride) = 0 / 0 / 1 rows cropped, the odd one at the end"),
]
