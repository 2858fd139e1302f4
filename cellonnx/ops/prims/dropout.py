"""Dropout: elementwise (a primitive lowered to ONNX Dropout) and channel-wise (dropout1d/2d/3d, a Bernoulli
mask over (N, C, 1, ...)). Masks come from the generator in random.py, so ``set_seed`` makes them
reproducible; in evaluation dropout is the identity and leaves no node in a traced graph."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.ops.prims._util import is_float_dtype, to_tensor
from cellonnx.ops.prims.random import Bernoulli, _check_seed, generator
from cellonnx.ops.registry import Op
from cellonnx.tensor import Tensor


class Dropout(Op):
    saved_inputs = ()  # backward reads only the output
    """Outputs (y, mask): y = x * mask / (1 - p), mask True where kept (probability 1 - p). The gradient
    reuses the forward's mask."""

    n_outputs = 2
    save_output = True
    deterministic = False

    def forward(self, x, *, p, seed):
        keep = generator("dropout", seed).random(x.shape, dtype=np.float32) >= p
        y = x * keep
        y *= y.dtype.type(1.0 / (1.0 - p))
        return y, keep

    def backward(self, ctx, g, gmask, *, p, seed):
        from cellonnx.ops.prims.math import cast, mul
        return (mul(g, mul(cast(ctx.output(1), g.dtype), 1.0 / (1.0 - p))),)

    def lower(self, g, x, *, p, seed):
        # ONNX draws its own mask (not NumPy's): eager and exported results agree in distribution only
        ratio = g.const(np.asarray(p, dtype=np.float32))
        return g.op("Dropout", x, ratio, g.const(np.asarray(True)), outputs=2,
                    seed=int(seed) if seed is not None else None)


def _check_p(p: Any, op: str) -> float:
    if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0.0 <= p <= 1.0:
        raise ValueError(f"{op}: p must be a float in [0, 1], got {p!r}")
    return float(p)


def dropout(input: Tensor, p: float = 0.5, training: bool = True, seed: int | None = None) -> Tensor:
    """Zero each element with probability ``p`` and scale the kept ones by ``1 / (1 - p)`` during
    training; the identity otherwise. MindSpore 2.x returns the output only (1.x also returned the mask).

    Args:
        input (Tensor): float tensor of any shape.
        p (float): drop probability in [0, 1]. Default 0.5.
        training (bool): apply dropout. Default True.
        seed (int, optional): op-level seed (see ``set_seed``). Default None.

    Returns:
        Tensor of the shape and dtype of ``input``. ONNX: Dropout(training_mode=True) in training, no node
        in evaluation.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.ones((2, 3)), ms.float32)
        >>> print(ops.dropout(x, p=0.5, training=False))
        [[1. 1. 1.]
         [1. 1. 1.]]
        >>> ops.dropout(x, p=0.5).shape
        (2, 3)
    """
    x = to_tensor(input)
    p = _check_p(p, "dropout")
    seed = _check_seed(seed, "dropout")
    if not is_float_dtype(x._data.dtype):
        raise TypeError(f"dropout: input must be a float tensor, got {x.dtype}")
    if not training or p == 0.0:
        return x
    if p == 1.0:
        from cellonnx.ops.prims.math import mul
        return mul(x, 0.0)
    return Dropout.apply(x, p=p, seed=seed)[0]


def _channel_dropout(x: Any, p: float, training: bool, ranks: tuple[int, ...], op: str) -> Tensor:
    from cellonnx.ops.prims.creation import full
    from cellonnx.ops.prims.math import mul

    x = to_tensor(x)
    p = _check_p(p, op)
    if x.ndim not in ranks:
        want = " or ".join(f"{r}-D" for r in ranks)
        raise ValueError(f"{op}: input must be {want}, got shape {tuple(x._data.shape)}")
    if not is_float_dtype(x._data.dtype):
        raise TypeError(f"{op}: input must be a float tensor, got {x.dtype}")
    if not training or p == 0.0:
        return x
    if p == 1.0:
        return mul(x, 0.0)
    shape = tuple(x.shape)
    lead = 2 if x.ndim == max(ranks) else 1  # (C, L) input of dropout1d: one mask entry per channel
    mask_shape = shape[:lead] + (1,) * (x.ndim - lead)
    keep = Bernoulli.apply(full(mask_shape, 1.0 - p, dtype=x._data.dtype), seed=None, dtype=x._data.dtype)
    return mul(x, mul(keep, 1.0 / (1.0 - p)))


def dropout1d(input: Tensor, p: float = 0.5, training: bool = True) -> Tensor:
    """Zero whole channels of an (N, C, L) or (C, L) input with probability ``p`` (scaled by 1 / (1 - p))."""
    return _channel_dropout(input, p, training, (2, 3), "dropout1d")


def dropout2d(input: Tensor, p: float = 0.5, training: bool = True) -> Tensor:
    """Zero whole channels of an (N, C, H, W) input with probability ``p`` (scaled by 1 / (1 - p))."""
    return _channel_dropout(input, p, training, (4,), "dropout2d")


def dropout3d(input: Tensor, p: float = 0.5, training: bool = True) -> Tensor:
    """Zero whole channels of an (N, C, D, H, W) input with probability ``p`` (scaled by 1 / (1 - p))."""
    return _channel_dropout(input, p, training, (5,), "dropout3d")


__all__ = ["dropout", "dropout1d", "dropout2d", "dropout3d"]
