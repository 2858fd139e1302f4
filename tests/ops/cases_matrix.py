"""Rows for TridiagonalMatMul and ConfusionMatrix (cellonnx/ops/operations/matrix_ops.py) against dense NumPy
references: the tridiagonal matrix built out, and the counts of each (label, prediction) pair. The
documented ConfusionMatrix example is checked in tests/ops/operations/test_matrix_ops.py (MindSpore's CPU
build has no ConfusionMatrix kernel to write a fixture)."""
from __future__ import annotations

import numpy as np

from cellonnx import Tensor, ops
from tests.ops.harness import OpCase, rand


def ref_tridiagonal(up, main, low, rhs):
    m = main.shape[-1]
    a = np.zeros(main.shape[:-2] + (m, m))
    idx = np.arange(m)
    a[..., idx, idx] = main[..., 0, :]
    a[..., idx[:-1], idx[1:]] = up[..., 0, :-1]
    a[..., idx[1:], idx[:-1]] = low[..., 0, 1:]
    return a @ rhs


LABELS = np.array([0, 1, 1, 3, 2, 1, 0])
PREDS = np.array([0, 2, 1, 3, 1, 1, 3])


def ref_confusion(w):
    out = np.zeros((4, 4))
    np.add.at(out, (LABELS, PREDS), w)
    return out


CASES = [
    OpCase("tridiagonal_matmul", lambda a, b, c, r: ops.TridiagonalMatMul()(a, b, c, r),
           [rand(2, 1, 5, seed=801), rand(2, 1, 5, seed=802), rand(2, 1, 5, seed=803),
            rand(2, 5, 3, seed=804)],
           ref_tridiagonal, second_order=True),
    OpCase("confusion_matrix_weights",
           lambda w: ops.ConfusionMatrix(4, "float32")(Tensor(LABELS.astype(np.int32)),
                                                       Tensor(PREDS.astype(np.int32)), w),
           [rand(7, seed=805)], ref_confusion, grad=()),
]
