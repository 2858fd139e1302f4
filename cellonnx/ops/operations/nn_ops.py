"""MindSpore's neural-network operator classes (activations, ``ops.Conv2D``, ``ops.MaxPool``, ``ops.BiasAdd``,
``ops.BatchNorm``, ``ops.LayerNorm``, dropout, padding): table rows over the functional ops (see table.py).

MindSpore's 2-D operator classes take attributes the functional ops spell differently: ``pad_mode`` 'valid' /
'same' / 'pad' with ``pad`` as (top, bottom, left, right), strides and dilations as ints, pairs or NCHW
4-tuples, pooling windows in TensorFlow's 'VALID' / 'SAME' convention (SAME averages over the real pixels
only), and ``data_format`` 'NCHW' or 'NHWC' (MindSpore runs NHWC on GPU only; here it is transposed to NCHW).
The ``setup`` functions check and normalise these attributes as MindSpore's constructors do.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import dtypes
from cellonnx.ops.operations._util import one_of, pair
from cellonnx.ops.operations.table import Row, build
from cellonnx.ops.prims._util import norm_axis
from cellonnx.ops.prims.math import add, cast, div, mul, sub
from cellonnx.ops.prims.shape import reshape, transpose
from cellonnx.tensor import Tensor


def _nchw(x: Tensor, data_format: str) -> Tensor:
    return transpose(x, (0, 3, 1, 2)) if data_format == "NHWC" else x


def _back(y: Tensor, data_format: str) -> Tensor:
    return transpose(y, (0, 2, 3, 1)) if data_format == "NHWC" else y


# ---------------------------------------------------------------- convolution
def _setup_conv(prim: Any) -> None:
    """Conv2D / Conv2DBackpropInput / Conv2DTranspose: MindSpore's checks and normalised attributes."""
    name = prim.name
    pad_mode = one_of(prim, "pad_mode", ("valid", "same", "pad"))
    pad = prim.pad
    if isinstance(pad, int) and not isinstance(pad, bool):
        pad = (pad,) * 4
    elif not (isinstance(pad, (tuple, list)) and len(pad) == 4):
        raise ValueError(f"For '{name}', the 'pad' must be an int or a tuple of 4 ints, but got "
                         f"{prim.pad!r}.")
    pad = tuple(int(p) for p in pad)
    if pad_mode != "pad" and pad != (0, 0, 0, 0):
        raise ValueError(f"For '{name}', the 'pad' must be zero when 'pad_mode' is not 'pad', but got 'pad': "
                         f"{prim.pad} and 'pad_mode': {pad_mode}.")
    if min(pad) < 0:
        raise ValueError(f"For '{name}', the 'pad' must be non-negative, but got {prim.pad}.")
    prim.add_prim_attr("pad", pad)
    prim.padding = pad
    prim.add_prim_attr("kernel_size", pair(prim.kernel_size, "kernel_size", name, allow_four=False))
    for attr in ("stride", "dilation"):
        h, w = pair(getattr(prim, attr), attr, name)
        prim.add_prim_attr(attr, (1, 1, h, w))
    one_of(prim, "data_format", ("NCHW", "NHWC"), upper=True)
    if not isinstance(prim.group, int) or prim.group < 1:
        raise ValueError(f"For '{name}', the 'group' must be a positive int, but got {prim.group!r}.")
    prim.add_prim_attr("groups", prim.group)


def _weight_nchw(w: Tensor, data_format: str) -> Tensor:
    return transpose(w, (0, 3, 1, 2)) if data_format == "NHWC" else w


def _conv2d(x: Tensor, w: Tensor, prim: Any) -> Tensor:
    from cellonnx.ops import conv2d
    w = _weight_nchw(w, prim.data_format)
    if w.ndim != 4 or w.shape[0] != prim.out_channel or tuple(w.shape[2:]) != tuple(prim.kernel_size):
        raise ValueError(f"For 'Conv2D', the weight of shape {tuple(w.shape)} does not match out_channel "
                         f"{prim.out_channel} and kernel_size {prim.kernel_size}.")
    padding = prim.pad if prim.pad_mode == "pad" else 0
    y = conv2d(_nchw(x, prim.data_format), w, None, prim.stride[2:], prim.pad_mode, padding,
               prim.dilation[2:], prim.group)
    return _back(y, prim.data_format)


def _conv2d_input_grad(dout: Tensor, w: Tensor, input_size: Any, prim: Any) -> Tensor:
    """The gradient of Conv2D with respect to an input of shape ``input_size`` (Conv2DBackpropInput)."""
    from cellonnx.ops import conv_transpose2d
    from cellonnx.ops.prims.conv import same_pads
    sizes = input_size.asnumpy().tolist() if isinstance(input_size, Tensor) else input_size
    size = tuple(int(v) for v in sizes)
    fmt = prim.data_format
    dout, w = _nchw(dout, fmt), _weight_nchw(w, fmt)
    if fmt == "NHWC":
        size = (size[0], size[3], size[1], size[2])
    stride, dilation, kernel = prim.stride[2:], prim.dilation[2:], tuple(w.shape[2:])
    if prim.pad_mode == "pad":
        pads = prim.pad
    elif prim.pad_mode == "same":
        (top, left, bottom, right), _ = same_pads(size[2:], kernel, stride, dilation)
        pads = (top, bottom, left, right)
    else:
        pads = (0, 0, 0, 0)
    full = [(dout.shape[2 + i] - 1) * stride[i] + dilation[i] * (kernel[i] - 1) + 1 - pads[2 * i]
            - pads[2 * i + 1] for i in range(2)]
    extra = tuple(size[2 + i] - full[i] for i in range(2))
    if min(extra) < 0:
        raise ValueError(f"For '{prim.name}', input_size {size} is too small for an output gradient of shape "
                         f"{tuple(dout.shape)} (kernel {kernel}, stride {stride}, pads {pads}).")
    y = conv_transpose2d(dout, w, None, stride, pads, extra, prim.group, dilation)
    return _back(y, fmt)


def _bias_add(x: Tensor, bias: Tensor, data_format: str) -> Tensor:
    axis = x.ndim - 1 if data_format == "NHWC" else 1
    if bias.ndim != 1 or x.ndim < 2 or bias.shape[0] != x.shape[axis]:
        raise ValueError(f"For 'BiasAdd', the bias of shape {tuple(bias.shape)} must be 1-D with the size of "
                         f"axis "
                         f"{axis} of the input of shape {tuple(x.shape)} (data_format {data_format}).")
    shape = [1] * x.ndim
    shape[axis] = -1
    return add(x, reshape(bias, tuple(shape)))


def _setup_bias_add(prim: Any) -> None:
    one_of(prim, "data_format", ("NCHW", "NHWC", "NCDHW"), upper=True)


# ---------------------------------------------------------------- pooling
def _setup_pool(prim: Any) -> None:
    """MaxPool / AvgPool / MaxPoolWithArgmax: 'VALID' / 'SAME', windows as NCHW 4-tuples, as MindSpore."""
    one_of(prim, "pad_mode", ("VALID", "SAME"), upper=True)
    one_of(prim, "data_format", ("NCHW", "NHWC"), upper=True)
    for attr in ("kernel_size", "strides"):
        h, w = pair(getattr(prim, attr), attr, prim.name, allow_four=False)
        prim.add_prim_attr(attr, (1, 1, h, w))


def _max_pool(x: Tensor, prim: Any, with_argmax: bool = False) -> Any:
    from cellonnx.ops import max_pool2d
    out = max_pool2d(_nchw(x, prim.data_format), prim.kernel_size[2:], prim.strides[2:], 0,
                     return_indices=with_argmax, pad_mode=prim.pad_mode.lower())
    if with_argmax:
        y, idx = out
        return _back(y, prim.data_format), _back(cast(idx, np.int32), prim.data_format)
    return _back(out, prim.data_format)


def _avg_pool(x: Tensor, prim: Any) -> Tensor:
    from cellonnx.ops import avg_pool2d
    y = avg_pool2d(_nchw(x, prim.data_format), prim.kernel_size[2:], prim.strides[2:],
                   pad_mode=prim.pad_mode.lower())
    return _back(y, prim.data_format)


def _setup_pool_v2(prim: Any) -> None:
    name = prim.name
    prim.add_prim_attr("kernel_size", pair(prim.kernel_size, "kernel_size", name))
    strides = prim.kernel_size if prim.strides is None else prim.strides
    prim.add_prim_attr("strides", pair(strides, "strides", name))
    pads = prim.pads
    prim.add_prim_attr("pads", (pads, pads) if isinstance(pads, int) else tuple(pads[-2:]))
    prim.add_prim_attr("dilation", pair(prim.dilation, "dilation", name))
    if dtypes.dtype(prim.argmax_type) not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"For '{name}', the 'argmax_type' must be int32 or int64, but got "
                        f"{prim.argmax_type}.")


def _max_pool_v2(x: Tensor, prim: Any) -> tuple[Tensor, Tensor]:
    from cellonnx.ops import max_pool2d
    y, idx = max_pool2d(x, prim.kernel_size, prim.strides, prim.pads, prim.dilation, return_indices=True,
                        ceil_mode=prim.ceil_mode)
    return y, cast(idx, prim.argmax_type)


def _adaptive_size(x: Tensor, output_size: Any) -> tuple:
    size = (output_size, output_size) if isinstance(output_size, int) else tuple(output_size)
    return tuple(x.shape[-2 + i] if s is None or s == -1 else s for i, s in enumerate(size))


def _adaptive_max_pool2d(x: Tensor, output_size: Any) -> tuple[Tensor, Tensor]:
    from cellonnx.ops import adaptive_max_pool2d
    return adaptive_max_pool2d(x, _adaptive_size(x, output_size), return_indices=True)


# ---------------------------------------------------------------- normalisation
def _layer_norm(x: Tensor, gamma: Tensor, beta: Tensor, begin_norm_axis: int, begin_params_axis: int,
                epsilon: float) -> tuple[Tensor, Tensor, Tensor]:
    """MindSpore's LayerNorm: (output, mean, variance), the statistics kept with size-1 normalised axes."""
    from cellonnx.ops import layer_norm_axes, mean, stop_gradient
    y = layer_norm_axes(x, begin_norm_axis, begin_params_axis, gamma, beta, epsilon)
    axis = norm_axis(begin_norm_axis, x.ndim, "LayerNorm")
    dims = tuple(range(axis, x.ndim))
    xs = stop_gradient(x)
    mu = mean(xs, dims, True)
    var = mean(mul(sub(xs, mu), sub(xs, mu)), dims, True)
    return y, mu, var


def _batch_norm(x: Tensor, scale: Tensor, bias: Tensor, mean: Tensor, variance: Tensor, prim: Any) -> tuple:
    """MindSpore's BatchNorm primitive: (y, batch_mean, batch_variance, reserve_space_1, reserve_space_2).

    Training normalises with the batch statistics and moves ``mean`` / ``variance`` (Parameters, in place):
    ``new = (1 - momentum) * old + momentum * batch`` (the unbiased batch variance for ``variance``).
    Inference uses ``mean`` / ``variance``, which the other outputs repeat.
    """
    from cellonnx.ops import batch_norm, stop_gradient
    from cellonnx.ops import mean as rmean
    fmt = prim.data_format
    xc = _nchw(x, fmt) if x.ndim == 4 else x
    y = batch_norm(xc, mean, variance, scale, bias, prim.is_training, prim.momentum, prim.epsilon)
    y = _back(y, fmt) if x.ndim == 4 else y
    if not prim.is_training:
        return y, mean, variance, mean, variance
    dims = (0,) + tuple(range(2, xc.ndim))
    xs = stop_gradient(xc)
    bm = rmean(xs, dims)
    centred = sub(xs, reshape(bm, (1, -1) + (1,) * (xc.ndim - 2)))
    bv = rmean(mul(centred, centred), dims)
    return y, bm, bv, bm, bv


def _setup_batch_norm(prim: Any) -> None:
    one_of(prim, "data_format", ("NCHW", "NHWC"), upper=True)
    if not 0.0 <= prim.momentum <= 1.0:
        raise ValueError(f"For 'BatchNorm', the 'momentum' must be in [0, 1], but got {prim.momentum}.")


def _setup_l2_normalize(prim: Any) -> None:
    axis = [prim.axis] if isinstance(prim.axis, int) else list(prim.axis)
    if len(axis) != 1:
        raise TypeError(f"For 'L2Normalize', the length of 'axis' must be 1, but got {len(axis)}.")
    prim.add_prim_attr("axis", axis)
    prim.init_attrs["axis"] = axis


# ---------------------------------------------------------------- dropout
def _dropout(x: Tensor, keep_prob: float) -> tuple[Tensor, Tensor]:
    """(x * mask / keep_prob, mask), the mask of x's dtype and shape (MindSpore's CPU / GPU Dropout), drawn
    by the counter generator as ops.dropout's."""
    from cellonnx.ops import broadcast_to
    from cellonnx.ops.prims.dropout import dropout_with_mask
    if not 0.0 < keep_prob <= 1.0:
        raise ValueError(f"For 'Dropout', the 'keep_prob' must be in (0, 1], but got {keep_prob}.")
    if keep_prob == 1.0:
        return mul(x, 1.0), cast(broadcast_to(Tensor(True), tuple(x.shape)), x._data.dtype)
    out, keep = dropout_with_mask(x, 1.0 - keep_prob)
    return out, cast(keep, x._data.dtype)


def _dropout_nd(x: Tensor, keep_prob: float, nd: int, op: str) -> tuple[Tensor, Tensor]:
    """Dropout2D / Dropout3D: whole channels zeroed; (output, bool mask of x's shape)."""
    from cellonnx.ops import broadcast_to, full
    from cellonnx.ops.prims.dropout import dropout_with_mask
    if x.ndim != nd + 2:
        raise ValueError(f"For '{op}', the input must be {nd + 2}-D, but got shape {tuple(x.shape)}.")
    if not 0.0 <= keep_prob <= 1.0:
        raise ValueError(f"For '{op}', the 'keep_prob' must be in [0, 1], but got {keep_prob}.")
    if keep_prob == 0.0:
        mask = broadcast_to(Tensor(False), tuple(x.shape))
        return mul(x, cast(mask, x._data.dtype)), mask
    channels_shape = tuple(x.shape[:2]) + (1,) * nd
    if keep_prob == 1.0:
        mask = broadcast_to(Tensor(True), tuple(x.shape))
        return mul(x, 1.0), mask
    channels = dropout_with_mask(full(channels_shape, 1.0, dtype=x._data.dtype), 1.0 - keep_prob)[1]
    mask = broadcast_to(channels, tuple(x.shape))
    return div(mul(x, cast(mask, x._data.dtype)), keep_prob), mask


# ---------------------------------------------------------------- padding
def _pad(x: Tensor, paddings: Any) -> Tensor:
    """Pad's ((before, after), ...) from the first axis as ops.pad's flat list from the last axis."""
    from cellonnx.ops import pad
    rows = [tuple(int(v) for v in p) for p in paddings]
    if len(rows) != x.ndim or any(len(r) != 2 or min(r) < 0 for r in rows):
        raise ValueError(f"For 'Pad', the paddings {paddings} must hold one (before, after) pair of "
                         f"non-negative "
                         f"ints per axis of the input of shape {tuple(x.shape)}.")
    flat = [v for r in reversed(rows) for v in r]
    return pad(x, flat)


def _symmetric(x: Tensor, rows: list[tuple[int, ...]]) -> Tensor:
    from cellonnx.ops import cat, flip, narrow
    for axis, (before, after) in enumerate(rows):
        n = x.shape[axis]
        if before > n or after > n:
            raise ValueError(f"For 'MirrorPad', SYMMETRIC paddings {rows[axis]} exceed the size {n} of axis "
                             f"{axis}.")
        parts = []
        if before:
            parts.append(flip(narrow(x, axis, 0, before), (axis,)))
        parts.append(x)
        if after:
            parts.append(flip(narrow(x, axis, n - after, after), (axis,)))
        if len(parts) > 1:
            x = cat(parts, axis)
    return x


def _mirror_pad(x: Tensor, paddings: Any, mode: str) -> Tensor:
    from cellonnx.ops import pad
    rows = [tuple(int(v) for v in p) for p in
            (paddings.asnumpy().tolist() if isinstance(paddings, Tensor) else paddings)]
    if len(rows) != x.ndim:
        raise ValueError(f"For 'MirrorPad', the paddings must have {x.ndim} rows (one per axis), got "
                         f"{len(rows)}.")
    if mode == "SYMMETRIC":
        return _symmetric(x, rows)
    return pad(x, [v for r in reversed(rows) for v in r], "reflect")


def _pad_v3(x: Tensor, paddings: Any, constant_value: Any, mode: str, contiguous: bool) -> Tensor:
    from cellonnx.ops import pad
    flat = [int(v) for v in (paddings.asnumpy().tolist() if isinstance(paddings, Tensor) else paddings)]
    if not contiguous:
        half = len(flat) // 2
        flat = [v for pair_ in zip(flat[:half], flat[half:]) for v in pair_]
    if isinstance(constant_value, Tensor):
        constant_value = constant_value.asnumpy().item()
    modes = {"constant": "constant", "reflect": "reflect", "edge": "replicate", "circular": "circular"}
    return pad(x, flat, modes[mode], constant_value if mode == "constant" else None)


def _setup_pad_v3(prim: Any) -> None:
    one_of(prim, "mode", ("constant", "reflect", "edge", "circular"))


def _setup_mirror_pad(prim: Any) -> None:
    one_of(prim, "mode", ("REFLECT", "SYMMETRIC"), upper=True)


# ---------------------------------------------------------------- activations and losses
def _softmax(fn: Any, x: Tensor, axis: Any, op: str) -> Tensor:
    if isinstance(axis, (tuple, list)):
        if len(axis) != 1:
            raise ValueError(f"For '{op}', the 'axis' must hold one axis, but got {axis}.")
        axis = axis[0]
    return fn(x, axis)


def _nll_loss(logits: Tensor, labels: Tensor, weight: Tensor, reduction: str, ignore_index: int) -> tuple:
    """MindSpore's NLLLoss primitive: (loss, total_weight), total_weight the weights of the counted labels."""
    from cellonnx.ops import gather, nll_loss, not_equal, sum, where
    loss = nll_loss(logits, labels, weight, ignore_index, reduction)
    keep = not_equal(labels, ignore_index)
    w = gather(weight, where(keep, labels, 0), 0)
    total = sum(mul(w, cast(keep, w._data.dtype)))
    return loss, total


def _softmax_cross_entropy(logits: Tensor, labels: Tensor) -> tuple[Tensor, Tensor]:
    """(loss per sample, gradient of the loss with respect to the logits)."""
    from cellonnx.ops import log_softmax, softmax, sum
    loss = mul(sum(mul(labels, log_softmax(logits, -1)), -1), -1.0)
    return loss, sub(softmax(logits, -1), labels)


def _sparse_softmax_cross_entropy(logits: Tensor, labels: Tensor, is_grad: bool) -> Tensor:
    """The mean cross entropy over the batch, or (``is_grad``) its gradient with respect to the logits."""
    from cellonnx.ops import log_softmax, mean, one_hot, softmax, sum
    target = one_hot(labels, logits.shape[-1], 1.0, 0.0)
    target = cast(target, logits._data.dtype)
    if is_grad:
        return div(sub(softmax(logits, -1), target), logits.shape[0])
    return mean(mul(sum(mul(target, log_softmax(logits, -1)), -1), -1.0))


def _l2_loss(x: Tensor) -> Tensor:
    from cellonnx.ops import sum
    return div(sum(mul(x, x)), 2.0)


def _setup_reduction(prim: Any) -> None:
    one_of(prim, "reduction", ("none", "mean", "sum", "batchmean") if prim.name == "KLDivLoss"
           else ("none", "mean", "sum"))


def _kl_div(logits: Tensor, labels: Tensor, reduction: str) -> Tensor:
    from cellonnx.ops import kl_div
    return kl_div(logits, labels, reduction)


ROWS = [
    # ---- activations
    Row("ReLU", "", "input", "relu(input)",
        summary="Rectified linear unit, elementwise: ``max(input, 0)``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> relu = ops.ReLU()
        >>> x = Tensor(np.array([[-1.0, 4.0, -8.0], [2.0, -5.0, 9.0]]), ms.float32)
        >>> print(relu(x))
        [[0. 4. 0.]
         [2. 0. 9.]]
        """),
    Row("ReLU6", "", "x", "relu6(x)",
        summary="``min(max(x, 0), 6)``, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-1.0, 4.0, 8.0]), ms.float32)
        >>> print(ops.ReLU6()(x))
        [0. 4. 6.]
        """),
    Row("Elu", "alpha=1.0", "input_x", "elu(input_x, alpha)",
        summary="Exponential linear unit: ``x`` for ``x > 0``, ``alpha * (exp(x) - 1)`` otherwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-2.0, 0.0, 1.0]), ms.float32)
        >>> print(ops.Elu(alpha=1.0)(x).asnumpy().round(4))
        [-0.8647  0.      1.    ]
        """),
    Row("CeLU", "alpha=1.0", "x", "celu(x, alpha)",
        summary="Continuously differentiable ELU: ``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-2.0, 0.0, 3.0]), ms.float32)
        >>> print(ops.CeLU(alpha=2.0)(x).asnumpy().round(4))
        [-1.2642  0.      3.    ]
        """),
    Row("GeLU", "", "input", "gelu(input, 'tanh')",
        summary="Gaussian error linear unit (the tanh approximation), elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-1.0, 0.0, 1.0, 2.0]), ms.float32)
        >>> print(ops.GeLU()(x).asnumpy().round(4))
        [-0.1588  0.      0.8412  1.9546]
        """),
    Row("Gelu", "", "x", "gelu(x, 'tanh')",
        summary="The GELU activation (tanh approximation), elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-1.0, 0.0, 1.0, 2.0]), ms.float32)
        >>> print(ops.Gelu()(x).asnumpy().round(4))
        [-0.1588  0.      0.8412  1.9546]
        """),
    Row("HSigmoid", "", "input", "hardsigmoid(input)",
        summary="Hard sigmoid ``relu6(x + 3) / 6``, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-4.0, 0.0, 1.5, 4.0]), ms.float32)
        >>> print(ops.HSigmoid()(x))
        [0.   0.5  0.75 1.  ]
        """),
    Row("HSwish", "", "input", "hardswish(input)",
        summary="Hard swish ``x * relu6(x + 3) / 6``, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-4.0, -1.5, 0.0, 1.5, 4.0]), ms.float32)
        >>> print(ops.HSwish()(x))
        [-0.    -0.375  0.     1.125  4.   ]
        """),
    Row("SeLU", "", "input_x", "selu(input_x)",
        summary="The scaled exponential linear unit, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[-1.0, 4.0, -8.0], [2.0, -5.0, 9.0]]), ms.float32)
        >>> print(ops.SeLU()(x).asnumpy().round(4))
        [[-1.1113  4.2028 -1.7575]
         [ 2.1014 -1.7463  9.4563]]
        """),
    Row("Sigmoid", "", "input", "sigmoid(input)",
        summary="The logistic function ``1 / (1 + exp(-x))``, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-1.0, 0.0, 1.0]), ms.float32)
        >>> print(ops.Sigmoid()(x).asnumpy().round(4))
        [0.2689 0.5    0.7311]
        """),
    Row("Tanh", "", "input", "tanh(input)",
        summary="Hyperbolic tangent, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-1.0, 0.0, 1.0]), ms.float32)
        >>> print(ops.Tanh()(x).asnumpy().round(4))
        [-0.7616  0.      0.7616]
        """),
    Row("Softplus", "", "x", "softplus(x)",
        summary="``log(1 + exp(x))``, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-1.0, 0.0, 1.0]), ms.float32)
        >>> print(ops.Softplus()(x).asnumpy().round(4))
        [0.3133 0.6931 1.3133]
        """),
    Row("Softsign", "", "x", "softsign(x)",
        summary="The softsign activation ``x / (1 + |x|)``, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.0, -1.0, 2.0, 30.0, -30.0]), ms.float32)
        >>> print(ops.Softsign()(x).asnumpy().round(4))
        [ 0.     -0.5     0.6667  0.9677 -0.9677]
        """),
    Row("Mish", "", "x", "mish(x)",
        summary="Mish ``x * tanh(softplus(x))``, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-1.0, 0.0, 1.0]), ms.float32)
        >>> print(ops.Mish()(x).asnumpy().round(4))
        [-0.3034  0.      0.8651]
        """),
    Row("PReLU", "", "input, weight", "prelu(input, weight)",
        summary="Parametric ReLU: ``x`` for ``x > 0``, ``weight * x`` otherwise (one weight per channel).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[-2.0, 3.0], [4.0, -8.0]]), ms.float32)
        >>> weight = Tensor(np.array([0.5, 0.25]), ms.float32)
        >>> print(ops.PReLU()(x, weight))
        [[-1.  3.]
         [ 4. -2.]]
        """),
    Row("FastGeLU", "", "x", "fast_gelu(x)",
        summary=("The fast GELU approximation ``x / (1 + exp(-1.702 |x|)) * exp(0.851 (x - |x|))``, "
                 "elementwise."),
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-1.0, 0.0, 1.0]), ms.float32)
        >>> print(ops.FastGeLU()(x).asnumpy().round(4))
        [-0.1542  0.      0.8458]
        """),
    Row("FastGelu", "", "x", "fast_gelu(x)",
        summary="The fast GELU approximation ``x / (1 + exp(-1.702 x))``, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 2.0, 3.0], [-1.0, -2.0, 0.0]]), ms.float32)
        >>> print(ops.FastGelu()(x).asnumpy().round(4))
        [[ 0.8458  1.9357  2.9819]
         [-0.1542 -0.0643  0.    ]]
        """),
    Row("SoftShrink", "lambd=0.5", "input", "softshrink(input, lambd)",
        summary="Soft shrinkage: ``x - lambd`` above ``lambd``, ``x + lambd`` below ``-lambd``, else 0.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[0.5297, 0.7871, 1.1754], [0.7836, 0.6218, -1.1542]]), ms.float32)
        >>> print(ops.SoftShrink()(x).asnumpy().round(4))
        [[ 0.0297  0.2871  0.6754]
         [ 0.2836  0.1218 -0.6542]]
        """),
    Row("HShrink", "lambd=0.5", "input", "hardshrink(input, lambd)",
        summary="Hard shrinkage: ``x`` where ``|x| > lambd``, 0 elsewhere.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-1.0, -0.25, 0.25, 1.0]), ms.float32)
        >>> print(ops.HShrink(lambd=0.5)(x))
        [-1.  0.  0.  1.]
        """),
    Row("RmsNorm", "epsilon=1e-06", "x, gamma", "rms_norm(x, gamma, epsilon)",
        summary="RMS normalization: ``x / sqrt(mean(x ** 2) + epsilon) * gamma`` over the last axes.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]]), ms.float32)
        >>> gamma = Tensor(np.ones(2), ms.float32)
        >>> y, rstd = ops.RmsNorm()(x, gamma)
        >>> print(y.asnumpy().round(4))
        [[0.6325 1.2649]
         [0.8485 1.1314]]
        """),
    Row("Softmax", "axis=-1", "input", "_softmax(softmax, input, axis, 'Softmax')",
        summary="Softmax along ``axis``: ``exp(x) / sum(exp(x))``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> softmax = ops.Softmax(axis=-1)
        >>> x = Tensor(np.array([[1.0, 2.0, 3.0], [2.0, 2.0, 2.0]]), ms.float32)
        >>> print(softmax(x).asnumpy().round(4))
        [[0.09   0.2447 0.6652]
         [0.3333 0.3333 0.3333]]
        """),
    Row("LogSoftmax", "axis=-1", "logits", "_softmax(log_softmax, logits, axis, 'LogSoftmax')",
        summary="The logarithm of the softmax along ``axis``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> print(ops.LogSoftmax(axis=-1)(x).asnumpy().round(4))
        [-2.4076 -1.4076 -0.4076]
        """),
    Row("LogSoftmaxExt", "", "input, dim=None, dtype=None",
        "log_softmax(input if dtype is None else cast(input, dtype), -1 if dim is None else dim)",
        summary="``log(softmax(input))`` along ``dim`` (the last axis by default), in ``dtype`` if given.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]]), ms.float32)
        >>> print(ops.LogSoftmaxExt()(x, 1).asnumpy().round(4))
        [[-2.4076 -1.4076 -0.4076]
         [-1.0986 -1.0986 -1.0986]]
        """),
    Row("L2Normalize", "axis=0, epsilon=0.0001", "x", "l2_normalize(x, axis[0], epsilon)",
        _setup_l2_normalize,
        summary="``x`` divided by its L2 norm along ``axis`` (at least ``sqrt(epsilon)``).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[3.0, 4.0], [0.0, 2.0]]), ms.float32)
        >>> print(ops.L2Normalize(axis=1)(x))
        [[0.6 0.8]
         [0.  1. ]]
        """),
    # ---- dense, convolution and bias
    Row("Dense", "", "input, weight, bias=None", "dense(input, weight, bias)",
        summary="``input @ weight.T + bias``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 2.0, 3.0]]), ms.float32)
        >>> weight = Tensor(np.array([[1.0, 0.0, 0.0], [1.0, 1.0, 1.0]]), ms.float32)
        >>> bias = Tensor(np.array([0.5, -6.0]), ms.float32)
        >>> print(ops.Dense()(x, weight, bias))
        [[1.5 0. ]]
        """),
    Row("BiasAdd", "data_format='NCHW'", "input_x, bias", "_bias_add(input_x, bias, data_format)",
        _setup_bias_add,
        summary="Adds a 1-D bias to the channel axis of ``input_x`` (axis 1 for NCHW, the last for NHWC).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.zeros((2, 3)), ms.float32)
        >>> bias = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> print(ops.BiasAdd()(x, bias))
        [[1. 2. 3.]
         [1. 2. 3.]]
        """),
    Row("Conv2D", "out_channel, kernel_size, mode=1, pad_mode='valid', pad=0, stride=1, dilation=1, group=1, "
        "data_format='NCHW'", "x, w", "_conv2d(x, w, self)", _setup_conv,
        summary="2-D convolution of an NCHW input with an ``(out_channel, C / group, kh, kw)`` weight.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.ones((1, 2, 4, 4)), ms.float32)
        >>> weight = Tensor(np.ones((3, 2, 3, 3)), ms.float32)
        >>> conv2d = ops.Conv2D(out_channel=3, kernel_size=3)
        >>> output = conv2d(x, weight)
        >>> output.shape
        (1, 3, 2, 2)
        >>> print(output[0, 0])
        [[18. 18.]
         [18. 18.]]
        """),
    Row("Conv2DBackpropInput", "out_channel, kernel_size, pad_mode='valid', pad=0, pad_list=None, mode=1, "
        "stride=1, dilation=1, group=1, data_format='NCHW'", "out_backprop, filter, input_sizes",
        "_conv2d_input_grad(out_backprop, filter, input_sizes, self)", _setup_conv,
        summary="The gradient of a 2-D convolution with respect to its input (a transposed convolution).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> dout = Tensor(np.ones((1, 1, 2, 2)), ms.float32)
        >>> weight = Tensor(np.ones((1, 1, 2, 2)), ms.float32)
        >>> print(ops.Conv2DBackpropInput(out_channel=1, kernel_size=2)(dout, weight, (1, 1, 3, 3)))
        [[[[1. 2. 1.]
           [2. 4. 2.]
           [1. 2. 1.]]]]
        """),
    Row("Conv2DTranspose", "out_channel, kernel_size, pad_mode='valid', pad=0, pad_list=None, mode=1, "
        "stride=1, dilation=1, group=1, data_format='NCHW'", "out_backprop, filter, input_sizes",
        "_conv2d_input_grad(out_backprop, filter, input_sizes, self)", _setup_conv,
        summary="The transposed 2-D convolution (Conv2D's input gradient) to the shape ``input_sizes``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> dout = Tensor(np.ones((1, 1, 2, 2)), ms.float32)
        >>> weight = Tensor(np.ones((1, 1, 2, 2)), ms.float32)
        >>> print(ops.Conv2DTranspose(out_channel=1, kernel_size=2)(dout, weight, (1, 1, 3, 3)))
        [[[[1. 2. 1.]
           [2. 4. 2.]
           [1. 2. 1.]]]]
        """),
    # ---- pooling
    Row("MaxPool", "kernel_size=1, strides=1, pad_mode='valid', data_format='NCHW'", "x",
        "_max_pool(x, self)", _setup_pool,
        summary="2-D max pooling over an NCHW input.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(16).reshape(1, 1, 4, 4), ms.float32)
        >>> print(ops.MaxPool(kernel_size=2, strides=2)(x))
        [[[[ 5.  7.]
           [13. 15.]]]]
        """),
    Row("MaxPoolWithArgmax", "kernel_size=1, strides=1, pad_mode='valid', data_format='NCHW'", "x",
        "_max_pool(x, self, True)", _setup_pool,
        summary="2-D max pooling that also returns the flat index of each maximum in its input plane.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(16).reshape(1, 1, 4, 4), ms.float32)
        >>> output, argmax = ops.MaxPoolWithArgmax(kernel_size=2, strides=2)(x)
        >>> print(output)
        [[[[ 5.  7.]
           [13. 15.]]]]
        >>> print(argmax)
        [[[[ 5  7]
           [13 15]]]]
        """),
    Row("AvgPool", "kernel_size=1, strides=1, pad_mode='VALID', data_format='NCHW'", "x",
        "_avg_pool(x, self)", _setup_pool,
        summary="2-D average pooling over an NCHW input.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(16).reshape(1, 1, 4, 4), ms.float32)
        >>> print(ops.AvgPool(kernel_size=2, strides=2)(x))
        [[[[ 2.5  4.5]
           [10.5 12.5]]]]
        """),
    Row("MaxPoolWithArgmaxV2", "kernel_size, strides=None, pads=0, dilation=(1, 1), ceil_mode=False, "
        "argmax_type=mstype.int64", "x", "_max_pool_v2(x, self)", _setup_pool_v2,
        summary="2-D max pooling (padding, dilation) that also returns the flat index of each maximum.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(16).reshape(1, 1, 4, 4), ms.float32)
        >>> output, argmax = ops.MaxPoolWithArgmaxV2(kernel_size=2, strides=2)(x)
        >>> print(output)
        [[[[ 5.  7.]
           [13. 15.]]]]
        >>> print(argmax)
        [[[[ 5  7]
           [13 15]]]]
        """),
    Row("AdaptiveAvgPool2D", "output_size", "x", "adaptive_avg_pool2d(x, _adaptive_size(x, output_size))",
        summary="2-D average pooling to a fixed output size.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(16).reshape(1, 1, 4, 4), ms.float32)
        >>> print(ops.AdaptiveAvgPool2D((2, 2))(x))
        [[[[ 2.5  4.5]
           [10.5 12.5]]]]
        """),
    Row("AdaptiveMaxPool2D", "output_size", "input", "_adaptive_max_pool2d(input, output_size)",
        summary="2-D max pooling to a fixed output size; returns the values and their indices.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(16).reshape(1, 1, 4, 4), ms.float32)
        >>> values, indices = ops.AdaptiveMaxPool2D((2, 2))(x)
        >>> print(values)
        [[[[ 5.  7.]
           [13. 15.]]]]
        """),
    # ---- normalisation
    Row("LayerNorm", "begin_norm_axis=1, begin_params_axis=1, epsilon=1e-07", "input_x, gamma, beta",
        "_layer_norm(input_x, gamma, beta, begin_norm_axis, begin_params_axis, epsilon)",
        summary=("Layer normalization over the axes from ``begin_norm_axis``; returns the output, the mean "
                 "and the reciprocal standard deviation."),
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0]]), ms.float32)
        >>> gamma = Tensor(np.ones(3), ms.float32)
        >>> beta = Tensor(np.zeros(3), ms.float32)
        >>> output, mean, rstd = ops.LayerNorm(begin_norm_axis=1, begin_params_axis=1)(x, gamma, beta)
        >>> print(output.asnumpy().round(4))
        [[-1.2247  0.      1.2247]
         [-1.2247  0.      1.2247]]
        >>> print(mean)
        [[2.]
         [4.]]
        """),
    Row("BatchNorm", "is_training=False, epsilon=1e-05, momentum=0.1, data_format='NCHW'",
        "input_x, scale, bias, mean, variance", "_batch_norm(input_x, scale, bias, mean, variance, self)",
        _setup_batch_norm,
        summary="Batch normalization of NCHW input with the given scale, bias, mean and variance.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[[[1.0]], [[2.0]]], [[[3.0]], [[6.0]]]]), ms.float32)
        >>> scale = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> bias = Tensor(np.array([0.0, 1.0]), ms.float32)
        >>> mean = Tensor(np.array([2.0, 4.0]), ms.float32)
        >>> variance = Tensor(np.array([1.0, 4.0]), ms.float32)
        >>> y = ops.BatchNorm()(x, scale, bias, mean, variance)[0]
        >>> print(y.asnumpy().reshape(2, 2).round(4))
        [[-1. -1.]
         [ 1.  3.]]
        """),
    # ---- dropout
    Row("Dropout", "keep_prob=0.5, Seed0=0, Seed1=0", "x", "_dropout(x, keep_prob)",
        summary=("Zeroes elements with probability ``1 - keep_prob`` and scales the rest by ``1 / "
                 "keep_prob``; returns the output and the mask."),
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.ones((2, 4)), ms.float32)
        >>> output, mask = ops.Dropout(keep_prob=0.5)(x)
        >>> output.shape
        (2, 4)
        >>> mask.shape
        (2, 4)
        >>> sorted(set(output.asnumpy().ravel().tolist())) in ([0.0, 2.0], [0.0], [2.0])
        True
        """),
    Row("Dropout2D", "keep_prob=0.5", "x", "_dropout_nd(x, keep_prob, 2, 'Dropout2D')",
        summary="Zeroes whole channels of NCHW input with probability ``1 - keep_prob``, scaling the rest.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.ones((2, 3, 2, 2)), ms.float32)
        >>> output, mask = ops.Dropout2D(keep_prob=0.5)(x)
        >>> print(output.shape, mask.shape, mask.dtype)
        (2, 3, 2, 2) (2, 3, 2, 2) Bool
        """),
    Row("Dropout3D", "keep_prob=0.5", "x", "_dropout_nd(x, keep_prob, 3, 'Dropout3D')",
        summary="Zeroes whole channels of NCDHW input with probability ``1 - keep_prob``, scaling the rest.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.ones((2, 3, 2, 2, 2)), ms.float32)
        >>> output, mask = ops.Dropout3D(keep_prob=0.5)(x)
        >>> print(output.shape, mask.shape, mask.dtype)
        (2, 3, 2, 2, 2) (2, 3, 2, 2, 2) Bool
        """),
    # ---- padding
    Row("Pad", "paddings", "x", "_pad(x, paddings)",
        summary="Pads ``x`` with zeros, ``paddings[i] = (before, after)`` for axis ``i``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]]), ms.float32)
        >>> print(ops.Pad(((1, 0), (0, 1)))(x))
        [[0. 0. 0.]
         [1. 2. 0.]
         [3. 4. 0.]]
        """),
    Row("PadV3", "mode='constant', paddings_contiguous=True", "x, paddings, constant_value=None",
        "_pad_v3(x, paddings, constant_value, mode, paddings_contiguous)", _setup_pad_v3,
        summary="Pads the last axes of ``x`` by ``paddings`` (constant, reflect, edge or circular).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[[0.0, 1.0, 2.0]]]), ms.float32)
        >>> print(ops.PadV3(mode="reflect")(x, Tensor(np.array([1, 1]), ms.int64)))
        [[[1. 0. 1. 2. 1.]]]
        >>> print(ops.PadV3()(x, Tensor(np.array([2, 1]), ms.int64), Tensor(9.0, ms.float32)))
        [[[9. 9. 0. 1. 2. 9.]]]
        """),
    Row("MirrorPad", "mode='REFLECT'", "x, paddings", "_mirror_pad(x, paddings, mode)", _setup_mirror_pad,
        summary="Pads ``x`` by mirroring it ('REFLECT' leaves the edge out, 'SYMMETRIC' repeats it).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1, 2, 3], [4, 5, 6]]), ms.float32)
        >>> paddings = Tensor(np.array([[1, 1], [2, 2]]), ms.int64)
        >>> print(ops.MirrorPad(mode="REFLECT")(x, paddings))
        [[6. 5. 4. 5. 6. 5. 4.]
         [3. 2. 1. 2. 3. 2. 1.]
         [6. 5. 4. 5. 6. 5. 4.]
         [3. 2. 1. 2. 3. 2. 1.]]
        >>> print(ops.MirrorPad(mode="SYMMETRIC")(x, paddings))
        [[2. 1. 1. 2. 3. 3. 2.]
         [2. 1. 1. 2. 3. 3. 2.]
         [5. 4. 4. 5. 6. 6. 5.]
         [5. 4. 4. 5. 6. 6. 5.]]
        """),
    # ---- losses
    Row("BCEWithLogitsLoss", "reduction='mean'", "input, target, weight=None, posWeight=None",
        "binary_cross_entropy_with_logits(input, target, weight, posWeight, reduction)", _setup_reduction,
        summary="The binary cross entropy of sigmoid(``input``) against ``target``, optionally weighted.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> logits = Tensor(np.array([[2.0, -1.0], [0.5, 0.0]]), ms.float32)
        >>> labels = Tensor(np.array([[1.0, 0.0], [0.0, 1.0]]), ms.float32)
        >>> weight = Tensor(np.ones(2), ms.float32)
        >>> pos_weight = Tensor(np.ones(2), ms.float32)
        >>> print(ops.BCEWithLogitsLoss()(logits, labels, weight, pos_weight).asnumpy().round(4))
        0.5269
        """),
    Row("BinaryCrossEntropy", "reduction='mean'", "input, target, weight=None",
        "binary_cross_entropy(input, target, weight, reduction)", _setup_reduction,
        summary="The binary cross entropy of probabilities ``input`` against ``target``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> probs = Tensor(np.array([0.9, 0.2, 0.6]), ms.float32)
        >>> labels = Tensor(np.array([1.0, 0.0, 1.0]), ms.float32)
        >>> print(ops.BinaryCrossEntropy()(probs, labels).asnumpy().round(4))
        0.2798
        """),
    Row("SigmoidCrossEntropyWithLogits", "", "predict, target",
        "binary_cross_entropy_with_logits(predict, target, None, None, 'none')",
        summary="The binary cross entropy of sigmoid(predict) against ``target``, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> predict = Tensor(np.array([[2.0, -1.0], [0.5, 0.0]]), ms.float32)
        >>> target = Tensor(np.array([[1.0, 0.0], [0.0, 1.0]]), ms.float32)
        >>> print(ops.SigmoidCrossEntropyWithLogits()(predict, target).asnumpy().round(4))
        [[0.1269 0.3133]
         [0.9741 0.6931]]
        """),
    Row("SmoothL1Loss", "beta=1.0, reduction='none'", "prediction, target",
        "smooth_l1_loss(prediction, target, beta, reduction)", _setup_reduction,
        summary="The smooth L1 (Huber-like) loss: quadratic below ``beta``, linear above.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> prediction = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> target = Tensor(np.array([1.0, 2.0, 2.0]), ms.float32)
        >>> print(ops.SmoothL1Loss()(prediction, target))
        [0.  0.  0.5]
        >>> print(ops.SmoothL1Loss(beta=0.5, reduction="sum")(prediction, target + 0.25))
        0.625
        """),
    Row("SoftMarginLoss", "reduction='mean'", "input, target", "soft_margin_loss(input, target, reduction)",
        _setup_reduction,
        summary="The two-class soft margin loss ``log(1 + exp(-target * input))``, reduced.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[0.3, 0.7], [0.5, 0.5]]), ms.float32)
        >>> target = Tensor(np.array([[-1.0, 1.0], [1.0, -1.0]]), ms.float32)
        >>> print(ops.SoftMarginLoss()(x, target).asnumpy().round(4))
        0.6764
        """),
    Row("KLDivLoss", "reduction='mean'", "logits, labels", "_kl_div(logits, labels, reduction)",
        _setup_reduction,
        summary="The Kullback-Leibler divergence of ``labels`` from the log-probabilities ``logits``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> logits = Tensor(np.array([-1.0, -2.0]), ms.float32)
        >>> labels = Tensor(np.array([0.5, 0.5]), ms.float32)
        >>> print(ops.KLDivLoss(reduction='sum')(logits, labels).asnumpy().round(4))
        0.8069
        """),
    Row("NLLLoss", "reduction='mean', ignore_index=-100", "logits, labels, weight",
        "_nll_loss(logits, labels, weight, reduction, ignore_index)", _setup_reduction,
        summary=("The negative log-likelihood of the integer ``labels`` under log-probabilities ``logits``, "
                 "and the total weight."),
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> logits = Tensor(np.array([[-0.5, -1.0, -2.0], [-3.0, -0.1, -2.5]]), ms.float32)
        >>> labels = Tensor(np.array([0, 1]), ms.int32)
        >>> weight = Tensor(np.ones(3), ms.float32)
        >>> loss, total_weight = ops.NLLLoss(reduction='mean')(logits, labels, weight)
        >>> print(loss)
        0.3
        >>> print(total_weight)
        2.0
        """),
    Row("L2Loss", "", "input", "_l2_loss(input)",
        summary="Half the sum of squares: ``sum(input ** 2) / 2``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> print(ops.L2Loss()(x))
        7.0
        """),
    Row("SoftmaxCrossEntropyWithLogits", "", "logits, labels", "_softmax_cross_entropy(logits, labels)",
        summary=("The cross entropy of softmax(logits) against one-hot (or soft) labels, per example, and "
                 "its gradient."),
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> logits = Tensor(np.array([[2.0, 1.0, 0.1], [0.5, 2.5, 0.3]]), ms.float32)
        >>> labels = Tensor(np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]), ms.float32)
        >>> loss, backprop = ops.SoftmaxCrossEntropyWithLogits()(logits, labels)
        >>> print(loss.asnumpy().round(4))
        [0.417 0.22 ]
        >>> backprop.shape
        (2, 3)
        """),
    Row("SparseSoftmaxCrossEntropyWithLogits", "is_grad=False", "features, labels",
        "_sparse_softmax_cross_entropy(features, labels, is_grad)",
        summary="The mean cross entropy of softmax(features) against integer class labels.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> features = Tensor(np.array([[2.0, 1.0, 0.1], [0.5, 2.5, 0.3]]), ms.float32)
        >>> labels = Tensor(np.array([0, 1]), ms.int32)
        >>> loss = ops.SparseSoftmaxCrossEntropyWithLogits()(features, labels)
        >>> print(loss.asnumpy().round(4))
        0.3185
        """),
]

CLASSES = build(ROWS, globals())
globals().update(CLASSES)
__all__ = list(CLASSES)

# MindSpore declares its fused attention primitives in nn_ops (mindformers imports them from here)
from cellonnx.ops.operations import attention_ops as _attention_ops  # noqa: E402

FlashAttentionScore = _attention_ops.CLASSES["FlashAttentionScore"]
IncreFlashAttention = _attention_ops.CLASSES["IncreFlashAttention"]
PromptFlashAttention = _attention_ops.CLASSES["PromptFlashAttention"]
