"""Optimizer updates with row-sparse gradients against real MXNet 1.9.1: which updates touch the gradient's
rows alone (lazy SGD / Adam, Ftrl on a row-sparse weight, AdaGrad) and which the whole weight, and where
MXNet refuses (sparse AdaGrad with weight decay). Rows: sparse_update_cases.py; fixture:
tests/fixtures/mxnet/sparse_updates.npz written by gen_sparse_updates.py."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import cellonnx.mxnet as mx
from tests.mxnet import sparse_update_cases
from tests.tolerance import assert_close

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet" / "sparse_updates.npz"
WANT = dict(np.load(FIXTURE))
REFUSED = set(WANT["refused"].tolist())


@pytest.mark.parametrize("case", sparse_update_cases.CASES, ids=[c[0] for c in sparse_update_cases.CASES])
def test_update_matches_mxnet(case: tuple) -> None:
    case_id, name, kwargs, stype = case
    got = sparse_update_cases.run(mx, name, kwargs, stype)
    if case_id in REFUSED:
        assert got is None, f"{case_id}: MXNet refuses this update, cellonnx made it"
        return
    assert got is not None, f"{case_id}: refused, MXNet updates"
    assert_close(got, WANT[case_id], rtol=1e-5, scale_rtol=1e-6, what=case_id)


def test_trainer_lazy_update_touches_the_gradient_rows() -> None:
    """gluon.Trainer takes the same sparse kernels for a parameter with grad_stype='row_sparse'."""
    emb = mx.gluon.nn.Embedding(5, 3, sparse_grad=True)
    emb.initialize(mx.init.Constant(1.0))
    trainer = mx.gluon.Trainer(emb.collect_params(), "adam", {"learning_rate": 0.1, "wd": 0.1})
    with mx.autograd.record():
        loss = emb(mx.nd.array([1, 3])).sum()
    loss.backward()
    trainer.step(1)
    weight = emb.weight.data().asnumpy()
    assert np.all(weight[[0, 2, 4]] == 1.0) and np.all(weight[[1, 3]] < 1.0)
