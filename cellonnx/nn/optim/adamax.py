"""AdaMax (MindSpore's ApplyAdaMax formula), written in ops."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import ops
from cellonnx.nn.optim._checks import check_positive, check_range
from cellonnx.nn.optim.optimizer import Optimizer, assign, opt_init_args_register
from cellonnx.tensor import Parameter

__all__ = ["AdaMax"]


class AdaMax(Optimizer):
    r"""AdaMax: Adam with the infinity norm.

    .. math::
        \begin{array}{ll}
            m_{t+1} = \beta_1 m_{t} + (1 - \beta_1) g \\
            v_{t+1} = \max(\beta_2 v_{t}, |g|) \\
            w = w - \frac{lr}{1 - \beta_1^{t+1}} \frac{m_{t+1}}{v_{t+1} + \epsilon}
        \end{array}

    Args:
        params (Union[list[Parameter], list[dict]]): parameters or parameter groups.
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): Default: ``0.001``.
        beta1 (float): in (0, 1). Default: ``0.9``.
        beta2 (float): in (0, 1). Default: ``0.999``.
        eps (float): > 0. Default: ``1e-08``.
        weight_decay (Union[float, int, Cell]): Default: ``0.0``.
        loss_scale (float): Default: ``1.0``.

    Inputs:
        - **gradients** (tuple[Tensor]) - aligned with ``optimizer.parameters``.

    Examples:
        >>> net = nn.Dense(3, 2)
        >>> opt = nn.AdaMax(net.trainable_params(), learning_rate=0.002)
        >>> loss_fn = nn.MSELoss()
        >>> grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)
        >>> loss, grads = grad_fn(Tensor(np.ones((4, 3), np.float32)), Tensor(np.zeros((4, 2), np.float32)))
        >>> _ = opt(grads)  # one update of net.weight and net.bias
    """

    @opt_init_args_register
    def __init__(self, params: Any, learning_rate: Any = 0.001, beta1: float = 0.9, beta2: float = 0.999,
                 eps: float = 1e-08, weight_decay: Any = 0.0, loss_scale: float = 1.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        check_range(beta1, "beta1", self.cls_name, 0.0, 1.0, closed=False)
        check_range(beta2, "beta2", self.cls_name, 0.0, 1.0, closed=False)
        check_positive(eps, "eps", self.cls_name)
        self.beta1 = np.float32(beta1)
        self.beta2 = np.float32(beta2)
        self.beta1_power = Parameter(np.ones((1,), np.float32), name="beta1_power", requires_grad=False)
        self.eps = np.float32(eps)
        self.moment1 = self.parameters.clone(prefix="moment1", init="zeros")
        self.moment2 = self.parameters.clone(prefix="moment2", init="zeros")

    def construct(self, gradients: Any) -> bool:
        grads, lrs = self._prepared_tensors(gradients)
        power = ops.mul(self.beta1_power, self.beta1)
        assign(self.beta1_power, power)
        power = ops.reshape(power, ())
        for p, m1, m2, g, lr in zip(self.parameters, self.moment1, self.moment2, grads, lrs):
            m = ops.add(ops.mul(m1, self.beta1), ops.mul(g, 1.0 - self.beta1))
            v = ops.maximum(ops.mul(m2, self.beta2), ops.abs(g))
            step = ops.div(ops.mul(ops.div(lr, ops.sub(1.0, power)), m), ops.add(v, self.eps))
            assign(p, ops.sub(p, step))
            assign(m1, m)
            assign(m2, v)
        return True
