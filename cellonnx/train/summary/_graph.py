"""An ONNX graph as TensorBoard's GraphDef, grouped by cell scope.

cellonnx names each ONNX node after the cell that emitted it (``layer1.0.conv1/Conv``) and each initializer
after its parameter (``layer1.0.conv1.weight``). TensorBoard nests nodes by the ``/`` in their names, so the
dotted scope becomes a path (``layer1/0/conv1/Conv``, ``layer1/0/conv1/weight``) and the graph opens as the
network's tree of cells. Graph inputs are ``Input`` nodes, initializers ``Parameter`` nodes, the outputs
``Output`` nodes; every node keeps its ONNX attributes and, where shape inference knows them, its output
shapes.
"""
from __future__ import annotations

from typing import Any

import onnx


def _path(name: str) -> str:
    return "/".join(part for part in name.replace(".", "/").split("/") if part) or "node"


def _shape_proto(type_proto: Any) -> Any:
    from tensorboardX.proto.tensor_shape_pb2 import TensorShapeProto

    if not type_proto.HasField("tensor_type") or not type_proto.tensor_type.HasField("shape"):
        return TensorShapeProto(unknown_rank=True)
    dims = [d.dim_value if d.HasField("dim_value") else -1 for d in type_proto.tensor_type.shape.dim]
    return TensorShapeProto(dim=[TensorShapeProto.Dim(size=int(d)) for d in dims])


def _attr(a: onnx.AttributeProto) -> Any:
    from tensorboardX.proto.attr_value_pb2 import AttrValue

    value = onnx.helper.get_attribute_value(a)
    if a.type == onnx.AttributeProto.INT:
        return AttrValue(i=int(value))
    if a.type == onnx.AttributeProto.FLOAT:
        return AttrValue(f=float(value))
    if a.type == onnx.AttributeProto.STRING:
        return AttrValue(s=value)
    if a.type == onnx.AttributeProto.INTS:
        return AttrValue(list=AttrValue.ListValue(i=[int(v) for v in value]))
    if a.type == onnx.AttributeProto.FLOATS:
        return AttrValue(list=AttrValue.ListValue(f=[float(v) for v in value]))
    if a.type == onnx.AttributeProto.STRINGS:
        return AttrValue(list=AttrValue.ListValue(s=list(value)))
    if a.type == onnx.AttributeProto.TENSOR:
        kind = onnx.TensorProto.DataType.Name(value.data_type)
        return AttrValue(s=f"tensor {list(value.dims)} {kind}".encode())
    return AttrValue(s=onnx.AttributeProto.AttributeType.Name(a.type).encode())


def onnx_to_graph_def(model: onnx.ModelProto) -> Any:
    """TensorBoard's ``GraphDef`` (tensorboardX's proto) for ``model``'s main graph."""
    from tensorboardX.proto.attr_value_pb2 import AttrValue
    from tensorboardX.proto.graph_pb2 import GraphDef
    from tensorboardX.proto.node_def_pb2 import NodeDef
    from tensorboardX.proto.versions_pb2 import VersionDef

    try:
        model = onnx.shape_inference.infer_shapes(model)
    except Exception:  # noqa: BLE001 - shapes are a nicety; the graph is drawn without them
        pass
    graph = model.graph
    types = {v.name: v.type for v in (*graph.input, *graph.value_info, *graph.output)}
    used: set[str] = set()

    def unique(name: str) -> str:
        base, k = name, 1
        while name in used:
            name, k = f"{base}_{k}", k + 1
        used.add(name)
        return name

    producer: dict[str, str] = {}
    nodes = []
    initializers = {t.name: t for t in graph.initializer}
    for t in graph.initializer:
        name = unique(_path(t.name))
        producer[t.name] = name
        shape = AttrValue(list=AttrValue.ListValue(shape=[_shape_proto(onnx.helper.make_tensor_type_proto(
            t.data_type, list(t.dims)))]))
        nodes.append(NodeDef(name=name, op="Parameter", attr={"_output_shapes": shape}))
    for v in graph.input:
        if v.name in initializers:
            continue
        name = unique(_path(v.name))
        producer[v.name] = name
        shape = AttrValue(list=AttrValue.ListValue(shape=[_shape_proto(v.type)]))
        nodes.append(NodeDef(name=name, op="Input", attr={"_output_shapes": shape}))
    for i, node in enumerate(graph.node):
        name = unique(_path(node.name or (node.output[0] if node.output else f"{node.op_type}_{i}")))
        attr = {a.name: _attr(a) for a in node.attribute}
        shapes = [_shape_proto(types[o]) for o in node.output if o in types]
        if shapes and len(shapes) == len(node.output):
            attr["_output_shapes"] = AttrValue(list=AttrValue.ListValue(shape=shapes))
        inputs = [producer[x] for x in node.input if x in producer]
        nodes.append(NodeDef(name=name, op=node.op_type, input=inputs, attr=attr))
        for k, out in enumerate(node.output):
            producer[out] = name if k == 0 else f"{name}:{k}"
    for v in graph.output:
        name = unique(_path(f"outputs/{v.name}"))
        nodes.append(NodeDef(name=name, op="Output", input=[producer[v.name]] if v.name in producer else []))
    return GraphDef(node=nodes, versions=VersionDef(producer=22))
