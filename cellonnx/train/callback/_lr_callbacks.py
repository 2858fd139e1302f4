"""Callbacks that change the optimizer's learning rate during training: LearningRateScheduler (a function of
the rate and the step) and ReduceLROnPlateau (divide it when a monitored value stops improving)."""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from cellonnx.tensor import Parameter, Tensor
from cellonnx.train.callback._callback import Callback, RunContext, _handle_loss
from cellonnx.train.callback._others import _SMALLER_BETTER

__all__ = ["LearningRateScheduler", "ReduceLROnPlateau"]


def _fixed_lr(cb_params: Any, who: str) -> Parameter:
    lr = cb_params.optimizer.learning_rate
    if not isinstance(lr, Parameter):
        raise ValueError(f"{who} does not support dynamic learning rate and group learning rate now.")
    return lr


class LearningRateScheduler(Callback):
    """Change the learning rate after each training step.

    Args:
        learning_rate_function (Callable): ``f(lr, cur_step_num) -> new_lr``; the optimizer's (fixed) rate is
        set
            to the result when it differs.

    Examples:
        >>> from cellonnx.train import LearningRateScheduler, Model
        >>> net = nn.Dense(4, 2)
        >>> data = {"x": np.random.rand(64, 4).astype(np.float32), "y": np.arange(64, dtype=np.int32) % 2}
        >>> dataset = ms.dataset.NumpySlicesDataset(data, shuffle=False).batch(16)
        >>> loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        >>> model = Model(net, loss_fn, nn.Momentum(net.trainable_params(), 0.01, 0.9))
        >>> def decay(lr, step):
        ...     return lr * 0.1 if step % 1000 == 0 else lr
        >>> model.train(1, dataset, callbacks=[LearningRateScheduler(decay)])
    """

    def __init__(self, learning_rate_function: Callable[[float, int], float]) -> None:
        super().__init__()
        self.learning_rate_function = learning_rate_function

    def step_end(self, run_context: RunContext) -> None:
        cb_params = run_context.original_args()
        lr_param = _fixed_lr(cb_params, "LearningRateScheduler")
        lr = float(np.array2string(lr_param.asnumpy()))   # the float32 as printed, as MindSpore reads it
        new_lr = self.learning_rate_function(lr, cb_params.cur_step_num)
        if not math.isclose(lr, new_lr, rel_tol=1e-10):
            lr_param.set_data(Tensor(new_lr, np.float32))


class ReduceLROnPlateau(Callback):
    """Multiply the learning rate by ``factor`` when the monitored value has not improved for ``patience``
    epochs (checked at each epoch end).

    Args:
        monitor (str): 'loss' (the training loss of the epoch's last step) or a key of the evaluation results
            of ``Model.fit`` ('eval_loss', a metric name). Default: ``'eval_loss'``.
        factor (float): in (0, 1). Default: ``0.1``.
        patience (int): epochs without improvement before the rate drops. Default: ``10``.
        verbose (bool): print each reduction. Default: ``False``.
        mode (str): 'min', 'max' or 'auto' (min for loss-like names). Default: ``'auto'``.
        min_delta (float): the smallest change counted as an improvement. Default: ``1e-4``.
        cooldown (int): epochs to wait after a reduction before counting again. Default: ``0``.
        min_lr (float): the rate is never set below it. Default: ``0``.

    Examples:
        >>> from cellonnx.train import Model, ReduceLROnPlateau
        >>> net = nn.Dense(4, 2)
        >>> data = {"x": np.random.rand(64, 4).astype(np.float32), "y": np.arange(64, dtype=np.int32) % 2}
        >>> dataset = ms.dataset.NumpySlicesDataset(data, shuffle=False).batch(16)
        >>> loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        >>> model = Model(net, loss_fn, nn.Momentum(net.trainable_params(), 0.01, 0.9),
        ...               metrics={'loss'})
        >>> model.fit(3, dataset, dataset,
        ...           callbacks=[ReduceLROnPlateau(monitor='eval_loss', factor=0.5, patience=2)])
    """

    def __init__(self, monitor: str = "eval_loss", factor: float = 0.1, patience: int = 10,
                 verbose: bool = False,
                 mode: str = "auto", min_delta: float = 1e-4, cooldown: int = 0, min_lr: float = 0) -> None:
        super().__init__()
        if not isinstance(monitor, str):
            raise TypeError("For 'ReduceLROnPlateau', 'monitor' must be a str, but got "
                            f"{type(monitor).__name__}.")
        if not isinstance(factor, float) or not 0.0 < factor < 1.0:
            raise ValueError("For 'ReduceLROnPlateau', 'factor' must be a float in (0.0, 1.0), but got "
                             f"{factor!r}.")
        for name, v in (("patience", patience), ("cooldown", cooldown)):
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise ValueError(f"For 'ReduceLROnPlateau', '{name}' must be a non-negative int, but got "
                                 f"{v!r}.")
        if not isinstance(verbose, bool):
            raise TypeError("For 'ReduceLROnPlateau', 'verbose' must be a bool, but got "
                            f"{type(verbose).__name__}.")
        if not isinstance(mode, str):
            raise TypeError(f"For 'ReduceLROnPlateau', 'mode' must be a str, but got {type(mode).__name__}.")
        for name, v in (("min_delta", min_delta), ("min_lr", min_lr)):
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise TypeError(f"For 'ReduceLROnPlateau', '{name}' must be an int or float, but got "
                                f"{type(v).__name__}.")
        if mode not in ("auto", "min", "max"):
            raise ValueError(f"mode should be 'auto', 'min' or 'max', but got {mode}.")
        self.monitor = monitor
        self.factor = factor
        self.patience = patience
        self.verbose = verbose
        self.mode = mode
        self.min_delta = abs(min_delta)
        self.cooldown = cooldown
        self.min_lr = min_lr
        self.cooldown_counter = 0
        self.wait = 0
        self._smaller = mode == "min" or (mode == "auto" and monitor in _SMALLER_BETTER)
        self.best = np.inf if self._smaller else -np.inf

    def is_improvement(self, a: Any, b: Any) -> bool:
        return bool(np.less(a, b - self.min_delta)) if self._smaller else bool(np.greater(a,
                                                                                          b + self.min_delta))

    def on_train_begin(self, run_context: RunContext) -> None:
        self.cooldown_counter = 0
        self.wait = 0
        self.best = np.inf if self._smaller else -np.inf

    def _get_monitor_value(self, cb_params: Any) -> Any:
        if self.monitor == "loss":
            value = _handle_loss(cb_params.get("net_outputs"))
        else:
            value = (cb_params.get("eval_results") or {}).get(self.monitor)
        if isinstance(value, Tensor):
            value = value.asnumpy()
        if isinstance(value, np.ndarray) and value.shape != ():
            raise ValueError("ReduceLROnPlateau only supports scalar monitor now.")
        return np.array(value) if value else None

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        cb_params = run_context.original_args()
        lr_param = _fixed_lr(cb_params, "ReduceLROnPlateau")
        value = self._get_monitor_value(cb_params)
        if value is None:
            return
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.wait = 0
        if self.is_improvement(value, self.best):
            self.best = value
            self.wait = 0
        elif self.cooldown_counter <= 0:
            self.wait += 1
            if self.wait >= self.patience:
                cur_lr = lr_param.asnumpy()
                if cur_lr > np.float32(self.min_lr):
                    new_lr = max(cur_lr * np.float32(self.factor), np.float32(self.min_lr))
                    lr_param.set_data(Tensor(np.asarray(new_lr, np.float32)))
                    if self.verbose:
                        print(f"Epoch {cb_params.cur_epoch_num:05d}: ReduceLROnPlateau reducing learning "
                              f"rate to {new_lr}.")
                self.cooldown_counter = self.cooldown
                self.wait = 0
