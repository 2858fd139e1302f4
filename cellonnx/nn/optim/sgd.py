"""SGD with optional momentum, dampening and Nesterov momentum (MindSpore's SGD kernel)."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import ops
from cellonnx.nn.optim.optimizer import Optimizer, assign, opt_init_args_register, writable
from cellonnx.tensor import Parameter

__all__ = ["SGD"]


class SGD(Optimizer):
    r"""Stochastic gradient descent, momentum optional.

    .. math::
        v_{t+1} = u \ast v_{t} + gradient \ast (1-dampening)

    with :math:`v_1 = gradient` on the first step; then :math:`p_{t+1} = p_{t} - lr \ast (gradient + u \ast
    v_{t+1})` with Nesterov, else :math:`p_{t+1} = p_{t} - lr \ast v_{t+1}`. Without momentum (``momentum=0``)
    the update is :math:`p_{t+1} = p_t - lr \ast gradient`. Weight decay is added to the gradient first (see
    :class:`Optimizer`); it must be a number here (MindSpore's SGD rejects a dynamic one).

    Args:
        params (Union[list[Parameter], list[dict]]): parameters or parameter groups.
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): Default: ``0.1``.
        momentum (float): Default: ``0.0``.
        dampening (float): Default: ``0.0``.
        weight_decay (float): Default: ``0.0``.
        nesterov (bool): needs momentum > 0 and dampening == 0. Default: ``False``.
        loss_scale (float): Default: ``1.0``.

    Inputs:
        - **gradients** (tuple[Tensor]) - aligned with ``optimizer.parameters``.

    Examples:
        >>> net = nn.Dense(3, 2)
        >>> opt = nn.SGD(net.trainable_params(), learning_rate=0.1, momentum=0.9)
        >>> loss_fn = nn.MSELoss()
        >>> grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)
        >>> loss, grads = grad_fn(Tensor(np.ones((4, 3), np.float32)), Tensor(np.zeros((4, 2), np.float32)))
        >>> opt(grads)  # one update of net.weight and net.bias
        True
    """

    @opt_init_args_register
    def __init__(self, params: Any, learning_rate: Any = 0.1, momentum: float = 0.0, dampening: float = 0.0,
                 weight_decay: float = 0.0, nesterov: bool = False, loss_scale: float = 1.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if isinstance(momentum, int) and not isinstance(momentum, bool):
            momentum = float(momentum)
        if not isinstance(momentum, float):
            raise TypeError(f"For 'SGD', 'momentum' must be a float, got {type(momentum).__name__}")
        if momentum < 0.0:
            raise ValueError(f"For 'SGD', 'momentum' must be at least 0.0, got {momentum}")
        if isinstance(dampening, int) and not isinstance(dampening, bool):
            dampening = float(dampening)
        if not isinstance(dampening, float):
            raise TypeError(f"For 'SGD', 'dampening' must be a float, got {type(dampening).__name__}")
        if dampening < 0.0:
            raise ValueError(f"For 'SGD', 'dampening' must be at least 0.0, got {dampening}")
        if not isinstance(nesterov, bool):
            raise TypeError(f"For 'SGD', 'nesterov' must be a bool, got {type(nesterov).__name__}")
        if nesterov and (momentum <= 0.0 or dampening != 0.0):
            raise ValueError("For 'SGD', nesterov needs 'momentum' > 0.0 and 'dampening' == 0.0, got momentum "
                             f"{momentum}, dampening {dampening}")
        if self.dynamic_weight_decay:
            raise TypeError("For 'SGD', dynamic weight decay is not supported: 'weight_decay' (also in groups) must "
                            "be a float or an int")
        self.dampening = dampening
        self.nesterov = nesterov
        self.momentum = Parameter(np.asarray(momentum, np.float32), name="momentum", requires_grad=False)
        self.accum = self.parameters.clone(prefix="accum", init="zeros")
        self.stat = self.parameters.clone(prefix="stat", init="ones")

    def construct(self, gradients: Any) -> bool:
        grads, lrs = self._prepared(gradients)
        u = np.float32(self.momentum.asnumpy())
        keep = np.float32(1.0) - np.float32(self.dampening)
        for p, g, lr, acc, st in zip(self.parameters, grads, lrs, self.accum, self.stat):
            w = writable(p)
            dt = w.dtype
            lr = lr.astype(dt)
            if u > 0:
                a, s = writable(acc), writable(st)
                first = s > 0                         # the first step takes the gradient as accum
                if first.all():
                    np.copyto(a, g)
                else:
                    new = a * u.astype(dt) + keep.astype(dt) * g
                    np.copyto(a, np.where(first, g, new))
                if first.any():
                    s[first] = 0
                    st.mark_updated()
                acc.mark_updated()
                step = g + a * u.astype(dt) if self.nesterov else a
            else:
                step = g
            w -= lr * step
            p.mark_updated()
        return True

    def _construct_traced(self, gradients: Any) -> bool:
        """The update above in ops, for a compiled training step (whether momentum is used is fixed by the
        trace)."""
        grads, lrs = self._prepared_tensors(gradients)
        u = self.momentum
        keep = np.float32(1.0) - np.float32(self.dampening)
        use_momentum = float(self.momentum._data) > 0
        for p, g, lr, acc, st in zip(self.parameters, grads, lrs, self.accum, self.stat):
            lr = ops.cast(lr, p.dtype)
            step = g
            if use_momentum:
                uu = ops.cast(u, p.dtype)
                first = ops.gt(st, 0)
                kept = g if keep == 1.0 else ops.mul(ops.cast(keep, p.dtype), g)  # no dampening: g * 1 is g
                a = ops.where(first, g, ops.add(ops.mul(acc, uu), kept))
                assign(acc, a)
                assign(st, ops.where(first, ops.zeros_like(st), st))
                step = ops.add(g, ops.mul(a, uu)) if self.nesterov else a
            assign(p, ops.sub(p, ops.mul(lr, step)))
        return True
