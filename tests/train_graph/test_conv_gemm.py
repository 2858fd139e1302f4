"""The compiled step's conv gradients at small spatial sizes take the one-GEMM lowerings
(cellonnx/ops/prims/conv_gemm.py) although its batch dim is dynamic, and the one graph still follows the eager
trajectory when the batch size changes between steps."""
from __future__ import annotations

from collections import Counter
from typing import Any

import cellonnx as ms
from cellonnx import nn
from cellonnx.graph import train as graph_train
from tests.train_graph.harness import check_trajectory, classification_batches


class SmallConvNet(nn.Cell):
    """4 x 4 inputs: a strided 3 x 3 conv to 2 x 2, a 3 x 3 conv at 2 x 2, a pointwise conv, a strided conv to
    one pixel, each gradient small enough for the GEMM forms."""

    def __init__(self) -> None:
        super().__init__()
        self.c1 = nn.Conv2d(3, 8, 3, stride=2, pad_mode="pad", padding=1, has_bias=True)
        self.c2 = nn.Conv2d(8, 8, 3, pad_mode="pad", padding=1)
        self.c3 = nn.Conv2d(8, 8, 1, has_bias=True)
        self.c4 = nn.Conv2d(8, 6, 3, stride=2, pad_mode="pad", padding=1)
        self.relu = nn.ReLU()
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(6, 3)

    def construct(self, x):
        x = self.relu(self.c1(x))
        x = self.relu(self.c2(x))
        x = self.relu(self.c3(x))
        return self.fc(self.flatten(self.c4(x)))


def _build() -> Any:
    net = SmallConvNet()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Momentum(net.trainable_params(), 0.05, 0.9))
    step.set_train()
    return step


def test_small_convs_lower_to_gemm_with_a_dynamic_batch() -> None:
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        ms.set_seed(0)
        step = _build()
        x, y = classification_batches((4, 3, 4, 4), 3, steps=1)[0]
        step(x, y)
        (compiled,) = graph_train.compiled_steps(step)
        counts = Counter(n.op_type for n in compiled.step.model.graph.node)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert counts["ConvTranspose"] == 0, counts
    assert counts["Col2Im"] >= 1 and counts["Gemm"] + counts["MatMul"] >= 4, counts


def test_gemm_lowerings_follow_eager_across_batch_sizes() -> None:
    check_trajectory(_build, classification_batches((4, 3, 4, 4), 3, sizes=(4, 3, 5, 1, 4)),
                     what="small conv net, batch sizes 4, 3, 5, 1, 4")
