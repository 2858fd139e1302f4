"""Per-channel Mul / Add / Sub as BatchNormalization (cellonnx/graph/channel_affine.py), on small graphs
written for it: the node types left, and the same outputs from onnxruntime before and after."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper

from cellonnx.graph.channel_affine import LONE_MAX_PIXELS, fuse_channel_affines
from tests.tolerance import assert_close


def n(op: str, inputs: list[str], outputs: list[str], **attrs) -> onnx.NodeProto:
    return helper.make_node(op, inputs, outputs, **attrs)


@dataclass
class Case:
    nodes: list
    want: dict[str, int]                      # op types counted after the pass (Mul, Add, Sub, BN)
    inputs: dict[str, tuple] = field(default_factory=dict)
    outputs: tuple[str, ...] = ("y",)
    dtype: int = TensorProto.FLOAT


X = ("N", 3, 2, 2)                             # dynamic batch, small planes
VEC = {"x": X, "s": (3, 1, 1), "t": (1, 3, 1, 1)}
BIG = (2, 3, 9, 9)                             # planes above LONE_MAX_PIXELS
COUNTED = ("Mul", "Add", "Sub", "BatchNormalization")
CASES = {
    "mul_add_pair": Case([n("Mul", ["x", "s"], ["m"]), n("Add", ["t", "m"], ["y"])],
                         {"BatchNormalization": 1}, VEC),
    "mul_sub_pair": Case([n("Mul", ["s", "x"], ["m"]), n("Sub", ["m", "t"], ["y"])],
                         {"BatchNormalization": 1}, VEC),
    "pair_on_large_planes": Case([n("Mul", ["x", "s"], ["m"]), n("Add", ["m", "t"], ["y"])],
                                 {"BatchNormalization": 1}, {**VEC, "x": BIG}),
    "lone_mul": Case([n("Mul", ["x", "s"], ["y"])], {"BatchNormalization": 1}, VEC),
    "lone_sub": Case([n("Sub", ["x", "t"], ["y"])], {"BatchNormalization": 1}, VEC),
    "lone_add_on_large_planes_stays": Case([n("Add", ["x", "t"], ["y"])], {"Add": 1}, {**VEC, "x": BIG}),
    "vector_minus_activation_stays": Case([n("Sub", ["t", "x"], ["y"])], {"Sub": 1}, VEC),
    "mul_read_twice_two_nodes": Case([n("Mul", ["x", "s"], ["m"]), n("Add", ["m", "t"], ["y"]),
                                      n("Relu", ["m"], ["r"])], {"BatchNormalization": 2}, VEC,
                                     outputs=("y", "r")),
    "full_size_operand_stays": Case([n("Mul", ["x", "z"], ["y"])], {"Mul": 1}, {"x": X, "z": X}),
    "integers_stay": Case([n("Mul", ["x", "s"], ["y"])], {"Mul": 1}, VEC, dtype=TensorProto.INT32),
    "rank_two_stays": Case([n("Mul", ["x", "s"], ["y"])], {"Mul": 1}, {"x": ("N", 3), "s": (3,)}),
}


def _model(case: Case) -> onnx.ModelProto:
    graph = helper.make_graph(
        case.nodes, "affine",
        [helper.make_tensor_value_info(k, case.dtype, list(v)) for k, v in case.inputs.items()],
        [helper.make_tensor_value_info(o, case.dtype, list(case.inputs["x"])) for o in case.outputs])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def _run(model: onnx.ModelProto, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, feeds)


@pytest.mark.parametrize("name", sorted(CASES))
def test_channel_affine(name: str) -> None:
    case = CASES[name]
    rng = np.random.default_rng(0)
    dtype = np.int32 if case.dtype == TensorProto.INT32 else np.float32
    feeds = {k: (rng.standard_normal([2 if d == "N" else d for d in v]) * 4).astype(dtype)
             for k, v in case.inputs.items()}
    model = _model(case)
    want = _run(model, feeds)
    fuse_channel_affines(model)
    onnx.checker.check_model(model)
    counts = Counter(node.op_type for node in model.graph.node)
    assert {k: counts[k] for k in COUNTED if counts[k]} == case.want, name
    for got, exp in zip(_run(model, feeds), want):
        assert got.shape == exp.shape and got.dtype == exp.dtype, name
        assert_close(got, exp, rtol=1e-6, scale_rtol=1e-6, what=name)


def test_large_planes_threshold() -> None:
    assert 2 * 2 <= LONE_MAX_PIXELS < 9 * 9
