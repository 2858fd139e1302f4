"""Clean-up passes that traced training steps need most (cellonnx.graph.optimize runs them with the others).

- ``compose_transposes``: a Transpose of a Transpose becomes one Transpose of the original value, or none
  where the two cancel (a gradient's transpose undoing the forward's).
- ``trim_optional_outputs``: trailing optional outputs nobody reads are dropped, so that onnxruntime picks
  the kernel that does not compute them (MaxPool without Indices is several times faster).
- ``dedupe_constants``: equal small constants become one, so that the nodes reading them can be merged by
  common-subexpression elimination.
"""
from __future__ import annotations

from collections.abc import Collection

import onnx
from onnx import helper

# op type -> how many outputs it must keep (the rest are optional)
_OPTIONAL_TAIL = {"MaxPool": 1, "Dropout": 1, "LayerNormalization": 1, "SoftmaxCrossEntropyLoss": 1}
_DEDUPE_LIMIT = 4096  # bytes: constants up to this size are compared


def compose_transposes(model: onnx.ModelProto) -> bool:
    g = model.graph
    producer = {o: n for n in g.node for o in n.output}
    changed = False
    for node in g.node:
        if node.op_type != "Transpose" or node.domain not in ("", "ai.onnx"):
            continue
        inner = producer.get(node.input[0])
        if inner is None or inner.op_type != "Transpose" or inner.domain not in ("", "ai.onnx"):
            continue
        outer_perm, inner_perm = _perm(node), _perm(inner)
        if outer_perm is None or inner_perm is None or len(outer_perm) != len(inner_perm):
            continue
        perm = [inner_perm[p] for p in outer_perm]  # y[i] = t[outer[i]] = x[inner[outer[i]]]
        node.input[0] = inner.input[0]
        del node.attribute[:]
        if perm == list(range(len(perm))):
            node.op_type = "Identity"  # dropped by the Identity pass
        else:
            node.attribute.append(helper.make_attribute("perm", perm))
        changed = True
    return changed  # an inner Transpose nobody reads any more goes with the dead nodes


def _perm(node: onnx.NodeProto) -> list[int] | None:
    for a in node.attribute:
        if a.name == "perm":
            return list(a.ints)
    return None


def trim_optional_outputs(model: onnx.ModelProto) -> bool:
    g = model.graph
    read = {i for n in g.node for i in n.input} | {o.name for o in g.output}
    for n in g.node:
        for a in n.attribute:
            if a.type == onnx.AttributeProto.GRAPH:
                read |= {i for sub in a.g.node for i in sub.input}
    changed = False
    for node in g.node:
        keep = _OPTIONAL_TAIL.get(node.op_type)
        if keep is None or node.domain not in ("", "ai.onnx"):
            continue
        while len(node.output) > keep and node.output[-1] not in read:
            del node.output[-1]
            changed = True
    return changed


def dedupe_constants(model: onnx.ModelProto, params: Collection[str]) -> bool:
    g = model.graph
    seen: dict[tuple, str] = {}
    rename: dict[str, str] = {}
    fixed = set(params) | {i.name for i in g.input} | {o.name for o in g.output}
    for t in g.initializer:
        if t.name in fixed or t.data_location == onnx.TensorProto.EXTERNAL:
            continue
        data = t.SerializeToString() if not t.raw_data else t.raw_data
        if len(data) > _DEDUPE_LIMIT:
            continue
        if not t.raw_data:  # typed fields: compare them without the name
            copy = onnx.TensorProto()
            copy.CopyFrom(t)
            copy.name = ""
            data = copy.SerializeToString()
        key = (t.data_type, tuple(t.dims), data)
        if key in seen:
            rename[t.name] = seen[key]
        else:
            seen[key] = t.name
    if not rename:
        return False
    for node in g.node:
        for i, name in enumerate(node.input):
            if name in rename:
                node.input[i] = rename[name]
        for a in node.attribute:
            if a.type == onnx.AttributeProto.GRAPH:
                for sub in a.g.node:
                    for i, name in enumerate(sub.input):
                        if name in rename:
                            sub.input[i] = rename[name]
    return bool(rename)  # the copies, now unread, go with the dead initializers
