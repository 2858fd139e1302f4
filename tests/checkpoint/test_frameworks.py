"""load_checkpoint_into: checkpoints written by real PyTorch 2.13, MXNet 1.9.1 and MindSpore 2.10 (generators in
tests/fixtures/{torch,mxnet,mindspore}/gen_checkpoint_net.py) load into tests/checkpoint/nets.py's network written
in cellonnx and reproduce each framework's recorded outputs; the names and layouts come from the net's layer types.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from cellonnx.converters import read, write

import cellonnx as ms
from cellonnx import nn
from cellonnx.checkpoint_mapping import describe_layers
from tests.checkpoint.conftest import FIXTURES, fixture_outputs, make_net, run
from tests.tolerance import assert_close

TOL = {"rtol": 1e-4, "scale_rtol": 1e-5, "min_scale": 1.0}  # scale_rtol: of the outputs' scale, at least 1
FILES = {"torch": FIXTURES / "torch" / "checkpoint_net" / "net.pth",
         "mxnet": FIXTURES / "mxnet" / "checkpoint_net" / "net.params",
         "mxnet_export": FIXTURES / "mxnet" / "checkpoint_net" / "net_export-0000.params",
         "mindspore": FIXTURES / "mindspore" / "checkpoint_net" / "net.ckpt"}


def _check_outputs(net: Any, framework: str) -> None:
    expected = fixture_outputs(framework)
    seq, img = run(net, expected["ids"], expected["image"])
    assert_close(seq, expected["seq"], **TOL, what=f"{framework}: sequence output")
    assert_close(img, expected["img"], **TOL, what=f"{framework}: image output")


@pytest.mark.parametrize("source", ["torch", "auto"])
def test_pytorch_state_dict(source: str) -> None:
    net = make_net(seed=99)
    report = ms.load_checkpoint_into(net, FILES["torch"], source=source)
    assert report.ok and len(report.loaded) == 21
    assert report.dropped == ["bn.num_batches_tracked"]
    assert report.notes[0] == ("source: torch" + (" (detected)" if source == "auto" else ""))
    assert "dropped 1 by the mapping: bn.num_batches_tracked" in str(report)
    _check_outputs(net, "torch")


@pytest.mark.parametrize("key, source", [("mxnet", "mxnet"), ("mxnet", "auto"), ("mxnet_export", "auto")])
def test_mxnet_gluon_parameters(key: str, source: str) -> None:
    """save_parameters (structural names, 1.x `_unfused` LSTM names) and export (arg:/aux: + prefix names); both
    hold MXNet 1.x's per-group GroupNorm gamma/beta, expanded per channel."""
    tensors, _ = read(FILES[key])
    assert tensors[next(k for k in tensors if k.endswith(("gn.gamma", "groupnorm0_gamma")))].shape == (2,)
    net = make_net(seed=99)
    report = ms.load_checkpoint_into(net, FILES[key], source=source)
    assert report.ok and len(report.loaded) == 21, str(report)
    assert report.notes[0].startswith("source: mxnet1")
    _check_outputs(net, "mxnet")


def test_mxnet_export_of_a_sequential() -> None:
    """tests/fixtures/gen_mxnet.py's HybridSequential(Dense, BatchNorm, Embedding).export: names dense0_weight ..."""
    net = nn.SequentialCell([nn.Dense(3, 4), nn.BatchNorm1d(4), nn.Embedding(5, 2)])
    report = ms.load_checkpoint_into(net, FIXTURES / "mxnet" / "net-0000.params")
    assert report.ok and len(report.loaded) == 7
    with np.load(FIXTURES / "mxnet" / "expected_net_export.npz") as z:
        np.testing.assert_array_equal(net[1].moving_variance.asnumpy(), z["aux:batchnorm0_running_var"])
        np.testing.assert_array_equal(net[2].embedding_table.asnumpy(), z["arg:embedding0_weight"])
        np.testing.assert_array_equal(net[0].weight.asnumpy(), z["arg:dense0_weight"])


@pytest.mark.parametrize("source", ["mindspore", "cellonnx", "auto"])
def test_mindspore_checkpoint(source: str) -> None:
    net = make_net(seed=99)
    report = ms.load_checkpoint_into(net, FILES["mindspore"], source=source)
    assert len(report.loaded) == 21 and not report.missing and not report.mismatched
    assert report.unexpected == ["epoch_num", "lr"]  # append_dict numbers are tensors of the file
    if source == "auto":
        assert report.notes[0] == "source: mindspore (detected)"
    _check_outputs(net, "mindspore")


def test_description_comes_from_layer_types() -> None:
    description = describe_layers(make_net())
    assert description["bn.gamma"] == "BatchNorm" and description["fc.weight"] == "Dense"
    assert description["emb.embedding_table"] == "Embedding" and description["conv.weight"] == "Conv"
    assert description["gn.gamma"] == {"kind": "GroupNorm", "num_groups": 2, "num_channels": 4}
    assert description["lstm.weight_hh_l0_reverse"] == {"kind": "LSTM", "bidirectional": True}
    assert description["ln.beta"] == "LayerNorm"


def test_a_dense_weight_stays_weight_a_batchnorm_weight_becomes_gamma(tmp_path: Path) -> None:
    """Two layers with the same leaf name: only the layer type decides."""
    net = nn.SequentialCell([nn.Dense(3, 3), nn.BatchNorm1d(3)])
    path = tmp_path / "t.pth"
    write(path, {"0.weight": np.full((3, 3), 2, np.float32), "0.bias": np.zeros(3, np.float32),
                 "1.weight": np.full(3, 5, np.float32), "1.bias": np.full(3, 6, np.float32),
                 "1.running_mean": np.full(3, 7, np.float32), "1.running_var": np.full(3, 8, np.float32)})
    assert ms.load_checkpoint_into(net, path).ok
    assert net[0].weight.asnumpy()[0, 0] == 2 and net[1].gamma.asnumpy()[0] == 5
    assert net[1].beta.asnumpy()[0] == 6 and net[1].moving_variance.asnumpy()[0] == 8


def test_misspelt_key_reported_with_nearest_names(tmp_path: Path) -> None:
    tensors, _ = read(FILES["torch"])
    tensors = {("fc.wieght" if k == "fc.weight" else k): v for k, v in tensors.items()}
    path = tmp_path / "typo.pth"
    write(path, tensors)
    net = make_net(seed=99)
    before = net.fc.weight.asnumpy().copy()
    report = ms.load_checkpoint_into(net, path)
    assert report.missing == ["fc.weight"] and report.unexpected == ["fc.wieght"]
    assert report.nearest["fc.weight"] == ["fc.wieght"] and report.nearest["fc.wieght"] == ["fc.weight"]
    assert "fc.weight (nearest: fc.wieght)" in str(report)
    assert len(report.loaded) == 20 and np.array_equal(net.fc.weight.asnumpy(), before)
    with pytest.raises(ValueError, match="nearest: fc.wieght"):
        ms.load_checkpoint_into(make_net(seed=99), path, strict=True)


def test_strict_loads_nothing_on_a_shape_mismatch(tmp_path: Path) -> None:
    tensors, _ = read(FILES["torch"])
    tensors = dict(tensors, **{"fc.bias": np.zeros(9, np.float32)})
    write(tmp_path / "m.pth", tensors)
    net = make_net(seed=99)
    before = net.emb.embedding_table.asnumpy().copy()
    with pytest.raises(ValueError, match=r"fc\.bias: expected shape \(8,\), found \(9,\)"):
        ms.load_checkpoint_into(net, tmp_path / "m.pth", strict=True)
    assert np.array_equal(net.emb.embedding_table.asnumpy(), before)
    report = ms.load_checkpoint_into(net, tmp_path / "m.pth")
    assert [m.name for m in report.mismatched] == ["fc.bias"] and len(report.loaded) == 20


def test_container_prefix_removed(tmp_path: Path) -> None:
    """A torch checkpoint holding the state dict under "state_dict" (and DataParallel's "module.")."""
    tensors, _ = read(FILES["torch"])
    write(tmp_path / "wrapped.pth", {f"state_dict.module.{k}": v for k, v in tensors.items()},
          metadata={"epoch": 3})
    net = make_net(seed=99)
    report = ms.load_checkpoint_into(net, tmp_path / "wrapped.pth")
    assert report.ok and "removed the prefix 'state_dict.module.' from the checkpoint's names" in report.notes
    _check_outputs(net, "torch")


def test_safetensors_and_npz_sources_told_from_names(tmp_path: Path) -> None:
    for name, source in (("torch", "torch"), ("mxnet", "mxnet1")):
        tensors, _ = read(FILES[name])
        write(tmp_path / f"{name}.safetensors", tensors)
        net = make_net(seed=99)
        report = ms.load_checkpoint_into(net, tmp_path / f"{name}.safetensors")
        assert report.ok and report.notes[0] == f"source: {source} (detected)"
        _check_outputs(net, name)


def test_float64_values_are_cast_ints_are_not(tmp_path: Path) -> None:
    tensors, _ = read(FILES["torch"])
    tensors = {k: (v.astype(np.float64) if v.dtype == np.float32 else v) for k, v in tensors.items()}
    tensors["fc.bias"] = np.arange(8, dtype=np.int64)
    write(tmp_path / "f64.pth", tensors)
    net = make_net(seed=99)
    report = ms.load_checkpoint_into(net, tmp_path / "f64.pth")
    assert [str(m) for m in report.mismatched] == ["fc.bias: expected dtype Float32, found Int64"]
    assert net.fc.weight.dtype == ms.float32 and len(report.loaded) == 20


def test_unknown_source() -> None:
    with pytest.raises(ValueError, match="unknown source 'keras'"):
        ms.load_checkpoint_into(make_net(), FILES["torch"], source="keras")


def test_round_trip_to_torch_names_and_back(tmp_path: Path) -> None:
    """What the mapping writes for torch loads back through load_checkpoint_into."""
    from cellonnx.converters import convert_names

    net = make_net(seed=7)
    state = convert_names({p.name: p.asnumpy() for p in net.get_parameters()}, describe_layers(net), "cellonnx",
                          "torch").tensors
    assert "bn.running_var" in state and "emb.weight" in state and "gn.weight" in state
    write(tmp_path / "t.pth", state)
    fresh = make_net(seed=1)
    assert ms.load_checkpoint_into(fresh, tmp_path / "t.pth").ok
    for got, want in zip(run(fresh), run(net)):
        np.testing.assert_array_equal(got, want)
