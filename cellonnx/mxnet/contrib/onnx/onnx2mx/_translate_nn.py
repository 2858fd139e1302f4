"""ONNX neural-network operators as MXNet layers: Conv / ConvTranspose as Convolution / Deconvolution,
the pools as Pooling (behind an explicit ``pad`` as MXNet's importer builds them), the normalisations,
activations, Gemm / MatMul as linalg_gemm2 / dot, Dropout."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from cellonnx.mxnet import symbol as S
from cellonnx.mxnet.contrib.onnx.onnx2mx._node import Node
from cellonnx.mxnet.contrib.onnx.onnx2mx._translate_shape import pad_width

__all__ = ["TABLE"]


def _window(n: Node, kernel: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """(stride, dilate, pads in ONNX order) of a Conv / pool node."""
    if n.attrs.get("auto_pad", "NOTSET") not in ("NOTSET", "VALID"):
        raise n.error(f"auto_pad={n.attrs['auto_pad']!r}: give explicit pads (MXNet pads explicitly)")
    dims = len(kernel)
    return (tuple(n.attrs.get("strides", (1,) * dims)), tuple(n.attrs.get("dilations", (1,) * dims)),
            tuple(n.attrs.get("pads", (0,) * 2 * dims)))


def _weight_shape(n: Node) -> tuple[int, ...]:
    name = n.input_names[1]
    if name not in n.graph.params:
        raise n.error("the weight must be an initializer (its shape gives MXNet's num_filter / num_hidden)")
    return tuple(n.graph.params[name].shape)


def _conv(n: Node) -> Any:
    wshape = _weight_shape(n)
    kernel = tuple(n.attrs.get("kernel_shape", wshape[2:]))
    stride, dilate, pads = _window(n, kernel)
    group = n.attrs.get("group", 1)
    begin, end = pads[:len(kernel)], pads[len(kernel):]
    data = n.inputs[0]
    if begin != end:
        data = S.pad(data, mode="constant", pad_width=(0, 0, 0, 0) + pad_width(pads))
        begin = (0,) * len(kernel)
    inputs = {"data": data, "weight": n.inputs[1]}
    if n.has(2):
        inputs["bias"] = n.inputs[2]
    return S.Convolution(**inputs, kernel=kernel, stride=stride, dilate=dilate, pad=begin,
                         num_filter=wshape[0], num_group=group, no_bias=not n.has(2), **n.named())


def _deconv(n: Node) -> Any:
    wshape = _weight_shape(n)
    kernel = tuple(n.attrs.get("kernel_shape", wshape[2:]))
    stride, dilate, pads = _window(n, kernel)
    if "output_shape" in n.attrs:
        raise n.error("output_shape: give pads and output_padding instead")
    group = n.attrs.get("group", 1)
    begin, end = pads[:len(kernel)], pads[len(kernel):]
    if begin != end:
        raise n.error(f"asymmetric pads {pads}: MXNet's Deconvolution crops both sides alike")
    inputs = {"data": n.inputs[0], "weight": n.inputs[1]}
    if n.has(2):
        inputs["bias"] = n.inputs[2]
    adj = tuple(n.attrs.get("output_padding", (0,) * len(kernel)))
    return S.Deconvolution(**inputs, kernel=kernel, stride=stride, dilate=dilate, pad=begin, adj=adj,
                           num_filter=wshape[1] * group, num_group=group, no_bias=not n.has(2), **n.named())


def _pool(pool_type: str) -> Callable[[Node], Any]:
    def translate(n: Node) -> Any:
        kernel = tuple(n.attrs["kernel_shape"])
        stride, dilate, pads = _window(n, kernel)
        if any(d != 1 for d in dilate):
            raise n.error(f"dilations {dilate}: MXNet's Pooling has no dilation")
        kwargs: dict[str, Any] = {"pool_type": pool_type, "kernel": kernel, "stride": stride,
                                  "pooling_convention": "full" if n.attrs.get("ceil_mode", 0) else "valid"}
        if pool_type == "lp":
            kwargs["p_value"] = n.attrs.get("p", 2)
        data = n.inputs[0]
        begin, end = pads[:len(kernel)], pads[len(kernel):]
        exclude = pool_type == "avg" and not n.attrs.get("count_include_pad", 0) and any(pads)
        if exclude or len(kernel) == 1:
            if begin != end:
                raise n.error(f"asymmetric pads {pads} need an explicit pad, which would count in the "
                              "average")
            return S.Pooling(data, pad=begin, count_include_pad=not exclude, **kwargs, **n.named())
        mode = "edge" if pool_type == "max" else "constant"
        data = S.pad(data, mode=mode, pad_width=(0, 0, 0, 0) + pad_width(pads))
        crop = _ceil_crop(n, kernel, stride, begin, end) if n.attrs.get("ceil_mode", 0) else {}
        out = S.Pooling(data, **kwargs, **({} if crop else n.named()))
        for axis, size in crop.items():
            out = S.slice_axis(out, axis=axis, begin=0, end=size)
        return out
    return translate


def _ceil_crop(n: Node, kernel: tuple, stride: tuple, begin: tuple, end: tuple) -> dict[int, int]:
    """With ceil_mode, ONNX drops a last window that would start in the end padding; MXNet's 'full'
    convention keeps it. The output sizes to crop to, by axis, where the input's size is known."""
    shape = n.graph.shape(n.input_names[0])
    if shape is None:
        return {}
    crop = {}
    for i, (k, s, b, e) in enumerate(zip(kernel, stride, begin, end)):
        size = shape[2 + i]
        if size is None:
            continue
        full = -(-(size + b + e - k) // s) + 1
        onnx_size = full - 1 if (full - 1) * s >= size + b else full
        if onnx_size < full:
            crop[2 + i] = onnx_size
    return crop


def _global_pool(pool_type: str) -> Callable[[Node], Any]:
    def translate(n: Node) -> Any:
        extra = {"p_value": n.attrs.get("p", 2)} if pool_type == "lp" else {}
        return S.Pooling(n.inputs[0], global_pool=True, kernel=(1, 1), pool_type=pool_type, **extra,
                         **n.named())
    return translate


def _batch_norm(n: Node) -> Any:
    if n.attrs.get("training_mode", 0):
        raise n.error("training_mode=1: import the inference graph (MXNet's BatchNorm trains under "
                      "autograd.record)")
    return S.BatchNorm(*n.inputs[:5], eps=n.attrs.get("epsilon", 1e-5), momentum=n.attrs.get("momentum", 0.9),
                       fix_gamma=False, **n.named())


def _instance_norm(n: Node) -> Any:
    return S.InstanceNorm(*n.inputs[:3], eps=n.attrs.get("epsilon", 1e-5), **n.named())


def _layer_norm(n: Node) -> Any:
    """LayerNorm over the last axis; over several trailing axes (PyTorch's LayerNorm((C, H, W))) on the
    input with those axes merged, its scale and bias flattened alike."""
    axis, rank = n.attrs.get("axis", -1), n.rank(0)
    eps = n.attrs.get("epsilon", 1e-5)
    if axis == -1 or (rank is not None and axis % rank == rank - 1):
        beta = n.inputs[2] if n.has(2) else S.zeros_like(n.inputs[1])
        return S.LayerNorm(n.inputs[0], n.inputs[1], beta, axis=-1, eps=eps, **n.named())
    if rank is None or any(n.input_names[i] not in n.graph.params for i in range(1, 3) if n.has(i)):
        raise n.error(f"axis={axis}: normalising several axes needs the input's rank and a constant "
                      "scale and bias")
    count = rank - axis % rank
    size = int(np.prod(n.graph.params[n.input_names[1]].shape))
    gamma = n.reshaped_param(1, (size,))
    beta = n.reshaped_param(2, (size,)) if n.has(2) else S.zeros_like(gamma)
    merged = S.reshape(n.inputs[0], shape=(0,) * (rank - count) + (-1,))
    return S.reshape_like(S.LayerNorm(merged, gamma, beta, axis=-1, eps=eps), n.inputs[0], **n.named())


def _lrn(n: Node) -> Any:
    return S.LRN(n.inputs[0], alpha=n.attrs.get("alpha", 1e-4), beta=n.attrs.get("beta", 0.75),
                 knorm=n.attrs.get("bias", 1.0), nsize=n.attrs["size"], **n.named())


def _leaky(act_type: str, slope: float) -> Callable[[Node], Any]:
    def translate(n: Node) -> Any:
        extra = {} if act_type == "selu" else {"slope": n.attrs.get("alpha", slope)}
        return S.LeakyReLU(n.inputs[0], act_type=act_type, **extra, **n.named())
    return translate


def _prelu(n: Node) -> Any:
    """MXNet's LeakyReLU(act_type='prelu') where the slope is a per-channel (axis 1) initializer, as MXNet's
    importer translates it; otherwise x where x > 0, slope * x elsewhere, broadcast as ONNX broadcasts."""
    x, slope = n.inputs[:2]
    rank, name = n.rank(0), n.input_names[1]
    if rank is not None and rank >= 2 and name in n.graph.params:
        shape = tuple(n.graph.params[name].shape)
        while shape and shape[0] == 1 and len(shape) > rank - 1:
            shape = shape[1:]
        if len(shape) == rank - 1 and all(d == 1 for d in shape[1:]):
            gamma = n.reshaped_param(1, (shape[0],))
            return S.LeakyReLU(x, gamma=gamma, act_type="prelu", **n.named())
    return S.broadcast_add(S.relu(x), S.broadcast_mul(slope, S.negative(S.relu(S.negative(x)))), **n.named())


def _coerced(op: str) -> Callable[[Node], Any]:
    """Softmax / LogSoftmax / Hardmax: along ``axis`` from opset 13; before, over the input flattened to 2-D
    at ``axis`` (default 1)."""
    def apply(n: Node, x: Any, axis: int, **named: Any) -> Any:
        if op != "hardmax":
            return getattr(S, op)(x, axis=axis, **named)
        shape = n.graph.shape(n.input_names[0])
        if axis != -1 and (shape is None or axis % len(shape) != len(shape) - 1):
            raise n.error(f"axis={axis}: only the last axis has an MXNet translation (one_hot of argmax)")
        if shape is None or shape[-1] is None:
            raise n.error("the size of the last axis must be known (it is one_hot's depth)")
        return S.one_hot(S.argmax(x, axis=-1), depth=shape[-1], **named)

    def translate(n: Node) -> Any:
        x = n.inputs[0]
        if n.opset >= 13:
            return apply(n, x, n.attrs.get("axis", -1), **n.named())
        axis, rank = n.attrs.get("axis", 1), n.rank(0)
        if axis == -1 or (rank is not None and axis % rank == rank - 1):
            return apply(n, x, -1, **n.named())
        if rank is None:
            raise n.error(f"axis={axis} before opset 13 needs the rank of the input")
        flat = S.Flatten(S.reshape(x, shape=(-1,) + (0,) * (rank - axis % rank), reverse=True))
        if op == "hardmax":
            size = n.graph.shape(n.input_names[0])
            if size is None or any(d is None for d in size[axis % rank:]):
                raise n.error("the sizes of the coerced axes must be known (one_hot's depth)")
            depth = 1
            for d in size[axis % rank:]:
                depth *= d
            return S.reshape_like(S.one_hot(S.argmax(flat, axis=-1), depth=depth), x, **n.named())
        return S.reshape_like(getattr(S, op)(flat, axis=-1), x, **n.named())
    return translate


def _gemm(n: Node) -> Any:
    a, b = n.inputs[:2]
    out = S.linalg_gemm2(S.flatten(a), b, transpose_a=bool(n.attrs.get("transA", 0)),
                         transpose_b=bool(n.attrs.get("transB", 0)), alpha=n.attrs.get("alpha", 1.0))
    if not n.has(2):
        return out
    return S.broadcast_add(out, n.attrs.get("beta", 1.0) * n.inputs[2], **n.named())


def _matmul(n: Node) -> Any:
    ra, rb = n.rank(0), n.rank(1)
    a, b = n.inputs[:2]
    if rb == 2 and ra is not None and ra > 2:
        return S.dot(a, b, **n.named())
    if ra is not None and rb is not None and (ra != rb or ra < 2):
        raise n.error(f"inputs of rank {ra} and {rb}: MXNet's linalg_gemm2 multiplies equal-rank batches")
    return S.linalg_gemm2(a, b, **n.named())


def _fc(n: Node) -> Any:
    wshape = _weight_shape(n)
    return S.FullyConnected(*n.inputs[:3], num_hidden=wshape[0], no_bias=not n.has(2), **n.named())


def _dropout(n: Node) -> Any:
    if n.opset >= 12:
        ratio = float(n.const(1).reshape(-1)[0]) if n.has(1) else n.attrs.get("ratio", 0.5)
    else:
        ratio = n.attrs.get("ratio", 0.5)
    mode = "always" if n.attrs.get("is_test", 1) == 0 else "training"
    return S.Dropout(n.inputs[0], p=ratio, mode=mode, **n.named())


def _roi_pool(n: Node) -> Any:
    return S.ROIPooling(n.inputs[0], n.inputs[1], pooled_size=tuple(n.attrs["pooled_shape"]),
                        spatial_scale=n.attrs.get("spatial_scale", 1.0), **n.named())


TABLE: dict[str, Callable[[Node], Any]] = {
    "Conv": _conv, "ConvTranspose": _deconv,
    "MaxPool": _pool("max"), "AveragePool": _pool("avg"), "LpPool": _pool("lp"),
    "GlobalMaxPool": _global_pool("max"), "GlobalAveragePool": _global_pool("avg"),
    "GlobalLpPool": _global_pool("lp"), "MaxRoiPool": _roi_pool,
    "BatchNormalization": _batch_norm, "SpatialBN": _batch_norm, "InstanceNormalization": _instance_norm,
    "LayerNormalization": _layer_norm, "LRN": _lrn,
    "LeakyRelu": _leaky("leaky", 0.01), "Elu": _leaky("elu", 1.0), "Selu": _leaky("selu", 0.0),
    "PRelu": _prelu, "Softplus": lambda n: S.Activation(n.inputs[0], act_type="softrelu", **n.named()),
    "Softmax": _coerced("softmax"), "LogSoftmax": _coerced("log_softmax"), "Hardmax": _coerced("hardmax"),
    "Gemm": _gemm, "MatMul": _matmul, "FC": _fc, "Dropout": _dropout,
}
