"""cellonnx.graph.product_orient on small graphs: the transposed 2-D products it writes the other way round
(and those it leaves), with the same outputs from onnxruntime before and after."""
from __future__ import annotations

from collections import Counter

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper

from cellonnx.graph.product_orient import orient_transposed_products
from tests.tolerance import assert_close


def n(op: str, inputs: list[str], outputs: list[str], **attrs) -> onnx.NodeProto:
    return helper.make_node(op, inputs, outputs, **attrs)


def _grad(extra: list | None = None) -> list:
    # a Dense weight gradient as traced: (x^T @ dy)^T, x (rows, IN), dy (rows, OUT)
    return [n("Transpose", ["x"], ["xt"], perm=[1, 0]), n("MatMul", ["xt", "dy"], ["p"]),
            n("Transpose", ["p"], ["y"], perm=[1, 0]), *(extra or [])]


# name -> (nodes, IN, OUT, outputs, rewritten, op counts after)
CASES = {
    "more_rows_written_straight": (_grad(), 8, 24, ("y",), 1, {"Transpose": 1, "MatMul": 1}),
    "fewer_rows_kept": (_grad(), 24, 8, ("y",), 0, {"Transpose": 2, "MatMul": 1}),
    "square_kept": (_grad(), 16, 16, ("y",), 0, {"Transpose": 2, "MatMul": 1}),
    "product_read_elsewhere_kept": (_grad([n("Relu", ["p"], ["r"])]), 8, 24, ("y", "r"), 0,
                                    {"Transpose": 2, "MatMul": 1, "Relu": 1}),
    "operand_transpose_read_elsewhere_kept": (_grad([n("Relu", ["xt"], ["r"])]), 8, 24, ("y", "r"), 1,
                                              {"Transpose": 2, "MatMul": 1, "Relu": 1}),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_product_orient(name: str) -> None:
    nodes, cin, cout, outputs, rewritten, ops = CASES[name]
    inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["rows", cin]),
              helper.make_tensor_value_info("dy", TensorProto.FLOAT, ["rows", cout])]
    graph = helper.make_graph(nodes, "orient", inputs,
                              [helper.make_tensor_value_info(o, TensorProto.FLOAT, None) for o in outputs])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=9)
    rng = np.random.default_rng(0)
    feeds = {"x": rng.standard_normal((40, cin)).astype(np.float32),
             "dy": rng.standard_normal((40, cout)).astype(np.float32)}

    def run(m: onnx.ModelProto) -> list[np.ndarray]:
        sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
        return sess.run(None, feeds)

    want = run(model)
    out = onnx.ModelProto.FromString(model.SerializeToString())
    assert orient_transposed_products(out) == rewritten, name
    assert dict(Counter(nd.op_type for nd in out.graph.node)) == ops, name
    for k, (a, b) in enumerate(zip(run(out), want)):
        assert_close(a, b, rtol=1e-6, scale_rtol=1e-6, what=f"{name} output {k}")
