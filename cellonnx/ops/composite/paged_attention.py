"""The paged key / value cache of large-model inference (MindSpore's Ascend PagedAttention and
ReshapeAndCache) as compositions of primitives.

The cache is a pool of blocks, (num_blocks, block_size, kvN, D) or (num_blocks, block_size, kvH); slot
``s`` is position ``s % block_size`` of block ``s // block_size``. ``reshape_and_cache`` writes each
token's key / value to its slot; ``paged_attention`` reads the context of each query token through its row
of ``block_tables`` (the blocks in order) and its ``context_lens`` (the positions in use).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import dtypes
from cellonnx import ops as _ops
from cellonnx.ops.composite.flash_attention import _float, _ints, attend, cast_any, repeat_kv
from cellonnx.ops.prims._util import to_tensor
from cellonnx.tensor import Tensor

F: Any = _ops  # the functional API; its names are filled in at import time, so typed loosely


def _write(cache: Tensor, rows: Tensor, slots: Any, op: str, what: str) -> None:
    from cellonnx.ops.operations._util import assign_to
    if cache.ndim < 3:
        raise ValueError(f"For '{op}', '{what}' must be (num_blocks, block_size, ...), but got "
                         f"{tuple(cache.shape)}")
    width = int(np.prod(cache.shape[2:]))
    rows = F.reshape(rows, (-1, width)) if int(np.prod(rows.shape)) % width == 0 else rows
    if rows.ndim != 2 or rows.shape[1] != width:
        raise ValueError(f"For '{op}', the tokens written to '{what}' {tuple(cache.shape)} must have "
                         f"{width} values each")
    slot_t = F.reshape(to_tensor(slots), (-1,))
    if slot_t.shape[0] != rows.shape[0]:
        raise ValueError(f"For '{op}', 'slot_mapping' holds {slot_t.shape[0]} slots for "
                         f"{rows.shape[0]} tokens")
    values = _ints(slot_t)
    assert values is not None
    size = cache.shape[0] * cache.shape[1]
    if (values >= size).any():
        raise ValueError(f"For '{op}', 'slot_mapping' {values.tolist()} has slots past the "
                         f"{size} of '{what}'")
    if (values < 0).any():  # a negative slot (padding token) is not written
        used = np.nonzero(values >= 0)[0]
        rows = F.gather(rows, Tensor(used.astype(np.int64)), 0)
        slot_t = Tensor(values[used])
    flat = F.reshape(cache, (size, width))
    new = F.tensor_scatter_update(flat, F.reshape(F.cast(slot_t, dtypes.int64), (-1, 1)),
                                  F.cast(rows, flat.dtype))
    assign_to(cache, F.reshape(new, tuple(cache.shape)), op)


def reshape_and_cache(key: Tensor, value: Tensor | None = None, key_cache: Tensor | None = None,
                      value_cache: Tensor | None = None, slot_mapping: Tensor | None = None) -> Tensor:
    """Write each token's key (and value) into the block caches at its slot, in place.

    Args:
        key (Tensor): the new keys, (num_tokens, kvN, D), (num_tokens, kvH) or (B, S, kvH).
        value (Tensor, optional): the new values, of ``key``'s shape. Default ``None``.
        key_cache (Parameter): (num_blocks, block_size, kvN, D) or (num_blocks, block_size, kvH).
        value_cache (Parameter, optional): of ``key_cache``'s layout. Default ``None``.
        slot_mapping (Tensor): int32 (num_tokens,): the slot of each token (block * block_size + offset);
            a negative slot is not written.

    Returns:
        Tensor, ``key_cache`` (updated).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> key_cache = Parameter(Tensor(np.zeros((2, 2, 1, 2)), ms.float32), name="key_cache")
        >>> key = Tensor(np.array([[[1.0, 2.0]], [[3.0, 4.0]]]), ms.float32)
        >>> _ = ops.ReshapeAndCache()(key, None, key_cache, None, Tensor(np.array([3, 0]), ms.int32))
        >>> print(key_cache.asnumpy().reshape(4, 2))
        [[3. 4.]
         [0. 0.]
         [0. 0.]
         [1. 2.]]
    """
    op = "ReshapeAndCache"
    if key_cache is None or slot_mapping is None:
        raise ValueError(f"For '{op}', 'key_cache' and 'slot_mapping' must be given")
    _write(key_cache, _float(key, "key", op), slot_mapping, op, "key_cache")
    if value is not None:
        if value_cache is None:
            raise ValueError(f"For '{op}', 'value' is given but 'value_cache' is None")
        _write(value_cache, _float(value, "value", op), slot_mapping, op, "value_cache")
    return key_cache


def _as_tokens(query: Tensor, head_num: int, op: str) -> tuple[Tensor, tuple]:
    """(T, N, D) queries and the shape the output takes back (``None``: (T, N, Dv))."""
    if query.ndim == 3 and query.shape[1] == head_num:
        return query, ()
    h = query.shape[-1]
    if h % head_num:
        raise ValueError(f"For '{op}', the hidden size {h} of 'query' {tuple(query.shape)} is not divisible "
                         f"by 'head_num' {head_num}")
    return F.reshape(query, (-1, head_num, h // head_num)), tuple(query.shape[:-1])


def _cache4(cache: Tensor, kv_heads: int, op: str, what: str) -> Tensor:
    if cache.ndim == 4:
        return cache
    if cache.ndim == 3 and cache.shape[2] % kv_heads == 0:
        return F.reshape(cache, tuple(cache.shape[:2]) + (kv_heads, cache.shape[2] // kv_heads))
    raise ValueError(f"For '{op}', '{what}' must be (num_blocks, block_size, kvN, D) or (num_blocks, "
                     f"block_size, kvH), but got {tuple(cache.shape)}")


def _additive(mask: Any, t: int, width: int, op: str, what: str) -> Tensor:
    """An additive (num_tokens, [N, [1,]] W <= width) mask as (T, N | 1, 1, width), zero-padded."""
    m = to_tensor(mask)
    w = m.shape[-1]
    if m.shape[0] != t or w > width:
        raise ValueError(f"For '{op}', '{what}' must be (num_tokens={t}, ..., W) with W <= {width}, but got "
                         f"{tuple(m.shape)}")
    m = F.reshape(m, (t, -1, 1, w))
    if w < width:
        m = F.concat([m, F.zeros(tuple(m.shape[:3]) + (width - w,), m.dtype)], -1)
    return m


def paged_attention(query: Tensor, key_cache: Tensor, value_cache: Tensor | None, block_tables: Tensor,
                    context_lens: Tensor, head_num: int, scale_value: float, kv_head_num: int,
                    attn_mask: Tensor | None = None, q_seq_lens: Any = None, alibi_mask: Tensor | None = None,
                    mask_mode: str = "MASK_DEFAULT", mla_v_dim: int = 0) -> Tensor:
    """Attention of query tokens over their context in a paged cache (:class:`cellonnx.ops.PagedAttention`).

    Token t reads positions ``p < context_lens[t]`` of the blocks ``block_tables[t]``; with ``q_seq_lens``
    the tables and lengths are a batch's, its ``q_seq_lens[b]`` tokens are the last ones of its context and
    token i sees the positions up to its own. ``attn_mask`` and ``alibi_mask`` are added to the scaled
    scores.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> q = Tensor(np.ones((1, 1, 2)), ms.float32)
        >>> cache = Tensor(np.arange(8.0).reshape(2, 2, 1, 2), ms.float32)
        >>> out = ops.PagedAttention(1, 1.0, 1)(q, cache, cache, Tensor([[1, 0]], ms.int32),
        ...                                      Tensor([1], ms.int32))
        >>> print(out.asnumpy())
        [[[4. 5.]]]
    """
    op = "PagedAttention"
    if mask_mode not in ("MASK_DEFAULT", "TRAPEZOIDAL"):
        raise ValueError(f"For '{op}', 'mask_mode' must be 'MASK_DEFAULT' or 'TRAPEZOIDAL', "
                         f"got {mask_mode!r}")
    q, back = _as_tokens(_float(query, "query", op), head_num, op)
    k = _cache4(_float(key_cache, "key_cache", op), kv_head_num, op, "key_cache")
    if value_cache is None:
        if mla_v_dim <= 0:
            raise ValueError(f"For '{op}', 'value_cache' may be None only with 'mla_v_dim' > 0")
        v = cast_any(k)[..., :mla_v_dim]
    else:
        v = _cache4(_float(value_cache, "value_cache", op), kv_head_num, op, "value_cache")
    t = q.shape[0]
    table, ctx = to_tensor(block_tables), F.reshape(to_tensor(context_lens), (-1,))
    if table.ndim != 2:
        raise ValueError(f"For '{op}', 'block_tables' must be 2-D, but got {tuple(table.shape)}")
    lens = _ints(q_seq_lens)
    if lens is not None:
        if lens.size != table.shape[0] or lens.sum() != t:
            raise ValueError(f"For '{op}', 'q_seq_lens' {lens.tolist()} must hold one length a batch "
                             f"({table.shape[0]}) and add up to the {t} query tokens")
        of_token = np.repeat(np.arange(lens.size), lens)
        ahead = np.concatenate([np.arange(n)[::-1] for n in lens]) if t else np.zeros(0, np.int64)
        table = F.gather(table, Tensor(of_token), 0)
        ctx = F.gather(ctx, Tensor(of_token), 0)
    else:
        if table.shape[0] != t:
            raise ValueError(f"For '{op}', 'block_tables' needs one row a query token ({t}), but got "
                             f"{tuple(table.shape)}")
        ahead = np.zeros(t, np.int64)
    nb, bs = k.shape[0], k.shape[1]
    width = table.shape[1] * bs
    pos = np.arange(width)
    blk = F.gather(F.cast(table, dtypes.int64), Tensor(pos // bs), 1)             # (T, width)
    slot = F.add(F.mul(F.maximum(blk, 0), bs), Tensor(pos % bs))
    slot = F.reshape(slot, (-1,))

    def read(cache: Tensor) -> Tensor:
        rows = F.gather(F.reshape(cache, (nb * bs,) + tuple(cache.shape[2:])), slot, 0)
        rows = F.reshape(rows, (t, width) + tuple(cache.shape[2:]))
        return repeat_kv(F.transpose(rows, (0, 2, 1, 3)), head_num, op)         # (T, N, width, D)

    limit = F.sub(F.cast(ctx, dtypes.int64), Tensor(ahead.astype(np.int64)))
    keep = F.less(Tensor(pos[None, :]), F.expand_dims(limit, 1))                 # (T, width)
    keep = F.reshape(keep, (t, 1, 1, width))
    shift = None
    for m, what in ((attn_mask, "attn_mask"), (alibi_mask, "alibi_mask")):
        if m is not None:
            add = _additive(m, t, width, op, what)
            shift = add if shift is None else F.add(shift, add)
    if shift is not None:
        shift = F.cast(shift, q.dtype)
    out = attend(F.expand_dims(q, 2), read(k), read(v), float(scale_value), keep, shift, False)[0]
    out = F.reshape(out, (t, head_num, out.shape[-1]))
    return out if not back else F.reshape(out, back + (head_num * out.shape[-1],))


__all__: list[str] = []
