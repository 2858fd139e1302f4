"""MXNet's neural-network operators (FullyConnected, Convolution, Pooling, BatchNorm, Activation, softmax,
Dropout, Embedding, ...) with MXNet's argument names and defaults, over cellonnx.ops and the gluon layers'
shared computations. Training-mode behaviour (batch statistics, dropout) follows ``autograd.is_training()``.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import ops
from cellonnx.gluon import autograd
from cellonnx.gluon.nn.activations import _ACTIVATIONS
from cellonnx.gluon.nn.basic_layers import dropout as _dropout
from cellonnx.gluon.nn.norm_layers import batch_norm as _batch_norm
from cellonnx.graph.trace import require_static
from cellonnx.mxnet._op._util import as_tensor, dtype_of, int_tuple
from cellonnx.tensor import Tensor

__all__ = ["NN"]


def fully_connected(data: Tensor, weight: Tensor, bias: Tensor | None = None, num_hidden: int | None = None,
                    no_bias: bool = False, flatten: bool = True, **_: Any) -> Tensor:
    """``data @ weight.T + bias``; ``flatten`` collapses all axes but the first first."""
    if flatten and data.ndim != 2:
        data = ops.reshape(data, (data.shape[0], -1))
    return ops.dense(data, weight, None if no_bias else bias)


_CHANNEL_FIRST = {1: "NCW", 2: "NCHW", 3: "NCDHW"}
_CHANNEL_LAST = {1: "NWC", 2: "NHWC", 3: "NDHWC"}


def _spatial(data: Tensor, op: str, layout: Any, channel_last: bool = False) -> tuple[int, bool]:
    """The number of spatial axes of ``data`` (1, 2 or 3) and whether ``layout`` puts channels last (only
    where the operator takes channel-last layouts: ``channel_last``)."""
    nd = data.ndim - 2
    if nd not in (1, 2, 3):
        raise ValueError(f"{op}: expected a 3-d, 4-d or 5-d input (1 to 3 spatial axes), got shape "
                         f"{tuple(data.shape)}")
    if layout in (None, _CHANNEL_FIRST[nd]):
        return nd, False
    if channel_last and layout == _CHANNEL_LAST[nd]:
        return nd, True
    allowed = [_CHANNEL_FIRST[nd]] + ([_CHANNEL_LAST[nd]] if channel_last else [])
    raise ValueError(f"{op}: layout {layout!r} does not fit a {nd + 2}-d input {tuple(data.shape)}; "
                     f"expected one of {allowed}")


def _to_channel_first(x: Tensor) -> Tensor:
    return ops.transpose(x, (0, x.ndim - 1, *range(1, x.ndim - 1)))


def _to_channel_last(x: Tensor) -> Tensor:
    return ops.transpose(x, (0, *range(2, x.ndim), 1))


def convolution(data: Tensor, weight: Tensor, bias: Tensor | None = None, kernel: Any = None,
                stride: Any = (),
                dilate: Any = (), pad: Any = (), num_filter: int | None = None, num_group: int = 1,
                workspace: int = 1024, no_bias: bool = False, cudnn_tune: Any = None, cudnn_off: bool = False,
                layout: Any = None, **_: Any) -> Tensor:
    """N-d convolution (1-d, 2-d and 3-d), weight (num_filter, C / num_group, *kernel)."""
    nd = _spatial(data, "Convolution", layout)[0]
    s = int_tuple(stride or 1, nd, "stride", "Convolution")
    d = int_tuple(dilate or 1, nd, "dilate", "Convolution")
    p = int_tuple(pad or 0, nd, "pad", "Convolution")
    b = None if no_bias else bias
    conv = {1: ops.conv1d, 2: ops.conv2d, 3: ops.conv3d}[nd]
    return conv(data, weight, b, stride=s, pad_mode="pad", padding=p, dilation=d, groups=int(num_group))


def deconvolution(data: Tensor, weight: Tensor, bias: Tensor | None = None, kernel: Any = None,
                  stride: Any = (), dilate: Any = (), pad: Any = (), adj: Any = (), target_shape: Any = (),
                  num_filter: int | None = None, num_group: int = 1, workspace: int = 512,
                  no_bias: bool = True,
                  cudnn_tune: Any = None, cudnn_off: bool = False, layout: Any = None, **_: Any) -> Tensor:
    """Transposed N-d convolution (1-d, 2-d and 3-d), weight (C, num_filter / num_group, *kernel);
    ``target_shape`` chooses the padding and ``adj`` that give that output size."""
    from cellonnx.ops.prims.conv_grad import conv_transpose
    nd = _spatial(data, "Deconvolution", layout)[0]
    s = int_tuple(stride or 1, nd, "stride", "Deconvolution")
    d = int_tuple(dilate or 1, nd, "dilate", "Deconvolution")
    p = int_tuple(pad or 0, nd, "pad", "Deconvolution")
    a = int_tuple(adj or 0, nd, "adj", "Deconvolution")
    if target_shape:
        tgt = int_tuple(target_shape, nd, "target_shape", "Deconvolution")
        k = tuple(weight.shape[2:])
        full = [(data.shape[2 + i] - 1) * s[i] + d[i] * (k[i] - 1) + 1 for i in range(nd)]
        total = [full[i] - tgt[i] for i in range(nd)]
        p = tuple((t + 1) // 2 for t in total)
        a = tuple(2 * p[i] - total[i] for i in range(nd))
    return conv_transpose(data, weight, None if no_bias else bias, stride=s, padding=p, output_padding=a,
                          groups=int(num_group), dilation=d, op="Deconvolution")


def pooling(data: Tensor, kernel: Any = (), pool_type: str = "max", global_pool: bool = False,
            cudnn_off: bool = False, pooling_convention: str = "valid", stride: Any = (), pad: Any = (),
            p_value: int | None = None, count_include_pad: bool | None = None, layout: Any = None,
            **_: Any) -> Tensor:
    """Max / average / sum / Lp pooling (1-d, 2-d and 3-d; channel-first or channel-last layouts);
    ``global_pool`` pools the whole map; ``pooling_convention`` 'full' rounds output sizes up."""
    nd, last = _spatial(data, "Pooling", layout, channel_last=True)
    if last:
        out = pooling(_to_channel_first(data), kernel, pool_type, global_pool, cudnn_off, pooling_convention,
                      stride, pad, p_value, count_include_pad)
        return _to_channel_last(out)
    axes = tuple(range(2, 2 + nd))
    if global_pool:
        if pool_type == "max":
            return ops.amax(data, axes, True)
        if pool_type == "avg":
            return ops.mean(data, axes, True)
        if pool_type == "sum":
            return ops.sum(data, axes, True)
        if pool_type == "lp":
            return ops.pow(ops.sum(ops.pow(ops.abs(data), p_value), axes, True), 1.0 / p_value)
    k = int_tuple(kernel, nd, "kernel", "Pooling")
    s = int_tuple(stride or 1, nd, "stride", "Pooling")
    p = int_tuple(pad or 0, nd, "pad", "Pooling")
    if pooling_convention == "same":
        raise NotImplementedError("Pooling: pooling_convention='same' is not supported ('valid' "
                                  "and 'full' are)")
    ceil = pooling_convention == "full"
    # 1-d pooling runs as 2-d pooling over a height of 1
    x = ops.expand_dims(data, 2) if nd == 1 else data
    k2, s2, p2 = ((1, *k), (1, *s), (0, *p)) if nd == 1 else (k, s, p)
    max_pool = ops.max_pool3d if nd == 3 else ops.max_pool2d
    avg_pool = ops.avg_pool3d if nd == 3 else ops.avg_pool2d
    if pool_type == "max":
        out = max_pool(x, k2, s2, p2, ceil_mode=ceil)
    elif pool_type in ("avg", "sum"):
        include = True if count_include_pad is None else bool(count_include_pad)
        out = avg_pool(x, k2, s2, p2, ceil_mode=ceil, count_include_pad=include)
        if pool_type == "sum":
            out = ops.mul(out, float(np.prod(k)))
    elif pool_type == "lp":
        pv = float(p_value or 2)
        pooled = avg_pool(ops.pow(ops.abs(x), pv), k2, s2, p2, ceil_mode=ceil, count_include_pad=True)
        out = ops.pow(ops.mul(pooled, float(np.prod(k))), 1.0 / pv)
    else:
        raise ValueError(f"Pooling: pool_type must be 'max', 'avg', 'sum' or 'lp', got {pool_type!r}")
    return ops.squeeze(out, 2) if nd == 1 else out


def batch_norm(data: Tensor, gamma: Tensor, beta: Tensor, moving_mean: Tensor, moving_var: Tensor,
               eps: float = 1e-3, momentum: float = 0.9, fix_gamma: bool = True,
               use_global_stats: bool = False,
               output_mean_var: bool = False, axis: int = 1, cudnn_off: bool = False, **_: Any) -> Any:
    """MXNet's BatchNorm (defaults eps 1e-3 and fix_gamma True, as the operator has them): batch statistics
    while training (they also move ``moving_mean`` / ``moving_var``), the moving ones otherwise."""
    if output_mean_var:
        raise NotImplementedError("BatchNorm: output_mean_var=True is not supported")
    if fix_gamma:
        gamma = _fixed_gamma(gamma)
    return _batch_norm(data, gamma, beta, moving_mean, moving_var, float(eps), float(momentum), False,
                       bool(use_global_stats), int(axis), autograd.is_training())


def _fixed_gamma(gamma: Tensor) -> Tensor:
    """BatchNorm's fix_gamma as MXNet 1.9.1 runs it: the forward writes 1 into gamma (in every mode) and
    scales by 1, and gamma's gradient is 0 (written, so grad_req 'write' zeroes it)."""
    from cellonnx.autograd.tape import is_grad_enabled
    from cellonnx.ops import registry

    tracer = registry.ACTIVE_TRACER
    if (tracer is None or not tracer.is_traced(gamma)) and not np.all(gamma._data == 1):
        ones = np.ones_like(gamma._data)
        if hasattr(gamma, "_assign_array"):
            gamma._assign_array(ones)
        elif gamma._data.flags.writeable:
            gamma._data[...] = 1
    if gamma.requires_grad and is_grad_enabled():
        return ops.add(ops.mul(gamma, 0.0), 1.0)
    return ops.ones_like(gamma)


def layer_norm(data: Tensor, gamma: Tensor, beta: Tensor, axis: int = -1, eps: float = 1e-5,
               output_mean_var: bool = False, **_: Any) -> Tensor:
    from cellonnx.gluon.nn.norm_layers import _to_axis
    x, back = _to_axis(data, int(axis), -1)
    y = ops.layer_norm_axes(x, -1, -1, gamma, beta, float(eps))
    return ops.transpose(y, tuple(back)) if back is not None else y


def instance_norm(data: Tensor, gamma: Tensor, beta: Tensor, eps: float = 1e-3, **_: Any) -> Tensor:
    return ops.instance_norm(data, weight=gamma, bias=beta, eps=float(eps))


def group_norm(data: Tensor, gamma: Tensor, beta: Tensor, num_groups: int = 1, eps: float = 1e-5,
               output_mean_var: bool = False, **_: Any) -> Tensor:
    """Group normalization with MXNet 1.x's per-group gamma and beta (shape (num_groups,)); per-channel
    values (2.x) are taken too."""
    c = data.shape[1]
    if gamma.shape[0] != c:
        per = c // int(num_groups)
        gamma = ops.repeat_elements(gamma, per, 0)
        beta = ops.repeat_elements(beta, per, 0)
    return ops.group_norm(data, int(num_groups), gamma, beta, float(eps))


def l2_normalization(data: Tensor, eps: float = 1e-10, mode: str = "instance", **_: Any) -> Tensor:
    axes = {"instance": tuple(range(1, data.ndim)), "channel": (1,), "spatial": tuple(range(2, data.ndim))}
    if mode not in axes:
        raise ValueError(f"L2Normalization: mode must be 'instance', 'channel' or 'spatial', got {mode!r}")
    norm = ops.sqrt(ops.add(ops.sum(ops.square(data), axes[mode], True), float(eps)))
    return ops.div(data, norm)


def lrn(data: Tensor, alpha: float = 1e-4, beta: float = 0.75, knorm: float = 2.0, nsize: int = 5,
        **_: Any) -> Tensor:
    """Local response normalization: ``x / (knorm + alpha / nsize * sum of x^2 over nsize channels)^beta``."""
    half, c = int(nsize) // 2, data.shape[1]
    sq = ops.pad(ops.square(data), (0, 0) * (data.ndim - 2) + (half, half))
    acc = sq[:, 0:c]
    for k in range(1, int(nsize)):
        acc = ops.add(acc, sq[:, k:k + c])
    return ops.div(data, ops.pow(ops.add(ops.mul(acc, float(alpha) / int(nsize)), float(knorm)), float(beta)))


def activation(data: Tensor, act_type: str = "relu", **_: Any) -> Tensor:
    """relu, sigmoid, tanh, softrelu (log(1 + exp(x))), softsign (and log_sigmoid, mish)."""
    if act_type not in _ACTIVATIONS:
        raise ValueError(f"Activation: unknown act_type {act_type!r}; expected one of {sorted(_ACTIVATIONS)}")
    return _ACTIVATIONS[act_type](data)


def leaky_relu(data: Tensor, gamma: Tensor | None = None, act_type: str = "leaky", slope: float = 0.25,
               lower_bound: float = 0.125, upper_bound: float = 0.334, **_: Any) -> Tensor:
    """leaky, prelu (slopes ``gamma`` per channel), elu, selu, gelu, rrelu (the mean slope outside
    training)."""
    if act_type == "leaky":
        return ops.leaky_relu(data, float(slope))
    if act_type == "prelu":
        g = gamma if gamma.ndim == 1 else ops.reshape(gamma, (-1,))
        if g.shape[0] == 1 or data.ndim == 1:
            return ops.where(ops.greater(data, 0), data, ops.mul(data, g))
        shape = (1, -1) + (1,) * (data.ndim - 2)
        return ops.where(ops.greater(data, 0), data, ops.mul(data, ops.reshape(g, shape)))
    if act_type == "elu":
        return ops.elu(data, float(slope))
    if act_type == "selu":
        return ops.selu(data)
    if act_type == "gelu":
        return ops.gelu(data)
    if act_type == "rrelu":
        return ops.leaky_relu(data, (float(lower_bound) + float(upper_bound)) / 2)
    raise ValueError(f"LeakyReLU: unknown act_type {act_type!r}")


def _masked(data: Tensor, length: Any, axis: int, fill: float) -> Tensor:
    steps = ops.arange(0, data.shape[axis], 1)
    shape = [1] * data.ndim
    shape[axis] = -1
    lens = ops.cast(as_tensor(length), "int64")
    lens = ops.reshape(lens, tuple(lens.shape) + (1,) * (data.ndim - lens.ndim))
    mask = ops.less(ops.reshape(steps, tuple(shape)), lens)
    return ops.where(mask, data, Tensor(np.asarray(fill, data._data.dtype))), mask


def softmax(data: Tensor, length: Any = None, axis: int = -1, temperature: float | None = None,
            dtype: Any = None, use_length: bool = False, **_: Any) -> Tensor:
    x = data if temperature is None else ops.div(data, float(temperature))
    if use_length and length is not None:
        x, mask = _masked(x, length, int(axis) % x.ndim, -np.inf)
        out = ops.where(mask, ops.softmax(x, int(axis)), Tensor(np.asarray(0, x._data.dtype)))
    else:
        out = ops.softmax(x, int(axis))
    return out if dtype is None else ops.cast(out, dtype_of(dtype))


def log_softmax(data: Tensor, axis: int = -1, temperature: float | None = None, dtype: Any = None,
                **_: Any) -> Tensor:
    x = data if temperature is None else ops.div(data, float(temperature))
    out = ops.log_softmax(x, int(axis))
    return out if dtype is None else ops.cast(out, dtype_of(dtype))


def softmin(data: Tensor, axis: int = -1, temperature: float | None = None, dtype: Any = None,
            **_: Any) -> Tensor:
    return softmax(ops.neg(data), axis=axis, temperature=temperature, dtype=dtype)


def softmax_activation(data: Tensor, mode: str = "instance", **_: Any) -> Tensor:
    if mode == "channel":
        return ops.softmax(data, 1)
    return ops.reshape(ops.softmax(ops.reshape(data, (data.shape[0], -1)), -1), tuple(data.shape))


def dropout(data: Tensor, p: float = 0.5, mode: str = "training", axes: Any = (), cudnn_off: bool = False,
            **_: Any) -> Tensor:
    """Dropout while training (mode 'training') or always (mode 'always')."""
    if mode == "training" and not autograd.is_training():
        return data
    return _dropout(data, float(p), axes)


def embedding(data: Tensor, weight: Tensor, input_dim: int | None = None, output_dim: int | None = None,
              dtype: Any = "float32", sparse_grad: bool = False, **_: Any) -> Tensor:
    return ops.embedding(ops.cast(data, "int64") if data._data.dtype.kind == "f" else data, weight)


def upsampling(*data: Tensor, scale: int = 1, sample_type: str = "nearest", num_filter: int = 0,
               multi_input_mode: str = "concat", num_args: int = 1, workspace: int = 512, **_: Any) -> Tensor:
    if sample_type != "nearest":
        raise NotImplementedError("UpSampling: only sample_type='nearest' is supported (use "
                                  "contrib.BilinearResize2D for bilinear)")
    outs = [ops.repeat_elements(ops.repeat_elements(d, int(scale), 2), int(scale), 3) for d in data]
    return outs[0] if len(outs) == 1 else ops.concat(outs, axis=1)


def _interp_matrix(n_in: int, n_out: int, align_corners: bool, dtype: Any) -> np.ndarray:
    """(n_out, n_in) linear interpolation weights."""
    m = np.zeros((n_out, n_in), dtype=np.float64)
    for i in range(n_out):
        if align_corners:
            src = i * (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0
        else:
            src = max((i + 0.5) * n_in / n_out - 0.5, 0.0)
        lo = min(int(np.floor(src)), n_in - 1)
        hi = min(lo + 1, n_in - 1)
        frac = src - lo
        m[i, lo] += 1 - frac
        m[i, hi] += frac
    return m.astype(dtype)


def bilinear_resize2d(data: Tensor, like: Tensor | None = None, height: int = 1, width: int = 1,
                      scale_height: float | None = None, scale_width: float | None = None, mode: str = "size",
                      align_corners: bool = True, **_: Any) -> Tensor:
    """Bilinear resize of (N, C, H, W) to (height, width) (or scaled), as two interpolation matrix
    products."""
    for d in (*data.shape[2:], *(like.shape[2:] if like is not None and mode == "like" else ())):
        require_static(d, "BilinearResize2D builds its interpolation matrices over each size and")
    h, w = int(data.shape[2]), int(data.shape[3])
    if like is not None and mode == "like":
        oh, ow = int(like.shape[2]), int(like.shape[3])
    elif scale_height is not None:
        oh, ow = int(h * scale_height), int(w * (scale_width if scale_width is not None else scale_height))
    else:
        oh, ow = int(height), int(width)
    dt = data._data.dtype
    mh = Tensor(_interp_matrix(h, oh, align_corners, dt))
    mw = Tensor(_interp_matrix(w, ow, align_corners, dt).T.copy())
    return ops.matmul(ops.matmul(mh, data), mw)


def adaptive_avg_pooling2d(data: Tensor, output_size: Any = 1, **_: Any) -> Tensor:
    size = int_tuple(output_size, 2, "output_size", "AdaptiveAvgPooling2D")
    return ops.adaptive_avg_pool2d(data, size)


def smooth_l1(data: Tensor, scalar: float = 1.0, **_: Any) -> Tensor:
    """0.5 (sigma x)^2 for |x| < 1 / sigma^2, |x| - 0.5 / sigma^2 otherwise."""
    s2 = float(scalar) ** 2
    a = ops.abs(data)
    return ops.where(ops.less(a, 1.0 / s2), ops.mul(ops.square(data), 0.5 * s2), ops.sub(a, 0.5 / s2))


def softmax_cross_entropy(data: Tensor, label: Tensor, **_: Any) -> Tensor:
    logp = ops.log_softmax(data, -1)
    picked = ops.gather_elements(logp, 1, ops.expand_dims(ops.cast(label, "int64"), 1))
    return ops.reshape(ops.neg(ops.sum(picked)), (1,))


def make_loss(data: Tensor, grad_scale: float = 1.0, valid_thresh: float = 0.0, normalization: str = "null",
              **_: Any) -> Tensor:
    return data if grad_scale == 1.0 else ops.add(ops.stop_gradient(ops.mul(data, 1.0 - grad_scale)),
                                                  ops.mul(data, float(grad_scale)))


def hard_sigmoid(data: Tensor, alpha: float = 0.2, beta: float = 0.5, **_: Any) -> Tensor:
    return ops.clamp(ops.add(ops.mul(data, float(alpha)), float(beta)), 0.0, 1.0)


def _softmax_output(*args: Any, **kwargs: Any) -> Tensor:
    """Softmax of ``data`` as a loss output: the gradient is that of the cross entropy with the class
    indices ``label`` (``softmax - one_hot``, times ``grad_scale``), whatever gradient reaches the output,
    as in MXNet."""
    from cellonnx.gluon.symbol.ops_loss import softmax_output  # the symbol interpreter's, imported late
    return softmax_output(*args, **kwargs)


NN = {
    "FullyConnected": fully_connected, "Convolution": convolution, "Deconvolution": deconvolution,
    "Pooling": pooling, "BatchNorm": batch_norm, "LayerNorm": layer_norm, "InstanceNorm": instance_norm,
    "GroupNorm": group_norm, "L2Normalization": l2_normalization, "LRN": lrn, "Activation": activation,
    "LeakyReLU": leaky_relu, "softmax": softmax, "log_softmax": log_softmax, "softmin": softmin,
    "SoftmaxActivation": softmax_activation, "Dropout": dropout, "Embedding": embedding,
    "UpSampling": upsampling, "BilinearResize2D": bilinear_resize2d,
    "AdaptiveAvgPooling2D": adaptive_avg_pooling2d,
    "smooth_l1": smooth_l1, "softmax_cross_entropy": softmax_cross_entropy, "MakeLoss": make_loss,
    "make_loss": make_loss, "hard_sigmoid": hard_sigmoid, "SoftmaxOutput": _softmax_output,
    "Softmax": _softmax_output,
}
