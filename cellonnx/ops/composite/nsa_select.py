"""Native sparse attention (NSA, arXiv 2502.11089) selected attention: MindSpore's Ascend
``nsa_select_attention`` as a composition of primitives (layout TND). Each query row attends the key /
value blocks its ``topk_indices`` name; the gradient and the ONNX lowering come from the primitives, and the
indices may be graph inputs.
"""
from __future__ import annotations

from typing import Any

import numpy as np

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


def _block_rows(idx: Tensor, size: int) -> Tensor:
    """(..., count) block indices as (..., count * size) row indices: block b covers rows b * size ...
    b * size + size - 1."""
    rows = F.add(F.expand_dims(F.mul(idx, size), -1), Tensor(np.arange(size, dtype=np.int64)))
    return F.reshape(rows, tuple(idx.shape[:-1]) + (idx.shape[-1] * size,))


def nsa_select_attention(query: Tensor, key: Tensor, value: Tensor, topk_indices: Tensor, scale_value: float,
                         head_num: int, select_block_size: int, select_block_count: int, *,
                         atten_mask: Any = None, actual_seq_qlen: Any = None,
                         actual_seq_kvlen: Any = None) -> tuple:
    r"""Attention of each query row over the key / value blocks it selected (NSA selected attention).

    For each batch (split by the cumulative ends), query row i and query head h (key / value head
    :math:`h_2 = h // (N1 / N2)`), the selected rows are the ``select_block_count`` blocks
    ``topk_indices[i, h2, :]`` of the batch's keys, block b covering the batch's rows
    :math:`b \cdot l' \dots b \cdot l' + l' - 1` (:math:`l'` = ``select_block_size``), in the listed order
    (a block listed twice counts twice); no causal or other mask applies:

    .. math::
        attention\_out = Softmax(scale \cdot query \cdot selected\_key^T) \cdot selected\_value

    Args:
        query (Tensor): (T1, N1, D1), float.
        key (Tensor): (T2, N2, D1).
        value (Tensor): (T2, N2, D2), D2 <= D1.
        topk_indices (Tensor): int (T1, N2, select_block_count), each in [0, S2 // select_block_size) of
            its batch (S2 the batch's key length).
        scale_value (float): the score scale, usually D1 ** -0.5.
        head_num (int): N1.
        select_block_size (int): l'.
        select_block_count (int): the number of blocks each row reads.

    Keyword Args:
        atten_mask (Tensor, optional): not supported (as in MindSpore); must be ``None``.
        actual_seq_qlen (Union[tuple[int], list[int]]): cumulative query ends, the last equal to T1.
        actual_seq_kvlen (Union[tuple[int], list[int]]): cumulative key / value ends, the last equal to T2.

    Returns:
        tuple (attention_out (T1, N1, D2) of ``query``'s dtype, softmax_max (T1, N1, 8) float32,
        softmax_sum (T1, N1, 8) float32): the attention, each row's largest scaled score and its sum of
        exp(score - max), repeated 8 times.

    Raises:
        TypeError: a non-float query / key / value.
        ValueError: shapes, head numbers, sequence ends or indices out of range.

    Note:
        The Ascend kernel's limits (float16 / bfloat16, select_block_size 64, count 16) are hardware
        limits and are not imposed here.

    Supported Platforms:
        ``CPU``

    Examples:
        >>> import numpy as np
        >>> from cellonnx import Tensor, ops
        >>> q = Tensor(np.ones((2, 2, 4), np.float32))
        >>> k = Tensor(np.ones((8, 1, 4), np.float32))
        >>> v = Tensor(np.arange(8, dtype=np.float32).reshape(8, 1, 1).repeat(4, 2))
        >>> idx = Tensor(np.array([[[0, 1]], [[3, 2]]], np.int32))
        >>> out, smax, ssum = ops.nsa_select_attention(q, k, v, idx, 1.0, 2, 2, 2,
        ...                                            actual_seq_qlen=[2], actual_seq_kvlen=[8])
        >>> print(out.asnumpy()[:, 0, 0])
        [1.5 5.5]
        >>> print(smax.shape)
        (2, 2, 8)
    """
    op = "NsaSelectAttention"
    if atten_mask is not None:
        raise ValueError(f"For '{op}', 'atten_mask' is not supported (MindSpore reserves it); pass None")
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
    size = check_int(select_block_size, "select_block_size", op)
    count = check_int(select_block_count, "select_block_count", op)
    idx = to_tensor(topk_indices)
    if tuple(idx.shape) != (q.shape[0], n2, count) or idx._data.dtype.kind not in "iu":
        raise ValueError(f"For '{op}', 'topk_indices' must be int (T1, N2, select_block_count) = "
                         f"({q.shape[0]}, {n2}, {count}), but got {idx.dtype} {tuple(idx.shape)}")
    qb = ends_of(actual_seq_qlen, q.shape[0], "actual_seq_qlen", op)
    kb = ends_of(actual_seq_kvlen, k.shape[0], "actual_seq_kvlen", op)
    if len(kb) != len(qb):
        raise ValueError(f"For '{op}', 'actual_seq_qlen' and 'actual_seq_kvlen' must list the same number of "
                         f"batches, but got {len(qb)} and {len(kb)}")
    values = idx.asnumpy()
    outs, mxs, sms = [], [], []
    qa, ka, va, ia = cast_any(q), cast_any(k), cast_any(v), cast_any(F.cast(idx, np.int64))
    for (q0, q1), (k0, k1) in zip(qb, kb):
        s1, blocks = q1 - q0, (k1 - k0) // size
        got = values[q0:q1]
        if got.size and (got.min() < 0 or got.max() >= blocks):
            raise ValueError(f"For '{op}', 'topk_indices' of the batch with {k1 - k0} key rows must lie in "
                             f"[0, {blocks}) (whole blocks of {size}), but got values in [{got.min()}, "
                             f"{got.max()}]")
        rows = _block_rows(F.transpose(ia[q0:q1], (1, 0, 2)), size)  # (N2, S1, count * size)
        flat = F.reshape(rows, (n2, s1 * count * size))
        ks = F.reshape(F.gather(F.transpose(ka[k0:k1], (1, 0, 2)), flat, 1, 1), (n2, s1, count * size, -1))
        vs = F.reshape(F.gather(F.transpose(va[k0:k1], (1, 0, 2)), flat, 1, 1), (n2, s1, count * size, -1))
        qh = F.transpose(F.reshape(qa[q0:q1], (s1, n2, g, q.shape[2])), (1, 0, 2, 3))  # (N2, S1, G, D1)
        scores = F.mul(F.matmul(qh, F.transpose(ks, (0, 1, 3, 2))), float(scale_value))  # (N2, S1, G, L)
        p, mx, sm = masked_softmax(scores, np.ones((1,), bool))
        outs.append(F.reshape(F.transpose(F.matmul(p, vs), (1, 0, 2, 3)), (s1, n1, v.shape[2])))
        mxs.append(F.reshape(F.transpose(mx, (1, 0, 2, 3)), (s1, n1, 1)))
        sms.append(F.reshape(F.transpose(sm, (1, 0, 2, 3)), (s1, n1, 1)))
    return F.concat(outs, 0), _stat8(F.concat(mxs, 0)), _stat8(F.concat(sms, 0))


__all__ = ["nsa_select_attention"]
