"""mx.nd.contrib's optimizer update operators: ``adamw_update`` / ``mp_adamw_update`` and their
``multi_*`` forms (AdamW, Loshchilov & Hutter: the decay is decoupled from the gradient and scaled by
``eta``), ``multi_lamb_update`` / ``multi_mp_lamb_update`` and ``group_adagrad_update``. The states (mean,
var, history, float32 master weights) move in place; the new weights are returned in the weights' dtype
(written into ``out=`` when given), as MXNet does. A non-finite ``rescale_grad`` leaves everything as it
was (MXNet's AdamW skips the step)."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from cellonnx.tensor import Tensor

__all__ = ["UPDATE_ADAMW"]


def _scale(rescale_grad: Any) -> float:
    if isinstance(rescale_grad, Tensor):
        return float(rescale_grad._data.reshape(-1)[0])
    return float(rescale_grad)


def _g(grad: Tensor, rescale: float, clip_gradient: float) -> np.ndarray:
    g = grad._data.astype(np.float32) * np.float32(rescale)
    if clip_gradient is not None and float(clip_gradient) >= 0:
        g = np.clip(g, -np.float32(clip_gradient), np.float32(clip_gradient))
    return g


def _adamw(weight: Tensor, grad: Tensor, mean: Tensor, var: Tensor, weight32: Tensor | None, rescale: float,
           lr: float, eta: float, beta1: float, beta2: float, epsilon: float, wd: float,
           clip_gradient: float) -> Tensor:
    w32 = weight32._data if weight32 is not None else weight._data.astype(np.float32)
    if not np.isfinite(rescale):
        return Tensor(weight._data.copy())
    g = _g(grad, rescale, clip_gradient)
    if weight32 is None:
        grad._data = g.astype(grad._data.dtype)  # MXNet's AdamW kernel rescales and clips grad in place
    f32 = np.float32
    mean._data[...] = f32(beta1) * mean._data + f32(1 - beta1) * g
    var._data[...] = f32(beta2) * var._data + f32(1 - beta2) * g * g
    new = w32 - f32(eta) * (f32(lr) * mean._data / (np.sqrt(var._data) + f32(epsilon)) + f32(wd) * w32)
    if weight32 is not None:
        weight32._data[...] = new
    return Tensor(new.astype(weight._data.dtype))


def adamw_update(weight: Tensor, grad: Tensor, mean: Tensor, var: Tensor, rescale_grad: Any, lr: float,
                 eta: float, beta1: float = 0.9, beta2: float = 0.999, epsilon: float = 1e-8, wd: float = 0.0,
                 clip_gradient: float = -1.0, **_: Any) -> Tensor:
    """AdamW: ``g = rescale_grad * grad`` (clipped), mean / var as Adam's (in place), then
    ``weight - eta * (lr * mean / (sqrt(var) + epsilon) + wd * weight)``."""
    return _adamw(weight, grad, mean, var, None, _scale(rescale_grad), lr, eta, beta1, beta2, epsilon, wd,
                  clip_gradient)


def mp_adamw_update(weight: Tensor, grad: Tensor, mean: Tensor, var: Tensor, weight32: Tensor,
                    rescale_grad: Any, lr: float, eta: float, beta1: float = 0.9, beta2: float = 0.999,
                    epsilon: float = 1e-8, wd: float = 0.0, clip_gradient: float = -1.0, **_: Any) -> Tensor:
    """adamw_update on the float32 master ``weight32`` (in place); the float16 weight is its cast."""
    return _adamw(weight, grad, mean, var, weight32, _scale(rescale_grad), lr, eta, beta1, beta2, epsilon, wd,
                  clip_gradient)


def _multi(mixed: bool) -> Callable[..., list[Tensor]]:
    def update(weights: Sequence[Tensor], grads: Sequence[Tensor], mean: Sequence[Tensor],
               var: Sequence[Tensor], *rest: Any, **kwargs: Any) -> list[Tensor]:
        weights32 = rest[0] if mixed else [None] * len(weights)
        rescale_grad, lrs, wds, etas = ((rest[1:] if mixed else rest) + (None,) * 4)[:4]
        rescale_grad = kwargs.pop("rescale_grad", rescale_grad)
        lrs, wds, etas = (kwargs.pop(k, v) for k, v in (("lrs", lrs), ("wds", wds), ("etas", etas)))
        size = int(kwargs.pop("size", 0) or len(weights))
        hyper = {k: kwargs[k] for k in ("beta1", "beta2", "epsilon", "clip_gradient") if k in kwargs}
        return [_adamw(weights[i], grads[i], mean[i], var[i], weights32[i], _scale(rescale_grad), lrs[i],
                       etas[i], hyper.get("beta1", 0.9), hyper.get("beta2", 0.999),
                       hyper.get("epsilon", 1e-8), wds[i], hyper.get("clip_gradient", -1.0))
                for i in range(size)]
    update.__doc__ = (f"``{'mp_' if mixed else ''}adamw_update`` of each weight, with its own lr, wd and eta "
                      "(``lrs``, ``wds``, ``etas``) and one ``rescale_grad``.")
    return update


def _lamb(weight: Tensor, grad: Tensor, mean: Tensor, var: Tensor, weight32: Tensor | None, t: int, lr: float,
          wd: float, beta1: float, beta2: float, epsilon: float, lower_bound: float, upper_bound: float,
          bias_correction: bool, rescale_grad: float, clip_gradient: float) -> Tensor:
    f32 = np.float32
    w = weight32._data if weight32 is not None else weight._data.astype(np.float32)
    g = _g(grad, rescale_grad, clip_gradient)
    mean._data[...] = f32(beta1) * mean._data + f32(1 - beta1) * g
    var._data[...] = f32(beta2) * var._data + f32(1 - beta2) * g * g
    m, v = mean._data, var._data
    if bias_correction:
        m = m / (f32(1) - f32(beta1) ** f32(t))
        v = v / (f32(1) - f32(beta2) ** f32(t))
    r = m / (np.sqrt(v) + f32(epsilon)) + f32(wd) * w
    # the trust ratio's weight norm is the stored weight's (the float16 one under mixed precision, as
    # MXNet 1.9.1's multi_mp_lamb_update computes it)
    r1 = float(np.sqrt(np.sum(np.square(weight._data.astype(np.float32)), dtype=np.float32)))
    r2 = float(np.sqrt(np.sum(np.square(r), dtype=np.float32)))
    if lower_bound is not None and lower_bound > 0:
        r1 = max(r1, lower_bound)
    if upper_bound is not None and upper_bound > 0:
        r1 = min(r1, upper_bound)
    step = lr if r1 == 0.0 or r2 == 0.0 else lr * (r1 / r2)
    new = w - f32(step) * r
    if weight32 is not None:
        weight32._data[...] = new
    return Tensor(new.astype(weight._data.dtype))


def _multi_lamb(mixed: bool) -> Callable[..., list[Tensor]]:
    def update(weights: Sequence[Tensor], grads: Sequence[Tensor], mean: Sequence[Tensor],
               var: Sequence[Tensor], *rest: Any, beta1: float = 0.9, beta2: float = 0.999,
               epsilon: float = 1e-6, lower_bound: float = -1.0, upper_bound: float = -1.0,
               bias_correction: bool = True, rescale_grad: float = 1.0, clip_gradient: float = -1.0,
               num_tensors: int = 0, **kwargs: Any) -> list[Tensor]:
        weights32 = rest[0] if mixed else [None] * len(weights)
        step_count, lrs, wds = ((rest[1:] if mixed else rest) + (None,) * 3)[:3]
        step_count = kwargs.pop("step_count", step_count)
        lrs, wds = kwargs.pop("lrs", lrs), kwargs.pop("wds", wds)
        n = int(num_tensors or len(weights))
        return [_lamb(weights[i], grads[i], mean[i], var[i], weights32[i], int(step_count[i]), float(lrs[i]),
                      float(wds[i]), beta1, beta2, epsilon, lower_bound, upper_bound, bias_correction,
                      float(rescale_grad), clip_gradient) for i in range(n)]
    update.__doc__ = (f"LAMB (You et al. 2019) on each weight{' (float32 master copies)' if mixed else ''}: "
                      "Adam's moments, bias-corrected with ``step_count``, then a step scaled by the trust "
                      "ratio ||w|| / ||r||.")
    return update


def group_adagrad_update(weight: Tensor, grad: Tensor, history: Tensor, lr: float, rescale_grad: float = 1.0,
                         clip_gradient: float = -1.0, epsilon: float = 1e-5, **_: Any) -> Tensor:
    """Group AdaGrad: one history value per row, ``history += mean(g^2 over the row)``, then
    ``weight - lr * g / sqrt(history + epsilon)`` (rows of a row-sparse gradient alone)."""
    if getattr(grad, "stype", "default") == "row_sparse":
        rows, values = np.asarray(grad.indices._data), np.asarray(grad.data._data)
    else:
        rows, values = np.arange(weight.shape[0]), grad._data
    g = _g(Tensor(np.ascontiguousarray(values)), float(rescale_grad), clip_gradient)
    flat = g.reshape(g.shape[0], -1)
    h = history._data.reshape(history.shape[0], -1)
    h[rows] = h[rows] + np.mean(flat * flat, axis=1, keepdims=True).astype(h.dtype)
    scale = np.sqrt(h[rows] + np.float32(epsilon)).reshape((len(rows),) + (1,) * (g.ndim - 1))
    new = weight._data.astype(np.float32).copy()
    new[rows] = new[rows] - np.float32(lr) * g / scale
    return Tensor(new.astype(weight._data.dtype))


UPDATE_ADAMW: dict[str, Callable[..., Any]] = {
    "adamw_update": adamw_update, "mp_adamw_update": mp_adamw_update,
    "multi_adamw_update": _multi(False), "multi_mp_adamw_update": _multi(True),
    "multi_lamb_update": _multi_lamb(False), "multi_mp_lamb_update": _multi_lamb(True),
    "group_adagrad_update": group_adagrad_update,
}
