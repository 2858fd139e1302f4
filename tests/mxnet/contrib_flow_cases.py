"""mx.nd.contrib.foreach / while_loop / cond rows: each a function of ``mx`` returning (results, inputs);
run by real MXNet 1.9.1 (tests/fixtures/mxnet/gen_contrib.py) and by cellonnx.mxnet (test_contrib.py),
which compare the flattened results and the gradients of the inputs (of the sum of the results' float
arrays, each times 1 + its position). NumPy only at import time."""
from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["CASES", "flatten", "run"]

_X = np.arange(12, dtype=np.float32).reshape(3, 4) / 7.0 - 0.5
_S = np.array([0.5, -1.0, 2.0, 0.25], np.float32)


def _inputs(mx: Any) -> tuple[Any, Any]:
    x, s = mx.nd.array(_X), mx.nd.array(_S)
    x.attach_grad()
    s.attach_grad()
    return x, s


def foreach_rnn(mx: Any) -> tuple[Any, list]:
    x, s = _inputs(mx)
    step = lambda d, states: (mx.nd.tanh(d * states[0]), [states[0] + d])
    with mx.autograd.record():
        out = mx.nd.contrib.foreach(step, x, [s])
    return out, [x, s]


def foreach_lists(mx: Any) -> tuple[Any, list]:
    x, s = _inputs(mx)

    def step(data: Any, states: Any) -> Any:
        a, b = data
        return [a * b, [a + states]], states * 0.5 + b
    with mx.autograd.record():
        out = mx.nd.contrib.foreach(step, [x, x * 2], s)
    return out, [x, s]


def while_padded(mx: Any) -> tuple[Any, list]:
    x, s = _inputs(mx)
    cond = lambda i, v: i < 3
    func = lambda i, v: ([v * 2, v.sum()], [i + 1, v * x[0]])
    with mx.autograd.record():
        outputs, states = mx.nd.contrib.while_loop(cond, func, [mx.nd.array([0]), s], max_iterations=5)
        outputs = [o[:3] for o in outputs]  # the padding rows are undefined in MXNet
    return (outputs, states), [x, s]


def while_single(mx: Any) -> tuple[Any, list]:
    x, s = _inputs(mx)
    with mx.autograd.record():
        out = mx.nd.contrib.while_loop(lambda v: v.sum() < 20, lambda v: (None, v * 2 + 1), s,
                                       max_iterations=10)
    return out, [x, s]


def cond_then(mx: Any) -> tuple[Any, list]:
    x, s = _inputs(mx)
    with mx.autograd.record():
        out = mx.nd.contrib.cond(s.sum() > 0, lambda: x * s, lambda: x - s)
    return out, [x, s]


def cond_else(mx: Any) -> tuple[Any, list]:
    x, s = _inputs(mx)
    with mx.autograd.record():
        out = mx.nd.contrib.cond(s.sum() < 0, lambda: x * s, lambda: [x - s, s * s])
    return out, [x, s]


def hawkesll(mx: Any) -> tuple[Any, list]:
    """Not control flow, but a function row too: hawkesll's results and its parameters' gradients."""
    nd = mx.nd
    lda = nd.array([1.5, 2.0, 3.0]).tile((4, 1)) * nd.array([[1.0], [0.5], [2.0], [1.2]])
    alpha, beta = nd.array([0.2, 0.3, 0.4]), nd.array([1.0, 2.0, 3.0])
    state = nd.array(np.linspace(0, 1, 12, dtype=np.float32).reshape(4, 3))
    lags = nd.array([[6, 7, 8, 9], [1, 2, 3, 4], [3, 4, 5, 6], [8, 9, 10, 11]]) / 10
    marks = nd.array([[0, 1, 2, 0], [1, 1, 0, 2], [2, 0, 0, 1], [0, 0, 0, 0]], dtype="int32")
    for a in (lda, alpha, beta, state):
        a.attach_grad()
    with mx.autograd.record():
        out = nd.contrib.hawkesll(lda, alpha, beta, state, lags, marks, nd.array([1, 2, 3, 4]),
                                  nd.array([5, 3, 6, 10]))
    return out, [lda, alpha, beta, state]


CASES = [("foreach_rnn", foreach_rnn), ("foreach_lists", foreach_lists), ("while_padded", while_padded),
         ("while_single", while_single), ("cond_then", cond_then), ("cond_else", cond_else),
         ("hawkesll", hawkesll)]


def flatten(value: Any) -> list[Any]:
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        return [a for v in value for a in flatten(v)]
    return [value]


def run(mx: Any, fn: Any) -> list[np.ndarray]:
    """The flattened results (with a marker of their types' nesting) and the inputs' gradients."""
    results, inputs = fn(mx)
    arrays = flatten(results)
    with mx.autograd.record():
        loss = None
        for i, a in enumerate(arrays):
            if a.dtype == np.float32:
                term = (a * (1.0 + i)).sum()
                loss = term if loss is None else loss + term
    loss.backward()
    return [a.asnumpy() for a in arrays] + [x.grad.asnumpy() for x in inputs]
