"""The zoo's LeNet-5 loads a checkpoint written by real MindSpore 2.10 (its model-zoo LeNet-5, trained three
steps; tests/fixtures/mindspore/gen_lenet.py) and reproduces MindSpore's output,
eagerly and in onnxruntime."""
from __future__ import annotations

from pathlib import Path

import numpy as np
from cellonnx.models import LeNet5

import cellonnx as ms
from cellonnx.graph.compile import compile_cell
from tests.tolerance import assert_close

TOL = {"rtol": 1e-4, "scale_rtol": 1e-5, "min_scale": 1.0}  # scale_rtol: of the logits' scale, at least 1

FIXTURE = Path(__file__).parents[1] / "fixtures" / "mindspore" / "lenet"


def test_lenet5_reproduces_mindspore_from_its_ckpt() -> None:
    net = LeNet5(10)
    params = ms.load_checkpoint(str(FIXTURE / "lenet5.ckpt"))
    param_not_load, ckpt_not_load = ms.load_param_into_net(net, params)
    assert param_not_load == [] and ckpt_not_load == []
    net.set_train(False)
    expected = np.load(FIXTURE / "expected.npz")
    x = ms.Tensor(expected["x"])
    assert_close(net(x).asnumpy(), expected["y"], **TOL, what="eager")
    assert_close(compile_cell(net, x)(x).asnumpy(), expected["y"], **TOL, what="onnxruntime")


def test_load_weights_reads_the_mindspore_ckpt_through_the_converters() -> None:
    from cellonnx.models import load_weights

    net = LeNet5(10)
    report = load_weights(net, FIXTURE / "lenet5.ckpt")
    assert report.ok and len(report.loaded) == 8  # convolutions without bias, as in MindSpore
    net.set_train(False)
    expected = np.load(FIXTURE / "expected.npz")
    assert_close(net(ms.Tensor(expected["x"])).asnumpy(), expected["y"], **TOL)
