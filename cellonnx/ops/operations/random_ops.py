"""MindSpore's random operator classes (``ops.StandardNormal``, ``ops.UniformReal``, ``ops.UniformInt``,
``ops.Bernoulli``): table rows over the functional random ops. ``seed`` / ``seed2`` 0 draw from the global
generator (``set_seed``); otherwise ``seed`` seeds the draw."""
from __future__ import annotations

from typing import Any

from cellonnx import dtypes
from cellonnx.ops.operations._util import ints
from cellonnx.ops.operations.table import Row, build
from cellonnx.tensor import Tensor


def _seed(seed: int, seed2: int) -> int | None:
    return None if seed == 0 and seed2 == 0 else int(seed or seed2)


def _scalar(v: Any) -> Any:
    return v.asnumpy().item() if isinstance(v, Tensor) else v


def _uniform_int(shape: Any, minval: Any, maxval: Any, seed: int, seed2: int) -> Tensor:
    from cellonnx.ops import randint
    lo, hi = int(_scalar(minval)), int(_scalar(maxval))
    if lo >= hi:
        raise ValueError(f"For 'UniformInt', minval {lo} must be less than maxval {hi}.")
    return randint(lo, hi, ints(shape), _seed(seed, seed2), dtype=dtypes.int32)


def _bernoulli(x: Tensor, p: Any, seed: int) -> Tensor:
    from cellonnx.ops import bernoulli
    return bernoulli(x, p, None if seed == -1 else seed)


def _randperm(n: Any, max_length: int, pad: int, dtype: Any) -> Tensor:
    """MindSpore's Randperm: a permutation of 0 .. n-1 padded with ``pad`` to ``max_length`` values."""
    from cellonnx.ops import cat, full, randperm
    count = int(_scalar(n) if not isinstance(n, Tensor) or n.size == 1 else n.asnumpy().reshape(-1)[0])
    if count > max_length:
        raise ValueError(f"For 'Randperm', n {count} must not exceed max_length {max_length}.")
    perm = randperm(count, dtype=dtype)
    return cat((perm, full((max_length - count,), pad, dtype=dtype))) if count < max_length else perm


def _int(v: Any) -> int:
    return int(v.asnumpy().reshape(-1)[0]) if isinstance(v, Tensor) else int(v)


ROWS = [
    Row("StandardNormal", "seed=0, seed2=0", "shape", "standard_normal(ints(shape), _seed(seed, seed2))"),
    Row("UniformReal", "seed=0, seed2=0", "shape", "uniform(ints(shape), 0.0, 1.0, _seed(seed, seed2))"),
    Row("UniformInt", "seed=0, seed2=0", "shape, minval, maxval", "_uniform_int(shape, minval, maxval, seed, "
                                                                  "seed2)"),
    Row("Bernoulli", "seed=-1, offset=0", "x, p", "_bernoulli(x, p, seed)"),
    Row("StandardLaplace", "seed=0, seed2=0", "shape", "standard_laplace(ints(shape), _seed(seed, seed2))"),
    Row("Gamma", "seed=0, seed2=0", "shape, alpha, beta",
        "gamma(ints(shape), alpha, beta, _seed(seed, seed2))"),
    Row("RandomGamma", "seed=0, seed2=0", "shape, alpha",
        "random_gamma(ints(shape), alpha, _seed(seed, seed2))"),
    Row("Poisson", "seed=0, seed2=0", "shape, mean", "poisson(ints(shape), mean, _seed(seed, seed2))"),
    Row("RandomPoisson", "seed=0, seed2=0, dtype=mstype.int64", "shape, rate",
        "random_poisson(ints(shape), rate, _seed(seed, seed2), dtype)"),
    Row("Multinomial", "seed=0, seed2=0, dtype=mstype.int32", "x, num_samples",
        "cast(multinomial(x, _int(num_samples), True, _seed(seed, seed2)), dtype)"),
    Row("MultinomialWithReplacement", "numsamples, replacement=False", "x, seed, offset",
        "multinomial_with_replacement(x, seed, offset, numsamples, replacement)"),
    Row("RandomCategorical", "dtype=mstype.int64", "logits, num_sample, seed",
        "random_categorical(logits, _int(num_sample), _int(seed), dtype)"),
    Row("Randperm", "max_length=1, pad=-1, dtype=mstype.int32", "n", "_randperm(n, max_length, pad, dtype)"),
    Row("RandpermV2", "seed=0, offset=0, dtype=mstype.int64", "n", "randperm(_int(n), seed, offset, dtype)"),
    Row("RandomShuffle", "seed=0, seed2=0", "x", "shuffle(x, _seed(seed, seed2))"),
    Row("RandomChoiceWithMask", "count=256, seed=0, seed2=0", "input_x",
        "choice_with_mask(input_x, count, _seed(seed, seed2))"),
    Row("UniformCandidateSampler", "num_true, num_sampled, unique, range_max, seed=0, "
        "remove_accidental_hits=False", "true_classes",
        "uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed, "
        "remove_accidental_hits)"),
    Row("LogUniformCandidateSampler", "num_true=1, num_sampled=5, unique=True, range_max=5, seed=0",
        "true_classes",
        "log_uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed)"),
]

CLASSES = build(ROWS, globals())
globals().update(CLASSES)
__all__ = list(CLASSES)
