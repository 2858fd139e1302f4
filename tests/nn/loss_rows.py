"""Rows of tests/nn/test_losses_cells.py for the margin, likelihood, segmentation and sequence loss cells:
(id, class, kwargs, input names, float64 NumPy reference), with the inputs they add."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from cellonnx import Tensor
from tests.ops.cases_loss_ctc import ctc_ref

RNG = np.random.default_rng(5)
W4 = np.array([0.2, 0.5, 1.0, 2.0], np.float32)
ML_TARGET = np.array(
    [[0, 2, -1, 1], [3, -1, 0, 0], [1, 2, 3, 0], [-1, 1, 1, 1], [2, -1, 3, 3], [1, 1, -1, 0]], np.int32
)
T, N, C = 5, 2, 4
CTC_LP = np.log(RNG.dirichlet(np.ones(C), size=(T, N))).astype(np.float32)
CTC_TARGETS = np.array([[1, 2], [3, 0]], np.int32)
CTC_IN, CTC_TGT = np.array([5, 4], np.int32), np.array([2, 1], np.int32)
SAMPLED = (Tensor(np.array([4, 6], np.int32)), Tensor(np.full((3, 1), 0.3, np.float32)),
           Tensor(np.array([0.3, 0.25], np.float32)))

INPUTS: dict[str, np.ndarray] = {
    "signs": np.where(RNG.normal(size=(6, 4)) > 0, 1.0, -1.0).astype(np.float32),
    "signs_row": np.array([1, -1, 1, -1, -1, 1], np.int32),
    "var": RNG.uniform(0.2, 2.0, (6, 4)).astype(np.float32),
    "counts": RNG.integers(0, 5, (6, 4)).astype(np.float32),
    "rates": RNG.uniform(0.1, 3.0, (6, 4)).astype(np.float32),
    "binary": (RNG.uniform(size=(6, 4)) > 0.5).astype(np.float32),
    "labels64": RNG.integers(0, 4, 6).astype(np.int64),
    "labels_col": RNG.integers(0, 4, (6, 1)).astype(np.int32),
    "ml_target": ML_TARGET,
    "ctc_lp": CTC_LP,
    "ctc_targets": CTC_TARGETS,
    "ctc_in": CTC_IN,
    "ctc_tgt": CTC_TGT,
    "ss_weights": RNG.normal(size=(7, 5)).astype(np.float32),
    "ss_biases": RNG.normal(size=7).astype(np.float32),
    "ss_labels": np.array([0, 1, 2], np.int32),
    "ss_inputs": RNG.normal(size=(3, 5)).astype(np.float32),
}


def _reduce(x: np.ndarray, reduction: str) -> np.ndarray:
    return {"mean": x.mean(), "sum": x.sum(), "none": x}[reduction]


def _softmax(x: np.ndarray, axis: int = -1) -> np.ndarray:
    e = np.exp(x - x.max(axis, keepdims=True))
    return e / e.sum(axis, keepdims=True)


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-x))


def _multi_margin(x: np.ndarray, y: np.ndarray, p: int, margin: float, w: np.ndarray, r: str) -> np.ndarray:
    out = np.zeros(len(y))
    for i, t in enumerate(y):
        out[i] = sum(w[t] * max(0.0, margin - x[i, t] + x[i, j]) ** p for j in range(x.shape[1]) if j != t)
    return _reduce(out / x.shape[1], r)


def _multilabel(x: np.ndarray, t: np.ndarray, r: str) -> np.ndarray:
    out = np.zeros(len(t))
    for i, row in enumerate(t):
        listed = list(row[: list(row).index(-1)] if -1 in row else row)
        out[i] = sum(
            max(0.0, 1 - x[i, y] + x[i, j]) for y in listed for j in range(x.shape[1]) if j not in listed
        )
    return _reduce(out / x.shape[1], r)


def _dist(a: np.ndarray, b: np.ndarray, eps: float = 0.0) -> np.ndarray:
    return np.sqrt(((np.abs(a - b + eps)) ** 2).sum(1))


def _dice(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return 1 - 2 * (x * y).sum() / ((x * x).sum() + (y * y).sum() + 1e-5)


def _focal(logits: np.ndarray, labels: np.ndarray, w: np.ndarray | None, gamma: float) -> np.ndarray:
    logp = np.log(_softmax(logits, 1))
    if labels.shape[1] == 1:
        lp = logp[np.arange(len(labels)), labels[:, 0]]
        ww = 1.0 if w is None else w[labels[:, 0]]
        return (-((1 - np.exp(lp)) ** gamma) * lp * ww).mean()
    ww = 1.0 if w is None else w
    return (-((1 - np.exp(logp)) ** gamma) * labels * logp * ww).mean()


def _sampled_softmax(w: np.ndarray, b: np.ndarray, y: np.ndarray, x: np.ndarray) -> np.ndarray:
    sampled, true_count, sampled_count = (t.asnumpy().astype(np.float64) for t in SAMPLED)
    sampled = sampled.astype(int)
    true_logits = (x * w[y]).sum(1) + b[y] - np.log(true_count[:, 0])
    sampled_logits = x @ w[sampled].T + b[sampled] - np.log(sampled_count)
    logits = np.concatenate([true_logits[:, None], sampled_logits], 1)
    return -np.log(_softmax(logits)[:, 0] + 1e-20)


def _poisson(x: np.ndarray, y: np.ndarray, log_input: bool, full: bool) -> np.ndarray:
    loss = np.exp(x) - y * x if log_input else x - y * np.log(x + 1e-8)
    if full:
        yy = np.maximum(y, 1e-8)
        loss = loss + np.where(yy > 1, yy * np.log(yy) - yy + 0.5 * np.log(2 * math.pi * yy), 0.0)
    return loss


ROWS: list[tuple[str, str, dict, tuple[str, ...], Callable[..., Any]]] = []
for red in ("mean", "sum", "none"):
    ROWS += [
        (f"l1_ext_{red}", "L1LossExt", {"reduction": red}, ("logits", "target"),
         lambda a, b, r=red: _reduce(np.abs(a - b), r)),
        (f"mae_{red}", "MAELoss", {"reduction": red}, ("logits", "target"),
         lambda a, b, r=red: _reduce(np.abs(a - b), r)),
        (
            f"huber_{red}",
            "HuberLoss",
            {"reduction": red, "delta": 0.5},
            ("logits", "target"),
            lambda a, b, r=red: _reduce(
                np.where(np.abs(a - b) < 0.5, 0.5 * (a - b) ** 2, 0.5 * (np.abs(a - b) - 0.25)), r
            ),
        ),
        (
            f"margin_ranking_{red}",
            "MarginRankingLoss",
            {"margin": 0.1, "reduction": red},
            ("logits", "target", "signs"),
            lambda a, b, y, r=red: _reduce(np.maximum(-y * (a - b) + 0.1, 0), r),
        ),
        (f"soft_margin_{red}", "SoftMarginLoss", {"reduction": red}, ("logits", "signs"),
         lambda a, y, r=red: _reduce(np.log1p(np.exp(-y * a)), r)),
        (
            f"cosine_embedding_{red}",
            "CosineEmbeddingLoss",
            {"margin": 0.2, "reduction": red},
            ("logits", "target", "signs_row"),
            lambda a, b, y, r=red: _reduce(
                np.where(
                    y == 1,
                    1 - (a * b).sum(1) / np.linalg.norm(a, axis=1) / np.linalg.norm(b, axis=1),
                    np.maximum(
                        (a * b).sum(1) / np.linalg.norm(a, axis=1) / np.linalg.norm(b, axis=1) - 0.2, 0
                    ),
                ),
                r,
            ),
        ),
        (f"hinge_embedding_{red}", "HingeEmbeddingLoss", {"margin": 0.5, "reduction": red},
         ("logits", "signs"), lambda a, y, r=red: _reduce(np.where(y > 0, a, np.maximum(0.5 - a, 0)), r)),
        (f"multi_margin_{red}", "MultiMarginLoss",
         {"p": 2, "margin": 0.5, "reduction": red, "weight": Tensor(W4)}, ("logits", "labels64"),
         lambda a, y, r=red: _multi_margin(a, y, 2, 0.5, W4, r)),
        (f"multilabel_margin_{red}", "MultilabelMarginLoss", {"reduction": red}, ("logits", "ml_target"),
         lambda a, t, r=red: _multilabel(a, t, r)),
        (
            f"multilabel_soft_margin_{red}",
            "MultiLabelSoftMarginLoss",
            {"weight": Tensor(W4), "reduction": red},
            ("logits", "binary"),
            lambda a, y, r=red: _reduce(
                (-(y * np.log(_sigmoid(a)) + (1 - y) * np.log(1 - _sigmoid(a))) * W4).mean(1), r
            ),
        ),
        (f"triplet_margin_{red}", "TripletMarginLoss", {"margin": 0.5, "reduction": red},
         ("logits", "target", "probs"),
         lambda a, p, n, r=red: _reduce(np.maximum(_dist(a, p, 1e-6) - _dist(a, n, 1e-6) + 0.5, 0), r)),
        (
            f"triplet_distance_swap_{red}",
            "TripletMarginWithDistanceLoss",
            {"swap": True, "reduction": red},
            ("logits", "target", "probs"),
            lambda a, p, n, r=red: _reduce(
                np.maximum(_dist(a, p) - np.minimum(_dist(a, n), _dist(p, n)) + 1.0, 0), r
            ),
        ),
        (
            f"gaussian_nll_{red}",
            "GaussianNLLLoss",
            {"full": True, "reduction": red},
            ("logits", "target", "var"),
            lambda x, t, v, r=red: _reduce(
                0.5 * (np.log(v) + (x - t) ** 2 / v) + 0.5 * math.log(2 * math.pi), r
            ),
        ),
        (f"poisson_nll_{red}", "PoissonNLLLoss", {"reduction": red}, ("logits", "counts"),
         lambda x, y, r=red: _reduce(_poisson(x, y, True, False), r)),
        (f"poisson_nll_rates_full_{red}", "PoissonNLLLoss",
         {"log_input": False, "full": True, "reduction": red}, ("rates", "counts"),
         lambda x, y, r=red: _reduce(_poisson(x, y, False, True), r)),
        (f"kl_div_{red}", "KLDivLoss", {"reduction": red}, ("logp", "probs"),
         lambda x, y, r=red: _reduce(y * (np.log(y) - x), r)),
        (f"ctc_{red}", "CTCLoss", {"reduction": red}, ("ctc_lp", "ctc_targets", "ctc_in", "ctc_tgt"),
         lambda lp, t, i, n, r=red: ctc_ref(lp, t, i, n, reduction=r)[0]),
    ]
ROWS += [
    ("rmse", "RMSELoss", {}, ("logits", "target"), lambda a, b: np.sqrt(((a - b) ** 2).mean())),
    ("kl_div_batchmean", "KLDivLoss", {"reduction": "batchmean"}, ("logp", "probs"),
     lambda x, y: (y * (np.log(y) - x)).sum() / len(x)),
    ("dice", "DiceLoss", {}, ("sigmoid", "binary"), _dice),
    ("multi_class_dice", "MultiClassDiceLoss", {}, ("logits", "binary"),
     lambda x, y: np.mean([_dice(_softmax(x)[:, i], y[:, i]) for i in range(4)])),
    ("multi_class_dice_weights_ignore", "MultiClassDiceLoss",
     {"weights": Tensor(W4.reshape(4, 1)), "ignore_indiex": 2, "activation": "sigmoid"},
     ("logits", "binary"),
     lambda x, y: np.array([sum(_dice(_sigmoid(x)[:, i], y[:, i]) * W4[i] for i in (0, 1, 3)) / 4])),
    ("focal_indices", "FocalLoss", {"weight": Tensor(W4), "gamma": 2.0}, ("logits", "labels_col"),
     lambda x, y: _focal(x, y, W4, 2.0)),
    ("focal_one_hot_sum", "FocalLoss", {"gamma": 1.5, "reduction": "sum"}, ("logits", "binary"),
     lambda x, y: (-((1 - _softmax(x, 1)) ** 1.5) * y * np.log(_softmax(x, 1))).sum()),
    ("sampled_softmax", "SampledSoftmaxLoss",
     {"num_sampled": 2, "num_classes": 7, "sampled_values": SAMPLED},
     ("ss_weights", "ss_biases", "ss_labels", "ss_inputs"), _sampled_softmax),
    ("ctc_one_sequence", "CTCLoss", {"blank": 3}, ("ctc_lp_2d", "ctc_target_1d", "ctc_in_1", "ctc_tgt_1"),
     lambda lp, t, i, n: ctc_ref(lp[:, None], t[None], i, n, blank=3)[0]),
]
INPUTS.update(
    {"ctc_lp_2d": CTC_LP[:, 0], "ctc_target_1d": np.array([1, 2], np.int32),
     "ctc_in_1": np.array([5], np.int32), "ctc_tgt_1": np.array([2], np.int32)}
)
