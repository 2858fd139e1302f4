"""In GRAPH_MODE a top-level call of a gradient function (``value_and_grad``, ``grad``, ``GradOperation``)
runs as one compiled graph, as MindSpore 2.10 compiles it (its ``_Grad.__call__`` and
``GradOperation.__call__`` wrap the call in ``jit`` in GRAPH_MODE): values and gradients equal eager's, one
graph for every batch size; a call the graph cannot take runs eagerly and says why, once."""
from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import nn, ops
from cellonnx.graph import train
from cellonnx.ops.registry import Op
from tests.tolerance import assert_close

RTOL = 1e-4


class _Net(nn.Cell):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Dense(3, 4)
        self.bn = nn.BatchNorm1d(4)
        self.out = nn.Dense(4, 2)

    def construct(self, x: Any) -> Any:
        return self.out(ops.tanh(self.bn(self.fc(x))))


def _data(n: int, seed: int) -> tuple[ms.Tensor, ...]:
    rng = np.random.default_rng(seed)
    return (ms.Tensor(rng.standard_normal((n, 3)).astype(np.float32)),
            ms.Tensor(rng.standard_normal((n, 2)).astype(np.float32)),
            ms.Tensor(rng.standard_normal((n, 5)).astype(np.float32)))


def _loss(net: nn.Cell) -> Callable[..., Any]:
    def loss(x: Any, y: Any, z: Any) -> Any:  # z is not used: its gradient is zeros of its runtime shape
        return ops.mean((net(x) - y) ** 2)
    return loss


def _aux(net: nn.Cell) -> Callable[..., Any]:
    def loss_and_logits(x: Any, y: Any, z: Any) -> Any:
        logits = net(x)
        return ops.mean((logits - y) ** 2), logits
    return loss_and_logits


def _sens(net: nn.Cell) -> Callable[..., Any]:
    def out(x: Any, y: Any, z: Any) -> Any:
        return net(x) * y
    return out


def _sens_of(args: tuple) -> tuple:
    return (*args, ops.ones_like(args[1]) * 0.5)


# name: (function of the net, how the gradient function is made, extra argument (sens) or None)
CASES: dict[str, tuple[Callable, Callable, bool]] = {
    "inputs": (_loss, lambda f, w: ms.value_and_grad(f, (0, 1, 2)), False),
    "weights": (_loss, lambda f, w: ms.value_and_grad(f, None, w), False),
    "inputs_and_weights": (_loss, lambda f, w: ms.value_and_grad(f, 0, w), False),
    "has_aux": (_aux, lambda f, w: ms.value_and_grad(f, (0, 2), w, has_aux=True), False),
    "sum_of_outputs": (_aux, lambda f, w: ms.value_and_grad(f, 1, w), False),
    "return_ids": (_loss, lambda f, w: ms.value_and_grad(f, (0, 1), w, return_ids=True), False),
    "sens_param": (_sens, lambda f, w: ms.value_and_grad(f, 0, w, sens_param=True), True),
    "grad": (_loss, lambda f, w: ms.grad(f, 0, w), False),
    "grad_has_aux": (_aux, lambda f, w: ms.grad(f, None, w, has_aux=True), False),
    "GradOperation": (_loss, lambda f, w: ops.GradOperation(get_all=True, get_by_list=True)(f, w), False),
}


def _flat(out: Any) -> list[np.ndarray]:
    if isinstance(out, ms.Tensor):
        return [np.array(out.asnumpy(), copy=True)]
    if isinstance(out, (tuple, list)):
        return [a for o in out for a in _flat(o)]
    return []


def _keys(out: Any) -> list:
    """The non-tensor leaves (return_ids' positions and names)."""
    if isinstance(out, (tuple, list)):
        return [k for o in out for k in _keys(o)]
    return [] if isinstance(out, ms.Tensor) else [out]


def _run(case: str, mode: int) -> tuple[list, dict[str, np.ndarray], Any]:
    make_fn, make_grad, sens = CASES[case]
    ms.set_seed(0)
    net = _Net()
    grad_fn = make_grad(make_fn(net), net.trainable_params())
    outs = []
    ms.set_context(mode=mode)
    try:
        for i, n in enumerate((4, 1, 6)):   # one graph for every batch size
            args = _data(n, i)
            out = grad_fn(*(_sens_of(args) if sens else args))
            outs.append((_flat(out), _keys(out)))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    state = {name: np.array(p.asnumpy(), copy=True) for name, p in net.parameters_and_names()}
    return outs, state, grad_fn


@pytest.mark.parametrize("case", sorted(CASES))
def test_top_level_gradient_call_compiles(case: str) -> None:
    eager, eager_state, _ = _run(case, ms.PYNATIVE_MODE)
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # it compiles: no word of running eagerly
        graph, graph_state, grad_fn = _run(case, ms.GRAPH_MODE)
    assert len(train.compiled_steps(grad_fn)) == 1, "one graph serves every batch size"
    for step, ((e, ek), (g, gk)) in enumerate(zip(eager, graph)):
        assert ek == gk
        assert [a.shape for a in g] == [a.shape for a in e], f"{case}: shapes of call {step}"
        for i, (a, b) in enumerate(zip(e, g)):
            assert_close(b, a, rtol=RTOL, scale_rtol=RTOL, what=f"{case}: result {i} of call {step}")
    for name, value in eager_state.items():   # the batch norm's moving statistics move as eagerly
        assert_close(graph_state[name], value, rtol=RTOL, scale_rtol=RTOL, what=f"{case}: {name}")


class _UnloweredInGrad(Op):
    """An op with a forward and a gradient but no ONNX lowering."""

    def forward(self, x: np.ndarray) -> np.ndarray:
        return x * 2

    def backward(self, ctx: Any, g: Any) -> tuple:
        return (ops.mul(g, 2.0),)


def _unlowered(x: Any) -> Any:
    return ops.sum(_UnloweredInGrad.apply(x) * x)


def _scaled(x: Any, scale: Any = 1.0) -> Any:
    return ops.sum(x * x) * scale


FALLBACKS = {
    "no_lowering": (_unlowered, {}, r"value_and_grad function of _unlowered runs eagerly \(PYNATIVE\): it "
                                    r"cannot be compiled: .*op _UnloweredInGrad cannot be written as ONNX"),
    "keyword": (_scaled, {"scale": 3.0}, r"value_and_grad function of _scaled runs eagerly \(PYNATIVE\): it "
                                         r"is called with \['scale'\] by keyword.*Pass them positionally"),
}


@pytest.mark.parametrize("case", sorted(FALLBACKS))
def test_uncompilable_call_runs_eagerly_and_says_why_once(case: str) -> None:
    fn, kwargs, pattern = FALLBACKS[case]
    x = ms.Tensor(np.array([[1.0, -2.0], [0.5, 3.0]], np.float32))
    want = [a for a in _flat(ms.value_and_grad(fn)(x, **kwargs))]
    grad_fn = ms.value_and_grad(fn)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        with pytest.warns(UserWarning, match=pattern) as seen:
            got = [_flat(grad_fn(x, **kwargs)) for _ in range(3)]
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert len([w for w in seen if "GRAPH_MODE" in str(w.message)]) == 1, "said once"
    assert seen[0].filename == __file__, "at the caller's line"
    for out in got:
        for a, b in zip(want, out):
            np.testing.assert_allclose(b, a, rtol=1e-6)


def test_sens_by_keyword_compiles() -> None:
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    sens = ms.Tensor(np.array([0.5, 2.0], np.float32))
    grad_fn = ms.grad(lambda t: t * t, sens_param=True)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = grad_fn(x, sens=sens)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert len(train.compiled_steps(grad_fn)) == 1
    np.testing.assert_allclose(got.asnumpy(), [1.0, 8.0], rtol=1e-6)


def test_inside_jit_and_pynative_not_compiled_apart() -> None:
    """Inside a jit step the gradient function is traced into the step's graph; in PYNATIVE_MODE it runs
    eagerly: neither holds a graph of its own."""
    net = nn.Dense(3, 2)
    opt = nn.SGD(net.trainable_params(), 0.1)
    grad_fn = ms.value_and_grad(lambda x, y: ops.mean((net(x) - y) ** 2), None, opt.parameters)

    @ms.jit
    def step(x: Any, y: Any) -> Any:
        loss, grads = grad_fn(x, y)
        opt(grads)
        return loss

    x, y, _ = _data(4, 0)
    grad_fn(x, y)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        step(x, y)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert len(train.compiled_steps(step)) == 1
    assert not train.compiled_steps(grad_fn)


def test_compiled_gradients_with_an_eager_optimizer_follow_eager_training() -> None:
    """MindSpore's functional loop in GRAPH_MODE: ``loss, grads = grad_fn(x, y)`` compiled, then
    ``optimizer(grads)`` at top level; each step's parameters (changed outside the graph) reach the next
    compiled call, and the moving statistics it updates reach the optimizer's reads."""
    def train(mode: int) -> tuple[list, dict[str, np.ndarray]]:
        ms.set_seed(0)
        net = _Net()
        opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
        grad_fn = ms.value_and_grad(_aux(net), None, opt.parameters, has_aux=True)
        losses = []
        ms.set_context(mode=mode)
        try:
            for i, n in enumerate((4, 1, 6, 3)):
                (loss, _), grads = grad_fn(*_data(n, i))
                opt(grads)
                losses.append(float(loss.asnumpy()))
        finally:
            ms.set_context(mode=ms.PYNATIVE_MODE)
        return losses, {k: np.array(p.asnumpy(), copy=True) for k, p in net.parameters_and_names()}

    (eager_losses, eager_state), (graph_losses, graph_state) = train(ms.PYNATIVE_MODE), train(ms.GRAPH_MODE)
    assert_close(np.array(graph_losses), np.array(eager_losses), rtol=RTOL, scale_rtol=RTOL, what="losses")
    for name, value in eager_state.items():
        assert_close(graph_state[name], value, rtol=RTOL, scale_rtol=RTOL, what=name)


# how a loop makes its gradient function anew at every step, as MindSpore code often does, and how many of
# (x, y, z) it takes
REMADE: dict[str, tuple[Callable[[nn.Cell, Callable], Callable], int]] = {
    "value_and_grad": (lambda net, loss: ms.value_and_grad(loss, None, net.trainable_params()), 3),
    "grad_of_cell": (lambda net, loss: ms.grad(net, 0), 1),
    "grad_of_bound_method": (lambda net, loss: ms.grad(net.construct, 0), 1),
    "GradOperation": (lambda net, loss: ops.GradOperation(get_by_list=True)(loss, net.trainable_params()), 3),
}


@pytest.mark.parametrize("case", sorted(REMADE))
def test_gradient_function_made_anew_compiles_once(case: str) -> None:
    """MindSpore compiles ``grad(fn, ...)`` once for the same function, options and weights, however often the
    gradient function is made; other options compile apart; the graphs go with the function."""
    import gc
    import weakref

    ms.set_seed(0)
    net = _Net()
    loss = _loss(net)
    make, n_args = REMADE[case]
    made = []
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        for i, n in enumerate((4, 1, 6)):
            x, y, z = _data(n, i)
            args = (x, y, z)[:n_args]
            grad_fn = make(net, loss)
            eager = _flat(grad_fn.__wrapped__(*args))
            got = _flat(grad_fn(*args))
            for a, b in zip(eager, got):
                assert_close(b, a, rtol=RTOL, scale_rtol=RTOL, what=f"{case}: call {i}")
            made.append(grad_fn)
        assert len({f.compiled_owner for f in made}) == 1
        assert len(train.compiled_steps(made[-1])) == 1, "one graph for every gradient function made alike"
        other = ms.value_and_grad(loss, (0, 1), net.trainable_params())
        other(x, y, z)
        assert other.compiled_owner is not made[-1].compiled_owner, "other options compile apart"
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    owner = weakref.ref(made[-1].compiled_owner)
    del made, grad_fn, other, loss, net
    gc.collect()
    assert owner() is None, "the compiled graphs go with the function"
