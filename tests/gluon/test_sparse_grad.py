"""Gluon's row-sparse gradients against MXNet 1.9.1 (tests/fixtures/mxnet/gen_sparse_grad.py): an Embedding
with ``sparse_grad=True`` gives ``weight.grad()`` as a RowSparseNDArray of the rows looked up, and
gluon.Trainer's lazy updates (SGD, SGD with momentum, Adam; weight decay on) change only those rows and their
optimizer states, the standard updates every row."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cellonnx.mxnet import autograd, gluon, nd
from tests.tolerance import assert_close

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet"
sys.path.insert(0, str(FIXTURES))
from gen_sparse_grad import CASES, probe_key, sparse_grad_inputs  # noqa: E402

X = sparse_grad_inputs()
with np.load(FIXTURES / "sparse_grad.npz") as _f:
    WANT = {k: _f[k] for k in _f.files}


def _train(name: str, params: dict, steps: int = 3, hybridize: bool = False, probe: str = "probe"
           ) -> tuple[Any, list]:
    emb = gluon.nn.Embedding(10, 4, sparse_grad=True)
    emb.initialize()
    emb.weight.set_data(nd.array(X["table"]))
    if hybridize:
        emb.hybridize()
    trainer = gluon.Trainer(emb.collect_params(), name, dict(params), kvstore=None)
    grads = []
    for step in range(steps):
        with autograd.record():
            loss = (emb(nd.array(X[f"batch{step}"])) * nd.array(X[probe][step])).sum()
        loss.backward()
        grads.append(emb.weight.grad())
        trainer.step(2)
    return emb, grads


@pytest.mark.parametrize("hybridize", [False, True], ids=["eager", "hybridized"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_training_matches_mxnet(case: str, hybridize: bool) -> None:
    """Eager, and hybridized (the compiled forward returns the rows it looked up): the gradient's rows
    are those looked up, a row with a zero gradient included, as MXNet's."""
    emb, grads = _train(*CASES[case], hybridize=hybridize, probe=probe_key(case))
    first = grads[0]
    assert first.stype == str(WANT[f"{case}/stype"])
    np.testing.assert_array_equal(first.indices.asnumpy(), WANT[f"{case}/grad_indices"])
    assert_close(first.data.asnumpy(), WANT[f"{case}/grad_data"], 1e-6, 1e-7, f"{case}: first gradient")
    assert_close(emb.weight.data().asnumpy(), WANT[f"{case}/weight"], 1e-5, 1e-6, f"{case}: weights")


def test_rows_looked_up_are_kept_when_their_gradient_is_zero() -> None:
    """MXNet's row-sparse gradient holds the rows the lookup read, a zero gradient row included (so a lazy
    update still applies weight decay to it)."""
    emb = gluon.nn.Embedding(6, 2, sparse_grad=True)
    emb.initialize()
    with autograd.record():
        loss = (emb(nd.array([1, 4])) * nd.array([[1.0, 1.0], [0.0, 0.0]])).sum()
    loss.backward()
    g = emb.weight.grad()
    assert g.stype == "row_sparse" and g.indices.asnumpy().tolist() == [1, 4]
    np.testing.assert_array_equal(g.data.asnumpy(), [[1.0, 1.0], [0.0, 0.0]])
    assert_close(g.asnumpy(), np.array([[0, 0], [1, 1], [0, 0], [0, 0], [0, 0], [0, 0]], np.float32), 0, 0,
                 "dense value")


def test_grad_req_add_accumulates_rows_until_zero_grad() -> None:
    emb = gluon.nn.Embedding(6, 2, sparse_grad=True)
    emb.initialize()
    emb.weight.grad_req = "add"
    for idx in ([0], [3]):
        with autograd.record():
            emb(nd.array(idx)).sum().backward()
    assert emb.weight.grad().indices.asnumpy().tolist() == [0, 3]
    emb.weight.zero_grad()
    assert emb.weight.grad().indices.asnumpy().tolist() == []


