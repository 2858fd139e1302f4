"""Activations: softmax / log_softmax and the elementwise activations that ONNX has a node for (LeakyRelu,
PRelu, Elu, Selu, Celu, HardSigmoid, HardSwish, Softplus, Softsign, Mish, Gelu), plus composites (relu6,
silu, logsigmoid, hardtanh, softmin).

Where an ONNX node arrived after opset 13 (HardSwish 14, Mish 18, Gelu 20) older opsets get the
decomposition. Gradients are written in ops.
"""
from __future__ import annotations

import math as _math
from typing import Any

import numpy as np

from cellonnx.ops import registry
from cellonnx.ops.prims._util import (
    clip_scalars,
    count_of,
    is_float_dtype,
    norm_axis,
    select,
    sum_axes,
    to_tensor,
)
from cellonnx.ops.prims.math import (
    ERF_A,
    ERF_P,
    _erf,
    abs,
    add,
    cast,
    clamp,
    div,
    equal,
    erf,
    exp,
    greater,
    greater_equal,
    less_equal,
    minimum,
    mul,
    neg,
    sigmoid,
    sub,
    tanh,
    where,
)
from cellonnx.ops.prims.reduce import reduce_sum
from cellonnx.ops.prims.shape import reshape
from cellonnx.ops.registry import Op
from cellonnx.tensor import Tensor

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946
_SQRT_2_OVER_PI = _math.sqrt(2.0 / _math.pi)
_GELU_C = 0.044715


def _float(x: Any) -> Tensor:
    x = to_tensor(x)
    return x if is_float_dtype(x._data.dtype) else cast(x, np.float32)


# ---------------------------------------------------------------- softmax family
class Softmax(Op):
    saved_inputs = ()  # backward reads only the output
    save_output = True

    def forward(self, x, *, axis):
        e = np.exp(x - x.max(axis=axis, keepdims=True))
        e /= sum_axes(e, (axis,), True)
        return e

    def backward(self, ctx, g, *, axis):
        y = ctx.out
        gy = mul(g, y)
        return (sub(gy, mul(y, reduce_sum(gy, (axis,), keep_dims=True))),)

    def lower(self, g, x, *, axis):
        return g.op("Softmax", x, axis=int(axis))


class LogSoftmax(Op):
    saved_inputs = ()  # backward reads only the output
    save_output = True

    def forward(self, x, *, axis):
        s = x - x.max(axis=axis, keepdims=True)
        s -= np.log(sum_axes(np.exp(s), (axis,), True))
        return s

    def backward(self, ctx, g, *, axis):
        return (sub(g, mul(exp(ctx.out), reduce_sum(g, (axis,), keep_dims=True))),)

    def lower(self, g, x, *, axis):
        return g.op("LogSoftmax", x, axis=int(axis))


class SparseSoftmaxCrossEntropy(Op):
    """Cross entropy of logits (N, C) against int class indices (N,) in one primitive:
    ``loss_n = logsumexp(x_n) - x_n[t_n]``, reduced by 'mean' (over N), 'sum' or 'none'. Every target must
    be a class in [0, C) (callers route ignored targets elsewhere). The gradient is
    ``(softmax(x) - onehot(t)) * g`` (g / N for 'mean'), written in ops, so it differentiates again.
    Lowered to ONNX SoftmaxCrossEntropyLoss (opset 13+), ignore_index kept as its attribute."""

    def forward(self, x, t, *, reduction, ignore_index):
        s = x - x.max(axis=1, keepdims=True)
        lse = np.log(np.exp(s).sum(axis=1))
        loss = lse - s[np.arange(x.shape[0]), t]
        if reduction == "mean":
            return np.asarray(loss.sum() / x.dtype.type(x.shape[0]), x.dtype)
        if reduction == "sum":
            return np.asarray(loss.sum(), x.dtype)
        return loss.astype(x.dtype, copy=False)

    def backward(self, ctx, g, *, reduction, ignore_index):
        from cellonnx.ops.prims.scatter import one_hot
        x, t = ctx.inputs
        if not ctx.needs_grad(0):
            return None, None
        c = x._data.shape[1]
        dt = x._data.dtype
        hot = one_hot(t, c, Tensor(np.asarray(1, dt)), Tensor(np.asarray(0, dt)))
        diff = sub(Softmax.apply(x, axis=1), hot)
        if reduction == "mean":  # N read at run time when the batch is dynamic
            return mul(diff, div(g, count_of(x.shape, (0,), dt))), None
        n = x.shape[0]
        if reduction == "sum":
            return mul(diff, g), None
        return mul(diff, reshape(g, (n, 1))), None

    def lower(self, g, x, t, *, reduction, ignore_index):
        if g.in_tensors[1]._data.dtype not in (np.int32, np.int64):
            t = g.op("Cast", t, to=7)  # int64
        return g.op("SoftmaxCrossEntropyLoss", x, t, reduction=reduction, ignore_index=int(ignore_index))

    def check(self, x, t, *, reduction, ignore_index):
        if x.ndim != 2 or t.shape != x.shape[:1]:
            return f"logits must be (N, C) and targets (N,), got {x.shape} and {t.shape}"
        return None


def softmax(input: Tensor, axis: int = -1, *, dtype: Any = None) -> Tensor:
    """Softmax along ``axis``: ``exp(x) / sum(exp(x))``, computed after subtracting the maximum.

    Args:
        input (Tensor): any shape; integers are computed in float32.
        axis (int): the axis to normalise. Default -1.
        dtype (mindspore.dtype, optional): cast the input to this type first. Default None.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 2.0, 3.0], [2.0, 2.0, 2.0]]), ms.float32)
        >>> print(ops.softmax(x, axis=-1).asnumpy().round(4))
        [[0.09   0.2447 0.6652]
         [0.3333 0.3333 0.3333]]
    """
    x = cast(to_tensor(input), dtype) if dtype is not None else _float(input)
    if x.ndim == 0:
        return reshape(Softmax.apply(reshape(x, (1,)), axis=0), ())
    return Softmax.apply(x, axis=norm_axis(axis, x.ndim, "softmax"))


def log_softmax(logits: Tensor, axis: int = -1) -> Tensor:
    """``log(softmax(logits))`` along ``axis``, computed stably as ``x - max - log(sum(exp(x - max)))``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> print(ops.log_softmax(x, axis=-1).asnumpy().round(4))
        [-2.4076 -1.4076 -0.4076]
    """
    x = _float(logits)
    if x.ndim == 0:
        return reshape(LogSoftmax.apply(reshape(x, (1,)), axis=0), ())
    return LogSoftmax.apply(x, axis=norm_axis(axis, x.ndim, "log_softmax"))


def softmin(x: Tensor, axis: int = -1, *, dtype: Any = None) -> Tensor:
    """``softmax(-x)`` along ``axis``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> print(ops.softmin(x, axis=-1).asnumpy().round(4))
        [0.6652 0.2447 0.09  ]
    """
    x = cast(to_tensor(x), dtype) if dtype is not None else _float(x)
    return softmax(neg(x), axis)


# ---------------------------------------------------------------- elementwise activations with an ONNX node
class LeakyRelu(Op):
    def forward(self, x, *, alpha):
        scaled = x * x.dtype.type(alpha)
        # one vectorized pass: x >= alpha * x exactly where x >= 0 (not for alpha 0: inf * 0 is NaN)
        if 0 < alpha <= 1:
            return np.maximum(x, scaled)
        return select(x >= 0, x, scaled)

    def backward(self, ctx, g, *, alpha):
        return (where(greater_equal(ctx.inputs[0], 0), g, mul(g, alpha)),)

    def lower(self, g, x, *, alpha):
        return g.op("LeakyRelu", x, alpha=float(alpha))


class PRelu(Op):
    """where(x >= 0, x, slope * x); the slope broadcasts against x (per channel: shape (C, 1, ..., 1))."""

    def forward(self, x, slope):
        return select(x >= 0, x, (x * slope).astype(x.dtype, copy=False))

    def backward(self, ctx, g):
        from cellonnx.ops.prims._util import sum_to
        x, slope = ctx.inputs
        pos = greater_equal(x, 0)
        gx = where(pos, g, mul(g, slope)) if ctx.needs_grad(0) else None
        gs = sum_to(where(pos, mul(g, 0.0), mul(g, x)), slope.shape) if ctx.needs_grad(1) else None
        return gx, gs

    def lower(self, g, x, slope):
        return g.op("PRelu", x, slope)


class Elu(Op):
    def forward(self, x, *, alpha):
        return select(x > 0, x, x.dtype.type(alpha) * np.expm1(clip_scalars(x, None, 0)))

    def backward(self, ctx, g, *, alpha):
        x = ctx.inputs[0]
        return (where(greater(x, 0), g, mul(g, mul(exp(minimum(x, 0.0)), alpha))),)

    def lower(self, g, x, *, alpha):
        return g.op("Elu", x, alpha=float(alpha))


class Selu(Op):
    def forward(self, x):
        t = x.dtype.type
        return t(_SELU_SCALE) * select(x > 0, x, t(_SELU_ALPHA) * np.expm1(clip_scalars(x, None, 0)))

    def backward(self, ctx, g):
        x = ctx.inputs[0]
        neg_part = mul(g, mul(exp(minimum(x, 0.0)), _SELU_ALPHA * _SELU_SCALE))
        return (where(greater(x, 0), mul(g, _SELU_SCALE), neg_part),)

    def lower(self, g, x):
        return g.op("Selu", x, alpha=_SELU_ALPHA, gamma=_SELU_SCALE)


class Celu(Op):
    def forward(self, x, *, alpha):
        t = x.dtype.type
        return select(x > 0, x, t(alpha) * np.expm1(clip_scalars(x, None, 0) / t(alpha)))

    def backward(self, ctx, g, *, alpha):
        x = ctx.inputs[0]
        return (where(greater(x, 0), g, mul(g, exp(div(minimum(x, 0.0), alpha)))),)

    def lower(self, g, x, *, alpha):
        return g.op("Celu", x, alpha=float(alpha))


class HardSigmoid(Op):
    """relu6(x + 3) / 6 = clip(x / 6 + 1/2, 0, 1)."""

    def forward(self, x):
        t = x.dtype.type
        return np.clip(x * t(1 / 6) + t(0.5), 0, 1).astype(x.dtype, copy=False)

    def backward(self, ctx, g):
        x = ctx.inputs[0]
        return (where(less_equal(abs(x), 3.0), mul(g, 1 / 6), mul(g, 0.0)),)

    def lower(self, g, x):
        return g.op("HardSigmoid", x, alpha=1 / 6, beta=0.5)


class HardSwish(Op):
    """x * relu6(x + 3) / 6."""

    def forward(self, x):
        t = x.dtype.type
        return x * np.clip(x * t(1 / 6) + t(0.5), 0, 1).astype(x.dtype, copy=False)

    def backward(self, ctx, g):
        x = ctx.inputs[0]
        mid = mul(g, add(div(x, 3.0), 0.5))
        return (where(less_equal(x, -3.0), mul(g, 0.0), where(greater_equal(x, 3.0), g, mid)),)

    def lower(self, g, x):
        if g.opset >= 14:
            return g.op("HardSwish", x)
        return g.op("Mul", x, g.op("HardSigmoid", x, alpha=1 / 6, beta=0.5))


def softplus_np(x: np.ndarray, beta: float = 1.0, threshold: float = np.inf) -> np.ndarray:
    """log(1 + exp(beta * x)) / beta, and x itself where beta * x > threshold."""
    t = x.dtype.type
    bx = x * t(beta) if beta != 1 else x
    soft = np.log1p(np.exp(-np.abs(bx)))  # log(1 + e^bx) without overflow; np.logaddexp is ~3x slower
    soft += clip_scalars(bx, 0, None)
    if beta != 1:
        soft /= t(beta)
    return select(bx > threshold, x, soft) if threshold != np.inf else soft


class Softplus(Op):
    """log(1 + exp(beta * x)) / beta, linear (x) where beta * x > threshold."""

    def forward(self, x, *, beta, threshold):
        return softplus_np(x, beta, threshold)

    def backward(self, ctx, g, *, beta, threshold):
        x = ctx.inputs[0]
        bx = mul(x, beta) if beta != 1 else x
        return (where(greater(bx, threshold), g, mul(g, sigmoid(bx))),)

    def lower(self, g, x, *, beta, threshold):
        bx = g.op("Mul", x, g.like(beta)) if beta != 1 else x
        soft = g.op("Softplus", bx)
        if beta != 1:
            soft = g.op("Div", soft, g.like(beta))
        # beyond |beta*x| ~ 17 log(1 + exp(bx)) equals bx in float32, so the default threshold needs no Where
        if threshold >= 20:
            return soft
        return g.op("Where", g.op("Greater", bx, g.like(threshold)), x, soft)


class Softsign(Op):
    def forward(self, x):
        return x / (1 + np.abs(x))

    def backward(self, ctx, g):
        d = add(abs(ctx.inputs[0]), 1.0)
        return (div(g, mul(d, d)),)

    def lower(self, g, x):
        return g.op("Softsign", x)


class Mish(Op):
    """x * tanh(softplus(x))."""

    def forward(self, x):
        return x * np.tanh(softplus_np(x))

    def backward(self, ctx, g):
        x = ctx.inputs[0]
        t = tanh(Softplus.apply(x, beta=1, threshold=20.0))
        d = add(t, mul(mul(x, sub(1.0, mul(t, t))), sigmoid(x)))
        return (mul(g, d),)

    def lower(self, g, x):
        if g.opset >= 18:
            return g.op("Mish", x)
        return g.op("Mul", x, g.op("Tanh", g.op("Softplus", x)))


_ERF_P, _ERF_A = ERF_P, ERF_A  # shared with ops.erf

def _gelu_exact_np(x: np.ndarray, block: int = 1 << 16) -> np.ndarray:
    """0.5 * x * (1 + erf(x / sqrt(2))) for float32/float16, erf by Abramowitz & Stegun 7.1.26 evaluated in
    float64 (|error| < 1.5e-7). Blocks of 64k values reuse three small buffers: several times faster than
    whole-array temporaries."""
    flat = x.reshape(-1)
    out = np.empty(flat.shape, x.dtype)
    n0 = min(block, flat.size)
    a, e, p = np.empty(n0), np.empty(n0), np.empty(n0)
    for s in range(0, flat.size, block):
        xs = flat[s:s + block]
        n = xs.size
        aa, ee, pp = a[:n], e[:n], p[:n]
        np.multiply(xs, 1 / _math.sqrt(2.0), out=aa, dtype=np.float64)
        np.abs(aa, out=aa)
        np.multiply(aa, aa, out=ee)
        np.negative(ee, out=ee)
        np.exp(ee, out=ee)
        aa *= _ERF_P
        aa += 1.0
        np.reciprocal(aa, out=aa)
        np.multiply(aa, _ERF_A[0], out=pp)
        for c in _ERF_A[1:]:
            pp += c
            pp *= aa
        pp *= ee
        np.subtract(1.0, pp, out=pp)      # erf(|x| / sqrt(2))
        np.copysign(pp, xs, out=pp)
        pp += 1.0
        pp *= xs
        pp *= 0.5
        out[s:s + n] = pp
    return out.reshape(x.shape)


class Gelu(Op):
    """Exact ``x * Phi(x)`` (approximate='none') or the tanh approximation."""

    save_output = True  # the exact gradient reads Phi(x) back as y / x instead of a second erf

    def forward(self, x, *, approximate):
        t = x.dtype.type
        if approximate == "tanh":
            inner = t(_SQRT_2_OVER_PI) * (x + t(_GELU_C) * x * x * x)
            return t(0.5) * x * (1 + np.tanh(inner))
        if x.dtype == np.float64:
            return 0.5 * x * (1 + _erf(x * (1 / _math.sqrt(2.0))))
        return _gelu_exact_np(x)

    def backward(self, ctx, g, *, approximate):
        x = ctx.inputs[0]
        if approximate == "tanh":
            x2 = mul(x, x)
            th = tanh(mul(add(x, mul(mul(x2, x), _GELU_C)), _SQRT_2_OVER_PI))
            dinner = mul(add(mul(x2, 3 * _GELU_C), 1.0), _SQRT_2_OVER_PI)
            d = add(mul(add(th, 1.0), 0.5), mul(mul(mul(x, 0.5), sub(1.0, mul(th, th))), dinner))
        else:
            cdf = _traced_cdf(x) if registry.TRACE_HOOK is not None else None
            if cdf is None:
                # the forward's own Phi(x) as y / x, at a sixth of erf's cost; at x = 0 its Taylor line,
                # which keeps the value (1/2) and the slope (phi(0)) for second order, over a denominator of 1
                zero = equal(x, 0.0)
                taylor = add(mul(x, 1 / _math.sqrt(2 * _math.pi)), 0.5)
                cdf = where(zero, taylor, div(ctx.out, where(zero, 1.0, x)))
            pdf = mul(exp(mul(mul(x, x), -0.5)), 1 / _math.sqrt(2 * _math.pi))
            d = add(cdf, mul(x, pdf))
        return (mul(g, d),)

    def lower(self, g, x, *, approximate):
        if g.opset >= 20:
            return g.op("Gelu", x, approximate=approximate)
        if approximate == "tanh":
            x3 = g.op("Mul", g.op("Mul", x, x), x)
            inner = g.op("Mul", g.op("Add", x, g.op("Mul", x3, g.like(_GELU_C))), g.like(_SQRT_2_OVER_PI))
            cdf = g.op("Add", g.op("Tanh", inner), g.like(1.0))
        else:
            cdf = g.op("Add", g.op("Erf", g.op("Mul", x, g.like(1 / _math.sqrt(2.0)))), g.like(1.0))
        return g.op("Mul", g.op("Mul", x, cdf), g.like(0.5))


def _traced_cdf(x: Tensor) -> Tensor:
    """Phi(x) for a traced gradient: ``(1 + erf(x / sqrt(2))) * 0.5``, whose first nodes are those of the
    forward's lowering (merged with them by common-subexpression elimination below opset 20). In a graph
    the eager form y / x costs two Where, an Equal and a Div over the activation, onnxruntime's Where being
    several times a Mul."""
    return mul(add(erf(mul(x, 1 / _math.sqrt(2.0))), 1.0), 0.5)


# ---------------------------------------------------------------- functional API (MindSpore names)
def leaky_relu(input: Tensor, alpha: float = 0.2) -> Tensor:
    """``x`` where ``x >= 0``, ``alpha * x`` elsewhere. MindSpore's default slope is 0.2 (PyTorch: 0.01).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-2.0, 0.0, 3.0]), ms.float32)
        >>> print(ops.leaky_relu(x, alpha=0.1))
        [-0.2  0.   3. ]
    """
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)):
        raise TypeError(f"leaky_relu: alpha must be a float or int, got {type(alpha).__name__}")
    return LeakyRelu.apply(_float(input), alpha=float(alpha))


def prelu(input: Tensor, weight: Tensor) -> Tensor:
    """Parametric ReLU: ``max(0, x) + weight * min(0, x)`` with one slope per channel (axis 1).

    Args:
        input (Tensor): (N, C, *), or any shape with a single slope.
        weight (Tensor): (C,) or (1,).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[-2.0, 3.0], [4.0, -8.0]]), ms.float32)
        >>> weight = Tensor(np.array([0.5, 0.25]), ms.float32)
        >>> print(ops.prelu(x, weight))
        [[-1.  3.]
         [ 4. -2.]]
    """
    x, w = _float(input), to_tensor(weight)
    n = int(w._data.size)
    c = int(x._data.shape[1]) if x.ndim >= 2 else 1
    if w.ndim > 1 or n not in (1, c):
        raise ValueError(f"prelu: weight must have shape ({c},) or (1,) for input {tuple(x._data.shape)}, got "
                         f"{tuple(w._data.shape)}")
    if x.ndim > 2 and n > 1:
        w = reshape(w, (n,) + (1,) * (x.ndim - 2))
    return PRelu.apply(x, w)


def elu(input_x: Tensor, alpha: float = 1.0) -> Tensor:
    """``x`` where ``x > 0``, ``alpha * (exp(x) - 1)`` elsewhere.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-2.0, 0.0, 1.0]), ms.float32)
        >>> print(ops.elu(x, alpha=1.0).asnumpy().round(4))
        [-0.8647  0.      1.    ]
    """
    return Elu.apply(_float(input_x), alpha=float(alpha))


def selu(input_x: Tensor) -> Tensor:
    """``scale * (max(0, x) + min(0, alpha * (exp(x) - 1)))`` with the self-normalising constants.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-1.0, 0.0, 2.0]), ms.float32)
        >>> print(ops.selu(x).asnumpy().round(4))
        [-1.1113  0.      2.1014]
    """
    return Selu.apply(_float(input_x))


def celu(x: Tensor, alpha: float = 1.0) -> Tensor:
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-2.0, 0.0, 3.0]), ms.float32)
        >>> print(ops.celu(x, alpha=2.0).asnumpy().round(4))
        [-1.2642  0.      3.    ]
    """
    if alpha == 0:
        raise ValueError("celu: alpha must not be 0")
    return Celu.apply(_float(x), alpha=float(alpha))


def hardsigmoid(input: Tensor) -> Tensor:
    """``relu6(x + 3) / 6``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-4.0, -1.5, 0.0, 1.5, 4.0]), ms.float32)
        >>> print(ops.hardsigmoid(x))
        [0.   0.25 0.5  0.75 1.  ]
    """
    return HardSigmoid.apply(_float(input))


def hardswish(input: Tensor) -> Tensor:
    """``x * relu6(x + 3) / 6``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-4.0, -1.5, 0.0, 1.5, 4.0]), ms.float32)
        >>> print(ops.hardswish(x))
        [-0.    -0.375  0.     1.125  4.   ]
    """
    return HardSwish.apply(_float(input))


def softplus(input: Tensor, beta: float = 1, threshold: float = 20) -> Tensor:
    """``log(1 + exp(beta * x)) / beta``, and ``x`` where ``beta * x > threshold``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-1.0, 0.0, 1.0]), ms.float32)
        >>> print(ops.softplus(x).asnumpy().round(4))
        [0.3133 0.6931 1.3133]
    """
    if beta == 0:
        raise ValueError("softplus: beta must not be 0")
    return Softplus.apply(_float(input), beta=float(beta), threshold=float(threshold))


def softsign(x: Tensor) -> Tensor:
    """``x / (1 + |x|)``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-3.0, 0.0, 1.0]), ms.float32)
        >>> print(ops.softsign(x))
        [-0.75  0.    0.5 ]
    """
    return Softsign.apply(_float(x))


def mish(x: Tensor) -> Tensor:
    """``x * tanh(softplus(x))``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-1.0, 0.0, 1.0]), ms.float32)
        >>> print(ops.mish(x).asnumpy().round(4))
        [-0.3034  0.      0.8651]
    """
    return Mish.apply(_float(x))


def gelu(input: Tensor, approximate: str = "none") -> Tensor:
    """Gaussian error linear unit.

    ``approximate='none'``: ``x * Phi(x) = 0.5 * x * (1 + erf(x / sqrt(2)))``;
    ``'tanh'``: ``0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)))``.
    ONNX Gelu from opset 20, the Erf / Tanh decomposition before.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-1.0, 0.0, 1.0, 2.0]), ms.float32)
        >>> print(ops.gelu(x, approximate='none').asnumpy().round(4))
        [-0.1587  0.      0.8413  1.9545]
        >>> print(ops.gelu(x, approximate='tanh').asnumpy().round(4))
        [-0.1588  0.      0.8412  1.9546]
    """
    if approximate not in ("none", "tanh"):
        raise ValueError(f"gelu: approximate must be 'none' or 'tanh', got {approximate!r}")
    return Gelu.apply(_float(input), approximate=approximate)


def relu6(x: Tensor) -> Tensor:
    """``min(max(0, x), 6)`` (ONNX Clip).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-1.0, 4.0, 8.0]), ms.float32)
        >>> print(ops.relu6(x))
        [0. 4. 6.]
    """
    return clamp(_float(x), 0.0, 6.0)


def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0) -> Tensor:
    """Clamp to ``[min_val, max_val]``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-2.0, 0.5, 2.0]), ms.float32)
        >>> print(ops.hardtanh(x, min_val=-1.0, max_val=1.0))
        [-1.   0.5  1. ]
    """
    if min_val > max_val:
        raise ValueError(f"hardtanh: min_val {min_val} is greater than max_val {max_val}")
    return clamp(_float(input), float(min_val), float(max_val))


def silu(input: Tensor) -> Tensor:
    """``x * sigmoid(x)`` (swish).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-1.0, 0.0, 1.0]), ms.float32)
        >>> print(ops.silu(x).asnumpy().round(4))
        [-0.2689  0.      0.7311]
    """
    x = _float(input)
    return mul(x, sigmoid(x))


def logsigmoid(x: Tensor) -> Tensor:
    """``log(sigmoid(x)) = -softplus(-x)``, stable for large |x|.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-1.0, 0.0, 1.0]), ms.float32)
        >>> print(ops.logsigmoid(x).asnumpy().round(4))
        [-1.3133 -0.6931 -0.3133]
    """
    return neg(softplus(neg(_float(x))))


def _tensor_softmax(self: Tensor, axis: int = -1, dtype: Any = None) -> Tensor:
    return softmax(self, axis, dtype=dtype)


def _tensor_log_softmax(self: Tensor, axis: int = -1) -> Tensor:
    return log_softmax(self, axis)


TENSOR_METHODS = {"softmax": _tensor_softmax, "log_softmax": _tensor_log_softmax}

__all__ = ["celu", "elu", "gelu", "hardsigmoid", "hardswish", "hardtanh", "leaky_relu", "log_softmax",
           "logsigmoid", "mish", "prelu", "relu6", "selu", "silu", "softmax", "softmin", "softplus", "softsign"]
