"""MXNet's optimizer update operators (``sgd_update``, ``sgd_mom_update``, ``nag_mom_update``,
``adam_update``, ``rmsprop_update``) as hand-written 1.x training loops call them: the new weight is
returned (written into ``out=`` when given, usually the weight itself), the optimizer states (momentum,
mean, var, n) are updated in place, as MXNet does. They run eagerly, outside autograd."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.tensor import Tensor

__all__ = ["UPDATE"]


def _grad(weight: Tensor, grad: Tensor, wd: float, rescale_grad: float, clip_gradient: float) -> np.ndarray:
    g = grad._data * np.float32(rescale_grad)
    if clip_gradient is not None and float(clip_gradient) >= 0:
        g = np.clip(g, -float(clip_gradient), float(clip_gradient))
    return (g + np.float32(wd) * weight._data).astype(weight._data.dtype)


def _out(weight: Tensor, value: np.ndarray) -> Tensor:
    return Tensor(value.astype(weight._data.dtype, copy=False))


def sgd_update(weight: Tensor, grad: Tensor, lr: float, wd: float = 0.0, rescale_grad: float = 1.0,
               clip_gradient: float = -1.0, lazy_update: bool = True, **_: Any) -> Tensor:
    """``weight - lr * (rescale_grad * grad (clipped) + wd * weight)``."""
    return _out(weight, weight._data - np.float32(lr) * _grad(weight, grad, wd, rescale_grad, clip_gradient))


def sgd_mom_update(weight: Tensor, grad: Tensor, mom: Tensor, lr: float, momentum: float = 0.0,
                   wd: float = 0.0, rescale_grad: float = 1.0, clip_gradient: float = -1.0,
                   lazy_update: bool = True, **_: Any) -> Tensor:
    """``mom = momentum * mom - lr * g`` (in place), then ``weight + mom``."""
    g = _grad(weight, grad, wd, rescale_grad, clip_gradient)
    mom._data[...] = np.float32(momentum) * mom._data - np.float32(lr) * g
    return _out(weight, weight._data + mom._data)


def nag_mom_update(weight: Tensor, grad: Tensor, mom: Tensor, lr: float, momentum: float = 0.0,
                   wd: float = 0.0, rescale_grad: float = 1.0, clip_gradient: float = -1.0,
                   **_: Any) -> Tensor:
    """Nesterov: ``mom = momentum * mom - lr * g`` (in place), ``weight + momentum * mom - lr * g``."""
    g = _grad(weight, grad, wd, rescale_grad, clip_gradient)
    mom._data[...] = np.float32(momentum) * mom._data - np.float32(lr) * g
    return _out(weight, weight._data + np.float32(momentum) * mom._data - np.float32(lr) * g)


def adam_update(weight: Tensor, grad: Tensor, mean: Tensor, var: Tensor, lr: float, beta1: float = 0.9,
                beta2: float = 0.999, epsilon: float = 1e-8, wd: float = 0.0, rescale_grad: float = 1.0,
                clip_gradient: float = -1.0, lazy_update: bool = True, **_: Any) -> Tensor:
    """Adam without bias correction (the caller folds it into ``lr``, as MXNet's optimizer does): mean and
    var move in place, ``weight - lr * mean / (sqrt(var) + epsilon)``."""
    g = _grad(weight, grad, wd, rescale_grad, clip_gradient)
    mean._data[...] = np.float32(beta1) * mean._data + np.float32(1 - beta1) * g
    var._data[...] = np.float32(beta2) * var._data + np.float32(1 - beta2) * g * g
    step = np.float32(lr) * mean._data / (np.sqrt(var._data) + np.float32(epsilon))
    return _out(weight, weight._data - step)


def rmsprop_update(weight: Tensor, grad: Tensor, n: Tensor, lr: float, gamma1: float = 0.95,
                   epsilon: float = 1e-8, wd: float = 0.0, rescale_grad: float = 1.0,
                   clip_gradient: float = -1.0, clip_weights: float = -1.0, **_: Any) -> Tensor:
    """``n = gamma1 * n + (1 - gamma1) * g^2`` (in place), ``weight - lr * g / sqrt(n + epsilon)``."""
    g = _grad(weight, grad, wd, rescale_grad, clip_gradient)
    n._data[...] = np.float32(1 - gamma1) * g * g + np.float32(gamma1) * n._data
    w = weight._data - np.float32(lr) * g / np.sqrt(n._data + np.float32(epsilon))
    if clip_weights is not None and float(clip_weights) >= 0:
        w = np.clip(w, -float(clip_weights), float(clip_weights))
    return _out(weight, w)


UPDATE = {"sgd_update": sgd_update, "sgd_mom_update": sgd_mom_update, "nag_mom_update": nag_mom_update,
          "adam_update": adam_update, "rmsprop_update": rmsprop_update}
