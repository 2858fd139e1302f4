"""message_chunks: a model written in parts parses back to exactly the model SerializeToString writes."""
from __future__ import annotations

import numpy as np
import onnx
import pytest
from cellonnx.converters.proto_chunks import message_chunks, serialize
from onnx import TensorProto, helper, numpy_helper


def _model(with_subgraph: bool = False) -> onnx.ModelProto:
    rng = np.random.default_rng(0)
    w = numpy_helper.from_array(rng.standard_normal((4, 3)).astype(np.float32), "w")
    b = numpy_helper.from_array(np.arange(4, dtype=np.int64), "b")
    nodes = [helper.make_node("MatMul", ["x", "w"], ["y"], name="mm")]
    if with_subgraph:
        body = helper.make_graph([helper.make_node("Identity", ["y"], ["z_then"])], "then", [],
                                 [helper.make_tensor_value_info("z_then", TensorProto.FLOAT, None)])
        other = helper.make_graph([helper.make_node("Neg", ["y"], ["z_else"])], "else", [],
                                  [helper.make_tensor_value_info("z_else", TensorProto.FLOAT, None)])
        nodes.append(helper.make_node("If", ["c"], ["z"], then_branch=body, else_branch=other))
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 3])
    graph = helper.make_graph(nodes, "g", [x], [y], initializer=[w, b], doc_string="graph doc")
    graph.value_info.append(helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 3]))
    model = helper.make_model(graph, producer_name="test", opset_imports=[helper.make_opsetid("", 18)],
                              doc_string="model doc")
    model.model_version = 7
    helper.set_model_props(model, {"k": "v"})
    return model


@pytest.mark.parametrize("with_subgraph", [False, True])
def test_chunks_parse_to_the_same_model(with_subgraph: bool) -> None:
    model = _model(with_subgraph)
    chunks = message_chunks(model)
    assert len(chunks) > 2  # the model's fields, the graph's, one per initializer
    parsed = onnx.ModelProto.FromString(b"".join(chunks))
    assert parsed == model
    assert serialize(model) == b"".join(chunks)


def test_a_message_with_no_split_field_is_one_chunk() -> None:
    t = numpy_helper.from_array(np.ones(3, np.float32), "t")
    assert message_chunks(t) == [t.SerializeToString()]


def test_unknown_fields_are_kept() -> None:
    model = _model()
    # field 99 (length-delimited), unknown to ModelProto: it must survive a round trip
    raw = model.SerializeToString() + b"\x9a\x06\x03abc"
    with_unknown = onnx.ModelProto.FromString(raw)
    written = serialize(with_unknown)
    assert b"\x9a\x06\x03abc" in written
    assert onnx.ModelProto.FromString(written).SerializeToString() == with_unknown.SerializeToString()
