"""Rows for interpolate / upsample (cellonnx/ops/prims/resize.py), pixel_shuffle / pixel_unshuffle
(prims/pixel_shuffle.py) and the small nn functions of composite/nn_misc.py. The resize references loop over
output positions with MindSpore's coordinate rules written out (bicubic: TensorFlow's kernel, a = -0.5 with
the
outside taps left out and the rest renormalized, or a = -0.75 with clamped taps under align_corners, weights
from
a 1024-entry table)."""
from __future__ import annotations

import itertools
import math

import numpy as np

from cellonnx import ops
from tests.ops.harness import OpCase, rand


def _cubic(t, a):
    t = abs(t)
    if t <= 1:
        return ((a + 2) * t - (a + 3)) * t * t + 1
    return ((a * t - 5 * a) * t + 8 * a) * t - 4 * a if t < 2 else 0.0


def _taps(kind, n_in, n_out, ac, factor):
    """[(index, weight)] per output position along one axis."""
    out = []
    for d in range(n_out):
        s = n_in / n_out if factor is None else 1 / factor
        if kind == "nearest" and ac:  # TensorFlow's align_corners nearest: round half up
            src = d * (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0
            out.append([(min(math.floor(src + 0.5), n_in - 1), 1.0)])
            continue
        if kind == "nearest":
            out.append([(min(math.floor(d * s), n_in - 1), 1.0)])
            continue
        if kind == "nearest-exact":
            out.append([(min(math.floor((d + 0.5) * s), n_in - 1), 1.0)])
            continue
        src = d * (n_in - 1) / (n_out - 1) if ac and n_out > 1 else (0.0 if ac else (d + 0.5) * s - 0.5)
        base, clamp = kind, ac
        if kind.endswith("-asymmetric"):  # TensorFlow's default mapping: src = dst * in / out
            base, src, clamp = kind.split("-")[0], d * s, kind.startswith("cubic")
        if base == "linear":
            src = max(src, 0.0)
            i0 = min(math.floor(src), n_in - 1)
            lam = src - i0
            out.append([(i0, 1 - lam), (min(i0 + 1, n_in - 1), lam)])
            continue
        f = math.floor(src)
        t = round((src - f) * 1024) / 1024
        a = -0.75 if clamp else -0.5
        taps = [(f + k, _cubic(t - k, a)) for k in (-1, 0, 1, 2)]
        if clamp:
            out.append([(min(max(i, 0), n_in - 1), w) for i, w in taps])
        else:
            inside = [(i, w) for i, w in taps if 0 <= i < n_in]
            total = sum(w for _, w in inside)
            out.append([(i, w / total) for i, w in inside])
    return out


def ref_resize(x, sizes, kind, ac=False, factors=None):
    nd = len(sizes)
    taps = [_taps(kind, x.shape[2 + i], sizes[i], ac,
                  None if factors is None else factors[i]) for i in range(nd)]
    y = np.zeros(x.shape[:2] + tuple(sizes))
    for o in itertools.product(*[range(s) for s in sizes]):
        for combo in itertools.product(*[taps[i][o[i]] for i in range(nd)]):
            w = np.prod([c[1] for c in combo])
            y[(slice(None), slice(None)) + o] += w * x[(slice(None),
                                                        slice(None)) + tuple(c[0] for c in combo)]
    return y


def ref_pixel_shuffle(x, r):
    n, c, h, w = x.shape
    return x.reshape(n, c // r // r, r, r, h, w).transpose(0, 1, 4, 2, 5,
                                                           3).reshape(n, c // r // r, h * r, w * r)


X3 = rand(2, 3, 6, seed=601)
X4 = rand(2, 2, 5, 7, seed=602)
X5 = rand(1, 2, 3, 4, 5, seed=603)

CASES = [
    # the TensorFlow-style operator classes (cellonnx/ops/operations/resize_ops.py)
    OpCase("resize_bilinear_v2_asymmetric", lambda x: ops.ResizeBilinearV2()(x, (8, 4)), [X4],
           lambda x: ref_resize(x, (8, 4), "linear-asymmetric"), second_order=True),
    OpCase("resize_bicubic_asymmetric", lambda x: ops.ResizeBicubic()(x, (8, 4)), [X4],
           lambda x: ref_resize(x, (8, 4), "cubic-asymmetric"), rtol=1e-5, atol=1e-5),
    OpCase("resize_nearest_neighbor_align_corners", lambda x: ops.ResizeNearestNeighbor((8, 4), True)(x),
           [X4],
           lambda x: ref_resize(x, (8, 4), "nearest", True)),
    OpCase("resize_linear1d_asymmetric_mode",
           lambda x: ops.ResizeBilinearV2()(ops.expand_dims(x, 2), (1, 9))[:, :, 0], [X3],
           lambda x: ref_resize(x, (9,), "linear-asymmetric")),
    OpCase("interpolate_nearest_3d", lambda x: ops.interpolate(x, 11), [X3],
           lambda x: ref_resize(x, (11,), "nearest")),
    OpCase("interpolate_nearest_4d_down", lambda x: ops.interpolate(x, (3, 4)), [X4],
           lambda x: ref_resize(x, (3, 4), "nearest"), dynamic=True),
    OpCase("interpolate_nearest_5d_scale_factor", lambda x: ops.interpolate(x, scale_factor=1.7), [X5],
           lambda x: ref_resize(x, (5, 6, 8), "nearest", factors=(1.7,) * 3),
           note="the scale factor sets the coordinate mapping: source floor(dst / 1.7)"),
    OpCase("interpolate_nearest_int", lambda x: ops.interpolate(x, (8, 3)), [(X4 * 50).astype(np.int32)],
           lambda x: ref_resize(x.astype(np.float64), (8, 3), "nearest").astype(np.int32)),
    OpCase("interpolate_nearest_exact", lambda x: ops.interpolate(x, (9, 5), mode="nearest-exact"), [X4],
           lambda x: ref_resize(x, (9, 5), "nearest-exact")),
    OpCase("interpolate_linear", lambda x: ops.interpolate(x, 11, mode="linear"), [X3],
           lambda x: ref_resize(x, (11,), "linear"), second_order=True),
    OpCase("interpolate_linear_align_corners",
           lambda x: ops.interpolate(x, 4, mode="linear", align_corners=True),
           [X3], lambda x: ref_resize(x, (4,), "linear", True)),
    OpCase("interpolate_bilinear", lambda x: ops.interpolate(x, (8, 11), mode="bilinear"), [X4],
           lambda x: ref_resize(x, (8, 11), "linear"), dynamic=True),
    OpCase("interpolate_bilinear_align_corners_down",
           lambda x: ops.interpolate(x, (3, 4), mode="bilinear", align_corners=True), [X4],
           lambda x: ref_resize(x, (3, 4), "linear", True)),
    OpCase("interpolate_bilinear_recompute", lambda x: ops.interpolate(x, None, 1.5, "bilinear", None, True),
           [X4],
           lambda x: ref_resize(x, (7, 10), "linear")),
    OpCase("interpolate_bicubic", lambda x: ops.interpolate(x, (8, 11), mode="bicubic"), [X4],
           lambda x: ref_resize(x, (8, 11), "cubic"), rtol=1e-5, atol=1e-5),
    OpCase("interpolate_bicubic_align_corners_down",
           lambda x: ops.interpolate(x, (3, 4), mode="bicubic", align_corners=True), [X4],
           lambda x: ref_resize(x, (3, 4), "cubic", True)),
    OpCase("interpolate_trilinear", lambda x: ops.interpolate(x, (5, 7, 3), mode="trilinear"), [X5],
           lambda x: ref_resize(x, (5, 7, 3), "linear")),
    OpCase("interpolate_trilinear_scale_factor",
           lambda x: ops.interpolate(x, scale_factor=(1.5, 2.2, 0.8), mode="trilinear"), [X5],
           lambda x: ref_resize(x, (4, 8, 4), "linear", factors=(1.5, 2.2, 0.8))),
    OpCase("interpolate_area", lambda x: ops.interpolate(x, scale_factor=0.6, mode="area"), [X4],
           lambda x: np.stack([np.stack([x[:, :, i * 5 // 3:-(-(i + 1) * 5 // 3),
                                           j * 7 // 4:-(-(j + 1) * 7 // 4)]
                                         .mean((2, 3)) for j in range(4)], -1) for i in range(3)], -2)),
    OpCase("upsample", lambda x: ops.upsample(x, (4, 9), mode="bilinear", align_corners=True), [X4],
           lambda x: ref_resize(x, (4, 9), "linear", True)),
    OpCase("pixel_shuffle", lambda x: ops.pixel_shuffle(x, 2), [rand(2, 8, 3, 2, seed=604)],
           lambda x: ref_pixel_shuffle(x, 2), dynamic=True),
    OpCase("pixel_shuffle_5d", lambda x: ops.pixel_shuffle(x, 3), [rand(2, 2, 9, 2, 2, seed=605)],
           lambda x: ref_pixel_shuffle(x.reshape(4, 9, 2, 2), 3).reshape(2, 2, 1, 6, 6)),
    OpCase("pixel_unshuffle", lambda x: ops.pixel_unshuffle(x, 2), [rand(2, 2, 4, 6, seed=606)],
           lambda x: x.reshape(2, 2, 2, 2, 3, 2).transpose(0, 1, 3, 5, 2, 4).reshape(2, 8, 2, 3),
           dynamic=True),
    OpCase("channel_shuffle", lambda x: ops.channel_shuffle(x, 3), [rand(2, 6, 2, 3, seed=607)],
           lambda x: x.reshape(2, 3, 2, 2, 3).transpose(0, 2, 1, 3, 4).reshape(2, 6, 2, 3), dynamic=True),
    OpCase("bidense", lambda a, b, w, c: ops.bidense(a, b, w, c),
           [rand(2, 3, 4, seed=608), rand(2, 3, 5, seed=609), rand(6, 4, 5, seed=610), rand(6, seed=611)],
           lambda a, b, w, c: np.einsum("...i,kij,...j->...k", a, w, b) + c),
    OpCase("add_layer_norm", lambda a, b, g, c: ops.add_layer_norm(a, b, g, c),
           [rand(3, 5, seed=612), rand(3, 5, seed=613), rand(5, seed=614), rand(5, seed=615)],
           lambda a, b, g, c: (((a + b) - (a + b).mean(-1, keepdims=True)) /
                               np.sqrt((a + b).var(-1, keepdims=True) + 1e-5) * g + c,
                               (a + b).mean(-1, keepdims=True),
                               1 / np.sqrt((a + b).var(-1, keepdims=True) + 1e-5),
                               a + b)),
    OpCase("pdist_p2", lambda x: ops.pdist(x), [rand(2, 4, 3, seed=616)],
           lambda x: np.stack([np.linalg.norm(x[:, i] - x[:, j],
                                              axis=-1) for i in range(4) for j in range(i + 1, 4)],
                              -1)),
    OpCase("pdist_p3", lambda x: ops.pdist(x, 3.0), [rand(5, 3, seed=617)],
           lambda x: np.array([(np.abs(x[i] - x[j]) ** 3).sum() ** (1 / 3)
                               for i in range(5) for j in range(i + 1, 5)])),
    OpCase("intopk", lambda x, t: ops.intopk(x, t, 2), [np.array([[1, 3, 2, 0], [4, 4, 1, 4], [0, 1, 2, 3.]]),
                                                         np.array([2, 2, 0])],
           lambda x, t: np.array([True, False, False]), grad=()),
    OpCase("msort", lambda x: ops.msort(x), [rand(5, 3, seed=618)], lambda x: np.sort(x, 0)),
    OpCase("fliplr_flipud", lambda x: (ops.fliplr(x), ops.flipud(x)), [rand(3, 4, 2, seed=619)],
           lambda x: (x[:, ::-1], x[::-1])),
]


def _gs_source(g, size, pad, align):
    c = (g + 1) / 2 * (size - 1) if align else ((g + 1) * size - 1) / 2
    if pad == "border":
        return min(max(c, 0.0), size - 1.0)
    if pad == "reflection":
        lo, hi = (0, 2 * (size - 1)) if align else (-1, 2 * size - 1)
        if lo == hi:
            return 0.0
        low, span = lo / 2, (hi - lo) / 2
        c = abs(c - low)
        flips = math.floor(c / span)
        extra = c - flips * span
        c = extra + low if flips % 2 == 0 else span - extra + low
        return min(max(c, 0.0), size - 1.0)
    return c


def ref_grid_sample(x, grid, mode="bilinear", pad="zeros", align=False):
    nd = x.ndim - 2
    sizes = x.shape[2:]
    out = np.zeros(x.shape[:2] + grid.shape[1:-1])
    for n in range(x.shape[0]):
        for pos in itertools.product(*[range(s) for s in grid.shape[1:-1]]):
            src = [_gs_source(grid[(n,) + pos][nd - 1 - i], sizes[i], pad, align) for i in range(nd)]
            if mode == "nearest":
                corners = [([float(np.round(v)) for v in src], 1.0)]
            else:
                corners = []
                for bits in itertools.product((0, 1), repeat=nd):
                    idx = [math.floor(v) + b for v, b in zip(src, bits)]
                    w = np.prod([(v - math.floor(v)) if b else 1 - (v - math.floor(v)) for v,
                                 b in zip(src, bits)])
                    corners.append((idx, w))
            for idx, w in corners:
                if all(0 <= i <= s - 1 for i, s in zip(idx, sizes)):
                    out[(n, slice(None)) + pos] += w * x[(n, slice(None)) + tuple(int(i) for i in idx)]
    return out


GRID_X = rand(2, 3, 4, 5, seed=620)
GRID = rand(2, 3, 6, 2, seed=621) * 1.3
CASES += [
    OpCase(f"grid_sample_{mode}_{pad}_{int(align)}",
           lambda x, g, mode=mode, pad=pad, align=align: ops.grid_sample(x, g, mode, pad, align),
           [GRID_X, GRID],
           lambda x, g, mode=mode, pad=pad, align=align: ref_grid_sample(x, g, mode, pad, align),
           grad=(0, 1) if mode == "bilinear" else (0,))
    for mode, pad, align in [("bilinear", "zeros", False), ("bilinear", "border", True),
                             ("bilinear", "reflection", False), ("nearest", "zeros", True),
                             ("nearest", "reflection", True)]
]
CASES.append(OpCase("grid_sample_trilinear", lambda x, g: ops.grid_sample(x, g, "bilinear", "border"),
                    [rand(1, 2, 3, 4, 3, seed=622), rand(1, 2, 3, 2, 3, seed=623) * 1.2],
                    lambda x, g: ref_grid_sample(x, g, "bilinear", "border")))


def ref_deformable_conv2d(x, w, off, b, kernel, stride, pads, dil, groups, dg):
    n, c, h, wd = x.shape
    kh, kw = kernel
    sh, sw = stride
    top, bottom, left, right = pads
    dh, dw = dil
    ho = (h + top + bottom - dh * (kh - 1) - 1) // sh + 1
    wo = (wd + left + right - dw * (kw - 1) - 1) // sw + 1
    k = kh * kw
    off = off.reshape(n, 3, dg, k, ho, wo)
    cols = np.zeros((n, c, kh, kw, ho, wo))
    for b_, ch, i, j, y, z in itertools.product(range(n), range(c), range(kh), range(kw), range(ho),
                                                range(wo)):
        g = ch // (c // dg)
        py = y * sh - top + i * dh + off[b_, 1, g, i * kw + j, y, z]
        px = z * sw - left + j * dw + off[b_, 0, g, i * kw + j, y, z]
        y0, x0 = math.floor(py), math.floor(px)
        v = 0.0
        for yy, xx in itertools.product((y0, y0 + 1), (x0, x0 + 1)):
            if 0 <= yy < h and 0 <= xx < wd:
                v += (1 - abs(py - yy)) * (1 - abs(px - xx)) * x[b_, ch, yy, xx]
        cols[b_, ch, i, j, y, z] = v * off[b_, 2, g, i * kw + j, y, z]
    co = w.shape[0]
    out = np.zeros((n, co, ho, wo))
    for o in range(co):
        g = o // (co // groups)
        cin = slice(g * (c // groups), (g + 1) * (c // groups))
        out[:, o] = np.einsum("nckl...,ckl->n...", cols[:, cin], w[o]) + b[o]
    return out


_DCN_OFF = np.concatenate([rand(2, 24, 2, 5, seed=624) * 1.5, rand(2, 12, 2, 5, seed=625, low=0.1,
                                                                   high=1.0)], 1)
CASES.append(OpCase("deformable_conv2d",
                    lambda x, w, o, b: ops.deformable_conv2d(x, w, o, (3, 2), (1, 1, 2, 1), (1, 0, 0, 1), b,
                                                             (1, 1, 1, 2), 2, 2),
                    [rand(2, 4, 5, 6, seed=626), rand(6, 2, 3, 2, seed=627), _DCN_OFF, rand(6, seed=628)],
                    lambda x, w, o, b: ref_deformable_conv2d(x, w, o, b, (3, 2), (2, 1), (1, 0, 0, 1),
                                                             (1, 2), 2, 2),
                    rtol=1e-5, atol=1e-5))
