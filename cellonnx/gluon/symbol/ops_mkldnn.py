"""MXNet 1.9.1's oneDNN fused operators in a symbol graph: ``_sg_mkldnn_conv`` and
``_sg_mkldnn_fully_connected`` (nodes of ``get_backend_symbol('MKLDNN_QUANTIZE')`` and of models quantized
with ``quantize_net_v2`` / ``quantize_model_mkldnn``). Each node holds the layers it fuses as a subgraph.

Float nodes run their subgraph with cellonnx ops (so they record gradients and trace to ONNX); quantized
nodes (``quantized``) compute as MXNet's int8 kernels do (cellonnx/mxnet/_op/quantized_fused.py).
"""
from __future__ import annotations

import json
from typing import Any

import numpy as np

from cellonnx.gluon.symbol.attrs import parse_attr
from cellonnx.gluon.symbol.spec import op_spec
from cellonnx.mxnet._op.quantize import array, eager_only
from cellonnx.mxnet._op.quantized_fused import fold_batch_norm, quantized_sg_conv, quantized_sg_fc
from cellonnx.tensor import Tensor

__all__ = ["MKLDNN_OPS", "SUBGRAPH_OPS", "mutated_inputs", "subgraph_attrs"]

SUBGRAPH_OPS = ("_sg_mkldnn_conv", "_sg_mkldnn_fully_connected")
_CACHE: dict[str, Any] = {}


def subgraph_attrs(node: Any) -> dict[str, Any]:
    """The keyword arguments a fused node's implementation takes: its subgraph and attribute strings."""
    if len(node.subgraphs) != 1:
        raise ValueError(f"{node.op} '{node.name}': needs one subgraph, has {len(node.subgraphs)}")
    attrs = {k: v for k, v in node.attrs.items() if not (k.startswith("__") and k.endswith("__"))}
    return {"subgraph": node.subgraphs[0], **attrs}


def mutated_inputs(node: Any) -> set[int]:
    """The input positions of a fused convolution that are its batch norm's moving mean and variance
    (MXNet records them as written by the node)."""
    if node.op != "_sg_mkldnn_conv" or not _true(node.attrs.get("with_bn", "false")) or not node.subgraphs:
        return set()
    conv = next(n for n in node.subgraphs[0]["nodes"] if n["op"] == "Convolution")
    first = 2 + (0 if _true(conv.get("attrs", {}).get("no_bias", "false")) else 1) + 2
    return {first, first + 1}


def _true(text: Any) -> bool:
    return str(text).strip().lower() in ("true", "1")


def _layers(subgraph: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The fused layers' attributes (with MXNet's defaults) by operator: Convolution, BatchNorm ..."""
    out: dict[str, dict[str, Any]] = {}
    acts = []
    for node in subgraph["nodes"]:
        if node["op"] == "null":
            continue
        spec = op_spec(node["op"])
        values = {k: parse_attr(a, a.default) for k, a in spec.attrs.items() if a.default is not None}
        values.update({k: parse_attr(spec.attrs[k], v) for k, v in node.get("attrs", {}).items()
                       if k in spec.attrs})
        if node["op"] in ("Activation", "LeakyReLU", "clip", "abs", "square", "sqrt", "exp"):
            acts.append((node["op"], values))
        else:
            out[node["op"]] = values
    out["acts"] = {"list": acts}
    return out


def _program(subgraph: dict[str, Any]) -> tuple[Any, list[str]]:
    key = json.dumps(subgraph, sort_keys=True)
    if key not in _CACHE:
        from cellonnx.gluon.symbol.graph import parse_graph
        from cellonnx.gluon.symbol.interpreter import Program

        graph = parse_graph(subgraph, "<subgraph>")
        _CACHE[key] = (Program(graph), [n.name for n in graph.nodes if n.is_variable])
    return _CACHE[key]


def _float_run(subgraph: dict[str, Any], inputs: tuple[Tensor, ...]) -> Tensor:
    program, names = _program(subgraph)
    if len(names) != len(inputs):
        raise ValueError(f"fused operator: its subgraph takes {len(names)} inputs, got {len(inputs)}")
    return program.run(dict(zip(names, inputs)))[0]


def _relu_only(acts: list[tuple[str, dict[str, Any]]], op: str) -> bool:
    for name, values in acts:
        if name != "Activation" or values.get("act_type") != "relu":
            raise NotImplementedError(f"{op}: the quantized fused layer supports relu only, got {name} "
                                      f"{values.get('act_type', '')}")
    return bool(acts)


def sg_mkldnn_conv(*inputs: Tensor, subgraph: dict[str, Any], quantized: str = "false",
                   with_bn: str = "false", with_sum: str = "false", with_act: str = "false",
                   with_postsum_act: str = "false",
                   min_calib_range: str | None = None, max_calib_range: str | None = None,
                   **_: Any) -> Any:
    """oneDNN's fused convolution (Convolution [+ BatchNorm] [+ elemwise_add] [+ activation])."""
    if not _true(quantized):
        return _float_run(subgraph, inputs)
    eager_only("_sg_mkldnn_conv")
    layers = _layers(subgraph)
    conv = layers["Convolution"]
    if int(conv.get("num_group", 1)) != 1 or len(conv["kernel"]) != 2:
        raise NotImplementedError("_sg_mkldnn_conv: the quantized layer supports 2-d convolutions with "
                                  f"num_group=1, got kernel {conv['kernel']} num_group "
                                  f"{conv.get('num_group')}")
    items = list(inputs)
    data, weight = items.pop(0), array(items.pop(0)).astype(np.float32)
    bias = None if conv.get("no_bias", False) else array(items.pop(0))
    if _true(with_bn):
        gamma, beta, mean, var = (array(items.pop(0)) for _ in range(4))
        bn = layers["BatchNorm"]
        weight, bias = fold_batch_norm(weight, bias, gamma, beta, mean, var, bn.get("eps", 1e-3),
                                       bn.get("fix_gamma", True))
    summand = items.pop(0) if _true(with_sum) else None
    data_range = (items.pop(0), items.pop(0))
    sum_range = (items.pop(0), items.pop(0)) if summand is not None else None
    calib = None if min_calib_range is None or max_calib_range is None else (
        float(min_calib_range), float(max_calib_range))
    relu = _relu_only(layers["acts"]["list"], "_sg_mkldnn_conv")
    geometry = {"stride": tuple(conv.get("stride") or (1, 1)), "pad": tuple(conv.get("pad") or (0, 0)),
                "dilate": tuple(conv.get("dilate") or (1, 1))}
    return quantized_sg_conv(data, weight, bias, summand, data_range, sum_range, geometry,
                             relu and not _true(with_postsum_act), relu and _true(with_postsum_act), calib)


def sg_mkldnn_fully_connected(*inputs: Tensor, subgraph: dict[str, Any], quantized: str = "false",
                              enable_float_output: str = "false", channel_wise_quantize: str = "false",
                              with_eltwise: str = "false", min_calib_range: str | None = None,
                              max_calib_range: str | None = None, **_: Any) -> Any:
    """oneDNN's fused fully-connected layer (FullyConnected [+ activation])."""
    if not _true(quantized):
        return _float_run(subgraph, inputs)
    eager_only("_sg_mkldnn_fully_connected")
    layers = _layers(subgraph)
    fc = layers["FullyConnected"]
    has_bias = not fc.get("no_bias", False)
    items = list(inputs)
    data, weight = items.pop(0), array(items.pop(0))
    bias = array(items.pop(0)) if has_bias else None
    data_range = (items.pop(0), items.pop(0))
    weight_range = bias_range = None
    if not _true(channel_wise_quantize):
        weight_range = (items.pop(0), items.pop(0))
        bias_range = (items.pop(0), items.pop(0)) if has_bias else None
    calib = None if min_calib_range is None or max_calib_range is None else (
        float(min_calib_range), float(max_calib_range))
    relu = _relu_only(layers["acts"]["list"], "_sg_mkldnn_fully_connected")
    return quantized_sg_fc(data, weight, bias, data_range, weight_range, bias_range, fc.get("flatten", True),
                           relu, _true(enable_float_output), calib)


MKLDNN_OPS = {"_sg_mkldnn_conv": sg_mkldnn_conv, "_sg_mkldnn_fully_connected": sg_mkldnn_fully_connected}
