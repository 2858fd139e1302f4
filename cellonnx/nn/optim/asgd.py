"""ASGD: averaged stochastic gradient descent (MindSpore's ASGD update), written in ops."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import ops
from cellonnx.nn.optim._checks import check_float
from cellonnx.nn.optim.optimizer import Optimizer, assign, opt_init_args_register
from cellonnx.nn.parameter_tuple import ParameterTuple
from cellonnx.tensor import Parameter

__all__ = ["ASGD"]


class ASGD(Optimizer):
    r"""Averaged stochastic gradient descent.

    .. math::
        \begin{array}{ll}
            w_{t} = w_{t-1} (1 - \lambda \eta_{t-1}) - \eta_{t-1} g \\
            ax_{t} = \begin{cases} w_{t}, & \mu_{t-1} = 1 \\
                ax_{t-1} + (w_{t} - ax_{t-1}) \mu_{t-1}, & \text{else} \end{cases} \\
            \eta_{t} = lr / (1 + \lambda \, lr \, t)^\alpha \\
            \mu_{t} = 1 / \max(1, t - t_0)
        \end{array}

    with :math:`t` the step count (from 1), :math:`\eta` set to the learning rate on the first step and
    :math:`\mu` starting at 1. The running average ``ax`` (``ax_.<name>``), ``eta_<name>`` and ``mu_<name>``
    are the optimizer's state. There is no ``loss_scale`` argument, as in MindSpore.

    Args:
        params (Union[list[Parameter], list[dict]]): parameters or parameter groups.
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): Default: ``0.1``.
        lambd (float): the decay term :math:`\lambda`. Default: ``1e-4``.
        alpha (float): the power of the :math:`\eta` update. Default: ``0.75``.
        t0 (float): the step at which averaging starts. Default: ``1e6``.
        weight_decay (Union[float, int, Cell]): Default: ``0.0``.

    Inputs:
        - **gradients** (tuple[Tensor]) - aligned with ``optimizer.parameters``.

    Examples:
        >>> net = nn.Dense(3, 2)
        >>> opt = nn.ASGD(net.trainable_params(), learning_rate=0.1, t0=100.0)
        >>> loss_fn = nn.MSELoss()
        >>> grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)
        >>> loss, grads = grad_fn(Tensor(np.ones((4, 3), np.float32)), Tensor(np.zeros((4, 2), np.float32)))
        >>> _ = opt(grads)  # one update of net.weight and net.bias
    """

    @opt_init_args_register
    def __init__(self, params: Any, learning_rate: Any = 0.1, lambd: float = 1e-4, alpha: float = 0.75,
                 t0: float = 1e6, weight_decay: Any = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay)
        for name, v in (("lambd", lambd), ("alpha", alpha), ("t0", t0)):
            check_float(v, name, self.cls_name)
        self.lambd = lambd
        self.alpha = alpha
        self.t0 = np.float32(t0)
        self.mu = ParameterTuple(Parameter(np.asarray(1.0, np.float32), name=f"mu_{p.name}")
                                 for p in self.parameters)
        self.eta = ParameterTuple(Parameter(np.asarray(0.0, np.float32), name=f"eta_{p.name}")
                                  for p in self.parameters)
        self.lens = self.param_length
        self.ax = self.parameters.clone(prefix="ax_", init="zeros")

    def construct(self, gradients: Any) -> bool:
        grads, lrs = self._prepared_tensors(gradients)
        step = ops.cast(ops.reshape(self.global_step, ()), np.float32)
        first = ops.equal(step, 1.0)
        for p, g, mu, eta_state, ax, lr in zip(self.parameters, grads, self.mu, self.eta, self.ax, lrs):
            lr = ops.reshape(lr, ())
            eta = ops.where(first, lr, eta_state)            # eta starts at the first step's rate
            w = ops.cast(p, np.float32)
            w = ops.sub(ops.mul(w, ops.sub(1.0, ops.mul(eta, self.lambd))),
                        ops.mul(eta, ops.cast(g, np.float32)))
            assign(p, w)
            averaged = ops.add(ax, ops.mul(ops.sub(w, ops.cast(ax, np.float32)), mu))
            assign(ax, ops.where(ops.not_equal(mu, 1.0), averaged, ops.cast(p, np.float32)))
            decay = ops.pow(ops.add(ops.mul(ops.mul(lr, self.lambd), step), 1.0), self.alpha)
            assign(eta_state, ops.div(lr, decay))
            assign(mu, ops.div(1.0, ops.maximum(ops.sub(step, self.t0), 1.0)))
        return True
