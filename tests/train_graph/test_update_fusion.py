"""The SGD update's learning rate folded into the weight gradient's GEMM (cellonnx/graph/fuse_update.py), on
small graphs written for it: which updates are rewritten, and the same new weights from onnxruntime before
and after; and the compiled step writing its updates into the buffers of the values they replace
(cellonnx/graph/train.py), against the eager trajectory and never into an array user code gave it."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper

import cellonnx as ms
from cellonnx import nn
from cellonnx.graph import train as graph_train
from cellonnx.graph.fuse_update import fuse_sgd_updates
from tests.tolerance import assert_close
from tests.train_graph.harness import check_trajectory, classification_batches


def n(op: str, inputs: list[str], outputs: list[str], **attrs) -> onnx.NodeProto:
    return helper.make_node(op, inputs, outputs, **attrs)


@dataclass
class Case:
    nodes: list
    inputs: dict[str, tuple]       # graph inputs and their shapes
    outputs: dict[str, tuple]
    folded: int                    # updates rewritten


W4 = (4, 3, 2, 2)                   # a conv weight whose gradient is a (4, 12) GEMM, reshaped
GEMM_INPUTS = {"a": (4, 5), "b": (12, 5), "lr": (1,), "p": W4}
RESHAPED = [n("Gemm", ["a", "b"], ["g2"], transB=1), n("Reshape", ["g2", "shape"], ["g"]),
            n("Mul", ["lr", "g"], ["s"]), n("Sub", ["p", "s"], ["p_new"])]
CASES = {
    "gemm_reshaped": Case(RESHAPED, GEMM_INPUTS, {"p_new": W4}, 1),
    "lr_second_operand": Case([*RESHAPED[:2], n("Mul", ["g", "lr"], ["s"]), RESHAPED[3]], GEMM_INPUTS,
                              {"p_new": W4}, 1),
    "matmul_scales_smaller_operand": Case([n("MatMul", ["a", "b"], ["g"]), n("Mul", ["lr", "g"], ["s"]),
                                           n("Sub", ["p", "s"], ["p_new"])],
                                          {"a": (6, 2), "b": (2, 7), "lr": (), "p": (6, 7)},
                                          {"p_new": (6, 7)}, 1),
    # the summed dim dynamic (a weight gradient over the batch): the operands' sizes are unknown, the
    # product's shape tells which is smaller (here the second)
    "dynamic_sum_scales_smaller_operand": Case([n("MatMul", ["a", "b"], ["g"]), n("Mul", ["g", "lr"], ["s"]),
                                                n("Sub", ["p", "s"], ["p_new"])],
                                               {"a": (7, "batch"), "b": ("batch", 2), "lr": (), "p": (7, 2)},
                                               {"p_new": (7, 2)}, 1),
    "lr_cast_after_the_gemm": Case([*RESHAPED[:2], n("Cast", ["lr64"], ["lr"], to=TensorProto.FLOAT),
                                    *RESHAPED[2:]], {"a": (4, 5), "b": (12, 5), "p": W4, "lr64": (1,)},
                                   {"p_new": W4}, 1),
    "gemm_with_c_stays": Case([n("Gemm", ["a", "b", "c"], ["g2"], transB=1), *RESHAPED[1:]],
                              {**GEMM_INPUTS, "c": (12,)}, {"p_new": W4}, 0),
    "gradient_also_output_stays": Case(RESHAPED, GEMM_INPUTS, {"p_new": W4, "g": W4}, 0),
    "per_element_lr_stays": Case(RESHAPED, {**GEMM_INPUTS, "lr": W4}, {"p_new": W4}, 0),
    "weight_not_an_input_stays": Case([n("Relu", ["p"], ["q"]), *RESHAPED[:3],
                                       n("Sub", ["q", "s"], ["p_new"])], GEMM_INPUTS, {"p_new": W4}, 0),
}


def _model(case: Case) -> onnx.ModelProto:
    shape = helper.make_tensor("shape", TensorProto.INT64, [4], list(W4))
    graph = helper.make_graph(
        case.nodes, "update",
        [helper.make_tensor_value_info(k, TensorProto.DOUBLE if k == "lr64" else TensorProto.FLOAT, list(v))
         for k, v in case.inputs.items()],
        [helper.make_tensor_value_info(k, TensorProto.FLOAT, list(v)) for k, v in case.outputs.items()],
        initializer=[shape])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def _run(model: onnx.ModelProto, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, feeds)


@pytest.mark.parametrize("name", sorted(CASES))
def test_update_fusion(name: str) -> None:
    case = CASES[name]
    rng = np.random.default_rng(0)
    sizes = {k: tuple(5 if d == "batch" else d for d in v) for k, v in case.inputs.items()}
    feeds = {k: rng.standard_normal(v).astype(np.float32) for k, v in sizes.items()}
    if "lr" in case.inputs:
        feeds["lr"] = np.full(case.inputs["lr"], 0.1, np.float32) if name != "per_element_lr_stays" else \
            rng.uniform(0.01, 0.1, case.inputs["lr"]).astype(np.float32)
    else:   # a float64 learning rate cast after the GEMM
        feeds["lr64"] = np.full((1,), 0.1, np.float64)
    model = _model(case)
    onnx.checker.check_model(model)
    want = _run(model, feeds)
    assert fuse_sgd_updates(model) == case.folded, name
    onnx.checker.check_model(model)
    ops = [node.op_type for node in model.graph.node]
    if case.folded:  # the Mul now feeds the GEMM, before it
        mul = next(node for node in model.graph.node if node.op_type == "Mul")
        gemm = next(node for node in model.graph.node if node.op_type in ("Gemm", "MatMul"))
        assert mul.output[0] in gemm.input and ops.index("Mul") < ops.index(gemm.op_type), name
        small = min(("a", "b"), key=lambda k: int(np.prod(sizes[k])))
        assert small in mul.input, name
    for got, exp in zip(_run(model, feeds), want):
        assert_close(got, exp, rtol=1e-6, scale_rtol=1e-6, what=name)


# ---------------------------------------------------------------- update buffers reused between steps
class Wide(nn.Cell):
    """A weight of 80 KiB and small ones: every update is written into the buffer the step before read."""

    def __init__(self) -> None:
        super().__init__()
        self.fc1 = nn.Dense(64, 320)   # 80 KiB of weight
        self.fc2 = nn.Dense(320, 5)

    def construct(self, x):
        return self.fc2(ms.ops.relu(self.fc1(x)))


def _build(opt: str = "sgd") -> nn.Cell:
    net = Wide()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    params = net.trainable_params()
    optimizer = nn.SGD(params, 0.05) if opt == "sgd" else nn.Momentum(params, 0.05, 0.9)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), optimizer)
    step.set_train()
    return step


@pytest.mark.parametrize("opt", ["sgd", "momentum"])
def test_alternating_update_buffers_keep_the_trajectory(opt: str) -> None:
    check_trajectory(lambda: _build(opt), classification_batches((8, 64), 5, steps=6), what=opt)


def test_updates_alternate_between_two_buffers_and_spare_user_arrays() -> None:
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        step = _build()
        batches = classification_batches((8, 64), 5, steps=6)
        w = step.network.backbone_network.fc1.weight
        ptrs = []
        for x, y in batches[:4]:
            step(x, y)
            (compiled,) = graph_train.compiled_steps(step)
            ptrs.append(compiled.state.held(w).data_ptr())
        assert ptrs[2] == ptrs[0] and ptrs[3] == ptrs[1] and ptrs[0] != ptrs[1]
        mine = np.full(w.shape, 0.01, np.float32)
        w.set_data(ms.Tensor(mine))
        for x, y in batches[4:]:
            step(x, y)
        assert np.all(mine == np.float32(0.01))   # the uploaded value is never written into
        assert not np.allclose(w.asnumpy(), 0.01)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
