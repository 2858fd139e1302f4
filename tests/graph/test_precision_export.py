"""Precision and size: to_float(float16) / bfloat16 cells export graphs onnxruntime runs and that match eager,
with the mixed-precision casts where the cells put them; weights as external data (asked for, or past the
~2 GB protobuf limit) in ``<file>.onnx.data`` with relative locations onnxruntime loads."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from cellonnx.converters import onnx_format
from cellonnx.converters.onnx_format import data_files
from onnx import TensorProto, helper, shape_inference

import cellonnx as ms
from cellonnx import Tensor, nn, ops
from cellonnx.graph.compile import serialize, trace_cell
from cellonnx.graph.runtime import Session
from tests.tolerance import assert_close

# float16: onnxruntime's CPU provider runs some fp16 kernels natively and others in float32 between casts,
# so it rounds at other points than NumPy does; results agree to about two fp16 ulps (2^-10 relative each),
# of the element or, for an element near 0 that a sum cancelled, of the output's scale.
FP16_TOL = {"rtol": 2e-3, "scale_rtol": 2e-3}
# bfloat16: graph and eager round at the same places (every op computes in float32 and rounds), but float32
# sums inside Conv / Gemm run in another order, so a result can land one bf16 ulp (2^-8 relative) away.
BF16_TOL = {"rtol": 2**-7, "scale_rtol": 2**-7}
FLOAT16, BFLOAT16, FLOAT = TensorProto.FLOAT16, TensorProto.BFLOAT16, TensorProto.FLOAT


class Net(nn.Cell):
    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, pad_mode="same", has_bias=True)
        self.bn = nn.BatchNorm2d(4)
        self.fc = nn.Dense(4 * 8 * 8, 5)
        self.ln = nn.LayerNorm((5,))

    def construct(self, x: Tensor) -> Tensor:
        y = ops.relu(self.bn(self.conv(x)))
        return self.ln(self.fc(ops.reshape(y, (y.shape[0], -1))))


def _net(seed: int = 0) -> Net:
    ms.set_seed(seed)
    net = Net()
    rng = np.random.default_rng(seed)
    for p in net.get_parameters():  # BatchNorm statistics away from 0 / 1 so they matter
        if "moving" in p.name or p.name.endswith(("gamma", "beta")):
            p.set_data(rng.uniform(0.5, 1.5, p.shape).astype(np.float32))
    net.set_train(False)
    return net


def _x(n: int, seed: int = 0) -> Tensor:
    return Tensor(np.random.default_rng(seed).standard_normal((n, 3, 8, 8)).astype(np.float32))


def _casts(model: onnx.ModelProto) -> list[tuple[str, str, int]]:
    """(node name, what it reads when that is a graph input or an initializer, else '', target type)."""
    named = {i.name for i in model.graph.input} | {t.name for t in model.graph.initializer}
    return [(n.name, n.input[0] if n.input[0] in named else "", helper.get_attribute_value(n.attribute[0]))
            for n in model.graph.node if n.op_type == "Cast"]


def _export_and_check(net: Net, tol: dict, out_type: int, tmp_path: Path) -> onnx.ModelProto:
    """Export with a dynamic batch, load the file in onnxruntime, compare with eager at batch 1, 3 and 8."""
    net.set_inputs(Tensor(shape=(None, 3, 8, 8), dtype=ms.float32))
    path = ms.export(net, _x(2), file_name=str(tmp_path / "net"))
    model = onnx.load(path)
    onnx.checker.check_model(model, full_check=True)
    assert model.graph.input[0].type.tensor_type.elem_type == FLOAT  # callers feed float32
    assert model.graph.output[0].type.tensor_type.elem_type == out_type
    sess = Session(path)
    for n in (1, 3, 8):
        x = _x(n, seed=n)
        want = net(x).asnumpy()
        (got,) = sess.run({"x": x.asnumpy()})
        assert got.dtype == want.dtype
        assert_close(got.astype(np.float32), want.astype(np.float32), **tol, what=f"batch {n}")
    return model


def test_float16_cell_exports_a_matching_graph(tmp_path: Path) -> None:
    net = _net()
    net.to_float(ms.float16)
    model = _export_and_check(net, FP16_TOL, FLOAT16, tmp_path)
    # the float32 masters stay the initializers; the input and the weights are cast on the way in
    assert {t.name: t.data_type for t in model.graph.initializer}["conv.weight"] == FLOAT
    assert _casts(model) == [("Cast", "x", FLOAT16), ("conv/Cast", "conv.weight", FLOAT16),
                             ("conv/Cast_1", "conv.bias", FLOAT16), ("bn/Cast", "bn.gamma", FLOAT16),
                             ("bn/Cast_1", "bn.beta", FLOAT16), ("fc/Cast", "fc.weight", FLOAT16),
                             ("fc/Cast_1", "fc.bias", FLOAT16), ("ln/Cast", "ln.gamma", FLOAT16),
                             ("ln/Cast_1", "ln.beta", FLOAT16)]


def test_mixed_precision_casts_where_the_cells_switch(tmp_path: Path) -> None:
    net = _net(1)
    net.to_float(ms.float16)
    net.ln.to_float(ms.float32)  # a float32 island inside a float16 network
    model = _export_and_check(net, FP16_TOL, FLOAT, tmp_path)
    casts = _casts(model)
    assert casts[-1] == ("ln/Cast", "", FLOAT)  # back to float32 on the way into the float32 cell
    assert [c for c in casts if c[0].startswith("ln/")] == [("ln/Cast", "", FLOAT)]

    only_fc = _net(2)
    only_fc.fc.to_float(ms.float16)  # only the Dense computes in float16
    model = _export_and_check(only_fc, FP16_TOL, FLOAT16, tmp_path)
    first = [n.op_type for n in model.graph.node][:4]
    assert first == ["Conv", "BatchNormalization", "Relu", "Reshape"]  # float32 up to the Dense
    assert _casts(model)[:3] == [("fc/Cast", "", FLOAT16), ("fc/Cast_1", "fc.weight", FLOAT16),
                                 ("fc/Cast_2", "fc.bias", FLOAT16)]


def test_bfloat16_cell_exports_a_graph_onnxruntime_runs(tmp_path: Path) -> None:
    net = _net(3)
    net.to_float(ms.bfloat16)
    model = _export_and_check(net, BF16_TOL, BFLOAT16, tmp_path)
    # ONNX defines few ops on bfloat16 and onnxruntime's CPU provider runs almost none: every op that
    # computes reads float32 (rounded through bfloat16 where eager rounds), only Cast / Reshape touch bf16
    inferred = shape_inference.infer_shapes(model)
    types = {v.name: v.type.tensor_type.elem_type
             for v in (*inferred.graph.value_info, *inferred.graph.input, *inferred.graph.output)}
    types.update({t.name: t.data_type for t in model.graph.initializer})
    computing = [n for n in model.graph.node if n.op_type not in ("Cast", "Reshape", "Squeeze", "Unsqueeze")]
    assert {n.op_type for n in computing} == {"Conv", "BatchNormalization", "Relu", "Gemm",
                                              "LayerNormalization"}
    for node in computing:
        assert BFLOAT16 not in {types.get(i) for i in node.input if i}, node.name


def test_compiled_bfloat16_cell_returns_bfloat16() -> None:
    net = nn.Dense(4, 3)
    net.set_train(False)
    net.to_float(ms.bfloat16)
    x = Tensor(np.random.default_rng(0).standard_normal((2, 4)).astype(np.float32))
    got = net.compile(x)(x)
    want = net(x)
    assert got.dtype == want.dtype == ms.bfloat16
    assert_close(got.asnumpy().astype(np.float32), want.asnumpy().astype(np.float32), **BF16_TOL)


def test_bfloat16_graph_inputs_are_fed_through_ortvalues() -> None:
    net = nn.Dense(4, 3)
    net.set_train(False)
    x = Tensor(np.random.default_rng(1).standard_normal((2, 4)).astype(np.float32)).astype(ms.bfloat16)
    net.to(ms.bfloat16)  # parameters themselves in bfloat16: the graph input is bfloat16 too
    traced = trace_cell(net, [x])
    assert traced.model.graph.input[0].type.tensor_type.elem_type == BFLOAT16
    (got,) = Session(serialize(traced.model)).run({"x": x.asnumpy()})
    assert_close(got.astype(np.float32), net(x).asnumpy().astype(np.float32), **BF16_TOL)


# ---------------------------------------------------------------- external data
def _external_locations(model: onnx.ModelProto) -> set[str]:
    return {e.value for t in model.graph.initializer if t.data_location == TensorProto.EXTERNAL
            for e in t.external_data if e.key == "location"}


def test_external_data_written_beside_the_model_with_relative_locations(tmp_path: Path) -> None:
    net = _net(4)
    x = _x(3)
    path = ms.export(net, x, file_name=str(tmp_path / "a" / "model"), external_data=True)
    assert path == str(tmp_path / "a" / "model.onnx")
    model = onnx.load(path, load_external_data=False)
    external = {t.name for t in model.graph.initializer if t.data_location == TensorProto.EXTERNAL}
    inline = {t.name: len(t.raw_data) for t in model.graph.initializer if t.name not in external}
    # weights go out; tensors under 1 KB (biases, shape constants) stay in for shape inference to read
    assert external == {"fc.weight"}  # the only weight of 1 KB or more here
    assert inline and max(inline.values()) < 1024
    (location,) = _external_locations(model)  # relative: the pair can move together
    assert re.fullmatch(r"model\.onnx\.[0-9a-f]{8}\.data", location)
    assert (tmp_path / "a" / location).is_file()
    shutil.move(str(tmp_path / "a"), str(tmp_path / "moved"))
    sess = ort.InferenceSession(str(tmp_path / "moved" / "model.onnx"), providers=["CPUExecutionProvider"])
    (got,) = sess.run(None, {"x": x.asnumpy()})
    assert_close(got, net(x).asnumpy(), rtol=1e-4, scale_rtol=1e-5, min_scale=1.0)


def test_external_data_switches_on_past_the_size_limit(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    net = _net(5)
    x = _x(2)
    small = ms.export(net, x, file_name=str(tmp_path / "small"))
    assert not _external_locations(onnx.load(small, load_external_data=False))
    # the real limit is ~2 GB (protobuf's); lowered here so a small model crosses it
    monkeypatch.setattr(onnx_format, "EXTERNAL_THRESHOLD", 1024)
    big = ms.export(net, x, file_name=str(tmp_path / "big"))
    assert [f.name for f in data_files(big)] == list(_external_locations(onnx.load(big, load_external_data=False)))
    assert data_files(big)[0].is_file()
    (got,) = Session(big).run({"x": x.asnumpy()})
    assert_close(got, net(x).asnumpy(), rtol=1e-4, scale_rtol=1e-5, min_scale=1.0)
    off = ms.export(net, x, file_name=str(tmp_path / "forced_inline"), external_data=False)
    assert not data_files(off)
