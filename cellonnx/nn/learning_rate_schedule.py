"""Learning-rate schedule cells: called with the global step, they return the step's learning rate (a float32
scalar Tensor). Optimizers accept them as ``learning_rate``."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from cellonnx.nn.cell import Cell
from cellonnx.tensor import Tensor

__all__ = ["CosineDecayLR", "ExponentialDecayLR", "InverseDecayLR", "LearningRateSchedule", "NaturalExpDecayLR",
           "PolynomialDecayLR", "WarmUpLR"]

_F32 = np.float32


def _eager(cell: Cell, args: tuple, kwargs: dict, traceable: bool = True) -> Any:
    """Call ``cell`` eagerly, also in GRAPH_MODE (its nested cells too): schedules, optimizers and training
    steps compute host-side NumPy values, which an ONNX graph would freeze."""
    from cellonnx.nn import cell as _cell_module
    if _cell_module._TRACING and not traceable:
        raise NotImplementedError(f"{type(cell).__name__} updates parameters with NumPy on the host and can not be "
                                  "traced into an ONNX graph; call it outside compile()/export()")
    if not cell._checked:
        cell._self_check()
    depth = _cell_module._graph_depth
    depth[0] += 1
    try:
        return cell.run_construct(args, kwargs)
    finally:
        depth[0] -= 1


def _step(global_step: Any) -> Tensor:
    """The step as a float32 scalar Tensor (schedules compute in ops, so a compiled training step reads the
    step count as a graph value and a schedule never recompiles)."""
    from cellonnx import ops

    t = global_step if isinstance(global_step, Tensor) else Tensor(np.asarray(global_step))
    if t.size != 1:
        raise ValueError("learning rate schedule: global_step must hold one value, got shape "
                         f"{tuple(t.shape)}")
    return ops.cast(ops.reshape(t, ()), _F32)


def _out(v: Any) -> Tensor:
    from cellonnx import ops

    return ops.cast(v, _F32) if isinstance(v, Tensor) else Tensor._make(np.asarray(v, _F32))


def _positive_int(v: Any, name: str, cls: str = "") -> None:
    """Checks of the schedules here and of the step lists of dynamic_lr (whose messages name no class)."""
    where = f"For '{cls}', " if cls else ""
    if not isinstance(v, int) or isinstance(v, bool):
        raise TypeError(f"{where}'{name}' must be an int, got {type(v).__name__}")
    if v <= 0:
        raise ValueError(f"{where}'{name}' must be > 0, got {v}")


def _float(v: Any, name: str, cls: str = "", positive: bool = True) -> None:
    where = f"For '{cls}', " if cls else ""
    if not isinstance(v, float):
        raise TypeError(f"{where}'{name}' must be a float, got {type(v).__name__}")
    if (v <= 0.0) if positive else (v < 0.0):
        raise ValueError(f"{where}'{name}' must be {'> 0' if positive else '>= 0'}, got {v}")


def _check_inputs(learning_rate: Any, decay_rate: Any, decay_steps: Any, is_stair: Any, cls: str) -> None:
    _positive_int(decay_steps, "decay_steps", cls)
    _float(learning_rate, "learning_rate", cls)
    _float(decay_rate, "decay_rate", cls)
    if not isinstance(is_stair, bool):
        raise TypeError(f"For '{cls}', 'is_stair' must be a bool, got {type(is_stair).__name__}")


class LearningRateSchedule(Cell):
    """Base class of learning-rate schedules: ``construct(global_step)`` returns a scalar Tensor.

    Examples:
        >>> import cellonnx as ms
        >>> from cellonnx import nn, ops, Tensor
        >>> class HalveEvery(nn.LearningRateSchedule):
        ...     def __init__(self, lr, steps):
        ...         super().__init__()
        ...         self.lr, self.steps = lr, steps
        ...     def construct(self, global_step):
        ...         return self.lr * 0.5 ** ops.floor(global_step / self.steps)
        >>> schedule = HalveEvery(0.1, 10)
        >>> print(schedule(Tensor(25.0, ms.float32)))
        0.025
    """

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return _eager(self, args, kwargs)

    def construct(self, global_step: Any) -> Any:
        raise NotImplementedError(f"{type(self).__name__}.construct(global_step) must be written by the subclass")


class _DecayLR(LearningRateSchedule):
    """What the exponential, natural-exponential and inverse decays share: their arguments and the decay
    periods elapsed."""

    def __init__(self, learning_rate: float, decay_rate: float, decay_steps: int,
                 is_stair: bool = False) -> None:
        super().__init__()
        _check_inputs(learning_rate, decay_rate, decay_steps, is_stair, type(self).__name__)
        self.learning_rate, self.decay_rate, self.decay_steps, self.is_stair = (learning_rate, decay_rate,
                                                                                 decay_steps, is_stair)

    def _periods(self, global_step: Any) -> Tensor:
        """step / decay_steps, floored when ``is_stair``."""
        from cellonnx import ops

        p = ops.div(_step(global_step), _F32(self.decay_steps))
        return ops.floor(p) if self.is_stair else p


class ExponentialDecayLR(_DecayLR):
    r"""``learning_rate * decay_rate ** p`` with :math:`p = step / decay\_steps` (floored when ``is_stair``).

    Args:
        learning_rate (float): initial value.
        decay_rate (float): decay rate.
        decay_steps (int): steps per decay period.
        is_stair (bool): decay in steps. Default: ``False``.

    Inputs:
        - **global_step** (Tensor) - the current step.

    Outputs:
        Tensor, scalar float32.

    Examples:
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> schedule = nn.ExponentialDecayLR(learning_rate=0.1, decay_rate=0.9, decay_steps=4)
        >>> print(schedule(Tensor(2, ms.int32)).asnumpy().round(4))
        0.0949
    """

    def construct(self, global_step: Any) -> Tensor:
        from cellonnx import ops

        return _out(ops.mul(_F32(self.learning_rate), ops.pow(Tensor(_F32(self.decay_rate)),
                                                              self._periods(global_step))))


class NaturalExpDecayLR(_DecayLR):
    r"""``learning_rate * e ** (-decay_rate * p)`` with :math:`p = step` (rounded down to a multiple of
    ``decay_steps`` when ``is_stair``).

    Examples:
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> schedule = nn.NaturalExpDecayLR(learning_rate=0.1, decay_rate=0.5, decay_steps=2)
        >>> print(schedule(Tensor(2, ms.int32)).asnumpy().round(4))
        0.0368
    """

    def construct(self, global_step: Any) -> Tensor:
        from cellonnx import ops

        p = _step(global_step)
        if self.is_stair:
            p = ops.mul(ops.floor(ops.div(p, _F32(self.decay_steps))), _F32(self.decay_steps))
        return _out(ops.mul(_F32(self.learning_rate),
                            ops.pow(Tensor(_F32(math.e)), ops.mul(-_F32(self.decay_rate), p))))


class InverseDecayLR(_DecayLR):
    r"""``learning_rate / (1 + decay_rate * p)`` with :math:`p = step / decay\_steps` (floored when
    ``is_stair``).

    Examples:
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> schedule = nn.InverseDecayLR(learning_rate=0.1, decay_rate=0.5, decay_steps=2)
        >>> print(schedule(Tensor(2, ms.int32)).asnumpy().round(4))
        0.0667
    """

    def construct(self, global_step: Any) -> Tensor:
        from cellonnx import ops

        p = self._periods(global_step)
        return _out(ops.div(_F32(self.learning_rate), ops.add(_F32(1.0), ops.mul(_F32(self.decay_rate), p))))


class CosineDecayLR(LearningRateSchedule):
    r"""``min_lr + 0.5 * (max_lr - min_lr) * (1 + cos(pi * min(step, decay_steps) / decay_steps))``.

    Args:
        min_lr (float): the final rate (>= 0).
        max_lr (float): the initial rate (> min_lr).
        decay_steps (int): steps to decay over.

    Examples:
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> schedule = nn.CosineDecayLR(min_lr=0.01, max_lr=0.1, decay_steps=4)
        >>> print(schedule(Tensor(2, ms.int32)).asnumpy().round(4))
        0.055
    """

    def __init__(self, min_lr: float, max_lr: float, decay_steps: int) -> None:
        super().__init__()
        cls = type(self).__name__
        _float(min_lr, "min_lr", cls, positive=False)
        _float(max_lr, "max_lr", cls)
        _positive_int(decay_steps, "decay_steps", cls)
        if min_lr >= max_lr:
            raise ValueError(f"For '{cls}', 'max_lr' must be greater than 'min_lr', got max_lr {max_lr}, "
                             f"min_lr {min_lr}")
        self.min_lr, self.max_lr, self.decay_steps = min_lr, max_lr, decay_steps
        self.delta = 0.5 * (max_lr - min_lr)

    def construct(self, global_step: Any) -> Tensor:
        from cellonnx import ops

        p = ops.minimum(_step(global_step), Tensor(_F32(self.decay_steps)))
        # MindSpore writes cos(x) as sin(x + pi/2); kept for identical float32 rounding
        s = ops.sin(ops.mul(_F32(math.pi), ops.add(ops.div(p, _F32(self.decay_steps)), _F32(0.5))))
        return _out(ops.add(_F32(self.min_lr), ops.mul(_F32(self.delta), ops.add(_F32(1.0), s))))


class PolynomialDecayLR(LearningRateSchedule):
    r"""``(learning_rate - end_learning_rate) * (1 - p) ** power + end_learning_rate`` with
    :math:`p = \min(step, decay\_steps) / decay\_steps`; with ``update_decay_steps`` the period grows to
    :math:`decay\_steps \cdot \max(\lceil step / decay\_steps \rceil, 1)` instead of clamping the step.

    Examples:
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> schedule = nn.PolynomialDecayLR(learning_rate=0.1, end_learning_rate=0.01, decay_steps=4,
        ...                               power=1.0)
        >>> print(schedule(Tensor(2, ms.int32)).asnumpy().round(4))
        0.055
    """

    def __init__(self, learning_rate: float, end_learning_rate: float, decay_steps: int, power: float,
                 update_decay_steps: bool = False) -> None:
        super().__init__()
        cls = type(self).__name__
        _float(learning_rate, "learning_rate", cls)
        _float(end_learning_rate, "end_learning_rate", cls, positive=False)
        _positive_int(decay_steps, "decay_steps", cls)
        if not isinstance(update_decay_steps, bool):
            raise TypeError(f"For '{cls}', 'update_decay_steps' must be a bool, got "
                            f"{type(update_decay_steps).__name__}")
        _float(power, "power", cls)
        self.decay_steps, self.start_learning_rate, self.end_learning_rate = (decay_steps, learning_rate,
                                                                              end_learning_rate)
        self.diff_learning_rate = learning_rate - end_learning_rate
        self.power = power
        self.update_decay_steps = update_decay_steps

    def construct(self, global_step: Any) -> Tensor:
        from cellonnx import ops

        step = _step(global_step)
        decay: Any = Tensor(_F32(self.decay_steps))
        if self.update_decay_steps:
            decay = ops.mul(decay, ops.maximum(ops.ceil(ops.div(step, decay)), Tensor(_F32(1.0))))
        else:
            step = ops.minimum(step, decay)
        p = ops.div(step, decay)
        return _out(ops.add(ops.mul(_F32(self.diff_learning_rate),
                                    ops.pow(ops.sub(_F32(1.0), p), Tensor(_F32(self.power)))),
                            _F32(self.end_learning_rate)))


class WarmUpLR(LearningRateSchedule):
    r"""``learning_rate * min(step, warmup_steps) / warmup_steps``.

    Examples:
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> schedule = nn.WarmUpLR(learning_rate=0.1, warmup_steps=4)
        >>> print(schedule(Tensor(2, ms.int32)).asnumpy().round(4))
        0.05
    """

    def __init__(self, learning_rate: float, warmup_steps: int) -> None:
        super().__init__()
        cls = type(self).__name__
        _float(learning_rate, "learning_rate", cls, positive=False)
        _positive_int(warmup_steps, "warmup_steps", cls)
        self.learning_rate, self.warmup_steps = learning_rate, warmup_steps

    def construct(self, global_step: Any) -> Tensor:
        from cellonnx import ops

        steps = _F32(self.warmup_steps)
        pct = ops.div(ops.minimum(_step(global_step), Tensor(steps)), steps)
        return _out(ops.mul(_F32(self.learning_rate), pct))
