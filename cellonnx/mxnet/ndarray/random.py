"""mx.nd.random: samplers drawing from cellonnx's seeded generator (``mx.random.seed``), float32 by
default."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.mxnet._op import retype
from cellonnx.mxnet._op._util import dtype_of
from cellonnx.mxnet.ndarray.ndarray import NDArray
from cellonnx.ops.prims.random import generator
from cellonnx.tensor import Tensor

__all__ = ["exponential", "gamma", "multinomial", "negative_binomial", "normal", "poisson", "randint",
           "randn",
           "shuffle", "uniform"]


def _shape(shape: Any) -> tuple[int, ...]:
    if shape is None or shape == ():
        return (1,)
    return (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(int(s) for s in shape)


def _make(values: np.ndarray, dtype: Any) -> NDArray:
    return retype(Tensor(np.asarray(values).astype(dtype_of(dtype).np_dtype)), NDArray)


def _param(value: Any) -> Any:
    return value._data if isinstance(value, Tensor) else value


def _sample_shape(param: Any, shape: Any) -> tuple[int, ...]:
    if isinstance(param, Tensor):
        return tuple(param.shape) + (() if shape is None or shape == () else _shape(shape))
    return _shape(shape)


def uniform(low: Any = 0.0, high: Any = 1.0, shape: Any = None, dtype: Any = None, ctx: Any = None,
            out: Any = None, **_: Any) -> NDArray:
    """Samples of U(low, high)."""
    size = _sample_shape(low, shape)
    lo, hi = _param(low), _param(high)
    if isinstance(low, Tensor):
        lo, hi = np.reshape(lo, lo.shape + (1,) * (len(size) - lo.ndim)), np.reshape(hi, hi.shape + (1,) * (
            len(size) - hi.ndim))
    return _make(generator("uniform").uniform(lo, hi, size), dtype)


def normal(loc: Any = 0.0, scale: Any = 1.0, shape: Any = None, dtype: Any = None, ctx: Any = None,
           out: Any = None, **_: Any) -> NDArray:
    """Samples of N(loc, scale^2)."""
    size = _sample_shape(loc, shape)
    mu, sigma = _param(loc), _param(scale)
    if isinstance(loc, Tensor):
        mu = np.reshape(mu, mu.shape + (1,) * (len(size) - mu.ndim))
        sigma = np.reshape(sigma, sigma.shape + (1,) * (len(size) - sigma.ndim))
    return _make(generator("normal").normal(mu, sigma, size), dtype)


def randn(*shape: int, loc: float = 0.0, scale: float = 1.0, dtype: Any = None, **_: Any) -> NDArray:
    return normal(loc, scale, shape or None, dtype)


def randint(low: int, high: int, shape: Any = None, dtype: Any = "int32", ctx: Any = None,
            **_: Any) -> NDArray:
    """Integers in [low, high)."""
    return _make(generator("randint").integers(int(low), int(high), _shape(shape)), dtype)


def exponential(scale: Any = 1.0, shape: Any = None, dtype: Any = None, **_: Any) -> NDArray:
    return _make(generator("exponential").exponential(_param(scale), _sample_shape(scale, shape)), dtype)


def gamma(alpha: Any = 1.0, beta: Any = 1.0, shape: Any = None, dtype: Any = None, **_: Any) -> NDArray:
    return _make(generator("gamma").gamma(_param(alpha), _param(beta), _sample_shape(alpha, shape)), dtype)


def poisson(lam: Any = 1.0, shape: Any = None, dtype: Any = None, **_: Any) -> NDArray:
    return _make(generator("poisson").poisson(_param(lam), _sample_shape(lam, shape)), dtype)


def negative_binomial(k: Any = 1, p: Any = 1.0, shape: Any = None, dtype: Any = None, **_: Any) -> NDArray:
    draws = generator("negative_binomial").negative_binomial(_param(k), _param(p), _sample_shape(k, shape))
    return _make(draws, dtype)


def multinomial(data: Tensor, shape: Any = None, get_prob: bool = False, dtype: Any = "int32",
                **_: Any) -> NDArray:
    """Category indices drawn from the probabilities on the last axis of ``data``."""
    probs = np.asarray(data._data, np.float64)
    n = int(np.prod(_shape(shape))) if shape is not None else 1
    rng = generator("multinomial")
    flat = probs.reshape(-1, probs.shape[-1])
    draws = np.stack([rng.choice(flat.shape[1], size=n, p=row / row.sum()) for row in flat])
    out_shape = probs.shape[:-1] + (() if shape is None else _shape(shape))
    return _make(draws.reshape(out_shape), dtype)


def shuffle(data: Tensor, **_: Any) -> NDArray:
    """A copy of ``data`` with its first axis permuted."""
    perm = generator("shuffle").permutation(data.shape[0])
    return retype(Tensor(data._data[perm]), NDArray)


from cellonnx.mxnet.device import current_context  # noqa: E402, F401 - MXNet re-exports it here
from cellonnx.mxnet.ndarray.random_like import *  # noqa: E402, F403
from cellonnx.mxnet.ndarray.random_like import __all__ as _like_all  # noqa: E402

numeric_types = (float, int, np.generic)  # MXNet's (mxnet.base.numeric_types)
__all__ = [*__all__, *_like_all]
