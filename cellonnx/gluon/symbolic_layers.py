"""Gluon's built-in layers called on Symbols, as MXNet 1.x builds them: each layer adds the MXNet operator
its 1.9.1 ``hybrid_forward`` calls (``Convolution`` named ``<prefix>fwd`` with ``kernel`` / ``stride`` /
``dilate`` / ``pad`` / ``num_filter`` / ``num_group`` / ``no_bias`` / ``layout``, ``BatchNorm``,
``FullyConnected``, ``Pooling``, ``Activation`` ...) on variables named after its parameters, so that
``net(mx.sym.var('data'))`` gives the graph MXNet's ``HybridBlock.export`` writes (what ``quantize_net_v2``
partitions and quantizes).

Examples:
    >>> import cellonnx.mxnet as mx
    >>> net = mx.gluon.nn.Dense(3, in_units=4, prefix="dense0_")
    >>> net(mx.sym.var("data")).list_arguments()
    ['data', 'dense0_weight', 'dense0_bias']
"""
from __future__ import annotations

from typing import Any

__all__ = ["symbolic_call"]


def _var(param: Any) -> Any:
    from cellonnx.mxnet import symbol

    return symbol.var(param.name)


def _conv(block: Any, x: Any, sym: Any) -> Any:
    kwargs = {"kernel": block._kernel, "stride": block._strides, "dilate": block._dilation,
              "pad": block._padding, "num_filter": block._channels, "num_group": block._groups,
              "no_bias": block.bias is None, "layout": block._layout}
    args = [x, _var(block.weight)] + ([] if block.bias is None else [_var(block.bias)])
    if block._transpose:
        out = sym.Deconvolution(*args, name="fwd", adj=block._output_padding, **kwargs)
    else:
        out = sym.Convolution(*args, name="fwd", **kwargs)
    return _act(block, out, sym)


def _act(block: Any, out: Any, sym: Any) -> Any:
    """The layer's own activation: MXNet 1.x names its node ``<layer prefix><act_type>_fwd``."""
    if block.act is None:
        return out
    act_type = block.act._act_type
    return sym.Activation(out, act_type=act_type, name=f"{act_type}_fwd")


def _dense(block: Any, x: Any, sym: Any) -> Any:
    args = [x, _var(block.weight)] + ([] if block.bias is None else [_var(block.bias)])
    out = sym.FullyConnected(*args, no_bias=block.bias is None, num_hidden=block._units,
                             flatten=block._flatten, name="fwd")
    return _act(block, out, sym)


def _batch_norm(block: Any, x: Any, sym: Any) -> Any:
    return sym.BatchNorm(x, _var(block.gamma), _var(block.beta), _var(block.running_mean),
                         _var(block.running_var), name="fwd", **block._kwargs)


def _pooling(block: Any, x: Any, sym: Any) -> Any:
    kwargs = {"kernel": block._kernel, "stride": block._strides, "pad": block._padding,
              "global_pool": block._global, "pool_type": block._pool_type, "layout": block._layout,
              "pooling_convention": "full" if block._ceil_mode else "valid"}
    if block._pool_type == "avg":
        kwargs["count_include_pad"] = block._count_include_pad
    return sym.Pooling(x, name="fwd", **kwargs)


def _sequential(block: Any, x: Any, sym: Any) -> Any:
    for child in block._children.values():
        x = child(x)
    return x


def _dropout(block: Any, x: Any, sym: Any) -> Any:
    if block._rate > 0:
        return sym.Dropout(x, p=block._rate, axes=block._axes, name="fwd", cudnn_off=False)
    return sym.identity(x)


def _table() -> dict[type, Any]:
    from cellonnx.gluon import nn
    from cellonnx.gluon.nn.conv_layers import _Conv, _Pooling

    return {
        _Conv: _conv, nn.Dense: _dense, nn.BatchNorm: _batch_norm, _Pooling: _pooling,
        nn.HybridSequential: _sequential, nn.Dropout: _dropout,
        nn.Activation: lambda b, x, sym: sym.Activation(x, act_type=b._act_type, name="fwd"),
        nn.LeakyReLU: lambda b, x, sym: sym.LeakyReLU(x, act_type="leaky", slope=b._alpha, name="fwd"),
        nn.Flatten: lambda b, x, sym: sym.Flatten(x),
        nn.Identity: lambda b, x, sym: x,
    }


def symbolic_call(block: Any, *args: Any) -> Any:
    """``block(*args)`` on Symbols: the layer's MXNet operators under its name prefix.

    Raises:
        NotImplementedError: the layer has no MXNet 1.x symbolic form here.
    """
    from cellonnx.mxnet import symbol
    from cellonnx.mxnet.name import Prefix

    for cls in type(block).__mro__:
        build = _table().get(cls)
        if build is not None:
            with Prefix(getattr(block, "prefix", "") or ""):
                return build(block, *args, symbol)
    raise NotImplementedError(f"{type(block).__name__}: calling it on a Symbol needs a hybrid_forward "
                              "(Gluon 1.x) or one of Gluon's built-in layers")
