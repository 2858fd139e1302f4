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

import os
from abc import ABCMeta
from collections.abc import Iterator
from typing import Any

import numpy as np

from cellonnx.gluon.symbol.attrs import parse_attr
from cellonnx.gluon.symbol.compose import hidden_key
from cellonnx.gluon.symbol.graph import HIDDEN_KEYS, Node, SymbolGraph, load_graph, parse_graph
from cellonnx.gluon.symbol.json_writer import dumps_graph
from cellonnx.gluon.symbol.spec import op_spec
from cellonnx.gluon.symbol.symbol_ops import SymbolOps

__all__ = ["Group", "SymNode", "Symbol", "Variable", "is_symbol", "load", "load_json", "var"]

_NAMED_OUTPUTS = {
    "BatchNorm": ("output", "mean", "var"),
    "BatchNorm_v1": ("output", "mean", "var"),
    "LayerNorm": ("output", "mean", "std"),
    "GroupNorm": ("output", "mean", "std"),
    "Dropout": ("output", "mask"),
}

# the quantization operators MXNet names the outputs of (the quantized layers: data, min, max)
_QUANTIZATION_OUTPUTS = {
    **{f"_contrib_quantized_{n}": ("output", "min_output", "max_output") for n in (
        "act", "batch_norm", "concat", "conv", "elemwise_add", "elemwise_mul", "embedding", "flatten",
        "fully_connected", "pooling")},
    "_contrib_quantize_asym": ("output", "scale", "shift"),
    "_contrib_calibrate_entropy": ("threshold", "divergence"),
}


def _attr(node: Any, key: str, default: Any) -> Any:
    spec = op_spec(node.op)
    text = node.attrs.get(key)
    if spec is None or key not in spec.attrs or text is None:
        return default
    try:
        return parse_attr(spec.attrs[key], text)
    except ValueError:
        return default


# the multi-tensor optimizer updates: one output per weight (MXNet names them output0, output1 ...)
_MULTI_UPDATES = frozenset(f"{pre}multi_{kind}_update" for pre in ("", "preloaded_")
                           for kind in ("sgd", "sgd_mom", "mp_sgd", "mp_sgd_mom"))


def num_outputs(node: Any) -> int:
    """How many outputs ``node``'s operator computes, the hidden ones included (BatchNorm's mean and var)."""
    if node.is_variable:
        return 1
    op = op_spec(node.op).name if op_spec(node.op) else node.op
    if op in _NAMED_OUTPUTS:
        return len(_NAMED_OUTPUTS[op])
    if op in ("LRN", "CTCLoss"):
        return 2
    if op == "InstanceNorm":
        return 3
    if op == "Pooling" and _attr(node, "pool_type", "max") == "max" \
            and str(_attr(node, "layout", None) or "NC").startswith("NC"):
        return 2  # the pip builds (oneDNN) keep max pooling's workspace as a hidden output
    if op == "topk" and _attr(node, "ret_typ", "indices") in ("both", "value"):
        return 2
    if op in ("_contrib_box_nms", "_contrib_box_non_maximum_suppression"):
        return 2
    return max(1, len(output_names(node)))


def output_names(node: Any) -> list[str]:
    """The names MXNet gives the visible outputs of ``node``."""
    if node.is_variable:
        return [node.name]
    op = op_spec(node.op).name if op_spec(node.op) else node.op
    if op == "Custom":
        from cellonnx.gluon.symbol.custom_op import custom_outputs

        return custom_outputs(node.name, node.attrs)
    if op in _NAMED_OUTPUTS:
        visible = 3 if op != "Dropout" and _attr(node, "output_mean_var", False) else 1
        return [f"{node.name}_{n}" for n in _NAMED_OUTPUTS[op][:visible]]
    if op == "RNN":
        names = ["output", "state_output", "statecell_output"][
            : 3 if _attr(node, "mode", "") == "lstm" else 2
        ]
        return [f"{node.name}_{n}" for n in names[: len(names) if _attr(node, "state_outputs", False) else 1]]
    total, visible = 1, 1
    if op in ("SliceChannel", "amp_multicast"):
        total = visible = int(_attr(node, "num_outputs", 1))
    elif op == "_split_v2":
        sections = int(_attr(node, "sections", 0))
        total = visible = sections or len(_attr(node, "indices", ()))
    elif op == "topk":
        # 'value' keeps the indices as a hidden second output; 'indices' and 'mask' have one output
        ret = _attr(node, "ret_typ", "indices")
        total, visible = (2, 2) if ret == "both" else (2, 1) if ret == "value" else (1, 1)
    elif op == "CTCLoss":
        return [f"{node.name}_output0"]
    elif op == "make_loss":
        return [f"{node.name}_loss"]
    elif op == "LeakyReLU" and _attr(node, "act_type", "leaky") == "rrelu":
        return [f"{node.name}_output", f"{node.name}_mask"]
    elif op in ("_contrib_box_nms", "_contrib_box_non_maximum_suppression"):
        total = 2
    elif op in ("_linalg_gelqf", "_linalg_slogdet", "_linalg_syevd", "moments", "_histogram"):
        total = visible = 2
    elif op in _MULTI_UPDATES:
        total = visible = int(_attr(node, "num_weights", 1))  # one updated weight per weight
    elif op in ("_sg_mkldnn_conv", "_sg_mkldnn_fully_connected"):
        quantized = node.attrs.get("quantized", "false").lower() in ("true", "1")
        if quantized and node.attrs.get("enable_float_output", "false").lower() not in ("true", "1"):
            names = ("output", "output_min", "output_max") if op == "_sg_mkldnn_conv" else (
                "output", "min_output", "max_output")
            return [f"{node.name}_{n}" for n in names]
    elif op in _QUANTIZATION_OUTPUTS:
        names = _QUANTIZATION_OUTPUTS[op]
        if op == "_contrib_quantized_elemwise_mul" and _attr(node, "enable_float_output", False):
            names = ("output",)
        return [f"{node.name}_{n}" for n in names]
    elif op in ("_contrib_quantize", "_contrib_quantize_v2", "_contrib_requantize"):
        total = visible = 3
    if total == 1:
        return [f"{node.name}_output"]
    return [f"{node.name}_output{i}" for i in range(visible)]


class SymNode:
    """A node of a symbol graph, shared by every Symbol that reaches it: ``op`` ('null' for a variable), the
    node's name, its attribute strings and its inputs as (node, output) pairs."""

    __slots__ = ("attrs", "inputs", "name", "op", "subgraphs")

    def __init__(self, op: str, name: str, attrs: dict[str, str], inputs: list[tuple[SymNode, int]],
                 subgraphs: list[dict[str, Any]] | None = None) -> None:
        self.op = op
        self.name = name
        self.attrs = attrs
        self.inputs = inputs
        self.subgraphs = subgraphs or []  # a fused operator's graphs (symbol.json documents)

    @property
    def is_variable(self) -> bool:
        return self.op == "null"

    def __repr__(self) -> str:
        return f"SymNode({self.op}, {self.name!r})"


_AMP_CASTS = ("amp_cast", "amp_multicast")


def _without_amp_casts(outputs: list[tuple[SymNode, int]]) -> list[tuple[SymNode, int]]:
    """A copy of the graph of ``outputs`` where every input that is an amp_cast / amp_multicast entry is
    replaced by that node's input (as MXNet's RemoveAmpCast, the casts that are outputs stay)."""
    heads = {id(n) for n, _ in outputs}
    copies: dict[int, SymNode] = {}

    def entry(node: SymNode, k: int) -> tuple[SymNode, int]:
        while node.op in _AMP_CASTS:
            node, k = node.inputs[k if node.op == "amp_multicast" else 0]
        return copies[id(node)], k

    kept = [n for n in _post_order(outputs) if n.op not in _AMP_CASTS or id(n) in heads]
    for node in kept:
        copies[id(node)] = SymNode(node.op, node.name, node.attrs, [], node.subgraphs)
    for node in kept:
        copies[id(node)].inputs = [entry(c, k) for c, k in node.inputs]
    return [(copies[id(n)], k) for n, k in outputs]


def is_symbol(value: Any) -> bool:
    """Whether ``value`` is a symbol graph (not a traced array that only passes for a Symbol)."""
    return isinstance(value, SymbolBase)


def _post_order(heads: list[tuple[SymNode, int]]) -> list[SymNode]:
    """The nodes the heads depend on, each after its inputs, in MXNet's depth-first order."""
    done: set[int] = set()
    out: list[SymNode] = []
    for head, _ in heads:
        if id(head) in done:
            continue
        stack: list[tuple[SymNode, int]] = [(head, 0)]
        while stack:
            node, k = stack[-1]
            if k < len(node.inputs):
                stack[-1] = (node, k + 1)
                child = node.inputs[k][0]
                if id(child) not in done:
                    stack.append((child, 0))
                continue
            stack.pop()
            if id(node) not in done:
                done.add(id(node))
                out.append(node)
    return out


class SymbolBase(SymbolOps):
    """Outputs of a symbol graph: MXNet's ``Symbol``.

    A Symbol is a list of (node, output) entries; nodes are shared, so composing Symbols (``fc(data)``,
    ``a + b``, ``Group``) builds one graph. ``graph`` / ``heads`` give it as the node list a symbol.json
    holds, which the interpreter runs.

    Args:
        outputs: the (node, output) entries.
        source: where the graph came from (named in error messages).
    """

    def __init__(self, outputs: list[tuple[SymNode, int]], source: str = "<symbol>") -> None:
        self._outputs = list(outputs)
        self._source = source
        self._view: tuple[SymbolGraph, list[tuple[int, int]]] | None = None

    # ---------------------------------------------------------------- construction
    @classmethod
    def _of_node(cls, node: SymNode) -> Symbol:
        """Every visible output of ``node``."""
        return cls([(node, k) for k in range(len(output_names(node)))])

    @classmethod
    def _from_graph(cls, graph: SymbolGraph, heads: list[tuple[int, int]] | None = None) -> Symbol:
        heads = graph.heads if heads is None else heads
        nodes = [SymNode(n.op, n.name, n.attrs, [], n.subgraphs) for n in graph.nodes]
        for n, raw in zip(nodes, graph.nodes):
            n.inputs = [(nodes[i], k) for i, k in raw.inputs]
        sym = cls([(nodes[i], k) for i, k in heads], graph.source)
        if heads == graph.heads:
            sym._view = (graph, list(heads))
        return sym

    def _single_entry(self, op: str) -> list[tuple[SymNode, int]]:
        if len(self._outputs) != 1:
            raise ValueError(
                f"{op}: an input Symbol must have one output, got {len(self._outputs)} "
                f"({', '.join(self.list_outputs()[:6])}); pick one with sym[i]"
            )
        return list(self._outputs)

    # ---------------------------------------------------------------- the graph as symbol.json nodes
    def _graph_view(self) -> tuple[SymbolGraph, list[tuple[int, int]]]:
        if self._view is None:
            order = _post_order(self._outputs)
            index = {id(n): i for i, n in enumerate(order)}
            nodes = [Node(n.op, n.name, n.attrs, [(index[id(c)], k) for c, k in n.inputs], i, n.subgraphs)
                     for i, n in enumerate(order)]
            heads = [(index[id(n)], k) for n, k in self._outputs]
            self._view = (SymbolGraph(nodes, heads, 10901, self._source), heads)
        return self._view

    @property
    def graph(self) -> SymbolGraph:
        return self._graph_view()[0]

    @property
    def heads(self) -> list[tuple[int, int]]:
        return list(self._graph_view()[1])

    def _nodes(self) -> list[SymNode]:
        return _post_order(self._outputs)

    # ---------------------------------------------------------------- names and listings
    @property
    def name(self) -> str | None:
        """The node name when every output comes from one node (None for a group of several nodes)."""
        first = self._outputs[0][0]
        return first.name if all(n is first for n, _ in self._outputs) else None

    def list_outputs(self) -> list[str]:
        """The names of the outputs (``fc1_output``, ``data``, ``split0_output1``)."""
        out = []
        for node, k in self._outputs:
            names = output_names(node)
            out.append(names[k] if k < len(names) else f"{node.name}_output{k}")
        return out

    def _aux_ids(self) -> set[int]:
        aux: set[int] = set()
        for node in self._nodes():
            spec = op_spec(node.op) if not node.is_variable else None
            if spec is None or not spec.aux:
                continue
            for pos, name in enumerate(spec.inputs):
                if name in spec.aux and pos < len(node.inputs) and node.inputs[pos][0].is_variable:
                    aux.add(id(node.inputs[pos][0]))
        return aux

    def list_inputs(self) -> list[str]:
        """Every variable the outputs depend on (arguments and auxiliary states), in MXNet's order."""
        return [n.name for n in self._nodes() if n.is_variable]

    def list_arguments(self) -> list[str]:
        """The variables that are not auxiliary states: inputs and learnable parameters, in MXNet's order."""
        aux = self._aux_ids()
        return [n.name for n in self._nodes() if n.is_variable and id(n) not in aux]

    def list_auxiliary_states(self) -> list[str]:
        """The variables operators update themselves (BatchNorm's ``moving_mean`` / ``moving_var``)."""
        aux = self._aux_ids()
        return [n.name for n in self._nodes() if n.is_variable and id(n) in aux]

    def get_internals(self) -> Symbol:
        """Every output of every node the outputs depend on, in order (for feature extraction by name)."""
        return type(self)([(n, k) for n in self._nodes() for k in range(len(output_names(n)))], self._source)

    def get_children(self) -> Symbol | None:
        """The inputs of the outputs' nodes (None for a variable)."""
        entries = [e for node, _ in self._outputs for e in node.inputs]
        return type(self)(entries, self._source) if entries else None

    def __len__(self) -> int:
        return len(self._outputs)

    def __iter__(self) -> Iterator[Symbol]:
        return (self[i] for i in range(len(self)))

    def __getitem__(self, index: int | str | slice) -> Symbol:
        n = len(self._outputs)
        if isinstance(index, slice):
            return Group([self[i] for i in range(*index.indices(n))])
        if isinstance(index, str):
            names = self.list_outputs()
            matches = [i for i, name in enumerate(names) if name == index]
            if not matches:
                raise ValueError(
                    f"Cannot find output that matches name {index!r}; outputs are {names[:8]}"
                    f"{' ...' if len(names) > 8 else ''}"
                )
            if len(matches) > 1:
                raise ValueError(f"There are multiple outputs with name {index!r}")
            index = matches[0]
        if isinstance(index, bool) or not isinstance(index, (int, np.integer)):
            raise TypeError(f"Symbol only support integer index to fetch i-th output, got {index!r}")
        if not -n <= index < n:
            raise IndexError(f"output {index} of a Symbol with {n} output(s)")
        return type(self)([self._outputs[int(index)]], self._source)

    # ---------------------------------------------------------------- attributes
    def attr(self, key: str) -> str | None:
        """An attribute of the outputs' node (None for a group of several nodes or an unknown key):
        ``'__shape__'``, ``'kernel'``, ``'lr_mult'`` (stored as ``__lr_mult__``)."""
        if self.name is None:
            return None
        attrs = self._outputs[0][0].attrs
        if key in attrs:
            return attrs[key]
        hidden = hidden_key(key)
        return attrs.get(hidden) if hidden else None

    def list_attr(self, recursive: bool = False) -> dict[str, str]:
        """The attributes of the outputs' node; the training keys appear both as stored (``__lr_mult__``) and
        plain (``lr_mult``), as MXNet lists them."""
        if recursive:
            raise DeprecationWarning(
                "Symbol.list_attr with recursive=True has been deprecated. Please use attr_dict instead."
            )
        return _listed(self._outputs[0][0].attrs)

    def attr_dict(self) -> dict[str, dict[str, str]]:
        """Every node's attributes by node name (nodes without attributes left out)."""
        return {n.name: _listed(n.attrs) for n in self._nodes() if n.attrs}

    def _set_attr(self, **kwargs: str) -> None:
        """Set attributes of the outputs' node (values are strings)."""
        for key, value in kwargs.items():
            if not isinstance(value, str):
                raise ValueError("Set Attr only accepts string values")
            hidden = hidden_key(key)
            for node in {id(n): n for n, _ in self._outputs}.values():
                node.attrs[hidden or key] = value

    # ---------------------------------------------------------------- composing
    def __copy__(self) -> Symbol:
        return self._deepcopy()

    def __deepcopy__(self, memo: Any) -> Symbol:
        return self._deepcopy()

    def _deepcopy(self, replace: dict[int, list[tuple[SymNode, int]]] | None = None) -> Symbol:
        """A copy with new nodes; ``replace`` maps a variable node's id to the entry standing in for it."""
        replace = replace or {}
        new: dict[int, SymNode] = {}
        for node in self._nodes():
            if id(node) in replace:
                continue
            copy = SymNode(node.op, node.name, dict(node.attrs), [], node.subgraphs)
            copy.inputs = [replace[id(c)][0] if id(c) in replace else (new[id(c)], k) for c, k in node.inputs]
            new[id(node)] = copy
        outputs = [replace[id(n)][0] if id(n) in replace else (new[id(n)], k) for n, k in self._outputs]
        return type(self)(outputs, self._source)

    def __call__(self, *args: Any, **kwargs: Any) -> Symbol:
        """A copy with its variables replaced by Symbols: positionally in ``list_arguments`` order, or by
        variable name; ``name`` renames the output node."""
        s = self.__copy__()
        s._compose(*args, **kwargs)
        return s

    def _compose(self, *args: Any, **kwargs: Any) -> None:
        """Replace this symbol's variables by Symbols (in place); see ``__call__``."""
        name = kwargs.pop("name", None)
        if args and kwargs:
            raise TypeError(
                "compose only accept input Symbols either as positional or keyword arguments, not both"
            )
        for value in (*args, *kwargs.values()):
            if not is_symbol(value):
                raise TypeError("Compose expect `Symbol` as arguments")
        variables = [n for n in self._nodes() if n.is_variable]
        aux = self._aux_ids()
        replace: dict[int, list[tuple[SymNode, int]]] = {}
        if args:
            free = [n for n in variables if id(n) not in aux]
            if len(args) > len(free):
                raise TypeError(f"compose: {len(args)} Symbols given for {len(free)} arguments")
            for node, value in zip(free, args):
                replace[id(node)] = value._single_entry("compose")
        else:
            by_name = {n.name: n for n in variables}
            for key, value in kwargs.items():
                if key in by_name:
                    replace[id(by_name[key])] = value._single_entry("compose")
        composed = self._deepcopy(replace)
        if name:
            for node in {id(n): n for n, _ in composed._outputs}.values():
                node.name = name
        self._outputs = composed._outputs
        self._view = None

    def get_backend_symbol(self, backend: str) -> Symbol:
        """This graph partitioned by a subgraph backend of MXNet 1.9.1's oneDNN build: 'MKLDNN_QUANTIZE'
        fuses Convolution [+ BatchNorm] [+ elemwise_add] [+ relu] into ``_sg_mkldnn_conv`` and
        FullyConnected [+ relu] into ``_sg_mkldnn_fully_connected`` (and, on a quantized graph, calibrated
        requantize / dequantize nodes into them); 'MKLDNN' makes the float fusions.

        Examples:
            >>> import cellonnx.mxnet as mx
            >>> x = mx.sym.Convolution(mx.sym.var("data"), kernel=(3, 3), num_filter=4, name="conv")
            >>> x = mx.sym.Activation(mx.sym.BatchNorm(x, name="bn"), act_type="relu", name="relu")
            >>> fused = x.get_backend_symbol("MKLDNN_QUANTIZE")
            >>> fused.list_outputs()
            ['sg_mkldnn_conv_bn_act_0_output']
        """
        from cellonnx.mxnet.contrib.quantization.mkldnn_partition import backend_symbol_json

        return load_json(backend_symbol_json(self.tojson(), backend))

    # ---------------------------------------------------------------- JSON
    def tojson(self, remove_amp_cast: bool = True) -> str:
        """The graph of these outputs as MXNet 1.9.1's symbol.json (what ``mx.sym.load_json`` reads); with
        ``remove_amp_cast`` (the default) without mixed precision's amp_cast / amp_multicast nodes."""
        if remove_amp_cast and any(n.op in _AMP_CASTS for n in _post_order(self._outputs)):
            return type(self)(_without_amp_casts(self._outputs), self._source).tojson(False)
        graph, heads = self._graph_view()
        nodes = []
        for node in graph.nodes:
            entry: dict[str, Any] = {"op": node.op, "name": node.name}
            if node.attrs:
                entry["attrs"] = dict(sorted(node.attrs.items()))
            spec = None if node.is_variable else op_spec(node.op)
            mutated = set() if spec is None else {p for p, n in enumerate(spec.inputs) if n in spec.aux}
            if node.subgraphs:  # a fused layer writes the batch norm statistics it holds
                from cellonnx.gluon.symbol.ops_mkldnn import mutated_inputs

                mutated = mutated_inputs(node)
            # an auxiliary state is written by its operator: MXNet records the variable's version as 1
            entry["inputs"] = [[i, k, int(pos in mutated and graph.nodes[i].is_variable)]
                               for pos, (i, k) in enumerate(node.inputs)]
            if node.subgraphs:
                entry["subgraphs"] = node.subgraphs
            nodes.append(entry)
        doc = {
            "nodes": nodes,
            "arg_nodes": [n.index for n in graph.nodes if n.is_variable],
            "node_row_ptr": _row_ptr(graph.nodes),
            "heads": [[i, k, 0] for i, k in heads],
            "attrs": {"mxnet_version": ["int", max(graph.version, 10901)]},
        }
        return dumps_graph(doc)

    def save(self, fname: str | os.PathLike[str], remove_amp_cast: bool = True) -> None:
        """Write ``tojson()`` to ``fname``."""
        if not isinstance(fname, (str, os.PathLike)):
            raise TypeError("fname required to be a string")
        with open(fname, "w", encoding="utf-8") as f:
            f.write(self.tojson(remove_amp_cast))

    def debug_str(self) -> str:
        """The graph as text: every node with its op, inputs and attributes."""
        lines = []
        for node in self._nodes():
            if node.is_variable:
                lines.append(f"Variable:{node.name}")
                continue
            lines.append("--------------------")
            lines.append(f"Op:{node.op}, Name={node.name}")
            lines.append("Inputs:")
            for i, (c, k) in enumerate(node.inputs):
                lines.append(f"\targ[{i}]={c.name}({k})" + (" version=0" if c.is_variable else ""))
            if node.attrs:
                lines.append("Attrs:")
                lines.extend(f"\t{k}={v}" for k, v in sorted(node.attrs.items()))
        heads = [f"\toutput[{i}]={n.name}({k})" for i, (n, k) in enumerate(self._outputs)]
        return "\n".join(["Symbol Outputs:", *heads, *lines]) + "\n"

    def __repr__(self) -> str:
        name = self.name
        if name is None:
            return f"<Symbol group [{', '.join(n.name for n, _ in self._outputs)}]>"
        return f"<Symbol {name}>"

    def __bool__(self) -> bool:
        raise NotImplementedError("The truth value of a Symbol is not defined (it has no value until bound)")

    def __getstate__(self) -> dict[str, Any]:
        return {"handle": self.tojson()}

    def __setstate__(self, state: dict[str, Any]) -> None:
        other = load_json(state["handle"])
        self.__dict__.update(other.__dict__)

    __hash__ = object.__hash__


class Symbol(SymbolBase, metaclass=ABCMeta):
    __doc__ = SymbolBase.__doc__


def _listed(attrs: dict[str, str]) -> dict[str, str]:
    out = dict(attrs)
    for key, value in attrs.items():
        if key.startswith("__") and key.endswith("__") and key[2:-2] in HIDDEN_KEYS:
            out[key[2:-2]] = value
    return out


def _row_ptr(nodes: list[Node]) -> list[int]:
    out = [0]
    for node in nodes:
        out.append(out[-1] + num_outputs(node))
    return out


def Group(symbols: list[Symbol]) -> Symbol:
    """One Symbol with the outputs of ``symbols``, in order.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> a, b = mx.sym.var('a'), mx.sym.var('b')
        >>> g = mx.sym.Group([mx.sym.relu(a, name='r'), mx.sym.broadcast_add(a, b, name='s')])
        >>> g.list_outputs()
        ['r_output', 's_output']
        >>> g.list_arguments()
        ['a', 'b']
    """
    if not symbols or any(not is_symbol(s) for s in symbols):
        raise TypeError("Expected a list of symbols as input")
    return Symbol([e for s in symbols for e in s._outputs], symbols[0]._source)


def load(fname: str | os.PathLike[str]) -> Symbol:
    """The outputs of a symbol.json file (any MXNet version's layout)."""
    if not isinstance(fname, (str, os.PathLike)):
        raise TypeError("fname required to be a string")
    return Symbol._from_graph(load_graph(fname))


def load_json(json_str: str) -> Symbol:
    """The outputs of a symbol.json held in a string."""
    if not isinstance(json_str, str):
        raise TypeError("json_str required to be a string")
    return Symbol._from_graph(parse_graph(json_str, "<json>"))


def var(name: str, attr: dict[str, str] | None = None, shape: Any = None, lr_mult: float | None = None,
        wd_mult: float | None = None, dtype: Any = None, init: Any = None, stype: str | None = None,
        **kwargs: Any) -> Symbol:
    """A variable: an input or a parameter of the graph.

    Args:
        name: the variable's name.
        attr: more attributes (strings), added to those of the current AttrScope.
        shape: its shape, used by shape inference (``__shape__``).
        lr_mult, wd_mult: learning-rate and weight-decay multipliers (``__lr_mult__``, ``__wd_mult__``).
        dtype: its dtype (``__dtype__``, MXNet's type flag).
        init: an initializer (or its JSON string) overriding the default one (``__init__``).
        stype: storage type ('default', 'row_sparse', 'csr').
        kwargs: more attributes; their names must start and end with double underscores.

    Returns:
        Symbol.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> data = mx.sym.var('data', shape=(2, 3), lr_mult=0.5)
        >>> data
        <Symbol data>
        >>> data.list_attr()['__shape__']
        '(2, 3)'
    """
    if not isinstance(name, str):
        raise TypeError("Expect a string for variable `name`")
    from cellonnx.gluon.symbol.compose import current_scope

    attrs = {}
    for key, value in current_scope().get(attr).items():
        attrs[hidden_key(key) or key] = value
    if shape is not None:
        attrs["__shape__"] = str(shape)
    if lr_mult is not None:
        attrs["__lr_mult__"] = str(lr_mult)
    if wd_mult is not None:
        attrs["__wd_mult__"] = str(wd_mult)
    if dtype is not None:
        attrs["__dtype__"] = str(_DTYPE_FLAGS[np.dtype(getattr(dtype, "np_dtype", dtype)).name])
    if init is not None:
        attrs["__init__"] = init if isinstance(init, str) else init.dumps()
    if stype is not None:
        attrs["__storage_type__"] = str(_STYPES[stype])
    for key, value in kwargs.items():
        if key.startswith("__") and key.endswith("__"):
            attrs[key] = str(value)
        else:
            raise ValueError(f"Attribute name={key} is not supported. Additional attributes must start and "
                             "end with double underscores, e.g, __yourattr__")
    return Symbol([(SymNode("null", name, attrs, []), 0)], f"<var {name}>")


Variable = var

_DTYPE_FLAGS = {"float32": 0, "float64": 1, "float16": 2, "uint8": 3, "int32": 4, "int8": 5, "int64": 6,
                "bool": 7, "int16": 8, "uint16": 9, "uint32": 10, "uint64": 11, "bfloat16": 12}
_STYPES = {"default": 0, "row_sparse": 1, "csr": 2}
