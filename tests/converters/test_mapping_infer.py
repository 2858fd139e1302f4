"""Layer kinds read off a checkpoint's own names (converters/mapping_infer.py): the checkpoints of one network
saved by real PyTorch, MXNet 1.x and MindSpore (tests/fixtures/*/checkpoint_net) rename to MindSpore's names,
all but the one layer the names cannot tell (an Embedding's weight, which could be a Dense layer's)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from cellonnx.converters import convert_names, read
from cellonnx.converters.mapping_infer import infer_description

from tests.converters.helpers import FIXTURES

MINDSPORE = FIXTURES / "mindspore" / "checkpoint_net" / "net.ckpt"
SOURCES = {"torch": FIXTURES / "torch" / "checkpoint_net" / "net.pth",
           "mxnet1": FIXTURES / "mxnet" / "checkpoint_net" / "net.params"}


@pytest.mark.parametrize("profile", sorted(SOURCES))
def test_real_checkpoints_rename_to_mindspore_names(profile: str) -> None:
    want = {k: v.shape for k, v in read(MINDSPORE)[0].items() if k not in ("epoch_num", "lr")}
    tensors = read(SOURCES[profile])[0]
    inferred = infer_description(tensors, profile)
    out = convert_names(tensors, inferred.description, profile, "mindspore")
    got = {k: v.shape for k, v in out.tensors.items()}
    assert inferred.ambiguous == ["emb.weight"]
    assert set(got) - set(want) == {"emb.weight"}
    assert set(want) - set(got) == {"emb.embedding_table"}
    # MXNet 1.x keeps GroupNorm's gamma / beta per group: the names map, the layout needs the layer sizes
    same_layout = {k for k in set(got) & set(want) if not (profile == "mxnet1" and k.startswith("gn."))}
    assert all(got[k] == want[k] for k in same_layout), [k for k in same_layout if got[k] != want[k]]


@pytest.mark.parametrize("leaves,profile,kind", [
    ({"weight_ih_l0": (12, 5), "weight_hh_l0": (12, 4)}, "torch", "GRU"),
    ({"weight_ih_l0": (4, 5), "weight_hh_l0": (4, 4)}, "torch", "RNN"),
    ({"l0_i2h_weight": (16, 5), "l0_h2h_weight": (16, 4)}, "mxnet", "LSTM"),
    ({"alpha": (8,)}, "mxnet", "PReLU"),
    ({"gamma": (8,), "beta": (8,), "moving_mean": (8,), "moving_variance": (8,)}, "mindspore", "BatchNorm"),
])
def test_kinds_from_leaves_and_shapes(leaves: dict, profile: str, kind: str) -> None:
    tensors = {f"layer.{leaf}": np.zeros(shape, np.float32) for leaf, shape in leaves.items()}
    described = infer_description(tensors, profile).description
    assert {(v if isinstance(v, str) else v["kind"]) for v in described.values()} == {kind}


def test_the_command_line_maps_without_a_layer_file(tmp_path: Path) -> None:
    out = tmp_path / "net.ckpt"
    done = subprocess.run([sys.executable, "-m", "cellonnx", "convert", str(SOURCES["torch"]), str(out),
                           "--map", "torch:mindspore"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "layer kinds read off the names: 1 BatchNorm, 1 LSTM, 2 LayerNorm" in done.stdout
    assert "emb.weight" in done.stdout
    names = set(read(out)[0])
    assert {"bn.moving_mean", "ln.gamma", "gn.beta", "lstm.weight_ih_l0_reverse"} <= names
