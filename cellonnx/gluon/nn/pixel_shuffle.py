"""gluon.nn PixelShuffle1D / 2D / 3D: move channels into space, (N, C * f1 * ... * fk, d1, ..., dk) ->
(N, C, d1 * f1, ..., dk * fk), as MXNet's layers (with its channel order: factors vary fastest within
each output channel)."""
from __future__ import annotations

from typing import Any

from cellonnx import ops
from cellonnx.gluon.hybrid import HybridBlock
from cellonnx.tensor import Tensor

__all__ = ["PixelShuffle1D", "PixelShuffle2D", "PixelShuffle3D"]


class _PixelShuffle(HybridBlock):
    _dims = 1

    def __init__(self, factor: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        n = self._dims
        factors = (int(factor),) * n if isinstance(factor, int) else tuple(int(f) for f in factor)
        if len(factors) != n:
            raise ValueError(f"{type(self).__name__}: factor must be an int or {n} ints, got {factor!r}")
        self._factors = factors

    def forward(self, x: Tensor) -> Tensor:
        n, f = self._dims, self._factors
        if x.ndim != n + 2:
            raise ValueError(f"{type(self).__name__}: expected a {n + 2}-d input (N, C, ...), got shape "
                             f"{tuple(x.shape)}")
        batch, channels, spatial = x.shape[0], x.shape[1], tuple(x.shape[2:])
        prod = 1
        for v in f:
            prod *= v
        out_c = channels // prod
        y = ops.reshape(x, (batch, out_c, *f, *spatial))
        # (N, C, f1..fk, d1..dk) -> (N, C, d1, f1, ..., dk, fk)
        perm = [0, 1]
        for i in range(n):
            perm += [2 + n + i, 2 + i]
        y = ops.transpose(y, tuple(perm))
        return ops.reshape(y, (batch, out_c, *(d * v for d, v in zip(spatial, f))))

    def __repr__(self) -> str:
        factor = self._factors[0] if self._dims == 1 else self._factors
        return f"{type(self).__name__}({factor})"


class PixelShuffle1D(_PixelShuffle):
    """(N, C * f, W) -> (N, C, W * f).

    Args:
        factor: the upsampling factor.

    Examples:
        >>> from cellonnx.mxnet import gluon, nd
        >>> shuffle = gluon.nn.PixelShuffle1D(2)
        >>> shuffle(nd.ones((1, 4, 3))).shape
        (1, 2, 6)
    """

    _dims = 1


class PixelShuffle2D(_PixelShuffle):
    """(N, C * f1 * f2, H, W) -> (N, C, H * f1, W * f2).

    Args:
        factor: an int or (f1, f2).

    Examples:
        >>> from cellonnx.mxnet import gluon, nd
        >>> shuffle = gluon.nn.PixelShuffle2D(2)
        >>> shuffle(nd.ones((1, 8, 3, 3))).shape
        (1, 2, 6, 6)
    """

    _dims = 2


class PixelShuffle3D(_PixelShuffle):
    """(N, C * f1 * f2 * f3, D, H, W) -> (N, C, D * f1, H * f2, W * f3).

    Args:
        factor: an int or (f1, f2, f3).

    Examples:
        >>> from cellonnx import gluon
        >>> from cellonnx.mxnet import nd
        >>> from cellonnx.gluon.contrib.nn import PixelShuffle3D
        >>> shuffle = PixelShuffle3D((2, 1, 2))
        >>> shuffle(nd.ones((1, 8, 2, 3, 4))).shape
        (1, 2, 4, 3, 8)
        >>> print(PixelShuffle3D(2)(nd.arange(8).reshape((1, 8, 1, 1, 1))).reshape((2, 2, 2)))
        <BLANKLINE>
        [[[0. 1.]
          [2. 3.]]
        <BLANKLINE>
         [[4. 5.]
          [6. 7.]]]
        <NDArray 2x2x2 @cpu(0)>
    """

    _dims = 3
