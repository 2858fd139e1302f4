"""Rows for the loss functions (cellonnx/ops/composite/loss.py): every loss under every reduction, against
NumPy references written here from MindSpore's documented formulas."""
from __future__ import annotations

import numpy as np

from cellonnx import ops
from tests.ops.harness import OpCase, positive, rand

REDUCTIONS = ("none", "mean", "sum")


def _log_softmax(x, axis):
    m = x.max(axis=axis, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis=axis, keepdims=True))


def _reduce(loss, reduction):
    return loss.mean() if reduction == "mean" else loss.sum() if reduction == "sum" else loss


def _nll_ref(logp, target, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
    """MindSpore's nll_loss, element by element (the smoothing term's rule is the one MindSpore 2.10 computes,
    tests/fixtures/mindspore/losses/label_smoothing.json)."""
    cd = 0 if logp.ndim == 1 else 1
    lp = np.moveaxis(logp, cd, -1)                 # (..., C)
    n_classes = lp.shape[-1]
    w = np.ones(n_classes) if weight is None else weight
    loss = np.zeros(target.shape)
    wsum = 0.0
    smooth = np.zeros(target.shape)
    for idx in np.ndindex(target.shape):
        t = int(target[idx])
        if t == ignore_index:
            continue
        loss[idx] = -w[t] * lp[idx][t]
        wsum += w[t]
        smooth[idx] = -(w * lp[idx]).sum()
    loss = (1 - label_smoothing) * loss + label_smoothing / n_classes * smooth
    if reduction == "sum":
        return loss.sum()
    if reduction == "mean":
        return loss.sum() / wsum
    return loss


def _ce_prob_ref(x, y, weight=None, reduction="mean", label_smoothing=0.0):
    cd = 0 if x.ndim == 1 else 1
    n_classes = x.shape[cd]
    if label_smoothing:
        y = y * (1 - label_smoothing) + label_smoothing / n_classes
    w = 1.0 if weight is None else weight.reshape([-1 if i == cd else 1 for i in range(x.ndim)])
    per = -(_log_softmax(x, cd) * y * w)
    if reduction == "mean":
        return per.sum() / (x.size / n_classes)
    if reduction == "sum":
        return per.sum()
    return per.sum(cd)


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


LOGITS = rand(4, 5, seed=31) * 3
TARGET = np.array([1, 0, 4, 2], dtype=np.int64)
TARGET_IGN = np.array([1, -100, 4, 3], dtype=np.int64)
TARGET_IGN0 = np.array([1, 0, 4, 0], dtype=np.int64)
W5 = positive(5, seed=32)
LOGITS_ND = rand(2, 3, 4, seed=33) * 2          # (N, C, d1)
TARGET_ND = np.array([[0, 2, 1, 1], [2, 2, 0, 1]], dtype=np.int64)
PROBS = np.random.default_rng(34).dirichlet(np.ones(5), size=4)
PROBS_ND = np.moveaxis(np.random.default_rng(35).dirichlet(np.ones(3), size=(2, 4)), -1, 1)
P01 = rand(3, 4, seed=36, low=0.05, high=0.95)
Y01 = rand(3, 4, seed=37, low=0.0, high=1.0)
BIN = (rand(3, 4, seed=38) > 0).astype(np.float64)
A, B = rand(3, 4, seed=39) * 2, rand(3, 4, seed=40) * 2
KL_Q = np.random.default_rng(41).dirichlet(np.ones(4), size=3)
KL_P = np.log(np.random.default_rng(42).dirichlet(np.ones(4), size=3))
KL_Q0 = np.array([[0.0, 0.5, 0.5, 0.0], [0.25, 0.25, 0.25, 0.25], [1.0, 0.0, 0.0, 0.0]])
SIGNS = np.where(rand(3, 4, seed=43) > 0, 1.0, -1.0)

CASES: list[OpCase] = []
CASES += [  # the fused SparseSoftmaxCrossEntropy primitive (no weight, no smoothing, no ignored target)
    OpCase("sparse_softmax_ce_mean_second_order", lambda x, t: ops.cross_entropy(x, t), [LOGITS, TARGET],
           lambda x, t: _nll_ref(_log_softmax(x, 1), t), second_order=True),
    OpCase("sparse_softmax_ce_none_second_order", lambda x, t: ops.cross_entropy(x, t, reduction="none"),
           [LOGITS, TARGET], lambda x, t: _nll_ref(_log_softmax(x, 1), t, reduction="none"), second_order=True),
    OpCase("sparse_softmax_ce_int32_sum", lambda x, t: ops.cross_entropy(x, t, reduction="sum"),
           [LOGITS, TARGET.astype(np.int32)], lambda x, t: _nll_ref(_log_softmax(x, 1), t, reduction="sum")),
    OpCase("sparse_softmax_ce_uint8_targets", lambda x, t: ops.cross_entropy(x, t),
           [LOGITS, TARGET.astype(np.uint8)], lambda x, t: _nll_ref(_log_softmax(x, 1), t.astype(np.int64))),
    OpCase("cross_entropy_ignored_target_unfused", lambda x, t: ops.cross_entropy(x, t), [LOGITS, TARGET_IGN],
           lambda x, t: _nll_ref(_log_softmax(x, 1), t), note="an ignored target takes the nll_loss route"),
    OpCase("cross_entropy_ignore_index_in_range_unfused", lambda x, t: ops.cross_entropy(x, t, ignore_index=0),
           [LOGITS, TARGET_IGN0], lambda x, t: _nll_ref(_log_softmax(x, 1), t, ignore_index=0)),
]
for r in REDUCTIONS:
    CASES += [
        OpCase(f"cross_entropy_{r}", lambda x, t, r=r: ops.cross_entropy(x, t, reduction=r), [LOGITS, TARGET],
               lambda x, t, r=r: _nll_ref(_log_softmax(x, 1), t, reduction=r)),
        OpCase(f"cross_entropy_weight_ignore_{r}",
               lambda x, t, w, r=r: ops.cross_entropy(x, t, w, reduction=r), [LOGITS, TARGET_IGN, W5],
               lambda x, t, w, r=r: _nll_ref(_log_softmax(x, 1), t, w, reduction=r)),
        OpCase(f"cross_entropy_smoothing_{r}",
               lambda x, t, w, r=r: ops.cross_entropy(x, t, w, ignore_index=0, reduction=r,
                                                      label_smoothing=0.2),
               [LOGITS, TARGET_IGN0, W5], lambda x, t, w, r=r: _nll_ref(_log_softmax(x, 1), t, w, 0, r, 0.2)),
        OpCase(f"cross_entropy_nd_{r}",
               lambda x, t, r=r: ops.cross_entropy(x, t, reduction=r, label_smoothing=0.1),
               [LOGITS_ND, TARGET_ND], lambda x, t, r=r: _nll_ref(_log_softmax(x, 1), t, None, -100, r, 0.1)),
        OpCase(f"cross_entropy_probs_{r}", lambda x, y, w, r=r: ops.cross_entropy(x, y, w, reduction=r),
               [LOGITS, PROBS, W5], lambda x, y, w, r=r: _ce_prob_ref(x, y, w, r)),
        OpCase(f"cross_entropy_probs_nd_smoothing_{r}",
               lambda x, y, r=r: ops.cross_entropy(x, y, reduction=r, label_smoothing=0.3),
               [LOGITS_ND, PROBS_ND], lambda x, y, r=r: _ce_prob_ref(x, y, None, r, 0.3)),
        OpCase(f"nll_loss_{r}", lambda x, t, w, r=r: ops.nll_loss(x, t, w, reduction=r),
               [_log_softmax(LOGITS, 1), TARGET_IGN, W5],
               lambda x, t, w, r=r: _nll_ref(x, t, w, reduction=r)),
        OpCase(f"nll_loss_nd_smoothing_{r}",
               lambda x, t, w, r=r: ops.nll_loss(x, t, w, ignore_index=2, reduction=r, label_smoothing=0.25),
               [_log_softmax(LOGITS_ND, 1), TARGET_ND, positive(3, seed=44)],
               lambda x, t, w, r=r: _nll_ref(x, t, w, 2, r, 0.25)),
        OpCase(f"binary_cross_entropy_{r}",
               lambda p, y, w, r=r: ops.binary_cross_entropy(p, y, w, reduction=r),
               [P01, Y01, positive(3, 4, seed=45)],
               lambda p, y, w, r=r: _reduce(-w * (y * np.log(p + 1e-12) + (1 - y) * np.log(1 - p + 1e-12)),
                                            r)),
        OpCase(f"bce_with_logits_{r}",
               lambda x, y, w, pw, r=r: ops.binary_cross_entropy_with_logits(x, y, w, pw, reduction=r),
               [A * 3, Y01, positive(3, 4, seed=46), positive(4, seed=47)],
               lambda x, y, w, pw, r=r: _reduce(
                   -w * (pw * y * np.log(_sigmoid(x)) + (1 - y) * np.log(1 - _sigmoid(x))), r)),
        OpCase(f"kl_div_{r}", lambda x, y, r=r: ops.kl_div(x, y, reduction=r), [KL_P, KL_Q],
               lambda x, y, r=r: _reduce(y * (np.log(y) - x), r), grad=(0,),
               note="the labels get no gradient, as MindSpore's KLDivLoss (test_loss_mindspore.py)"),
        OpCase(f"l1_loss_{r}", lambda x, y, r=r: ops.l1_loss(x, y, reduction=r), [A, B],
               lambda x, y, r=r: _reduce(np.abs(x - y), r)),
        OpCase(f"mse_loss_{r}", lambda x, y, r=r: ops.mse_loss(x, y, reduction=r), [A, B],
               lambda x, y, r=r: _reduce((x - y) ** 2, r)),
        OpCase(f"smooth_l1_loss_{r}", lambda x, y, r=r: ops.smooth_l1_loss(x, y, beta=0.7, reduction=r),
               [A, B], lambda x, y, r=r: _reduce(np.where(np.abs(x - y) < 0.7, 0.5 * (x - y) ** 2 / 0.7,
                                                          np.abs(x - y) - 0.35), r)),
        OpCase(f"huber_loss_{r}", lambda x, y, r=r: ops.huber_loss(x, y, reduction=r, delta=0.8), [A, B],
               lambda x, y, r=r: _reduce(np.where(np.abs(x - y) < 0.8, 0.5 * (x - y) ** 2,
                                                  0.8 * (np.abs(x - y) - 0.4)), r)),
        OpCase(f"soft_margin_loss_{r}", lambda x, y, r=r: ops.soft_margin_loss(x, y, reduction=r),
               [A, SIGNS], lambda x, y, r=r: _reduce(np.log1p(np.exp(-y * x)), r), grad=(0,)),
    ]

CASES += [
    OpCase("cross_entropy_1d_input", lambda x, t: ops.cross_entropy(x, t), [LOGITS[0], np.array(3, np.int64)],
           lambda x, t: -_log_softmax(x, 0)[3]),
    OpCase("cross_entropy_1d_probs_none", lambda x, y: ops.cross_entropy(x, y, reduction="none"),
           [LOGITS[0], PROBS[0]], lambda x, y: -(_log_softmax(x, 0) * y).sum()),
    OpCase("smooth_l1_loss_default_none", lambda x, y: ops.smooth_l1_loss(x, y), [A, B],
           lambda x, y: np.where(np.abs(x - y) < 1, 0.5 * (x - y) ** 2, np.abs(x - y) - 0.5)),
    OpCase("kl_div_batchmean", lambda x, y: ops.kl_div(x, y, "batchmean"), [KL_P, KL_Q],
           lambda x, y: (y * (np.log(y) - x)).sum() / 3, grad=(0,)),
    OpCase("kl_div_zero_labels", lambda x, y: ops.kl_div(x, y, "sum"), [KL_P, KL_Q0],
           lambda x, y: np.where(y > 0, y * np.log(np.where(y > 0, y, 1)), 0).sum() - (y * x).sum(),
           grad=(0,), note="the labels get no gradient (as MindSpore's KLDivLoss)"),
    OpCase("bce_with_logits_saturated",
           lambda x, y: ops.binary_cross_entropy_with_logits(x, y, reduction="none"),
           [np.array([[-200.0, -40.0, 0.0, 40.0, 200.0]]), np.array([[0.0, 1.0, 1.0, 0.0, 1.0]])],
           lambda x, y: np.logaddexp(0, -x) * y + np.logaddexp(0, x) * (1 - y)),
    OpCase("bce_with_logits_at_zero", lambda x, y: ops.binary_cross_entropy_with_logits(x, y),
           [np.zeros((2, 3)), BIN[:2, :3]], lambda x, y: np.log(2.0)),
    OpCase("mse_loss_broadcast", lambda x, y: ops.mse_loss(x, y), [A, B[:1]],
           lambda x, y: ((x - y) ** 2).mean()),
    # dim 0 (the batch) declared dynamic: the means must not bake the example's batch size
    OpCase("cross_entropy_weight_ignore_smoothing_dynamic_batch",
           lambda x, t, w: ops.cross_entropy(x, t, w, label_smoothing=0.1), [LOGITS, TARGET_IGN, W5],
           lambda x, t, w: _nll_ref(_log_softmax(x, 1), t, w, -100, "mean", 0.1), dynamic=True),
    OpCase("cross_entropy_probs_dynamic_batch", lambda x, y: ops.cross_entropy(x, y), [LOGITS_ND, PROBS_ND],
           lambda x, y: _ce_prob_ref(x, y), dynamic=True),
    OpCase("kl_div_batchmean_dynamic_batch", lambda x, y: ops.kl_div(x, y, "batchmean"), [KL_P, KL_Q],
           lambda x, y: (y * (np.log(y) - x)).sum() / 3, grad=(0,), dynamic=True),
]
