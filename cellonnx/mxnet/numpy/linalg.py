"""mx.np.linalg: norm."""
from __future__ import annotations

from typing import Any

from cellonnx import ops
from cellonnx.mxnet.numpy.multiarray import ndarray, to_np
from cellonnx.tensor import Tensor

__all__ = ["norm"]


def norm(x: Tensor, ord: Any = None, axis: Any = None, keepdims: bool = False) -> ndarray:
    """The Frobenius / L2 norm (``ord`` None or 2 over vectors, 'fro' over matrices) or the L1 norm."""
    if ord in (None, 2, "fro"):
        return to_np(ops.sqrt(ops.sum(ops.square(x), axis, keepdims)))
    if ord == 1:
        return to_np(ops.sum(ops.abs(x), axis, keepdims))
    raise NotImplementedError(f"np.linalg.norm: ord={ord!r} is not supported (None, 1, 2, 'fro' are)")
