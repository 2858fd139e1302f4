"""Each clean-up pass of cellonnx.graph.optimize on a small graph written for it: the node types left after
optimize(), and the same outputs from onnxruntime before and after."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from cellonnx.graph.optimize import optimize
from tests.tolerance import assert_close

X = ("x", (2, 3, 4))


@dataclass
class Case:
    nodes: list
    want: dict[str, int]           # op type -> count after optimize (types not named: none left)
    consts: dict[str, np.ndarray] = field(default_factory=dict)
    outputs: tuple[str, ...] = ("y",)
    node_outputs: dict[str, int] = field(default_factory=dict)  # op type -> outputs it keeps


def n(op: str, inputs: list[str], outputs: list[str], **attrs) -> onnx.NodeProto:
    return helper.make_node(op, inputs, outputs, **attrs)


F = np.float32
CASES = {
    "transpose_pair_cancels": Case([n("Transpose", ["x"], ["t"], perm=[1, 0, 2]),
                                    n("Transpose", ["t"], ["u"], perm=[1, 0, 2]), n("Relu", ["u"], ["y"])],
                                   {"Relu": 1}),
    "transpose_pair_composes": Case([n("Transpose", ["x"], ["t"], perm=[1, 2, 0]),
                                     n("Transpose", ["t"], ["u"], perm=[1, 2, 0]), n("Relu", ["u"], ["y"])],
                                    {"Transpose": 1, "Relu": 1}),
    "transpose_pair_inner_shared": Case([n("Transpose", ["x"], ["t"], perm=[2, 1, 0]),
                                         n("Transpose", ["t"], ["u"], perm=[2, 1, 0]), n("Relu", ["t"], ["v"]),
                                         n("Relu", ["u"], ["y"])],
                                        {"Transpose": 1, "Relu": 2}, outputs=("y", "v")),
    "max_pool_unread_indices": Case([n("MaxPool", ["x"], ["y", "i"], kernel_shape=[2])], {"MaxPool": 1},
                                    node_outputs={"MaxPool": 1}),
    "max_pool_read_indices": Case([n("MaxPool", ["x"], ["y", "i"], kernel_shape=[2])], {"MaxPool": 1},
                                  outputs=("y", "i"), node_outputs={"MaxPool": 2}),
    "equal_constants_merge": Case([n("Add", ["x", "c1"], ["a"]), n("Add", ["x", "c2"], ["b"]),
                                   n("Mul", ["a", "b"], ["y"])], {"Add": 1, "Mul": 1},
                                  {"c1": np.full((4,), 0.5, F), "c2": np.full((4,), 0.5, F)}),
    "unequal_constants_stay": Case([n("Add", ["x", "c1"], ["a"]), n("Add", ["x", "c2"], ["b"]),
                                    n("Mul", ["a", "b"], ["y"])], {"Add": 2, "Mul": 1},
                                   {"c1": np.full((4,), 0.5, F), "c2": np.full((4,), 0.25, F)}),
    "common_subexpressions": Case([n("Exp", ["x"], ["a"]), n("Exp", ["x"], ["b"]), n("Sub", ["a", "b"], ["d"]),
                                   n("Add", ["d", "x"], ["y"])], {"Exp": 1, "Sub": 1, "Add": 1}),
    "constants_folded": Case([n("Add", ["c1", "c2"], ["c"]), n("Mul", ["x", "c"], ["y"])], {"Mul": 1},
                             {"c1": np.ones((4,), F), "c2": np.arange(4, dtype=F)}),
    "dead_nodes_dropped": Case([n("Exp", ["x"], ["unused"]), n("Relu", ["x"], ["y"])], {"Relu": 1}),
    "large_constant_of_shape_kept": Case(
        [n("ConstantOfShape", ["s"], ["z"], value=numpy_helper.from_array(np.zeros(1, F))),
         n("Reshape", ["x", "s1"], ["xf"]), n("Add", ["z", "xf"], ["y"])],
        {"ConstantOfShape": 1, "Reshape": 1, "Add": 1},
        {"s": np.asarray([1000, 24], np.int64), "s1": np.asarray([1, 24], np.int64)}),
    "small_constant_of_shape_folded": Case(
        [n("ConstantOfShape", ["s"], ["z"], value=numpy_helper.from_array(np.ones(1, F))),
         n("Add", ["z", "x"], ["y"])], {"Add": 1}, {"s": np.asarray([4], np.int64)}),
    # a traced layer-norm gradient's recomputed mean and 1 / sqrt(var + eps): the forward node's outputs
    "layer_norm_statistics_reused": Case(
        [n("LayerNormalization", ["x", "w", "b"], ["ln"], axis=-1, epsilon=1e-5),
         n("ReduceMean", ["x", "ax"], ["m"]), n("Sub", ["x", "m"], ["xc"]), n("Mul", ["xc", "xc"], ["sq"]),
         n("ReduceMean", ["sq", "ax"], ["v"]), n("Add", ["v", "eps"], ["ve"]), n("Sqrt", ["ve"], ["s"]),
         n("Reciprocal", ["s"], ["inv"]), n("Mul", ["xc", "inv"], ["xhat"]), n("Add", ["ln", "xhat"], ["y"])],
        {"LayerNormalization": 1, "Sub": 1, "Mul": 1, "Add": 1},
        {"w": np.linspace(0.5, 2, 4).astype(F), "b": np.arange(4, dtype=F), "ax": np.asarray([-1], np.int64),
         "eps": np.asarray(1e-5, F)}, node_outputs={"LayerNormalization": 3}),
    "layer_norm_other_epsilon_stays": Case(
        [n("LayerNormalization", ["x", "w", "b"], ["ln"], axis=-1, epsilon=1e-5),
         n("ReduceMean", ["x", "ax"], ["m"]), n("Sub", ["x", "m"], ["xc"]), n("Mul", ["xc", "xc"], ["sq"]),
         n("ReduceMean", ["sq", "ax"], ["v"]), n("Add", ["v", "eps"], ["ve"]), n("Sqrt", ["ve"], ["s"]),
         n("Reciprocal", ["s"], ["inv"]), n("Mul", ["xc", "inv"], ["xhat"]), n("Add", ["ln", "xhat"], ["y"])],
        {"LayerNormalization": 1, "ReduceMean": 2, "Sub": 1, "Mul": 2, "Add": 2, "Sqrt": 1, "Reciprocal": 1},
        {"w": np.linspace(0.5, 2, 4).astype(F), "b": np.arange(4, dtype=F), "ax": np.asarray([-1], np.int64),
         "eps": np.asarray(1e-3, F)}, node_outputs={"LayerNormalization": 1}),
    # SGD on an embedding-style gradient (rows scattered into zeros): one scatter into the parameter
    "sgd_on_scattered_rows": Case(
        [n("ConstantOfShape", ["shape"], ["z"], value=numpy_helper.from_array(np.zeros(1, F))),
         n("Relu", ["x"], ["rows"]), n("ScatterND", ["z", "idx", "rows"], ["grad"], reduction="add"),
         n("Mul", ["lr", "grad"], ["step"]), n("Sub", ["x", "step"], ["y"])],
        {"Relu": 1, "Mul": 1, "ScatterND": 1},  # -lr folded
        {"shape": np.asarray([2, 3, 4], np.int64), "idx": np.asarray([[1], [1]], np.int64),
         "lr": np.asarray(0.25, F)}),
    "sgd_on_scattered_rows_into_ones_stays": Case(
        [n("ConstantOfShape", ["shape"], ["z"], value=numpy_helper.from_array(np.ones(1, F))),
         n("Relu", ["x"], ["rows"]), n("ScatterND", ["z", "idx", "rows"], ["grad"], reduction="add"),
         n("Mul", ["lr", "grad"], ["step"]), n("Sub", ["x", "step"], ["y"])],
        {"Relu": 1, "Mul": 1, "ScatterND": 1, "Sub": 1},
        {"shape": np.asarray([2, 3, 4], np.int64), "idx": np.asarray([[1], [1]], np.int64),
         "lr": np.asarray(0.25, F)}),
}


def _model(case: Case) -> onnx.ModelProto:
    inputs = [helper.make_tensor_value_info(X[0], TensorProto.FLOAT, X[1])]
    graph = helper.make_graph(case.nodes, "passes", inputs,
                              [helper.make_tensor_value_info(o, TensorProto.INT64 if o == "i" else TensorProto.FLOAT,
                                                             None) for o in case.outputs],
                              initializer=[numpy_helper.from_array(v, k) for k, v in case.consts.items()])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=9)


def _run(model: onnx.ModelProto, x: np.ndarray) -> list[np.ndarray]:
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, {"x": x})


@pytest.mark.parametrize("name", sorted(CASES))
def test_pass(name: str) -> None:
    case = CASES[name]
    model = _model(case)
    x = np.random.default_rng(0).standard_normal(X[1]).astype(np.float32)
    want = _run(model, x)
    out = optimize(onnx.ModelProto.FromString(model.SerializeToString()))
    assert dict(Counter(n.op_type for n in out.graph.node)) == case.want, name
    for op, count in case.node_outputs.items():
        assert [len(n.output) for n in out.graph.node if n.op_type == op] == [count], name
    for k, (a, b) in enumerate(zip(_run(out, x), want)):
        assert_close(a, b, rtol=1e-6, scale_rtol=1e-7, what=f"{name} output {k}")
