"""The zoo's models trained compiled (GRAPH_MODE, one ONNX graph per step) follow the eager trajectory:
losses, parameters, optimizer slots and batch-norm moving statistics after 5 steps, within rtol 1e-4; every
model under Momentum, those without batch norm also under Adam / AdamWeightDecay with a schedule."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from cellonnx.models import lenet, lstm_classifier, mobilenetv2, resnet, transformer

import cellonnx as ms
from cellonnx import nn
from tests.tolerance import assert_close
from tests.train_graph.harness import STEPS, check_trajectory, classification_batches, run


def _ids(n: int, length: int, vocab: int, classes: int, seed: int = 0) -> list[tuple]:
    rng = np.random.default_rng(seed)
    return [(ms.Tensor(rng.integers(0, vocab, (n, length)).astype(np.int32)),
             ms.Tensor(rng.integers(0, classes, (n,)).astype(np.int32))) for _ in range(STEPS)]


MODELS: dict[str, tuple[Callable[[], nn.Cell], Callable[[], list]]] = {
    "LeNet5": (lambda: lenet.lenet5(10), lambda: classification_batches((2, 1, 32, 32), 10)),
    "ResNet18": (lambda: resnet.resnet18(4, width_mult=0.125),
                 lambda: classification_batches((16, 3, 64, 64), 4)),
    "MobileNetV2": (lambda: mobilenetv2.mobilenet_v2(4, width_mult=0.25, last_channel=32),
                    lambda: classification_batches((2, 3, 16, 16), 4)),
    "LSTMClassifier": (lambda: lstm_classifier.lstm_classifier(3, vocab_size=20, embedding_size=8,
                                                               hidden_size=8),
                       lambda: _ids(3, 5, 20, 3)),
    "Transformer": (lambda: transformer.transformer_classifier(3, vocab_size=20, hidden_size=16, num_layers=1,
                                                               num_heads=2, intermediate_size=32,
                                                               max_position=8, dropout=0.0),
                    lambda: _ids(3, 6, 20, 3)),
}


OPTIMIZERS: dict[str, Callable[[list], nn.Optimizer]] = {
    "Momentum": lambda ps: nn.Momentum(ps, 0.01, 0.9),
    "Adam": lambda ps: nn.Adam(ps, 1e-3, weight_decay=1e-4),
    "AdamWeightDecay": lambda ps: nn.AdamWeightDecay(ps, nn.WarmUpLR(1e-3, 3), weight_decay=0.01),
}


def _train_step(make_net: Callable[[], nn.Cell], optimizer: str = "Momentum") -> Callable[[], Any]:
    def build() -> Any:
        net = make_net()
        loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        opt = OPTIMIZERS[optimizer](net.trainable_params())
        step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt)
        step.set_train()
        return step
    return build


# ResNet-18 runs at 16 x 3 x 64 x 64: with few values per channel its layer 4's batch norms are ill-conditioned
# (at 4 x 3 x 32 x 32, 1 x 1 planes: eager and graph both land 1e-4 from the float64 gradient and part by step
# 3; at 4 x 3 x 64 x 64, 16 values per channel, they parted by 2e-3 of the scale with one BLAS thread).
# MobileNetV2's projection batch norms feed the next block's batch norm through a 1 x 1 convolution, which
# removes any per-channel shift: their betas' gradients are zero in exact arithmetic, and their float32 noise
# (0.16 eager, 0.22 graph of the largest such gradient, against float64, after one step at 4 x 3 x 64 x 64)
# moves those betas apart; the rest follows, so that row compares noise and stays non-strict. The strict check
# is test_mobilenetv2_step_against_float64 below: one step, both float32 steps against float64.
_NOISE = [pytest.mark.xfail(strict=False, reason="gradients zero in exact arithmetic: float32 noise"),
          pytest.mark.slow]
MARKS = {"ResNet18": [pytest.mark.slow], "MobileNetV2": _NOISE}


@pytest.mark.parametrize("name", [pytest.param(n, marks=MARKS.get(n, [])) for n in sorted(MODELS)])
def test_model_trajectory(name: str) -> None:
    make_net, batches = MODELS[name]
    state = check_trajectory(_train_step(make_net), batches(), what=name)
    if name in ("ResNet18", "MobileNetV2"):  # the moving statistics moved (they are part of the state)
        means = [v for k, v in state.items() if k.endswith("moving_mean")]
        assert means and any(np.abs(m).max() > 0 for m in means)


def _in_float64(net: nn.Cell) -> nn.Cell:
    """``net`` with every parameter replaced by a float64 copy (the exact-arithmetic reference)."""
    for _, cell in net.cells_and_names():
        for attr, p in list(cell.parameters_and_names(expand=False)):
            copy = ms.Parameter(ms.Tensor(p.asnumpy().astype(np.float64)), name=p.name,
                                requires_grad=p.requires_grad)
            setattr(cell, attr.rsplit(".", 1)[-1], copy)
    return net


def _kind(name: str) -> str:
    return "moment" if name.startswith("optimizer.") else "statistic" if ".moving_" in name else "parameter"


@pytest.mark.slow
def test_mobilenetv2_step_against_float64() -> None:
    """The strict check the trajectory row above cannot make: one MobileNetV2 step (forward, backward, the
    Momentum update, the moving statistics) compiled in float32 lands as close to the float64 eager step as
    eager float32 does, for every value of the state, relative to its own scale (floored at 1e-3 of the
    largest value of its kind: a gradient that is zero in exact arithmetic is float32 noise at that level).
    onnxruntime's CPU Conv has no float64 kernel, so the reference is eager; at 4 x 3 x 64 x 64 (2 x 2 planes
    in the last blocks) both float32 steps are within 7e-5 of it, where at 2 x 3 x 16 x 16 (1 x 1 planes, two
    values per channel) the deepest gradients are ill-conditioned (6e-4). Later steps part: the next step's
    gradients of those betas are noise of their own scale (0.16 eager, 0.4 graph after two steps)."""
    batches = classification_batches((4, 3, 64, 64), 4, steps=1)
    make = MODELS["MobileNetV2"][0]
    exact_outs, exact = run(_train_step(lambda: _in_float64(make())),
                            [(ms.Tensor(x.asnumpy().astype(np.float64)), y) for x, y in batches],
                            ms.PYNATIVE_MODE)
    largest: dict[str, float] = {}
    for name, value in exact.items():
        largest[_kind(name)] = max(largest.get(_kind(name), 0.0), float(np.abs(value).max()))
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        outs, state = run(_train_step(make), batches, mode)
        what = "compiled" if mode == ms.GRAPH_MODE else "eager"
        assert_close(outs[0][0], exact_outs[0][0], rtol=1e-6, scale_rtol=1e-6, what=f"{what} loss")
        assert sorted(state) == sorted(exact)
        for name, want in exact.items():
            assert state[name].dtype == np.float32 or state[name].dtype.kind != "f"
            assert_close(state[name], want, rtol=1e-4, scale_rtol=1e-4, min_scale=1e-3 * largest[_kind(name)],
                         what=f"{what} float32 against float64: {name}")


# the adaptive optimizers on the models without batch norm (those with it run above, under Momentum)
ADAPTIVE = [("LeNet5", "Adam"), ("LSTMClassifier", "Adam"), ("Transformer", "AdamWeightDecay")]


@pytest.mark.parametrize(("name", "optimizer"), ADAPTIVE, ids=[f"{n}-{o}" for n, o in ADAPTIVE])
def test_model_trajectory_adaptive(name: str, optimizer: str) -> None:
    make_net, batches = MODELS[name]
    check_trajectory(_train_step(make_net, optimizer), batches(), what=f"{name} with {optimizer}")
