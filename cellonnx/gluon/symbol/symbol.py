"""Symbol: a loaded MXNet graph together with the outputs it names - what ``SymbolBlock(outputs, inputs)``
takes. The listing methods follow MXNet's: ``list_arguments`` (variables that are not auxiliary states),
``list_auxiliary_states``, ``list_inputs``, ``list_outputs`` and ``get_internals()`` with its output names
(``conv0_output``, ``bn0_mean``, ``split0_output1``), so feature extraction by name works as in MXNet:

    >>> import json
    >>> import cellonnx.mxnet as mx
    >>> from cellonnx import gluon
    >>> nodes = [{"op": "null", "name": "data", "inputs": []},
    ...          {"op": "null", "name": "fc1_weight", "inputs": []},
    ...          {"op": "null", "name": "fc1_bias", "inputs": []},
    ...          {"op": "FullyConnected", "name": "fc1", "attrs": {"num_hidden": "4"},
    ...           "inputs": [[0, 0, 0], [1, 0, 0], [2, 0, 0]]},
    ...          {"op": "Activation", "name": "relu1", "attrs": {"act_type": "relu"},
    ...           "inputs": [[3, 0, 0]]}]
    >>> with open("tiny-symbol.json", "w") as f:  # as MXNet's HybridBlock.export writes it
    ...     json.dump({"nodes": nodes, "arg_nodes": [0, 1, 2], "heads": [[4, 0, 0]]}, f)
    >>> mx.nd.save("tiny-0000.params", {"arg:fc1_weight": mx.nd.ones((4, 3)),
    ...                                 "arg:fc1_bias": mx.nd.zeros((4,))})
    >>> from cellonnx.gluon import SymbolBlock, symbol
    >>> sym = symbol.load("tiny-symbol.json")
    >>> sym.get_internals().list_outputs()
    ['data', 'fc1_weight', 'fc1_bias', 'fc1_output', 'relu1_output']
    >>> feat = sym.get_internals()["fc1_output"]
    >>> net = SymbolBlock(feat, symbol.var("data"))
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any

from cellonnx.gluon.symbol.attrs import parse_attr
from cellonnx.gluon.symbol.graph import Node, SymbolGraph, load_graph, parse_graph
from cellonnx.gluon.symbol.spec import op_spec

__all__ = ["Symbol", "load", "load_json", "var"]

_NAMED_OUTPUTS = {
    "BatchNorm": ("output", "mean", "var"),
    "BatchNorm_v1": ("output", "mean", "var"),
    "LayerNorm": ("output", "mean", "std"),
    "GroupNorm": ("output", "mean", "std"),
    "Dropout": ("output", "mask"),
}


def _attr(node: Node, key: str, default: Any) -> Any:
    spec = op_spec(node.op)
    text = node.attrs.get(key)
    if spec is None or key not in spec.attrs or text is None:
        return default
    try:
        return parse_attr(spec.attrs[key], text)
    except ValueError:
        return default


def output_names(node: Node) -> list[str]:
    """The names MXNet gives the visible outputs of ``node``."""
    if node.is_variable:
        return [node.name]
    op = op_spec(node.op).name if op_spec(node.op) else node.op
    if op in _NAMED_OUTPUTS:
        visible = 3 if op != "Dropout" and _attr(node, "output_mean_var", False) else 1
        return [f"{node.name}_{n}" for n in _NAMED_OUTPUTS[op][:visible]]
    if op == "RNN":
        names = ["output", "state_output", "statecell_output"][
            : 3 if _attr(node, "mode", "") == "lstm" else 2
        ]
        return [f"{node.name}_{n}" for n in names[: len(names) if _attr(node, "state_outputs", False) else 1]]
    total, visible = 1, 1
    if op == "SliceChannel":
        total = visible = int(_attr(node, "num_outputs", 1))
    elif op == "_split_v2":
        sections = int(_attr(node, "sections", 0))
        total = visible = sections or len(_attr(node, "indices", ()))
    elif op == "topk":
        # 'value' keeps the indices as a hidden second output; 'indices' and 'mask' have one output
        ret = _attr(node, "ret_typ", "indices")
        total, visible = (2, 2) if ret == "both" else (2, 1) if ret == "value" else (1, 1)
    elif op == "make_loss":
        return [f"{node.name}_loss"]
    elif op == "LeakyReLU" and _attr(node, "act_type", "leaky") == "rrelu":
        return [f"{node.name}_output", f"{node.name}_mask"]
    elif op in ("_contrib_box_nms", "_contrib_box_non_maximum_suppression"):
        total = 2
    elif op in ("_linalg_gelqf", "_linalg_slogdet", "_linalg_syevd"):
        total = visible = 2
    if total == 1:
        return [f"{node.name}_output"]
    return [f"{node.name}_output{i}" for i in range(visible)]


class Symbol:
    """Outputs of a symbol graph.

    Args:
        graph: the graph.
        heads: the (node, output) entries this symbol stands for.
    """

    def __init__(self, graph: SymbolGraph, heads: list[tuple[int, int]]) -> None:
        self._graph = graph
        self._heads = list(heads)

    @property
    def graph(self) -> SymbolGraph:
        return self._graph

    @property
    def heads(self) -> list[tuple[int, int]]:
        return list(self._heads)

    @property
    def name(self) -> str | None:
        """The node name of a single-output symbol (None for a group)."""
        return self._graph.nodes[self._heads[0][0]].name if len(self._heads) == 1 else None

    def list_outputs(self) -> list[str]:
        return [
            output_names(self._graph.nodes[nid])[k]
            if k < len(output_names(self._graph.nodes[nid]))
            else f"{self._graph.nodes[nid].name}_output{k}"
            for nid, k in self._heads
        ]

    def list_inputs(self) -> list[str]:
        """Every variable the outputs depend on (arguments and auxiliary states), in MXNet's order."""
        return [n.name for n in self._graph.variables(self._heads)]

    def _aux_ids(self) -> set[int]:
        aux: set[int] = set()
        for nid in self._graph.order(self._heads):
            node = self._graph.nodes[nid]
            spec = op_spec(node.op) if not node.is_variable else None
            if spec is None or not spec.aux:
                continue
            for pos, name in enumerate(spec.inputs):
                if name in spec.aux and pos < len(node.inputs):
                    src = node.inputs[pos][0]
                    if self._graph.nodes[src].is_variable:
                        aux.add(src)
        return aux

    def list_arguments(self) -> list[str]:
        aux = self._aux_ids()
        return [n.name for n in self._graph.variables(self._heads) if n.index not in aux]

    def list_auxiliary_states(self) -> list[str]:
        aux = self._aux_ids()
        return [n.name for n in self._graph.variables(self._heads) if n.index in aux]

    def get_internals(self) -> Symbol:
        """Every output of every node the outputs depend on, in order."""
        heads = []
        for nid in self._graph.order(self._heads):
            heads.extend((nid, k) for k in range(len(output_names(self._graph.nodes[nid]))))
        return Symbol(self._graph, heads)

    def get_children(self) -> Symbol | None:
        """The inputs of a single-output symbol's node (None for a variable)."""
        node = self._graph.nodes[self._heads[0][0]]
        return Symbol(self._graph, list(node.inputs)) if node.inputs else None

    def __len__(self) -> int:
        return len(self._heads)

    def __iter__(self) -> Iterator[Symbol]:
        return (Symbol(self._graph, [h]) for h in self._heads)

    def __getitem__(self, index: int | str) -> Symbol:
        if isinstance(index, str):
            names = self.list_outputs()
            matches = [i for i, n in enumerate(names) if n == index]
            if not matches:
                raise ValueError(
                    f"There is no output named {index!r}; outputs are {names[:8]}"
                    f"{' ...' if len(names) > 8 else ''}"
                )
            if len(matches) > 1:
                raise ValueError(f"There are multiple outputs with name {index!r}")
            index = matches[0]
        return Symbol(self._graph, [self._heads[index]])

    def attr(self, key: str) -> str | None:
        """An attribute of a single-output symbol's node (MXNet's spelling: '__shape__', 'kernel' ...)."""
        node = self._graph.nodes[self._heads[0][0]]
        return node.attrs.get(key)

    def list_attr(self) -> dict[str, str]:
        return dict(self._graph.nodes[self._heads[0][0]].attrs)

    def attr_dict(self) -> dict[str, dict[str, str]]:
        return {
            self._graph.nodes[i].name: dict(self._graph.nodes[i].attrs)
            for i in self._graph.order(self._heads)
            if self._graph.nodes[i].attrs
        }

    def tojson(self) -> str:
        """The graph of these outputs as MXNet 1.x's symbol.json (the current format)."""
        order = self._graph.order(self._heads)
        new = {nid: i for i, nid in enumerate(order)}
        nodes = []
        for nid in order:
            node = self._graph.nodes[nid]
            entry: dict[str, Any] = {"op": node.op, "name": node.name}
            if node.attrs:
                entry["attrs"] = dict(node.attrs)
            entry["inputs"] = [[new[i], k, 0] for i, k in node.inputs]
            nodes.append(entry)
        doc = {
            "nodes": nodes,
            "arg_nodes": [new[n] for n in order if self._graph.nodes[n].is_variable],
            "node_row_ptr": _row_ptr([self._graph.nodes[n] for n in order]),
            "heads": [[new[i], k, 0] for i, k in self._heads],
            "attrs": {"mxnet_version": ["int", max(self._graph.version, 10901)]},
        }
        return json.dumps(doc, indent=2)

    def save(self, fname: str | os.PathLike[str]) -> None:
        with open(fname, "w", encoding="utf-8") as f:
            f.write(self.tojson())

    def __repr__(self) -> str:
        if len(self._heads) == 1:
            return f"<Symbol {self.name}>"
        return f"<Symbol group [{', '.join(self.list_outputs())}]>"


def _row_ptr(nodes: list[Node]) -> list[int]:
    out = [0]
    for node in nodes:
        out.append(out[-1] + max(1, len(output_names(node))))
    return out


def load(fname: str | os.PathLike[str]) -> Symbol:
    """The outputs of a symbol.json file (any MXNet version's layout)."""
    graph = load_graph(fname)
    return Symbol(graph, graph.heads)


def load_json(json_str: str) -> Symbol:
    graph = parse_graph(json_str, "<json>")
    return Symbol(graph, graph.heads)


def var(name: str, shape: Any = None, dtype: Any = None, **_: Any) -> Symbol:
    """A variable: names an input when building a SymbolBlock (``SymbolBlock(out, var('data'))``)."""
    attrs = {}
    if shape is not None:
        attrs["__shape__"] = str(tuple(shape))
    if dtype is not None:
        attrs["__dtype__"] = str(dtype)
    graph = SymbolGraph([Node("null", name, attrs, [], 0)], [(0, 0)], 10901, f"<var {name}>")
    return Symbol(graph, [(0, 0)])


Variable = var
