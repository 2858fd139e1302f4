"""Dropout: elementwise and channel-wise (dropout1d/2d/3d, a mask over (N, C, 1, ...)). Masks come from the
counter generator (counter_rng.py), whose ONNX lowering draws the same bits as NumPy, so ``set_seed`` makes
them reproducible and a compiled step draws the eager step's masks; in evaluation dropout is the identity
and leaves no node in a traced graph."""
from __future__ import annotations

from typing import Any

import numpy as np
from onnx import TensorProto

from cellonnx import dtypes
from cellonnx.ops.prims._util import is_float_dtype, to_tensor
from cellonnx.ops.prims.counter_rng import MIN_OPSET, advance, keep_nodes, keep_np, rng_state, salt_of
from cellonnx.ops.prims.random import _check_seed
from cellonnx.ops.registry import Op
from cellonnx.tensor import Tensor


class Dropout(Op):
    """Outputs (y, mask): y = x * mask / (1 - p), mask True where kept (probability 1 - p), drawn from the
    counter generator's ``state`` (cellonnx/ops/prims/counter_rng.py) in eager mode and in the graph alike.
    The gradient reuses the forward's mask."""

    saved_inputs = ()  # backward reads only the output
    n_outputs = 2
    save_output = True
    deterministic = False

    def forward(self, x, state, *, p, salt):
        keep = keep_np(x.shape, p, state, salt)
        y = x * keep
        y *= y.dtype.type(1.0 / (1.0 - p))
        return y, keep

    def backward(self, ctx, g, gmask, *, p, salt):
        from cellonnx.ops.prims.math import cast, mul
        return (mul(g, mul(cast(ctx.output(1), g.dtype), 1.0 / (1.0 - p))), None)

    def lower(self, g, x, state, *, p, salt):
        if g.opset < MIN_OPSET:
            # no bitwise ops before opset 18: onnxruntime's generator draws the mask there
            seed = float(salt[0] % (1 << 31)) if salt != (0, 0) else None
            u = g.op("RandomUniformLike", x, dtype=TensorProto.FLOAT, seed=seed)
            keep = g.op("GreaterOrEqual", u, g.const(np.asarray(p, dtype=np.float32)))
        else:
            keep = keep_nodes(g, x, state, p, salt)
        scale = g.const(np.asarray(1.0 / (1.0 - p), dtype=g.in_tensors[0]._data.dtype))
        dt = dtypes.dtype(g.in_tensors[0]._data.dtype).onnx
        return g.op("Mul", x, g.op("Mul", g.op("Cast", keep, to=dt), scale)), keep


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
    return dropout_with_mask(x, p, seed)[0]


def dropout_with_mask(x: Tensor, p: float, seed: int | None = None) -> tuple[Tensor, Tensor]:
    """(x * mask / (1 - p), mask): one draw of the counter generator (``0 < p < 1``); the bool mask is True
    where an element was kept."""
    state = rng_state()
    y, keep = Dropout.apply(x, state, p=p, salt=salt_of(seed))
    advance(state)
    return y, keep


def shared_mask_dropout(x: Tensor, p: float, mask_shape: tuple) -> Tensor:
    """Dropout whose mask has ``mask_shape`` (1 along the axes that share a mask value), broadcast over
    ``x``: kept entries scaled by 1 / (1 - p)."""
    from cellonnx.ops.prims.creation import full
    from cellonnx.ops.prims.math import mul

    scaled = dropout_with_mask(full(mask_shape, 1.0, dtype=x._data.dtype), p)[0]
    return mul(x, scaled)


def _channel_dropout(x: Any, p: float, training: bool, ranks: tuple[int, ...], op: str) -> Tensor:
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
    return shared_mask_dropout(x, p, mask_shape)


def dropout1d(input: Tensor, p: float = 0.5, training: bool = True) -> Tensor:
    """Zero whole channels of an (N, C, L) or (C, L) input with probability ``p`` (scaled by 1 / (1 - p)).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.ones((1, 2, 3)), ms.float32)
        >>> print(ops.dropout1d(x, p=0.5, training=False))
        [[[1. 1. 1.]
          [1. 1. 1.]]]
    """
    return _channel_dropout(input, p, training, (2, 3), "dropout1d")


def dropout2d(input: Tensor, p: float = 0.5, training: bool = True) -> Tensor:
    """Zero whole channels of an (N, C, H, W) input with probability ``p`` (scaled by 1 / (1 - p)).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.ones((1, 2, 2, 2)), ms.float32)
        >>> print(ops.dropout2d(x, p=0.5).shape)
        (1, 2, 2, 2)
    """
    return _channel_dropout(input, p, training, (4,), "dropout2d")


def dropout3d(input: Tensor, p: float = 0.5, training: bool = True) -> Tensor:
    """Zero whole channels of an (N, C, D, H, W) input with probability ``p`` (scaled by 1 / (1 - p)).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.ones((1, 2, 1, 2, 2)), ms.float32)
        >>> print(ops.dropout3d(x, p=0.5).shape)
        (1, 2, 1, 2, 2)
    """
    return _channel_dropout(input, p, training, (5,), "dropout3d")


__all__ = ["dropout", "dropout1d", "dropout2d", "dropout3d"]
