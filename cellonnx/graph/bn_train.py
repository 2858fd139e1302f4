"""Batch norm's training statistics as one onnxruntime BatchNormalization node (CPU step graphs).

Batch norm's training forward is traced in ops (cellonnx/ops/prims/norm.py ``BatchNormTrain``): ReduceMean
of x over (N, H, W), Sub, Mul, ReduceMean, Add eps, Sqrt, Reciprocal, Mul; the gradient's ops form lowers
to the same nodes, which common-subexpression elimination merges, so one chain serves both. On an
activation that is four passes over x plus two writes, and onnxruntime's broadcasting Sub / Mul run a few
pixels at a time on small planes. BatchNormalization with ``training_mode=1`` (opset 15) computes the batch
mean and biased batch variance in one kernel: with scale 1, bias 0 and momentum 0 its running-statistic
outputs are the batch statistics, bit for bit those of the chain.

``batch_norm_statistics`` rewrites each such chain over a 4-d float input: the node's statistics take the
names (through a Reshape back to (1, C, 1, 1)) of the two ReduceMeans, so every reader (``x - mean``, the
reciprocal square root, the gradient, the moving statistics) reads them unchanged, and the square of
``x - mean`` goes with the dead nodes. The node's normalised output is left unread: ``xhat`` stays the
chain's ``(x - mean) * inv``, the product batch norm's backward is written in, so the graph rounds as eager
does. (Read in its place, the node's output was as accurate on a well-conditioned batch and no faster in
ResNet-18's step, bench/RESULTS.md "NCHWc convolutions"; an earlier reading that it was less accurate came
from a batch of 2, whose gradient float32 rounding anywhere moves as much.) CPU graphs only (the CUDA
provider's batch norm is cuDNN's, untested here, and refuses an epsilon below 1e-5).
"""
from __future__ import annotations

from collections import defaultdict

import numpy as np
import onnx
from onnx import helper, numpy_helper

from cellonnx.graph.norm_stats import _const, _is_mean

_ONNX = ("", "ai.onnx")
_FLOATS = {onnx.TensorProto.FLOAT: np.float32, onnx.TensorProto.DOUBLE: np.float64}
_AXES = [0, 2, 3]


def batch_norm_statistics(model: onnx.ModelProto, inferred: tuple[dict, dict] | None = None) -> int:
    """Replace batch norm's decomposed training statistics by BatchNormalization nodes in training mode (in
    place); returns how many were made. Needs opset 15 or later."""
    g = model.graph
    opset = next((o.version for o in model.opset_import if o.domain in _ONNX), 0)
    if opset < 15 or not any(n.op_type == "ReduceMean" for n in g.node):
        return 0
    readers: dict[str, list[onnx.NodeProto]] = defaultdict(list)
    for n in g.node:
        for i in n.input:
            readers[i].append(n)
    consts = {t.name: t for t in g.initializer}
    graph_outputs = {o.name for o in g.output}
    chains = []
    for mean in g.node:
        found = _chain(mean, readers, consts, graph_outputs)
        if found is not None:
            chains.append((mean, *found))
    if not chains:
        return 0
    from cellonnx.graph.optimize import _drop_dead, _inferred

    shapes, types = inferred or _inferred(model)
    order = {id(n): k for k, n in enumerate(g.node)}
    made: dict[int, list[onnx.NodeProto]] = {}   # id of the node whose place the new nodes take
    vectors: dict[tuple, str] = {}
    for mean, var, eps, xhat in chains:
        x = mean.input[0]
        shape, elem = shapes.get(x), types.get(x)
        if not order[id(mean)] < order[id(var)] < order[id(xhat)] or elem not in _FLOATS \
                or shape is None or len(shape) != 4 or not isinstance(shape[1], int):
            continue
        c, dtype = shape[1], _FLOATS[elem]
        # input_mean / input_var (multiplied by momentum 0) are runtime values, the first C values of x and
        # their squares, never initializers: onnxruntime writes the running statistics over those inputs'
        # buffers, and its ConstantSharing merges equal initializers (a ones vector read as another node's
        # scale or variance would be overwritten)
        ones, zeros = (_vector(g, vectors, value, c, dtype, role) for value, role in ((1.0, "scale"),
                                                                                     (0.0, "bias")))
        base = xhat.name or xhat.output[0]
        mean_c, var_c = f"{base}/batch_mean", f"{base}/batch_var"
        mean_in, var_in = f"{base}/mean_in", f"{base}/var_in"
        flat = _vector(g, vectors, None, 0, np.int64, "flat")
        first = [helper.make_node("Reshape", [x, flat], [f"{base}/flat"], name=f"{base}/flat"),
                 helper.make_node("Slice", [f"{base}/flat", _vector(g, vectors, 0, 1, np.int64, "start"),
                                            _vector(g, vectors, c, 1, np.int64, f"end_{c}")], [mean_in],
                                  name=f"{base}/mean_in"),
                 helper.make_node("Mul", [mean_in, mean_in], [var_in], name=f"{base}/var_in")]
        bn = helper.make_node("BatchNormalization", [x, ones, zeros, mean_in, var_in],
                              [f"{base}/y_unread", mean_c, var_c], name=f"{base}/BatchNormTraining",
                              epsilon=float(eps), momentum=0.0, training_mode=1)
        keep_shape = _vector(g, vectors, None, 0, np.int64, "shape")
        back = [helper.make_node("Reshape", [mean_c, keep_shape], [mean.output[0]], name=f"{base}/mean"),
                helper.make_node("Reshape", [var_c, keep_shape], [var.output[0]], name=f"{base}/var")]
        # the node goes where the mean was (x is ready there); its readers all come after the mean
        made[id(mean)] = [*first, bn, back[0]]
        made[id(var)] = [back[1]]
    if not made:
        return 0
    nodes = []
    for n in g.node:
        nodes.extend(made.get(id(n), [n]))
    del g.node[:]
    g.node.extend(nodes)
    _drop_dead(model)
    return sum(1 for new in made.values() for nd in new if nd.op_type == "BatchNormalization")


def _chain(mean: onnx.NodeProto, readers: dict, consts: dict, graph_outputs: set[str]) -> tuple | None:
    """(variance ReduceMean, epsilon, xhat Mul) of ``xhat = (x - m) * 1 / sqrt(mean((x - m)^2) + eps)`` with
    ``m = mean``, a ReduceMean over (N, H, W) of a 4-d x, or None."""
    if mean.op_type != "ReduceMean" or not _is_mean(mean, mean.input[0], _AXES, 4, consts):
        return None
    x, m = mean.input[0], mean.output[0]
    for sub in readers[m]:
        if sub.op_type != "Sub" or sub.domain not in _ONNX or list(sub.input) != [x, m]:
            continue
        xc = sub.output[0]
        for sq in readers[xc]:
            if sq.op_type != "Mul" or list(sq.input) != [xc, xc]:
                continue
            for var in readers[sq.output[0]]:
                if not _is_mean(var, sq.output[0], _AXES, 4, consts) or var.output[0] in graph_outputs:
                    continue
                found = _inv_sqrt_plus(var.output[0], readers, consts)
                if found is None:
                    continue
                eps, inv = found
                for xhat in readers[xc]:
                    if xhat.op_type == "Mul" and sorted(xhat.input) == sorted([xc, inv]) \
                            and xhat.domain in _ONNX:
                        return var, eps, xhat
    return None


def _inv_sqrt_plus(v: str, readers: dict, consts: dict) -> tuple[float, str] | None:
    """(eps, the name of 1 / sqrt(v + eps)) for a scalar constant eps >= 0 added to ``v``, or None."""
    for add in readers[v]:
        if add.op_type != "Add" or add.domain not in _ONNX or v not in add.input:
            continue
        value = _const(add.input[1] if add.input[0] == v else add.input[0], consts)
        if value is None or value.size != 1 or not float(value.reshape(())) >= 0:
            continue
        for sqrt in readers[add.output[0]]:
            if sqrt.op_type != "Sqrt":
                continue
            for rec in readers[sqrt.output[0]]:
                if rec.op_type == "Reciprocal":
                    return float(value.reshape(())), rec.output[0]
    return None


def _vector(g: onnx.GraphProto, made: dict, value: float | None, c: int, dtype: type, role: str) -> str:
    """An initializer for one input ``role`` of the new nodes: ``c`` copies of ``value`` in ``dtype``; with
    value None the Reshape target (-1) for role "flat", else (1, -1, 1, 1)."""
    key = (role, c, np.dtype(dtype).name)
    if key not in made:
        if value is None:
            arr = np.array([-1] if role == "flat" else [1, -1, 1, 1], np.int64)
        else:
            arr = np.full(c, value, dtype)
        name = f"batch_norm_training/{role}_{c}_{np.dtype(dtype).name}"
        g.initializer.append(numpy_helper.from_array(arr, name))
        made[key] = name
    return made[key]
