"""Training wrappers compiled in GRAPH_MODE follow their eager trajectory: loss scaling with an overflow
(the skipped update and the shrinking scale), gradient clipping, frozen parameters, WithGradCell,
ForwardValueAndGrad, batch sizes that change between steps (with a row sliced off the batch and broadcast back
over it)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import cellonnx as ms
from cellonnx import nn, ops
from tests.train_graph.harness import check_trajectory, classification_batches


def _mlp() -> nn.Cell:
    return nn.SequentialCell(nn.Dense(6, 8), nn.ReLU(), nn.Dense(8, 3))


def _loss() -> nn.Cell:
    return nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")


def _loss_scale_step(manager: Callable[[], Any], make_opt: Callable[[list], Any] | None = None
                     ) -> Callable[[], Any]:
    def build() -> Any:
        net = _mlp()
        params = net.trainable_params()
        opt = make_opt(params) if make_opt else nn.Momentum(params, 0.1, 0.9)
        step = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, _loss()), opt, scale_sense=manager())
        step.set_train()
        return step
    return build


class ClipStep(nn.Cell):
    """A training step with gradients clipped by their global norm (MindSpore's usual custom step)."""

    def __init__(self, network: nn.Cell, optimizer: nn.Optimizer, clip: float) -> None:
        super().__init__(auto_prefix=False)
        self.network, self.optimizer, self.clip = network, optimizer, clip
        self.weights = optimizer.parameters
        self.grad = ops.GradOperation(get_by_list=True)

    def construct(self, x: Any, y: Any) -> Any:
        loss = self.network(x, y)
        grads = self.grad(self.network, self.weights)(x, y)
        grads = ops.clip_by_global_norm(grads, self.clip)
        self.optimizer(grads)
        return loss


def _clip_step(make_opt: Callable[[list], Any] = lambda ps: nn.SGD(ps, 0.5)) -> Callable[[], Any]:
    def build() -> Any:
        net = _mlp()
        step = ClipStep(nn.WithLossCell(net, _loss()), make_opt(net.trainable_params()), 0.05)
        step.set_train()
        return step
    return build


def _weight_groups(params: list) -> list:
    return [{"params": [p for p in params if "weight" in p.name], "weight_decay": 0.01},
            {"params": [p for p in params if "weight" not in p.name], "lr": nn.WarmUpLR(0.02, 3)}]


def _frozen_step(make_opt: Callable[[list], Any] = lambda ps: nn.Adam(ps, 1e-2)) -> Callable[[], Any]:
    def build() -> Any:
        net = _mlp()
        net[0].weight.requires_grad = False
        step = nn.TrainOneStepCell(nn.WithLossCell(net, _loss()), make_opt(net.trainable_params()))
        step.set_train()
        return step
    return build


def _with_grad() -> Any:
    return nn.WithGradCell(_mlp(), _loss())


def _forward_value_and_grad() -> Any:
    net = nn.WithLossCell(_mlp(), _loss())
    net.set_train()
    return nn.ForwardValueAndGrad(net, weights=net.trainable_params(), get_by_list=True)


def _plain_sgd() -> Any:
    net = _mlp()
    step = nn.TrainOneStepCell(nn.WithLossCell(net, _loss()), nn.SGD(net.trainable_params(), 0.1))
    step.set_train()
    return step


def _overflowing_first() -> list[tuple]:
    """Five batches, the first so large that its scaled gradients overflow float32."""
    batches = classification_batches((4, 6), 3)
    x, y = batches[0]
    return [(x * 1e36, y)] + batches[1:]


def _bn_step() -> Any:
    net = nn.SequentialCell(nn.Dense(6, 8, has_bias=False), nn.BatchNorm1d(8), nn.ReLU(), nn.Dense(8, 3))
    step = nn.TrainOneStepCell(nn.WithLossCell(net, _loss()), nn.Momentum(net.trainable_params(), 0.1, 0.9))
    step.set_train()
    return step


class FirstRowNet(nn.Cell):
    """Each row's logits minus the first row's (``h[0:1]``) and the last row's (``h[-1:]``) broadcast back
    over the batch: their gradients sum over a dynamic batch."""

    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Dense(6, 3)

    def construct(self, x: Any) -> Any:
        h = self.fc(x)
        return h - 0.5 * ops.broadcast_to(h[0:1], h.shape) + 0.25 * h[-1:]


def _first_row_step() -> Any:
    net = FirstRowNet()
    step = nn.TrainOneStepCell(nn.WithLossCell(net, _loss()), nn.Adam(net.trainable_params(), 0.01))
    step.set_train()
    return step


class LeadingRowsNet(nn.Cell):
    """Each row's logits times the mean of the first two rows' (``h[0:2]``): traced at batch 4, a batch of 1
    slices one row (NumPy's clamp), and the gradient goes back to that one row."""

    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Dense(6, 3)

    def construct(self, x: Any) -> Any:
        h = self.fc(x)
        return h * ops.tanh(h[0:2].mean(0, keep_dims=True))


def _leading_rows_step() -> Any:
    net = LeadingRowsNet()
    step = nn.TrainOneStepCell(nn.WithLossCell(net, _loss()), nn.Adam(net.trainable_params(), 0.01))
    step.set_train()
    return step


CASES: dict[str, tuple[Callable[[], Any], Callable[[], list]]] = {
    "loss_scale_overflow": (_loss_scale_step(lambda: nn.DynamicLossScaleUpdateCell(2.0 ** 20, 2, 2)),
                            lambda: _overflowing_first()),
    "loss_scale_growing": (_loss_scale_step(lambda: nn.DynamicLossScaleUpdateCell(2.0 ** 10, 2, 2)),
                           lambda: classification_batches((4, 6), 3)),
    "loss_scale_fixed": (_loss_scale_step(lambda: nn.FixedLossScaleUpdateCell(128.0)),
                         lambda: classification_batches((4, 6), 3)),
    "loss_scale_tensor": (_loss_scale_step(lambda: ms.Tensor([64.0], ms.float32)),
                          lambda: classification_batches((4, 6), 3)),
    # the overflowing step skips Adam's whole update: moments, beta powers and the schedule's step count too
    "loss_scale_overflow_adam_schedule": (
        _loss_scale_step(lambda: nn.DynamicLossScaleUpdateCell(2.0 ** 20, 2, 2),
                         lambda ps: nn.Adam(ps, nn.CosineDecayLR(0.001, 0.01, 4), weight_decay=0.01)),
        lambda: _overflowing_first()),
    "loss_scale_overflow_groups": (
        _loss_scale_step(lambda: nn.DynamicLossScaleUpdateCell(2.0 ** 20, 2, 2),
                         lambda ps: nn.Momentum(_weight_groups(ps), 0.1, 0.9)),
        lambda: _overflowing_first()),
    "clip_by_global_norm": (_clip_step(), lambda: classification_batches((4, 6), 3)),
    "clip_by_global_norm_adam_groups": (_clip_step(lambda ps: nn.AdamWeightDecay(_weight_groups(ps), 0.01)),
                                        lambda: classification_batches((4, 6), 3)),
    "frozen_parameter": (_frozen_step(), lambda: classification_batches((4, 6), 3)),
    "frozen_parameter_momentum_wd": (_frozen_step(lambda ps: nn.Momentum(ps, 0.1, 0.9, weight_decay=0.01)),
                                     lambda: classification_batches((4, 6), 3)),
    "WithGradCell": (_with_grad, lambda: classification_batches((4, 6), 3)),
    "ForwardValueAndGrad": (_forward_value_and_grad, lambda: classification_batches((4, 6), 3)),
    "changing_batch_size": (_plain_sgd, lambda: classification_batches((4, 6), 3, sizes=(4, 7, 1, 5, 2))),
    "changing_batch_size_batch_norm": (_bn_step,
                                       lambda: classification_batches((4, 6), 3, sizes=(4, 7, 3, 5, 2))),
    "changing_batch_size_first_row": (_first_row_step,
                                      lambda: classification_batches((4, 6), 3, sizes=(4, 7, 1, 5, 2))),
    "changing_batch_size_leading_rows": (_leading_rows_step,
                                         lambda: classification_batches((4, 6), 3, sizes=(4, 1, 7, 2, 3))),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_wrapper_trajectory(name: str) -> None:
    build, batches = CASES[name]
    check_trajectory(build, batches(), what=name)


def test_overflow_skips_the_update() -> None:
    """The overflowing first step leaves every parameter as it was and shrinks the scale (compiled)."""
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        step = _loss_scale_step(lambda: nn.DynamicLossScaleUpdateCell(2.0 ** 20, 2, 2))()
        before = {p.name: p.asnumpy().copy() for p in step.weights}
        x, y = _overflowing_first()[0]
        _, overflow, scale = step(x, y)
        assert bool(overflow.asnumpy())
        assert float(scale.asnumpy()) == 2.0 ** 19
        for p in step.weights:
            assert (p.asnumpy() == before[p.name]).all(), p.name
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
