"""MindSpore's optimizer-update operator classes (``ops.ApplyMomentum``, ``ops.Adam``, the ``Apply*`` and
``SparseApply*`` families, ``ops.SGD``, ``ops.LARSUpdate``).

Each computes MindSpore's documented update in cellonnx ops and writes the new values into its Parameter
inputs in place, as MindSpore does; it returns the updated values (Tensors, not the Parameters). The updates
are not recorded for autograd. The sparse forms update the rows named by ``indices`` (repeated indices
first have their gradients summed, as MindSpore's CPU kernels do) and leave the other rows alone.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from cellonnx.autograd.tape import no_grad
from cellonnx.ops.operations._util import assign_to
from cellonnx.ops.operations.table import Row, build
from cellonnx.ops.prims._util import to_tensor
from cellonnx.ops.prims.math import (
    abs,
    add,
    div,
    exp,
    greater,
    maximum,
    mul,
    neg,
    pow,
    sign,
    sqrt,
    square,
    sub,
    where,
)
from cellonnx.tensor import Tensor


def _s(value: Any, like: Tensor) -> Tensor:
    """A scalar input (number or 0-d / 1-element Tensor) in ``like``'s dtype."""
    from cellonnx.ops import cast, reshape
    t = to_tensor(value, like)
    if t._data.dtype != like._data.dtype:
        t = cast(t, like._data.dtype)
    return reshape(t, ()) if t.ndim and t.size == 1 else t


def _updating(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Run an update without recording it for autograd."""
    def run(*args: Any) -> Any:
        with no_grad():
            return fn(*args)
    run.__name__ = fn.__name__
    return run


def _write(op: str, *pairs: tuple[Tensor, Tensor]) -> tuple[Tensor, ...]:
    return tuple(assign_to(var, new, op) for var, new in pairs)


def _prox(prox_v: Tensor, lr: Tensor, l1: Tensor, l2: Tensor) -> Tensor:
    """sign(prox_v) / (1 + lr * l2) * max(|prox_v| - lr * l1, 0) (lr: the step's own rate,
                                                                  lr / sqrt(accum) for
    the Adagrad forms)."""
    shrunk = maximum(sub(abs(prox_v), mul(lr, l1)), 0.0)
    return mul(div(sign(prox_v), add(1.0, mul(lr, l2))), shrunk)


# ---------------------------------------------------------------- dense updates
@_updating
def _apply_momentum(var: Tensor, accum: Tensor, lr: Any, grad: Tensor, momentum: Any, use_nesterov: bool,
                    gradient_scale: float) -> Tensor:
    lr, momentum = _s(lr, var), _s(momentum, var)
    if gradient_scale != 1.0:
        grad = mul(grad, _s(gradient_scale, var))
    new_accum = add(mul(accum, momentum), grad)
    step = add(grad, mul(new_accum, momentum)) if use_nesterov else new_accum
    return _write("ApplyMomentum", (accum, new_accum), (var, sub(var, mul(step, lr))))[-1]


@_updating
def _apply_keras_momentum(var: Tensor, accum: Tensor, lr: Any, grad: Tensor, momentum: Any,
                          use_nesterov: bool) -> tuple[Tensor, ...]:
    lr, momentum = _s(lr, var), _s(momentum, var)
    new_accum = sub(mul(accum, momentum), mul(grad, lr))
    new_var = add(var, sub(mul(new_accum, momentum), mul(grad, lr))) if use_nesterov else add(var, new_accum)
    return _write("ApplyKerasMomentum", (var, new_var), (accum, new_accum))


@_updating
def _apply_ada_max(var: Tensor, m: Tensor, v: Tensor, beta1_power: Any, lr: Any, beta1: Any, beta2: Any,
                   epsilon: Any, grad: Tensor) -> tuple[Tensor, ...]:
    b1p, lr, b1, b2, eps = (_s(a, var) for a in (beta1_power, lr, beta1, beta2, epsilon))
    new_m = add(mul(b1, m), mul(sub(1.0, b1), grad))
    new_v = maximum(mul(b2, v), abs(grad))
    new_var = sub(var, mul(div(lr, sub(1.0, b1p)), div(new_m, add(new_v, eps))))
    return _write("ApplyAdaMax", (var, new_var), (m, new_m), (v, new_v))


@_updating
def _apply_adadelta(var: Tensor, accum: Tensor, accum_update: Tensor, lr: Any, rho: Any, epsilon: Any,
                    grad: Tensor) -> tuple[Tensor, ...]:
    lr, rho, eps = (_s(a, var) for a in (lr, rho, epsilon))
    new_accum = add(mul(rho, accum), mul(sub(1.0, rho), square(grad)))
    update = mul(sqrt(add(accum_update, eps)), div(grad, sqrt(add(new_accum, eps))))
    new_update = add(mul(rho, accum_update), mul(sub(1.0, rho), square(update)))
    return _write("ApplyAdadelta", (var, sub(var, mul(lr, update))), (accum, new_accum),
                  (accum_update, new_update))


@_updating
def _apply_adagrad(var: Tensor, accum: Tensor, lr: Any, grad: Tensor, epsilon: Any, update_slots: bool,
                   op: str) -> tuple[Tensor, ...]:
    lr = _s(lr, var)
    new_accum = add(accum, square(grad)) if update_slots else accum
    denom = sqrt(new_accum) if epsilon is None else add(sqrt(new_accum), _s(epsilon, var))
    return _write(op, (var, sub(var, div(mul(lr, grad), denom))), (accum, new_accum))


@_updating
def _apply_adagrad_da(var: Tensor, grad_accum: Tensor, grad_sq_accum: Tensor, grad: Tensor, lr: Any, l1: Any,
                      l2: Any, global_step: Any) -> Tensor:
    lr, l1, l2, step = (_s(a, var) for a in (lr, l1, l2, global_step))
    new_ga = add(grad_accum, grad)
    new_gsa = add(grad_sq_accum, square(grad))
    shrunk = mul(sign(new_ga), maximum(sub(abs(new_ga), mul(l1, step)), 0.0))
    tmp = where(greater(l1, 0.0), shrunk, new_ga)
    new_var = div(mul(neg(lr), tmp), add(mul(mul(l2, step), lr), sqrt(new_gsa)))
    return _write("ApplyAdagradDA", (grad_accum, new_ga), (grad_sq_accum, new_gsa), (var, new_var))[-1]


@_updating
def _apply_amsgrad(var: Tensor, m: Tensor, v: Tensor, vhat: Tensor, beta1_power: Any, beta2_power: Any,
                   lr: Any, beta1: Any, beta2: Any, epsilon: Any, grad: Tensor, op: str) -> tuple:
    b1p, b2p, lr, b1, b2, eps = (_s(a, var) for a in (beta1_power, beta2_power, lr, beta1, beta2, epsilon))
    lr_t = div(mul(lr, sqrt(sub(1.0, b2p))), sub(1.0, b1p))
    new_m = add(mul(b1, m), mul(sub(1.0, b1), grad))
    new_v = add(mul(b2, v), mul(sub(1.0, b2), square(grad)))
    new_vhat = maximum(vhat, new_v)
    new_var = sub(var, div(mul(lr_t, new_m), add(sqrt(new_vhat), eps)))
    return _write(op, (var, new_var), (m, new_m), (v, new_v), (vhat, new_vhat))


@_updating
def _apply_sign(var: Tensor, m: Tensor, lr: Any, alpha_or_logbase: Any, sign_decay: Any, beta: Any,
                grad: Tensor, power: bool) -> tuple[Tensor, ...]:
    lr, a, decay, beta = (_s(x, var) for x in (lr, alpha_or_logbase, sign_decay, beta))
    new_m = add(mul(beta, m), mul(sub(1.0, beta), grad))
    agree = mul(mul(decay, sign(grad)), sign(new_m))
    scale = exp(mul(a, agree)) if power else add(a, agree)
    return _write("ApplyPowerSign" if power else "ApplyAddSign", (var, sub(var, mul(lr, mul(scale, grad)))),
                  (m, new_m))


@_updating
def _apply_rms_prop(var: Tensor, mean_square: Tensor, moment: Tensor, lr: Any, grad: Tensor, decay: Any,
                    momentum: Any, epsilon: Any, mean_grad: Tensor | None = None) -> Tensor:
    lr, decay, momentum, eps = (_s(a, var) for a in (lr, decay, momentum, epsilon))
    new_ms = add(mul(decay, mean_square), mul(sub(1.0, decay), square(grad)))
    denom = add(new_ms, eps)
    pairs = []
    if mean_grad is not None:
        new_mg = add(mul(decay, mean_grad), mul(sub(1.0, decay), grad))
        denom = sub(denom, square(new_mg))
        pairs.append((mean_grad, new_mg))
    new_mom = add(mul(momentum, moment), div(mul(lr, grad), sqrt(denom)))
    pairs += [(mean_square, new_ms), (moment, new_mom), (var, sub(var, new_mom))]
    return _write("ApplyCenteredRMSProp" if mean_grad is not None else "ApplyRMSProp", *pairs)[-1]


def _ftrl_step(var: Tensor, accum: Tensor, linear: Tensor, grad: Tensor, lr: Tensor, l1: Tensor, l2: Tensor,
               lr_power: Tensor, l2_shrinkage: Tensor | None = None) -> tuple[Tensor, Tensor, Tensor]:
    """The FTRL update: the new (var, accum, linear)."""
    shrunk_grad = grad if l2_shrinkage is None else add(grad, mul(mul(2.0, l2_shrinkage), var))
    new_accum = add(accum, square(grad))
    p = neg(lr_power)
    sigma = div(sub(pow(new_accum, p), pow(accum, p)), lr)
    new_linear = sub(add(linear, shrunk_grad), mul(sigma, var))
    quadratic = add(div(pow(new_accum, p), lr), mul(2.0, l2))
    solved = div(sub(mul(sign(new_linear), l1), new_linear), quadratic)
    new_var = where(greater(abs(new_linear), l1), solved, 0.0)
    return new_var, new_accum, new_linear


@_updating
def _apply_ftrl(var: Tensor, accum: Tensor, linear: Tensor, grad: Tensor, lr: Any, l1: Any, l2: Any,
                lr_power: Any) -> Tensor:
    new_var, new_accum, new_linear = _ftrl_step(var, accum, linear, grad, *(_s(a, var) for a in (lr, l1, l2,
                                                                                              lr_power)))
    return _write("ApplyFtrl", (var, new_var), (accum, new_accum), (linear, new_linear))[-1]


@_updating
def _apply_gradient_descent(var: Tensor, alpha: Any, delta: Tensor) -> Tensor:
    return _write("ApplyGradientDescent", (var, sub(var, mul(_s(alpha, var), delta))))[-1]


@_updating
def _apply_proximal_gradient_descent(var: Tensor, alpha: Any, l1: Any, l2: Any, delta: Tensor) -> Tensor:
    alpha, l1, l2 = (_s(a, var) for a in (alpha, l1, l2))
    new_var = _prox(sub(var, mul(alpha, delta)), alpha, l1, l2)
    return _write("ApplyProximalGradientDescent", (var, new_var))[-1]


@_updating
def _apply_proximal_adagrad(var: Tensor, accum: Tensor, lr: Any, l1: Any, l2: Any, grad: Tensor) -> tuple:
    lr, l1, l2 = (_s(a, var) for a in (lr, l1, l2))
    new_var, new_accum = _proximal_adagrad_rows(var, accum, grad, lr, l1, l2)
    return _write("ApplyProximalAdagrad", (var, new_var), (accum, new_accum))


def _adam_step(var: Tensor, m: Tensor, v: Tensor, beta1_power: Any, beta2_power: Any, lr: Any, beta1: Any,
               beta2: Any, epsilon: Any, grad: Tensor, use_nesterov: bool) -> tuple[Tensor, Tensor, Tensor]:
    """(delta, new m, new v) of Adam: delta = -lr_t * m / (sqrt(v) + eps)."""
    b1p, b2p, lr, b1, b2, eps = (_s(a, m) for a in (beta1_power, beta2_power, lr, beta1, beta2, epsilon))
    new_m = add(mul(b1, m), mul(sub(1.0, b1), grad))
    new_v = add(mul(b2, v), mul(sub(1.0, b2), square(grad)))
    lr_t = div(mul(lr, sqrt(sub(1.0, b2p))), sub(1.0, b1p))
    num = add(mul(new_m, b1), mul(sub(1.0, b1), grad)) if use_nesterov else new_m
    return neg(div(mul(lr_t, num), add(sqrt(new_v), eps))), new_m, new_v


@_updating
def _adam(var: Tensor, m: Tensor, v: Tensor, beta1_power: Any, beta2_power: Any, lr: Any, beta1: Any,
          beta2: Any, epsilon: Any, grad: Tensor, use_nesterov: bool) -> tuple[Tensor, ...]:
    delta, new_m, new_v = _adam_step(var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad,
                                     use_nesterov)
    return _write("Adam", (var, add(var, delta)), (m, new_m), (v, new_v))


@_updating
def _adam_no_update_param(m: Tensor, v: Tensor, beta1_power: Any, beta2_power: Any, lr: Any, beta1: Any,
                          beta2: Any, epsilon: Any, grad: Tensor, use_nesterov: bool) -> Tensor:
    delta, new_m, new_v = _adam_step(m, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad,
                                     use_nesterov)
    _write("AdamNoUpdateParam", (m, new_m), (v, new_v))
    return delta


@_updating
def _adam_weight_decay(var: Tensor, m: Tensor, v: Tensor, lr: Any, beta1: Any, beta2: Any, epsilon: Any,
                       decay: Any, grad: Tensor) -> tuple[Tensor, ...]:
    lr, b1, b2, eps, wd = (_s(a, var) for a in (lr, beta1, beta2, epsilon, decay))
    new_m = add(mul(b1, m), mul(sub(1.0, b1), grad))
    new_v = add(mul(b2, v), mul(sub(1.0, b2), square(grad)))
    update = add(div(new_m, add(sqrt(new_v), eps)), mul(wd, var))
    return _write("AdamWeightDecay", (var, sub(var, mul(lr, update))), (m, new_m), (v, new_v))


@_updating
def _fused_cast_adam_weight_decay(var: Tensor, m: Tensor, v: Tensor, lr: Any, beta1: Any, beta2: Any,
                                  epsilon: Any, decay: Any, grad: Tensor,
                                  global_norm: Any) -> tuple[Tensor, ...]:
    """AdamWeightDecay with the moments kept in their own (float32) dtype and the gradient (float16) and the
    weights cast to it for the update; the gradient is divided by ``global_norm`` first, as MindSpore's CPU
    kernel does."""
    from cellonnx.ops import cast
    lr, b1, b2, eps, wd = (_s(a, m) for a in (lr, beta1, beta2, epsilon, decay))
    g, w = cast(grad, m._data.dtype), cast(var, m._data.dtype)
    if not (isinstance(global_norm, (int, float)) and global_norm == 1):
        g = div(g, _s(global_norm, m))
    new_m = add(mul(b1, m), mul(sub(1.0, b1), g))
    new_v = add(mul(b2, v), mul(sub(1.0, b2), square(g)))
    update = add(div(new_m, add(sqrt(new_v), eps)), mul(wd, w))
    return _write("FusedCastAdamWeightDecay", (var, sub(w, mul(lr, update))), (m, new_m), (v, new_v))


@_updating
def _fused_weight_scale_momentum(weight_decay: Any, loss_scale: Any, var: Tensor, accum: Tensor, lr: Any,
                                 grad: Tensor, momentum: Any) -> Tensor:
    """Momentum on ``grad * loss_scale + weight_decay * var`` (MindSpore's fused GPU kernel)."""
    wd, scale, lr, momentum = (_s(a, var) for a in (weight_decay, loss_scale, lr, momentum))
    g = add(mul(var, wd), mul(grad, scale))
    new_accum = add(mul(momentum, accum), g)
    new_var = sub(var, mul(lr, new_accum))
    return _write("FusedWeightScaleApplyMomentum", (accum, new_accum), (var, new_var))[-1]


@_updating
def _sgd(param: Tensor, grad: Tensor, lr: Any, accum: Tensor, momentum: Any, stat: Tensor, dampening: float,
         weight_decay: float, nesterov: bool) -> Tensor:
    """MindSpore's SGD kernel: weight decay, then momentum (the first step, where ``stat`` > 0, takes the
    gradient as the velocity and clears ``stat``), then the step."""
    lr, momentum = _s(lr, param), _s(momentum, param)
    g = add(grad, mul(_s(weight_decay, param), param)) if weight_decay else grad
    if float(momentum.asnumpy()) > 0:
        first = greater(stat, 0.0)
        new_accum = where(first, g, add(mul(accum, momentum), mul(_s(1.0 - dampening, param), g)))
        step = add(g, mul(momentum, new_accum)) if nesterov else new_accum
        _write("SGD", (accum, new_accum), (stat, where(first, 0.0, stat)))
    else:
        step = g
    return _write("SGD", (param, sub(param, mul(lr, step))))[-1]


@_updating
def _lars_update(weight: Tensor, gradient: Tensor, norm_weight: Any, norm_gradient: Any, weight_decay: Any,
                 learning_rate: Any, epsilon: float, hyperpara: float, use_clip: bool) -> Tensor:
    """The gradient rescaled by the layer's trust ratio (weight decay folded in first)."""
    from cellonnx.ops import clamp
    wd, lr = _s(weight_decay, weight), _s(learning_rate, weight)
    w_norm, g_norm = sqrt(_s(norm_weight, weight)), sqrt(_s(norm_gradient, weight))
    coeff = div(mul(hyperpara, w_norm), add(add(g_norm, mul(wd, w_norm)), epsilon))
    if use_clip:
        coeff = clamp(div(coeff, lr), 0.0, 1.0)
    return mul(add(gradient, mul(wd, weight)), coeff)


# ---------------------------------------------------------------- sparse updates
def _unique_rows(grad: Tensor, indices: Any, op: str) -> tuple[Tensor, Tensor]:
    """(unique indices, the summed gradient rows of each)."""
    from cellonnx.ops import index_add, zeros
    idx = to_tensor(indices)
    arr = idx.asnumpy().reshape(-1)
    uniq, inverse = np.unique(arr, return_inverse=True)
    if uniq.size == arr.size and np.all(np.diff(arr) > 0):
        return idx, grad
    rows = index_add(zeros((uniq.size,) + tuple(grad.shape[1:]), dtype=grad.dtype),
                     Tensor(inverse.astype(np.int64)), grad, 0)
    return Tensor(uniq.astype(arr.dtype)), rows


def _put_rows(var: Tensor, idx: Tensor, rows: Tensor) -> Tensor:
    """``var`` with the rows at the (unique) ``idx`` replaced by ``rows``."""
    from cellonnx.ops import index_add, reshape, zeros, zeros_like
    placed = index_add(zeros_like(var), idx, rows, 0)
    ones = Tensor(np.ones(idx.shape, var.asnumpy().dtype))
    hit = index_add(zeros((var.shape[0],), dtype=var.dtype), idx, ones, 0)
    mask = greater(reshape(hit, (-1,) + (1,) * (var.ndim - 1)), 0.0)
    return where(mask, placed, var)


def _sparse(op: str, step: Callable[..., tuple], slots: tuple[Tensor, ...], grad: Tensor, indices: Any,
            *scalars: Any, sequential: bool = False) -> tuple[Tensor, ...]:
    """Apply ``step(*slot_rows, grad_rows, *scalars) -> new slot rows`` to the rows of ``indices``: repeated
    indices have their gradients summed first, or (``sequential``) are applied one after the other."""
    from cellonnx.ops import gather
    var = slots[0]
    if tuple(grad.shape[1:]) != tuple(var.shape[1:]):
        raise ValueError(f"For '{op}', the grad of shape {tuple(grad.shape)} must be indices.shape + "
                         f"var.shape[1:] = {tuple(to_tensor(indices).shape) + tuple(var.shape[1:])}")
    if sequential:
        steps = [(Tensor(ix), gather(grad, Tensor(pos), 0))
                 for ix, pos in _rounds(to_tensor(indices).asnumpy().reshape(-1))]
    else:
        steps = [_unique_rows(grad, indices, op)]
    values = list(slots)
    for idx, g in steps:
        rows = [gather(s, idx, 0) for s in values]
        new_rows = step(*rows, g, *(_s(a, var) for a in scalars))
        values = [_put_rows(s, idx, r) for s, r in zip(values, new_rows)]
    return _write(op, *zip(slots, values))


def _rounds(indices: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """The positions of ``indices`` split into rounds of distinct indices, in order: round r holds each
    index's r-th occurrence, as (indices, positions)."""
    seen: dict[int, int] = {}
    rounds: list[tuple[list[int], list[int]]] = []
    for pos, i in enumerate(indices.tolist()):
        r = seen.get(i, 0)
        seen[i] = r + 1
        if r == len(rounds):
            rounds.append(([], []))
        rounds[r][0].append(i)
        rounds[r][1].append(pos)
    return [(np.array(ix, indices.dtype), np.array(ps, np.int64)) for ix, ps in rounds]


def _adagrad_rows(var: Tensor, accum: Tensor, g: Tensor, lr: Tensor, eps: Tensor | None = None,
                  update_slots: bool = True) -> tuple[Tensor, Tensor]:
    new_accum = add(accum, square(g)) if update_slots else accum
    denom = sqrt(new_accum) if eps is None else add(sqrt(new_accum), eps)
    return sub(var, div(mul(lr, g), denom)), new_accum


@_updating
def _sparse_adagrad(var: Tensor, accum: Tensor, grad: Tensor, indices: Any, lr: float, epsilon: Any,
                    update_slots: bool, op: str) -> tuple[Tensor, ...]:
    if epsilon is None:
        return _sparse(op, lambda v, a, g, lr_: _adagrad_rows(v, a, g, lr_, None, update_slots), (var, accum),
                       grad, indices, lr)
    return _sparse(op, lambda v, a, g, lr_, e: _adagrad_rows(v, a, g, lr_, e, update_slots), (var, accum),
                   grad, indices, lr, epsilon)


def _adadelta_rows(var: Tensor, accum: Tensor, accum_update: Tensor, g: Tensor, lr: Tensor, rho: Tensor,
                   eps: Tensor) -> tuple[Tensor, Tensor, Tensor]:
    new_accum = add(mul(rho, accum), mul(sub(1.0, rho), square(g)))
    update = mul(sqrt(add(accum_update, eps)), div(g, sqrt(add(new_accum, eps))))
    new_update = add(mul(rho, accum_update), mul(sub(1.0, rho), square(update)))
    return sub(var, mul(lr, update)), new_accum, new_update


@_updating
def _sparse_adadelta(var: Tensor, accum: Tensor, accum_update: Tensor, lr: Any, rho: Any, grad: Tensor,
                     indices: Any, epsilon: float) -> tuple[Tensor, ...]:
    return _sparse("SparseApplyAdadelta", _adadelta_rows, (var, accum, accum_update), grad, indices, lr, rho,
                   epsilon)


@_updating
def _sparse_ftrl(var: Tensor, accum: Tensor, linear: Tensor, grad: Tensor, indices: Any, lr: float, l1: float,
                 l2: float, lr_power: float, l2_shrinkage: float | None, op: str) -> tuple[Tensor, ...]:
    if l2_shrinkage is None:
        return _sparse(op, _ftrl_step, (var, accum, linear), grad, indices, lr, l1, l2, lr_power)
    return _sparse(op, _ftrl_step, (var, accum, linear), grad, indices, lr, l1, l2, lr_power, l2_shrinkage)


def _proximal_adagrad_rows(var: Tensor, accum: Tensor, g: Tensor, lr: Tensor, l1: Tensor,
                           l2: Tensor) -> tuple[Tensor, Tensor]:
    """The proximal Adagrad step (TensorFlow's, which MindSpore's kernels compute): the proximal step takes
    the per-element rate lr / sqrt(accum)."""
    new_accum = add(accum, square(g))
    lr_t = div(lr, sqrt(new_accum))
    return _prox(sub(var, mul(lr_t, g)), lr_t, l1, l2), new_accum


@_updating
def _sparse_proximal_adagrad(var: Tensor, accum: Tensor, lr: Any, l1: Any, l2: Any, grad: Tensor,
                             indices: Any, op: str = "SparseApplyProximalAdagrad") -> tuple[Tensor, ...]:
    return _sparse(op, _proximal_adagrad_rows, (var, accum), grad, indices, lr, l1, l2)


def _rms_prop_rows(var: Tensor, ms: Tensor, mom: Tensor, g: Tensor, lr: Tensor, rho: Tensor, momentum: Tensor,
                   eps: Tensor) -> tuple[Tensor, Tensor, Tensor]:
    new_ms = add(mul(rho, ms), mul(sub(1.0, rho), square(g)))
    new_mom = add(mul(momentum, mom), div(mul(lr, g), sqrt(add(new_ms, eps))))
    return sub(var, new_mom), new_ms, new_mom


@_updating
def _sparse_rms_prop(var: Tensor, ms: Tensor, mom: Tensor, lr: Any, grad: Tensor, indices: Any, rho: float,
                     momentum: float, epsilon: float) -> tuple[Tensor, ...]:
    # MindSpore applies a repeated index's gradients one after the other here (it sums them for Adagrad)
    return _sparse("SparseApplyRMSProp", _rms_prop_rows, (var, ms, mom), grad, indices, lr, rho, momentum,
                   epsilon, sequential=True)


@_updating
def _fused_sparse_adam(var: Tensor, m: Tensor, v: Tensor, beta1_power: Any, beta2_power: Any, lr: Any,
                       beta1: Any, beta2: Any, epsilon: Any, grad: Tensor, indices: Any, use_nesterov: bool,
                       lazy: bool) -> tuple[Tensor, ...]:
    """FusedSparseAdam: Adam with the (merged) sparse gradient, every row's moments decaying; the lazy form
    updates the rows of ``indices`` only."""
    from cellonnx.ops import index_add, zeros_like
    op = "FusedSparseLazyAdam" if lazy else "FusedSparseAdam"
    scalars = (beta1_power, beta2_power, lr, beta1, beta2, epsilon)
    if lazy:
        def step(w: Tensor, m_: Tensor, v_: Tensor, g: Tensor, b1p: Tensor, b2p: Tensor, lr_: Tensor,
                 b1: Tensor, b2: Tensor, eps: Tensor) -> tuple[Tensor, Tensor, Tensor]:
            delta, new_m, new_v = _adam_step(w, m_, v_, b1p, b2p, lr_, b1, b2, eps, g, use_nesterov)
            return add(w, delta), new_m, new_v
        return _sparse(op, step, (var, m, v), grad, indices, *scalars)
    idx, rows = _unique_rows(grad, indices, op)
    dense = index_add(zeros_like(var), idx, rows, 0)
    delta, new_m, new_v = _adam_step(var, m, v, *scalars, dense, use_nesterov)
    return _write(op, (var, add(var, delta)), (m, new_m), (v, new_v))


_LOCK = "use_locking=False"

ROWS = [
    Row("ApplyMomentum", "use_nesterov=False, use_locking=False, gradient_scale=1.0",
        "variable, accumulation, learning_rate, gradient, momentum",
        "_apply_momentum(variable, accumulation, learning_rate, gradient, momentum, use_nesterov, "
        "gradient_scale)",
        summary="Momentum: ``accum = momentum * accum + gradient``, then ``variable -= lr * accum``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> f = lambda v: Tensor(v, ms.float32)
        >>> variable = Parameter(f(np.array([0.6, 0.4])), name="variable")
        >>> accumulation = Parameter(f(np.array([0.6, 0.5])), name="accumulation")
        >>> grad = f(np.array([0.3, 0.7]))
        >>> out = ops.ApplyMomentum()(variable, accumulation, 0.1, grad, 0.9)
        >>> print(variable.asnumpy().round(4))
        [0.516 0.285]
        """),
    Row("ApplyKerasMomentum", "use_locking=False, use_nesterov=False", "var, accum, lr, grad, momentum",
        "_apply_keras_momentum(var, accum, lr, grad, momentum, use_nesterov)",
        summary="Keras' momentum update of the Parameters ``var`` and ``accum``, in place.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> f = lambda v: Tensor(v, ms.float32)
        >>> var = Parameter(f(np.array([0.6, 0.4])), name="var")
        >>> accum = Parameter(f(np.array([0.6, 0.5])), name="accum")
        >>> grad = f(np.array([0.3, 0.7]))
        >>> out = ops.ApplyKerasMomentum()(var, accum, f(0.1), grad, f(0.9))
        >>> print(var.asnumpy().round(4))
        [1.11 0.78]
        """),
    Row("ApplyAdaMax", "", "var, m, v, beta1_power, lr, beta1, beta2, epsilon, grad",
        "_apply_ada_max(var, m, v, beta1_power, lr, beta1, beta2, epsilon, grad)",
        summary="The AdaMax update of the Parameters ``var``, ``m`` and ``v``, in place.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> f = lambda v: Tensor(v, ms.float32)
        >>> var = Parameter(f(np.array([0.6, 0.4])), name="var")
        >>> m = Parameter(f(np.array([0.1, 0.2])), name="m")
        >>> v = Parameter(f(np.array([0.3, 0.1])), name="v")
        >>> grad = f(np.array([0.3, 0.7]))
        >>> out = ops.ApplyAdaMax()(var, m, v, f(0.9), f(0.1), f(0.9), f(0.99), f(1e-8), grad)
        >>> print(var.asnumpy().round(4))
        [0.2    0.0429]
        """),
    Row("ApplyAdadelta", "", "var, accum, accum_update, lr, rho, epsilon, grad",
        "_apply_adadelta(var, accum, accum_update, lr, rho, epsilon, grad)",
        summary="The Adadelta update of the Parameters ``var``, ``accum`` and ``accum_update``, in place.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> f = lambda v: Tensor(v, ms.float32)
        >>> var = Parameter(f(np.array([0.6, 0.4])), name="var")
        >>> accum = Parameter(f(np.array([0.6, 0.5])), name="accum")
        >>> accum_update = Parameter(f(np.array([0.2, 0.3])), name="accum_update")
        >>> grad = f(np.array([0.3, 0.7]))
        >>> out = ops.ApplyAdadelta()(var, accum, accum_update, f(0.1), f(0.9), f(1e-6), grad)
        >>> print(var.asnumpy().round(4))
        [0.5819 0.3457]
        """),
    Row("ApplyAdagrad", "update_slots=True", "var, accum, lr, grad",
        "_apply_adagrad(var, accum, lr, grad, None, update_slots, 'ApplyAdagrad')",
        summary="The Adagrad update: ``accum += grad ** 2``, ``var -= lr * grad / sqrt(accum)``, in place.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> f = lambda v: Tensor(v, ms.float32)
        >>> var = Parameter(f(np.array([0.6, 0.4])), name="var")
        >>> accum = Parameter(f(np.array([0.6, 0.5])), name="accum")
        >>> grad = f(np.array([0.3, 0.7]))
        >>> out = ops.ApplyAdagrad()(var, accum, f(0.1), grad)
        >>> print(var.asnumpy().round(4))
        [0.5639 0.3296]
        """),
    Row("ApplyAdagradV2", "epsilon, update_slots=True", "var, accum, lr, grad",
        "_apply_adagrad(var, accum, lr, grad, epsilon, update_slots, 'ApplyAdagradV2')",
        summary="The Adagrad update with ``epsilon`` added to ``sqrt(accum)``, in place.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> f = lambda v: Tensor(v, ms.float32)
        >>> var = Parameter(f(np.array([0.6, 0.4])), name="var")
        >>> accum = Parameter(f(np.array([0.6, 0.5])), name="accum")
        >>> grad = f(np.array([0.3, 0.7]))
        >>> out = ops.ApplyAdagradV2(epsilon=1e-6)(var, accum, f(0.1), grad)
        >>> print(var.asnumpy().round(4))
        [0.5639 0.3296]
        """),
    Row("ApplyAdagradDA", _LOCK,
        "var, gradient_accumulator, gradient_squared_accumulator, grad, lr, l1, l2, global_step",
        "_apply_adagrad_da(var, gradient_accumulator, gradient_squared_accumulator, grad, lr, l1, l2, "
        "global_step)",
        summary="The Adagrad dual-averaging update of ``var`` and its two accumulators, in place.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> f = lambda v: Tensor(v, ms.float32)
        >>> var = Parameter(f(np.array([0.6, 0.4])), name="var")
        >>> gradient_accumulator = Parameter(f(np.array([0.1, 0.3])), name="gradient_accumulator")
        >>> gradient_squared_accumulator = Parameter(f(np.array([0.2, 0.1])), name="g2")
        >>> grad = f(np.array([0.3, 0.7]))
        >>> lr, l1, l2, step = f(0.1), f(0.01), f(0.01), Tensor(2, ms.int64)
        >>> out = ops.ApplyAdagradDA()(var, gradient_accumulator, gradient_squared_accumulator, grad,
        ...                            lr, l1, l2, step)
        >>> print(var.asnumpy().round(4))
        [-0.0703 -0.1273]
        """),
    Row("ApplyAdamWithAmsgrad", "beta1=0.9, beta2=0.999, epsilon=1e-08, use_locking=False",
        "var, m, v, vhat, beta1_power, beta2_power, lr, grad",
        "_apply_amsgrad(var, m, v, vhat, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad, "
        "'ApplyAdamWithAmsgrad')",
        summary="The AMSGrad variant of Adam (the running maximum ``vhat`` of ``v``), in place.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> f = lambda v: Tensor(v, ms.float32)
        >>> var = Parameter(f(np.array([0.6, 0.4])), name="var")
        >>> m = Parameter(f(np.array([0.1, 0.2])), name="m")
        >>> v = Parameter(f(np.array([0.3, 0.1])), name="v")
        >>> vhat = Parameter(f(np.array([0.3, 0.1])), name="vhat")
        >>> grad = f(np.array([0.3, 0.7]))
        >>> out = ops.ApplyAdamWithAmsgrad()(var, m, v, vhat, f(0.9), f(0.999), f(0.1), grad)
        >>> print(var.asnumpy().round(4))
        [0.5931 0.375 ]
        """),
    Row("ApplyAdamWithAmsgradV2", _LOCK, "var, m, v, vhat, beta1_power, beta2_power, lr, beta1, beta2, "
                                         "epsilon, grad",
        "_apply_amsgrad(var, m, v, vhat, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad, "
        "'ApplyAdamWithAmsgradV2')",
        summary="AMSGrad with ``beta1``, ``beta2`` and ``epsilon`` given at call time, in place.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> f = lambda v: Tensor(v, ms.float32)
        >>> var = Parameter(f(np.array([0.6, 0.4])), name="var")
        >>> m = Parameter(f(np.array([0.1, 0.2])), name="m")
        >>> v = Parameter(f(np.array([0.3, 0.1])), name="v")
        >>> vhat = Parameter(f(np.array([0.3, 0.1])), name="vhat")
        >>> grad = f(np.array([0.3, 0.7]))
        >>> beta1_power, beta2_power, lr = f(0.9), f(0.999), f(0.1)
        >>> beta1, beta2, eps = f(0.9), f(0.999), f(1e-8)
        >>> out = ops.ApplyAdamWithAmsgradV2()(var, m, v, vhat, beta1_power, beta2_power, lr, beta1, beta2,
        ...                                    eps, grad)
        >>> print(var.asnumpy().round(4))
        [0.5931 0.375 ]
        """),
    Row("ApplyAddSign", "", "var, m, lr, alpha, sign_decay, beta, grad",
        "_apply_sign(var, m, lr, alpha, sign_decay, beta, grad, False)",
        summary="The AddSign update: steps scaled by ``alpha + sign_decay * sign(grad) * sign(m)``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> f = lambda v: Tensor(v, ms.float32)
        >>> var = Parameter(f(np.array([0.6, 0.4])), name="var")
        >>> m = Parameter(f(np.array([0.1, 0.2])), name="m")
        >>> grad = f(np.array([0.3, 0.7]))
        >>> out = ops.ApplyAddSign()(var, m, f(0.1), f(1.0), f(0.99), f(0.9), grad)
        >>> print(var.asnumpy().round(4))
        [0.5403 0.2607]
        """),
    Row("ApplyPowerSign", "", "var, m, lr, logbase, sign_decay, beta, grad",
        "_apply_sign(var, m, lr, logbase, sign_decay, beta, grad, True)",
        summary="The PowerSign update: steps scaled by ``exp(logbase * sign_decay * sign(grad) * sign(m))``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> f = lambda v: Tensor(v, ms.float32)
        >>> var = Parameter(f(np.array([0.6, 0.4])), name="var")
        >>> m = Parameter(f(np.array([0.1, 0.2])), name="m")
        >>> grad = f(np.array([0.3, 0.7]))
        >>> out = ops.ApplyPowerSign()(var, m, f(0.1), f(np.e), f(0.99), f(0.9), grad)
        >>> print(var.asnumpy().round(4))
        [ 0.1576 -0.6324]
        """),
    Row("ApplyRMSProp", _LOCK, "var, mean_square, moment, learning_rate, grad, decay, momentum, epsilon",
        "_apply_rms_prop(var, mean_square, moment, learning_rate, grad, decay, momentum, epsilon)",
        summary="The RMSProp update of the Parameters ``var``, ``mean_square`` and ``moment``, in place.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> f = lambda v: Tensor(v, ms.float32)
        >>> var = Parameter(f(np.array([0.6, 0.4])), name="var")
        >>> mean_square = Parameter(f(np.array([0.5, 0.4])), name="mean_square")
        >>> moment = Parameter(f(np.array([0.1, 0.2])), name="moment")
        >>> grad = f(np.array([0.3, 0.7]))
        >>> out = ops.ApplyRMSProp()(var, mean_square, moment, f(0.1), grad, 0.9, 0.0, 1e-6)
        >>> print(var.asnumpy().round(4))
        [0.5557 0.2905]
        """),
    Row("ApplyCenteredRMSProp", _LOCK,
        "var, mean_gradient, mean_square, moment, grad, learning_rate, decay, momentum, epsilon",
        "_apply_rms_prop(var, mean_square, moment, learning_rate, grad, decay, momentum, epsilon, "
        "mean_gradient)",
        summary="The centered RMSProp update (variance less the squared mean gradient), in place.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> f = lambda v: Tensor(v, ms.float32)
        >>> var = Parameter(f(np.array([0.6, 0.4])), name="var")
        >>> mean_gradient = Parameter(f(np.array([0.1, 0.1])), name="mean_gradient")
        >>> mean_square = Parameter(f(np.array([0.5, 0.4])), name="mean_square")
        >>> moment = Parameter(f(np.array([0.1, 0.2])), name="moment")
        >>> grad = f(np.array([0.3, 0.7]))
        >>> lr, decay, momentum, eps = f(0.1), f(0.9), f(0.0), f(1e-6)
        >>> out = ops.ApplyCenteredRMSProp()(var, mean_gradient, mean_square, moment, grad,
        ...                                  lr, decay, momentum, eps)
        >>> print(var.asnumpy().round(4))
        [0.555  0.2869]
        """),
    Row("ApplyFtrl", _LOCK, "var, accum, linear, grad, lr, l1, l2, lr_power",
        "_apply_ftrl(var, accum, linear, grad, lr, l1, l2, lr_power)",
        summary="The FTRL-proximal update of the Parameters ``var``, ``accum`` and ``linear``, in place.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> f = lambda v: Tensor(v, ms.float32)
        >>> var = Parameter(f(np.array([0.6, 0.4])), name="var")
        >>> accum = Parameter(f(np.array([0.6, 0.5])), name="accum")
        >>> linear = Parameter(f(np.array([0.9, 0.1])), name="linear")
        >>> grad = f(np.array([0.3, 0.7]))
        >>> out = ops.ApplyFtrl()(var, accum, linear, grad, f(0.1), f(0.0), f(0.0), f(-0.5))
        >>> print(var.asnumpy().round(4))
        [-0.104   0.0353]
        """),
    Row("ApplyGradientDescent", "", "var, alpha, delta", "_apply_gradient_descent(var, alpha, delta)",
        summary="Gradient descent: ``var -= alpha * delta``, in place.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> f = lambda v: Tensor(v, ms.float32)
        >>> var = Parameter(f(np.array([0.6, 0.4])), name="var")
        >>> grad = f(np.array([0.3, 0.7]))
        >>> out = ops.ApplyGradientDescent()(var, f(0.1), grad)
        >>> print(var.asnumpy().round(4))
        [0.57 0.33]
        """),
    Row("ApplyProximalGradientDescent", "", "var, alpha, l1, l2, delta",
        "_apply_proximal_gradient_descent(var, alpha, l1, l2, delta)",
        summary="Gradient descent followed by the proximal step of L1/L2 penalties, in place.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> f = lambda v: Tensor(v, ms.float32)
        >>> var = Parameter(f(np.array([0.6, 0.4])), name="var")
        >>> grad = f(np.array([0.3, 0.7]))
        >>> out = ops.ApplyProximalGradientDescent()(var, f(0.1), f(0.1), f(0.1), grad)
        >>> print(var.asnumpy().round(4))
        [0.5545 0.3168]
        """),
    Row("ApplyProximalAdagrad", _LOCK, "var, accum, lr, l1, l2, grad",
        "_apply_proximal_adagrad(var, accum, lr, l1, l2, grad)",
        summary="The Adagrad step followed by the proximal step of L1/L2 penalties, in place.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> f = lambda v: Tensor(v, ms.float32)
        >>> var = Parameter(f(np.array([0.6, 0.4])), name="var")
        >>> accum = Parameter(f(np.array([0.6, 0.5])), name="accum")
        >>> grad = f(np.array([0.3, 0.7]))
        >>> out = ops.ApplyProximalAdagrad()(var, accum, f(0.1), f(0.1), f(0.1), grad)
        >>> print(var.asnumpy().round(4))
        [0.5453 0.3164]
        """),
    Row("Adam", "use_locking=False, use_nesterov=False",
        "var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, gradient",
        "_adam(var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, gradient, use_nesterov)",
        summary="The Adam update of the Parameters ``var``, ``m`` and ``v``, in place.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> f = lambda v: Tensor(v, ms.float32)
        >>> var = Parameter(f(np.array([0.6, 0.4])), name="var")
        >>> m = Parameter(f(np.array([0.1, 0.2])), name="m")
        >>> v = Parameter(f(np.array([0.3, 0.1])), name="v")
        >>> grad = f(np.array([0.3, 0.7]))
        >>> out = ops.Adam()(var, m, v, f(0.9), f(0.999), f(0.1), f(0.9), f(0.999), f(1e-8), grad)
        >>> print(var.asnumpy().round(4))
        [0.5931 0.375 ]
        """),
    Row("AdamNoUpdateParam", "use_locking=False, use_nesterov=False",
        "m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, gradient",
        "_adam_no_update_param(m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, gradient, "
        "use_nesterov)",
        summary="The Adam step ``delta`` of a weight (returned); ``m`` and ``v`` are updated in place.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> m = Parameter(Tensor(np.array([[0.1, 0.1], [0.2, 0.2]]), ms.float32), name="m")
        >>> v = Parameter(Tensor(np.array([[0.1, 0.1], [0.2, 0.2]]), ms.float32), name="v")
        >>> f = lambda v: Tensor(v, ms.float32)
        >>> grad = Tensor(np.array([[0.1, 0.2], [0.3, 0.4]]), ms.float32)
        >>> delta = ops.AdamNoUpdateParam()(m, v, f(0.9), f(0.999), f(0.001), f(0.9), f(0.999), f(1e-8), grad)
        >>> print(delta.asnumpy().round(6))
        [[-0.0001   -0.00011 ]
         [-0.000149 -0.000156]]
        """),
    Row("AdamWeightDecay", _LOCK, "var, m, v, lr, beta1, beta2, epsilon, decay, gradient",
        "_adam_weight_decay(var, m, v, lr, beta1, beta2, epsilon, decay, gradient)",
        summary="The AdamW update (decoupled weight decay ``decay``) of ``var``, ``m`` and ``v``, in place.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> f = lambda v: Tensor(v, ms.float32)
        >>> var = Parameter(f(np.array([0.6, 0.4])), name="var")
        >>> m = Parameter(f(np.array([0.1, 0.2])), name="m")
        >>> v = Parameter(f(np.array([0.3, 0.1])), name="v")
        >>> grad = f(np.array([0.3, 0.7]))
        >>> out = ops.AdamWeightDecay()(var, m, v, 0.1, 0.9, 0.999, 1e-8, 0.01, grad)
        >>> print(var.asnumpy().round(4))
        [0.5775 0.3207]
        """),
    Row("FusedCastAdamWeightDecay", _LOCK,
        "var, m, v, lr, beta1, beta2, epsilon, decay, gradient, global_norm=1.0",
        "_fused_cast_adam_weight_decay(var, m, v, lr, beta1, beta2, epsilon, decay, gradient, global_norm)",
        summary="AdamWeightDecay for float16 weights with float32 moments, in place.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> f = lambda v: Tensor(v, ms.float32)
        >>> var16 = Parameter(Tensor(np.array([0.6, 0.4]), ms.float16), name="var")
        >>> m = Parameter(f(np.array([0.1, 0.2])), name="m")
        >>> v = Parameter(f(np.array([0.3, 0.1])), name="v")
        >>> grad16 = Tensor(np.array([0.3, 0.7]), ms.float16)
        >>> out = ops.FusedCastAdamWeightDecay()(var16, m, v, 0.1, 0.9, 0.999, 1e-8, 0.01, grad16, 1.0)
        >>> print(var16.asnumpy().round(4))
        [0.5776 0.3206]
        """),
    Row("FusedWeightScaleApplyMomentum", "",
        "weight_decay, loss_scale, variable, accumulation, learning_rate, gradient, momentum",
        "_fused_weight_scale_momentum(weight_decay, loss_scale, variable, accumulation, learning_rate, "
        "gradient, momentum)",
        summary="Momentum on ``gradient * loss_scale + weight_decay * variable``, in place.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> variable = Parameter(Tensor(np.array([0.6, 0.4]), ms.float32), name="variable")
        >>> accumulation = Parameter(Tensor(np.array([0.6, 0.5]), ms.float32), name="accumulation")
        >>> gradient = Tensor(np.array([0.3, 0.7]), ms.float32)
        >>> f = lambda v: Tensor(v, ms.float32)
        >>> op = ops.FusedWeightScaleApplyMomentum()
        >>> out = op(f(0.01), f(0.5), variable, accumulation, f(0.1), gradient, f(0.9))
        >>> print(variable.asnumpy().round(4))
        [0.5304 0.3196]
        """),
    Row("SGD", "dampening=0.0, weight_decay=0.0, nesterov=False",
        "parameters, gradient, learning_rate, accum, momentum, stat",
        "_sgd(parameters, gradient, learning_rate, accum, momentum, stat, dampening, weight_decay, "
        "nesterov)",
        summary="Stochastic gradient descent with momentum, dampening, weight decay and Nesterov, in place.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> parameters = Parameter(Tensor(np.array([2.0, -0.5, 1.7, 4.0]), ms.float32), name="p")
        >>> gradient = Tensor(np.array([1.0, -1.0, 0.5, 2.0]), ms.float32)
        >>> accum = Parameter(Tensor(np.array([0.1, 0.3, -0.2, -0.1]), ms.float32), name="accum")
        >>> stat = Parameter(Tensor(np.array([1.5, -0.3, 0.2, -0.7]), ms.float32), name="stat")
        >>> lr, momentum = Tensor(0.01, ms.float32), Tensor(0.1, ms.float32)
        >>> output = ops.SGD()(parameters, gradient, lr, accum, momentum, stat)
        >>> print(parameters.asnumpy().round(4))
        [ 1.99   -0.4903  1.695   3.9801]
        """),
    Row("LARSUpdate", "epsilon=1e-05, hyperpara=0.001, use_clip=False",
        "weight, gradient, norm_weight, norm_gradient, weight_decay, learning_rate",
        "_lars_update(weight, gradient, norm_weight, norm_gradient, weight_decay, learning_rate, epsilon, "
        "hyperpara, use_clip)",
        summary="The LARS gradient: ``gradient`` rescaled by the norms of the weight and the gradient.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> weight = Tensor(np.array([[0.5, 0.8, 0.2], [0.6, 0.4, 0.2]]), ms.float32)
        >>> gradient = Tensor(np.array([[0.4, 0.4, 0.5], [0.2, 0.4, 0.3]]), ms.float32)
        >>> w_norm = ops.ReduceSum()(ops.Square()(weight))
        >>> g_norm = ops.ReduceSum()(ops.Square()(gradient))
        >>> print(ops.LARSUpdate()(weight, gradient, w_norm, g_norm, 0.0, 1.0).asnumpy().round(6))
        [[0.000527 0.000527 0.000658]
         [0.000263 0.000527 0.000395]]
        """),
    Row("FusedSparseAdam", "use_locking=False, use_nesterov=False",
        "var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad, indices",
        "_fused_sparse_adam(var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad, indices, "
        "use_nesterov, False)",
        summary="The Adam update of the rows ``indices`` of the Parameters ``var``, ``m`` and ``v``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> var = Parameter(Tensor(np.ones((3, 2)), ms.float32), name="var")
        >>> m = Parameter(Tensor(np.ones((3, 2)), ms.float32), name="m")
        >>> v = Parameter(Tensor(np.ones((3, 2)), ms.float32), name="v")
        >>> f = lambda v: Tensor(v, ms.float32)
        >>> grad = Tensor(np.array([[0.3, 0.7], [0.1, 0.2]]), ms.float32)
        >>> indices = Tensor(np.array([0, 2]), ms.int32)
        >>> op = ops.FusedSparseAdam()
        >>> out = op(var, m, v, f(0.9), f(0.999), f(0.001), f(0.9), f(0.999), f(1e-8), grad, indices)
        >>> print(var.asnumpy().round(4))
        [[0.9997 0.9997]
         [0.9997 0.9997]
         [0.9997 0.9997]]
        """),
    Row("FusedSparseLazyAdam", "use_locking=False, use_nesterov=False",
        "var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad, indices",
        "_fused_sparse_adam(var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad, indices, "
        "use_nesterov, True)",
        summary="Adam on the rows ``indices`` only (their moments too: the lazy variant).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> var = Parameter(Tensor(np.ones((3, 2)), ms.float32), name="var")
        >>> m = Parameter(Tensor(np.ones((3, 2)), ms.float32), name="m")
        >>> v = Parameter(Tensor(np.ones((3, 2)), ms.float32), name="v")
        >>> f = lambda v: Tensor(v, ms.float32)
        >>> grad = Tensor(np.array([[0.3, 0.7], [0.1, 0.2]]), ms.float32)
        >>> indices = Tensor(np.array([0, 2]), ms.int32)
        >>> op = ops.FusedSparseLazyAdam()
        >>> out = op(var, m, v, f(0.9), f(0.999), f(0.001), f(0.9), f(0.999), f(1e-8), grad, indices)
        >>> print(var.asnumpy().round(4))
        [[0.9997 0.9997]
         [1.     1.    ]
         [0.9997 0.9997]]
        """),
    Row("FusedSparseFtrl", "lr, l1, l2, lr_power, use_locking=False", "var, accum, linear, grad, indices",
        "_sparse_ftrl(var, accum, linear, grad, indices, lr, l1, l2, lr_power, None, 'FusedSparseFtrl')",
        summary="The FTRL-proximal update of the rows ``indices`` of ``var``, ``accum`` and ``linear``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> var = Parameter(Tensor(np.ones((3, 2)), ms.float32), name="var")
        >>> accum = Parameter(Tensor(np.ones((3, 2)), ms.float32), name="accum")
        >>> linear = Parameter(Tensor(np.ones((3, 2)), ms.float32), name="linear")
        >>> grad = Tensor(np.array([[0.3, 0.7], [0.1, 0.2]]), ms.float32)
        >>> indices = Tensor(np.array([0, 2]), ms.int32)
        >>> op = ops.FusedSparseFtrl(lr=0.01, l1=0.0, l2=0.0, lr_power=-0.5)
        >>> out = op(var, accum, linear, grad, indices)
        >>> print(var.asnumpy().round(4))
        [[ 0.0297  0.1668]
         [ 1.      1.    ]
         [-0.006   0.0077]]
        """),
    Row("FusedSparseProximalAdagrad", _LOCK, "var, accum, lr, l1, l2, grad, indices",
        "_sparse_proximal_adagrad(var, accum, lr, l1, l2, grad, indices, 'FusedSparseProximalAdagrad')",
        summary="The proximal Adagrad update of the rows ``indices`` of ``var`` and ``accum``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> var = Parameter(Tensor(np.ones((3, 2)), ms.float32), name="var")
        >>> accum = Parameter(Tensor(np.ones((3, 2)), ms.float32), name="accum")
        >>> lr, l1, l2 = Tensor(0.01, ms.float32), Tensor(0.0, ms.float32), Tensor(0.0, ms.float32)
        >>> grad = Tensor(np.array([[0.3, 0.7], [0.1, 0.2]]), ms.float32)
        >>> indices = Tensor(np.array([0, 2]), ms.int32)
        >>> out = ops.FusedSparseProximalAdagrad()(var, accum, lr, l1, l2, grad, indices)
        >>> print(var.asnumpy().round(4))
        [[0.9971 0.9943]
         [1.     1.    ]
         [0.999  0.998 ]]
        """),
    Row("SparseApplyAdagrad", "lr, update_slots=True, use_locking=False", "var, accum, grad, indices",
        "_sparse_adagrad(var, accum, grad, indices, lr, None, update_slots, 'SparseApplyAdagrad')",
        summary="The Adagrad update of the rows ``indices`` of the Parameters ``var`` and ``accum``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> var = Parameter(Tensor(np.array([[0.6, 0.4], [0.1, 0.5]]), ms.float32), name="var")
        >>> accum = Parameter(Tensor(np.array([[0.6, 0.5], [0.2, 0.6]]), ms.float32), name="accum")
        >>> grad = Tensor(np.array([[0.3, 0.7]]), ms.float32)
        >>> indices = Tensor(np.array([1]), ms.int32)
        >>> out = ops.SparseApplyAdagrad(lr=0.1)(var, accum, grad, indices)
        >>> print(var.asnumpy().round(4))
        [[0.6    0.4   ]
         [0.0443 0.433 ]]
        """),
    Row("SparseApplyAdagradV2", "lr, epsilon, use_locking=False, update_slots=True", "var, accum, grad, "
                                                                                     "indices",
        "_sparse_adagrad(var, accum, grad, indices, lr, epsilon, update_slots, 'SparseApplyAdagradV2')",
        summary="SparseApplyAdagrad with ``epsilon`` added to ``sqrt(accum)``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> var = Parameter(Tensor(np.array([[0.6, 0.4], [0.1, 0.5]]), ms.float32), name="var")
        >>> accum = Parameter(Tensor(np.array([[0.6, 0.5], [0.2, 0.6]]), ms.float32), name="accum")
        >>> grad = Tensor(np.array([[0.3, 0.7]]), ms.float32)
        >>> indices = Tensor(np.array([1]), ms.int32)
        >>> out = ops.SparseApplyAdagradV2(lr=0.1, epsilon=1e-6)(var, accum, grad, indices)
        >>> print(var.asnumpy().round(4))
        [[0.6    0.4   ]
         [0.0443 0.433 ]]
        """),
    Row("SparseApplyAdadelta", "epsilon, use_locking=False", "var, accum, accum_update, lr, rho, grad, "
                                                             "indices",
        "_sparse_adadelta(var, accum, accum_update, lr, rho, grad, indices, epsilon)",
        summary="The Adadelta update of the rows ``indices`` of ``var``, ``accum`` and ``accum_update``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> var = Parameter(Tensor(np.array([[0.6, 0.4], [0.1, 0.5]]), ms.float32), name="var")
        >>> accum = Parameter(Tensor(np.array([[0.6, 0.5], [0.2, 0.6]]), ms.float32), name="accum")
        >>> accum_update = Parameter(Tensor(np.array([[0.2, 0.3], [0.1, 0.4]]), ms.float32), name="update")
        >>> grad = Tensor(np.array([[0.3, 0.7], [0.1, 0.2]]), ms.float32)
        >>> indices = Tensor(np.array([1, 0]), ms.int32)
        >>> lr, rho = Tensor(0.1, ms.float32), Tensor(0.9, ms.float32)
        >>> out = ops.SparseApplyAdadelta(epsilon=1e-6)(var, accum, accum_update, lr, rho, grad, indices)
        >>> print(var.asnumpy().round(4))
        [[0.5939 0.3837]
         [0.0782 0.4423]]
        """),
    Row("SparseApplyFtrl", "lr, l1, l2, lr_power, use_locking=False", "var, accum, linear, grad, indices",
        "_sparse_ftrl(var, accum, linear, grad, indices, lr, l1, l2, lr_power, None, 'SparseApplyFtrl')",
        summary="The FTRL-proximal update of the rows ``indices`` of ``var``, ``accum`` and ``linear``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> var = Parameter(Tensor(np.array([[0.6, 0.4], [0.1, 0.5]]), ms.float32), name="var")
        >>> accum = Parameter(Tensor(np.array([[0.6, 0.5], [0.2, 0.6]]), ms.float32), name="accum")
        >>> linear = Parameter(Tensor(np.array([[0.9, 0.1], [0.7, 0.8]]), ms.float32), name="linear")
        >>> grad = Tensor(np.array([[0.3, 0.7]]), ms.float32)
        >>> indices = Tensor(np.array([1]), ms.int32)
        >>> op = ops.SparseApplyFtrl(lr=0.1, l1=0.0, l2=0.0, lr_power=-0.5)
        >>> out = op(var, accum, linear, grad, indices)
        >>> print(var.asnumpy().round(4))
        [[ 0.6     0.4   ]
         [-0.1687 -0.0146]]
        """),
    Row("SparseApplyFtrlV2", "lr, l1, l2, l2_shrinkage, lr_power, use_locking=False",
        "var, accum, linear, grad, indices",
        "_sparse_ftrl(var, accum, linear, grad, indices, lr, l1, l2, lr_power, l2_shrinkage, "
        "'SparseApplyFtrlV2')",
        summary="SparseApplyFtrl with an L2 shrinkage term ``l2_shrinkage`` added to the gradient.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> var = Parameter(Tensor(np.array([[0.6, 0.4], [0.1, 0.5]]), ms.float32), name="var")
        >>> accum = Parameter(Tensor(np.array([[0.6, 0.5], [0.2, 0.6]]), ms.float32), name="accum")
        >>> linear = Parameter(Tensor(np.array([[0.9, 0.1], [0.7, 0.8]]), ms.float32), name="linear")
        >>> grad = Tensor(np.array([[0.3, 0.7]]), ms.float32)
        >>> indices = Tensor(np.array([1]), ms.int32)
        >>> op = ops.SparseApplyFtrlV2(lr=0.1, l1=0.0, l2=0.0, l2_shrinkage=0.1, lr_power=-0.5)
        >>> out = op(var, accum, linear, grad, indices)
        >>> print(var.asnumpy().round(4))
        [[ 0.6     0.4   ]
         [-0.1725 -0.0242]]
        """),
    Row("SparseApplyProximalAdagrad", _LOCK, "var, accum, lr, l1, l2, grad, indices",
        "_sparse_proximal_adagrad(var, accum, lr, l1, l2, grad, indices)",
        summary="The proximal Adagrad update of the rows ``indices`` of ``var`` and ``accum``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> var = Parameter(Tensor(np.array([[0.6, 0.4], [0.1, 0.5]]), ms.float32), name="var")
        >>> accum = Parameter(Tensor(np.array([[0.6, 0.5], [0.2, 0.6]]), ms.float32), name="accum")
        >>> grad = Tensor(np.array([[0.3, 0.7]]), ms.float32)
        >>> indices = Tensor(np.array([1]), ms.int32)
        >>> lr, l1, l2 = Tensor(0.1, ms.float32), Tensor(0.01, ms.float32), Tensor(0.0, ms.float32)
        >>> out = ops.SparseApplyProximalAdagrad()(var, accum, lr, l1, l2, grad, indices)
        >>> print(var.asnumpy().round(4))
        [[0.6    0.4   ]
         [0.0424 0.432 ]]
        """),
    Row("SparseApplyRMSProp", "rho, momentum, epsilon, use_locking=False", "var, ms, mom, lr, grad, indices",
        "_sparse_rms_prop(var, ms, mom, lr, grad, indices, rho, momentum, epsilon)",
        summary="The RMSProp update of the rows ``indices`` of ``var``, ``ms`` and ``mom``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> var = Parameter(Tensor(np.array([[0.6, 0.4], [0.1, 0.5]]), ms.float32), name="var")
        >>> mean_square = Parameter(Tensor(np.array([[0.2, 0.4], [0.1, 0.3]]), ms.float32), name="ms")
        >>> mom = Parameter(Tensor(np.array([[0.3, 0.1], [0.3, 0.6]]), ms.float32), name="mom")
        >>> grad = Tensor(np.array([[0.3, 0.7], [0.1, 0.2]]), ms.float32)
        >>> indices = Tensor(np.array([1, 0]), ms.int32)
        >>> op = ops.SparseApplyRMSProp(rho=0.2, momentum=0.01, epsilon=1e-6)
        >>> out = op(var, mean_square, mom, Tensor(0.01, ms.float32), grad, indices)
        >>> print(var.asnumpy().round(4))
        [[0.5924 0.393 ]
         [0.0871 0.4836]]
        """),
]

CLASSES = build(ROWS, globals())
globals().update(CLASSES)
__all__ = list(CLASSES)
