"""Adadelta (MindSpore's ApplyAdadelta formula), written in ops."""
from __future__ import annotations

from typing import Any

from cellonnx import ops
from cellonnx.nn.optim._checks import check_non_negative, check_range
from cellonnx.nn.optim.optimizer import Optimizer, assign, opt_init_args_register

__all__ = ["Adadelta"]


class Adadelta(Optimizer):
    r"""The Adadelta algorithm.

    .. math::
        \begin{array}{ll}
            a = \rho a + (1 - \rho) g^2 \\
            u = \sqrt{b + \epsilon} \, g / \sqrt{a + \epsilon} \\
            b = \rho b + (1 - \rho) u^2 \\
            w = w - lr \cdot u
        \end{array}

    with the accumulators :math:`a` (``accum``) and :math:`b` (``accum_update``) starting at 0.

    Args:
        params (Union[list[Parameter], list[dict]]): parameters or parameter groups.
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): Default: ``1.0``.
        rho (float): the decay rate, in [0.0, 1.0]. Default: ``0.9``.
        epsilon (float): >= 0. Default: ``1e-6``.
        loss_scale (float): Default: ``1.0``.
        weight_decay (Union[float, int, Cell]): Default: ``0.0``.

    Inputs:
        - **grads** (tuple[Tensor]) - aligned with ``optimizer.parameters``.

    Examples:
        >>> net = nn.Dense(3, 2)
        >>> opt = nn.Adadelta(net.trainable_params(), learning_rate=1.0, rho=0.95)
        >>> loss_fn = nn.MSELoss()
        >>> grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)
        >>> loss, grads = grad_fn(Tensor(np.ones((4, 3), np.float32)), Tensor(np.zeros((4, 2), np.float32)))
        >>> _ = opt(grads)  # one update of net.weight and net.bias
    """

    @opt_init_args_register
    def __init__(self, params: Any, learning_rate: Any = 1.0, rho: float = 0.9, epsilon: float = 1e-6,
                 loss_scale: float = 1.0, weight_decay: Any = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        check_range(rho, "rho", self.cls_name, 0.0, 1.0, closed=True)
        check_non_negative(epsilon, "epsilon", self.cls_name)
        self.accum = self.parameters.clone(prefix="accum", init=0)
        self.accum_update = self.parameters.clone(prefix="accum_update", init=0)
        self.rho = rho
        self.epsilon = epsilon

    def construct(self, grads: Any) -> bool:
        if not isinstance(grads, tuple) or not all(hasattr(g, "shape") for g in grads):
            raise TypeError("For 'Adadelta', the 'grads' must be a tuple of Tensor.")
        grads, lrs = self._prepared_tensors(grads)
        rho, eps = self.rho, self.epsilon
        for p, a, b, g, lr in zip(self.parameters, self.accum, self.accum_update, grads, lrs):
            acc = ops.add(ops.mul(a, rho), ops.mul(ops.mul(g, g), 1.0 - rho))
            update = ops.div(ops.mul(ops.sqrt(ops.add(b, eps)), g), ops.sqrt(ops.add(acc, eps)))
            acc_update = ops.add(ops.mul(b, rho), ops.mul(ops.mul(update, update), 1.0 - rho))
            assign(p, ops.sub(p, ops.mul(lr, update)))
            assign(a, acc)
            assign(b, acc_update)
        return True
