"""mx.nd.random's samplers shaped like an array (``normal_like(data)`` draws ``data.shape`` samples of
``data``'s dtype) and the generalized negative binomial distribution (a gamma-Poisson mixture: mean ``mu``,
variance ``mu + alpha * mu ** 2``), from cellonnx's seeded generator (``mx.random.seed``)."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.mxnet._op import retype
from cellonnx.mxnet._op._util import dtype_of
from cellonnx.mxnet.ndarray.ndarray import NDArray
from cellonnx.ops.prims.random import generator
from cellonnx.tensor import Tensor

__all__ = ["exponential_like", "gamma_like", "generalized_negative_binomial",
           "generalized_negative_binomial_like", "negative_binomial_like", "normal_like", "poisson_like",
           "uniform_like"]


def _like(data: Tensor, values: np.ndarray, out: Any = None) -> NDArray:
    result = retype(Tensor(np.asarray(values).astype(data._data.dtype)), NDArray)
    if out is not None:
        out[...] = result
        return out
    return result


def _gnb(mu: Any, alpha: Any, size: tuple[int, ...], name: str) -> np.ndarray:
    mu, alpha = np.asarray(mu, np.float64), np.asarray(alpha, np.float64)
    if np.any(mu < 0) or np.any(alpha < 0):
        raise ValueError(f"{name}: mu and alpha must be non-negative, got mu={mu}, alpha={alpha}")
    rng = generator("generalized_negative_binomial")
    mu, alpha = np.broadcast_to(mu, size), np.broadcast_to(alpha, size)
    safe = np.where(alpha > 0, alpha, 1.0)
    lam = np.where(alpha > 0, rng.gamma(1.0 / safe, safe * mu, size), mu)
    return rng.poisson(lam)


def uniform_like(data: Tensor, low: float = 0.0, high: float = 1.0, out: Any = None, name: Any = None,
                 **_: Any) -> NDArray:
    """Samples of U(``low``, ``high``) of ``data``'s shape and dtype.

    Examples:
        >>> from cellonnx.mxnet import nd
        >>> x = nd.random.uniform_like(nd.zeros((2, 3)), low=1.0, high=2.0)
        >>> x.shape, bool(((x >= 1) * (x < 2)).min())
        ((2, 3), True)
    """
    return _like(data, generator("uniform").uniform(low, high, tuple(data.shape)), out)


def normal_like(data: Tensor, loc: float = 0.0, scale: float = 1.0, out: Any = None, name: Any = None,
                **_: Any) -> NDArray:
    """Samples of N(``loc``, ``scale`` ** 2) of ``data``'s shape and dtype.

    Examples:
        >>> from cellonnx.mxnet import nd
        >>> nd.random.normal_like(nd.zeros((2, 3), dtype='float64')).dtype
        <class 'numpy.float64'>
    """
    return _like(data, generator("normal").normal(loc, scale, tuple(data.shape)), out)


def exponential_like(data: Tensor, lam: float = 1.0, out: Any = None, name: Any = None, **_: Any) -> NDArray:
    """Samples of the exponential distribution of rate ``lam`` (mean 1 / lam), of ``data``'s shape and dtype.

    Examples:
        >>> from cellonnx.mxnet import nd
        >>> nd.random.exponential_like(nd.zeros((4,)), lam=2.0).shape
        (4,)
    """
    return _like(data, generator("exponential").exponential(1.0 / float(lam), tuple(data.shape)), out)


def gamma_like(data: Tensor, alpha: float = 1.0, beta: float = 1.0, out: Any = None, name: Any = None,
               **_: Any) -> NDArray:
    """Samples of the gamma distribution of shape ``alpha`` and scale ``beta``, of ``data``'s shape and dtype.

    Examples:
        >>> from cellonnx.mxnet import nd
        >>> nd.random.gamma_like(nd.zeros((2, 2)), alpha=9.0, beta=0.5).shape
        (2, 2)
    """
    return _like(data, generator("gamma").gamma(alpha, beta, tuple(data.shape)), out)


def poisson_like(data: Tensor, lam: float = 1.0, out: Any = None, name: Any = None, **_: Any) -> NDArray:
    """Samples of the Poisson distribution of rate ``lam`` (as floats of ``data``'s dtype), of ``data``'s
    shape.

    Examples:
        >>> from cellonnx.mxnet import nd
        >>> nd.random.poisson_like(nd.zeros((3,)), lam=4.0).dtype
        <class 'numpy.float32'>
    """
    return _like(data, generator("poisson").poisson(lam, tuple(data.shape)), out)


def negative_binomial_like(data: Tensor, k: int = 1, p: float = 1.0, out: Any = None, name: Any = None,
                           **_: Any) -> NDArray:
    """Samples of the negative binomial distribution (failures before ``k`` successes of probability ``p``),
    of ``data``'s shape and dtype.

    Examples:
        >>> from cellonnx.mxnet import nd
        >>> nd.random.negative_binomial_like(nd.zeros((3,)), k=3, p=0.4).shape
        (3,)
    """
    return _like(data, generator("negative_binomial").negative_binomial(k, p, tuple(data.shape)), out)


def generalized_negative_binomial_like(data: Tensor, mu: float = 1.0, alpha: float = 1.0, out: Any = None,
                                       name: Any = None, **_: Any) -> NDArray:
    """Samples of the generalized negative binomial distribution of mean ``mu`` and dispersion ``alpha``,
    of ``data``'s shape and dtype.

    Examples:
        >>> from cellonnx.mxnet import nd
        >>> nd.random.generalized_negative_binomial_like(nd.zeros((2, 2)), mu=2.0, alpha=0.3).shape
        (2, 2)
    """
    return _like(data, _gnb(mu, alpha, tuple(data.shape), "generalized_negative_binomial_like"), out)


def generalized_negative_binomial(mu: Any = 1.0, alpha: Any = 1.0, shape: Any = None, dtype: Any = None,
                                  ctx: Any = None, out: Any = None, **_: Any) -> NDArray:
    """Samples of the generalized negative binomial distribution: a Poisson count whose rate is gamma
    distributed, mean ``mu`` and variance ``mu + alpha * mu ** 2`` (Poisson for alpha = 0). Array
    parameters draw ``shape`` samples per element (the result is ``mu.shape + shape``); float32 unless
    ``dtype`` says.

    Examples:
        >>> from cellonnx.mxnet import nd
        >>> nd.random.generalized_negative_binomial(2.0, 0.5, shape=(2, 3)).shape
        (2, 3)
    """
    if shape is None or shape == ():
        extra: tuple[int, ...] = ()
    else:
        extra = (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(int(s) for s in shape)
    if isinstance(mu, Tensor):
        m = mu._data.astype(np.float64)
        a = alpha._data.astype(np.float64) if isinstance(alpha, Tensor) else np.float64(alpha)
        size = m.shape + extra
        m = m.reshape(m.shape + (1,) * len(extra))
        a = np.reshape(a, np.shape(a) + (1,) * len(extra)) if np.ndim(a) else a
    else:
        size, m, a = extra or (1,), mu, alpha
    draws = _gnb(m, a, size, "generalized_negative_binomial")
    result = retype(Tensor(draws.astype(dtype_of(dtype).np_dtype)), NDArray)
    if out is not None:
        out[...] = result
        return out
    return result
