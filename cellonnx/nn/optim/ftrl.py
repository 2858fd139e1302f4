"""FTRL: follow the regularized leader (MindSpore's ApplyFtrl formula), written in ops."""
from __future__ import annotations

from typing import Any

from cellonnx import ops
from cellonnx.nn.optim._checks import check_bool, check_float, check_non_negative, check_positive
from cellonnx.nn.optim.optimizer import Optimizer, assign, opt_init_args_register

__all__ = ["FTRL"]


class FTRL(Optimizer):
    r"""Follow-the-regularized-leader with L1 / L2 regularization, for sparse online learning.

    .. math::
        \begin{array}{ll}
            m_{t+1} = m_{t} + g^2 \\
            u_{t+1} = u_{t} + g - \frac{m_{t+1}^{-p} - m_{t}^{-p}}{lr} w_{t} \\
            w_{t+1} = \begin{cases} \frac{\text{sign}(u_{t+1}) \, l1 - u_{t+1}}{m_{t+1}^{-p} / lr + 2 \, l2},
                & |u_{t+1}| > l1 \\ 0, & \text{else} \end{cases}
        \end{array}

    with :math:`p` = ``lr_power``, the accumulator ``moments`` and the linear term ``linear``. The learning
    rate must be a fixed float (no schedule, no groups' rates); without groups the weight decay applies to
    every parameter (MindSpore sets all the decay flags).

    Args:
        params (Union[list[Parameter], list[dict]]): parameters or parameter groups.
        initial_accum (float): >= 0. Default: ``0.1``.
        learning_rate (float): > 0. Default: ``0.001``.
        lr_power (float): <= 0. Default: ``-0.5``.
        l1 (float): >= 0. Default: ``0.0``.
        l2 (float): >= 0. Default: ``0.0``.
        use_locking (bool): accepted for compatibility. Default: ``False``.
        loss_scale (float): Default: ``1.0``.
        weight_decay (Union[float, int, Cell]): Default: ``0.0``.

    Inputs:
        - **grads** (tuple[Tensor]) - aligned with ``optimizer.parameters``.

    Examples:
        >>> net = nn.Dense(3, 2)
        >>> opt = nn.FTRL(net.trainable_params(), learning_rate=0.05, l1=0.001)
        >>> loss_fn = nn.MSELoss()
        >>> grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)
        >>> loss, grads = grad_fn(Tensor(np.ones((4, 3), np.float32)), Tensor(np.zeros((4, 2), np.float32)))
        >>> _ = opt(grads)  # one update of net.weight and net.bias
    """

    @opt_init_args_register
    def __init__(self, params: Any, initial_accum: float = 0.1, learning_rate: Any = 0.001,
                 lr_power: float = -0.5, l1: float = 0.0, l2: float = 0.0, use_locking: bool = False,
                 loss_scale: float = 1.0, weight_decay: Any = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale=loss_scale)
        if self.dynamic_lr or self.is_group_lr:
            raise ValueError(f"For 'FTRL', dynamic learning rate and group learning rate are currently not "
                             f"supported in FTRL, they should all be false, but got dynamic learning rate "
                             f"{self.dynamic_lr} and group learning rate {self.is_group_lr}.")
        check_non_negative(initial_accum, "initial_accum", self.cls_name)
        check_positive(learning_rate, "learning_rate", self.cls_name)
        check_float(lr_power, "lr_power", self.cls_name)
        if lr_power > 0.0:
            raise ValueError(f"For 'FTRL', the 'lr_power' must be <= 0, but got {lr_power}.")
        check_non_negative(l1, "l1", self.cls_name)
        check_non_negative(l2, "l2", self.cls_name)
        check_bool(use_locking, "use_locking", self.cls_name)
        self.moments = self.parameters.clone(prefix="moments", init=initial_accum)
        self.linear = self.parameters.clone(prefix="linear", init="zeros")
        self.l1 = l1
        self.l2 = l2
        self.lr = learning_rate
        self.lr_power = lr_power
        self.use_locking = use_locking
        if not self.is_group:
            self.decay_flags = tuple(True for _ in self.parameters)

    def construct(self, grads: Any) -> bool:
        grads, lrs = self._prepared_tensors(grads)
        power = -self.lr_power
        for p, m, u, g, lr in zip(self.parameters, self.moments, self.linear, grads, lrs):
            accum = ops.add(m, ops.mul(g, g))
            old_pow, new_pow = ops.pow(m, power), ops.pow(accum, power)
            linear = ops.sub(ops.add(u, g), ops.mul(ops.div(ops.sub(new_pow, old_pow), lr), p))
            quadratic = ops.add(ops.div(new_pow, lr), 2.0 * self.l2)
            w = ops.div(ops.sub(ops.mul(ops.sign(linear), self.l1), linear), quadratic)
            assign(p, ops.where(ops.greater(ops.abs(linear), self.l1), w, 0.0))
            assign(m, accum)
            assign(u, linear)
        return True
