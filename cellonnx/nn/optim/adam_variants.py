"""LazyAdam and AdamOffload: MindSpore's Adam variants for sparse gradients and host-side updates. With the
dense gradients cellonnx computes both are Adam (the Adam / AdamNoUpdateParam kernel formulas), written in
ops."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import ops
from cellonnx.nn.optim._checks import check_bool, check_non_negative, check_positive, check_range
from cellonnx.nn.optim.optimizer import Optimizer, assign, opt_init_args_register
from cellonnx.tensor import Parameter, Tensor

__all__ = ["AdamOffload", "LazyAdam"]


def _adam_state(opt: Optimizer, beta1: float, beta2: float, eps: float) -> None:
    opt.beta1 = np.float32(beta1)
    opt.beta2 = np.float32(beta2)
    opt.beta1_power = Parameter(np.ones((1,), np.float32), name="beta1_power", requires_grad=False)
    opt.beta2_power = Parameter(np.ones((1,), np.float32), name="beta2_power", requires_grad=False)
    opt.eps = np.float32(eps)
    opt.moment1 = opt.parameters.clone(prefix="moment1", init="zeros")
    opt.moment2 = opt.parameters.clone(prefix="moment2", init="zeros")


def _adam_update(opt: Any, grads: tuple[Tensor, ...], lrs: list[Tensor], use_nesterov: bool) -> None:
    """beta powers *= betas; m += (g - m)(1 - b1); v += (g^2 - v)(1 - b2);
    w -= lr sqrt(1 - b2^t) / (1 - b1^t) m / (sqrt(v) + eps), Nesterov with b1 m + (1 - b1) g for m."""
    b1p = ops.mul(opt.beta1_power, opt.beta1)
    b2p = ops.mul(opt.beta2_power, opt.beta2)
    assign(opt.beta1_power, b1p)
    assign(opt.beta2_power, b2p)
    b1p, b2p = ops.reshape(b1p, ()), ops.reshape(b2p, ())
    c1, c2 = 1.0 - opt.beta1, 1.0 - opt.beta2
    corr = ops.div(ops.sqrt(ops.sub(1.0, b2p)), ops.sub(1.0, b1p))
    for p, m1, m2, g, lr in zip(opt.parameters, opt.moment1, opt.moment2, grads, lrs):
        m = ops.add(m1, ops.mul(ops.sub(g, m1), c1))
        v = ops.add(m2, ops.mul(ops.sub(ops.mul(g, g), m2), c2))
        num = ops.add(ops.mul(m, opt.beta1), ops.mul(g, c1)) if use_nesterov else m
        step = ops.mul(ops.div(num, ops.add(ops.sqrt(v), opt.eps)), ops.mul(lr, corr))
        assign(p, ops.sub(p, step))
        assign(m1, m)
        assign(m2, v)


def _check(opt: Optimizer, beta1: Any, beta2: Any, eps: Any) -> None:
    check_range(beta1, "beta1", opt.cls_name, 0.0, 1.0, closed=False)
    check_range(beta2, "beta2", opt.cls_name, 0.0, 1.0, closed=False)
    check_positive(eps, "eps", opt.cls_name)


class LazyAdam(Optimizer):
    r"""Adam that, for sparse gradients, updates only the rows they touch (MindSpore's FusedSparseLazyAdam).
    Gradients here are dense, so every row is updated with the Adam formula (see :class:`Adam`).

    Args:
        params (Union[list[Parameter], list[dict]]): parameters or parameter groups.
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): Default: ``1e-3``.
        beta1 (float): in (0, 1). Default: ``0.9``.
        beta2 (float): in (0, 1). Default: ``0.999``.
        eps (float): > 0. Default: ``1e-8``.
        use_locking (bool): accepted for compatibility. Default: ``False``.
        use_nesterov (bool): Default: ``False``.
        weight_decay (float): >= 0 (a number, as MindSpore checks). Default: ``0.0``.
        loss_scale (float): Default: ``1.0``.

    Inputs:
        - **gradients** (tuple[Tensor]) - aligned with ``optimizer.parameters``.

    Examples:
        >>> net = nn.Dense(3, 2)
        >>> opt = nn.LazyAdam(net.trainable_params(), learning_rate=1e-3)
        >>> loss_fn = nn.MSELoss()
        >>> grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)
        >>> loss, grads = grad_fn(Tensor(np.ones((4, 3), np.float32)), Tensor(np.zeros((4, 2), np.float32)))
        >>> _ = opt(grads)  # one update of net.weight and net.bias
    """

    @opt_init_args_register
    def __init__(self, params: Any, learning_rate: Any = 1e-3, beta1: float = 0.9, beta2: float = 0.999,
                 eps: float = 1e-8, use_locking: bool = False, use_nesterov: bool = False,
                 weight_decay: Any = 0.0, loss_scale: float = 1.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        _check(self, beta1, beta2, eps)
        check_non_negative(weight_decay, "weight_decay", self.cls_name)
        check_bool(use_locking, "use_locking", self.cls_name)
        check_bool(use_nesterov, "use_nesterov", self.cls_name)
        _adam_state(self, beta1, beta2, eps)
        self.use_nesterov = use_nesterov
        self.use_locking = use_locking

    def construct(self, gradients: Any) -> bool:
        grads, lrs = self._prepared_tensors(gradients)
        _adam_update(self, grads, lrs, self.use_nesterov)
        return True


class AdamOffload(Optimizer):
    r"""Adam whose update MindSpore runs on the host CPU to save device memory (AdamNoUpdateParam, then the
    parameter increased by the returned delta). cellonnx updates on the host anyway: the numbers are Adam's,
    without gradient centralization (as MindSpore's AdamOffload).

    Args:
        params (Union[list[Parameter], list[dict]]): parameters or parameter groups.
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): Default: ``1e-3``.
        beta1 (float): in (0, 1). Default: ``0.9``.
        beta2 (float): in (0, 1). Default: ``0.999``.
        eps (float): > 0. Default: ``1e-8``.
        use_locking (bool): accepted for compatibility. Default: ``False``.
        use_nesterov (bool): Default: ``False``.
        weight_decay (Union[float, int, Cell]): Default: ``0.0``.
        loss_scale (float): Default: ``1.0``.

    Inputs:
        - **gradients** (tuple[Tensor]) - aligned with ``optimizer.parameters``.

    Examples:
        >>> net = nn.Dense(3, 2)
        >>> opt = nn.AdamOffload(net.trainable_params(), learning_rate=1e-3)
        >>> loss_fn = nn.MSELoss()
        >>> grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)
        >>> loss, grads = grad_fn(Tensor(np.ones((4, 3), np.float32)), Tensor(np.zeros((4, 2), np.float32)))
        >>> _ = opt(grads)  # one update of net.weight and net.bias
    """

    def __init__(self, params: Any, learning_rate: Any = 1e-3, beta1: float = 0.9, beta2: float = 0.999,
                 eps: float = 1e-8, use_locking: bool = False, use_nesterov: bool = False,
                 weight_decay: Any = 0.0, loss_scale: float = 1.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        _check(self, beta1, beta2, eps)
        check_bool(use_locking, "use_locking", self.cls_name)
        check_bool(use_nesterov, "use_nesterov", self.cls_name)
        _adam_state(self, beta1, beta2, eps)
        self.use_nesterov = use_nesterov
        self.use_locking = use_locking

    @property
    def params(self) -> Any:
        return self.parameters

    def construct(self, gradients: Any) -> bool:
        grads = self.scale_grad(self.decay_weight(self._gradient_tensors(gradients)))
        lrs = self._lr_tensors()
        self._advance()
        _adam_update(self, grads, lrs, self.use_nesterov)
        return True
