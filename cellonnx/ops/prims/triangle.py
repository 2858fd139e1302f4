"""Triangular parts of (batches of) matrices: triu and tril, one ONNX Trilu node from opset 14.

Opset 13 has no Trilu; there the mask ``col - row >= k`` (upper) or ``<= k`` (lower) is built from Range over
the run-time sizes of the last two axes and applied with Where.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.ops.prims._util import to_tensor
from cellonnx.ops.registry import Op
from cellonnx.tensor import Tensor


def _keep(shape: tuple, k: int, upper: bool) -> np.ndarray:
    rows, cols = np.ogrid[0:shape[-2], 0:shape[-1]]
    return (cols - rows >= k) if upper else (cols - rows <= k)


class Trilu(Op):
    """Zero the elements below (``upper``) or above (lower) the k-th diagonal of the last two axes."""

    def forward(self, x, *, k, upper):
        keep = _keep(x.shape, k, upper)
        return np.where(keep, x, np.zeros((), x.dtype))

    def backward(self, ctx, g, *, k, upper):
        return (Trilu.apply(g, k=k, upper=upper),)

    def lower(self, g, x, *, k, upper):
        if g.opset >= 14:
            return g.op("Trilu", x, g.i64(k), upper=int(upper))
        nd = g.in_tensors[0].ndim
        shape = g.op("Shape", x)
        one = g.i64(1)
        rows = g.op("Range", g.i64(0), g.op("Gather", shape, g.i64(nd - 2), axis=0), one)
        cols = g.op("Range", g.i64(0), g.op("Gather", shape, g.i64(nd - 1), axis=0), one)
        diff = g.op("Sub", g.unsqueeze(cols, [0]), g.unsqueeze(rows, [1]))
        keep = g.op("GreaterOrEqual" if upper else "LessOrEqual", diff, g.i64(k))
        if g.in_tensors[0]._data.dtype == np.bool_:  # onnxruntime's Where takes no bool values
            return g.op("And", keep, x)
        return g.op("Where", keep, x, g.like(0))

    def check(self, x, *, k, upper):
        return f"expected a tensor of rank >= 2, got shape {x.shape}"


def _trilu(input: Any, diagonal: Any, upper: bool, op: str) -> Tensor:
    x = to_tensor(input)
    if x.ndim < 2:
        raise ValueError(f"{op}: the input must have at least 2 dimensions, got shape {tuple(x.shape)}")
    if isinstance(diagonal, Tensor):
        diagonal = int(diagonal._data.reshape(()))
    if isinstance(diagonal, bool) or not isinstance(diagonal, (int, np.integer)):
        raise TypeError(f"{op}: diagonal must be an int, got {diagonal!r}")
    return Trilu.apply(x, k=int(diagonal), upper=upper)


def triu(input: Tensor, diagonal: int = 0) -> Tensor:
    """The upper triangle of the last two axes: elements below the ``diagonal``-th diagonal become zero.

    Args:
        input (Tensor): a tensor of rank >= 2.
        diagonal (int): 0 is the main diagonal, positive above it, negative below. Default: 0.

    Examples:
        >>> print(ops.triu(ops.ones((3, 3)), 1))
        [[0. 1. 1.]
         [0. 0. 1.]
         [0. 0. 0.]]
    """
    return _trilu(input, diagonal, True, "triu")


def tril(input: Tensor, diagonal: int = 0) -> Tensor:
    """The lower triangle of the last two axes: elements above the ``diagonal``-th diagonal become zero.

    Args:
        input (Tensor): a tensor of rank >= 2.
        diagonal (int): 0 is the main diagonal, positive above it, negative below. Default: 0.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.ones((3, 3)), ms.float32)
        >>> print(ops.tril(x))
        [[1. 0. 0.]
         [1. 1. 0.]
         [1. 1. 1.]]
    """
    return _trilu(input, diagonal, False, "tril")


def _tensor_triu(self: Tensor, diagonal: int = 0) -> Tensor:
    return triu(self, diagonal)


def _tensor_tril(self: Tensor, diagonal: int = 0) -> Tensor:
    return tril(self, diagonal)


TENSOR_METHODS = {"triu": _tensor_triu, "tril": _tensor_tril}

__all__ = ["tril", "triu"]
