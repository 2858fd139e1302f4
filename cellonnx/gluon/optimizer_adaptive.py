"""MXNet 1.9's adaptive optimizers for gluon.Trainer and mx.optimizer, with its update formulas (the
rmsprop_update / rmspropalex_update / ftrl_update / ftml_update / lamb_update kernels and the Python-written
AdaGrad, AdaDelta, Adamax and Nadam), on NumPy arrays. ``clip`` is ``clip(x, -clip_gradient, clip_gradient)``;
lr and wd carry each parameter's multipliers; t counts the updates of each parameter.

    RMSProp:   g = clip(rescale_grad * grad + wd * w);  n = (1 - gamma1) * g^2 + gamma1 * n
               w -= lr * g / sqrt(n + epsilon)
    centered:  also m = (1 - gamma1) * g + gamma1 * m;  d = gamma2 * d - lr * g / sqrt(n - m^2 + epsilon)
               w += d
               (both then clip the weight to [-clip_weights, clip_weights])
    AdaGrad:   g = clip(rescale_grad * grad);  h += g^2;  w -= lr * (g / sqrt(h + eps) + wd * w)
    AdaDelta:  g = clip(rescale_grad * grad);  a = rho * a + (1 - rho) * g^2
               d = sqrt(b + epsilon) / sqrt(a + epsilon) * g;  b = rho * b + (1 - rho) * d^2;  w -= d + wd * w
    Ftrl:      g = clip(rescale_grad * grad);  z += g - (sqrt(n + g^2) - sqrt(n)) * w / lr;  n += g^2
               w = (sign(z) * lamda1 - z) / ((beta + sqrt(n)) / lr + wd) * (|z| > lamda1)
    FTML:      g = clip(rescale_grad * grad + wd * w);  v = beta2 * v + (1 - beta2) * g^2
               d_t = (1 - beta1^t) / lr * (sqrt(v / (1 - beta2^t)) + epsilon)
               z = beta1 * z + (1 - beta1) * g - (d_t - beta1 * d) * w;  d = d_t;  w = -z / d_t
    Adamax:    g = clip(rescale_grad * grad + wd * w);  m = beta1 * m + (1 - beta1) * g
               u = max(beta2 * u, |g|);  w -= lr / (1 - beta1^t) * m / u
    Nadam:     g = clip(rescale_grad * grad + wd * w);  mu_t = beta1 * (1 - 0.5 * 0.96^(t * schedule_decay))
               s *= mu_t (one product over every update of every parameter, as MXNet keeps it)
               m, v as Adam's;  m_bar = (1 - mu_t) * g / (1 - s) + mu_(t+1) * m / (1 - s * mu_(t+1))
               w -= lr * m_bar / (sqrt(v / (1 - beta2^t)) + epsilon)
    LAMB:      g = clip(rescale_grad * grad);  m, v as Adam's;  r = m_hat / (sqrt(v_hat) + epsilon) + wd * w
               (m_hat, v_hat bias-corrected with bias_correction);  r1 = |w| clamped to [lower_bound,
               upper_bound];  w -= lr * r1 / |r| * r  (lr alone when r1 or |r| is 0)
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.gluon.optimizer import Optimizer, _aggregation_size, register

__all__ = ["FTML", "LAMB", "AdaDelta", "AdaGrad", "Adamax", "Ftrl", "Nadam", "RMSProp", "Test"]


def _zeros32(weight: np.ndarray) -> np.ndarray:
    """A state MXNet creates with its default dtype (float32) whatever the weight's."""
    return np.zeros(weight.shape, np.float32)


def _single(opt: Optimizer, index: Any, weight: Any, grad: Any, state: Any) -> Any:
    """The list form of ``update``: one update per element (None for a single weight)."""
    if isinstance(index, (list, tuple)):
        return [opt.update(i, w, g, s) for i, w, g, s in zip(index, weight, grad, state)]
    return None


class _Rule(Optimizer):
    """An optimizer whose update is one formula per weight: ``update`` takes the list form too, counts the
    update, reads the parameter's lr and wd, and returns ``_rule(weight, grad, state, t, lr, wd, dt)`` (dt:
    the weight's scalar type) in the weight's dtype."""

    def update(self, index: Any, weight: Any, grad: Any, state: Any) -> Any:
        if isinstance(index, (list, tuple)):
            return [self.update(i, w, g, s) for i, w, g, s in zip(index, weight, grad, state)]
        t = self._update_count(index)
        lr, wd = self._get_lr(index), self._get_wd(index)
        return self._rule(weight, grad, state, t, lr, wd, weight.dtype.type).astype(weight.dtype, copy=False)

    def _rule(self, weight: np.ndarray, grad: np.ndarray, state: Any, t: int, lr: float, wd: float,
              dt: Any) -> np.ndarray:
        raise NotImplementedError(f"{type(self).__name__} must define _rule")


@register
class RMSProp(_Rule):
    """RMSProp: Tieleman & Hinton's, or with ``centered`` Graves's (see the module docstring).

    Args:
        learning_rate: Default: 0.001.
        gamma1: decay of the moving averages. Default: 0.9.
        gamma2: momentum of the centered version. Default: 0.9.
        epsilon: Default: 1e-8.
        centered: Default: False.
        clip_weights: clip the weights to [-clip_weights, clip_weights] after each update. Default: None.

    Examples:
        >>> from cellonnx.gluon import optimizer
        >>> rms = optimizer.create('rmsprop', learning_rate=0.1)
        >>> w = np.zeros(2, np.float32)
        >>> print(np.round(rms.update(0, w, np.ones(2, np.float32), rms.create_state(0, w)), 4))
        [-0.3162 -0.3162]
    """

    def __init__(self, learning_rate: float = 0.001, gamma1: float = 0.9, gamma2: float = 0.9,
                 epsilon: float = 1e-8, centered: bool = False, clip_weights: float | None = None,
                 **kwargs: Any) -> None:
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.gamma1 = gamma1
        self.gamma2 = gamma2
        self.centered = centered
        self.epsilon = epsilon
        self.clip_weights = clip_weights

    def create_state(self, index: Any, weight: np.ndarray) -> Any:
        if self.centered:
            return (_zeros32(weight), _zeros32(weight), _zeros32(weight))
        return (_zeros32(weight),)

    def _rule(self, weight: np.ndarray, grad: np.ndarray, state: Any, t: int, lr: float, wd: float,
              dt: Any) -> np.ndarray:
        g = self._clip(grad * dt(self.rescale_grad) + dt(wd) * weight)
        g1 = dt(self.gamma1)
        n = state[0]
        n[...] = (dt(1) - g1) * g * g + g1 * n
        if not self.centered:
            new = weight - dt(lr) * (g / np.sqrt(n + dt(self.epsilon)))
        else:
            _, mean, delta = state
            mean[...] = (dt(1) - g1) * g + g1 * mean
            delta[...] = dt(self.gamma2) * delta - dt(lr) * (g / np.sqrt(n - mean * mean + dt(self.epsilon)))
            new = weight + delta
        if self.clip_weights:
            new = np.clip(new, -self.clip_weights, self.clip_weights)
        return new


@register
class AdaGrad(_Rule):
    """AdaGrad (Duchi et al. 2011), MXNet's dense update (see the module docstring).

    Args:
        eps: added to the history under the square root. Default: 1e-7.

    Examples:
        >>> from cellonnx.gluon import optimizer
        >>> adagrad = optimizer.create('adagrad', learning_rate=0.1)
        >>> w = np.zeros(2, np.float32)
        >>> print(np.round(adagrad.update(0, w, np.full(2, 2.0, np.float32), adagrad.create_state(0, w)), 4))
        [-0.1 -0.1]
    """

    def __init__(self, eps: float = 1e-7, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.float_stable_eps = eps

    def create_state(self, index: Any, weight: np.ndarray) -> Any:
        return _zeros32(weight)

    def _rule(self, weight: np.ndarray, grad: np.ndarray, state: Any, t: int, lr: float, wd: float,
              dt: Any) -> np.ndarray:
        g = self._clip_py(grad * dt(self.rescale_grad))
        state[...] = state + g * g
        div = g / np.sqrt(state + dt(self.float_stable_eps))
        return weight + (div + weight * dt(wd)) * dt(-lr)


@register
class AdaDelta(_Rule):
    """AdaDelta (Zeiler 2012); the learning rate is not used (see the module docstring).

    Args:
        rho: decay of both averages. Default: 0.9.
        epsilon: Default: 1e-5.

    Examples:
        >>> from cellonnx.gluon import optimizer
        >>> adadelta = optimizer.create('adadelta')
        >>> w = np.zeros(2, np.float32)
        >>> print(np.round(adadelta.update(0, w, np.ones(2, np.float32), adadelta.create_state(0, w)), 5))
        [-0.01 -0.01]
    """

    def __init__(self, rho: float = 0.90, epsilon: float = 1e-5, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.rho = rho
        self.epsilon = epsilon

    def create_state(self, index: Any, weight: np.ndarray) -> Any:
        return (_zeros32(weight), _zeros32(weight))

    def _rule(self, weight: np.ndarray, grad: np.ndarray, state: Any, t: int, lr: float, wd: float,
              dt: Any) -> np.ndarray:
        g = self._clip_py(grad * dt(self.rescale_grad))
        acc_g, acc_delta = state
        rho, eps = dt(self.rho), dt(self.epsilon)
        acc_g[...] = acc_g * rho + dt(1.0 - self.rho) * g * g
        delta = np.sqrt(acc_delta + eps) / np.sqrt(acc_g + eps) * g
        acc_delta[...] = acc_delta * rho + dt(1.0 - self.rho) * delta * delta
        return weight - (delta + dt(wd) * weight)


@register
class Ftrl(_Rule):
    """FTRL-Proximal (McMahan et al. 2013), MXNet's ftrl_update (see the module docstring).

    Args:
        lamda1: L1 regularization. Default: 0.01.
        learning_rate: Default: 0.1.
        beta: Default: 1.

    Examples:
        >>> from cellonnx.gluon import optimizer
        >>> ftrl = optimizer.create('ftrl')
        >>> w = np.zeros(2, np.float32)
        >>> print(np.round(ftrl.update(0, w, np.ones(2, np.float32), ftrl.create_state(0, w)), 4))
        [-0.0495 -0.0495]
    """

    def __init__(self, lamda1: float = 0.01, learning_rate: float = 0.1, beta: float = 1,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.lamda1 = lamda1
        self.beta = beta
        self.lr = learning_rate

    def create_state(self, index: Any, weight: np.ndarray) -> Any:
        return (_zeros32(weight), _zeros32(weight))

    def _rule(self, weight: np.ndarray, grad: np.ndarray, state: Any, t: int, lr: float, wd: float,
              dt: Any) -> np.ndarray:
        g = self._clip(grad * dt(self.rescale_grad))
        z, n = state
        z[...] = z + g - (np.sqrt(n + g * g) - np.sqrt(n)) * weight / dt(lr)
        n[...] = n + g * g
        new = (np.sign(z) * dt(self.lamda1) - z) / ((dt(self.beta) + np.sqrt(n)) / dt(lr) + dt(wd)) \
            * (np.abs(z) > dt(self.lamda1))
        return new


@register
class FTML(_Rule):
    """FTML, Follow the Moving Leader (Zheng & Kwok 2017); the state is (d, v, z) (see the module docstring).

    Args:
        beta1: Default: 0.6.
        beta2: Default: 0.999.
        epsilon: Default: 1e-8.

    Examples:
        >>> from cellonnx.gluon import optimizer
        >>> ftml = optimizer.create('ftml', learning_rate=0.1)
        >>> w = np.zeros(2, np.float32)
        >>> print(np.round(ftml.update(0, w, np.ones(2, np.float32), ftml.create_state(0, w)), 4))
        [-0.1 -0.1]
    """

    def __init__(self, beta1: float = 0.6, beta2: float = 0.999, epsilon: float = 1e-8,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.beta1 = beta1
        self.beta2 = beta2
        self.epsilon = epsilon

    def create_state(self, index: Any, weight: np.ndarray) -> Any:
        return (np.zeros_like(weight), np.zeros_like(weight), np.zeros_like(weight))

    def _rule(self, weight: np.ndarray, grad: np.ndarray, state: Any, t: int, lr: float, wd: float,
              dt: Any) -> np.ndarray:
        g = self._clip(grad * dt(self.rescale_grad) + dt(wd) * weight)
        d, v, z = state
        b1, b2, one = dt(self.beta1), dt(self.beta2), dt(1)
        v[...] = b2 * v + (one - b2) * g * g
        d_t = (one - b1 ** dt(t)) / dt(lr) * (np.sqrt(v / (one - b2 ** dt(t))) + dt(self.epsilon))
        z[...] = b1 * z + (one - b1) * g - (d_t - b1 * d) * weight
        d[...] = d_t
        return -z / d_t


@register
class Adamax(_Rule):
    """AdaMax, Adam with the infinity norm (Kingma & Ba 2014, section 7) (see the module docstring).

    Args:
        learning_rate: Default: 0.002.
        beta1, beta2: Default: 0.9, 0.999.

    Examples:
        >>> from cellonnx.gluon import optimizer
        >>> adamax = optimizer.create('adamax')
        >>> w = np.zeros(2, np.float32)
        >>> print(np.round(adamax.update(0, w, np.ones(2, np.float32), adamax.create_state(0, w)), 4))
        [-0.002 -0.002]
    """

    def __init__(self, learning_rate: float = 0.002, beta1: float = 0.9, beta2: float = 0.999,
                 **kwargs: Any) -> None:
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.beta1 = beta1
        self.beta2 = beta2

    def create_state(self, index: Any, weight: np.ndarray) -> Any:
        return (np.zeros_like(weight), np.zeros_like(weight))

    def _rule(self, weight: np.ndarray, grad: np.ndarray, state: Any, t: int, lr: float, wd: float,
              dt: Any) -> np.ndarray:
        lr /= 1.0 - self.beta1 ** t
        g = self._clip_py(grad * dt(self.rescale_grad) + dt(wd) * weight)
        m, u = state
        m[...] = m * dt(self.beta1) + dt(1.0 - self.beta1) * g
        u[...] = np.maximum(dt(self.beta2) * u, np.abs(g))
        return weight - dt(lr) * m / u


@register
class Nadam(_Rule):
    """Nadam, Adam with Nesterov momentum (Dozat 2016), MXNet's (see the module docstring: the momentum
    schedule product is one number shared by all parameters).

    Args:
        learning_rate: Default: 0.001.
        beta1, beta2: Default: 0.9, 0.999.
        epsilon: Default: 1e-8.
        schedule_decay: Default: 0.004.

    Examples:
        >>> from cellonnx.gluon import optimizer
        >>> nadam = optimizer.create('nadam', learning_rate=0.1)
        >>> w = np.zeros(2, np.float32)
        >>> print(np.round(nadam.update(0, w, np.ones(2, np.float32), nadam.create_state(0, w)), 4))
        [-0.1056 -0.1056]
    """

    def __init__(self, learning_rate: float = 0.001, beta1: float = 0.9, beta2: float = 0.999,
                 epsilon: float = 1e-8, schedule_decay: float = 0.004, **kwargs: Any) -> None:
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.beta1 = beta1
        self.beta2 = beta2
        self.epsilon = epsilon
        self.schedule_decay = schedule_decay
        self.m_schedule = 1.0

    def _saved_attrs(self) -> dict[str, Any]:
        return {"m_schedule": self.m_schedule}

    def create_state(self, index: Any, weight: np.ndarray) -> Any:
        return (np.zeros_like(weight), np.zeros_like(weight))

    def _rule(self, weight: np.ndarray, grad: np.ndarray, state: Any, t: int, lr: float, wd: float,
              dt: Any) -> np.ndarray:
        g = self._clip_py(grad * dt(self.rescale_grad) + dt(wd) * weight)
        momentum_t = self.beta1 * (1.0 - 0.5 * pow(0.96, t * self.schedule_decay))
        momentum_t_1 = self.beta1 * (1.0 - 0.5 * pow(0.96, (t + 1) * self.schedule_decay))
        self.m_schedule = self.m_schedule * momentum_t
        m_schedule_next = self.m_schedule * momentum_t_1
        m, v = state
        m[...] = m * dt(self.beta1) + dt(1.0 - self.beta1) * g
        v[...] = v * dt(self.beta2) + dt(1.0 - self.beta2) * g * g
        g_prime = g / dt(1.0 - self.m_schedule)
        m_prime = m / dt(1.0 - m_schedule_next)
        v_prime = v / dt(1.0 - pow(self.beta2, t))
        m_bar = dt(1.0 - momentum_t) * g_prime + dt(momentum_t_1) * m_prime
        return weight - dt(lr) * m_bar / (np.sqrt(v_prime) + dt(self.epsilon))


@register
class LAMB(Optimizer):
    """LAMB, layer-wise adaptive moments (You et al. 2019), MXNet's lamb_update_phase1/2 (see the module
    docstring); with multi_precision the state is (float32 master copy, (mean, variance)).

    Args:
        learning_rate: Default: 0.001.
        beta1, beta2: Default: 0.9, 0.999.
        epsilon: Default: 1e-6.
        lower_bound, upper_bound: bounds of the weight norm in the trust ratio; None for none.
        bias_correction: Default: True.

    Examples:
        >>> from cellonnx.gluon import optimizer
        >>> lamb = optimizer.create('lamb', learning_rate=0.1)
        >>> w = np.full(4, 0.5, np.float32)
        >>> print(np.round(lamb.update(0, w, np.ones(4, np.float32), lamb.create_state(0, w)), 4))
        [0.45 0.45 0.45 0.45]
    """

    def __init__(self, learning_rate: float = 0.001, beta1: float = 0.9, beta2: float = 0.999,
                 epsilon: float = 1e-6, lower_bound: float | None = None, upper_bound: float | None = None,
                 bias_correction: bool = True, **kwargs: Any) -> None:
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.beta1 = beta1
        self.beta2 = beta2
        self.epsilon = epsilon
        self.lower_bound = lower_bound
        self.upper_bound = upper_bound
        self.bias_correction = bias_correction
        self.aggregate_num = max(1, min(45, _aggregation_size(45)))

    def create_state(self, index: Any, weight: np.ndarray) -> Any:
        return (np.zeros_like(weight), np.zeros_like(weight))

    def update(self, index: Any, weight: Any, grad: Any, state: Any) -> Any:
        return self._update_impl(index, weight, grad, state, False)

    def update_multi_precision(self, index: Any, weight: Any, grad: Any, state: Any) -> Any:
        first = weight[0] if isinstance(index, (list, tuple)) else weight
        multi_precision = self.multi_precision and first.dtype == np.float16
        return self._update_impl(index, weight, grad, state, multi_precision)

    def _update_impl(self, index: Any, weight: Any, grad: Any, state: Any, multi_precision: bool) -> Any:
        if isinstance(index, (list, tuple)):
            for i in index:  # every count first, then the learning rates (MXNet's grouped update)
                self._update_count(i)
            counts = [self._index_update_count[i] for i in index]
            lrs, wds = self._get_lrs(list(index)), self._get_wds(list(index))
            return [self._one(w, g, s, t, lr, wd, multi_precision)
                    for w, g, s, t, lr, wd in zip(weight, grad, state, counts, lrs, wds)]
        t = self._update_count(index)
        return self._one(weight, grad, state, t, self._get_lr(index), self._get_wd(index), multi_precision)

    def _one(self, weight: np.ndarray, grad: np.ndarray, state: Any, t: int, lr: float, wd: float,
             multi_precision: bool) -> np.ndarray:
        if multi_precision:
            master, (mean, var) = state
            w, grad = master, grad.astype(np.float32)
        else:
            mean, var = state
            w = weight
        dt = w.dtype.type
        g = self._clip(grad * dt(self.rescale_grad))
        b1, b2, one = dt(self.beta1), dt(self.beta2), dt(1)
        mean[...] = b1 * mean + (one - b1) * g
        var[...] = b2 * var + (one - b2) * g * g
        if self.bias_correction:
            r = (mean / (one - b1 ** dt(t))) / (np.sqrt(var / (one - b2 ** dt(t))) + dt(self.epsilon))
        else:
            r = mean / (np.sqrt(var) + dt(self.epsilon))
        r = r + dt(wd) * w
        r1 = float(np.sqrt(np.sum(np.square(w, dtype=np.float32), dtype=np.float32)))
        r2 = float(np.sqrt(np.sum(np.square(r, dtype=np.float32), dtype=np.float32)))
        if self.lower_bound:
            r1 = max(r1, self.lower_bound)
        if self.upper_bound:
            r1 = min(r1, self.upper_bound)
        step = lr if r1 == 0.0 or r2 == 0.0 else lr * (r1 / r2)
        new = (w - dt(step) * r).astype(w.dtype, copy=False)
        if multi_precision:
            master[...] = new
            return master.astype(weight.dtype)
        return new


@register
class Test(Optimizer):
    """MXNet's test optimizer: ``w += rescale_grad * grad`` and the state holds a copy of the new weight.

    Examples:
        >>> from cellonnx.gluon import optimizer
        >>> opt = optimizer.create('test')
        >>> print(opt.update(0, np.zeros(2, np.float32), np.ones(2, np.float32), np.zeros(2, np.float32)))
        [1. 1.]
    """

    def create_state(self, index: Any, weight: np.ndarray) -> Any:
        return _zeros32(weight)

    def update(self, index: Any, weight: Any, grad: Any, state: Any) -> Any:
        if (many := _single(self, index, weight, grad, state)) is not None:
            return many
        new = (weight + grad * weight.dtype.type(self.rescale_grad)).astype(weight.dtype, copy=False)
        state[...] = new
        return new
