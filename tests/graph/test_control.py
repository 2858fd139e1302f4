"""Control flow: eager semantics and gradients, and the ONNX If / Loop / Scan they trace into, run in
onnxruntime on inputs that take other paths than the traced example."""
from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest

from cellonnx import ops
from cellonnx.graph.optimize import optimize
from cellonnx.graph.trace import StaticDimRequired, trace
from cellonnx.tensor import Tensor
from tests.tolerance import assert_close, sum_rtol


def _model(fn, *examples, dynamic=False):
    specs = [(f"x{i}", Tensor(e), [None] * e.ndim if dynamic else list(e.shape)) for i, e in enumerate(examples)]
    g, _ = trace(fn, specs)
    model = optimize(g.model())
    onnx.checker.check_model(model, full_check=True)
    return ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]), model


def _run(sess, *arrays):
    return sess.run(None, {i.name: a for i, a in zip(sess.get_inputs(), arrays)})


def cond_fn(x):
    return ops.cond(ops.sum(x) > 0, lambda: x * 2.0, lambda: ops.exp(x))


def test_cond_eager_and_gradient() -> None:
    x = np.array([0.5, -0.2, 0.3], np.float32)
    np.testing.assert_allclose(cond_fn(Tensor(x)).asnumpy(), x * 2)
    np.testing.assert_allclose(cond_fn(Tensor(-x)).asnumpy(), np.exp(-x), rtol=1e-6)
    g = ops.grad(lambda t: ops.sum(cond_fn(t)))(Tensor(-x))
    np.testing.assert_allclose(g.asnumpy(), np.exp(-x), rtol=1e-6)


def test_cond_lowers_to_if_and_takes_both_branches() -> None:
    x = np.array([0.5, -0.2, 0.3], np.float32)
    sess, model = _model(cond_fn, x)
    assert [n.op_type for n in model.graph.node if n.op_type == "If"] == ["If"]
    for v in (x, -x):
        np.testing.assert_allclose(_run(sess, v)[0], cond_fn(Tensor(v)).asnumpy(), rtol=1e-6)


def doubling(x):
    return ops.while_loop(lambda v: ops.sum(v) < 100.0, lambda v: v * 2.0, x)


def test_while_loop_runs_data_dependent_iterations() -> None:
    sess, model = _model(doubling, np.array([1.0, 2.0], np.float32))
    assert "Loop" in {n.op_type for n in model.graph.node}
    for v in ([1.0, 2.0], [30.0, 1.0], [200.0, 0.0]):
        a = np.array(v, np.float32)
        np.testing.assert_allclose(_run(sess, a)[0], doubling(Tensor(a)).asnumpy())


def test_while_loop_gradient_through_taken_iterations() -> None:
    # three doublings for this input: d/dx sum(8x) = 8
    g = ops.grad(lambda t: ops.sum(doubling(t)))(Tensor(np.array([5.0, 5.0], np.float32)))
    np.testing.assert_allclose(g.asnumpy(), [16.0, 16.0])


def test_fori_loop_with_dynamic_trip_count() -> None:
    def fn(x):
        return ops.fori_loop(0, x.shape[0], lambda i, acc: acc + ops.cast(i, "float32") * x, ops.zeros_like(x))

    x = np.ones((3, 2), np.float32)
    sess, model = _model(fn, x, dynamic=True)
    assert "Loop" in {n.op_type for n in model.graph.node}
    for n in (3, 5):
        a = np.random.default_rng(n).standard_normal((n, 2)).astype(np.float32)
        np.testing.assert_allclose(_run(sess, a)[0], a * sum(range(n)), rtol=1e-5)


def test_scan_cumulative_sum_matches_eager_and_lowers_to_scan() -> None:
    def fn(xs):
        carry, ys = ops.scan(lambda c, x: (c + x, c * 2.0), ops.zeros_like(xs[0]), xs)
        return carry, ys

    xs = np.random.default_rng(0).standard_normal((4, 3)).astype(np.float32)
    carry, ys = fn(Tensor(xs))
    assert_close(carry.asnumpy(), xs.sum(0), rtol=1e-6, scale_rtol=sum_rtol(4))
    assert_close(ys.asnumpy(), 2 * np.concatenate([np.zeros((1, 3)), np.cumsum(xs, 0)[:-1]]), rtol=1e-6,
                 scale_rtol=sum_rtol(4))
    sess, model = _model(fn, xs, dynamic=True)
    assert "Scan" in {n.op_type for n in model.graph.node}
    other = np.random.default_rng(1).standard_normal((6, 3)).astype(np.float32)
    got = _run(sess, other)
    want = fn(Tensor(other))
    for g_, w in zip(got, want):
        assert_close(g_, w.asnumpy(), rtol=1e-5, scale_rtol=sum_rtol(6), what="6-step running sums")


LOOPS = {
    "while_loop": lambda x: ops.while_loop(lambda v: ops.sum(v) < 1e3, lambda v: v * 2.0 + 1.0, x),
    "fori_loop": lambda x: ops.fori_loop(0, 3, lambda i, v: v * 2.0 + 1.0, x),
    "scan carry": lambda x: ops.scan(lambda c, t: (c + t, t), x, ops.ones((4,), "float32"))[0],
}


@pytest.mark.parametrize("loop", sorted(LOOPS))
def test_a_loop_result_keeps_its_initial_values_dims(loop: str) -> None:
    """A carried value's shape is the body's invariant (MindSpore's loops require it): its result has the
    initial value's dims, the dynamic batch included, which ONNX shape inference cannot see through the
    body. So a split of the result's batch refuses as a split of the input's would (the graph could only
    hold the example's count of pieces), and shape arithmetic on it follows the batch."""
    body = LOOPS[loop]
    with pytest.raises(StaticDimRequired, match=r"test_control.py:\d+ .*unbinding it along axis 0"):
        _model(lambda x: ops.unbind(body(x), 0), np.ones((3, 2), np.float32), dynamic=True)

    def flat(x):
        y = body(x)
        return ops.reshape(y, (y.shape[0] * y.shape[1],))

    sess, _ = _model(flat, np.ones((3, 2), np.float32), dynamic=True)
    for n in (1, 5):
        a = np.random.default_rng(n).standard_normal((n, 2)).astype(np.float32)
        assert_close(_run(sess, a)[0], flat(Tensor(a)).asnumpy(), rtol=1e-6, what=f"{loop} at batch {n}")


def test_a_loop_whose_body_changes_a_shape_runs_as_onnx_allows() -> None:
    """A body that grows its value is left to ONNX's Loop (which allows it): its result's dims are open."""
    def fn(x):
        return ops.fori_loop(0, 2, lambda i, v: ops.concat((v, v), 0), x)

    sess, model = _model(fn, np.ones((3, 2), np.float32), dynamic=True)
    assert "Reshape" not in {n.op_type for n in model.graph.node}
    a = np.arange(4, dtype=np.float32).reshape(2, 2)
    np.testing.assert_array_equal(_run(sess, a)[0], np.concatenate([a] * 4))
