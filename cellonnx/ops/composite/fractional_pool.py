"""Fractional max / average pooling over NHWC inputs, as MindSpore's ``ops.FractionalMaxPool`` and
``ops.FractionalAvgPool`` (TensorFlow's kernels, which MindSpore follows).

The output has ``floor(in / ratio)`` rows and columns. The pooling sequences (the cells' boundaries,
``out + 1`` values from 0 to ``in``) are drawn in NumPy from cellonnx's random streams: 'random' shuffles
cells of ``in // out`` and ``in // out + 1`` pixels; 'pseudo-random' puts the boundaries at
``ceil(alpha * (i + u))`` (alpha = in / out, one uniform ``u``), as in Graham's paper. A cell spans
``[seq[i], seq[i + 1])``, or ``[seq[i], seq[i + 1]]`` when ``overlapping`` (clipped to the input). The
pooling itself is written over slices and reductions (a rectangle's max / mean is taken over its rows, then
its columns), so it is differentiable; integer inputs average by truncating division, as TensorFlow's.

The sequences are random per call, so these run eagerly only: inside a traced (exported) function they
raise, naming the op.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from cellonnx import dtypes
from cellonnx import ops as _ops
from cellonnx.ops import registry
from cellonnx.tensor import Tensor

F: Any = _ops

__all__: list[str] = []

_DTYPES = ("float32", "float64", "int32", "int64")


def pooling_sequence(n_in: int, n_out: int, pseudo_random: bool, rng: np.random.Generator) -> np.ndarray:
    """The ``n_out + 1`` cell boundaries (int64) that split ``n_in`` pixels into ``n_out`` cells."""
    k = n_in // n_out
    if pseudo_random:
        alpha = n_in / n_out
        max_u = min((k + 2) / alpha - 1, (n_in + 1 - k) / alpha - (n_out - 1))
        u = rng.random() * max_u
        cum = [1] + [math.ceil(alpha * (i + u)) for i in range(1, n_out)] + [n_in + 1]
        diff = np.diff(np.asarray(cum, np.int64))
    else:
        diff = np.full(n_out, k, np.int64)
        diff[:n_in % n_out] += 1
        rng.shuffle(diff)
    return np.concatenate([[0], np.cumsum(diff)]).astype(np.int64)


def pool_with_sequences(x: Tensor, rows: np.ndarray, cols: np.ndarray, overlapping: bool,
                        mode: str) -> Tensor:
    """Pool NHWC ``x`` over the cells that the boundaries ``rows`` / ``cols`` give ('max' or 'avg')."""
    integer = not dtypes.to_numpy(x.dtype).kind == "f"

    def cells(seq: np.ndarray, size: int) -> list[tuple[int, int]]:
        ends = [min(int(e) + 1, size) if overlapping else int(e) for e in seq[1:]]
        return [(int(b), e) for b, e in zip(seq[:-1], ends)]

    def reduce(t: Tensor, axis: int, seq: np.ndarray) -> Tensor:
        parts = []
        for b, e in cells(seq, int(t.shape[axis])):
            part = t[(slice(None),) * axis + (slice(b, e),)]
            if mode == "max":
                parts.append(F.amax(part, axis, keepdims=True))
            elif integer:
                parts.append(F.sum(part, axis, keepdim=True))
            else:
                parts.append(F.mean(part, axis, keep_dims=True))
        return F.concat(parts, axis)

    y = reduce(reduce(x, 1, rows), 2, cols)
    if mode == "avg" and integer:
        counts = np.array([[(re - rb) * (ce - cb) for cb, ce in cells(cols, int(x.shape[2]))]
                           for rb, re in cells(rows, int(x.shape[1]))], dtypes.to_numpy(x.dtype))
        y = F.truncate_div(y, Tensor(counts[None, :, :, None]))
    return y


def fractional_pool(x: Tensor, pooling_ratio: Sequence[float], pseudo_random: bool, overlapping: bool,
                    rng: np.random.Generator, mode: str, op: str) -> tuple[Tensor, Tensor, Tensor]:
    """(pooled x, row boundaries, column boundaries) of an NHWC input; see the module docstring."""
    if registry.ACTIVE_TRACER is not None:
        raise NotImplementedError(f"ops.{op} cannot be exported to ONNX: its pooling cells are drawn at "
                                  "random on each call; it runs eagerly only")
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{op}', 'x' must be a Tensor, but got {type(x).__name__}.")
    if x.ndim != 4:
        raise TypeError(f"For '{op}', 'x' must be a 4-D Tensor (N, H, W, C), but got shape {tuple(x.shape)}.")
    if dtypes.to_numpy(x.dtype).name not in _DTYPES:
        raise TypeError(f"For '{op}', the dtype of 'x' must be one of {list(_DTYPES)}, but got {x.dtype}.")
    sizes = [int(x.shape[1]), int(x.shape[2])]
    outs = [int(n / r) for n, r in zip(sizes, pooling_ratio[1:3])]
    if min(outs) < 1:
        raise ValueError(f"For '{op}', the output's rows and columns floor(input / pooling_ratio) must be "
                         f"positive, but got {outs} for the input {sizes} and pooling_ratio {pooling_ratio}.")
    rows = pooling_sequence(sizes[0], outs[0], pseudo_random, rng)
    cols = pooling_sequence(sizes[1], outs[1], pseudo_random, rng)
    return pool_with_sequences(x, rows, cols, overlapping, mode), Tensor(rows), Tensor(cols)
