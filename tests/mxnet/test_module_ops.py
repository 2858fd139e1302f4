"""Python operators (mx.operator + nd.Custom), mx.autograd.Function and mx.kv against real MXNet 1.9.1: the
scenarios of tests/fixtures/mxnet/module_ops_cases.py run here with cellonnx.mxnet and are compared with
MXNet's results (gen_module.py); gradients of the Python operators are also checked by finite differences."""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import cellonnx.mxnet as mx
from tests.fixtures.mxnet import module_ops_cases
from tests.tolerance import assert_close

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet" / "module"
SCENARIOS = {"custom_ops": module_ops_cases.custom_ops, "functions": module_ops_cases.functions,
             "kvstores": module_ops_cases.kvstores, "test_utils": module_ops_cases.test_utils,
             "symbolic_custom": module_ops_cases.symbolic_custom}


@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_matches_mxnet(scenario: str) -> None:
    want = np.load(FIXTURES / f"{scenario}.npz")
    got = SCENARIOS[scenario](mx)
    assert sorted(got) == sorted(want.files)
    for key in want.files:
        if want[key].dtype.kind in "UOb":
            # NumPy 2 (here) writes ``shape=(2, 3)`` in a summarized array's repr, NumPy 1.23 (MXNet's) not
            mine = [re.sub(r", shape=\(.*?\)", "", str(v)) for v in np.ravel(got[key])]
            assert mine == [str(v) for v in np.ravel(want[key])], key
            continue
        assert got[key].shape == want[key].shape, key
        assert_close(got[key], want[key], 1e-5, 1e-6, what=f"{scenario} {key}")


def _numeric_grad(f, x: np.ndarray, eps: float = 1e-6) -> np.ndarray:
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        hi, lo = x.copy(), x.copy()
        hi[i] += eps
        lo[i] -= eps
        g[i] = (f(hi) - f(lo)) / (2 * eps)
    return g


def test_custom_op_gradient_by_finite_differences() -> None:
    module_ops_cases.register_ops(mx)
    rng = np.random.default_rng(0)
    a, b, w = rng.normal(size=(3, 2)), rng.normal(size=(3, 2)), rng.normal(size=(3, 2))

    def value(av: np.ndarray, bv: np.ndarray) -> float:
        s, p = mx.nd.Custom(mx.nd.array(av, dtype="float64"), mx.nd.array(bv, dtype="float64"),
                            op_type="t_sumprod", scale=0.5)
        return float(((s * mx.nd.array(w, dtype="float64")) + p * 2).sum().asscalar())

    na, nb = mx.nd.array(a, dtype="float64"), mx.nd.array(b, dtype="float64")
    na.attach_grad()
    nb.attach_grad()
    with mx.autograd.record(train_mode=False):  # is_train False: prod is a * b
        s, p = mx.nd.Custom(na, nb, op_type="t_sumprod", scale=0.5)
        total = ((s * mx.nd.array(w, dtype="float64")) + p * 2).sum()
    total.backward()
    # the op's backward assumes the training product 2ab: its gradient is twice d(ab)
    want_a = _numeric_grad(lambda v: value(v, b), a) + 2 * b
    assert_close(na.grad.asnumpy(), want_a, 1e-6, 1e-7)


def test_custom_errors_name_the_operator() -> None:
    with pytest.raises(mx.MXNetError, match="'nope' is not registered"):
        mx.nd.Custom(mx.nd.ones((2,)), op_type="nope")
    module_ops_cases.register_ops(mx)
    with pytest.raises(mx.MXNetError, match=r"t_sumprod.*1 inputs given.*\['a', 'b'\]"):
        mx.nd.Custom(mx.nd.ones((2,)), op_type="t_sumprod", scale=1)
    assert "t_sigmoid" in mx.operator.get_all_registered_operators()
    with pytest.raises(TypeError, match="CustomOpProp subclass"):
        mx.operator.register("bad")(object)


def test_custom_kwargs_reach_the_prop_as_strings() -> None:
    seen = {}

    @mx.operator.register("t_kinds")
    class Prop(mx.operator.CustomOpProp):
        def __init__(self, k, flag):
            super().__init__()
            seen.update(k=k, flag=flag)

        def create_operator(self, ctx, shapes, dtypes):
            return mx.operator.CustomOp()

    mx.nd.Custom(mx.nd.ones((2,)), op_type="t_kinds", k=3, flag=True)
    assert seen == {"k": "3", "flag": "True"}


def test_function_instance_is_called_once() -> None:
    class Ident(mx.autograd.Function):
        def forward(self, x):
            return x

        def backward(self, dy):
            return dy

    f = Ident()
    f(mx.nd.ones((1,)))
    with pytest.raises(AssertionError, match="only be called once"):
        f(mx.nd.ones((1,)))


def test_kvstore_types_and_errors() -> None:
    kv = mx.kv.create("device")
    assert kv.type == "device" and kv.is_capable(mx.kv.KVStoreBase.OPTIMIZER)
    with pytest.raises(ValueError, match="Unknown capability"):
        kv.is_capable("nothing")
    with pytest.raises(mx.MXNetError, match="not been initialized"):
        kv.push(1, mx.nd.ones((2,)))
    kv.init(1, mx.nd.ones((2,)))
    with pytest.raises(mx.MXNetError, match="duplicate init"):
        kv.init(1, mx.nd.ones((2,)))
    with pytest.raises(ValueError, match="not supported"):
        mx.kv.create("dist_async")
    with pytest.raises(TypeError):
        mx.kv.create(3)
    with pytest.raises(Exception, match="not supported for this type"):
        mx.kv.create("local").set_gradient_compression({"type": "2bit"})


def test_registered_kvstore_class() -> None:
    @mx.kv.KVStoreBase.register
    class MyStore(mx.kv.KVStoreBase):
        pass

    assert type(mx.kv.create("MyStore")).__name__ == "MyStore"


def test_runtime_features() -> None:
    features = mx.runtime.Features()
    assert features is mx.runtime.Features()
    assert list(features)[:3] == ["CUDA", "CUDNN", "NCCL"] and len(features) == 32
    assert not features.is_enabled("cuda") and features.is_enabled("BLAS_OPEN")
    with pytest.raises(RuntimeError, match="Feature 'NOPE' is unknown"):
        features.is_enabled("nope")
    assert repr(mx.runtime.feature_list()[0]) == "✖ CUDA"


def test_top_level_np_switches() -> None:
    mx.util.reset_np()
    assert not mx.is_np_array() and not mx.is_np_shape()

    @mx.use_np
    def inside() -> tuple[bool, bool]:
        return mx.is_np_array(), mx.is_np_shape()

    assert inside() == (True, True)
    with mx.np_shape(True):
        assert mx.is_np_shape()
    assert mx.set_np_shape(False) is False


def test_util_names() -> None:
    assert mx.util.get_gpu_count() == 0
    with pytest.raises(mx.MXNetError, match="only supported for MXNet built with CUDA"):
        mx.util.get_gpu_memory(0)
    with pytest.raises(ValueError, match="Expecting a gpu context"):
        mx.util.get_cuda_compute_capability(mx.cpu())
    assert mx.util.np_ufunc_legal_option("casting", "safe")
    assert not mx.util.np_ufunc_legal_option("casting", "x")
    assert mx.util.np_ufunc_legal_option("dtype", "float32") and not mx.util.np_ufunc_legal_option("nope", 1)

    @mx.util.wrap_np_unary_func
    def neg(x, out=None):
        return -x

    assert neg(2, casting="same_kind") == -2
    with pytest.raises(NotImplementedError, match="casting=safe is not implemented yet for operator neg"):
        neg(2, casting="safe")
    with pytest.raises(TypeError, match="nope is an invalid keyword to function 'neg'"):
        neg(2, nope=1)

    @mx.util.wrap_np_binary_func
    def add(x1, x2, out=None):
        return x1 + x2

    assert add(1, 2) == 3
    with pytest.raises(TypeError, match="casting bad not understood"):
        add(1, 2, casting="bad")

    @mx.util.set_module("mxnet.numpy")
    def f():
        return None

    assert f.__module__ == "mxnet.numpy"


def test_trainer_takes_a_kvstore_object() -> None:
    results = []
    for kv, compression in (("device", None), (mx.kv.create("device"), {"type": "2bit", "threshold": 0.5})):
        net = mx.gluon.nn.Dense(2, in_units=3)
        net.initialize(mx.init.Constant(0.5))
        trainer = mx.gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1}, kvstore=kv,
                                   compression_params=compression)
        x = mx.nd.array(np.arange(6.0).reshape(2, 3))
        with mx.autograd.record():
            loss = (net(x) ** 2).sum()
        loss.backward()
        trainer.step(2)
        results.append(net.weight.data().asnumpy())
    np.testing.assert_array_equal(results[0], results[1])
    with pytest.raises(ValueError, match="Unknown type for gradient compression"):
        mx.gluon.Trainer(mx.gluon.nn.Dense(1, in_units=1).collect_params(), "sgd",
                         compression_params={"type": "3bit"})


def test_test_utils_checks() -> None:
    tu = mx.test_utils
    np.random.seed(0)
    buckets, probs = tu.gen_buckets_probs_with_ppf(lambda q: q, 5)
    assert buckets[0] == (0.0, 0.2) and probs == [0.2] * 5
    assert tu.verify_generator(lambda n: np.random.uniform(size=n), buckets, probs, nsamples=20000, nrepeat=3)
    with pytest.raises(AssertionError, match="Generator test fails"):
        tu.verify_generator(lambda n: np.random.uniform(size=n) ** 2, buckets, probs, nsamples=20000,
                            nrepeat=3)
    p, obs, exp = tu.chi_square_check(lambda n: np.random.randint(0, 2, n), [0, 1], [0.5, 0.5], 1000)
    assert obs.sum() == 1000 and list(exp) == [500, 500] and 0 <= p <= 1
    assert tu.mean_check(lambda n: np.random.normal(1.0, 2.0, n), 1.0, 2.0, 100000)
    assert not tu.mean_check(lambda n: np.random.normal(1.5, 2.0, n), 1.0, 2.0, 100000)
    assert tu.var_check(lambda n: np.random.normal(0.0, 2.0, n), 2.0, 100000)
    x = mx.sym.var("x")
    net = mx.sym.FullyConnected(x, num_hidden=3, name="fc")
    ctx_list = [{"ctx": mx.cpu(), "x": (2, 4), "type_dict": {"x": np.float64}},
                {"ctx": mx.cpu(), "x": (2, 4), "type_dict": {"x": np.float32}}]
    truth = tu.check_consistency(net, ctx_list)
    assert set(truth[0]) >= {"fc_output", "fc_weight", "x"}
    assert tu.check_speed(net, x=(2, 4), N=2) > 0
    it = tu.DummyIter(mx.io.NDArrayIter(np.ones((4, 2)), batch_size=2))
    assert next(it) is next(it)
    csr = tu.rand_ndarray((4, 5), "csr", density=0.6)
    dense = csr.asnumpy()
    tu.shuffle_csr_column_indices(csr)
    assert sorted(csr.indices.asnumpy().tolist()) == sorted(np.nonzero(dense)[1].tolist())


def test_gluon_and_optimizer_checks() -> None:
    tu = mx.test_utils

    def build(prefix=None):
        net = mx.gluon.nn.HybridSequential(prefix=prefix)
        with net.name_scope():
            net.add(mx.gluon.nn.Dense(3, in_units=4), mx.gluon.nn.Activation("tanh"))
        return net

    x = np.random.rand(2, 4).astype(np.float32)
    # test_grad=False: a hybridized block's backward with the output as its own head gradient
    # (``out.backward(out)``) fails in the hybrid training graph (onnxruntime rejects the model)
    tu.check_gluon_hybridize_consistency(build, [mx.nd.array(x)], test_grad=False)
    with pytest.raises(AssertionError):
        tu.check_gluon_hybridize_consistency(build, [mx.nd.array(x)], numpy_func=lambda a: a[:, :3],
                                             test_grad=False)
    sgd = mx.optimizer.SGD
    tu.compare_optimizer(sgd(learning_rate=0.1, momentum=0.9), sgd(learning_rate=0.1, momentum=0.9), (3, 4),
                         np.float32)
    tu.compare_optimizer(mx.optimizer.Adam(), mx.optimizer.Adam(), [(3, 4), (2,)], np.float32, ntensors=2)
    with pytest.raises(AssertionError):
        tu.compare_optimizer(sgd(learning_rate=0.1), sgd(learning_rate=0.2), (3, 4), np.float32)
