"""Rows for the margin, embedding and likelihood losses (cellonnx/ops/composite/loss_margin.py,
loss_regression.py) under every reduction, against float64 NumPy references written element by element from
MindSpore's formulas (tests/ops/test_loss_mindspore.py checks the same calls against MindSpore itself)."""

from __future__ import annotations

import math

import numpy as np

from cellonnx import ops
from tests.ops.harness import OpCase, positive, rand

REDUCTIONS = ("none", "mean", "sum")


def _reduce(loss, reduction):
    return loss.mean() if reduction == "mean" else loss.sum() if reduction == "sum" else loss


def _multi_margin_ref(x, t, p, margin, w, reduction):
    n, c = x.shape
    loss = np.zeros(n)
    for i in range(n):
        y = int(t[i])
        for j in range(c):
            if j != y:
                loss[i] += max(0.0, margin - x[i, y] + x[i, j]) ** p * (1.0 if w is None else w[y])
    return _reduce(loss / c, reduction)


def _multilabel_margin_ref(x, t, reduction):
    one = x.ndim == 1
    x, t = np.atleast_2d(x), np.atleast_2d(t)
    n, c = x.shape
    loss = np.zeros(n)
    for i in range(n):
        listed = []
        for v in t[i]:
            if v == -1:
                break
            listed.append(int(v))
        for y in listed:
            for j in range(c):
                if j not in listed:
                    loss[i] += max(0.0, 1.0 - (x[i, y] - x[i, j]))
    loss = loss / c
    return _reduce(loss[0] if one else loss, reduction)


def _triplet_ref(a, p_, n_, margin, p, eps, swap, reduction):
    def dist(u, v):
        return (np.abs(u - v + eps) ** p).sum(1) ** (1.0 / p)

    d_ap, d_an = dist(a, p_), dist(a, n_)
    if swap:
        d_an = np.minimum(d_an, dist(p_, n_))
    return _reduce(np.maximum(d_ap - d_an + margin, 0.0), reduction)


def _cosine_embedding_ref(a, b, y, margin, reduction):
    cos = (a * b).sum(1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))
    loss = np.where(y == 1, 1 - cos, 0.0) + np.where(y == -1, np.maximum(cos - margin, 0.0), 0.0)
    return _reduce(loss, reduction)


def _hinge_embedding_ref(x, y, margin, reduction):
    loss = np.where(y > 0, x, 0.0) + np.where(y < 0, np.maximum(margin - x, 0.0), 0.0)
    return _reduce(loss, reduction)


def _soft_multilabel_ref(x, y, w, reduction):
    sig = 1 / (1 + np.exp(-x))
    loss = -(y * np.log(sig) + (1 - y) * np.log(1 - sig))
    if w is not None:
        loss = loss * w
    return _reduce(loss.mean(-1), reduction)


def _gaussian_nll_ref(x, t, var, full, eps, reduction):
    if var.shape != x.shape and var.shape == x.shape[:-1]:
        var = var[..., None]
    v = np.maximum(var, eps)
    loss = 0.5 * (np.log(v) + (x - t) ** 2 / v) + (0.5 * math.log(2 * math.pi) if full else 0.0)
    return _reduce(loss, reduction)


SCORES = rand(4, 5, seed=50) * 2
CLASSES = np.array([1, 0, 4, 2], np.int64)
W5 = positive(5, seed=51)
ML_TARGET = np.array([[1, 3, -1, 0, 2], [4, -1, 2, 2, 2], [0, 1, 2, 3, 4], [2, 2, -1, -1, -1]], np.int32)
A, B = rand(4, 6, seed=52), rand(4, 6, seed=53)
SIGN4 = np.array([1.0, -1.0, -1.0, 1.0])
SIGNS = np.where(rand(3, 4, seed=54) > 0, 1.0, -1.0)
LABELS01 = (rand(4, 5, seed=55) > 0).astype(np.float64)
ANCHOR, POS, NEG = rand(3, 4, 2, seed=56), rand(3, 4, 2, seed=57), rand(3, 4, 2, seed=58)
MEAN, SAMPLE = rand(3, 4, seed=59), rand(3, 4, seed=60)
VAR = positive(3, 4, seed=61) * 0.5
VAR_ROW = positive(3, seed=62)

CASES: list[OpCase] = []
for r in REDUCTIONS:
    CASES += [
        OpCase(f"margin_ranking_loss_{r}",
               lambda a, b, y, r=r: ops.margin_ranking_loss(a, b, y, margin=0.3, reduction=r),
               [A, B, np.tile(SIGN4[:, None], (1, 6))],
               lambda a, b, y, r=r: _reduce(np.maximum(-y * (a - b) + 0.3, 0.0), r), grad=(0, 1)),
        OpCase(f"cosine_embedding_loss_{r}",
               lambda a, b, y, r=r: ops.cosine_embedding_loss(a, b, y, margin=-0.2, reduction=r),
               [A, B, SIGN4.astype(np.int32)], lambda a, b, y, r=r: _cosine_embedding_ref(a, b, y, -0.2, r)),
        OpCase(f"hinge_embedding_loss_{r}",
               lambda x, y, r=r: ops.hinge_embedding_loss(x, y, margin=1.5, reduction=r),
               [rand(3, 4, seed=63) * 2, SIGNS], lambda x, y, r=r: _hinge_embedding_ref(x, y, 1.5, r),
               grad=(0,)),
        OpCase(f"multi_margin_loss_p1_{r}", lambda x, t, r=r: ops.multi_margin_loss(x, t, reduction=r),
               [SCORES, CLASSES], lambda x, t, r=r: _multi_margin_ref(x, t, 1, 1.0, None, r)),
        OpCase(f"multi_margin_loss_p2_weight_{r}",
               lambda x, t, w, r=r: ops.multi_margin_loss(x, t, p=2, margin=2, weight=w, reduction=r),
               [SCORES, CLASSES, W5], lambda x, t, w, r=r: _multi_margin_ref(x, t, 2, 2.0, w, r)),
        OpCase(f"multilabel_margin_loss_{r}",
               lambda x, t, r=r: ops.multilabel_margin_loss(x, t, reduction=r), [SCORES, ML_TARGET],
               lambda x, t, r=r: _multilabel_margin_ref(x, t, r)),
        OpCase(f"multilabel_soft_margin_loss_{r}",
               lambda x, y, w, r=r: ops.multilabel_soft_margin_loss(x, y, w, reduction=r),
               [SCORES, LABELS01, W5], lambda x, y, w, r=r: _soft_multilabel_ref(x, y, w, r), grad=(0,)),
        OpCase(f"triplet_margin_loss_{r}",
               lambda a, p, n, r=r: ops.triplet_margin_loss(a, p, n, reduction=r), [ANCHOR, POS, NEG],
               lambda a, p, n, r=r: _triplet_ref(a, p, n, 1.0, 2, 1e-6, False, r)),
        OpCase(
            f"triplet_margin_loss_p1_swap_{r}",
            lambda a, p, n, r=r: ops.triplet_margin_loss(a, p, n, margin=0.5, p=1, swap=True, reduction=r),
            [ANCHOR, POS, NEG],
            lambda a, p, n, r=r: _triplet_ref(a, p, n, 0.5, 1, 1e-6, True, r),
        ),
        OpCase(f"gaussian_nll_loss_{r}", lambda x, t, v, r=r: ops.gaussian_nll_loss(x, t, v, reduction=r),
               [MEAN, SAMPLE, VAR], lambda x, t, v, r=r: _gaussian_nll_ref(x, t, v, False, 1e-6, r)),
        OpCase(f"gaussian_nll_loss_full_row_var_{r}",
               lambda x, t, v, r=r: ops.gaussian_nll_loss(x, t, v, full=True, eps=0.8, reduction=r),
               [MEAN, SAMPLE, VAR_ROW], lambda x, t, v, r=r: _gaussian_nll_ref(x, t, v, True, 0.8, r)),
        OpCase(f"mse_loss_ext_broadcast_{r}", lambda x, y, r=r: ops.mse_loss_ext(x, y, reduction=r),
               [A, B[:1]], lambda x, y, r=r: _reduce((x - y) ** 2, r)),
    ]
CASES += [
    OpCase("multilabel_margin_loss_1d", lambda x, t: ops.multilabel_margin_loss(x, t, reduction="none"),
           [SCORES[0], ML_TARGET[0]], lambda x, t: _multilabel_margin_ref(x, t, "none")),
    OpCase("triplet_margin_loss_p3_broadcast_tensor_margin",
           lambda a, p, n, m: ops.triplet_margin_loss(a, p, n, margin=m, p=3),
           [ANCHOR, POS[:1], NEG, np.array(0.7)],
           lambda a, p, n, m: _triplet_ref(a, np.broadcast_to(p, a.shape), n, m, 3, 1e-6, False, "mean"),
           grad=(0, 1, 2)),
    OpCase("multilabel_soft_margin_loss_no_weight", lambda x, y: ops.multilabel_soft_margin_loss(x, y),
           [SCORES, LABELS01], lambda x, y: _soft_multilabel_ref(x, y, None, "mean"), grad=(0,)),
    OpCase("gaussian_nll_loss_var_below_eps", lambda x, t, v: ops.gaussian_nll_loss(x, t, v, eps=0.3),
           [MEAN, SAMPLE, np.where(VAR > 0.6, VAR, 0.1)],
           lambda x, t, v: _gaussian_nll_ref(x, t, v, False, 0.3, "mean"),
           note="below eps the variance is clamped: its gradient there is zero (MindSpore's maximum)"),
    OpCase("hinge_embedding_loss_zero_target",
           lambda x, y: ops.hinge_embedding_loss(x, y, reduction="none"),
           [rand(2, 3, seed=64), np.array([[1.0, 0.0, -1.0], [0.0, -1.0, 1.0]])],
           lambda x, y: _hinge_embedding_ref(x, y, 1.0, "none"), grad=(0,)),
]
