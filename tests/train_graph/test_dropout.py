"""Dropout in a compiled step: ONNX Dropout in training mode draws a fresh mask every step from
onnxruntime's generator (not the eager NumPy stream, see docs/compiled_training.md): about 1 - p of the
units are kept, scaled by 1 / (1 - p), and the mask changes from step to step."""
from __future__ import annotations

from typing import Any

import numpy as np

import cellonnx as ms
from cellonnx import nn, ops


class Probe(nn.Cell):
    """Returns the dropout output of a constant input and a loss that trains a weight through it."""

    def __init__(self) -> None:
        super().__init__()
        self.w = ms.Parameter(np.ones((1, 4000), np.float32), name="w")
        self.drop = nn.Dropout(p=0.25)

    def construct(self, x: Any) -> Any:
        return self.drop(x * self.w)


def test_compiled_dropout_draws_a_fresh_mask_each_step() -> None:
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = Probe()
        loss_net = nn.WithLossCell(net, nn.MSELoss())
        step = nn.TrainOneStepCell(loss_net, nn.SGD(net.trainable_params(), 0.0))
        step.set_train()
        x = ms.Tensor(np.ones((2, 4000), np.float32))
        losses = [float(step(x, ops.zeros((2, 4000))).asnumpy()) for _ in range(3)]
        net.set_train(True)
        masks = [net(x).asnumpy() != 0 for _ in range(2)]
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    kept = masks[0].mean()
    assert 0.72 < kept < 0.78
    assert (masks[0] != masks[1]).any()
    # each loss is mean((x * mask / 0.75)^2) = kept / 0.75^2, about 1 / 0.75
    for loss in losses:
        assert abs(loss - 1 / 0.75) < 0.05
    assert len(set(losses)) > 1
