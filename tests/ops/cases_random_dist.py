"""Rows for the random distributions (cellonnx/ops/prims/random_dist.py): statistics of large seeded samples
against the distributions' moments (draws cannot match a reference element by element)."""
from __future__ import annotations

import numpy as np

from cellonnx import ops
from tests.ops.harness import OpCase

STAT = "moments of large seeded samples; tolerance ~6 standard errors; eager only (no ONNX sampler, or " \
       "onnxruntime's generator differs: tests/ops/test_ops_math_extra.py checks the lowering)"
N = 100_000


def _seeded(fn):
    def run(*xs):
        ops.set_seed(4321)
        return fn(*xs)
    return run


def _mv(t):
    t = ops.cast(t, "float64")
    m = ops.mean(t)
    return m, ops.mean((t - m) * (t - m))


def _fraction(cond):
    return ops.mean(ops.cast(cond, "float32"))


def _gamma():
    return _mv(ops.gamma((N,), ops.full((1,), 3.0), ops.full((1,), 2.0)))


def _random_gamma():
    s = ops.random_gamma((N,), ops.full((2,), 0.5) + ops.cast(ops.arange(2), "float32"))
    return _mv(s[:, 0]) + _mv(s[:, 1])


def _poisson():
    s = ops.random_poisson((N,), ops.full((1,), 4.0), dtype="int32")
    return _mv(s) + (ops.full((), 1.0 if s.dtype == "Int32" or str(s.dtype) == "Int32" else 0.0),)


def _laplace():
    return _mv(ops.laplace((N,), ops.full((), 1.0), ops.full((), 2.0))) + _mv(ops.standard_laplace((N,)))


def _multinomial():
    p = ops.cast(ops.stack([ops.full((3,), 1.0), ops.arange(3)]), "float32")
    s = ops.multinomial(p, N // 4)
    return (_fraction(s[0] == 1), _fraction(s[1] == 2), _fraction(s[1] == 0))


def _multinomial_unique():
    s = ops.multinomial(ops.cast(ops.arange(1, 6), "float32"), 5, False)
    return ops.sort(ops.cast(s, "float32"))[0]


def _categorical():
    logits = ops.log(ops.cast(ops.stack([ops.arange(1, 4), ops.full((3,), 1)]), "float32"))
    s = ops.random_categorical(logits, N // 4)
    return _fraction(s[0] == 2), _fraction(s[1] == 0)


def _shuffle():
    x = ops.arange(1000)
    s = ops.shuffle(x)
    return ops.sort(s)[0], _fraction(s == x)


def _choice():
    idx, mask = ops.choice_with_mask(ops.arange(12).reshape(3, 4) % 3 == 0, 6)
    return ops.cast(ops.sum(ops.cast(mask, "int32")), "float32"), ops.sum(idx[:4] * 0)


def _fills():
    x = ops.zeros((N,))
    m1 = _mv(ops.normal_(x, 2.0, 3.0))
    m2 = _mv(ops.uniform_(x, -1.0, 3.0))
    m3 = _mv(ops.exponential_(x, 4.0))
    m4 = _mv(ops.bernoulli_(x, 0.25))
    y = ops.zeros((N,), dtype="int64")
    ops.random_(y, 3, 7)
    return m1 + m2 + m3 + m4 + (ops.amin(y), ops.amax(y))


def _bernoulli_ext():
    p = ops.full((N,), 0.7)
    return _fraction(ops.bernoulli_ext(p) == 1)


def _gumbel_hard():
    logits = ops.log(ops.cast(ops.stack([ops.arange(1, 4)] * (N // 10)), "float32"))
    y = ops.gumbel_softmax(logits, 0.5, True)
    return ops.mean(y, 0), ops.mean(ops.sum(y, -1))


def _samplers():
    classes = ops.cast(ops.stack([ops.arange(3), ops.arange(3, 6)]), "int64")
    s1, _, _ = ops.log_uniform_candidate_sampler(classes, 3, 4, True, 10)
    _, t2, e2 = ops.uniform_candidate_sampler(classes, 3, 4, False, 8)
    uniq = ops.cast(ops.sum(ops.cast(ops.sort(s1)[0][1:] != ops.sort(s1)[0][:-1], "int32")), "float32")
    return uniq, t2, e2


CASES = [
    OpCase("gamma_moments", _seeded(_gamma), [], lambda: (1.5, 0.75), atol=0.02, lower=False,
           note=f"Gamma(3, rate 2): mean 1.5, variance 0.75; {STAT}"),
    OpCase("random_gamma_moments", _seeded(_random_gamma), [], lambda: (0.5, 0.5, 1.5, 1.5), atol=0.03,
           lower=False, note=STAT),
    OpCase("random_poisson_moments", _seeded(_poisson), [], lambda: (4.0, 4.0, 1.0), atol=0.06, lower=False,
           note=STAT),
    OpCase("laplace_moments", _seeded(_laplace), [], lambda: (1.0, 8.0, 0.0, 2.0), atol=0.1, lower=False,
           note=f"Laplace(1, 2): variance 2 b^2 = 8; {STAT}"),
    OpCase("multinomial_frequencies", _seeded(_multinomial), [], lambda: (1 / 3, 2 / 3, 0.0), atol=0.015,
           lower=False, note=STAT),
    OpCase("multinomial_without_replacement", _seeded(_multinomial_unique), [],
           lambda: np.arange(5, dtype=np.float32), lower=False, note="every category exactly once"),
    OpCase("random_categorical_frequencies", _seeded(_categorical), [], lambda: (0.5, 1 / 3), atol=0.015,
           lower=False, note=STAT),
    OpCase("shuffle_is_a_permutation", _seeded(_shuffle), [], lambda: (np.arange(1000), 0.001), atol=0.01,
           lower=False, note="a permutation that moves almost everything"),
    OpCase("choice_with_mask_counts", _seeded(_choice), [], lambda: (4.0, np.int32(0)), lower=False,
           note="4 True elements in 12: 4 rows marked valid of count 6"),
    OpCase("inplace_fills_moments", _seeded(_fills), [],
           lambda: (2.0, 9.0, 1.0, 16 / 12, 0.25, 1 / 16, 0.25, 0.1875, np.int64(3), np.int64(6)), atol=0.06,
           lower=False, note=STAT),
    OpCase("bernoulli_ext_rate", _seeded(_bernoulli_ext), [], lambda: 0.7, atol=0.01, lower=False, note=STAT),
    OpCase("gumbel_softmax_hard_frequencies", _seeded(_gumbel_hard), [], lambda: ([1 / 6, 1 / 3, 1 / 2], 1.0),
           atol=0.02, lower=False, note=f"hard samples are one-hot with softmax(logits) frequencies; {STAT}"),
    OpCase("gumbel_softmax_grad", _seeded(lambda x: ops.gumbel_softmax(x, 0.7)),
           [np.array([[0.1, -0.4, 0.9]])],
           None, lower=False, note="the noise is reseeded each call: the softmax's gradient"),
    OpCase("candidate_samplers", _seeded(_samplers), [],
           lambda: (3.0, np.full((2, 3), 0.5, np.float32), np.full((4,), 0.5, np.float32)), lower=False,
           note="unique log-uniform draws; uniform expected counts num_sampled / range_max"),
]
