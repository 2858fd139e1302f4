"""LARS: layer-wise adaptive rate scaling around another optimizer (MindSpore's LARSUpdate kernel)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from cellonnx import ops
from cellonnx.nn.optim.optimizer import Optimizer, opt_init_args_register
from cellonnx.tensor import Parameter, Tensor

__all__ = ["LARS"]

_F32 = np.float32


def _default_lars_filter(p: Parameter) -> bool:
    return "LayerNorm" not in p.name and "bias" not in p.name


class LARS(Optimizer):
    r"""Wrap an optimizer and rescale each filtered parameter's gradient by its local learning rate.

    .. math::
        \begin{array}{l}
            \gamma^l = \eta \frac{\|w\|}{\|g\| + \lambda \|w\| + \epsilon} \\
            g \leftarrow \gamma^l (g + \lambda w)
        \end{array}

    With ``use_clip``, :math:`\gamma^l = \min(\max(\gamma^l / lr, 0), 1)` (lr: the wrapped optimizer's rate of
    the step). The wrapped optimizer then updates with the new gradients; its own weight decay and loss-scale
    division are taken over by LARS (as in MindSpore: parameters the filter leaves out get no weight decay).

    Args:
        optimizer (Optimizer): the optimizer whose gradients are rescaled.
        epsilon (float): Default: ``1e-05``.
        coefficient (float): the trust coefficient :math:`\eta`. Default: ``0.001``.
        use_clip (bool): Default: ``False``.
        lars_filter (Callable): which parameters LARS rescales. Default: not 'LayerNorm' and not 'bias' in the
            name.

    Keyword Args:
        hyperpara (float): MindSpore 0.x's name of ``coefficient`` (it wins when given).

    Examples:
        >>> net = nn.Dense(3, 2)
        >>> opt = nn.LARS(nn.Momentum(net.trainable_params(), 0.1, 0.9), coefficient=0.02)
        >>> loss_fn = nn.MSELoss()
        >>> grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)
        >>> loss, grads = grad_fn(Tensor(np.ones((4, 3), np.float32)), Tensor(np.zeros((4, 2), np.float32)))
        >>> _ = opt(grads)  # one update of net.weight and net.bias
    """

    @opt_init_args_register
    def __init__(self, optimizer: Optimizer, epsilon: float = 1e-05, coefficient: float = 0.001,
                 use_clip: bool = False, lars_filter: Callable[[Parameter], bool] = _default_lars_filter, *,
                 hyperpara: float | None = None) -> None:
        if hyperpara is not None:  # MindSpore 0.x's name of the coefficient
            coefficient = hyperpara
        super().__init__(0.0, [Parameter(Tensor(0.0), name="fake_param")])
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"For 'LARS', 'optimizer' must be an Optimizer, got {type(optimizer).__name__}")
        for key, v in (("epsilon", epsilon), ("coefficient", coefficient)):
            if not isinstance(v, float):
                raise TypeError(f"For 'LARS', '{key}' must be a float, got {type(v).__name__}")
        if not isinstance(use_clip, bool):
            raise TypeError(f"For 'LARS', 'use_clip' must be a bool, got {type(use_clip).__name__}")
        self.opt = optimizer
        self.epsilon = _F32(epsilon)
        self.coefficient = _F32(coefficient)
        self.use_clip = use_clip
        self.dynamic_decay_flags = optimizer.dynamic_decay_flags
        self.dynamic_weight_decay = optimizer.dynamic_weight_decay
        self.weight_decay = optimizer.weight_decay
        self.global_step = optimizer.global_step
        self.parameters = optimizer.parameters
        self.param_length = optimizer.param_length
        self.lars_flag = tuple(bool(lars_filter(p)) for p in self.parameters)
        self.is_group = optimizer.is_group
        self.decay_flags = optimizer.decay_flags
        self.reciprocal_scale = optimizer.reciprocal_scale
        self.need_scale = optimizer.need_scale
        self.loss_scale = optimizer.loss_scale
        self.exec_weight_decay = optimizer.exec_weight_decay
        if use_clip and optimizer.is_group_lr and optimizer.dynamic_lr:
            raise ValueError("For 'LARS', with 'use_clip' the wrapped optimizer can not have both group and "
                             "dynamic learning rates")
        # LARS applies the decay and the loss-scale division itself
        optimizer.decay_flags = tuple(False for _ in self.decay_flags)
        optimizer.exec_weight_decay = False
        optimizer.need_scale = False

    def construct(self, gradients: Any) -> Any:
        grads = self._check_gradients(gradients)
        wds = self._weight_decays_np()
        if self.need_scale:
            grads = [g * self.reciprocal_scale.astype(g.dtype) for g in grads]
        lrs = self.opt._lrs_np() if self.use_clip else [_F32(0.0)] * self.param_length
        scale = _F32(self.loss_scale)
        out = []
        for p, g, wd, lr, lars in zip(self.parameters, grads, wds, lrs, self.lars_flag):
            if not lars:
                out.append(Tensor._make(g))
                continue
            w = p.asnumpy()
            decay = _F32(0.0) if wd is None else wd / scale
            w_norm = np.sqrt(np.sum(w.astype(_F32) ** 2, dtype=_F32))
            g_norm = np.sqrt(np.sum(g.astype(_F32) ** 2, dtype=_F32))
            coeff = self.coefficient * w_norm / (g_norm + decay * w_norm + self.epsilon)
            if self.use_clip:
                coeff = np.clip(coeff / lr, _F32(0.0), _F32(1.0))
            out.append(Tensor._make(((g + decay.astype(w.dtype) * w) * coeff.astype(w.dtype)).astype(w.dtype)))
        return self.opt(tuple(out))

    def _construct_traced(self, gradients: Any) -> Any:
        """The scaling above in ops, for a compiled training step; the wrapped optimizer's own ops form
        follows."""
        grads = self._gradient_tensors(gradients)
        wds = self._weight_decay_tensors()
        if self.need_scale:
            grads = tuple(ops.mul(g, ops.cast(self.reciprocal_scale, g.dtype)) for g in grads)
        lrs = self.opt._lr_tensors() if self.use_clip else [None] * self.param_length
        scale = _F32(self.loss_scale)
        out = []
        for p, g, wd, lr, lars in zip(self.parameters, grads, wds, lrs, self.lars_flag):
            if not lars:
                out.append(g)
                continue
            decay = Tensor(_F32(0.0)) if wd is None else ops.div(wd, scale)
            w_norm = ops.sqrt(ops.sum(ops.pow(ops.cast(p, _F32), 2.0)))
            g_norm = ops.sqrt(ops.sum(ops.pow(ops.cast(g, _F32), 2.0)))
            coeff = ops.div(ops.mul(self.coefficient, w_norm),
                            ops.add(ops.add(g_norm, ops.mul(decay, w_norm)), self.epsilon))
            if self.use_clip:
                coeff = ops.clip_by_value(ops.div(coeff, lr), Tensor(_F32(0.0)), Tensor(_F32(1.0)))
            upd = ops.mul(ops.add(g, ops.mul(ops.cast(decay, p.dtype), p)), ops.cast(coeff, p.dtype))
            out.append(upd)
        return self.opt(tuple(out))
