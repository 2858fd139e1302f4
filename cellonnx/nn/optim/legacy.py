"""The optimizers' spellings of MindSpore's older releases (the 0.x ``mindspore.nn`` catalogue), kept so that
code written for them runs: AdamWeightDecayDynamicLR, and the decaying rate that Lamb built from
``decay_steps`` / ``warmup_steps`` / ``start_learning_rate`` / ``end_learning_rate`` / ``power``."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.nn.learning_rate_schedule import LearningRateSchedule, PolynomialDecayLR, WarmUpLR
from cellonnx.nn.optim.adam import AdamWeightDecay
from cellonnx.tensor import Tensor

__all__ = ["AdamWeightDecayDynamicLR"]


class _WarmUpThenPolynomialDecayLR(LearningRateSchedule):
    """A linear warm-up to ``learning_rate`` over ``warmup_steps`` steps, then the polynomial decay (the rate
    of MindSpore 0.x's Lamb)."""

    def __init__(self, learning_rate: float, end_learning_rate: float, decay_steps: int, power: float,
                 warmup_steps: int) -> None:
        super().__init__()
        self.warmup = WarmUpLR(learning_rate, warmup_steps)
        self.decay = PolynomialDecayLR(learning_rate, end_learning_rate, decay_steps, power)
        self.warmup_steps = warmup_steps

    def construct(self, global_step: Any) -> Tensor:
        step = np.asarray(global_step.asnumpy() if isinstance(global_step, Tensor) else global_step)
        return self.warmup(global_step) if step < self.warmup_steps else self.decay(global_step)


def decaying_rate(decay_steps: int, warmup_steps: int = 0, start_learning_rate: float = 0.1,
                  end_learning_rate: float = 0.0001, power: float = 1.0) -> LearningRateSchedule:
    """The rate MindSpore 0.x's Lamb built from its schedule arguments: polynomial decay from
    ``start_learning_rate`` to ``end_learning_rate`` over ``decay_steps``, after a linear warm-up of
    ``warmup_steps`` when that is positive."""
    if warmup_steps:
        return _WarmUpThenPolynomialDecayLR(start_learning_rate, end_learning_rate, decay_steps, power,
                                            warmup_steps)
    return PolynomialDecayLR(start_learning_rate, end_learning_rate, decay_steps, power)


class AdamWeightDecayDynamicLR(AdamWeightDecay):
    """MindSpore 0.x's AdamWeightDecay with a polynomially decaying rate: :class:`AdamWeightDecay` with
    ``learning_rate=PolynomialDecayLR(learning_rate, end_learning_rate, decay_steps, power)``, which is how
    MindSpore 1.x and later write it.

    Args:
        params (Union[list[Parameter], list[dict]]): parameters or parameter groups.
        decay_steps (int): the steps over which the rate decays.
        learning_rate (float): the rate at step 0. Default: ``0.001``.
        end_learning_rate (float): the rate from ``decay_steps`` on. Default: ``0.0001``.
        power (float): the decay's power. Default: ``10.0``.
        beta1 (float): Default: ``0.9``.
        beta2 (float): Default: ``0.999``.
        eps (float): Default: ``1e-6``.
        weight_decay (float): Default: ``0.0``.

    Examples:
        >>> net = nn.Dense(3, 2)
        >>> optim = nn.AdamWeightDecayDynamicLR(params=net.trainable_params(), decay_steps=10)
        >>> loss_fn = nn.MSELoss()
        >>> grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, optim.parameters)
        >>> loss, grads = grad_fn(Tensor(np.ones((4, 3), np.float32)), Tensor(np.zeros((4, 2), np.float32)))
        >>> _ = optim(grads)  # one update of net.weight and net.bias
    """

    def __init__(self, params: Any, decay_steps: int, learning_rate: float = 0.001,
                 end_learning_rate: float = 0.0001, power: float = 10.0, beta1: float = 0.9,
                 beta2: float = 0.999, eps: float = 1e-6, weight_decay: float = 0.0) -> None:
        rate = PolynomialDecayLR(learning_rate, end_learning_rate, decay_steps, power)
        super().__init__(params, rate, beta1, beta2, eps, weight_decay)
