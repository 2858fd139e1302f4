"""Metrics against real MindSpore 2.10 (tests/fixtures/mindspore/training/metrics.json): the same updates on
the same inputs, then eval; plus the documented errors."""
from __future__ import annotations

import json
import os

import numpy as np
import pytest

from cellonnx.nn import metrics as M
from cellonnx.tensor import Tensor
from tests.nn.training_net import FIX, gen
from tests.tolerance import assert_close

with open(os.path.join(FIX, "training", "metrics.json")) as f:
    REF = json.load(f)
DATA = gen.metric_inputs()


@pytest.mark.parametrize("key,cls,args,updates,eval_kwargs", gen.METRIC_CASES, ids=[c[0] for c in gen.METRIC_CASES])
def test_against_mindspore(key: str, cls: str, args: list, updates: list, eval_kwargs: dict) -> None:
    m = getattr(M, cls)(*args)
    m.clear()
    for names in updates:
        m.update(*[Tensor(DATA[n]) for n in names])
    assert_close(np.asarray(m.eval(**eval_kwargs), np.float64), REF[key], rtol=1e-6, scale_rtol=1e-7,
                 min_scale=1.0, what=key)


def test_every_metric_has_a_fixture_row() -> None:
    covered = {c[1] for c in gen.METRIC_CASES}
    assert {"Accuracy", "Precision", "Recall", "F1", "Fbeta", "MAE", "MSE", "Loss", "Top1CategoricalAccuracy",
            "Top5CategoricalAccuracy", "TopKCategoricalAccuracy"} <= covered


@pytest.mark.parametrize("cls,args", [("Accuracy", []), ("MAE", []), ("MSE", []), ("Loss", []), ("Precision", []),
                                      ("Recall", []), ("F1", []), ("Fbeta", [2.0]),
                                      ("TopKCategoricalAccuracy", [2]), ("Top1CategoricalAccuracy", [])])
def test_eval_before_update_raises_runtime_error(cls: str, args: list) -> None:
    assert set(REF["_empty_eval_raises"].values()) == {"RuntimeError"}
    with pytest.raises(RuntimeError, match="number of samples is 0"):
        getattr(M, cls)(*args).eval()


def test_clear_resets_and_call_is_clear_update_eval() -> None:
    m = M.Accuracy()
    m.update(Tensor(DATA["pred_a"]), Tensor(DATA["label_a"]))
    m.clear()
    with pytest.raises(RuntimeError):
        m.eval()
    assert m(Tensor(DATA["pred_a"]), Tensor(DATA["label_a"])) == pytest.approx(
        float(np.mean(DATA["pred_a"].argmax(1) == DATA["label_a"])))


def test_inputs_may_be_numpy_lists_and_one_hot() -> None:
    pred = DATA["pred_a"]
    onehot = np.eye(6)[DATA["label_a"]]
    a, b = M.Accuracy(), M.Accuracy()
    a.update(pred, onehot)
    b.update(pred.tolist(), DATA["label_a"].tolist())
    assert a.eval() == b.eval()
    with pytest.raises(TypeError, match="Tensor, list or numpy.ndarray"):
        M.MAE().update((1, 2), (1, 2))


def test_errors_name_the_metric_and_the_problem() -> None:
    with pytest.raises(ValueError, match="2 inputs"):
        M.Accuracy().update(Tensor(DATA["pred_a"]))
    with pytest.raises(ValueError, match="one more dimension"):
        M.Accuracy().update(Tensor(DATA["pred_a"]), Tensor(DATA["pred_a"][:, :1].T))
    m = M.Precision()
    m.update(Tensor(DATA["pred_a"]), Tensor(DATA["label_a"]))
    with pytest.raises(ValueError, match="6 classes, this one 3"):
        m.update(Tensor(DATA["pred_a"][:, :3]), Tensor(np.zeros(10, np.int32)))
    with pytest.raises(ValueError, match="0 or 1"):
        M.Accuracy("multilabel").update(Tensor(DATA["pred_a"]), Tensor(DATA["pred_a"]))
    with pytest.raises(TypeError, match="eval_type"):
        M.Accuracy("regression")
    with pytest.raises(ValueError, match="at least 1"):
        M.TopKCategoricalAccuracy(0)
    with pytest.raises(ValueError, match="greater than 0"):
        M.Fbeta(0)


def test_set_indexes_picks_the_outputs() -> None:
    m = M.Accuracy().set_indexes([1, 2])
    m.update(Tensor([0.3]), Tensor(DATA["pred_a"]), Tensor(DATA["label_a"]))
    assert m.eval() == pytest.approx(float(np.mean(DATA["pred_a"].argmax(1) == DATA["label_a"])))
    loss = M.Loss().set_indexes([0])
    loss.update(Tensor(np.array([0.5, 1.5], np.float32)), Tensor(DATA["pred_a"]))
    assert loss.eval() == pytest.approx(1.0)


def test_names_and_get_metric_fn() -> None:
    assert M.names() == REF["_names"]
    assert isinstance(M.get_metric_fn("topk", 3), M.TopKCategoricalAccuracy)
    with pytest.raises(KeyError, match="unknown metric 'bleu'"):
        M.get_metric_fn("bleu")   # it is 'bleu_score'
    got = M.get_metrics({"acc", "loss"})
    assert isinstance(got["acc"], M.Accuracy) and isinstance(got["loss"], M.Loss)
    with pytest.raises(TypeError):
        M.get_metrics(["acc"])
