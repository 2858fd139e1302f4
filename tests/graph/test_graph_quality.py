"""What compile() / export() put in the graph, node type by node type: each layer's dedicated ONNX operator,
nothing dead, duplicated or no-op, constants folded, no shape arithmetic where dims are static; the names
(initializers = parameters_and_names(), inputs = construct's arguments, dynamic dims) and metadata; and the
exported LeNet-5, ResNet-18 and LSTM classifier graphs listed exactly and checked against eager."""
from __future__ import annotations

import json
from typing import Any

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import numpy_helper

import cellonnx as ms
from cellonnx import Tensor, nn, ops
from cellonnx.graph.builder import MAX_OPSET, MIN_OPSET
from cellonnx.graph.compile import serialize, trace_cell
from cellonnx.graph.runtime import Session
from tests.tolerance import assert_close

RTOL, SCALE_RTOL = 1e-4, 1e-5  # SCALE_RTOL: of the output's scale, at least 1


def _trace(net: nn.Cell, *inputs: Tensor, opset: int | None = None, dynamic: tuple[int, ...] = ()) -> Any:
    """Trace ``net`` in eval mode; axes listed in ``dynamic`` are declared None for every input."""
    net.set_train(False)
    if dynamic:
        net.set_inputs(*[Tensor(shape=tuple(None if i in dynamic else d for i, d in enumerate(t.shape)),
                                dtype=t.dtype) for t in inputs])
    traced = trace_cell(net, list(inputs), opset)
    onnx.checker.check_model(traced.model, full_check=True)
    return traced


def _types(net: nn.Cell, *inputs: Tensor, **kwargs: Any) -> list[str]:
    return [n.op_type for n in _trace(net, *inputs, **kwargs).model.graph.node]


def _x(*shape: int, seed: int = 0) -> Tensor:
    return Tensor(np.random.default_rng(seed).standard_normal(shape).astype(np.float32))


def _run(traced: Any, *inputs: Tensor) -> list[np.ndarray]:
    sess = Session(serialize(traced.model))
    return sess.run({n: inputs[p].asnumpy() for n, p in zip(traced.input_names, traced.input_positions)})


# ---------------------------------------------------------------- one layer, one operator
@pytest.mark.parametrize("dynamic", [(), (0,)], ids=["static", "dynamic_batch"])
def test_dense_is_gemm_in_2d_and_matmul_add_above(dynamic: tuple[int, ...]) -> None:
    assert _types(nn.Dense(4, 5), _x(2, 4), dynamic=dynamic) == ["Gemm"]
    assert _types(nn.Dense(4, 5, activation="relu"), _x(2, 4), dynamic=dynamic) == ["Gemm", "Relu"]
    # the weight initializer keeps MindSpore's (out, in) layout and name, so MatMul reads it transposed
    # (onnxruntime folds that Transpose of a constant when it loads the model)
    assert _types(nn.Dense(4, 5), _x(2, 3, 4), dynamic=dynamic) == ["Transpose", "MatMul", "Add"]
    assert _types(nn.Dense(4, 5, has_bias=False), _x(2, 3, 4), dynamic=dynamic) == ["Transpose", "MatMul"]


def test_conv_with_bias_is_one_conv_and_eval_batchnorm_fuses_into_it(tmp_path: Any) -> None:
    conv = nn.Conv2d(3, 4, 3, pad_mode="pad", padding=1, has_bias=True)
    traced = _trace(conv, _x(2, 3, 8, 8))
    (node,) = traced.model.graph.node
    assert node.op_type == "Conv" and list(node.input) == ["x", "weight", "bias"]

    net = nn.SequentialCell([nn.Conv2d(3, 4, 3, has_bias=True), nn.BatchNorm2d(4), nn.ReLU()])
    traced = _trace(net, _x(2, 3, 8, 8), dynamic=(0,))
    assert [n.op_type for n in traced.model.graph.node] == ["Conv", "BatchNormalization", "Relu"]
    # onnxruntime folds BatchNormalization into the Conv's weights (its basic-level optimisation)
    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
    opts.optimized_model_filepath = str(tmp_path / "optimized.onnx")
    ort.InferenceSession(serialize(traced.model), opts, providers=["CPUExecutionProvider"])
    optimized = onnx.load(str(tmp_path / "optimized.onnx"))
    assert [n.op_type for n in optimized.graph.node] == ["Conv", "Relu"]


@pytest.mark.parametrize("opset", range(MIN_OPSET, MAX_OPSET + 1))
def test_layernorm_is_layernormalization_where_the_opset_has_it(opset: int) -> None:
    x = _x(2, 3, 6)
    traced = _trace(nn.LayerNorm((6,)), x, opset=opset)
    types = [n.op_type for n in traced.model.graph.node]
    if opset >= 17:
        assert types == ["LayerNormalization"]
    else:  # mean, centred, variance, normalised, scaled and shifted
        assert types == ["ReduceMean", "Sub", "Mul", "ReduceMean", "Add", "Sqrt", "Div", "Mul", "Add"]
    net = nn.LayerNorm((6,))
    assert_close(_run(traced, x)[0], net(x).asnumpy(), rtol=RTOL, scale_rtol=SCALE_RTOL, min_scale=1.0)


def test_lstm_is_one_onnx_lstm_with_dynamic_batch_and_sequence() -> None:
    net = nn.LSTM(4, 5, batch_first=True)
    traced = _trace(net, _x(2, 6, 4), dynamic=(0, 1))
    types = [n.op_type for n in traced.model.graph.node]
    # batch-first to sequence-first, MindSpore's i,f,g,o gate blocks gathered into ONNX's i,o,f,c order
    # (weights stay initializers under their parameter names), one LSTM, then back to batch-first
    assert types == ["Transpose", "Gather", "Unsqueeze", "Gather", "Unsqueeze", "Gather", "Gather", "Concat",
                     "Unsqueeze", "LSTM", "Squeeze", "Transpose"]
    assert "Shape" not in types
    sess = Session(serialize(traced.model))
    for batch, steps in ((1, 3), (3, 9), (8, 6)):
        x = _x(batch, steps, 4, seed=batch)
        out, (h, c) = net(x)
        got = sess.run({"x": x.asnumpy()})
        for g, want in zip(got, (out, h, c)):
            assert_close(g, want.asnumpy(), rtol=RTOL, scale_rtol=SCALE_RTOL, min_scale=1.0)


def test_dropout_is_gone_in_eval() -> None:
    net = nn.SequentialCell([nn.Dense(4, 4), nn.Dropout(p=0.5), nn.ReLU()])
    assert _types(net, _x(2, 4)) == ["Gemm", "Relu"]


# ---------------------------------------------------------------- clean-ups
class DeadAndDuplicate(nn.Cell):
    def construct(self, x: Tensor) -> Tensor:
        _unused = ops.exp(x) * 3.0  # dead
        a = ops.relu(x)
        b = ops.relu(x)  # duplicate of a
        return a + b


class NoOps(nn.Cell):
    def construct(self, x: Tensor) -> Tensor:
        y = ops.reshape(x, (x.shape[0], x.shape[1]))
        y = ops.transpose(y, (0, 1))
        y = ops.cast(y, ms.float32)
        return ops.relu(y[:, :])


class Folded(nn.Cell):
    def construct(self, x: Tensor) -> Tensor:
        c = ops.exp(Tensor(np.arange(3, dtype=np.float32))) * 2.0 + 1.0  # constants only
        return x + ops.reshape(c, (1, 3))


class Outputs(nn.Cell):
    def construct(self, x: Tensor) -> tuple:
        y = ops.relu(x)
        return y, y, x


@pytest.mark.parametrize("dynamic", [(), (0,)], ids=["static", "dynamic_batch"])
def test_no_dead_duplicate_or_noop_nodes(dynamic: tuple[int, ...]) -> None:
    assert _types(DeadAndDuplicate(), _x(2, 3), dynamic=dynamic) == ["Relu", "Add"]
    assert _types(NoOps(), _x(2, 3), dynamic=dynamic) == ["Relu"]


def test_constants_are_folded() -> None:
    traced = _trace(Folded(), _x(2, 3), dynamic=(0,))
    (node,) = traced.model.graph.node
    assert node.op_type == "Add"
    (const,) = [t for t in traced.model.graph.initializer if t.name == node.input[1]]
    np.testing.assert_allclose(numpy_helper.to_array(const), [np.exp(np.arange(3)) * 2 + 1], rtol=1e-6)


def test_identity_only_where_a_graph_output_needs_its_name() -> None:
    traced = _trace(Outputs(), _x(2, 3))
    nodes = traced.model.graph.node
    # y is written once as output_0; output_1 (the same value) and output_2 (the input) need an Identity
    assert [n.op_type for n in nodes] == ["Relu", "Identity", "Identity"]
    assert [o.name for o in traced.model.graph.output] == ["output_0", "output_1", "output_2"]
    assert nodes[0].output[0] == "output_0"
    got = _run(traced, _x(2, 3))
    want = [t.asnumpy() for t in Outputs()(_x(2, 3))]
    for g, w in zip(got, want):
        assert_close(g, w, rtol=RTOL, scale_rtol=SCALE_RTOL, min_scale=1.0)


# ---------------------------------------------------------------- names and metadata
class Named(nn.Cell):
    def __init__(self) -> None:
        super().__init__()
        self.block = nn.SequentialCell([nn.Conv2d(3, 4, 3, has_bias=True), nn.BatchNorm2d(4)])
        self.head = nn.Dense(4, 4)

    def construct(self, image: Tensor, mask: Tensor) -> Tensor:
        y = ops.mean(self.block(image) * mask, (2, 3))
        return self.head(self.head(y))  # the same cell twice: its parameters are one initializer each


def test_names_and_metadata() -> None:
    net = Named()
    image, mask = _x(2, 3, 8, 8), Tensor(np.ones((1, 1, 8, 8), np.float32))
    traced = _trace(net, image, mask)
    model = traced.model
    params = [p.name for _, p in net.parameters_and_names()]
    assert params == ["block.0.weight", "block.0.bias", "block.1.moving_mean", "block.1.moving_variance",
                      "block.1.gamma", "block.1.beta", "head.weight", "head.bias"]
    inits = [t.name for t in model.graph.initializer]
    assert [n for n in inits if n in params] == params
    assert not [n for n in inits if n not in params and n.startswith(("block", "head"))]
    assert [i.name for i in model.graph.input] == ["image", "mask"]
    assert model.producer_name == "cellonnx" and model.producer_version == ms.__version__
    meta = {p.key: p.value for p in model.metadata_props}
    assert meta["cell_class"] == f"{__name__}.Named"
    assert json.loads(meta["parameter_names"]) == params
    node_names = [n.name for n in model.graph.node]
    assert node_names[:2] == ["block.0/Conv", "block.1/BatchNormalization"]


def test_dynamic_dims_are_named() -> None:
    net = nn.SequentialCell([nn.Embedding(10, 4), nn.Dense(4, 3)])
    traced = _trace(net, Tensor(np.zeros((2, 5), np.int32)), dynamic=(0, 1))
    (inp,), (out,) = traced.model.graph.input, traced.model.graph.output
    assert [d.dim_param for d in inp.type.tensor_type.shape.dim] == ["batch", "input_data_dim1"]
    out_dims = [d.dim_param or d.dim_value for d in out.type.tensor_type.shape.dim]
    assert out_dims == ["batch", "input_data_dim1", 3]
    assert [n.op_type for n in traced.model.graph.node] == ["Gather", "Transpose", "MatMul", "Add"]


# ------------------------------------------------------------- the zoo: LeNet-5, ResNet-18, LSTM classifier
def _zoo() -> Any:
    return pytest.importorskip("cellonnx.models", reason="the model zoo is not installed")


def _resnet18_nodes() -> list[str]:
    basic = ["Conv", "BatchNormalization", "Relu", "Conv", "BatchNormalization", "Add", "Relu"]
    down = ["Conv", "BatchNormalization", "Relu", "Conv", "BatchNormalization", "Conv", "BatchNormalization",
            "Add", "Relu"]
    stem = ["Conv", "BatchNormalization", "Relu", "MaxPool"]  # its zero Pad after Relu folds into MaxPool
    return stem + basic * 2 + (down + basic) * 3 + ["GlobalAveragePool", "Reshape", "Gemm"]  # mean over H, W


ZOO = {
    "lenet5": ({}, (1, 32, 32), ["Conv", "Relu", "MaxPool", "Conv", "Relu", "MaxPool", "Reshape", "Gemm",
                                 "Relu", "Gemm", "Relu", "Gemm"]),
    "resnet18": ({"width_mult": 0.25, "num_classes": 10}, (3, 32, 32), _resnet18_nodes()),
    "lstm_classifier": ({"vocab_size": 50, "embedding_size": 8, "hidden_size": 6}, (5,),
                        ["Gather", "Transpose", "Gather", "Unsqueeze", "Gather", "Unsqueeze", "Gather",
                         "Gather", "Concat", "Unsqueeze", "LSTM", "Squeeze", "Gemm"]),
}


@pytest.mark.parametrize("name", list(ZOO))
def test_zoo_graph_node_types(name: str) -> None:
    zoo = _zoo()
    options, sample, expected = ZOO[name]
    net = zoo.get_model(name, **options)
    x = zoo.example_input(name, batch=2, sample_shape=sample, vocab_size=50)
    static = _types(net, x)
    assert static == expected
    # no shape arithmetic or stray casts / identities (the LSTM classifier's Gathers read the embedding
    # table and reorder gate weights)
    stray = {"Shape", "Cast", "Identity", "Constant"} | ({"Gather"} if name != "lstm_classifier" else set())
    assert not stray & set(static)
    dynamic_axes = (0, 1) if name == "lstm_classifier" else (0,)
    net = zoo.get_model(name, **options)
    traced = _trace(net, x, dynamic=dynamic_axes)
    assert [n.op_type for n in traced.model.graph.node] == expected  # dynamic batch: the same nodes
    sess = Session(serialize(traced.model))
    lengths = (5, 11) if name == "lstm_classifier" else (None,)
    for batch in (1, 3, 8):
        for length in lengths:
            shape = sample if length is None else (length,)
            xb = zoo.example_input(name, batch=batch, sample_shape=shape, seed=batch, vocab_size=50)
            (got,) = sess.run({traced.input_names[0]: xb.asnumpy()})
            assert_close(got, net(xb).asnumpy(), rtol=RTOL, scale_rtol=SCALE_RTOL, min_scale=1.0,
                         what=f"{name} at batch {batch}, length {length}")
