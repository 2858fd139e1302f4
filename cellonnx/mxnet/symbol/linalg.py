"""mx.sym.linalg: MXNet's linear-algebra operators under their short names (``mx.sym.linalg.potrf`` is
``mx.sym.linalg_potrf``, set by mx.sym from its operators, as mx.nd.linalg is from mx.nd's): a graph node on
Symbols, the computation on the arrays of a traced ``hybrid_forward`` (``F.linalg.syevd(x)``)."""
from __future__ import annotations

from cellonnx.mxnet.ndarray.linalg import TABLE_NAMES

__all__ = ["gemm", "gemm2", *TABLE_NAMES]  # noqa: F822 - set by mx.sym
