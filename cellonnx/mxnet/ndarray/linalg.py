"""mx.nd.linalg: MXNet's linear-algebra operators under their short names (``nd.linalg.potrf`` is
``nd.linalg_potrf``: the names of TABLE_NAMES are set by mx.nd from its operators), and gemm / gemm2."""
from __future__ import annotations

from typing import Any

from cellonnx import ops
from cellonnx.mxnet._op import retype
from cellonnx.mxnet.ndarray.ndarray import NDArray
from cellonnx.tensor import Tensor

# the operators mx.nd hands on under their short names (cellonnx/mxnet/ndarray/__init__.py)
TABLE_NAMES = ("det", "extractdiag", "extracttrian", "gelqf", "inverse", "makediag", "maketrian", "potrf",
               "potri", "slogdet", "sumlogdiag", "syevd", "syrk", "trmm", "trsm")
__all__ = ["gemm", "gemm2", *TABLE_NAMES]


def _t(x: Tensor, flag: bool) -> Tensor:
    return ops.swapaxes(x, -1, -2) if flag else x


def gemm2(A: Tensor, B: Tensor, transpose_a: bool = False, transpose_b: bool = False, alpha: float = 1.0,
          axis: int = -2, **_: Any) -> NDArray:
    """``alpha * op(A) @ op(B)`` over the last two axes."""
    return retype(ops.mul(ops.matmul(_t(A, transpose_a), _t(B, transpose_b)), float(alpha)), NDArray)


def gemm(A: Tensor, B: Tensor, C: Tensor, transpose_a: bool = False, transpose_b: bool = False,
         alpha: float = 1.0, beta: float = 1.0, axis: int = -2, **_: Any) -> NDArray:
    """``alpha * op(A) @ op(B) + beta * C``."""
    prod = ops.mul(ops.matmul(_t(A, transpose_a), _t(B, transpose_b)), float(alpha))
    return retype(ops.add(prod, ops.mul(C, float(beta))), NDArray)
