"""autograd.mark_variables rows: each a function of ``mx`` returning the gradient arrays given to
mark_variables after two backward passes (and whether the variable's ``grad`` reads the same values); run by
real MXNet 1.9.1 (tests/fixtures/mxnet/gen_mark_variables.py) and by cellonnx.mxnet
(test_mark_variables.py). NumPy only at import time."""
from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["CASES"]


def _two_passes(mx: Any, variables: list, loss: Any) -> None:
    for _ in range(2):
        with mx.autograd.record():
            out = loss(*variables)
        out.backward()


def _marked(req: Any, single: bool = False) -> Any:
    def case(mx: Any) -> list[np.ndarray]:
        x, w = mx.nd.array([1.0, 2.0, 3.0]), mx.nd.array([[0.5, -1.0], [2.0, 0.25], [1.0, 1.0]])
        gx, gw = mx.nd.full((3,), 10.0), mx.nd.full((3, 2), -1.0)
        if single:
            mx.autograd.mark_variables(x, gx, req)
            variables = [x]
            loss = lambda a: (a * a).sum()
        else:
            mx.autograd.mark_variables([x, w], [gx, gw], req)
            variables = [x, w]
            loss = lambda a, b: (mx.nd.dot(a * a, b) ** 2).sum()
        _two_passes(mx, variables, loss)
        grads = [gx, gw][:len(variables)]
        return [g.asnumpy() for g in grads] + [v.grad.asnumpy() for v in variables]
    return case


CASES = [("write", _marked("write")), ("add", _marked("add")), ("mixed", _marked(["add", "write"])),
         ("single", _marked("write", single=True))]
