"""mx.nd.random's *_like samplers and generalized_negative_binomial: shapes and dtypes as MXNet 1.9.1 gives
them (data's shape and dtype; float32 by default), moments against the float64 formulas under a fixed seed,
and repeatability under mx.random.seed."""
from __future__ import annotations

import math

import numpy as np
import pytest

import cellonnx.mxnet as mx

N = 40000
# (function, kwargs, mean, variance)
LIKE = [
    ("uniform_like", {"low": 1.0, "high": 3.0}, 2.0, 4.0 / 12),
    ("normal_like", {"loc": 1.0, "scale": 2.0}, 1.0, 4.0),
    ("exponential_like", {"lam": 2.0}, 0.5, 0.25),
    ("gamma_like", {"alpha": 3.0, "beta": 0.5}, 1.5, 0.75),
    ("poisson_like", {"lam": 4.0}, 4.0, 4.0),
    ("negative_binomial_like", {"k": 3, "p": 0.4}, 3 * 0.6 / 0.4, 3 * 0.6 / 0.16),
    ("generalized_negative_binomial_like", {"mu": 2.0, "alpha": 0.3}, 2.0, 2.0 + 0.3 * 4.0),
]


def _check_moments(v: np.ndarray, mean: float, var: float, what: str) -> None:
    v = v.astype(np.float64)
    assert abs(v.mean() - mean) < 5 * math.sqrt(var / N), (what, v.mean(), mean)
    m4 = np.mean((v - v.mean()) ** 4)
    assert abs(v.var() - var) < 5 * math.sqrt((m4 - var ** 2) / N), (what, v.var(), var)


@pytest.mark.parametrize("name, kwargs, mean, var", LIKE, ids=[c[0] for c in LIKE])
def test_like_samplers(name: str, kwargs: dict, mean: float, var: float) -> None:
    f = getattr(mx.nd.random, name)
    mx.random.seed(11)
    x = f(mx.nd.zeros((N,)), **kwargs)
    assert isinstance(x, mx.nd.NDArray) and x.shape == (N,) and x.dtype == np.float32
    _check_moments(x.asnumpy(), mean, var, name)
    assert f(mx.nd.zeros((2, 3), dtype="float64"), **kwargs).dtype == np.float64
    mx.random.seed(5)
    first = f(mx.nd.zeros((3, 2)), **kwargs).asnumpy()
    mx.random.seed(5)
    np.testing.assert_array_equal(f(mx.nd.zeros((3, 2)), **kwargs).asnumpy(), first)


def test_generalized_negative_binomial() -> None:
    mx.random.seed(12)
    x = mx.nd.random.generalized_negative_binomial(3.0, 0.5, shape=(N,))
    assert x.dtype == np.float32 and x.shape == (N,)
    _check_moments(x.asnumpy(), 3.0, 3.0 + 0.5 * 9.0, "generalized_negative_binomial")
    poisson = mx.nd.random.generalized_negative_binomial(2.0, 0.0, shape=(N,)).asnumpy()
    _check_moments(poisson, 2.0, 2.0, "alpha=0 (Poisson)")
    y = mx.nd.random.generalized_negative_binomial(mx.nd.array([1.0, 2.0]), mx.nd.array([0.5, 1.0]), shape=3)
    assert y.shape == (2, 3)
    assert mx.nd.random.generalized_negative_binomial().shape == (1,)
    with pytest.raises(ValueError, match="non-negative"):
        mx.nd.random.generalized_negative_binomial(-1.0, 0.5)
