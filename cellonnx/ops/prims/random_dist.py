"""More random sampling, on the streams of cellonnx.ops.prims.random (``set_seed``, op-level seeds): gamma,
Poisson, Laplace, exponential, multinomial / categorical, shuffling, choice_with_mask, the candidate
samplers, gumbel_softmax and the in-place fills (``normal_``, ``uniform_``, ``random_``, ``exponential_``,
``bernoulli_``).

The in-place fills take MindSpore's ``generator`` keyword: None draws from the global stream; a
``numpy.random.Generator`` (or an object holding one as ``rng``) draws from it.

Samplers ONNX has (RandomUniform, RandomNormal, Multinomial) are lowered to them; gamma, Poisson, shuffling
and the samplers of a data-dependent size run eagerly only and raise naming the op when exported.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from cellonnx import dtypes
from cellonnx.ops.prims._eager import not_exportable
from cellonnx.ops.prims._util import is_float_dtype, to_tensor
from cellonnx.ops.prims.random import RandomUniform, _check_seed, _dims, _size, generator
from cellonnx.ops.registry import Op
from cellonnx.tensor import Tensor

_NO_SAMPLER = "ONNX has no sampler for this distribution"


def _rng(gen: Any, op: str, seed: int | None = None) -> np.random.Generator:
    if gen is None:
        return generator(op, seed)
    if isinstance(gen, np.random.Generator):
        return gen
    inner = getattr(gen, "rng", None)
    if isinstance(inner, np.random.Generator):
        return inner
    raise TypeError(f"{op}: generator must be None or a numpy.random.Generator (or hold one as .rng), got "
                    f"{type(gen).__name__}")


class RandomGamma(Op):
    """Gamma(alpha, scale 1 / beta) samples of ``shape`` (alpha and beta broadcast into it)."""

    differentiable = False
    deterministic = False

    def forward(self, alpha, beta, *, shape, seed, dtype):
        rng = generator("gamma", seed)
        with np.errstate(divide="ignore"):
            out = rng.gamma(np.broadcast_to(alpha, shape), 1.0 / np.broadcast_to(beta, shape))
        return np.asarray(out, dtype)

    lower = not_exportable("gamma", _NO_SAMPLER)


class RandomPoisson(Op):
    differentiable = False
    deterministic = False

    def forward(self, rate, *, shape, seed, dtype):
        rng = generator("poisson", seed)
        return np.asarray(rng.poisson(np.broadcast_to(rate, shape)), dtype)

    lower = not_exportable("random_poisson", _NO_SAMPLER)


class Categorical(Op):
    """``num`` draws per row of ``logits`` (rows of unnormalized log-probabilities), with replacement."""

    differentiable = False
    deterministic = False

    def forward(self, logits, *, num, seed, dtype):
        rng = generator("categorical", seed)
        z = logits.astype(np.float64)
        z = z - z.max(-1, keepdims=True)
        p = np.exp(z)
        cdf = np.cumsum(p, -1)
        cdf /= cdf[..., -1:]
        u = rng.random((z.shape[0], num))
        out = np.stack([np.searchsorted(c, uu, side="right") for c, uu in zip(cdf, u)]) if z.shape[0] else \
            np.zeros((0, num), np.int64)
        return np.minimum(out, z.shape[-1] - 1).astype(dtype)

    def lower(self, g, logits, *, num, seed, dtype):
        return g.op("Multinomial", logits, sample_size=int(num), dtype=dtypes.dtype(dtype).onnx,
                    seed=float(seed) if seed is not None else None)


class Permutation(Op):
    """A random permutation of 0 .. n-1 (int64)."""

    differentiable = False
    deterministic = False

    def forward(self, *, n, seed):
        return generator("shuffle", seed).permutation(int(n)).astype(np.int64)

    lower = not_exportable("shuffle", "ONNX has no random permutation")


class ChoiceWithMask(Op):
    n_outputs = 2
    differentiable = False
    deterministic = False

    def forward(self, x, *, count, seed):
        coords = np.argwhere(x)
        rng = generator("choice_with_mask", seed)
        coords = coords[rng.permutation(len(coords))][:count]
        index = np.zeros((count, x.ndim), np.int32)
        mask = np.zeros(count, np.bool_)
        index[:len(coords)] = coords
        mask[:len(coords)] = True
        return index, mask

    lower = not_exportable("choice_with_mask", "the sampled positions depend on the data")


# ---------------------------------------------------------------- functional API (MindSpore names)
def _float_param(v: Any, op: str) -> Tensor:
    t = to_tensor(v) if isinstance(v, Tensor) else Tensor(np.asarray(v, np.float32))
    return t if is_float_dtype(t._data.dtype) else Tensor(t._data.astype(np.float32))


def gamma(shape: Any, alpha: Tensor, beta: Tensor, seed: int | None = None) -> Tensor:
    """Samples of Gamma(alpha, rate beta); the result's shape is ``shape`` broadcast with theirs.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> alpha = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> beta = Tensor(np.array([1.0]), ms.float32)
        >>> print(ops.gamma((3, 2), alpha, beta, seed=5).shape)
        (3, 2)
    """
    a, b = _float_param(alpha, "gamma"), _float_param(beta, "gamma")
    full = tuple(np.broadcast_shapes(_dims(_size((shape,))), a._data.shape, b._data.shape))
    return RandomGamma.apply(a, b, shape=full, seed=_check_seed(seed, "gamma"), dtype=a._data.dtype)


def random_gamma(shape: Any, alpha: Tensor, seed: int | None = None) -> Tensor:
    """Samples of Gamma(alpha, 1) of shape ``shape + alpha.shape``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> alpha = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> shape = Tensor(np.array([3]), ms.int32)
        >>> print(ops.random_gamma(shape, alpha, seed=5).shape)
        (3, 2)
    """
    a = _float_param(alpha, "random_gamma")
    full = _shape_values(shape, "random_gamma") + tuple(a._data.shape)
    one = Tensor(np.ones((), a._data.dtype))
    return RandomGamma.apply(a, one, shape=full, seed=_check_seed(seed, "random_gamma"), dtype=a._data.dtype)


def _shape_values(shape: Any, op: str) -> tuple[int, ...]:
    if isinstance(shape, Tensor):
        return tuple(int(v) for v in shape._data.reshape(-1))
    return _dims(_size((shape,)))


def random_poisson(shape: Any, rate: Tensor, seed: int | None = None, dtype: Any = dtypes.float32) -> Tensor:
    """Poisson(rate) counts of shape ``shape + rate.shape``, in ``dtype``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> rate = Tensor(np.array([1.0, 5.0]), ms.float32)
        >>> shape = Tensor(np.array([3]), ms.int32)
        >>> print(ops.random_poisson(shape, rate, seed=5).shape)
        (3, 2)
    """
    r = _float_param(rate, "random_poisson")
    full = _shape_values(shape, "random_poisson") + tuple(r._data.shape)
    return RandomPoisson.apply(r, shape=full, seed=_check_seed(seed, "random_poisson"),
                               dtype=dtypes.to_numpy(dtype))


def poisson(shape: Any, mean: Tensor, seed: int | None = None) -> Tensor:
    """Poisson(mean) counts (float32); the result's shape is ``shape`` broadcast with ``mean``'s.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> mean = Tensor(np.array([1.0, 5.0]), ms.float32)
        >>> print(ops.poisson((4, 2), mean, seed=5).shape)
        (4, 2)
    """
    m = _float_param(mean, "poisson")
    full = tuple(np.broadcast_shapes(_dims(_size((shape,))), m._data.shape))
    return RandomPoisson.apply(m, shape=full, seed=_check_seed(seed, "poisson"), dtype=np.dtype(np.float32))


def standard_laplace(shape: Any, seed: int | None = None) -> Tensor:
    """Samples of the Laplace distribution with mean 0 and scale 1 (float32).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> ops.standard_laplace((2, 3)).shape
        (2, 3)
    """
    from cellonnx.ops.prims.math import abs as _abs
    from cellonnx.ops.prims.math import log, mul, neg, sign, sub
    u = RandomUniform.apply(shape=_dims(_size((shape,))), low=-0.5, high=0.5,
                            seed=_check_seed(seed, "standard_laplace"), dtype=np.dtype(np.float32))
    # inverse CDF: -sign(u) log(1 - 2|u|)
    return neg(mul(sign(u), log(sub(1.0, mul(_abs(u), 2.0)))))


def laplace(shape: Any, mean: Tensor, lambda_param: Tensor, seed: int | None = None) -> Tensor:
    """Samples of Laplace(mean, scale lambda_param): ``standard_laplace(shape) * lambda_param + mean``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> mean = Tensor(np.array([0.0]), ms.float32)
        >>> lambda_param = Tensor(np.array([1.0]), ms.float32)
        >>> print(ops.laplace((2, 3), mean, lambda_param, seed=5).shape)
        (2, 3)
    """
    from cellonnx.ops.prims.math import add, mul
    return add(mul(standard_laplace(shape, seed), lambda_param), mean)


def multinomial(input: Tensor, num_samples: int, replacement: bool = True, seed: int | None = None) -> Tensor:
    """``num_samples`` category indices (int32) per row of the non-negative weights ``input`` (1-D or 2-D);
    without ``replacement`` every index appears at most once per row.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> probs = Tensor(np.array([0.0, 1.0, 0.0]), ms.float32)
        >>> print(ops.multinomial(probs, 2, replacement=True))
        [1 1]
    """
    from cellonnx.ops.prims.math import add, cast, div, log
    from cellonnx.ops.prims.shape import reshape
    from cellonnx.ops.prims.sort import topk
    x = to_tensor(input)
    if x.ndim not in (1, 2):
        raise ValueError(f"multinomial: input must be 1-D or 2-D, got shape {tuple(x.shape)}")
    n = int(x._data.shape[-1])
    seed = _check_seed(seed, "multinomial")
    if not replacement:
        if num_samples > n:
            raise ValueError(f"multinomial: without replacement num_samples ({num_samples}) must not exceed "
                             f"the number of categories ({n})")
        # the exponential-race trick: the k largest log(u) / w are a draw without replacement
        u = RandomUniform.apply(shape=tuple(x._data.shape), low=0.0, high=1.0, seed=seed,
                                dtype=np.dtype(np.float32))
        vals = div(log(u), add(cast(x, np.float32), 1e-6))
        return cast(topk(vals, int(num_samples))[1], np.int32)
    rows = x if x.ndim == 2 else reshape(x, (1, n))
    logits = log(cast(rows, np.float64))
    out = Categorical.apply(logits, num=int(num_samples), seed=seed, dtype=np.dtype(np.int32))
    return out if x.ndim == 2 else reshape(out, (int(num_samples),))


def multinomial_with_replacement(x: Tensor, seed: Any, offset: Any, numsamples: int,
                                 replacement: bool = False) -> Tensor:
    """``numsamples`` category indices (int64) per row of the weights ``x``; ``seed`` (with ``offset``) seeds
    the draw.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([[0.0, 1.0]]), ms.float32)
        >>> seed = Tensor(1, ms.int64)
        >>> offset = Tensor(0, ms.int64)
        >>> print(ops.multinomial_with_replacement(x, seed, offset, 3, True))
        [[1 1 1]]
    """
    from cellonnx.ops.prims.math import cast
    s = int(seed._data if isinstance(seed, Tensor) else seed)
    o = int(offset._data if isinstance(offset, Tensor) else offset)
    x = to_tensor(x)
    if not replacement and numsamples > int(x._data.shape[-1]):
        raise ValueError(f"multinomial_with_replacement: numsamples ({numsamples}) must not exceed the "
                         f"number of categories ({int(x._data.shape[-1])}) without replacement")
    return cast(multinomial(x, numsamples, replacement, abs(s * 1000003 + o) if (s or o) else None), np.int64)


def random_categorical(logits: Tensor, num_sample: int, seed: int = 0, dtype: Any = dtypes.int64) -> Tensor:
    """``num_sample`` draws per row of the 2-D unnormalized log-probabilities ``logits``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> logits = Tensor(np.array([[0.0, 10.0], [10.0, 0.0]]), ms.float32)
        >>> print(ops.random_categorical(logits, 4, seed=1).shape)
        (2, 4)
    """
    x = to_tensor(logits)
    if x.ndim != 2:
        raise ValueError(f"random_categorical: logits must be 2-D, got shape {tuple(x.shape)}")
    return Categorical.apply(x, num=int(num_sample), seed=_check_seed(seed, "random_categorical") or None,
                             dtype=dtypes.to_numpy(dtype))


def shuffle(x: Tensor, seed: int | None = None) -> Tensor:
    """``x`` with its first axis randomly permuted.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1, 2, 3, 4]), ms.int32)
        >>> sorted(ops.shuffle(x).asnumpy().tolist())
        [1, 2, 3, 4]
    """
    from cellonnx.ops.prims.scatter import gather
    x = to_tensor(x)
    if x.ndim == 0:
        return x
    perm = Permutation.apply(n=int(x._data.shape[0]), seed=_check_seed(seed, "shuffle"))
    return gather(x, perm, 0)


def choice_with_mask(input_x: Tensor, count: int = 256, seed: int | None = None) -> tuple[Tensor, Tensor]:
    """Up to ``count`` random positions of the True elements of a bool tensor: (index (count, rank) int32,
    mask (count,) bool marking the rows that hold a position).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([[True, False], [False, True]]), ms.bool_)
        >>> index, mask = ops.choice_with_mask(x, count=2, seed=1)
        >>> print(index.shape, mask.shape)
        (2, 2) (2,)
    """
    x = to_tensor(input_x)
    if x._data.dtype != np.bool_:
        raise TypeError(f"choice_with_mask: input_x must be bool, got {x.dtype}")
    if int(count) <= 0:
        raise ValueError(f"choice_with_mask: count must be positive, got {count}")
    return ChoiceWithMask.apply(x, count=int(count), seed=_check_seed(seed, "choice_with_mask"))


def _candidate_sampler(true_classes: Tensor, num_true: int, num_sampled: int, unique: bool, range_max: int,
                       seed: int, log_uniform: bool, op: str) -> tuple[Tensor, Tensor, Tensor]:
    classes = to_tensor(true_classes)
    if classes.ndim != 2 or int(classes._data.shape[1]) != num_true:
        raise ValueError(f"{op}: true_classes must have shape (batch, num_true={num_true}), got "
                         f"{tuple(classes.shape)}")
    if unique and num_sampled > range_max:
        raise ValueError(f"{op}: num_sampled ({num_sampled}) must not exceed range_max ({range_max}) with "
                         "unique")
    rng = generator(op, _check_seed(seed, op) or None)
    if log_uniform:
        def prob(c: np.ndarray) -> np.ndarray:
            return np.log((c + 2.0) / (c + 1.0)) / math.log(range_max + 1.0)

        def draw(k: int) -> np.ndarray:
            return np.minimum((np.exp(rng.random(k) * math.log(range_max + 1.0)) - 1).astype(np.int64),
                              range_max - 1)
    else:
        def prob(c: np.ndarray) -> np.ndarray:
            return np.full(np.shape(c), 1.0 / range_max)

        def draw(k: int) -> np.ndarray:
            return rng.integers(0, range_max, k)
    if unique:
        picked: list[int] = []
        seen: set[int] = set()
        tries = 0
        while len(picked) < num_sampled:
            c = int(draw(1)[0])
            tries += 1
            if c not in seen:
                seen.add(c)
                picked.append(c)
        sampled = np.asarray(picked, np.int64)

        def expected(c: np.ndarray) -> np.ndarray:
            return -np.expm1(tries * np.log1p(-prob(c)))
    else:
        sampled = draw(num_sampled).astype(np.int64)

        def expected(c: np.ndarray) -> np.ndarray:
            return prob(c) * num_sampled
    return (Tensor(sampled), Tensor(expected(classes._data.astype(np.float64)).astype(np.float32)),
            Tensor(expected(sampled.astype(np.float64)).astype(np.float32)))


def log_uniform_candidate_sampler(true_classes: Tensor, num_true: int = 1, num_sampled: int = 5,
                                  unique: bool = True, range_max: int = 5,
                                  seed: int = 0) -> tuple[Tensor, Tensor, Tensor]:
    """Candidates drawn from the log-uniform (Zipfian) distribution over [0, range_max): (sampled (int64),
    expected counts of the true classes, expected counts of the sampled ones).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> true_classes = Tensor(np.array([[1], [3]]), ms.int64)
        >>> out = ops.log_uniform_candidate_sampler(true_classes, 1, 3, True, 5, 1)
        >>> print([o.shape for o in out])
        [(3,), (2, 1), (3,)]
    """
    return _candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed, True,
                              "log_uniform_candidate_sampler")


def uniform_candidate_sampler(true_classes: Tensor, num_true: int, num_sampled: int, unique: bool,
                              range_max: int, seed: int = 0,
                              remove_accidental_hits: bool = False) -> tuple[Tensor, Tensor, Tensor]:
    """Candidates drawn uniformly from [0, range_max): (sampled (int64), expected counts of the true classes,
    expected counts of the sampled ones).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> true_classes = Tensor(np.array([[1], [3]]), ms.int32)
        >>> out = ops.uniform_candidate_sampler(true_classes, 1, 3, True, 5, 1)
        >>> print([o.shape for o in out])
        [(3,), (2, 1), (3,)]
    """
    return _candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed, False,
                              "uniform_candidate_sampler")


def gumbel_softmax(logits: Tensor, tau: float = 1.0, hard: bool = False, dim: int = -1) -> Tensor:
    """A sample of the Gumbel-softmax distribution: ``softmax((logits + g) / tau)`` with Gumbel noise g;
    ``hard`` gives the one-hot of its argmax with the soft sample's gradient.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> logits = Tensor(np.array([[1.0, 2.0, 3.0]]), ms.float32)
        >>> y = ops.gumbel_softmax(logits, tau=1.0, hard=True)
        >>> print(y.sum())
        1.0
    """
    from cellonnx.autograd.grad import stop_gradient
    from cellonnx.ops.prims.activation import softmax
    from cellonnx.ops.prims.math import add, cast, div, log, neg, sub
    from cellonnx.ops.prims.reduce import argmax
    from cellonnx.ops.prims.scatter import one_hot
    x = to_tensor(logits)
    if not is_float_dtype(x._data.dtype):
        raise TypeError(f"gumbel_softmax: logits must be float, got {x.dtype}")
    if tau <= 0:
        raise ValueError(f"gumbel_softmax: tau must be positive, got {tau}")
    u = RandomUniform.apply(shape=tuple(x._data.shape), low=0.0, high=1.0, seed=None,
                            dtype=np.dtype(np.float32))
    g = neg(log(neg(log(cast(u, x._data.dtype)))))
    y = softmax(div(add(x, g), float(tau)), dim)
    if not hard:
        return y
    d = dim % x.ndim
    hot = one_hot(argmax(y, d), int(x._data.shape[d]), 1.0, 0.0, d)
    return add(stop_gradient(sub(cast(hot, y._data.dtype), y)), y)


# ---------------------------------------------------------------- in-place fills
def _fill(input: Tensor, values: np.ndarray) -> Tensor:
    """Write ``values`` into ``input`` (its dtype) and return it."""
    from cellonnx.tensor import Parameter
    x = to_tensor(input)
    arr = np.asarray(values).astype(x._data.dtype)
    if isinstance(x, Parameter):
        x._assign_array(arr)
    else:
        x._data = arr
    return x


def normal_(input: Tensor, mean: float = 0, std: float = 1, *, generator: Any = None) -> Tensor:
    """Fill ``input`` in place with samples of N(mean, std**2).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.zeros((2, 3)), ms.float32)
        >>> print(ops.normal_(x, 0.0, 1.0).shape)
        (2, 3)
    """
    rng = _rng(generator, "normal_")
    return _fill(input, rng.normal(float(mean), float(std), input._data.shape))


def uniform_(input: Tensor, from_: float = 0, to: float = 1, *, generator: Any = None) -> Tensor:
    """Fill ``input`` in place with samples uniform in [from_, to).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.zeros((2, 3)), ms.float32)
        >>> y = ops.uniform_(x, 0.0, 1.0)
        >>> print(y.shape, bool((y.asnumpy() < 1).all()))
        (2, 3) True
    """
    if from_ > to:
        raise ValueError(f"uniform_: from_ {from_} must not exceed to {to}")
    rng = _rng(generator, "uniform_")
    return _fill(input, rng.uniform(float(from_), float(to), input._data.shape))


def random_(input: Tensor, from_: int = 0, to: int | None = None, *, generator: Any = None) -> Tensor:
    """Fill ``input`` in place with integers uniform in [from_, to) (``random_(x, n)``: [0, n); with no
    bound, [0, the dtype's largest integer that floats hold exactly]).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.zeros((2, 3)), ms.int32)
        >>> y = ops.random_(x, 0, 5)
        >>> print(y.shape, bool((y.asnumpy() < 5).all()))
        (2, 3) True
    """
    rng = _rng(generator, "random_")
    dt = input._data.dtype
    if to is None:
        if from_ != 0:
            from_, to = 0, from_
        else:
            to = 2 ** int(np.finfo(dt).nmant + 1) if dt.kind == "f" else (
                2 if dt == np.bool_ else int(np.iinfo(dt).max))
    if not from_ < to:
        raise ValueError(f"random_: from_ {from_} must be less than to {to}")
    return _fill(input, rng.integers(int(from_), int(to), input._data.shape))


def exponential_(input: Tensor, lambd: float = 1, *, generator: Any = None) -> Tensor:
    """Fill ``input`` in place with samples of the exponential distribution of rate ``lambd``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.zeros((2, 3)), ms.float32)
        >>> print(ops.exponential_(x, 2.0).shape)
        (2, 3)
    """
    if lambd <= 0:
        raise ValueError(f"exponential_: lambd must be positive, got {lambd}")
    rng = _rng(generator, "exponential_")
    return _fill(input, rng.exponential(1.0 / float(lambd), input._data.shape))


def bernoulli_(input: Tensor, p: Any = 0.5, *, generator: Any = None) -> Tensor:
    """Fill ``input`` in place with 0 / 1 samples, 1 with probability ``p`` (a number or a tensor that
    broadcasts to ``input``).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.zeros((2, 3)), ms.float32)
        >>> print(ops.bernoulli_(x, 0.5).shape)
        (2, 3)
    """
    rng = _rng(generator, "bernoulli_")
    prob = p._data if isinstance(p, Tensor) else np.asarray(float(p))
    if prob.size and (prob.min() < 0 or prob.max() > 1):
        raise ValueError("bernoulli_: p must lie in [0, 1]")
    return _fill(input, rng.random(input._data.shape) < prob)


def bernoulli_ext(input: Tensor, *, generator: Any = None) -> Tensor:
    """0 / 1 samples, 1 with probability ``input`` elementwise (in ``input``'s dtype).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> p = Tensor(np.array([0.0, 1.0]), ms.float32)
        >>> print(ops.bernoulli_ext(p))
        [0. 1.]
    """
    x = to_tensor(input)
    p = x._data
    if p.size and (np.nanmin(p) < 0 or np.nanmax(p) > 1):
        raise ValueError("bernoulli_ext: probabilities must lie in [0, 1]")
    rng = _rng(generator, "bernoulli_ext")
    return Tensor((rng.random(p.shape) < p).astype(p.dtype))


__all__ = ["bernoulli_", "bernoulli_ext", "choice_with_mask", "exponential_", "gamma", "gumbel_softmax",
           "laplace", "log_uniform_candidate_sampler", "multinomial", "multinomial_with_replacement",
           "normal_", "poisson", "random_", "random_categorical", "random_gamma", "random_poisson", "shuffle",
           "standard_laplace", "uniform_", "uniform_candidate_sampler"]
