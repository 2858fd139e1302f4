"""mx.np.random's distributions beyond uniform / normal, as MXNet 1.9.1 gives them: parameters are scalars
or arrays (broadcast together); ``size=None`` draws one sample per parameter element (a 0-d array for
scalars); samples are float32 unless ``dtype`` is given, ``choice`` / ``multinomial`` int64. They draw from
cellonnx's seeded generator (``mx.random.seed`` makes them repeat).

As in MXNet 1.9.1, the location-scale and shape families are differentiable with respect to array
parameters (pathwise: the sample is a function of the parameters and parameter-free noise):
``exponential``, ``rayleigh``, ``weibull``, ``pareto``, ``lognormal``, ``logistic`` and ``gumbel``;
``gamma``, ``beta``, ``chisquare`` and ``power`` are not (MXNet's gradient there is zero)."""
from __future__ import annotations

from typing import Any

import numpy as _onp

from cellonnx import ops as _ops
from cellonnx.mxnet.numpy.multiarray import to_np
from cellonnx.ops.prims.random import generator
from cellonnx.tensor import Tensor

__all__ = ["beta", "chisquare", "choice", "exponential", "gamma", "gumbel", "logistic", "lognormal",
           "multinomial", "multivariate_normal", "pareto", "power", "rayleigh", "weibull"]


def _p(value: Any) -> Any:
    return value._data.astype(_onp.float64) if isinstance(value, Tensor) else value


def _size(size: Any, *params: Any) -> Any:
    if size is None:
        return _onp.broadcast_shapes(*(_onp.shape(_p(v)) for v in params))
    return (int(size),) if isinstance(size, (int, _onp.integer)) else tuple(int(s) for s in size)


def _out(values: Any, dtype: Any = None, out: Any = None) -> Any:
    result = to_np(Tensor(_onp.array(_onp.asarray(values).astype(_onp.dtype(dtype or _onp.float32)),
                                     order="C")))
    if out is not None:
        out[...] = result
        return out
    return result


def _tensor(value: Any, dtype: Any) -> Tensor:
    return value if isinstance(value, Tensor) else Tensor(_onp.asarray(value, dtype))


def _pathwise(noise: _onp.ndarray, params: tuple, transform: Any, dtype: Any = None, out: Any = None) -> Any:
    """``transform(noise, *params)`` computed with cellonnx ops (so array parameters get gradients), in
    ``dtype`` (float32 by default)."""
    dt = _onp.dtype(dtype or _onp.float32)
    result = to_np(transform(Tensor(noise.astype(dt)), *(_tensor(p, dt) for p in params)))
    if out is not None:
        out[...] = result
        return out
    return result


def _zero_gradient(result: Any, *params: Any) -> Any:
    """``result`` joined to the array parameters with a zero gradient, as MXNet 1.9.1's non-pathwise
    samplers are (a backward through them gives zeros, not an error)."""
    for p in params:
        if isinstance(p, Tensor) and p.requires_grad and p._data.dtype.kind == "f":
            result = to_np(_ops.add(result, _ops.mul(_ops.cast(p, result._data.dtype), 0.0)))
    return result


def _positive(name: str, **values: Any) -> None:
    for key, v in values.items():
        if _onp.any(_onp.asarray(_p(v)) < 0):
            raise ValueError(f"np.random.{name}: {key} must be non-negative, got {_p(v)}")


def gamma(shape: Any, scale: Any = 1.0, size: Any = None, dtype: Any = None, ctx: Any = None,
          out: Any = None) -> Any:
    """Samples of the gamma distribution of ``shape`` k and ``scale`` theta (mean k theta).

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> np.random.seed(0)
        >>> np.random.gamma(2.0, 1.0, size=(2, 3)).shape
        (2, 3)
    """
    _positive("gamma", shape=shape, scale=scale)
    size = _size(size, shape, scale)
    draws = generator("gamma").gamma(_p(shape), _p(scale), size)
    return _zero_gradient(_out(draws, dtype, out), shape, scale)


def beta(a: Any, b: Any, size: Any = None, dtype: Any = None, ctx: Any = None) -> Any:
    """Samples of the beta distribution of ``a`` and ``b`` (mean a / (a + b)).

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> x = np.random.beta(2.0, 3.0, size=4)
        >>> bool(((x > 0) & (x < 1)).all())
        True
    """
    _positive("beta", a=a, b=b)
    return _zero_gradient(_out(generator("beta").beta(_p(a), _p(b), _size(size, a, b)), dtype), a, b)


def chisquare(df: Any, size: Any = None, dtype: Any = None, ctx: Any = None) -> Any:
    """Samples of the chi-square distribution of ``df`` degrees of freedom (mean df).

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> np.random.chisquare(2.0, size=(3,)).dtype
        dtype('float32')
    """
    _positive("chisquare", df=df)
    return _zero_gradient(_out(generator("chisquare").chisquare(_p(df), _size(size, df)), dtype), df)


def exponential(scale: Any = 1.0, size: Any = None, ctx: Any = None, out: Any = None) -> Any:
    """Samples of the exponential distribution of ``scale`` (mean scale).

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> np.random.exponential(2.0, size=(2, 2)).shape
        (2, 2)
    """
    _positive("exponential", scale=scale)
    noise = generator("exponential").standard_exponential(_size(size, scale))
    return _pathwise(noise, (scale,), _ops.mul, None, out)


def rayleigh(scale: Any = 1.0, size: Any = None, ctx: Any = None, out: Any = None) -> Any:
    """Samples of the Rayleigh distribution of ``scale`` (mode scale).

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> np.random.rayleigh(1.0, size=3).shape
        (3,)
    """
    _positive("rayleigh", scale=scale)
    noise = _onp.sqrt(2.0 * generator("rayleigh").standard_exponential(_size(size, scale)))
    return _pathwise(noise, (scale,), _ops.mul, None, out)


def weibull(a: Any, size: Any = None, ctx: Any = None, out: Any = None) -> Any:
    """Samples of the Weibull distribution of shape ``a`` (scale 1).

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> np.random.weibull(2.0, size=3).shape
        (3,)
    """
    _positive("weibull", a=a)
    noise = generator("weibull").standard_exponential(_size(size, a))  # E^(1 / a)
    return _pathwise(noise, (a,), lambda e, k: _ops.pow(e, _ops.reciprocal(k)), None, out)


def pareto(a: Any, size: Any = None, ctx: Any = None, out: Any = None) -> Any:
    """Samples of the Pareto II (Lomax) distribution of shape ``a``, as NumPy's.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> bool((np.random.pareto(3.0, size=5) >= 0).all())
        True
    """
    _positive("pareto", a=a)
    noise = generator("pareto").standard_exponential(_size(size, a))  # exp(E / a) - 1
    return _pathwise(noise, (a,), lambda e, k: _ops.sub(_ops.exp(_ops.div(e, k)), 1.0), None, out)


def power(a: Any, size: Any = None) -> Any:
    """Samples in [0, 1] of the power distribution ``a x^(a-1)``.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> x = np.random.power(3.0, size=5)
        >>> bool(((x >= 0) & (x <= 1)).all())
        True
    """
    _positive("power", a=a)
    return _zero_gradient(_out(generator("power").power(_p(a), _size(size, a))), a)


def lognormal(mean: Any = 0.0, sigma: Any = 1.0, size: Any = None, dtype: Any = None, ctx: Any = None,
              out: Any = None) -> Any:
    """Samples whose logarithm is normal of ``mean`` and ``sigma``.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> bool((np.random.lognormal(0.0, 1.0, size=5) > 0).all())
        True
    """
    _positive("lognormal", sigma=sigma)
    noise = generator("lognormal").standard_normal(_size(size, mean, sigma))
    return _pathwise(noise, (mean, sigma), lambda z, m, s: _ops.exp(_ops.add(m, _ops.mul(s, z))), dtype, out)


def logistic(loc: Any = 0.0, scale: Any = 1.0, size: Any = None, ctx: Any = None, out: Any = None) -> Any:
    """Samples of the logistic distribution of ``loc`` and ``scale``.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> np.random.logistic(0.0, 1.0, size=(2, 3)).shape
        (2, 3)
    """
    _positive("logistic", scale=scale)
    noise = generator("logistic").logistic(0.0, 1.0, _size(size, loc, scale))
    return _pathwise(noise, (loc, scale), lambda z, m, s: _ops.add(m, _ops.mul(s, z)), None, out)


def gumbel(loc: Any = 0.0, scale: Any = 1.0, size: Any = None, ctx: Any = None, out: Any = None) -> Any:
    """Samples of the Gumbel (extreme value type I) distribution of ``loc`` and ``scale``.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> np.random.gumbel(0.0, 1.0, size=4).shape
        (4,)
    """
    _positive("gumbel", scale=scale)
    noise = generator("gumbel").gumbel(0.0, 1.0, _size(size, loc, scale))
    return _pathwise(noise, (loc, scale), lambda z, m, s: _ops.add(m, _ops.mul(s, z)), None, out)


def choice(a: Any, size: Any = None, replace: bool = True, p: Any = None, ctx: Any = None,
           out: Any = None) -> Any:
    """Samples of ``range(a)`` (an int: int64 indices) or of the elements of the 1-D array ``a``, with
    probabilities ``p`` (uniform when None), with or without ``replace``.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> x = np.random.choice(5, 3, replace=False)
        >>> x.dtype, len(set(x.tolist()))
        (dtype('int64'), 3)
    """
    probs = None if p is None else _onp.asarray(_p(p), _onp.float64)
    if isinstance(a, Tensor):
        if a.ndim != 1:
            raise ValueError(f"np.random.choice: a must be 1-D, got shape {tuple(a.shape)}")
        pick = generator("choice").choice(a.shape[0], size, replace=replace, p=probs)
        return _out(a._data[pick], a._data.dtype, out)
    return _out(generator("choice").choice(int(a), size, replace=replace, p=probs), _onp.int64, out)


def multinomial(n: int, pvals: Any, size: Any = None, **kwargs: Any) -> Any:
    """Counts (int64) of ``n`` draws over the categories of probabilities ``pvals``, one row per sample of
    ``size``.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> counts = np.random.multinomial(10, [0.2, 0.3, 0.5], size=2)
        >>> counts.shape, counts.sum(axis=1).tolist()
        ((2, 3), [10, 10])
    """
    probs = _onp.asarray(_p(pvals), _onp.float64)
    if _onp.any(probs < 0) or probs.sum() > 1 + 1e-6:
        raise ValueError(f"np.random.multinomial: pvals must be probabilities summing to at most 1, got "
                         f"{probs}")
    return _out(generator("multinomial").multinomial(int(n), probs, size), _onp.int64)


def multivariate_normal(mean: Any, cov: Any, size: Any = None, check_valid: Any = None,
                        tol: Any = None) -> Any:
    """Samples of the multivariate normal distribution of ``mean`` (..., N) and covariance ``cov``
    (..., N, N): shape ``size + (N,)``.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> np.random.multivariate_normal(np.zeros(2), np.eye(2), size=3).shape
        (3, 2)
    """
    mu, sigma = _onp.asarray(_p(mean), _onp.float64), _onp.asarray(_p(cov), _onp.float64)
    batch = _onp.broadcast_shapes(mu.shape[:-1], sigma.shape[:-2])
    lead = () if size is None else _size(size)
    shape = lead + batch + mu.shape[-1:]
    chol = _onp.linalg.cholesky(sigma)
    z = generator("multivariate_normal").standard_normal(shape)
    return _out(mu + _onp.einsum("...ij,...j->...i", chol, z))
