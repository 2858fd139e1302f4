"""mx.np.random's distributions (moments against the float64 formulas, seeded here; shapes and dtypes as
MXNet 1.9.1 gives them; repeatable under mx.random.seed), and mx.np's functions whose results are not
array values (file reading, printing, memory identity, NumPy's removed financial functions)."""
from __future__ import annotations

import io
import math

import numpy as np
import pytest

import cellonnx.mxnet as mx

N = 40000
# (function, args, kwargs, mean, variance) of the distribution sampled
DISTRIBUTIONS = [
    ("gamma", (2.0, 1.5), {}, 3.0, 4.5),
    ("beta", (2.0, 3.0), {}, 0.4, 6.0 / (25.0 * 6.0)),
    ("chisquare", (3.0,), {}, 3.0, 6.0),
    ("exponential", (2.0,), {}, 2.0, 4.0),
    ("rayleigh", (1.5,), {}, 1.5 * math.sqrt(math.pi / 2), (4 - math.pi) / 2 * 2.25),
    ("weibull", (2.0,), {}, math.gamma(1.5), math.gamma(2.0) - math.gamma(1.5) ** 2),
    ("pareto", (5.0,), {}, 1.0 / 4.0, 5.0 / (16.0 * 3.0)),
    ("power", (3.0,), {}, 0.75, 3.0 / (16.0 * 5.0)),
    ("lognormal", (0.2, 0.5), {}, math.exp(0.2 + 0.125), (math.exp(0.25) - 1) * math.exp(0.4 + 0.25)),
    ("logistic", (1.0, 0.5), {}, 1.0, 0.25 * math.pi ** 2 / 3),
    ("gumbel", (1.0, 2.0), {}, 1.0 + 2.0 * 0.5772156649015329, math.pi ** 2 / 6 * 4.0),
]


@pytest.mark.parametrize("name, args, kwargs, mean, var", DISTRIBUTIONS, ids=[d[0] for d in DISTRIBUTIONS])
def test_distribution_moments(name: str, args: tuple, kwargs: dict, mean: float, var: float) -> None:
    mx.random.seed(7)
    x = getattr(mx.np.random, name)(*args, size=(N,), **kwargs)
    assert isinstance(x, mx.np.ndarray) and x.dtype == np.float32 and x.shape == (N,)
    v = x.asnumpy().astype(np.float64)
    # the sample mean and variance within 5 standard errors (the variance's from the sample's 4th moment)
    assert abs(v.mean() - mean) < 5 * math.sqrt(var / N), (name, v.mean(), mean)
    m4 = np.mean((v - v.mean()) ** 4)
    assert abs(v.var() - var) < 5 * math.sqrt((m4 - var ** 2) / N), (name, v.var(), var)


@pytest.mark.parametrize("name, args", [(d[0], d[1]) for d in DISTRIBUTIONS],
                         ids=[d[0] for d in DISTRIBUTIONS])
def test_distribution_shapes_and_seed(name: str, args: tuple) -> None:
    f = getattr(mx.np.random, name)
    assert f(*args).shape == ()  # scalar parameters, no size: a 0-d array, as MXNet's
    arr = [mx.np.array([a, a * 2]) for a in args]
    assert f(*arr).shape == (2,)  # one sample per parameter element
    mx.random.seed(3)
    first = f(*args, size=(2, 3)).asnumpy()
    mx.random.seed(3)
    np.testing.assert_array_equal(f(*args, size=(2, 3)).asnumpy(), first)


def test_choice() -> None:
    mx.random.seed(1)
    x = mx.np.random.choice(5, 3)
    assert x.dtype == np.int64 and x.shape == (3,)
    picked = mx.np.random.choice(5, 5, replace=False).asnumpy()
    assert sorted(picked.tolist()) == [0, 1, 2, 3, 4]
    draws = mx.np.random.choice(3, N, p=[0.2, 0.3, 0.5]).asnumpy()
    freq = np.bincount(draws, minlength=3) / N
    assert np.all(np.abs(freq - [0.2, 0.3, 0.5]) < 5 * np.sqrt(np.array([0.16, 0.21, 0.25]) / N))
    values = mx.np.random.choice(mx.np.array([1.5, 2.5]), 4)
    assert values.dtype == np.float32 and set(values.asnumpy().tolist()) <= {1.5, 2.5}


def test_multinomial() -> None:
    mx.random.seed(2)
    counts = mx.np.random.multinomial(10, [0.2, 0.3, 0.5], size=N // 10)
    assert counts.dtype == np.int64 and counts.shape == (N // 10, 3)
    c = counts.asnumpy()
    assert np.all(c.sum(axis=1) == 10)
    p = np.array([0.2, 0.3, 0.5])
    assert np.all(np.abs(c.mean(axis=0) - 10 * p) < 5 * np.sqrt(10 * p * (1 - p) / (N // 10)))


def test_multivariate_normal() -> None:
    mx.random.seed(4)
    cov = np.array([[2.0, 0.6], [0.6, 1.0]])
    x = mx.np.random.multivariate_normal(mx.np.array([1.0, -1.0]), mx.np.array(cov), size=N)
    assert x.dtype == np.float32 and x.shape == (N, 2)
    v = x.asnumpy().astype(np.float64)
    assert np.all(np.abs(v.mean(axis=0) - [1.0, -1.0]) < 5 * np.sqrt(np.diag(cov) / N))
    assert np.all(np.abs(np.cov(v.T) - cov) < 0.05)


def test_negative_parameters_raise() -> None:
    with pytest.raises(ValueError, match="gamma"):
        mx.np.random.gamma(-1.0)


def test_svd_and_eigh_reconstruct() -> None:
    rng = np.random.default_rng(0)
    a = rng.standard_normal((2, 3, 5)).astype(np.float32)
    ut, s, v = mx.np.linalg.svd(mx.np.array(a))
    np.testing.assert_allclose((ut.asnumpy() * s.asnumpy()[..., None, :]) @ v.asnumpy(), a, atol=1e-5)
    sym = a[0, :, :3] @ a[0, :, :3].T
    w, vec = mx.np.linalg.eigh(mx.np.array(sym))
    np.testing.assert_allclose(vec.asnumpy() @ np.diag(w.asnumpy()) @ vec.asnumpy().T, sym, atol=1e-5)


def test_eig_complex_raises() -> None:
    with pytest.raises(ValueError, match="complex"):
        mx.np.linalg.eig(mx.np.array([[0.0, -1.0], [1.0, 0.0]]))


@pytest.mark.parametrize("name", ["mirr", "npv", "ppmt", "pv", "rate"])
def test_financial_functions_raise_as_numpy_1_23(name: str) -> None:
    with pytest.raises(RuntimeError, match=f"NEP 32, the function {name} was removed"):
        getattr(mx.np, name)(0.1, [1.0, 2.0])


def test_genfromtxt() -> None:
    x = mx.np.genfromtxt(io.StringIO("1,2\n3,4"), delimiter=",")
    assert isinstance(x, mx.np.ndarray) and x.dtype == np.float64
    np.testing.assert_array_equal(x.asnumpy(), [[1.0, 2.0], [3.0, 4.0]])


def test_memory_sharing() -> None:
    x = mx.np.ones((4,))
    assert mx.np.shares_memory(x, x) and mx.np.may_share_memory(x, x)
    assert not mx.np.shares_memory(x, mx.np.ones((4,)))
    # MXNet 1.9.1: every array it makes, views too, says it is writable
    assert x.writable is True and x[1:].writable is True and mx.nd.ones((2,)).writable is True


def test_set_printoptions() -> None:
    try:
        mx.np.set_printoptions(precision=2)
        assert str(mx.np.array([1.23456])) == "[1.23]"
        with pytest.raises(NotImplementedError):
            mx.np.set_printoptions(linewidth=50)
    finally:
        np.set_printoptions(precision=8)


def test_constants_and_aliases() -> None:
    assert math.isnan(mx.np.NAN) and math.isnan(mx.np.NaN)
    assert mx.np.PINF == math.inf and mx.np.NINF == -math.inf
    assert mx.np.PZERO == 0.0 and math.copysign(1.0, mx.np.NZERO) == -1.0
    assert mx.np.bool is bool and mx.np.finfo is np.finfo


def test_npx_constraint_check_and_cuda_capability_raise() -> None:
    with pytest.raises(ValueError, match="must be positive"):
        mx.npx.constraint_check(mx.np.array([1.0, -1.0]) > 0, "must be positive")
    with pytest.raises(ValueError, match="Expecting a gpu context"):
        mx.npx.get_cuda_compute_capability(mx.cpu())
    assert mx.npx.Context is mx.Context and mx.npx.current_context() == mx.cpu()


# (sampler, parameters, d sample / d each parameter as a function of the sample x and the parameters):
# MXNet 1.9.1 differentiates these samplers pathwise
PATHWISE = [
    ("exponential", [2.0], [lambda x, s: x / s]),
    ("rayleigh", [1.5], [lambda x, s: x / s]),
    ("weibull", [2.0], [lambda x, a: -x * np.log(x) / a]),
    ("pareto", [3.0], [lambda x, a: -(1 + x) * np.log1p(x) / a]),
    ("lognormal", [0.3, 0.5], [lambda x, m, s: x, lambda x, m, s: x * (np.log(x) - m) / s]),
    ("logistic", [1.0, 0.5], [lambda x, m, s: np.ones_like(x), lambda x, m, s: (x - m) / s]),
    ("gumbel", [1.0, 2.0], [lambda x, m, s: np.ones_like(x), lambda x, m, s: (x - m) / s]),
]


@pytest.mark.parametrize("name, values, derivatives", PATHWISE, ids=[p[0] for p in PATHWISE])
def test_pathwise_gradients(name: str, values: list, derivatives: list) -> None:
    params = [mx.np.array([v] * 6) for v in values]
    for p in params:
        p.attach_grad()
    mx.random.seed(9)
    with mx.autograd.record():
        y = getattr(mx.np.random, name)(*params)
        loss = y.sum()
    loss.backward()
    x = y.asnumpy().astype(np.float64)
    for p, d in zip(params, derivatives):
        want = d(x, *values)
        np.testing.assert_allclose(p.grad.asnumpy(), want, rtol=2e-4, atol=1e-5, err_msg=name)


def test_gamma_beta_not_differentiable() -> None:
    a = mx.np.array([2.0, 3.0])
    a.attach_grad()
    with mx.autograd.record():
        loss = (mx.np.random.gamma(a) + mx.np.random.beta(a, 2.0)).sum()
    loss.backward()
    np.testing.assert_array_equal(a.grad.asnumpy(), [0.0, 0.0])  # as MXNet 1.9.1's
