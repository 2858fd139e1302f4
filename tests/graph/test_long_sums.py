"""Sums and means over long contiguous runs are split into a sum over the last axis and one over the rest
(cellonnx/graph/long_sums.py): the same values, as accurate as NumPy's pairwise sums (against float64), and
reductions that are short, single-axis or of unknown size are left alone."""
from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from cellonnx.graph.long_sums import split_long_reductions
from tests.ort_session import cpu_session

PLANE = (2, 3, 112, 96)   # 10,752 values a channel-plane


def _model(op: str, axes: list[int] | None, shape: tuple, opset: int = 18, keepdims: int = 1,
           dims: list | None = None) -> object:
    inits, inputs, attrs = [], ["x"], {}
    if op != "GlobalAveragePool":
        attrs["keepdims"] = keepdims
        if axes is not None and opset >= (13 if op == "ReduceSum" else 18):
            inits.append(numpy_helper.from_array(np.array(axes, np.int64), "axes"))
            inputs.append("axes")
        elif axes is not None:
            attrs["axes"] = axes
    graph = helper.make_graph([helper.make_node(op, inputs, ["y"], **attrs)], "g",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, dims or list(shape))],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def _reference(op: str, axes: list[int] | None, x: np.ndarray, keepdims: int) -> np.ndarray:
    axes = list(range(2, x.ndim)) if op == "GlobalAveragePool" else axes
    keep = True if op == "GlobalAveragePool" else bool(keepdims)
    reduce = np.sum if op == "ReduceSum" else np.mean
    return reduce(x.astype(np.float64), axis=None if axes is None else tuple(axes), keepdims=keep)


def _gradient_like() -> np.ndarray:
    """A backward pass's values after a global pool and a ReLU: one value or 0, all of one sign, whose
    roundings add up in a sum that takes them one after another."""
    return (np.full(PLANE, 0.389 / 6272) * (np.random.default_rng(0).random(PLANE) > 0.5)).astype(np.float32)


CASES = {
    "batch norm's sum over (0, 2, 3)": ("ReduceSum", [0, 2, 3], 18, 1),
    "its mean, keepdims 0": ("ReduceMean", [0, 2, 3], 18, 0),
    "negative axes": ("ReduceSum", [0, -2, -1], 18, 0),
    "every axis (no axes)": ("ReduceSum", None, 18, 0),
    "mean with axes as an attribute (opset 13)": ("ReduceMean", [0, 2, 3], 13, 1),
    "sum with axes as an attribute (opset 11)": ("ReduceSum", [2, 3], 11, 1),
    "global average pool": ("GlobalAveragePool", None, 18, 1),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_long_run_is_split_and_sums_as_numpy_does(name: str) -> None:
    op, axes, opset, keepdims = CASES[name]
    x = _gradient_like()
    model = _model(op, axes, PLANE, opset, keepdims)
    assert split_long_reductions(model) == 1
    assert [n.op_type for n in model.graph.node][-1] == op and len(model.graph.node) == 2
    got = cpu_session(model.SerializeToString()).run(None, {"x": x})[0]
    want = _reference(op, axes, x, keepdims)
    numpy_err = np.abs(_reference(op, axes, x.astype(np.float32), keepdims) - want).max()  # float32 pairwise
    assert got.shape == want.shape
    # as close as NumPy's float32 sums, and never held to less than a few float32 roundings (an unsplit
    # onnxruntime sum of these planes is off by about 1e-5)
    eps = float(np.finfo(np.float32).eps)
    np.testing.assert_allclose(got, want, rtol=max(4 * numpy_err / np.abs(want).max(), 4 * eps), atol=0)


LEFT_ALONE = {
    "a short plane": ("ReduceSum", [0, 2, 3], (8, 4, 16, 16), None),
    "the last axis alone": ("ReduceSum", [3], (2, 3, 4, 5000), None),
    "a run not at the end": ("ReduceSum", [1, 2], (2, 200, 200, 3), None),
    "a dynamic plane": ("ReduceSum", [0, 2, 3], PLANE, ["n", 3, "h", "w"]),
    "a max": ("ReduceMax", [0, 2, 3], PLANE, None),
}


@pytest.mark.parametrize("name", sorted(LEFT_ALONE))
def test_other_reductions_are_left_alone(name: str) -> None:
    op, axes, shape, dims = LEFT_ALONE[name]
    model = _model(op, axes, shape, dims=dims)
    assert split_long_reductions(model) == 0
    assert len(model.graph.node) == 1
