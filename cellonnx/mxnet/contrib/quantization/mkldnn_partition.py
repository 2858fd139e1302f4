"""MXNet 1.9.1's MKLDNN_QUANTIZE subgraph backend over a symbol's JSON graph (``get_backend_symbol``).

Before quantization it fuses ``Convolution`` [+ ``BatchNorm``] [+ ``elemwise_add``] [+ activation] into
``_sg_mkldnn_conv`` and ``FullyConnected`` [+ activation] into ``_sg_mkldnn_fully_connected`` nodes that
hold the fused layers as a subgraph (``sg_mkldnn_conv_bn_add_act_1``). Run again on a quantized graph it
folds a calibrated ``_contrib_requantize`` into the quantized convolution before it (its
``min_calib_range`` / ``max_calib_range``) and a calibrated requantize [+ ``_contrib_dequantize``] into the
quantized fully-connected layer (its range, or ``enable_float_output``).

The partitioner grows each subgraph as MXNet's does: nodes are seeds in graph order, a subgraph grows
through the consumers of its nodes (in graph order) while the property's state machine accepts them, and
a node whose output also leaves the chain ends it there.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from cellonnx.mxnet.contrib.quantization.graph_pass import Node, output_name, post_order

__all__ = ["partition", "post_quantize"]

_CONV_ACTS = ("Activation", "LeakyReLU", "clip")


def _act_ok(node: Node, quantize: bool) -> bool:
    """Whether oneDNN fuses this Activation (quantized: relu only)."""
    act = node.attrs.get("act_type", "")
    return act == "relu" if quantize else act in ("relu", "sigmoid", "tanh", "softrelu")


def _float(text: str | None, default: float = 0.0) -> float:
    return default if text is None else float(text)


class _Selector:
    """One property's state machine over a growing chain (SgMKLDNNConvSelector / SgMKLDNNFCSelector)."""

    def __init__(self, seed: Node) -> None:
        self.matched = [seed]
        self.status = "start"

    def grow(self, n: Node, new: Node) -> bool:
        if self.matched[-1] is not n:  # a branch inside the chain: it ends at n
            if n in self.matched:
                while self.matched[-1] is not n:
                    self.matched.pop()
            self.status = "success"
            return False
        if self.status in ("fail", "success") or new.is_variable:
            return False
        return self.accept(new)

    def accept(self, new: Node) -> bool:  # pragma: no cover - overridden
        raise NotImplementedError

    def take(self, new: Node, status: str) -> bool:
        self.matched.append(new)
        self.status = status
        return True


class _ConvSelector(_Selector):
    def __init__(self, seed: Node, quantize: bool) -> None:
        super().__init__(seed)
        self.quantize = quantize

    def accept(self, new: Node) -> bool:
        if self.status == "start" and new.op == "BatchNorm":
            return self.take(new, "bn")
        if self.status in ("start", "bn") and new.op == "elemwise_add":
            return self.take(new, "sum")
        if new.op == "Activation" and _act_ok(new, self.quantize):
            return self.take(new, "success")
        if new.op == "LeakyReLU" and new.attrs.get("act_type", "leaky") in ("leaky", "gelu"):
            return self.take(new, "success")
        if new.op == "clip" and not (self.quantize and self.status == "sum") \
                and _float(new.attrs.get("a_min")) == 0.0:
            return self.take(new, "success")
        self.status = "success"
        return False


class _FCSelector(_Selector):
    def __init__(self, seed: Node, quantize: bool) -> None:
        super().__init__(seed)
        self.quantize = quantize

    def accept(self, new: Node) -> bool:
        if self.status == "start":
            if new.op == "Activation" and _act_ok(new, self.quantize):
                return self.take(new, "success")
            if new.op == "LeakyReLU" and new.attrs.get("act_type", "leaky") in ("leaky", "elu", "gelu"):
                return self.take(new, "success")
            if (not self.quantize and new.op in ("square", "sqrt", "exp")) or new.op == "abs":
                return self.take(new, "success")
            if new.op == "clip" and _float(new.attrs.get("a_min")) == 0.0:
                return self.take(new, "success")
        self.status = "success"
        return False


def _consumers(order: list[Node]) -> dict[int, list[Node]]:
    out: dict[int, list[Node]] = {}
    for node in order:
        for src, _ in node.inputs:
            users = out.setdefault(id(src), [])
            if node not in users:
                users.append(node)
    return out


def _grow(seed: Node, selector: _Selector, consumers: dict[int, list[Node]]) -> list[Node]:
    """The chain the selector accepts from ``seed``, breadth first through consumers."""
    chosen = [seed]
    queue = [seed]
    while queue:
        n = queue.pop(0)
        for new in consumers.get(id(n), []):
            if new not in chosen and selector.grow(n, new):
                chosen.append(new)
                queue.append(new)
    return [n for n in selector.matched if n in chosen] if selector.status != "fail" else []


def _rewire(heads: list[tuple[Node, int]], old: list[Node], new: Node,
            keep_index: bool) -> list[tuple[Node, int]]:
    """Point every entry read from the nodes ``old`` (outside them) at ``new``, in the graph as it is now
    (fused nodes made earlier included)."""
    members = {id(n) for n in old}

    def entry(src: Node, k: int) -> tuple[Node, int]:
        return (new, k if keep_index else 0) if id(src) in members else (src, k)

    for node in post_order(heads):
        if id(node) not in members and node is not new:
            node.inputs = [entry(s, k) for s, k in node.inputs]
    return [entry(s, k) for s, k in heads]


def _subgraph_doc(last: Node, members: list[Node], names: dict[tuple[int, int], str] | None = None
                  ) -> tuple[dict[str, Any], list[tuple[Node, int]], dict[tuple[int, int], str]]:
    """The fused layers as a symbol.json document (one variable per input edge that comes from outside,
    named after the entry with a running count: ``data0``, ``relu0_output1``; or as ``names`` says, by
    (consumer, input position)), those outside entries in the subgraph's input order, and the names."""
    ids = {id(n) for n in members}
    given = names is not None
    names = {} if names is None else names
    entries: list[tuple[Node, int]] = []
    counts: dict[str, int] = {}
    nodes: list[dict[str, Any]] = []
    index: dict[int, int] = {}

    def visit(node: Node) -> int:
        if id(node) in index:
            return index[id(node)]
        inputs = []
        for pos, (src, k) in enumerate(node.inputs):
            if id(src) in ids:
                inputs.append([visit(src), k, 0])
            else:
                if not given:
                    name = output_name(src, k)
                    count = counts.get(name, 0)
                    counts[name] = count + 1
                    names[(id(node), pos)] = f"{name}{count}"
                nodes.append({"op": "null", "name": names[(id(node), pos)], "inputs": []})
                entries.append((src, k))
                inputs.append([len(nodes) - 1, 0, 0])
        spec: dict[str, Any] = {"op": node.op, "name": node.name}
        if node.attrs:
            spec["attrs"] = dict(sorted(node.attrs.items()))
        spec["inputs"] = inputs
        nodes.append(spec)
        index[id(node)] = len(nodes) - 1
        return index[id(node)]

    head = visit(last)
    row_ptr = [0]
    for spec in nodes:
        row_ptr.append(row_ptr[-1] + _count_outputs(spec))
    doc = {"nodes": nodes, "arg_nodes": [i for i, n in enumerate(nodes) if n["op"] == "null"],
           "node_row_ptr": row_ptr, "heads": [[head, 0, 0]]}
    return doc, entries, names


def _count_outputs(spec: dict[str, Any]) -> int:
    op = spec["op"]
    if op == "BatchNorm":
        return 3
    if op == "LeakyReLU" and spec.get("attrs", {}).get("act_type") == "rrelu":
        return 2
    return 1


def _sum_last(members: list[Node], names: dict[tuple[int, int], str]) -> None:
    """MXNet keeps the fused sum's extra operand last: when the chain is the add's right operand the
    add's operands swap (the subgraph's variables keep the names they had before)."""
    ids = {id(n) for n in members}
    for node in members:
        if node.op == "elemwise_add" and id(node.inputs[1][0]) in ids:
            node.inputs = [node.inputs[1], node.inputs[0]]
            key0, key1 = (id(node), 0), (id(node), 1)
            if key0 in names:
                names[key1] = names.pop(key0)


def _fused_node(members: list[Node], kind: str, subgraph_id: int) -> Node:
    """The ``_sg_mkldnn_conv`` / ``_sg_mkldnn_fully_connected`` node standing for ``members``."""
    attrs: dict[str, str] = {}
    parts = []
    with_sum = False
    for node in members:
        if node.op == "Convolution":
            parts.append("conv")
        elif node.op == "FullyConnected":
            parts.append("fully_connected")
        elif node.op == "BatchNorm":
            parts.append("bn")
            attrs["with_bn"] = "true"
        elif node.op == "elemwise_add":
            parts.append("add")
            attrs["with_sum"] = "true"
            with_sum = True
        elif kind == "conv":
            parts.append("act")
            attrs["with_postsum_act" if with_sum else "with_act"] = "true"
        else:
            parts.append("eltwise")
            attrs["with_eltwise"] = "True"
    doc, entries, names = _subgraph_doc(members[-1], members)
    if kind == "conv":
        _sum_last(members, names)
        doc, entries, _ = _subgraph_doc(members[-1], members, names)
    op = "_sg_mkldnn_conv" if kind == "conv" else "_sg_mkldnn_fully_connected"
    node = Node(op, "sg_mkldnn_" + "_".join(parts) + f"_{subgraph_id}", attrs, entries)
    node.subgraphs = [doc]
    return node


def _partition(heads: list[tuple[Node, int]], seed: Callable[[Node], bool],
               selector: Callable[[Node], _Selector], kind: str) -> list[tuple[Node, int]]:
    order = post_order(heads)
    consumers = _consumers(order)
    taken: set[int] = set()
    count = 0
    for node in order:
        if id(node) in taken or not seed(node):
            continue
        members = _grow(node, selector(node), consumers)
        members = [n for n in members if id(n) not in taken]
        if not members:
            continue
        taken.update(id(n) for n in members)
        fused = _fused_node(members, kind, count)
        count += 1
        heads = _rewire(heads, members, fused, keep_index=kind != "conv")
    return heads


def _conv_seed(node: Node) -> bool:
    if node.op != "Convolution":
        return False
    kernel = node.attrs.get("kernel", "()").strip("()[] ").split(",")
    return len([k for k in kernel if k.strip()]) in (2, 3)


def partition(heads: list[tuple[Node, int]], quantize: bool = True) -> list[tuple[Node, int]]:
    """The convolution and fully-connected fusions of the MKLDNN_QUANTIZE backend."""
    heads = _partition(heads, _conv_seed, lambda n: _ConvSelector(n, quantize), "conv")
    return _partition(heads, lambda n: n.op == "FullyConnected", lambda n: _FCSelector(n, quantize), "fc")


def _calibrated(node: Node) -> bool:
    return "min_calib_range" in node.attrs and "max_calib_range" in node.attrs


def _single_consumer(node: Node, consumers: dict[int, list[Node]]) -> Node | None:
    users = consumers.get(id(node), [])
    return users[0] if len(users) == 1 else None


def post_quantize(heads: list[tuple[Node, int]]) -> list[tuple[Node, int]]:
    """The post-quantization fusions: calibrated requantize into the quantized convolution (or quantized
    elemwise_add) before it; calibrated requantize [+ dequantize] into the quantized fully-connected
    layer."""
    heads = partition(heads, quantize=True)
    order = post_order(heads)
    consumers = _consumers(order)
    for node in order:
        quantized_conv = node.op == "_sg_mkldnn_conv" and node.attrs.get("quantized") == "true"
        if not (quantized_conv or node.op == "_contrib_quantized_elemwise_add"):
            continue
        users = consumers.get(id(node), [])
        if not users or users[0].op != "_contrib_requantize" or not _calibrated(users[0]):
            continue
        req = users[0]
        if len(users) > 1:
            continue
        node.attrs["min_calib_range"] = req.attrs["min_calib_range"]
        node.attrs["max_calib_range"] = req.attrs["max_calib_range"]
        heads = _rewire(heads, [req], node, keep_index=True)
    order = post_order(heads)
    consumers = _consumers(order)
    for node in order:
        if node.op != "_sg_mkldnn_fully_connected":
            continue
        req = _single_consumer(node, consumers)
        if req is None or req.op != "_contrib_requantize" or not _calibrated(req):
            continue
        deq = _single_consumer(req, consumers)
        if deq is not None and deq.op == "_contrib_dequantize":
            node.attrs["enable_float_output"] = "True"
            heads = _rewire(heads, [req, deq], node, keep_index=True)
        else:
            node.attrs["min_calib_range"] = req.attrs["min_calib_range"]
            node.attrs["max_calib_range"] = req.attrs["max_calib_range"]
            heads = _rewire(heads, [req], node, keep_index=True)
    _align_concat_scales(heads)
    return heads


def _align_concat_scales(heads: list[tuple[Node, int]]) -> None:
    """MXNet's scale alignment: the calibrated layers feeding a quantized concat (through quantized
    concat / pooling nodes, each read only inside the group) all take the widest of their ranges (from 0
    at least), so the concat needs no rescaling."""
    order = post_order(heads)
    consumers = _consumers(order)
    for head in order:
        if head.op != "_contrib_quantized_concat":
            continue
        visited = {id(head)}
        matched: list[Node] = []
        seen: set[int] = set()
        queue = [head]
        single = len(consumers.get(id(head), [])) <= 1
        while queue:
            n = queue.pop(0)
            for src, _ in n.inputs:
                if src.is_variable or id(src) in seen or id(n) not in visited:
                    continue
                if any(id(c) not in visited for c in consumers.get(id(src), [])):
                    continue
                if "min_calib_range" in src.attrs and "max_calib_range" in src.attrs:
                    matched.append(src)
                    seen.add(id(src))
                elif src.op in ("_contrib_quantized_concat", "_contrib_quantized_pooling"):
                    visited.add(id(src))
                    seen.add(id(src))
                    queue.append(src)
            for new in consumers.get(id(n), []) if single else []:
                if id(new) not in seen and id(n) in visited and new.op in (
                        "_contrib_quantized_concat", "_contrib_quantized_pooling"):
                    visited.add(id(new))
                    seen.add(id(new))
                    queue.append(new)
        if len(matched) < 2:
            continue
        low = min([0.0] + [float(np.float32(n.attrs["min_calib_range"])) for n in matched])
        high = max([0.0] + [float(np.float32(n.attrs["max_calib_range"])) for n in matched])
        for n in matched:
            n.attrs["min_calib_range"] = f"{np.float32(low):f}"
            n.attrs["max_calib_range"] = f"{np.float32(high):f}"


def backend_symbol_json(text: str, backend: str) -> str:
    """``Symbol.get_backend_symbol(backend)`` on symbol.json text: 'MKLDNN_QUANTIZE' (the quantization
    fusions) or 'MKLDNN' (the float ones)."""
    from cellonnx.mxnet.contrib.quantization.graph_pass import from_json, to_json

    heads = from_json(text)
    if backend == "MKLDNN_QUANTIZE":
        return to_json(post_quantize(heads))
    if backend == "MKLDNN":
        return to_json(partition(heads, quantize=False))
    raise ValueError(f"get_backend_symbol: unknown subgraph backend {backend!r}; cellonnx has 'MKLDNN' and "
                     "'MKLDNN_QUANTIZE' (MXNet 1.9.1's oneDNN backends)")
