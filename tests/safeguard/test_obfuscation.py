"""mindspore.obfuscate_ckpt / load_obf_params_into_net against real MindSpore 2.10
(tests/fixtures/mindspore/gen_obfuscation.py): with NumPy's global seed set as MindSpore's run had it,
cellonnx draws the same obfuscation tensors, returns the same metadata and writes the same files with the
same values; the checkpoints MindSpore obfuscated load into cellonnx's network and give MindSpore's
outputs."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import Tensor, nn
from tests.fixtures.mindspore.nets_obf import OBF_CONFIG, build, example, weights
from tests.tolerance import assert_close

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "mindspore" / "obfuscation"
EXPECTED = np.load(FIXTURES / "expected.npz")
FILES = json.loads((FIXTURES / "files.json").read_text())
CASES = {
    "backbone": {"target_modules": ["backbone", "fc1|fc2"], "seed": 3},
    "toplevel": {"target_modules": ["", "head"], "seed": 4},
    "config": {"obf_config": OBF_CONFIG, "seed": 5},
}


def make_net() -> Any:
    net = build(nn)()
    values = weights({p.name: tuple(p.shape) for p in net.get_parameters()})
    for p in net.get_parameters():
        p.set_data(Tensor(values[p.name]))
    return net


def _kwargs(case: str) -> dict[str, Any]:
    return {k: v for k, v in CASES[case].items() if k != "seed"}


def _obfuscate(case: str, tmp_path: Path) -> tuple[Path, dict[str, np.ndarray]]:
    src, dst = tmp_path / "src", tmp_path / "dst"
    (src / "sub").mkdir(parents=True)
    dst.mkdir()
    ms.save_checkpoint(make_net(), str(src / "net.ckpt"))
    ms.save_checkpoint(make_net(), str(src / "sub" / "net.ckpt"))
    (src / "notes.txt").write_text("not a checkpoint")
    net = make_net()
    np.random.seed(CASES[case]["seed"])
    meta = ms.obfuscate_ckpt(net, str(src), saved_path=str(dst), **_kwargs(case))
    return dst, meta


@pytest.mark.parametrize("case", sorted(CASES))
def test_obfuscate_ckpt_writes_what_mindspore_writes(case: str, tmp_path: Path) -> None:
    dst, meta = _obfuscate(case, tmp_path)
    written = sorted(str(p.relative_to(dst)) for p in dst.rglob("*") if p.is_file())
    assert written == FILES[case]["written"]
    want_meta = {k.split("/")[-1]: EXPECTED[k] for k in EXPECTED.files if k.startswith(f"{case}/meta/")}
    assert sorted(meta) == sorted(want_meta)
    for name, value in meta.items():
        assert value.dtype == want_meta[name].dtype, name
        np.testing.assert_array_equal(value, want_meta[name], err_msg=name)
    for rel in written:
        ours = ms.load_checkpoint(str(dst / rel))
        theirs = ms.load_checkpoint(str(FIXTURES / case / rel))
        assert sorted(ours) == sorted(theirs)
        for name in theirs:
            assert ours[name].dtype == theirs[name].dtype, name
            np.testing.assert_array_equal(ours[name].asnumpy(), theirs[name].asnumpy(),
                                          err_msg=f"{rel}: {name}")


@pytest.mark.parametrize("case", sorted(CASES))
def test_mindspore_obfuscated_checkpoint_runs_on_cellonnx(case: str) -> None:
    net = make_net()
    ms.load_checkpoint(str(FIXTURES / case / "net_obf.ckpt"), net)
    obf_net = ms.load_obf_params_into_net(net, **_kwargs(case))
    assert (obf_net is net) == FILES[case]["same_network"]
    got = obf_net(Tensor(example())).asnumpy()
    assert_close(got, EXPECTED[f"{case}/out"], rtol=1e-6, scale_rtol=1e-6)


def test_only_matched_names_change() -> None:
    original = make_net()
    for case in CASES:
        theirs = ms.load_checkpoint(str(FIXTURES / case / "net_obf.ckpt"))
        changed = sorted(n for n, p in original.parameters_and_names()
                         if not np.array_equal(p.asnumpy(), theirs[n].asnumpy()))
        want = {"backbone": ["backbone.fc1.bias", "backbone.fc1.weight", "backbone.fc2.bias",
                             "backbone.fc2.weight"],
                "toplevel": [],  # '/head/weight' is no parameter's path
                "config": ["backbone.fc1.weight", "backbone.fc2.weight", "head.bias"]}[case]
        assert changed == want, case


def test_undoing_the_ratio_restores_the_network(tmp_path: Path) -> None:
    dst, meta = _obfuscate("backbone", tmp_path)
    net = make_net()
    ms.load_checkpoint(str(dst / "net_obf.ckpt"), net)
    ratio = np.float32(meta["obf_metadata"][0])
    for name, p in net.parameters_and_names():
        if name.startswith("backbone."):
            p.set_data(Tensor(p.asnumpy() * ratio))
    x = Tensor(example())
    assert_close(net(x).asnumpy(), make_net()(x).asnumpy(), rtol=2e-3, scale_rtol=2e-3)  # 1/r in float16


@pytest.mark.parametrize("kwargs,error,words", [
    ({"target_modules": "backbone"}, TypeError, "list"),
    ({"target_modules": ["backbone"]}, ValueError, "at least two"),
    ({"target_modules": ["backbone", ""]}, ValueError, "non-empty"),
    ({"target_modules": ["back-bone", "fc1"]}, ValueError, "letters"),
    ({"target_modules": ["nowhere", "fc1"]}, ValueError, "does not exist"),
    ({"target_modules": ["backbone", "fc9"]}, ValueError, "do not exist"),
    ({"target_modules": ["backbone", "fc1", "layers:2"]}, ValueError, "obfuscate_layers"),
    ({"obf_config": {"weight_obf_config": []}}, TypeError, "obf_metadata_config"),
    ({"obf_config": {"bad": []}}, TypeError, "config_type"),
    ({"obf_config": {"obf_metadata_config": [{"name": "p", "shape": [2], "type": "rearrange"}],
                     "weight_obf_config": []}, "obfuscate_scale": 1}, ValueError, "obfuscate_scale"),
])
def test_obfuscate_ckpt_errors(kwargs: dict[str, Any], error: type, words: str, tmp_path: Path) -> None:
    with pytest.raises(error, match=words):
        ms.obfuscate_ckpt(make_net(), str(tmp_path), saved_path=str(tmp_path), **kwargs)


def test_argument_errors(tmp_path: Path) -> None:
    with pytest.raises(TypeError, match="nn.Cell"):
        ms.obfuscate_ckpt(object(), str(tmp_path), ["backbone", "fc1"])
    with pytest.raises(ValueError, match="ckpt_files"):
        ms.obfuscate_ckpt(make_net(), os.path.join(str(tmp_path), "missing"), ["backbone", "fc1"])
    with pytest.raises(ValueError, match="data_parallel_num"):
        ms.load_obf_params_into_net(make_net(), ["backbone", "fc1"], data_parallel_num=0)
    with pytest.raises(TypeError, match="module"):
        ms.load_obf_params_into_net(make_net(), obf_config={"network_obf_config": [{"target": "fc1"}]})
