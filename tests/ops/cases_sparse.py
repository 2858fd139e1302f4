"""Rows for the sparse tensors and functions (cellonnx/sparse, composite/sparse.py and sparse_unary.py).

A row builds COOTensors / CSRTensors from its (float values, integer positions) inputs and returns Tensors:
the dense form, or the parts of a sparse result. References are NumPy over the dense matrices. Gradients
are taken with respect to the values; in the lowering check the positions are graph inputs too, so the
data-dependent results (dense_to_sparse_*, coalesce, coo_add) run through NonZero / Unique in onnxruntime.
"""
from __future__ import annotations

import itertools

import numpy as np

from cellonnx import ops
from cellonnx.sparse import COOTensor, CSRTensor
from cellonnx.tensor import Tensor
from tests.ops.harness import OpCase, positive, rand

I32 = np.int32
COO_IDX = np.array([[0, 1], [2, 3], [0, 1], [1, 0]], I32)           # (0, 1) twice
COO_VAL = rand(4, seed=111)
INDPTR = np.array([0, 2, 2, 4], I32)
COLS = np.array([0, 3, 1, 2], I32)
CSR_VAL = rand(4, seed=112)
DENSE = np.array([[0.0, 1.5, 0.0, -2.0], [0.0, 0.0, 0.0, 0.0], [3.0, 0.0, 0.5, 0.0]])


def _coo_dense(idx, val, shape=(3, 4)):
    out = np.zeros(shape)
    np.add.at(out, tuple(idx.T), val)
    return out


def _csr_rows(indptr):
    return np.repeat(np.arange(len(indptr) - 1), np.diff(indptr))


def _csr_dense(indptr, cols, val, shape=(3, 4)):
    out = np.zeros(shape)
    out[_csr_rows(indptr), cols] = val
    return out


def _coo(i, v, shape=(3, 4)):
    return COOTensor(i, v, shape)


def _csr(p, c, v, shape=(3, 4)):
    return CSRTensor(p, c, v, shape)


def _sorted_nonzero(dense):
    rows, cols = np.nonzero(dense)
    return np.stack([rows, cols], 1), dense[rows, cols]


def _softmax_rows(indptr, val):
    out = val.copy()
    for a, b in itertools.pairwise(indptr):
        if b > a:
            e = np.exp(val[a:b] - val[a:b].max())
            out[a:b] = e / e.sum()
    return out


def _coo_add_ref(i1, v1, i2, v2, thresh):
    d1, d2 = _coo_dense(i1, v1), _coo_dense(i2, v2)
    both = (_coo_dense(i1, np.ones(len(v1))) > 0) & (_coo_dense(i2, np.ones(len(v2))) > 0)
    either = (_coo_dense(i1, np.ones(len(v1))) > 0) | (_coo_dense(i2, np.ones(len(v2))) > 0)
    total = d1 + d2
    keep = either & ~(both & (np.abs(total) < thresh))
    rows, cols = np.nonzero(keep)
    return np.stack([rows, cols], 1), total[rows, cols]


NONZERO_NOTE = "a finite difference makes zeros non-zero and changes the output's length: the gradient of " \
               "the values is checked by dense_to_sparse_values_gradient"
B_INDPTR, B_COLS, B_VAL = np.array([0, 1, 1, 3], I32), np.array([0, 2, 3], I32), rand(3, seed=113)
MM_INDPTR, MM_COLS, MM_VAL = np.array([0, 1, 3], I32), np.array([2, 0, 1], I32), rand(3, seed=114)   # (2, 3)

CASES = [
    # ---- conversions ----
    OpCase("coo_to_dense", lambda v, i: _coo(i, v).to_dense(), [COO_VAL, COO_IDX],
           lambda v, i: _coo_dense(i, v)),
    OpCase("csr_to_dense", lambda v, p, c: ops.csr_to_dense(_csr(p, c, v)), [CSR_VAL, INDPTR, COLS],
           lambda v, p, c: _csr_dense(p, c, v)),
    OpCase("csr_to_dense_trailing_dims", lambda v, p, c: _csr(p, c, v, (3, 4, 2)).to_dense(),
           [rand(4, 2, seed=115), INDPTR, COLS],
           lambda v, p, c: np.stack([_csr_dense(p, c, v[:, k]) for k in range(2)], -1)),
    OpCase("dense_to_sparse_coo", lambda d: ops.dense_to_sparse_coo(d).to_tuple()[:2], [DENSE],
           lambda d: (_sorted_nonzero(d)[0].astype(I32), _sorted_nonzero(d)[1]), grad=(), note=NONZERO_NOTE),
    OpCase("dense_to_sparse_csr", lambda d: ops.dense_to_sparse_csr(d).to_tuple()[:3], [DENSE],
           lambda d: (np.array([0, 2, 2, 4], I32), np.array([1, 3, 0, 2], I32), _sorted_nonzero(d)[1]),
           grad=(), note=NONZERO_NOTE),
    OpCase("dense_to_sparse_values_gradient",
           lambda d: ops.dense_to_sparse_coo(d * Tensor(DENSE != 0)).values, [DENSE], lambda d: d[DENSE != 0],
           note="the non-zeros' gradient, with the pattern held fixed so finite differences keep it"),
    OpCase("csr_to_coo", lambda v, p, c: ops.csr_to_coo(_csr(p, c, v)).to_tuple()[:2],
           [CSR_VAL, INDPTR, COLS],
           lambda v, p, c: (np.stack([_csr_rows(p), c], 1).astype(I32), v)),
    OpCase("coo_to_csr", lambda v, i: _coo(i, v).to_csr().to_tuple()[:3], [COO_VAL, COO_IDX],
           lambda v, i: (np.array([0, 2, 3, 4], I32), np.array([1, 1, 0, 3], I32), v[[0, 2, 3, 1]])),
    OpCase("coalesce", lambda v, i: ops.coalesce(i, v, Tensor(np.array([3, 4]))),
           [COO_VAL, COO_IDX.T.astype(np.int64)],
           lambda v, i: (np.array([[0, 1, 2], [1, 0, 3]]), np.array([v[0] + v[2], v[3], v[1]]),
                         np.array([3, 4]))),
    OpCase("coo2csr", lambda r: ops.coo2csr(r, 4), [np.array([0, 0, 1, 3], I32)],
           lambda r: np.array([0, 2, 3, 3, 4], I32)),
    OpCase("csr2coo", lambda p: ops.csr2coo(p, 4), [INDPTR], lambda p: _csr_rows(p).astype(I32)),
    OpCase("csr_gather", lambda d, p, c: ops.csr_gather(p, c, d, (3, 4)), [DENSE, INDPTR, COLS],
           lambda d, p, c: d[_csr_rows(p), c]),
    # ---- arithmetic ----
    OpCase("coo_plus_dense", lambda v, d, i: _coo(i, v) + d, [COO_VAL, DENSE, COO_IDX],
           lambda v, d, i: _coo_dense(i, v) + d),
    OpCase("coo_times_dense", lambda v, d, i: (_coo(i, v) * d).values, [COO_VAL, DENSE, COO_IDX],
           lambda v, d, i: v * d[i[:, 0], i[:, 1]]),
    OpCase("coo_add",
           lambda v1, v2, i1, i2: ops.coo_add(_coo(i1, v1), _coo(i2, v2), Tensor(0.3)).to_tuple()[:2],
           [np.array([1.0, 2.0]), np.array([0.5, 4.0, -1.85]), np.array([[0, 1], [1, 2]]),
            np.array([[0, 0], [1, 1], [1, 2]])],
           lambda v1, v2, i1, i2: _coo_add_ref(i1, v1, i2, v2, 0.3),
           note="(1, 2) sums to 0.15 < thresh and is dropped; (0, 0) alone is kept though below it"),
    OpCase("coo_concat",
           lambda v1, v2, i1, i2: ops.coo_concat([_coo(i1, v1), _coo(i2, v2, (3, 2))], 1).to_tuple()[:2],
           [np.array([1.0, 2.0]), np.array([3.0, 4.0]), np.array([[0, 1], [2, 2]]),
            np.array([[0, 0], [1, 1]])],
           lambda v1, v2, i1, i2: _sorted_nonzero(np.concatenate([_coo_dense(i1, v1),
                                                                  _coo_dense(i2, v2, (3, 2))], 1))),
    OpCase("csr_mul_dense", lambda v, d, p, c: ops.csr_mul(_csr(p, c, v), d).values,
           [CSR_VAL, DENSE[:1], INDPTR, COLS],
           lambda v, d, p, c: v * d[0, c]),
    OpCase("csr_mul_number", lambda v, p, c: ops.csr_mul(_csr(p, c, v), 2.5), [CSR_VAL, INDPTR, COLS],
           lambda v, p, c: v * 2.5),
    OpCase("csr_div_column", lambda v, d, p, c: (_csr(p, c, v) / d).values,
           [CSR_VAL, positive(3, 1, seed=116), INDPTR, COLS], lambda v, d, p, c: v / d[_csr_rows(p), 0]),
    OpCase("csr_mv", lambda v, x, p, c: ops.csr_mv(_csr(p, c, v), x),
           [CSR_VAL, rand(4, 1, seed=117), INDPTR, COLS],
           lambda v, x, p, c: _csr_dense(p, c, v) @ x),
    OpCase("csr_mm_dense", lambda v, x, p, c: _csr(p, c, v).mm(x),
           [CSR_VAL, rand(4, 2, seed=118), INDPTR, COLS],
           lambda v, x, p, c: _csr_dense(p, c, v) @ x),
    OpCase("csr_mm_sparse",
           lambda v, w, p, c, q, k: ops.csr_mm(_csr(q, k, w, (2, 3)), _csr(p, c, v)).to_tuple()[:3],
           [CSR_VAL, MM_VAL, INDPTR, COLS, MM_INDPTR, MM_COLS],
           lambda v, w, p, c, q, k: _csr_mm_ref(_csr_dense(q, k, w, (2, 3)), _csr_dense(p, c, v))),
    OpCase("csr_reduce_sum_rows", lambda v, p, c: ops.csr_reduce_sum(_csr(p, c, v), 1),
           [CSR_VAL, INDPTR, COLS],
           lambda v, p, c: _csr_dense(p, c, v).sum(1, keepdims=True)),
    OpCase("csr_reduce_sum_columns", lambda v, p, c: _csr(p, c, v).sum(0), [CSR_VAL, INDPTR, COLS],
           lambda v, p, c: _csr_dense(p, c, v).sum(0, keepdims=True)),
    OpCase("csr_softmax", lambda v, p, c: ops.csr_softmax(_csr(p, c, v), v.dtype).values,
           [CSR_VAL, INDPTR, COLS],
           lambda v, p, c: _softmax_rows(p, v)),
    OpCase("csr_add", lambda v, w, p, c, q, k: ops.csr_add(_csr(p, c, v), _csr(q, k, w), Tensor(1.5),
                                                          Tensor(-2.0)).to_tuple()[:3],
           [CSR_VAL, B_VAL, INDPTR, COLS, B_INDPTR, B_COLS],
           lambda v, w, p, c, q, k: _csr_add_ref(p, c, v, q, k, w, 1.5, -2.0)),
    OpCase("csr_sub_operator", lambda v, w, p, c, q, k: (_csr(p, c, v) - _csr(q, k, w)).to_dense(),
           [CSR_VAL, B_VAL, INDPTR, COLS, B_INDPTR, B_COLS],
           lambda v, w, p, c, q, k: _csr_dense(p, c, v) - _csr_dense(q, k, w)),
    # ---- element-wise on the values ----
    OpCase("coo_sigmoid", lambda v, i: ops.coo_sigmoid(_coo(i, v)).values, [COO_VAL, COO_IDX],
           lambda v, i: 1 / (1 + np.exp(-v))),
    OpCase("csr_softsign", lambda v, p, c: ops.csr_softsign(_csr(p, c, v)).values, [CSR_VAL, INDPTR, COLS],
           lambda v, p, c: v / (1 + np.abs(v))),
    OpCase("csr_relu6", lambda v, p, c: ops.csr_relu6(_csr(p, c, v * 8.0)).values, [CSR_VAL, INDPTR, COLS],
           lambda v, p, c: np.clip(v * 8.0, 0, 6)),
    OpCase("coo_isinf", lambda v, i: ops.coo_isinf(_coo(i, v)).values, [np.array([1.0, np.inf, -np.inf, 0.0]),
                                                                       COO_IDX],
           lambda v, i: np.isinf(v)),
]


def _csr_mm_ref(a, b):
    pattern = (a != 0).astype(float) @ (b != 0).astype(float)
    rows, cols = np.nonzero(pattern)
    product = a @ b
    indptr = np.searchsorted(rows, np.arange(a.shape[0] + 1)).astype(I32)
    return indptr, cols.astype(I32), product[rows, cols]


def _csr_add_ref(p, c, v, q, k, w, alpha, beta):
    total = alpha * _csr_dense(p, c, v) + beta * _csr_dense(q, k, w)
    pattern = (_csr_dense(p, c, np.ones(len(v))) + _csr_dense(q, k, np.ones(len(w)))) > 0
    rows, cols = np.nonzero(pattern)
    return (np.searchsorted(rows, np.arange(p.shape[0])).astype(I32), cols.astype(I32), total[rows, cols])
