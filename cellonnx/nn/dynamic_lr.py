"""Learning rates as lists, one value per step (MindSpore's ``nn.dynamic_lr``); pass the list to an optimizer."""
from __future__ import annotations

import math
from typing import Any

from cellonnx.nn.learning_rate_schedule import _float, _positive_int

__all__ = ["cosine_decay_lr", "exponential_decay_lr", "inverse_decay_lr", "natural_exp_decay_lr",
           "piecewise_constant_lr", "polynomial_decay_lr", "warmup_lr"]


def _check_steps(total_step: Any, step_per_epoch: Any, decay_epoch: Any) -> None:
    _positive_int(total_step, "total_step")
    _positive_int(step_per_epoch, "step_per_epoch")
    _positive_int(decay_epoch, "decay_epoch")


def _check_inputs(learning_rate: Any, decay_rate: Any, total_step: Any, step_per_epoch: Any, decay_epoch: Any,
                  is_stair: Any) -> None:
    _check_steps(total_step, step_per_epoch, decay_epoch)
    _float(learning_rate, "learning_rate")
    _float(decay_rate, "decay_rate")
    if not isinstance(is_stair, bool):
        raise TypeError(f"'is_stair' must be a bool, got {type(is_stair).__name__}")


def piecewise_constant_lr(milestone: list[int] | tuple[int, ...],
                          learning_rates: list[float] | tuple[float, ...]) -> list[float]:
    r"""``learning_rates[t]`` for the steps in ``[milestone[t-1], milestone[t])``; the list has milestone[-1]
    entries.

    Examples:
        >>> nn.piecewise_constant_lr([2, 5, 10], [0.1, 0.05, 0.01])
        [0.1, 0.1, 0.05, 0.05, 0.05, 0.01, 0.01, 0.01, 0.01, 0.01]
    """
    if not isinstance(milestone, (tuple, list)):
        raise TypeError(f"'milestone' must be a list or tuple, got {type(milestone).__name__}")
    if not isinstance(learning_rates, (tuple, list)):
        raise TypeError(f"'learning_rates' must be a list or tuple, got {type(learning_rates).__name__}")
    if len(milestone) != len(learning_rates):
        raise ValueError(f"piecewise_constant_lr: 'milestone' has {len(milestone)} entries and 'learning_rates' "
                         f"{len(learning_rates)}; they must match")
    lr: list[float] = []
    last = 0
    for i, item in enumerate(milestone):
        _positive_int(item, f"milestone[{i}]")
        if not isinstance(learning_rates[i], float):
            raise TypeError(f"'learning_rates[{i}]' must be a float, got {type(learning_rates[i]).__name__}")
        if item < last:
            raise ValueError(f"piecewise_constant_lr: milestone[{i}] = {item} is smaller than milestone[{i - 1}] = "
                             f"{last}; milestones must increase")
        lr += [learning_rates[i]] * (item - last)
        last = item
    return lr


def exponential_decay_lr(learning_rate: float, decay_rate: float, total_step: int, step_per_epoch: int,
                         decay_epoch: int, is_stair: bool = False) -> list[float]:
    r"""``learning_rate * decay_rate ** (current_epoch / decay_epoch)``, current_epoch = floor(i /
    step_per_epoch); the exponent is floored when ``is_stair``.

    Examples:
        >>> from cellonnx import nn
        >>> lr = nn.exponential_decay_lr(0.1, 0.9, total_step=6, step_per_epoch=2, decay_epoch=1)
        >>> [round(v, 4) for v in lr]
        [0.1, 0.1, 0.09, 0.09, 0.081, 0.081]
    """
    _check_inputs(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair)
    out = []
    for i in range(total_step):
        epoch = math.floor(i / step_per_epoch)
        p = math.floor(epoch / decay_epoch) if is_stair else epoch / decay_epoch
        out.append(learning_rate * decay_rate ** p)
    return out


def natural_exp_decay_lr(learning_rate: float, decay_rate: float, total_step: int, step_per_epoch: int,
                         decay_epoch: int, is_stair: bool = False) -> list[float]:
    r"""``learning_rate * e ** (-decay_rate * current_epoch)`` (current_epoch rounded down to a multiple of
    decay_epoch when ``is_stair``).

    Examples:
        >>> from cellonnx import nn
        >>> lr = nn.natural_exp_decay_lr(0.1, 0.5, total_step=6, step_per_epoch=2, decay_epoch=2)
        >>> [round(v, 4) for v in lr]
        [0.1, 0.1, 0.0607, 0.0607, 0.0368, 0.0368]
    """
    _check_inputs(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair)
    out = []
    for i in range(total_step):
        epoch = math.floor(i / step_per_epoch)
        if is_stair:
            epoch = math.floor(epoch / decay_epoch) * decay_epoch
        out.append(learning_rate * math.e ** (-decay_rate * epoch))
    return out


def inverse_decay_lr(learning_rate: float, decay_rate: float, total_step: int, step_per_epoch: int,
                     decay_epoch: int, is_stair: bool = False) -> list[float]:
    r"""``learning_rate / (1 + decay_rate * current_epoch / decay_epoch)`` (the ratio floored when
    ``is_stair``).

    Examples:
        >>> from cellonnx import nn
        >>> lr = nn.inverse_decay_lr(0.1, 0.5, total_step=6, step_per_epoch=2, decay_epoch=1)
        >>> [round(v, 4) for v in lr]
        [0.1, 0.1, 0.0667, 0.0667, 0.05, 0.05]
    """
    _check_inputs(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair)
    out = []
    for i in range(total_step):
        epoch = math.floor(i / step_per_epoch)
        if is_stair:
            out.append(learning_rate / (1 + decay_rate * math.floor(epoch / decay_epoch)))
        else:
            out.append(learning_rate / (1 + decay_rate * epoch / decay_epoch))
    return out


def cosine_decay_lr(min_lr: float, max_lr: float, total_step: int, step_per_epoch: int,
                    decay_epoch: int) -> list[float]:
    r"""``min_lr + 0.5 * (max_lr - min_lr) * (1 + cos(pi * min(current_epoch, decay_epoch) / decay_epoch))``.

    Examples:
        >>> from cellonnx import nn
        >>> lr = nn.cosine_decay_lr(min_lr=0.01, max_lr=0.1, total_step=6, step_per_epoch=2, decay_epoch=2)
        >>> [round(v, 4) for v in lr]
        [0.1, 0.1, 0.055, 0.055, 0.01, 0.01]
    """
    _float(min_lr, "min_lr", positive=False)
    _float(max_lr, "max_lr")
    _check_steps(total_step, step_per_epoch, decay_epoch)
    if min_lr >= max_lr:
        raise ValueError(f"cosine_decay_lr: 'max_lr' must be greater than 'min_lr', got max_lr {max_lr}, "
                         f"min_lr {min_lr}")
    delta = 0.5 * (max_lr - min_lr)
    out = []
    for i in range(total_step):
        epoch = min(math.floor(i / step_per_epoch), decay_epoch)
        out.append(min_lr + delta * (1 + math.cos(math.pi * epoch / decay_epoch)))
    return out


def polynomial_decay_lr(learning_rate: float, end_learning_rate: float, total_step: int, step_per_epoch: int,
                        decay_epoch: int, power: float, update_decay_epoch: bool = False) -> list[float]:
    r"""``(learning_rate - end_learning_rate) * (1 - tmp_epoch / tmp_decay_epoch) ** power + end_learning_rate``
    with tmp_epoch = min(current_epoch, decay_epoch), tmp_decay_epoch = decay_epoch; with
    ``update_decay_epoch``, tmp_decay_epoch = decay_epoch * max(ceil(current_epoch / decay_epoch), 1) and
    tmp_epoch = current_epoch.

    Examples:
        >>> from cellonnx import nn
        >>> lr = nn.polynomial_decay_lr(0.1, 0.01, total_step=6, step_per_epoch=2, decay_epoch=2, power=0.5)
        >>> [round(v, 4) for v in lr]
        [0.1, 0.1, 0.0736, 0.0736, 0.01, 0.01]
    """
    _float(learning_rate, "learning_rate")
    _float(end_learning_rate, "end_learning_rate", positive=False)
    _float(power, "power")
    _check_steps(total_step, step_per_epoch, decay_epoch)
    if not isinstance(update_decay_epoch, bool):
        raise TypeError(f"'update_decay_epoch' must be a bool, got {type(update_decay_epoch).__name__}")
    delta = learning_rate - end_learning_rate
    out = []
    for i in range(total_step):
        epoch = math.floor(i / step_per_epoch)
        if update_decay_epoch:
            period, tmp = decay_epoch * max(math.ceil(epoch / decay_epoch), 1), epoch
        else:
            period, tmp = decay_epoch, min(epoch, decay_epoch)
        out.append(delta * (1 - tmp / period) ** power + end_learning_rate)
    return out


def warmup_lr(learning_rate: float, total_step: int, step_per_epoch: int, warmup_epoch: int) -> list[float]:
    r"""``learning_rate * min(current_epoch, warmup_epoch) / warmup_epoch``.

    Examples:
        >>> from cellonnx import nn
        >>> [round(v, 4) for v in nn.warmup_lr(0.1, total_step=6, step_per_epoch=2, warmup_epoch=2)]
        [0.0, 0.0, 0.05, 0.05, 0.1, 0.1]
    """
    _float(learning_rate, "learning_rate", positive=False)
    _positive_int(warmup_epoch, "warmup_epoch")
    _positive_int(total_step, "total_step")
    _positive_int(step_per_epoch, "step_per_epoch")
    return [learning_rate * min(math.floor(i / step_per_epoch), warmup_epoch) / warmup_epoch
            for i in range(total_step)]
