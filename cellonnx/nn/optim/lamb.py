"""LAMB: layer-wise adaptive moments (MindSpore's Lamb kernel: bias-corrected Adam step plus decoupled weight
decay, scaled per parameter by the trust ratio ||w|| / ||update||)."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import ops
from cellonnx.nn.optim.adam import _check_param_value
from cellonnx.nn.optim.optimizer import Optimizer, assign, opt_init_args_register, update_param
from cellonnx.tensor import Tensor

__all__ = ["Lamb"]

_F32 = np.float32


class Lamb(Optimizer):
    r"""The LAMB algorithm.

    .. math::
        \begin{array}{l}
            m_t = \beta_1 m_{t-1} + (1-\beta_1) g,\quad v_t = \beta_2 v_{t-1} + (1-\beta_2) g^2 \\
            \hat m_t = m_t / (1-\beta_1^t),\quad \hat v_t = v_t / (1-\beta_2^t) \\
            r_t = \hat m_t / (\sqrt{\hat v_t} + \epsilon) + \lambda w_{t-1} \\
            w_t = w_{t-1} - lr \cdot \frac{\|w_{t-1}\|}{\|r_t\|} r_t
        \end{array}

    The trust ratio is 1 when either norm is 0; :math:`t` counts from 1. Weight decay follows the rules of
    :class:`Optimizer`; there is no ``loss_scale`` argument, as in MindSpore.

    Args:
        params (Union[list[Parameter], list[dict]]): parameters or parameter groups.
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): the learning rate.
        beta1 (float): Default: ``0.9``.
        beta2 (float): Default: ``0.999``.
        eps (float): Default: ``1e-6``.
        weight_decay (Union[float, int, Cell]): Default: ``0.0``.

    Keyword Args:
        decay_steps, warmup_steps, start_learning_rate, end_learning_rate, power: MindSpore 0.x's way of giving
            the rate, used when ``learning_rate`` is not given: a linear warm-up over ``warmup_steps`` (default
            0), then a polynomial decay from ``start_learning_rate`` (default 0.1) to ``end_learning_rate``
            (default 0.0001) over ``decay_steps`` with ``power`` (default 1.0).

    Examples:
        >>> net = nn.Dense(3, 2)
        >>> opt = nn.Lamb(net.trainable_params(), learning_rate=0.01, weight_decay=0.01)
        >>> loss_fn = nn.MSELoss()
        >>> grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)
        >>> loss, grads = grad_fn(Tensor(np.ones((4, 3), np.float32)), Tensor(np.zeros((4, 2), np.float32)))
        >>> _ = opt(grads)  # one update of net.weight and net.bias
    """

    _support_parallel_optimizer = True

    @opt_init_args_register
    def __init__(self, params: Any, learning_rate: Any = None, beta1: float = 0.9, beta2: float = 0.999,
                 eps: float = 1e-6, weight_decay: Any = 0.0, *, decay_steps: int | None = None,
                 warmup_steps: int = 0, start_learning_rate: float = 0.1, end_learning_rate: float = 0.0001,
                 power: float = 1.0) -> None:
        if learning_rate is None:
            if decay_steps is None:
                raise TypeError("For 'Lamb', missing a required argument: 'learning_rate'")
            from cellonnx.nn.optim.legacy import decaying_rate

            learning_rate = decaying_rate(decay_steps, warmup_steps, start_learning_rate, end_learning_rate, power)
        super().__init__(learning_rate, params, weight_decay)
        _check_param_value(beta1, beta2, eps, "Lamb")
        self.beta1 = _F32(beta1)
        self.beta2 = _F32(beta2)
        self.eps = _F32(eps)
        self.moments1 = self.parameters.clone(prefix="lamb_m", init="zeros")
        self.moments2 = self.parameters.clone(prefix="lamb_v", init="zeros")

    @property
    def params(self) -> Any:
        return self.parameters

    def construct(self, gradients: Any) -> bool:
        grads = self._check_gradients(gradients)
        wds = self._weight_decays_np()
        lrs = self._lrs_np()
        self._advance()
        grads = self._centralize_np(grads)
        t = int(self.global_step.asnumpy()[0])
        one = _F32(1.0)
        bc1 = one - self.beta1 ** _F32(t)
        bc2 = one - self.beta2 ** _F32(t)
        for p, g, lr, wd, m1, m2 in zip(self.parameters, grads, lrs, wds, self.moments1, self.moments2):
            w = p.asnumpy()
            dt = w.dtype
            wf, gf = w.astype(_F32, copy=False), g.astype(_F32, copy=False)
            m = self.beta1 * m1.asnumpy().astype(_F32, copy=False) + (one - self.beta1) * gf
            v = self.beta2 * m2.asnumpy().astype(_F32, copy=False) + (one - self.beta2) * gf * gf
            upd = (m / bc1) / (np.sqrt(v / bc2) + self.eps)
            if wd is not None:
                upd = upd + wd * wf
            update_param(m1, m)
            update_param(m2, v)
            w_norm = np.sqrt(np.sum(wf * wf, dtype=_F32))
            u_norm = np.sqrt(np.sum(upd * upd, dtype=_F32))
            ratio = w_norm / u_norm if w_norm > 0 and u_norm > 0 else one
            update_param(p, (wf - ratio * lr * upd).astype(dt))
        return True

    def _construct_traced(self, gradients: Any) -> bool:
        """The update above in ops, for a compiled training step."""
        grads = self._gradient_tensors(gradients)
        wds = self._weight_decay_tensors()
        lrs = self._lr_tensors()
        self._advance()
        grads = self.gradients_centralization(grads)
        t = ops.cast(ops.reshape(self.global_step, ()), _F32)
        one = _F32(1.0)
        bc1 = ops.sub(one, ops.pow(Tensor(self.beta1), t))
        bc2 = ops.sub(one, ops.pow(Tensor(self.beta2), t))
        for p, g, lr, wd, m1, m2 in zip(self.parameters, grads, lrs, wds, self.moments1, self.moments2):
            wf, gf = ops.cast(p, _F32), ops.cast(g, _F32)
            m = ops.add(ops.mul(self.beta1, ops.cast(m1, _F32)), ops.mul(one - self.beta1, gf))
            v = ops.add(ops.mul(self.beta2, ops.cast(m2, _F32)), ops.mul(ops.mul(one - self.beta2, gf), gf))
            upd = ops.div(ops.div(m, bc1), ops.add(ops.sqrt(ops.div(v, bc2)), self.eps))
            if wd is not None:
                upd = ops.add(upd, ops.mul(wd, wf))
            assign(m1, m)
            assign(m2, v)
            w_norm = ops.sqrt(ops.sum(ops.mul(wf, wf)))
            u_norm = ops.sqrt(ops.sum(ops.mul(upd, upd)))
            ok = ops.logical_and(ops.gt(w_norm, 0.0), ops.gt(u_norm, 0.0))
            ratio = ops.where(ok, ops.div(w_norm, ops.where(ok, u_norm, one)), Tensor(one))
            assign(p, ops.sub(wf, ops.mul(ops.mul(ratio, lr), upd)))
        return True
