"""Per-channel scales and shifts of (N, C, H, W) tensors as onnxruntime's BatchNormalization kernel.

Batch norm's training forward and backward, traced in ops, multiply, add and subtract per-channel vectors of
shape (C, 1, 1) or (1, C, 1, 1) over whole activations. onnxruntime's CPU broadcasting runs those a few
pixels at a time where the planes are small: at ResNet-18's (32, 256, 2, 2) a Mul and an Add of (256, 1, 1)
vectors took 5x one BatchNormalization node computing the same ``x * scale + bias`` (bench/RESULTS.md).
BatchNormalization with mean 0, variance 1 and epsilon 0 is exactly that affine map (its 1 / sqrt(1 + 0) is
1), so the numbers are the same: a Mul followed by an Add or Sub of per-channel vectors becomes one node, and
a lone per-channel Mul, Add or Sub one node where the planes have at most LONE_MAX_PIXELS pixels (on larger
planes the broadcast kernel is as fast).

CPU graphs only (cuDNN's batch norm refuses an epsilon below 1e-5).
"""
from __future__ import annotations

import math

import numpy as np
import onnx
from onnx import helper, numpy_helper

_ONNX = ("", "ai.onnx")
_FLOATS = {onnx.TensorProto.FLOAT: np.float32, onnx.TensorProto.DOUBLE: np.float64}
LONE_MAX_PIXELS = 64


def fuse_channel_affines(model: onnx.ModelProto, inferred: tuple[dict, dict] | None = None) -> int:
    """Rewrite the per-channel Mul / Add / Sub nodes of ``model`` as BatchNormalization (in place); returns
    how many BatchNormalization nodes were made. ``inferred``: (shapes, element types) from ONNX shape
    inference where the caller has them."""
    g = model.graph
    if not any(n.op_type in ("Mul", "Add", "Sub") for n in g.node):
        return 0
    from cellonnx.graph.optimize import _inferred

    shapes, types = inferred or _inferred(model)
    readers: dict[str, list[onnx.NodeProto]] = {}
    for n in g.node:
        for i in n.input:
            readers.setdefault(i, []).append(n)
    graph_outputs = {o.name for o in g.output}
    consts: dict[tuple, str] = {}
    replaced: dict[int, list[onnx.NodeProto]] = {}   # id of the node whose place the new nodes take
    gone: set[int] = set()
    for node in g.node:
        if id(node) in gone or id(node) in replaced:
            continue
        found = _per_channel(node, shapes, types)
        if found is None:
            continue
        x, vec, c, dtype = found
        scale, bias, last = None, None, node
        if node.op_type == "Mul":
            scale = vec
            after = readers.get(node.output[0], [])
            if len(after) == 1 and node.output[0] not in graph_outputs and id(after[0]) not in replaced:
                nxt = after[0]
                more = _per_channel(nxt, shapes, types)
                if more is not None and more[0] == node.output[0] and more[2] == c and nxt.op_type != "Mul":
                    bias, last = more[1], nxt
        elif node.op_type == "Add":
            bias = vec
        else:
            bias = vec
        if last is node and math.prod(int(d) for d in shapes[x][2:]) > LONE_MAX_PIXELS:
            continue
        base = last.output[0]
        nodes: list[onnx.NodeProto] = []

        s = _flat(g, consts, nodes, scale, c, f"{base}/scale") if scale is not None else \
            _const(g, consts, "ones", (c,), dtype, np.ones(c))
        if bias is None:
            b = _const(g, consts, "zeros", (c,), dtype, np.zeros(c))
        else:
            b = _flat(g, consts, nodes, bias, c, f"{base}/bias")
            if last.op_type == "Sub":
                nodes.append(helper.make_node("Neg", [b], [f"{base}/neg_bias"], name=f"{base}/Neg"))
                b = f"{base}/neg_bias"
        nodes.append(helper.make_node(
            "BatchNormalization",
            [x, s, b, _const(g, consts, "zeros", (c,), dtype, np.zeros(c)),
             _const(g, consts, "ones", (c,), dtype, np.ones(c))], [base], name=f"{base}/ChannelAffine",
            epsilon=0.0))
        replaced[id(last)] = nodes
        if last is not node:
            gone.add(id(node))
    if not replaced:
        return 0
    kept: list[onnx.NodeProto] = []
    for n in g.node:
        if id(n) in gone:
            continue
        kept.extend(replaced.get(id(n), [n]))
    copies = []
    for n in kept:
        c = onnx.NodeProto()
        c.CopyFrom(n)
        copies.append(c)
    del g.node[:]
    g.node.extend(copies)
    return len(replaced)


def _per_channel(node: onnx.NodeProto, shapes: dict, types: dict) -> tuple[str, str, int, type] | None:
    """(the activation, the per-channel vector, C, the NumPy dtype) when ``node`` is an elementwise Mul / Add
    / Sub of an (N, C, *) activation with static non-batch dims by a (C, 1, ...) or (1, C, 1, ...) vector
    (for Sub, the activation first)."""
    if node.op_type not in ("Mul", "Add", "Sub") or node.domain not in _ONNX or len(node.input) != 2:
        return None
    orders = [(0, 1)] if node.op_type == "Sub" else [(0, 1), (1, 0)]
    for i, j in orders:
        x, v = node.input[i], node.input[j]
        xs, vs = shapes.get(x), shapes.get(v)
        dtype = _FLOATS.get(types.get(x))
        if xs is None or vs is None or dtype is None or types.get(v) != types.get(x) or len(xs) < 3:
            continue
        if not all(isinstance(d, int) and d > 0 for d in xs[1:]):
            continue
        c, rest = xs[1], [1] * (len(xs) - 2)
        if list(vs) in ([c, *rest], [1, c, *rest]):
            return x, v, c, dtype
    return None


def _flat(g: onnx.GraphProto, consts: dict, nodes: list, v: str, c: int, out: str) -> str:
    """``v`` (C, 1, ...) or (1, C, 1, ...) reshaped to (C,) (a view in onnxruntime)."""
    shape = _const(g, consts, f"shape_{c}", (1,), np.int64, [c])
    nodes.append(helper.make_node("Reshape", [v, shape], [out], name=f"{out}/Reshape"))
    return out


def _const(g: onnx.GraphProto, cache: dict, what: str, shape: tuple, dtype: type, values) -> str:
    key = (what, shape, np.dtype(dtype).str)
    if key not in cache:
        name = f"channel_affine/{what}_{'x'.join(map(str, shape))}_{np.dtype(dtype).name}"
        g.initializer.append(numpy_helper.from_array(np.asarray(values, dtype).reshape(shape), name))
        cache[key] = name
    return cache[key]
