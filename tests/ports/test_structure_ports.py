"""Checkpoints of one code base loaded by structure into public model code of another, ported by import
rewriting (sources.json): the target reproduces the source framework's recorded outputs on the same input.

The networks: MobileNet v1 at width 0.125 (MXNet's Gluon model zoo -> mindcv), and DenseNet (growth 8,
blocks 2-2-2-2, 16 initial features, bn_size 2, 10 classes) in

- mindcv 0.3.0 (MindSpore): features.conv0, features.denseblock1.cell_list.0.norm1 ..., classifier;
- MXNet 1.9.1's and 2.0.0b1's Gluon model zoo: features.0, features.4.0.body.0 ... (save_parameters, the
  structural names MXNet 1.x and 2.x both write) or arg:densenet0_conv0_weight (1.x HybridBlock.export);
- torchvision's names (features.denseblock1.denselayer1.norm1 ...), written by PyTorch.

Pairs: PyTorch -> mindcv, Gluon (both spellings) -> mindcv, PyTorch -> MXNet 2.x Gluon, ONNX exported by
MindSpore -> MXNet Gluon (a Cell, through `cellonnx convert --to-model`, which also runs the ONNX model
with onnxruntime as the check), and MindSpore's mindcv checkpoint -> PyTorch's names (`--like`), loaded back.
Fixtures: tests/fixtures/structure/gen_{torch,mxnet,mindspore}.py.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from cellonnx.converters import read

from tests.tolerance import assert_close

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "structure"
TOL = {"rtol": 1e-4, "scale_rtol": 1e-5}


def _common() -> Any:
    from tests.structure.nets import fixture_common

    return fixture_common()


def outputs(framework: str) -> np.ndarray:
    with np.load(FIXTURES / framework / "outputs.npz") as z:
        return z["densenet"]


def mindcv_densenet(importer: Any) -> Any:
    m = importer("mindcv.models.densenet")
    net = m.DenseNet(growth_rate=8, block_config=(2, 2, 2, 2), num_init_features=16, bn_size=2,
                     num_classes=10)
    net.set_train(False)
    return net


def gluon_densenet(importer: Any, root: str) -> Any:
    from cellonnx import Tensor

    m = importer(f"{root}.gluon.model_zoo.vision.densenet")
    net = m.DenseNet(16, 8, [2, 2, 2, 2], bn_size=2, classes=10)
    net.initialize()
    net(Tensor(np.zeros((1, 3, 224, 224), np.float32)))
    return net


def run(net: Any) -> np.ndarray:
    from cellonnx import Tensor

    return net(Tensor(_common().image())).asnumpy()


@pytest.mark.parametrize("source", ["torch/densenet.pth", "mxnet/densenet.params",
                                    "mxnet/densenet-0000.params", "mindspore/densenet.onnx"])
def test_into_mindcv(importer: Any, source: str) -> None:
    """features.denseblock1.denselayer1.norm1.weight / features.4.0.body.0.gamma /
    aux:densenet0_batchnorm1_running_var ... -> features.denseblock1.cell_list.0.norm1.gamma ..."""
    import cellonnx as ms

    net = mindcv_densenet(importer)
    report = ms.load_checkpoint_into(net, FIXTURES / source, match="structure")
    assert len(report.mapping) == len(list(net.get_parameters())) == 106
    framework = source.split("/")[0]
    assert_close(run(net), outputs(framework), **TOL, what=f"{source} -> mindcv DenseNet")


@pytest.mark.parametrize("root", ["mxnet_1_9_1", "mxnet_2_0_0b1"])
def test_pytorch_into_gluon(importer: Any, root: str) -> None:
    import cellonnx as ms

    net = gluon_densenet(importer, root)
    ms.load_checkpoint_into(net, FIXTURES / "torch" / "densenet.pth", match="structure")
    assert_close(run(net), outputs("torch"), **TOL, what=f"PyTorch -> {root} DenseNet")


def test_onnx_into_gluon_cell_by_cli(importer: Any, tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    """MindSpore's ONNX export (initializers in graph order, kinds from its Conv / BatchNormalization / Gemm
    nodes) -> the Gluon DenseNet; the command runs the ONNX model and the Cell on one input and compares."""
    from cellonnx.cli import main

    gluon_densenet(importer, "mxnet_1_9_1")  # the ported package imports
    out, table = tmp_path / "gluon.params", tmp_path / "map.json"
    assert main(["convert", str(FIXTURES / "mindspore" / "densenet.onnx"), str(out), "--to-model",
                 "tests.structure.models:gluon_densenet", "--save-mapping", str(table)]) == 0
    printed = capsys.readouterr().out
    assert re.search(r"densenet\d+_batchnorm0_gamma \(16,\) <- features\.norm0\.gamma \(16,\)  "
                     r"\[BatchNorm gamma\]", printed)
    assert "verify: output 0 (2, 10)" in printed and ": ok" in printed
    import cellonnx as ms

    net = gluon_densenet(importer, "mxnet_1_9_1")
    ms.load_checkpoint_into(net, out, match="structure")  # MXNet 1.x's prefixes count blocks process-wide
    assert_close(run(net), outputs("mindspore"), **TOL, what="ONNX -> Gluon DenseNet (convert --to-model)")


def test_mindspore_to_pytorch_names(importer: Any, tmp_path: Path) -> None:
    """MindSpore's mindcv checkpoint in torchvision's names, layouts and order (--like a file PyTorch wrote:
    num_batches_tracked kept from it); loaded back into mindcv by structure it gives MindSpore's numbers."""
    import cellonnx as ms
    from cellonnx.cli import main

    out = tmp_path / "torch_named.pth"
    assert main(["convert", str(FIXTURES / "mindspore" / "densenet.ckpt"), str(out), "--like",
                 str(FIXTURES / "torch" / "densenet.pth")]) == 0
    got, _ = read(out)
    want, _ = read(FIXTURES / "torch" / "densenet.pth")
    assert list(got) == list(want)
    assert all(got[k].shape == want[k].shape and got[k].dtype == want[k].dtype for k in want)
    ms_tensors, _ = read(FIXTURES / "mindspore" / "densenet.ckpt")
    np.testing.assert_array_equal(got["features.denseblock2.denselayer1.norm2.running_var"],
                                  ms_tensors["features.denseblock2.cell_list.0.norm2.moving_variance"])
    net = mindcv_densenet(importer)
    ms.load_checkpoint_into(net, out, match="structure")
    assert_close(run(net), outputs("mindspore"), **TOL, what="MindSpore -> PyTorch names -> mindcv")


def test_cli_runs_both_cells(importer: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """MindSpore's mindcv checkpoint into the Gluon DenseNet, with --from-model naming the source network:
    both Cells run on one input and agree."""
    from cellonnx.cli import main

    mindcv_densenet(importer), gluon_densenet(importer, "mxnet_1_9_1")  # the ported packages import
    assert main(["convert", str(FIXTURES / "mindspore" / "densenet.ckpt"), str(tmp_path / "gluon.params"),
                 "--to-model", "tests.structure.models:gluon_densenet", "--from-model",
                 "tests.structure.models:mindcv_densenet", "--example-shape", "2,3,224,224"]) == 0
    assert re.search(r"verify: output 0 \(2, 10\): max \|difference\| \S+ \(scale \S+\): ok",
                     capsys.readouterr().out)


def test_gluon_mobilenet_into_mindcv(importer: Any) -> None:
    """MXNet 1.9.1's model-zoo MobileNet(0.125) (features.N.weight, depthwise and pointwise convolutions) into
    mindcv's MobileNetV1(alpha=0.125) (features.N.0 ... depthwise-separable blocks, classifier)."""
    import cellonnx as ms
    from cellonnx import Tensor

    m = importer("mindcv.models.mobilenetv1")
    net = m.MobileNetV1(alpha=0.125, num_classes=10)
    net.set_train(False)
    report = ms.load_checkpoint_into(net, FIXTURES / "mxnet" / "mobilenet.params", match="structure")
    assert len(report.mapping) == len(list(net.get_parameters()))
    with np.load(FIXTURES / "mxnet" / "outputs.npz") as z:
        want = z["mobilenet"]
    assert_close(net(Tensor(_common().small_image())).asnumpy(), want, **TOL,
                 what="Gluon MobileNet -> mindcv")
