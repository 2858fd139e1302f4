"""mx.nd's operators against real MXNet 1.9.1: each row of nd_cases.py run by cellonnx.mxnet, outputs and
gradients compared with tests/fixtures/mxnet/nd_ops.npz (written by gen_nd_ops.py); every operator
implementation of the table is called by a row or listed in ``NOT_COMPARED`` with the reason."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cellonnx.mxnet as mx
from cellonnx.mxnet import _op, autograd, nd
from tests.mxnet import nd_cases
from tests.tolerance import assert_close

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet" / "nd_ops.npz"
WANT = dict(np.load(FIXTURE))

# implementations no row calls, and why
NOT_COMPARED = {
    "_histogram": "mx.sym.histogram's node, not an mx.nd function (tests/mxnet/test_sym_histogram.py)",
    "arcsin": "cellonnx.numpy's", "arccos": "cellonnx.numpy's", "arctan": "cellonnx.numpy's",
    "erfinv": "cellonnx.numpy's", "gamma": "cellonnx.numpy's", "gammaln": "cellonnx.numpy's",
    "log_sigmoid": "not an MXNet 1.9.1 operator", "mish": "not an MXNet 1.9.1 operator",
    "stop_gradient": "its gradient is zero by design (checked in test_autograd_scopes)",
    "isnan": "not an MXNet 1.9.1 operator", "isinf": "not an MXNet 1.9.1 operator",
    "isfinite": "not an MXNet 1.9.1 operator", "empty": "uninitialized memory in MXNet",
    "make_loss": "the identity forward; tested for its gradient scale in test_make_loss",
    "Dropout": "random (tested in tests/gluon)", "shape_array": "int64 metadata (test_shape_array)",
    "size_array": "int64 metadata (test_shape_array)", "diag": "test_diag", "cast": "test_cast",
    "moveaxis": "NumPy's moveaxis (test_moveaxis)", "reshape_like": "test_reshape_like",
    "argmax_channel": "test_argmax_channel",
    "split_v2": "test_split_v2", "nanprod": "test_nanprod",
}


def run(case_id: str, op: str, args: list[Any], kwargs: dict, flags: dict) -> tuple[list, list, list]:
    values = nd_cases.make_args(case_id, args)
    arrays = [nd.array(v, dtype=v.dtype) if isinstance(v, np.ndarray) else v for v in values]
    floats = [i for i, a in enumerate(args) if isinstance(a, nd_cases.F)]
    want_grad = flags.get("grad", True)
    if want_grad:
        for i in floats:
            arrays[i].attach_grad()
    fn = nd.contrib if flags.get("contrib") else nd
    for part in op.split("."):  # "linalg.syevd": an operator of a submodule
        fn = getattr(fn, part)
    if "out" in flags:
        kwargs = {**kwargs, "out": [arrays[i] for i in flags["out"]]}
    with autograd.record(train_mode=bool(flags.get("train"))):
        out = fn(*arrays, **kwargs)
        outs = list(out) if isinstance(out, (list, tuple)) else [out]
        if want_grad:
            loss = sum((o * nd.array(nd_cases.weights(case_id, o.shape))).sum() for o in outs)
    grads = []
    if want_grad:
        loss.backward()
        grads = [(i, arrays[i].grad) for i in floats]
    return outs, grads, arrays


@pytest.mark.parametrize("case", nd_cases.CASES, ids=[c[0] for c in nd_cases.CASES])
def test_operator_matches_mxnet(case: tuple) -> None:
    case_id = case[0]
    outs, grads, arrays = run(*case)
    n = len([k for k in WANT if k.startswith(f"{case_id}/out/")])
    assert len(outs) == n, f"{case_id}: {len(outs)} outputs, MXNet gives {n}"
    for i, o in enumerate(outs):
        want = WANT[f"{case_id}/out/{i}"]
        assert isinstance(o, mx.nd.NDArray), f"{case_id}: output {i} is {type(o).__name__}"
        assert o.shape == want.shape, f"{case_id}: output {i} shape {o.shape}, MXNet {want.shape}"
        assert o.dtype == want.dtype, f"{case_id}: output {i} dtype {o.dtype}, MXNet {want.dtype}"
        assert_close(o.asnumpy(), want, rtol=1e-5, scale_rtol=1e-6, what=f"{case_id} output {i}")
    for i, g in grads:
        assert isinstance(g, mx.nd.NDArray), f"{case_id}: the grad of argument {i} is {type(g).__name__}"
        assert_close(g.asnumpy(), WANT[f"{case_id}/grad/{i}"], rtol=1e-4, scale_rtol=1e-5,
                     what=f"{case_id} gradient of argument {i}")
    for key in (k for k in WANT if k.startswith(f"{case_id}/arg/")):
        i = int(key.rsplit("/", 1)[1])
        assert_close(arrays[i].asnumpy(), WANT[key], rtol=1e-5, scale_rtol=1e-6,
                     what=f"{case_id} argument {i} after the call")


def test_every_operator_has_a_row() -> None:
    # "linalg.syevd" (mx.nd.linalg's short name): operator linalg_syevd or _linalg_syevd (MXNet's name)
    table_names = [(op, op.replace(".", "_"), "_" + op.replace(".", "_"))
                   for _, op, _, _, _ in nd_cases.CASES]
    called = {id(next((_op.TABLE[n] for n in names if n in _op.TABLE), None) or _op.CONTRIB.get(names[0]))
              for names in table_names}
    missing = sorted({name for name, impl in _op.TABLE.items() if id(impl) not in called}
                     - {n for n in _op.TABLE if any(_op.TABLE[n] is _op.TABLE.get(m) for m in NOT_COMPARED)})
    assert missing == [], f"operators without a row in nd_cases.py or a reason in NOT_COMPARED: {missing}"


def test_shape_array_and_metadata() -> None:
    x = nd.zeros((2, 3, 4))
    assert nd.shape_array(x).asnumpy().tolist() == [2, 3, 4]
    assert nd.size_array(x).asnumpy().tolist() == [24]


def test_cast_reshape_like_moveaxis_split_v2() -> None:
    x = nd.array(np.arange(24).reshape(2, 3, 4))
    assert nd.cast(x, "int32").dtype == np.int32
    assert nd.reshape_like(x, nd.zeros((4, 6))).shape == (4, 6)
    # MXNet 1.9.1 gives these shapes for its documented examples (nd and npx alike)
    assert nd.reshape_like(nd.zeros((30, 12)), nd.zeros((4, 2, 2, 3)), lhs_begin=-1,
                           rhs_begin=1).shape == (30, 2, 2, 3)
    y = mx.npx.reshape_like(mx.np.zeros((30, 7)), mx.np.zeros((15, 2, 4)), lhs_begin=0, lhs_end=1,
                            rhs_begin=0, rhs_end=2)
    assert y.shape == (15, 2, 7) and isinstance(y, mx.np.ndarray)
    with pytest.raises(ValueError, match="reshape_like"):
        nd.reshape_like(x, nd.zeros((5, 5)))
    assert nd.moveaxis(x, 0, 2).shape == (3, 4, 2)
    parts = nd.split_v2(x, (1, 3), axis=2)
    assert [p.shape for p in parts] == [(2, 3, 1), (2, 3, 2), (2, 3, 1)]
    assert nd.argmax_channel(nd.array([[1, 5, 2], [7, 0, 1]])).asnumpy().tolist() == [1.0, 0.0]
    assert nd.nanprod(nd.array([[2.0, np.nan], [3.0, 4.0]]), axis=1).asnumpy().tolist() == [2.0, 12.0]
    np.testing.assert_array_equal(nd.diag(nd.array([1, 2])).asnumpy(), [[1, 0], [0, 2]])


def test_ndarray_methods() -> None:
    x = nd.array([[1, 2, 3], [4, 5, 6]])
    assert x.reshape((0, -1)).shape == (2, 3) and x.reshape(3, 2).shape == (3, 2)
    assert x.flatten().shape == (2, 3) and x.T.shape == (3, 2)
    assert x.sum().shape == (1,) and float(x.sum().asscalar()) == 21.0
    assert (x > 2).asnumpy().tolist() == [[0, 0, 1], [1, 1, 1]] and (x > 2).dtype == np.float32
    assert x.argmax(axis=1).asnumpy().tolist() == [2.0, 2.0]
    assert x.context == mx.cpu() and x.as_in_context(mx.gpu(0)) is x
    assert x.astype("int32").dtype == np.int32 and x.dtype == np.float32 and np.dtype(x.dtype) == np.float32
    y = x.copy()
    y += 1
    assert y.asnumpy()[0, 0] == 2 and x.asnumpy()[0, 0] == 1
    y[0, 1] = 10.0
    assert y.asnumpy()[0, 1] == 10
    assert x[nd.array([1])].asnumpy().tolist() == [[4, 5, 6]]
    assert repr(nd.array([1, 2])).endswith("<NDArray 2 @cpu(0)>")
    z = nd.array([1.0, 2.0])
    z.attach_grad()
    with autograd.record():
        loss = (z * z).sum()
    loss.backward()
    assert z.grad.asnumpy().tolist() == [2.0, 4.0]
    assert type(x.as_np_ndarray()).__name__ == "ndarray" and x.as_np_ndarray().as_nd_ndarray().shape == (2, 3)


def test_save_and_load(tmp_path: Path) -> None:
    path = str(tmp_path / "arrays.nd")
    nd.save(path, {"a": nd.array([1, 2]), "b": nd.zeros((2, 2))})
    loaded = nd.load(path)
    assert sorted(loaded) == ["a", "b"] and loaded["a"].asnumpy().tolist() == [1, 2]
    with open(path, "rb") as f:
        from_bytes = nd.load_frombuffer(f.read())
    assert sorted(from_bytes) == ["a", "b"] and from_bytes["a"].asnumpy().tolist() == [1, 2]
    nd.save(path, [nd.array([3])])
    assert [v.asnumpy().tolist() for v in nd.load(path)] == [[3.0]]


def test_make_loss_scales_the_gradient() -> None:
    x = nd.array([1.0, 2.0])
    x.attach_grad()
    with autograd.record():
        y = nd.make_loss(x * 3, grad_scale=0.5)
    y.backward()
    assert x.grad.asnumpy().tolist() == [1.5, 1.5] and y.asnumpy().tolist() == [3.0, 6.0]


def test_batch_norm_inference_gradient_is_the_derivative() -> None:
    """In inference mode BatchNorm is y = (x - mean) / sqrt(var + eps) * gamma + beta with fixed statistics;
    its gradient is gamma / sqrt(var + eps) times the head gradient (MXNet 1.9 applies the training formula
    to the moving statistics instead, which is not this derivative)."""
    rng = np.random.default_rng(0)
    x = nd.array(rng.normal(size=(2, 3, 4, 4)))
    gamma, beta = nd.array(rng.uniform(0.5, 1.5, 3)), nd.array(rng.normal(size=3))
    mean, var = nd.array(rng.normal(size=3) * 0.1), nd.array(rng.uniform(0.5, 1.5, 3))
    w = rng.normal(size=(2, 3, 4, 4)).astype(np.float32)
    x.attach_grad()
    with autograd.record(train_mode=False):
        loss = (nd.BatchNorm(x, gamma, beta, mean, var, fix_gamma=False, eps=1e-3) * nd.array(w)).sum()
    loss.backward()
    scale = gamma.asnumpy() / np.sqrt(var.asnumpy() + 1e-3)
    assert_close(x.grad.asnumpy(), w * scale[None, :, None, None], rtol=1e-5,
                 what="BatchNorm inference gradient")


@pytest.mark.parametrize("name", ["LinearRegressionOutput", "LogisticRegressionOutput", "MAERegressionOutput",
                                  "RNN", "Crop", "ROIPooling", "amp_cast", "amp_multicast", "linalg_gemm2",
                                  "random_uniform", "random_normal", "sample_multinomial"])
def test_graph_operators_are_nd_functions(name: str) -> None:
    """MXNet 1.9.1's mx.nd operators that only the symbol interpreter's table held are mx.nd functions too."""
    assert callable(getattr(mx.nd, name))


def test_graph_operator_returns_ndarrays() -> None:
    x = mx.nd.array(np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4))
    rois = mx.nd.array([[0, 0, 0, 3, 3]])
    out = mx.nd.ROIPooling(x, rois, pooled_size=(2, 2), spatial_scale=1.0)
    assert isinstance(out, mx.nd.NDArray)
    assert out.asnumpy().reshape(-1).tolist() == [5.0, 7.0, 13.0, 15.0]
    assert isinstance(mx.nd.random_uniform(shape=(2,)), mx.nd.NDArray)


def test_flat_samplers_shapes_dtypes_and_seed() -> None:
    """random_<dist> / sample_<dist>: shapes and dtypes as MXNet 1.9.1 gives them (sample_normal of two
    parameters with shape=(3,) is (2, 3); random_randint is int32), reproducible under mx.random.seed."""
    mu, sigma = nd.array([0.0, 10.0]), nd.array([1.0, 0.1])
    assert nd.sample_normal(mu, sigma, shape=(3,)).shape == (2, 3)
    assert nd.sample_poisson(nd.array([1.0, 2.0])).shape == (2,)
    assert nd.random_exponential(lam=4, shape=(2, 2)).dtype == np.float32
    assert nd.random_randint(0, 5, shape=(3,)).dtype == np.int32
    mx.random.seed(3)
    a = nd.sample_gamma(nd.array([1.0, 2.0]), nd.array([1.0, 0.5]), shape=(50,)).asnumpy()
    mx.random.seed(3)
    b = nd.sample_gamma(nd.array([1.0, 2.0]), nd.array([1.0, 0.5]), shape=(50,)).asnumpy()
    np.testing.assert_array_equal(a, b)
    assert (a > 0).all() and a.shape == (2, 50)
    draws = nd.sample_uniform(nd.array([0.0, 5.0]), nd.array([1.0, 6.0]), shape=(100,)).asnumpy()
    assert (draws[0] >= 0).all() and (draws[0] < 1).all() and (draws[1] >= 5).all() and (draws[1] < 6).all()
    counts = nd.sample_generalized_negative_binomial(nd.array([2.0]), nd.array([0.0]), shape=(20,)).asnumpy()
    assert (counts >= 0).all() and (counts == np.round(counts)).all()
    for name in ("random_gamma", "random_poisson", "random_negative_binomial",
                 "random_generalized_negative_binomial", "sample_exponential", "sample_negative_binomial"):
        assert callable(getattr(nd, name)), name
    assert sorted(nd.shuffle(nd.arange(6)).asnumpy().tolist()) == list(range(6))
    assert nd.numpy is mx.np and nd.numpy_extension is mx.npx


def test_histogram_onehot_encode_from_numpy() -> None:
    """Values and dtypes as MXNet 1.9.1 gives them for the same calls."""
    a = nd.array([0.1, 0.5, 0.7, 2.0, 1.2])
    counts, edges = nd.histogram(a, bins=3)
    assert counts.dtype == np.float32 and counts.asnumpy().tolist() == [3, 1, 1]
    assert_close(edges.asnumpy(), np.array([0.1, 0.73333335, 1.3666667, 2.0], np.float32), what="edges")
    counts, edges = nd.histogram(a, bins=nd.array([0, 1, 1.5, 3]))
    assert counts.dtype == np.int64 and counts.asnumpy().tolist() == [3, 1, 1]
    assert edges.asnumpy().tolist() == [0.0, 1.0, 1.5, 3.0]
    counts, edges = nd.histogram(a, bins=4, range=(0, 1))
    assert counts.asnumpy().tolist() == [1, 0, 2, 0] and edges.asnumpy().tolist() == [0, 0.25, 0.5, 0.75, 1]
    out = nd.zeros((3, 4))
    assert nd.onehot_encode(nd.array([1, 3, 0]), out) is out
    assert out.asnumpy().tolist() == [[0, 1, 0, 0], [0, 0, 0, 1], [1, 0, 0, 0]]
    base = np.arange(6, dtype=np.float32).reshape(2, 3)
    shared = nd.from_numpy(base)
    base[0, 0] = 9.0
    assert isinstance(shared, nd.NDArray) and shared.asnumpy()[0, 0] == 9.0
    assert nd.from_numpy(base, zero_copy=False).asnumpy()[0, 0] == 9.0
