"""MindSpore's fused attention kernels (Ascend) as compositions of primitives: flash_attention_score
(training, with dropout and the softmax statistics), prompt_flash_attention (full inference) and
incre_flash_attention (one decoding step). They compute the attention the kernels compute, in any layout
they take, with grouped key / value heads, position shifts, masks and the sparse modes; the gradient and
the ONNX lowering come from the primitives.

Masks: True (or 1) in ``attn_mask`` discards a position. A query row whose positions are all discarded
gives zeros.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import ops as _ops
from cellonnx.ops.prims._util import is_float_dtype, to_tensor
from cellonnx.tensor import Tensor

F: Any = _ops  # the functional API; its names are filled in at import time, so typed loosely

INT_MAX = 2147483647
LAYOUTS = ("BSH", "BNSD", "SBH", "BSND", "TND")


def cast_any(x: Any) -> Any:
    """``x`` typed loosely (Tensors are indexed like arrays; the stubs do not say so)."""
    return x


def _float(x: Any, name: str, op: str) -> Tensor:
    x = to_tensor(x)
    if not is_float_dtype(x._data.dtype):
        raise TypeError(f"For '{op}', '{name}' must be a float tensor, but got {x.dtype}")
    return x


def _ints(x: Any) -> np.ndarray | None:
    """A Tensor / list / tuple of ints as a NumPy int64 array (None stays None)."""
    if x is None:
        return None
    if isinstance(x, Tensor):
        return np.asarray(x.asnumpy(), dtype=np.int64).reshape(-1)
    return np.asarray(list(x), dtype=np.int64).reshape(-1)


def to_bnsd(x: Tensor, layout: str, heads: int, what: str, op: str) -> Tensor:
    """``x`` in ``layout`` (BSH, SBH, BSND, BNSD) as (B, N, S, D)."""
    if layout in ("BSH", "SBH"):
        if x.ndim != 3:
            raise ValueError(f"For '{op}', '{what}' must be 3-D in layout {layout}, but got shape "
                             f"{tuple(x.shape)}")
        if x.shape[2] % heads:
            raise ValueError(f"For '{op}', the hidden size {x.shape[2]} of '{what}' is not divisible by "
                             f"its head number {heads}")
        a, b, h = x.shape
        y = F.reshape(x, (a, b, heads, h // heads))
        return F.transpose(y, (0, 2, 1, 3) if layout == "BSH" else (1, 2, 0, 3))
    if x.ndim != 4:
        raise ValueError(f"For '{op}', '{what}' must be 4-D in layout {layout}, but got shape "
                         f"{tuple(x.shape)}")
    return F.transpose(x, (0, 2, 1, 3)) if layout == "BSND" else x


def from_bnsd(y: Tensor, layout: str) -> Tensor:
    """The inverse of :func:`to_bnsd`."""
    b, n, s, d = y.shape
    if layout == "BSH":
        return F.reshape(F.transpose(y, (0, 2, 1, 3)), (b, s, n * d))
    if layout == "SBH":
        return F.reshape(F.transpose(y, (2, 0, 1, 3)), (s, b, n * d))
    if layout == "BSND":
        return F.transpose(y, (0, 2, 1, 3))
    return y


def repeat_kv(k: Tensor, heads: int, op: str) -> Tensor:
    """(B, N2, S, D) key / value heads shared by groups of query heads: query head h reads head h // (N1 /
    N2), as (B, N1, S, D)."""
    b, n2, s, d = k.shape
    if n2 == 0 or heads % n2:
        raise ValueError(f"For '{op}', the query head number {heads} must be a multiple of the key / value "
                         f"head number {n2}")
    if n2 == heads:
        return k
    g = heads // n2
    return F.reshape(F.broadcast_to(F.expand_dims(k, 2), (b, n2, g, s, d)), (b, heads, s, d))


def band_keep(s1: int, s2: int, pre_tokens: int, next_tokens: int, origin: int = 0) -> np.ndarray:
    """(s1, s2) bool, True where query i may attend key j: ``-pre_tokens <= j - i - origin <=
    next_tokens`` (origin 0: the top-left vertex; s2 - s1: the bottom-right vertex)."""
    rel = np.arange(s2)[None, :] - np.arange(s1)[:, None] - origin
    return (rel >= -int(pre_tokens)) & (rel <= int(next_tokens))


def sparse_keep(sparse_mode: int, s1: int, s2: int, pre_tokens: int, next_tokens: int, has_mask: bool,
                op: str) -> np.ndarray | None:
    """The (s1, s2) positions a sparse mode keeps before ``attn_mask`` (None: all of them), and whether the
    mask's own values count."""
    if sparse_mode == 0:
        return band_keep(s1, s2, pre_tokens, next_tokens) if has_mask else None
    if sparse_mode == 1:
        return None
    if sparse_mode == 2:
        return band_keep(s1, s2, INT_MAX, 0)
    if sparse_mode in (3, 5):
        return band_keep(s1, s2, INT_MAX, 0, s2 - s1)
    if sparse_mode == 4:
        return band_keep(s1, s2, pre_tokens, next_tokens, s2 - s1)
    raise ValueError(f"For '{op}', 'sparse_mode' must be one of 0, 1, 2, 3, 4, 5, but got {sparse_mode}")


def user_mask(attn_mask: Tensor | None, sparse_mode: int, b: int, n: int, s1: int, s2: int,
              op: str) -> Tensor | None:
    """``attn_mask`` (True = discard) as a bool (B or 1, N or 1, S1, S2) tensor; modes 2-4 read the mode
    instead of their compressed (2048, 2048) mask."""
    if attn_mask is None or sparse_mode in (2, 3, 4):
        return None
    m = to_tensor(attn_mask)
    m = m if m._data.dtype == np.bool_ else F.not_equal(m, 0)
    if m.ndim == 2:
        m = F.reshape(m, (1, 1) + tuple(m.shape))
    elif m.ndim == 3:
        m = F.expand_dims(m, 1)
    if m.ndim != 4 or tuple(m.shape[2:]) != (s1, s2) or m.shape[0] not in (1, b) or m.shape[1] not in (1, n):
        raise ValueError(f"For '{op}', 'attn_mask' must be (S1, S2), (B, S1, S2), (B, 1, S1, S2) or "
                         f"(B, N1, S1, S2) with B={b}, N1={n}, S1={s1}, S2={s2}, but got shape "
                         f"{tuple(to_tensor(attn_mask).shape)}")
    return m


def attend(q: Tensor, k: Tensor, v: Tensor, scale: float, keep: Tensor | np.ndarray | None,
           shift: Tensor | None = None, shift_scaled: bool = False, keep_prob: float = 1.0,
           drop: Tensor | np.ndarray | None = None) -> tuple[Tensor, Tensor, Tensor]:
    """The attention of (B, N, S1, D) queries over (B, N, S2, D) keys / values.

    scores = scale * (q k^T + shift) when ``shift_scaled`` else scale * q k^T + shift; positions where
    ``keep`` is False are discarded; softmax over the keys (a row with no position kept gives zeros);
    dropout with ``keep_prob`` (``drop``: the keep mask, else drawn by the counter generator); times v.

    Returns:
        (out (B, N, S1, D), row max (B, N, S1, 1), row sum of exp(score - max) (B, N, S1, 1)).
    """
    s = F.matmul(q, F.transpose(k, (0, 1, 3, 2)))
    if shift is not None and shift_scaled:
        s = F.add(s, shift)
    s = F.mul(s, scale)
    if shift is not None and not shift_scaled:
        s = F.add(s, shift)
    if keep is not None:
        keep_t = keep if isinstance(keep, Tensor) else Tensor(np.asarray(keep, dtype=np.bool_))
        keep_t = F.broadcast_to(keep_t, tuple(s.shape))
        low = float(np.finfo(s._data.dtype).min)
        s = F.where(keep_t, s, F.full_like(s, low))
    row_max = F.amax(s, -1, True)
    e = F.exp(F.sub(s, row_max))  # not stop_gradient: softmax_sum and the log-sum-exp are outputs too
    if keep is not None:
        e = F.mul(e, F.cast(keep_t, e.dtype))
    row_sum = F.sum(e, -1, True)
    safe = F.where(F.greater(row_sum, 0), row_sum, F.ones_like(row_sum))
    p = F.div(e, safe)
    if keep_prob < 1.0:
        if drop is None:
            from cellonnx.ops.prims.dropout import dropout_with_mask
            p = dropout_with_mask(p, 1.0 - keep_prob)[0]
        else:
            drop_t = drop if isinstance(drop, Tensor) else Tensor(np.asarray(drop, dtype=np.bool_))
            p = F.div(F.mul(p, F.cast(drop_t, p.dtype)), keep_prob)
    return F.matmul(p, v), row_max, row_sum


def _unpack_drop_mask(drop_mask: Any, shape: tuple, op: str) -> np.ndarray:
    """The uint8 drop mask (B, N1, S1, ceil(S2 / 8)), 8 keep bits a byte (lowest bit first), as a bool
    (B, N1, S1, S2) array."""
    m = drop_mask.asnumpy() if isinstance(drop_mask, Tensor) else np.asarray(drop_mask)
    want = tuple(shape[:3]) + (-(-shape[3] // 8),)
    if m.ndim != 4 or tuple(m.shape) != want:
        raise ValueError(f"For '{op}', 'drop_mask' must be uint8 of shape {want} (B, N1, S1, S2 // 8), "
                         f"but got "
                         f"{tuple(m.shape)}")
    return np.unpackbits(m.astype(np.uint8), axis=-1, bitorder="little")[..., :shape[3]].astype(bool)


def _stat8(x: Tensor) -> Tensor:
    """A (..., 1) statistic as float32, repeated 8 times along the last axis (the kernel's layout)."""
    return F.broadcast_to(F.cast(x, _ops_float32()), tuple(x.shape[:-1]) + (8,))


def _ops_float32() -> Any:
    from cellonnx import dtypes
    return dtypes.float32


def _check_layout(layout: str, op: str, allowed: tuple = LAYOUTS) -> str:
    if not isinstance(layout, str) or layout.upper() not in allowed:
        raise ValueError(f"For '{op}', 'input_layout' must be one of {', '.join(allowed)}, but got "
                         f"{layout!r}")
    return layout.upper()


def _fas_dense(q: Tensor, k: Tensor, v: Tensor, head_num: int, real_shift: Any, drop_mask: Any,
               attn_mask: Any, prefix: Any, keep_prob: float, scale: float, pre_tokens: int, next_tokens: int,
               layout: str, sparse_mode: int, op: str,
               pse_first: bool = True, alibi: tuple | None = None) -> tuple[Tensor, Tensor, Tensor]:
    """flash_attention_score in BSH / SBH / BSND / BNSD: (out in the layout, max (B,N,S1,1), sum).
    ``pse_first``: the shift is added before scaling (else after). ``alibi``: (slopes, square root,
    q_start, kv_start) of a shift generated inside, added after scaling."""
    n2 = k.shape[-1] * head_num // q.shape[-1] if layout in ("BSH", "SBH") else None
    qb = to_bnsd(q, layout, head_num, "query", op)
    if layout in ("BNSD", "BSND") and qb.shape[1] != head_num:
        raise ValueError(f"For '{op}', 'head_num' ({head_num}) must equal N1 of 'query' {tuple(q.shape)}")
    kb = to_bnsd(k, layout, n2 or 1, "key", op)
    vb = to_bnsd(v, layout, n2 or 1, "value", op)
    if kb.shape[-1] != qb.shape[-1]:
        raise ValueError(f"For '{op}', the head size D of 'query' ({qb.shape[-1]}) and 'key' "
                         f"({kb.shape[-1]}) must be the same")
    kb, vb = repeat_kv(kb, head_num, op), repeat_kv(vb, head_num, op)
    b, n, s1, _ = qb.shape
    s2 = kb.shape[2]
    keep = sparse_keep(sparse_mode, s1, s2, pre_tokens, next_tokens, attn_mask is not None, op)
    keep_t: Any = None if keep is None else Tensor(keep[None, None])
    if sparse_mode == 5:
        pre = _ints(prefix)
        if pre is None or pre.size != b:
            raise ValueError(f"For '{op}', sparse_mode 5 needs 'prefix' with one value a batch ({b})")
        cols = np.arange(s2)[None, None, None, :] < pre[:, None, None, None]
        keep_t = Tensor(np.asarray(keep)[None, None] | cols)
    discard = user_mask(attn_mask, sparse_mode, b, n, s1, s2, op)
    if discard is not None:
        kept = F.logical_not(discard)
        keep_t = kept if keep_t is None else F.logical_and(kept, keep_t)
    shift = None if real_shift is None else _float(real_shift, "real_shift", op)
    if alibi is not None:
        from cellonnx.ops.composite.alibi_pse import alibi_shift, alibi_slopes
        slopes, root, q_start, kv_start = alibi
        shift = alibi_shift(alibi_slopes(slopes, b, n, op), s1, s2, q_start, kv_start, root, qb.dtype)
        pse_first = False
    elif shift is not None and tuple(shift.shape[-2:]) != (s1, s2):
        raise ValueError(f"For '{op}', 'real_shift' must be (B, N1, S1, S2) or (1, N1, S1, S2) = "
                         f"({b}, {n}, {s1}, {s2}), but got {tuple(shift.shape)}")
    drop = None
    if keep_prob < 1.0 and drop_mask is not None:
        drop = _unpack_drop_mask(drop_mask, (b, n, s1, s2), op)
    out, mx, sm = attend(qb, kb, vb, scale, keep_t, shift, pse_first, keep_prob, drop)
    return from_bnsd(out, layout), mx, sm


def _check_fas(head_num: Any, keep_prob: Any, input_layout: Any, sparse_mode: Any, op: str) -> str:
    if not isinstance(head_num, int) or head_num <= 0:
        raise ValueError(f"For '{op}', 'head_num' must be a positive int, but got {head_num!r}")
    if not 0.0 < float(keep_prob) <= 1.0:
        raise ValueError(f"For '{op}', 'keep_prob' must be in (0, 1], but got {keep_prob}")
    if sparse_mode not in (0, 1, 2, 3, 4, 5):
        raise ValueError(f"For '{op}', 'sparse_mode' must be one of 0, 1, 2, 3, 4, 5 (6-8 are not "
                         f"implemented by MindSpore either), but got {sparse_mode}")
    return _check_layout(input_layout, op)


def flash_attention_score_all(query: Tensor, key: Tensor, value: Tensor, head_num: int,
                              real_shift: Tensor | None = None, drop_mask: Tensor | None = None,
                              padding_mask: Tensor | None = None, attn_mask: Tensor | None = None,
                              prefix: Any = None, actual_seq_qlen: Any = None, actual_seq_kvlen: Any = None,
                              keep_prob: float = 1.0, scale_value: float = 1.0, pre_tokens: int = INT_MAX,
                              next_tokens: int = INT_MAX, inner_precise: int = 0, input_layout: str = "BSH",
                              sparse_mode: int = 0, *, _pse_first: bool = True, _alibi: tuple | None = None,
                              _op: str = "FlashAttentionScore") -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """The four outputs of MindSpore's ``FlashAttentionScore`` primitive: (softmax_max, softmax_sum,
    softmax_out, attention_out). See :func:`flash_attention_score`.

    Returns:
        - softmax_max (Tensor[float32]): each query row's largest score, (B, N1, S1, 8) ((T1, N1, 8) for
          TND), the value repeated along the last axis.
        - softmax_sum (Tensor[float32]): each row's sum of exp(score - softmax_max), same shape.
        - softmax_out (Tensor): an unused empty output of ``query``'s dtype, shape (0,).
        - attention_out (Tensor): the attention, of ``query``'s shape and dtype.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> q = Tensor(np.ones((1, 2, 8)), ms.float32)
        >>> smax, ssum, _, out = ops.operations.nn_ops.FlashAttentionScore(head_num=2)(q, q, q)
        >>> smax.shape, ssum.shape, out.shape
        ((1, 2, 2, 8), (1, 2, 2, 8), (1, 2, 8))
        >>> print(ssum.asnumpy()[0, 0, 0, 0])
        2.0
    """
    op = _op
    del padding_mask, inner_precise  # reserved by MindSpore, not implemented there
    layout = _check_fas(head_num, keep_prob, input_layout, sparse_mode, op)
    q = _float(query, "query", op)
    k = _float(key, "key", op)
    v = _float(value, "value", op)
    scale, keep_prob = float(scale_value), float(keep_prob)
    if layout != "TND":
        out, mx, sm = _fas_dense(q, k, v, head_num, real_shift, drop_mask, attn_mask, prefix, keep_prob,
                                 scale, pre_tokens, next_tokens, layout, sparse_mode, op, _pse_first, _alibi)
        return _stat8(mx), _stat8(sm), F.zeros((0,), q.dtype), out
    cq, ck = _ints(actual_seq_qlen), _ints(actual_seq_kvlen)
    if cq is None or ck is None or cq.size != ck.size:
        raise ValueError(f"For '{op}', layout TND needs 'actual_seq_qlen' and 'actual_seq_kvlen' of the same "
                         f"length (cumulative sequence ends of each batch)")
    if q.ndim != 3 or cq[-1] != q.shape[0] or ck[-1] != k.shape[0]:
        raise ValueError(f"For '{op}', in layout TND 'query' / 'key' must be (T, N, D) with T the last "
                         f"value of 'actual_seq_qlen' / 'actual_seq_kvlen', got {tuple(q.shape)}, "
                         f"{tuple(k.shape)}, ends {cq[-1]}, {ck[-1]}")
    if keep_prob < 1.0 and drop_mask is not None:
        raise ValueError(f"For '{op}', a 'drop_mask' in layout TND is not supported; leave it None and the "
                         f"mask is drawn")
    if real_shift is not None:
        # MindSpore takes it there only as the Ascend kernel's compressed (B, N1, 1024, S2) ALiBi rows
        raise ValueError(f"For '{op}', a given position shift ('real_shift' / 'pse' with pse_type 0 or 1) in "
                         f"layout TND is not supported; pass the ALiBi slopes with pse_type 2 or 3, which "
                         f"generates the shift per batch")
    outs, mxs, sms = [], [], []
    qa, ka, va = cast_any(q), cast_any(k), cast_any(v)
    q0 = k0 = 0
    for bi, (q1, k1) in enumerate(zip(cq.tolist(), ck.tolist())):
        qi = F.expand_dims(qa[q0:q1], 0)
        ki, vi = F.expand_dims(ka[k0:k1], 0), F.expand_dims(va[k0:k1], 0)
        o, mx, sm = _fas_dense(qi, ki, vi, head_num, None, None, attn_mask if sparse_mode in (2, 3) else None,
                               None, keep_prob, scale, pre_tokens, next_tokens, "BSND", sparse_mode, op,
                               alibi=_batch_alibi(_alibi, bi))
        outs.append(F.squeeze(o, 0))
        mxs.append(F.transpose(F.squeeze(mx, 0), (1, 0, 2)))
        sms.append(F.transpose(F.squeeze(sm, 0), (1, 0, 2)))
        q0, k0 = q1, k1
    return (_stat8(F.concat(mxs, 0)), _stat8(F.concat(sms, 0)), F.zeros((0,), q.dtype), F.concat(outs, 0))


def _batch_alibi(alibi: tuple | None, batch: int) -> tuple | None:
    """The generated-shift arguments of one TND batch: (B, N1) slopes give that batch's row."""
    if alibi is None:
        return None
    slopes = to_tensor(alibi[0])
    if slopes.ndim == 2:
        slopes = cast_any(slopes)[batch:batch + 1]
    return (slopes,) + tuple(alibi[1:])


def flash_attention_score(query: Tensor, key: Tensor, value: Tensor, head_num: int,
                          real_shift: Tensor | None = None, drop_mask: Tensor | None = None,
                          padding_mask: Tensor | None = None, attn_mask: Tensor | None = None,
                          prefix: Any = None, actual_seq_qlen: Any = None, actual_seq_kvlen: Any = None,
                          keep_prob: float = 1.0, scalar_value: float = 1.0, pre_tokens: int = INT_MAX,
                          next_tokens: int = INT_MAX, inner_precise: int = 0, input_layout: str = "BSH",
                          sparse_mode: int = 0) -> Tensor:
    r"""Self-attention of training (MindSpore's fused Ascend FlashAttentionScore), computed from its formula.

    .. math::
        out = Dropout(Softmax(Mask(scale * (query \cdot key^T + real\_shift), attn\_mask)), keep\_prob)
        \cdot value

    (the formula of MindSpore's ``FlashAttentionScore`` primitive: the shift is added before scaling).

    Args:
        query (Tensor): (B, S1, H1), (B, N1, S1, D), (S1, B, H1), (B, S1, N1, D) or (T1, N1, D) by
            ``input_layout``.
        key (Tensor): (B, S2, H2), (B, N2, S2, D), (S2, B, H2), (B, S2, N2, D) or (T2, N2, D); N1 a
            multiple of N2 (grouped key / value heads: query head h reads key head h // (N1 / N2)).
        value (Tensor): of ``key``'s shape.
        head_num (int): N1, the number of query heads.
        real_shift (Tensor, optional): the position shift (pse), (B, N1, S1, S2) or (1, N1, S1, S2).
            Default ``None``.
        drop_mask (Tensor, optional): uint8 (B, N1, S1, S2 // 8), 8 keep bits a byte (lowest bit first);
            when ``None`` and ``keep_prob < 1`` the mask is drawn by the dropout generator. Default ``None``.
        padding_mask (Tensor, optional): reserved (unused, as in MindSpore). Default ``None``.
        attn_mask (Tensor, optional): bool / uint8, True or 1 discards: (B, N1, S1, S2), (B, 1, S1, S2) or
            (S1, S2). Modes 2, 3 and 4 take the causal / band shape from ``sparse_mode`` instead of their
            compressed (2048, 2048) mask. Default ``None``.
        prefix (Union[Tensor, tuple[int], list[int]], optional): the prefix width N of each batch (mode 5).
        actual_seq_qlen (Union[Tensor, tuple[int], list[int]], optional): layout TND: cumulative ends of
            the query sequences.
        actual_seq_kvlen (Union[Tensor, tuple[int], list[int]], optional): layout TND: cumulative ends of
            the key / value sequences.
        keep_prob (float): the dropout keep probability, in (0, 1]. Default ``1.0``.
        scalar_value (float): the scale (usually 1 / sqrt(D)). Default ``1.0``.
        pre_tokens (int): the band's reach before the diagonal (modes 0 and 4). Default ``2147483647``.
        next_tokens (int): the band's reach after the diagonal (modes 0 and 4). Default ``2147483647``.
        inner_precise (int): reserved. Default ``0``.
        input_layout (str): "BSH", "BNSD", "SBH", "BSND" or "TND". Default ``"BSH"``.
        sparse_mode (int): 0: ``attn_mask`` (when given) and the band ``-pre_tokens <= j - i <=
            next_tokens``; 1: ``attn_mask`` only; 2: causal from the top-left vertex (j <= i); 3: causal
            from the bottom-right vertex (j - i <= S2 - S1); 4: the band counted from the bottom-right
            vertex; 5: mode 3 plus the first ``prefix[b]`` keys of each batch. Default ``0``.

    Returns:
        Tensor, of ``query``'s shape and dtype. A query row with every key discarded gives zeros.

    Raises:
        ValueError: a layout, sparse mode, head number or shape that does not fit.

    Supported Platforms:
        ``CPU``

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> query = Tensor(np.ones([2, 4, 64]), ms.float16)
        >>> key = Tensor(np.ones([2, 4, 64]), ms.float16)
        >>> value = Tensor(np.ones([2, 4, 64]), ms.float16)
        >>> output = ops.flash_attention_score(query, key, value, 4)
        >>> print(output.shape)
        (2, 4, 64)
    """
    return flash_attention_score_all(query, key, value, head_num, real_shift, drop_mask, padding_mask,
                                     attn_mask, prefix, actual_seq_qlen, actual_seq_kvlen, keep_prob,
                                     scalar_value, pre_tokens, next_tokens, inner_precise, input_layout,
                                     sparse_mode)[3]


def speed_fusion_attention(query: Tensor, key: Tensor, value: Tensor, head_num: int, input_layout: str, *,
                           pse: Tensor | None = None, padding_mask: Tensor | None = None,
                           atten_mask: Tensor | None = None, scale: float = 1.0, keep_prob: float = 1.0,
                           pre_tokens: int = INT_MAX, next_tokens: int = INT_MAX, inner_precise: int = 0,
                           prefix: Any = None, actual_seq_qlen: Any = None, actual_seq_kvlen: Any = None,
                           sparse_mode: int = 0, gen_mask_parallel: bool = True, sync: bool = False,
                           pse_type: int = 1, q_start_idx: Any = None, kv_start_idx: Any = None) -> tuple:
    r"""Self-attention of training with the choice of where the position shift enters (MindSpore's fused
    Ascend SpeedFusionAttention), computed from its formula.

    .. math::
        pse\_type = 1: out = Dropout(Softmax(Mask(scale * (pse + query \cdot key^T), atten\_mask)),
        keep\_prob) \cdot value

        pse\_type = 0: out = Dropout(Softmax(Mask(scale * (query \cdot key^T) + pse, atten\_mask)),
        keep\_prob) \cdot value

    and pse_type 2 / 3 as pse_type 0 with the ALiBi shift generated from the slopes ``pse`` (see
    ``pse_type``).

    Args:
        query, key, value, head_num, input_layout, padding_mask, prefix, actual_seq_qlen, actual_seq_kvlen,
            pre_tokens, next_tokens, inner_precise, sparse_mode: as in :func:`flash_attention_score`
            (``input_layout`` has no default here).
        pse (Tensor, optional): the position shift, (B, N1, S1, S2) or (1, N1, S1, S2); with ``pse_type`` 2
            or 3 the ALiBi slopes, float (B, N1) or (N1,). Default ``None``.
        atten_mask (Tensor, optional): as ``attn_mask`` of :func:`flash_attention_score`. Default ``None``.
        scale (float): the scale of the scores. Default ``1.0``.
        keep_prob (float): the dropout keep probability; the mask is drawn by the dropout generator
            (``set_seed`` repeats it, in eager mode and in an exported graph alike). Default ``1.0``.
        gen_mask_parallel (bool), sync (bool): how the NPU draws the mask; no effect here.
        pse_type (int): 1: ``pse`` added before scaling; 0: after. 2: the shift is generated from the
            slopes ``pse`` and added after scaling, :math:`pse[b, h, i, j] = -slope[b, h] \cdot
            |(j + kv\_start\_idx) - (i + q\_start\_idx)|` (row 0 at the top-left corner of the scores;
            positions i, j within each batch for TND); 3: the same with the square root of the distance.
            Default ``1``.
        q_start_idx (Union[tuple[int], list[int]], optional): one int, the query position offset of the
            generated shift (pse_type 2 / 3; None: 0). Default ``None``.
        kv_start_idx (Union[tuple[int], list[int]], optional): one int, the key position offset of the
            generated shift (pse_type 2 / 3; None: 0). Default ``None``.

    Returns:
        tuple (attention_out, softmax_max, softmax_sum, softmax_out, seed, offset, numels):
        attention_out of ``query``'s shape and dtype; softmax_max / softmax_sum as
        :class:`cellonnx.ops.operations.nn_ops.FlashAttentionScore`'s; softmax_out an empty tensor; seed and
        offset the dropout generator's key and offset before the draw (int64 scalars); numels the number of
        dropout mask elements drawn (0 when ``keep_prob`` is 1).

    Raises:
        TypeError: ``pse_type`` not an int.
        ValueError: an unsupported ``pse_type``, layout, sparse mode or shape.

    Supported Platforms:
        ``CPU``

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> query = Tensor(np.ones([2, 4, 64]), ms.float16)
        >>> output = ops.speed_fusion_attention(query, query, query, 4, "BSH")
        >>> print(output[0].shape)
        (2, 4, 64)
    """
    op = "SpeedFusionAttention"
    del gen_mask_parallel, sync
    if isinstance(pse_type, bool) or not isinstance(pse_type, int):
        raise TypeError(f"For '{op}', 'pse_type' must be an int, but got {type(pse_type).__name__}")
    if pse_type not in (0, 1, 2, 3):
        raise ValueError(f"For '{op}', 'pse_type' must be 0, 1, 2 or 3, but got {pse_type}")
    alibi = None
    if pse_type in (2, 3) and pse is not None:
        from cellonnx.ops.composite.alibi_pse import start_index
        alibi = (pse, pse_type == 3, start_index(q_start_idx, "q_start_idx", op),
                 start_index(kv_start_idx, "kv_start_idx", op))
        pse = None
    from cellonnx.ops.prims.counter_rng import rng_state
    state = rng_state().asnumpy()
    key64 = (int(state[0]) & 0xFFFFFFFF) | ((int(state[1]) & 0xFFFFFFFF) << 32)
    seed = Tensor(np.array([key64], dtype=np.uint64).view(np.int64).reshape(()))
    offset = Tensor(np.array(int(state[2]), dtype=np.int64))
    smax, ssum, sout, out = flash_attention_score_all(
        query, key, value, head_num, pse, None, padding_mask, atten_mask, prefix, actual_seq_qlen,
        actual_seq_kvlen, keep_prob, scale, pre_tokens, next_tokens, inner_precise, input_layout, sparse_mode,
        _pse_first=pse_type == 1, _alibi=alibi, _op=op)
    numels = 0
    if float(keep_prob) < 1.0:
        if str(input_layout).upper() == "TND":
            cq, ck = np.asarray(_ints(actual_seq_qlen)), np.asarray(_ints(actual_seq_kvlen))
            lq, lk = np.diff(cq, prepend=0), np.diff(ck, prepend=0)
            numels = int((lq * lk).sum()) * head_num
        else:
            numels = int(np.prod(smax.shape[:-1])) * _s2(key, input_layout)
    return out, smax, ssum, sout, seed, offset, Tensor(np.array(numels, dtype=np.int64))


def _s2(key: Any, layout: str) -> int:
    shape = to_tensor(key).shape
    return int(shape[{"BSH": 1, "SBH": 0, "BSND": 1, "BNSD": 2}[str(layout).upper()]])


__all__ = ["flash_attention_score", "speed_fusion_attention"]
