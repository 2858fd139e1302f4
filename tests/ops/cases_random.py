"""Rows for the random and dropout families (cellonnx/ops/prims/random.py, dropout.py, counter_rng.py).

Draws cannot match a reference element by element, so the forward rows compare statistics of large seeded
samples with the distribution's moments, and the gradient rows reseed inside the function so that finite
differences see the same mask every call. onnxruntime samples with its own generator, so the lowering of
these ops is checked statistically in tests/ops/test_random.py instead of here; dropout's generator is checked
bit for bit against its ONNX form in tests/ops/test_counter_rng.py.
"""
from __future__ import annotations

import numpy as np

from cellonnx import ops
from cellonnx.ops.prims.counter_rng import counter_uniform
from tests.ops.harness import OpCase, positive, rand

ORT_NOTE = "random draws: onnxruntime's generator is not NumPy's, so the ONNX lowering (shape, dtype, " \
           "statistics, seeding) is checked in tests/ops/test_random.py"
STAT_NOTE = "moments of 200k seeded draws; tolerance ~6 standard errors"
DROPOUT_NOTE = "dropout's masks come from the counter generator, whose ONNX form (opset 18+) draws NumPy's " \
               "bits: checked with the seeded state as an input in tests/ops/test_counter_rng.py"


def _seeded(fn):
    def run(*xs):
        ops.set_seed(1234)
        return fn(*xs)
    return run


def _moments(t):
    m = ops.mean(t)
    return m, ops.sqrt(ops.mean((t - m) * (t - m)))


def _fraction(cond):
    return ops.mean(ops.cast(cond, "float32"))


def _int_summary():
    r = ops.randint(-2, 5, (N,))
    return ops.amin(r), ops.amax(r), ops.mean(r)


def _dropout_summary():
    y = ops.dropout(ops.ones(N), 0.3)
    return ops.mean(y), _fraction(y == 0)


def _dropped_channels():
    y = ops.dropout2d(ops.ones((500, 200, 2, 2)), 0.25)
    return _fraction(ops.amax(y, (2, 3)) == 0)


N = 200_000
X = rand(3, 4, seed=71)
IMG = positive(2, 3, 4, 5, seed=72)

CASES = [
    # forward: moments of large samples
    OpCase("standard_normal_moments", _seeded(lambda: _moments(ops.standard_normal((N,)))), [],
           lambda: (0.0, 1.0), atol=0.015, lower=False, note=f"{STAT_NOTE}; {ORT_NOTE}"),
    OpCase("normal_moments", _seeded(lambda: _moments(ops.normal((N,), 3.0, 2.0, seed=5))), [],
           lambda: (3.0, 2.0), atol=0.03, lower=False, note=f"{STAT_NOTE}; {ORT_NOTE}"),
    OpCase("randn_float64_moments", _seeded(lambda: _moments(ops.randn(400, 500, dtype="float64"))), [],
           lambda: (0.0, 1.0), atol=0.015, lower=False, note=f"{STAT_NOTE}; {ORT_NOTE}"),
    OpCase("uniform_moments", _seeded(lambda: _moments(ops.uniform((N,), -1.0, 3.0))), [],
           lambda: (1.0, 4 / np.sqrt(12)), atol=0.02, lower=False, note=f"{STAT_NOTE}; {ORT_NOTE}"),
    OpCase("rand_range", _seeded(lambda: (ops.amin(ops.rand(N)), ops.amax(ops.rand(N)))), [],
           lambda: (0.0, 1.0), atol=1e-3, lower=False, note=f"extremes of {N} draws in [0, 1); {ORT_NOTE}"),
    OpCase("randint_range_and_mean", _seeded(_int_summary), [], lambda: (np.int64(-2), np.int64(4), 1.0),
           atol=0.02, lower=False, note=f"{STAT_NOTE}; {ORT_NOTE}"),
    OpCase("bernoulli_rate", _seeded(lambda: ops.mean(ops.bernoulli(ops.zeros(N), 0.3))), [], lambda: 0.3,
           atol=0.01, lower=False, note=f"{STAT_NOTE}; {ORT_NOTE}"),
    # gradients through random draws (the draw itself is a constant)
    OpCase("normal_tensor_mean_std", _seeded(lambda m, s: ops.normal((2, 3, 4), m, s)), [X, positive(4)],
           None, lower=False, note=f"gradient: d/dmean = 1, d/dstd = the standard draw; {ORT_NOTE}"),
    OpCase("uniform_tensor_bounds", _seeded(lambda lo, hi: ops.uniform((3, 4), lo, hi)), [X, X + 2.0], None,
           lower=False, note=f"gradient of low + u * (high - low); {ORT_NOTE}"),
    OpCase("rand_like_plus_x", _seeded(lambda x: x * ops.rand_like(x) + ops.randn_like(x)), [X], None,
           lower=False, note=ORT_NOTE),
    # dropout
    OpCase("dropout_train_statistics", _seeded(_dropout_summary), [], lambda: (1.0, 0.3), atol=0.01, lower=False,
           note=f"kept values are scaled by 1/(1-p): the mean stays 1 and 30% are zero; {DROPOUT_NOTE}"),
    OpCase("dropout_train_grad", _seeded(lambda x: ops.dropout(x, 0.4)), [X], None, second_order=True,
           lower=False, note="the mask is reseeded each call, so the gradient (mask / (1 - p)) is checked by "
                             f"finite differences; {DROPOUT_NOTE}"),
    OpCase("dropout_eval_identity", lambda x: ops.dropout(x, 0.4, training=False), [X], lambda x: x),
    OpCase("dropout_p0_identity", lambda x: ops.dropout(x, 0.0), [X], lambda x: x),
    OpCase("dropout_p1_zeros", lambda x: ops.dropout(x, 1.0), [X], lambda x: x * 0),
    OpCase("dropout2d_train", _seeded(lambda x: ops.dropout2d(x, 0.5)), [IMG], None, lower=False,
           note=f"channel mask reseeded each call; {DROPOUT_NOTE}"),
    OpCase("dropout2d_channels", _seeded(_dropped_channels), [], lambda: 0.25, atol=0.01, lower=False,
           note=f"whole channels are zeroed with probability p; {DROPOUT_NOTE}"),
    OpCase("counter_uniform_moments", _seeded(lambda: _moments(counter_uniform(ops.zeros(N)))), [],
           lambda: (0.5, 1 / np.sqrt(12)), atol=0.005, lower=False,
           note=f"{STAT_NOTE}; its ONNX form is checked bit for bit in tests/ops/test_counter_rng.py"),
    OpCase("dropout1d_eval", lambda x: ops.dropout1d(x, 0.5, training=False), [X[None]], lambda x: x),
    OpCase("dropout3d_eval", lambda x: ops.dropout3d(x, training=False), [IMG[None]], lambda x: x),
]
