"""MXNet's ``random_pdf_<dist>`` operators: the density (or with ``is_log`` its logarithm) of ``sample``
under distributions whose parameter arrays match ``sample``'s leading axes (one row of samples per
distribution), written with cellonnx ops so they differentiate in the sample and the parameters."""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from cellonnx import ops
from cellonnx.tensor import Tensor

__all__ = ["PDF"]


def _lift(param: Tensor, sample: Tensor, event: int = 0) -> Tensor:
    """``param`` with axes added after its batch axes so it broadcasts against ``sample``."""
    extra = sample.ndim - param.ndim
    if extra <= 0:
        return param
    batch = param.ndim - event
    shape = tuple(param.shape[:batch]) + (1,) * extra + tuple(param.shape[batch:])
    return ops.reshape(param, shape)


def _finish(logp: Tensor, is_log: bool) -> Tensor:
    return logp if is_log else ops.exp(logp)


def pdf_normal(sample: Tensor, mu: Tensor, sigma: Tensor, is_log: bool = False, **_: Any) -> Tensor:
    mu, sigma = _lift(mu, sample), _lift(sigma, sample)
    z = (sample - mu) / sigma
    return _finish(-0.5 * z * z - ops.log(sigma) - 0.5 * math.log(2 * math.pi), is_log)


def pdf_uniform(sample: Tensor, low: Tensor, high: Tensor, is_log: bool = False, **_: Any) -> Tensor:
    low, high = _lift(low, sample), _lift(high, sample)
    return _finish(sample * 0.0 - ops.log(high - low), is_log)  # no gradient in the sample


def pdf_exponential(sample: Tensor, lam: Tensor, is_log: bool = False, **_: Any) -> Tensor:
    lam = _lift(lam, sample)
    return _finish(ops.log(lam) - lam * sample, is_log)


def pdf_gamma(sample: Tensor, alpha: Tensor, beta: Tensor, is_log: bool = False, **_: Any) -> Tensor:
    """Gamma with shape ``alpha`` and rate ``beta`` (MXNet's density takes beta as the rate)."""
    a, b = _lift(alpha, sample), _lift(beta, sample)
    return _finish(a * ops.log(b) + (a - 1.0) * ops.log(sample) - b * sample - ops.lgamma(a), is_log)


def pdf_poisson(sample: Tensor, lam: Tensor, is_log: bool = False, **_: Any) -> Tensor:
    lam = _lift(lam, sample)
    return _finish(sample * ops.log(lam) - ops.lgamma(sample + 1.0) - lam, is_log)


def _nb(sample: Tensor, k: Tensor, p: Tensor) -> Tensor:
    return (ops.lgamma(sample + k) - ops.lgamma(sample + 1.0) - ops.lgamma(k) + k * ops.log(p)
            + sample * ops.log(1.0 - p))


def pdf_negative_binomial(sample: Tensor, k: Tensor, p: Tensor, is_log: bool = False, **_: Any) -> Tensor:
    return _finish(_nb(sample, _lift(k, sample), _lift(p, sample)), is_log)


def pdf_generalized_negative_binomial(sample: Tensor, mu: Tensor, alpha: Tensor, is_log: bool = False,
                                      **_: Any) -> Tensor:
    """Negative binomial with mean ``mu`` and dispersion ``alpha``: k = 1 / alpha, p = 1 / (1 + alpha mu)."""
    mu, alpha = _lift(mu, sample), _lift(alpha, sample)
    return _finish(_nb(sample, 1.0 / alpha, 1.0 / (1.0 + alpha * mu)), is_log)


def pdf_dirichlet(sample: Tensor, alpha: Tensor, is_log: bool = False, **_: Any) -> Tensor:
    """Dirichlet over the last axis of ``sample`` (``alpha``'s last axis holds the concentrations)."""
    a = _lift(alpha, sample, event=1)
    logp = (ops.lgamma(ops.sum(a, -1)) - ops.sum(ops.lgamma(a), -1)
            + ops.sum((a - 1.0) * ops.log(sample), -1))
    return _finish(logp, is_log)


PDF: dict[str, Callable[..., Any]] = {
    "random_pdf_normal": pdf_normal, "random_pdf_uniform": pdf_uniform,
    "random_pdf_exponential": pdf_exponential, "random_pdf_gamma": pdf_gamma,
    "random_pdf_poisson": pdf_poisson, "random_pdf_negative_binomial": pdf_negative_binomial,
    "random_pdf_generalized_negative_binomial": pdf_generalized_negative_binomial,
    "random_pdf_dirichlet": pdf_dirichlet,
}
