"""Rprop: resilient backpropagation (MindSpore's Rprop update), written in ops."""
from __future__ import annotations

from typing import Any

from cellonnx import ops
from cellonnx.nn.optim._checks import check_float, check_range
from cellonnx.nn.optim.optimizer import Optimizer, assign, opt_init_args_register

__all__ = ["Rprop"]


class Rprop(Optimizer):
    r"""Resilient backpropagation: a step size per weight, grown by :math:`\eta_+` while the gradient keeps
    its sign and shrunk by :math:`\eta_-` when it flips (that step then skips the update).

    .. math::
        \begin{array}{ll}
            \Delta_t = \text{clip}(\Delta_{t-1} \cdot \begin{cases} \eta_+, & g_{t-1} g_t > 0 \\
                \eta_-, & g_{t-1} g_t < 0 \\ 1, & \text{else} \end{cases}, \Delta_{min}, \Delta_{max}) \\
            g_t \leftarrow 0 \text{ where } g_{t-1} g_t < 0 \\
            w_t = w_{t-1} - \text{sign}(g_t) \Delta_t
        \end{array}

    :math:`\Delta` starts at the learning rate on the first step; ``prev`` keeps :math:`g_t` and ``step_size``
    :math:`\Delta_t`. There is no ``loss_scale`` argument, as in MindSpore.

    Args:
        params (Union[list[Parameter], list[dict]]): parameters or parameter groups.
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): Default: ``0.1``.
        etas (tuple[float, float]): :math:`(\eta_-, \eta_+)`, :math:`0 < \eta_- < 1 < \eta_+`.
            Default: ``(0.5, 1.2)``.
        step_sizes (tuple[float, float]): :math:`(\Delta_{min}, \Delta_{max})`. Default: ``(1e-6, 50.)``.
        weight_decay (Union[float, int, Cell]): Default: ``0.0``.

    Inputs:
        - **gradients** (tuple[Tensor]) - aligned with ``optimizer.parameters``.

    Examples:
        >>> net = nn.Dense(3, 2)
        >>> opt = nn.Rprop(net.trainable_params(), learning_rate=0.01, etas=(0.5, 1.2))
        >>> loss_fn = nn.MSELoss()
        >>> grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)
        >>> loss, grads = grad_fn(Tensor(np.ones((4, 3), np.float32)), Tensor(np.zeros((4, 2), np.float32)))
        >>> _ = opt(grads)  # one update of net.weight and net.bias
    """

    @opt_init_args_register
    def __init__(self, params: Any, learning_rate: Any = 0.1, etas: tuple = (0.5, 1.2),
                 step_sizes: tuple = (1e-6, 50.), weight_decay: Any = 0.) -> None:
        super().__init__(learning_rate, params, weight_decay)
        if not isinstance(etas, tuple):
            raise TypeError(f"For Rprop, etas must be a tuple, but got {type(etas)}.")
        if len(etas) != 2:
            raise ValueError(f"For Rprop, etas must be a tuple with the size of 2, but got {len(etas)}.")
        if not isinstance(step_sizes, tuple):
            raise TypeError(f"For Rprop, step_sizes must be a tuple, but got {type(step_sizes)}.")
        if len(step_sizes) != 2:
            raise ValueError(f"For Rprop, step_sizes must be a tuple with the size of 2, but got "
                             f"{len(step_sizes)}.")
        if step_sizes[0] > step_sizes[1]:
            raise ValueError("For Rprop, maximal step size should not be less than minimal step size, but "
                             f"got {step_sizes[0]} > {step_sizes[1]}.")
        check_range(etas[0], "etaminus", self.cls_name, 0.0, 1.0, closed=False)
        check_float(etas[1], "etaplus", self.cls_name)
        if etas[1] <= 1.0:
            raise ValueError(f"For Rprop, etaplus must be greater than 1.0, but got etaplus {etas[1]}.")
        check_float(step_sizes[0], "min_step_sizes", self.cls_name)
        check_float(step_sizes[1], "max_step_sizes", self.cls_name)
        self.etaminus, self.etaplus = etas
        self.step_size_min, self.step_size_max = step_sizes
        self.prev = self.parameters.clone(prefix="prev", init="zeros")
        self.step_size = self.parameters.clone(prefix="step_size", init="zeros")

    def construct(self, gradients: Any) -> bool:
        grads, lrs = self._prepared_tensors(gradients)
        first = ops.equal(ops.reshape(self.global_step, ()), 1)
        for p, g, prev, size, lr in zip(self.parameters, grads, self.prev, self.step_size, lrs):
            step = ops.where(first, ops.mul(ops.ones_like(size), lr), size)   # the rate on the first step
            sign = ops.sign(ops.mul(g, prev))
            factor = ops.where(ops.greater(sign, 0), self.etaplus,
                               ops.where(ops.less(sign, 0), self.etaminus, 1.0))
            step = ops.clamp(ops.mul(step, factor), self.step_size_min, self.step_size_max)
            update = ops.where(ops.less(sign, 0), 0.0, g)
            assign(p, ops.sub(p, ops.mul(ops.sign(update), step)))
            assign(prev, update)
            assign(size, step)
        return True
