"""Shape and type inference over a symbol graph, as ``Symbol.infer_shape`` / ``infer_type`` give them.

Shapes: the nodes are visited in order; a variable's shape is the one given, or its ``__shape__``; an
operator whose data input's shape is known gives its parameter inputs theirs by the op table's rules
(param_shapes.py: FullyConnected's weight from num_hidden and the data ...), an elementwise operator gives an
unknown operand the other's shape, and the operator then runs once on arrays of zeros of those shapes
(without recording gradients), so its output shapes are exactly what the interpreter computes.
Types follow MXNet's rules: an operator's inputs and outputs share one dtype, except the operators whose
``dtype`` attribute names the output's, index inputs (labels, indices, lengths) and BatchNorm's float32
parameters under float16 data.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from cellonnx.gluon.symbol.attrs import parse_tuple
from cellonnx.gluon.symbol.graph import Node, SymbolGraph
from cellonnx.gluon.symbol.spec import op_spec

__all__ = ["infer_shape", "infer_type"]

_ELEMWISE = frozenset({
    "elemwise_add", "elemwise_sub", "elemwise_mul", "elemwise_div", "_power", "_mod", "_maximum", "_minimum",
    "_hypot", "_equal", "_not_equal", "_greater", "_greater_equal", "_lesser", "_lesser_equal",
    "_logical_and", "_logical_or", "_logical_xor", "add_n", "where",
})
_INDEX_INPUTS = frozenset({"label", "index", "indices", "sequence_length", "length", "data_lengths",
                           "label_lengths", "condition"})
_DTYPE_OUTPUT = frozenset({"Cast", "amp_cast", "_zeros", "_ones", "_full", "_arange", "_linspace", "_eye",
                           "one_hot", "argsort", "Embedding", "_contrib_arange_like"})
_INT64_OUTPUT = frozenset({"shape_array", "size_array"})


def _variables(graph: SymbolGraph, heads: list[tuple[int, int]]) -> tuple[list[Node], list[Node]]:
    """The graph's (arguments, auxiliary states) as variable nodes, in MXNet's order."""
    order = graph.order(heads)
    aux: set[int] = set()
    for nid in order:
        node = graph.nodes[nid]
        spec = op_spec(node.op) if not node.is_variable else None
        if spec is None or not spec.aux:
            continue
        for pos, name in enumerate(spec.inputs):
            if name in spec.aux and pos < len(node.inputs) and graph.nodes[node.inputs[pos][0]].is_variable:
                aux.add(node.inputs[pos][0])
    variables = [graph.nodes[i] for i in order if graph.nodes[i].is_variable]
    return [n for n in variables if n.index not in aux], [n for n in variables if n.index in aux]


def _given(symbol: Any, args: tuple, kwargs: dict[str, Any], what: str) -> dict[str, Any]:
    if args and kwargs:
        raise ValueError(f"Can only specify known argument {what} either by positional or kwargs way.")
    if args:
        names = symbol.list_arguments()
        return {names[i]: v for i, v in enumerate(args) if v is not None}
    return dict(kwargs)


# ---------------------------------------------------------------- types
def _np_type(value: Any) -> type | None:
    if value is None:
        return None
    return np.dtype(getattr(value, "np_dtype", value)).type


def _flag_type(text: str | None) -> type | None:
    if text is None:
        return None
    from cellonnx.gluon.symbol.block import _TYPE_FLAGS

    try:
        return np.dtype(_TYPE_FLAGS[int(text)]).type
    except (ValueError, KeyError):
        try:
            return np.dtype(text).type
        except TypeError:
            return None


def _dtype_attr(node: Node) -> type | None:
    text = node.attrs.get("dtype")
    if text is None:
        spec = op_spec(node.op)
        text = spec.attrs["dtype"].default if spec is not None and "dtype" in spec.attrs else None
    if text in (None, "None"):
        return np.float32 if node.op != "Cast" else None
    return np.dtype(text).type


def _types(
    graph: SymbolGraph, heads: list[tuple[int, int]], known: dict[str, Any]
) -> dict[tuple[int, int], Any]:
    types: dict[tuple[int, int], Any] = {}
    for nid in graph.order(heads):
        node = graph.nodes[nid]
        if node.is_variable:
            t = _np_type(known.get(node.name)) or _flag_type(node.attrs.get("__dtype__"))
            if t is not None:
                types[(nid, 0)] = t
            continue
        spec = op_spec(node.op)
        names = list(spec.inputs) if spec is not None and spec.variadic is None else []
        data = [(i, k) for pos, (i, k) in enumerate(node.inputs)
                if not (pos < len(names) and names[pos] in _INDEX_INPUTS)
                and not (spec is not None and spec.name == "Embedding" and pos == 0)]
        common = next((types[e] for e in data if e in types), None)
        op = spec.name if spec is not None else node.op
        if op == "Embedding":
            common = _dtype_attr(node)
        param_type = np.float32 if op.startswith("BatchNorm") and common == np.float16 else common
        for pos, e in enumerate(data):
            if e not in types and common is not None and graph.nodes[e[0]].is_variable:
                types[e] = common if pos == 0 else param_type
        for pos, e in enumerate(node.inputs):
            if e in types or not graph.nodes[e[0]].is_variable:
                continue
            if op == "Embedding" and pos == 0:
                types[e] = np.float32
            elif pos < len(names) and names[pos] in _INDEX_INPUTS and common is not None:
                types[e] = common
        if op in _DTYPE_OUTPUT:
            out = _dtype_attr(node) or common
        elif op in _INT64_OUTPUT:
            out = np.int64
        else:
            out = common
        if out is None:
            continue
        from cellonnx.gluon.symbol.symbol import num_outputs

        for k in range(num_outputs(node)):
            types[(nid, k)] = out
        if op == "topk" and node.attrs.get("ret_typ") == "both":
            types[(nid, 1)] = _dtype_attr(node)
    return types


def infer_type(symbol: Any, args: tuple, kwargs: dict[str, Any], partial: bool) -> tuple:
    known = _given(symbol, args, kwargs, "types")
    graph, heads = symbol._graph_view()
    types = _types(graph, heads, known)
    arg_nodes, aux_nodes = _variables(graph, heads)
    arg = [types.get((n.index, 0)) for n in arg_nodes]
    out = [types.get(h) for h in heads]
    aux = [types.get((n.index, 0)) for n in aux_nodes]
    if not partial and any(t is None for t in (*arg, *out, *aux)):
        unknown = [n.name for n, t in zip(arg_nodes + aux_nodes, arg + aux) if t is None]
        warnings.warn("Cannot decide type for the following arguments. Consider providing them as input:\n\t"
                      + "\n\t".join(f"{n}: None" for n in unknown), stacklevel=3)
        return None, None, None
    return arg, out, aux


# ---------------------------------------------------------------- shapes
def _declared_shape(node: Node) -> tuple | None:
    text = node.attrs.get("__shape__")
    if not text:
        return None
    try:
        shape = parse_tuple(text, int)
    except ValueError:
        return None
    return None if any(d is None or d == 0 for d in shape) else tuple(shape)


def _zeros(shape: tuple, dtype: Any, fill: float) -> Any:
    from cellonnx.mxnet.ndarray.ndarray import NDArray
    from cellonnx.tensor import Tensor

    t = Tensor._make(np.full(shape, fill, dtype=dtype or np.float32))
    t.__class__ = NDArray
    return t


def _run_op(graph: SymbolGraph, node: Node, inputs: list[tuple], dtypes: list[Any]) -> list[tuple]:
    from cellonnx import autograd as core_autograd
    from cellonnx.gluon import autograd
    from cellonnx.gluon.symbol.interpreter import SymbolError, parse_node_attrs
    from cellonnx.gluon.symbol.table import row_of

    spec = op_spec(node.op)
    row = row_of(spec.name) if spec is not None else None
    if spec is None or row is None:
        raise SymbolError(f"{graph.where(node)}: operator {node.op!r} is not supported by cellonnx's symbol "
                          "interpreter, so its output shape cannot be inferred")
    attrs = parse_node_attrs(graph, node, spec, row)
    error: Exception | None = None
    for fill in (0.0, 1.0):
        values = [_zeros(s, t, fill) for s, t in zip(inputs, dtypes)]
        try:
            with core_autograd.no_grad(), autograd.predict_mode(), np.errstate(all="ignore"), \
                    warnings.catch_warnings():
                warnings.simplefilter("ignore")
                out = row.fn(*values, **attrs)
        except (ValueError, TypeError, IndexError, KeyError, np.linalg.LinAlgError,
                NotImplementedError) as exc:
            error = exc
            continue
        outs = list(out) if isinstance(out, (tuple, list)) else [out]
        return [tuple(int(d) for d in o.shape) for o in outs]
    raise SymbolError(f"{graph.where(node)} with input shapes {inputs}: {error}")


def _param_shapes(graph: SymbolGraph, node: Node, data_shape: tuple) -> dict[str, tuple]:
    from cellonnx.gluon.symbol.interpreter import parse_node_attrs
    from cellonnx.gluon.symbol.param_shapes import PARAM_SHAPES
    from cellonnx.gluon.symbol.table import row_of

    spec = op_spec(node.op)
    rule = PARAM_SHAPES.get(spec.name) if spec is not None else None
    row = row_of(spec.name) if spec is not None else None
    if rule is None or row is None:
        return {}
    return rule(parse_node_attrs(graph, node, spec, row), data_shape)


def shapes_of(graph: SymbolGraph, heads: list[tuple[int, int]], known: dict[str, tuple],
              types: dict[tuple[int, int], Any], partial: bool) -> dict[tuple[int, int], tuple]:
    """Every (node, output) entry's shape that can be inferred."""
    from cellonnx.gluon.symbol.compose import node_inputs
    from cellonnx.gluon.symbol.symbol import num_outputs

    shapes: dict[tuple[int, int], tuple] = {}
    for nid in graph.order(heads):
        node = graph.nodes[nid]
        if node.is_variable:
            s = known.get(node.name)
            s = tuple(s) if s is not None else _declared_shape(node)
            if s is not None:
                shapes[(nid, 0)] = s
            continue
        spec = op_spec(node.op)
        entries = list(node.inputs)
        if entries and entries[0] in shapes:
            try:
                names = node_inputs(spec.name, node.attrs) if spec is not None else None
            except ValueError:
                names = None
            names = names or []
            if any(e not in shapes and graph.nodes[e[0]].is_variable for e in entries):
                rules = _param_shapes(graph, node, shapes[entries[0]])
                for pos, e in enumerate(entries):
                    if e not in shapes and pos < len(names) and names[pos] in rules:
                        shapes[e] = tuple(rules[names[pos]])
        if spec is not None and spec.name in _ELEMWISE:
            ref = next((shapes[e] for e in entries if e in shapes), None)
            for e in entries:
                if ref is not None and e not in shapes and graph.nodes[e[0]].is_variable \
                        and spec.name != "where":
                    shapes[e] = ref
        if any(e not in shapes for e in entries):
            continue
        try:
            outs = _run_op(graph, node, [shapes[e] for e in entries], [types.get(e) for e in entries])
        except Exception:
            if partial:
                continue
            raise
        for k in range(num_outputs(node)):
            if k < len(outs):
                shapes[(nid, k)] = outs[k]
    return shapes


def infer_shape(symbol: Any, args: tuple, kwargs: dict[str, Any], partial: bool) -> tuple:
    known = _given(symbol, args, kwargs, "shapes")
    for name, value in known.items():
        if not isinstance(value, tuple):
            raise TypeError(f"Arguments need to be shapes (tuple), but '{name}' is {type(value)}.")
    graph, heads = symbol._graph_view()
    types = _types(graph, heads, {})
    shapes = shapes_of(graph, heads, known, types, partial)
    arg_nodes, aux_nodes = _variables(graph, heads)
    arg = [shapes.get((n.index, 0)) for n in arg_nodes]
    out = [shapes.get(h) for h in heads]
    aux = [shapes.get((n.index, 0)) for n in aux_nodes]
    if partial:
        return [s or () for s in arg], [s or () for s in out], [s or () for s in aux]
    if any(s is None for s in (*arg, *out, *aux)):
        unknown = [n.name for n, s in zip(arg_nodes + aux_nodes, arg + aux) if s is None]
        warnings.warn("Cannot decide shape for the following arguments (0s in shape means unknown "
                      "dimensions). Consider providing them as input:\n\t"
                      + "\n\t".join(f"{n}: ()" for n in unknown), stacklevel=3)
        return None, None, None
    return arg, out, aux
