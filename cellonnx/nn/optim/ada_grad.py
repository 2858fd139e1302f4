"""Adagrad and ProximalAdagrad (MindSpore's ApplyAdagrad / ApplyProximalAdagrad formulas), written in ops."""
from __future__ import annotations

from typing import Any

from cellonnx import ops
from cellonnx.nn.optim._checks import check_bool, check_non_negative
from cellonnx.nn.optim.optimizer import Optimizer, assign, opt_init_args_register

__all__ = ["Adagrad", "ProximalAdagrad"]


class Adagrad(Optimizer):
    r"""The Adagrad algorithm.

    .. math::
        \begin{array}{ll}
            h_{t+1} = h_{t} + g \cdot g \\
            w_{t+1} = w_{t} - lr \cdot g / \sqrt{h_{t+1}}
        \end{array}

    Weight decay (added to the gradient), parameter groups and the loss scale follow :class:`Optimizer`.

    Args:
        params (Union[list[Parameter], list[dict]]): parameters or parameter groups.
        accum (float): the accumulator's start value, >= 0. Default: ``0.1``.
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): Default: ``0.001``.
        update_slots (bool): update the accumulator. Default: ``True``.
        loss_scale (float): Default: ``1.0``.
        weight_decay (Union[float, int, Cell]): Default: ``0.0``.

    Inputs:
        - **grads** (tuple[Tensor]) - aligned with ``optimizer.parameters``.

    Examples:
        >>> net = nn.Dense(3, 2)
        >>> opt = nn.Adagrad(net.trainable_params(), accum=0.1, learning_rate=0.01)
        >>> loss_fn = nn.MSELoss()
        >>> grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)
        >>> loss, grads = grad_fn(Tensor(np.ones((4, 3), np.float32)), Tensor(np.zeros((4, 2), np.float32)))
        >>> _ = opt(grads)  # one update of net.weight and net.bias
    """

    @opt_init_args_register
    def __init__(self, params: Any, accum: float = 0.1, learning_rate: Any = 0.001, update_slots: bool = True,
                 loss_scale: float = 1.0, weight_decay: Any = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        check_non_negative(accum, "accum", self.cls_name)
        check_bool(update_slots, "update_slots", self.cls_name)
        self.accum = self.parameters.clone(prefix="accum", init=accum)
        self.update_slots = update_slots

    def construct(self, grads: Any) -> bool:
        grads, lrs = self._prepared_tensors(grads)
        for p, h, g, lr in zip(self.parameters, self.accum, grads, lrs):
            acc = ops.add(h, ops.mul(g, g)) if self.update_slots else h
            assign(p, ops.sub(p, ops.div(ops.mul(lr, g), ops.sqrt(acc))))
            if self.update_slots:
                assign(h, acc)
        return True


class ProximalAdagrad(Optimizer):
    r"""Adagrad with an L1 / L2 proximal step (FOBOS).

    .. math::
        \begin{array}{ll}
            h_{t+1} = h_{t} + g \cdot g \\
            \eta = lr / \sqrt{h_{t+1}} \\
            v = w_{t} - \eta g \\
            w_{t+1} = \frac{\text{sign}(v)}{1 + \eta \cdot l2} \max(|v| - \eta \cdot l1, 0)
        \end{array}

    The proximal step uses the per-element rate :math:`\eta`, as MindSpore's CPU and GPU kernels (and
    TensorFlow's) do; MindSpore's documentation writes :math:`lr` there.

    Args:
        params (Union[list[Parameter], list[dict]]): parameters or parameter groups.
        accum (float): the accumulator's start value, >= 0. Default: ``0.1``.
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): Default: ``0.001``.
        l1 (float): >= 0. Default: ``0.0``.
        l2 (float): >= 0. Default: ``0.0``.
        use_locking (bool): accepted for compatibility (updates are never concurrent here).
            Default: ``False``.
        loss_scale (float): Default: ``1.0``.
        weight_decay (Union[float, int, Cell]): Default: ``0.0``.

    Inputs:
        - **grads** (tuple[Tensor]) - aligned with ``optimizer.parameters``.

    Examples:
        >>> net = nn.Dense(3, 2)
        >>> opt = nn.ProximalAdagrad(net.trainable_params(), l1=0.01, l2=0.001)
        >>> loss_fn = nn.MSELoss()
        >>> grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)
        >>> loss, grads = grad_fn(Tensor(np.ones((4, 3), np.float32)), Tensor(np.zeros((4, 2), np.float32)))
        >>> _ = opt(grads)  # one update of net.weight and net.bias
    """

    @opt_init_args_register
    def __init__(self, params: Any, accum: float = 0.1, learning_rate: Any = 0.001, l1: float = 0.0,
                 l2: float = 0.0, use_locking: bool = False, loss_scale: float = 1.0,
                 weight_decay: Any = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        for name, v in (("accum", accum), ("l1", l1), ("l2", l2)):
            check_non_negative(v, name, self.cls_name)
        check_bool(use_locking, "use_locking", self.cls_name)
        self.accum = self.parameters.clone(prefix="accum", init=accum)
        self.l1 = l1
        self.l2 = l2
        self.use_locking = use_locking

    def construct(self, grads: Any) -> bool:
        grads, lrs = self._prepared_tensors(grads)
        for p, h, g, lr in zip(self.parameters, self.accum, grads, lrs):
            acc = ops.add(h, ops.mul(g, g))
            rate = ops.div(lr, ops.sqrt(acc))
            prox = ops.sub(p, ops.mul(g, rate))
            shrunk = ops.relu(ops.sub(ops.abs(prox), ops.mul(rate, self.l1)))
            assign(p, ops.div(ops.mul(ops.sign(prox), shrunk), ops.add(ops.mul(rate, self.l2), 1.0)))
            assign(h, acc)
        return True
