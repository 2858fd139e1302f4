"""Adam (with Nesterov and AMSGrad variants) and AdamWeightDecay, with MindSpore's kernel formulas."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import ops
from cellonnx.nn.optim.optimizer import Optimizer, assign, opt_init_args_register, update_param, writable
from cellonnx.tensor import Parameter

__all__ = ["Adam", "AdamWeightDecay"]

_F32 = np.float32


def _check_param_value(beta1: Any, beta2: Any, eps: Any, name: str) -> None:
    for key, v in (("beta1", beta1), ("beta2", beta2), ("eps", eps)):
        if not isinstance(v, float):
            raise TypeError(f"For '{name}', '{key}' must be a float, got {type(v).__name__}")
    for key, v in (("beta1", beta1), ("beta2", beta2)):
        if not 0.0 < v < 1.0:
            raise ValueError(f"For '{name}', '{key}' must be in (0.0, 1.0), got {v}")
    if eps <= 0.0:
        raise ValueError(f"For '{name}', 'eps' must be > 0, got {eps}")


def _moments(p: Parameter, g: Any, m1: Parameter, m2: Parameter, c1: Any, c2: Any) -> tuple:
    """Adam's moments in ops, in the kernel's order: m += (g - m)(1 - b1), v += (g*g - v)(1 - b2); both
    assigned. Returns (m, v, g in p's dtype)."""
    g = ops.cast(g, p.dtype)
    m = ops.add(m1, ops.mul(ops.sub(g, m1), ops.cast(c1, p.dtype)))
    v = ops.add(m2, ops.mul(ops.sub(ops.mul(g, g), m2), ops.cast(c2, p.dtype)))
    assign(m1, m)
    assign(m2, v)
    return m, v, g


class Adam(Optimizer):
    r"""Adaptive Moment Estimation.

    .. math::
        \begin{array}{l}
            m_{t} = m_{t-1} + (g - m_{t-1})(1 - \beta_1) \\
            v_{t} = v_{t-1} + (g^2 - v_{t-1})(1 - \beta_2) \\
            l = lr \sqrt{1-\beta_2^t} / (1-\beta_1^t) \\
            w_{t} = w_{t-1} - l\, m_{t} / (\sqrt{v_{t}} + \epsilon)
        \end{array}

    ``use_nesterov`` replaces :math:`m_t` in the last line by :math:`\beta_1 m_t + (1-\beta_1) g`;
    ``use_amsgrad`` divides by :math:`\sqrt{\hat v_t} + \epsilon` with :math:`\hat v_t = \max(\hat v_{t-1},
    v_t)`. Note epsilon is added to :math:`\sqrt{v_t}`, not to the bias-corrected one. Weight decay (L2, added to
    the gradient) and the loss scale are handled by :class:`Optimizer`.

    Args:
        params (Union[list[Parameter], list[dict]]): parameters or parameter groups.
        learning_rate: Default: ``1e-3``.
        beta1 (float): Default: ``0.9``.
        beta2 (float): Default: ``0.999``.
        eps (float): Default: ``1e-8``.
        use_locking (bool): accepted for compatibility (updates are never concurrent here). Default: ``False``.
        use_nesterov (bool): Default: ``False``.
        weight_decay (Union[float, int, Cell]): Default: ``0.0``.
        loss_scale (float): Default: ``1.0``.
        use_amsgrad (bool): Default: ``False``.
        kwargs: ``use_lazy`` / ``use_offload`` (bool): MindSpore's sparse / host-offload variants; with dense
            gradients both compute plain Adam, which is what runs here.

    Examples:
        >>> net = nn.Dense(3, 2)
        >>> opt = nn.Adam(net.trainable_params(), learning_rate=1e-3)
        >>> loss_fn = nn.MSELoss()
        >>> grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)
        >>> loss, grads = grad_fn(Tensor(np.ones((4, 3), np.float32)), Tensor(np.zeros((4, 2), np.float32)))
        >>> _ = opt(grads)  # one update of net.weight and net.bias
    """

    @opt_init_args_register
    def __init__(self, params: Any, learning_rate: Any = 1e-3, beta1: float = 0.9, beta2: float = 0.999,
                 eps: float = 1e-8, use_locking: bool = False, use_nesterov: bool = False, weight_decay: Any = 0.0,
                 loss_scale: float = 1.0, use_amsgrad: bool = False, **kwargs: Any) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        bad = set(kwargs) - {"use_lazy", "use_offload"}
        if bad:
            raise KeyError(f"For 'Adam', the only extra keywords are 'use_lazy' and 'use_offload', got {sorted(bad)}")
        use_lazy, use_offload = kwargs.get("use_lazy", False), kwargs.get("use_offload", False)
        _check_param_value(beta1, beta2, eps, "Adam")
        for key, v in (("use_locking", use_locking), ("use_nesterov", use_nesterov), ("use_amsgrad", use_amsgrad),
                       ("use_lazy", use_lazy), ("use_offload", use_offload)):
            if not isinstance(v, bool):
                raise TypeError(f"For 'Adam', '{key}' must be a bool, got {type(v).__name__}")
        if use_lazy and use_offload:
            raise ValueError("For 'Adam', 'use_lazy' and 'use_offload' can not both be True")
        if use_amsgrad and (use_lazy or use_offload):
            raise ValueError("For 'Adam', 'use_amsgrad' can not be combined with 'use_lazy' or 'use_offload'")
        self.beta1 = _F32(beta1)
        self.beta2 = _F32(beta2)
        self.beta1_power = Parameter(np.asarray(1.0, _F32), name="beta1_power", requires_grad=False)
        self.beta2_power = Parameter(np.asarray(1.0, _F32), name="beta2_power", requires_grad=False)
        self.eps = _F32(eps)
        self.use_nesterov = use_nesterov
        self.use_locking = use_locking
        self.use_amsgrad = use_amsgrad
        self.use_lazy = use_lazy
        self.use_offload = use_offload
        self.moment1 = self.parameters.clone(prefix="moment1", init="zeros")
        self.moment2 = self.parameters.clone(prefix="moment2", init="zeros")
        if use_amsgrad:
            self.vhat = self.parameters.clone(prefix="vhat", init="zeros")

    def construct(self, gradients: Any) -> bool:
        grads, lrs = self._prepared(gradients)
        b1p = self.beta1_power.asnumpy() * self.beta1
        b2p = self.beta2_power.asnumpy() * self.beta2
        update_param(self.beta1_power, b1p)
        update_param(self.beta2_power, b2p)
        one = _F32(1.0)
        c1, c2 = one - self.beta1, one - self.beta2
        corr = np.sqrt(one - _F32(b2p)) / (one - _F32(b1p))
        vhats = self.vhat if self.use_amsgrad else [None] * self.param_length
        for p, g, lr, m1, m2, vh in zip(self.parameters, grads, lrs, self.moment1, self.moment2, vhats):
            w, m, v = writable(p), writable(m1), writable(m2)
            dt = w.dtype
            g = g.astype(dt, copy=False)
            t = np.subtract(g, m)                     # m += (g - m)(1 - b1), in place, kernel's order
            t *= c1.astype(dt)
            m += t
            np.multiply(g, g, out=t)                  # v += (g*g - v)(1 - b2)
            t -= v
            t *= c2.astype(dt)
            v += t
            if vh is not None:
                vmax = writable(vh)
                np.maximum(vmax, v, out=vmax)
                vh.mark_updated()
                np.sqrt(vmax, out=t)
            else:
                np.sqrt(v, out=t)
            t += self.eps.astype(dt)
            if self.use_nesterov:
                np.divide(m * self.beta1.astype(dt) + c1.astype(dt) * g, t, out=t)
            else:
                np.divide(m, t, out=t)
            t *= (lr * corr).astype(dt)
            w -= t
            for q in (p, m1, m2):
                q.mark_updated()
        return True

    def _construct_traced(self, gradients: Any) -> bool:
        """The update above in ops, for a compiled training step."""
        grads, lrs = self._prepared_tensors(gradients)
        b1p = ops.mul(self.beta1_power, self.beta1)
        b2p = ops.mul(self.beta2_power, self.beta2)
        assign(self.beta1_power, b1p)
        assign(self.beta2_power, b2p)
        one = _F32(1.0)
        c1, c2 = one - self.beta1, one - self.beta2
        corr = ops.div(ops.sqrt(ops.sub(one, b2p)), ops.sub(one, b1p))
        vhats = self.vhat if self.use_amsgrad else [None] * self.param_length
        for p, g, lr, m1, m2, vh in zip(self.parameters, grads, lrs, self.moment1, self.moment2, vhats):
            m, v, t = _moments(p, g, m1, m2, c1, c2)
            if vh is not None:
                v = ops.maximum(vh, v)
                assign(vh, v)
            t = ops.add(ops.sqrt(v), ops.cast(self.eps, p.dtype))
            if self.use_nesterov:
                num = ops.add(ops.mul(m, ops.cast(self.beta1, p.dtype)), ops.mul(ops.cast(c1, p.dtype), g))
                t = ops.div(num, t)
            else:
                t = ops.div(m, t)
            t = ops.mul(t, ops.cast(ops.mul(lr, corr), p.dtype))
            assign(p, ops.sub(p, t))
        return True


class AdamWeightDecay(Optimizer):
    r"""Adam with decoupled weight decay and no bias correction (MindSpore's AdamWeightDecay kernel).

    .. math::
        \begin{array}{l}
            m_{t} = m_{t-1} + (g - m_{t-1})(1 - \beta_1) \\
            v_{t} = v_{t-1} + (g^2 - v_{t-1})(1 - \beta_2) \\
            w_{t} = w_{t-1} - lr\,(m_{t} / (\sqrt{v_{t}} + \epsilon) + \lambda w_{t-1})
        \end{array}

    :math:`\lambda` applies to the parameters chosen as in :class:`Optimizer` (no 'beta'/'gamma' in the name
    without groups). There is no ``loss_scale`` argument, as in MindSpore.

    Args:
        params (Union[list[Parameter], list[dict]]): parameters or parameter groups.
        learning_rate: Default: ``1e-3``.
        beta1 (float): Default: ``0.9``.
        beta2 (float): Default: ``0.999``.
        eps (float): Default: ``1e-6``.
        weight_decay (Union[float, int, Cell]): Default: ``0.0``.

    Examples:
        >>> net = nn.Dense(3, 2)
        >>> opt = nn.AdamWeightDecay(net.trainable_params(), learning_rate=1e-3, weight_decay=0.01)
        >>> loss_fn = nn.MSELoss()
        >>> grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)
        >>> loss, grads = grad_fn(Tensor(np.ones((4, 3), np.float32)), Tensor(np.zeros((4, 2), np.float32)))
        >>> _ = opt(grads)  # one update of net.weight and net.bias
    """

    _support_parallel_optimizer = True

    @opt_init_args_register
    def __init__(self, params: Any, learning_rate: Any = 1e-3, beta1: float = 0.9, beta2: float = 0.999,
                 eps: float = 1e-6, weight_decay: Any = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay)
        _check_param_value(beta1, beta2, eps, "AdamWeightDecay")
        self.beta1 = _F32(beta1)
        self.beta2 = _F32(beta2)
        self.eps = _F32(eps)
        self.moments1 = self.parameters.clone(prefix="adam_m", init="zeros")
        self.moments2 = self.parameters.clone(prefix="adam_v", init="zeros")

    def construct(self, gradients: Any) -> bool:
        grads = self._check_gradients(gradients)
        wds = self._weight_decays_np()
        lrs = self._lrs_np()
        self._advance()
        one = _F32(1.0)
        c1, c2 = one - self.beta1, one - self.beta2
        for p, g, lr, wd, m1, m2 in zip(self.parameters, grads, lrs, wds, self.moments1, self.moments2):
            w, m, v = writable(p), writable(m1), writable(m2)
            dt = w.dtype
            g = g.astype(dt, copy=False)
            t = np.subtract(g, m)                     # m += (g - m)(1 - b1)
            t *= c1.astype(dt)
            m += t
            np.multiply(g, g, out=t)                  # v += (g*g - v)(1 - b2)
            t -= v
            t *= c2.astype(dt)
            v += t
            np.sqrt(v, out=t)                         # update = m / (sqrt(v) + eps) + wd * w
            t += self.eps.astype(dt)
            np.divide(m, t, out=t)
            if wd is not None:
                t += wd.astype(dt) * w
            t *= lr.astype(dt)
            w -= t
            for q in (p, m1, m2):
                q.mark_updated()
        return True

    def _construct_traced(self, gradients: Any) -> bool:
        """The update above in ops, for a compiled training step."""
        grads = self._gradient_tensors(gradients)
        wds = self._weight_decay_tensors()
        lrs = self._lr_tensors()
        self._advance()
        one = _F32(1.0)
        c1, c2 = one - self.beta1, one - self.beta2
        for p, g, lr, wd, m1, m2 in zip(self.parameters, grads, lrs, wds, self.moments1, self.moments2):
            m, v, _ = _moments(p, g, m1, m2, c1, c2)
            t = ops.div(m, ops.add(ops.sqrt(v), ops.cast(self.eps, p.dtype)))
            if wd is not None:
                t = ops.add(t, ops.mul(ops.cast(wd, p.dtype), p))
            t = ops.mul(t, ops.cast(lr, p.dtype))
            assign(p, ops.sub(p, t))
        return True
