"""Random ops and dropout beyond the op table: seeding and reproducibility, shapes and dtypes, moments, and
the ONNX lowering run by onnxruntime (whose generator is not NumPy's, so it is checked statistically; dropout
from opset 18 draws NumPy's bits, see test_counter_rng.py)."""
from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest

from cellonnx import ops
from cellonnx.graph.trace import trace
from cellonnx.ops.registry import OpError
from cellonnx.tensor import Tensor

OPSETS = (13, 15, 18, 21)


def _export(fn, inputs, opset, dynamic=False):
    specs = [(f"x{i}", Tensor(a), [None if dynamic and j == 0 else d for j, d in enumerate(a.shape)])
             for i, a in enumerate(inputs)]
    g, _ = trace(fn, specs, opset=opset, name="random")
    model = g.model()
    onnx.checker.check_model(model, full_check=True)
    return model


def _session(model):
    return ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])


def _run(model, *inputs):
    sess = _session(model)
    return sess.run(None, {i.name: a for i, a in zip(sess.get_inputs(), inputs)})


# ---------------------------------------------------------------- seeding
def test_set_seed_reproduces_every_sampler():
    def draw():
        return [ops.randn(3, 4), ops.rand(5), ops.randint(0, 10, (6,)), ops.normal((2, 2), 1.0, 2.0),
                ops.uniform((3,), -1.0, 1.0), ops.bernoulli(ops.zeros(8), 0.5), ops.standard_normal((4,)),
                ops.dropout(ops.ones(10), 0.5), ops.dropout2d(ops.ones((2, 3, 1, 1)), 0.5)]

    ops.set_seed(42)
    first = [t.asnumpy().copy() for t in draw()]
    ops.set_seed(42)
    second = [t.asnumpy() for t in draw()]
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a, b)
    ops.set_seed(43)
    assert not np.array_equal(first[0], ops.randn(3, 4).asnumpy())
    assert ops.get_seed() == 43


def test_op_seed_stream_is_independent_of_global_draws():
    ops.set_seed(7)
    a = ops.randn(5, seed=3).asnumpy().copy()
    a2 = ops.randn(5, seed=3).asnumpy().copy()
    ops.set_seed(7)
    ops.randn(100)  # consumes the global stream only
    b = ops.randn(5, seed=3).asnumpy()
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, a2), "an op-level stream continues across calls"
    ops.set_seed(8)
    assert not np.array_equal(a, ops.randn(5, seed=3).asnumpy()), "the op stream depends on the global seed"


@pytest.mark.parametrize("bad", [-1, 1.5, "3", True])
def test_set_seed_rejects(bad):
    with pytest.raises(ValueError, match="set_seed"):
        ops.set_seed(bad)


# ---------------------------------------------------------------- shapes, dtypes, moments
def test_shapes_and_dtypes():
    ops.set_seed(0)
    assert ops.randn(2, 3).shape == (2, 3) and ops.randn(2, 3).asnumpy().dtype == np.float32
    assert ops.randn((2, 3), dtype="float64").asnumpy().dtype == np.float64
    assert ops.rand(4, dtype="float16").asnumpy().dtype == np.float16
    assert ops.randint(0, 3, (2, 2)).asnumpy().dtype == np.int64
    assert ops.randint(0, 3, (2, 2), dtype="int32").asnumpy().dtype == np.int32
    ints = ops.uniform((4, 2), Tensor(1, dtype="int32"), Tensor(2, dtype="int32"), dtype="int32").asnumpy()
    assert ints.dtype == np.int32 and (ints == 1).all()
    # MindSpore's broadcasting examples: shape (3, 1, 2) with a (2, 2) mean gives (3, 2, 2)
    mean = Tensor(np.array([[3, 4], [5, 6]], np.float32))
    assert ops.normal((3, 1, 2), mean, Tensor(1.0)).shape == (3, 2, 2)
    assert ops.uniform((3, 1, 2), mean, Tensor([8.0, 10.0])).shape == (3, 2, 2)
    x = Tensor(np.array([1, 2, 3], np.int8))
    out = ops.bernoulli(x, 1.0).asnumpy()
    assert out.dtype == np.int8 and (out == 1).all()
    np.testing.assert_array_equal(ops.bernoulli(x, Tensor(np.array([0.0, 1.0, 1.0]))).asnumpy(), [0, 1, 1])
    assert ops.rand_like(Tensor(np.zeros((2, 5), np.float64))).asnumpy().dtype == np.float64
    assert ops.randint_like(Tensor(np.zeros(4, np.int32)), 0, 9).asnumpy().dtype == np.int32


def test_uniform_tensor_bounds_stay_inside():
    ops.set_seed(1)
    lo = Tensor(np.array([[0.0], [10.0]], np.float32))
    out = ops.uniform((2, 5000), lo, lo + 1.0).asnumpy()
    assert (out[0] >= 0).all() and (out[0] < 1).all() and (out[1] >= 10).all() and (out[1] < 11).all()


def test_randint_covers_range():
    ops.set_seed(2)
    values = ops.randint(3, 9, (10_000,)).asnumpy()
    assert set(np.unique(values)) == set(range(3, 9))


def test_bad_arguments():
    with pytest.raises(ValueError, match="bernoulli"):
        ops.bernoulli(ops.zeros(3), 1.5)
    with pytest.raises(OpError, match="Bernoulli"):
        ops.bernoulli(ops.zeros(2), Tensor(np.array([0.5, 2.0], np.float32)))
    with pytest.raises(ValueError, match="randint"):
        ops.randint(5, 5, (2,))
    with pytest.raises(ValueError, match="uniform"):
        ops.uniform((2,), 1.0, 0.0)
    with pytest.raises(ValueError, match="dropout"):
        ops.dropout(ops.ones(3), 1.5)
    with pytest.raises(ValueError, match="dropout2d"):
        ops.dropout2d(ops.ones((2, 3)))
    with pytest.raises(TypeError, match="dropout"):
        ops.dropout(Tensor(np.arange(3)))


# ---------------------------------------------------------------- dropout
def test_dropout_values_and_gradient():
    ops.set_seed(3)
    x = Tensor(np.random.default_rng(0).uniform(1, 2, (200, 300)).astype(np.float32))
    y, g = ops.value_and_grad(lambda t: ops.sum(ops.dropout(t, 0.2)))(x)
    del y
    ops.set_seed(3)
    out = ops.dropout(x, 0.2).asnumpy()
    kept = out != 0
    np.testing.assert_allclose(out[kept], x.asnumpy()[kept] / 0.8, rtol=1e-6)
    assert abs(1 - kept.mean() - 0.2) < 0.01
    # the gradient uses the forward's mask: 1/(1-p) where kept, 0 where dropped
    np.testing.assert_allclose(g.asnumpy(), kept / 0.8, rtol=1e-6)


def test_dropout_eval_returns_input_and_leaves_no_node():
    x = Tensor(np.ones((2, 3), np.float32))
    assert ops.dropout(x, 0.5, training=False) is x
    model = _export(lambda t: ops.dropout(t, 0.5, training=False) * 2.0, [np.ones((2, 3), np.float32)], 18)
    assert [n.op_type for n in model.graph.node] == ["Mul"]


def test_dropout2d_zeroes_whole_channels():
    ops.set_seed(4)
    out = ops.dropout2d(ops.ones((50, 40, 3, 3)), 0.5).asnumpy()
    per_channel = out.reshape(50, 40, -1)
    assert ((per_channel == 0).all(-1) | (per_channel == 2.0).all(-1)).all()
    assert abs((per_channel == 0).all(-1).mean() - 0.5) < 0.05


# ---------------------------------------------------------------- ONNX lowering under onnxruntime
@pytest.mark.parametrize("opset", OPSETS)
def test_dropout_training_lowering(opset):
    x = np.random.default_rng(1).uniform(1, 2, (400, 500)).astype(np.float32)
    ops.set_seed(3)
    model = _export(lambda t: ops.dropout(t, 0.3, seed=11), [x], opset)
    kinds = [n.op_type for n in model.graph.node]
    (out,) = _run(model, x)
    kept = out != 0
    np.testing.assert_allclose(out[kept], x[kept] / 0.7, rtol=1e-6)
    assert abs(1 - kept.mean() - 0.3) < 0.01
    (again,) = _run(model, x)
    np.testing.assert_array_equal(out, again)  # a seeded node reproduces itself in a fresh session
    if opset >= 18:   # the counter generator: the graph draws the eager mask (the state it was traced at)
        assert "BitwiseXor" in kinds and "Dropout" not in kinds
        ops.set_seed(3)
        np.testing.assert_array_equal(out, ops.dropout(Tensor(x), 0.3, seed=11).asnumpy())
    else:             # no bitwise ops: onnxruntime's generator
        assert "RandomUniformLike" in kinds


@pytest.mark.parametrize("opset", OPSETS)
def test_dropout2d_lowering(opset):
    x = np.ones((200, 50, 2, 2), np.float32)
    model = _export(lambda t: ops.dropout2d(t, 0.4), [x], opset, dynamic=True)
    (out,) = _run(model, np.ones((300, 50, 2, 2), np.float32))
    per_channel = out.reshape(300, 50, -1)
    assert ((per_channel == 0).all(-1) | np.isclose(per_channel, 1 / 0.6).all(-1)).all()
    assert abs((per_channel == 0).all(-1).mean() - 0.4) < 0.02


SAMPLERS = {
    "randn": (lambda x: x + ops.randn(400, 500, seed=3), 0.0, 1.0, np.float32),
    "normal": (lambda x: x + ops.normal((400, 500), 2.0, 3.0, seed=3), 2.0, 3.0, np.float32),
    "rand": (lambda x: x + ops.rand(400, 500, seed=3), 0.5, 1 / np.sqrt(12), np.float32),
    "uniform": (lambda x: x + ops.uniform((400, 500), -2.0, 6.0, seed=3), 2.0, 8 / np.sqrt(12), np.float32),
    "randn_float64": (lambda x: ops.cast(x, "float64") + ops.randn(400, 500, dtype="float64"), 0.0, 1.0,
                      np.float64),
    "randint": (lambda x: ops.randint(-3, 4, (400, 500), seed=3), 0.0, 2.0, np.int64),
    "bernoulli": (lambda x: ops.bernoulli(x, 0.25, seed=3), 0.25, np.sqrt(0.25 * 0.75), np.float32),
    "bernoulli_tensor_p": (lambda x: ops.bernoulli(x, x * 0.0 + 0.7), 0.7, np.sqrt(0.21), np.float32),
}


@pytest.mark.parametrize("opset", OPSETS)
@pytest.mark.parametrize("name", list(SAMPLERS))
def test_sampler_lowering_statistics(name, opset):
    fn, mean, std, dtype = SAMPLERS[name]
    x = np.zeros((400, 500), np.float32)
    eager = fn(Tensor(x)).asnumpy()
    model = _export(fn, [x], opset)
    (out,) = _run(model, x)
    assert out.shape == eager.shape == (400, 500)
    assert out.dtype == eager.dtype == dtype
    for sample in (eager, out):
        assert abs(sample.mean() - mean) < 0.02 * max(std, 1.0)
        assert abs(sample.std() - std) < 0.02 * max(std, 1.0)
    if name == "randint":
        assert set(np.unique(out)) == set(range(-3, 4))


@pytest.mark.parametrize("opset", (13, 18))
def test_seeded_lowering_reproduces_across_sessions(opset):
    model = _export(lambda x: x + ops.randn(3, 4, seed=9), [np.zeros((3, 4), np.float32)], opset)
    assert any(a.name == "seed" for n in model.graph.node for a in n.attribute)
    x = np.zeros((3, 4), np.float32)
    np.testing.assert_array_equal(_run(model, x)[0], _run(model, x)[0])


@pytest.mark.parametrize("opset", (13, 21))
def test_like_samplers_follow_dynamic_shapes(opset):
    model = _export(lambda x: ops.rand_like(x) + ops.randn_like(x) * 0.0, [np.zeros((2, 3), np.float32)],
                    opset, dynamic=True)
    (out,) = _run(model, np.zeros((7, 3), np.float32))
    assert out.shape == (7, 3) and (out >= 0).all() and (out < 1).all()


@pytest.mark.parametrize("opset", (13, 18))
def test_scalar_shape_sample(opset):
    model = _export(lambda x: x + ops.standard_normal(()), [np.zeros((), np.float32)], opset)
    (out,) = _run(model, np.zeros((), np.float32))
    assert out.shape == () and np.isfinite(out)
