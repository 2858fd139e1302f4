"""RMSProp, plain and centered (MindSpore's ApplyRMSProp / ApplyCenteredRMSProp formulas), written in ops."""
from __future__ import annotations

from typing import Any

from cellonnx import ops
from cellonnx.nn.optim._checks import check_bool, check_float, check_non_negative, check_positive
from cellonnx.nn.optim.optimizer import Optimizer, assign, opt_init_args_register

__all__ = ["RMSProp"]


class RMSProp(Optimizer):
    r"""Root mean square propagation.

    .. math::
        \begin{array}{ll}
            s_{t+1} = \rho s_{t} + (1 - \rho) g^2 \\
            m_{t+1} = \beta m_{t} + \frac{\eta}{\sqrt{s_{t+1} + \epsilon}} g \\
            w = w - m_{t+1}
        \end{array}

    Centered, a running mean of the gradient :math:`g_{t+1} = \rho g_t + (1 - \rho) g` is kept and the
    denominator is :math:`\sqrt{s_{t+1} - g_{t+1}^2 + \epsilon}`. The mean square starts at 1 (MindSpore's
    ``mean_square`` initial value), the moment and mean gradient at 0.

    Args:
        params (Union[list[Parameter], list[dict]]): parameters or parameter groups.
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): Default: ``0.1``.
        decay (float): :math:`\rho`, >= 0. Default: ``0.9``.
        momentum (float): :math:`\beta`, >= 0. Default: ``0.0``.
        epsilon (float): > 0. Default: ``1e-10``.
        use_locking (bool): accepted for compatibility. Default: ``False``.
        centered (bool): Default: ``False``.
        loss_scale (float): Default: ``1.0``.
        weight_decay (Union[float, int, Cell]): Default: ``0.0``.

    Inputs:
        - **gradients** (tuple[Tensor]) - aligned with ``optimizer.parameters``.

    Examples:
        >>> net = nn.Dense(3, 2)
        >>> opt = nn.RMSProp(net.trainable_params(), learning_rate=0.01, momentum=0.9, centered=True)
        >>> loss_fn = nn.MSELoss()
        >>> grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)
        >>> loss, grads = grad_fn(Tensor(np.ones((4, 3), np.float32)), Tensor(np.zeros((4, 2), np.float32)))
        >>> _ = opt(grads)  # one update of net.weight and net.bias
    """

    @opt_init_args_register
    def __init__(self, params: Any, learning_rate: Any = 0.1, decay: float = 0.9, momentum: float = 0.0,
                 epsilon: float = 1e-10, use_locking: bool = False, centered: bool = False,
                 loss_scale: float = 1.0, weight_decay: Any = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        check_non_negative(check_float(decay, "decay", self.cls_name), "decay", self.cls_name)
        check_non_negative(check_float(momentum, "momentum", self.cls_name), "momentum", self.cls_name)
        check_positive(epsilon, "epsilon", self.cls_name)
        check_bool(use_locking, "use_locking", self.cls_name)
        check_bool(centered, "centered", self.cls_name)
        self.centered = centered
        if centered:
            self.mg = self.parameters.clone(prefix="mean_grad", init="zeros")
        self.momentum = momentum
        self.ms = self.parameters.clone(prefix="mean_square", init="ones")
        self.moment = self.parameters.clone(prefix="moment", init="zeros")
        self.epsilon = epsilon
        self.decay = decay
        self.use_locking = use_locking

    def construct(self, gradients: Any) -> bool:
        grads, lrs = self._prepared_tensors(gradients)
        rho, beta, eps = self.decay, self.momentum, self.epsilon
        mgs = self.mg if self.centered else [None] * self.param_length
        for p, ms, mom, mg, g, lr in zip(self.parameters, self.ms, self.moment, mgs, grads, lrs):
            square = ops.add(ops.mul(ms, rho), ops.mul(ops.mul(g, g), 1.0 - rho))
            denom = square
            if mg is not None:
                mean_grad = ops.add(ops.mul(mg, rho), ops.mul(g, 1.0 - rho))
                denom = ops.sub(square, ops.mul(mean_grad, mean_grad))
                assign(mg, mean_grad)
            moment = ops.add(ops.mul(mom, beta), ops.div(ops.mul(lr, g), ops.sqrt(ops.add(denom, eps))))
            assign(p, ops.sub(p, moment))
            assign(ms, square)
            assign(mom, moment)
        return True
