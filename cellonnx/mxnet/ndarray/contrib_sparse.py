"""mx.nd.contrib's functions over CSR arrays and samplers: getnnz, edge_id (a graph's edge values from its
CSR adjacency), rand_zipfian (log-uniform candidate sampling), and the SparseEmbedding operator."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from cellonnx.mxnet import _op
from cellonnx.mxnet.base import MXNetError
from cellonnx.mxnet.ndarray.ndarray import NDArray
from cellonnx.mxnet.ndarray.random import uniform
from cellonnx.tensor import Tensor

__all__ = ["SparseEmbedding", "edge_id", "getnnz", "rand_zipfian"]


def _nd(values: np.ndarray) -> NDArray:
    return _op.retype(Tensor(np.ascontiguousarray(values)), NDArray)  # type: ignore[no-any-return]


def _csr(data: Any, op: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    if getattr(data, "stype", "default") != "csr":
        raise MXNetError(f"{op}: data must be a CSRNDArray, got storage type "
                         f"{getattr(data, 'stype', None)!r}")
    return data.data._data, data.indices._data, data.indptr._data


def getnnz(data: Any, axis: int | None = None, **_: Any) -> NDArray:
    """The number of stored values of a CSRNDArray: in all (shape (1,)) or, with ``axis=1``, per row (int64).

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> import numpy as np
        >>> parts = (np.array([1., 2., 3.]), np.array([1, 2, 0]), np.array([0, 2, 2, 3]))
        >>> csr = mx.nd.sparse.csr_matrix(parts, shape=(3, 3))
        >>> print(mx.nd.contrib.getnnz(csr).asnumpy(), mx.nd.contrib.getnnz(csr, axis=1).asnumpy())
        [3] [2 0 1]
    """
    values, _, indptr = _csr(data, "getnnz")
    if axis is None:
        return _nd(np.array([len(values)], np.int64))
    if int(axis) in (1, -1):
        return _nd(np.diff(indptr).astype(np.int64))
    raise MXNetError(f"getnnz with axis = {axis} is not supported yet")


def edge_id(data: Any, u: Tensor, v: Tensor, **_: Any) -> NDArray:
    """For each pair ``(u[i], v[i])`` the value stored at row u, column v of the CSR adjacency ``data``, or
    -1 where there is none (float32, as MXNet gives).

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> import numpy as np
        >>> parts = (np.array([1., 2., 3.]), np.array([1, 2, 0]), np.array([0, 2, 2, 3]))
        >>> csr = mx.nd.sparse.csr_matrix(parts, shape=(3, 3))
        >>> print(mx.nd.contrib.edge_id(csr, mx.nd.array([0, 1, 2]), mx.nd.array([2, 0, 0])).asnumpy())
        [ 2. -1.  3.]
    """
    values, columns, indptr = _csr(data, "edge_id")
    rows, cols = u._data.astype(np.int64).reshape(-1), v._data.astype(np.int64).reshape(-1)
    if rows.shape != cols.shape:
        raise MXNetError(f"edge_id: u {tuple(u.shape)} and v {tuple(v.shape)} must have the same shape")
    out = np.full(rows.shape, -1.0, np.float32)
    for i, (r, c) in enumerate(zip(rows, cols)):
        found = np.flatnonzero(columns[indptr[r]:indptr[r + 1]] == c)
        if found.size:
            out[i] = values[indptr[r] + found[0]]
    return _nd(out)


def rand_zipfian(true_classes: Tensor, num_sampled: int, range_max: int, ctx: Any = None) -> tuple:
    """Draw ``num_sampled`` classes in [0, range_max) from the approximately Zipfian (log-uniform)
    distribution ``P(c) = log((c + 2) / (c + 1)) / log(range_max + 1)``; returns (the sampled classes as
    int64, the expected counts of ``true_classes``, the expected counts of the sampled classes), as MXNet.

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> samples, count_true, count_sampled = mx.nd.contrib.rand_zipfian(mx.nd.array([3]), 4, 5)
        >>> samples.shape, samples.dtype
        ((4,), <class 'numpy.int64'>)
        >>> print(count_true.asnumpy().round(6))
        [0.498155]
    """
    log_range = math.log(range_max + 1)
    draws = uniform(0, log_range, shape=(int(num_sampled),), dtype="float64", ctx=ctx)._data
    sampled = (np.exp(draws) - 1).astype(np.int64) % int(range_max)

    def expected(classes: np.ndarray) -> np.ndarray:
        return np.log((classes + 2.0) / (classes + 1.0)) / log_range * num_sampled

    true = true_classes._data.astype(np.float64)
    return _nd(sampled), _nd(expected(true)), _nd(expected(sampled.astype(np.float64)))


def SparseEmbedding(data: Tensor, weight: Tensor, input_dim: int, output_dim: int, dtype: Any = "float32",
                    deterministic: bool = False, **kwargs: Any) -> NDArray:
    """MXNet's sparse-gradient embedding operator: rows of ``weight`` picked by ``data`` (as Embedding);
    the weight's gradient is row-sparse when it was attached so (``weight.attach_grad(stype='row_sparse')``,
    which MXNet requires here).

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> weight = mx.nd.array([[0, 1], [2, 3], [4, 5]])
        >>> print(mx.nd.contrib.SparseEmbedding(mx.nd.array([2, 0]), weight, 3, 2).asnumpy())
        [[4. 5.]
         [0. 1.]]
    """
    out = _op.TABLE["Embedding"](data, weight, input_dim=input_dim, output_dim=output_dim, dtype=dtype,
                                 **kwargs)
    return _op.retype(out, NDArray)  # type: ignore[no-any-return]
