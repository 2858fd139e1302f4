"""Every zoo model at a small size: output shapes, one training step lowers the loss, and one export with a
dynamic batch axis (and sequence axis for the text models) that onnxruntime runs equal to eager."""
from __future__ import annotations

import numpy as np
import onnx
import pytest
from cellonnx.models import get_model, list_models

import cellonnx as ms
from cellonnx import nn
from cellonnx.graph.compile import serialize, trace_cell
from cellonnx.graph.runtime import Session
from cellonnx.tensor import Tensor
from tests.tolerance import assert_close

# name -> (small options, one sample's shape, token vocabulary or None)
ZOO = {
    "lenet5": ({}, (1, 32, 32), None),
    "mlp": ({"in_features": 64, "hidden_sizes": (32, 16)}, (1, 8, 8), None),
    "resnet18": ({"width_mult": 0.25}, (3, 32, 32), None),
    "resnet34": ({"width_mult": 0.125}, (3, 32, 32), None),
    "resnet50": ({"width_mult": 0.125}, (3, 32, 32), None),
    "mobilenetv2": ({"width_mult": 0.25, "has_dropout": False}, (3, 32, 32), None),
    "vgg16_bn": ({"width_mult": 0.125, "image_size": (32, 32), "has_dropout": False}, (3, 32, 32), None),
    "lstm_classifier": ({"vocab_size": 20, "embedding_size": 8, "hidden_size": 8}, (6,), 20),
    "transformer_classifier": ({"vocab_size": 20, "hidden_size": 16, "num_layers": 1, "num_heads": 2,
                                "intermediate_size": 32, "max_position": 16}, (6,), 20),
}


def _net(name: str) -> nn.Cell:
    ms.set_seed(0)
    return get_model(name, num_classes=5, **ZOO[name][0])


def _input(name: str, batch: int, length: int | None = None, seed: int = 0) -> Tensor:
    _, shape, vocab = ZOO[name]
    rng = np.random.default_rng(seed)
    if vocab:
        return Tensor(rng.integers(0, vocab, (batch, length or shape[0])).astype(np.int32))
    return Tensor(rng.standard_normal((batch, *shape)).astype(np.float32))


def test_every_registered_model_has_a_row() -> None:
    assert sorted(ZOO) == list_models()


@pytest.mark.parametrize("name", sorted(ZOO))
def test_output_shape(name: str) -> None:
    net = _net(name)
    net.set_train(False)
    assert net(_input(name, 2)).shape == (2, 5)


@pytest.mark.parametrize("name", sorted(ZOO))
def test_a_training_step_lowers_the_loss(name: str) -> None:
    net = _net(name)
    with_loss = nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"))
    # a small step at batch 16: at batch 4 the deepest BatchNorms normalise over 4 values and the loss is too
    # sharp for any fixed step to be sure to go down
    step = nn.TrainOneStepCell(with_loss, nn.SGD(net.trainable_params(), learning_rate=1e-4))
    step.set_train()
    x, y = _input(name, 16), Tensor((np.arange(16) % 5).astype(np.int32))
    # the same seed before both forwards: dropout draws the same masks, so only the update moves the loss
    ms.set_seed(1)
    before = float(step(x, y).asnumpy())   # the loss at the initial weights, then one update
    ms.set_seed(1)
    after = float(with_loss(x, y).asnumpy())
    assert after < before, (before, after)


@pytest.mark.parametrize("name", sorted(ZOO))
def test_one_export_serves_every_batch_size(name: str) -> None:
    net = _net(name)
    net.set_train(False)
    tokens = ZOO[name][2] is not None
    example = _input(name, 2)
    dims = (None, None) if tokens else (None, *example.shape[1:])
    net.set_inputs(Tensor(shape=dims, dtype=example.dtype))
    traced = trace_cell(net, [example])
    onnx.checker.check_model(traced.model, full_check=True)
    sess = Session(serialize(traced.model))
    sizes = [(b, None) for b in (1, 3, 8)] + ([(3, 4), (2, 9)] if tokens else [])
    for batch, length in sizes:
        x = _input(name, batch, length, seed=batch)
        (got,) = sess.run({traced.input_names[0]: x.asnumpy()})
        assert_close(got, net(x).asnumpy(), rtol=1e-4, scale_rtol=1e-5, min_scale=1.0,
                     what=f"{name} at batch {batch}, length {length}")
