"""Rows for ops.NoRepeatNGram (a mask over log_probs) and ops.MatrixSolveLs (normal equations or the
pseudo-inverse), called through the operator classes; float64 references written from MindSpore's documented
definitions. Their values are also compared with MindSpore 2.10 in tests/ops/operations/test_text_ops.py."""
from __future__ import annotations

import numpy as np

from cellonnx import ops
from cellonnx.tensor import Tensor
from tests.ops.harness import OpCase, rand

SEQ = np.array([[[1, 2, 1, 2, 5, 1, 2], [0, 3, 0, 3, 4, 1, 0]]], np.int32)


def _ngram_ref(logp, n):
    out = logp.copy()
    for b, w in np.ndindex(*SEQ.shape[:2]):
        s = SEQ[b, w]
        m = len(s)
        for i in range(m - n + 1):
            if list(s[i:i + n - 1]) == list(s[m - n + 1:]):
                out[b, w, s[i + n - 1]] = -np.finfo(np.float32).max
    return out


def _ls_ref(a, b, l2, fast):
    if not fast:
        return np.linalg.pinv(a) @ b
    at = np.swapaxes(a, -1, -2)
    m, n = a.shape[-2:]
    if m >= n:
        return np.linalg.solve(at @ a + l2 * np.eye(n), at @ b)
    return at @ np.linalg.solve(a @ at + l2 * np.eye(m), b)


def _l2(v):
    return Tensor(np.float64(v))


EAGER = "matrix_solve and pinv are eager only (ONNX has no solver), so MatrixSolveLs is too"

CASES = [
    OpCase("no_repeat_ngram_2", lambda p: ops.NoRepeatNGram(2)(Tensor(SEQ), p), [rand(1, 2, 6)],
           lambda p: _ngram_ref(p, 2), grad=(),
           note="the masked entries are -FLT_MAX: no finite differences"),
    OpCase("matrix_solve_ls_tall", lambda a, b: ops.MatrixSolveLs()(a, b, _l2(0.2)),
           [rand(2, 5, 3), rand(2, 5, 2, seed=1)], lambda a, b: _ls_ref(a, b, 0.2, True), rtol=1e-4,
           lower=False, note="float32 normal equations; " + EAGER),
    OpCase("matrix_solve_ls_wide", lambda a, b: ops.MatrixSolveLs()(a, b, _l2(0.5)),
           [rand(3, 4), rand(3, 2, seed=1)], lambda a, b: _ls_ref(a, b, 0.5, True), rtol=1e-4,
           lower=False, note="float32 normal equations; " + EAGER),
    OpCase("matrix_solve_ls_min_norm", lambda a, b: ops.MatrixSolveLs(False)(a, b, _l2(0.5)),
           [rand(4, 3), rand(4, 2, seed=1)], lambda a, b: _ls_ref(a, b, 0.5, False), rtol=1e-4,
           lower=False, note="float32 pseudo-inverse; " + EAGER),
]
