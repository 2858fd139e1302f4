"""MindSpore's fused Adafactor update classes (``ops.FusedAdaFactor``, ``ops.FusedAdaFactorWithGlobalNorm``):
table rows (see table.py) computing the update in cellonnx ops and writing it into the Parameter inputs in
place, as optim_ops.py's classes do (the update is not recorded for autograd).

The step, as MindSpore's CPU kernel computes it (Shazeer & Stern's Adafactor), for gradient G of param X:
``G2 = G^2 + eps[0]``; a parameter of rank >= 2 keeps factored second moments over its last two dims,
``R = b2 R + (1 - b2) mean(G2, -1)``, ``C = b2 C + (1 - b2) mean(G2, -2)``, ``U = G / sqrt(R / mean(R) * C)``;
a vector keeps ``V = b2 V + (1 - b2) G2``, ``U = G / sqrt(V)``. Then ``U /= max(1, RMS(U) / clip_threshold)``
and ``U *= lr`` (``lr * max(eps[1], RMS(X))`` with enable_scale_parameter); enable_first_moment averages it,
``M = b1 M + (1 - b1) U`` and ``U = M``; enable_weight_decay adds ``weight_decay * lr * X``; ``X -= U``.
The WithGlobalNorm form first divides the gradient by ``global_norm``. The returned value is MindSpore's
dummy output: a 1-tuple holding zeros of the parameter's shape (its contents are undefined in MindSpore).
"""
from __future__ import annotations

from typing import Any

from cellonnx.ops.operations.optim_ops import _s, _updating, _write
from cellonnx.ops.operations.table import Row, build
from cellonnx.tensor import Parameter, Tensor


def _check_flags(prim: Any) -> None:
    for name in ("enable_scale_parameter", "enable_first_moment", "enable_weight_decay"):
        if not isinstance(getattr(prim, name), bool):
            raise TypeError(f"For '{prim.name}', the '{name}' must be a bool, but got "
                            f"{type(getattr(prim, name)).__name__}.")
    prim.add_prim_attr("side_effect_mem", True)


def _rms(x: Tensor) -> Tensor:
    import cellonnx.ops as ops
    return ops.sqrt(ops.mean(ops.square(x)))


@_updating
def _adafactor(prim: Any, epsilon: Any, clip_threshold: Any, beta1: Any, beta2: Any, weight_decay: Any,
               learning_rate: Any, grad: Tensor, param: Tensor, exp_avg: Tensor, exp_avg_sq_row: Tensor,
               exp_avg_sq_col: Tensor, exp_avg_sq: Tensor, global_norm: Any = None) -> tuple[Tensor]:
    import cellonnx.ops as ops

    op = prim.name
    for name, t in (("grad", grad), ("param", param), ("exp_avg", exp_avg),
                    ("exp_avg_sq_row", exp_avg_sq_row), ("exp_avg_sq_col", exp_avg_sq_col),
                    ("exp_avg_sq", exp_avg_sq)):
        if not isinstance(t, Tensor):
            raise TypeError(f"For '{op}', '{name}' must be a Tensor, but got {type(t).__name__}.")
    if tuple(grad.shape) != tuple(param.shape):
        raise ValueError(f"For '{op}', 'grad_shape' must be equal to 'param_shape', but got "
                         f"{tuple(grad.shape)} and {tuple(param.shape)}.")
    eps = epsilon.asnumpy().tolist() if isinstance(epsilon, Tensor) else list(epsilon)
    if len(eps) != 2:
        raise ValueError(f"For '{op}', 'epsilon' must hold 2 values, but got {eps}.")
    eps0, eps1 = (_s(float(e), param) for e in eps)
    clip, b1, b2, wd, lr = (_s(v, param) for v in (clip_threshold, beta1, beta2, weight_decay, learning_rate))
    if global_norm is not None:
        grad = grad / _s(global_norm, param)
    one = _s(1.0, param)
    g2 = ops.square(grad) + eps0
    writes = []
    if param.ndim >= 2:
        row = b2 * exp_avg_sq_row + (one - b2) * ops.mean(g2, -1)
        col = b2 * exp_avg_sq_col + (one - b2) * ops.mean(g2, -2)
        factor = ops.expand_dims(row / ops.mean(row, -1, keep_dims=True), -1) * ops.expand_dims(col, -2)
        update = grad / ops.sqrt(factor)
        writes += [(exp_avg_sq_row, row), (exp_avg_sq_col, col)]
    else:
        sq = b2 * exp_avg_sq + (one - b2) * g2
        update = grad / ops.sqrt(sq)
        writes.append((exp_avg_sq, sq))
    update = update / ops.maximum(one, _rms(update) / clip)
    if prim.enable_scale_parameter:
        lr = lr * ops.maximum(eps1, _rms(param))
    update = update * lr
    if prim.enable_first_moment:
        update = b1 * exp_avg + (one - b1) * update
        writes.append((exp_avg, update))
    if prim.enable_weight_decay:
        update = update + wd * lr * param
    writes.append((param, param - update))
    _write(op, *writes)
    dummy = ops.zeros_like(param)
    return (dummy if not isinstance(dummy, Parameter) else Tensor(dummy.asnumpy()),)


_INIT = "enable_scale_parameter=False, enable_first_moment=False, enable_weight_decay=False"
_CALL = ("epsilon, clip_threshold, beta1, beta2, weight_decay, learning_rate, grad, param, exp_avg, "
         "exp_avg_sq_row, exp_avg_sq_col, exp_avg_sq")

ROWS = [
    Row("FusedAdaFactor", _INIT, _CALL, f"_adafactor(self, {_CALL})", _check_flags,
        summary="The Adafactor update (factored second moments) of ``param`` and its moments, in place.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> f = lambda v: Tensor(v, ms.float32)
        >>> param = Parameter(Tensor(np.ones((2, 3)), ms.float32), name="param")
        >>> exp_avg = Parameter(Tensor(np.zeros((2, 3)), ms.float32), name="exp_avg")
        >>> exp_avg_sq = Parameter(Tensor(np.zeros((2, 3)), ms.float32), name="exp_avg_sq")
        >>> exp_avg_sq_row = Parameter(Tensor(np.zeros(2), ms.float32), name="exp_avg_sq_row")
        >>> exp_avg_sq_col = Parameter(Tensor(np.zeros(3), ms.float32), name="exp_avg_sq_col")
        >>> grad = Tensor(np.array([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]]), ms.float32)
        >>> epsilon = Tensor(np.array([1e-30, 1e-3]), ms.float32)
        >>> clip, beta1, beta2, decay, lr = f(1.0), f(0.9), f(0.8), f(1e-2), f(0.03)
        >>> out = ops.FusedAdaFactor()(epsilon, clip, beta1, beta2, decay, lr, grad, param, exp_avg,
        ...                        exp_avg_sq_row, exp_avg_sq_col, exp_avg_sq)
        >>> print(param.asnumpy().round(4))
        [[0.9809 0.9707 0.9648]
         [0.9674 0.9688 0.97  ]]
        """),
    Row("FusedAdaFactorWithGlobalNorm", _INIT, _CALL + ", global_norm",
        f"_adafactor(self, {_CALL}, global_norm)", _check_flags,
        summary="FusedAdaFactor with the gradient first divided by ``global_norm`` (when it exceeds 1).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> f = lambda v: Tensor(v, ms.float32)
        >>> param = Parameter(Tensor(np.ones((2, 3)), ms.float32), name="param")
        >>> exp_avg = Parameter(Tensor(np.zeros((2, 3)), ms.float32), name="exp_avg")
        >>> exp_avg_sq = Parameter(Tensor(np.zeros((2, 3)), ms.float32), name="exp_avg_sq")
        >>> exp_avg_sq_row = Parameter(Tensor(np.zeros(2), ms.float32), name="exp_avg_sq_row")
        >>> exp_avg_sq_col = Parameter(Tensor(np.zeros(3), ms.float32), name="exp_avg_sq_col")
        >>> grad = Tensor(np.array([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]]), ms.float32)
        >>> epsilon = Tensor(np.array([1e-30, 1e-3]), ms.float32)
        >>> clip, beta1, beta2, decay, lr = f(1.0), f(0.9), f(0.8), f(1e-2), f(0.03)
        >>> op = ops.FusedAdaFactorWithGlobalNorm()
        >>> out = op(epsilon, clip, beta1, beta2, decay, lr, grad, param, exp_avg, exp_avg_sq_row,
        ...          exp_avg_sq_col, exp_avg_sq, f(2.0))
        >>> print(param.asnumpy().round(4))
        [[0.9809 0.9707 0.9648]
         [0.9674 0.9688 0.97  ]]
        """),
]

CLASSES = build(ROWS, globals())
globals().update(CLASSES)
__all__ = list(CLASSES)
