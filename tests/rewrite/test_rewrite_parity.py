"""cellonnx.rewrite against mindspore.rewrite 2.10 (fixtures by tests/fixtures/mindspore/gen_rewrite.py
from nets_rewrite.py): for each network and edit, the nodes of the edited SymbolTree (names, types, arguments,
targets, inputs, users), the names of the nested nodes, the construct methods of the generated code, and the
rewritten network's outputs on seeded inputs and weights; the rewritten network also exports to ONNX and runs
in onnxruntime with the same outputs."""
from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import numpy as np
import onnxruntime as ort
import pytest

import cellonnx
from tests.tolerance import assert_close, sum_rtol

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "mindspore" / "rewrite"
CASES = sorted(p.stem for p in FIXTURES.glob("*.json"))
# The longest float32 sum in these networks: LeNet's fc1 (16 * 5 * 5 terms), chained through four layers.
SCALE_RTOL = sum_rtol(16 * 5 * 5)


def _want(name: str) -> tuple[dict, dict[str, np.ndarray]]:
    record = json.loads((FIXTURES / f"{name}.json").read_text())
    with np.load(FIXTURES / f"{name}.npz") as data:
        arrays = {k: data[k] for k in data.files}
    return record, arrays


def _outputs(out: object) -> list[np.ndarray]:
    outs = out if isinstance(out, tuple) else (out,)
    return [o.asnumpy() for o in outs]


def test_every_case_has_a_fixture(nets: ModuleType) -> None:
    assert sorted(nets.CASES) == CASES


@pytest.mark.parametrize("name", CASES)
def test_nodes(nets: ModuleType, name: str) -> None:
    want, _ = _want(name)
    got, _, _, _ = nets.run_case(name)
    assert [n["name"] for n in got["nodes"]] == [n["name"] for n in want["nodes"]]
    for g, w in zip(got["nodes"], want["nodes"]):
        assert g == w, f"node {w['name']}"
    assert got["all_nodes"] == want["all_nodes"]


@pytest.mark.parametrize("name", CASES)
def test_generated_construct(nets: ModuleType, name: str) -> None:
    want, _ = _want(name)
    got, _, _, _ = nets.run_case(name)
    assert got["construct"] == want["construct"]


@pytest.mark.parametrize("name", CASES)
def test_outputs(nets: ModuleType, name: str, tmp_path: Path) -> None:
    _, arrays = _want(name)
    _, _, net, x = nets.run_case(name)
    np.testing.assert_array_equal(x, arrays["input"])
    got = _outputs(net(cellonnx.Tensor(x)))
    wants = [arrays[f"output/{i}"] for i in range(len(got))]
    assert len([k for k in arrays if k.startswith("output/")]) == len(got)
    for i, (g, w) in enumerate(zip(got, wants)):
        assert_close(g, w, rtol=1e-5, scale_rtol=SCALE_RTOL, what=f"{name} output {i}")
    path = cellonnx.export(net, cellonnx.Tensor(x), file_name=str(tmp_path / name))
    session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    feeds = {session.get_inputs()[0].name: x}
    for i, (g, w) in enumerate(zip(session.run(None, feeds), wants)):
        assert_close(g, w, rtol=1e-5, scale_rtol=SCALE_RTOL, what=f"{name} onnx output {i}")
