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


def _offer_buffers(params: list) -> tuple[dict, object]:
    offered: dict = {}
    ids = {id(p) for p in params}

    def buffer(leaf):
        if id(leaf) not in ids:
            return None
        dest = np.full(leaf.shape, np.nan, leaf.asnumpy().dtype)
        offered[id(leaf)] = dest
        return dest

    return offered, buffer


def _cnn() -> nn.Cell:
    return nn.SequentialCell([nn.Conv2d(2, 4, 3, pad_mode="pad", padding=1, has_bias=True), nn.BatchNorm2d(4),
                              nn.ReLU(), nn.Conv2d(4, 4, 3, stride=2, pad_mode="valid", group=2),
                              nn.Flatten(), nn.Dense(4 * 2 * 2, 3)])


def test_gradients_written_into_the_offered_buffers_equal_the_usual_ones() -> None:
    ms.set_seed(1)
    net = _cnn()
    net.set_train()
    params = net.trainable_params()
    x = ms.Tensor(np.random.default_rng(1).standard_normal((3, 2, 6, 6)).astype(np.float32))
    grad_fn = ms.value_and_grad(lambda t: (net(t) ** 2).sum(), None, params)
    _, want = grad_fn(x)
    offered, buffer = _offer_buffers(params)
    tape.GRAD_READY_HOOKS.append(lambda leaf, grad: None)
    tape.GRAD_BUFFERS.append(buffer)
    try:
        _, got = grad_fn(x)
    finally:
        tape.GRAD_BUFFERS.remove(buffer)
        tape.GRAD_READY_HOOKS.pop()
    assert len(offered) == len(params)   # every parameter's gradient is computed by one op
    written = {p.name for p, g in zip(params, got) if np.shares_memory(g.asnumpy(), offered[id(p)])}
    # the weights of the convolutions and the dense layer are computed in place; the rest copied by the owner
    assert written == {"0.weight", "3.weight", "5.weight"}
    for p, g, w in zip(params, got, want):
        np.testing.assert_allclose(g.asnumpy(), w.asnumpy(), rtol=1e-6, atol=1e-6, err_msg=p.name)


def test_no_buffer_for_a_leaf_used_twice_or_a_recorded_pass() -> None:
    ms.set_seed(2)
    net = nn.Dense(3, 2)
    params = net.trainable_params()
    x = ms.Tensor(np.ones((4, 3), np.float32))
    offered, buffer = _offer_buffers(params)
    tape.GRAD_READY_HOOKS.append(lambda leaf, grad: None)
    tape.GRAD_BUFFERS.append(buffer)
    try:
        ms.value_and_grad(lambda t: (net(t) * net(t)).sum(), None, params)(x)   # two uses of each
        assert not offered
        with ms.enable_grad():
            loss = net(x).sum()
        tape.run_backward([loss], [None], create_graph=True, wrt=params)   # a recorded pass
        assert not offered
        ms.value_and_grad(lambda t: net(t).sum(), None, params)(x)
        assert set(offered) == {id(p) for p in params}
    finally:
        tape.GRAD_BUFFERS.remove(buffer)
        tape.GRAD_READY_HOOKS.pop()
