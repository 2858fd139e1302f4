"""mx.onnx.export_model on the checkpoints MXNet 1.9.1 wrote (tests/fixtures/mxnet/module, gen_module.py): the
ONNX file passes onnx.checker's full check, keeps the weights as named initializers and, run by onnxruntime at
two batch sizes through its dynamic batch axis, gives MXNet's own predictions."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest

import cellonnx.mxnet as mx
from tests.fixtures.mxnet import module_cases
from tests.tolerance import assert_close

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet" / "module"


@pytest.mark.parametrize("case", list(module_cases.CASES))
@pytest.mark.parametrize("form", ["objects", "files"])
def test_export_model_predicts_as_mxnet(case: str, form: str, tmp_path: Path) -> None:
    spec = module_cases.CASES[case]
    epochs = spec["epochs"]
    if form == "files":
        sym, params = str(FIXTURES / f"{case}-symbol.json"), str(FIXTURES / f"{case}-{epochs:04d}.params")
    else:
        symbol, arg, aux = mx.model.load_checkpoint(str(FIXTURES / case), epochs)
        sym, params = symbol, [arg, aux]
    shape = (spec["batch"], *spec["data"])
    path = mx.onnx.export_model(sym, params, [shape], np.float32, str(tmp_path / "m.onnx"), dynamic=True,
                                dynamic_input_shapes=[(None, *spec["data"])])
    model = onnx.load(path)
    onnx.checker.check_model(model, full_check=True)
    assert [i.name for i in model.graph.input] == ["data"]
    names = {i.name for i in model.graph.initializer}
    _, arg, aux = mx.model.load_checkpoint(str(FIXTURES / case), epochs)
    assert set(arg) | set(aux) <= names
    session = ort.InferenceSession(path)
    x, _ = module_cases.dataset(case)
    want = np.load(FIXTURES / f"{case}_fit.npz")["predict"]
    for rows in (slice(0, 7), slice(2, 3)):
        got = session.run(None, {"data": x[rows]})[0]
        assert_close(got, want[rows], 1e-5, 1e-5)


def test_export_model_checks_its_inputs(tmp_path: Path) -> None:
    sym, arg, aux = mx.model.load_checkpoint(str(FIXTURES / "mlp"), 2)
    with pytest.raises(ValueError, match="in_shapes must be given"):
        mx.onnx.export_model(sym, [arg, aux])
    with pytest.raises(ValueError, match=r"3 input shape\(s\)"):
        mx.onnx.export_model(sym, [arg, aux], [(1, 5)] * 3, onnx_file_path=str(tmp_path / "x.onnx"))
    static = mx.onnx.export_model(sym, {**arg, **aux}, [(2, 5)], onnx_file_path=str(tmp_path / "s.onnx"))
    dims = [d.dim_value for d in onnx.load(static).graph.input[0].type.tensor_type.shape.dim]
    assert dims == [2, 5]
    supported = mx.onnx.get_operator_support()
    assert {"Convolution", "FullyConnected", "SoftmaxOutput", "BatchNorm"} <= set(supported)


VISUALIZATION = json.loads((FIXTURES / "visualization.json").read_text())


@pytest.mark.parametrize("key", sorted(VISUALIZATION))
def test_visualization_matches_mxnet(key: str) -> None:
    got = module_cases.visualization(mx)
    assert sorted(got) == sorted(VISUALIZATION)
    assert json.loads(json.dumps(got[key])) == VISUALIZATION[key]


def test_plot_network_needs_graphviz() -> None:
    import importlib.util

    if importlib.util.find_spec("graphviz") is not None:
        pytest.skip("graphviz is installed")
    with pytest.raises(ImportError, match="Draw network requires graphviz library"):
        mx.viz.plot_network(module_cases.build(mx, "mlp"))
