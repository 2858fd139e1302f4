"""Networks written in MindSpore syntax (tests/fixtures/mindspore/onnx_parity/nets.py), with parameters and
outputs recorded by real MindSpore 2.10 (gen_onnx_parity.py): loaded into cellonnx from MindSpore's .ckpt,
exported once with dynamic axes, and run in onnxruntime at every recorded batch size (and sequence length),
they reproduce MindSpore's outputs."""
from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import onnxruntime as ort
import pytest

import cellonnx as ms
from cellonnx import Tensor, nn, ops
from cellonnx.graph.runtime import Session
from tests.tolerance import assert_close

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "mindspore" / "onnx_parity"
RTOL, SCALE_RTOL = 1e-4, 1e-5  # SCALE_RTOL: of the output's scale, at least 1
HAS_CUDA = "CUDAExecutionProvider" in ort.get_available_providers()


def _specs() -> dict[str, dict[str, Any]]:
    spec = importlib.util.spec_from_file_location("onnx_parity_nets", FIXTURES / "nets.py")
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module.build(ms, nn, ops)


SPECS = _specs()


def _load(name: str) -> nn.Cell:
    """The network with MindSpore's parameters, read from the .ckpt MindSpore wrote."""
    net = SPECS[name]["make"]()
    path = str(FIXTURES / f"{name}.ckpt")
    if hasattr(ms, "load_checkpoint") and hasattr(ms, "load_param_into_net"):
        not_loaded, unused = ms.load_param_into_net(net, ms.load_checkpoint(path), strict_load=True)
        assert (not_loaded, unused) == ([], [])
    else:
        from cellonnx.converters import read

        tensors, _ = read(path)
        assert set(tensors) == {p.name for p in net.get_parameters()}
        for p in net.get_parameters():
            p.set_data(np.asarray(tensors[p.name]))
    net.set_train(False)
    return net


def _cases(name: str) -> list[tuple[list[np.ndarray], list[np.ndarray]]]:
    data = np.load(FIXTURES / f"{name}.npz")
    cases = []
    for k in range(len(SPECS[name]["cases"])):
        count = {kind: sum(key.startswith(f"{kind}/{k}/") for key in data) for kind in ("input", "output")}
        inputs = [data[f"input/{k}/{i}"] for i in range(count["input"])]
        outputs = [data[f"output/{k}/{i}"] for i in range(count["output"])]
        cases.append((inputs, outputs))
    return cases


def _export(net: nn.Cell, name: str, folder: Path, opset: int | None) -> str:
    spec = SPECS[name]
    first, _ = _cases(name)[0]
    sigs = [Tensor(shape=tuple(None if i in axes else d for i, d in enumerate(a.shape)), dtype=a.dtype)
            for a, axes in zip(first, spec["dynamic"])]
    net.set_inputs(*sigs)
    return ms.export(net, *[Tensor(a) for a in first], file_name=str(folder / name), opset=opset)


def test_fixtures_come_from_mindspore() -> None:
    for name in SPECS:
        assert str(np.load(FIXTURES / f"{name}.npz")["meta/version"]).startswith("2.10")


@pytest.mark.parametrize("opset", [13, 18, 21])
@pytest.mark.parametrize("name", list(SPECS))
def test_onnxruntime_reproduces_mindspore(name: str, opset: int, tmp_path: Path) -> None:
    net = _load(name)
    path = _export(net, name, tmp_path, opset)
    onnx.checker.check_model(path, full_check=True)
    sess = Session(path)
    for k, (inputs, want) in enumerate(_cases(name)):
        got = sess.run(dict(zip(sess.input_names, inputs)))
        assert len(got) == len(want)
        shapes = [a.shape for a in inputs]
        for i, (g, w) in enumerate(zip(got, want)):
            assert g.shape == w.shape, f"{name} case {k} {shapes} output {i}"
            assert_close(g, w, rtol=RTOL, scale_rtol=SCALE_RTOL, min_scale=1.0,
                         what=f"{name} case {k} {shapes} output {i}")


def test_exported_graph_holds_mindspores_parameters_under_their_names(tmp_path: Path) -> None:
    from cellonnx.converters import read

    for name in SPECS:
        ckpt, _ = read(FIXTURES / f"{name}.ckpt")
        model = onnx.load(_export(_load(name), name, tmp_path, None))
        inits = {t.name: onnx.numpy_helper.to_array(t) for t in model.graph.initializer}
        for key, value in ckpt.items():
            np.testing.assert_array_equal(inits[key], np.asarray(value), err_msg=f"{name}: {key}")


@pytest.mark.gpu
@pytest.mark.skipif(not HAS_CUDA, reason="needs onnxruntime-gpu and a CUDA device")
@pytest.mark.parametrize("name", list(SPECS))
def test_cuda_reproduces_mindspore(name: str, tmp_path: Path) -> None:
    sess = Session(_export(_load(name), name, tmp_path, None), "GPU")
    assert sess.on_gpu
    for inputs, want in _cases(name):
        for g, w in zip(sess.run(dict(zip(sess.input_names, inputs))), want):
            assert_close(g, w, rtol=RTOL, scale_rtol=SCALE_RTOL, min_scale=1.0)
