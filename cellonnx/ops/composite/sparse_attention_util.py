"""Helpers shared by the sparse attention kernels (native sparse attention, the DeepSeek sparse attention
indexer and its sparse flash attention): sequence bounds from lengths, a masked softmax over any rank, the
paged key cache read back as dense keys, argument checks.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import ops as _ops
from cellonnx.ops.composite.flash_attention import _float, _ints
from cellonnx.ops.prims._util import to_tensor
from cellonnx.tensor import Tensor

F: Any = _ops  # the functional API; its names are filled in at import time, so typed loosely

INT64_MAX = 9223372036854775807


def as_float(x: Any, name: str, op: str) -> Tensor:
    """``x`` as a float Tensor (TypeError naming ``name`` otherwise)."""
    if x is None:
        raise TypeError(f"For '{op}', '{name}' must be a Tensor, but got None")
    return _float(x, name, op)


def ends_of(cum: Any, total: int, name: str, op: str) -> list[tuple[int, int]]:
    """The (start, end) rows of each batch from cumulative ends ``cum`` (prefix sums whose last value is
    ``total``)."""
    c = _ints(cum)
    if c is None or c.size == 0:
        raise ValueError(f"For '{op}', '{name}' must list the cumulative sequence ends of each batch, but "
                         f"got {cum!r}")
    if (np.diff(c) < 0).any() or c[0] < 0:
        raise ValueError(f"For '{op}', '{name}' {c.tolist()} must be non-decreasing and non-negative "
                         f"(cumulative ends)")
    if int(c[-1]) != total:
        raise ValueError(f"For '{op}', the last value of '{name}' ({int(c[-1])}) must equal T = {total}")
    starts = np.concatenate([[0], c[:-1]])
    return [(int(a), int(b)) for a, b in zip(starts, c)]


def lengths_of(lens: Any, batch: int, size: int, name: str, op: str) -> np.ndarray:
    """Per-batch valid lengths (None: ``size`` each; one value: the same for every batch), checked
    against ``size``."""
    v = _ints(lens)
    if v is None:
        return np.full(batch, size, np.int64)
    if v.size == 1:
        v = np.repeat(v, batch)
    if v.size != batch or (v < 0).any() or (v > size).any():
        raise ValueError(f"For '{op}', '{name}' must hold {batch} lengths in [0, {size}], but got "
                         f"{v.tolist()}")
    return v


def masked_softmax(s: Tensor, keep: Any) -> tuple[Tensor, Tensor, Tensor]:
    """Softmax over the last axis of ``s`` where ``keep`` (broadcast to ``s``) is True; a row with nothing
    kept gives zeros. Returns (p, row max, row sum of exp(s - max)); the max of an empty row is 0."""
    keep_t = keep if isinstance(keep, Tensor) else Tensor(np.asarray(keep, dtype=np.bool_))
    keep_t = F.broadcast_to(keep_t, tuple(s.shape))
    low = float(np.finfo(s._data.dtype).min)
    s = F.where(keep_t, s, F.full_like(s, low))
    row_max = F.amax(s, -1, True)
    e = F.mul(F.exp(F.sub(s, row_max)), F.cast(keep_t, s.dtype))
    row_sum = F.sum(e, -1, True)
    any_kept = F.greater(row_sum, 0)
    p = F.div(e, F.where(any_kept, row_sum, F.ones_like(row_sum)))
    return p, F.where(any_kept, row_max, F.zeros_like(row_max)), row_sum


def dense_paged(cache: Tensor, block_table: Any, op: str) -> Tensor:
    """A paged cache (block_num, block_size, N, D) read through ``block_table`` (B, max_blocks) as dense
    (B, max_blocks * block_size, N, D) rows; a negative table entry reads block 0 (its rows lie past the
    batch's length and are masked by the caller)."""
    if block_table is None:
        raise ValueError(f"For '{op}', layout 'PA_BSND' needs 'block_table'")
    if cache.ndim != 4:
        raise ValueError(f"For '{op}', the paged key / value must be (block_num, block_size, N2, D), but got "
                         f"{tuple(cache.shape)}")
    table = to_tensor(block_table)
    if table.ndim != 2:
        raise ValueError(f"For '{op}', 'block_table' must be (B, max_blocks), but got {tuple(table.shape)}")
    table = F.clamp(F.cast(table, np.int64), 0, cache.shape[0] - 1)
    rows = F.gather(cache, table, 0)  # (B, max_blocks, block_size, N, D)
    return F.reshape(rows, (-1, table.shape[1] * cache.shape[1]) + tuple(cache.shape[2:]))


def check_layout(value: Any, name: str, allowed: tuple, op: str) -> str:
    if not isinstance(value, str) or value.upper() not in allowed:
        raise ValueError(f"For '{op}', '{name}' must be one of {', '.join(allowed)}, but got {value!r}")
    return value.upper()


def check_int(value: Any, name: str, op: str, low: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or int(value) < low:
        raise ValueError(f"For '{op}', '{name}' must be an int >= {low}, but got {value!r}")
    return int(value)


def check_default_tokens(pre_tokens: Any, next_tokens: Any, op: str) -> None:
    """pre_tokens / next_tokens are reserved by these kernels: only the default 2^63-1 is supported."""
    for name, value in (("pre_tokens", pre_tokens), ("next_tokens", next_tokens)):
        if int(value) != INT64_MAX:
            raise ValueError(f"For '{op}', '{name}' supports only its default 2^63-1 (the kernel reserves "
                             f"it), but got {value}")


def group_heads(n1: int, n2: int, op: str) -> int:
    """G = N1 / N2 (query heads a key / value head serves)."""
    if n2 <= 0 or n1 % n2:
        raise ValueError(f"For '{op}', the query head number {n1} must be a multiple of the key / value head "
                         f"number {n2}")
    return n1 // n2


__all__: list[str] = []
