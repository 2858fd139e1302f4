"""The counter generator behind dropout (cellonnx/ops/prims/counter_rng.py), with each of its two hashes
(lowbias32 where graphs run on the CPU, squares32 where they run on CUDA; the CUDA form of the graph is run
here by onnxruntime's CPU provider, which has the same integer kernels): its NumPy and onnxruntime forms
agree bit for bit on large arrays, its values are uniform (chi-square, Kolmogorov-Smirnov at fixed seeds)
and independent across neighbouring elements, consecutive draws and seeds, and eager dropout draws from it
with MindSpore's semantics (p, scaling by 1 / (1 - p), P.Dropout's mask)."""
from __future__ import annotations

import itertools

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from scipy import stats

import cellonnx as ms
from cellonnx import ops
from cellonnx.graph.trace import trace
from cellonnx.ops.prims import counter_rng as crng
from cellonnx.ops.prims.dropout import Dropout
from cellonnx.tensor import Tensor

# independent tests at a fixed seed: a p-value this small would be a defect, not chance
ALPHA = 1e-4


@pytest.fixture(autouse=True, params=["lowbias32", "squares32"])
def algo(request, monkeypatch):
    """Draws and traced graphs as for the CPU (lowbias32) or for CUDA (squares32)."""
    from cellonnx.graph import builder

    monkeypatch.setattr(builder, "targets_gpu", lambda: request.param == "squares32")
    assert crng.algorithm() == request.param
    return request.param


def _model(fn, like_shape, dynamic=True):
    x = np.zeros(like_shape, np.float32)
    specs = [("x", Tensor(x), [None if dynamic and i == 0 else d for i, d in enumerate(x.shape)]),
             ("state", Tensor(np.zeros(3, np.int64)), [3])]
    g, _ = trace(fn, specs, opset=18, name="counter_rng")
    model = g.model()
    onnx.checker.check_model(model, full_check=True)
    return model


def _graph(fn, like_shape, dynamic=True):
    model = _model(fn, like_shape, dynamic)
    return ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])


def test_the_cuda_form_has_only_ops_the_cuda_provider_runs(algo):
    """onnxruntime's CUDA provider has no BitwiseXor / BitShift kernels: such a node would run on the CPU
    with a copy each way."""
    model = _model(lambda x, st: Dropout.apply(x, st, p=0.3, salt=crng.salt_of(5)), (4, 7))
    used = {n.op_type for n in model.graph.node}
    bitwise = used & {"BitwiseXor", "BitShift", "BitwiseAnd", "BitwiseOr"}
    assert bool(bitwise) == (algo == "lowbias32"), used


def _state(seed, offset):
    st = crng._state_for(crng.splitmix64(seed))
    st[2] = offset
    return st


@pytest.mark.parametrize("shape", [(1 << 20) + 3, (7, 3, 129), (1,), (0, 5), (2,)])
@pytest.mark.parametrize("salt_seed", [None, 77])
def test_numpy_and_onnxruntime_draw_the_same_bits(shape, salt_seed, algo):
    shape = shape if isinstance(shape, tuple) else (shape,)
    salt = crng.salt_of(salt_seed)
    sess = _graph(lambda x, st: crng.CounterUniform.apply(x, st, salt=salt), shape)
    for seed, offset in ((0, 0), (12345, 1), (2**40 + 7, 2**32 + 5), (3, 2**62)):
        st = _state(seed, offset)
        (got,) = sess.run(None, {"x": np.zeros(shape, np.float32), "state": st})
        want = crng.uniform_np(shape, st, salt)
        assert got.dtype == np.float32 and got.shape == want.shape
        np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))


@pytest.mark.parametrize("p", [0.1, 0.5, 0.9, 1 / 3, 1e-6])
def test_dropout_lowering_equals_eager_bit_for_bit(p):
    sess = _graph(lambda x, st: Dropout.apply(x, st, p=p, salt=(0, 0)), (4, 250, 101))
    x = np.random.default_rng(3).standard_normal((5, 250, 101)).astype(np.float32)
    for offset in (0, 1, 99):
        st = _state(7, offset)
        y, keep = sess.run(None, {"x": x, "state": st})
        want_y, want_keep = Dropout._instance.forward(x, st, p=p, salt=(0, 0))
        np.testing.assert_array_equal(keep, want_keep)
        np.testing.assert_array_equal(y.view(np.uint32), want_y.view(np.uint32))


def test_values_are_uniform():
    n = 1 << 22
    for seed in (0, 1, 2024):
        v = crng.values16(n, _state(seed, 0))
        assert v.max() < 65536
        for bits in (v >> 8, v & 0xFF):   # the high and low bytes of the 16-bit values
            assert stats.chisquare(np.bincount(bits, minlength=256)).pvalue > ALPHA
        assert stats.chisquare(np.bincount(v, minlength=65536)).pvalue > ALPHA
        u = crng.uniform_np((200_000,), _state(seed, 3))
        assert 0.0 <= u.min() and u.max() < 1.0
        assert stats.kstest(u, "uniform").pvalue > ALPHA


def _pairs(a, b):
    """Chi-square p-value of the joint distribution of the top 4 bits of two value arrays."""
    cells = (a >> 12).astype(np.int64) * 16 + (b >> 12)
    return stats.chisquare(np.bincount(cells, minlength=256)).pvalue


def test_values_are_independent_across_elements_draws_and_seeds():
    n = 1 << 21
    for seed in (0, 5):
        v = crng.values16(n, _state(seed, 0))
        for lag in (1, 2, 3, 128, n // 2):   # n // 2: the two halves of the same hashed counter
            assert _pairs(v[:-lag], v[lag:]) > ALPHA, f"lag {lag}"
        nxt = crng.values16(n, _state(seed, 1))   # the next draw (the next training step's mask)
        assert _pairs(v, nxt) > ALPHA
        other = crng.values16(n, _state(seed + 1, 0))
        assert _pairs(v, other) > ALPHA
        salted = crng.values16(n, _state(seed, 0), crng.salt_of(1))
        assert _pairs(v, salted) > ALPHA
    masks = [crng.keep_np((1000, 100), 0.5, _state(0, k)) for k in range(50)]
    # consecutive steps: the fraction of elements whose mask agrees is 1/2, not more
    agree = np.mean([np.mean(a == b) for a, b in itertools.pairwise(masks)])
    assert abs(agree - 0.5) < 0.005


def test_dropout_draws_advance_the_state_and_set_seed_restarts_them():
    x = ops.ones((300, 400))
    ms.set_seed(11)
    first = [ops.dropout(x, 0.3).asnumpy() for _ in range(2)]
    assert int(crng.rng_state().asnumpy()[2]) == 2
    assert (first[0] != first[1]).any()
    ms.set_seed(11)
    again = [ops.dropout(x, 0.3).asnumpy() for _ in range(2)]
    for a, b in zip(first, again):
        np.testing.assert_array_equal(a, b)
    kept = first[0] != 0
    assert abs(kept.mean() - 0.7) < 0.005
    np.testing.assert_allclose(first[0][kept], 1 / 0.7, rtol=1e-6)
    ms.set_seed(12)
    assert (ops.dropout(x, 0.3).asnumpy() != first[0]).any()


def test_op_seed_salts_the_draw():
    x = ops.ones((100, 100))
    ms.set_seed(1)
    a = ops.dropout(x, 0.5, seed=3).asnumpy()
    ms.set_seed(1)
    b = ops.dropout(x, 0.5).asnumpy()
    ms.set_seed(1)
    c = ops.dropout(x, 0.5, seed=3).asnumpy()
    np.testing.assert_array_equal(a, c)
    assert (a != b).any()


def test_p_is_resolved_to_1_over_65536():
    assert crng.threshold(0.1) == 6554 and crng.threshold(0.5) == 32768 and crng.threshold(0.0) == 0
    keep = crng.keep_np((1 << 20,), 0.5, _state(0, 0))
    # about half are kept; exactly the values >= 32768
    assert abs(keep.mean() - 0.5) < 0.002


def test_primitive_dropout_returns_mindspore_mask():
    ms.set_seed(2)
    x = Tensor(np.random.default_rng(0).standard_normal((64, 64)).astype(np.float32))
    out, mask = ops.Dropout(keep_prob=0.8)(x)
    m = mask.asnumpy()
    assert m.dtype == np.float32 and set(np.unique(m)) <= {0.0, 1.0}
    np.testing.assert_allclose(out.asnumpy(), x.asnumpy() * m / 0.8, rtol=1e-6)
    assert abs(m.mean() - 0.8) < 0.02
