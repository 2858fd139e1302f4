"""LearningRateScheduler and ReduceLROnPlateau against Model.train / Model.fit of real MindSpore 2.10
(training/callbacks.json, written by tests/fixtures/mindspore/gen_callbacks.py), and BackupAndRestore,
OnRequestExit, FlopsUtilizationCollector, DatasetHelper, connect_network_with_dataset and data_sink driven
through Model.train and training loops."""
from __future__ import annotations

import importlib.util
import json
import os
import re
import signal

import numpy as np
import pytest

import cellonnx as ms
import cellonnx.dataset as ds
from cellonnx import nn
from cellonnx.checkpoint import load_checkpoint
from cellonnx.nn import optim
from cellonnx.tensor import Tensor
from cellonnx.train import (
    BackupAndRestore,
    Callback,
    DatasetHelper,
    FlopsUtilizationCollector,
    LambdaCallback,
    LearningRateScheduler,
    Model,
    OnRequestExit,
    ReduceLROnPlateau,
    connect_network_with_dataset,
    data_sink,
)
from tests.nn.training_net import FIX, MSE, Net, gen
from tests.tolerance import assert_close

_spec = importlib.util.spec_from_file_location("gen_callbacks", os.path.join(FIX, "gen_callbacks.py"))
gen_cb = importlib.util.module_from_spec(_spec)  # type: ignore[arg-type]
_spec.loader.exec_module(gen_cb)  # type: ignore[union-attr]
with open(os.path.join(FIX, "training", "callbacks.json")) as f:
    REF = json.load(f)
REF_ARR = dict(np.load(os.path.join(FIX, "training", "callbacks.npz")))
DATA = gen.model_data()


def _dataset(batch: int = 4) -> ds.Dataset:
    return ds.NumpySlicesDataset({"x": DATA["x"], "y": DATA["y"]}, shuffle=False).batch(batch)


def _model(lr: object = 0.1) -> tuple[Model, Net, optim.Optimizer]:
    net = Net()
    opt = optim.Momentum(net.trainable_params(), learning_rate=lr, momentum=0.9)
    return Model(net, loss_fn=MSE(), optimizer=opt, metrics={"loss"}), net, opt


@pytest.mark.parametrize("case", gen_cb.CASES, ids=[c[0] for c in gen_cb.CASES])
def test_learning_rate_callbacks_against_mindspore(case: tuple) -> None:
    key, method = case[0], case[1]
    model, net, opt = _model()
    steps: list[float] = []
    epochs: list[float] = []
    recorder = LambdaCallback(on_train_step_end=lambda rc: steps.append(float(opt.learning_rate.asnumpy())),
                              on_train_epoch_end=lambda rc: epochs.append(float(opt.learning_rate.asnumpy())))
    callbacks = [gen_cb.build_callback(ms.train, case), recorder]
    if method == "fit":
        model.fit(REF["epochs"], _dataset(REF["batch"]), _dataset(6), callbacks=callbacks)
    else:
        model.train(REF["epochs"], _dataset(REF["batch"]), callbacks=callbacks)
    np.testing.assert_allclose(steps, REF["cases"][key]["step_lr"], rtol=1e-7)
    np.testing.assert_allclose(epochs, REF["cases"][key]["epoch_lr"], rtol=1e-7)
    for n in gen.PARAM_NAMES:
        assert_close(getattr(net, n).asnumpy(), REF_ARR[f"{key}/{n}"], rtol=1e-4, scale_rtol=1e-5,
                     min_scale=1.0, what=f"{key}: {n}")


def test_learning_rate_callbacks_need_a_fixed_rate() -> None:
    model, _, _ = _model(lr=[0.1] * 12)
    with pytest.raises(ValueError, match="does not support dynamic learning rate"):
        model.train(1, _dataset(), callbacks=[LearningRateScheduler(lambda lr, step: lr)])
    with pytest.raises(ValueError, match="'factor' must be a float in"):
        ReduceLROnPlateau(factor=1.5)
    with pytest.raises(ValueError, match="mode should be 'auto', 'min' or 'max'"):
        ReduceLROnPlateau(mode="best")


def _weights(net: Net) -> dict[str, np.ndarray]:
    return {n: getattr(net, n).asnumpy().copy() for n in gen.PARAM_NAMES}


def test_backup_and_restore_resumes_an_interrupted_run(tmp_path: object) -> None:
    straight, net_a, _ = _model()
    straight.train(3, _dataset())
    first, _, _ = _model()
    first.train(2, _dataset(), callbacks=[BackupAndRestore(str(tmp_path), delete_checkpoint=False)])
    backup = os.path.join(str(tmp_path), "backup.ckpt")
    saved = load_checkpoint(backup)
    assert {"global_step", "moments.fc1_weight", "fc1_weight"} <= set(saved)
    resumed, net_c, opt_c = _model()          # a fresh process: new weights, new optimizer state
    resumed.train(3, _dataset(), callbacks=[BackupAndRestore(str(tmp_path))], initial_epoch=2)
    for n, w in _weights(net_a).items():
        np.testing.assert_allclose(getattr(net_c, n).asnumpy(), w, rtol=1e-6, atol=1e-7, err_msg=n)
    assert int(opt_c.global_step.asnumpy()[0]) == 9
    assert not os.path.exists(backup)         # deleted at the end by default


def test_backup_every_second_epoch(tmp_path: object) -> None:
    seen: list[bool] = []
    backup = os.path.join(str(tmp_path), "backup.ckpt")
    model, _, _ = _model()
    cb = BackupAndRestore(str(tmp_path), save_freq=2, delete_checkpoint=False)
    model.train(3, _dataset(), callbacks=[cb, LambdaCallback(on_train_epoch_end=lambda rc: seen.append(
        os.path.exists(backup)))])
    assert seen == [False, True, True]
    with pytest.raises(ValueError, match="'save_freq' must be 'epoch' or a positive int"):
        BackupAndRestore(str(tmp_path), save_freq=0)


class _RaiseAt(Callback):
    def __init__(self, step: int, sig: int) -> None:
        super().__init__()
        self.step, self.sig, self.steps = step, sig, 0

    def on_train_step_end(self, run_context: object) -> None:
        self.steps += 1
        if self.steps == self.step:
            os.kill(os.getpid(), self.sig)


def test_on_request_exit_stops_at_the_next_step_and_saves(tmp_path: object,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MS_ENABLE_GRACEFUL_EXIT", "1")
    before = signal.getsignal(signal.SIGUSR1)
    model, net, _ = _model()
    raiser = _RaiseAt(2, signal.SIGUSR1)
    exit_cb = OnRequestExit(file_name="Tiny", directory=str(tmp_path), sig=signal.SIGUSR1)
    model.train(3, _dataset(), callbacks=[raiser, exit_cb])
    assert raiser.steps == 3                  # the signal came at step 2; step 3 finished, saved and stopped
    ckpt = load_checkpoint(os.path.join(str(tmp_path), "rank_0", "Tiny_train.ckpt"))
    assert int(ckpt["step_num"].asnumpy()) == 3 and int(ckpt["global_step"].asnumpy()[0]) == 3
    assert int(ckpt["epoch_num"].asnumpy()) == 1 and int(ckpt["batch_num"].asnumpy()) == 3
    np.testing.assert_allclose(ckpt["fc1_weight"].asnumpy(), net.fc1_weight.asnumpy())
    assert os.path.exists(os.path.join(str(tmp_path), "rank_0", "Tiny_train.onnx"))
    assert signal.getsignal(signal.SIGUSR1) is before
    # a new run loads the saved training state first
    model2, _, opt2 = _model()
    model2.train(1, _dataset(), callbacks=[OnRequestExit(file_name="Tiny", directory=str(tmp_path),
                                                         save_mindir=False, sig=signal.SIGUSR1)])
    assert int(opt2.global_step.asnumpy()[0]) == 3 + 3


def test_on_request_exit_without_graceful_exit_saves_at_the_end(tmp_path: object,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MS_ENABLE_GRACEFUL_EXIT", raising=False)
    model, _, _ = _model()
    raiser = _RaiseAt(1, signal.SIGUSR1)
    model.train(2, _dataset(), callbacks=[raiser, OnRequestExit(directory=str(tmp_path), save_mindir=False,
                                                                sig=signal.SIGUSR1)])
    assert raiser.steps == 6                  # MindSpore's default: train on, save when done
    assert os.path.exists(os.path.join(str(tmp_path), "rank_0", "Net_train.ckpt"))
    with pytest.raises(ValueError, match="SIGKILL"):
        OnRequestExit(sig=signal.SIGKILL)


def test_flops_utilization_collector_counts_forward_and_backward(capsys: pytest.CaptureFixture) -> None:
    """MindSpore's documented example: Dense(10, 5) on batches of 32 counts 6400 FLOPs per step (the forward
    product and the weight gradient's)."""
    rng = np.random.default_rng(0)
    data = {"x": rng.random((64, 10)).astype(np.float32), "y": rng.integers(0, 5, (64,)).astype(np.int32)}
    dataset = ds.NumpySlicesDataset(data=data, shuffle=False).batch(32)
    net = nn.Dense(10, 5)
    crit = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    model = Model(net, loss_fn=crit, optimizer=optim.Momentum(net.trainable_params(), 0.01, 0.9))
    model.train(2, dataset, callbacks=[FlopsUtilizationCollector(dataset.get_dataset_size(),
                                                                 computility=10e6)])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == ("Full model flops is 6400, Full hardware flops is 6400, Shard model flops is 6400, "
                        "Shard hardware flops is 6400.")
    step = re.compile(r"^Train per step time: +\d+\.\d{3} ms mfu:\d+\.\d{2}% hfu:\d+\.\d{2}%$")
    # reports after steps 1 and 3 (not multiples of data_size, MindSpore's rule)
    assert len(lines) == 3 and all(step.match(line) for line in lines[1:])
    with pytest.raises(TypeError, match="'data_size' must be a positive int"):
        FlopsUtilizationCollector(0)


def test_flops_of_convolutions() -> None:
    from cellonnx.train.callback._flops import _FlopCounter

    conv = nn.Conv2d(3, 4, 3, pad_mode="valid", has_bias=False)
    x = Tensor(np.ones((2, 3, 6, 6), np.float32))
    with _FlopCounter() as counter:
        ms.value_and_grad(lambda t: conv(t).sum(), None, conv.trainable_params())(x)
    per_pass = 2 * (2 * 4 * 4 * 4) * (3 * 3 * 3)        # output elements x multiply-adds each
    assert counter.flops == 2 * per_pass                   # the forward and the weight gradient


def _train_step() -> tuple[nn.TrainOneStepCell, Net]:
    net = Net()
    opt = optim.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
    return nn.TrainOneStepCell(nn.WithLossCell(net, MSE()), opt), net


def _reference_weights(steps: int) -> dict[str, np.ndarray]:
    step, net = _train_step()
    batches = [tuple(r) for r in _dataset().create_tuple_iterator(num_epochs=1)]
    for i in range(steps):
        step(*batches[i % len(batches)])
    return _weights(net)


def test_dataset_helper_with_and_without_sink() -> None:
    plain = DatasetHelper(_dataset(), dataset_sink_mode=False, epoch_num=1)
    rows = [tuple(r) for r in plain]
    assert len(rows) == 3 and rows[0][0].shape == (4, 16) and plain.sink_size() == 1
    with pytest.raises(RuntimeError, match="should be called in dataset sink mode"):
        connect_network_with_dataset(_train_step()[0], plain)
    helper = DatasetHelper(_dataset(), dataset_sink_mode=True, epoch_num=2)
    step, net = _train_step()
    sunk = connect_network_with_dataset(step, helper)
    assert connect_network_with_dataset(step, helper) is sunk and helper.sink_size() == 3
    for _ in range(2):
        for inputs in helper:
            assert inputs == ()
            sunk(*inputs)
    for n, w in _reference_weights(6).items():
        np.testing.assert_allclose(getattr(net, n).asnumpy(), w, rtol=1e-6, err_msg=n)
    with pytest.raises(ValueError, match="connected to other network"):
        connect_network_with_dataset(_train_step()[0], helper)
    with pytest.raises(ValueError, match="'sink_size' must be -1 or positive"):
        DatasetHelper(_dataset(), sink_size=0)


def test_data_sink_runs_sink_size_batches_per_call() -> None:
    step, net = _train_step()
    dataset = _dataset()
    sink_step = data_sink(step, dataset, sink_size=2)
    # 8 steps, over the 3-batch epoch boundary twice
    losses = [float(sink_step().asnumpy()) for _ in range(4)]
    assert len(losses) == 4
    for n, w in _reference_weights(8).items():
        np.testing.assert_allclose(getattr(net, n).asnumpy(), w, rtol=1e-6, err_msg=n)
    with pytest.raises(ValueError, match="has been used with network"):
        data_sink(step, dataset)
    with pytest.raises(ValueError, match="'sink_size' must be positive"):
        data_sink(step, _dataset(), sink_size=0)
    signature = [Tensor(shape=(None, 16), dtype=ms.float32), Tensor(shape=(None, 3), dtype=ms.float32)]
    data_sink(step, _dataset(), input_signature=signature)
    with pytest.raises(ValueError, match="has shape"):
        data_sink(step, _dataset(), input_signature=[Tensor(shape=(None, 5), dtype=ms.float32)] * 2)
