"""Reading MXNet's symbol.json: the node list, attributes and heads, in every layout MXNet wrote.

MXNet 1.x writes ``{"nodes": [{"op", "name", "attrs", "inputs": [[node, output, version]]}], "arg_nodes",
"node_row_ptr", "heads", "attrs": {"mxnet_version": ["int", 10901]}}``. Older files (0.8 - 0.11) keep the
operator's parameters in ``param`` and other attributes in ``attr``, carry ``backward_source_id`` and write
entries as ``[node, output]``; files before 0.9.0 also leave BatchNorm's auxiliary states out of the node's
inputs. Loading upgrades them as MXNet's own loader does (src/nnvm/legacy_json_util.cc): ``attrs`` / ``attr``
win over ``param``; the per-input hidden keys (``lr_mult``, ``weight_lr_mult``, ``ctx_group`` ...) are
dropped from operator nodes; the missing auxiliary states of pre-0.9 files become variables named
``<node>_<input>`` (``bn0_moving_mean``); and before 0.9.5 ``argmax`` / ``argmin`` with ``axis=-1`` meant
the whole array (no axis).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cellonnx.gluon.symbol.spec import op_spec

__all__ = ["Node", "SymbolFileError", "SymbolGraph", "load_graph", "parse_graph"]

HIDDEN_KEYS = ("ctx_group", "lr_mult", "wd_mult", "force_mirroring", "mirror_stage", "profiler_scope")
_V0_9_0, _V0_9_5 = 900, 905
_MAX_BYTES = 1 << 30


class SymbolFileError(ValueError):
    """A symbol.json that cannot be read: the message names the file, the node and what is wrong."""


@dataclass
class Node:
    """One node: ``op`` is 'null' for a variable (an input or a parameter)."""

    op: str
    name: str
    attrs: dict[str, str]
    inputs: list[tuple[int, int]]
    index: int
    subgraphs: list[dict[str, Any]] = field(default_factory=list)  # fused operators' graphs, as JSON

    @property
    def is_variable(self) -> bool:
        return self.op == "null"


@dataclass
class SymbolGraph:
    """A loaded symbol graph: nodes in file order, the heads (node, output) it computes, MXNet's version
    (10901 for 1.9.1; 800 when the file does not say) and where it came from (for messages)."""

    nodes: list[Node]
    heads: list[tuple[int, int]]
    version: int = 800
    source: str = "<symbol>"
    attrs: dict[str, Any] = field(default_factory=dict)

    def order(self, heads: list[tuple[int, int]] | None = None) -> list[int]:
        """The nodes the heads depend on, each after its inputs, in MXNet's depth-first order (the order of
        ``list_arguments``)."""
        heads = self.heads if heads is None else heads
        done: set[int] = set()
        out: list[int] = []
        for head, _ in heads:
            if head in done:
                continue
            stack: list[tuple[int, int]] = [(head, 0)]
            active = {head}
            while stack:
                nid, k = stack[-1]
                inputs = self.nodes[nid].inputs
                if k < len(inputs):
                    stack[-1] = (nid, k + 1)
                    child = inputs[k][0]
                    if child in active:
                        raise SymbolFileError(
                            f"{self.source}: the graph has a cycle through node '{self.nodes[child].name}'"
                        )
                    if child not in done:
                        stack.append((child, 0))
                        active.add(child)
                    continue
                stack.pop()
                active.discard(nid)
                done.add(nid)
                out.append(nid)
        return out

    def variables(self, heads: list[tuple[int, int]] | None = None) -> list[Node]:
        """The variable nodes the heads depend on, in ``list_inputs`` order."""
        return [self.nodes[i] for i in self.order(heads) if self.nodes[i].is_variable]

    def where(self, node: Node) -> str:
        return f"{self.source}: node {node.index} '{node.name}' ({node.op})"


def load_graph(path: str | os.PathLike[str]) -> SymbolGraph:
    """Read and upgrade a symbol.json file."""
    p = Path(path)
    try:
        size = p.stat().st_size
        if size > _MAX_BYTES:
            raise SymbolFileError(f"{p}: {size} bytes is too large for a symbol file")
        text = p.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        raise SymbolFileError(f"{p}: not a symbol.json file (not UTF-8 text)") from None
    except OSError as exc:
        raise SymbolFileError(f"{p}: {exc.strerror or exc}") from None
    return parse_graph(text, str(p))


def parse_graph(text: str | dict, source: str = "<symbol>") -> SymbolGraph:
    """A symbol graph from JSON text (or the parsed dict); ``source`` names it in messages."""
    if isinstance(text, dict):
        doc = text
    else:
        try:
            doc = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise SymbolFileError(
                f"{source}: not a symbol.json file: {type(exc).__name__}: {str(exc)[:200]}"
            ) from None
    if not isinstance(doc, dict) or not isinstance(doc.get("nodes"), list) or "heads" not in doc:
        raise SymbolFileError(
            f"{source}: not a symbol.json file (expected an object with 'nodes' and 'heads')"
        )
    attrs = doc.get("attrs") if isinstance(doc.get("attrs"), dict) else {}
    version = _version(attrs.get("mxnet_version"), source)
    nodes = [_node(raw, i, source) for i, raw in enumerate(doc["nodes"])]
    n = len(nodes)
    for node in nodes:
        for nid, _ in node.inputs:
            if not 0 <= nid < n:
                raise SymbolFileError(
                    f"{source}: node {node.index} '{node.name}' reads node {nid}, but the file has {n} nodes"
                )
    heads = _entries(doc["heads"], source, "heads")
    if not heads:
        raise SymbolFileError(f"{source}: the graph has no heads (outputs)")
    for nid, _ in heads:
        if not 0 <= nid < n:
            raise SymbolFileError(f"{source}: a head names node {nid}, but the file has {n} nodes")
    graph = SymbolGraph(nodes, heads, version, source, attrs)
    _upgrade(graph)
    return graph


def _version(value: Any, source: str) -> int:
    if value is None:
        return 800
    if isinstance(value, list) and len(value) == 2 and isinstance(value[1], int):
        return value[1]
    if isinstance(value, int):
        return value
    raise SymbolFileError(f"{source}: attrs.mxnet_version is {value!r}, expected ['int', N]")


def _entries(raw: Any, source: str, what: str) -> list[tuple[int, int]]:
    if not isinstance(raw, list):
        raise SymbolFileError(f"{source}: {what} is {type(raw).__name__}, expected a list of [node, output]")
    out = []
    for e in raw:
        if not (
            isinstance(e, list)
            and len(e) in (2, 3)
            and all(isinstance(v, int) and not isinstance(v, bool) for v in e)
        ):
            raise SymbolFileError(
                f"{source}: {what} has entry {e!r}, expected [node, output] or [node, output, version]"
            )
        out.append((e[0], e[1]))
    return out


def _strings(raw: Any, source: str, what: str) -> dict[str, str]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise SymbolFileError(f"{source}: {what} is {type(raw).__name__}, expected an object of strings")
    out = {}
    for k, v in raw.items():
        if not isinstance(v, str):
            raise SymbolFileError(f"{source}: {what} has {k}={v!r}; attribute values are strings")
        out[k] = v
    return out


def _node(raw: Any, index: int, source: str) -> Node:
    if (
        not isinstance(raw, dict)
        or not isinstance(raw.get("op"), str)
        or not isinstance(raw.get("name"), str)
    ):
        raise SymbolFileError(f"{source}: node {index} is not an object with string 'op' and 'name'")
    where = f"node {index} '{raw['name']}'"
    attrs = _strings(raw.get("param"), source, f"{where}: param")
    # 'attrs' and 'attr' win over 'param' (MXNet reads them into the node's dictionary first)
    attrs.update(_strings(raw.get("attr"), source, f"{where}: attr"))
    attrs.update(_strings(raw.get("attrs"), source, f"{where}: attrs"))
    inputs = _entries(raw.get("inputs", []), source, f"{where}: inputs")
    if raw["op"] != "null":
        attrs = {k: v for k, v in attrs.items() if not _hidden(k)}
    subgraphs = raw.get("subgraphs", [])
    if not isinstance(subgraphs, list) or not all(isinstance(g, dict) and "nodes" in g for g in subgraphs):
        raise SymbolFileError(f"{source}: {where}: subgraphs is not a list of graphs")
    return Node(raw["op"], raw["name"], attrs, inputs, index, subgraphs)


def _hidden(key: str) -> bool:
    """A per-input training attribute kept on operator nodes by old files (``lr_mult``,
    ``weight_lr_mult``)."""
    return any(key == h or (key.endswith("_" + h) and not key.startswith("__")) for h in HIDDEN_KEYS)


def _upgrade(graph: SymbolGraph) -> None:
    if graph.version < _V0_9_0:
        _add_aux_states(graph)
    if graph.version < _V0_9_5:
        for node in graph.nodes:
            if node.op in ("argmax", "argmin") and node.attrs.get("axis") == "-1":
                del node.attrs["axis"]


def _add_aux_states(graph: SymbolGraph) -> None:
    """Files before MXNet 0.9 leave auxiliary states (BatchNorm's moving statistics) out of the inputs."""
    for node in list(graph.nodes):
        spec = op_spec(node.op) if not node.is_variable else None
        if spec is None or not spec.aux or len(node.inputs) != len(spec.inputs) - len(spec.aux):
            continue
        for name in spec.inputs[len(node.inputs) :]:
            var = Node("null", f"{node.name}_{name}", {}, [], len(graph.nodes))
            graph.nodes.append(var)
            node.inputs.append((var.index, 0))
