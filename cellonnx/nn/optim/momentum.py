"""Momentum (MindSpore's ApplyMomentum kernel), with optional Nesterov."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import ops
from cellonnx.nn.optim.optimizer import Optimizer, assign, opt_init_args_register, writable
from cellonnx.tensor import Parameter

__all__ = ["Momentum"]


UPDATE_BLOCK = 1 << 16  # elements per block of the update (256 KiB of float32 per operand)


class Momentum(Optimizer):
    r"""The Momentum algorithm.

    .. math::
        v_{t+1} = v_{t} \ast u + grad

    With ``use_nesterov``: :math:`p_{t+1} = p_{t} - (grad \ast lr + v_{t+1} \ast u \ast lr)`, otherwise
    :math:`p_{t+1} = p_{t} - lr \ast v_{t+1}`. Weight decay (a number or a cell of the step) is added to the
    gradient and the loss scale removed before the update (see :class:`Optimizer`).

    Args:
        params (Union[list[Parameter], list[dict]]): parameters or parameter groups.
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): the learning rate.
        momentum (float): at least 0.0.
        weight_decay (Union[float, int, Cell]): Default: ``0.0``.
        loss_scale (float): Default: ``1.0``.
        use_nesterov (bool): Default: ``False``.

    Inputs:
        - **gradients** (tuple[Tensor]) - aligned with ``optimizer.parameters``.

    Examples:
        >>> net = nn.Dense(3, 2)
        >>> opt = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
        >>> loss_fn = nn.MSELoss()
        >>> grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)
        >>> loss, grads = grad_fn(Tensor(np.ones((4, 3), np.float32)), Tensor(np.zeros((4, 2), np.float32)))
        >>> _ = opt(grads)  # one update of net.weight and net.bias
    """

    @opt_init_args_register
    def __init__(self, params: Any, learning_rate: Any, momentum: float, weight_decay: Any = 0.0,
                 loss_scale: float = 1.0, use_nesterov: bool = False) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if not isinstance(momentum, float):
            raise TypeError(f"For 'Momentum', 'momentum' must be a float, got {type(momentum).__name__}")
        if momentum < 0.0:
            raise ValueError(f"For 'Momentum', 'momentum' must be at least 0.0, got {momentum}")
        if not isinstance(use_nesterov, bool):
            raise TypeError(f"For 'Momentum', 'use_nesterov' must be a bool, got {type(use_nesterov).__name__}")
        self.momentum = Parameter(np.asarray(momentum, np.float32), name="momentum", requires_grad=False)
        self.use_nesterov = use_nesterov
        self.moments = self.parameters.clone(prefix="moments", init="zeros")

    def _update(self, w: np.ndarray, v: np.ndarray, g: np.ndarray, uu: Any, lr: Any, t: np.ndarray) -> None:
        np.multiply(v, uu, out=v)                     # v = v * u + g
        np.add(v, g, out=v, casting="same_kind")
        if self.use_nesterov:                         # w -= g * lr + v * u * lr
            np.multiply(v, uu, out=t)
            np.multiply(t, lr, out=t)
            np.add(np.multiply(g, lr), t, out=t)
        else:                                         # w -= v * lr
            np.multiply(v, lr, out=t)
        np.subtract(w, t, out=w)

    @property
    def params(self) -> Any:
        return self.parameters

    def construct(self, gradients: Any) -> bool:
        grads, lrs = self._prepared(gradients)
        u = np.float32(self.momentum.asnumpy())
        scratch: dict = {}  # one block-sized temporary per dtype
        for p, g, lr, mom in zip(self.parameters, grads, lrs, self.moments):
            w, v = writable(p), writable(mom)
            uu, lr = u.astype(w.dtype), lr.astype(w.dtype)
            if w.dtype not in scratch:
                scratch[w.dtype] = np.empty(UPDATE_BLOCK, w.dtype)
            if w.flags.c_contiguous and v.flags.c_contiguous and g.shape == w.shape:
                wf, vf, gf = w.reshape(-1), v.reshape(-1), np.ascontiguousarray(g).reshape(-1)
                for i in range(0, wf.size, UPDATE_BLOCK):  # every step per cache-sized block: one pass
                    j = min(wf.size, i + UPDATE_BLOCK)
                    self._update(wf[i:j], vf[i:j], gf[i:j], uu, lr, scratch[w.dtype][:j - i])
            else:
                self._update(w, v, g, uu, lr, np.empty(w.shape, w.dtype))
            p.mark_updated()
            mom.mark_updated()
        return True

    def _construct_traced(self, gradients: Any) -> bool:
        """The update above in ops, for a compiled training step."""
        grads, lrs = self._prepared_tensors(gradients)
        for p, g, lr, mom in zip(self.parameters, grads, lrs, self.moments):
            uu, lr = ops.cast(self.momentum, p.dtype), ops.cast(lr, p.dtype)
            v = ops.add(ops.mul(mom, uu), g)
            if self.use_nesterov:
                t = ops.add(ops.mul(g, lr), ops.mul(ops.mul(v, uu), lr))
            else:
                t = ops.mul(v, lr)
            assign(mom, v)
            assign(p, ops.sub(p, t))
        return True
