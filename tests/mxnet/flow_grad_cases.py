"""Hybridized blocks whose forward uses F.contrib.foreach / while_loop / cond, trained under
autograd.record(): each row builds a block from ``mx`` and gives its inputs; run by real MXNet 1.9.1
(tests/fixtures/mxnet/gen_flow_grad.py) and by cellonnx.mxnet (test_flow_grad.py), which compare the
outputs and the gradients of every parameter and input, eager and hybridized. Weights come from a seed per
parameter position (``initial``), so no weight file is stored. NumPy only at import time."""
from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["CASES", "DATA_WHILE", "initial", "run"]


def _rnn(mx: Any) -> Any:
    class ForeachRNN(mx.gluon.HybridBlock):
        """An RNN cell unrolled by foreach: h' = tanh(W x + U h), the outputs 2 h'."""

        def __init__(self, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            with self.name_scope():
                self.i2h = mx.gluon.nn.Dense(4, in_units=3, flatten=False)
                self.h2h = mx.gluon.nn.Dense(4, in_units=4, flatten=False)

        def hybrid_forward(self, F: Any, x: Any, h: Any) -> Any:
            def step(d: Any, states: Any) -> Any:
                nh = F.tanh(self.i2h(d) + self.h2h(states[0]))
                return nh * 2, [nh]
            outs, states = F.contrib.foreach(step, x, [h])
            return outs, states[0]
    return ForeachRNN()


def _nested(mx: Any) -> Any:
    class ForeachLists(mx.gluon.HybridBlock):
        """foreach over two sequences with two states and two outputs per step."""

        def __init__(self, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            with self.name_scope():
                self.dense = mx.gluon.nn.Dense(3, in_units=3, flatten=False)

        def hybrid_forward(self, F: Any, x: Any, y: Any) -> Any:
            def step(data: Any, states: Any) -> Any:
                a, b = data
                s, t = states
                ns = F.sigmoid(self.dense(a) + s * b)
                return [ns * t, a - ns], [ns, t + b]
            first = F.squeeze(F.slice_axis(x, axis=0, begin=0, end=1), axis=0)
            outs, states = F.contrib.foreach(step, [x, y], [F.zeros_like(first), F.ones_like(first)])
            return outs[0], outs[1], states[0], states[1]
    return ForeachLists()


def _while(mx: Any) -> Any:
    class CountedWhile(mx.gluon.HybridBlock):
        """A while_loop whose condition reads the counter only."""

        def __init__(self, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            with self.name_scope():
                self.dense = mx.gluon.nn.Dense(3, in_units=3)

        def hybrid_forward(self, F: Any, x: Any) -> Any:
            outs, (_, state) = F.contrib.while_loop(
                lambda i, s: i < 3, lambda i, s: ([F.tanh(s) * 2], [i + 1, F.relu(self.dense(s)) + s]),
                [F.zeros((1,)), x], max_iterations=3)
            return outs[0], state
    return CountedWhile()


def _grow(mx: Any) -> Any:
    class DataWhile(mx.gluon.HybridBlock):
        """A while_loop whose step count depends on the data: a dense layer until the state's total passes
        a bound (the block returns the state and the count). Real MXNet 1.9.1 trains it eagerly only: its
        CachedOp under autograd.record() fails ("Assigning to NDArrays that are already in a computational
        graph") for any condition reading data, so cellonnx's hybridized gradients are checked against its
        eager ones (which contrib_flow_cases checks against MXNet's)."""

        def __init__(self, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            with self.name_scope():
                self.dense = mx.gluon.nn.Dense(3, in_units=3)

        def hybrid_forward(self, F: Any, x: Any) -> Any:
            def func(i: Any, s: Any) -> Any:
                nxt = F.tanh(self.dense(s)) + s * 1.5
                return [nxt], [i + 1, nxt]
            _, (steps, state) = F.contrib.while_loop(lambda i, s: s.abs().sum() < 8, func,
                                                     [F.zeros((1,)), x], max_iterations=5)
            return state, steps
    return DataWhile()


def _cond(mx: Any) -> Any:
    class DataCond(mx.gluon.HybridBlock):
        """cond on the sign of the input's sum: one branch through the dense layer, the other around it."""

        def __init__(self, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            with self.name_scope():
                self.dense = mx.gluon.nn.Dense(3, in_units=3)

        def hybrid_forward(self, F: Any, x: Any) -> Any:
            return F.contrib.cond(x.sum() > 0, lambda: F.tanh(self.dense(x)) * x,
                                  lambda: x * x - 1)
    return DataCond()


_X = np.linspace(-1, 1, 30, dtype=np.float32).reshape(5, 2, 3)
_Y = np.cos(np.arange(30, dtype=np.float32)).reshape(5, 2, 3)
_P = np.array([[0.5, -0.2, 0.9], [0.3, 0.1, -0.4]], np.float32)

# (id, block factory, inputs); blocks shared by two rows take different steps / branches on their inputs
CASES = [("foreach_rnn", _rnn, [_X, np.zeros((2, 4), np.float32)]),
         ("foreach_lists", _nested, [_X, _Y]),
         ("while_counted", _while, [_P]),
         ("cond_then", _cond, [_P]),
         ("cond_else", _cond, [-_P])]


# rows for data-dependent while_loop (hybridized vs eager in cellonnx only; see DataWhile)
DATA_WHILE = [("while_data_few", _grow, [_P * 3]), ("while_data_many", _grow, [_P * 0.2])]


def initial(k: int, shape: tuple) -> np.ndarray:
    """The value of parameter number ``k`` (collect_params order)."""
    return np.random.default_rng(200 + k).normal(scale=0.4, size=shape).astype(np.float32)


def run(mx: Any, net: Any, inputs: list[np.ndarray]) -> list[np.ndarray]:
    """One recorded call and backward of ``net`` (loss: the sum of each output times 1 + its position):
    the outputs, then the gradients of the parameters (collect_params order), then of the inputs."""
    arrays = [mx.nd.array(x) for x in inputs]
    for a in arrays:
        a.attach_grad()
    with mx.autograd.record():
        out = net(*arrays)
        outs = list(out) if isinstance(out, (list, tuple)) else [out]
        loss = None
        for i, o in enumerate(outs):
            term = (o * (1.0 + i)).sum()
            loss = term if loss is None else loss + term
    loss.backward()
    params = list(net.collect_params().values())
    return ([o.asnumpy() for o in outs] + [p.grad().asnumpy() for p in params]
            + [a.grad.asnumpy() for a in arrays])
