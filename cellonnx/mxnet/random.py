"""mxnet.random: seeding and sampling (the samplers are mx.nd.random's)."""
from __future__ import annotations

from typing import Any

from cellonnx.mxnet.ndarray.random import (
    exponential,
    gamma,
    generalized_negative_binomial,
    multinomial,
    negative_binomial,
    normal,
    poisson,
    randint,
    randn,
    shuffle,
    uniform,
)
from cellonnx.ops.prims.random import set_seed as _set_seed

__all__ = ["exponential", "gamma", "generalized_negative_binomial", "multinomial", "negative_binomial",
           "normal", "poisson", "randint", "randn", "seed", "shuffle", "uniform"]


def seed(seed_state: int, device: Any = "all", ctx: Any = None) -> None:
    """Seed the generators behind random initializers, dropout and the samplers.

    Args:
        seed_state: the seed (int).
        device: accepted for compatibility (one generator set for all devices).
    """
    if not isinstance(seed_state, int):
        raise ValueError(f"seed_state must be int, got {type(seed_state).__name__}")
    _set_seed(seed_state)
