"""Layer norm's saved statistics: a traced gradient recomputes the mean and 1 / sqrt(var + eps) of the
forward's input (ReduceMean, Sub, Mul, ReduceMean, Add, Sqrt, Reciprocal); a LayerNormalization node over
the same input, axes and epsilon (opset 17) computes both anyway as its optional Mean and InvStdDev outputs.
``layer_norm_statistics`` asks the forward node for them and drops the recomputation (what is left of it,
``x - mean`` for the normalised input, stays).
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

import numpy as np
import onnx
from onnx import helper, numpy_helper

_ONNX = ("", "ai.onnx")


def layer_norm_statistics(model: onnx.ModelProto,
                          inferred: Callable[[], tuple[dict[str, list], dict[str, int]]]) -> bool:
    """Rewire recomputed layer-norm statistics to the forward node's Mean / InvStdDev outputs.

    ``inferred`` gives (shapes, element types) from ONNX shape inference; it is called only when the graph
    has a candidate. Float32 inputs only: the statistics' type is the node's stash_type (float32)."""
    g = model.graph
    readers: dict[str, list[onnx.NodeProto]] = defaultdict(list)
    for n in g.node:
        for i in n.input:
            readers[i].append(n)
    norms = [n for n in g.node if n.op_type == "LayerNormalization" and n.domain in _ONNX
             and not any(o for o in n.output[1:])
             and any(r.op_type == "ReduceMean" for r in readers[n.input[0]])]
    if not norms:
        return False
    shapes, types = inferred()
    consts = {t.name: t for t in g.initializer}
    order = {id(n): k for k, n in enumerate(g.node)}
    graph_outputs = {o.name for o in g.output}
    drop: set[int] = set()
    for ln in norms:
        x = ln.input[0]
        rank = len(shapes.get(x) or [])
        if not rank or types.get(x) != onnx.TensorProto.FLOAT or _attr(ln, "stash_type", 1) != 1:
            continue
        axis = _attr(ln, "axis", -1)
        axes = list(range(axis % rank, rank))
        eps = np.float32(_attr(ln, "epsilon", 1e-5))
        for mean in readers[x]:
            found = _recomputed(mean, x, axes, rank, eps, readers, consts, graph_outputs)
            if found is None or order[id(mean)] < order[id(ln)]:
                continue
            inv = found
            del ln.output[1:]
            ln.output.extend([mean.output[0], inv.output[0]])
            drop |= {id(mean), id(inv)}
            break
    if not drop:
        return False
    keep = [n for n in g.node if id(n) not in drop]
    del g.node[:]
    g.node.extend(keep)
    return True  # the Mul / ReduceMean / Add / Sqrt left unread go with the dead nodes


def _recomputed(mean: onnx.NodeProto, x: str, axes: list[int], rank: int, eps: np.float32,
                readers: dict, consts: dict, graph_outputs: set[str]) -> onnx.NodeProto | None:
    """The Reciprocal ending ``1 / sqrt(mean((x - m)^2) + eps)`` with ``m = mean`` (a ReduceMean of x over
    ``axes``), or None."""
    if not _is_mean(mean, x, axes, rank, consts):
        return None
    m = mean.output[0]
    for sub in readers[m]:
        if sub.op_type != "Sub" or list(sub.input) != [x, m]:
            continue
        xc = sub.output[0]
        for sq in readers[xc]:
            if sq.op_type != "Mul" or list(sq.input) != [xc, xc]:
                continue
            for var in readers[sq.output[0]]:
                if not _is_mean(var, sq.output[0], axes, rank, consts):
                    continue
                inv = _inv_sqrt_plus(var.output[0], eps, readers, consts)
                if inv is not None and inv.output[0] not in graph_outputs:
                    return inv
    return None


def _inv_sqrt_plus(v: str, eps: np.float32, readers: dict, consts: dict) -> onnx.NodeProto | None:
    for add in readers[v]:
        if add.op_type != "Add" or add.domain not in _ONNX or v not in add.input:
            continue
        other = add.input[1] if add.input[0] == v else add.input[0]
        value = _const(other, consts)
        if value is None or value.size != 1 or np.float32(value.reshape(())) != eps:
            continue
        for sqrt in readers[add.output[0]]:
            if sqrt.op_type != "Sqrt":
                continue
            for rec in readers[sqrt.output[0]]:
                if rec.op_type == "Reciprocal":
                    return rec
    return None


def _is_mean(node: onnx.NodeProto, x: str, axes: list[int], rank: int, consts: dict) -> bool:
    if node.op_type != "ReduceMean" or node.domain not in _ONNX or not node.input or node.input[0] != x:
        return False
    if _attr(node, "keepdims", 1) != 1:
        return False
    if len(node.input) > 1 and node.input[1]:
        value = _const(node.input[1], consts)
        if value is None:
            return False
        got = value.reshape(-1).tolist()
    else:
        got = _attr(node, "axes", None)
        if got is None:
            return False
    return sorted(int(a) % rank for a in got) == axes


def _const(name: str, consts: dict) -> np.ndarray | None:
    t = consts.get(name)
    return None if t is None else numpy_helper.to_array(t)


def _attr(node: onnx.NodeProto, name: str, default):
    for a in node.attribute:
        if a.name == name:
            return helper.get_attribute_value(a)
    return default
