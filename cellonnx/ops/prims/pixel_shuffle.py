"""Pixel shuffle: the PixelShuffle primitive (channels to space, one ONNX DepthToSpace in CRD mode) with the
functional pixel_shuffle, and pixel_unshuffle (space to channels, its adjoint), written with reshapes and a
transpose: ONNX's SpaceToDepth orders the channels block-first, MindSpore channel-first."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.ops.registry import Op
from cellonnx.tensor import Tensor


class PixelShuffle(Op):
    """(N, C * r * r, H, W) -> (N, C, H * r, W * r): out[n, c, h * r + i, w * r + j] =
    x[n, c * r * r + i * r + j, h, w]."""

    def forward(self, x, *, r):
        n, c, h, w = x.shape
        y = x.reshape(n, c // (r * r), r, r, h, w).transpose(0, 1, 4, 2, 5, 3)
        return np.ascontiguousarray(y).reshape(n, c // (r * r), h * r, w * r)

    def backward(self, ctx, g, *, r):
        return (_unshuffle4d(g, r),)

    def lower(self, g, x, *, r):
        return g.op("DepthToSpace", x, blocksize=r, mode="CRD")


def _unshuffle4d(x: Tensor, r: int) -> Tensor:
    from cellonnx.ops.prims.shape import reshape, transpose
    n, c, h, w = x.shape
    y = transpose(reshape(x, (-1, c, h // r, r, w // r, r)), (0, 1, 3, 5, 2, 4))
    return reshape(y, (n, c * r * r, h // r, w // r))


def _check(op: str, input: Any, factor: Any, name: str) -> Tensor:
    if isinstance(factor, bool) or not isinstance(factor, (int, np.integer)) or factor <= 0:
        raise ValueError(f"For '{op}', '{name}' must be a positive int, but got {factor!r}.")
    if not isinstance(input, Tensor):
        raise TypeError(f"For '{op}', 'input' must be a Tensor, but got {type(input).__name__}.")
    if input.ndim < 3:
        raise ValueError(f"For {op}, the dimension of `input` should be larger than 2, but got {input.ndim}.")
    return input


def pixel_shuffle(input: Tensor, upscale_factor: int) -> Tensor:
    """Rearrange (*, C * r^2, H, W) into (*, C, H * r, W * r), as MindSpore's ``ops.pixel_shuffle``.

    Args:
        input (Tensor): (*, C * r^2, H, W), at least 3-D.
        upscale_factor (int): r.

    Returns:
        (*, C, H * r, W * r).

    Examples:
        >>> ops.pixel_shuffle(ops.ones((1, 9, 2, 2)), 3).shape
        (1, 1, 6, 6)
    """
    from cellonnx.ops.prims.shape import reshape
    x = _check("pixel_shuffle", input, upscale_factor, "upscale_factor")
    r = int(upscale_factor)
    pre = tuple(x.shape[:-3])
    c, h, w = x.shape[-3:]
    if int(c) % (r * r):
        raise ValueError("For 'pixel_shuffle', the length of third to last dimension is not divisible by "
                         f"`upscale_factor` squared ({int(c)} channels, upscale_factor {r}).")
    y = PixelShuffle.apply(reshape(x, (-1, c, h, w)) if x.ndim != 4 else x, r=r)
    return reshape(y, pre + (c // (r * r), h * r, w * r)) if x.ndim != 4 else y


def pixel_unshuffle(input: Tensor, downscale_factor: int) -> Tensor:
    """Rearrange (*, C, H * r, W * r) into (*, C * r^2, H, W), as MindSpore's ``ops.pixel_unshuffle`` (the
    inverse of :func:`pixel_shuffle`).

    Args:
        input (Tensor): (*, C, H * r, W * r), at least 3-D.
        downscale_factor (int): r, dividing H and W.

    Returns:
        (*, C * r^2, H, W).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.ones((1, 1, 4, 4)), ms.float32)
        >>> ops.pixel_unshuffle(x, 2).shape
        (1, 4, 2, 2)
    """
    from cellonnx.ops.prims.shape import reshape
    x = _check("pixel_unshuffle", input, downscale_factor, "downscale_factor")
    r = int(downscale_factor)
    pre = tuple(x.shape[:-3])
    c, h, w = x.shape[-3:]
    if int(h) % r or int(w) % r:
        raise ValueError(f"For 'pixel_unshuffle', the height {int(h)} and width {int(w)} must be divisible "
                         f"by `downscale_factor` {r}.")
    y = _unshuffle4d(reshape(x, (-1, c, h, w)) if x.ndim != 4 else x, r)
    return reshape(y, pre + (c * r * r, h // r, w // r)) if x.ndim != 4 else y


__all__ = ["pixel_shuffle", "pixel_unshuffle"]
