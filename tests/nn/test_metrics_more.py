"""BleuScore, ConfusionMatrix, ConfusionMatrixMetric, CosineSimilarity, Dice, the surface distances,
OcclusionSensitivity, Perplexity, ROC and auc against real MindSpore 2.10 (training/metrics_more.json,
written by
tests/fixtures/mindspore/gen_metrics.py), plus NumPy / scikit-style references where MindSpore has no
number."""
from __future__ import annotations

import importlib.util
import json
import os

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import nn
from cellonnx.nn import metrics as M
from cellonnx.tensor import Tensor
from tests.nn.training_net import FIX
from tests.tolerance import assert_close

_spec = importlib.util.spec_from_file_location("gen_metrics", os.path.join(FIX, "gen_metrics.py"))
gen = importlib.util.module_from_spec(_spec)  # type: ignore[arg-type]
_spec.loader.exec_module(gen)  # type: ignore[union-attr]
with open(os.path.join(FIX, "training", "metrics_more.json")) as f:
    REF = json.load(f)
DATA = gen.inputs()
MODEL = gen.build_model(nn, Tensor, DATA)


# the occlusion scores are differences of float32 network outputs: tolerance relative to their scale
SCALE_RTOL = {"occlusion": 1e-5, "occlusion_b_box_pad": 1e-5}


def _close(got: object, want: object, key: str) -> None:
    if isinstance(want, list) and want and isinstance(want[0], list) and isinstance(got, (tuple, list)) \
            and len(got) == len(want) and not isinstance(got, np.ndarray):
        for g, w in zip(got, want):
            _close(g, w, key)
        return
    assert_close(np.asarray(got, np.float64), np.asarray(want, np.float64), rtol=1e-6,
                 scale_rtol=SCALE_RTOL.get(key, 1e-7), what=key)


@pytest.mark.parametrize("key,cls,kwargs,updates,eval_kwargs", gen.CASES, ids=[c[0] for c in gen.CASES])
def test_against_mindspore(key: str, cls: str, kwargs: dict, updates: list, eval_kwargs: dict) -> None:
    m = getattr(M, cls)(**kwargs)
    m.clear()
    for names in updates:
        m.update(*gen.arguments(names, DATA, MODEL, Tensor))
    _close(m.eval(**eval_kwargs), REF["cases"][key], key)


def test_every_metric_has_a_fixture_row() -> None:
    assert set(REF["cases"]) == {c[0] for c in gen.CASES} and REF["mindspore"].startswith("2.10")
    assert {c[1] for c in gen.CASES} == {"BleuScore", "ConfusionMatrix", "ConfusionMatrixMetric",
                                         "CosineSimilarity",
                                         "Dice", "HausdorffDistance", "MeanSurfaceDistance",
                                         "RootMeanSquareDistance",
                                         "OcclusionSensitivity", "Perplexity", "ROC"}


def test_auc_against_mindspore() -> None:
    fpr, tpr, _ = M.ROC(pos_label=1)(Tensor(DATA["probs"]), Tensor(DATA["binary"]))
    assert M.auc(fpr, tpr) == pytest.approx(REF["auc_roc"], rel=1e-12)
    got = M.auc(np.array([0.5, 0.1, 0.9, 0.3]), np.array([1.0, 0.2, 0.4, 0.8]), reorder=True)
    assert got == pytest.approx(REF["auc_reorder"], rel=1e-12)
    assert M.auc(np.array([1.0, 0.6, 0.2]), np.array([0.3, 0.5, 0.9])) == pytest.approx(REF["auc_decreasing"])
    with pytest.raises(ValueError, match="must be increasing or decreasing"):
        M.auc(np.array([0.1, 0.5, 0.3]), np.array([1.0, 2.0, 3.0]))
    with pytest.raises(TypeError, match="must all be np.ndarray"):
        M.auc([0.1, 0.2], np.array([1.0, 2.0]))


def _roc_reference(scores: np.ndarray, positive: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(fpr, tpr) at every distinct threshold, highest first, with the (0, 0) start: sklearn's roc_curve
    without dropping collinear points."""
    thresholds = np.unique(scores)[::-1]
    tpr = [0.0] + [((scores >= t) & positive).sum() / positive.sum() for t in thresholds]
    fpr = [0.0] + [((scores >= t) & ~positive).sum() / (~positive).sum() for t in thresholds]
    return np.array(fpr), np.array(tpr)


def test_roc_multi_class_uses_each_class_column() -> None:
    """N != C: MindSpore 2.10's reshape mixes samples there; each class here is one-versus-rest on its
    column."""
    scores, labels = DATA["scores"], DATA["classes"]
    fprs, tprs, thresholds = M.ROC(class_num=3)(Tensor(scores), Tensor(labels))
    for c in range(3):
        fpr, tpr = _roc_reference(scores[:, c].astype(np.float64), labels == c)
        np.testing.assert_allclose(fprs[c], fpr)
        np.testing.assert_allclose(tprs[c], tpr)
        assert thresholds[c][0] == pytest.approx(scores[:, c].max() + 1)


def test_metric_names_are_mindspores() -> None:
    with open(os.path.join(FIX, "training", "metrics.json")) as f:
        assert M.names() == json.load(f)["_names"]
    assert isinstance(M.get_metric_fn("bleu_score", 2), M.BleuScore)
    assert M.get_metric_fn("confusion_matrix", 4).num_classes == 4
    assert nn.ROC is M.ROC and ms.train.Perplexity is M.Perplexity and ms.auc is M.auc


def test_eval_before_update_and_argument_errors() -> None:
    for m in (M.BleuScore(), M.ConfusionMatrix(2), M.CosineSimilarity(), M.HausdorffDistance(),
              M.MeanSurfaceDistance(), M.RootMeanSquareDistance(), M.OcclusionSensitivity(), M.ROC()):
        with pytest.raises(RuntimeError, match="call the 'update' method"):
            m.eval()
    for m in (M.Dice(), M.Perplexity()):
        with pytest.raises(RuntimeError, match="number of samples is 0"):
            m.eval()
    with pytest.raises(ValueError, match="'n_gram' should range from 1 to 4"):
        M.BleuScore(n_gram=5)
    with pytest.raises(ValueError, match="'normalize' must be in"):
        M.ConfusionMatrix(2, normalize="rows")
    with pytest.raises(NotImplementedError, match="not implemented"):
        M.ConfusionMatrixMetric(metric_name="kappa")(DATA["seg_pred"], DATA["seg_true"])
    with pytest.raises(ValueError, match="'similarity' must be in"):
        M.CosineSimilarity(similarity="l2")
    with pytest.raises(ValueError, match="label index \\(input\\[2\\]\\) must be in"):
        M.HausdorffDistance().update(DATA["mask_a"], DATA["mask_b"], 7)
    with pytest.raises(ValueError, match="'pos_label' must be None"):
        M.ROC(class_num=3, pos_label=1).update(DATA["scores"], DATA["classes"])
    with pytest.raises(RuntimeError, match="must be 1"):
        M.OcclusionSensitivity().update(MODEL, np.zeros((2, 2, 4, 4), np.float32), np.array(1))
    with pytest.raises(ValueError, match="should be equal in length"):
        M.BleuScore().update([["a"]], [])


def test_surface_distance_of_an_empty_prediction_is_infinite() -> None:
    pred = np.zeros((5, 5), int)
    true = np.zeros((5, 5), int)
    true[1:4, 1:4] = 1
    m = M.MeanSurfaceDistance()
    m.update(pred, true, 1)
    assert m.eval() == np.inf
    h = M.HausdorffDistance()
    h.update(true, true, 1)
    assert h.eval() == 0.0
