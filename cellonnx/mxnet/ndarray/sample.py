"""MXNet 1.x's flat sampler operators of mx.nd: ``random_<dist>`` (scalar parameters, a ``shape``) and
``sample_<dist>`` (array parameters: one draw of ``shape`` per parameter element, output
``params.shape + shape``), drawing from cellonnx's seeded generator (``mx.random.seed``); and ``shuffle``."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from cellonnx.mxnet._op import retype
from cellonnx.mxnet._op._util import dtype_of
from cellonnx.mxnet.ndarray.ndarray import NDArray
from cellonnx.mxnet.ndarray.random import shuffle
from cellonnx.ops.prims.random import generator
from cellonnx.tensor import Tensor

__all__ = ["SAMPLERS"]


def _shape(shape: Any) -> tuple[int, ...]:
    if shape is None:
        return ()
    return (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(int(s) for s in shape)


def _gnb(rng: np.random.Generator, mu: Any, alpha: Any, size: tuple[int, ...]) -> np.ndarray:
    """Generalized negative binomial: Poisson draws of a Gamma(1 / alpha, alpha * mu) rate (alpha = 0:
    Poisson(mu))."""
    mu, alpha = np.broadcast_to(mu, size).astype(np.float64), np.broadcast_to(alpha, size).astype(np.float64)
    safe = np.where(alpha > 0, alpha, 1.0)
    lam = np.where(alpha > 0, rng.gamma(1.0 / safe, safe * mu), mu)
    return rng.poisson(lam)


# name -> (parameter names with defaults, draw(rng, *params, size))
_DISTS: dict[str, tuple[tuple[tuple[str, float], ...], Callable[..., np.ndarray]]] = {
    "uniform": ((("low", 0.0), ("high", 1.0)), lambda r, a, b, s: r.uniform(a, b, s)),
    "normal": ((("mu", 0.0), ("sigma", 1.0)), lambda r, a, b, s: r.normal(a, b, s)),
    "gamma": ((("alpha", 1.0), ("beta", 1.0)), lambda r, a, b, s: r.gamma(a, b, s)),
    "exponential": ((("lam", 1.0),), lambda r, a, s: r.exponential(1.0 / np.asarray(a, np.float64), s)),
    "poisson": ((("lam", 1.0),), lambda r, a, s: r.poisson(a, s)),
    "negative_binomial": ((("k", 1.0), ("p", 1.0)), lambda r, a, b, s: r.negative_binomial(a, b, s)),
    "generalized_negative_binomial": ((("mu", 1.0), ("alpha", 1.0)), _gnb),
}


def _random(dist: str) -> Callable[..., NDArray]:
    names, draw = _DISTS[dist]

    def fn(*args: Any, shape: Any = None, dtype: Any = None, ctx: Any = None, out: Any = None,
           **kwargs: Any) -> NDArray:
        params = [args[i] if i < len(args) else kwargs.get(n, d) for i, (n, d) in enumerate(names)]
        size = _shape(shape) or (1,)
        value = draw(generator(f"random_{dist}"), *(float(p) for p in params), size)
        result = retype(Tensor(np.asarray(value).astype(dtype_of(dtype).np_dtype)), NDArray)
        if out is not None:
            out[...] = result
            return out
        return result
    fn.__name__ = fn.__qualname__ = f"random_{dist}"
    fn.__doc__ = f"Samples of the {dist} distribution ({', '.join(n for n, _ in names)}) of ``shape``."
    return fn


def _sample(dist: str) -> Callable[..., NDArray]:
    names, draw = _DISTS[dist]

    def fn(*args: Any, shape: Any = None, dtype: Any = None, out: Any = None, **kwargs: Any) -> NDArray:
        params = [args[i] if i < len(args) else kwargs[n] for i, (n, _) in enumerate(names)]
        arrays = [np.asarray(p._data if isinstance(p, Tensor) else p, np.float64) for p in params]
        extra = _shape(shape)
        size = arrays[0].shape + extra
        arrays = [a.reshape(a.shape + (1,) * len(extra)) for a in arrays]
        value = draw(generator(f"sample_{dist}"), *arrays, size)
        like = params[0]._data.dtype if isinstance(params[0], Tensor) else np.float32
        result = retype(Tensor(np.asarray(value).astype(like if dtype is None else dtype_of(dtype).np_dtype)),
                        NDArray)
        if out is not None:
            out[...] = result
            return out
        return result
    fn.__name__ = fn.__qualname__ = f"sample_{dist}"
    fn.__doc__ = (f"Samples of the {dist} distribution, one block of ``shape`` for each element of the "
                  f"parameter arrays ({', '.join(n for n, _ in names)}): ``params.shape + shape``.")
    return fn


SAMPLERS: dict[str, Callable[..., Any]] = {"shuffle": shuffle}
for _dist in _DISTS:
    SAMPLERS[f"sample_{_dist}"] = _sample(_dist)
    if _dist not in ("uniform", "normal"):
        SAMPLERS[f"random_{_dist}"] = _random(_dist)
SAMPLERS["random_randint"] = lambda low, high, shape=None, dtype="int32", ctx=None, **_: retype(
    Tensor(generator("random_randint").integers(int(low), int(high), _shape(shape) or (1,)).astype(
        dtype_of(dtype).np_dtype)), NDArray)
