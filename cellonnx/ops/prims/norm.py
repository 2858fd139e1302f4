"""Normalisation primitives: batch norm (inference and training), layer norm, instance norm (which group norm
reuses), and the L2 normalisations.

Gradients are written in ops and recompute the statistics from the input, so they are differentiable again.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from cellonnx.autograd.tape import is_grad_enabled
from cellonnx.ops import registry
from cellonnx.ops.prims._util import count_of, is_float_dtype, norm_axis, sum_axes, to_tensor
from cellonnx.ops.prims.creation import ones, zeros
from cellonnx.ops.prims.math import abs as fabs
from cellonnx.ops.prims.math import add, div, maximum, mul, neg, pow, rsqrt, sqrt, sub
from cellonnx.ops.prims.reduce import mean as rmean
from cellonnx.ops.prims.reduce import reduce_sum
from cellonnx.ops.prims.reduce import sum as rsum
from cellonnx.ops.prims.shape import broadcast_to, reshape
from cellonnx.ops.registry import Op
from cellonnx.tensor import Parameter, Tensor


# ---------------------------------------------------------------- helpers
def _bshape(ndim: int) -> tuple[int, ...]:
    """Shape that broadcasts a per-channel (C,) vector over (N, C, *)."""
    return (-1,) + (1,) * (ndim - 2)


def _reduce_axes(ndim: int) -> tuple[int, ...]:
    return (0,) + tuple(range(2, ndim))


def _axes_sum(x: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    """``x`` summed over ``axes``, dims kept. Over (0, 2, ...), batch norm's per-channel statistics, NumPy's
    own multi-axis sum walks the small planes of deep layers a few elements at a time (5-15x slower than
    this): summed over N first, adding whole contiguous slabs, then over each channel's plane."""
    if x.ndim >= 3 and axes == _reduce_axes(x.ndim) and x.flags.c_contiguous:
        per_channel = x.sum(axis=0, dtype=x.dtype)
        return per_channel.reshape(x.shape[1], -1).sum(axis=1).reshape(_bshape(x.ndim))[None]
    return sum_axes(x, axes, True)  # layer norm's rows through row_sums


def _axes_mean(x: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    total = _axes_sum(x, axes)
    total /= x.dtype.type(_count(x.shape, axes))
    return total


def _standardize_np(x: np.ndarray, axes: tuple[int, ...], eps: float) -> tuple[np.ndarray, np.ndarray,
                                                                                np.ndarray]:
    """(x - mean) / sqrt(var + eps) over ``axes`` (biased variance); also returns the mean and variance."""
    mean = _axes_mean(x, axes)
    xc = x - mean
    sq = np.square(xc)
    var = _axes_mean(sq, axes)
    inv = (1.0 / np.sqrt(var + eps)).astype(x.dtype, copy=False)
    np.multiply(xc, inv, out=xc)
    return xc, mean, var


def _standardize(x: Tensor, axes: tuple[int, ...], eps: float) -> tuple[Tensor, Tensor, Tensor]:
    """Ops form of _standardize_np for gradients: (xhat, x - mean, 1/sqrt(var + eps)), keep_dims shapes."""

    xc = sub(x, rmean(x, axes, keep_dims=True))
    inv = rsqrt(add(rmean(mul(xc, xc), axes, keep_dims=True), eps))
    return mul(xc, inv), xc, inv


def _standardize_grad(gxhat: Tensor, xhat: Tensor, inv: Tensor, axes: tuple[int, ...]) -> Tensor:
    """Gradient through xhat = (x - mean) / sqrt(var + eps), the statistics taken over ``axes``."""

    centred = sub(gxhat, rmean(gxhat, axes, keep_dims=True))
    return mul(inv, sub(centred, mul(xhat, rmean(mul(gxhat, xhat), axes, keep_dims=True))))


def _count(shape: Sequence[int], axes: tuple[int, ...]) -> int:
    n = 1
    for a in axes:
        n *= int(shape[a])
    return n


def _tracing() -> bool:
    return registry.TRACE_HOOK is not None


def _assign(t: Tensor, value: np.ndarray) -> None:
    """Replace a running statistic in place (a Parameter bumps its version so compiled graphs refresh)."""
    value = np.asarray(value, dtype=t._data.dtype).reshape(t._data.shape)
    if isinstance(t, Parameter):
        t._assign_array(value)
    else:
        t._data = value


def _decompose_standardize(g: Any, x: str, axes: Sequence[int], eps: float,
                           reciprocal: bool = False) -> tuple[str, str, str]:
    """ONNX nodes for (xhat, mean, biased var) over ``axes``, keepdims."""
    mean = g.axes(list(axes), "ReduceMean", x, keepdims=1)
    xc = g.op("Sub", x, mean)
    var = g.axes(list(axes), "ReduceMean", g.op("Mul", xc, xc), keepdims=1)
    std = g.op("Sqrt", g.op("Add", var, g.like(eps)))
    if reciprocal:
        # xc * rsqrt(var + eps), node for node as the gradient's ops form (_standardize) lowers, so that a
        # traced training step computes xhat once (common-subexpression elimination merges the two)
        return g.op("Mul", xc, g.op("Reciprocal", std)), mean, var
    return g.op("Div", xc, std), mean, var


# ---------------------------------------------------------------- batch norm
class BatchNormInfer(Op):
    """y = (x - running_mean) / sqrt(running_var + eps) * weight + bias, per channel (axis 1)."""

    def forward(self, x, mean, var, w, b, *, eps):
        inv = 1.0 / np.sqrt(var + eps)
        scale = (w * inv).astype(x.dtype, copy=False)
        shift = (b - mean * scale).astype(x.dtype, copy=False)
        shape = _bshape(x.ndim)
        y = x * scale.reshape(shape)
        y += shift.reshape(shape)
        return y

    def backward(self, ctx, g, *, eps):

        x, mean, var, w, _ = ctx.inputs
        shape, axes = _bshape(x.ndim), _reduce_axes(x.ndim)
        inv = rsqrt(add(var, eps))
        gx = gm = gv = gw = gb = None
        if ctx.needs_grad(0):
            gx = mul(g, reshape(mul(w, inv), shape))
        gsum = reduce_sum(g, axes) if (ctx.needs_grad(1) or ctx.needs_grad(4)) else None
        if ctx.needs_grad(4):
            gb = gsum
        if ctx.needs_grad(1):
            gm = neg(mul(gsum, mul(w, inv)))
        if ctx.needs_grad(2) or ctx.needs_grad(3):
            gxc = reduce_sum(mul(g, sub(x, reshape(mean, shape))), axes)
            if ctx.needs_grad(3):
                gw = mul(gxc, inv)
            if ctx.needs_grad(2):
                gv = mul(mul(gxc, w), mul(mul(inv, mul(inv, inv)), -0.5))
        return gx, gm, gv, gw, gb

    def lower(self, g, x, mean, var, w, b, *, eps):
        return g.op("BatchNormalization", x, w, b, mean, var, epsilon=float(eps))

    def check(self, x, mean, var, w, b, *, eps):
        return _check_channels("batch_norm", x, {"running_mean": mean, "running_var": var, "weight": w, "bias": b})


class BatchNormTrain(Op):
    """Batch statistics form: outputs (y, batch mean, unbiased batch variance), the last two per channel for
    the running-statistics update."""

    n_outputs = 3

    def forward(self, x, w, b, *, eps):
        axes = _reduce_axes(x.ndim)
        xhat, mean, var = _standardize_np(x, axes, eps)
        shape = _bshape(x.ndim)
        xhat *= w.astype(x.dtype, copy=False).reshape(shape)
        xhat += b.astype(x.dtype, copy=False).reshape(shape)
        m = _count(x.shape, axes)
        # unbiased variance for the running statistic (Ascend/GPU BatchNorm: scaler m/(m-1), 0 when m == 1)
        unbiased = var.reshape(-1) * (m / (m - 1) if m > 1 else 0.0)
        return xhat, mean.reshape(-1), unbiased.astype(x.dtype, copy=False)

    def backward(self, ctx, g, gmean, gvar, *, eps):

        x, w, _ = ctx.inputs
        shape, axes = _bshape(x.ndim), _reduce_axes(x.ndim)
        m = _count(x._data.shape, axes)
        if not is_grad_enabled() and not _tracing() and x._data.dtype in (np.float32, np.float64):
            return _batch_norm_grad_np(ctx, g, gmean, gvar, eps, shape, axes, m)
        if _tracing():  # N (and so m) read at run time when the batch is dynamic
            m = count_of(x.shape, axes, x._data.dtype)
        xhat, xc, inv = _standardize(x, axes, eps)
        gb = reduce_sum(g, axes)
        gw = reduce_sum(mul(g, xhat), axes)
        gx = None
        if ctx.needs_grad(0):
            gx = _batch_norm_input_grad(g, xhat, inv, w, gb, gw, m, shape)
            # the statistics outputs (used for the running averages) only carry a gradient when read by
            # differentiated code; the placeholders the tape fills in for unused outputs are zero
            if np.any(gmean._data):
                gx = add(gx, reshape(div(gmean, m), shape))
            m_now = _count(x._data.shape, axes)
            if m_now > 1 and np.any(gvar._data):
                gx = add(gx, mul(xc, reshape(mul(gvar, 2.0 / (m_now - 1)), shape)))
        return (gx, gw if ctx.needs_grad(1) else None, gb if ctx.needs_grad(2) else None)

    def lower(self, g, x, w, b, *, eps):
        nd = len(g.in_tensors[0]._data.shape)
        axes = _reduce_axes(nd)
        xhat, mean, var = _decompose_standardize(g, x, axes, eps, reciprocal=True)
        unsq = list(range(1, nd - 1))
        wr, br = (g.unsqueeze(w, unsq), g.unsqueeze(b, unsq)) if unsq else (w, b)
        y = g.op("Add", g.op("Mul", xhat, wr), br)
        flat = g.i64([-1])
        mean_c = g.op("Reshape", mean, flat)
        var_c = g.op("Reshape", var, flat)
        shape = g.in_tensors[0].shape
        if any(hasattr(d, "onnx_name") for d in shape):  # dynamic batch: m read at run time
            dt = g.in_tensors[0].dtype.onnx
            m = g.op("Cast", g.op("Div", g.op("Size", x), g.i64(int(shape[1]))), to=dt)
            scaler = g.op("Div", m, g.op("Max", g.op("Sub", m, g.like(1.0)), g.like(1.0)))
            scaler = g.op("Mul", scaler, g.op("Cast", g.op("Greater", m, g.like(1.0)), to=dt))
        else:
            m = _count(shape, axes)
            scaler = g.like(m / (m - 1) if m > 1 else 0.0)
        return y, mean_c, g.op("Mul", var_c, scaler)

    def check(self, x, w, b, *, eps):
        return _check_channels("batch_norm", x, {"weight": w, "bias": b})


def _batch_norm_input_grad(g: Tensor, xhat: Tensor, inv: Tensor, w: Tensor, gb: Tensor, gw: Tensor, m: Any,
                           shape: tuple) -> Tensor:
    """Batch norm's input gradient in ops, ``inv * w * (g - mean(g) - xhat * mean(g * xhat))`` with the means
    written with ``gb`` (sum of g) and ``gw`` (sum of g * xhat) over ``m`` values, computed as
    ``g * k + (xhat * (-k * gw / m) + (-k * gb / m))`` with ``k = inv * w``: per-channel vectors times
    activations, two passes over the activation fewer than the bracket's form (traced for the CPU, the
    affine of xhat and, on small planes, the scaling of g become BatchNormalization nodes)."""
    k = mul(inv, reshape(w, shape))
    shifted = add(mul(xhat, mul(k, reshape(neg(div(gw, m)), shape))), mul(k, reshape(neg(div(gb, m)), shape)))
    return add(mul(g, k), shifted)


def _batch_norm_grad_np(ctx: Any, g: Tensor, gmean: Tensor, gvar: Tensor, eps: float, shape: tuple,
                        axes: tuple, m: int) -> tuple:
    """BatchNormTrain's backward in NumPy, the same formulas as the ops form with fewer passes and
    temporaries; for backward passes that are not themselves recorded (no create_graph, not tracing)."""
    x, w, _ = ctx.inputs
    xd, gd = x._data, g._data
    dt = xd.dtype
    xhat = xd - _axes_mean(xd, axes)
    t = np.square(xhat)
    inv = (1.0 / np.sqrt(_axes_mean(t, axes) + eps)).astype(dt, copy=False)
    xhat *= inv
    gb = _axes_sum(gd, axes).reshape(-1)
    np.multiply(gd, xhat, out=t)
    gw = _axes_sum(t, axes).reshape(-1)
    gx = None
    if ctx.needs_grad(0):
        # inv * w * (g - mean(g) - xhat * mean(g * xhat))
        np.multiply(xhat, (gw / dt.type(m)).reshape(shape), out=t)
        np.subtract(gd, t, out=t)
        t -= (gb / dt.type(m)).reshape(shape)
        t *= inv * w._data.astype(dt, copy=False).reshape(shape)
        gm, gv = gmean._data, gvar._data
        if np.any(gm):
            t += (gm / dt.type(m)).astype(dt, copy=False).reshape(shape)
        if m > 1 and np.any(gv):  # x - mean = xhat / inv
            t += xhat * (gv.astype(dt, copy=False).reshape(shape) * dt.type(2.0 / (m - 1)) / inv)
        gx = Tensor._make(t)
    return (gx, Tensor._make(gw) if ctx.needs_grad(1) else None, Tensor._make(gb) if ctx.needs_grad(2) else None)


def _check_channels(op: str, x: np.ndarray, params: dict[str, np.ndarray]) -> str | None:
    if x.ndim < 2:
        return f"input must be (N, C, *) with rank >= 2, got shape {x.shape}"
    c = x.shape[1]
    for name, p in params.items():
        if p.shape != (c,):
            return f"{name} must have shape ({c},) for an input with C={c} channels (input {x.shape}), " \
                   f"got {p.shape}"
    return None


def batch_norm(input_x: Tensor, running_mean: Tensor, running_var: Tensor, weight: Tensor | None = None,
               bias: Tensor | None = None, training: bool = False, momentum: float = 0.1,
               eps: float = 1e-5) -> Tensor:
    """Batch normalization over the channel axis 1 of an (N, C), (N, C, L) or (N, C, H, W) input.

    .. math::
        y = \\frac{x - mean}{\\sqrt{variance + \\epsilon}} * \\gamma + \\beta

    Inference (``training=False``) uses ``running_mean`` / ``running_var``. Training normalises with the
    batch statistics (biased variance) and updates ``running_mean`` and ``running_var`` in place with
    MindSpore's *functional* momentum convention::

        new_running = (1 - momentum) * running + momentum * batch_statistic

    The running variance receives the unbiased batch variance (``m / (m - 1)`` times the biased one, m the
    number of values per channel; 0 when m == 1), as MindSpore's Ascend and GPU kernels do (its CPU kernel
    uses the biased one). Note that ``nn.BatchNorm2d(momentum=0.9)`` uses the opposite convention,
    ``moving = momentum * moving + (1 - momentum) * batch``: a layer passes ``1 - its momentum`` here.
    While a graph is being traced the running statistics are left untouched (the example input must not
    move them).

    Args:
        input_x (Tensor): (N, C, *) float tensor.
        running_mean (Union[Tensor, Parameter]): (C,); a Parameter in training (updated in place).
        running_var (Union[Tensor, Parameter]): (C,); a Parameter in training (updated in place).
        weight (Tensor, optional): gamma, (C,). Default None (ones).
        bias (Tensor, optional): beta, (C,). Default None (zeros).
        training (bool): batch statistics and running-statistics update when True. Default False.
        momentum (float): weight of the new batch statistic in the running average, in [0, 1]. Default 0.1.
        eps (float): added to the variance. Default 1e-5.

    Returns:
        Tensor of the shape and dtype of ``input_x``.

    Examples:
        >>> x = Tensor(np.random.randn(4, 3, 5, 5).astype(np.float32))
        >>> rm, rv = Parameter(np.zeros(3, np.float32), "m"), Parameter(np.ones(3, np.float32), "v")
        >>> y = ops.batch_norm(x, rm, rv, training=True)
    """
    x = to_tensor(input_x)
    if x.ndim < 2:
        raise ValueError(f"batch_norm: input_x must be (N, C, *) with rank >= 2, got shape {tuple(x.shape)}")
    if not 0.0 <= momentum <= 1.0:
        raise ValueError(f"batch_norm: momentum must be in [0, 1], got {momentum}")
    w, b = _affine(x, weight, bias, "batch_norm")
    if not training:
        return BatchNormInfer.apply(x, to_tensor(running_mean), to_tensor(running_var), w, b, eps=float(eps))
    y, bmean, bvar = BatchNormTrain.apply(x, w, b, eps=float(eps))
    if not _tracing():
        for stat, batch in ((running_mean, bmean), (running_var, bvar)):
            if isinstance(stat, Tensor):
                _assign(stat, (1.0 - momentum) * stat._data + momentum * batch._data)
    elif registry.ACTIVE_TRACER is not None and registry.ACTIVE_TRACER.root().stateful:
        # a compiled training step: the update is part of the graph (an output paired with the statistic)
        from cellonnx.ops.operations._util import assign_to

        for stat, batch in ((running_mean, bmean), (running_var, bvar)):
            if isinstance(stat, Parameter):
                assign_to(stat, add(mul(stat, 1.0 - momentum), mul(batch, momentum)), "batch_norm")
    return y


def _affine(x: Tensor, weight: Any, bias: Any, op: str) -> tuple[Tensor, Tensor]:
    """weight / bias of shape (C,) (ones / zeros when None)."""
    c = int(x._data.shape[1])
    dt = x._data.dtype
    # the default ones / zeros are as long as the channel axis is in the graph (it may be dynamic)
    w = to_tensor(weight) if weight is not None else ones((x.shape[1],), dtype=dt)
    b = to_tensor(bias) if bias is not None else zeros((x.shape[1],), dtype=dt)
    for name, p in (("weight", w), ("bias", b)):
        if tuple(int(d) for d in p._data.shape) != (c,):
            raise ValueError(f"{op}: {name} must have shape ({c},) for an input with C={c} channels "
                             f"(input {tuple(x._data.shape)}), got {tuple(p._data.shape)}")
    return w, b


# ---------------------------------------------------------------- layer norm
class LayerNorm(Op):
    """Normalise over the axes from ``axis`` on; weight and bias have the shape of those axes."""

    def forward(self, x, w, b, *, axis, eps):
        y, _, _ = _standardize_np(x, tuple(range(axis, x.ndim)), eps)
        y *= w.astype(x.dtype, copy=False)
        y += b.astype(x.dtype, copy=False)
        return y

    def backward(self, ctx, g, *, axis, eps):

        x, w, _ = ctx.inputs
        axes = tuple(range(axis, x.ndim))
        lead = tuple(range(axis))
        xhat, _, inv = _standardize(x, axes, eps)
        gx = _standardize_grad(mul(g, w), xhat, inv, axes) if ctx.needs_grad(0) else None
        gw = _sum_lead(mul(g, xhat), lead) if ctx.needs_grad(1) else None
        gb = _sum_lead(g, lead) if ctx.needs_grad(2) else None
        return gx, gw, gb

    def lower(self, g, x, w, b, *, axis, eps):
        if g.opset >= 17:
            return g.op("LayerNormalization", x, w, b, axis=int(axis), epsilon=float(eps))
        nd = len(g.in_tensors[0]._data.shape)
        xhat, _, _ = _decompose_standardize(g, x, range(axis, nd), eps)
        return g.op("Add", g.op("Mul", xhat, w), b)

    def check(self, x, w, b, *, axis, eps):
        want = x.shape[axis:]
        if w.shape != want or b.shape != want:
            return f"weight {w.shape} and bias {b.shape} must have the normalized shape {want} " \
                   f"(input {x.shape}, begin_norm_axis {axis})"
        return None


def _sum_lead(t: Tensor, lead: tuple[int, ...]) -> Tensor:
    return reduce_sum(t, lead) if lead else t


def layer_norm(input: Tensor, normalized_shape: Any, weight: Tensor | None = None, bias: Tensor | None = None,
               eps: float = 1e-5) -> Tensor:
    """Layer normalization over the trailing dims given by ``normalized_shape``.

    .. math::
        y = \\frac{x - \\mathrm{E}[x]}{\\sqrt{\\mathrm{Var}[x] + \\epsilon}} * \\gamma + \\beta

    Args:
        input (Tensor): (N, *).
        normalized_shape (Union[int, tuple[int], list[int]]): equals ``input.shape[begin_norm_axis:]``.
        weight (Tensor, optional): gamma of shape ``normalized_shape``. Default None (ones).
        bias (Tensor, optional): beta of shape ``normalized_shape``. Default None (zeros).
        eps (float): added to the (biased) variance. Default 1e-5.

    Returns:
        Tensor of the shape and dtype of ``input``. ONNX: LayerNormalization from opset 17, the
        ReduceMean/Sub/Mul/Sqrt/Div decomposition before.

    Examples:
        >>> x = Tensor(np.array([[1, 2, 3], [1, 2, 3]]), ms.float32)
        >>> print(ops.layer_norm(x, (3,)))
        [[-1.2247...  0.  1.2247...]
         [-1.2247...  0.  1.2247...]]
    """
    x = to_tensor(input)
    shape = (int(normalized_shape),) if isinstance(normalized_shape, (int, np.integer)) else \
        tuple(int(d) for d in normalized_shape)
    k = len(shape)
    if k == 0 or k > x.ndim or tuple(x._data.shape[x.ndim - k:]) != shape:
        raise ValueError(f"layer_norm: normalized_shape {shape} must equal the trailing dims of the input "
                         f"{tuple(x._data.shape)}")
    return layer_norm_axes(x, x.ndim - k, x.ndim - k, weight, bias, eps)


def layer_norm_axes(input: Tensor, begin_norm_axis: int = -1, begin_params_axis: int = -1,
                    gamma: Tensor | None = None, beta: Tensor | None = None, epsilon: float = 1e-7) -> Tensor:
    """MindSpore's LayerNorm primitive (what nn.LayerNorm calls): normalise over the axes from
    ``begin_norm_axis`` on; ``gamma`` / ``beta`` have the shape ``input.shape[begin_params_axis:]`` and
    broadcast against the trailing dims. The epsilon default (1e-7) is nn.LayerNorm's.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([[1.0, 3.0], [2.0, 6.0]]), ms.float32)
        >>> y = ops.layer_norm_axes(x, begin_norm_axis=1, begin_params_axis=1)
        >>> print(y.asnumpy().round(4))
        [[-1.  1.]
         [-1.  1.]]
    """

    x = to_tensor(input)
    if not is_float_dtype(x._data.dtype):
        raise TypeError(f"layer_norm: input must be a float tensor, got {x.dtype}")
    axis = norm_axis(begin_norm_axis, x.ndim, "layer_norm")
    paxis = norm_axis(begin_params_axis, x.ndim, "layer_norm")
    norm_shape = tuple(x.shape[axis:])
    param_shape = tuple(x._data.shape[paxis:])
    dt = x._data.dtype
    for name, p in (("gamma", gamma), ("beta", beta)):
        if p is not None and tuple(p._data.shape) != param_shape:
            raise ValueError(f"layer_norm: {name} must have shape {param_shape} (input {tuple(x._data.shape)}, "
                             f"begin_params_axis {begin_params_axis}), got {tuple(p._data.shape)}")
    if paxis >= axis:  # parameters over a suffix of the normalised dims: broadcast them up
        def fit(p: Tensor | None, fill: Any) -> Tensor:
            if p is None:
                return fill(norm_shape, dtype=dt)
            return broadcast_to(p, norm_shape) if paxis > axis else p
        return LayerNorm.apply(x, fit(gamma, ones), fit(beta, zeros), axis=axis, eps=float(epsilon))
    y = LayerNorm.apply(x, ones(norm_shape, dtype=dt), zeros(norm_shape, dtype=dt), axis=axis, eps=float(epsilon))
    if gamma is not None:
        y = mul(y, gamma)
    return add(y, beta) if beta is not None else y


# ---------------------------------------------------------------- instance / group norm
class InstanceNorm(Op):
    """Normalise each (n, c) slice over the spatial axes 2..; weight / bias per channel."""

    def forward(self, x, w, b, *, eps):
        y, _, _ = _standardize_np(x, tuple(range(2, x.ndim)), eps)
        shape = _bshape(x.ndim)
        y *= w.astype(x.dtype, copy=False).reshape(shape)
        y += b.astype(x.dtype, copy=False).reshape(shape)
        return y

    def backward(self, ctx, g, *, eps):

        x, w, _ = ctx.inputs
        axes, shape, outer = tuple(range(2, x.ndim)), _bshape(x.ndim), _reduce_axes(x.ndim)
        xhat, _, inv = _standardize(x, axes, eps)
        gx = _standardize_grad(mul(g, reshape(w, shape)), xhat, inv, axes) if ctx.needs_grad(0) else None
        gw = reduce_sum(mul(g, xhat), outer) if ctx.needs_grad(1) else None
        gb = reduce_sum(g, outer) if ctx.needs_grad(2) else None
        return gx, gw, gb

    def lower(self, g, x, w, b, *, eps):
        return g.op("InstanceNormalization", x, w, b, epsilon=float(eps))

    def check(self, x, w, b, *, eps):
        if x.ndim < 3:
            return f"input must be (N, C, *) with at least one spatial dim, got shape {x.shape}"
        return _check_channels("instance_norm", x, {"weight": w, "bias": b})


def instance_norm(input: Tensor, running_mean: Tensor | None = None, running_var: Tensor | None = None,
                  weight: Tensor | None = None, bias: Tensor | None = None, use_input_stats: bool = True,
                  momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """Instance normalization: each sample's channel is normalised over its spatial dims (biased variance).

    As MindSpore's nn.InstanceNorm1d/2d/3d, the instance statistics are used whenever ``use_input_stats``
    (in training and evaluation); when running statistics are given they are updated in place with
    ``new = (1 - momentum) * running + momentum * batch_average`` of the per-instance means and unbiased
    variances. ``use_input_stats=False`` normalises with the running statistics instead. (MindSpore's ops
    exposes only the InstanceNorm primitive; this is the functional form of the same computation.)

    Args:
        input (Tensor): (N, C, *) with at least one spatial dim.
        running_mean, running_var (Tensor, optional): (C,).
        weight, bias (Tensor, optional): (C,). Default None (ones / zeros).
        use_input_stats (bool): normalise with the instance statistics. Default True.
        momentum (float): running-average momentum. Default 0.1.
        eps (float): added to the variance. Default 1e-5.

    Returns:
        Tensor of the shape and dtype of ``input``; ONNX InstanceNormalization.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([[[1.0, 3.0], [2.0, 6.0]]]), ms.float32)
        >>> print(ops.instance_norm(x).asnumpy().round(4))
        [[[-1.  1.]
          [-1.  1.]]]
    """
    x = to_tensor(input)
    if x.ndim < 3:
        raise ValueError(f"instance_norm: input must be (N, C, *) with at least one spatial dim, got shape "
                         f"{tuple(x._data.shape)}")
    w, b = _affine(x, weight, bias, "instance_norm")
    if not use_input_stats:
        if running_mean is None or running_var is None:
            raise ValueError("instance_norm: use_input_stats=False needs running_mean and running_var")
        return BatchNormInfer.apply(x, to_tensor(running_mean), to_tensor(running_var), w, b, eps=float(eps))
    y = InstanceNorm.apply(x, w, b, eps=float(eps))
    if not _tracing() and (isinstance(running_mean, Tensor) or isinstance(running_var, Tensor)):
        axes = tuple(range(2, x.ndim))
        n = _count(x._data.shape, axes)
        data = x._data
        if isinstance(running_mean, Tensor):
            _assign(running_mean, (1 - momentum) * running_mean._data + momentum * data.mean(axes).mean(0))
        if isinstance(running_var, Tensor):
            var = data.var(axes, ddof=1).mean(0) if n > 1 else np.zeros(data.shape[1], data.dtype)
            _assign(running_var, (1 - momentum) * running_var._data + momentum * var)
    return y


def group_norm(input: Tensor, num_groups: int, weight: Tensor | None = None, bias: Tensor | None = None,
               eps: float = 1e-5) -> Tensor:
    """Group normalization: the C channels split into ``num_groups`` groups, each normalised over its
    channels and spatial dims; then the per-channel affine.

    ONNX: Reshape to (N, G, -1) + InstanceNormalization + Reshape + Mul/Add. GroupNormalization (opset 18)
    took per-group scale/bias and changed to per-channel in opset 21 (18 is deprecated), so the
    decomposition is the one form valid and identical for opsets 13..21.

    Args:
        input (Tensor): (N, C, *).
        num_groups (int): number of groups; divides C.
        weight, bias (Tensor, optional): (C,). Default None (ones / zeros).
        eps (float): added to the variance. Default 1e-5.

    Returns:
        Tensor of the shape and dtype of ``input``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(8).reshape(1, 4, 2), ms.float32)
        >>> print(ops.group_norm(x, 2).asnumpy().round(4))
        [[[-1.3416 -0.4472]
          [ 0.4472  1.3416]
          [-1.3416 -0.4472]
          [ 0.4472  1.3416]]]
    """

    x = to_tensor(input)
    if x.ndim < 2:
        raise ValueError(f"group_norm: input must be (N, C, *), got shape {tuple(x._data.shape)}")
    c = int(x._data.shape[1])
    if num_groups <= 0 or c % num_groups:
        raise ValueError(f"group_norm: num_groups={num_groups} must divide the {c} channels of input "
                         f"{tuple(x._data.shape)}")
    dt = x._data.dtype
    shape = tuple(x.shape)
    grouped = reshape(x, (shape[0], num_groups, -1))
    ones_g, zeros_g = Tensor._make(np.ones(num_groups, dt)), Tensor._make(np.zeros(num_groups, dt))
    y = reshape(InstanceNorm.apply(grouped, ones_g, zeros_g, eps=float(eps)), shape)
    bshape = _bshape(x.ndim)
    for name, p in (("weight", weight), ("bias", bias)):
        if p is not None and tuple(p._data.shape) != (c,):
            raise ValueError(f"group_norm: {name} must have shape ({c},), got {tuple(p._data.shape)}")
    if weight is not None:
        y = mul(y, reshape(weight, bshape) if x.ndim > 2 else weight)
    if bias is not None:
        y = add(y, reshape(bias, bshape) if x.ndim > 2 else bias)
    return y


# ---------------------------------------------------------------- L2 normalisation (composites)
def l2_normalize(x: Tensor, axis: Any = 0, epsilon: float = 1e-4) -> Tensor:
    """MindSpore's L2Normalize: ``x / sqrt(max(sum(x ** 2, axis), epsilon))``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[3.0, 4.0], [0.0, 2.0]]), ms.float32)
        >>> print(ops.l2_normalize(x, axis=1))
        [[0.6 0.8]
         [0.  1. ]]
    """

    x = to_tensor(x)
    sq = rsum(mul(x, x), tuple(axis) if isinstance(axis, list) else axis, keepdim=True)
    return mul(x, rsqrt(maximum(sq, epsilon)))


def normalize(input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12) -> Tensor:
    """Lp-normalise along ``dim``: ``x / max(||x||_p, eps)`` (mint.nn.functional.normalize).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[3.0, 4.0], [0.0, 2.0]]), ms.float32)
        >>> print(ops.normalize(x, p=2.0, dim=1))
        [[0.6 0.8]
         [0.  1. ]]
    """

    x = to_tensor(input)
    if p == 2:
        norm = sqrt(rsum(mul(x, x), dim, keepdim=True))
    elif p == 1:
        norm = rsum(fabs(x), dim, keepdim=True)
    else:
        norm = pow(rsum(pow(fabs(x), float(p)), dim, keepdim=True), 1.0 / p)
    return div(x, maximum(norm, eps))


__all__ = ["batch_norm", "group_norm", "instance_norm", "l2_normalize", "layer_norm", "layer_norm_axes",
           "normalize"]
