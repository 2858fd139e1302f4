"""Contrib operators that are another operator under a contrib name: ``_contrib_BatchNormWithReLU`` (BatchNorm
then ReLU, MXNet's fused kernel) and ``_contrib_SparseEmbedding`` (Embedding, whose row-sparse gradient is
Gluon's business: see gluon.contrib.nn.SparseEmbedding)."""

from __future__ import annotations

from typing import Any

from cellonnx import ops
from cellonnx.mxnet._op.nn import batch_norm, embedding
from cellonnx.tensor import Tensor

__all__ = ["FUSED_OPS"]


def batch_norm_with_relu(data: Tensor, gamma: Tensor, beta: Tensor, moving_mean: Tensor, moving_var: Tensor,
                         **attrs: Any) -> Tensor:
    """ReLU of MXNet's BatchNorm (same arguments and defaults: eps 1e-3, fix_gamma True)."""
    return ops.relu(batch_norm(data, gamma, beta, moving_mean, moving_var, **attrs))


FUSED_OPS = {"_contrib_BatchNormWithReLU": batch_norm_with_relu, "_contrib_SparseEmbedding": embedding}
