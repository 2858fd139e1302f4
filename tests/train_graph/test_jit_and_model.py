"""Compiled training beyond the wrapper cells: a ``jit`` function calling a ``value_and_grad`` function and
then ``optimizer(grads)`` (MindSpore 2.x's usual loop), and ``Model.train`` / ``Model.fit`` in GRAPH_MODE
with callbacks reading the parameters; each equals its eager trajectory."""
from __future__ import annotations

from typing import Any

import numpy as np

import cellonnx as ms
from cellonnx import dataset as ds
from cellonnx import nn
from cellonnx.graph import train as graph_train
from cellonnx.train import Model
from cellonnx.train.callback import LambdaCallback
from tests.tolerance import assert_close
from tests.train_graph.harness import check_trajectory, classification_batches


def _net() -> nn.Cell:
    return nn.SequentialCell(nn.Dense(6, 8, has_bias=False), nn.BatchNorm1d(8), nn.ReLU(), nn.Dense(8, 3))


def _jit_step() -> Any:
    net = _net()
    net.set_train()
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Adam(net.trainable_params(), nn.CosineDecayLR(0.001, 0.01, 4))

    def forward_fn(x: Any, y: Any) -> Any:
        return loss_fn(net(x), y)

    grad_fn = ms.value_and_grad(forward_fn, None, opt.parameters)

    @ms.jit
    def train_step(x: Any, y: Any) -> Any:
        loss, grads = grad_fn(x, y)
        opt(grads)
        return loss

    holder = nn.CellList([net, opt])
    train_step.parameters_and_names = holder.parameters_and_names  # type: ignore[attr-defined]
    train_step.net = net  # type: ignore[attr-defined]
    return train_step


def test_jit_train_step_trajectory() -> None:
    check_trajectory(_jit_step, classification_batches((4, 6), 3), what="jit step")


def test_jit_step_is_one_graph_and_recompiles_on_set_train() -> None:
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        step = _jit_step()
        for x, y in classification_batches((4, 6), 3, sizes=(4, 6, 3)):
            step(x, y)
        assert len(graph_train.compiled_steps(step)) == 1
        step.net[1].set_train(False)  # a structural change the function's graph depends on
        step(*classification_batches((4, 6), 3, steps=1)[0])
        assert len(graph_train.compiled_steps(step)) == 2
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def _model_run(mode: int, fit: bool) -> tuple[list, dict]:
    ms.set_context(mode=mode)
    try:
        ms.set_seed(0)
        net = _net()
        loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        model = Model(net, loss_fn, nn.Momentum(net.trainable_params(), 0.1, 0.9))
        rng = np.random.default_rng(0)
        x = rng.standard_normal((20, 6)).astype(np.float32)
        y = rng.integers(0, 3, (20,)).astype(np.int32)
        data = ds.NumpySlicesDataset((x, y), column_names=["x", "y"], shuffle=False).batch(6)
        seen: list = []

        def keep(run_context: Any) -> None:  # a callback reading the loss and a parameter each step
            out = run_context.original_args().net_outputs
            seen.append((float(np.asarray(out.asnumpy() if hasattr(out, "asnumpy") else out[0].asnumpy())),
                         net[0].weight.asnumpy().copy()))

        if fit:
            model.fit(2, data, callbacks=LambdaCallback(on_train_step_end=keep))
        else:
            model.train(2, data, callbacks=LambdaCallback(on_train_step_end=keep))
        return seen, {n: p.asnumpy().copy() for n, p in net.parameters_and_names()}
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_model_train_and_fit_compiled() -> None:
    for fit in (False, True):
        eager, eager_state = _model_run(ms.PYNATIVE_MODE, fit)
        graph, graph_state = _model_run(ms.GRAPH_MODE, fit)
        assert len(eager) == len(graph) == 8  # 2 epochs of 4 batches (the last one of 2 rows)
        for (el, ew), (gl, gw) in zip(eager, graph):
            assert_close(gl, el, rtol=1e-4, scale_rtol=1e-4, what="loss")
            assert_close(gw, ew, rtol=1e-4, scale_rtol=1e-4, what="weight seen by a callback")
        for name, value in eager_state.items():
            assert_close(graph_state[name], value, rtol=1e-4, scale_rtol=1e-4, min_scale=1e-6, what=name)
