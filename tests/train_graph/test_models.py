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
from tests.train_graph.harness import STEPS, check_trajectory, classification_batches


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
# moves those betas apart; the rest follows, so that row compares noise and stays non-strict.
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


# the adaptive optimizers on the models without batch norm (those with it run above, under Momentum)
ADAPTIVE = [("LeNet5", "Adam"), ("LSTMClassifier", "Adam"), ("Transformer", "AdamWeightDecay")]


@pytest.mark.parametrize(("name", "optimizer"), ADAPTIVE, ids=[f"{n}-{o}" for n, o in ADAPTIVE])
def test_model_trajectory_adaptive(name: str, optimizer: str) -> None:
    make_net, batches = MODELS[name]
    check_trajectory(_train_step(make_net, optimizer), batches(), what=f"{name} with {optimizer}")
