"""Rows for the spatial block functions (composite/spatial.py) and the image functions (composite/image.py).

References are loops over output positions written from the operations' definitions (TensorFlow's
SpaceToBatchND / CropAndResize, im2col); tests/ops/test_array_mindspore.py compares with real MindSpore.
"""
from __future__ import annotations

import math

import numpy as np

from cellonnx import ops
from cellonnx.tensor import Tensor
from tests.ops.harness import OpCase, positive, rand

I32 = np.int32


def _s2b_ref(x, block, pads):
    m = len(block)
    lead = x.ndim - m
    x = np.pad(x, [(0, 0)] * lead + list(pads))
    n = x.shape[0]
    out_sp = [x.shape[lead + i] // b for i, b in enumerate(block)]
    out = np.zeros((n * int(np.prod(block)),) + x.shape[1:lead] + tuple(out_sp))
    for offs in np.ndindex(*block):
        k = np.ravel_multi_index(offs, block)
        for pos in np.ndindex(*out_sp):
            src = tuple(p * b + o for p, b, o in zip(pos, block, offs))
            out[(slice(k * n, (k + 1) * n),) + (slice(None),) * (lead - 1) + pos] = \
                x[(slice(None),) * lead + src]
    return out


def _b2s_ref(x, block, crops):
    m = len(block)
    lead = x.ndim - m
    nb = int(np.prod(block))
    n = x.shape[0] // nb
    full = [x.shape[lead + i] * b for i, b in enumerate(block)]
    out = np.zeros((n,) + x.shape[1:lead] + tuple(full))
    for offs in np.ndindex(*block):
        k = np.ravel_multi_index(offs, block)
        for pos in np.ndindex(*x.shape[lead:]):
            dst = tuple(p * b + o for p, b, o in zip(pos, block, offs))
            src = (slice(k * n, (k + 1) * n),) + (slice(None),) * (lead - 1) + pos
            out[(slice(None),) * lead + dst] = x[src]
    return out[(slice(None),) * lead + tuple(slice(b, f - e) for (b, e), f in zip(crops, full))]


def _unfold_ref(x, k, d, p, s):
    n, c, h, w = x.shape
    xp = np.pad(x, [(0, 0), (0, 0), (p[0], p[0]), (p[1], p[1])])
    oh = (h + 2 * p[0] - d[0] * (k[0] - 1) - 1) // s[0] + 1
    ow = (w + 2 * p[1] - d[1] * (k[1] - 1) - 1) // s[1] + 1
    out = np.zeros((n, c, k[0], k[1], oh, ow))
    for i, j, y, z in np.ndindex(k[0], k[1], oh, ow):
        out[:, :, i, j, y, z] = xp[:, :, y * s[0] + i * d[0], z * s[1] + j * d[1]]
    return out.reshape(n, c * k[0] * k[1], oh * ow)


def _fold_ref(cols, size, k, d, p, s):
    n, ck, _ = cols.shape
    c = ck // (k[0] * k[1])
    oh = (size[0] + 2 * p[0] - d[0] * (k[0] - 1) - 1) // s[0] + 1
    ow = (size[1] + 2 * p[1] - d[1] * (k[1] - 1) - 1) // s[1] + 1
    blocks = cols.reshape(n, c, k[0], k[1], oh, ow)
    out = np.zeros((n, c, size[0] + 2 * p[0], size[1] + 2 * p[1]))
    for i, j, y, z in np.ndindex(k[0], k[1], oh, ow):
        out[:, :, y * s[0] + i * d[0], z * s[1] + j * d[1]] += blocks[:, :, i, j, y, z]
    return out[:, :, p[0]:p[0] + size[0], p[1]:p[1] + size[1]]


def _affine_grid_ref(theta, size, align):
    def coords(m):
        if align:
            return np.linspace(-1, 1, m)
        return (2 * np.arange(m) + 1) / m - 1
    spatial = size[2:]
    out = np.zeros((size[0],) + tuple(spatial) + (len(spatial),))
    axes = [coords(m) for m in spatial]
    for b in range(size[0]):
        for pos in np.ndindex(*spatial):
            point = [axes[a][pos[a]] for a in range(len(spatial))][::-1] + [1.0]   # x, y[, z], 1
            out[(b,) + pos] = theta[b] @ np.array(point)
    return out


def _crop_ref(img, boxes, idx, size, method, extrapolation):
    _, h, w, c = img.shape
    out = np.zeros((len(boxes), size[0], size[1], c))
    for k, ((y1, x1, y2, x2), b) in enumerate(zip(boxes, idx)):
        for i, j in np.ndindex(*size):
            y = y1 * (h - 1) + i * (y2 - y1) * (h - 1) / (size[0] - 1) if size[0] > 1 else \
                0.5 * (y1 + y2) * (h - 1)
            x = x1 * (w - 1) + j * (x2 - x1) * (w - 1) / (size[1] - 1) if size[1] > 1 else \
                0.5 * (x1 + x2) * (w - 1)
            if not (0 <= y <= h - 1 and 0 <= x <= w - 1):
                out[k, i, j] = extrapolation
            elif method == "nearest":
                out[k, i, j] = img[b, math.floor(y + 0.5), math.floor(x + 0.5)]
            else:
                t, bo, le, ri = math.floor(y), math.ceil(y), math.floor(x), math.ceil(x)
                top = img[b, t, le] + (img[b, t, ri] - img[b, t, le]) * (x - le)
                bottom = img[b, bo, le] + (img[b, bo, ri] - img[b, bo, le]) * (x - le)
                out[k, i, j] = top + (bottom - top) * (y - t)
    return out


def _wh(b):
    return (b[:, 0] + b[:, 2]) / 2, (b[:, 1] + b[:, 3]) / 2, b[:, 2] - b[:, 0] + 1, b[:, 3] - b[:, 1] + 1


def _encode_ref(a, g, means, stds):
    px, py, pw, ph = _wh(a)
    gx, gy, gw, gh = _wh(g)
    d = np.stack([(gx - px) / pw, (gy - py) / ph, np.log(gw / pw), np.log(gh / ph)], 1)
    return (d - np.array(means)) / np.array(stds)


def _decode_ref(a, d, max_shape, means, stds, clip):
    d = d * np.array(stds) + np.array(means)
    r = abs(math.log(clip))
    dw, dh = np.clip(d[:, 2], -r, r), np.clip(d[:, 3], -r, r)
    px, py, pw, ph = _wh(a)
    gw, gh = pw * np.exp(dw), ph * np.exp(dh)
    gx, gy = px + pw * d[:, 0], py + ph * d[:, 1]
    hy, hx = max_shape
    return np.stack([np.clip(gx - gw / 2 + 0.5, 0, hx), np.clip(gy - gh / 2 + 0.5, 0, hy),
                     np.clip(gx + gw / 2 - 0.5, 0, hx), np.clip(gy + gh / 2 - 0.5, 0, hy)], 1)


IMG = rand(2, 5, 6, 3, seed=101)
# inside, whole image, flipped, partly outside (extrapolated rows)
BOXES = np.array([[0.1, 0.2, 0.8, 0.9], [0.0, 0.0, 1.0, 1.0], [0.7, 0.6, 0.2, 0.15], [-0.3, 0.1, 1.2, 0.65]])
ANCHORS = np.array([[0.0, 0.0, 10.0, 10.0], [5.0, 5.0, 20.0, 30.0], [2.0, 3.0, 8.0, 4.0]])
GT = np.array([[1.0, 2.0, 9.0, 12.0], [4.0, 6.0, 25.0, 28.0], [1.5, 2.0, 9.0, 6.0]])
DELTAS = np.array([[0.1, -0.2, 0.5, -0.3], [0.3, 0.2, 0.05, -0.6], [-0.1, 0.4, 0.9, 0.2]])
MEANS, STDS = (0.1, 0.0, 0.2, 0.0), (0.1, 0.1, 0.2, 0.2)
F32_GRAD = {"eps": 1e-2, "grad_rtol": 1e-4, "grad_atol": 1e-5}
F32_NOTE = "computed in float32 (MindSpore's output dtype) also for float64 input; the output is linear in " \
           "the image, so a large finite-difference step is exact"

CASES = [
    OpCase("space_to_batch_nd", lambda x: ops.space_to_batch_nd(x, [2, 2], [[1, 1], [0, 1]]),
           [rand(2, 3, 2, 3)],
           lambda x: _s2b_ref(x, [2, 2], [[1, 1], [0, 1]])),
    OpCase("space_to_batch_nd_1d_int_block", lambda x: ops.space_to_batch_nd(x, 3, [[1, 2]]), [rand(2, 2, 6)],
           lambda x: _s2b_ref(x, [3], [[1, 2]])),
    OpCase("batch_to_space_nd", lambda x: ops.batch_to_space_nd(x, [2, 2], [[0, 1], [1, 0]]),
           [rand(8, 3, 2, 3)],
           lambda x: _b2s_ref(x, [2, 2], [[0, 1], [1, 0]])),
    OpCase("unfold", lambda x: ops.unfold(x, 2, 1, 1, 2), [rand(2, 2, 4, 5)],
           lambda x: _unfold_ref(x, (2, 2), (1, 1), (1, 1), (2, 2))),
    OpCase("unfold_rectangular", lambda x: ops.unfold(x, (2, 3), (1, 2), (0, 1), (1, 2)), [rand(1, 2, 4, 6)],
           lambda x: _unfold_ref(x, (2, 3), (1, 2), (0, 1), (1, 2))),
    OpCase("fold", lambda x: ops.fold(x, Tensor(np.array([4, 5], I32)), 2, 1, 1, 2), [rand(2, 8, 9)],
           lambda x: _fold_ref(x, (4, 5), (2, 2), (1, 1), (1, 1), (2, 2))),
    OpCase("fold_overlapping", lambda x: ops.fold(x, (3, 4), (2, 2)), [rand(1, 4, 6)],
           lambda x: _fold_ref(x, (3, 4), (2, 2), (1, 1), (0, 0), (1, 1))),
    OpCase("col2im", lambda x: ops.col2im(x, Tensor(np.array([4, 4], I32)), [2, 2], [1, 1], [1, 1], [2, 2]),
           [rand(1, 2, 4, 9)],
           lambda x: _fold_ref(x.reshape(1, 8, 9), (4, 4), (2, 2), (1, 1), (1, 1), (2, 2))),
    OpCase("affine_grid", lambda t: ops.affine_grid(t, (2, 1, 3, 4)), [rand(2, 2, 3)],
           lambda t: _affine_grid_ref(t, (2, 1, 3, 4), False)),
    OpCase("affine_grid_3d_align_corners", lambda t: ops.affine_grid(t, (1, 2, 2, 3, 2), True),
           [rand(1, 3, 4)],
           lambda t: _affine_grid_ref(t, (1, 2, 2, 3, 2), True)),
    OpCase("crop_and_resize", lambda im, b, i: ops.crop_and_resize(im, b, i, (3, 4)),
           [IMG, BOXES, np.array([0, 1, 1, 0], I32)],
           lambda im, b, i: _crop_ref(im, b, i, (3, 4), "bilinear", 0.0), grad=(0,), **F32_GRAD,
           note="the image's gradient (boxes get one too; finite differences across a pixel edge are not "
                "checked); " + F32_NOTE),
    OpCase("crop_and_resize_nearest", lambda im, b, i: ops.crop_and_resize(im, b, i, (2, 3), "nearest", -1.0),
           [IMG, BOXES, np.array([1, 0, 1, 0], I32)],
           lambda im, b, i: _crop_ref(im, b, i, (2, 3), "nearest", -1.0), grad=(0,), **F32_GRAD,
           note=F32_NOTE),
    OpCase("crop_and_resize_single_point", lambda im, b, i: ops.crop_and_resize(im, b, i, (1, 1)),
           [IMG, BOXES, np.array([0, 0, 1, 1], I32)],
           lambda im, b, i: _crop_ref(im, b, i, (1, 1), "bilinear", 0.0), grad=(0,), **F32_GRAD,
           note=F32_NOTE),
    OpCase("bounding_box_encode", lambda a, g: ops.bounding_box_encode(a, g, MEANS, STDS), [ANCHORS, GT],
           lambda a, g: _encode_ref(a, g, MEANS, STDS)),
    OpCase("bounding_box_decode", lambda a, d: ops.bounding_box_decode(a, d, (12, 15), MEANS, STDS, 0.1),
           [ANCHORS, DELTAS], lambda a, d: _decode_ref(a, d, (12, 15), MEANS, STDS, 0.1)),
    OpCase("check_valid", lambda b, m: ops.check_valid(b, m),
           [np.array([[20.0, 20, 50, 50], [0, 0, 59, 39], [-1, 0, 10, 10], [0, 0, 40, 20]]),
            np.array([40.0, 60, 1])],
           lambda b, m: (b[:, 0] >= 0) & (b[:, 1] >= 0) & (b[:, 2] <= 59) & (b[:, 3] <= 39)),
    OpCase("bounding_box_decode_positive_sizes", lambda a, d: ops.bounding_box_decode(a, d, (100, 100)),
           [ANCHORS, positive(3, 4, seed=102) - 1.0],
           lambda a, d: _decode_ref(a, d, (100, 100), (0,) * 4, (1,) * 4, 0.016)),
]
