"""The networks and batches of the training-step benchmarks, built the same way in every process.

``build(name)`` gives the zoo network (seeded: every process gets the same weights), its loss and a fixed
batch whose last array is the labels: LeNet-5 on 64 x 1 x 32 x 32, ResNet-18 on 32 x 3 x 32 x 32 (10
classes), the Transformer classifier (BERT-tiny: hidden 128, 2 layers, 2 heads, dropout 0) on 32 token
sequences of 128 with the last eighth padding (2 classes). The loss is softmax cross-entropy over sparse
labels, mean over the batch.
"""
from __future__ import annotations

import numpy as np
from cellonnx.models import get_model

import cellonnx as ms
from cellonnx import nn

MODELS = ("lenet5", "resnet18", "transformer")


class WithLoss(nn.Cell):
    """``loss(net(*inputs), label)`` for nets of one or more inputs."""

    def __init__(self, net: nn.Cell, loss: nn.Cell) -> None:
        super().__init__(auto_prefix=False)
        self.net = net
        self.loss = loss

    def construct(self, *args):
        return self.loss(self.net(*args[:-1]), args[-1])


def build(name: str) -> tuple[nn.Cell, nn.Cell, list[np.ndarray]]:
    """(network in training mode, loss cell, [inputs..., labels])."""
    ms.set_seed(0)
    rng = np.random.default_rng(0)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    if name == "transformer":
        net = get_model("transformer_classifier", num_classes=2, dropout=0.0)
        batch, seq = 32, 128
        ids = rng.integers(0, net.token_embedding.embedding_table.shape[0], (batch, seq)).astype(np.int32)
        mask = np.ones((batch, seq), np.int32)
        mask[:, seq - seq // 8:] = 0
        net.set_train()
        return net, loss, [ids, mask, rng.integers(0, 2, batch).astype(np.int32)]
    batch, shape = {"lenet5": (64, (1, 32, 32)), "resnet18": (32, (3, 32, 32))}[name]
    net = get_model(name, num_classes=10)
    net.set_train()
    x = rng.standard_normal((batch, *shape)).astype(np.float32)
    return net, loss, [x, rng.integers(0, 10, batch).astype(np.int32)]
