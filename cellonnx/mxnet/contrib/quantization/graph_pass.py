"""MXNet 1.9.1's QuantizeGraph pass over a symbol's JSON graph: quantizable nodes become their quantized
operators, ``_contrib_quantize_v2`` nodes quantize their float inputs, ``_contrib_requantize`` follows
the operators whose int32 outputs need it and ``_contrib_dequantize`` feeds float consumers; parameters
quantized offline become variables (``conv0_weight_quantize``, ``_min``, ``_max``). Also the pass that
writes calibrated ranges into the quantize / requantize nodes.

Node names, input order, attributes and the order of the written nodes follow MXNet's pass, so a
quantized symbol.json here is MXNet's.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

__all__ = ["QUANTIZABLE", "Node", "from_json", "quantize_graph_json", "set_calib_table", "to_json"]


@dataclass(frozen=True)
class Quantizable:
    """How MXNet quantizes one operator: its quantized operator, whether smart mode must quantize it,
    whether a requantize follows it, and which inputs stay as they are (gamma, beta ... of BatchNorm)."""

    op: str
    must: bool = False
    requantize: bool = False
    keep_inputs: tuple[int, ...] | None = None  # inputs not quantized; None: all are
    keep_all_but: int | None = None  # all inputs but this one stay as they are


QUANTIZABLE: dict[str, Quantizable] = {
    "Convolution": Quantizable("_contrib_quantized_conv", must=True, requantize=True),
    "FullyConnected": Quantizable("_contrib_quantized_fully_connected", must=True, requantize=True),
    "Activation": Quantizable("_contrib_quantized_act"),
    "Pooling": Quantizable("_contrib_quantized_pooling"),
    "Flatten": Quantizable("_contrib_quantized_flatten"),
    "Concat": Quantizable("_contrib_quantized_concat"),
    "elemwise_add": Quantizable("_contrib_quantized_elemwise_add", requantize=True),
    "elemwise_mul": Quantizable("_contrib_quantized_elemwise_mul", requantize=True),
    "BatchNorm": Quantizable("_contrib_quantized_batch_norm", keep_all_but=0),
    "Embedding": Quantizable("_contrib_quantized_embedding", keep_inputs=(0,)),
    # oneDNN's fused layers quantize themselves: the convolution keeps its float weight, bias and batch
    # norm (folded and quantized when it runs) and quantizes its data and summand
    "_sg_mkldnn_conv": Quantizable("_sg_mkldnn_conv", must=True, requantize=True, keep_inputs=()),
    "_sg_mkldnn_fully_connected": Quantizable("_sg_mkldnn_fully_connected", must=True, requantize=True),
}

# operators whose outputs MXNet names (FListOutputNames); any other operator's output i is named by i
_OUTPUT_NAMES = {
    "Convolution": ["output"], "FullyConnected": ["output"], "Pooling": ["output"], "Activation": ["output"],
    "Deconvolution": ["output"], "BatchNorm": ["output", "mean", "var"], "Dropout": ["output", "mask"],
    "LeakyReLU": ["output", "mask"], "SoftmaxOutput": ["output"], "LRN": ["output", "tmp_norm"],
    "_sg_mkldnn_conv": ["output"], "_sg_mkldnn_fully_connected": ["output"],
}
_QUANTIZED_OUTPUTS = 3  # every quantized operator (and quantize / requantize) returns data, min, max


@dataclass(eq=False)
class Node:
    """A graph node: ``op`` 'null' for variables; inputs are (node, output index) pairs."""

    op: str
    name: str
    attrs: dict[str, str] = field(default_factory=dict)
    inputs: list[tuple[Node, int]] = field(default_factory=list)
    subgraphs: list[dict[str, Any]] = field(default_factory=list)  # a fused operator's graphs

    @property
    def is_variable(self) -> bool:
        return self.op == "null"


def from_json(text: str) -> list[tuple[Node, int]]:
    """The heads of a symbol.json graph as Nodes."""
    doc = json.loads(text)
    nodes: list[Node] = []
    for spec in doc["nodes"]:
        attrs = dict(spec.get("attrs", spec.get("param", spec.get("attr", {}))) or {})
        nodes.append(Node(spec["op"], spec["name"], attrs, [(nodes[i[0]], i[1]) for i in spec["inputs"]],
                          list(spec.get("subgraphs", []))))
    return [(nodes[h[0]], h[1]) for h in doc["heads"]]


def post_order(heads: list[tuple[Node, int]]) -> list[Node]:
    """Nodes in MXNet's DFS order (inputs first, in order; each node once)."""
    seen: set[int] = set()
    order: list[Node] = []
    stack: list[tuple[Node, int]] = [(n, 0) for n, _ in reversed(heads)]
    while stack:
        node, i = stack.pop()
        if i == 0 and id(node) in seen:
            continue
        if i < len(node.inputs):
            stack.append((node, i + 1))
            child = node.inputs[i][0]
            if id(child) not in seen:
                stack.append((child, 0))
            continue
        if id(node) not in seen:
            seen.add(id(node))
            order.append(node)
    return order


def to_json(heads: list[tuple[Node, int]]) -> str:
    """MXNet's symbol.json text of the graph."""
    order = post_order(heads)
    index = {id(n): i for i, n in enumerate(order)}
    nodes = []
    for n in order:
        spec: dict[str, Any] = {"op": n.op, "name": n.name}
        if n.attrs:
            spec["attrs"] = dict(n.attrs)
        spec["inputs"] = [[index[id(m)], k, 0] for m, k in n.inputs]
        if n.subgraphs:
            spec["subgraphs"] = n.subgraphs
        nodes.append(spec)
    doc = {"nodes": nodes, "arg_nodes": [i for i, n in enumerate(order) if n.is_variable],
           "heads": [[index[id(n)], k, 0] for n, k in heads], "attrs": {"mxnet_version": ["int", 10901]}}
    return json.dumps(doc, indent=2)


def output_name(node: Node, index: int) -> str:
    """MXNet's name of a node's output (``conv0_output``; a variable's own name)."""
    if node.is_variable:
        return node.name
    names = _OUTPUT_NAMES.get(node.op)
    if names is not None:
        return f"{node.name}_{names[index]}"
    return f"{node.name}_output" if index == 0 else f"{node.name}_output{index}"


def _quantizable(node: Node, excluded_names: set[str], excluded_ops: set[str]) -> Quantizable | None:
    rule = QUANTIZABLE.get(node.op)
    if rule is None or node.name in excluded_names or node.op in excluded_ops:
        return None
    if any(inner["op"] != "null" and inner["name"] in excluded_names  # a fused layer's own layers
           for graph in node.subgraphs for inner in graph["nodes"]):
        return None
    if node.op == "Activation" and node.attrs.get("act_type") != "relu":
        return None
    if node.op == "Pooling" and node.attrs.get("pool_type", "max") not in ("max", "avg"):
        return None
    if node.op == "Embedding" and node.attrs.get("dtype", "float32") != "float32":
        return None
    return rule


def _mark(order: list[Node], excluded_names: set[str], excluded_ops: set[str], mode: str,
          channel_wise: bool = False) -> dict[int, Node]:
    """The fp32 nodes to quantize (by id) with their quantized copies; smart mode keeps a supporting
    node only when it lies between operators that must be quantized."""
    chosen: dict[int, Node] = {}
    must: list[Node] = []
    support: dict[int, int] = {}
    consumers: dict[int, list[Node]] = {}
    for node in order:
        for src, _ in node.inputs:
            consumers.setdefault(id(src), []).append(node)
        rule = _quantizable(node, excluded_names, excluded_ops)
        if rule is None:
            continue
        chosen[id(node)] = Node(rule.op, "quantized_" + node.name, dict(node.attrs), [], node.subgraphs)
        if node.op == "_sg_mkldnn_conv":
            chosen[id(node)].attrs["quantized"] = "true"
        elif node.op == "_sg_mkldnn_fully_connected":
            chosen[id(node)].attrs["quantized"] = "True"
            if channel_wise:
                chosen[id(node)].attrs["channel_wise_quantize"] = "True"
        if rule.must:
            must.append(node)
        else:
            support[id(node)] = 0
    if mode == "full":
        return chosen
    if mode != "smart":
        raise ValueError(f"quantize_mode must be 'full' or 'smart', got {mode!r}")
    for bit, step in ((1, lambda n: [s for s, _ in n.inputs]), (2, lambda n: consumers.get(id(n), []))):
        queue = list(must)
        while queue:
            node = queue.pop(0)
            for nxt in step(node):
                if id(nxt) in support:
                    support[id(nxt)] |= bit
                    queue.append(nxt)
    for key, bits in support.items():
        if bits != 3:
            del chosen[key]
    return chosen


def _kept(rule: Quantizable, i: int, node: Node, channel_wise: bool) -> bool:
    """Whether input ``i`` of ``node`` stays as it is (not quantized)."""
    if node.op == "_sg_mkldnn_conv":  # data and the summand (last) are quantized
        return i != 0 and not (node.attrs.get("with_sum") == "true" and i == len(node.inputs) - 1)
    if node.op == "_sg_mkldnn_fully_connected" and channel_wise:  # weight and bias quantized at run time
        return i != 0
    if rule.keep_all_but is not None:
        return i != rule.keep_all_but
    return rule.keep_inputs is not None and i in rule.keep_inputs


def quantize_graph_json(text: str, excluded_names: list[str] | None = None,
                        excluded_ops: list[str] | None = None, offline_params: list[str] | None = None,
                        quantized_dtype: str = "int8", quantize_mode: str = "smart",
                        quantize_granularity: str = "tensor-wise") -> tuple[str, list[str]]:
    """MXNet's QuantizeGraph: the quantized symbol.json and the names of the outputs to calibrate."""
    heads = from_json(text)
    order = post_order(heads)
    channel_wise = quantize_granularity == "channel-wise"
    chosen = _mark(order, set(excluded_names or ()), set(excluded_ops or ()), quantize_mode, channel_wise)
    fp32_of: dict[int, Node] = {}  # a new node -> the fp32 node it stands for
    mirror: dict[int, Node] = {}
    quantized_entry: dict[tuple[int, int], Node] = {}  # an fp32 entry -> its quantize node
    for node in order:
        if id(node) in chosen:
            new = chosen[id(node)]
            rule = QUANTIZABLE[node.op]
            for i, (src, k) in enumerate(node.inputs):
                m = mirror[id(src)]
                if _kept(rule, i, node, channel_wise):
                    new.inputs.append((m, k))
                elif id(src) not in chosen:
                    key = (id(src), k)
                    if key not in quantized_entry:
                        suffix = "" if m.is_variable else (
                            f"_{_OUTPUT_NAMES[src.op][k]}" if src.op in _OUTPUT_NAMES else f"_{k}")
                        q = Node("_contrib_quantize_v2", f"{src.name}{suffix}_quantize",
                                 {"out_type": quantized_dtype}, [(m, k)])
                        quantized_entry[key] = q
                    new.inputs.append((quantized_entry[key], 0))
                elif m.op == "_contrib_dequantize":
                    new.inputs.append((m.inputs[0][0], k))
                else:
                    new.inputs.append((m, k))
            for i, (src, k) in enumerate(node.inputs):
                if _kept(rule, i, node, channel_wise):
                    continue
                m = mirror[id(src)]
                if m.op == "_contrib_dequantize":
                    m = m.inputs[0][0]
                if id(src) in chosen:
                    first = _QUANTIZED_OUTPUTS - 2 + 2 * k
                    new.inputs += [(m, first), (m, first + 1)]
                else:
                    q = quantized_entry[(id(src), k)]
                    new.inputs += [(q, 1), (q, 2)]
            if rule.requantize:
                req = Node("_contrib_requantize", "requantize_" + node.name, {"out_type": quantized_dtype},
                           [(new, 0), (new, 1), (new, 2)])
                new = req
        else:
            new = Node(node.op, node.name, dict(node.attrs), [], node.subgraphs)
            for src, k in node.inputs:
                m = mirror[id(src)]
                if id(src) in chosen and m.op != "_contrib_dequantize":
                    first = _QUANTIZED_OUTPUTS - 2 + 2 * k
                    deq = Node("_contrib_dequantize", src.name + "_dequantize", {},
                               [(m, k), (m, first), (m, first + 1)])
                    new.inputs.append((deq, 0))
                    mirror[id(src)] = deq
                    fp32_of[id(deq)] = src
                elif (id(src), k) in quantized_entry:
                    new.inputs.append((quantized_entry[(id(src), k)].inputs[0][0], k))
                else:
                    new.inputs.append((m, k))
        mirror[id(node)] = new
        fp32_of[id(new)] = node
    outputs: list[tuple[Node, int]] = []
    for node, k in heads:
        m = mirror[id(node)]
        if id(node) in chosen:
            first = len(_OUTPUT_NAMES.get(node.op, ["output"])) + 2 * k  # after the fp32 op's outputs
            outputs.append((Node("_contrib_dequantize", node.name + "_dequantize", {},
                                 [(m, k), (m, first), (m, first + 1)]), 0))
        else:
            outputs.append((m, k))
    _offline(outputs, set(offline_params or ()))
    return to_json(outputs), _calib_names(outputs, fp32_of)


def _offline(heads: list[tuple[Node, int]], params: set[str]) -> None:
    """Parameters quantized ahead of time: a quantize node of a listed variable becomes three variables."""
    made: dict[tuple[int, int], Node] = {}
    for node in post_order(heads):
        for i, (src, k) in enumerate(node.inputs):
            if (src.op == "_contrib_quantize_v2" and src.inputs[0][0].is_variable
                    and src.inputs[0][0].name in params):
                key = (id(src), k)
                if key not in made:
                    made[key] = Node("null", src.name + ("", "_min", "_max")[k])
                node.inputs[i] = (made[key], 0)


def _calib_names(heads: list[tuple[Node, int]], fp32_of: dict[int, Node]) -> list[str]:
    names = []
    for node in post_order(heads):
        if node.op in ("_contrib_quantize_v2", "_contrib_requantize", "_contrib_quantize_asym"):
            src, k = node.inputs[0]
            if id(node) in fp32_of:
                names.append(output_name(fp32_of[id(node)], k))
            elif src.is_variable:
                names.append(src.name)
            else:
                names.append(output_name(fp32_of[id(src)], k))
        elif node.op == "_contrib_quantized_batch_norm":
            names.append(output_name(fp32_of[id(node)], 0))
    return names


def set_calib_table(text: str, table: dict[str, tuple[float, float]]) -> str:
    """MXNet's SetCalibTableToQuantizedGraph: each quantize / requantize node (and quantized batch norm)
    gets min_calib_range / max_calib_range from the table entry of the fp32 output it measures, written
    as C++'s std::to_string writes a float."""
    heads = from_json(text)
    for node in post_order(heads):
        if node.op in ("_contrib_quantize_v2", "_contrib_requantize", "_contrib_quantize_asym"):
            src, k = node.inputs[0]
        elif node.op == "_contrib_quantized_batch_norm":
            src, k = node, 0
        else:
            continue
        name = output_name(src, k)
        if src.name.startswith("quantized_"):
            name = name[len("quantized_"):]
        if name in table:
            low, high = table[name]
            node.attrs["min_calib_range"] = f"{float(low):f}"
            node.attrs["max_calib_range"] = f"{float(high):f}"
    return to_json(heads)

