"""mx.lr_scheduler: MXNet's learning-rate schedules (callables ``num_update -> learning rate``, with a linear
or constant warm-up), as MXNet 1.9 computes them. Give one to an optimizer (``lr_scheduler=``)."""
from __future__ import annotations

import logging
import math

__all__ = ["CosineScheduler", "FactorScheduler", "LRScheduler", "MultiFactorScheduler", "PolyScheduler"]

_log = logging.getLogger(__name__)


class LRScheduler:
    """Base class.

    Args:
        base_lr: the learning rate after warm-up. Default: 0.01.
        warmup_steps: updates of warm-up. Default: 0.
        warmup_begin_lr: the learning rate warm-up starts from. Default: 0.
        warmup_mode: 'linear' (equal increments) or 'constant' (warmup_begin_lr throughout).
            Default: 'linear'.
    """

    def __init__(self, base_lr: float = 0.01, warmup_steps: int = 0, warmup_begin_lr: float = 0,
                 warmup_mode: str = "linear") -> None:
        if not isinstance(warmup_steps, int):
            raise TypeError(f"warmup_steps must be an int, got {type(warmup_steps).__name__}")
        if warmup_begin_lr > base_lr:
            raise ValueError("Base lr has to be higher than warmup_begin_lr")
        if warmup_steps < 0:
            raise ValueError("Warmup steps has to be positive or 0")
        if warmup_mode not in ("linear", "constant"):
            raise ValueError("Supports only linear and constant modes of warmup")
        self.base_lr = base_lr
        self.warmup_steps = warmup_steps
        self.warmup_final_lr = base_lr
        self.warmup_begin_lr = warmup_begin_lr
        self.warmup_mode = warmup_mode

    def get_warmup_lr(self, num_update: int) -> float:
        if self.warmup_mode == "linear":
            span = self.warmup_final_lr - self.warmup_begin_lr
            return self.warmup_begin_lr + span * float(num_update) / float(self.warmup_steps)
        return self.warmup_begin_lr

    def __call__(self, num_update: int) -> float:
        raise NotImplementedError(f"{type(self).__name__} must define __call__")


class FactorScheduler(LRScheduler):
    """``base_lr * factor ** floor(num_update / step)``, never below ``stop_factor_lr``."""

    def __init__(self, step: int, factor: float = 1, stop_factor_lr: float = 1e-8, base_lr: float = 0.01,
                 warmup_steps: int = 0, warmup_begin_lr: float = 0, warmup_mode: str = "linear") -> None:
        super().__init__(base_lr, warmup_steps, warmup_begin_lr, warmup_mode)
        if step < 1:
            raise ValueError("Schedule step must be greater or equal than 1 round")
        if factor > 1.0:
            raise ValueError("Factor must be no more than 1 to make lr reduce")
        self.step = step
        self.factor = factor
        self.stop_factor_lr = stop_factor_lr
        self.count = 0

    def __call__(self, num_update: int) -> float:
        if num_update < self.warmup_steps:
            return self.get_warmup_lr(num_update)
        while num_update > self.count + self.step:
            self.count += self.step
            self.base_lr *= self.factor
            if self.base_lr < self.stop_factor_lr:
                self.base_lr = self.stop_factor_lr
        return self.base_lr


class MultiFactorScheduler(LRScheduler):
    """Multiply the learning rate by ``factor`` after each update count listed in ``step``."""

    def __init__(self, step: list[int], factor: float = 1, base_lr: float = 0.01, warmup_steps: int = 0,
                 warmup_begin_lr: float = 0, warmup_mode: str = "linear") -> None:
        super().__init__(base_lr, warmup_steps, warmup_begin_lr, warmup_mode)
        if not isinstance(step, list) or not step:
            raise ValueError("step must be a non-empty list of update counts")
        for i, s in enumerate(step):
            if i and s <= step[i - 1]:
                raise ValueError("Schedule step must be an increasing integer list")
            if s < 1:
                raise ValueError("Schedule step must be greater or equal than 1 round")
        if factor > 1.0:
            raise ValueError("Factor must be no more than 1 to make lr reduce")
        self.step = step
        self.cur_step_ind = 0
        self.factor = factor
        self.count = 0

    def __call__(self, num_update: int) -> float:
        if num_update < self.warmup_steps:
            return self.get_warmup_lr(num_update)
        while self.cur_step_ind < len(self.step):
            if num_update <= self.step[self.cur_step_ind]:
                return self.base_lr
            self.count = self.step[self.cur_step_ind]
            self.cur_step_ind += 1
            self.base_lr *= self.factor
        return self.base_lr


class PolyScheduler(LRScheduler):
    """``final_lr + (base_lr - final_lr) * (1 - n / max_steps) ** pwr`` after warm-up (n counted from its
    end, max_steps = max_update - warmup_steps)."""

    def __init__(self, max_update: int, base_lr: float = 0.01, pwr: float = 2, final_lr: float = 0,
                 warmup_steps: int = 0, warmup_begin_lr: float = 0, warmup_mode: str = "linear") -> None:
        super().__init__(base_lr, warmup_steps, warmup_begin_lr, warmup_mode)
        if max_update < 1:
            raise ValueError("maximum number of updates must be strictly positive")
        self.power = pwr
        self.base_lr_orig = self.base_lr
        self.max_update = max_update
        self.final_lr = final_lr
        self.max_steps = self.max_update - self.warmup_steps

    def __call__(self, num_update: int) -> float:
        if num_update < self.warmup_steps:
            return self.get_warmup_lr(num_update)
        if num_update <= self.max_update:
            frac = float(num_update - self.warmup_steps) / float(self.max_steps)
            self.base_lr = self.final_lr + (self.base_lr_orig - self.final_lr) * pow(1 - frac, self.power)
        return self.base_lr


class CosineScheduler(LRScheduler):
    """``final_lr + (base_lr - final_lr) * (1 + cos(pi * n / max_steps)) / 2`` after warm-up."""

    def __init__(self, max_update: int, base_lr: float = 0.01, final_lr: float = 0, warmup_steps: int = 0,
                 warmup_begin_lr: float = 0, warmup_mode: str = "linear") -> None:
        super().__init__(base_lr, warmup_steps, warmup_begin_lr, warmup_mode)
        if max_update < 1:
            raise ValueError("maximum number of updates must be strictly positive")
        self.base_lr_orig = base_lr
        self.max_update = max_update
        self.final_lr = final_lr
        self.max_steps = self.max_update - self.warmup_steps

    def __call__(self, num_update: int) -> float:
        if num_update < self.warmup_steps:
            return self.get_warmup_lr(num_update)
        if num_update <= self.max_update:
            frac = (num_update - self.warmup_steps) / self.max_steps
            span = self.base_lr_orig - self.final_lr
            self.base_lr = self.final_lr + span * (1 + math.cos(math.pi * frac)) / 2
        return self.base_lr
