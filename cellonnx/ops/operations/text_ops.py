"""MindSpore's sequence operator classes for text models (``ops.EditDistance``, ``ops.NoRepeatNGram``,
``ops.ComputeAccidentalHits``) and ``ops.MatrixSolveLs``: table rows (see table.py).

EditDistance and ComputeAccidentalHits read their inputs' values (sparse sequences, matching classes), so they
run in NumPy and give no gradient. NoRepeatNGram masks ``log_probs`` with ``where`` (gradient and lowering
from it; the mask comes from the values of ``state_seq``). MatrixSolveLs is written over matmul,
matrix_solve and pinv, so it is differentiable.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import dtypes
from cellonnx.ops import registry
from cellonnx.ops.operations.table import Row, build
from cellonnx.tensor import Tensor


def _ops() -> Any:
    import cellonnx.ops as ops
    return ops


def _eager(op: str, why: str) -> None:
    if registry.ACTIVE_TRACER is not None:
        raise NotImplementedError(f"ops.{op} cannot be exported to ONNX: {why}; it runs eagerly only")


def _array(value: Any, name: str, op: str) -> np.ndarray:
    if not isinstance(value, Tensor):
        raise TypeError(f"For '{op}', '{name}' must be a Tensor, but got {type(value).__name__}.")
    return value.asnumpy()


def _check_bool(prim: Any, attr: str) -> None:
    if not isinstance(getattr(prim, attr), bool):
        raise TypeError(f"For '{prim.name}', the '{attr}' must be a bool, but got "
                        f"{type(getattr(prim, attr)).__name__}.")


def _levenshtein(a: list, b: list) -> int:
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (x != y))
    return row[-1]


def _groups(indices: np.ndarray, values: np.ndarray) -> dict[tuple, list]:
    """The sequences of a sparse tensor: its entries grouped by all but their last index, in index order."""
    out: dict[tuple, list] = {}
    for k in np.lexsort(indices.T[::-1]) if len(indices) else []:
        out.setdefault(tuple(int(v) for v in indices[k, :-1]), []).append(values[k])
    return out


def _edit_distance(hypothesis_indices: Any, hypothesis_values: Any, hypothesis_shape: Any, truth_indices: Any,
                   truth_values: Any, truth_shape: Any, normalize: bool) -> Tensor:
    """Levenshtein distance of each hypothesis sequence to its truth sequence (divided by the truth's length
    when ``normalize``: an empty truth gives inf, or 0 with an empty hypothesis), float32 of rank R - 1."""
    op = "EditDistance"
    _eager(op, "the distances are computed from the sequences' values")
    hi, hv, hs = (_array(v, n, op) for v, n in ((hypothesis_indices, "hypothesis_indices"),
                                                (hypothesis_values, "hypothesis_values"),
                                                (hypothesis_shape, "hypothesis_shape")))
    ti, tv, ts = (_array(v, n, op) for v, n in ((truth_indices, "truth_indices"),
                                                (truth_values, "truth_values"), (truth_shape, "truth_shape")))
    for name, idx, val, shape in (("hypothesis", hi, hv, hs), ("truth", ti, tv, ts)):
        if idx.ndim != 2 or val.ndim != 1 or shape.ndim != 1 or idx.shape[0] != val.shape[0] \
                or idx.shape[1] != shape.shape[0]:
            raise ValueError(f"For '{op}', the {name} SparseTensor must have indices (N, R), values (N,) and "
                             f"shape (R,), but got {idx.shape}, {val.shape} and {shape.shape}.")
    if hs.shape != ts.shape:
        raise ValueError(f"For '{op}', hypothesis_shape and truth_shape must have the same rank, but got "
                         f"{hs.shape[0]} and {ts.shape[0]}.")
    out_shape = tuple(int(v) for v in np.maximum(hs[:-1], ts[:-1]))
    hyp, truth = _groups(hi, hv), _groups(ti, tv)
    out = np.zeros(out_shape, np.float32)
    for key in set(hyp) | set(truth):
        h, t = hyp.get(key, []), truth.get(key, [])
        d = float(_levenshtein(h, t))
        if normalize:
            d = d / len(t) if t else (np.inf if h else 0.0)
        out[key] = d
    return Tensor(out)


def _setup_ngram(prim: Any) -> None:
    n = prim.ngram_size
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"For '{prim.name}', the 'ngram_size' must be an int, but got {type(n).__name__}.")
    if n < 1:
        raise ValueError(f"For '{prim.name}', the 'ngram_size' must be greater than 0, but got {n}.")


def _no_repeat_ngram(state_seq: Any, log_probs: Any, ngram_size: int) -> Tensor:
    """``log_probs`` with -max (its dtype's) at every word that would repeat an n-gram already in
    ``state_seq``: the words that followed an earlier occurrence of the sequence's last n - 1 words."""
    op = "NoRepeatNGram"
    seq = _array(state_seq, "state_seq", op)
    if not isinstance(log_probs, Tensor):
        raise TypeError(f"For '{op}', 'log_probs' must be a Tensor, but got {type(log_probs).__name__}.")
    if seq.dtype.kind not in "iu":
        raise TypeError(f"For '{op}', the dtype of 'state_seq' must be int, but got {state_seq.dtype}.")
    fdtype = dtypes.to_numpy(log_probs.dtype)
    if fdtype.kind != "f":
        raise TypeError(f"For '{op}', the dtype of 'log_probs' must be float, but got {log_probs.dtype}.")
    if seq.ndim != 3 or log_probs.ndim != 3:
        raise ValueError(f"For '{op}', state_seq and log_probs must be 3-D, but got shapes {seq.shape} and "
                         f"{tuple(log_probs.shape)}.")
    if seq.shape[:2] != tuple(int(v) for v in log_probs.shape[:2]):
        raise ValueError(f"For '{op}', the batch_size and beam_width of state_seq {seq.shape[:2]} and "
                         f"log_probs {tuple(log_probs.shape[:2])} must be equal.")
    m, n = seq.shape[2], ngram_size
    if n > m:
        raise ValueError(f"For '{op}', the 'ngram_size' must be less than or equal to m = {m}, but got {n}.")
    # the words each (batch, beam) row bans, padded with -1; the mask compares them with the vocabulary's
    # word ids, so a graph follows a vocabulary of any size (a word past it bans nothing)
    banned = [[sorted({int(s[i + n - 1]) for i in range(m - n + 1)
                       if np.array_equal(s[i:i + n - 1], s[m - n + 1:]) and s[i + n - 1] >= 0})
               for s in row] for row in seq]
    table = np.full((*seq.shape[:2], max([1] + [len(w) for row in banned for w in row])), -1, np.int64)
    for (b, w), words in zip(np.ndindex(*seq.shape[:2]), (w for row in banned for w in row)):
        table[b, w, :len(words)] = words
    ops = _ops()
    ids = ops.arange(log_probs.shape[2])
    mask = ops.any(ops.equal(ops.expand_dims(Tensor(table), -1), ids), -2)
    return ops.where(mask, Tensor(np.array(-np.finfo(fdtype).max, fdtype)), log_probs)


def _setup_num_true(prim: Any) -> None:
    if isinstance(prim.num_true, bool) or not isinstance(prim.num_true, int):
        raise TypeError(f"For '{prim.name}', the 'num_true' must be an int, but got "
                        f"{type(prim.num_true).__name__}.")


def _accidental_hits(true_classes: Any, sampled_candidates: Any, num_true: int) -> tuple[Tensor, Tensor,
                                                                                         Tensor]:
    """(example indices int32, candidate positions int64, weights -FLT_MAX float32) of every sampled
    candidate that equals one of an example's true classes, by example, true class, candidate."""
    op = "ComputeAccidentalHits"
    _eager(op, "how many hits there are depends on the values")
    true = _array(true_classes, "true_classes", op)
    sampled = _array(sampled_candidates, "sampled_candidates", op)
    for name, arr in (("true_classes", true), ("sampled_candidates", sampled)):
        if arr.dtype not in (np.int32, np.int64):
            raise TypeError(f"For '{op}', the dtype of '{name}' must be int32 or int64, but got {arr.dtype}.")
    if true.ndim != 2 or true.shape[1] != num_true:
        raise ValueError(f"For '{op}', 'true_classes' must be (batch_size, num_true = {num_true}), but got "
                         f"shape {true.shape}.")
    if sampled.ndim != 1:
        raise ValueError(f"For '{op}', 'sampled_candidates' must be 1-D, but got shape {sampled.shape}.")
    where: dict[int, list[int]] = {}
    for k, v in enumerate(sampled.tolist()):
        where.setdefault(v, []).append(k)
    hits = [(i, k) for i in range(true.shape[0]) for t in true[i].tolist() for k in where.get(t, [])]
    indices = np.array([h[0] for h in hits], np.int32)
    ids = np.array([h[1] for h in hits], np.int64)
    weights = np.full(len(hits), -np.finfo(np.float32).max, np.float32)
    return Tensor(indices), Tensor(ids), Tensor(weights)


_LS_DTYPES = ("float32", "float64", "complex64", "complex128")


def _matrix_solve_ls(matrix: Any, rhs: Any, l2_regularizer: Any, fast: bool) -> Tensor:
    """Least-squares solutions X of ``matrix @ X = rhs``: with ``fast``, by the regularised normal equations
    (``(A^H A + l2 I)^-1 A^H B``, or ``A^H (A A^H + l2 I)^-1 B`` when A is wide); otherwise the minimum-norm
    solution ``pinv(A) @ B``, the regulariser unused (as MindSpore's CPU kernel gives)."""
    op = "MatrixSolveLs"
    ops = _ops()
    for name, t in (("matrix", matrix), ("rhs", rhs), ("l2_regularizer", l2_regularizer)):
        if not isinstance(t, Tensor):
            raise TypeError(f"For '{op}', '{name}' must be a Tensor, but got {type(t).__name__}.")
    if dtypes.to_numpy(matrix.dtype).name not in _LS_DTYPES or matrix.dtype != rhs.dtype:
        raise TypeError(f"For '{op}', matrix and rhs must have the same dtype, one of {list(_LS_DTYPES)}, "
                        f"but got {matrix.dtype} and {rhs.dtype}.")
    if l2_regularizer.dtype != dtypes.float64 or l2_regularizer.ndim != 0:
        raise TypeError(f"For '{op}', 'l2_regularizer' must be a float64 scalar Tensor, but got "
                        f"{l2_regularizer.dtype} of shape {tuple(l2_regularizer.shape)}.")
    if matrix.ndim < 2 or rhs.ndim < 2 or matrix.ndim != rhs.ndim or \
            tuple(matrix.shape[:-1]) != tuple(rhs.shape[:-1]):
        raise ValueError(f"For '{op}', matrix (*, M, N) and rhs (*, M, K) must agree but in their last dim, "
                         f"but got {tuple(matrix.shape)} and {tuple(rhs.shape)}.")
    if not fast:
        return ops.matmul(ops.pinv(matrix), rhs)
    m, n = int(matrix.shape[-2]), int(matrix.shape[-1])
    adj = ops.swapaxes(matrix, -1, -2)
    if matrix.dtype in (dtypes.complex64, dtypes.complex128):
        adj = ops.conj(adj)
    l2 = ops.cast(l2_regularizer, matrix.dtype)
    if m >= n:
        gram = ops.matmul(adj, matrix) + l2 * ops.eye(n, n, matrix.dtype)
        return ops.matrix_solve(gram, ops.matmul(adj, rhs))
    gram = ops.matmul(matrix, adj) + l2 * ops.eye(m, m, matrix.dtype)
    return ops.matmul(adj, ops.matrix_solve(gram, rhs))


def _setup_fast(prim: Any) -> None:
    _check_bool(prim, "fast")


ROWS = [
    Row("EditDistance", "normalize=True", "hypothesis_indices, hypothesis_values, hypothesis_shape, "
        "truth_indices, truth_values, truth_shape",
        "_edit_distance(hypothesis_indices, hypothesis_values, hypothesis_shape, truth_indices, "
        "truth_values, truth_shape, normalize)", lambda prim: _check_bool(prim, "normalize"),
        summary="The Levenshtein distances between sparse hypothesis and truth sequences.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> hypothesis_indices = Tensor(np.array([[0, 0, 0], [1, 0, 1], [1, 1, 1]]), ms.int64)
        >>> hypothesis_values = Tensor(np.array([1, 2, 3]), ms.float32)
        >>> hypothesis_shape = Tensor(np.array([1, 1, 2]), ms.int64)
        >>> truth_indices = Tensor(np.array([[0, 1, 0], [0, 0, 1], [1, 1, 0], [1, 0, 1]]), ms.int64)
        >>> truth_values = Tensor(np.array([1, 3, 2, 1]), ms.float32)
        >>> truth_shape = Tensor(np.array([2, 2, 2]), ms.int64)
        >>> op = ops.EditDistance()
        >>> print(op(hypothesis_indices, hypothesis_values, Tensor(np.array([2, 2, 2]), ms.int64),
        ...      truth_indices, truth_values, truth_shape))
        [[1. 1.]
         [1. 1.]]
        """),
    Row("NoRepeatNGram", "ngram_size=1", "state_seq, log_probs", "_no_repeat_ngram(state_seq, log_probs, "
        "ngram_size)", _setup_ngram,
        summary="Sets to -FLT_MAX the log-probabilities of tokens repeating an n-gram of ``state_seq``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> state_seq = Tensor(np.array([[[1, 2, 1]]]), ms.int32)
        >>> log_probs = Tensor(np.array([[[0.1, 0.2, 0.3, 0.4]]]), ms.float32)
        >>> print(ops.NoRepeatNGram(ngram_size=2)(state_seq, log_probs))
        [[[ 1.0000000e-01  2.0000000e-01 -3.4028235e+38  4.0000001e-01]]]
        """),
    Row("ComputeAccidentalHits", "num_true=1", "true_classes, sampled_candidates",
        "_accidental_hits(true_classes, sampled_candidates, num_true)", _setup_num_true,
        summary="Where sampled candidates equal a true class, with weights of -FLT_MAX to mask them.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> true_classes = Tensor(np.array([[1, 2], [0, 4], [3, 3]]), ms.int64)
        >>> sampled_candidates = Tensor(np.array([0, 1, 2, 3, 4]), ms.int64)
        >>> indices, ids, weights = ops.ComputeAccidentalHits(2)(true_classes, sampled_candidates)
        >>> print(indices, ids)
        [0 0 1 1 2 2] [1 2 0 4 3 3]
        >>> print(weights)
        [-3.4028235e+38 -3.4028235e+38 -3.4028235e+38 -3.4028235e+38
         -3.4028235e+38 -3.4028235e+38]
        """),
    Row("MatrixSolveLs", "fast=True", "matrix, rhs, l2_regularizer",
        "_matrix_solve_ls(matrix, rhs, l2_regularizer, fast)", _setup_fast,
        summary="The least-squares solutions of ``matrix @ X = rhs`` with an optional L2 regularizer.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> matrix = Tensor(np.array([[3.0, 0.0], [2.0, 1.0], [1.0, 0.0]]), ms.float32)
        >>> rhs = Tensor(np.array([[3.0], [3.0], [1.0]]), ms.float32)
        >>> print(ops.MatrixSolveLs()(matrix, rhs, Tensor(0.0, ms.float64)).asnumpy().round(4))
        [[1.]
         [1.]]
        """),
]

CLASSES = build(ROWS, globals())
globals().update(CLASSES)
__all__ = list(CLASSES)
