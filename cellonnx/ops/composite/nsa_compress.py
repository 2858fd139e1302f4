"""Native sparse attention (NSA, arXiv 2502.11089) token compression and compressed attention: MindSpore's
Ascend ``nsa_compress`` and ``nsa_compress_attention`` as compositions of primitives (layout TND: the
sequences of a batch packed along T, split by cumulative ends).

The gradient and the ONNX lowering come from the primitives; the batch split is read from the (static)
cumulative ends, so a traced graph serves that split.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import dtypes
from cellonnx import ops as _ops
from cellonnx.ops.composite.flash_attention import _stat8, cast_any
from cellonnx.ops.composite.sparse_attention_util import (
    as_float,
    check_int,
    ends_of,
    group_heads,
    masked_softmax,
)
from cellonnx.ops.prims._util import to_tensor
from cellonnx.tensor import Tensor

F: Any = _ops  # the functional API; its names are filled in at import time, so typed loosely


def _windows(bounds: list[tuple[int, int]], block: int, stride: int) -> np.ndarray:
    """(T', block) row indices of every compression window: window w of a segment [a, b) covers rows
    a + w * stride ... a + w * stride + block - 1, for the 1 + (L - block) // stride windows that fit."""
    rows = [a + w * stride + np.arange(block) for a, b in bounds
            for w in range(1 + (b - a - block) // stride if b - a >= block else 0)]
    return np.asarray(rows, dtype=np.int64).reshape(-1, block)


def nsa_compress(input: Tensor, weight: Tensor, compress_block_size: int, compress_stride: int, *,
                 actual_seq_len: Any = None) -> Tensor:
    r"""Compress a packed key / value sequence into one token per sliding window (NSA token compression).

    Each segment (batch) of length :math:`L_i` (from the cumulative ends ``actual_seq_len``) is cut into the
    windows that fit inside it, window :math:`w` covering rows :math:`w \cdot stride \dots w \cdot stride +
    block - 1` of the segment (no window crosses segments); each window becomes one token, the
    weighted sum of its rows with one weight per window position and head:

    .. math::
        out[w, n, :] = \sum_{i=0}^{block-1} weight[i, n] \cdot input[start + w \cdot stride + i, n, :]

    The outputs of all segments are concatenated in order:
    :math:`T' = \sum_i \max(0, 1 + \lfloor (L_i - block) / stride \rfloor)`.

    Args:
        input (Tensor): (T, N, D), float.
        weight (Tensor): (compress_block_size, N), of ``input``'s dtype.
        compress_block_size (int): the window size.
        compress_stride (int): the step between windows, in [1, compress_block_size].

    Keyword Args:
        actual_seq_len (Union[tuple[int], list[int], Tensor]): cumulative ends of the segments
            (non-decreasing, the last equal to T).

    Returns:
        Tensor, (T', N, D) of ``input``'s dtype.

    Raises:
        TypeError: ``input`` or ``weight`` not a float tensor, or their dtypes differ.
        ValueError: ranks, ``weight``'s shape, block / stride values or ``actual_seq_len`` that do not fit.

    Note:
        The Ascend kernel also requires float16 / bfloat16, D a multiple of 16 up to 256, N up to 128 and
        block / stride multiples of 16; those are hardware limits and are not imposed here.

    Supported Platforms:
        ``CPU``

    Examples:
        >>> import numpy as np
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.arange(12, dtype=np.float32).reshape(6, 1, 2))
        >>> w = Tensor(np.full((4, 1), 0.25, np.float32))
        >>> y = ops.nsa_compress(x, w, 4, 2, actual_seq_len=(6,))
        >>> print(y.shape)
        (2, 1, 2)
        >>> print(y.asnumpy()[:, 0])
        [[3. 4.]
         [7. 8.]]
    """
    op = "NsaCompress"
    x = as_float(input, "input", op)
    w = as_float(weight, "weight", op)
    if x.dtype != w.dtype:
        raise TypeError(f"For '{op}', 'input' ({x.dtype}) and 'weight' ({w.dtype}) must have the same dtype")
    block = check_int(compress_block_size, "compress_block_size", op)
    stride = check_int(compress_stride, "compress_stride", op)
    if stride > block:
        raise ValueError(f"For '{op}', 'compress_stride' ({stride}) must not exceed 'compress_block_size' "
                         f"({block})")
    if x.ndim != 3:
        raise ValueError(f"For '{op}', 'input' must be (T, N, D), but got shape {tuple(x.shape)}")
    if tuple(w.shape) != (block, x.shape[1]):
        raise ValueError(f"For '{op}', 'weight' must be (compress_block_size, N) = ({block}, {x.shape[1]}), "
                         f"but got {tuple(w.shape)}")
    if actual_seq_len is None:
        raise ValueError(f"For '{op}', 'actual_seq_len' (the cumulative segment ends) must be given")
    rows = _windows(ends_of(actual_seq_len, x.shape[0], "actual_seq_len", op), block, stride)
    if rows.shape[0] == 0:
        return F.zeros((0,) + tuple(x.shape[1:]), x.dtype)
    taken = F.gather(x, Tensor(rows), 0)  # (T', block, N, D)
    return F.sum(F.mul(taken, F.expand_dims(w, -1)), 1)


def importance_map(s2: int, sel: int, m: int, n: int) -> np.ndarray:
    r"""(S2, sel) float: how often compressed token c enters selection block j's importance score,
    :math:`P_{slc}[j] = \sum_{a<m} \sum_{b<n} P_{cmp}[m (j + 1) - a - b]` (tokens outside [0, S2) add
    nothing)."""
    w = np.zeros((s2, sel))
    for j in range(sel):
        for a in range(m):
            for b in range(n):
                c = m * (j + 1) - a - b
                if 0 <= c < s2:
                    w[c, j] += 1.0
    return w


def _mask2d(mask: Any, rows: int, cols: int, name: str, op: str) -> np.ndarray | None:
    """The top-left (rows, cols) corner of a bool (S1, S2) mask as a NumPy array (None stays None)."""
    if mask is None:
        return None
    m = to_tensor(mask).asnumpy()
    if m.ndim != 2 or m.shape[0] < rows or m.shape[1] < cols:
        raise ValueError(f"For '{op}', '{name}' must be a 2-D (S1, S2) mask covering ({rows}, {cols}) "
                         f"(the longest batch), but got shape {m.shape}")
    return m[:rows, :cols].astype(bool)


def nsa_compress_attention(query: Tensor, key: Tensor, value: Tensor, scale_value: float, head_num: int,
                           compress_block_size: int, compress_stride: int, select_block_size: int,
                           select_block_count: int, *, topk_mask: Any = None, atten_mask: Any = None,
                           actual_seq_qlen: Any = None, actual_cmp_seq_kvlen: Any = None,
                           actual_sel_seq_kvlen: Any = None) -> tuple:
    r"""Attention over compressed key / value tokens, and the selection blocks each query should read
    (NSA compressed attention with block selection).

    For each batch (split by the cumulative ends), query head h and query row i, over the batch's
    compressed tokens (key head h // (N1 / N2)):

    1. :math:`P_{cmp} = Softmax(Mask(scale \cdot query \cdot key^T, atten\_mask))`, ``atten_mask`` True
       discarding (its top-left (S1, S2) corner is used for every batch); a row with every token discarded
       gives zeros;
    2. :math:`attention\_out = P_{cmp} \cdot value`;
    3. importance of selection block j, with :math:`m = l' / d` (``select_block_size`` /
       ``compress_stride``) and :math:`n = l / d` (``compress_block_size`` / ``compress_stride``):
       :math:`P_{slc}[j] = \sum_{a=0}^{m-1} \sum_{b=0}^{n-1} P_{cmp}[m (j + 1) - a - b]` (the 1-based
       block index of the published formula; compressed tokens outside the batch add nothing), for j in
       [0, SelS2) with SelS2 the batch's length in ``actual_sel_seq_kvlen``;
    4. summed over the query heads of each key / value head (GQA group): :math:`P'_{slc}`, per N2;
    5. ``topk_mask`` True forces a block into the selection (its score becomes +inf);
    6. ``topk_indices`` = the ``select_block_count`` highest scores' blocks, highest first, ties by the
       lower block.

    Args:
        query (Tensor): (T1, N1, D1), float.
        key (Tensor): (T2, N2, D1), the compressed keys (e.g. from :func:`nsa_compress`).
        value (Tensor): (T2, N2, D2), D2 <= D1.
        scale_value (float): the score scale, usually D1 ** -0.5.
        head_num (int): N1.
        compress_block_size (int): l, a multiple of ``compress_stride``.
        compress_stride (int): d.
        select_block_size (int): l', a multiple of ``compress_stride``, >= ``compress_block_size``.
        select_block_count (int): k, at most each batch's SelS2.

    Keyword Args:
        topk_mask (Tensor, optional): bool (S1, SelS2), True forces the block in. Default ``None``.
        atten_mask (Tensor, optional): bool (S1, S2), True discards the compressed token. Default ``None``.
        actual_seq_qlen (Union[tuple[int], list[int]]): cumulative query ends, the last equal to T1.
        actual_cmp_seq_kvlen (Union[tuple[int], list[int]]): cumulative compressed key / value ends, the
            last equal to T2.
        actual_sel_seq_kvlen (Union[tuple[int], list[int]]): cumulative numbers of selection blocks.

    Returns:
        tuple (attention_out (T1, N1, D2) of ``query``'s dtype, topk_indices (T1, N2, select_block_count)
        int32, softmax_max (T1, N1, 8) float32, softmax_sum (T1, N1, 8) float32); softmax_max / softmax_sum
        are each row's largest scaled score and sum of exp(score - max), repeated 8 times.

    Raises:
        TypeError: a non-float query / key / value.
        ValueError: shapes, head numbers, block sizes or sequence ends that do not fit.

    Note:
        The Ascend kernel's limits (float16 / bfloat16, sizes multiples of 16 in its ranges) are hardware
        limits and are not imposed here. Only ``attention_out`` is differentiable.

    Supported Platforms:
        ``CPU``

    Examples:
        >>> import numpy as np
        >>> from cellonnx import Tensor, ops
        >>> q = Tensor(np.ones((4, 2, 8), np.float32))
        >>> k = Tensor(np.ones((4, 1, 8), np.float32))
        >>> out, idx, smax, ssum = ops.nsa_compress_attention(
        ...     q, k, k, 0.5, 2, 2, 1, 2, 2, actual_seq_qlen=[4], actual_cmp_seq_kvlen=[4],
        ...     actual_sel_seq_kvlen=[2])
        >>> print(out.shape, idx.shape, smax.shape)
        (4, 2, 8) (4, 1, 2) (4, 2, 8)
        >>> print(idx.asnumpy()[0, 0])
        [0 1]
    """
    op = "NsaCompressAttention"
    q, k, v = as_float(query, "query", op), as_float(key, "key", op), as_float(value, "value", op)
    if q.ndim != 3 or k.ndim != 3 or v.ndim != 3:
        raise ValueError(f"For '{op}', query / key / value must be (T, N, D), but got {tuple(q.shape)}, "
                         f"{tuple(k.shape)}, {tuple(v.shape)}")
    n1, n2 = check_int(head_num, "head_num", op), k.shape[1]
    if q.shape[1] != n1:
        raise ValueError(f"For '{op}', 'head_num' ({n1}) must equal N1 of 'query' {tuple(q.shape)}")
    if q.shape[2] != k.shape[2] or v.shape[2] > k.shape[2] or tuple(v.shape[:2]) != tuple(k.shape[:2]):
        raise ValueError(f"For '{op}', key must be (T2, N2, D1) with query's D1 and value (T2, N2, D2) with "
                         f"D2 <= D1, but got {tuple(q.shape)}, {tuple(k.shape)}, {tuple(v.shape)}")
    g = group_heads(n1, n2, op)
    cb, cs = check_int(compress_block_size, "compress_block_size", op), check_int(compress_stride,
                                                                                 "compress_stride", op)
    sb, count = check_int(select_block_size, "select_block_size", op), check_int(select_block_count,
                                                                                "select_block_count", op)
    if cb < cs or sb < cb or sb % cs or cb % cs:
        raise ValueError(f"For '{op}', the block sizes must satisfy compress_block_size >= compress_stride, "
                         f"select_block_size >= compress_block_size and both multiples of compress_stride, "
                         f"but got {cb}, {cs}, {sb}")
    m, n = sb // cs, cb // cs
    qb = ends_of(actual_seq_qlen, q.shape[0], "actual_seq_qlen", op)
    kb = ends_of(actual_cmp_seq_kvlen, k.shape[0], "actual_cmp_seq_kvlen", op)
    sel_ends = _sel_ends(actual_sel_seq_kvlen, len(qb), op)
    if len(kb) != len(qb):
        raise ValueError(f"For '{op}', 'actual_seq_qlen' and 'actual_cmp_seq_kvlen' must list the same "
                         f"number of batches, but got {len(qb)} and {len(kb)}")
    s1max = max(b - a for a, b in qb)
    amask = _mask2d(atten_mask, s1max, max(b - a for a, b in kb), "atten_mask", op)
    tmask = _mask2d(topk_mask, s1max, max(sel_ends), "topk_mask", op)
    outs, idxs, mxs, sms = [], [], [], []
    qa, ka, va = cast_any(q), cast_any(k), cast_any(v)
    for (q0, q1), (k0, k1), sel in zip(qb, kb, sel_ends):
        s1, s2 = q1 - q0, k1 - k0
        if count > sel:
            raise ValueError(f"For '{op}', 'select_block_count' ({count}) must not exceed a batch's number "
                             f"of selection blocks ({sel})")
        # the G heads of a key head stacked as rows: one product a key head
        qh = F.reshape(F.transpose(qa[q0:q1], (1, 0, 2)), (n2, g * s1, q.shape[2]))
        kh = F.transpose(ka[k0:k1], (1, 2, 0))  # (N2, D1, S2)
        vh = F.transpose(va[k0:k1], (1, 0, 2))  # (N2, S2, D2)
        scores = F.reshape(F.mul(F.matmul(qh, kh), float(scale_value)), (n2, g, s1, s2))
        keep = np.ones((s1, s2), bool) if amask is None else ~amask[:s1, :s2]
        p, mx, sm = masked_softmax(scores, keep)
        att = F.matmul(F.reshape(p, (n2, g * s1, s2)), vh)  # (N2, G * S1, D2)
        outs.append(F.transpose(F.reshape(att, (n1, s1, v.shape[2])), (1, 0, 2)))
        mxs.append(F.transpose(F.reshape(mx, (n1, s1, 1)), (1, 0, 2)))
        sms.append(F.transpose(F.reshape(sm, (n1, s1, 1)), (1, 0, 2)))
        imp = F.sum(F.matmul(F.stop_gradient(p), Tensor(importance_map(s2, sel, m, n).astype(
            p._data.dtype))), 1)  # (N2, S1, sel)
        if tmask is not None:
            forced = Tensor(tmask[:s1, :sel][None])
            imp = F.where(F.broadcast_to(forced, tuple(imp.shape)), F.full_like(imp, float("inf")), imp)
        top = F.topk(imp, count, -1)[1]  # (N2, S1, count)
        idxs.append(F.transpose(F.cast(top, dtypes.int32), (1, 0, 2)))
    return (F.concat(outs, 0), F.concat(idxs, 0), _stat8(F.concat(mxs, 0)), _stat8(F.concat(sms, 0)))


def _sel_ends(cum: Any, batches: int, op: str) -> list[int]:
    """The number of selection blocks of each batch from their cumulative ends."""
    from cellonnx.ops.composite.flash_attention import _ints
    c = _ints(cum)
    if c is None or c.size != batches or (np.diff(c) < 0).any() or c[0] < 0:
        raise ValueError(f"For '{op}', 'actual_sel_seq_kvlen' must list {batches} non-decreasing cumulative "
                         f"numbers of selection blocks, but got {cum!r}")
    return np.diff(c, prepend=0).astype(int).tolist()


__all__ = ["nsa_compress", "nsa_compress_attention"]
