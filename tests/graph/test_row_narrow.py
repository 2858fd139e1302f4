"""cellonnx.graph.row_narrow on small graphs written for it (a dynamic batch of 4-row sequences): the same
outputs from onnxruntime before and after, and which ops still compute every row afterwards."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from cellonnx.graph.optimize import _inferred_shapes, optimize
from cellonnx.graph.row_narrow import narrow_rows
from tests.tolerance import assert_close

L, C = 4, 3
F = np.float32
RNG = np.random.default_rng(0)


def n(op: str, inputs: list[str], outputs: list[str], **attrs) -> onnx.NodeProto:
    return helper.make_node(op, inputs, outputs, **attrs)


def w(*shape: int) -> np.ndarray:
    return (RNG.standard_normal(shape) * 0.5).astype(F)


def ints(*values: int) -> np.ndarray:
    return np.asarray(values, np.int64)


ROW0 = {"r0": ints(0), "r1": ints(1), "ax1": ints(1)}
ROW0_SLICE = n("Slice", ["h", "r0", "r1", "ax1"], ["y"])
# the gradient of that Slice: a (N, 1, C) gradient padded with zero rows
PAD = {"pads": ints(0, 0, 0, 0, L - 1, 0), "zero": np.zeros((), F)}


@dataclass
class Case:
    nodes: list
    full: dict[str, int]           # op type -> nodes that still write (N, L, ...) values
    consts: dict[str, np.ndarray] = field(default_factory=dict)
    outputs: tuple[str, ...] = ("y",)
    grad: bool = False             # a (N, 1, C) input "g" besides x


FFN = [n("MatMul", ["x", "w1"], ["a"]), n("Add", ["a", "b1"], ["ab"]), n("Erf", ["ab"], ["e"]),
       n("MatMul", ["e", "w2"], ["f"]), n("Add", ["x", "f"], ["res"]),
       n("LayerNormalization", ["res", "gamma", "beta"], ["h"], axis=-1, epsilon=1e-5), ROW0_SLICE]
FFN_W = {"w1": w(C, 5), "b1": w(5), "w2": w(5, C), "gamma": w(C), "beta": w(C)}
# single-head self-attention read on row 0: the queries need row 0, the keys and values every row
ATTENTION = [n("MatMul", ["x", "wq"], ["q"]), n("MatMul", ["x", "wk"], ["k"]),
             n("MatMul", ["x", "wv"], ["v"]), n("Transpose", ["k"], ["kt"], perm=[0, 2, 1]),
             n("MatMul", ["q", "kt"], ["s"]),
             n("Softmax", ["s"], ["p"], axis=-1), n("MatMul", ["p", "v"], ["h"]), ROW0_SLICE]
ATTENTION_W = {"wq": w(C, C), "wk": w(C, C), "wv": w(C, C)}

CASES = {
    "feed_forward_on_the_read_row": Case(FFN, {}, {**ROW0, **FFN_W}),
    "attention_queries_on_the_read_row": Case(ATTENTION, {"MatMul": 2}, {**ROW0, **ATTENTION_W}),
    # a weight and a bias gradient against a gradient with zero rows: sums over row 0 alone
    "weight_gradient_of_the_row": Case(
        [n("Pad", ["g", "pads", "zero"], ["gp"]), n("MatMul", ["x", "w1"], ["a"]), n("Tanh", ["a"], ["t"]),
         n("Mul", ["gp", "t"], ["gt"]), n("ReduceSum", ["gt", "axes01"], ["db"], keepdims=0),
         n("Reshape", ["x", "fold"], ["xf"]), n("Transpose", ["xf"], ["xft"], perm=[1, 0]),
         n("Reshape", ["gt", "fold"], ["gtf"]), n("MatMul", ["xft", "gtf"], ["dw"])],
        {}, {**PAD, "w1": w(C, C), "axes01": ints(0, 1), "fold": ints(-1, C)},
        outputs=("db", "dw"), grad=True),
    # attention's backward for a row-0 query: the gradients of keys and values sum over the query row only
    "attention_gradient_of_the_row": Case(
        [*ATTENTION[:7], n("Pad", ["g", "pads", "zero"], ["gp"]),
         n("Transpose", ["p"], ["pt"], perm=[0, 2, 1]), n("MatMul", ["pt", "gp"], ["dv"]),
         n("Transpose", ["v"], ["vt"], perm=[0, 2, 1]), n("MatMul", ["gp", "vt"], ["dp"]),
         n("Mul", ["dp", "p"], ["dpp"]), n("ReduceSum", ["dpp", "ax2"], ["sp"], keepdims=1),
         n("Mul", ["p", "sp"], ["psp"]), n("Sub", ["dpp", "psp"], ["ds"]),
         n("Transpose", ["q"], ["qt"], perm=[0, 2, 1]), n("MatMul", ["qt", "ds"], ["dkt"]),
         n("MatMul", ["ds", "k"], ["dq"]), n("ReduceSum", ["dq", "axes01"], ["dqs"], keepdims=0)],
        # k, v and dv (rows of keys); p's transpose, (N, keys, 1) after
        {"MatMul": 3, "Transpose": 1}, {**PAD, **ATTENTION_W, "ax2": ints(2), "axes01": ints(0, 1)},
        outputs=("dv", "dkt", "dqs"), grad=True),
    # a mean over the rows reads every row of t: t stays whole, what follows the mean is narrowed
    "mean_over_rows_reads_every_row": Case(
        [n("Tanh", ["x"], ["t"]), n("ReduceMean", ["t", "ax1"], ["m"], keepdims=1),
         n("Add", ["t", "m"], ["u"]), n("Exp", ["u"], ["h"]), ROW0_SLICE], {"Tanh": 1}, ROW0),
    "value_also_returned_stays_whole": Case(FFN, {"MatMul": 2, "Add": 2, "Erf": 1, "LayerNormalization": 1},
                                            {**ROW0, **FFN_W}, outputs=("y", "h")),
    # a zero-rows value that a cumulative sum over the rows reads: computed on row 0, padded back for it
    "zero_rows_padded_back": Case(
        [n("Pad", ["g", "pads", "zero"], ["gp"]), n("Tanh", ["x"], ["t"]), n("Mul", ["gp", "t"], ["gt"]),
         n("CumSum", ["gt", "one"], ["y"])],
        {"Pad": 1, "CumSum": 1}, {**PAD, "one": ints(1)}, grad=True),
    # ops that mix the rows stay whole: a softmax over them, a reshape that regroups them
    "softmax_over_rows_stays": Case([n("Tanh", ["x"], ["t"]), n("Softmax", ["t"], ["h"], axis=1), ROW0_SLICE],
                                    {"Tanh": 1, "Softmax": 1}, ROW0),
    "reshape_regrouping_rows_stays": Case(
        [n("Tanh", ["x"], ["t"]), n("Reshape", ["t", "pairs"], ["u"]), n("Exp", ["u"], ["h"]),
         n("Slice", ["h", "r0", "r1", "ax1"], ["y"])],
        {"Tanh": 1}, {**ROW0, "pairs": ints(0, 2, 2 * C)}),
    # no row-0 Slice: nothing to narrow
    "no_row_read": Case([n("Tanh", ["x"], ["t"]), n("Slice", ["t", "r1", "r2", "ax1"], ["y"])],
                        {"Tanh": 1}, {"r1": ints(1), "r2": ints(2), "ax1": ints(1)}),
}


def _model(case: Case) -> onnx.ModelProto:
    inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", L, C])]
    if case.grad:
        inputs.append(helper.make_tensor_value_info("g", TensorProto.FLOAT, ["n", 1, C]))
    outputs = [helper.make_tensor_value_info(o, TensorProto.FLOAT, None) for o in case.outputs]
    graph = helper.make_graph(case.nodes, "rows", inputs, outputs,
                              initializer=[numpy_helper.from_array(v, k) for k, v in case.consts.items()])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=9)


def _run(model: onnx.ModelProto, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, {k: v for k, v in feeds.items() if k in {i.name for i in sess.get_inputs()}})


def _full_row_ops(model: onnx.ModelProto) -> dict[str, int]:
    shapes = _inferred_shapes(model)
    return dict(Counter(nd.op_type for nd in model.graph.node
                        if any(len(shapes.get(o) or []) == 3 and shapes[o][1] == L for o in nd.output)))


@pytest.mark.parametrize("name", sorted(CASES))
def test_row_narrow(name: str) -> None:
    case = CASES[name]
    model = _model(case)
    feeds = {"x": RNG.standard_normal((5, L, C)).astype(F), "g": RNG.standard_normal((5, 1, C)).astype(F)}
    want = _run(model, feeds)
    out = onnx.ModelProto.FromString(model.SerializeToString())
    narrow_rows(out, _inferred_shapes(out))
    out = optimize(out)
    assert _full_row_ops(out) == case.full, name
    for k, (a, b) in enumerate(zip(_run(out, feeds), want)):
        assert a.shape == b.shape, (name, k)
        assert_close(a, b, rtol=1e-6, scale_rtol=1e-6, what=f"{name} output {k}")
