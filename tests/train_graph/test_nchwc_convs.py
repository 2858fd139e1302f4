"""Conv and ConvTranspose in onnxruntime's NCHWc kernels (cellonnx/graph/nchwc_convs.py), on small graphs
written for it: which nodes are rewritten, and the same outputs from onnxruntime's own Conv / ConvTranspose
before the pass; then the compiled training step, which uses it, and the exported one, which must not."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from cellonnx.graph import nchwc_convs
from tests.tolerance import assert_close, sum_rtol

B = nchwc_convs.block_size()
needs_kernels = pytest.mark.skipif(not B, reason="this onnxruntime has no NCHWc kernels")


@dataclass
class Case:
    op: str
    x: tuple                                    # input (N, C, H, W)
    w: tuple                                    # weight
    rewritten: bool
    attrs: dict = field(default_factory=dict)
    bias: bool = False
    const_weight: bool = False


def cases() -> dict[str, Case]:
    b = B or 8
    return {
        "few_channels_read_as_nchw": Case("Conv", (2, 1, 32, 32), (b - 2, 1, 5, 5), True),
        "mostly_padding_stays": Case("Conv", (2, b, 12, 12), (b // 2 - 1, b, 3, 3), False),
        "few_channels_bias_stride": Case("Conv", (2, 3, 20, 20), (2 * b - 2, 3, 3, 3), True,
                                         {"pads": [1, 1, 1, 1], "strides": [2, 2]}, bias=True),
        "whole_blocks_dilated": Case("Conv", (2, b, 12, 12), (2 * b, b, 3, 3), True,
                                     {"pads": [2, 2, 2, 2], "dilations": [2, 2]}),
        "whole_blocks_uneven_pads": Case("Conv", (2, 2 * b, 10, 9), (b - 1, 2 * b, 3, 3), True,
                                         {"pads": [0, 1, 2, 1]}),
        "same_conv_input_gradient": Case("ConvTranspose", (2, b, 9, 9), (b, b - 1, 3, 3), True,
                                         {"pads": [1, 1, 1, 1]}),
        "same_5x5_input_gradient_few_channels": Case("ConvTranspose", (2, 6, 10, 10), (6, b, 5, 5), True,
                                                     {"pads": [2, 2, 2, 2]}),
        "one_by_one_stays": Case("Conv", (2, b, 10, 10), (b, b, 1, 1), False),
        "small_output_stays": Case("Conv", (2, b, 6, 6), (b, b, 3, 3), False, {"pads": [1, 1, 1, 1]}),
        "partial_blocks_stay": Case("Conv", (2, b + 4, 10, 10), (b, b + 4, 3, 3), False),
        "groups_stay": Case("Conv", (2, 2 * b, 10, 10), (2 * b, b, 3, 3), False, {"group": 2}),
        "constant_weight_stays": Case("Conv", (2, b, 10, 10), (b, b, 3, 3), False, const_weight=True),
        "valid_conv_input_gradient_stays": Case("ConvTranspose", (2, b, 10, 10), (b, 6, 5, 5), False),
        "strided_input_gradient_stays": Case("ConvTranspose", (2, b, 9, 9), (b, 3, 3, 3), False,
                                             {"pads": [1, 1, 1, 1], "strides": [2, 2]}),
        "transpose_with_bias_stays": Case("ConvTranspose", (2, b, 9, 9), (b, 3, 3, 3), False,
                                          {"pads": [1, 1, 1, 1]}, bias=True),
    }


CASES = cases()


def _model(case: Case, w: np.ndarray, bias: np.ndarray) -> onnx.ModelProto:
    inputs = ["x", "w"] + (["b"] if case.bias else [])
    graph_inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", *case.x[1:]])]
    inits = []
    if case.const_weight:
        inits.append(numpy_helper.from_array(w, "w"))
    else:
        graph_inputs.append(helper.make_tensor_value_info("w", TensorProto.FLOAT, list(case.w)))
    if case.bias:
        graph_inputs.append(helper.make_tensor_value_info("b", TensorProto.FLOAT, list(bias.shape)))
    graph = helper.make_graph([helper.make_node(case.op, inputs, ["y"], **case.attrs)], "conv", graph_inputs,
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def _run(model: onnx.ModelProto, feeds: dict[str, np.ndarray]) -> np.ndarray:
    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL  # the nodes as written
    sess = ort.InferenceSession(model.SerializeToString(), opts, providers=["CPUExecutionProvider"])
    return sess.run(None, {k: v for k, v in feeds.items() if k in {i.name for i in sess.get_inputs()}})[0]


@needs_kernels
@pytest.mark.parametrize("name", sorted(CASES))
def test_nchwc_convs(name: str) -> None:
    case = CASES[name]
    rng = np.random.default_rng(0)
    w = rng.standard_normal(case.w).astype(np.float32)
    out_channels = case.w[1] if case.op == "ConvTranspose" else case.w[0]
    bias = rng.standard_normal(out_channels).astype(np.float32)
    feeds = {"x": rng.standard_normal(case.x).astype(np.float32), "w": w, "b": bias}
    model = _model(case, w, bias)
    want = _run(model, feeds)
    assert nchwc_convs.use_nchwc_convs(model) == int(case.rewritten), name
    domains = {n.domain for n in model.graph.node}
    assert (nchwc_convs.DOMAIN in domains) == case.rewritten, name
    got = _run(model, feeds)
    assert got.shape == want.shape, name
    terms = int(np.prod(case.w[1:])) if case.op == "Conv" else case.w[0] * case.w[2] * case.w[3]
    assert_close(got, want, rtol=0, scale_rtol=sum_rtol(terms), what=name)


@needs_kernels
def test_the_traced_batch_must_repay_the_reorder() -> None:
    case = CASES["whole_blocks_uneven_pads"]   # 8 x 9 = 72 output pixels
    rng = np.random.default_rng(0)
    for batch, rewritten in ((2, 0), (nchwc_convs.REORDER_REPAID // 72 + 1, 1)):
        model = _model(case, rng.standard_normal(case.w).astype(np.float32), np.zeros(case.w[0], np.float32))
        assert nchwc_convs.use_nchwc_convs(model, batch=batch) == rewritten, batch


def test_no_kernels_no_rewrite(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(nchwc_convs, "block_size", lambda: 0)
    case = CASES["few_channels_read_as_nchw"]
    model = _model(case, np.zeros(case.w, np.float32), np.zeros(case.w[0], np.float32))
    assert nchwc_convs.use_nchwc_convs(model) == 0
    assert [n.op_type for n in model.graph.node] == ["Conv"]


@needs_kernels
def test_compiled_step_uses_them_and_the_exported_step_does_not(tmp_path) -> None:
    from cellonnx.models import lenet

    import cellonnx as ms
    from cellonnx import Tensor, nn
    from cellonnx.graph.train import compiled_steps

    net = lenet.lenet5(10)
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True)),
                                nn.SGD(net.trainable_params(), learning_rate=0.01))
    train.set_train()
    rng = np.random.default_rng(0)
    x = Tensor(rng.standard_normal((8, 1, 32, 32)).astype(np.float32))   # 8 x 100 pixels: conv2 repays
    y = Tensor(np.arange(8, dtype=np.int32))
    ms.set_context(mode=ms.GRAPH_MODE)   # tests/conftest.py restores the context after each test
    train(x, y)
    (compiled,) = compiled_steps(train)
    assert not [n for n in compiled.step.model.graph.node if n.domain == nchwc_convs.DOMAIN]  # kept plain
    blocked = [n for n in compiled.step.session_model.graph.node if n.domain == nchwc_convs.DOMAIN]
    # both forward convs (28 x 28, 10 x 10); conv1's 6 channels padded to a block of 16 (AVX-512) stay
    wanted = 2 if -(-6 // B) * B <= nchwc_convs.MAX_PADDED_WORK * 6 else 1
    assert sum(n.op_type == "Conv" for n in blocked) == wanted
    ms.export(train, x, y, file_name=str(tmp_path / "step"), training=True)
    exported = onnx.load(str(tmp_path / "step.onnx"))
    assert not [n for n in exported.graph.node if n.domain == nchwc_convs.DOMAIN]
