"""Batch norm's decomposed training statistics as one BatchNormalization node in training mode
(cellonnx/graph/bn_train.py): on graphs written as BatchNormTrain's lowering and its gradient leave them,
the nodes left and the same outputs from onnxruntime before and after; and the compiled steps of conv nets
with batch norm, which follow the eager trajectory with the node in place."""
from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

import cellonnx as ms
from cellonnx import nn
from cellonnx.graph import train as graph_train
from cellonnx.graph.bn_train import batch_norm_statistics
from tests.tolerance import assert_close
from tests.train_graph.harness import check_trajectory, classification_batches, momentum_step


def n(op: str, inputs: list[str], outputs: list[str], **attrs) -> onnx.NodeProto:
    return helper.make_node(op, inputs, outputs, **attrs)


def _chain(x: str = "x", eps: str = "eps", axes: str = "axes") -> list[onnx.NodeProto]:
    """BatchNormTrain's lowering: xhat, mean and biased var over (N, H, W), keepdims."""
    return [n("ReduceMean", [x, axes], ["mean"]), n("Sub", [x, "mean"], ["xc"]),
            n("Mul", ["xc", "xc"], ["sq"]), n("ReduceMean", ["sq", axes], ["var"]),
            n("Add", ["var", eps], ["ve"]), n("Sqrt", ["ve"], ["std"]), n("Reciprocal", ["std"], ["inv"]),
            n("Mul", ["xc", "inv"], ["xhat"])]


AFFINE = [n("Mul", ["xhat", "w"], ["scaled"]), n("Add", ["scaled", "b"], ["y"])]
# what the gradient reads: xhat, inv and the statistics for the moving averages
GRAD = [n("Mul", ["g", "xhat"], ["gx"]), n("ReduceSum", ["gx", "axes"], ["gw"]),
        n("Mul", ["gx", "inv"], ["gi"]), n("Reshape", ["mean", "flat"], ["mean_c"]),
        n("Reshape", ["var", "flat"], ["var_c"])]
CASES: dict[str, tuple[list, tuple[str, ...], dict[str, int]]] = {
    "forward_and_gradient": (_chain() + AFFINE + GRAD, ("y", "gw", "gi", "mean_c", "var_c"),
                             {"BatchNormalization": 1, "ReduceMean": 0}),
    "x_minus_mean_read_elsewhere": (_chain() + AFFINE + [n("Mul", ["xc", "g"], ["other"])], ("y", "other"),
                                    {"BatchNormalization": 1, "ReduceMean": 0, "Sub": 1}),
    "layer_norm_axes_stay": (_chain(axes="ln_axes"), ("xhat",), {"BatchNormalization": 0, "ReduceMean": 2}),
    "variance_with_another_centre_stays": (
        _chain()[:2] + [n("Sub", ["x", "g"], ["xc2"]), n("Mul", ["xc2", "xc2"], ["sq"])] + _chain()[3:],
        ("xhat",), {"BatchNormalization": 0, "ReduceMean": 2}),
}
SHAPE = ("N", 3, 2, 2)


def _model(nodes: list, outputs: tuple[str, ...], dtype: int) -> onnx.ModelProto:
    np_dtype = np.float32 if dtype == TensorProto.FLOAT else np.float64
    inits = [numpy_helper.from_array(np.array([0, 2, 3], np.int64), "axes"),
             numpy_helper.from_array(np.array([1, 2, 3], np.int64), "ln_axes"),
             numpy_helper.from_array(np.array([-1], np.int64), "flat"),
             numpy_helper.from_array(np.array(1e-5, np_dtype), "eps")]
    graph = helper.make_graph(
        nodes, "bn", [helper.make_tensor_value_info("x", dtype, list(SHAPE)),
                      helper.make_tensor_value_info("g", dtype, list(SHAPE)),
                      helper.make_tensor_value_info("w", dtype, [3, 1, 1]),
                      helper.make_tensor_value_info("b", dtype, [3, 1, 1])],
        [helper.make_tensor_value_info(o, dtype, None) for o in outputs], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])


def _run(model: onnx.ModelProto, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, feeds)


@pytest.mark.parametrize("dtype", [TensorProto.FLOAT, TensorProto.DOUBLE], ids=["float32", "float64"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_batch_norm_statistics(name: str, dtype: int) -> None:
    nodes, outputs, want = CASES[name]
    rng = np.random.default_rng(0)
    np_dtype = np.float32 if dtype == TensorProto.FLOAT else np.float64
    feeds = {"x": rng.standard_normal((5, 3, 2, 2)) * 3 + 2, "g": rng.standard_normal((5, 3, 2, 2)),
             "w": rng.standard_normal((3, 1, 1)), "b": rng.standard_normal((3, 1, 1))}
    feeds = {k: v.astype(np_dtype) for k, v in feeds.items()}
    model = _model(nodes, outputs, dtype)
    before = _run(model, feeds)
    made = batch_norm_statistics(model)
    counts = Counter(node.op_type for node in model.graph.node)
    assert {k: counts[k] for k in want} == want, (name, counts)
    assert made == want["BatchNormalization"]
    for name_out, got, ref in zip(outputs, _run(model, feeds), before):
        assert got.shape == ref.shape, name_out
        assert_close(got, ref, 1e-5 if dtype == TensorProto.FLOAT else 1e-12)


class ConvBnNet(nn.Cell):
    """Batch norm over 8 x 8, 4 x 4 and 1 x 1 planes, with and without its affine."""

    def __init__(self) -> None:
        super().__init__()
        self.c1 = nn.Conv2d(3, 8, 3, pad_mode="pad", padding=1)
        self.bn1 = nn.BatchNorm2d(8)
        self.c2 = nn.Conv2d(8, 8, 3, stride=2, pad_mode="pad", padding=1)
        self.bn2 = nn.BatchNorm2d(8, affine=False)
        self.c3 = nn.Conv2d(8, 6, 4, pad_mode="valid")
        self.bn3 = nn.BatchNorm2d(6, momentum=0.5)
        self.relu = nn.ReLU()
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(6, 3)

    def construct(self, x):
        x = self.relu(self.bn1(self.c1(x)))
        x = self.relu(self.bn2(self.c2(x)))
        return self.fc(self.flatten(self.bn3(self.c3(x))))


def _build() -> Any:
    return momentum_step(ConvBnNet())


def test_compiled_step_has_one_node_per_batch_norm() -> None:
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        ms.set_seed(0)
        step = _build()
        x, y = classification_batches((4, 3, 8, 8), 3, steps=1)[0]
        step(x, y)
        (compiled,) = graph_train.compiled_steps(step)
        nodes = list(compiled.step.model.graph.node)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    training = [nd for nd in nodes if nd.op_type == "BatchNormalization"
                and any(a.name == "training_mode" and a.i == 1 for a in nd.attribute)]
    assert len(training) == 3
    assert Counter(nd.op_type for nd in nodes)["ReduceMean"] == 0


def test_batch_norm_node_follows_eager() -> None:
    check_trajectory(_build, classification_batches((4, 3, 8, 8), 3, sizes=(4, 3, 5, 4, 4)),
                     what="conv net with batch norm, batch sizes 4, 3, 5, 4, 4")
