"""load_checkpoint_into(match="structure") and `cellonnx convert --to-model / --like` on checkpoints
written by real PyTorch 2.13, MXNet 1.9.1 and MindSpore 2.10 (tests/fixtures/structure/gen_*.py): the
target, written in another code base's names, reproduces the source framework's recorded outputs on the same
input.

Targets here are cellonnx's own model zoo (models/: ResNet-18, MobileNetV2 and VGG as MindSpore's model zoo
lays them out), MindSpore-API layers (nn.LSTM, nn.GRU, nn.TransformerEncoderLayer) and a BERT-style encoder
layer with separate q / k / v projections (tests/structure/nets.py). The public-model-code pairs (mindcv,
MXNet's model zoo) are in tests/ports/test_structure_ports.py.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from cellonnx.converters import read, write
from cellonnx.converters.structure import StructureError
from cellonnx.models import mobilenetv2, resnet, vgg

import cellonnx as ms
from cellonnx import nn
from cellonnx.cli import main
from tests.structure.nets import SeparateQKVEncoderLayer, fixture_common
from tests.tolerance import assert_close

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "structure"
common = fixture_common()

TOL = {"rtol": 1e-4, "scale_rtol": 1e-5}
EXT = {"torch": "pth", "mxnet": "params", "mindspore": "ckpt"}


def outputs(framework: str) -> dict[str, np.ndarray]:
    with np.load(HERE / framework / "outputs.npz") as z:
        return {k: z[k] for k in z.files}


def cnn(name: str) -> Any:
    net = {"resnet18": lambda: resnet.resnet18(10, width_mult=1 / 16),
           "mobilenet_v2": lambda: mobilenetv2.mobilenet_v2(10, width_mult=0.125, last_channel=32),
           "vgg11_bn": lambda: vgg.Vgg(vgg.CFG["11"], 10, True, (32, 32), 1 / 32, False, "pad",
                                       has_bias=True)}[name]()
    net.set_train(False)
    return net


@pytest.mark.parametrize("name", ["resnet18", "mobilenet_v2", "vgg11_bn"])
def test_torchvision_names_into_model_zoo_cnn(name: str) -> None:
    """downsample.0 -> down_sample_layer.0, bn1 -> bn1d, fc -> end_point, features.N.M ->
    features.N.features.M, classifier.1 -> head.dense; BatchNorm weight/bias/running_* ->
    gamma/beta/moving_*."""
    net = cnn(name)
    report = ms.load_checkpoint_into(net, HERE / "torch" / f"{name}.pth", match="structure")
    assert report.ok and report.mapping and all(e.target in report.loaded for e in report.mapping)
    assert all(d.endswith("num_batches_tracked") for d in report.dropped)
    got = net(ms.Tensor(common.small_image())).asnumpy()
    assert_close(got, outputs("torch")[name], **TOL, what=f"{name}: PyTorch's output")


@pytest.mark.parametrize("framework", ["torch", "mxnet", "mindspore", "onnx"])
@pytest.mark.parametrize("kind", ["lstm", "gru"])
def test_recurrent_layers(framework: str, kind: str) -> None:
    """PyTorch, MindSpore (weight_ih_l0 ...) and MXNet 1.x (_unfused.0.l_cell.i2h_weight ...) into nn.LSTM /
    nn.GRU (their gate orders i,f,g,o / i,f,c,o and r,z,n are the same block for block), and PyTorch's ONNX
    export: LSTM / GRU nodes whose W, R, B initializers stack both directions with ONNX's gate orders
    (i,o,f,c; z,r,n), split per direction and reordered."""
    net = nn.LSTM(4, 8, bidirectional=True) if kind == "lstm" else nn.GRU(4, 8)
    path = HERE / "torch" / f"{kind}.onnx" if framework == "onnx" else \
        HERE / framework / f"{kind}.{EXT[framework]}"
    report = ms.load_checkpoint_into(net, path, match="structure")
    assert len(report.mapping) == len(list(net.get_parameters()))
    if framework == "onnx":
        order = "i,o,f,c -> i,f,g,o" if kind == "lstm" else "z,r,n -> r,z,n"
        assert all(e.rule.endswith(f"gates {order}") for e in report.mapping)
        assert {e.source_index for e in report.mapping} == ({0, 1} if kind == "lstm" else {0})
    got = net(ms.Tensor(common.sequence()))[0].asnumpy()
    assert_close(got, outputs("torch" if framework == "onnx" else framework)[kind], **TOL,
                 what=f"{framework} {kind}")


@pytest.mark.parametrize("framework", ["torch", "mindspore"])
def test_fused_in_projection_into_the_same_layer(framework: str) -> None:
    net = nn.TransformerEncoderLayer(16, 2, 32, dropout=0.0, batch_first=True)
    net.set_train(False)
    x = ms.Tensor(common.tokens())
    report = ms.load_checkpoint_into(net, HERE / framework / f"encoder.{EXT[framework]}", match="structure",
                                     inputs=x)
    assert {e.target for e in report.mapping} == {p.name for p in net.get_parameters()}
    assert_close(net(x).asnumpy(), outputs(framework)["encoder"], **TOL, what=f"{framework} encoder")


NORM_PINS = {"entries": [{"target": f"{t}.{r}", "source": f"{s}.{leaf}"}
                         for t, s in (("attention_norm", "norm1"), ("output_norm", "norm2"))
                         for r, leaf in (("gamma", "gamma"), ("beta", "beta"))]}


@pytest.mark.parametrize("framework", ["torch", "mindspore"])
def test_fused_in_projection_into_separate_qkv(framework: str) -> None:
    """in_proj_weight (48, 16) -> query / key / value (16, 16) each. The source file lists norm1 and norm2
    after the feed-forward layers (their definition order) while this net runs one of them between: the two
    same-shaped LayerNorms cannot be told apart by structure, which is reported; a mapping naming them
    decides, and the rest is matched."""
    net = SeparateQKVEncoderLayer()
    net.set_train(False)
    x = ms.Tensor(common.tokens())
    path = HERE / framework / f"encoder.{EXT[framework]}"
    with pytest.raises(StructureError, match=r"ambiguous: SeparateQKVEncoderLayer .* layer output_norm"):
        ms.load_checkpoint_into(net, path, match="structure", inputs=x)
    leaf = {"torch": {"gamma": "weight", "beta": "bias"}, "mindspore": {}}[framework]
    pins = {"entries": [dict(e, source=e["source"].rsplit(".", 1)[0] + "."
                             + leaf.get(e["source"].rsplit(".", 1)[1], e["source"].rsplit(".", 1)[1]))
                        for e in NORM_PINS["entries"]]}
    report = ms.load_checkpoint_into(net, path, match="structure", inputs=x, mapping=pins)
    rules = {e.target: e.rule for e in report.mapping}
    assert rules["key.weight"] == "Dense weight, k rows of the fused in-projection"
    assert_close(net(x).asnumpy(), outputs(framework)["encoder"], **TOL,
                 what=f"{framework} encoder, separate")


def test_separate_qkv_into_fused_in_projection(tmp_path: Path) -> None:
    """The reverse: a checkpoint of the separate-q/k/v layer into nn.TransformerEncoderLayer (its execution
    order lines up with the file; its definition order does not)."""
    x = ms.Tensor(common.tokens())
    separate = SeparateQKVEncoderLayer()
    separate.set_train(False)
    ms.load_checkpoint_into(separate, HERE / "mindspore" / "encoder.ckpt", match="structure", inputs=x,
                            mapping=NORM_PINS)
    ms.save_checkpoint(separate, str(tmp_path / "separate.ckpt"))
    fused = nn.TransformerEncoderLayer(16, 2, 32, dropout=0.0, batch_first=True)
    fused.set_train(False)
    report = ms.load_checkpoint_into(fused, tmp_path / "separate.ckpt", match="structure", inputs=x)
    assert report.notes == ["matched by structure (execution order): 16 tensors"]
    assert [e.target_rows for e in report.mapping if e.target == "self_attn.in_proj_weight"] == \
        [(0, 16), (16, 32), (32, 48)]
    assert_close(fused(x).asnumpy(), outputs("mindspore")["encoder"], **TOL, what="separate -> fused")


# ---------------------------------------------------------------- perturbed checkpoints
def _edited(tmp_path: Path, edit: Any) -> Path:
    tensors, _ = read(HERE / "torch" / "resnet18.pth")
    path = tmp_path / "edited.pth"
    write(path, edit(dict(tensors)))
    return path


def test_missing_layer_names_it(tmp_path: Path) -> None:
    def drop(t: dict) -> dict:
        return {k: v for k, v in t.items() if not k.startswith("layer3.0.downsample.0.")}
    net = cnn("resnet18")
    before = [p.asnumpy().copy() for p in net.get_parameters()]
    with pytest.raises(StructureError,
                       match=r"missing: ResNet .* layer layer3\.0\.down_sample_layer\.0 \(Conv"):
        ms.load_checkpoint_into(net, _edited(tmp_path, drop), match="structure")
    assert all(np.array_equal(a, p.asnumpy()) for a, p in zip(before, net.get_parameters()))  # nothing loaded


def test_extra_layer_names_it(tmp_path: Path) -> None:
    def add(t: dict) -> dict:
        return {**t, "aux.weight": np.zeros((5, 32), np.float32), "aux.bias": np.zeros(5, np.float32)}
    path = _edited(tmp_path, add)
    with pytest.raises(StructureError, match=r"extra: \S+edited.pth layer aux \(Dense: weight \(5, 32\)"):
        ms.load_checkpoint_into(cnn("resnet18"), path, match="structure")
    net = cnn("resnet18")  # left out on purpose by the mapping, the rest is matched
    ms.load_checkpoint_into(net, path, match="structure", mapping={"ignore_source": ["aux"]})
    assert_close(net(ms.Tensor(common.small_image())).asnumpy(), outputs("torch")["resnet18"], **TOL,
                 what="an extra layer ignored")


def test_reordered_block_names_it(tmp_path: Path) -> None:
    """layer2's and layer3's blocks swapped in the file (other shapes): reported as reordered, both named."""
    def swap(t: dict) -> dict:
        keys = list(t)
        two = [k for k in keys if k.startswith("layer2.")]
        three = [k for k in keys if k.startswith("layer3.")]
        start = keys.index(two[0])
        order = keys[:start] + three + two + keys[start + len(two) + len(three):]
        return {k: t[k] for k in order}
    with pytest.raises(StructureError, match=r"reordered: ResNet .* layer layer2\.0\.conv1 .* fits \S+ layer "
                                             r"layer2\.0\.conv1") as err:
        ms.load_checkpoint_into(cnn("resnet18"), _edited(tmp_path, swap), match="structure")
    assert "layer3.0.conv1" in err.value.reordered


def _with_second_shortcut(names: tuple[str, str]) -> Any:
    """layer4.0's 1x1 downsample conv under the name names[0], and a copy of the same shape under names[1]."""
    def edit(t: dict) -> dict:
        out = {}
        for k, v in t.items():
            if k == "layer4.0.downsample.0.weight":
                out[f"layer4.0.{names[1]}.weight"] = v
                k = f"layer4.0.{names[0]}.weight"
            out[k] = v
        return out
    return edit


def test_two_same_shaped_candidates_without_tie_breaker(tmp_path: Path) -> None:
    """Two same-shaped 1x1 convs where the target has one, names equally far from the target's: both are
    listed as candidates and nothing is loaded."""
    path = _edited(tmp_path, _with_second_shortcut(("z", "x")))
    with pytest.raises(StructureError, match=r"ambiguous: .* layer4\.0\.down_sample_layer\.0 .*fits .* "
                                             r"layer4\.0\.x, layer4\.0\.z") as err:
        ms.load_checkpoint_into(cnn("resnet18"), path, match="structure")
    assert err.value.ambiguous == {"layer4.0.down_sample_layer.0": ["layer4.0.x", "layer4.0.z"]}


def test_same_shaped_candidates_names_break_the_tie(tmp_path: Path) -> None:
    """The same with the real shortcut still named downsample.0: the name decides which one pairs with
    down_sample_layer.0, and the other is reported as an extra layer."""
    path = _edited(tmp_path, _with_second_shortcut(("downsample.0", "extra")))
    with pytest.raises(StructureError, match=r"extra: \S+ layer layer4\.0\.extra \(Conv") as err:
        ms.load_checkpoint_into(cnn("resnet18"), path, match="structure")
    assert not err.value.ambiguous and not err.value.missing


# ---------------------------------------------------------------- the command line
def test_cli_to_model_with_mapping_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, table = tmp_path / "resnet18.ckpt", tmp_path / "map.json"
    assert main(["convert", str(HERE / "torch" / "resnet18.pth"), str(out), "--to-model",
                 "tests.structure.models:resnet18", "--save-mapping", str(table), "--example-shape",
                 "2,3,32,32"]) == 0
    printed = capsys.readouterr().out
    assert "layer1.0.bn1d.gamma (4,) <- layer1.0.bn1.weight (4,)  [BatchNorm gamma]" in printed
    assert "end_point.weight (10, 32) <- fc.weight (10, 32)  [Dense weight]" in printed
    assert "matched 102 tensors by structure (execution order)" in printed
    net = cnn("resnet18")
    report = ms.load_checkpoint_into(net, out, source="mindspore", strict=True)  # the target's own names
    assert len(report.loaded) == 102
    assert_close(net(ms.Tensor(common.small_image())).asnumpy(), outputs("torch")["resnet18"], **TOL,
                 what="convert --to-model")
    # the saved table, edited: fc <- nothing else changes, reused as it is
    again = tmp_path / "again.ckpt"
    assert main(["convert", str(HERE / "torch" / "resnet18.pth"), str(again), "--to-model",
                 "tests.structure.models:resnet18", "--mapping", str(table)]) == 0
    a, _ = read(out)
    b, _ = read(again)
    assert list(a) == list(b) and all(np.array_equal(a[k], b[k]) for k in a)


def test_cli_mindspore_to_pytorch_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """MindSpore's checkpoint of cellonnx's model zoo ResNet-18, written in a torchvision state dict's names,
    layouts and order (--like a file real PyTorch wrote); loaded back by PyTorch's names it gives PyTorch's
    numbers."""
    net = cnn("resnet18")
    ms.load_checkpoint_into(net, HERE / "torch" / "resnet18.pth", match="structure")
    ms.save_checkpoint(net, str(tmp_path / "zoo.ckpt"))
    out = tmp_path / "torch_named.pth"
    assert main(["convert", str(tmp_path / "zoo.ckpt"), str(out), "--like",
                 str(HERE / "torch" / "resnet18.pth")]) == 0
    assert "layer2.0.downsample.1.running_var (8,) <- layer2.0.down_sample_layer.1.moving_variance (8,)" \
        in capsys.readouterr().out
    got, _ = read(out)
    want, _ = read(HERE / "torch" / "resnet18.pth")
    assert list(got) == list(want)
    for k in want:
        assert got[k].shape == want[k].shape and got[k].dtype == want[k].dtype, k
        if want[k].dtype.kind == "f":
            np.testing.assert_array_equal(got[k], want[k])  # values travelled both ways unchanged


def test_cli_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = str(HERE / "torch" / "resnet18.pth")
    assert main(["convert", src, str(tmp_path / "x.ckpt"), "--to-model", "nope"]) == 2
    assert "MODULE:FACTORY" in capsys.readouterr().err
    assert main(["convert", src, str(tmp_path / "x.ckpt"), "--to-model", "tests.structure.models:resnet18",
                 "--map", "torch:mindspore"]) == 2
    assert "the names come from the target" in capsys.readouterr().err
    assert main(["convert", str(HERE / "torch" / "vgg11_bn.pth"), str(tmp_path / "x.ckpt"), "--to-model",
                 "tests.structure.models:resnet18"]) == 2
    err = capsys.readouterr().err
    assert "structural match of" in err and "missing:" in err and "extra:" in err


def test_cli_into_an_onnx_model(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """PyTorch's torchvision-named DenseNet into the ONNX model MindSpore exported of mindcv's DenseNet
    (--like TARGET.onnx, DST .onnx): the target's graph with PyTorch's weights, which onnxruntime runs to
    PyTorch's numbers."""
    import onnxruntime as ort

    out = tmp_path / "densenet.onnx"
    assert main(["convert", str(HERE / "torch" / "densenet.pth"), str(out), "--like",
                 str(HERE / "mindspore" / "densenet.onnx")]) == 0
    printed = capsys.readouterr().out
    assert "features.norm0.moving_variance (16,) <- features.norm0.running_var (16,)  [BatchNorm var]" \
        in printed
    session = ort.InferenceSession(str(out), providers=["CPUExecutionProvider"])
    got = session.run(None, {session.get_inputs()[0].name: common.image()})[0]
    assert_close(got, outputs("torch")["densenet"], **TOL, what="PyTorch weights in MindSpore's ONNX graph")


def test_name_matching_reports_its_table_too() -> None:
    """match="name" (the default) fills the same table, each row "by name"."""
    net = nn.LSTM(4, 8, bidirectional=True)
    report = ms.load_checkpoint_into(net, HERE / "torch" / "lstm.pth", source="torch")
    assert [e.rule for e in report.mapping] == ["by name"] * 8
    assert report.mapping[0].line() == "weight_ih_l0 (32, 4) <- weight_ih_l0 (32, 4)  [by name]"


def test_a_file_sorted_by_name_has_no_order_to_read(tmp_path: Path) -> None:
    """safetensors files list their tensors sorted by name (bn1 before conv1, layer10 before layer2): the
    order says nothing about the network, which is said; a mapping saved from an ordered file of the same
    network loads it."""
    tensors, _ = read(HERE / "torch" / "resnet18.pth")
    write(tmp_path / "resnet18.safetensors", tensors)
    net = cnn("resnet18")
    with pytest.raises(StructureError, match="sorted by name"):
        ms.load_checkpoint_into(net, tmp_path / "resnet18.safetensors", match="structure")
    report = ms.load_checkpoint_into(net, HERE / "torch" / "resnet18.pth", match="structure")
    report.save_mapping(tmp_path / "map.json")
    net = cnn("resnet18")
    ms.load_checkpoint_into(net, tmp_path / "resnet18.safetensors", match="structure",
                            mapping=tmp_path / "map.json")
    assert_close(net(ms.Tensor(common.small_image())).asnumpy(), outputs("torch")["resnet18"], **TOL,
                 what="safetensors with a saved mapping")


@pytest.mark.parametrize("path", ["torch/checkpoint_net/net.pth", "mxnet/checkpoint_net/net.params",
                                  "mxnet/checkpoint_net/net_export-0000.params",
                                  "mindspore/checkpoint_net/net.ckpt"])
def test_checkpoint_net_of_every_framework(path: str) -> None:
    """tests/checkpoint's network (Embedding, LSTM, LayerNorm, Conv, BatchNorm, GroupNorm, Dense) from the
    files the three frameworks wrote: MXNet 1.x's per-group GroupNorm gamma / beta are expanded per
    channel."""
    from tests.checkpoint.conftest import FIXTURES, fixture_outputs, make_net, run

    net = make_net(seed=99)
    report = ms.load_checkpoint_into(net, FIXTURES / path, match="structure")
    rules = {e.target: e.rule for e in report.mapping}
    if path.startswith("mindspore"):  # append_dict values of the file
        assert report.notes[-1] == "left out 2 entries that are not weights: epoch_num, lr"
    if path.startswith("mxnet"):
        assert rules["gn.gamma"] == "GroupNorm gamma, per group -> per channel"
    assert rules["ln.beta"] == "LayerNorm beta"
    want = fixture_outputs(path.split("/")[0])
    seq, img = run(net, want["ids"], want["image"])
    assert_close(seq, want["seq"], **TOL, min_scale=1.0, what=f"{path}: sequence output")
    assert_close(img, want["img"], **TOL, min_scale=1.0, what=f"{path}: image output")
