"""gluon.nn's layers called on Symbols: the MXNet operator node each one's hybrid_forward builds in MXNet
1.9.1 (``FullyConnected`` named ``<prefix>fwd``, its Activation ``<prefix><act_type>_fwd``, ...), so that a
block traces to the operator graph that ``mx.contrib.amp`` converts, whether its code is Gluon 1.x
(``hybrid_forward(F, x)``) or Gluon 2.x (``forward(x)`` over layers and mx.npx operators, as MXNet 2.x's
deferred compute traces it).

``tracing(block)`` names the block's parameters by their collect_params keys while it runs on Symbols:
``param_var(p)`` is then the variable of parameter ``p`` (a layer's weight, or ``p.data()`` in 2.x code).
``layer_symbol(block, x)`` is the layer's node, or None for a block without one here (its own code runs).
"""
from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["is_tracing", "layer_symbol", "param_var", "tracing"]

_NAMES: list[dict[int, str]] = []  # parameter id -> variable name, per block being traced (innermost last)


@contextlib.contextmanager
def tracing(block: Any) -> Iterator[None]:
    """While ``block`` runs on Symbols: its parameters are variables named by its collect_params keys."""
    _NAMES.append({id(p): name for name, p in block.collect_params().items()})
    try:
        yield
    finally:
        _NAMES.pop()


def is_tracing() -> bool:
    return bool(_NAMES)


def param_var(p: Any) -> Any:
    """The Symbol variable of parameter ``p`` (None stays None)."""
    from cellonnx.mxnet import symbol

    if p is None:
        return None
    name = _NAMES[-1].get(id(p), p.name) if _NAMES else p.name
    return symbol.var(name)


def _act(block: Any, out: Any) -> Any:
    from cellonnx.mxnet import symbol

    act = getattr(block, "act", None)
    if act is None:
        return out
    return symbol.Activation(out, act_type=act._act_type, name=f"{act._act_type}_fwd")


def _dense(block: Any, x: Any) -> Any:
    from cellonnx.mxnet import symbol

    bias = param_var(block.bias)
    out = symbol.FullyConnected(x, param_var(block.weight), bias, no_bias=bias is None,
                                num_hidden=block._units, flatten=block._flatten, name="fwd")
    return _act(block, out)


def _conv(block: Any, x: Any) -> Any:
    from cellonnx.mxnet import symbol

    if "Transpose" in type(block).__name__:
        return None
    bias = param_var(block.bias)
    kwargs = dict(kernel=block._kernel, stride=block._strides, dilate=block._dilation, pad=block._padding,
                  num_filter=block._channels, num_group=block._groups, no_bias=bias is None,
                  layout=block._layout)
    args = [x, param_var(block.weight)] + ([bias] if bias is not None else [])
    return _act(block, symbol.Convolution(*args, name="fwd", **kwargs))


def _pooling(block: Any, x: Any) -> Any:
    from cellonnx.mxnet import symbol

    kwargs = dict(kernel=block._kernel, stride=block._strides, pad=block._padding, global_pool=block._global,
                  pool_type=block._pool_type, layout=block._layout,
                  pooling_convention="full" if block._ceil_mode else "valid")
    if block._pool_type == "avg" and not block._global:  # MXNet's AvgPool passes count_include_pad
        kwargs["count_include_pad"] = block._count_include_pad
    return symbol.Pooling(x, name="fwd", **kwargs)


def _batch_norm(block: Any, x: Any) -> Any:
    from cellonnx.mxnet import symbol

    return symbol.BatchNorm(x, param_var(block.gamma), param_var(block.beta), param_var(block.running_mean),
                            param_var(block.running_var), name="fwd", **block._kwargs)


def _activation(block: Any, x: Any) -> Any:
    from cellonnx.mxnet import symbol

    return symbol.Activation(x, act_type=block._act_type, name="fwd")


def _dropout(block: Any, x: Any) -> Any:
    from cellonnx.mxnet import symbol

    if block._rate > 0:
        return symbol.Dropout(x, p=block._rate, axes=block._axes, name="fwd", cudnn_off=False)
    return symbol.identity(x)


def _flatten(block: Any, x: Any) -> Any:
    from cellonnx.mxnet import symbol

    return symbol.flatten(x)


def _embedding(block: Any, x: Any) -> Any:
    from cellonnx.mxnet import symbol

    return symbol.Embedding(x, param_var(block.weight), name="fwd", **block._kwargs)


def _layer_norm(block: Any, x: Any) -> Any:
    from cellonnx.mxnet import symbol

    return symbol.LayerNorm(x, gamma=param_var(block.gamma), beta=param_var(block.beta), axis=block._axis,
                            eps=block._epsilon)


def _rnn(block: Any, inputs: Any, *states: Any) -> Any:
    """gluon.rnn's fused layer: its parameters flattened and concatenated (``_rnn_param_concat``) into one
    ``RNN`` node with the given begin states, as MXNet 1.9.1's ``_forward_kernel`` builds it (states must be
    given: begin_state on Symbols is not traced)."""
    from cellonnx.mxnet import symbol

    states = [leaf for st in states for leaf in (st if isinstance(st, (list, tuple)) else [st])]
    if not states or block._projection_size or block._use_sequence_length:
        return None
    if block._layout == "NTC":
        inputs = symbol.swapaxes(inputs, dim1=0, dim2=1)
    params = [param_var(getattr(block, f"{d}{layer}_{g}_{t}")).reshape(-1)
              for t in ("weight", "bias") for layer in range(block._num_layers) for d in "lr"[:block._dir]
              for g in ("i2h", "h2h")]
    def given(value: Any) -> Any:  # MXNet records the None it is passed ('None'); mx.sym leaves None out
        return "None" if value is None else value
    rnn = symbol.RNN(inputs, symbol._rnn_param_concat(*params, dim=0), *states, use_sequence_length=False,
                     state_size=block._hidden_size, projection_size=given(None), num_layers=block._num_layers,
                     bidirectional=block._dir == 2, p=block._dropout, state_outputs=True, mode=block._mode,
                     lstm_state_clip_min=given(block._lstm_state_clip_min),
                     lstm_state_clip_max=given(block._lstm_state_clip_max),
                     lstm_state_clip_nan=block._lstm_state_clip_nan)
    outputs = rnn[0]
    if block._layout == "NTC":
        outputs = symbol.swapaxes(outputs, dim1=0, dim2=1)
    return outputs, [rnn[i] for i in range(1, len(states) + 1)]


def _builders() -> dict[type, Callable[..., Any]]:
    from cellonnx.gluon.nn import basic_layers, conv_layers, norm_layers
    from cellonnx.gluon.nn.activations import Activation
    from cellonnx.gluon.rnn.rnn_layer import _RNNLayer

    return {basic_layers.Dense: _dense, conv_layers._Conv: _conv, conv_layers._Pooling: _pooling,
            norm_layers.BatchNorm: _batch_norm, Activation: _activation, basic_layers.Dropout: _dropout,
            basic_layers.Flatten: _flatten, basic_layers.Embedding: _embedding,
            norm_layers.LayerNorm: _layer_norm, _RNNLayer: _rnn}


def layer_symbol(block: Any, x: Any, *args: Any) -> Any:
    """The MXNet node of gluon.nn (or gluon.rnn) layer ``block`` on Symbol ``x`` (and the layer's other
    arguments: a recurrent layer's states), named under the block's prefix as MXNet 1.x names it; None when
    ``block`` is not such a layer."""
    from cellonnx.mxnet.name import Prefix

    builders = _builders()
    build = next((builders[c] for c in type(block).__mro__ if c in builders), None)
    if build is None:
        return None
    with Prefix(getattr(block, "prefix", "") or ""):
        return build(block, x, *args)
