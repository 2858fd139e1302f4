"""A dynamic dim read as a Python float (``loss / float(x.shape[0])``, ``x.shape[0] / 2``) would be a constant
of the graph, the traced batch size taken for every batch: a step traced at 4 gave wrong losses and updates at
2 and 3. While a trace runs such a read raises StaticDimRequired; a compiled step or a hybridized block then
traces that axis static (a graph per batch size) and equals eager; ``x / x.shape[0]`` with the int stays one
graph; a static dim read as a float is a plain float."""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import nn
from cellonnx.graph import train
from cellonnx.graph.trace import StaticDimRequired
from tests.tolerance import assert_close
from tests.train_graph.harness import check_trajectory, momentum_build

SIZES = (4, 2, 3, 4)   # traced first at 4

# name: (the loss of a batch of n from its summed squared error, graphs the step holds over SIZES)
FORMS: dict[str, tuple[Callable[[Any, Any], Any], int]] = {
    "float()": (lambda loss, x: loss / float(x.shape[0]), 3),
    "dim / 2": (lambda loss, x: loss / (x.shape[0] / 2), 3),
    "2 / dim": (lambda loss, x: loss * (2 / x.shape[0]), 3),
    "np.float32(dim)": (lambda loss, x: loss / np.float32(x.shape[0]), 3),
    "dim * 1.0": (lambda loss, x: loss / (x.shape[0] * 1.0), 3),
    "dim + 0.5": (lambda loss, x: loss / (x.shape[0] + 0.5), 3),
    "dim ** 0.5": (lambda loss, x: loss / x.shape[0] ** 0.5, 3),
    "np.sqrt(dim)": (lambda loss, x: loss / np.sqrt(x.shape[0]), 3),
    "np.float32(2) * dim": (lambda loss, x: loss / (np.float32(2) * x.shape[0]), 3),
    "round(dim / 2)": (lambda loss, x: loss / max(round(x.shape[0] / 2), 1), 3),
    "tensor / dim (stays dynamic)": (lambda loss, x: loss / x.shape[0], 1),
    "round(dim) (stays dynamic)": (lambda loss, x: loss / round(x.shape[0]), 1),
    "math.ceil(dim) (stays dynamic)": (lambda loss, x: loss / math.ceil(x.shape[0]), 1),
    "dim ** 2 (stays dynamic)": (lambda loss, x: loss / x.shape[0] ** 2, 1),
    "np.int64(2) * dim (stays dynamic)": (lambda loss, x: loss / (np.int64(2) * x.shape[0]), 1),
    "sqrt of a static dim": (lambda loss, x: loss / math.sqrt(x.shape[-1]), 1),
}


class _Loss(nn.Cell):
    def __init__(self, form: Callable[[Any, Any], Any]) -> None:
        super().__init__()
        self.net = nn.Dense(3, 2)
        self.form = form

    def construct(self, x: Any, y: Any) -> Any:
        return self.form(((self.net(x) - y) ** 2).sum(), x)


def _batches() -> list[tuple]:
    rng = np.random.default_rng(0)
    return [(ms.Tensor(rng.standard_normal((n, 3)).astype(np.float32)),
             ms.Tensor(rng.standard_normal((n, 2)).astype(np.float32))) for n in SIZES]


@pytest.mark.parametrize("form", sorted(FORMS))
def test_a_float_of_the_batch_size_in_a_step_equals_eager(form: str) -> None:
    make_loss, graphs = FORMS[form]
    build = momentum_build(lambda: _Loss(make_loss), 0.1)
    check_trajectory(build, _batches(), what=form)
    assert len(train.compiled_steps(build.step)) == graphs


# name: (the block's forward of x, graphs the hybridized block holds after SIZES: inference + training)
HYBRID_FORMS: dict[str, tuple[Callable[[Any, Any], Any], int]] = {
    "float(n) and n / 2": (lambda fc, x: fc(x) / float(x.shape[0]) + x.shape[0] / 2, 3 + 3),
    "attention scale of the static last dim": (lambda fc, x: fc(x / math.sqrt(x.shape[-1])), 1 + 1),
    "divided by the int": (lambda fc, x: fc(x) / x.shape[0], 1 + 1),
}


@pytest.mark.parametrize("form", sorted(HYBRID_FORMS))
def test_a_float_of_the_batch_size_in_a_hybridized_block(form: str, caplog: Any) -> None:
    """Inference and training under ``autograd.record()`` of a hybridized gluon block, as eager; a float of
    the batch size traces a graph per size (and says why at debug level), the rest one graph."""
    import logging

    import cellonnx.mxnet as mx

    make_out, graphs = HYBRID_FORMS[form]

    class Scaled(mx.gluon.nn.HybridBlock):
        def __init__(self) -> None:
            super().__init__()
            self.fc = mx.gluon.nn.Dense(2, in_units=3)

        def forward(self, x: Any) -> Any:
            return make_out(self.fc, x)

    rng = np.random.default_rng(1)
    xs = [mx.nd.array(rng.standard_normal((n, 3)).astype(np.float32)) for n in SIZES]
    runs = []
    for hybrid in (False, True):
        net = Scaled()
        net.initialize(mx.init.Constant(0.25))
        if hybrid:
            net.hybridize()
        trainer = mx.gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.5})
        outs = []
        with caplog.at_level(logging.DEBUG):
            for x in xs:
                outs.append(net(x).asnumpy())
                with mx.autograd.record():
                    loss = (net(x) ** 2).sum()
                loss.backward()
                trainer.step(1)
        runs.append((outs, [p.data().asnumpy() for p in net.collect_params().values()]))
    assert len(net._compiled) == graphs
    retraced = "traced for each size of axis 0" in caplog.text
    assert retraced == (graphs > 2), caplog.text
    (eager_outs, eager_params), (hybrid_outs, hybrid_params) = runs
    for n, a, b in zip(SIZES, eager_outs, hybrid_outs):
        assert_close(b, a, 1e-4, 1e-4, what=f"output at batch {n}")
    for a, b in zip(eager_params, hybrid_params):
        assert_close(b, a, 1e-4, 1e-4, what="parameters after training")


def test_inference_with_the_batch_declared_dynamic() -> None:
    """compile() of a cell whose inputs declare the batch dynamic (set_inputs): dividing by the int is one
    graph right at every batch size."""
    net = _Loss(FORMS["tensor / dim (stays dynamic)"][0])
    net.set_inputs(ms.Tensor(shape=[None, 3], dtype=ms.float32), ms.Tensor(shape=[None, 2], dtype=ms.float32))
    batches = _batches()
    want = [net(x, y).asnumpy() for x, y in batches]
    compiled = {id(ms.compile_graph(net, *batches[0]))}
    for (x, y), w in zip(batches, want):
        compiled.add(id(ms.compile_graph(net, x, y)))
        assert_close(ms.compile_graph(net, x, y)(x, y).asnumpy(), w, 1e-5, 1e-5, what=f"batch {x.shape[0]}")
    assert len(compiled) == 1


def test_a_float_of_a_dim_declared_dynamic_names_the_line() -> None:
    """Inference of a cell whose inputs declare the batch dynamic (set_inputs) cannot hold a float of it:
    the error names the user's line and the fix."""
    net = _Loss(FORMS["float()"][0])
    net.set_inputs(ms.Tensor(shape=[None, 3], dtype=ms.float32), ms.Tensor(shape=[None, 2], dtype=ms.float32))
    x, y = _batches()[0]
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        with pytest.raises(StaticDimRequired, match=r"test_float_dims.py:\d+: float\(\) of a dim makes a "
                                                    r"Python float of it.*divide by the int"):
            net(x, y)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
