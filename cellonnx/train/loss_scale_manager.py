"""Loss-scale managers for ``Model(loss_scale_manager=...)`` and ``amp.build_train_network``."""
from __future__ import annotations

from typing import Any

__all__ = ["DynamicLossScaleManager", "FixedLossScaleManager", "LossScaleManager"]


class LossScaleManager:
    """Base class: a loss scale, its update rule, and the update cell a training step uses.

    Examples:
        >>> from cellonnx.train import LossScaleManager, FixedLossScaleManager
        >>> manager = FixedLossScaleManager(128.0, drop_overflow_update=False)
        >>> print(isinstance(manager, LossScaleManager), manager.get_loss_scale())
        True 128.0
    """

    def get_loss_scale(self) -> float:
        raise NotImplementedError

    def update_loss_scale(self, overflow: bool) -> None:
        raise NotImplementedError

    def get_update_cell(self) -> Any:
        raise NotImplementedError


class FixedLossScaleManager(LossScaleManager):
    """A constant loss scale.

    Args:
        loss_scale (float): the scale (> 1 to matter). Default: ``128.0``.
        drop_overflow_update (bool): skip the update of a step whose gradients overflow (then the training step is
            a TrainOneStepWithLossScaleCell); when False the optimizer must be built with the same ``loss_scale``.
            Default: ``True``.

    Examples:
        >>> from cellonnx.train import FixedLossScaleManager
        >>> manager = FixedLossScaleManager(loss_scale=128.0, drop_overflow_update=False)
        >>> manager.get_loss_scale()
        128.0
        >>> manager.get_drop_overflow_update()
        False
    """

    def __init__(self, loss_scale: float = 128.0, drop_overflow_update: bool = True) -> None:
        if isinstance(loss_scale, bool) or not isinstance(loss_scale, (int, float)) or loss_scale < 1:
            raise ValueError(f"FixedLossScaleManager: loss_scale must be a number >= 1, got {loss_scale!r}")
        if not isinstance(drop_overflow_update, bool):
            raise TypeError("FixedLossScaleManager: drop_overflow_update must be a bool, got "
                            f"{type(drop_overflow_update).__name__}")
        self._loss_scale = float(loss_scale)
        self._drop_overflow_update = drop_overflow_update

    def get_loss_scale(self) -> float:
        return self._loss_scale

    def get_drop_overflow_update(self) -> bool:
        return self._drop_overflow_update

    def update_loss_scale(self, overflow: bool) -> None:
        """The scale is fixed: nothing to do."""

    def get_update_cell(self) -> Any:
        if not self._drop_overflow_update:
            return None
        from cellonnx.nn.wrap import FixedLossScaleUpdateCell
        return FixedLossScaleUpdateCell(self._loss_scale)


class DynamicLossScaleManager(LossScaleManager):
    """A loss scale that halves (``scale_factor``) on overflow and grows after ``scale_window`` clean steps.

    Args:
        init_loss_scale (float): Default: ``2 ** 24``.
        scale_factor (int): Default: ``2``.
        scale_window (int): Default: ``2000``.

    Examples:
        >>> from cellonnx.train import DynamicLossScaleManager
        >>> manager = DynamicLossScaleManager(init_loss_scale=2 ** 10, scale_factor=2, scale_window=1000)
        >>> manager.get_loss_scale()
        1024.0
        >>> manager.get_update_cell()
        DynamicLossScaleUpdateCell()
    """

    def __init__(self, init_loss_scale: float = 2 ** 24, scale_factor: int = 2, scale_window: int = 2000) -> None:
        if init_loss_scale < 1.0:
            raise ValueError(f"DynamicLossScaleManager: init_loss_scale must be >= 1, got {init_loss_scale}")
        if scale_factor <= 1:
            raise ValueError(f"DynamicLossScaleManager: scale_factor must be > 1, got {scale_factor}")
        if isinstance(scale_window, bool) or not isinstance(scale_window, int) or scale_window <= 0:
            raise ValueError(f"DynamicLossScaleManager: scale_window must be a positive int, got {scale_window!r}")
        self.loss_scale = float(init_loss_scale)
        self.scale_factor = scale_factor
        self.scale_window = scale_window
        self.increase_ratio = scale_factor
        self.decrease_ratio = 1 / scale_factor
        self.cur_iter = 1
        self.last_overflow_iter = 0
        self.bad_step_max = 1000
        self.bad_step = 0

    def get_loss_scale(self) -> float:
        return self.loss_scale

    def update_loss_scale(self, overflow: bool) -> None:
        """The host-side mirror of DynamicLossScaleUpdateCell's rule (kept for ``Model``'s bookkeeping)."""
        if overflow:
            self.loss_scale = max(self.loss_scale * self.decrease_ratio, 1)
            self.last_overflow_iter = self.cur_iter
            self.bad_step += 1
        else:
            if (self.cur_iter - self.last_overflow_iter) % self.scale_window == 0:
                self.loss_scale *= self.increase_ratio
            self.bad_step = 0
        if self.bad_step > self.bad_step_max:
            raise RuntimeError(f"Dynamic loss scale: {self.bad_step} overflowing steps in a row "
                               f"(limit {self.bad_step_max}); the training diverged")
        self.cur_iter += 1

    def get_drop_overflow_update(self) -> bool:
        return True

    def get_update_cell(self) -> Any:
        from cellonnx.nn.wrap import DynamicLossScaleUpdateCell
        return DynamicLossScaleUpdateCell(self.loss_scale, self.scale_factor, self.scale_window)
