"""What Gluon parameters' ``data()`` and rounded mx.np arrays print as: snippets run by real MXNet 1.9.1
(tests/fixtures/mxnet/gen_printing.py) and by cellonnx.mxnet (test_printing.py), each returning the text.

A snippet is the body of a function of ``mx`` (the framework) that returns a list of printed values.
"""
from __future__ import annotations

from typing import Any


def _dense(mx: Any) -> Any:
    net = mx.gluon.nn.Dense(3, in_units=2)
    net.initialize(mx.init.Constant(0.5))
    net.bias.set_data(mx.nd.array([0.25, -1.5, 2.0]))
    return net


def _nd_data(mx: Any) -> list:
    mx.npx.reset_np()
    net = _dense(mx)
    d = net.weight.data()
    return [str(d), repr(d), str(net.bias.data())]


def _nd_write(mx: Any) -> list:
    mx.npx.reset_np()
    net = _dense(mx)
    net.weight.data()[:] = 2
    net.weight.data()[0] = 7
    return [str(net.weight.data())]


def _np_data(mx: Any) -> list:
    mx.npx.set_np()
    try:
        net = mx.gluon.nn.Dense(3, in_units=2)
        net.initialize(mx.init.Constant(0.5))
        d = net.weight.data()
        return [str(d), repr(d), str(net.bias.data()), repr(net.bias.data())]
    finally:
        mx.npx.reset_np()


def _np_round(mx: Any) -> list:
    mx.npx.set_np()
    try:
        x = mx.np.array([[1.234, 2.567, -0.35], [10.05, 0.5, -2.5]])
        return [str(x.round(2)), repr(x.round(decimals=1)), repr(x.round()), str(x.round(-1)),
                repr(mx.np.round(x, 2)), repr(mx.np.around(x, decimals=1))]
    finally:
        mx.npx.reset_np()


SNIPPETS = {"nd_data": _nd_data, "nd_write": _nd_write, "np_data": _np_data, "np_round": _np_round}


def run(mx: Any, snippet: Any) -> list[str]:
    return [str(v) for v in snippet(mx)]
