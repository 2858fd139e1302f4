"""AdaFactor (MindSpore's AdaFactor update: factored second moments, update clipping, relative step size),
written in ops."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import ops
from cellonnx.nn.optim._checks import check_bool, check_non_negative, check_range
from cellonnx.nn.optim.optimizer import Optimizer, assign, opt_init_args_register
from cellonnx.nn.parameter_tuple import ParameterTuple
from cellonnx.tensor import Parameter, Tensor

__all__ = ["AdaFactor"]


def _rms(x: Tensor) -> Tensor:
    return ops.sqrt(ops.mean(ops.square(x)))


class AdaFactor(Optimizer):
    r"""AdaFactor: adaptive learning rates with sublinear memory.

    For a matrix (2-D or more) parameter the second moment is kept factored, as running means of the squared
    gradient over the last axis (``exp_avg_sq_row``) and over the one before (``exp_avg_sq_col``):

    .. math::
        \begin{array}{l}
            \hat\beta_{2t} = 1 - t^{-c} \\
            R_t = \hat\beta_{2t} R_{t-1} + (1 - \hat\beta_{2t}) \text{mean}_{-1}(G_t^2 + \epsilon_1) \\
            C_t = \hat\beta_{2t} C_{t-1} + (1 - \hat\beta_{2t}) \text{mean}_{-2}(G_t^2 + \epsilon_1) \\
            U_t = G_t \big/ \sqrt{R_t / \text{mean}(R_t) \otimes C_t} \\
            \hat U_t = U_t / \max(1, \text{RMS}(U_t) / d) \cdot \alpha_t \\
            X_t = X_{t-1} - \hat U_t
        \end{array}

    (a vector keeps the whole ``exp_avg_sq``).
    :math:`\alpha_t = lr \cdot \max(\epsilon_2, \text{RMS}(X_{t-1}))` with ``scale_parameter``; with
    ``relative_step`` the rate is :math:`\min(10^{-2}, 1/\sqrt{t})` (or
    :math:`\min(10^{-6} t, 1/\sqrt{t})` with ``warmup_init``). With ``beta1`` > 0 the update is averaged in
    ``exp_avg`` first; weight decay (decoupled, times :math:`\alpha_t`) applies to every parameter. Gradients
    are not divided by a loss scale, as in MindSpore.

    Args:
        params (Union[list[Parameter], list[dict]]): parameters or parameter groups.
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule], optional): must be None with
            ``relative_step``. Default: ``None``.
        eps (tuple[float, float]): :math:`(\epsilon_1, \epsilon_2)`. Default: ``(1e-30, 1e-3)``.
        clip_threshold (float): :math:`d`. Default: ``1.0``.
        decay_rate (float): :math:`c`, in (0, 1). Default: ``0.8``.
        beta1 (float): the first moment's decay; 0 or None for none. Default: ``0.9``.
        weight_decay (float): in [0, 1). Default: ``0.0``.
        scale_parameter (bool): scale the rate by the parameter's RMS. Default: ``True``.
        relative_step (bool): the time-dependent rate. Default: ``True``.
        warmup_init (bool): warm the relative rate up. Default: ``False``.
        compression (bool): keep the first moment in float16 for a float32 gradient. Default: ``False``.
        loss_scale (float): Default: ``1.0``.

    Inputs:
        - **gradients** (tuple[Tensor]) - aligned with ``optimizer.parameters``.

    Examples:
        >>> net = nn.Dense(3, 2)
        >>> opt = nn.AdaFactor(net.trainable_params(), learning_rate=None, relative_step=True)
        >>> loss_fn = nn.MSELoss()
        >>> grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)
        >>> loss, grads = grad_fn(Tensor(np.ones((4, 3), np.float32)), Tensor(np.zeros((4, 2), np.float32)))
        >>> _ = opt(grads)  # one update of net.weight and net.bias
    """

    _support_parallel_optimizer = True

    @opt_init_args_register
    def __init__(self, params: Any, learning_rate: Any = None, eps: Any = (1e-30, 1e-3),
                 clip_threshold: float = 1.0, decay_rate: float = 0.8, beta1: Any = 0.9,
                 weight_decay: float = 0.0, scale_parameter: bool = True, relative_step: bool = True,
                 warmup_init: bool = False, compression: bool = False, loss_scale: float = 1.0) -> None:
        if learning_rate is not None and relative_step:
            raise ValueError("Cannot combine manual lr and relative_step options", learning_rate)
        if warmup_init and not relative_step:
            raise ValueError("warmup_init requires relative_step=True")
        if learning_rate is None and not relative_step:
            raise ValueError("Cannot learning_rate is None and relative_step=False")
        if learning_rate is None:
            learning_rate = 0.0
        if beta1 is None:
            beta1 = 0.0
        self.scale_lr = isinstance(learning_rate, (float, int))
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if not isinstance(eps, (list, tuple)):
            raise TypeError("For 'AdaFactor', the 'eps' must be a list or tuple, but got "
                            f"{type(eps).__name__}.")
        if len(eps) != 2:
            raise ValueError("eps must have 2 value: (eps1, eps2).")
        for i, e in enumerate(eps):
            check_non_negative(e, f"eps{i}", self.cls_name)
        check_non_negative(clip_threshold, "clip_threshold", self.cls_name)
        check_range(decay_rate, "decay_rate", self.cls_name, 0.0, 1.0, closed=False)
        if not isinstance(weight_decay, (int, float)) or not 0 <= weight_decay < 1:
            raise ValueError("For 'AdaFactor', the 'weight_decay' must be in [0, 1), but got "
                             f"{weight_decay!r}.")
        for name, v in (("scale_parameter", scale_parameter), ("relative_step", relative_step),
                        ("compression", compression)):
            check_bool(v, name, self.cls_name)
        if isinstance(beta1, bool) or not isinstance(beta1, (int, float)):
            raise TypeError("For 'AdaFactor', the 'beta1' must be an int or float, but got "
                            f"{type(beta1).__name__}.")
        check_non_negative(float(beta1), "beta1", self.cls_name)
        self.eps = tuple(np.float32(e) for e in eps)
        self.clip_threshold = np.float32(clip_threshold)
        self.decay_rate = np.float32(-decay_rate)
        self.beta1 = np.float32(beta1)
        self.weight_decay = np.float32(weight_decay)
        self.weight_decay_flag = bool(weight_decay)
        self.scale_parameter = scale_parameter if self.scale_lr else False
        self.relative_step = relative_step
        self.warmup_init = warmup_init
        self.compression = compression
        self.init_ada_factor_state(beta1)
        self.step = Parameter(np.zeros((1,), np.float32), name="afactor_step", requires_grad=False)

    def init_ada_factor_state(self, beta1: float) -> None:
        """The state: ``exp_avg`` (when beta1 > 0), and per parameter the factored row / column means or the
        full second moment."""
        if beta1 > 0:
            self.use_first_moment = True
            self.exp_avg = self.parameters.clone(prefix="exp_avg", init="zeros")
        else:
            self.use_first_moment = False
            self.exp_avg = ParameterTuple([Parameter(Tensor(0.0))] * len(self.parameters))
        rows, cols, full = [], [], []
        for p in self.parameters:
            shape, dt, name = tuple(p.shape), p._data.dtype, p.name
            if len(shape) > 1:
                rows.append(Parameter(np.zeros(shape[:-1], dt), name=f"exp_avg_sq_row_{name}"))
                cols.append(Parameter(np.zeros(shape[:-2] + shape[-1:], dt), name=f"exp_avg_sq_col_{name}"))
                full.append(Parameter(np.zeros((1,), dt), name=f"exp_avg_sq_{name}"))
            else:
                rows.append(Parameter(np.zeros((1,), dt), name=f"exp_avg_sq_row_{name}"))
                cols.append(Parameter(np.zeros((1,), dt), name=f"exp_avg_sq_col_{name}"))
                full.append(Parameter(np.zeros(shape, np.float16 if self.compression else dt),
                                      name=f"exp_avg_sq_{name}"))
        self.exp_avg_sq_row = ParameterTuple(rows)
        self.exp_avg_sq_col = ParameterTuple(cols)
        self.exp_avg_sq = ParameterTuple(full)

    @property
    def supports_memory_efficient_fp16(self) -> bool:
        return True

    @property
    def supports_flat_params(self) -> bool:
        return False

    def construct(self, gradients: Any) -> bool:
        grads = self._gradient_tensors(gradients)
        lrs = self._lr_tensors()
        self._advance()
        step = ops.add(self.step, 1.0)
        assign(self.step, step)
        step = ops.reshape(step, ())
        if self.scale_lr and self.relative_step:
            min_step = ops.mul(step, 1e-6) if self.warmup_init else 1e-2
            lrs = [ops.minimum(min_step, ops.div(1.0, ops.sqrt(step)))] * self.param_length
        beta2t = ops.sub(1.0, ops.pow(step, self.decay_rate))
        for i, (p, g) in enumerate(zip(self.parameters, grads)):
            self._update(p, g, ops.reshape(lrs[i], ()), beta2t, i)
        return True

    def _update(self, param: Parameter, grad: Tensor, lr: Tensor, beta2t: Tensor, i: int) -> None:
        grad_dtype = grad._data.dtype
        g = ops.cast(grad, np.float32) if grad_dtype == np.float16 else grad
        w = ops.cast(param, np.float32) if param._data.dtype == np.float16 else param
        if self.scale_parameter:
            lr = ops.mul(lr, ops.maximum(self.eps[1], _rms(w)))
        update = ops.add(ops.square(g), self.eps[0])
        if g.ndim >= 2:
            row_p, col_p = self.exp_avg_sq_row[i], self.exp_avg_sq_col[i]
            keep = ops.sub(1.0, beta2t)
            row = ops.add(ops.mul(ops.cast(row_p, g.dtype), beta2t), ops.mul(ops.mean(update, -1), keep))
            col = ops.add(ops.mul(ops.cast(col_p, g.dtype), beta2t), ops.mul(ops.mean(update, -2), keep))
            assign(row_p, row)
            assign(col_p, col)
            row, col = ops.cast(row_p, g.dtype), ops.cast(col_p, g.dtype)
            r_factor = ops.expand_dims(ops.div(1.0, ops.sqrt(ops.div(row, ops.mean(row, -1, True)))), -1)
            c_factor = ops.div(1.0, ops.sqrt(ops.expand_dims(col, -2)))
            update = ops.mul(ops.mul(r_factor, c_factor), g)
        else:
            sq_p = self.exp_avg_sq[i]
            sq = ops.add(ops.mul(ops.cast(sq_p, g.dtype), beta2t), ops.mul(update, ops.sub(1.0, beta2t)))
            assign(sq_p, sq)
            update = ops.mul(ops.div(1.0, ops.sqrt(ops.cast(sq_p, g.dtype))), g)
        coef = ops.maximum(ops.div(_rms(update), self.clip_threshold), 1.0)
        update = ops.mul(ops.div(update, coef), lr)
        if self.use_first_moment:
            avg_p = self.exp_avg[i]
            avg = ops.cast(avg_p, g.dtype) if self.compression else avg_p
            avg = ops.add(ops.mul(avg, self.beta1), ops.mul(update, 1.0 - self.beta1))
            assign(avg_p, avg)
            update = avg_p
        if self.weight_decay_flag:
            w = ops.add(w, ops.mul(w, ops.mul(lr, -self.weight_decay)))
        assign(param, ops.sub(w, update))
