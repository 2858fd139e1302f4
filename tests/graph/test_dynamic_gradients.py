"""Gradients of a graph with a dynamic batch: a row sliced off the batch (``x[0:1]``, ``x[-1:]``) and
broadcast back over it sums its gradient over the batch at every batch size. Each function's gradient is
traced with the batch dynamic at an example batch, run by onnxruntime at other batches and compared with the
eager gradient there (the training-step form is in tests/train_graph/test_wrappers.py)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import onnx
import onnxruntime as ort
import pytest

import cellonnx as ms
from cellonnx import ops
from cellonnx.graph.optimize import optimize
from cellonnx.graph.trace import trace
from cellonnx.tensor import Tensor
from tests.tolerance import assert_close, sum_rtol

W = np.linspace(-1.0, 1.0, 12, dtype=np.float32).reshape(3, 4)

# name -> (function of x (batch, 3, 4), the smallest batch it is traced and run at). A slice's bounds are
# clamped to the batch the graph runs at, as NumPy clamps them: x[0:2] traced at batch 3 and run at batch 1
# takes one row (and x[1:3] none), so its gradient has the runtime batch's rows
FUNCTIONS: dict[str, tuple[Callable[[Any], Any], int]] = {
    "minus first row": (lambda x: x - x[0:1], 1),
    "times first row broadcast_to": (lambda x: x * ops.broadcast_to(x[0:1], x.shape), 1),
    "first row expand_as": (lambda x: ops.tanh(x) + x[:1].expand_as(x), 1),
    "plus last row": (lambda x: x + x[-1:], 1),
    "second row from the end": (lambda x: x * x[-2:-1], 2),
    "first row tiled": (lambda x: x * ops.tile(x[0:1], (x.shape[0], 1, 1)), 1),
    "first two rows summed": (lambda x: x + x[0:2].sum(0, keepdims=True), 1),
    "rows one and two summed": (lambda x: x * x[1:3].sum(0, keepdims=True), 1),
    "last two rows summed": (lambda x: x * x[-2:].sum(0, keepdims=True), 1),
    "all but the last two rows summed": (lambda x: x * x[:-2].sum(0, keepdims=True), 1),
    "rows one to the second from the end": (lambda x: x * x[1:-1].sum(0, keepdims=True), 1),
    "first row of a product": (lambda x: x * (x * Tensor(W))[0:1], 1),
    "first row through narrow": (lambda x: x - ops.narrow(x, 0, 0, 1), 1),
    "minus the batch mean": (lambda x: x - x.mean(0, keep_dims=True), 1),
}
CASES = sorted({(name, ex) for name, (_, least) in FUNCTIONS.items() for ex in (least, 3)})


def _loss(f: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda x: ops.sum(f(x) * Tensor(W))


def _x(batch: int) -> np.ndarray:
    return np.random.default_rng(batch).standard_normal((batch, 3, 4)).astype(np.float32)


@pytest.mark.parametrize(("name", "example"), CASES, ids=[f"{n}-at-{e}" for n, e in CASES])
def test_gradient_with_a_dynamic_batch(name: str, example: int) -> None:
    fn, least = FUNCTIONS[name]
    loss = _loss(fn)
    g, _ = trace(lambda x: ms.grad(loss)(x), [("x", Tensor(_x(example)), [None, 3, 4])])
    model = optimize(g.model())
    onnx.checker.check_model(model, full_check=True)
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    for batch in sorted({least, 2, 5}):
        x = _x(batch)
        (got,) = sess.run(None, {"x": x})
        want = ms.grad(loss)(Tensor(x)).asnumpy()
        assert_close(got, want, rtol=1e-5, scale_rtol=sum_rtol(batch), what=f"{name} at batch {batch}")


# Two dynamic dims (batch, sequence) traced where the example's sizes are equal (both 1, or both 2): the
# graph names the two axes of its input apart (d0, d1), so a shape that swaps them is not the same shape.
# name -> function of x (batch, sequence, 4)
TWO_DIMS: dict[str, Callable[[Any], Any]] = {
    "reshape to (sequence, batch)": lambda x: ops.reshape(x, (x.shape[1], x.shape[0], 4)).cumsum(0),
    "sequence mean and first step": lambda x: x * (x.mean(1, keep_dims=True) + x[:, :, 0:1]),
    "positions along the sequence": lambda x: x * ops.arange(x.shape[1]).astype(ms.float32)[:, None],
    "ones of (batch, sequence, 1)": lambda x: x * ops.ones((x.shape[0], x.shape[1], 1), ms.float32),
    "sequence by sequence eye": lambda x: ops.matmul(ops.eye(x.shape[1], x.shape[1], ms.float32), x),
    "attention over the sequence": lambda x: ops.matmul(ops.softmax(x @ x.transpose(0, 2, 1), -1), x),
    "batch sum broadcast back": lambda x: x + ops.broadcast_to(x.sum(0, keepdims=True), x.shape),
}
TWO_CASES = sorted((name, ex) for name in TWO_DIMS for ex in (1, 2))


def _bt(batch: int, steps: int) -> np.ndarray:
    return np.random.default_rng(10 * batch + steps).standard_normal((batch, steps, 4)).astype(np.float32)


@pytest.mark.parametrize(("name", "example"), TWO_CASES, ids=[f"{n}-at-{e}x{e}" for n, e in TWO_CASES])
def test_two_dynamic_dims_equal_in_the_example(name: str, example: int) -> None:
    loss = (lambda f: lambda x: ops.sum(ops.tanh(f(x)) * Tensor(W[0])))(TWO_DIMS[name])
    for what, fn in (("value", loss), ("gradient", ms.grad(loss))):
        g, _ = trace(fn, [("x", Tensor(_bt(example, example)), [None, None, 4])])
        model = optimize(g.model())
        sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
        for bt in ((3, 5), (5, 3), (1, 4), (4, 1), (1, 1)):
            x = _bt(*bt)
            (got,) = sess.run(None, {"x": x})
            want = fn(Tensor(x)).asnumpy()
            assert_close(got, want, rtol=1e-5, scale_rtol=sum_rtol(bt[0] * bt[1] * 4),
                         what=f"{name}: {what} at {bt}")
