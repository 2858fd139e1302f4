"""The ALiBi position shift that MindSpore's fused attention kernels generate inside (speed_fusion_attention
with pse_type 2 and 3): one slope per batch and head, times minus the distance between query and key
positions (or its square root).
"""
from __future__ import annotations

from typing import Any

from cellonnx import dtypes
from cellonnx import ops as _ops
from cellonnx.ops.composite.flash_attention import _float, _ints
from cellonnx.tensor import Tensor

F: Any = _ops  # the functional API; its names are filled in at import time, so typed loosely


def start_index(value: Any, name: str, op: str) -> int:
    """q_start_idx / kv_start_idx: None (0) or one int (in a list, tuple or Tensor)."""
    v = _ints(value)
    if v is None:
        return 0
    if v.size != 1:
        raise ValueError(f"For '{op}', '{name}' must hold one int, but got {v.tolist()}")
    return int(v[0])


def alibi_slopes(pse: Any, batch: int, heads: int, op: str) -> Tensor:
    """The slopes ``pse`` (B, N1) or (N1,) as a (B or 1, N1, 1, 1) tensor."""
    s = _float(pse, "pse", op)
    shape, heads = [int(d) for d in s.shape], int(heads)
    if shape == [heads]:
        return F.reshape(s, (1, heads, 1, 1))
    if shape == [int(batch), heads]:
        return F.reshape(s, (-1, heads, 1, 1))
    raise ValueError(f"For '{op}', with pse_type 2 / 3 'pse' holds the ALiBi slopes, (B, N1) = ({batch}, "
                     f"{heads}) or (N1,) = ({heads},), but got {tuple(s.shape)}")


def alibi_shift(slopes: Tensor, s1: int, s2: int, q_start: int, kv_start: int, root: bool,
                dtype: Any) -> Tensor:
    r"""(B or 1, N1, S1, S2): :math:`-slope \cdot |(j + kv\_start) - (i + q\_start)|`, its square root
    under ``root`` (the row 0 of the shift aligned with the top-left corner of the scores)."""
    # in ops, not NumPy: S1 and S2 may be dims read at run time
    i = F.reshape(F.arange(s1, dtype=dtypes.float64), (-1, 1))
    j = F.reshape(F.arange(s2, dtype=dtypes.float64), (1, -1))
    dist = F.abs(F.sub(F.add(j, float(kv_start)), F.add(i, float(q_start))))
    if root:
        dist = F.sqrt(dist)
    return F.mul(F.cast(slopes, dtype), F.cast(F.neg(dist), dtype))


__all__: list[str] = []
