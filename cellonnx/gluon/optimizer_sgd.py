"""MXNet 1.9's SGD-family optimizers for gluon.Trainer and mx.optimizer, with its update formulas (the
nag_mom_update / signum_update / multi_lars kernels and the Python-written DCASGD, SGLD and LBSGD), on NumPy
arrays. ``g = clip(rescale_grad * grad, clip_gradient)`` below; lr and wd carry each parameter's multipliers.

    NAG:    w' = w + momentum * (momentum * m - lr * (g + wd * w)) - lr * (g + wd * w)
            m = momentum * m - lr * (g + wd * w')  (MXNet's kernel reads the weight it has just updated)
    Signum: m = momentum * m - (1 - momentum) * (g + wd * w);  w = (1 - lr * wd_lh) * w + lr * sign(m)
            (signSGD, without momentum: w = (1 - lr * wd) * w - lr * sign(g); MXNet refuses wd_lh there)
    LARS:   SGD with lr * eta * |w| / (|g_rescaled| + wd * |w| + eps) for weights (names not ending in
            gamma/beta/bias), computed per group of ``aggregate_num`` weights as Trainer passes them, and a
            momentum scaled by lr_t / lr_(t-1) (momentum_correction)
    DCASGD: d = -lr * (g + wd * w + lamda * g^2 * (w - w_prev));  m = momentum * m + d (or d);  w_prev = w;
            w += m
    SGLD:   w -= lr / 2 * (g + wd * w);  w += N(0, sqrt(lr)) noise (cellonnx's seeded generator)
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from cellonnx.gluon.optimizer import SGD, Optimizer, _aggregation_size, _MasterSecond, register
from cellonnx.ops.prims.random import generator

__all__ = ["DCASGD", "LARS", "LBSGD", "NAG", "SGLD", "Signum", "ccSGD"]


def _sgd_step(opt: Optimizer, weight: np.ndarray, grad: np.ndarray, state: Any, lr: float, wd: float,
              momentum: float) -> np.ndarray:
    """MXNet's sgd_update / sgd_mom_update kernels (state updated in place)."""
    dt = weight.dtype.type
    g = opt._clip(grad * dt(opt.rescale_grad)) + dt(wd) * weight
    if state is None:
        return (weight - dt(lr) * g).astype(weight.dtype, copy=False)
    state[...] = dt(momentum) * state - dt(lr) * g
    return (weight + state).astype(weight.dtype, copy=False)


@register
class NAG(_MasterSecond, Optimizer):
    """Nesterov accelerated gradient (MXNet's nag_mom_update; plain SGD without momentum).

    Args:
        momentum: Default: 0.0.
        **kwargs: those of ``Optimizer`` (learning_rate 0.01, wd, clip_gradient, multi_precision...).

    Examples:
        >>> from cellonnx.gluon import optimizer
        >>> nag = optimizer.create('nag', learning_rate=0.1, momentum=0.9)
        >>> w = np.ones(2, np.float32)
        >>> state = nag.create_state(0, w)
        >>> print(nag.update(0, w, np.ones(2, np.float32), state))
        [0.81 0.81]
    """

    def __init__(self, momentum: float = 0.0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.momentum = momentum

    def create_state(self, index: Any, weight: np.ndarray) -> Any:
        return np.zeros_like(weight) if self.momentum != 0.0 else None

    def update(self, index: Any, weight: Any, grad: Any, state: Any) -> Any:
        if isinstance(index, (list, tuple)):
            return super().update(index, weight, grad, state)
        self._update_count(index)
        lr, wd = self._get_lr(index), self._get_wd(index)
        if state is None:
            return _sgd_step(self, weight, grad, None, lr, wd, 0.0)
        dt = weight.dtype.type
        mu, clipped = dt(self.momentum), self._clip(grad * dt(self.rescale_grad))
        g = clipped + dt(wd) * weight
        new = (weight + mu * (mu * state - dt(lr) * g) - dt(lr) * g).astype(weight.dtype, copy=False)
        # MXNet updates the weight in place first, and its momentum then reads the new weight's decay
        state[...] = mu * state - dt(lr) * (clipped + dt(wd) * new)
        return new


@register
class Signum(Optimizer):
    """signSGD and Signum: steps of the learning rate along the sign of the gradient or of its momentum
    (MXNet's signsgd_update / signum_update; the state holds the negated momentum, as MXNet's does).

    Args:
        learning_rate: Default: 0.01.
        momentum: Default: 0.9 (0 for signSGD).
        wd_lh: decoupled weight decay: the weight shrinks by ``lr * wd_lh`` each step. Default: 0.0.

    Examples:
        >>> from cellonnx.gluon import optimizer
        >>> signum = optimizer.create('signum', learning_rate=0.1)
        >>> w = np.zeros(3, np.float32)
        >>> print(signum.update(0, w, np.array([2.0, -0.5, 1.0], np.float32), signum.create_state(0, w)))
        [-0.1  0.1 -0.1]
    """

    def __init__(self, learning_rate: float = 0.01, momentum: float = 0.9, wd_lh: float = 0.0,
                 **kwargs: Any) -> None:
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.momentum = momentum
        self.wd_lh = wd_lh

    def create_state(self, index: Any, weight: np.ndarray) -> Any:
        return np.zeros_like(weight) if self.momentum != 0.0 else None

    def update(self, index: Any, weight: Any, grad: Any, state: Any) -> Any:
        if isinstance(index, (list, tuple)):
            return super().update(index, weight, grad, state)
        self._update_count(index)
        lr, wd = self._get_lr(index), self._get_wd(index)
        dt = weight.dtype.type
        g = self._clip(grad * dt(self.rescale_grad))
        if state is None:
            if self.wd_lh:
                raise ValueError(f"Signum: wd_lh={self.wd_lh} needs momentum (MXNet's signsgd_update, used "
                                 "without momentum, has no wd_lh)")
            return (dt(1.0 - lr * wd) * weight - dt(lr) * np.sign(g)).astype(weight.dtype, copy=False)
        g = g + dt(wd) * weight
        decay = dt(1.0 - lr * self.wd_lh)
        state[...] = dt(self.momentum) * state - (dt(1) - dt(self.momentum)) * g
        return (decay * weight + dt(lr) * np.sign(state)).astype(weight.dtype, copy=False)


@register
class LARS(_MasterSecond, Optimizer):
    """LARS (layer-wise adaptive rate scaling, You et al. 2017) over SGD with momentum, as MXNet 1.9 runs it
    from gluon.Trainer: weights are updated in groups of ``aggregate_num`` (4, or
    ``MXNET_OPTIMIZER_AGGREGATION_SIZE``), each weight's learning rate scaled by
    ``eta * |w| / (|g| + wd * |w| + eps)`` (unless its name, from param_idx2name or the index, ends in
    gamma, beta or bias, or a norm is 0), and with ``momentum_correction`` the momentum of a group scaled by
    the ratio of the scheduled learning rate to the one of the previous group.

    Args:
        momentum: Default: 0.0.
        lazy_update: accepted; a row-sparse gradient updates the whole weight here (see update_rows).
            Default: True.
        eta: the LARS coefficient. Default: 0.001.
        eps: added to the denominator. Default: 0.
        momentum_correction: Default: True.

    Examples:
        >>> from cellonnx.gluon import optimizer
        >>> lars = optimizer.create('lars', learning_rate=0.1, eta=0.5)
        >>> w = np.full(4, 2.0, np.float32)
        >>> print(lars.update(0, w, np.ones(4, np.float32), None))
        [1.9 1.9 1.9 1.9]
    """

    def __init__(self, momentum: float = 0.0, lazy_update: bool = True, eta: float = 0.001, eps: float = 0,
                 momentum_correction: bool = True, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.momentum = momentum
        self.momentum_correction = momentum_correction
        self.lazy_update = lazy_update
        self.aggregate_num = _aggregation_size(4)
        self.eta = eta
        self.eps = eps
        self.skip = 0
        self.last_lr: float | None = None
        self.cur_lr: float | None = None

    @staticmethod
    def _decays(name: str) -> bool:
        return name.endswith("_weight")

    def _saved_attrs(self) -> dict[str, Any]:
        return {"last_lr": self.last_lr, "cur_lr": self.cur_lr}

    def _get_lrs(self, indices: list) -> list[float]:
        if self.cur_lr is not None:
            self.last_lr = self.cur_lr
        lr = self._scheduled_lr()
        if self.cur_lr is None:
            self.last_lr = lr
        self.cur_lr = lr
        return super()._get_lrs(indices)

    def create_state(self, index: Any, weight: np.ndarray) -> Any:
        return np.zeros_like(weight) if self.momentum != 0.0 else None

    def _name(self, index: Any) -> str:
        return self.idx2name[index] if index in self.idx2name else str(index)

    def _lars_lr(self, index: Any, weight: np.ndarray, grad: np.ndarray, lr: float, wd: float,
                 grouped: bool) -> float:
        if self._name(index).endswith(("gamma", "beta", "bias")):
            return lr
        # grouped (multi_sum_sq): squares in the weight's dtype summed in float32; alone: cast first
        w_norm, g_norm = (math.sqrt(float(_sum_sq(a, grouped))) for a in (weight, grad))
        g_norm *= self.rescale_grad
        if w_norm > 0.0 and g_norm > 0.0:
            return float(np.float32(lr * self.eta * w_norm / (g_norm + wd * w_norm + self.eps)))
        return lr

    def update(self, index: Any, weight: Any, grad: Any, state: Any) -> Any:
        return self._update_group(index, weight, grad, state, False)

    def update_rows(self, index: Any, weight: np.ndarray, rows: np.ndarray, grad: np.ndarray,
                    state: Any) -> np.ndarray:
        """A row-sparse gradient updates the whole weight: LARS's ratio takes the norm of all of it, so its
        update is not row by row (MXNet's lazy update of the rows would use that whole-weight ratio too)."""
        dense = np.zeros(weight.shape, weight.dtype)
        np.add.at(dense, rows, grad)
        return self.update_multi_precision(index, weight, dense, state)

    def update_multi_precision(self, index: Any, weight: Any, grad: Any, state: Any) -> Any:
        first = weight[0] if isinstance(index, (list, tuple)) else weight
        return self._update_group(index, weight, grad, state,
                                  self.multi_precision and first.dtype == np.float16)

    def _update_group(self, index: Any, weight: Any, grad: Any, state: Any, multi_precision: bool) -> Any:
        single = not isinstance(index, (list, tuple))
        indices, weights, grads, states = ([index], [weight], [grad], [state]) if single else \
            (list(index), list(weight), list(grad), list(state))
        self._update_count(indices)
        lrs, wds = self._get_lrs(indices), self._get_wds(indices)
        momentum = self.momentum
        if self.momentum > 0 and self.momentum_correction and self.last_lr != 0:
            momentum = self.momentum * (self.cur_lr / self.last_lr)  # type: ignore[operator]
        out = []
        for i, w, g, s, lr, wd in zip(indices, weights, grads, states, lrs, wds):
            lr = self._lars_lr(i, w, g, lr, wd, not single)
            if multi_precision:
                inner, master = s
                master[...] = _sgd_step(self, master, g.astype(np.float32), inner, lr, wd, momentum)
                out.append(master.astype(w.dtype))
            else:
                out.append(_sgd_step(self, w, g, s, lr, wd, momentum))
        return out[0] if single else out


def _sum_sq(a: np.ndarray, grouped: bool) -> np.float32:
    squares = np.square(a).astype(np.float32) if grouped else np.square(a.astype(np.float32))
    return np.sum(squares, dtype=np.float32)


@register
class LBSGD(Optimizer):
    """Large-batch SGD (MXNet's LBSGD): gradients accumulate over ``batch_scale`` calls, and every
    ``batch_scale``-th call takes an SGD step with the learning rate multiplied by a warm-up factor
    ('linear', 'power2', 'sqrt' over ``warmup_epochs * updates_per_epoch`` updates) or by the LARS ratio
    ``sqrt(|w|^2 / (|g|^2 + wd |w|^2))`` clipped to [0.01, 100] ('lars'); the other calls apply weight decay
    only (an SGD step of learning rate 0).

    Args:
        momentum: Default: 0.0.
        multi_precision: Default: False.
        warmup_strategy: 'linear', 'power2', 'sqrt' or 'lars'. Default: 'linear'.
        warmup_epochs, batch_scale, updates_per_epoch, begin_epoch, num_epochs: Default: 5, 1, 32, 0, 60.

    Examples:
        >>> from cellonnx.gluon import optimizer
        >>> lbsgd = optimizer.create('lbsgd', learning_rate=0.1, batch_scale=2, warmup_epochs=0)
        >>> w = np.ones(2, np.float32)
        >>> w = lbsgd.update(0, w, np.ones(2, np.float32), None)      # accumulated
        >>> print(lbsgd.update(0, w, np.ones(2, np.float32), None))   # stepped: lr * 2 * mean gradient
        [0.8 0.8]
    """

    def __init__(self, momentum: float = 0.0, multi_precision: bool = False, warmup_strategy: str = "linear",
                 warmup_epochs: int = 5, batch_scale: int = 1, updates_per_epoch: int = 32,
                 begin_epoch: int = 0, num_epochs: int = 60, **kwargs: Any) -> None:
        super().__init__(multi_precision=multi_precision, **kwargs)
        self.momentum = momentum
        self.warmup_strategy = warmup_strategy
        self.warmup_epochs = warmup_epochs
        self.batch_scale = batch_scale
        self.updates_per_epoch = updates_per_epoch
        self.init_updates = begin_epoch * updates_per_epoch
        self.num_epochs = num_epochs
        self.lbmult = 1
        self.cumgrads: dict[Any, dict[str, Any]] = {}
        self.adaptive = False
        self.admult = 1

    def create_state(self, index: Any, weight: np.ndarray) -> Any:
        if self.multi_precision and weight.dtype == np.float16:
            master = weight.astype(np.float32)
            return (np.zeros_like(master) if self.momentum != 0.0 else None, master)
        return np.zeros_like(weight) if self.momentum != 0.0 else None

    def create_state_multi_precision(self, index: Any, weight: np.ndarray) -> Any:
        return self.create_state(index, weight)

    def update_multi_precision(self, index: Any, weight: Any, grad: Any, state: Any) -> Any:
        if isinstance(index, (list, tuple)):
            return [self.update(i, w, g, s) for i, w, g, s in zip(index, weight, grad, state)]
        return self.update(index, weight, grad, state)

    def _get_lbmult(self, nup: int) -> float:
        nwup = self.warmup_epochs * self.updates_per_epoch
        maxmult = float(self.batch_scale)
        if nup >= nwup:
            return maxmult
        if nwup <= 1:
            return 1.0
        if self.warmup_strategy == "linear":
            return 1.0 + (maxmult - 1) * nup / nwup
        if self.warmup_strategy == "power2":
            return 1.0 + (maxmult - 1) * (nup * nup) / (nwup * nwup)
        if self.warmup_strategy == "sqrt":
            return 1.0 + (maxmult - 1) * math.sqrt(float(nup) / nwup)
        return 1.0

    def _get_lars(self, weight: np.ndarray, g: np.ndarray, wd: float) -> float:
        weight2 = float(np.sum(weight * weight))
        grad2 = float(np.sum(g * g))
        return min(max(math.sqrt(weight2 / (grad2 + wd * weight2 + 1e-18)), 0.01), 100.0)

    def update(self, index: Any, weight: Any, grad: Any, state: Any) -> Any:
        if isinstance(index, (list, tuple)):
            return super().update(index, weight, grad, state)
        lr, wd = self._get_lr(index), self._get_wd(index)  # read before counting, as MXNet's LBSGD does
        self._update_count(index)
        cgrad = self.cumgrads.get(index)
        if cgrad and cgrad["num_cums"] > 0:
            cgrad = {"cum_grad": cgrad["cum_grad"] + grad, "num_cums": cgrad["num_cums"] + 1}
        else:
            cgrad = {"cum_grad": grad, "num_cums": self.init_updates + 1}
        self.cumgrads[index] = cgrad
        if cgrad["num_cums"] % self.batch_scale != 0:
            return weight.copy()  # MXNet's SGD step of learning rate 0
        grad = (cgrad["cum_grad"] / self.batch_scale).astype(weight.dtype, copy=False)
        if self.warmup_strategy == "lars":
            lr *= self._get_lars(weight, grad, wd)
        else:
            lr *= self._get_lbmult(cgrad["num_cums"])
        if isinstance(state, (list, tuple)):
            inner, master = state
            master[...] = _sgd_step(self, master, grad.astype(np.float32), inner, lr, wd, self.momentum)
            new = master.astype(weight.dtype)
        else:
            new = _sgd_step(self, weight, grad, state, lr, wd, self.momentum)
        self.cumgrads[index]["cum_grad"] = 0
        return new


@register
class DCASGD(Optimizer):
    """Delay-compensated asynchronous SGD (Zheng et al. 2016), MXNet's: the state is (momentum or None, the
    previous weight). With a momentum, MXNet 1.9.1's own update fails on any weight of more than one element
    (it tests the momentum array's truth value); here the momentum is applied as its code intends.

    Args:
        momentum: Default: 0.0.
        lamda: the scale of the delay compensation. Default: 0.04.

    Examples:
        >>> from cellonnx.gluon import optimizer
        >>> dcasgd = optimizer.create('dcasgd', learning_rate=0.1)
        >>> w = np.ones(2, np.float32)
        >>> print(dcasgd.update(0, w, np.ones(2, np.float32), dcasgd.create_state(0, w)))
        [0.9 0.9]
    """

    def __init__(self, momentum: float = 0.0, lamda: float = 0.04, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.momentum = momentum
        self.weight_previous: dict = {}
        self.lamda = lamda

    def create_state(self, index: Any, weight: np.ndarray) -> Any:
        return (np.zeros_like(weight) if self.momentum != 0.0 else None, weight.copy())

    def update(self, index: Any, weight: Any, grad: Any, state: Any) -> Any:
        if isinstance(index, (list, tuple)):
            return super().update(index, weight, grad, state)
        self._update_count(index)
        lr, wd = self._get_lr(index), self._get_wd(index)
        dt = weight.dtype.type
        g = self._clip_py(grad * dt(self.rescale_grad))
        mom, previous = state
        step = dt(-lr) * (g + dt(wd) * weight + dt(self.lamda) * g * g * (weight - previous))
        if mom is not None:
            mom[...] = mom * dt(self.momentum) + step
            step = mom
        previous[...] = weight
        return (weight + step).astype(weight.dtype, copy=False)


@register
class SGLD(Optimizer):
    """Stochastic gradient Langevin dynamics: half an SGD step plus Gaussian noise of variance lr, drawn
    from cellonnx's generator (seeded by ``mx.random.seed``); MXNet's own draws cannot be reproduced.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> mx.random.seed(0)
        >>> sgld = mx.optimizer.create('sgld', learning_rate=0.01)
        >>> sgld.update(0, np.zeros(3, np.float32), np.ones(3, np.float32), None).shape
        (3,)
    """

    def create_state(self, index: Any, weight: np.ndarray) -> Any:
        return None

    def update(self, index: Any, weight: Any, grad: Any, state: Any) -> Any:
        if isinstance(index, (list, tuple)):
            return super().update(index, weight, grad, state)
        self._update_count(index)
        lr, wd = self._get_lr(index), self._get_wd(index)
        dt = weight.dtype.type
        g = self._clip_py(grad * dt(self.rescale_grad))
        new = weight - dt(lr / 2) * (g + dt(wd) * weight)
        return (new + _noise(weight.shape, math.sqrt(lr), weight.dtype)).astype(weight.dtype, copy=False)


def _noise(shape: tuple, std: float, dtype: Any) -> np.ndarray:
    """SGLD's Gaussian noise, from cellonnx's global generator."""
    return generator("sgld").normal(0.0, std, shape).astype(dtype)


@register
class ccSGD(SGD):
    """Deprecated in MXNet: the same as ``SGD``.

    Examples:
        >>> from cellonnx.gluon import optimizer
        >>> type(optimizer.create('ccsgd')).__mro__[1].__name__
        'SGD'
    """
