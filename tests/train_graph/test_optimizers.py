"""Every optimizer, compiled into the training step, follows the eager trajectory (5 steps of a small MLP):
losses, parameters and optimizer states (moments, accumulators, step counters) within rtol 1e-4."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from cellonnx import nn
from tests.train_graph.harness import check_trajectory, classification_batches


def _mlp() -> nn.Cell:
    return nn.SequentialCell(nn.Dense(6, 8), nn.ReLU(), nn.Dense(8, 3))


def _groups(params: list) -> list:
    weights = [p for p in params if "weight" in p.name]
    others = [p for p in params if "weight" not in p.name]
    return [{"params": weights, "weight_decay": 0.01, "lr": 0.05}, {"params": others}]


OPTIMIZERS: dict[str, Callable[[list], Any]] = {
    "SGD": lambda ps: nn.SGD(ps, 0.1),
    "SGD_momentum_nesterov": lambda ps: nn.SGD(ps, 0.1, momentum=0.9, nesterov=True, weight_decay=0.01),
    "SGD_dampening": lambda ps: nn.SGD(ps, 0.1, momentum=0.8, dampening=0.1),
    "Momentum": lambda ps: nn.Momentum(ps, 0.1, 0.9),
    "Momentum_nesterov_wd": lambda ps: nn.Momentum(ps, 0.1, 0.9, weight_decay=0.01, use_nesterov=True),
    "Momentum_groups": lambda ps: nn.Momentum(_groups(ps), 0.1, 0.9),
    "Momentum_loss_scale": lambda ps: nn.Momentum(ps, 0.1, 0.9, loss_scale=4.0),
    "Momentum_schedule": lambda ps: nn.Momentum(ps, nn.ExponentialDecayLR(0.1, 0.9, 2), 0.9),
    "Momentum_cosine": lambda ps: nn.Momentum(ps, nn.CosineDecayLR(0.01, 0.1, 4), 0.9),
    "Momentum_lr_list": lambda ps: nn.Momentum(ps, [0.1, 0.09, 0.08, 0.07, 0.06], 0.9),
    "Adam": lambda ps: nn.Adam(ps, 1e-2),
    "Adam_nesterov_wd": lambda ps: nn.Adam(ps, 1e-2, use_nesterov=True, weight_decay=0.01),
    "Adam_amsgrad": lambda ps: nn.Adam(ps, 1e-2, use_amsgrad=True),
    "Adam_warmup": lambda ps: nn.Adam(ps, nn.WarmUpLR(0.01, 3)),
    "AdamWeightDecay": lambda ps: nn.AdamWeightDecay(ps, 1e-2, weight_decay=0.01),
    "AdamWeightDecay_poly": lambda ps: nn.AdamWeightDecay(ps, nn.PolynomialDecayLR(0.01, 0.001, 4, 1.0)),
    "Lamb": lambda ps: nn.Lamb(ps, 1e-2, weight_decay=0.01),
    "LARS": lambda ps: nn.LARS(nn.Momentum(ps, 0.1, 0.9), epsilon=1e-5, coefficient=0.001),
    "Adagrad": lambda ps: nn.Adagrad(ps, learning_rate=0.1),
    "ProximalAdagrad": lambda ps: nn.ProximalAdagrad(ps, learning_rate=0.1, l1=0.01, l2=0.01),
    "Adadelta": lambda ps: nn.Adadelta(ps, 1.0),
    "AdaFactor": lambda ps: nn.AdaFactor(ps, learning_rate=0.01, relative_step=False, scale_parameter=False,
                                       warmup_init=False),
    "AdaMax": lambda ps: nn.AdaMax(ps, 1e-2),
    "ASGD": lambda ps: nn.ASGD(ps, 0.05),
    "FTRL": lambda ps: nn.FTRL(ps, learning_rate=0.05),
    "RMSProp": lambda ps: nn.RMSProp(ps, 0.01),
    "RMSProp_centered": lambda ps: nn.RMSProp(ps, 0.01, momentum=0.5, centered=True),
    "Rprop": lambda ps: nn.Rprop(ps, 0.01),
    "LazyAdam": lambda ps: nn.LazyAdam(ps, 1e-2),
    "AdamOffload": lambda ps: nn.AdamOffload(ps, 1e-2),
}


def _builder(make_opt: Callable[[list], Any]) -> Callable[[], Any]:
    def build() -> Any:
        net = _mlp()
        loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), make_opt(net.trainable_params()))
        step.set_train()
        return step
    return build


@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_optimizer_trajectory(name: str) -> None:
    check_trajectory(_builder(OPTIMIZERS[name]), classification_batches((4, 6), 3), what=name)
