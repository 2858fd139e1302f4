"""What a compiled training step cannot express fails while it is traced, naming the line and the fix;
nothing runs eagerly instead."""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import nn, ops
from cellonnx.graph.trace import LoweringError, TraceError
from cellonnx.ops.registry import Op


class _NoLowering(Op):
    """An op with a forward and a gradient but no ONNX lowering."""

    def forward(self, x):
        return x * 2

    def backward(self, ctx, g):
        return (ops.mul(g, 2.0),)


class BranchOnValue(nn.Cell):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Dense(3, 2)

    def construct(self, x: Any) -> Any:
        y = self.fc(x)
        if ops.sum(y) > 0:  # a Python branch on a value
            y = y * 2
        return y


class ReadsParameter(nn.Cell):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Dense(3, 2)

    def construct(self, x: Any) -> Any:
        scale = float(self.fc.weight.asnumpy().max())  # the value would be frozen into the graph
        return self.fc(x) * scale


class UsesUnlowered(nn.Cell):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Dense(3, 2)

    def construct(self, x: Any) -> Any:
        return _NoLowering.apply(self.fc(x))


def _step(net: nn.Cell) -> nn.Cell:
    loss = nn.MSELoss()
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.SGD(net.trainable_params(), 0.1))
    step.set_train()
    return step


HERE = r"test_errors\.py:\d+: "
CASES = {
    "branch_on_value": (BranchOnValue, TraceError, HERE + r"Python control flow .* ops\.where"),
    "reads_parameter": (ReadsParameter, TraceError, HERE + r"the value of parameter 'fc\.weight'"),
    "no_lowering": (UsesUnlowered, LoweringError, HERE + r"op _NoLowering cannot be written as ONNX"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_untraceable_step_names_the_line(name: str) -> None:
    make, error, pattern = CASES[name]
    step = _step(make())
    before = {n: p.asnumpy().copy() for n, p in step.parameters_and_names()}
    x = ms.Tensor(np.ones((4, 3), np.float32))
    y = ms.Tensor(np.zeros((4, 2), np.float32))
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        with pytest.raises(error, match=pattern):
            step(x, y)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    for n, p in step.parameters_and_names():  # nothing ran eagerly instead
        assert (p.asnumpy() == before[n]).all(), n
