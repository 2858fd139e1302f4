"""MXNet's mixed-precision and multi-tensor SGD updates (``mp_sgd_update``, ``mp_sgd_mom_update``,
``mp_nag_mom_update``, ``multi_sgd_update``, ``multi_sgd_mom_update``, ``multi_mp_sgd_update``,
``multi_mp_sgd_mom_update`` and their ``preloaded_multi_*`` forms, which take the learning rates and weight
decays as the last two arrays). The float32 master weights (``weight32``) and momenta move in place; the new
weights are returned in the weights' dtype (written into ``out=`` when given), as MXNet does."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from cellonnx.tensor import Tensor

__all__ = ["UPDATE_MULTI"]


def _g(weight32: np.ndarray, grad: Tensor, wd: float, rescale_grad: float,
       clip_gradient: float) -> np.ndarray:
    """The float32 step direction: rescaled, clipped gradient plus weight decay on the master weight."""
    g = grad._data.astype(np.float32) * np.float32(rescale_grad)
    if clip_gradient is not None and float(clip_gradient) >= 0:
        g = np.clip(g, -np.float32(clip_gradient), np.float32(clip_gradient))
    return g + np.float32(wd) * weight32


def _step(kind: str, weight: Tensor, grad: Tensor, mom: Tensor | None, weight32: Tensor | None, lr: float,
          wd: float, momentum: float, rescale_grad: float, clip_gradient: float) -> Tensor:
    w32 = weight32._data if weight32 is not None else weight._data.astype(np.float32)
    g = _g(w32, grad, wd, rescale_grad, clip_gradient)
    lr32 = np.float32(lr)
    if mom is None:
        new = w32 - lr32 * g
    else:
        mom._data[...] = np.float32(momentum) * mom._data - lr32 * g
        new = w32 + mom._data if kind == "sgd" else w32 + np.float32(momentum) * mom._data - lr32 * g
    if weight32 is not None:
        if kind == "nag":
            # what MXNet 1.9.1's mixed-precision Nesterov kernel leaves in mom (checked against it)
            mom._data[...] = mom._data - np.float32(lr) * np.float32(wd) * (new - w32)
        weight32._data[...] = new
    return Tensor(new.astype(weight._data.dtype))


def mp_sgd_update(weight: Tensor, grad: Tensor, weight32: Tensor, lr: float, wd: float = 0.0,
                  rescale_grad: float = 1.0, clip_gradient: float = -1.0, lazy_update: bool = True,
                  **_: Any) -> Tensor:
    """SGD on the float32 master weight ``weight32`` (in place); returns it cast to ``weight``'s dtype."""
    return _step("sgd", weight, grad, None, weight32, lr, wd, 0.0, rescale_grad, clip_gradient)


def mp_sgd_mom_update(weight: Tensor, grad: Tensor, mom: Tensor, weight32: Tensor, lr: float,
                      momentum: float = 0.0, wd: float = 0.0, rescale_grad: float = 1.0,
                      clip_gradient: float = -1.0, lazy_update: bool = True, **_: Any) -> Tensor:
    """Momentum SGD on ``weight32``: ``mom = momentum * mom - lr * g``, ``weight32 += mom`` (in place)."""
    return _step("sgd", weight, grad, mom, weight32, lr, wd, momentum, rescale_grad, clip_gradient)


def mp_nag_mom_update(weight: Tensor, grad: Tensor, mom: Tensor, weight32: Tensor, lr: float,
                      momentum: float = 0.0, wd: float = 0.0, rescale_grad: float = 1.0,
                      clip_gradient: float = -1.0, **_: Any) -> Tensor:
    """Nesterov momentum on ``weight32`` (in place), as ``nag_mom_update``."""
    return _step("nag", weight, grad, mom, weight32, lr, wd, momentum, rescale_grad, clip_gradient)


def _per_weight(value: Any, n: int, name: str, op: str) -> list[float]:
    if isinstance(value, Tensor):
        value = value._data.reshape(-1).tolist()
    values = [float(value)] * n if isinstance(value, (int, float)) else [float(v) for v in value]
    if len(values) != n:
        raise ValueError(f"{op}: {name} must hold one value per weight ({n}), got {len(values)}")
    return values


def _multi(op: str, group: int, mom: bool, mp: bool, preloaded: bool) -> Callable[..., list[Tensor]]:
    def update(*data: Tensor, lrs: Sequence[float] | None = None, wds: Sequence[float] | None = None,
               momentum: float = 0.0, rescale_grad: float = 1.0, clip_gradient: float = -1.0,
               num_weights: int = 1, **_: Any) -> list[Tensor]:
        arrays = list(data)
        if preloaded:
            arrays, lrs, wds = arrays[:-2], arrays[-2], arrays[-1]
        if len(arrays) != group * int(num_weights):
            raise ValueError(f"{op}: expected {group} arrays for each of the {num_weights} weights "
                             f"({group * int(num_weights)}), got {len(arrays)}")
        n = int(num_weights)
        lr_values = _per_weight(lrs, n, "lrs", op)
        wd_values = _per_weight(wds if wds is not None else 0.0, n, "wds", op)
        outs = []
        for i in range(n):
            w, g, *rest = arrays[i * group:(i + 1) * group]
            m = rest.pop(0) if mom else None
            w32 = rest.pop(0) if mp else None
            outs.append(_step("sgd", w, g, m, w32, lr_values[i], wd_values[i], momentum, rescale_grad,
                              clip_gradient))
        return outs
    update.__name__ = op
    update.__doc__ = (f"``{op}(*data, ...)``: one SGD step for each of ``num_weights`` weights; ``data`` "
                      f"holds, per weight, {group} arrays (weight, grad{', mom' if mom else ''}"
                      f"{', weight32' if mp else ''}){', then the lrs and wds arrays' if preloaded else ''}.")
    return update


UPDATE_MULTI: dict[str, Callable[..., Any]] = {
    "mp_sgd_update": mp_sgd_update, "mp_sgd_mom_update": mp_sgd_mom_update,
    "mp_nag_mom_update": mp_nag_mom_update,
}
for _pre in (False, True):
    for _mom in (False, True):
        for _mp in (False, True):
            _name = ("preloaded_" if _pre else "") + "multi_" + ("mp_" if _mp else "") + "sgd_" + (
                "mom_" if _mom else "") + "update"
            UPDATE_MULTI[_name] = _multi(_name, 2 + _mom + _mp, _mom, _mp, _pre)
