"""The compiled training step on onnxruntime's CUDA execution provider: the same trajectory as eager NumPy,
with the state (parameters, optimizer slots, moving statistics) on the GPU from one step to the next and no
parameter copied to the host between steps. Run with ``pytest -m gpu tests/train_graph``; skipped where
onnxruntime-gpu with a visible CUDA device is missing."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import onnxruntime as ort
import pytest
from cellonnx.models import lenet

import cellonnx as ms
from cellonnx import nn
from cellonnx.graph import train as graph_train
from tests.train_graph.harness import (
    check_trajectory,
    classification_batches,
    compiled_after,
    with_user_writes,
)
from tests.train_graph.test_thor import CASES as THOR_CASES

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif("CUDAExecutionProvider" not in ort.get_available_providers(),
                       reason="needs onnxruntime-gpu (CUDAExecutionProvider)"),
]


@pytest.fixture(autouse=True)
def _on_gpu() -> Any:
    ms.set_context(device_target="GPU")
    try:
        yield
    finally:
        ms.set_context(device_target="CPU")


def _mlp_bn() -> nn.Cell:
    return nn.SequentialCell(nn.Dense(6, 8, has_bias=False), nn.BatchNorm1d(8), nn.ReLU(), nn.Dense(8, 3))


def _step(make_net: Callable[[], nn.Cell], make_opt: Callable[[list], Any]) -> Callable[[], Any]:
    def build() -> Any:
        net = make_net()
        loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), make_opt(net.trainable_params()))
        step.set_train()
        return step
    return build


def _mlp_dropout() -> nn.Cell:
    return nn.SequentialCell(nn.Dense(6, 32), nn.ReLU(), nn.Dropout(p=0.3), nn.Dense(32, 3))


CASES = {
    # the masks come from the generator's CUDA hash (squares32) on both sides
    "mlp_dropout_momentum": (_step(_mlp_dropout, lambda ps: nn.Momentum(ps, 0.1, 0.9)), (8, 6), 3),
    "mlp_bn_momentum": (_step(_mlp_bn, lambda ps: nn.Momentum(ps, 0.1, 0.9)), (4, 6), 3),
    "mlp_bn_adam_schedule": (_step(_mlp_bn, lambda ps: nn.Adam(ps, nn.WarmUpLR(0.01, 3))), (4, 6), 3),
    "lenet_sgd": (_step(lambda: lenet.lenet5(10), lambda ps: nn.SGD(ps, 0.05, momentum=0.9)),
                  (2, 1, 32, 32), 10),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_gpu_trajectory(name: str) -> None:
    build, shape, classes = CASES[name]
    # CUDA kernels sum in another order than NumPy: the same bound as on the CPU provider
    check_trajectory(build, classification_batches(shape, classes), what=name)


@pytest.mark.parametrize("name", ["lenet_frequency_3", "embedding_layernorm", "blocks_of_128"])
def test_thor_on_the_gpu_matches_eager(name: str) -> None:
    # the damped factors' Cholesky and inverse Loops in float64 on CUDA, kept inverses between THOR steps
    build, batches = THOR_CASES[name]
    check_trajectory(build, batches(), what=name)


def test_state_stays_on_the_gpu() -> None:
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        step = _step(_mlp_bn, lambda ps: nn.Adam(ps, 1e-2))()
        batches = classification_batches((4, 6), 3)
        for x, y in batches:
            step(x, y)
        (compiled,) = graph_train.compiled_steps(step)
        assert compiled.device == "cuda"
        uploads = compiled.state.uploads
        for x, y in batches:
            loss = step(x, y)
            assert np.isfinite(loss.asnumpy())
        assert compiled.state.host_reads == 0, "a parameter was copied to the host between steps"
        assert compiled.state.uploads == uploads, "a parameter was uploaded again between steps"
        for value in compiled.state._values.values():
            assert value.device_name().lower() == "cuda"
        w = step.network.backbone_network[0].weight
        assert np.isfinite(w.asnumpy()).all()
        assert compiled.state.host_reads == 1
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


@pytest.mark.parametrize("name", ["lenet_sgd", "mlp_bn_adam_schedule"])
def test_steps_replay_as_cuda_graphs(name: str) -> None:
    build, shape, classes = CASES[name]
    batches = classification_batches(shape, classes, steps=6)
    check_trajectory(with_user_writes(build), batches, what=f"{name} as CUDA graphs, a set_data at step 2")
    compiled = compiled_after(build, batches[:3])
    assert compiled.cuda_graph, compiled.session.cuda_graph_refused


def test_without_cuda_graphs_the_same_trajectory() -> None:
    build, shape, classes = CASES["mlp_bn_momentum"]
    ms.set_context(cuda_graph=False)
    try:
        check_trajectory(with_user_writes(build), classification_batches(shape, classes),
                         what="without CUDA graphs")
        assert not compiled_after(build, classification_batches(shape, classes, steps=1)).cuda_graph
    finally:
        ms.set_context(cuda_graph=True)
