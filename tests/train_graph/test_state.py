"""The state of a compiled step lives in onnxruntime: parameters are copied back only when read, user writes
(set_data, load_param_into_net, a learning-rate change) reach the next step, an evaluation call between steps
sees the current weights, and the step recompiles only on a structural change (with the reason logged)."""
from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import nn, ops
from cellonnx.graph import train as graph_train
from tests.train_graph.harness import check_trajectory, classification_batches


class Net(nn.Cell):
    def __init__(self) -> None:
        super().__init__()
        self.fc1 = nn.Dense(6, 8, has_bias=False)  # (a bias before batch norm gets a zero gradient)
        self.bn = nn.BatchNorm1d(8)
        self.fc2 = nn.Dense(8, 3)

    def construct(self, x: Any) -> Any:
        return self.fc2(ops.relu(self.bn(self.fc1(x))))


def _build() -> Any:
    net = Net()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Adam(net.trainable_params(), 1e-2))
    step.set_train()
    return step


def _compiled(step: Any) -> graph_train.CompiledStep:
    (compiled,) = graph_train.compiled_steps(step)
    return compiled


class Intervening:
    """A training cell whose i-th call first applies ``actions[i]`` (the same in both modes)."""

    def __init__(self, actions: dict[int, Callable[[Any], None]]) -> None:
        self.actions = actions

    def __call__(self) -> Any:
        step = _build()
        calls = [0]

        def run(*args: Any) -> Any:
            action = self.actions.get(calls[0])
            if action is not None:
                action(step)
            calls[0] += 1
            return step(*args)

        run.parameters_and_names = step.parameters_and_names  # type: ignore[attr-defined]
        return run


def _set_weight(step: Any) -> None:
    w = step.network.backbone_network.fc1.weight
    w.set_data(ms.Tensor(np.full(w.shape, 0.05, np.float32)))


def _load(step: Any) -> None:
    net = step.network.backbone_network
    ms.load_param_into_net(net, {"fc2.bias": ms.Parameter(np.arange(3, dtype=np.float32), name="fc2.bias")})


def _lower_lr(step: Any) -> None:
    step.optimizer.learning_rate.set_data(ms.Tensor(np.float32(1e-3)))


def _read_and_eval(step: Any) -> None:
    net = step.network.backbone_network
    net.fc1.weight.asnumpy()
    net.set_train(False)
    net(ms.Tensor(np.ones((2, 6), np.float32)))
    net.set_train(True)


INTERVENTIONS = {
    "set_data": {2: _set_weight},
    "load_param_into_net": {3: _load},
    "learning_rate_change": {1: _lower_lr},
    "read_and_eval_between_steps": {1: _read_and_eval, 3: _read_and_eval},
}


@pytest.mark.parametrize("name", sorted(INTERVENTIONS))
def test_user_writes_reach_the_next_step(name: str) -> None:
    check_trajectory(Intervening(INTERVENTIONS[name]), classification_batches((4, 6), 3), what=name)


def test_state_stays_in_onnxruntime_between_steps() -> None:
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        step = _build()
        batches = classification_batches((4, 6), 3)
        for x, y in batches:
            step(x, y)
        compiled = _compiled(step)
        assert compiled.state.host_reads == 0
        uploads = compiled.state.uploads
        for x, y in batches:
            step(x, y)
        assert compiled.state.uploads == uploads and compiled.state.host_reads == 0
        w = step.network.backbone_network.fc1.weight
        w.asnumpy()
        w.asnumpy()
        assert compiled.state.host_reads == 1  # copied back once, when read
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_recompiles_only_on_structural_change(caplog: pytest.LogCaptureFixture) -> None:
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        step = _build()
        with caplog.at_level(logging.DEBUG, logger="cellonnx"):
            for x, y in classification_batches((4, 6), 3, sizes=(4, 9, 2)):
                step(x, y)
            assert len(graph_train.compiled_steps(step)) == 1  # one graph for every batch size
            step.network.backbone_network.bn.set_train(False)
            step(*classification_batches((4, 6), 3, steps=1)[0])
            step.network.backbone_network.fc2.bias.requires_grad = False
            step(*classification_batches((4, 6), 3, steps=1)[0])
        assert len(graph_train.compiled_steps(step)) == 3
        text = caplog.text
        assert "first call" in text
        assert "training flags (set_train) changed" in text
        assert "requires_grad of the parameters changed" in text
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_set_dtype_between_steps_recompiles(caplog: pytest.LogCaptureFixture) -> None:
    """``Parameter.set_dtype`` between steps reaches the next step: the step is traced again for the new
    dtype (seen without reading the parameters back to the host), and follows eager."""
    def build() -> Any:
        net = nn.Dense(3, 2)
        opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
        step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
        step.set_train()
        calls = [0]

        def run(x: Any, y: Any) -> Any:
            if calls[0] == 2:
                opt.global_step.set_dtype(ms.int64)
            calls[0] += 1
            return step(x, y)

        run.parameters_and_names = step.parameters_and_names  # type: ignore[attr-defined]
        build.step = step  # type: ignore[attr-defined]
        return run

    rng = np.random.default_rng(0)
    batches = [(ms.Tensor(rng.standard_normal((4, 3)).astype(np.float32)),
                ms.Tensor(rng.standard_normal((4, 2)).astype(np.float32))) for _ in range(4)]
    with caplog.at_level(logging.DEBUG, logger="cellonnx"):
        check_trajectory(build, batches, what="set_dtype")
    assert "parameter dtypes (set_dtype) changed" in caplog.text
    assert len(graph_train.compiled_steps(build.step)) == 2
    assert build.step.optimizer.global_step.dtype == ms.int64
    assert int(build.step.optimizer.global_step.asnumpy().reshape(-1)[0]) == 4
