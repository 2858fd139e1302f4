"""The math functions beyond the op table: export errors of eager-only ops, ``ops.cond``'s two meanings, the
in-place updates, complex tensors, the samplers' seeding and lowering, and the keyword aliases kept when the
signatures moved to MindSpore's."""
from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest

import cellonnx
from cellonnx import ops
from cellonnx.graph.trace import trace
from cellonnx.ops.prims._eager import NotExportable
from cellonnx.tensor import Parameter, Tensor
from tests.tolerance import assert_close, sum_rtol

X = np.random.default_rng(5).uniform(0.5, 1.5, (3, 3)).astype(np.float32)


def _export(fn, *arrays, opset=18, dynamic=False):
    specs = [(f"x{i}", Tensor(a), [None if dynamic and j == 0 else d for j, d in enumerate(a.shape)])
             for i, a in enumerate(arrays)]
    g, _ = trace(fn, specs, opset=opset, name="extra")
    model = g.model()
    onnx.checker.check_model(model, full_check=True)
    return model


def _run(model, *arrays):
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, {i.name: a for i, a in zip(sess.get_inputs(), arrays)})


# ---------------------------------------------------------------- export of eager-only ops
@pytest.mark.parametrize("name,fn", [
    ("polygamma", lambda x: ops.polygamma(2, x)),
    ("bessel_k1", lambda x: ops.bessel_k1(x)),
    ("matrix_solve", lambda x: ops.matrix_solve(x, x)),
    ("svd", lambda x: ops.svd(x)[0]),
    ("matrix_exp", lambda x: ops.matrix_exp(x)),
    ("fft", lambda x: ops.real(ops.fft(x))),
])
def test_eager_only_ops_name_themselves_when_exported(name, fn):
    assert np.all(np.isfinite(fn(Tensor(X)).asnumpy()))  # eager works
    with pytest.raises(NotExportable, match=rf"ops\.{name} cannot be exported to ONNX"):
        _export(fn, X)


def test_bitwise_ops_need_opset_18():
    ints = np.array([[5, -3], [7, 0]], np.int32)
    with pytest.raises(NotImplementedError, match="opset 18"):
        _export(lambda a: ops.bitwise_and(a, a), ints, opset=17)
    np.testing.assert_array_equal(_run(_export(lambda a: ops.bitwise_and(a, 6), ints, opset=18), ints)[0],
                                  ints & 6)


@pytest.mark.parametrize("fn", [lambda x: ops.cumprod(x, 1), lambda x: ops.cummax(x, 1),
                                lambda x: ops.logcumsumexp(x, 1)])
def test_scan_lowerings_take_a_dynamic_batch(fn):
    model = _export(fn, X, dynamic=True)
    bigger = np.random.default_rng(6).uniform(-1, 1, (5, 3)).astype(np.float32)
    got = _run(model, bigger)
    want = [t.asnumpy() for t in (fn(Tensor(bigger)) if isinstance(fn(Tensor(bigger)), tuple)
                                  else (fn(Tensor(bigger)),))]
    for g, w in zip(got, want):
        assert_close(g, w, rtol=1e-6, scale_rtol=sum_rtol(bigger.shape[1]))


@pytest.mark.parametrize("offset", [0, 1, -1, 3])
@pytest.mark.parametrize("transpose", [False, True])
def test_diagonal_length_follows_a_dynamic_row_count(offset, transpose):
    """The diagonal of a (batch * 2, 3) matrix is min(rows, columns - offset) long, read from the graph: 2
    at batch 1, 3 at batch 2 and 3 (a transposed matrix puts the dynamic dim on the columns)."""
    def fn(x):
        m = ops.reshape(x, (-1, 3))
        return ops.diagonal(m.T if transpose else m, -offset if transpose else offset)

    rng = np.random.default_rng(7)
    model = _export(fn, rng.standard_normal((2, 2, 3)).astype(np.float32), dynamic=True)
    for batch in (1, 2, 3):
        x = rng.standard_normal((batch, 2, 3)).astype(np.float32)
        m = x.reshape(-1, 3)
        want = np.diagonal(m, offset)
        got = _run(model, x)[0]
        assert got.shape == want.shape
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(fn(Tensor(x)).asnumpy(), want)


# ---------------------------------------------------------------- ops.cond: condition number or control flow
def test_cond_is_the_condition_number_without_callables():
    np.testing.assert_allclose(ops.cond(Tensor(X)).asnumpy(), np.linalg.cond(X), rtol=1e-5)
    np.testing.assert_allclose(ops.cond(Tensor(X), "fro").asnumpy(), np.linalg.cond(X, "fro"), rtol=1e-5)
    np.testing.assert_allclose(ops.cond(Tensor(X), p=1).asnumpy(), np.linalg.cond(X, 1), rtol=1e-5)


def test_cond_is_control_flow_with_callables():
    x = Tensor(X)
    assert np.allclose(ops.cond(ops.sum(x) > 0, lambda v: v * 2.0, lambda v: v, x).asnumpy(), X * 2)
    assert np.allclose(ops.cond(Tensor(False), lambda: x, lambda: x + 1.0).asnumpy(), X + 1)
    with pytest.raises(TypeError, match="two callables"):
        ops.cond(Tensor(True), lambda: x)


# ---------------------------------------------------------------- in-place updates
def test_in_place_ops_rebind_their_tensor():
    x = Tensor(np.array([0.5, -1.0], np.float32))
    assert ops.tanh_(x) is x
    np.testing.assert_allclose(x.asnumpy(), np.tanh([0.5, -1.0]), rtol=1e-6)
    ops.clamp_(x, 0.0)
    assert x.asnumpy().min() == 0.0
    y = Tensor(np.array([0.5, 0.1], np.float32))
    ops.erfinv_(y)
    ops.inplace_sigmoid(y)
    import scipy.special as sp
    np.testing.assert_allclose(y.asnumpy(), 1 / (1 + np.exp(-sp.erfinv([0.5, 0.1]))), rtol=1e-6)


def test_in_place_on_a_parameter_is_a_state_update():
    p = Parameter(Tensor(np.zeros((2, 2), np.float32)), name="p")
    out = ops.inplace_index_add(p, Tensor(np.array([1], np.int32)), Tensor(np.ones((1, 2), np.float32)), 0)
    assert p.asnumpy().tolist() == [[0, 0], [1, 1]]
    # MindSpore 2.10 returns a Tensor of the new values, not the Parameter: print(out) shows the values
    assert not isinstance(out, Parameter) and out.asnumpy().tolist() == [[0, 0], [1, 1]]
    ops.inplace_update(p, Tensor(np.full((1, 2), 5.0, np.float32)), (0,))
    assert p.asnumpy().tolist() == [[5, 5], [1, 1]] and p.grad_fn is None


def test_in_place_keeps_gradients_flowing():
    x = Tensor(np.array([0.3, -0.2], np.float64))

    def f(v):
        y = v * 2.0
        ops.tanh_(y)
        return ops.sum(y)

    _, g = ops.value_and_grad(f)(x)
    np.testing.assert_allclose(g.asnumpy(), 2 * (1 - np.tanh([0.6, -0.4]) ** 2), rtol=1e-10)


def test_in_place_refuses_a_leaf_being_differentiated():
    def f(v):
        ops.tanh_(v)
        return ops.sum(v)

    with pytest.raises(RuntimeError, match="tanh_: a leaf tensor"):
        ops.value_and_grad(f)(Tensor(np.array([0.3])))


def test_normal_fill_draws_from_a_numpy_generator():
    a = ops.normal_(Tensor(np.zeros(4, np.float32)), generator=np.random.default_rng(3))
    b = ops.normal_(Tensor(np.zeros(4, np.float32)), generator=np.random.default_rng(3))
    np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())
    with pytest.raises(TypeError, match="generator"):
        ops.uniform_(Tensor(np.zeros(2)), generator=7)


# ---------------------------------------------------------------- complex tensors
def test_complex_tensors_and_dtypes():
    z = Tensor([1 + 2j, 3 - 1j])
    assert z.dtype == cellonnx.dtypes.complex128 and str(z.dtype) == "Complex128"
    assert ops.fft(Tensor(np.ones(4, np.float32))).dtype == cellonnx.dtypes.complex64
    assert cellonnx.dtypes.dtype("complex64") is cellonnx.dtypes.complex64
    np.testing.assert_allclose(ops.abs(z).asnumpy(), np.abs([1 + 2j, 3 - 1j]))
    np.testing.assert_allclose((z * z).asnumpy(), np.array([1 + 2j, 3 - 1j]) ** 2)


def test_transforms_refuse_inputs_that_are_being_differentiated():
    def f(v):
        return ops.sum(ops.real(ops.fft(v)))

    with pytest.raises(NotImplementedError, match="ops.fft: gradients through complex tensors"):
        ops.value_and_grad(f)(Tensor(np.ones(4)))
    # with the gradient stopped the transform runs
    assert ops.real(ops.fft(ops.stop_gradient(Tensor(np.ones(4))))).asnumpy()[0] == 4


def test_stft_real_result_is_differentiable_and_exported():
    sig = np.sin(np.arange(24, dtype=np.float32) * 0.4)

    def f(v):
        return ops.stft(v, 8, 2, window=ops.cast(ops.hann_window(8), "float32"), return_complex=False)

    model = _export(f, sig)
    assert_close(_run(model, sig)[0], f(Tensor(sig)).asnumpy(), rtol=1e-5, scale_rtol=sum_rtol(8),
                 what="8-point DFTs")
    _, g = ops.value_and_grad(lambda v: ops.sum(f(v) * f(v)))(Tensor(sig.astype(np.float64)))
    assert g.shape == (24,) and np.all(np.isfinite(g.asnumpy()))


# ---------------------------------------------------------------- samplers
def test_new_samplers_reproduce_under_set_seed():
    def draw():
        return [ops.gamma((5,), Tensor(np.array([2.0], np.float32)), Tensor(np.array([1.0], np.float32))),
                ops.random_poisson((4,), Tensor(np.array([3.0], np.float32))), ops.standard_laplace((3,)),
                ops.multinomial(Tensor(np.array([0.2, 0.8], np.float32)), 6), ops.shuffle(ops.arange(6)),
                ops.random_categorical(Tensor(np.zeros((1, 3), np.float32)), 4),
                ops.choice_with_mask(Tensor(np.ones(5, bool)), 3)[0]]

    ops.set_seed(11)
    first = [t.asnumpy() for t in draw()]
    ops.set_seed(11)
    for a, b in zip(first, [t.asnumpy() for t in draw()]):
        np.testing.assert_array_equal(a, b)


def test_random_categorical_lowers_to_onnx_multinomial():
    logits = np.log(np.array([[1.0, 3.0], [1.0, 1.0]], np.float32))
    model = _export(lambda x: ops.random_categorical(x, 20000), logits)
    draws = _run(model, logits)[0]
    assert draws.shape == (2, 20000) and draws.dtype == np.int64
    np.testing.assert_allclose((draws == 1).mean(1), [0.75, 0.5], atol=0.02)


# ---------------------------------------------------------------- signatures moved to MindSpore's
def test_old_keyword_spellings_still_work():
    x = Tensor(X)
    np.testing.assert_allclose(ops.amax(x, 1, keep_dims=True).asnumpy(), X.max(1, keepdims=True))
    np.testing.assert_allclose(ops.logsumexp(x, axis=0, keep_dims=True).asnumpy(),
                               np.log(np.exp(X).sum(0, keepdims=True)), rtol=1e-6)
    assert ops.argmin(x, dim=1, keepdim=True).shape == (3, 1)
    assert ops.argmin(x, 1).dtype == cellonnx.int32
    np.testing.assert_allclose(ops.mean(x, dim=0, keepdim=True).asnumpy(), X.mean(0, keepdims=True),
                               rtol=1e-6)
    np.testing.assert_allclose(ops.reduce_sum(x, (0,), keep_dims=True).asnumpy(), X.sum(0, keepdims=True),
                               rtol=1e-6)
    np.testing.assert_allclose(ops.round(x * 10, decimals=-1).asnumpy(), np.round(X * 10, -1))
    np.testing.assert_allclose(ops.round(x, decimals=2).asnumpy(), np.round(X, 2), rtol=1e-6)
    np.testing.assert_array_equal(ops.round(Tensor(np.array([15, 25, -35])), decimals=-1).asnumpy(),
                                  [20, 20, -40])
