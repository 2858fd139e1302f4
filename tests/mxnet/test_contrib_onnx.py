"""mx.contrib.onnx on whole models: ONNX files written by MXNet 1.9.1's own exporter (imported by real
MXNet's import_model where it can: same operators, arguments, parameters and outputs), by PyTorch's and
by cellonnx's exporters (outputs equal to onnxruntime's); an imported model trains, saves .params and
re-exports."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest

import cellonnx as ms
import cellonnx.mxnet as mx
from tests.tolerance import assert_close

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet" / "contrib_onnx"
SUMMARY = json.loads((FIXTURES / "imports.json").read_text())
VALUES = np.load(FIXTURES / "values.npz")
TORCH = np.load(FIXTURES / "torch_values.npz")
MXNET_MODELS = [k for k in SUMMARY if k != "meta"]


def quiet(fn, *args):
    with contextlib.redirect_stdout(io.StringIO()) as printed:
        result = fn(*args)
    return result, printed.getvalue().splitlines()


def run(sym, arg_params, aux_params, feeds):
    args = {k: mx.nd.array(v) for k, v in feeds.items()}
    return [o.asnumpy() for o in sym.bind(mx.cpu(), {**args, **arg_params}, aux_states=aux_params).forward()]


def onnxruntime(path, feeds):
    options = ort.SessionOptions()
    options.log_severity_level = 3
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"]).run(None, feeds)


@pytest.mark.parametrize("name", MXNET_MODELS)
def test_mxnet_export_imports_as_mxnet_imports_it(name):
    want = SUMMARY[name]
    path = str(FIXTURES / f"{name}.onnx")
    with (
        mx.name.NameManager()
    ):  # automatic names count from 0, as in the fresh process that wrote the fixture
        (sym, arg_params, aux_params), printed = quiet(mx.contrib.onnx.import_model, path)
    meta, printed_meta = quiet(mx.contrib.onnx.get_model_metadata, path)
    assert printed_meta + printed == want["printed"]
    assert {
        k: [[list(v) if isinstance(v, tuple) else v for v in t] for t in vals] for k, vals in meta.items()
    } == want["metadata"]
    x = VALUES[f"{name}/x"]
    got = run(sym, arg_params, aux_params, {meta["input_tensor_data"][0][0]: x})
    assert_close(got[0], VALUES[f"{name}/model"], rtol=1e-5)
    assert_close(got[0], onnxruntime(path, {meta["input_tensor_data"][0][0]: x})[0], rtol=1e-5)
    if "dynamic" in name:  # exported with a dynamic batch: another batch size runs too
        x3 = np.concatenate([x, x[:1]])
        assert_close(run(sym, arg_params, aux_params, {"data": x3})[0], onnxruntime(path, {"data": x3})[0],
                     rtol=1e-5)
    if "import_error" in want:  # MXNet's importer cannot read this export back; the outputs above decide
        return
    ops = [n["op"] for n in json.loads(sym.tojson())["nodes"] if n["op"] != "null"]
    assert ops == want["ops"]
    assert sym.list_arguments() == want["arguments"]
    assert sym.list_auxiliary_states() == want["aux_states"]
    assert sym.list_outputs() == want["outputs"]
    assert sorted(arg_params) == want["arg_params"] and sorted(aux_params) == want["aux_params"]
    for i, out in enumerate(got):
        assert_close(out, VALUES[f"{name}/out/{i}"], rtol=1e-5)


@pytest.mark.parametrize("name", ["convnet", "mlp", "seq", "dynamic"])
def test_pytorch_export_matches_onnxruntime(name):
    path = FIXTURES / f"torch_{name}.onnx"
    (sym, arg_params, aux_params), _ = quiet(mx.contrib.onnx.import_model, str(path))
    x = TORCH[f"{name}/x"]
    got = run(sym, arg_params, aux_params, {"x": x})[0]
    assert_close(got, onnxruntime(path, {"x": x})[0], rtol=1e-5)
    assert_close(got, TORCH[f"{name}/y"], rtol=1e-5)
    if name == "dynamic":  # the batch stays dynamic: Reshape copies it (MXNet's 0 code)
        x3 = np.concatenate([x, x[:1]])
        assert_close(
            run(sym, arg_params, aux_params, {"x": x3})[0], onnxruntime(path, {"x": x3})[0], rtol=1e-5
        )


def test_cellonnx_export_matches_onnxruntime(tmp_path):
    from cellonnx.mxnet.gluon import nn

    net = nn.HybridSequential()
    net.add(
        nn.Conv2D(4, 3, padding=1),
        nn.BatchNorm(),
        nn.Activation("relu"),
        nn.MaxPool2D(2),
        nn.Conv2D(4, 3, strides=2, use_bias=False),
        nn.LeakyReLU(0.1),
        nn.GlobalAvgPool2D(),
        nn.Flatten(),
        nn.Dense(3),
    )
    net.initialize()
    x = np.random.default_rng(0).uniform(-1, 1, (2, 3, 8, 8)).astype(np.float32)
    want = net(mx.nd.array(x)).asnumpy()
    ms.export(net, ms.Tensor(x), file_name=str(tmp_path / "net"), file_format="ONNX")
    path = tmp_path / "net.onnx"
    (sym, arg_params, aux_params), _ = quiet(mx.contrib.onnx.import_model, str(path))
    got = run(sym, arg_params, aux_params, {"x": x})[0]
    assert_close(got, onnxruntime(path, {"x": x})[0], rtol=1e-5)
    assert_close(got, want, rtol=1e-5)


def test_import_to_gluon_trains_saves_and_reexports(tmp_path):
    path = str(FIXTURES / "convnet.onnx")
    net, printed = quiet(mx.contrib.onnx.import_to_gluon, path, mx.cpu())
    assert printed[0] == "Calling mxnet.contrib.onnx.import_to_gluon..."
    x = mx.nd.array(VALUES["convnet/x"])
    assert_close(net(x).asnumpy(), VALUES["convnet/model"], rtol=1e-5)
    params = net.collect_params()
    assert {"conv0_weight", "bn0_moving_mean"} <= set(params)
    before = params["conv0_weight"].data().asnumpy().copy()
    trainer = mx.gluon.Trainer(params, "sgd", {"learning_rate": 0.5})
    label = mx.nd.array([1, 2])
    loss_fn = mx.gluon.loss.SoftmaxCrossEntropyLoss(from_logits=True)
    losses = []
    for _ in range(3):
        with mx.autograd.record():
            loss = loss_fn(mx.nd.log(net(x)), label)
        loss.backward()
        trainer.step(2)
        losses.append(float(loss.mean().asscalar()))
    assert not np.allclose(params["conv0_weight"].data().asnumpy(), before)
    assert losses[-1] < losses[0]
    net.save_parameters(str(tmp_path / "net.params"))
    again, _ = quiet(mx.contrib.onnx.import_to_gluon, path, mx.cpu())
    again.load_parameters(str(tmp_path / "net.params"))
    assert_close(again(x).asnumpy(), net(x).asnumpy(), rtol=1e-6)
    (sym, _, _), _ = quiet(mx.contrib.onnx.import_model, path)
    trained = {name: p.data() for name, p in params.items()}
    out, printed = quiet(
        mx.contrib.onnx.export_model, sym, trained, [tuple(x.shape)], np.float32, str(tmp_path / "again.onnx")
    )
    assert printed[0] == "Calling mxnet.contrib.onnx.export_model..."
    onnx.checker.check_model(onnx.load(out), full_check=True)
    name = onnx.load(out).graph.input[0].name
    assert_close(onnxruntime(out, {name: x.asnumpy()})[0], net(x).asnumpy(), rtol=1e-5)


def test_dropout_mask_output_is_named_when_used(tmp_path):
    from onnx import TensorProto, helper

    graph = helper.make_graph(
        [
            helper.make_node("Dropout", ["x"], ["y", "mask"], name="drop0"),
            helper.make_node("Cast", ["mask"], ["z"], to=1),
        ],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info("z", TensorProto.FLOAT, [2])],
    )
    path = tmp_path / "drop.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), path)
    with pytest.raises(NotImplementedError, match=r"'mask'.*Cast.*drop\.onnx"):
        mx.contrib.onnx.import_model(str(path))


def test_imported_block_hybridizes_and_exports_symbol_json(tmp_path):
    net, _ = quiet(mx.contrib.onnx.import_to_gluon, str(FIXTURES / "vision.onnx"), mx.cpu())
    x = mx.nd.array(VALUES["vision/x"])
    eager = net(x).asnumpy()
    net.hybridize()
    assert_close(net(x).asnumpy(), eager, rtol=1e-6)
    sym_file, params_file = net.export_mxnet(str(tmp_path / "vision"))
    again = mx.gluon.SymbolBlock.imports(sym_file, ["data"], params_file)
    assert_close(again(x).asnumpy(), VALUES["vision/model"], rtol=1e-5)
