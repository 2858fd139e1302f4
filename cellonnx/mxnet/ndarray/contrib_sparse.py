"""mx.nd.contrib's functions over CSR arrays and samplers: getnnz, edge_id (a graph's edge values from its
CSR adjacency), the DGL graph helpers dgl_adjacency and dgl_subgraph, rand_zipfian (log-uniform candidate
sampling), and the SparseEmbedding operator."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from cellonnx.mxnet import _op
from cellonnx.mxnet.base import MXNetError
from cellonnx.mxnet.ndarray.ndarray import NDArray
from cellonnx.mxnet.ndarray.random import uniform
from cellonnx.tensor import Tensor

__all__ = ["SparseEmbedding", "dgl_adjacency", "dgl_subgraph", "edge_id", "getnnz", "rand_zipfian"]


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


def _csr_of(values: np.ndarray, columns: np.ndarray, indptr: np.ndarray, n: int) -> Any:
    from cellonnx.mxnet.ndarray.sparse import csr_matrix

    return csr_matrix((values, columns.astype(np.int64), indptr.astype(np.int64)), shape=(n, n),
                      dtype=values.dtype)


def dgl_adjacency(data: Any, **_: Any) -> Any:
    """The adjacency matrix of a graph given as a CSR array of edge ids: the same structure, every stored
    value 1.0 (float32).

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> import numpy as np
        >>> parts = (np.array([5, 6, 7]), np.array([1, 2, 0]), np.array([0, 2, 2, 3]))
        >>> graph = mx.nd.sparse.csr_matrix(parts, shape=(3, 3), dtype='int64')
        >>> print(mx.nd.contrib.dgl_adjacency(graph).asnumpy())
        [[0. 1. 1.]
         [0. 0. 0.]
         [1. 0. 0.]]
    """
    values, columns, indptr = _csr(data, "dgl_adjacency")
    return _csr_of(np.ones(len(values), np.float32), columns, indptr, int(data.shape[0]))


def dgl_subgraph(graph: Any, *data: Tensor, return_mapping: bool = False, **_: Any) -> list[Any]:
    """The subgraphs induced by each array of vertex ids in ``data`` (in their order): CSR arrays whose
    values number the kept edges 0, 1, ... row by row; with ``return_mapping`` also, per subgraph, the
    same structure holding the original edge ids.

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> import numpy as np
        >>> parts = (np.array([5, 6, 7, 8]), np.array([1, 2, 0, 2]), np.array([0, 2, 3, 4]))
        >>> graph = mx.nd.sparse.csr_matrix(parts, shape=(3, 3), dtype='int64')
        >>> sub, mapping = mx.nd.contrib.dgl_subgraph(graph, mx.nd.array([0, 2], dtype='int64'),
        ...                                           return_mapping=True)
        >>> print(mapping.asnumpy())
        [[0 6]
         [0 8]]
    """
    values, columns, indptr = _csr(graph, "dgl_subgraph")
    subgraphs, mappings = [], []
    for vertices in data:
        ids = vertices._data.astype(np.int64).reshape(-1)
        if np.any(np.diff(ids) < 0):
            raise MXNetError(f"dgl_subgraph: the input vertex list has to be sorted, got {ids.tolist()}")
        where = {int(v): i for i, v in enumerate(ids)}
        kept_cols: list[int] = []
        kept_vals: list[Any] = []
        pointers = [0]
        for v in ids:
            row = slice(indptr[v], indptr[v + 1])
            for c, value in sorted(zip(columns[row], values[row]), key=lambda cv: where.get(int(cv[0]), -1)):
                if int(c) in where:
                    kept_cols.append(where[int(c)])
                    kept_vals.append(value)
            pointers.append(len(kept_cols))
        cols, ptr = np.array(kept_cols, np.int64), np.array(pointers, np.int64)
        subgraphs.append(_csr_of(np.arange(len(kept_cols), dtype=values.dtype), cols, ptr, len(ids)))
        mappings.append(_csr_of(np.array(kept_vals, values.dtype), cols, ptr, len(ids)))
    return subgraphs + mappings if return_mapping else subgraphs


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
