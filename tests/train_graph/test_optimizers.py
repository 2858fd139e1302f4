"""Every optimizer, compiled into the training step, follows the eager trajectory (5 steps): losses,
parameters and optimizer states (moments, accumulators, step counters) within rtol 1e-4.

Each row runs on two networks: ``mlp`` (every gradient nonzero) and ``zero_grads``, whose parameters get
gradients that are exactly zero: one the loss never reads, one multiplied by a gate that is 0 in three of the
five steps, and an embedding table of which each step looks up a few rows (the others get zero rows).

What the rows cover (issue 15's list; the wrappers' rows are in test_wrappers.py, the models' in
test_models.py, Gluon's Trainer in test_gluon_optimizers.py):

=========================  ===================================================================================
every nn optimizer         SGD, Momentum, Adam, AdamWeightDecay(+DynamicLR), Lamb, LARS, Adagrad,
                           ProximalAdagrad, Adadelta, AdaFactor, AdaMax, ASGD, FTRL, RMSProp, Rprop,
                           LazyAdam, AdamOffload; nn.thor in test_thor.py (THOR steps and steps reusing
                           the kept inverses, ModelThor's sink mode, factors not positive definite)
variants                   Nesterov, dampening, AMSGrad, centered RMSProp, LARS over Momentum and Adam
weight decay               a float (SGD, Momentum, Adam, AdamWeightDecay, Lamb, ProximalAdagrad l2, ...),
                           a Cell of the step (Momentum_wd_cell), per group (*_groups*)
groups                     per-group lr / weight decay (Momentum_groups), per-group schedules and
                           grad_centralization (Adam_groups_schedules, SGD_groups_gc)
schedules                  ExponentialDecayLR, CosineDecayLR, WarmUpLR, PolynomialDecayLR, a list per step,
                           InverseDecayLR on Lamb, NaturalExpDecayLR on RMSProp
loss scale                 the optimizer's loss_scale (Momentum_loss_scale, Adam_loss_scale)
zero gradients             every row, on ``zero_grads``
=========================  ===================================================================================
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import nn, ops
from tests.train_graph.harness import STEPS, check_trajectory, classification_batches


def _mlp() -> nn.Cell:
    return nn.SequentialCell(nn.Dense(6, 8), nn.ReLU(), nn.Dense(8, 3))


class ZeroGrads(nn.Cell):
    """Logits whose parameters get exactly zero gradients: ``unused`` is never read, ``gated`` only when
    ``gate`` is 1, and ``table``'s rows only where ``ids`` looks them up."""

    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Dense(6, 3)
        self.unused = ms.Parameter(ms.Tensor(np.linspace(-1, 1, 3).astype(np.float32)), name="unused")
        self.gated = ms.Parameter(ms.Tensor(np.linspace(0.5, -0.5, 3).astype(np.float32)), name="gated")
        self.table = nn.Embedding(10, 3)

    def construct(self, x: Any, gate: Any, ids: Any) -> Any:
        return self.fc(x) + self.gated * gate + self.table(ids)


class _ZeroGradsLoss(nn.Cell):
    def __init__(self, net: nn.Cell) -> None:
        super().__init__()
        self.net = net
        self.loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")

    def construct(self, x: Any, gate: Any, ids: Any, y: Any) -> Any:
        return self.loss(self.net(x, gate, ids), y)


def _zero_grads_batches() -> list[tuple]:
    rng = np.random.default_rng(1)
    out = []
    for i, (x, y) in enumerate(classification_batches((4, 6), 3)):
        gate = ms.Tensor(np.float32(1.0 if i in (0, 3) else 0.0))
        ids = ms.Tensor(rng.integers(0, 4, (4,)).astype(np.int32))  # rows 4-9 are never looked up
        out.append((x, gate, ids, y))
    return out


class _StepDecay(nn.Cell):
    """A weight decay that is a Cell of the global step."""

    def construct(self, global_step: Any) -> Any:
        return ops.cast(0.01 / (1.0 + ops.cast(global_step, ms.float32)), ms.float32)


def _groups(params: list) -> list:
    weights = [p for p in params if "weight" in p.name]
    others = [p for p in params if "weight" not in p.name]
    return [{"params": weights, "weight_decay": 0.01, "lr": 0.05}, {"params": others}]


def _groups_schedules(params: list) -> list:
    weights = [p for p in params if "weight" in p.name]
    others = [p for p in params if "weight" not in p.name]
    return [{"params": weights, "weight_decay": 0.01, "lr": nn.CosineDecayLR(0.001, 0.01, 4),
             "grad_centralization": True},
            {"params": others, "lr": nn.WarmUpLR(0.02, 3)}]


def _groups_gc(params: list) -> list:
    weights = [p for p in params if "weight" in p.name]
    others = [p for p in params if "weight" not in p.name]
    return [{"params": weights, "grad_centralization": True, "weight_decay": 0.001}, {"params": others}]


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
    "Momentum_wd_cell": lambda ps: nn.Momentum(ps, 0.1, 0.9, weight_decay=_StepDecay()),
    "SGD_groups_gc": lambda ps: nn.SGD(_groups_gc(ps), 0.1, momentum=0.5),
    "Adam": lambda ps: nn.Adam(ps, 1e-2),
    "Adam_nesterov_wd": lambda ps: nn.Adam(ps, 1e-2, use_nesterov=True, weight_decay=0.01),
    "Adam_amsgrad": lambda ps: nn.Adam(ps, 1e-2, use_amsgrad=True),
    "Adam_warmup": lambda ps: nn.Adam(ps, nn.WarmUpLR(0.01, 3)),
    "Adam_loss_scale": lambda ps: nn.Adam(ps, 1e-2, loss_scale=8.0, weight_decay=0.01),
    "Adam_groups_schedules": lambda ps: nn.Adam(_groups_schedules(ps), 1e-2),
    "AdamWeightDecayDynamicLR": lambda ps: nn.AdamWeightDecayDynamicLR(ps, decay_steps=4, learning_rate=0.01,
                                                                       end_learning_rate=0.001,
                                                                       weight_decay=0.01),
    "AdamWeightDecay": lambda ps: nn.AdamWeightDecay(ps, 1e-2, weight_decay=0.01),
    "AdamWeightDecay_poly": lambda ps: nn.AdamWeightDecay(ps, nn.PolynomialDecayLR(0.01, 0.001, 4, 1.0)),
    "Lamb": lambda ps: nn.Lamb(ps, 1e-2, weight_decay=0.01),
    "Lamb_inverse_decay": lambda ps: nn.Lamb(ps, nn.InverseDecayLR(0.01, 0.5, 2)),
    "LARS": lambda ps: nn.LARS(nn.Momentum(ps, 0.1, 0.9), epsilon=1e-5, coefficient=0.001),
    "LARS_Adam": lambda ps: nn.LARS(nn.Adam(ps, 1e-2), epsilon=1e-5, coefficient=0.001),
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
    "RMSProp_natural_exp": lambda ps: nn.RMSProp(ps, nn.NaturalExpDecayLR(0.01, 0.5, 2), weight_decay=0.01),
    "Rprop": lambda ps: nn.Rprop(ps, 0.01),
    "LazyAdam": lambda ps: nn.LazyAdam(ps, 1e-2),
    "AdamOffload": lambda ps: nn.AdamOffload(ps, 1e-2),
}


def _mlp_with_loss() -> tuple[nn.Cell, nn.Cell]:
    net = _mlp()
    return net, nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"))


def _zero_grads_with_loss() -> tuple[nn.Cell, nn.Cell]:
    net = ZeroGrads()
    return net, _ZeroGradsLoss(net)


# name -> (network and its loss cell, the five batches)
NETS: dict[str, tuple[Callable[[], tuple[nn.Cell, nn.Cell]], Callable[[], list]]] = {
    "mlp": (_mlp_with_loss, lambda: classification_batches((4, 6), 3)),
    "zero_grads": (_zero_grads_with_loss, _zero_grads_batches),
}


def _builder(make_net: Callable[[], tuple[nn.Cell, nn.Cell]], make_opt: Callable[[list], Any]
             ) -> Callable[[], Any]:
    def build() -> Any:
        net, with_loss = make_net()
        step = nn.TrainOneStepCell(with_loss, make_opt(net.trainable_params()))
        step.set_train()
        return step
    return build


@pytest.mark.parametrize("net", sorted(NETS))
@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_optimizer_trajectory(name: str, net: str) -> None:
    make_net, batches = NETS[net]
    data = batches()
    assert len(data) == STEPS
    check_trajectory(_builder(make_net, OPTIMIZERS[name]), data, what=f"{name} on {net}")
