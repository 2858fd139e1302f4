"""A hybridized mx.nd.contrib.while_loop traces to one ONNX Loop (not the steps unrolled): its outputs
equal eager's for inputs that take any number of steps (none, some, max_iterations), in the compiled block
and in onnxruntime on the exported file; gradients under autograd.record() equal eager's."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import onnx
import onnxruntime as ort

import cellonnx
import cellonnx.mxnet as mx
from cellonnx.mxnet import autograd, nd
from tests.tolerance import assert_close


class _Grow(mx.gluon.HybridBlock):
    """Apply a dense layer until the state's total passes a bound (data-dependent step count)."""

    def __init__(self) -> None:
        super().__init__()
        self.dense = mx.gluon.nn.Dense(3, in_units=3)

    def hybrid_forward(self, F: Any, x: Any) -> Any:
        def cond(i: Any, s: Any) -> Any:
            return s.abs().sum() < 40

        def func(i: Any, s: Any) -> Any:
            nxt = F.relu(self.dense(s)) + s * 1.5
            return [nxt * 2, i], [i + 1, nxt]

        outs, (steps, state) = F.contrib.while_loop(cond, func, [F.zeros((1,)), x], max_iterations=6)
        return outs[0].sum(axis=2), outs[1], steps, state


def _net() -> _Grow:
    net = _Grow()
    net.initialize(mx.init.Uniform(0.3))
    return net


def _inputs() -> list[np.ndarray]:
    """Inputs taking 1, a few and all 6 steps (MXNet's eager while_loop returns no outputs for 0 steps)."""
    return [np.full((2, 3), 5.0, np.float32), np.full((1, 3), 3.0, np.float32),
            np.full((3, 3), 0.01, np.float32), np.zeros((2, 3), np.float32)]


def _steps(net: _Grow, x: np.ndarray) -> int:
    return int(net(nd.array(x))[2].asnumpy()[0])


def test_step_counts_differ() -> None:
    net = _net()
    counts = [_steps(net, x) for x in _inputs()]
    assert counts[0] == 1 and counts[-1] == 6 and len(set(counts)) >= 3, counts


def test_export_is_one_loop_run_by_onnxruntime(tmp_path: Path) -> None:
    net = _net()
    eager = [[o.asnumpy() for o in net(nd.array(x))] for x in _inputs()]
    net.hybridize()
    net(nd.array(_inputs()[1]))  # traced on an input taking a few steps
    for x, want in zip(_inputs(), eager):
        for g, w in zip(net(nd.array(x)), want):
            assert_close(g.asnumpy(), w, rtol=1e-6, scale_rtol=1e-6, what="compiled block")
    path = tmp_path / "grow.onnx"
    cellonnx.export(net, cellonnx.Tensor(shape=(None, 3), dtype=cellonnx.float32), file_name=str(path),
                    file_format="ONNX")
    model = onnx.load(str(path))
    onnx.checker.check_model(model, full_check=True)
    ops = [n.op_type for n in model.graph.node]
    assert ops.count("Loop") == 1 and "Gemm" not in ops and "MatMul" not in ops, ops
    session = ort.InferenceSession(str(path))
    name = session.get_inputs()[0].name
    for x, want in zip(_inputs(), eager):
        for g, w in zip(session.run(None, {name: x}), want):
            assert g.shape == w.shape
            assert_close(g, w, rtol=1e-6, scale_rtol=1e-6, what="onnxruntime")


class _Count(mx.gluon.HybridBlock):
    """A counted loop (the condition reads the counter only), which a training trace can unroll."""

    def __init__(self) -> None:
        super().__init__()
        self.dense = mx.gluon.nn.Dense(3, in_units=3)

    def hybrid_forward(self, F: Any, x: Any) -> Any:
        outs, (_, state) = F.contrib.while_loop(
            lambda i, s: i < 3, lambda i, s: ([F.tanh(s) * 2], [i + 1, F.relu(self.dense(s)) + s]),
            [F.zeros((1,)), x], max_iterations=5)
        return outs[0].sum(axis=0) + state


def test_gradients_equal_eager(tmp_path: Path) -> None:
    """Under autograd.record() the compiled training graph keeps the loop unrolled (ONNX has no gradient of
    Loop); the export of the same block is a Loop."""
    net = _Count()
    net.initialize(mx.init.Uniform(0.3))
    x = np.random.default_rng(0).normal(size=(2, 3)).astype(np.float32)
    weights = np.random.default_rng(1).normal(size=(2, 3)).astype(np.float32)

    def grads() -> list[np.ndarray]:
        xx = nd.array(x)
        xx.attach_grad()
        with autograd.record():
            loss = (net(xx) * nd.array(weights)).sum()
        loss.backward()
        return [xx.grad.asnumpy(), net.dense.weight.grad().asnumpy(), net.dense.bias.grad().asnumpy()]

    eager = grads()
    want = net(nd.array(x)).asnumpy()
    net.hybridize()
    for g, w in zip(grads(), eager):
        assert_close(g, w, rtol=1e-5, scale_rtol=1e-6, what="hybridized gradient")
    path = tmp_path / "count.onnx"
    cellonnx.export(net, cellonnx.Tensor(shape=(None, 3), dtype=cellonnx.float32), file_name=str(path),
                    file_format="ONNX")
    assert [n.op_type for n in onnx.load(str(path)).graph.node].count("Loop") == 1
    session = ort.InferenceSession(str(path))
    got = session.run(None, {session.get_inputs()[0].name: x})[0]
    assert_close(got, want, rtol=1e-6, scale_rtol=1e-6, what="onnxruntime")


def test_npx_while_loop_returns_np_arrays() -> None:
    """MXNet 2.x's npx.while_loop: the same loop over mx.np arrays."""
    outs, (_, state) = mx.npx.while_loop(lambda i, s: i < 3, lambda i, s: ([s * 2], [i + 1, s + 1]),
                                         [mx.np.zeros((1,)), mx.np.ones((2,))], max_iterations=4)
    assert isinstance(outs[0], mx.np.ndarray) and isinstance(state, mx.np.ndarray)
    np.testing.assert_array_equal(outs[0].asnumpy(), [[2, 2], [4, 4], [6, 6], [0, 0]])
    np.testing.assert_array_equal(state.asnumpy(), [4, 4])
