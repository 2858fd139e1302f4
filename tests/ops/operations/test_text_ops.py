"""ops.EditDistance, NoRepeatNGram, ComputeAccidentalHits and MatrixSolveLs against MindSpore 2.10 on CPU
(tests/fixtures/mindspore/gen_pending_ops.py) and the examples of MindSpore's docstrings
(ComputeAccidentalHits has no CPU kernel); gradients of NoRepeatNGram and MatrixSolveLs are checked in
tests/ops/cases_text.py."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import ops
from tests.tolerance import assert_close

FIX = Path(__file__).parents[2] / "fixtures/mindspore/pending_ops"
T = ms.Tensor


@pytest.mark.parametrize("normalize", [True, False])
def test_edit_distance_matches_mindspore(normalize):
    f = np.load(FIX / "edit_distance.npz")
    got = ops.EditDistance(normalize)(*[T(f[k]) for k in ("hi", "hv", "hs", "ti", "tv", "ts")])
    assert got.dtype == ms.float32
    np.testing.assert_array_equal(got.asnumpy(), f[f"y{int(normalize)}"])


def test_edit_distance_docstring_example_and_empty_truth():
    i64 = np.int64
    out = ops.EditDistance()(T(np.array([[0, 0, 0], [1, 0, 1], [1, 1, 1]], i64)),
                             T(np.array([1, 2, 3], np.float32)), T(np.array([1, 1, 2], i64)),
                             T(np.array([[0, 1, 0], [0, 0, 1], [1, 1, 0], [1, 0, 1]], i64)),
                             T(np.array([1, 3, 2, 1], np.float32)), T(np.array([2, 2, 2], i64)))
    np.testing.assert_array_equal(out.asnumpy(), np.ones((2, 2), np.float32))
    out = ops.EditDistance()(T(np.array([[0, 0]], i64)), T(np.array([1.0], np.float32)),
                             T(np.array([1, 1], i64)), T(np.zeros((0, 2), i64)), T(np.zeros(0, np.float32)),
                             T(np.array([1, 1], i64)))
    assert np.isinf(out.asnumpy()[0])


@pytest.mark.parametrize("n", [1, 2, 3])
def test_no_repeat_ngram_matches_mindspore(n):
    f = np.load(FIX / "misc.npz")
    got = ops.NoRepeatNGram(n)(T(f["ngram_seq"]), T(f["ngram_logp"]))
    np.testing.assert_array_equal(got.asnumpy(), f[f"ngram{n}"])


def test_no_repeat_ngram_docstring_example_and_errors():
    seq = T(np.array([[[1, 2, 1, 2, 5, 1, 2], [9, 3, 9, 5, 4, 1, 5]],
                      [[4, 8, 6, 4, 5, 6, 4], [4, 8, 8, 4, 3, 4, 8]]], np.int32))
    logp = T(np.full((2, 2, 10), 0.5, np.float32))
    out = ops.NoRepeatNGram(3)(seq, logp).asnumpy()
    banned = np.argwhere(out < -1e38).tolist()
    assert banned == [[0, 0, 1], [0, 0, 5], [1, 0, 5], [1, 1, 8]]
    with pytest.raises(ValueError, match="ngram_size"):
        ops.NoRepeatNGram(0)
    with pytest.raises(ValueError, match="ngram_size"):
        ops.NoRepeatNGram(8)(seq, logp)


def test_compute_accidental_hits_docstring_example():
    indices, ids, weights = ops.ComputeAccidentalHits(2)(T(np.array([[1, 2], [0, 4], [3, 3]])),
                                                         T(np.array([0, 1, 2, 3, 4])))
    assert (indices.dtype, ids.dtype, weights.dtype) == (ms.int32, ms.int64, ms.float32)
    np.testing.assert_array_equal(indices.asnumpy(), [0, 0, 1, 1, 2, 2])
    np.testing.assert_array_equal(ids.asnumpy(), [1, 2, 0, 4, 3, 3])
    np.testing.assert_array_equal(weights.asnumpy(), np.full(6, -np.finfo(np.float32).max, np.float32))
    with pytest.raises(ValueError, match="num_true"):
        ops.ComputeAccidentalHits(3)(T(np.array([[1, 2]])), T(np.array([0, 1])))


@pytest.mark.parametrize("name", ["f32", "f64"])
@pytest.mark.parametrize("fast", [True, False])
def test_matrix_solve_ls_matches_mindspore(name, fast):
    f = np.load(FIX / "misc.npz")
    for j, l2 in enumerate((0.0, 0.3)):
        got = ops.MatrixSolveLs(fast)(T(f[f"ls_a_{name}"]), T(f[f"ls_b_{name}"]), T(np.float64(l2)))
        want = f[f"ls_{name}{int(fast)}{j}"]
        assert got.asnumpy().dtype == want.dtype
        assert_close(got.asnumpy(), want, rtol=1e-5 if name == "f32" else 1e-12)
    wide = ops.MatrixSolveLs()(T(f["ls_wide_a"]), T(f["ls_wide_b"]), T(np.float64(0.1)))
    assert_close(wide.asnumpy(), f["ls_wide"], rtol=1e-12)


def test_matrix_solve_ls_errors():
    a = T(np.ones((3, 2), np.float32))
    with pytest.raises(TypeError, match="l2_regularizer"):
        ops.MatrixSolveLs()(a, a, T(np.float32(0.1)))
    with pytest.raises(TypeError, match="same dtype"):
        ops.MatrixSolveLs()(a, T(np.ones((3, 2))), T(np.float64(0.1)))
    with pytest.raises(TypeError, match="fast"):
        ops.MatrixSolveLs(1)


@pytest.mark.parametrize("i, start, size", [(0, [0, 1], [2, 3]), (1, [1, 0], [5, 5]), (2, [3, 4], [1, 2])])
def test_sparse_slice_matches_mindspore(i, start, size):
    f = np.load(FIX / "misc.npz")
    i64 = np.int64
    got = ops.SparseSlice()(T(f["ss_idx"]), T(f["ss_val"]), T(np.array([4, 5], i64)), T(np.array(start, i64)),
                            T(np.array(size, i64)))
    for g, key in zip(got, ("idx", "val", "shape")):
        assert g.asnumpy().dtype == f[f"ss{i}_{key}"].dtype
        np.testing.assert_array_equal(g.asnumpy(), f[f"ss{i}_{key}"])


def test_sparse_slice_values_get_gradients():
    i64 = np.int64
    idx = T(np.array([[0, 1], [1, 2], [2, 0]], i64))
    grad = ms.grad(lambda v: ops.SparseSlice()(idx, v, T(np.array([3, 3], i64)), T(np.array([0, 1], i64)),
                                               T(np.array([2, 2], i64)))[1].sum())(T(np.ones(3, np.float32)))
    np.testing.assert_array_equal(grad.asnumpy(), [1, 1, 0])
