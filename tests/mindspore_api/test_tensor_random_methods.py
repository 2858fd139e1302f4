"""MindSpore 2.10's random-fill Tensor methods (``uniform_``, ``normal_``, ``bernoulli_`` ...): their draws
cannot equal MindSpore's, so each is checked for its shape, dtype, support and first moments (bounds of six
standard errors over 20000 draws), for changing the tensor exactly when its name ends in ``_``, and for
repeating under ``set_seed``."""
from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

import cellonnx as ms

SIZE = (200, 100)
N = SIZE[0] * SIZE[1]

# method, args, kwargs, (low, high) support, the distribution's mean and standard deviation
CASES: list[tuple[str, tuple, dict, tuple[float, float], float, float]] = [
    ("uniform_", (2.0, 5.0), {}, (2.0, 5.0), 3.5, 3 / math.sqrt(12)),
    ("uniform", (), {"from_": -1.0, "to": 1.0}, (-1.0, 1.0), 0.0, 2 / math.sqrt(12)),
    ("normal_", (1.5, 0.5), {}, (-math.inf, math.inf), 1.5, 0.5),
    ("exponential_", (4.0,), {}, (0.0, math.inf), 0.25, 0.25),
    ("bernoulli_", (0.3,), {}, (0.0, 1.0), 0.3, math.sqrt(0.3 * 0.7)),
    ("random_", (3, 9), {}, (3.0, 8.0), 5.5, math.sqrt((6 ** 2 - 1) / 12)),
    ("log_normal", (0.0, 0.25), {}, (0.0, math.inf), math.exp(0.25 ** 2 / 2),
     math.sqrt((math.exp(0.25 ** 2) - 1) * math.exp(0.25 ** 2))),
]


def _draw(method: str, args: tuple, kwargs: dict, dtype: Any = np.float32) -> tuple[ms.Tensor, Any]:
    x = ms.Tensor(np.zeros(SIZE, dtype))
    return x, getattr(x, method)(*args, **kwargs)


@pytest.mark.parametrize(("method", "args", "kwargs", "support", "mean", "std"), CASES,
                         ids=[c[0] for c in CASES])
def test_random_fill(method: str, args: tuple, kwargs: dict, support: tuple[float, float], mean: float,
                     std: float) -> None:
    x, out = _draw(method, args, kwargs)
    got = out.asnumpy()
    assert got.shape == SIZE and got.dtype == np.float32
    assert support[0] <= got.min() and got.max() <= support[1], f"{method}: a draw outside {support}"
    assert abs(got.mean() - mean) <= 6 * std / math.sqrt(N), f"{method}: mean {got.mean()}, want {mean}"
    assert abs(got.std() - std) <= 6 * std / math.sqrt(N / 2) + 6 * abs(got.mean() - mean), \
        f"{method}: standard deviation {got.std()}, want {std}"
    if method.endswith("_"):
        assert out is x, f"{method} returns the tensor it fills"
    else:
        assert np.array_equal(x.asnumpy(), np.zeros(SIZE, np.float32)), \
            f"{method} leaves the tensor as it was"


def test_random_fills_keep_the_dtype_and_repeat_under_set_seed() -> None:
    ms.set_seed(7)
    first = ms.Tensor(np.zeros((3, 4), np.int32)).random_(0, 10).asnumpy()
    ms.set_seed(7)
    again = ms.Tensor(np.zeros((3, 4), np.int32)).random_(0, 10).asnumpy()
    assert first.dtype == np.int32 and np.array_equal(first, again)
    assert set(np.unique(first)) <= set(range(10))


def test_cauchy_median_and_bernoulli_of_probabilities() -> None:
    draws = ms.Tensor(np.zeros(SIZE, np.float32)).cauchy(2.0, 0.5).asnumpy()
    # the median of N Cauchy draws has standard error (pi * sigma / 2) / sqrt(N)
    assert abs(np.median(draws) - 2.0) <= 6 * (math.pi * 0.5 / 2) / math.sqrt(N)
    p = ms.Tensor(np.tile(np.array([0.0, 1.0, 0.25], np.float32), (N // 3, 1)))
    got = p.bernoulli().asnumpy()
    assert np.all(got[:, 0] == 0) and np.all(got[:, 1] == 1)
    assert abs(got[:, 2].mean() - 0.25) <= 6 * math.sqrt(0.25 * 0.75 / (N // 3))


def test_inplace_method_on_a_parameter_writes_the_parameter() -> None:
    w = ms.Parameter(ms.Tensor(np.zeros((2, 3), np.float32)), name="w")
    w.index_add_(0, ms.Tensor(np.array([1], np.int64)), ms.Tensor(np.ones((1, 3), np.float32)), alpha=2)
    assert np.array_equal(w.asnumpy(), np.array([[0, 0, 0], [2, 2, 2]], np.float32))
    w.uniform_(3.0, 4.0)
    assert w.asnumpy().min() >= 3.0


def test_inplace_method_on_a_recorded_tensor_refuses_rather_than_give_a_wrong_gradient() -> None:
    """The tape holds tensors, not versions: a tensor changed in place after an op used it cannot be
    differentiated through that op (cellonnx/autograd/tape.py says so at backward time)."""
    x = ms.Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32))

    def f(x: ms.Tensor) -> ms.Tensor:
        y = x * 1.0
        y.index_fill_(1, ms.Tensor(np.array([0], np.int64)), 0.0)
        return (y * x).sum()

    with pytest.raises(RuntimeError, match="assigned to in place after the op used it"):
        ms.grad(f)(x)
