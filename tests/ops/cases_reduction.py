"""Rows for the reductions and statistics over primitives (cellonnx/ops/composite/reduction.py)."""
from __future__ import annotations

import numpy as np

from cellonnx import ops
from tests.ops.harness import OpCase, rand

M = rand(3, 5, seed=51)
NANS = np.array([[1.0, np.nan, 3.0, -2.0, 0.5], [np.nan, np.nan, np.nan, np.nan, np.nan],
                 [4.0, 2.0, np.nan, 6.0, -1.0]])
INTS = np.array([[1, 0, 3], [0, 0, 6]], dtype=np.int64)
TIES = np.array([[2.0, 1.0, 2.0, 2.0, 1.0], [0.0, 0.0, 6.0, 5.0, 5.0]])


def _median_ref(x, axis, keepdims=False, ignore_nan=False):
    """The lower median and the index a stable sort puts in the middle (first NaN for NaN slices)."""
    x = np.moveaxis(x, axis, -1)
    vals = np.empty(x.shape[:-1], x.dtype)
    idx = np.empty(x.shape[:-1], np.int64)
    for r in np.ndindex(x.shape[:-1]):
        row = x[r]
        order = np.argsort(row, kind="stable")
        nan = np.isnan(row)
        if ignore_nan:
            valid = int((~nan).sum())
            k = (valid - 1) // 2 if valid else (len(row) - 1) // 2
            vals[r], idx[r] = row[order[k]], order[k]
        elif nan.any():
            vals[r], idx[r] = np.nan, int(np.argmax(nan))
        else:
            k = (len(row) - 1) // 2
            vals[r], idx[r] = row[order[k]], order[k]
    if keepdims:
        vals, idx = np.expand_dims(vals, axis), np.expand_dims(idx, axis)
    return vals, idx


def _cov_ref(x, correction=1, fw=None, aw=None):
    return np.cov(x, ddof=correction, fweights=fw, aweights=aw)


def _histc_ref(x, bins, lo, hi):
    if lo == hi:
        lo, hi = x.min(), x.max()
    return np.histogram(x, bins, (lo, hi))[0].astype(np.float64)


CASES = [
    OpCase("all_axis", lambda x: ops.all(x > -0.5, 1), [M], lambda x: np.all(x > -0.5, 1)),
    OpCase("all_int_keep", lambda x: ops.all(x, 1, True), [INTS], lambda x: np.all(x, 1, keepdims=True)),
    OpCase("any_all_axes", lambda x: ops.any(x > 0.9), [M], lambda x: np.any(x > 0.9)),
    OpCase("any_int", lambda x: ops.any(x, 0), [INTS], lambda x: np.any(x, 0)),
    OpCase("count_nonzero", lambda x: ops.count_nonzero(x), [INTS],
           lambda x: np.count_nonzero(x).astype(np.int32)),
    OpCase("count_nonzero_axis_int64", lambda x: ops.count_nonzero(x, 1, True, "int64"), [INTS],
           lambda x: np.count_nonzero(x, 1, keepdims=True)),
    OpCase("nansum", lambda x: ops.nansum(x, 1), [NANS], lambda x: np.nansum(x, 1), grad=()),
    OpCase("nansum_grad", lambda x: ops.nansum(x, 0, True), [M], lambda x: np.sum(x, 0, keepdims=True)),
    OpCase("nanmean", lambda x: ops.nanmean(x, 1), [NANS[[0, 2]]], lambda x: np.nanmean(x, 1), grad=()),
    OpCase("nanmean_grad", lambda x: ops.nanmean(x), [M], np.mean),
    OpCase("median", lambda x: ops.median(x, 1), [M], lambda x: _median_ref(x, 1)),
    OpCase("median_ties_keepdims", lambda x: ops.median(x, -1, True), [TIES],
           lambda x: _median_ref(x, -1, True),
           grad=(), note="the index is the one a stable sort puts in the middle"),
    OpCase("median_axis0_int", lambda x: ops.median(x, 0), [INTS], lambda x: _median_ref(x, 0)),
    OpCase("median_nan", lambda x: ops.median(x), [NANS], lambda x: _median_ref(x, -1), grad=()),
    OpCase("nanmedian", lambda x: ops.nanmedian(x), [NANS], lambda x: _median_ref(x, -1, ignore_nan=True),
           grad=()),
    OpCase("quantile_scalar", lambda x: ops.quantile(x, 0.3), [M], lambda x: np.quantile(x, 0.3)),
    OpCase("quantile_tensor_q_axis", lambda x, q: ops.quantile(x, q, 1, True), [M,
                                                                                np.array([0.0, 0.25, 0.9])],
           lambda x, q: np.quantile(x, q, 1, keepdims=True), grad=(0,)),
    OpCase("quantile_nan", lambda x: ops.quantile(x, 0.5, 1), [NANS], lambda x: np.quantile(x, 0.5, 1),
           grad=()),
    OpCase("nanquantile", lambda x: ops.nanquantile(x, 0.75, 1), [NANS], lambda x: np.nanquantile(x, 0.75, 1),
           grad=()),
    OpCase("cov", lambda x: ops.cov(x), [M], _cov_ref, second_order=True),
    OpCase("cov_weights", lambda x, a: ops.cov(x, correction=0, fweights=ops.cast(ops.arange(1, 6), "int32"),
                                               aweights=a), [M, np.abs(rand(5, seed=52)) + 0.1],
           lambda x, a: _cov_ref(x, 0, np.arange(1, 6), a)),
    OpCase("cov_1d", lambda x: ops.cov(x), [M[0]], lambda x: np.cov(x)),
    OpCase("histc", lambda x: ops.histc(x, 4, -1.0, 1.0), [M], lambda x: _histc_ref(x, 4, -1.0, 1.0),
           grad=()),
    OpCase("histc_data_range", lambda x: ops.histc(x, 6), [M], lambda x: _histc_ref(x, 6, 0.0, 0.0), grad=(),
           note="min == max: the data's own range"),
    OpCase("bincount", lambda x: ops.bincount(x), [np.array([1, 1, 3, 0, 3, 3])],
           lambda x: np.bincount(x).astype(np.float32), lower=False,
           note="the length depends on the data (max + 1): read eagerly"),
    OpCase("bincount_weights_minlength", lambda x, w: ops.bincount(x, w, 6), [np.array([1, 1, 3]),
                                                                             np.array([0.5, 1.0, 2.0])],
           lambda x, w: np.bincount(x, w, 6), lower=False, grad=(),
           note="the length depends on the data; the result is float32 (as MindSpore), too coarse for a "
                "float64 finite-difference gradient"),
    OpCase("diff", lambda x: ops.diff(x), [M], lambda x: np.diff(x)),
    OpCase("diff_n2_prepend", lambda x, p: ops.diff(x, 2, 1, p), [M, rand(3, 1, seed=53)],
           lambda x, p: np.diff(x, 2, 1, prepend=p)),
    OpCase("diff_bool", lambda x: ops.diff(x > 0), [M], lambda x: np.diff(x > 0)),
    OpCase("diff_ext_append", lambda x, a: ops.diff_ext(x, 1, 0, append=a), [M, rand(1, 5, seed=54)],
           lambda x, a: np.diff(x, 1, 0, append=a)),
    OpCase("trapz", lambda y: ops.trapz(y), [M], lambda y: np.trapezoid(y) if hasattr(np, "trapezoid")
           else np.trapz(y)),
    OpCase("trapz_x", lambda y, x: ops.trapz(y, x, dim=0), [M, np.array([0.0, 1.0, 3.0])],
           lambda y, x: (np.trapezoid if hasattr(np, "trapezoid") else np.trapz)(y, x, axis=0)),
    OpCase("trapz_dx", lambda y: ops.trapz(y, dx=0.5, dim=1), [M],
           lambda y: (np.trapezoid if hasattr(np, "trapezoid") else np.trapz)(y, dx=0.5, axis=1)),
]
