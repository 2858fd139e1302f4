"""DeepSeek sparse attention (DSA, DeepSeek-V3.2): MindSpore's Ascend ``lightning_indexer`` (the top-k
tokens each query should read) and ``sparse_flash_attention`` (attention over those tokens) as
compositions of primitives.

Layouts: BSND (batches of equal padded length, valid lengths per batch), TND (the sequences packed along T,
split by cumulative ends) and, for the keys, PA_BSND (a paged cache read through a block table). A BSND
call without lengths keeps the batch dim dynamic in a traced graph; the sparse indices may be graph inputs.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import dtypes
from cellonnx import ops as _ops
from cellonnx.ops.composite.flash_attention import cast_any
from cellonnx.ops.composite.sparse_attention_util import (
    INT64_MAX,
    as_float,
    check_default_tokens,
    check_int,
    check_layout,
    dense_paged,
    ends_of,
    group_heads,
    lengths_of,
    masked_softmax,
)
from cellonnx.ops.prims._util import to_tensor
from cellonnx.tensor import Tensor

F: Any = _ops  # the functional API; its names are filled in at import time, so typed loosely


def _jobs(q: Tensor, keys: list, extra_q: list, qlens: Any, klens: Any, lq: str, lk: str, block_table: Any,
          op: str) -> list[tuple]:
    """The dense pieces to compute: [(q (b, S1, N1, D), [keys (b, S2, N2, D) ...], [query-side tensors
    sliced like q ...], query lengths (b,), key lengths (b,))]. BSND queries give one piece of all batches;
    TND queries one piece a batch. ``keys`` (key, value, key_rope ...) share the key layout."""
    k = keys[0]
    if lq == "BSND":
        if lk == "TND":
            raise ValueError(f"For '{op}', a BSND query needs BSND or PA_BSND keys, but got TND")
        if q.ndim != 4:
            raise ValueError(f"For '{op}', a BSND query must be (B, S1, N1, D), but got {tuple(q.shape)}")
        b = q.shape[0]
        qlen = lengths_of(qlens, b, q.shape[1], "actual_seq_lengths_query", op)
        if lk == "PA_BSND":
            if klens is None:
                raise ValueError(f"For '{op}', layout 'PA_BSND' needs the key lengths of each batch")
            dense = [dense_paged(x, block_table, op) for x in keys]
            klen = lengths_of(klens, b, dense[0].shape[1], "actual_seq_lengths_key", op)
            return [(q, dense, extra_q, qlen, klen)]
        if k.ndim != 4 or k.shape[0] != b:
            raise ValueError(f"For '{op}', a BSND key must be (B, S2, N2, D) with B={b}, but got "
                             f"{tuple(k.shape)}")
        return [(q, keys, extra_q, qlen, lengths_of(klens, b, k.shape[1], "actual_seq_lengths_key", op))]
    if lk == "BSND":
        raise ValueError(f"For '{op}', a TND query needs TND or PA_BSND keys, but got BSND")
    if q.ndim != 3:
        raise ValueError(f"For '{op}', a TND query must be (T1, N1, D), but got {tuple(q.shape)}")
    qb = ends_of(qlens, q.shape[0], "actual_seq_lengths_query", op)
    if lk == "TND":
        if k.ndim != 3:
            raise ValueError(f"For '{op}', a TND key must be (T2, N2, D), but got {tuple(k.shape)}")
        kb = ends_of(klens, k.shape[0], "actual_seq_lengths_key", op)
        if len(kb) != len(qb):
            raise ValueError(f"For '{op}', the query and key cumulative ends must list the same number of "
                             f"batches, but got {len(qb)} and {len(kb)}")
        per = [[F.expand_dims(cast_any(x)[a:e], 0) for x in keys] for a, e in kb]
        klen = [e - a for a, e in kb]
    else:
        dense = [cast_any(dense_paged(x, block_table, op)) for x in keys]
        if dense[0].shape[0] < len(qb):
            raise ValueError(f"For '{op}', 'block_table' must have a row for each of the {len(qb)} batches")
        klen = lengths_of(klens, len(qb), dense[0].shape[1], "actual_seq_lengths_key", op).tolist()
        per = [[x[i:i + 1] for x in dense] for i in range(len(qb))]
    jobs = []
    for (a, e), kk, n in zip(qb, per, klen):
        sl = [F.expand_dims(cast_any(x)[a:e], 0) for x in extra_q]
        jobs.append((F.expand_dims(cast_any(q)[a:e], 0), kk, sl, np.array([e - a]), np.array([n])))
    return jobs


def _band(qlen: np.ndarray, klen: np.ndarray, s1: int, s2: int, sparse_mode: int) -> np.ndarray:
    """(b or 1, S1, S2) bool: query row i of a batch may read key j (j < its key length, i < its query
    length; mode 3 also j <= klen - qlen + i, causal from the bottom-right vertex)."""
    i, j = np.arange(s1)[None, :, None], np.arange(s2)[None, None, :]
    ql, kl = qlen[:, None, None], klen[:, None, None]
    keep = (i < ql) & (j < kl)
    if sparse_mode == 3:
        keep &= j <= kl - ql + i
    if (qlen == s1).all() and (klen == s2).all():
        keep = keep[:1]  # the same for every batch: the batch dim stays free
    return keep


def _pad_last(x: Tensor, width: int, fill: float) -> Tensor:
    """``x`` with ``width`` more entries of ``fill`` along the last axis."""
    if width <= 0:
        return x
    pad = F.broadcast_to(F.full_like(cast_any(x)[..., :1], fill), (-1,) * (x.ndim - 1) + (width,))
    return F.concat([x, pad], -1)


def _index_scores(q: Tensor, k: Tensor, w: Tensor) -> Tensor:
    """(b, N2, S1, S2): sum over the G query heads of key head n2 of weights * ReLU(q . k)."""
    _, s1, n1, d = q.shape
    n2 = k.shape[2]
    g = n1 // n2
    # the G heads of a key head stacked as rows: one product a key head, no broadcast batch of products
    qh = F.reshape(F.transpose(F.reshape(q, (-1, s1, n2, g, d)), (0, 2, 3, 1, 4)), (-1, n2, g * s1, d))
    kh = F.transpose(k, (0, 2, 3, 1))  # (b, N2, D, S2)
    dots = F.reshape(F.matmul(qh, kh), (-1, n2, g, s1, k.shape[1]))  # (b, N2, G, S1, S2)
    wh = F.expand_dims(F.transpose(F.reshape(w, (-1, s1, n2, g)), (0, 2, 3, 1)), -1)  # (b, N2, G, S1, 1)
    return F.sum(F.mul(F.relu(dots), wh), 2)


def lightning_indexer(query: Tensor, key: Tensor, weights: Tensor, *, actual_seq_lengths_query: Any = None,
                      actual_seq_lengths_key: Any = None, block_table: Any = None, layout_query: str = "BSND",
                      layout_key: str = "BSND", sparse_count: int = 2048, sparse_mode: int = 3,
                      pre_tokens: int = INT64_MAX, next_tokens: int = INT64_MAX,
                      return_value: bool = False) -> tuple[Tensor, Tensor]:
    r"""The top-k key tokens of each query token by the DeepSeek sparse attention (DSA) lightning indexer.

    For each query token, key / value head :math:`n_2` (serving the G = N1 / N2 query heads
    :math:`h = n_2 G \dots n_2 G + G - 1`) and key token j of the same batch:

    .. math::
        score[j] = \sum_{h} weights[h] \cdot ReLU(query[h] \cdot key[n_2, j])

    (no scale), and ``sparse_indices`` are the ``sparse_count`` highest-scoring key tokens, highest first,
    ties by the lower index. Only key tokens within the batch's key length count; ``sparse_mode`` 3 also
    keeps causality from the bottom-right vertex (query row i of a batch with S1 query and S2 key tokens
    reads j <= S2 - S1 + i). Slots beyond the tokens available, and every slot of a query row past its
    batch's query length, hold -1 (and -inf in ``sparse_values``).

    Args:
        query (Tensor): (B, S1, N1, D) for BSND or (T1, N1, D) for TND, float.
        key (Tensor): (B, S2, N2, D) for BSND, (T2, N2, D) for TND, (block_num, block_size, N2, D) for
            PA_BSND.
        weights (Tensor): (B, S1, N1) or (T1, N1), the head weights.

    Keyword Args:
        actual_seq_lengths_query (Union[Tensor, list[int]], optional): BSND: the valid query length of each
            batch (None: S1); TND: the cumulative query ends (required). Default ``None``.
        actual_seq_lengths_key (Union[Tensor, list[int]], optional): BSND / PA_BSND: the valid key length
            of each batch (None: S2; required for PA_BSND); TND: the cumulative key ends (required).
            Default ``None``.
        block_table (Tensor, optional): (B, max_blocks) int, the blocks of each batch's keys in order
            (PA_BSND). Default ``None``.
        layout_query (str): "BSND" or "TND". Default ``"BSND"``.
        layout_key (str): "BSND", "TND" or "PA_BSND"; BSND and TND must match ``layout_query``.
            Default ``"BSND"``.
        sparse_count (int): k, in [1, 2048] or 3072, 4096, ..., 8192. Default ``2048``.
        sparse_mode (int): 0 (every valid key) or 3 (causal from the bottom-right vertex). Default ``3``.
        pre_tokens (int): reserved, only the default. Default ``2^63-1``.
        next_tokens (int): reserved, only the default. Default ``2^63-1``.
        return_value (bool): also return the scores of the selected tokens. Default ``False``.

    Returns:
        tuple (sparse_indices, sparse_values): sparse_indices int32 (B, S1, N2, sparse_count) or
        (T1, N2, sparse_count); sparse_values the matching scores of ``query``'s dtype when
        ``return_value`` is True (differentiable with respect to query, key and weights), else an empty
        tensor.

    Raises:
        TypeError: a non-float query / key / weights.
        ValueError: layouts, shapes, lengths, ``sparse_count``, ``sparse_mode`` or tokens that do not fit.

    Note:
        The Ascend kernel also limits N2 to 1, D to 128 and the dtypes to float16 / bfloat16; those are
        hardware limits and are not imposed here (scores are computed in float32, float64 for float64).

    Supported Platforms:
        ``CPU``

    Examples:
        >>> import numpy as np
        >>> from cellonnx import Tensor, ops
        >>> q = Tensor(np.ones((1, 3, 2, 4), np.float32))
        >>> k = Tensor(np.arange(12, dtype=np.float32).reshape(1, 3, 1, 4))
        >>> w = Tensor(np.ones((1, 3, 2), np.float32))
        >>> idx, val = ops.lightning_indexer(q, k, w, sparse_count=2, return_value=True)
        >>> print(idx.asnumpy()[0, :, 0])
        [[ 0 -1]
         [ 1  0]
         [ 2  1]]
        >>> print(val.asnumpy()[0, 2, 0])
        [76. 44.]
    """
    op = "LightningIndexer"
    q, k, w = as_float(query, "query", op), as_float(key, "key", op), as_float(weights, "weights", op)
    lq = check_layout(layout_query, "layout_query", ("BSND", "TND"), op)
    lk = check_layout(layout_key, "layout_key", ("BSND", "TND", "PA_BSND"), op)
    count = check_int(sparse_count, "sparse_count", op)
    if count > 2048 and count not in (3072, 4096, 5120, 6144, 7168, 8192):
        raise ValueError(f"For '{op}', 'sparse_count' must be in [1, 2048] or one of 3072, 4096, ..., 8192, "
                         f"but got {count}")
    if sparse_mode not in (0, 3):
        raise ValueError(f"For '{op}', 'sparse_mode' must be 0 or 3, but got {sparse_mode}")
    check_default_tokens(pre_tokens, next_tokens, op)
    if tuple(w.shape) != tuple(q.shape[:-1]):
        raise ValueError(f"For '{op}', 'weights' must be {tuple(q.shape[:-1])} (query without D), but got "
                         f"{tuple(w.shape)}")
    if q.shape[-1] != k.shape[-1]:
        raise ValueError(f"For '{op}', 'query' and 'key' must have the same head size D, but got "
                         f"{q.shape[-1]} and {k.shape[-1]}")
    group_heads(q.shape[-2], k.shape[-2], op)
    work = dtypes.float64 if q.dtype == dtypes.float64 else dtypes.float32
    idxs, vals = [], []
    for qq, (kk,), (ww,), ql, kl in _jobs(q, [k], [w], actual_seq_lengths_query, actual_seq_lengths_key, lq,
                                          lk, block_table, op):
        score = _index_scores(F.cast(qq, work), F.cast(kk, work), F.cast(ww, work))  # (b, N2, S1, S2)
        keep = _band(ql, kl, qq.shape[1], kk.shape[1], sparse_mode)[:, None]
        keep_t = F.broadcast_to(Tensor(keep), tuple(score.shape))
        masked = F.where(keep_t, score, F.full_like(score, float("-inf")))
        top = min(count, kk.shape[1])
        v, i = F.topk(masked, top, -1)
        i = F.where(F.isinf(v), F.full_like(i, -1), i)
        idxs.append(F.transpose(_pad_last(F.cast(i, dtypes.int32), count - top, -1), (0, 2, 1, 3)))
        vals.append(F.transpose(_pad_last(v, count - top, float("-inf")), (0, 2, 1, 3)))
    if lq == "BSND":
        sparse_indices, sparse_values = idxs[0], vals[0]
    else:
        sparse_indices = F.concat([F.squeeze(x, 0) for x in idxs], 0)
        sparse_values = F.concat([F.squeeze(x, 0) for x in vals], 0)
    if not return_value:
        return sparse_indices, F.zeros((0,), q.dtype)
    return sparse_indices, F.cast(sparse_values, q.dtype)


def _slot_limits(ql: np.ndarray, kl: np.ndarray, s1: int, count: int, size: int,
                 sparse_mode: int) -> tuple[np.ndarray, np.ndarray]:
    """(b or 1, S1) for each query row: how many leading index slots are read, min(count, ceil(limit / size)),
    and the rows before ``limit`` that may be read (limit = the key length, or for mode 3 the causal
    bound klen - qlen + i + 1); rows past the batch's query length read nothing."""
    if (ql == ql[0]).all() and (kl == kl[0]).all():
        ql, kl = ql[:1], kl[:1]  # the same for every batch: the batch dim stays free
    i = np.arange(s1)[None, :]
    limit = np.broadcast_to(kl[:, None], (kl.size, s1)).copy()
    if sparse_mode == 3:
        limit = kl[:, None] - ql[:, None] + i + 1
    limit = np.where(i < ql[:, None], np.clip(limit, 0, kl[:, None]), 0)
    slots = np.minimum(count, -(-limit // size))
    return slots, limit


def _sfa_piece(q: Tensor, k: Tensor, v: Tensor, idx: Tensor, ql: np.ndarray, kl: np.ndarray, scale: float,
               size: int, sparse_mode: int) -> tuple[Tensor, Tensor, Tensor]:
    """Sparse attention of one dense piece: q (b, S1, N1, Dk), k (b, S2, N2, Dk), v (b, S2, N2, Dv), idx
    (b, S1, N2, K). Returns (out (b, S1, N1, Dv), max (b, N2, S1, G), sum (b, N2, S1, G))."""
    _, s1, n1, dk = q.shape
    s2, n2, dv = k.shape[1], k.shape[2], v.shape[3]
    g, count = n1 // n2, idx.shape[-1]
    slots, limit = _slot_limits(ql, kl, s1, count, size, sparse_mode)
    ids = F.cast(idx, dtypes.int64)
    alive = F.equal(F.cumsum(F.cast(F.less(ids, 0), dtypes.int32), -1), 0)  # reading stops at the first -1
    slot_ok = F.logical_and(alive, Tensor((np.arange(count)[None, None, :] < slots[:, :, None])[:, :, None]))
    rows = F.add(F.expand_dims(F.mul(F.clamp(ids, 0, None), size), -1),
                 Tensor(np.arange(size, dtype=np.int64)))
    ok = F.logical_and(F.expand_dims(slot_ok, -1), F.less(rows, Tensor(limit[:, :, None, None, None])))
    width = count * size
    rows = F.transpose(F.reshape(F.clamp(rows, 0, s2 - 1), (-1, s1, n2, width)), (0, 2, 1, 3))  # b N2 S1 L
    ok = F.expand_dims(F.transpose(F.reshape(ok, (-1, s1, n2, width)), (0, 2, 1, 3)), 3)  # (b, N2, S1, 1, L)
    flat = F.reshape(rows, (-1, n2, s1 * width))
    ks = F.reshape(F.gather(F.transpose(k, (0, 2, 1, 3)), flat, 2, 2), (-1, n2, s1, width, dk))
    vs = F.reshape(F.gather(F.transpose(v, (0, 2, 1, 3)), flat, 2, 2), (-1, n2, s1, width, dv))
    qh = F.transpose(F.reshape(q, (-1, s1, n2, g, dk)), (0, 2, 1, 3, 4))  # (b, N2, S1, G, Dk)
    scores = F.mul(F.matmul(qh, F.transpose(ks, (0, 1, 2, 4, 3))), scale)  # (b, N2, S1, G, L)
    p, mx, sm = masked_softmax(scores, ok)
    out = F.reshape(F.transpose(F.matmul(p, vs), (0, 2, 1, 3, 4)), (-1, s1, n1, dv))
    return out, F.squeeze(mx, -1), F.squeeze(sm, -1)


def sparse_flash_attention(query: Tensor, key: Tensor, value: Tensor, sparse_indices: Tensor,
                           scale_value: float, *, block_table: Any = None,
                           actual_seq_lengths_query: Any = None, actual_seq_lengths_kv: Any = None,
                           query_rope: Tensor | None = None, key_rope: Tensor | None = None,
                           sparse_block_size: int = 1, layout_query: str = "BSND", layout_kv: str = "BSND",
                           sparse_mode: int = 3, pre_tokens: int = INT64_MAX, next_tokens: int = INT64_MAX,
                           attention_mode: int = 0,
                           return_softmax_lse: bool = False) -> tuple[Tensor, Tensor, Tensor]:
    r"""Attention of each query token over the key / value tokens its sparse indices select (the sparse
    flash attention of DeepSeek sparse attention).

    .. math::
        attention\_out = Softmax(scale \cdot [Q, Q_{rope}] \cdot [\tilde{K}, \tilde{K}_{rope}]^T) \cdot
        \tilde{V}

    For a query row i of a batch (S1 query, S2 key tokens) and key / value head :math:`n_2` (serving the
    query heads :math:`n_2 G \dots n_2 G + G - 1`, G = N1 / N2), the index slots
    ``sparse_indices[i, n2, :]`` are read in order: each names block b, the key rows
    :math:`b \cdot size \dots b \cdot size + size - 1` (size = ``sparse_block_size``; 1: single tokens).
    Only the first :math:`\min(K, \lceil limit / size \rceil)` slots are read, reading stops at the first
    -1, and only rows below ``limit`` count, where limit = S2 (``sparse_mode`` 0) or S2 - S1 + i + 1 (mode 3,
    causal from the bottom-right vertex); a row listed twice counts twice. A query row that reads no key
    row (or lies past its batch's query length) gives zeros.

    Args:
        query (Tensor): (B, S1, N1, D) for BSND or (T1, N1, D) for TND, float.
        key (Tensor): (B, S2, N2, D), (T2, N2, D) or (block_num, block_size, N2, D) for PA_BSND.
        value (Tensor): of ``key``'s layout, head size Dv.
        sparse_indices (Tensor): int (B, S1, N2, K) or (T1, N2, K), -1 ending a row's list.
        scale_value (float): the score scale, usually 1 / sqrt(D + D_rope).

    Keyword Args:
        block_table (Tensor, optional): (B, max_blocks) int, each batch's cache blocks in order (PA_BSND).
            Default ``None``.
        actual_seq_lengths_query (Union[Tensor, list[int]], optional): BSND: the valid query length of each
            batch (None: S1); TND: the cumulative query ends (required). Default ``None``.
        actual_seq_lengths_kv (Union[Tensor, list[int]], optional): BSND / PA_BSND: the valid key length of
            each batch (None: S2; required for PA_BSND); TND: the cumulative key ends. Default ``None``.
        query_rope (Tensor, optional): the rotary part of the query, of ``query``'s shape with D_rope.
            Default ``None``.
        key_rope (Tensor, optional): the rotary part of the key, of ``key``'s layout with D_rope.
            Default ``None``.
        sparse_block_size (int): the rows a sparse index names, a power of 2 in [1, 128]. Default ``1``.
        layout_query (str): "BSND" or "TND". Default ``"BSND"``.
        layout_kv (str): "BSND", "TND" or "PA_BSND"; BSND and TND must match ``layout_query``.
            Default ``"BSND"``.
        sparse_mode (int): 0 (no causal bound) or 3 (causal from the bottom-right vertex). Default ``3``.
        pre_tokens (int): reserved, only the default. Default ``2^63-1``.
        next_tokens (int): reserved, only the default. Default ``2^63-1``.
        attention_mode (int): 0, or 2 (MLA absorbed: ``query_rope`` and ``key_rope`` required); the rotary
            parts join the scores whenever given. Default ``0``.
        return_softmax_lse (bool): also return each row's softmax max and sum (not with PA_BSND).
            Default ``False``.

    Returns:
        tuple (attention_out, softmax_max, softmax_sum): attention_out of ``query``'s shape with Dv and its
        dtype; softmax_max / softmax_sum float32 (B, N2, S1, G) or (N2, T1, G), each row's largest scaled
        score and sum of exp(score - max) (0 for a row reading nothing), when ``return_softmax_lse``; else
        empty tensors.

    Raises:
        TypeError: non-float query / key / value or non-int indices.
        ValueError: layouts, shapes, lengths, block size, modes or tokens that do not fit.

    Note:
        The Ascend kernel also fixes D at 512, D_rope at 64, N2 at 1, K at 2048 and the dtypes at float16
        / bfloat16; those are hardware limits and are not imposed here.

    Supported Platforms:
        ``CPU``

    Examples:
        >>> import numpy as np
        >>> from cellonnx import Tensor, ops
        >>> q = Tensor(np.ones((1, 2, 2, 4), np.float32))
        >>> kv = Tensor(np.arange(16, dtype=np.float32).reshape(1, 4, 1, 4))
        >>> idx = Tensor(np.array([[[[0, -1]], [[2, 3]]]], np.int32))
        >>> out, _, _ = ops.sparse_flash_attention(q, kv, kv, idx, 0.0)
        >>> print(out.asnumpy()[0, :, 0])
        [[ 0.  1.  2.  3.]
         [10. 11. 12. 13.]]
    """
    op = "SparseFlashAttention"
    q, k, v = as_float(query, "query", op), as_float(key, "key", op), as_float(value, "value", op)
    lq = check_layout(layout_query, "layout_query", ("BSND", "TND"), op)
    lk = check_layout(layout_kv, "layout_kv", ("BSND", "TND", "PA_BSND"), op)
    size = check_int(sparse_block_size, "sparse_block_size", op)
    if size > 128 or size & (size - 1):
        raise ValueError(f"For '{op}', 'sparse_block_size' must be a power of 2 in [1, 128], but got {size}")
    if sparse_mode not in (0, 3):
        raise ValueError(f"For '{op}', 'sparse_mode' must be 0 or 3, but got {sparse_mode}")
    if attention_mode not in (0, 2):
        raise ValueError(f"For '{op}', 'attention_mode' must be 0 or 2, but got {attention_mode}")
    if attention_mode == 2 and (query_rope is None or key_rope is None):
        raise ValueError(f"For '{op}', attention_mode 2 (MLA absorbed) needs 'query_rope' and 'key_rope'")
    if (query_rope is None) != (key_rope is None):
        raise ValueError(f"For '{op}', 'query_rope' and 'key_rope' must be given together")
    if return_softmax_lse and lk == "PA_BSND":
        raise ValueError(f"For '{op}', 'return_softmax_lse' is not supported with layout_kv 'PA_BSND'")
    check_default_tokens(pre_tokens, next_tokens, op)
    idx = to_tensor(sparse_indices)
    if idx._data.dtype.kind not in "iu":
        raise TypeError(f"For '{op}', 'sparse_indices' must be an int tensor, but got {idx.dtype}")
    if tuple(v.shape[:-1]) != tuple(k.shape[:-1]):
        raise ValueError(f"For '{op}', 'key' {tuple(k.shape)} and 'value' {tuple(v.shape)} must agree but "
                         f"for D")
    if q.shape[-1] != k.shape[-1]:
        raise ValueError(f"For '{op}', 'query' and 'key' must have the same head size D, but got "
                         f"{q.shape[-1]} and {k.shape[-1]}")
    if tuple(idx.shape[:-1]) != tuple(q.shape[:-2]) + (k.shape[-2],):
        raise ValueError(f"For '{op}', 'sparse_indices' must be {tuple(q.shape[:-2]) + (k.shape[-2],)} + "
                         f"(K,), but got {tuple(idx.shape)}")
    group_heads(q.shape[-2], k.shape[-2], op)
    keys = [k, v]
    if query_rope is not None:
        qr, kr = as_float(query_rope, "query_rope", op), as_float(key_rope, "key_rope", op)
        if tuple(qr.shape[:-1]) != tuple(q.shape[:-1]) or tuple(kr.shape[:-1]) != tuple(k.shape[:-1]):
            raise ValueError(f"For '{op}', 'query_rope' / 'key_rope' must be of query's / key's shape but "
                             f"for D, but got {tuple(qr.shape)}, {tuple(kr.shape)}")
        keys.append(kr)
    extra = [idx] if query_rope is None else [idx, qr]
    outs, mxs, sms = [], [], []
    for qq, kk, ex, ql, kl in _jobs(q, keys, extra, actual_seq_lengths_query, actual_seq_lengths_kv, lq, lk,
                                    block_table, op):
        kq, qz = kk[0], qq
        if len(kk) == 3:
            qz, kq = F.concat([qq, ex[1]], -1), F.concat([kk[0], kk[2]], -1)
        o, mx, sm = _sfa_piece(qz, kq, kk[1], ex[0], ql, kl, float(scale_value), size, sparse_mode)
        outs.append(o)
        mxs.append(mx)
        sms.append(sm)
    if lq == "BSND":
        out, mx, sm = outs[0], mxs[0], sms[0]
    else:
        out = F.concat([F.squeeze(x, 0) for x in outs], 0)
        mx = F.concat([F.squeeze(x, 0) for x in mxs], 1)
        sm = F.concat([F.squeeze(x, 0) for x in sms], 1)
    if not return_softmax_lse:
        return out, F.zeros((0,), dtypes.float32), F.zeros((0,), dtypes.float32)
    return out, F.cast(mx, dtypes.float32), F.cast(sm, dtypes.float32)


__all__ = ["lightning_indexer", "sparse_flash_attention"]
