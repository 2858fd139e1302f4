"""Sparse-tensor cells (``mindspore.nn.sparse``): SparseToDense and SparseTensorDenseMatmul, over COO
indices and values."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import ops
from cellonnx.nn.cell import Cell
from cellonnx.ops.prims.scatter import ScatterNDSet
from cellonnx.tensor import Tensor

__all__ = ["SparseTensorDenseMatmul", "SparseToDense"]


def _shape(shape: Any, owner: str) -> tuple[int, ...]:
    if isinstance(shape, Tensor):
        shape = shape.asnumpy().tolist()
    if not isinstance(shape, (tuple, list)) or not all(isinstance(d, (int, np.integer)) for d in shape):
        raise TypeError(f"For '{owner}', the dense shape must be a tuple of ints, but got {shape!r}.")
    return tuple(int(d) for d in shape)


def _coo(indices: Any, values: Any, owner: str) -> tuple[Tensor, Tensor]:
    indices = indices if isinstance(indices, Tensor) else Tensor(np.asarray(indices))
    values = values if isinstance(values, Tensor) else Tensor(np.asarray(values))
    if indices.ndim != 2 or values.ndim != 1 or indices.shape[0] != values.shape[0]:
        raise ValueError(f"For '{owner}', 'indices' must be (N, rank) and 'values' (N,), but got "
                         f"{indices.shape} and {values.shape}.")
    if indices._data.dtype.kind not in "iu":
        raise TypeError(f"For '{owner}', 'indices' must be int32 or int64, but got {indices.dtype}.")
    return ops.cast(indices, np.int64), values


class SparseToDense(Cell):
    """The dense Tensor of a sparse (COO) tensor: ``values[i]`` at ``indices[i]``, zeros elsewhere (a repeated
    index keeps its last value, as MindSpore's kernel).

    Inputs:
        - **sparse_tensor** - a COO tensor: an object with ``indices`` (N, rank), ``values`` (N,) and
          ``shape`` (MindSpore's COOTensor / SparseTensor).

    Examples:
        >>> sparse = ms.COOTensor(Tensor(np.array([[0, 1], [1, 2]], np.int32)), Tensor([1.0, 2.0]), (2, 3))
        >>> print(nn.SparseToDense()(sparse))
        [[0. 1. 0.]
         [0. 0. 2.]]
    """

    def construct(self, sparse_tensor: Any) -> Tensor:
        indices, values = _coo(sparse_tensor.indices, sparse_tensor.values, "SparseToDense")
        shape = _shape(sparse_tensor.shape, "SparseToDense")
        if indices.shape[1] != len(shape):
            raise ValueError(f"For 'SparseToDense', 'indices' address {indices.shape[1]} dimensions but the "
                             f"shape {shape} has {len(shape)}.")
        return ScatterNDSet.apply(ops.zeros(shape, dtype=values.dtype), indices, values)


class SparseTensorDenseMatmul(Cell):
    """The product of a sparse (COO) matrix and a dense matrix (repeated indices add up).

    Args:
        adjoint_st (bool): use the sparse matrix's transpose. Default: ``False``.
        adjoint_dt (bool): use the dense matrix's transpose. Default: ``False``.

    Inputs:
        - **indices** (Tensor) - (N, 2) int32 / int64 positions.
        - **values** (Tensor) - (N,) values.
        - **sparse_shape** (tuple[int]) - the sparse matrix's shape.
        - **dense** (Tensor) - a 2-D Tensor.

    Examples:
        >>> indices = Tensor(np.array([[0, 1], [1, 2]], np.int32))
        >>> values = Tensor(np.array([1.0, 2.0], np.float32))
        >>> dense = Tensor(np.ones((4, 2), np.float32))
        >>> out = nn.SparseTensorDenseMatmul()(indices, values, (3, 4), dense)
        >>> print(out)
        [[1. 1.]
         [2. 2.]
         [0. 0.]]
    """

    def __init__(self, adjoint_st: bool = False, adjoint_dt: bool = False) -> None:
        super().__init__()
        for name, v in (("adjoint_st", adjoint_st), ("adjoint_dt", adjoint_dt)):
            if not isinstance(v, bool):
                raise TypeError(f"For 'SparseTensorDenseMatmul', '{name}' must be a bool, but got "
                                f"{type(v).__name__}.")
        self.adj_st = adjoint_st
        self.adj_dt = adjoint_dt

    def construct(self, indices: Any, values: Any, sparse_shape: Any, dense: Tensor) -> Tensor:
        indices, values = _coo(indices, values, "SparseTensorDenseMatmul")
        shape = _shape(sparse_shape, "SparseTensorDenseMatmul")
        if len(shape) != 2 or indices.shape[1] != 2 or dense.ndim != 2:
            raise ValueError("For 'SparseTensorDenseMatmul', the sparse and dense matrices must be 2-D, but "
                             f"got the sparse shape {shape} and the dense shape {dense.shape}.")
        sparse = ops.tensor_scatter_add(ops.zeros(shape, dtype=values.dtype), indices, values)
        if self.adj_st:
            sparse = ops.transpose(sparse, (1, 0))
        if self.adj_dt:
            dense = ops.transpose(dense, (1, 0))
        return ops.matmul(sparse, dense)
