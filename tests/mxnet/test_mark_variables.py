"""mx.autograd.mark_variables: backward writes ('write') or adds ('add') into the gradient arrays given, as
MXNet 1.9.1 does (rows: mark_variables_cases.py; fixture: tests/fixtures/mxnet/mark_variables.npz from
gen_mark_variables.py)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import cellonnx.mxnet as mx
from tests.mxnet import mark_variables_cases
from tests.tolerance import assert_close

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet" / "mark_variables.npz"
WANT = dict(np.load(FIXTURE))


@pytest.mark.parametrize("case", mark_variables_cases.CASES, ids=[c[0] for c in mark_variables_cases.CASES])
def test_gradient_arrays_match_mxnet(case: tuple) -> None:
    case_id, fn = case
    got = fn(mx)
    assert len(got) == int(WANT[f"{case_id}__n"])
    for i, g in enumerate(got):
        assert_close(g, WANT[f"{case_id}__{i}"], rtol=1e-6, scale_rtol=1e-6, what=f"{case_id} array {i}")


def test_attach_grad_after_mark_detaches_the_array() -> None:
    x, g = mx.nd.array([1.0, 2.0]), mx.nd.zeros(2)
    mx.autograd.mark_variables([x], [g])
    x.attach_grad()
    with mx.autograd.record():
        y = (x * 3).sum()
    y.backward()
    np.testing.assert_array_equal(g.asnumpy(), [0, 0])
    np.testing.assert_array_equal(x.grad.asnumpy(), [3, 3])
