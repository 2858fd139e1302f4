"""Loss cells against NumPy formulas (MindSpore parity for the same cells is in test_mindspore_parity.py):
one row per configuration, every reduction, LossBase.get_loss for user losses, and a completeness test."""
from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import Tensor, nn
from tests.nn import loss_rows
from tests.tolerance import assert_close, sum_rtol

RNG = np.random.default_rng(4)
LOGITS = RNG.normal(size=(6, 4)).astype(np.float32)
TARGET = RNG.normal(size=(6, 4)).astype(np.float32)
LABELS = RNG.integers(0, 4, 6).astype(np.int32)
PROBS = RNG.uniform(0.05, 1, (6, 4)).astype(np.float32)
PROBS /= PROBS.sum(1, keepdims=True)
W4 = np.array([0.2, 0.5, 1.0, 2.0], np.float32)


def _reduce(x: np.ndarray, reduction: str) -> np.ndarray:
    return {"mean": x.mean(), "sum": x.sum(), "none": x}[reduction]


def _log_softmax(x: np.ndarray) -> np.ndarray:
    m = x - x.max(-1, keepdims=True)
    return m - np.log(np.exp(m).sum(-1, keepdims=True))


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-x))


def _smooth_l1(d: np.ndarray, beta: float) -> np.ndarray:
    a = np.abs(d)
    return np.where(a < beta, 0.5 * d * d / beta, a - 0.5 * beta)


def _nll(logp: np.ndarray, y: np.ndarray, w: np.ndarray | None, ignore: int, reduction: str) -> np.ndarray:
    w = np.ones(logp.shape[1], np.float32) if w is None else w
    keep = y != ignore
    yy = np.where(keep, y, 0)
    per = -logp[np.arange(len(y)), yy] * w[yy] * keep
    if reduction == "mean":
        return per.sum() / (w[yy] * keep).sum()
    return _reduce(per, reduction)


# (id, loss class, kwargs, inputs: names from INPUTS, NumPy reference)
INPUTS = {"logits": LOGITS, "target": TARGET, "labels": LABELS, "probs": PROBS, "sigmoid": _sigmoid(LOGITS),
          "logp": _log_softmax(LOGITS)}
ROWS: list[tuple[str, str, dict, tuple[str, ...], Callable[..., Any]]] = []
for red in ("mean", "sum", "none"):
    ROWS += [
        (f"l1_{red}", "L1Loss", {"reduction": red}, ("logits", "target"),
         lambda a, b, r=red: _reduce(np.abs(a - b), r)),
        (f"mse_{red}", "MSELoss", {"reduction": red}, ("logits", "target"),
         lambda a, b, r=red: _reduce((a - b) ** 2, r)),
        (f"smooth_l1_{red}", "SmoothL1Loss", {"beta": 0.7, "reduction": red}, ("logits", "target"),
         lambda a, b, r=red: _reduce(_smooth_l1(a - b, 0.7), r)),
        (f"softmax_ce_{red}", "SoftmaxCrossEntropyWithLogits", {"reduction": red}, ("logits", "probs"),
         lambda a, q, r=red: _reduce(-(q * _log_softmax(a)).sum(-1), r)),
        (f"softmax_ce_sparse_{red}", "SoftmaxCrossEntropyWithLogits", {"sparse": True, "reduction": red},
         ("logits", "labels"), lambda a, y, r=red: _reduce(-_log_softmax(a)[np.arange(len(y)), y], r)),
        (f"ce_{red}", "CrossEntropyLoss", {"reduction": red}, ("logits", "labels"),
         lambda a, y, r=red: _nll(_log_softmax(a), y, None, -100, r)),
        (f"nll_{red}", "NLLLoss", {"reduction": red, "ignore_index": 1}, ("logp", "labels"),
         lambda a, y, r=red: _nll(a, y, None, 1, r)),
        (f"bce_{red}", "BCELoss", {"reduction": red}, ("sigmoid", "probs"),
         lambda p, q, r=red: _reduce(-(q * np.log(p) + (1 - q) * np.log(1 - p)), r)),
        (f"bce_logits_{red}", "BCEWithLogitsLoss", {"reduction": red}, ("logits", "probs"),
         lambda a, q, r=red: _reduce(-(q * np.log(_sigmoid(a)) + (1 - q) * np.log(1 - _sigmoid(a))), r)),
    ]
ROWS += [
    ("smooth_l1_default_none", "SmoothL1Loss", {}, ("logits", "target"), lambda a, b: _smooth_l1(a - b, 1.0)),
    ("softmax_ce_default_none", "SoftmaxCrossEntropyWithLogits", {}, ("logits", "probs"),
     lambda a, q: -(q * _log_softmax(a)).sum(-1)),
    ("ce_probabilities", "CrossEntropyLoss", {}, ("logits", "probs"),
     lambda a, q: (-(q * _log_softmax(a)).sum(-1)).mean()),
    ("ce_weighted", "CrossEntropyLoss", {"weight": Tensor(W4)}, ("logits", "labels"),
     lambda a, y: _nll(_log_softmax(a), y, W4, -100, "mean")),
    ("nll_weighted_sum", "NLLLoss", {"weight": Tensor(W4), "reduction": "sum"}, ("logp", "labels"),
     lambda a, y: _nll(a, y, W4, -100, "sum")),
    ("bce_weighted", "BCELoss", {"weight": Tensor(np.tile(W4, (6, 1)))}, ("sigmoid", "probs"),
     lambda p, q: (-(q * np.log(p) + (1 - q) * np.log(1 - p)) * W4).mean()),
    ("bce_logits_pos_weight", "BCEWithLogitsLoss", {"pos_weight": Tensor(W4)}, ("logits", "probs"),
     lambda a, q: (-(W4 * q * np.log(_sigmoid(a)) + (1 - q) * np.log(1 - _sigmoid(a)))).mean()),
    ("softmax_ce_expand", "SoftmaxCrossEntropyExpand", {}, ("logits", "probs"),
     lambda a, q: (-(np.log(np.exp(_log_softmax(a)) + 1e-24) * q).sum(-1)).mean()),
    ("softmax_ce_expand_sparse", "SoftmaxCrossEntropyExpand", {"sparse": True}, ("logits", "labels"),
     lambda a, y: (-np.log(np.exp(_log_softmax(a)) + 1e-24)[np.arange(len(y)), y]).mean()),
]

INPUTS.update(loss_rows.INPUTS)
ROWS += loss_rows.ROWS


@pytest.mark.parametrize("row", ROWS, ids=[r[0] for r in ROWS])
def test_loss_against_numpy(row: tuple) -> None:
    _, cls, kwargs, inputs, ref = row
    loss = getattr(nn, cls)(**kwargs)
    arrays = [INPUTS[i] for i in inputs]
    got = loss(*[Tensor(a) for a in arrays])
    want = ref(*[a.astype(np.float64) if a.dtype.kind == "f" else a for a in arrays])
    assert got.dtype == ms.float32
    # a loss sums its float32 elements: at most the size of its largest input
    assert_close(got.asnumpy(), want, rtol=1e-5, scale_rtol=sum_rtol(max(a.size for a in arrays)))
    if got.ndim == 0:
        _, g = ms.value_and_grad(loss, 0)(*[Tensor(a) for a in arrays])
        assert g.shape == arrays[0].shape and np.isfinite(g.asnumpy()).all()


def test_every_loss_cell_has_a_row() -> None:
    classes = {n for n in nn.loss.__all__ if inspect.isclass(getattr(nn, n)) and n != "LossBase"}
    missing = sorted(classes - {r[1] for r in ROWS})
    assert not missing, f"loss cells with no row in tests/nn/test_losses_cells.py: {missing}"


def test_loss_base_get_loss_and_reductions() -> None:
    class WeightedAbs(nn.LossBase):
        def construct(self, logits, labels):
            return self.get_loss(ms.ops.abs(logits - labels), Tensor(np.array([1.0, 0.0, 2.0, 1.0], np.float32)))

    a, b = Tensor(LOGITS), Tensor(TARGET)
    w = np.array([1.0, 0.0, 2.0, 1.0], np.float32)
    np.testing.assert_allclose(WeightedAbs()(a, b).asnumpy(), (np.abs(LOGITS - TARGET) * w).mean(), rtol=1e-6)
    np.testing.assert_allclose(WeightedAbs("sum")(a, b).asnumpy(), (np.abs(LOGITS - TARGET) * w).sum(), rtol=1e-6)
    assert WeightedAbs("none")(a, b).shape == (6, 4)
    half = nn.LossBase().get_loss(Tensor(np.ones(3, np.float16)), 2.0)
    assert half.dtype == ms.float16 and float(half.asnumpy()) == 2.0
    assert nn.LossBase().get_axis(a) == (0, 1)
    with pytest.raises(ValueError, match="the 'reduction' must be in \\['mean', 'sum', 'none'\\], but got max"):
        nn.L1Loss("max")
    with pytest.raises(NotImplementedError):
        nn.LossBase()(a, b)


def test_softmax_cross_entropy_gives_labels_no_gradient() -> None:
    """As MindSpore's SoftmaxCrossEntropyWithLogits primitive: d loss / d labels is zero."""
    loss = nn.SoftmaxCrossEntropyWithLogits(reduction="mean")
    _, (g_logits, g_labels) = ms.value_and_grad(loss, (0, 1))(Tensor(LOGITS), Tensor(PROBS))
    assert not g_labels.asnumpy().any() and g_logits.asnumpy().any()


def test_argument_checks() -> None:
    with pytest.raises(TypeError, match="the 'sparse' must be bool"):
        nn.SoftmaxCrossEntropyWithLogits(sparse=1)
    with pytest.raises(TypeError, match="'weight' can not be a Parameter"):
        nn.BCEWithLogitsLoss(weight=ms.Parameter(Tensor(W4)))
    with pytest.raises(ValueError, match="label_smoothing"):
        nn.CrossEntropyLoss(label_smoothing=2.0)
    with pytest.raises(TypeError, match="the 'logits' must be a Tensor"):
        nn.MSELoss()(LOGITS, Tensor(TARGET))
