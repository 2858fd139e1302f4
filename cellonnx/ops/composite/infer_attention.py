"""MindSpore's fused attention kernels of inference (Ascend) as compositions of primitives:
prompt_flash_attention (the full prompt), incre_flash_attention (one decoding step over a key / value cache,
contiguous or paged through a block table), and the paged cache of PagedAttention / ReshapeAndCache
(``reshape_and_cache`` writes keys and values into block caches through a slot mapping; ``paged_attention``
reads them through block tables and context lengths). The quantization arguments (int8 scales and offsets)
are accepted and must be None: cellonnx computes in floating point.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import ops as _ops
from cellonnx.ops.composite.flash_attention import (
    INT_MAX,
    _check_layout,
    _float,
    _ints,
    attend,
    from_bnsd,
    repeat_kv,
    sparse_keep,
    to_bnsd,
)
from cellonnx.ops.prims._util import to_tensor
from cellonnx.tensor import Tensor

F: Any = _ops  # the functional API; its names are filled in at import time, so typed loosely


def _no_quant(op: str, **given: Any) -> None:
    used = [name for name, value in given.items() if value is not None]
    if used:
        raise ValueError(f"For '{op}', the quantization arguments {', '.join(used)} are not supported: "
                         f"cellonnx computes attention in floating point (pass None)")


def _kv_heads(num_heads: int, num_key_value_heads: int, op: str) -> int:
    if not isinstance(num_heads, int) or num_heads <= 0:
        raise ValueError(f"For '{op}', 'num_heads' must be a positive int, but got {num_heads!r}")
    kvn = num_key_value_heads or num_heads
    if kvn < 0 or num_heads % kvn:
        raise ValueError(f"For '{op}', 'num_heads' ({num_heads}) must be divisible by 'num_key_value_heads' "
                         f"({num_key_value_heads})")
    return kvn


def _mask4(attn_mask: Any, b: int, s1: int, s2: int, op: str) -> Tensor:
    """A discard mask (True / nonzero = discard) of (S1, S2), (B | 1, S1, S2) or (B | 1, 1, S1, S2) as a
    bool (B | 1, 1, S1, S2) tensor."""
    m = to_tensor(attn_mask)
    m = m if m._data.dtype == np.bool_ else F.not_equal(m, 0)
    shape = tuple(m.shape)
    if m.ndim == 2:
        m = F.reshape(m, (1, 1) + shape)
    elif m.ndim == 3:
        m = F.expand_dims(m, 1)
    if m.ndim != 4 or m.shape[0] not in (1, b) or m.shape[1] != 1 or tuple(m.shape[2:]) != (s1, s2):
        raise ValueError(f"For '{op}', 'attn_mask' must be (S1, S2), (B, S1, S2) or (B, 1, S1, S2) with "
                         f"B={b}, S1={s1}, S2={s2}, but got shape {shape}")
    return m


def _lengths(x: Any, b: int, s: int, what: str, op: str) -> np.ndarray | None:
    n = _ints(x)
    if n is None:
        return None
    if n.size == 1:
        n = np.repeat(n, b)
    if n.size != b or (n < 0).any() or (n > s).any():
        raise ValueError(f"For '{op}', '{what}' must hold one length in [0, {s}] per batch ({b}), but got "
                         f"{n.tolist()}")
    return n


def prompt_flash_attention(query: Tensor, key: Tensor, value: Tensor, attn_mask: Tensor | None = None,
                           actual_seq_lengths: Any = None, actual_seq_lengths_kv: Any = None,
                           pse_shift: Tensor | None = None, deq_scale1: Any = None, quant_scale1: Any = None,
                           deq_scale2: Any = None, quant_scale2: Any = None, quant_offset2: Any = None,
                           num_heads: int = 1, scale_value: float = 1.0, pre_tokens: int = INT_MAX,
                           next_tokens: int = 0, input_layout: str = "BSH", num_key_value_heads: int = 0,
                           sparse_mode: int = 0, inner_precise: int = 1) -> Tensor:
    r"""Attention of full (prompt) inference (MindSpore's fused Ascend PromptFlashAttention).

    .. math::
        out = Softmax(Mask(scale\_value \cdot Q K^T + pse\_shift, attn\_mask)) V

    Args:
        query (Tensor): (B, S1, H) in layout "BSH", (B, N, S1, D) in "BNSD".
        key (Tensor): (B, S2, kvH) / (B, kvN, S2, D).
        value (Tensor): of ``key``'s shape.
        attn_mask (Tensor, optional): bool / int8 / uint8, True or 1 discards: (S1, S2), (B, S1, S2),
            (1, S1, S2), (B, 1, S1, S2) or (1, 1, S1, S2) for sparse modes 0 and 1. Modes 2, 3 and 4 take the
            causal / band shape from the mode instead of their compressed (2048, 2048) mask. Default ``None``.
        actual_seq_lengths (Union[Tensor, tuple[int], list[int]], optional): the used query length of each
            batch; the rows after it give zeros. Default ``None``.
        actual_seq_lengths_kv (Union[Tensor, tuple[int], list[int]], optional): the used key / value length
            of each batch; the keys after it are discarded. Default ``None``.
        pse_shift (Tensor, optional): the position shift added to the scaled scores, (B, N, S1, S2) or
            (1, N, S1, S2). Default ``None``.
        deq_scale1, quant_scale1, deq_scale2, quant_scale2, quant_offset2: int8 quantization; must be None.
        num_heads (int): N, the query heads. Default ``1``.
        scale_value (float): the scale of the scores. Default ``1.0``.
        pre_tokens (int): the band's reach before the diagonal (modes 0 with a mask, and 4). Default
            ``2147483647``.
        next_tokens (int): the band's reach after the diagonal. Default ``0``.
        input_layout (str): "BSH" or "BNSD". Default ``"BSH"``.
        num_key_value_heads (int): kvN (0: ``num_heads``); query head h reads key head h // (N / kvN).
            Default ``0``.
        sparse_mode (int): 0, 1, 2, 3 or 4, as in :func:`flash_attention_score` (0 without a mask: no band).
            Default ``0``.
        inner_precise (int): precision mode of the kernel (no effect here). Default ``1``.

    Returns:
        Tensor of ``query``'s shape and dtype.

    Supported Platforms:
        ``CPU``

    Examples:
        >>> import numpy as np
        >>> from cellonnx import ops, Tensor
        >>> B, N, S, D = 1, 2, 4, 8
        >>> query = Tensor(np.ones((B, N, S, D), dtype=np.float16))
        >>> key = Tensor(np.ones((B, N, S, D), dtype=np.float16))
        >>> value = Tensor(np.ones((B, N, S, D), dtype=np.float16))
        >>> out = ops.prompt_flash_attention(query, key, value, None, None, None, None, None, None, None,
        ...                                  None, None, N, input_layout='BNSD')
        >>> print(out.shape)
        (1, 2, 4, 8)
    """
    op = "PromptFlashAttention"
    _no_quant(op, deq_scale1=deq_scale1, quant_scale1=quant_scale1, deq_scale2=deq_scale2,
              quant_scale2=quant_scale2, quant_offset2=quant_offset2)
    layout = _check_layout(input_layout, op, ("BSH", "BNSD"))
    out = _prompt_parts(query, key, value, attn_mask, actual_seq_lengths, actual_seq_lengths_kv, pse_shift,
                        num_heads, scale_value, pre_tokens, next_tokens, layout, num_key_value_heads,
                        sparse_mode, op)[0]
    return from_bnsd(out, layout)


def _prompt_parts(query: Any, key: Any, value: Any, attn_mask: Any, actual_seq_lengths: Any,
                  actual_seq_lengths_kv: Any, pse_shift: Any, num_heads: int, scale_value: float,
                  pre_tokens: int, next_tokens: int, layout: str, num_key_value_heads: int, sparse_mode: int,
                  op: str) -> tuple[Tensor, Tensor, Tensor]:
    """Prompt attention in (B, N, S1, D): (out, row max, row sum)."""
    kvn = _kv_heads(num_heads, num_key_value_heads, op)
    if sparse_mode not in (0, 1, 2, 3, 4):
        raise ValueError(f"For '{op}', 'sparse_mode' must be 0, 1, 2, 3 or 4, but got {sparse_mode}")
    q = to_bnsd(_float(query, "query", op), layout, num_heads, "query", op)
    k = to_bnsd(_float(key, "key", op), layout, kvn, "key", op)
    v = to_bnsd(_float(value, "value", op), layout, kvn, "value", op)
    if q.shape[1] != num_heads or k.shape[1] != kvn:
        raise ValueError(f"For '{op}', 'query' / 'key' must have {num_heads} / {kvn} heads, but got shapes "
                         f"{tuple(to_tensor(query).shape)} and {tuple(to_tensor(key).shape)}")
    k, v = repeat_kv(k, num_heads, op), repeat_kv(v, num_heads, op)
    b, _, s1, _ = q.shape
    s2 = k.shape[2]
    qlen = _lengths(actual_seq_lengths, b, s1, "actual_seq_lengths", op)
    kvlen = _lengths(actual_seq_lengths_kv, b, s2, "actual_seq_lengths_kv", op)
    keep: Any = None
    has_mask = attn_mask is not None
    if qlen is None and kvlen is None:
        band = sparse_keep(sparse_mode, s1, s2, pre_tokens, next_tokens, has_mask, op)
        keep = None if band is None else band[None, None]
    else:
        # the band's bottom-right vertex sits at each batch's used lengths
        ql = qlen if qlen is not None else np.full(b, s1)
        kl = kvlen if kvlen is not None else np.full(b, s2)
        rows = []
        for i in range(b):
            band = sparse_keep(sparse_mode, s1, s2, pre_tokens, next_tokens, has_mask, op)
            if sparse_mode in (3, 4):
                origin = int(kl[i] - ql[i])
                from cellonnx.ops.composite.flash_attention import band_keep
                band = band_keep(s1, s2, INT_MAX if sparse_mode == 3 else pre_tokens,
                                 0 if sparse_mode == 3 else next_tokens, origin)
            band = np.ones((s1, s2), bool) if band is None else band
            band = band & (np.arange(s2)[None, :] < kl[i])
            rows.append(band)
        keep = np.stack(rows)[:, None]
    keep_t: Any = None if keep is None else Tensor(keep)
    if has_mask and sparse_mode in (0, 1):
        kept = F.logical_not(_mask4(attn_mask, b, s1, s2, op))
        keep_t = kept if keep_t is None else F.logical_and(kept, keep_t)
    shift = None if pse_shift is None else _float(pse_shift, "pse_shift", op)
    out, mx, sm = attend(q, k, v, float(scale_value), keep_t, shift, False)
    if qlen is not None:
        rows_used = np.arange(s1)[None, None, :, None] < qlen[:, None, None, None]
        out = F.mul(out, Tensor(rows_used.astype(out._data.dtype)))
    return out, mx, sm




def _paged_kv(cache: Tensor, block_table: Any, block_size: int, b: int, op: str, what: str) -> Tensor:
    """Keys / values of a paged cache (num_blocks, block_size, H) or (num_blocks, kvN, block_size, D) read
    through ``block_table`` (B, max_blocks) as contiguous (B, max_blocks * block_size, H) or
    (B, kvN, max_blocks * block_size, D)."""
    table = to_tensor(block_table)
    if table.ndim != 2 or table.shape[0] != b:
        raise ValueError(f"For '{op}', 'block_table' must be (B, max_block_num_per_seq) with B={b}, but got "
                         f"{tuple(table.shape)}")
    if cache.ndim == 3:
        if cache.shape[1] != block_size:
            raise ValueError(f"For '{op}', a paged '{what}' must be (num_blocks, "
                             f"block_size={block_size}, H), "
                             f"but got {tuple(cache.shape)}")
        blocks = F.gather(cache, F.reshape(table, (-1,)), 0)        # (B * M, bs, H)
        return F.reshape(blocks, (b, -1, cache.shape[2]))
    if cache.ndim != 4 or cache.shape[2] != block_size:
        raise ValueError(f"For '{op}', a paged '{what}' must be (num_blocks, kvN, "
                         f"block_size={block_size}, D), "
                         f"but got {tuple(cache.shape)}")
    blocks = F.gather(cache, F.reshape(table, (-1,)), 0)            # (B * M, kvN, bs, D)
    m = table.shape[1]
    blocks = F.reshape(blocks, (b, m) + tuple(cache.shape[1:]))
    blocks = F.transpose(blocks, (0, 2, 1, 3, 4))
    return F.reshape(blocks, (b, cache.shape[1], m * block_size, cache.shape[3]))


def _one_tensor(x: Any, what: str, op: str) -> Tensor:
    """IncreFlashAttention's key / value: a Tensor or a list of Tensors (one, or one a batch)."""
    if isinstance(x, (list, tuple)):
        if not x:
            raise ValueError(f"For '{op}', '{what}' must not be an empty list")
        return _float(x[0], what, op) if len(x) == 1 else F.concat([_float(t, what, op) for t in x], 0)
    return _float(x, what, op)


def incre_flash_attention(query: Tensor, key: Any, value: Any, attn_mask: Tensor | None = None,
                          actual_seq_lengths: Any = None, pse_shift: Tensor | None = None,
                          dequant_scale1: Any = None, quant_scale1: Any = None, dequant_scale2: Any = None,
                          quant_scale2: Any = None, quant_offset2: Any = None, antiquant_scale: Any = None,
                          antiquant_offset: Any = None, block_table: Tensor | None = None, num_heads: int = 1,
                          input_layout: str = "BSH", scale_value: float = 1.0, num_key_value_heads: int = 0,
                          block_size: int = 0, inner_precise: int = 1,
                          kv_padding_size: Tensor | None = None) -> Tensor:
    r"""Attention of one decoding step over a key / value cache (MindSpore's fused Ascend
    IncreFlashAttention).

    .. math::
        out = Softmax(Mask(scale\_value \cdot Q K^T + pse\_shift, attn\_mask)) V

    Args:
        query (Tensor): (B, 1, H) in layout "BSH", (B, N, 1, D) in "BNSD".
        key (Union[Tensor, list[Tensor]]): (B, S, kvH) / (B, kvN, S, D), or a list of one such tensor or of
            B tensors with batch 1. Paged (``block_table`` given): (num_blocks, block_size, kvH) /
            (num_blocks, kvN, block_size, D).
        value (Union[Tensor, list[Tensor]]): of ``key``'s shape.
        attn_mask (Tensor, optional): bool / int8 / uint8, True or 1 discards: (B, S), (B, 1, S) or
            (B, 1, 1, S). Default ``None``.
        actual_seq_lengths (Union[Tensor, tuple[int], list[int]], optional): the used cache length of each
            batch (one value: all batches); the later positions are discarded. Default ``None``.
        pse_shift (Tensor, optional): added to the scaled scores, (1, N, 1, S) or (B, N, 1, S).
            Default ``None``.
        dequant_scale1, quant_scale1, dequant_scale2, quant_scale2, quant_offset2, antiquant_scale,
            antiquant_offset: int8 quantization; must be None.
        block_table (Tensor, optional): int32 (B, max_block_num_per_seq): the cache blocks of each batch, in
            order (paged attention). Default ``None``.
        num_heads (int): N. Default ``1``.
        input_layout (str): "BSH" or "BNSD". Default ``"BSH"``.
        scale_value (float): the scale of the scores. Default ``1.0``.
        num_key_value_heads (int): kvN (0: ``num_heads``). Default ``0``.
        block_size (int): tokens a cache block holds (paged attention). Default ``0``.
        inner_precise (int): precision mode of the kernel (no effect here). Default ``1``.
        kv_padding_size (Tensor, optional): left padding of the cache: batch b reads positions
            ``[S - kv_padding_size - actual_seq_lengths[b], S - kv_padding_size)``. Default ``None``.

    Returns:
        Tensor of ``query``'s shape and dtype.

    Supported Platforms:
        ``CPU``

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> B, N, S, D, kvN = 1, 4, 10, 16, 1
        >>> query = Tensor(np.ones((B, 1, N * D)), ms.float16)
        >>> key = [Tensor(np.ones((B, S, kvN * D)), ms.float16)]
        >>> value = [Tensor(np.ones((B, S, kvN * D)), ms.float16)]
        >>> out = ops.incre_flash_attention(query, key, value, num_heads=N, num_key_value_heads=kvN)
        >>> out.shape
        (1, 1, 64)
    """
    op = "IncreFlashAttention"
    _no_quant(op, dequant_scale1=dequant_scale1, quant_scale1=quant_scale1, dequant_scale2=dequant_scale2,
              quant_scale2=quant_scale2, quant_offset2=quant_offset2, antiquant_scale=antiquant_scale,
              antiquant_offset=antiquant_offset)
    layout = _check_layout(input_layout, op, ("BSH", "BNSD"))
    out = _incre_parts(query, key, value, attn_mask, actual_seq_lengths, pse_shift, block_table, num_heads,
                       layout, scale_value, num_key_value_heads, block_size, kv_padding_size, op)[0]
    return from_bnsd(out, layout)


def _incre_parts(query: Any, key: Any, value: Any, attn_mask: Any, actual_seq_lengths: Any, pse_shift: Any,
                 block_table: Any, num_heads: int, layout: str, scale_value: float, num_key_value_heads: int,
                 block_size: int, kv_padding_size: Any, op: str) -> tuple[Tensor, Tensor, Tensor]:
    """One decoding step in (B, N, 1, D): (out, row max, row sum)."""
    kvn = _kv_heads(num_heads, num_key_value_heads, op)
    q = to_bnsd(_float(query, "query", op), layout, num_heads, "query", op)
    b = q.shape[0]
    if q.shape[2] != 1:
        raise ValueError(f"For '{op}', 'query' must hold one position a batch, but got shape "
                         f"{tuple(to_tensor(query).shape)}")
    k, v = _one_tensor(key, "key", op), _one_tensor(value, "value", op)
    if block_table is not None:
        if block_size <= 0:
            raise ValueError(f"For '{op}', paged attention ('block_table' given) needs 'block_size' > 0")
        k = _paged_kv(k, block_table, block_size, b, op, "key")
        v = _paged_kv(v, block_table, block_size, b, op, "value")
    k = repeat_kv(to_bnsd(k, layout, kvn, "key", op), num_heads, op)
    v = repeat_kv(to_bnsd(v, layout, kvn, "value", op), num_heads, op)
    s = k.shape[2]
    keep: Any = None
    lens = _lengths(actual_seq_lengths, b, s, "actual_seq_lengths", op)
    if lens is not None:
        pos = np.arange(s)[None, :]
        if kv_padding_size is not None:
            pad = max(int(np.asarray(_ints(kv_padding_size))[0]), 0)
            keep = (pos >= s - pad - lens[:, None]) & (pos < s - pad)
        else:
            keep = pos < lens[:, None]
        keep = keep[:, None, None, :]
    keep_t: Any = None if keep is None else Tensor(keep)
    if attn_mask is not None:
        m = to_tensor(attn_mask)
        if m.shape[-1] != s or m.shape[0] != b or int(np.prod(m.shape)) != b * s:
            raise ValueError(f"For '{op}', 'attn_mask' must be (B, S), (B, 1, S) or (B, 1, 1, S) with B={b}, "
                             f"S={s}, but got {tuple(m.shape)}")
        kept = F.logical_not(_mask4(F.reshape(m, (b, 1, 1, s)), b, 1, s, op))
        keep_t = kept if keep_t is None else F.logical_and(kept, keep_t)
    shift = None if pse_shift is None else _float(pse_shift, "pse_shift", op)
    return attend(q, k, v, float(scale_value), keep_t, shift, False)




def fused_infer_attention_score(query: Tensor, key: Any, value: Any, *, pse_shift: Tensor | None = None,
                                atten_mask: Tensor | None = None, actual_seq_lengths: Any = None,
                                actual_seq_lengths_kv: Any = None, dequant_scale1: Any = None,
                                quant_scale1: Any = None, dequant_scale2: Any = None,
                                quant_scale2: Any = None, quant_offset2: Any = None,
                                antiquant_scale: Any = None, antiquant_offset: Any = None,
                                key_antiquant_scale: Any = None,
                                key_antiquant_offset: Any = None, value_antiquant_scale: Any = None,
                                value_antiquant_offset: Any = None, block_table: Tensor | None = None,
                                query_padding_size: Any = None, kv_padding_size: Any = None,
                                key_shared_prefix: Any = None, value_shared_prefix: Any = None,
                                actual_shared_prefix_len: Any = None, num_heads: int = 1, scale: float = 1.0,
                                pre_tokens: int = INT_MAX, next_tokens: int = INT_MAX,
                                input_layout: str = "BSH",
                                num_key_value_heads: int = 0, sparse_mode: int = 0, inner_precise: int = 1,
                                block_size: int = 0, antiquant_mode: int = 0, key_antiquant_mode: int = 0,
                                value_antiquant_mode: int = 0,
                                softmax_lse_flag: bool = False) -> tuple[Tensor, Tensor]:
    r"""Attention of inference, full or incremental (MindSpore's fused Ascend FusedInferAttentionScore): a
    query of one position a batch takes :func:`incre_flash_attention`'s branch (a key / value cache, paged
    through ``block_table`` or not), a longer one :func:`prompt_flash_attention`'s.

    .. math::
        out = Softmax(Mask(scale \cdot Q K^T + pse\_shift, atten\_mask)) V

    Args:
        query (Tensor): (B, S, H) in layout "BSH", (B, N, S, D) in "BNSD" / "BNSD_BSND", (B, S, N, D) in
            "BSND".
        key (Union[Tensor, list[Tensor]]): (B, kv_S, kvH) / (B, kvN, kv_S, D) / (B, kv_S, kvN, D), or a list
            of such tensors; paged (``block_table``): the cache blocks, as :func:`incre_flash_attention`
            takes them.
        value (Union[Tensor, list[Tensor]]): of ``key``'s shape.
        pse_shift (Tensor, optional): added to the scaled scores, (B | 1, N, S, kv_S). Default ``None``.
        atten_mask (Tensor, optional): True / 1 discards; (S, kv_S), (B, S, kv_S), (B, 1, S, kv_S) ..., or
            (B, kv_S) for one query position. Default ``None``.
        actual_seq_lengths (Union[Tensor, tuple[int], list[int]], optional): the used query length of each
            batch (ignored for one query position). Default ``None``.
        actual_seq_lengths_kv (Union[Tensor, tuple[int], list[int]], optional): the used key / value length of
            each batch. Default ``None``.
        dequant_scale1, quant_scale1, dequant_scale2, quant_scale2, quant_offset2, antiquant_scale,
            antiquant_offset, key_antiquant_scale, key_antiquant_offset, value_antiquant_scale,
            value_antiquant_offset: int8 quantization; must be None.
        block_table (Tensor, optional): int32 (B, max_block_num_per_seq), the paged cache's blocks of each
            batch (one query position). Default ``None``.
        query_padding_size (Tensor, optional): left padding of the query; not supported (must be None).
        kv_padding_size (Tensor, optional): left padding of the cache (one query position), as
            :func:`incre_flash_attention`'s. Default ``None``.
        key_shared_prefix, value_shared_prefix, actual_shared_prefix_len: reserved by MindSpore; must be None.
        num_heads (int): N. Default ``1``.
        scale (float): the scale of the scores. Default ``1.0``.
        pre_tokens (int), next_tokens (int), sparse_mode (int): as in :func:`prompt_flash_attention` (here
            ``next_tokens`` defaults to ``2147483647``).
        input_layout (str): "BSH", "BNSD", "BSND" or "BNSD_BSND" (BNSD in, BSND out). Default ``"BSH"``.
        num_key_value_heads (int): kvN (0: ``num_heads``). Default ``0``.
        inner_precise, antiquant_mode, key_antiquant_mode, value_antiquant_mode: kernel modes (no effect).
        block_size (int): tokens a cache block holds (paged). Default ``0``.
        softmax_lse_flag (bool): also return log(sum(exp(scores))) of each query row. Default ``False``.

    Returns:
        tuple (attention_out, softmax_lse): attention_out of ``query``'s shape ((B, S, N, D) for BNSD_BSND);
        softmax_lse float32 (B, N, S, 1), or zeros of shape (1,) when ``softmax_lse_flag`` is False.

    Supported Platforms:
        ``CPU``

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> q = Tensor(np.ones((1, 2, 4, 16)), ms.float16)
        >>> out, lse = ops.fused_infer_attention_score(q, q, q, num_heads=2, input_layout="BNSD",
        ...                                            softmax_lse_flag=True)
        >>> out.shape, lse.shape
        ((1, 2, 4, 16), (1, 2, 4, 1))
    """
    op = "FusedInferAttentionScore"
    _no_quant(op, dequant_scale1=dequant_scale1, quant_scale1=quant_scale1, dequant_scale2=dequant_scale2,
              quant_scale2=quant_scale2, quant_offset2=quant_offset2, antiquant_scale=antiquant_scale,
              antiquant_offset=antiquant_offset, key_antiquant_scale=key_antiquant_scale,
              key_antiquant_offset=key_antiquant_offset, value_antiquant_scale=value_antiquant_scale,
              value_antiquant_offset=value_antiquant_offset)
    for name, given in (("query_padding_size", query_padding_size), ("key_shared_prefix", key_shared_prefix),
                        ("value_shared_prefix", value_shared_prefix),
                        ("actual_shared_prefix_len", actual_shared_prefix_len)):
        if given is not None:
            raise ValueError(f"For '{op}', '{name}' is not supported (pass None)")
    layout = _check_layout(input_layout, op, ("BSH", "BNSD", "BSND", "BNSD_BSND"))
    inner = "BSH" if layout == "BSH" else "BNSD"

    def bnsd(x: Any) -> Any:
        if layout != "BSND":
            return x
        if isinstance(x, (list, tuple)):
            return [F.transpose(_float(t, "key", op), (0, 2, 1, 3)) for t in x]
        return F.transpose(_float(x, "query", op), (0, 2, 1, 3))

    q = _float(query, "query", op)
    q_s = q.shape[1] if layout in ("BSH", "BSND") else q.shape[2]
    if q_s == 1:
        if block_table is None:
            key, value = bnsd(key), bnsd(value)
        elif layout == "BSND":
            raise ValueError(f"For '{op}', a paged cache ('block_table') takes layout BSH or BNSD")
        out, mx, sm = _incre_parts(bnsd(q), key, value, atten_mask, actual_seq_lengths_kv, pse_shift,
                                   block_table, num_heads, inner, scale, num_key_value_heads, block_size,
                                   kv_padding_size, op)
    else:
        if block_table is not None or kv_padding_size is not None:
            raise ValueError(f"For '{op}', 'block_table' and 'kv_padding_size' apply to one query position a "
                             f"batch only (Q_S is {q_s})")
        k, v = (_one_tensor(t, what, op) for t, what in ((key, "key"), (value, "value")))
        out, mx, sm = _prompt_parts(bnsd(q), bnsd(k), bnsd(v), atten_mask, actual_seq_lengths,
                                    actual_seq_lengths_kv, pse_shift, num_heads, scale, pre_tokens,
                                    next_tokens, inner, num_key_value_heads, sparse_mode, op)
    if layout in ("BSND", "BNSD_BSND"):
        result = F.transpose(out, (0, 2, 1, 3))
    else:
        result = from_bnsd(out, inner)
    from cellonnx import dtypes
    if softmax_lse_flag:
        lse = F.cast(F.add(mx, F.log(sm)), dtypes.float32)
    else:
        lse = F.zeros((1,), dtypes.float32)
    return result, lse


__all__ = ["fused_infer_attention_score", "incre_flash_attention", "prompt_flash_attention"]
