"""MXNet's optimizers for gluon.Trainer, with MXNet 1.9's update formulas (its adam_update / sgd_mom_update
kernels), on NumPy arrays.

    SGD:  g = clip(rescale_grad * grad, clip_gradient) + wd * w
          state = momentum * state - lr * g;  w += state          (w -= lr * g without momentum)
    Adam: g = clip(rescale_grad * grad + wd * w, clip_gradient)   (wd is added before clipping here)
          m = beta1 * m + (1 - beta1) * g;  v = beta2 * v + (1 - beta2) * g^2
          w -= lr * sqrt(1 - beta2^t) / (1 - beta1^t) * m / (sqrt(v) + epsilon)

lr and wd are multiplied by each parameter's lr_mult / wd_mult; t counts the updates of each parameter.
These differ from MindSpore's (cellonnx.nn.optim: the momentum is accumulated before the learning rate is
applied, Adam's weight decay is folded in differently, and there is no rescale_grad / clip_gradient), so they
are written here rather than reused.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = ["SGD", "Adam", "Optimizer", "create"]

_REGISTRY: dict[str, type[Optimizer]] = {}


def _register(cls: type[Optimizer]) -> type[Optimizer]:
    _REGISTRY[cls.__name__.lower()] = cls
    return cls


class Optimizer:
    """Base class: holds the learning rate, weight decay, gradient rescaling and clipping, and per-parameter
    update counts.

    Args:
        rescale_grad: gradients are multiplied by it (Trainer.step sets it to 1 / batch_size). Default: 1.0.
        wd: weight decay. Default: 0.0.
        clip_gradient: clip gradients to [-clip_gradient, clip_gradient]; None (or 0) for no clipping.
        learning_rate: Default: 0.01 (0.001 for Adam); None with an lr_scheduler.
        lr_scheduler: a callable ``num_update -> learning rate``. Default: None.
        multi_precision: keep a float32 master copy of float16 weights. Default: False.
        param_dict: index -> Parameter (for lr_mult / wd_mult); set by Trainer.
    """

    def __init__(self, rescale_grad: float = 1.0, param_idx2name: dict | None = None, wd: float = 0.0,
                 clip_gradient: float | None = None, learning_rate: float | None = None,
                 lr_scheduler: Callable[[int], float] | None = None, sym: Any = None, begin_num_update: int = 0,
                 multi_precision: bool = False, param_dict: dict | None = None) -> None:
        self.rescale_grad = rescale_grad
        self.lr_scheduler = lr_scheduler
        if lr_scheduler is None and learning_rate is None:
            learning_rate = 0.01
        self.lr = learning_rate
        self.wd = wd
        self.clip_gradient = clip_gradient
        self.multi_precision = multi_precision
        self.begin_num_update = begin_num_update
        self.num_update = begin_num_update
        self._index_update_count: dict[int, int] = {}
        self.idx2name = dict(param_idx2name or {})
        self.param_dict = param_dict if param_dict is not None else {}

    @property
    def learning_rate(self) -> float:
        if self.lr_scheduler is not None:
            return float(self.lr_scheduler(self.num_update))
        return float(self.lr)  # type: ignore[arg-type]

    def set_learning_rate(self, lr: float) -> None:
        if self.lr_scheduler is not None:
            raise UserWarning("LRScheduler of the optimizer has already been defined. Note that set_learning_rate "
                              "can mutate the value of the learning rate of the optimizer only when the LRScheduler "
                              "of the optimizer is undefined.")
        self.lr = lr

    def _update_count(self, index: int) -> int:
        count = self._index_update_count.get(index, self.begin_num_update) + 1
        self._index_update_count[index] = count
        self.num_update = max(count, self.num_update)
        return count

    def _get_lr(self, index: int) -> float:
        p = self.param_dict.get(index)
        return self.learning_rate * (getattr(p, "lr_mult", 1.0) if p is not None else 1.0)

    def _get_wd(self, index: int) -> float:
        p = self.param_dict.get(index)
        return self.wd * (getattr(p, "wd_mult", 1.0) if p is not None else 1.0)

    def _clip(self, g: np.ndarray) -> np.ndarray:
        if self.clip_gradient:
            return np.clip(g, -self.clip_gradient, self.clip_gradient)
        return g

    def create_state(self, index: int, weight: np.ndarray) -> Any:
        return None

    def create_state_multi_precision(self, index: int, weight: np.ndarray) -> Any:
        if self.multi_precision and weight.dtype == np.float16:
            master = weight.astype(np.float32)
            return (self.create_state(index, master), master)
        return self.create_state(index, weight)

    def update(self, index: int, weight: np.ndarray, grad: np.ndarray, state: Any) -> np.ndarray:
        """The new value of ``weight`` (arrays are not modified in place; states are)."""
        raise NotImplementedError(f"{type(self).__name__} must define update")

    def update_rows(self, index: int, weight: np.ndarray, rows: np.ndarray, grad: np.ndarray,
                    state: Any) -> np.ndarray:
        """A lazy update (MXNet's ``lazy_update`` with a row-sparse gradient): the rows ``rows`` of ``weight``
        and of its states take the update with ``grad`` (those rows' gradient); the other rows, their
        states included, are left alone. For optimizers whose update is row by row."""
        rows_state = _state_rows(state, rows)
        new = weight.copy()
        new[rows] = self.update_multi_precision(index, weight[rows], grad, rows_state)
        _put_state_rows(state, rows_state, rows)
        return new

    def update_multi_precision(self, index: int, weight: np.ndarray, grad: np.ndarray, state: Any) -> np.ndarray:
        if self.multi_precision and weight.dtype == np.float16:
            inner, master = state
            master[...] = self.update(index, master, grad.astype(np.float32), inner)
            return master.astype(np.float16)
        return self.update(index, weight, grad, state)


@_register
class SGD(Optimizer):
    """Stochastic gradient descent with momentum and weight decay (see the module docstring).

    Args:
        momentum: Default: 0.0.
        lazy_update: with a row-sparse gradient (``grad_stype='row_sparse'``), update only its rows (weight
            decay and states included), as MXNet's lazy update. Default: True.
    """

    def __init__(self, momentum: float = 0.0, lazy_update: bool = True, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.momentum = momentum
        self.lazy_update = lazy_update

    def create_state(self, index: int, weight: np.ndarray) -> Any:
        return np.zeros_like(weight) if self.momentum != 0.0 else None

    def update(self, index: int, weight: np.ndarray, grad: np.ndarray, state: Any) -> np.ndarray:
        self._update_count(index)
        lr, wd = self._get_lr(index), self._get_wd(index)
        dt = weight.dtype.type
        g = self._clip(grad * dt(self.rescale_grad)) + dt(wd) * weight
        if state is None:
            return (weight - dt(lr) * g).astype(weight.dtype, copy=False)
        state[...] = dt(self.momentum) * state - dt(lr) * g
        return (weight + state).astype(weight.dtype, copy=False)


@_register
class Adam(Optimizer):
    """Adam (see the module docstring for the exact update).

    Args:
        learning_rate: Default: 0.001.
        beta1, beta2: Default: 0.9, 0.999.
        epsilon: added to sqrt(v). Default: 1e-8.
        lazy_update: with a row-sparse gradient (``grad_stype='row_sparse'``), update only its rows (weight
            decay and states included), as MXNet's lazy update. Default: True.
    """

    def __init__(self, learning_rate: float = 0.001, beta1: float = 0.9, beta2: float = 0.999,
                 epsilon: float = 1e-8, lazy_update: bool = True, **kwargs: Any) -> None:
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.beta1 = beta1
        self.beta2 = beta2
        self.epsilon = epsilon
        self.lazy_update = lazy_update

    def create_state(self, index: int, weight: np.ndarray) -> Any:
        return (np.zeros_like(weight), np.zeros_like(weight))

    def update(self, index: int, weight: np.ndarray, grad: np.ndarray, state: Any) -> np.ndarray:
        t = self._update_count(index)
        lr, wd = self._get_lr(index), self._get_wd(index)
        lr *= math.sqrt(1.0 - self.beta2 ** t) / (1.0 - self.beta1 ** t)
        dt = weight.dtype.type
        g = self._clip(grad * dt(self.rescale_grad) + dt(wd) * weight)
        mean, var = state
        mean[...] = dt(self.beta1) * mean + dt(1.0 - self.beta1) * g
        var[...] = dt(self.beta2) * var + dt(1.0 - self.beta2) * np.square(g)
        return (weight - dt(lr) * mean / (np.sqrt(var) + dt(self.epsilon))).astype(weight.dtype, copy=False)


def _state_rows(state: Any, rows: np.ndarray) -> Any:
    if state is None:
        return None
    if isinstance(state, np.ndarray):
        return state[rows]
    return type(state)(_state_rows(s, rows) for s in state)


def _put_state_rows(state: Any, taken: Any, rows: np.ndarray) -> None:
    if isinstance(state, np.ndarray):
        state[rows] = taken
    elif isinstance(state, (tuple, list)):
        for s, t in zip(state, taken):
            _put_state_rows(s, t, rows)


def create(name: str | Optimizer, **kwargs: Any) -> Optimizer:
    """An optimizer from its name ('sgd', 'adam') and keyword arguments, or an instance as is."""
    if isinstance(name, Optimizer):
        if kwargs:
            raise ValueError("optimizer_params must be None if optimizer is an instance of Optimizer instead of str")
        return name
    cls = _REGISTRY.get(str(name).lower())
    if cls is None:
        raise ValueError(f"unknown optimizer {name!r}; cellonnx.gluon has {sorted(_REGISTRY)} (or pass an "
                         "Optimizer instance)")
    return cls(**kwargs)
