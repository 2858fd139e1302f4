"""Sparse tensors (MindSpore's COOTensor, CSRTensor, RowTensor and the deprecated SparseTensor); the functions
over them are in cellonnx.ops (coo_*, csr_*, dense_to_sparse_*, coalesce ...)."""
from __future__ import annotations

from cellonnx.sparse.tensor import COOTensor, CSRTensor, RowTensor, SparseTensor

__all__ = ["COOTensor", "CSRTensor", "RowTensor", "SparseTensor"]
