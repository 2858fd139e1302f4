"""The operator classes that update a Parameter in place (Assign, ScatterAdd, IndexAdd, the optimizer
updates) return their output as MindSpore does: a Tensor holding the new values, not the Parameter itself
(so ``print(ops.ScatterAdd()(x, ...))`` prints numbers), while the Parameter takes the new values."""
from __future__ import annotations

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import Parameter, Tensor, ops

F32 = ms.float32


def _param(values: list) -> Parameter:
    return Parameter(Tensor(np.array(values), F32), name="x")


CASES = {
    "Assign": (lambda p: ops.Assign()(p, Tensor(np.array([5.0, 6.0]), F32)), [5.0, 6.0]),
    "AssignAdd": (lambda p: ops.AssignAdd()(p, Tensor(np.array([1.0, 1.0]), F32)), [2.0, 3.0]),
    "ScatterAdd": (lambda p: ops.ScatterAdd()(p, Tensor(np.array([1]), ms.int32),
                                              Tensor(np.array([3.0]), F32)), [1.0, 5.0]),
    "IndexAdd": (lambda p: ops.IndexAdd(axis=0)(p, Tensor(np.array([0]), ms.int32),
                                                Tensor(np.array([2.0]), F32)), [3.0, 2.0]),
    "ApplyGradientDescent": (lambda p: ops.ApplyGradientDescent()(p, Tensor(0.5, F32),
                                                                  Tensor(np.array([2.0, 2.0]), F32)),
                             [0.0, 1.0]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_inplace_operator_returns_a_tensor_of_the_new_values(name: str) -> None:
    run, want = CASES[name]
    p = _param([1.0, 2.0])
    out = run(p)
    out = out[0] if isinstance(out, tuple) else out
    assert not isinstance(out, Parameter), f"ops.{name} returned the Parameter itself"
    np.testing.assert_array_equal(out.asnumpy(), np.array(want, np.float32))
    np.testing.assert_array_equal(p.asnumpy(), np.array(want, np.float32))
    assert "Parameter" not in str(out)
