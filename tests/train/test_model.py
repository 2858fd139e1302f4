"""Model.train / eval / predict / fit with callbacks, against a recording of real MindSpore 2.10 on the same
tiny in-order dataset (model.json: hook order, LossMonitor lines, eval dict, predictions, final weights)."""
from __future__ import annotations

import json
import os
import re

import numpy as np
import pytest

import cellonnx.dataset as ds
from cellonnx.nn import optim
from cellonnx.nn.cell import Cell
from cellonnx.tensor import Tensor
from cellonnx.train import (
    Callback,
    DynamicLossScaleManager,
    EarlyStopping,
    FixedLossScaleManager,
    History,
    LambdaCallback,
    LossMonitor,
    Model,
    ProgressBar,
    TimeMonitor,
)
from tests.nn.training_net import FIX, MSE, Net, gen
from tests.tolerance import assert_close, sum_rtol

with open(os.path.join(FIX, "training", "model.json")) as f:
    REF = json.load(f)
REF_ARR = dict(np.load(os.path.join(FIX, "training", "model.npz")))
DATA = gen.model_data()


class Recorder(Callback):
    def __init__(self) -> None:
        super().__init__()
        self.calls: list[list] = []


def _hook(name: str):
    def hook(self: Recorder, run_context) -> None:
        cb = run_context.original_args()
        self.calls.append([name, cb.get("mode"), int(cb.get("cur_epoch_num", 0) or 0), int(cb.get("cur_step_num", 0))])
    return hook


for _h in gen.MODEL_HOOKS[:12]:
    setattr(Recorder, _h, _hook(_h))


def _model() -> tuple[Model, Net]:
    net = Net()
    opt = optim.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
    return Model(net, loss_fn=MSE(), optimizer=opt, metrics={"loss", "mae", "mse"}), net


def _dataset(batch: int) -> ds.Dataset:
    return ds.NumpySlicesDataset({"x": DATA["x"], "y": DATA["y"]}, shuffle=False).batch(batch)


def test_train_eval_predict_against_mindspore(capsys: pytest.CaptureFixture) -> None:
    model, net = _model()
    rec = Recorder()
    model.train(REF["epochs"], _dataset(REF["batch"]), callbacks=[rec, LossMonitor(per_print_times=2)])
    assert rec.calls == REF["train_calls"]
    lines = capsys.readouterr().out.splitlines()
    pattern = re.compile(r"^epoch: (\d+) step: (\d+), loss is (\S+)$")
    assert len(lines) == len(REF["loss_monitor"])
    for got, want in zip(lines, REF["loss_monitor"]):
        g, w = pattern.match(got), pattern.match(want)
        assert g and w, got
        assert g.group(1, 2) == w.group(1, 2)
        assert float(g.group(3)) == pytest.approx(float(w.group(3)), rel=1e-4, abs=1e-5)
    for n in gen.PARAM_NAMES:
        assert_close(getattr(net, n).asnumpy(), REF_ARR[f"final/{n}"], rtol=1e-4, scale_rtol=1e-5,
                     min_scale=1.0, what=n)
    rec2 = Recorder()
    result = model.eval(_dataset(5), callbacks=[rec2])
    assert rec2.calls == REF["eval_calls"]
    assert set(result) == set(REF["eval"])
    for k, v in REF["eval"].items():
        assert float(result[k]) == pytest.approx(v, rel=1e-4, abs=1e-5), k
    pred = model.predict(Tensor(DATA["x"][:3]))
    assert_close(pred.asnumpy(), REF_ARR["predict"], rtol=1e-4, scale_rtol=1e-5, min_scale=1.0,
                 what="predict")
    assert not net.training   # predict switched the backbone to inference mode


def test_loss_decreases_and_run_context_fields() -> None:
    rng = np.random.RandomState(0)
    x = rng.randn(64, gen.IN_DIM).astype(np.float32)
    y = (x[:, :gen.OUT_DIM] * 0.5).astype(np.float32)
    net = Net()
    model = Model(net, MSE(), optim.Adam(net.trainable_params(), 0.01))
    seen: list[dict] = []

    def keep(run_context) -> None:
        cb = run_context.original_args()
        seen.append({k: cb.get(k) for k in ("cur_epoch_num", "cur_step_num", "batch_num", "epoch_num", "mode")}
                    | {"loss": float(cb.net_outputs.asnumpy())})

    data = ds.NumpySlicesDataset((x, y), column_names=["x", "y"], shuffle=True).batch(16)
    model.train(6, data, callbacks=LambdaCallback(on_train_step_end=keep))
    assert [s["cur_step_num"] for s in seen] == list(range(1, 25))
    assert {s["batch_num"] for s in seen} == {4} and {s["epoch_num"] for s in seen} == {6}
    assert seen[-1]["cur_epoch_num"] == 6 and seen[0]["mode"] == "train"
    first, last = np.mean([s["loss"] for s in seen[:4]]), np.mean([s["loss"] for s in seen[-4:]])
    assert last < 0.5 * first


def test_request_stop_ends_training() -> None:
    model, _ = _model()

    class StopAt3(Callback):
        def step_end(self, run_context) -> None:
            if run_context.original_args().cur_step_num == 3:
                run_context.request_stop()

    rec = Recorder()
    model.train(5, _dataset(4), callbacks=[StopAt3(), rec])
    assert [c[0] for c in rec.calls][-3:] == ["on_train_step_end", "on_train_epoch_end", "on_train_end"]
    assert rec.calls[-1][3] == 3


def test_fit_evaluates_every_valid_frequency(capsys: pytest.CaptureFixture) -> None:
    model, _ = _model()
    hist = History()
    model.fit(4, _dataset(4), valid_dataset=_dataset(6), valid_frequency=2, callbacks=[hist, LossMonitor(0)])
    out = capsys.readouterr().out
    assert out.count("Eval result: epoch") == 2 and "Eval result: epoch 2, metrics: {" in out
    # as MindSpore, History (a built-in callback) stays out of the evaluations: one entry per training epoch,
    # the evaluation's metrics joining the epochs they followed
    assert hist.epoch == {"epoch": [1, 2, 3, 4]}
    assert len(hist.history["net_output"]) == 4 and len(hist.history["loss"]) == 2
    stop = EarlyStopping(monitor="eval_loss", patience=2, min_delta=10.0)
    model.fit(6, _dataset(4), valid_dataset=_dataset(6), callbacks=[stop])
    assert stop.stopped_epoch == 3     # epoch 1 improves on inf; no later change of 10: the counter hits 2 at 3
    stop0 = EarlyStopping(monitor="loss", patience=0)
    model.train(6, _dataset(4), callbacks=[stop0])
    assert stop0.stopped_epoch == 1    # MindSpore's rule: patience 0 stops at the first monitored epoch


def test_fit_evaluations_leave_builtin_callbacks_out() -> None:
    """As recorded from MindSpore 2.10 (model_fit.json): during fit's evaluations History and LambdaCallback
    are left out, by class name, while a user's Callback and a user's subclass of History take part."""
    with open(os.path.join(FIX, "training", "model_fit.json")) as f:
        ref = json.load(f)

    class UserHistory(History):
        pass

    net = Net()
    opt = optim.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
    model = Model(net, loss_fn=MSE(), optimizer=opt, metrics={"loss", "mae"})
    lambda_calls: list[str] = []
    lam = LambdaCallback(on_eval_end=lambda rc: lambda_calls.append("on_eval_end"),
                         on_train_epoch_end=lambda rc: lambda_calls.append("on_train_epoch_end"))
    hist, user_hist, rec = History(), UserHistory(), Recorder()
    model.fit(ref["epochs"], _dataset(4), valid_dataset=_dataset(5), callbacks=[hist, lam, rec, user_hist])
    assert rec.calls == ref["calls"]
    assert lambda_calls == ref["lambda_calls"]
    assert hist.epoch == ref["history_epoch"] == {"epoch": [1, 2]}
    assert user_hist.epoch == ref["user_history_epoch"] == {"epoch": [2, 2]}
    assert {k: len(v) for k, v in hist.history.items()} == ref["history_lengths"]
    assert {k: len(v) for k, v in user_hist.history.items()} == ref["user_history_lengths"]


def test_time_monitor_and_progress_bar(capsys: pytest.CaptureFixture) -> None:
    model, _ = _model()
    model.train(2, _dataset(4), callbacks=[TimeMonitor(), ProgressBar()])
    captured = capsys.readouterr()
    lines = [ln for ln in captured.out.splitlines() if "epoch time" in ln]
    assert len(lines) == 2
    assert re.match(r"^Train epoch time: \d+\.\d{3} ms, per step time: \d+\.\d{3} ms$", lines[0])
    assert "epoch 2/2" in captured.err and "3/3" in captured.err


def test_loss_scale_managers() -> None:
    net = Net()
    model = Model(net, MSE(), optim.Momentum(net.trainable_params(), 0.1, 0.9),
                  loss_scale_manager=DynamicLossScaleManager(init_loss_scale=2.0 ** 10, scale_window=2))
    outs: list = []
    model.train(1, _dataset(4), callbacks=LambdaCallback(on_train_step_end=lambda rc: outs.append(
        rc.original_args().net_outputs)))
    assert all(isinstance(o, tuple) and len(o) == 3 for o in outs)
    assert float(outs[-1][2].asnumpy()) == 2.0 ** 11   # grew after the 2-step window
    assert type(model.train_network).__name__ == "TrainOneStepWithLossScaleCell"
    net2 = Net()
    fixed = Model(net2, MSE(), optim.Momentum(net2.trainable_params(), 0.1, 0.9, loss_scale=64.0),
                  loss_scale_manager=FixedLossScaleManager(64.0, drop_overflow_update=False))
    assert type(fixed.train_network).__name__ == "TrainOneStepCell"
    fixed.train(1, _dataset(4))
    ref_model, ref_net = _model()
    ref_model.train(1, _dataset(4))
    for n in gen.PARAM_NAMES:
        # the loss scaled by 64 and the gradients divided by it again: the rounding of 16-term sums
        assert_close(getattr(net2, n).asnumpy(), getattr(ref_net, n).asnumpy(), rtol=1e-5,
                     scale_rtol=sum_rtol(16), what=n)


def test_model_argument_errors() -> None:
    net = Net()
    with pytest.raises(ValueError, match="'eval_network' must be given, or 'loss_fn'"):
        Model(net, metrics={"acc"})
    with pytest.raises(ValueError, match="has no 'metrics'"):
        Model(net, MSE()).eval(_dataset(4))
    with pytest.raises(ValueError, match="has no optimizer"):
        Model(net, MSE()).train(1, _dataset(4))
    with pytest.raises(ValueError, match="unsupported keyword"):
        Model(net, MSE(), foo=1)
    model, _ = _model()
    with pytest.raises(ValueError, match="must be greater than initial_epoch"):
        model.train(1, _dataset(4), initial_epoch=1)
    with pytest.raises(ValueError, match="2 columns"):
        model.train(1, ds.NumpySlicesDataset(DATA["x"], shuffle=False).batch(4))
    used = _dataset(4)
    model.train(1, used)
    with pytest.raises(RuntimeError, match="already used by another Model"):
        _model()[0].train(1, used)
    with pytest.raises(TypeError, match="every callback must be a Callback"):
        _model()[0].train(1, _dataset(4), callbacks=[print])


def test_without_loss_fn_the_network_gets_every_column() -> None:
    class WithLoss(Cell):
        def __init__(self) -> None:
            super().__init__()
            self.net, self.loss = Net(), MSE()

        def construct(self, x: Tensor, y: Tensor) -> Tensor:
            return self.loss(self.net(x), y)

    net = WithLoss()
    model = Model(net, optimizer=optim.SGD(net.trainable_params(), 0.05))
    before = net.net.fc1_weight.asnumpy().copy()
    model.train(1, _dataset(4))
    assert not np.allclose(before, net.net.fc1_weight.asnumpy())


def test_exposed_as_in_mindspore() -> None:
    import cellonnx as ms
    from cellonnx import nn

    assert ms.Model is ms.train.Model is Model
    assert ms.LossMonitor is ms.train.LossMonitor is LossMonitor
    assert ms.train.Accuracy is nn.Accuracy and ms.Accuracy is nn.Accuracy
    assert ms.dataset.NumpySlicesDataset is ds.NumpySlicesDataset
    assert ms.train.FixedLossScaleManager is FixedLossScaleManager and ms.amp.build_train_network
    for name in ("SGD", "Momentum", "Adam", "AdamWeightDecay", "Lamb", "LARS", "Optimizer", "TrainOneStepCell",
                 "TrainOneStepWithLossScaleCell", "DynamicLossScaleUpdateCell", "WithLossCell", "WithEvalCell",
                 "ExponentialDecayLR", "cosine_decay_lr", "warmup_lr", "TopKCategoricalAccuracy"):
        assert hasattr(nn, name), name
