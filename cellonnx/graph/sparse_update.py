"""A plain SGD step on a scattered gradient, applied where the rows are.

An embedding's gradient is its rows scattered into zeros the size of the whole table (ScatterND with
reduction='add'), and SGD then scales and subtracts that whole table: ``p - lr * ScatterND(0, idx, rows)``,
three passes over the table besides the zero fill. ``scatter_sgd_rows`` rewrites it as one scatter into the
parameter, ``ScatterND(p, idx, -(lr * rows), reduction='add')``: a copy of the table and a pass over the
rows. Sums of repeated rows round in another order (each row is applied in turn), so the values agree with
the dense update to float32 rounding, not bit for bit.
"""
from __future__ import annotations

from collections import defaultdict

import numpy as np
import onnx
from onnx import helper, numpy_helper

_ONNX = ("", "ai.onnx")


def scatter_sgd_rows(model: onnx.ModelProto) -> bool:
    """Fold ``Sub(p, Mul(lr, ScatterND(zeros, idx, rows, reduction='add')))`` (lr a scalar) into a scatter
    into ``p``. Returns whether the graph changed."""
    g = model.graph
    if not any(n.op_type == "ScatterND" for n in g.node):
        return False
    producer = {o: n for n in g.node for o in n.output}
    readers: dict[str, list[onnx.NodeProto]] = defaultdict(list)
    for n in g.node:
        for i in n.input:
            readers[i].append(n)
    outputs = {o.name for o in g.output}
    consts = {t.name: t for t in g.initializer}
    scalars = _scalar_names(g)
    inputs = {i.name for i in g.input}
    changed = False
    added: list[tuple[onnx.NodeProto, onnx.NodeProto]] = []
    for sub in g.node:
        if sub.op_type != "Sub" or sub.domain not in _ONNX:
            continue
        mul = producer.get(sub.input[1])
        if mul is None or mul.op_type != "Mul" or len(readers[mul.output[0]]) != 1 \
                or mul.output[0] in outputs:
            continue
        for k in (0, 1):
            lr, s = mul.input[k], mul.input[1 - k]
            scatter = producer.get(s)
            if lr in scalars and scatter is not None and len(readers[s]) == 1 and s not in outputs \
                    and _is_scatter_add_into_zeros(scatter, producer, consts):
                break
        else:
            continue
        if sub.input[0] not in inputs:  # a parameter: its gradient has its shape
            continue
        rows = scatter.input[2]
        neg = helper.make_node("Neg", [lr], [f"{mul.output[0]}/neg_lr"], name=f"{mul.name}/neg_lr")
        del mul.input[:]
        mul.input.extend([neg.output[0], rows])  # the rows times -lr
        param = sub.input[0]
        sub.op_type = "ScatterND"
        del sub.input[:]
        sub.input.extend([param, scatter.input[1], mul.output[0]])
        del sub.attribute[:]
        sub.attribute.append(helper.make_attribute("reduction", "add"))
        added.append((mul, neg))
        changed = True
    if added:
        before = {id(m): n for m, n in added}
        nodes = []
        for n in g.node:
            if id(n) in before:
                nodes.append(before[id(n)])
            nodes.append(n)
        del g.node[:]
        g.node.extend(nodes)
    return changed  # the zero table and its scatter, now unread, go with the dead nodes


def _is_scatter_add_into_zeros(node: onnx.NodeProto, producer: dict, consts: dict) -> bool:
    if node.op_type != "ScatterND" or node.domain not in _ONNX:
        return False
    reduction = next((helper.get_attribute_value(a) for a in node.attribute if a.name == "reduction"),
                     b"none")
    if reduction not in (b"add", "add"):
        return False
    data = node.input[0]
    if data in consts:
        return not np.any(numpy_helper.to_array(consts[data]))
    fill = producer.get(data)
    if fill is None or fill.op_type != "ConstantOfShape":
        return False
    value = next((a.t for a in fill.attribute if a.name == "value"), None)
    return value is None or not np.any(numpy_helper.to_array(value))


def _scalar_names(g: onnx.GraphProto) -> set[str]:
    """Graph inputs and initializers holding one element (the learning rate)."""
    names = set()
    for vi in g.input:
        dims = vi.type.tensor_type.shape.dim
        if vi.type.tensor_type.HasField("shape") and all(d.HasField("dim_value") and d.dim_value == 1
                                                         for d in dims):
            names.add(vi.name)
    for t in g.initializer:
        if int(np.prod(t.dims)) == 1:
            names.add(t.name)
    return names
