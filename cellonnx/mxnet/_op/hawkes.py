"""mx.nd.contrib.hawkesll: the log likelihood of K independent Hawkes processes with exponential kernels,

    lambda_k(t) = lda_k + alpha_k * beta_k * sum over past points t_i of mark k of exp(-beta_k (t - t_i)),

observed on (0, max_time] from ragged (lags, marks) rows, with the memory ``state`` s_k(0) carried in and
s_k(max_time) carried out. Written with cellonnx ops (the loop over the valid points runs in Python); as
MXNet's operator, the log likelihood is differentiable in lda, alpha and beta, while the memory passes no
gradient (neither back into ``state`` nor from the returned memory)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from cellonnx import ops
from cellonnx.mxnet._op._util import eager_only
from cellonnx.tensor import Tensor

__all__ = ["HAWKES"]


def hawkesll(lda: Tensor, alpha: Tensor, beta: Tensor, state: Tensor, lags: Tensor, marks: Tensor,
             valid_length: Tensor, max_time: Tensor, **_: Any) -> tuple[Tensor, Tensor]:
    """(log likelihood per sample (N,), the memory at max_time (N, K)); see the module docstring."""
    eager_only("contrib.hawkesll", lda, alpha, beta, state, lags, marks, valid_length, max_time)
    n, k = (int(d) for d in lda.shape)
    shapes = [tuple(int(d) for d in a.shape) for a in (state, alpha, beta)]
    if shapes != [(n, k), (k,), (k,)]:
        raise ValueError(f"hawkesll: lda and state must be (N, K), alpha and beta (K,); got lda "
                         f"{tuple(lda.shape)}, state, alpha, beta {shapes}")
    lag_values = lags._data.astype(np.float64)
    mark_values = marks._data.astype(np.int64)
    lengths = valid_length._data.astype(np.int64).reshape(-1)
    horizon = max_time._data.astype(np.float64).reshape(-1)
    lls, memories = [], []
    for i in range(n):
        ll = ops.zeros_like(lda[i, 0])
        memory = [ops.stop_gradient(state[i, j]) for j in range(k)]
        last = [0.0] * k
        events: list[list[float]] = [[] for _ in range(k)]
        t = 0.0
        for step in range(int(lengths[i])):
            t += float(lag_values[i, step])
            m = int(mark_values[i, step])
            decayed = ops.mul(memory[m], ops.exp(ops.mul(beta[m], -(t - last[m]))))
            intensity = ops.add(lda[i, m], ops.mul(ops.mul(alpha[m], beta[m]), decayed))
            ll = ops.add(ll, ops.log(intensity))
            memory[m] = ops.add(decayed, 1.0)
            last[m] = t
            events[m].append(t)
        end = float(horizon[i])
        row_memory = []
        for j in range(k):
            decay_all = ops.sub(1.0, ops.exp(ops.mul(beta[j], -end)))
            excitation = ops.mul(ops.stop_gradient(state[i, j]), decay_all)
            for ti in events[j]:
                excitation = ops.add(excitation, ops.sub(1.0, ops.exp(ops.mul(beta[j], -(end - ti)))))
            compensator = ops.add(ops.mul(lda[i, j], end), ops.mul(alpha[j], excitation))
            ll = ops.sub(ll, compensator)
            decay = ops.exp(ops.mul(beta[j], -(end - last[j])))
            row_memory.append(ops.stop_gradient(ops.mul(memory[j], decay)))
        lls.append(ll)
        memories.append(ops.stack(row_memory, 0))
    return ops.stack(lls, 0), ops.stack(memories, 0)


HAWKES: dict[str, Callable[..., Any]] = {"hawkesll": hawkesll}
