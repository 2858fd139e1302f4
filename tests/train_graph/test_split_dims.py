"""A compiled training step that splits over the batch: into a fixed number of pieces it stays one graph
(the pieces' sizes are graph values); into pieces counted from the batch (unbind, a split into pieces of a
given size) the trace raises StaticDimRequired and the step traces the batch static, a graph per size. Both
equal eager over batches of several sizes."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import nn, ops
from cellonnx.graph import train
from tests.train_graph.harness import check_trajectory, momentum_build

SIZES = (4, 2, 6, 4)   # traced first at 4

# name: (the loss of the pieces of the squared error, graphs the step holds over SIZES)
FORMS: dict[str, tuple[Callable[[Any], Any], int]] = {
    "tensor_split into 2 (one graph)": (
        lambda err: sum(p.sum() * (k + 1) for k, p in enumerate(ops.tensor_split(err, 2, 0))), 1),
    "unbind (a graph per size)": (
        lambda err: sum(r.sum() * (k + 1) for k, r in enumerate(ops.unbind(err, 0))), 3),
    "split into pieces of 2 (a graph per size)": (
        lambda err: sum(p.sum() * (k + 1) for k, p in enumerate(ops.split(err, 2, 0))), 3),
}


class _Loss(nn.Cell):
    def __init__(self, form: Callable[[Any], Any]) -> None:
        super().__init__()
        self.net = nn.Dense(3, 2)
        self.form = form

    def construct(self, x: Any, y: Any) -> Any:
        return self.form((self.net(x) - y) ** 2)


@pytest.mark.parametrize("form", sorted(FORMS))
def test_a_step_splitting_the_batch_equals_eager(form: str) -> None:
    make_loss, graphs = FORMS[form]
    rng = np.random.default_rng(0)
    batches = [(ms.Tensor(rng.standard_normal((n, 3)).astype(np.float32)),
                ms.Tensor(rng.standard_normal((n, 2)).astype(np.float32))) for n in SIZES]
    build = momentum_build(lambda: _Loss(make_loss), 0.01)
    check_trajectory(build, batches, what=form)
    assert len(train.compiled_steps(build.step)) == graphs
