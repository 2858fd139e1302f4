"""mx.nd.sparse: MXNet 1.x's compressed sparse row (CSRNDArray) and row-sparse (RowSparseNDArray) arrays.

Both are NDArrays that hold their values densely: every operator, autograd and export treat them as the
dense array they stand for, and their components (``data``, ``indices``, ``indptr``) are read from the
nonzero values, in MXNet's order. What MXNet stores beyond the values is not kept: an explicit zero given in
a CSR's ``data`` and an all-zero row given to a row-sparse array read back as absent, and results of
arithmetic are dense NDArrays (MXNet keeps the sparse storage of some). ``dot`` gives MXNet's output storage
types: dense for csr x dense, row-sparse for csr^T x dense, CSR for dense x csr (dense with
``forward_stype='default'``).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.mxnet import _op
from cellonnx.mxnet._op._util import dtype_of
from cellonnx.mxnet.ndarray.ndarray import NDArray
from cellonnx.tensor import Tensor

__all__ = ["BaseSparseNDArray", "CSRNDArray", "RowSparseNDArray", "array", "cast_storage", "csr_matrix",
           "dot", "empty", "row_sparse_array", "zeros"]

STYPES = ("default", "csr", "row_sparse")


class BaseSparseNDArray(NDArray):
    """A sparse NDArray (its values held densely; see the module docstring)."""

    __slots__ = ()

    def tostype(self, stype: str) -> NDArray:
        return cast_storage(self, stype)

    def asscipy(self) -> Any:
        """The array as a scipy.sparse.csr_matrix."""
        import scipy.sparse

        return scipy.sparse.csr_matrix(self.asnumpy())

    def copy(self) -> NDArray:
        return _make(self._data.copy(), self.stype)


class CSRNDArray(BaseSparseNDArray):
    """A 2-D array in compressed sparse row storage: ``data`` (the nonzero values row by row),
    ``indices`` (their columns, int64) and ``indptr`` (where each row starts in them, int64)."""

    __slots__ = ()

    @property
    def stype(self) -> str:
        return "csr"

    @property
    def data(self) -> NDArray:  # type: ignore[override]
        dense = self._data
        return _nd(dense[dense != 0])

    @property
    def indices(self) -> NDArray:
        return _nd(np.nonzero(self._data)[1].astype(np.int64))

    @property
    def indptr(self) -> NDArray:
        counts = np.count_nonzero(self._data, axis=1)
        return _nd(np.concatenate([[0], np.cumsum(counts)]).astype(np.int64))


class RowSparseNDArray(BaseSparseNDArray):
    """An array of which only some rows (first-axis slices) are stored: ``data`` (those rows) and
    ``indices`` (their positions, int64, ascending)."""

    __slots__ = ()

    @property
    def stype(self) -> str:
        return "row_sparse"

    def _rows(self) -> np.ndarray:
        dense = self._data
        return np.nonzero(dense.reshape(dense.shape[0], -1).any(axis=1))[0].astype(np.int64)

    @property
    def data(self) -> NDArray:  # type: ignore[override]
        return _nd(self._data[self._rows()])

    @property
    def indices(self) -> NDArray:
        return _nd(self._rows())


def _nd(arr: np.ndarray) -> NDArray:
    out = Tensor._make(np.ascontiguousarray(arr))
    out.__class__ = NDArray
    return out  # type: ignore[return-value]


def _make(dense: np.ndarray, stype: str) -> NDArray:
    if stype not in STYPES:
        raise ValueError(f"sparse: unknown storage type {stype!r}; expected one of {STYPES}")
    if stype == "csr" and dense.ndim != 2:
        raise ValueError(f"csr_matrix: CSR storage is 2-D, got shape {dense.shape}")
    if stype == "row_sparse" and dense.ndim < 1:
        raise ValueError("row_sparse_array: row-sparse storage needs at least one axis")
    out = Tensor._make(np.ascontiguousarray(dense))
    out.__class__ = {"default": NDArray, "csr": CSRNDArray, "row_sparse": RowSparseNDArray}[stype]
    return out  # type: ignore[return-value]


def _dense(value: Any) -> np.ndarray:
    if isinstance(value, Tensor):
        return value._data
    if hasattr(value, "toarray"):  # scipy.sparse
        return value.toarray()
    return np.asarray(value)


def _dtype(given: Any, source: Any, default: Any = np.float32) -> np.dtype:
    if given is not None:
        return np.dtype(dtype_of(given).np_dtype)
    if isinstance(source, (Tensor, np.ndarray)) or hasattr(source, "toarray"):
        return np.dtype(_dense(source).dtype)
    return np.dtype(default)


def cast_storage(data: Any, stype: str) -> NDArray:
    """``data`` in storage ``stype`` ('default', 'csr' or 'row_sparse'); the values do not change."""
    return _make(_dense(data).copy(), stype)


def csr_matrix(arg1: Any, shape: Any = None, ctx: Any = None, dtype: Any = None) -> CSRNDArray:
    """A CSRNDArray from ``(data, indices, indptr)`` (with ``shape``, or the smallest that holds them), a
    dense array, a scipy.sparse matrix, another NDArray, or a shape ``(M, N)`` (all zeros)."""
    if isinstance(arg1, tuple) and len(arg1) == 2 and all(isinstance(v, (int, np.integer)) for v in arg1):
        return _make(np.zeros(arg1, _dtype(dtype, None)), "csr")  # type: ignore[return-value]
    if isinstance(arg1, tuple) and len(arg1) == 3:
        data, indices, indptr = (_dense(v) for v in arg1)
        indices, indptr = indices.astype(np.int64), indptr.astype(np.int64)
        rows = len(indptr) - 1
        cols = int(indices.max()) + 1 if indices.size else 0
        m, n = (int(shape[0]), int(shape[1])) if shape is not None else (rows, cols)
        if rows != m or (indices.size and cols > n) or indptr[-1] != data.size:
            raise ValueError(f"csr_matrix: (data {data.shape}, indices up to {cols - 1}, indptr of {rows} "
                             f"rows ending at {indptr[-1]}) does not describe a matrix of shape {(m, n)}")
        dense = np.zeros((m, n), _dtype(dtype, arg1[0]))
        row_of = np.repeat(np.arange(m), np.diff(indptr))
        np.add.at(dense, (row_of, indices), data)
        return _make(dense, "csr")  # type: ignore[return-value]
    dense = _dense(arg1).astype(_dtype(dtype, arg1))
    if shape is not None and tuple(dense.shape) != tuple(shape):
        raise ValueError(f"csr_matrix: the array has shape {dense.shape}, shape says {tuple(shape)}")
    return _make(dense, "csr")  # type: ignore[return-value]


def row_sparse_array(arg1: Any, shape: Any = None, ctx: Any = None, dtype: Any = None) -> RowSparseNDArray:
    """A RowSparseNDArray from ``(data, indices)`` (rows ``data[i]`` at ``indices[i]``; ``shape`` gives the
    row count, else the largest index + 1), a dense array, another NDArray, or a shape (all zeros)."""
    if isinstance(arg1, tuple) and all(isinstance(v, (int, np.integer)) for v in arg1):
        return _make(np.zeros(arg1, _dtype(dtype, None)), "row_sparse")  # type: ignore[return-value]
    if isinstance(arg1, tuple) and len(arg1) == 2:
        data, indices = _dense(arg1[0]), _dense(arg1[1]).astype(np.int64)
        rows = int(shape[0]) if shape is not None else (int(indices.max()) + 1 if indices.size else 0)
        if data.shape[0] != indices.size or (indices.size and int(indices.max()) >= rows):
            raise ValueError(f"row_sparse_array: {data.shape[0]} rows of data for {indices.size} indices "
                             f"(up to {int(indices.max()) if indices.size else None}) in {rows} rows")
        dense = np.zeros((rows, *data.shape[1:]), _dtype(dtype, arg1[0]))
        dense[indices] = data
        return _make(dense, "row_sparse")  # type: ignore[return-value]
    dense = _dense(arg1).astype(_dtype(dtype, arg1))
    return _make(dense, "row_sparse")  # type: ignore[return-value]


def zeros(stype: str, shape: Any, ctx: Any = None, dtype: Any = None, **_: Any) -> NDArray:
    """An all-zero array of storage ``stype``."""
    shape = (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(int(d) for d in shape)
    return _make(np.zeros(shape, _dtype(dtype, None)), stype)


def empty(stype: str, shape: Any, ctx: Any = None, dtype: Any = None) -> NDArray:
    """As ``zeros`` (a sparse array starts with no stored values)."""
    return zeros(stype, shape, ctx, dtype)


def array(source_array: Any, ctx: Any = None, dtype: Any = None) -> NDArray:
    """A sparse array from a scipy.sparse matrix (CSR) or a sparse NDArray (its storage)."""
    if isinstance(source_array, BaseSparseNDArray):
        return _make(source_array._data.astype(_dtype(dtype, source_array)), source_array.stype)
    if hasattr(source_array, "tocsr"):
        return csr_matrix(source_array, dtype=dtype)
    raise ValueError(f"sparse.array: expected a scipy.sparse matrix or a sparse NDArray, got "
                     f"{type(source_array).__name__}")


def dot(lhs: Any, rhs: Any, transpose_a: bool = False, transpose_b: bool = False, forward_stype: Any = None,
        **kwargs: Any) -> NDArray:
    """``mx.nd.dot`` with MXNet's output storage: row-sparse for csr^T x dense, CSR for dense x csr, dense
    otherwise or when ``forward_stype`` says so. Differentiable as the dense product."""
    out = _op.TABLE["dot"](lhs, rhs, transpose_a=transpose_a, transpose_b=transpose_b)
    l_csr, r_csr = isinstance(lhs, CSRNDArray), isinstance(rhs, CSRNDArray)
    stype = forward_stype or ("row_sparse" if l_csr and transpose_a and not r_csr else
                              "csr" if r_csr and not l_csr and not transpose_b else "default")
    out.__class__ = {"default": NDArray, "csr": CSRNDArray, "row_sparse": RowSparseNDArray}[stype]
    return out  # type: ignore[return-value]
