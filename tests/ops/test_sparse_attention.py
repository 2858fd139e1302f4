"""MindSpore's sparse attention kernels (nsa_compress, nsa_compress_attention, nsa_select_attention,
lightning_indexer, sparse_flash_attention) and speed_fusion_attention's generated ALiBi shift (pse_type 2 /
3) against float64 NumPy references written loop by loop from MindSpore 2.10's documented formulas and the
rules the functions' docstrings state (query row by query row, head by head, block by block).

These kernels run on Ascend only in MindSpore, so there are no MindSpore fixtures: besides the references,
the gradients are checked against central finite differences, the lowerings by onnxruntime (BSND layouts
with a dynamic batch, run at two batch sizes), and the shapes of MindSpore's documented examples.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np
import onnxruntime as ort
import pytest

from cellonnx import Tensor, ops
from tests.ops.harness import (
    OpCase,
    check_forward,
    check_grad,
    check_lowering,
    export_case,
    lowering_params,
    rand,
)
from tests.ops.test_fused_attention import ref_attention
from tests.tolerance import assert_close


def _ends(cum: list[int]) -> list[tuple[int, int]]:
    starts = [0] + list(cum[:-1])
    return list(zip(starts, cum))


def _softmax_row(s: np.ndarray, ok: np.ndarray) -> tuple[np.ndarray, float, float]:
    """The softmax of the kept entries of one row (zeros when none is kept), its max and sum."""
    if not ok.any():
        return np.zeros_like(s), 0.0, 0.0
    m = s[ok].max()
    e = np.where(ok, np.exp(s - m), 0.0)
    return e / e.sum(), m, e.sum()


# ------------------------------------------------------------------ nsa_compress
def ref_nsa_compress(x, w, block, stride, cum):
    out = []
    for a, e in _ends(cum):
        start = 0
        while start + block <= e - a:
            tok = np.zeros(x.shape[1:])
            for i in range(block):
                for n in range(x.shape[1]):
                    tok[n] += w[i, n] * x[a + start + i, n]
            out.append(tok)
            start += stride
    return np.array(out).reshape((-1,) + x.shape[1:])


# ------------------------------------------------------------------ nsa_compress_attention
def ref_nsa_cmp_attn(q, k, v, scale, n1, cb, cs, sb, count, tmask, amask, cq, ck, csel):
    t1, _, _ = q.shape
    n2, dv = k.shape[1], v.shape[2]
    g, m, n = n1 // n2, sb // cs, cb // cs
    out = np.zeros((t1, n1, dv))
    mx, sm = np.zeros((t1, n1)), np.zeros((t1, n1))
    top = np.zeros((t1, n2, count), np.int64)
    sel_n = np.diff([0] + list(csel))
    for (q0, q1), (k0, k1), sel in zip(_ends(cq), _ends(ck), sel_n):
        s2 = k1 - k0
        for i in range(q1 - q0):
            probs = np.zeros((n1, s2))
            for h in range(n1):
                s = np.array([scale * q[q0 + i, h] @ k[k0 + j, h // g] for j in range(s2)])
                ok = np.ones(s2, bool) if amask is None else ~amask[i, :s2].astype(bool)
                p, mx[q0 + i, h], sm[q0 + i, h] = _softmax_row(s, ok)
                probs[h] = p
                out[q0 + i, h] = p @ v[k0:k1, h // g]
            for h2 in range(n2):
                score = np.zeros(sel)
                for jb in range(sel):
                    for h in range(h2 * g, h2 * g + g):
                        for a in range(m):
                            for c in range(n):
                                pos = m * (jb + 1) - a - c
                                if 0 <= pos < s2:
                                    score[jb] += probs[h, pos]
                    if tmask is not None and tmask[i, jb]:
                        score[jb] = np.inf
                order = sorted(range(sel), key=lambda j: (-score[j], j))
                top[q0 + i, h2] = order[:count]
    return out, top.astype(np.int32), np.repeat(mx[..., None], 8, -1), np.repeat(sm[..., None], 8, -1)


# ------------------------------------------------------------------ nsa_select_attention
def ref_nsa_select(q, k, v, idx, scale, n1, size, cq, ck):
    t1 = q.shape[0]
    n2, dv = k.shape[1], v.shape[2]
    g = n1 // n2
    out, mx, sm = np.zeros((t1, n1, dv)), np.zeros((t1, n1)), np.zeros((t1, n1))
    for (q0, q1), (k0, _) in zip(_ends(cq), _ends(ck)):
        for t in range(q0, q1):
            for h in range(n1):
                rows = [k0 + b * size + r for b in idx[t, h // g] for r in range(size)]
                s = np.array([scale * q[t, h] @ k[r, h // g] for r in rows])
                p, mx[t, h], sm[t, h] = _softmax_row(s, np.ones(len(rows), bool))
                out[t, h] = p @ np.array([v[r, h // g] for r in rows])
    return out, np.repeat(mx[..., None], 8, -1), np.repeat(sm[..., None], 8, -1)


# ------------------------------------------------------------------ lightning_indexer
def ref_indexer_batch(q, k, w, count, mode):
    """q (S1, N1, D), k (S2, N2, D), w (S1, N1) of one batch (valid parts only): (S1, N2, count) indices and
    values."""
    s1, n1, _ = q.shape
    s2, n2, _ = k.shape
    g = n1 // n2
    idx = np.full((s1, n2, count), -1, np.int64)
    val = np.full((s1, n2, count), -np.inf)
    for i in range(s1):
        for h2 in range(n2):
            cand = []
            for j in range(s2):
                if mode == 3 and j > s2 - s1 + i:
                    continue
                sc = sum(w[i, h] * max(0.0, q[i, h] @ k[j, h2]) for h in range(h2 * g, h2 * g + g))
                cand.append((-sc, j))
            cand.sort()
            for slot, (neg, j) in enumerate(cand[:count]):
                idx[i, h2, slot], val[i, h2, slot] = j, -neg
    return idx, val


def ref_indexer_bsnd(q, k, w, count, mode, qlens=None, klens=None):
    b, s1, _, _ = q.shape
    n2 = k.shape[2]
    idx = np.full((b, s1, n2, count), -1, np.int64)
    val = np.full((b, s1, n2, count), -np.inf)
    for bi in range(b):
        ql = s1 if qlens is None else qlens[bi]
        kl = k.shape[1] if klens is None else klens[bi]
        idx[bi, :ql], val[bi, :ql] = ref_indexer_batch(q[bi, :ql], k[bi, :kl], w[bi, :ql], count, mode)
    return idx.astype(np.int32), val


def ref_indexer_tnd(q, k, w, count, mode, cq, ck):
    parts = [ref_indexer_batch(q[a:e], k[c:d], w[a:e], count, mode) for (a, e), (c, d) in zip(_ends(cq),
                                                                                           _ends(ck))]
    return (np.concatenate([p[0] for p in parts]).astype(np.int32), np.concatenate([p[1] for p in parts]))


def paged(k: np.ndarray, block: int, order: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """(B, S, N, D) keys scattered into (num_blocks, block, N, D) blocks in ``order``, and the table."""
    b, s = k.shape[:2]
    per = s // block
    cache = np.zeros((len(order), block) + k.shape[2:])
    table = np.zeros((b, per), np.int32)
    n = 0
    for i in range(b):
        for j in range(per):
            cache[order[n]] = k[i, j * block:(j + 1) * block]
            table[i, j] = order[n]
            n += 1
    return cache, table


def unpage(cache: np.ndarray, table: np.ndarray, lens: list[int]) -> list[np.ndarray]:
    """Each batch's keys read back token by token through its table row."""
    bs = cache.shape[1]
    return [np.array([cache[table[b, p // bs], p % bs] for p in range(n)]) for b, n in enumerate(lens)]


# ------------------------------------------------------------------ sparse_flash_attention
def ref_sfa_batch(q, k, v, idx, scale, size, mode, kl, qr=None, kr=None):
    """q (S1, N1, D), k / v (S2, N2, .) (S2 >= kl), idx (S1, N2, K): (S1, N1, Dv) and max / sum
    (N2, S1, G)."""
    s1, n1, _ = q.shape
    n2 = k.shape[1]
    g, count = n1 // n2, idx.shape[-1]
    out = np.zeros((s1, n1, v.shape[2]))
    mx, sm = np.zeros((n2, s1, g)), np.zeros((n2, s1, g))
    for i in range(s1):
        limit = kl if mode == 0 else kl - s1 + i + 1
        if limit <= 0:
            continue
        for h2 in range(n2):
            rows = []
            for slot in range(min(count, math.ceil(limit / size))):
                b = int(idx[i, h2, slot])
                if b == -1:
                    break
                rows += [r for r in range(b * size, min(b * size + size, kl)) if r < limit]
            if not rows:
                continue
            for gi in range(g):
                h = h2 * g + gi
                s = []
                for r in rows:
                    dot = q[i, h] @ k[r, h2] + (0.0 if qr is None else qr[i, h] @ kr[r, h2])
                    s.append(scale * dot)
                p, mx[h2, i, gi], sm[h2, i, gi] = _softmax_row(np.array(s), np.ones(len(rows), bool))
                out[i, h] = p @ np.array([v[r, h2] for r in rows])
    return out, mx, sm


def ref_sfa_bsnd(q, k, v, idx, scale, size, mode, qr=None, kr=None, klens=None, qlens=None):
    b, s1 = q.shape[:2]
    outs, mxs, sms = [], [], []
    for bi in range(b):
        kl = k.shape[1] if klens is None else klens[bi]
        ql = s1 if qlens is None else qlens[bi]
        o, mx, sm = ref_sfa_batch(q[bi, :ql], k[bi], v[bi], idx[bi, :ql], scale, size, mode, kl,
                                  None if qr is None else qr[bi, :ql], None if kr is None else kr[bi])
        full_o = np.zeros(q.shape[1:3] + (v.shape[3],))
        full_mx, full_sm = np.zeros((k.shape[2], s1, mx.shape[2])), np.zeros((k.shape[2], s1, mx.shape[2]))
        full_o[:ql], full_mx[:, :ql], full_sm[:, :ql] = o, mx, sm
        outs.append(full_o)
        mxs.append(full_mx)
        sms.append(full_sm)
    return np.array(outs), np.array(mxs), np.array(sms)


def sparse_idx(rng, shape, s2, size, fill_neg=0.2):
    """Random block indices in [0, ceil(s2 / size)), some slots -1 (padding after a row's list)."""
    idx = rng.integers(0, -(-s2 // size), size=shape)
    cut = rng.random(shape[:-1]) < fill_neg
    stop = rng.integers(1, shape[-1] + 1, size=shape[:-1])
    slots = np.arange(shape[-1])
    idx = np.where(cut[..., None] & (slots >= stop[..., None]), -1, idx)
    return idx.astype(np.int32)


# ------------------------------------------------------------------ speed_fusion_attention pse_type 2 / 3
def ref_alibi(q, k, v, n1, slopes, scale, root, qs=0, ks=0, mode=0):
    """BNSD attention with the generated shift -slope[b, h] * |(j + ks) - (i + qs)| (sqrt for pse_type 3)
    added after scaling."""
    s1, s2 = q.shape[2], k.shape[2]
    sl = slopes if slopes.ndim == 2 else np.broadcast_to(slopes, (q.shape[0], n1))

    def shift(b, h, i, j):
        d = abs((j + ks) - (i + qs))
        return -sl[b, h] * (math.sqrt(d) if root else d)

    keep = (lambda b, h, i, j: True) if mode == 0 else (lambda b, h, i, j: j - i <= s2 - s1)
    return ref_attention(q, k, v, scale, keep, shift, False)[0]


rng0 = np.random.default_rng(100)
# nsa_compress: T = 7 + 9, N = 2, D = 3; block 4, stride 2 -> 2 + 3 windows
XC, WC = rand(16, 2, 3, seed=101), rand(4, 2, seed=102)
# compressed attention: N1 = 4, N2 = 2, D1 = 4, D2 = 3; l = 2, d = 1, l' = 2 -> m = 2, n = 2
QA, KA, VA = rand(7, 4, 4, seed=103), rand(9, 2, 4, seed=104), rand(9, 2, 3, seed=105)
AMASK = np.triu(np.ones((4, 5), bool), k=1)
TMASK = np.zeros((4, 3), bool)
TMASK[:, 0] = True
# selected attention: N1 = 4, N2 = 2, D1 = 4, D2 = 3; block 2, count 2; batches of 3 + 2 queries, 6 + 4 keys
QS, KS, VS = rand(5, 4, 4, seed=106), rand(10, 2, 4, seed=107), rand(10, 2, 3, seed=108)
IS = np.concatenate([rng0.integers(0, 3, (3, 2, 2)), rng0.integers(0, 2, (2, 2, 2))]).astype(np.int32)
# indexer: B = 2, S1 = 3, S2 = 5, N1 = 4, N2 = 2, D = 4
QI, KI, WI = rand(2, 3, 4, 4, seed=109), rand(2, 5, 2, 4, seed=110), rand(2, 3, 4, seed=111)
KCACHE, KTABLE = paged(KI, 1, [7, 2, 9, 4, 0, 1, 5, 3, 8, 6])
# sparse flash attention: B = 2, S1 = 3, S2 = 6, N1 = 4, N2 = 2, D = 4, Dv = 3, D_rope = 2, K = 3
QF, KF, VF = rand(2, 3, 4, 4, seed=112), rand(2, 6, 2, 4, seed=113), rand(2, 6, 2, 3, seed=114)
QR, KR = rand(2, 3, 4, 2, seed=115), rand(2, 6, 2, 2, seed=116)
IF1 = sparse_idx(rng0, (2, 3, 2, 3), 6, 1)
IF2 = sparse_idx(rng0, (2, 3, 2, 3), 6, 2)
VCACHE, _ = paged(VF, 2, [4, 0, 5, 2, 1, 3])
KFCACHE, FTABLE = paged(KF, 2, [4, 0, 5, 2, 1, 3])
# speed_fusion_attention: B = 2, N1 = 2, S1 = 3, S2 = 4, D = 4 (BNSD)
QP, KP, VP = rand(2, 2, 3, 4, seed=117), rand(2, 2, 4, 4, seed=118), rand(2, 2, 4, 4, seed=119)
SLOPES = np.array([0.5, 0.125])
SLOPES_BN = np.array([[0.5, 0.25], [0.125, 1.0]])


def _sfa_tnd(q, k, v, idx, cq, ck, mode, size):
    parts = [ref_sfa_batch(q[a:e], k[c:d], v[c:d], idx[a:e], 0.5, size, mode, d - c)
             for (a, e), (c, d) in zip(_ends(cq), _ends(ck))]
    return (np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts], 1),
            np.concatenate([p[2] for p in parts], 1))


def _li_tnd_paged(q, w):
    keys = unpage(KCACHE, KTABLE, [4, 5])
    parts = [ref_indexer_batch(q[a:e], kb, w[a:e], 3, 0) for (a, e), kb in zip(_ends([2, 5]), keys)]
    return (np.concatenate([p[0] for p in parts]).astype(np.int32), np.concatenate([p[1] for p in parts]))


def _li(*args: Any, **kw: Any) -> Any:
    return ops.lightning_indexer(*args, **kw)


def _sfa(*args: Any, **kw: Any) -> Any:
    return ops.sparse_flash_attention(*args, **kw)


CASES = [
    OpCase("nsa_compress", lambda x, w: ops.nsa_compress(x, w, 4, 2, actual_seq_len=[7, 16]), [XC, WC],
           lambda x, w: ref_nsa_compress(x, w, 4, 2, [7, 16])),
    OpCase("nsa_compress_short_segment", lambda x, w: ops.nsa_compress(x, w, 4, 4, actual_seq_len=(3, 16)),
           [XC, WC], lambda x, w: ref_nsa_compress(x, w, 4, 4, [3, 16]),
           note="a segment shorter than the window gives no token"),
    OpCase("nsa_compress_attention_masks", lambda q, k, v: ops.nsa_compress_attention(
        q, k, v, 0.5, 4, 2, 1, 2, 2, topk_mask=Tensor(TMASK), atten_mask=Tensor(AMASK),
        actual_seq_qlen=[3, 7], actual_cmp_seq_kvlen=[4, 9], actual_sel_seq_kvlen=[2, 5]),
           [QA, KA, VA], lambda q, k, v: ref_nsa_cmp_attn(q, k, v, 0.5, 4, 2, 1, 2, 2, TMASK, AMASK, [3, 7],
                                                          [4, 9], [2, 5]), grad=()),
    OpCase("nsa_compress_attention_out", lambda q, k, v: ops.nsa_compress_attention(
        q, k, v, 0.5, 4, 2, 1, 2, 2, atten_mask=Tensor(AMASK), actual_seq_qlen=[3, 7],
        actual_cmp_seq_kvlen=[4, 9], actual_sel_seq_kvlen=[2, 5])[0],
           [QA, KA, VA], lambda q, k, v: ref_nsa_cmp_attn(q, k, v, 0.5, 4, 2, 1, 2, 2, None, AMASK, [3, 7],
                                                          [4, 9], [2, 5])[0]),
    OpCase("nsa_compress_attention_one_batch", lambda q, k, v: ops.nsa_compress_attention(
        q, k, v, 0.25, 4, 4, 2, 4, 2, actual_seq_qlen=[7], actual_cmp_seq_kvlen=[9],
        actual_sel_seq_kvlen=[5])[:2],
           [QA, KA, VA], lambda q, k, v: ref_nsa_cmp_attn(q, k, v, 0.25, 4, 4, 2, 4, 2, None, None, [7], [9],
                                                          [5])[:2], grad=(),
           note="l = 4, d = 2, l' = 4: m = n = 2 over 9 compressed tokens"),
    OpCase("nsa_select_attention", lambda q, k, v, i: ops.nsa_select_attention(
        q, k, v, i, 0.5, 4, 2, 2, actual_seq_qlen=[3, 5], actual_seq_kvlen=[6, 10]),
           [QS, KS, VS, IS], lambda q, k, v, i: ref_nsa_select(q, k, v, i, 0.5, 4, 2, [3, 5], [6, 10]),
           grad=(), note="softmax_max / softmax_sum are float32 always: the row below checks the gradient"),
    OpCase("nsa_select_attention_grad", lambda q, k, v, i: ops.nsa_select_attention(
        q, k, v, i, 0.5, 4, 2, 2, actual_seq_qlen=[3, 5], actual_seq_kvlen=[6, 10])[0],
           [QS, KS, VS, IS], lambda q, k, v, i: ref_nsa_select(q, k, v, i, 0.5, 4, 2, [3, 5], [6, 10])[0],
           grad=(0, 1, 2), lower=False),
    OpCase("lightning_indexer_bsnd_causal", lambda q, k, w: _li(q, k, w, sparse_count=4, return_value=True),
           [QI, KI, WI], lambda q, k, w: ref_indexer_bsnd(q, k, w, 4, 3), grad=(), dynamic=True),
    OpCase("lightning_indexer_bsnd_lengths", lambda q, k, w: _li(
        q, k, w, actual_seq_lengths_query=Tensor(np.array([2, 3], np.int32)),
        actual_seq_lengths_key=Tensor(np.array([4, 5], np.int32)), sparse_count=6, sparse_mode=0,
        return_value=True),
           [QI, KI, WI], lambda q, k, w: ref_indexer_bsnd(q, k, w, 6, 0, [2, 3], [4, 5]), grad=(),
           note="sparse_count 6 > S2: the last slots hold -1 / -inf"),
    OpCase("lightning_indexer_values_grad", lambda q, k, w: _li(q, k, w, sparse_count=2, sparse_mode=0,
                                                               return_value=True)[1],
           [QI, KI, WI], lambda q, k, w: ref_indexer_bsnd(q, k, w, 2, 0)[1], dynamic=True),
    OpCase("lightning_indexer_tnd", lambda q, k, w: _li(
        q, k, w, actual_seq_lengths_query=[2, 5], actual_seq_lengths_key=[3, 8], layout_query="TND",
        layout_key="TND", sparse_count=3, return_value=True),
           [QI.reshape(6, 4, 4)[:5], KI.reshape(10, 2, 4)[:8], WI.reshape(6, 4)[:5]],
           lambda q, k, w: ref_indexer_tnd(q, k, w, 3, 3, [2, 5], [3, 8]), grad=()),
    OpCase("lightning_indexer_paged", lambda q, kc, w, t: _li(
        q, kc, w, actual_seq_lengths_key=Tensor(np.array([5, 4], np.int32)), block_table=t,
        layout_key="PA_BSND", sparse_count=3),
           [QI, KCACHE, WI, KTABLE],
           lambda q, kc, w, t: (ref_indexer_bsnd(q, KI, w, 3, 3, None, [5, 4])[0], np.zeros((0,))), grad=(),
           note="the block table is a graph input; without return_value the values are an empty tensor"),
    OpCase("lightning_indexer_tnd_paged", lambda q, kc, w, t: _li(
        q, kc, w, actual_seq_lengths_query=[2, 5], actual_seq_lengths_key=[4, 5], block_table=t,
        layout_query="TND", layout_key="PA_BSND", sparse_count=3, sparse_mode=0, return_value=True),
           [QI.reshape(6, 4, 4)[:5], KCACHE, WI.reshape(6, 4)[:5], KTABLE],
           lambda q, kc, w, t: _li_tnd_paged(q, w), grad=(0, 1, 2),
           note="TND queries over the paged cache: batch b reads its block-table row"),
    OpCase("sparse_flash_attention_tokens", lambda q, k, v, i: _sfa(q, k, v, i, 0.5, return_softmax_lse=True),
           [QF, KF, VF, IF1], lambda q, k, v, i: ref_sfa_bsnd(q, k, v, i, 0.5, 1, 3), grad=(), dynamic=True),
    OpCase("sparse_flash_attention_grad", lambda q, k, v, i: _sfa(q, k, v, i, 0.5, sparse_mode=0)[0],
           [QF, KF, VF, IF1], lambda q, k, v, i: ref_sfa_bsnd(q, k, v, i, 0.5, 1, 0)[0], grad=(0, 1, 2),
           dynamic=True),
    OpCase("sparse_flash_attention_blocks_rope", lambda q, k, v, i, qr, kr: _sfa(
        q, k, v, i, 0.25, query_rope=qr, key_rope=kr, sparse_block_size=2, attention_mode=2,
        actual_seq_lengths_kv=[5, 6], return_softmax_lse=True),
           [QF, KF, VF, IF2, QR, KR],
           lambda q, k, v, i, qr, kr: ref_sfa_bsnd(q, k, v, i, 0.25, 2, 3, qr, kr, [5, 6]), grad=()),
    OpCase("sparse_flash_attention_rope_grad", lambda q, k, v, i, qr, kr: _sfa(
        q, k, v, i, 0.25, query_rope=qr, key_rope=kr, sparse_block_size=2, attention_mode=2)[0],
           [QF, KF, VF, IF2, QR, KR],
           lambda q, k, v, i, qr, kr: ref_sfa_bsnd(q, k, v, i, 0.25, 2, 3, qr, kr)[0],
           grad=(0, 1, 2, 4, 5), lower=False, note="the forward rows above lower the same graph"),
    OpCase("sparse_flash_attention_tnd", lambda q, k, v, i: _sfa(
        q, k, v, i, 0.5, actual_seq_lengths_query=[2, 5], actual_seq_lengths_kv=[4, 10], layout_query="TND",
        layout_kv="TND", sparse_block_size=2, return_softmax_lse=True),
           [QF.reshape(6, 4, 4)[:5], KF.reshape(12, 2, 4)[:10], VF.reshape(12, 2, 3)[:10],
            np.concatenate([IF2[0, :2], IF2[1]])],
           lambda q, k, v, i: _sfa_tnd(q, k, v, i, [2, 5], [4, 10], 3, 2), grad=()),
    OpCase("sparse_flash_attention_paged", lambda q, kc, vc, i, t: _sfa(
        q, kc, vc, i, 0.5, block_table=t, actual_seq_lengths_kv=Tensor(np.array([6, 3], np.int32)),
        layout_kv="PA_BSND", sparse_block_size=2)[0],
           [QF, KFCACHE, VCACHE, IF2, FTABLE],
           lambda q, kc, vc, i, t: ref_sfa_bsnd(q, KF, VF, i, 0.5, 2, 3, klens=[6, 3])[0], grad=(0, 1, 2)),
    OpCase("speed_fusion_alibi_pse_type2", lambda q, k, v: ops.speed_fusion_attention(
        q, k, v, 2, "BNSD", pse=Tensor(SLOPES.astype(np.float32)), scale=0.5, pse_type=2)[0],
           [QP, KP, VP], lambda q, k, v: ref_alibi(q, k, v, 2, SLOPES.astype(np.float32), 0.5, False),
           dynamic=True, note="float32 slopes (as MindSpore requires); the rows below check their gradient"),
    OpCase("speed_fusion_alibi_pse_type2_slopes", lambda q, k, v, s: ops.speed_fusion_attention(
        q, k, v, 2, "BNSD", pse=s, scale=0.5, pse_type=2)[0],
           [QP, KP, VP, SLOPES], lambda q, k, v, s: ref_alibi(q, k, v, 2, s, 0.5, False), grad=(0, 1, 2, 3)),
    OpCase("speed_fusion_alibi_pse_type3_offsets", lambda q, k, v, s: ops.speed_fusion_attention(
        q, k, v, 2, "BNSD", pse=s, scale=0.5, pse_type=3, q_start_idx=[2], kv_start_idx=[1],
        sparse_mode=3)[0],
           [QP, KP, VP, SLOPES_BN], lambda q, k, v, s: ref_alibi(q, k, v, 2, s, 0.5, True, 2, 1, 3),
           grad=(0, 1, 2, 3)),
    OpCase("speed_fusion_alibi_bsh", lambda q, k, v: ops.speed_fusion_attention(
        q, k, v, 2, "BSH", pse=Tensor(SLOPES.astype(np.float32)), scale=0.5, pse_type=3)[0],
           [QP.transpose(0, 2, 1, 3).reshape(2, 3, 8), KP.transpose(0, 2, 1, 3).reshape(2, 4, 8),
            VP.transpose(0, 2, 1, 3).reshape(2, 4, 8)],
           lambda q, k, v: _bsh(ref_alibi(_bnsd(q), _bnsd(k), _bnsd(v), 2, SLOPES.astype(np.float32), 0.5,
                                          True)),
           grad=(), dynamic=True),
]


def _bnsd(x: np.ndarray) -> np.ndarray:
    return x.reshape(x.shape[0], x.shape[1], 2, -1).transpose(0, 2, 1, 3)


def _bsh(y: np.ndarray) -> np.ndarray:
    return y.transpose(0, 2, 1, 3).reshape(y.shape[0], y.shape[2], -1)


def _alibi_tnd_ref(q, k, v, s):
    outs = []
    for b, ((a, e), (c, d)) in enumerate(zip(_ends([3, 7]), _ends([3, 7]))):
        qb, kb, vb = (x[None].transpose(0, 2, 1, 3) for x in (q[a:e], k[c:d], v[c:d]))
        outs.append(ref_alibi(qb, kb, vb, 2, s[b:b + 1], 0.5, False, mode=3)[0].transpose(1, 0, 2))
    return np.concatenate(outs)


CASES += [
    OpCase("speed_fusion_alibi_tnd", lambda q, k, v, s: ops.speed_fusion_attention(
        q, k, v, 2, "TND", pse=s, scale=0.5, pse_type=2, sparse_mode=3, actual_seq_qlen=[3, 7],
        actual_seq_kvlen=[3, 7])[0],
           [rand(7, 2, 4, seed=120), rand(7, 2, 4, seed=121), rand(7, 2, 4, seed=122), SLOPES_BN],
           _alibi_tnd_ref, grad=(0, 3),
           note="positions count within each batch; (B, N1) slopes give each batch its row"),
]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_forward(case: OpCase) -> None:
    check_forward(case)


@pytest.mark.parametrize("case", [c for c in CASES if c.grad != ()], ids=str)
def test_gradient(case: OpCase) -> None:
    check_grad(case)


@pytest.mark.parametrize("case,opset", [p for p in lowering_params(CASES) if p[1] in (13, 18)], ids=str)
def test_lowering(case: OpCase, opset: int) -> None:
    check_lowering(case, opset)


def _grow_batch(a: np.ndarray, seed: int) -> np.ndarray:
    """``a`` with one more batch row (random floats, or indices copied from batch 0)."""
    extra = a[:1].copy() if a.dtype.kind in "iu" else np.random.default_rng(seed).uniform(-1, 1, a[:1].shape)
    return np.concatenate([a, extra])


@pytest.mark.parametrize("case", [c for c in CASES if c.dynamic], ids=str)
def test_dynamic_batch_in_onnxruntime(case: OpCase) -> None:
    """A BSND graph traced at batch 2 runs at batch 3 in onnxruntime and matches the float64 reference."""
    model, _, _ = export_case(case, 18)
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    grown = [_grow_batch(a, 7 + i) if a.ndim >= 2 and a.shape[0] == 2 else np.asarray(a)
             for i, a in enumerate(case.inputs)]
    feeds = {i.name: (a.astype(np.float32) if a.dtype.kind == "f" else a)
             for i, a in zip(sess.get_inputs(), grown)}
    got = sess.run(None, feeds)
    want = case.ref(*grown)
    want = [want] if not isinstance(want, (tuple, list)) else list(want)
    for g, w in zip(got, want):
        assert g.shape == np.asarray(w).shape
        assert_close(g, w, rtol=1e-5, scale_rtol=1e-5, min_scale=1.0, what=f"{case.name} at batch 3")
