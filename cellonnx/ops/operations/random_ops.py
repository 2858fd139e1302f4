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
    Row("StandardNormal", "seed=0, seed2=0", "shape", "standard_normal(ints(shape), _seed(seed, seed2))",
        summary="Samples of the standard normal distribution of shape ``shape``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> out = ops.StandardNormal(seed=2)((4, 4))
        >>> print(out.shape, out.dtype)
        (4, 4) Float32
        """),
    Row("UniformReal", "seed=0, seed2=0", "shape", "uniform(ints(shape), 0.0, 1.0, _seed(seed, seed2))",
        summary="Floats drawn uniformly from ``[0, 1)``, of shape ``shape``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> out = ops.UniformReal(seed=2)((2, 2))
        >>> print(out.shape, bool((out.asnumpy() >= 0).all() and (out.asnumpy() < 1).all()))
        (2, 2) True
        """),
    Row("UniformInt", "seed=0, seed2=0", "shape, minval, maxval", "_uniform_int(shape, minval, maxval, seed, "
                                                                  "seed2)",
        summary="Integers drawn uniformly from ``[minval, maxval)``, of shape ``shape``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> out = ops.UniformInt(seed=10)((2, 4), Tensor(1, ms.int32), Tensor(5, ms.int32))
        >>> print(out.shape, bool((out.asnumpy() >= 1).all() and (out.asnumpy() < 5).all()))
        (2, 4) True
        """),
    Row("Bernoulli", "seed=-1, offset=0", "x, p", "_bernoulli(x, p, seed)",
        summary="Samples of Bernoulli trials shaped like ``x``, each 1 with probability ``p``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.1, 0.2, 0.3]), ms.float32)
        >>> print(ops.Bernoulli()(x, Tensor([1.0])))
        [1. 1. 1.]
        >>> print(ops.Bernoulli()(x, Tensor(np.array([0.0, 1.0, 1.0]), ms.float32)))
        [0. 1. 1.]
        """),
    Row("StandardLaplace", "seed=0, seed2=0", "shape", "standard_laplace(ints(shape), _seed(seed, seed2))",
        summary="Samples of the standard Laplace distribution of shape ``shape``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> out = ops.StandardLaplace(seed=2)((4, 4))
        >>> print(out.shape, out.dtype)
        (4, 4) Float32
        """),
    Row("Gamma", "seed=0, seed2=0", "shape, alpha, beta",
        "gamma(ints(shape), alpha, beta, _seed(seed, seed2))",
        summary="Samples of the gamma distribution (``alpha``, ``beta``) of ``shape`` broadcast with them.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> alpha = Tensor(np.array([[3.0, 4.0], [5.0, 6.0]]), ms.float32)
        >>> beta = Tensor(np.array([1.0]), ms.float32)
        >>> print(ops.Gamma(seed=3)((3, 1, 2), alpha, beta).shape)
        (3, 2, 2)
        """),
    Row("RandomGamma", "seed=0, seed2=0", "shape, alpha",
        "random_gamma(ints(shape), alpha, _seed(seed, seed2))",
        summary="Samples of the gamma distribution of shape parameters ``alpha``: ``shape + alpha.shape``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> shape = Tensor(np.array([3, 1, 2]), ms.int32)
        >>> alpha = Tensor(np.array([[3.0, 4.0], [5.0, 6.0]]), ms.float32)
        >>> print(ops.RandomGamma(seed=3)(shape, alpha).shape)
        (3, 1, 2, 2, 2)
        """),
    Row("Poisson", "seed=0, seed2=0", "shape, mean", "poisson(ints(shape), mean, _seed(seed, seed2))",
        summary="Samples of the Poisson distribution of rate ``mean``, of shape ``shape``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> out = ops.Poisson(seed=5)((2, 3), Tensor(4.0, ms.float32))
        >>> print(out.shape, out.dtype)
        (2, 3) Float32
        """),
    Row("RandomPoisson", "seed=0, seed2=0, dtype=mstype.int64", "shape, rate",
        "random_poisson(ints(shape), rate, _seed(seed, seed2), dtype)",
        summary="Samples of the Poisson distributions of ``rate``: ``shape + rate.shape``, in ``dtype``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> shape = Tensor(np.array([2, 3]), ms.int32)
        >>> rate = Tensor(np.array([2.0, 10.0]), ms.float32)
        >>> out = ops.RandomPoisson(seed=1)(shape, rate)
        >>> print(out.shape, out.dtype)
        (2, 3, 2) Int64
        """),
    Row("Multinomial", "seed=0, seed2=0, dtype=mstype.int32", "x, num_samples",
        "cast(multinomial(x, _int(num_samples), True, _seed(seed, seed2)), dtype)",
        summary="``num_samples`` class indices per row of ``x``, with probabilities proportional to it.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[0.0, 9.0, 4.0, 0.0]]), ms.float32)
        >>> out = ops.Multinomial(seed=10)(x, 2)
        >>> print(out.shape, bool(np.isin(out.asnumpy(), [1, 2]).all()))
        (1, 2) True
        """),
    Row("MultinomialWithReplacement", "numsamples, replacement=False", "x, seed, offset",
        "multinomial_with_replacement(x, seed, offset, numsamples, replacement)",
        summary="``numsamples`` class indices per row of ``x`` (probabilities proportional to it).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[0.0, 9.0, 4.0, 0.0]]), ms.float32)
        >>> op = ops.MultinomialWithReplacement(numsamples=3, replacement=True)
        >>> out = op(x, Tensor(2, ms.int64), Tensor(5, ms.int64))
        >>> print(out.shape, bool(np.isin(out.asnumpy(), [1, 2]).all()))
        (1, 3) True
        """),
    Row("RandomCategorical", "dtype=mstype.int64", "logits, num_sample, seed",
        "random_categorical(logits, _int(num_sample), _int(seed), dtype)",
        summary="``num_sample`` class indices per row of ``logits``, drawn from their softmax.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> logits = Tensor(np.array([[-10.0, 10.0, -10.0], [10.0, -10.0, -10.0]]), ms.float32)
        >>> out = ops.RandomCategorical(ms.int64)(logits, 4, 1)
        >>> print(out.shape, out.dtype)
        (2, 4) Int64
        """),
    Row("Randperm", "max_length=1, pad=-1, dtype=mstype.int32", "n", "_randperm(n, max_length, pad, dtype)",
        summary="A random permutation of ``0 .. n-1`` padded with ``pad`` to ``max_length``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> out = ops.Randperm(max_length=6, pad=-1)(Tensor([4], ms.int32))
        >>> print(out.shape, sorted(out.asnumpy().tolist()))
        (6,) [-1, -1, 0, 1, 2, 3]
        """),
    Row("RandpermV2", "seed=0, offset=0, dtype=mstype.int64", "n", "randperm(_int(n), seed, offset, dtype)",
        summary="A random permutation of ``0 .. n-1`` in ``dtype``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> out = ops.RandpermV2(seed=1)(5)
        >>> print(out.shape, sorted(out.asnumpy().tolist()))
        (5,) [0, 1, 2, 3, 4]
        """),
    Row("RandomShuffle", "seed=0, seed2=0", "x", "shuffle(x, _seed(seed, seed2))",
        summary="``x`` with its first axis shuffled at random.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1, 2, 3, 4]), ms.float32)
        >>> out = ops.RandomShuffle(seed=1)(x)
        >>> print(out.shape, sorted(out.asnumpy().tolist()))
        (4,) [1.0, 2.0, 3.0, 4.0]
        """),
    Row("RandomChoiceWithMask", "count=256, seed=0, seed2=0", "input_x",
        "choice_with_mask(input_x, count, _seed(seed, seed2))",
        summary="The coordinates of ``count`` random True elements of ``input_x``, with a validity mask.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[True, False], [False, True]]))
        >>> indices, mask = ops.RandomChoiceWithMask(count=3)(x)
        >>> print(indices.shape, mask.shape, int(mask.asnumpy().sum()))
        (3, 2) (3,) 2
        """),
    Row("UniformCandidateSampler", "num_true, num_sampled, unique, range_max, seed=0, "
        "remove_accidental_hits=False", "true_classes",
        "uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed, "
        "remove_accidental_hits)",
        summary="``num_sampled`` classes drawn uniformly from ``[0, range_max)``, with the expected counts.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> sampler = ops.UniformCandidateSampler(1, 3, False, 4, 1)
        >>> out1, out2, out3 = sampler(Tensor(np.array([[1], [3], [4], [6], [3]]), ms.int64))
        >>> print(out1.shape, out2.shape, out3.shape)
        (3,) (5, 1) (3,)
        """),
    Row("LogUniformCandidateSampler", "num_true=1, num_sampled=5, unique=True, range_max=5, seed=0",
        "true_classes",
        "log_uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed)",
        summary="``num_sampled`` classes drawn log-uniformly (Zipfian), with their expected counts.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> sampler = ops.LogUniformCandidateSampler(2, 5, True, 5)
        >>> out1, out2, out3 = sampler(Tensor(np.array([[1, 7], [0, 4], [3, 3]]), ms.int64))
        >>> print(out1.shape, out2.shape, out3.shape)
        (5,) (3, 2) (5,)
        """),
]

CLASSES = build(ROWS, globals())
globals().update(CLASSES)
__all__ = list(CLASSES)
