"""What a compiled training step cannot express fails while it is traced, naming the line (and the library
line under it) and the fix; nothing runs eagerly instead: a Python branch or loop on a tensor's value, a
value read into Python (asnumpy, item, NumPy functions), a tensor printed (print, f-strings, ops.Print: they
would show the trace's values once), an op without an ONNX lowering and an op that runs eagerly only."""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import nn, ops
from cellonnx.graph.trace import LoweringError, TraceError
from cellonnx.ops.prims._eager import NotExportable
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


class PrintsActivation(nn.Cell):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Dense(3, 2)

    def construct(self, x: Any) -> Any:
        y = self.fc(x)
        print(y)  # would print the trace's values once
        return y


class PrintOpOfParameter(nn.Cell):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Dense(3, 2)
        self.show = ops.Print()

    def construct(self, x: Any) -> Any:
        self.show("weight:", self.fc.weight)
        return self.fc(x)


class FormatsActivation(nn.Cell):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Dense(3, 2)

    def construct(self, x: Any) -> Any:
        y = self.fc(x)
        self.label = f"loss {ops.sum(y):.3f}"
        return y


class AsnumpyOfActivation(nn.Cell):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Dense(3, 2)

    def construct(self, x: Any) -> Any:
        y = self.fc(x)
        return y / float(y.asnumpy().max())


class ItemOfSum(nn.Cell):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Dense(3, 2)

    def construct(self, x: Any) -> Any:
        y = self.fc(x)
        return y * ops.sum(y).item()


class NumpyOnActivation(nn.Cell):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Dense(3, 2)

    def construct(self, x: Any) -> Any:
        return ms.Tensor(np.tanh(self.fc(x)))


class WhileOnValue(nn.Cell):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Dense(3, 2)

    def construct(self, x: Any) -> Any:
        y = self.fc(x)
        while ops.sum(y) > 100:
            y = y / 2
        return y


class BranchOnInput(nn.Cell):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Dense(3, 2)

    def construct(self, x: Any) -> Any:
        y = self.fc(x)
        if x[0, 0] > 0:
            y = y * 2
        return y


class EagerOnlyOp(nn.Cell):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Dense(3, 2)

    def construct(self, x: Any) -> Any:
        y = self.fc(x)
        eye = ops.eye(2, 2, ms.float32)
        return ops.matmul(y, ops.matrix_solve(ops.matmul(y.T, y) + eye, eye))


def _step(net: nn.Cell) -> nn.Cell:
    loss = nn.MSELoss()
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.SGD(net.trainable_params(), 0.1))
    step.set_train()
    return step


HERE = r"test_errors\.py:\d+: "
INSIDE = r"test_errors\.py:\d+ \(in .*cellonnx.*\.py:\d+\): "  # the user's line, then the library's
READ = r"the value of a tensor computed in the graph is read into Python .* PYNATIVE_MODE"
COMPUTED = "a tensor computed in the graph "
PRINTED = r"is printed while a training step is compiled; .* print it there, or run the step in PYNATIVE_MODE"
CASES = {
    "branch_on_value": (BranchOnValue, TraceError, HERE + r"Python control flow .* ops\.where"),
    "branch_on_input": (BranchOnInput, TraceError, HERE + r"Python control flow .* ops\.where"),
    "while_on_value": (WhileOnValue, TraceError, HERE + r"Python control flow .* ops\.while_loop"),
    "reads_parameter": (ReadsParameter, TraceError, HERE + r"the value of parameter 'fc\.weight'"),
    "asnumpy_of_activation": (AsnumpyOfActivation, TraceError, HERE + READ),
    "item_of_sum": (ItemOfSum, TraceError, HERE + READ),
    "numpy_on_activation": (NumpyOnActivation, TraceError, HERE + READ),
    "print_of_activation": (PrintsActivation, TraceError, HERE + COMPUTED + PRINTED),
    "format_of_activation": (FormatsActivation, TraceError, HERE + COMPUTED + PRINTED),
    "ops_Print_of_parameter": (PrintOpOfParameter, TraceError, INSIDE + "parameter 'fc.weight' " + PRINTED),
    "no_lowering": (UsesUnlowered, LoweringError, HERE + r"op _NoLowering cannot be written as ONNX"),
    "eager_only_op": (EagerOnlyOp, NotExportable,
                      INSIDE + r"ops\.matrix_solve cannot be exported to ONNX: .*run this code in "
                      r"PYNATIVE_MODE"),
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


def test_jit_step_printing_its_loss_names_the_line() -> None:
    net = nn.Dense(3, 2)
    opt = nn.SGD(net.trainable_params(), 0.1)
    loss_fn = nn.MSELoss()
    grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)

    @ms.jit
    def train_step(x: Any, y: Any) -> Any:
        loss, grads = grad_fn(x, y)
        print("loss", loss)
        opt(grads)
        return loss

    before = net.weight.asnumpy().copy()
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        with pytest.raises(TraceError, match=HERE + COMPUTED + PRINTED):
            train_step(ms.Tensor(np.ones((4, 3), np.float32)), ms.Tensor(np.zeros((4, 2), np.float32)))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert (net.weight.asnumpy() == before).all()


def test_hybridized_block_printing_under_record_names_the_line() -> None:
    import cellonnx.mxnet as mx

    class Printing(mx.gluon.HybridBlock):
        def __init__(self) -> None:
            super().__init__()
            self.fc = mx.gluon.nn.Dense(2, in_units=3)

        def forward(self, x: Any) -> Any:
            y = self.fc(x)
            print(y)
            return y

    net = Printing()
    net.initialize()
    net.hybridize()
    with pytest.raises(TraceError, match=HERE + COMPUTED + r"is printed .* call hybridize\(False\)"):
        with mx.autograd.record():
            net(mx.np.ones((4, 3)))


class KeywordOnly(nn.Cell):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Dense(3, 2)

    def construct(self, x: Any, *, scale: float = 1.0) -> Any:
        return self.fc(x) * scale


def test_keyword_only_call_says_it_runs_eagerly() -> None:
    """The one GRAPH_MODE call that runs eagerly (a keyword-only argument) says so, naming the cell and the
    arguments, at the caller's line."""
    net = KeywordOnly()
    x = ms.Tensor(np.ones((2, 3), np.float32))
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        with pytest.warns(UserWarning, match=r"GRAPH_MODE: KeywordOnly is called with \['scale'\].* runs "
                                             r"eagerly") as seen:
            out = net(x, scale=2.0)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert seen[0].filename == __file__
    np.testing.assert_allclose(out.asnumpy(), net.fc(x).asnumpy() * 2.0, rtol=1e-6)
