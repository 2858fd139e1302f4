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
                         eps: float = 1e-3, momentum: float = 0.9, fix_gamma: bool = True,
                         use_global_stats: bool = False, output_mean_var: bool = False, axis: int = 1,
                         cudnn_off: bool = False, **_: Any) -> Tensor:
    """ReLU of MXNet's BatchNorm (same arguments and defaults: eps 1e-3, fix_gamma True)."""
    return ops.relu(batch_norm(data, gamma, beta, moving_mean, moving_var, eps=eps, momentum=momentum,
                               fix_gamma=fix_gamma, use_global_stats=use_global_stats,
                               output_mean_var=output_mean_var, axis=axis))


FUSED_OPS = {"_contrib_BatchNormWithReLU": batch_norm_with_relu, "_contrib_SparseEmbedding": embedding}
