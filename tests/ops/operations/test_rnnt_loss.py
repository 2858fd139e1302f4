"""ops.RNNTLoss (MindSpore runs it on Ascend only) against a float64 reference that sums the probabilities
of every alignment path explicitly, and its gradient against central finite differences."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import ops
from tests.tolerance import assert_close


def _paths_nll(z: np.ndarray, y: np.ndarray, t_n: int, u_n: int, blank: int) -> float:
    """-log of the summed probability of all monotone paths: t_n blanks (the last one at (t_n-1, u_n)) and
    the u_n labels in order, interleaved in every way."""
    lp = z - np.log(np.exp(z).sum(-1, keepdims=True))
    total = 0.0
    steps = t_n - 1 + u_n  # all steps but the final blank
    for where in itertools.combinations(range(steps), u_n):
        t = u = 0
        logp = 0.0
        for k in range(steps):
            if k in where:
                logp += lp[t, u, y[u]]
                u += 1
            else:
                logp += lp[t, u, blank]
                t += 1
        logp += lp[t_n - 1, u_n, blank]
        total += np.exp(logp)
    return -np.log(total)


def _inputs(seed=0):
    rng = np.random.default_rng(seed)
    acts = rng.standard_normal((2, 4, 3, 5))
    labels = np.array([[1, 3], [4, 0]], np.int32)
    return acts, labels, np.array([4, 3], np.int32), np.array([2, 1], np.int32)


@pytest.mark.parametrize("blank", [0, 2])
def test_costs_match_path_enumeration(blank):
    acts, labels, tl, ul = _inputs()
    labels = np.where(labels == blank, (blank + 1) % 5, labels).astype(np.int32)
    costs, grads = ops.RNNTLoss(blank)(ms.Tensor(acts.astype(np.float32)), ms.Tensor(labels), ms.Tensor(tl),
                                       ms.Tensor(ul))
    want = [_paths_nll(acts[b], labels[b], int(tl[b]), int(ul[b]), blank) for b in range(2)]
    assert_close(costs.asnumpy(), np.array(want), rtol=1e-5)
    assert grads.shape == (2, 4, 3, 5) and grads.dtype == ms.float32


def test_gradient_matches_finite_differences():
    acts, labels, tl, ul = _inputs(1)
    _, grads = ops.RNNTLoss(0)(ms.Tensor(acts), ms.Tensor(labels), ms.Tensor(tl), ms.Tensor(ul))
    g = grads.asnumpy()
    num = np.zeros_like(acts)
    for idx in np.ndindex(*acts.shape):
        e = np.zeros_like(acts)
        e[idx] = 1e-6
        b = idx[0]
        f = [_paths_nll(a[b], labels[b], int(tl[b]), int(ul[b]), 0) for a in (acts + e, acts - e)]
        num[idx] = (f[0] - f[1]) / 2e-6
    assert_close(g, num, rtol=1e-5, scale_rtol=1e-5)
    assert np.all(g[1, 3:] == 0) and np.all(g[1, :, 2:] == 0)  # outside sequence 1's lengths


def test_documented_example_shapes():
    acts = np.random.default_rng(2).random((1, 2, 3, 5)).astype(np.float32)
    i32 = lambda v: ms.Tensor(np.array(v, np.int32))
    costs, grads = ops.RNNTLoss(blank_label=0)(ms.Tensor(acts), i32([[1, 2]]), i32([2]), i32([2]))
    assert costs.shape == (1,) and grads.shape == (1, 2, 3, 5)
    with pytest.raises(ValueError, match="RNNTLoss"):
        ops.RNNTLoss()(ms.Tensor(acts), i32([[1]]), i32([2]), i32([1]))
