"""The shapes of an operator's parameter inputs from its data input's shape and its attributes, as MXNet's
shape inference gives them: what a SymbolBlock built without a parameter file needs before its first run.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = ["PARAM_SHAPES", "input_names"]


def _channel_axis(attrs: dict[str, Any], ndim: int) -> int:
    layout = attrs.get("layout")
    return ndim - 1 if isinstance(layout, str) and layout.endswith("C") else 1


def _fully_connected(attrs: dict[str, Any], shape: tuple) -> dict[str, tuple]:
    n = int(attrs["num_hidden"])
    k = int(np.prod(shape[1:])) if attrs.get("flatten", True) else int(shape[-1])
    return {"weight": (n, k), "bias": (n,)}


def _convolution(attrs: dict[str, Any], shape: tuple) -> dict[str, tuple]:
    c = int(shape[_channel_axis(attrs, len(shape))])
    f, g, k = int(attrs["num_filter"]), int(attrs.get("num_group", 1)), tuple(attrs["kernel"])
    return {"weight": (f, c // g, *k), "bias": (f,)}


def _deconvolution(attrs: dict[str, Any], shape: tuple) -> dict[str, tuple]:
    c = int(shape[_channel_axis(attrs, len(shape))])
    f, g, k = int(attrs["num_filter"]), int(attrs.get("num_group", 1)), tuple(attrs["kernel"])
    return {"weight": (c, f // g, *k), "bias": (f,)}


def _per_channel(*names: str, default_axis: int = 1) -> Callable[[dict[str, Any], tuple], dict[str, tuple]]:
    def rule(attrs: dict[str, Any], shape: tuple) -> dict[str, tuple]:
        c = int(shape[int(attrs.get("axis", default_axis)) % len(shape)])
        return {n: (c,) for n in names}

    return rule


def _group_norm(attrs: dict[str, Any], shape: tuple) -> dict[str, tuple]:
    g = int(attrs.get("num_groups", 1))  # MXNet 1.x keeps gamma and beta per group
    return {"gamma": (g,), "beta": (g,)}


def _embedding(attrs: dict[str, Any], shape: tuple) -> dict[str, tuple]:
    return {"weight": (int(attrs["input_dim"]), int(attrs["output_dim"]))}


def _leaky_relu(attrs: dict[str, Any], shape: tuple) -> dict[str, tuple]:
    return {"gamma": (int(shape[1]) if len(shape) > 1 else 1,)}


def rnn_param_size(
    mode: str,
    num_layers: int,
    input_size: int,
    hidden: int,
    bidirectional: bool,
    projection_size: int | None = None,
) -> int:
    """The length of MXNet's packed RNN parameter vector (weights of every layer and direction, then
    biases)."""
    gates = {"rnn_relu": 1, "rnn_tanh": 1, "lstm": 4, "gru": 3}[mode]
    dirs = 2 if bidirectional else 1
    out = projection_size or hidden
    size = 0
    for layer in range(num_layers):
        n_in = input_size if layer == 0 else out * dirs
        size += dirs * gates * hidden * (n_in + out + 2)
        if projection_size:
            size += dirs * hidden * projection_size
    return size


def _rnn(attrs: dict[str, Any], shape: tuple) -> dict[str, tuple]:
    layers, hidden = int(attrs["num_layers"]), int(attrs["state_size"])
    bidir = bool(attrs.get("bidirectional", False))
    proj = attrs.get("projection_size")
    size = rnn_param_size(attrs["mode"], layers, int(shape[2]), hidden, bidir, proj)
    state = (layers * (2 if bidir else 1), int(shape[1]), int(proj or hidden))
    return {
        "parameters": (size,),
        "state": state,
        "state_cell": (layers * (2 if bidir else 1), int(shape[1]), hidden),
    }


def _softmax_output(attrs: dict[str, Any], shape: tuple) -> dict[str, tuple]:
    if attrs.get("multi_output", False):
        return {"label": (shape[0], *shape[2:])}
    return {"label": tuple(shape[:-1])}


def _regression_output(attrs: dict[str, Any], shape: tuple) -> dict[str, tuple]:
    return {"label": tuple(shape)}


def _custom(attrs: dict[str, Any], shape: tuple) -> dict[str, tuple]:
    """A Python operator's own infer_shape, given its first input's shape (the others unknown: empty)."""
    from cellonnx.gluon.symbol.custom_op import custom_prop

    prop = custom_prop(attrs)
    names = list(prop.list_arguments()) + list(prop.list_auxiliary_states())
    try:
        result = prop.infer_shape([list(shape)] + [[] for _ in names[1:]])
    except (IndexError, TypeError, ValueError, AssertionError):
        return {}
    given = [*result[0], *(result[2] if len(result) > 2 else ())]
    return {n: tuple(int(d) for d in s) for n, s in zip(names, given) if s is not None and len(s)}


PARAM_SHAPES: dict[str, Callable[[dict[str, Any], tuple], dict[str, tuple]]] = {
    "Custom": _custom,
    "FullyConnected": _fully_connected,
    "Convolution": _convolution,
    "Convolution_v1": _convolution,
    "Deconvolution": _deconvolution,
    "_contrib_DeformableConvolution": _convolution,
    "_contrib_ModulatedDeformableConvolution": _convolution,
    "BatchNorm": _per_channel("gamma", "beta", "moving_mean", "moving_var"),
    "_contrib_SyncBatchNorm": _per_channel("gamma", "beta", "moving_mean", "moving_var"),
    "BatchNorm_v1": _per_channel("gamma", "beta", "moving_mean", "moving_var"),
    "_contrib_BatchNormWithReLU": _per_channel("gamma", "beta", "moving_mean", "moving_var"),
    "IdentityAttachKLSparseReg": _per_channel("moving_avg"),
    "InstanceNorm": _per_channel("gamma", "beta"),
    "LayerNorm": _per_channel("gamma", "beta", default_axis=-1),
    "GroupNorm": _group_norm,
    "Embedding": _embedding,
    "_contrib_SparseEmbedding": _embedding,
    "LeakyReLU": _leaky_relu,
    "RNN": _rnn,
    "SoftmaxOutput": _softmax_output,
    "LinearRegressionOutput": _regression_output,
    "LogisticRegressionOutput": _regression_output,
    "MAERegressionOutput": _regression_output,
    "SVMOutput": _softmax_output,
}


def input_names(op: str, spec_inputs: tuple[str, ...], attrs: dict[str, Any], n: int) -> tuple[str, ...]:
    """The names of a node's ``n`` inputs: the operator's input list, less the optional inputs its
    attributes leave out (RNN's state_cell outside LSTM)."""
    if op == "RNN":
        names = ["data", "parameters", "state"]
        if attrs.get("mode") == "lstm":
            names.append("state_cell")
        if attrs.get("use_sequence_length", False):
            names.append("sequence_length")
        return tuple(names[:n])
    if op == "softmax" and n == 2:
        return ("data", "length")
    return tuple(spec_inputs[:n])
