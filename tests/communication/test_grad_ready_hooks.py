"""The tape's grad-ready hooks, which the gradient all-reduce starts from: each leaf is reported once, with
its complete gradient, as soon as its last use has been back-propagated, and the end of the pass is
reported."""
from __future__ import annotations

import numpy as np

import cellonnx as ms
from cellonnx import nn, ops
from cellonnx.autograd import tape


def test_each_leaf_once_with_its_final_gradient_in_backward_order() -> None:
    ms.set_seed(0)
    net = nn.SequentialCell([nn.Dense(3, 4), nn.Tanh(), nn.Dense(4, 2)])
    params = net.trainable_params()
    seen: list = []
    snapshots: dict = {}

    def hook(leaf, grad):
        seen.append(leaf)
        if leaf is not None:
            snapshots[id(leaf)] = grad.asnumpy().copy()

    x = ms.Tensor(np.random.default_rng(0).standard_normal((5, 3)).astype(np.float32))
    grad_fn = ms.value_and_grad(lambda t: (net(t) * net(t)).sum(), None, params)  # every weight used twice
    tape.GRAD_READY_HOOKS.append(hook)
    try:
        _, grads = grad_fn(x)
    finally:
        tape.GRAD_READY_HOOKS.remove(hook)
    assert seen[-1] is None and sum(leaf is None for leaf in seen) == 1
    reported = [leaf for leaf in seen if leaf is not None]
    assert sorted(map(id, reported)) == sorted(map(id, params))       # each parameter once
    order = [id(leaf) for leaf in reported]
    assert order.index(id(params[-1])) < order.index(id(params[0]))   # the last layer's completes first
    for p, g in zip(params, grads):
        np.testing.assert_array_equal(snapshots[id(p)], g.asnumpy())


def test_no_hooks_no_cost_and_higher_order_untouched() -> None:
    calls: list = []
    tape.GRAD_READY_HOOKS.append(lambda leaf, grad: calls.append(leaf))
    try:
        x = ms.Tensor(np.array([1.0, 2.0]))
        second = ops.grad(ops.grad(lambda t: (t ** 3).sum()))(x)   # the inner pass builds a graph: no report
    finally:
        tape.GRAD_READY_HOOKS.clear()
    np.testing.assert_allclose(second.asnumpy(), 6 * x.asnumpy())
    assert sum(leaf is None for leaf in calls) == 1   # only the outer pass reported
