"""saved_tensors_hooks / register_saved_tensors_hooks against real MindSpore 2.10 (values, gradients and the
order of pack/unpack calls; fixture from tests/fixtures/mindspore/gen_saved_tensors_hooks.py)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import nn, ops
from tests.tolerance import assert_close

WANT = json.loads((Path(__file__).parent / "fixtures/mindspore/saved_hooks/cases.json").read_text())
CASES = {
    "mul": lambda x, y: x * y,
    "add": lambda x, y: x + y,
    "exp_mul": lambda x, y: ops.exp(x) * y,
    "sin_add": lambda x, y: ops.sin(x) + y,
    "sub_div": lambda x, y: (x - y) / y,
}


def _hooks(log: list):
    def pack(t):
        log.append(["pack", t.asnumpy().tolist()])
        return t * 2

    def unpack(t):
        log.append(["unpack", t.asnumpy().tolist()])
        return t
    return pack, unpack


def _inputs():
    return ms.Tensor(np.array([1.0, 2.0], np.float32)), ms.Tensor(np.array([3.0, 4.0], np.float32))


def _check(got_v, got_g, log, want):
    assert_close(float(got_v.asnumpy()), want["value"], rtol=1e-6)
    for g, w in zip(got_g, want["grads"]):
        assert_close(g.asnumpy(), np.array(w), rtol=1e-6)
    assert [k for k, _ in log] == [k for k, _ in want["log"]]
    for (_, a), (_, b) in zip(log, want["log"]):
        assert_close(np.array(a), np.array(b), rtol=1e-6)


@pytest.mark.parametrize("name", sorted(CASES))
def test_context_manager_matches_mindspore(name):
    log: list = []
    pack, unpack = _hooks(log)

    def fwd(x, y):
        with ms.saved_tensors_hooks(pack, unpack):
            r = CASES[name](x, y)
        return r.sum()
    v, g = ms.value_and_grad(fwd, grad_position=(0, 1))(*_inputs())
    _check(v, g, log, WANT[name])


def test_cell_register_saved_tensors_hooks_matches_mindspore():
    class Net(nn.Cell):
        def construct(self, x, y):
            return (x * y).sum()
    log: list = []
    net = Net()
    net.register_saved_tensors_hooks(*_hooks(log))
    v, g = ms.value_and_grad(net, grad_position=(0, 1))(*_inputs())
    _check(v, g, log, WANT["cell_mul"])
    log.clear()
    net(*_inputs())  # no gradient wanted: nothing is saved, no hook runs
    assert log == []


def test_decorator_and_scope():
    log: list = []
    pack, unpack = _hooks(log)

    @ms.register_saved_tensors_hooks(pack, unpack)
    def fwd(x, y):
        return (x * y).sum()
    v, g = ms.value_and_grad(fwd, grad_position=(0, 1))(*_inputs())
    _check(v, g, log, WANT["mul"])
    log.clear()
    ms.value_and_grad(lambda x, y: (x * y).sum(), grad_position=(0, 1))(*_inputs())
    assert log == []  # outside the scope no hook runs


def test_unpack_must_return_tensor():
    def fwd(x, y):
        with ms.saved_tensors_hooks(lambda t: t, lambda t: 1.0):
            r = x * y
        return r.sum()
    with pytest.raises(TypeError, match="unpack_hook must return a Tensor.*Mul"):
        ms.value_and_grad(fwd, grad_position=(0, 1))(*_inputs())
    with pytest.raises(TypeError, match="must be callable"):
        ms.saved_tensors_hooks(None, lambda t: t)
