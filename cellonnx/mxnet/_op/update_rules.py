"""MXNet's other optimizer update operators (``signsgd_update``, ``signum_update``, ``ftrl_update``,
``ftml_update``, ``rmspropalex_update``, ``lamb_update_phase1/2`` and their ``mp_`` forms) and the
helpers MXNet's optimizers and AMP call between steps (``multi_sum_sq``, ``multi_lars``, ``all_finite``,
``multi_all_finite``, ``reset_arrays``). States move in place and the new weight is returned, as MXNet
does; they run eagerly, outside autograd."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from cellonnx.tensor import Tensor

__all__ = ["UPDATE_RULES"]

f32 = np.float32


def _clip(g: np.ndarray, clip_gradient: float | None) -> np.ndarray:
    if clip_gradient is not None and float(clip_gradient) >= 0:
        return np.clip(g, -f32(clip_gradient), f32(clip_gradient))
    return g


def _rescaled(grad: Tensor, rescale_grad: float, clip_gradient: float | None) -> np.ndarray:
    return _clip(grad._data.astype(np.float32) * f32(rescale_grad), clip_gradient)


def _out(weight: Tensor, value: np.ndarray) -> Tensor:
    return Tensor(value.astype(weight._data.dtype, copy=False))


def signsgd_update(weight: Tensor, grad: Tensor, lr: float, wd: float = 0.0, rescale_grad: float = 1.0,
                   clip_gradient: float = -1.0, **_: Any) -> Tensor:
    """``(1 - lr * wd) * weight - lr * sign(grad)``."""
    w = weight._data
    return _out(weight, (f32(1) - f32(lr) * f32(wd)) * w - f32(lr) * np.sign(grad._data))


def signum_update(weight: Tensor, grad: Tensor, mom: Tensor, lr: float, momentum: float = 0.0,
                  wd: float = 0.0, rescale_grad: float = 1.0, clip_gradient: float = -1.0,
                  wd_lh: float = 0.0, **_: Any) -> Tensor:
    """``mom = momentum * mom - (1 - momentum) * (wd * weight + g)`` (in place), then
    ``(1 - lr * wd_lh) * weight + lr * sign(mom)``."""
    w, b = weight._data, f32(momentum)
    g = _rescaled(grad, rescale_grad, clip_gradient)
    mom._data[...] = b * mom._data - (f32(1) - b) * (f32(wd) * w + g)
    return _out(weight, (f32(1) - f32(lr) * f32(wd_lh)) * w + f32(lr) * np.sign(mom._data))


def ftrl_update(weight: Tensor, grad: Tensor, z: Tensor, n: Tensor, lr: float, lamda1: float = 0.01,
                beta: float = 1.0, wd: float = 0.0, rescale_grad: float = 1.0, clip_gradient: float = -1.0,
                **_: Any) -> Tensor:
    """FTRL-proximal: z and n move in place; ``(sign(z) * lamda1 - z) / ((beta + sqrt(n)) / lr + wd)`` where
    ``|z| > lamda1``, else 0."""
    w, g, lr32 = weight._data, _rescaled(grad, rescale_grad, clip_gradient), f32(lr)
    z._data[...] = z._data + g - (np.sqrt(n._data + g * g) - np.sqrt(n._data)) * w / lr32
    n._data[...] = n._data + g * g
    zz = z._data
    new = (np.sign(zz) * f32(lamda1) - zz) / ((f32(beta) + np.sqrt(n._data)) / lr32 + f32(wd))
    return _out(weight, new * (np.abs(zz) > f32(lamda1)))


def ftml_update(weight: Tensor, grad: Tensor, d: Tensor, v: Tensor, z: Tensor, lr: float, t: int,
                beta1: float = 0.6, beta2: float = 0.999, epsilon: float = 1e-8, wd: float = 0.0,
                rescale_grad: float = 1.0, clip_grad: float = -1.0, **_: Any) -> Tensor:
    """FTML (follow the moving leader): d, v and z move in place; the new weight is ``-z / d``. As MXNet's
    kernel computes it: ``g = clip(rescale_grad * grad + wd * weight)``, z decays with ``1 - beta1`` (not
    ``1 - beta1^t`` as its docstring writes), the powers taken in float32."""
    w = weight._data
    g = _clip(grad._data * f32(rescale_grad) + f32(wd) * w, clip_grad)
    b1, b2 = f32(beta1), f32(beta2)
    v._data[...] = b2 * v._data + (f32(1) - b2) * g * g
    d_t = (f32(1) - b1 ** f32(t)) / f32(lr) * (np.sqrt(v._data / (f32(1) - b2 ** f32(t))) + f32(epsilon))
    sigma = d_t - b1 * d._data
    z._data[...] = b1 * z._data + (f32(1) - b1) * g - sigma * w
    d._data[...] = d_t
    return _out(weight, -z._data / d_t)


def rmspropalex_update(weight: Tensor, grad: Tensor, n: Tensor, g: Tensor, delta: Tensor, lr: float,
                       gamma1: float = 0.95, gamma2: float = 0.9, epsilon: float = 1e-8, wd: float = 0.0,
                       rescale_grad: float = 1.0, clip_gradient: float = -1.0, clip_weights: float = -1.0,
                       **_: Any) -> Tensor:
    """Graves' centred RMSProp: n, g and delta move in place, the weight moves by delta."""
    w, g1 = weight._data, f32(gamma1)
    gr = _clip(grad._data * f32(rescale_grad) + f32(wd) * w, clip_gradient)
    n._data[...] = (f32(1) - g1) * gr * gr + g1 * n._data
    g._data[...] = (f32(1) - g1) * gr + g1 * g._data
    delta._data[...] = (f32(gamma2) * delta._data
                        - f32(lr) * gr / np.sqrt(n._data - g._data * g._data + f32(epsilon)))
    new = w + delta._data
    return _out(weight, _clip(new, clip_weights))


def _lamb1(w: np.ndarray, grad: Tensor, mean: Tensor, var: Tensor, beta1: float, beta2: float, epsilon: float,
           t: int, bias_correction: bool, wd: float, rescale_grad: float, clip_gradient: float) -> np.ndarray:
    g = _rescaled(grad, rescale_grad, clip_gradient)
    b1, b2 = f32(beta1), f32(beta2)
    mean._data[...] = b1 * mean._data + (f32(1) - b1) * g
    var._data[...] = b2 * var._data + (f32(1) - b2) * g * g
    m, v = mean._data, var._data
    if bias_correction:
        m, v = m / (f32(1) - b1 ** int(t)), v / (f32(1) - b2 ** int(t))
    return m / (np.sqrt(v) + f32(epsilon)) + f32(wd) * w


def lamb_update_phase1(weight: Tensor, grad: Tensor, mean: Tensor, var: Tensor, t: int, wd: float,
                       beta1: float = 0.9, beta2: float = 0.999, epsilon: float = 1e-6,
                       bias_correction: bool = True, rescale_grad: float = 1.0, clip_gradient: float = -1.0,
                       **_: Any) -> Tensor:
    """LAMB phase I: mean and var move in place; returns the step direction ``g``."""
    return _out(weight, _lamb1(weight._data, grad, mean, var, beta1, beta2, epsilon, t, bias_correction, wd,
                               rescale_grad, clip_gradient))


def mp_lamb_update_phase1(weight: Tensor, grad: Tensor, mean: Tensor, var: Tensor, weight32: Tensor, t: int,
                          wd: float, beta1: float = 0.9, beta2: float = 0.999, epsilon: float = 1e-6,
                          bias_correction: bool = True, rescale_grad: float = 1.0,
                          clip_gradient: float = -1.0, **_: Any) -> Tensor:
    """LAMB phase I on the float32 master weight; returns ``g`` in float32."""
    return Tensor(_lamb1(weight32._data, grad, mean, var, beta1, beta2, epsilon, t, bias_correction, wd,
                         rescale_grad, clip_gradient).astype(np.float32))


def _lamb2(w: np.ndarray, g: Tensor, r1: Tensor, r2: Tensor, lr: float, lower_bound: float,
           upper_bound: float) -> np.ndarray:
    n1, n2 = f32(r1._data.reshape(-1)[0]), f32(r2._data.reshape(-1)[0])
    if lower_bound is not None and float(lower_bound) >= 0:
        n1 = max(n1, f32(lower_bound))
    if upper_bound is not None and float(upper_bound) >= 0:
        n1 = min(n1, f32(upper_bound))
    step = f32(lr) if n1 == 0 or n2 == 0 else f32(lr) * (n1 / n2)
    return w - step * g._data.astype(np.float32)


def lamb_update_phase2(weight: Tensor, g: Tensor, r1: Tensor, r2: Tensor, lr: float,
                       lower_bound: float = -1.0, upper_bound: float = -1.0, **_: Any) -> Tensor:
    """LAMB phase II: ``weight - lr * (r1 / r2) * g`` (the trust ratio is 1 where a norm is 0)."""
    return _out(weight, _lamb2(weight._data, g, r1, r2, lr, lower_bound, upper_bound))


def mp_lamb_update_phase2(weight: Tensor, g: Tensor, r1: Tensor, r2: Tensor, weight32: Tensor, lr: float,
                          lower_bound: float = -1.0, upper_bound: float = -1.0, **_: Any) -> Tensor:
    """LAMB phase II from the float32 master weight, returned in ``weight``'s dtype. MXNet 1.9.1 leaves
    ``weight32`` itself as it was (only the output is written), and so does this."""
    return _out(weight, _lamb2(weight32._data, g, r1, r2, lr, lower_bound, upper_bound))


def multi_sum_sq(*data: Tensor, num_arrays: int = 1, **_: Any) -> Tensor:
    """The sum of squares of each array, as a float32 vector of ``num_arrays`` values."""
    if len(data) != int(num_arrays):
        raise ValueError(f"multi_sum_sq: num_arrays is {num_arrays} but {len(data)} arrays were given")
    return Tensor(np.array([np.sum(np.square(d._data.astype(np.float32))) for d in data], np.float32))


def multi_lars(lrs: Tensor, weights_sum_sq: Tensor, grads_sum_sq: Tensor, wds: Tensor, eta: float, eps: float,
               rescale_grad: float = 1.0, **_: Any) -> Tensor:
    """LARS learning rates: ``lr * eta * |w| / (|g| * rescale_grad + wd * |w| + eps)`` where both norms are
    positive, else ``lr``."""
    w, g = np.sqrt(weights_sum_sq._data), np.sqrt(grads_sum_sq._data)
    lr = lrs._data
    with np.errstate(divide="ignore", invalid="ignore"):
        scaled = lr * f32(eta) * w / (g * f32(rescale_grad) + wds._data * w + f32(eps))
    return Tensor(np.where((w > 0) & (g > 0), scaled, lr).astype(lr.dtype))


def all_finite(data: Tensor, init_output: bool = True, **_: Any) -> Tensor:
    """``[1.0]`` when every value of ``data`` is finite, else ``[0.0]``."""
    return Tensor(np.array([float(np.isfinite(data._data).all())], np.float32))


def multi_all_finite(*data: Tensor, num_arrays: int = 1, init_output: bool = True, **_: Any) -> Tensor:
    """``[1.0]`` when every value of every array is finite, else ``[0.0]``."""
    return Tensor(np.array([float(all(np.isfinite(d._data).all() for d in data))], np.float32))


def reset_arrays(*data: Tensor, num_arrays: int = 1, **_: Any) -> list:
    """Sets every array to zero in place; returns nothing (an empty list, as MXNet)."""
    for d in data:
        d._data[...] = 0
    return []


UPDATE_RULES: dict[str, Callable[..., Any]] = {
    "signsgd_update": signsgd_update, "signum_update": signum_update, "ftrl_update": ftrl_update,
    "ftml_update": ftml_update, "rmspropalex_update": rmspropalex_update,
    "lamb_update_phase1": lamb_update_phase1, "lamb_update_phase2": lamb_update_phase2,
    "mp_lamb_update_phase1": mp_lamb_update_phase1, "mp_lamb_update_phase2": mp_lamb_update_phase2,
    "multi_sum_sq": multi_sum_sq, "multi_lars": multi_lars, "all_finite": all_finite,
    "multi_all_finite": multi_all_finite, "reset_arrays": reset_arrays,
}
