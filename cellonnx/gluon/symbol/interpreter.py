"""Evaluating a symbol graph with cellonnx ops: every operator node is looked up in the op table, its
attribute strings are parsed once by the operator's declared kinds, and running the program calls each
node's implementation on its inputs' tensors. Because the implementations are cellonnx ops, a run executes
eagerly, records gradients and, while a block is traced, emits ONNX nodes.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from cellonnx.gluon.symbol.attrs import AttrError, parse_attr
from cellonnx.gluon.symbol.graph import Node, SymbolGraph
from cellonnx.gluon.symbol.spec import OpSpec, op_spec
from cellonnx.gluon.symbol.table import IGNORED_ATTRS, Row, row_of
from cellonnx.tensor import Tensor

__all__ = ["Program", "Step", "SymbolError"]


class SymbolError(ValueError):
    """A graph the interpreter cannot run: an unknown operator or attribute, or an operator that failed; the
    message names the file, the node and the operator."""


@dataclass
class Step:
    """One operator node, ready to run."""

    node: Node
    spec: OpSpec
    row: Row
    attrs: dict[str, Any]
    inputs: list[tuple[int, int]]


def _accepted(fn: Callable[..., Any]) -> set[str] | None:
    """The keyword names ``fn`` declares (None when it only takes ``**kwargs``)."""
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return None
    names = {p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    return names or None


def _calibrates(key: str, accepted: set[str] | None) -> bool:
    """Whether ``key`` is a calibrated range the operator computes with (the quantization operators
    declare min_calib_range / max_calib_range; for any other operator they only describe the graph)."""
    return key in ("min_calib_range", "max_calib_range") and accepted is not None and key in accepted


def parse_node_attrs(graph: SymbolGraph, node: Node, spec: OpSpec, row: Row) -> dict[str, Any]:
    """The node's attributes as Python values. Double-underscore attributes (``__profiler_scope__``,
    ``__layout__``) describe the node to MXNet's tools and are not the operator's."""
    if spec.name == "Custom":  # the Python operator takes its keyword arguments as strings
        from cellonnx.gluon.symbol.custom_op import custom_attrs

        return custom_attrs(node.attrs)
    from cellonnx.gluon.symbol.ops_mkldnn import SUBGRAPH_OPS, subgraph_attrs

    if spec.name in SUBGRAPH_OPS:  # oneDNN's fused layers read their subgraph and attribute strings
        return subgraph_attrs(node)
    accepted = _accepted(row.fn)
    out: dict[str, Any] = {}
    for key, text in node.attrs.items():
        if key.startswith("__") and key.endswith("__"):
            continue
        attr = spec.attrs.get(key)
        if attr is None and key in IGNORED_ATTRS:
            continue
        if attr is None:
            raise SymbolError(
                f"{graph.where(node)}: unknown attribute {key}={text!r}; {spec.name} takes "
                f"{', '.join(sorted(spec.attrs)) or 'no attributes'}"
            )
        try:
            value = parse_attr(attr, text)
        except AttrError as exc:
            raise SymbolError(f"{graph.where(node)}: attribute {key}: {exc}") from None
        if key in row.ignored or (key in IGNORED_ATTRS and not _calibrates(key, accepted)):
            continue
        if accepted is not None and key not in accepted:
            default = None if attr.default is None else parse_attr(attr, attr.default)
            if value != default:
                raise SymbolError(
                    f"{graph.where(node)}: attribute {key}={text!r} is not supported by cellonnx "
                    f"(only MXNet's default {attr.default!r})"
                )
            continue
        out[key] = value
    missing = [k for k, a in spec.attrs.items() if a.required and k not in node.attrs]
    if missing:
        raise SymbolError(f"{graph.where(node)}: required attribute(s) {', '.join(missing)} missing")
    return out


class Program:
    """A symbol graph compiled against the op table: ``run`` computes the heads from the variables' values.

    Args:
        graph: the loaded graph.
        heads: the (node, output) entries to compute (default: the graph's heads).

    Raises:
        SymbolError: an operator is unknown to MXNet 1.9.1 or has no row in the op table, or an attribute is
            unknown, does not parse, or takes a value cellonnx does not support.
    """

    def __init__(self, graph: SymbolGraph, heads: list[tuple[int, int]] | None = None) -> None:
        self.graph = graph
        self.heads = list(graph.heads if heads is None else heads)
        self.steps: list[Step] = []
        self.variables: list[Node] = []
        for nid in graph.order(self.heads):
            node = graph.nodes[nid]
            if node.is_variable:
                self.variables.append(node)
                continue
            spec = op_spec(node.op)
            if spec is None:
                raise SymbolError(
                    f"{graph.where(node)}: unknown operator {node.op!r} (not an operator of MXNet 1.9.1)"
                )
            row = row_of(spec.name)
            if row is None:
                raise SymbolError(
                    f"{graph.where(node)}: operator {spec.name} is not supported by cellonnx's "
                    "symbol interpreter"
                )
            attrs = parse_node_attrs(graph, node, spec, row)
            self.steps.append(Step(node, spec, row, attrs, list(node.inputs)))

    def run(
        self, values: Mapping[str, Tensor], hook: Callable[[Step, list[Tensor]], None] | None = None,
        after: Callable[[Step, Any], None] | None = None,
    ) -> list[Tensor]:
        """The heads' values, given every variable's value by name. ``hook(step, inputs)`` runs before each
        operator (deferred parameter shapes are settled there), ``after(step, result)`` after it (an
        executor's monitor sees every operator's outputs there)."""
        graph = self.graph
        results: dict[int, Any] = {}
        for node in self.variables:
            if node.name not in values:
                raise SymbolError(f"{graph.source}: no value for variable '{node.name}'")
            results[node.index] = values[node.name]
        for step in self.steps:
            inputs = [_output(graph, results, nid, k) for nid, k in step.inputs]
            if hook is not None:
                hook(step, inputs)
            try:
                results[step.node.index] = step.row.fn(*inputs, **step.attrs)
            except SymbolError:
                raise
            except (ValueError, TypeError, NotImplementedError, IndexError, KeyError) as exc:
                shapes = ", ".join(str(tuple(t.shape)) for t in inputs if isinstance(t, Tensor))
                raise SymbolError(f"{graph.where(step.node)} with inputs {shapes}: {exc}") from exc
            if after is not None:
                after(step, results[step.node.index])
        return [_output(graph, results, nid, k) for nid, k in self.heads]


def _output(graph: SymbolGraph, results: dict[int, Any], nid: int, k: int) -> Any:
    value = results[nid]
    if isinstance(value, (tuple, list)):
        if not 0 <= k < len(value):
            node = graph.nodes[nid]
            raise SymbolError(
                f"{graph.where(node)}: output {k} is read, the operator has {len(value)} output(s)"
            )
        return value[k]
    if k != 0:
        # operators whose extra outputs are internal to MXNet (BatchNorm's mean / var, Dropout's mask)
        raise SymbolError(
            f"{graph.where(graph.nodes[nid])}: output {k} is read, cellonnx computes only its first output"
        )
    return value
