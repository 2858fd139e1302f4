"""Rows for clipping, sequences, distances, box overlaps and the fused kernels (cellonnx/ops/composite/
clip.py, sequence.py, distance.py, fused.py)."""
from __future__ import annotations

import numpy as np
from scipy.spatial.distance import cdist as sp_cdist

from cellonnx import ops
from cellonnx.ops.prims.boxes import NmsKeep
from tests.ops.harness import OpCase, positive, rand

A, B = rand(3, 4, seed=101), rand(3, 4, seed=102)
V = rand(4, seed=103)
PTS1, PTS2 = rand(2, 4, 3, seed=104), rand(2, 5, 3, seed=105)
BOXES_A = np.array([[0.0, 0.0, 2.0, 2.0], [1.0, 1.0, 3.0, 3.0]])
BOXES_G = np.array([[0.0, 0.0, 2.0, 2.0], [0.0, 0.0, 1.0, 1.0], [2.0, 2.0, 4.0, 4.0]])


def _iou_ref(a, g, iof=False):
    out = np.zeros((len(g), len(a)))
    for i, gb in enumerate(g):
        for j, ab in enumerate(a):
            w = max(min(gb[2], ab[2]) - max(gb[0], ab[0]) + 1, 0)
            h = max(min(gb[3], ab[3]) - max(gb[1], ab[1]) + 1, 0)
            area = lambda b: (b[2] - b[0] + 1) * (b[3] - b[1] + 1)
            out[i, j] = w * h / (area(gb) if iof else area(gb) + area(ab) - w * h)
    return out


def _global(ts, clip):
    norm = np.sqrt(sum(np.sum(t * t) for t in ts))
    return tuple(t * clip / max(norm, clip) for t in ts)


def _rms_ref(x, g, eps=1e-6):
    rstd = 1 / np.sqrt(np.mean(x * x, -1, keepdims=True) + eps)
    return x * rstd * g, rstd


def _rope_ref(x, c, s, mode):
    if mode == 0:
        half = x.shape[-1] // 2
        rot = np.concatenate([-x[..., half:], x[..., :half]], -1)
    else:
        rot = np.stack([-x[..., 1::2], x[..., ::2]], -1).reshape(x.shape)
    return x * c + rot * s


def _msda_ref(value, shapes, starts, loc, weight):
    """Bilinear sampling at loc * size - 0.5 with zero padding, as grid_sample(align_corners=False)."""
    bs, _, nh, d = value.shape
    _, nq, _, nl, npt, _ = loc.shape
    out = np.zeros((bs, nq, nh, d))
    for b, q, h, lv, p in np.ndindex(bs, nq, nh, nl, npt):
        hh, ww = shapes[lv]
        fmap = value[b, starts[lv]:starts[lv] + hh * ww, h].reshape(hh, ww, d)
        x, y = loc[b, q, h, lv, p] * [ww, hh] - 0.5
        x0, y0 = int(np.floor(x)), int(np.floor(y))
        acc = np.zeros(d)
        for xi, yi in ((x0, y0), (x0 + 1, y0), (x0, y0 + 1), (x0 + 1, y0 + 1)):
            if 0 <= xi < ww and 0 <= yi < hh:
                acc += (1 - abs(x - xi)) * (1 - abs(y - yi)) * fmap[yi, xi]
        out[b, q, h] += weight[b, q, h, lv, p] * acc
    return out.reshape(bs, nq, nh * d)


MSDA_VALUE = rand(1, 2 * 3 + 1 * 2, 2, 4, seed=106)
MSDA_LOC = positive(1, 3, 2, 2, 2, 2, seed=107) / 2.2        # in (0.23, 0.91)
MSDA_W = rand(1, 3, 2, 2, 2, seed=108)

# (x, y, w, h, angle in degrees)
# two batches: overlapping pairs, a box with score 0 (no part), reversed corners, a zero-area box
NMS_BOXES = np.array([[[0, 0, 1, 1], [0, 0, 1, 0.9], [2, 2, 3, 3], [0, 0, 1, 1], [5, 5, 6, 6]],
                      [[1, 1, 0, 0], [0, 0, 1, 1], [0, 0.5, 1, 1.5], [3, 3, 3, 4], [3, 3, 4, 4]]])
NMS_SCORES = np.array([[5.0, 4.0, 3.0, 0.0, 1.0], [1.0, 2.0, 3.0, 4.0, 5.0]])
NMS_KEEP = np.array([[True, False, True, False, True], [False, True, True, True, True]])
ROT_A = np.array([[[0.0, 0.0, 4.0, 2.0, 0.0], [1.0, 1.0, 2.0, 2.0, 45.0]]])
ROT_B = np.array([[[0.0, 0.0, 4.0, 2.0, 90.0], [1.0, 1.0, 2.0, 2.0, 45.0], [3.0, 0.0, 4.0, 2.0, 0.0]]])


def _rotated_ref():
    """Overlaps worked out by hand. The tilted square (a diamond |x - 1| + |y - 1| <= sqrt(2), area 4) meets
    the 4 x 2 rectangles in half of itself less a corner triangle of legs sqrt(2) - 1."""
    cut = 2 - (np.sqrt(2) - 1) ** 2 / 2
    iou = np.array([[[4 / 12, cut / (12 - cut), 2 / 14], [cut / (12 - cut), 1.0, 1 / 11]]])
    iof = np.array([[[4 / 8, cut / 8, 2 / 8], [cut / 4, 1.0, 1 / 4]]])
    return iou, iof, np.array([[1 / 3, 1.0]])


CASES = [
    # clipping
    OpCase("clip_by_value", lambda x: ops.clip_by_value(x, -0.3, 0.4), [A], lambda x: np.clip(x, -0.3, 0.4)),
    OpCase("clip_by_value_list_tensor_bound", lambda x, y, hi: ops.clip_by_value([x, y], None, hi), [A, V, B],
           lambda x, y, hi: [np.minimum(x, hi), np.minimum(y, hi)]),
    OpCase("clip_by_norm", lambda x: ops.clip_by_norm(x, 1.0), [A],
           lambda x: x * min(1.0 / (np.linalg.norm(x) + 1e-6), 1.0), rtol=2e-5),
    OpCase("clip_by_norm_list_inf", lambda x, y: ops.clip_by_norm((x, y), 0.5, float("inf")), [A, V],
           lambda x, y: tuple(t * min(0.5 / (max(np.abs(x).max(), np.abs(y).max()) + 1e-6),
                                      1) for t in (x, y))),
    OpCase("clip_by_global_norm", lambda x, y: ops.clip_by_global_norm((x, y), 1.0), [A, V],
           lambda x, y: _global((x, y), 1.0), rtol=2e-5),
    OpCase("clip_by_global_norm_unclipped", lambda x, y: ops.clip_by_global_norm((x, y), 100.0), [A, V],
           lambda x, y: (x, y)),
    # sequences and stacking
    OpCase("linspace", lambda: (ops.linspace(0, 1, 5), ops.linspace(2, -3, 1), ops.linspace(-1.5, 7, 9)), [],
           lambda: (np.linspace(0, 1, 5), np.linspace(2, -3, 1), np.linspace(-1.5, 7, 9))),
    OpCase("linspace_tensor_ends", lambda a, b: ops.linspace(a, b, 4), [np.array(0.5), np.array(-2.0)],
           lambda a, b: np.linspace(a, b, 4)),
    OpCase("logspace", lambda: (ops.logspace(0, 2, 3), ops.logspace(-1, 3, 5, 2, dtype="float64")), [],
           lambda: (np.logspace(0, 2, 3), np.logspace(-1, 3, 5, base=2))),
    OpCase("atleast", lambda x, v: (ops.atleast_1d(x[0, 0]), ops.atleast_2d(v), ops.atleast_3d((x, v))),
           [A, V],
           lambda x, v: (np.atleast_1d(x[0, 0]), np.atleast_2d(v), *np.atleast_3d(x, v))),
    OpCase("vstack_row_stack", lambda x, v: (ops.vstack([x, v]), ops.row_stack((v, v))), [A, V],
           lambda x, v: (np.vstack([x, v]), np.vstack([v, v]))),
    OpCase("dstack", lambda x, y: ops.dstack([x, y]), [A, B], lambda x, y: np.dstack([x, y])),
    OpCase("rot90", lambda x: (ops.rot90(x, 1, (0, 1)), ops.rot90(x, -1, (0, 1)), ops.rot90(x, 2, (1, 0)),
                               ops.rot90(x, 7, [1, 0])), [A],
           lambda x: (np.rot90(x, 1, (0, 1)), np.rot90(x, -1, (0, 1)), np.rot90(x, 2, (1, 0)),
                      np.rot90(x, 7, (1, 0)))),
    # distances
    OpCase("cdist", lambda a, b: ops.cdist(a, b), [PTS1, PTS2],
           lambda a, b: np.stack([sp_cdist(x, y) for x, y in zip(a, b)]), second_order=True),
    OpCase("cdist_p1_pinf_p0", lambda a, b: (ops.cdist(a[0], b[0], 1.0), ops.cdist(a[0], b[0], float("inf")),
                                              ops.cdist(a[0], a[0], 0.0)), [PTS1, PTS2],
           lambda a, b: (sp_cdist(a[0], b[0], "cityblock"), sp_cdist(a[0], b[0], "chebyshev"),
                         sp_cdist(a[0], a[0], "hamming") * 3), grad=()),
    OpCase("cdist_p3", lambda a, b: ops.cdist(a, b, 3.0), [PTS1[0], PTS2[0]],
           lambda a, b: sp_cdist(a, b, "minkowski", p=3)),
    OpCase("cdist_zero_distance_grad", lambda a: ops.cdist(a, a), [PTS1[0]], lambda a: sp_cdist(a, a),
           note="the 2-norm of equal rows has a zero gradient, not NaN"),
    OpCase("dist", lambda a, b: (ops.dist(a, b), ops.dist(a, b, 3), ops.dist(a, b, 0)), [A, B],
           lambda a, b: (np.linalg.norm(a - b), np.sum(np.abs(a - b) ** 3) ** (1 / 3),
                         float(np.count_nonzero(a - b)))),
    OpCase("cosine_similarity", lambda a, b: ops.cosine_similarity(a, b), [A, B],
           lambda a, b: np.sum(a * b, 1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))),
    OpCase("cosine_similarity_dim0", lambda a, b: ops.cosine_similarity(a, b, 0), [A, B],
           lambda a, b: np.sum(a * b, 0) / (np.linalg.norm(a, axis=0) * np.linalg.norm(b, axis=0))),
    OpCase("renorm", lambda x: ops.renorm(x * 3, 2, 0, 2.0), [A],
           lambda x: np.stack([r * min(1, 2.0 / np.linalg.norm(r)) for r in x * 3])),
    OpCase("renorm_p1_axis1", lambda x: ops.renorm(x * 3, 1, 1, 2.0), [A],
           lambda x: np.stack([c * min(1, 2.0 / np.abs(c).sum()) for c in (x * 3).T], 1)),
    OpCase("bucketize", lambda x: (ops.bucketize(x, [-0.5, 0.0, 0.5]), ops.bucketize(x, [-0.5, 0.0, 0.5],
                                                                                      right=True)),
           [np.array([[-1.0, -0.5, 0.0, 0.2], [0.5, 0.7, -0.1, 1.0]])],
           lambda x: (np.searchsorted([-0.5, 0.0, 0.5], x, "left").astype(np.int32),
                      np.searchsorted([-0.5, 0.0, 0.5], x, "right").astype(np.int32))),
    OpCase("sparse_segment_mean", lambda x: ops.sparse_segment_mean(x, ops.cast(ops.arange(3), "int32"),
                                                                    ops.cast(ops.arange(3) // 2 * 2,
                                                                             "int32")),
           [A], lambda x: np.stack([x[:2].mean(0), np.zeros(4), x[2]]), lower=False,
           note="the number of segments is read from the data (segment_ids[-1] + 1)"),
    OpCase("iou", lambda a, g: ops.iou(a, g), [BOXES_A, BOXES_G], _iou_ref, grad=(),
           note="pixel-inclusive widths (x2 - x1 + 1) and shape (gt, anchors), as MindSpore's IOU"),
    OpCase("iof", lambda a, g: ops.iou(a, g, "iof"), [BOXES_A, BOXES_G], lambda a, g: _iou_ref(a, g, True),
           grad=()),
    OpCase("rotated_iou", lambda a, b: (ops.rotated_iou(a, b), ops.rotated_iou(a, b, mode=1),
                                        ops.rotated_iou(a, b[:, :2], is_cross=False)),
           [ROT_A, ROT_B], lambda a, b: _rotated_ref(), grad=(), lower=False,
           note="hand-computed overlaps: equal, quarter-turned and shifted rectangles; polygon clipping runs "
                "eagerly only"),
    OpCase("nms_keep", lambda b, s: NmsKeep.apply(b, s, iou_threshold=0.5), [NMS_BOXES, NMS_SCORES],
           lambda b, s: NMS_KEEP, grad=(),
           note="hand-worked greedy suppression (IoU 0.9 and 1/3 against 0.5); lowered to NonMaxSuppression"),
    # fused kernels
    OpCase("rms_norm", lambda x, g: ops.rms_norm(x, g), [A, positive(4, seed=109)], _rms_ref,
           second_order=True),
    OpCase("add_rms_norm", lambda x, y, g: ops.add_rms_norm(x, y, g, 1e-3), [A, B, positive(4, seed=110)],
           lambda x, y, g: (*_rms_ref(x + y, g, 1e-3), x + y)),
    OpCase("swiglu", lambda x: (ops.swiglu(x), ops.swiglu(x[:2], 0)), [A],
           lambda x: (x[:, :2] / (1 + np.exp(-x[:, :2])) * x[:, 2:], x[:1] / (1 + np.exp(-x[:1])) * x[1:2])),
    OpCase("rotary_position_embedding", lambda x, c, s: (ops.rotary_position_embedding(x, c, s),
                                                         ops.rotary_position_embedding(x, c, s, 1)),
           [rand(1, 2, 3, 8, seed=111), np.cos(rand(1, 1, 3, 8, seed=112)), np.sin(rand(1, 1, 3, 8,
                                                                                        seed=112))],
           lambda x, c, s: (_rope_ref(x, c, s, 0), _rope_ref(x, c, s, 1))),
    OpCase("ring_attention_update", lambda o1, m1, s1, o2, m2,
           s2: ops.ring_attention_update(o1, m1, s1, o2, m2, s2),
           [rand(3, 2, 4, seed=113), np.repeat(rand(2, 2, 3, 1, seed=114), 8, -1),
            np.repeat(positive(2, 2, 3, 1, seed=115), 8, -1), rand(3, 2, 4, seed=116),
            np.repeat(rand(2, 2, 3, 1, seed=117), 8, -1), np.repeat(positive(2, 2, 3, 1, seed=118), 8, -1)],
           lambda o1, m1, s1, o2, m2, s2: _ring_ref(o1, m1, s1, o2, m2, s2), grad=(0, 3)),
    OpCase("moe_token_permute_unpermute", lambda t, p: _moe_roundtrip(t, p), [rand(4, 3, seed=119),
                                                                           positive(4, 2, seed=120)],
           lambda t, p: _moe_ref(t, p), lower=True),
    OpCase("multi_scale_deformable_attn", lambda v, loc, w: ops.multi_scale_deformable_attn_function(
        v, ops.cast(ops.stack([ops.arange(2, 0, -1), ops.arange(3, 1, -1)], 1), "int32"),
        ops.cast(ops.stack([ops.arange(0, 1), ops.arange(6, 7)]).reshape(-1), "int32"), loc, w),
           [MSDA_VALUE, MSDA_LOC, MSDA_W],
           lambda v, loc, w: _msda_ref(v, [(2, 3), (1, 2)], [0, 6], loc, w)),
]

MOE_IDX = np.array([[1, 0], [0, 2], [2, 1], [1, 1]])


def _moe_roundtrip(t, p):
    permuted, order = ops.moe_token_permute(t, ops.cast(ops.full((4, 2), 0) + _moe_idx(), "int32"))
    return permuted, ops.moe_token_unpermute(permuted, order, p)


def _moe_idx():
    from cellonnx import Tensor
    return Tensor(MOE_IDX)


def _moe_ref(t, p):
    flat = MOE_IDX.reshape(-1)
    order = np.argsort(flat, kind="stable")
    permuted = t[order // 2]
    return permuted, (t[:, None, :] * p[:, :, None]).sum(1)


def _ring_ref(o1, m1, s1, o2, m2, s2):
    m = np.maximum(m1, m2)
    w1, w2 = np.exp(m1 - m) * s1, np.exp(m2 - m) * s2
    tot = w1 + w2
    r1 = np.transpose((w1 / tot)[..., :1], (2, 0, 1, 3))   # (S, B, N, 1)
    r2 = np.transpose((w2 / tot)[..., :1], (2, 0, 1, 3))
    sq, b, h = o1.shape
    n = m1.shape[1]
    out = o1.reshape(sq, b, n, h // n) * r1 + o2.reshape(sq, b, n, h // n) * r2
    return out.reshape(sq, b, h), m, tot
