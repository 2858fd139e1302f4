"""Sums over long contiguous runs, split so that every run onnxruntime adds is short (CPU training graphs).

onnxruntime's CPU ReduceSum / ReduceMean / GlobalAveragePool add the values of a contiguous reduced run (the
H x W plane of a batch norm's statistics, of a bias or a scale gradient) one after another, so their rounding
error grows with the run's length: over 112 x 112 planes of same-sign values it reached 7e-6 of the sum,
where NumPy's pairwise summation (the eager side) stays near 6e-8. In a batch norm's backward, whose
bracket ``g - mean(g) - xhat * mean(g * xhat)`` cancels, that error came out 100 times larger in the
gradient of the convolution before it than eager's (MobileNetV2's first layer, hybridized). Reducing the
last axis first (runs of W values), then the rest (runs of the N x H partial sums) keeps every run short and
the sums as accurate as NumPy's, for one more small node. onnxruntime's BatchNormalization (bn_train.py) is
accurate already and is left alone, as are the CUDA provider's reductions (a tree in each block).
"""
from __future__ import annotations

import numpy as np
import onnx
from onnx import helper, numpy_helper

_ONNX = ("", "ai.onnx")
_SUMS = {"ReduceSum": 13, "ReduceMean": 18}   # op -> the opset from which its axes are an input
LONG_RUN = 256   # contiguous reduced values past this: the last axis is summed on its own first


def split_long_reductions(model: onnx.ModelProto, inferred: tuple[dict, dict] | None = None) -> int:
    """Split each sum or mean over a trailing run of two or more axes holding more than LONG_RUN values
    into one over the last axis (kept as size 1) and the original over the rest (in place); returns how
    many were split. ``inferred``: (shapes, element types) from ONNX shape inference where the caller has
    them."""
    from cellonnx.graph.optimize import _inferred

    g = model.graph
    if not any(n.op_type in (*_SUMS, "GlobalAveragePool") and n.domain in _ONNX for n in g.node):
        return 0
    opset = next((o.version for o in model.opset_import if o.domain in _ONNX), 0)
    shapes = (inferred or _inferred(model))[0]
    consts = {t.name: t for t in g.initializer}
    out: list[onnx.NodeProto] = []
    split = 0
    for node in g.node:
        shape = shapes.get(node.input[0]) if node.input else None
        axes = _reduced_axes(node, consts, len(shape)) if shape is not None else None
        if axes is None or not _long_trailing_run(shape, axes):
            out.append(node)
            continue
        last = len(shape) - 1
        rows = f"{node.output[0]}/rows"
        if opset >= _SUMS["ReduceMean" if node.op_type == "GlobalAveragePool" else node.op_type]:
            name = f"{rows}_axes"
            g.initializer.append(numpy_helper.from_array(np.array([last], np.int64), name))
            first = helper.make_node("ReduceMean" if node.op_type == "GlobalAveragePool" else node.op_type,
                                     [node.input[0], name], [rows], keepdims=1, name=rows)
        else:
            first = helper.make_node("ReduceMean" if node.op_type == "GlobalAveragePool" else node.op_type,
                                     [node.input[0]], [rows], axes=[last], keepdims=1, name=rows)
        node.input[0] = rows
        out.extend([first, node])
        split += 1
    if split:
        del g.node[:]
        g.node.extend(out)
    return split


def _reduced_axes(node: onnx.NodeProto, consts: dict, rank: int) -> set[int] | None:
    """The axes ``node`` reduces (non-negative), or None for a node that is no plain sum or mean."""
    if node.domain not in _ONNX:
        return None
    if node.op_type == "GlobalAveragePool":
        return set(range(2, rank)) if rank >= 3 else None
    if node.op_type not in _SUMS:
        return None
    attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
    if len(node.input) > 1 and node.input[1]:
        if node.input[1] not in consts:
            return None   # axes computed in the graph
        axes = numpy_helper.to_array(consts[node.input[1]]).reshape(-1).tolist()
    else:
        axes = attrs.get("axes")
    if not axes:
        return None if attrs.get("noop_with_empty_axes", 0) else set(range(rank))
    return {int(a) % rank for a in axes}


def _long_trailing_run(shape: list, axes: set[int]) -> bool:
    """Whether the reduced axes end in a run of two or more trailing axes, static, whose last has more
    than one value and which together hold more than LONG_RUN."""
    rank = len(shape)
    start = rank
    while start > 0 and start - 1 in axes:
        start -= 1
    run = shape[start:]
    if len(run) < 2 or any(not isinstance(d, int) for d in run) or run[-1] < 2:
        return False
    return int(np.prod(run)) > LONG_RUN
