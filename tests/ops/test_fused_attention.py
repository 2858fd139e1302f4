"""MindSpore's fused attention kernels (flash_attention_score / FlashAttentionScore, prompt_flash_attention,
incre_flash_attention, PagedAttention, PagedAttentionMask, ReshapeAndCache) against float64 NumPy references
written from MindSpore 2.10's documented formulas, loop by loop (query row by query row, head by head).

MindSpore's CPU build cannot run these kernels (they are Ascend-only there), so there are no MindSpore
fixtures: the references follow the docstrings of mindspore.ops.flash_attention_score, the FlashAttentionScore
/ PromptFlashAttention / IncreFlashAttention / PagedAttention primitives and the sparse modes they describe
(0: attn_mask and the pre_tokens / next_tokens band from the top-left vertex, 1: attn_mask, 2: causal from the
top-left vertex, 3: causal from the bottom-right vertex, 4: the band from the bottom-right vertex, 5: mode 3
plus a prefix). Gradients of flash_attention_score are checked against central finite differences, the
lowerings by onnxruntime.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import onnxruntime as ort
import pytest

import cellonnx as ms
from cellonnx import Parameter, Tensor, nn, ops
from cellonnx.ops.operations.nn_ops import FlashAttentionScore, IncreFlashAttention, PromptFlashAttention
from tests.ops.harness import OpCase, check_forward, check_grad, check_lowering, lowering_params, rand
from tests.tolerance import assert_close

BIG = 2147483647


# ------------------------------------------------------------------ references (float64, row by row)
def _heads(x: np.ndarray, layout: str, n: int) -> np.ndarray:
    """x in ``layout`` as (B, N, S, D)."""
    if layout == "BSH":
        b, s, h = x.shape
        return x.reshape(b, s, n, h // n).transpose(0, 2, 1, 3)
    if layout == "SBH":
        s, b, h = x.shape
        return x.reshape(s, b, n, h // n).transpose(1, 2, 0, 3)
    if layout == "BSND":
        return x.transpose(0, 2, 1, 3)
    return x


def _unheads(y: np.ndarray, layout: str) -> np.ndarray:
    b, n, s, d = y.shape
    if layout == "BSH":
        return y.transpose(0, 2, 1, 3).reshape(b, s, n * d)
    if layout == "SBH":
        return y.transpose(2, 0, 1, 3).reshape(s, b, n * d)
    if layout == "BSND":
        return y.transpose(0, 2, 1, 3)
    return y


def _kept(mode: int, i: int, j: int, s1: int, s2: int, pre: int, nxt: int, masked: bool | None,
          prefix: int = 0) -> bool:
    """Whether query row i attends key j under a sparse mode (``masked``: attn_mask's entry or None)."""
    if mode == 0:
        if masked is None:
            return True
        return (not masked) and -pre <= j - i <= nxt
    if mode == 1:
        return not masked
    if mode == 2:
        return j <= i
    if mode == 3:
        return j - i <= s2 - s1
    if mode == 4:
        return -pre <= j - i - (s2 - s1) <= nxt
    if mode == 5:
        return j - i <= s2 - s1 or j < prefix
    raise AssertionError(mode)


def ref_attention(q: np.ndarray, k: np.ndarray, v: np.ndarray, scale: float, keep: Any,
                  shift: Any = None, shift_scaled: bool = False, drop: Any = None, keep_prob: float = 1.0):
    """(B, N1, S1, D) queries over (B, N2, S2, D) keys; keep(b, h, i, j) -> bool; shift(b, h, i, j) -> float.
    Returns (out, row max, row sum of exp(score - max))."""
    b_, n1, s1, _ = q.shape
    n2, s2 = k.shape[1], k.shape[2]
    g = n1 // n2
    out = np.zeros(q.shape[:3] + (v.shape[3],))
    mx = np.zeros((b_, n1, s1))
    sm = np.zeros((b_, n1, s1))
    for b in range(b_):
        for h in range(n1):
            for i in range(s1):
                row = np.array([q[b, h, i] @ k[b, h // g, j] for j in range(s2)])
                if shift is not None:
                    sh = np.array([shift(b, h, i, j) for j in range(s2)])
                    row = scale * (row + sh) if shift_scaled else scale * row + sh
                else:
                    row = scale * row
                ok = np.array([keep(b, h, i, j) for j in range(s2)])
                if not ok.any():
                    mx[b, h, i] = np.finfo(np.float32).min
                    continue
                m = row[ok].max()
                e = np.where(ok, np.exp(row - m), 0.0)
                mx[b, h, i], sm[b, h, i] = m, e.sum()
                p = e / e.sum()
                if drop is not None:
                    p = p * np.array([drop(b, h, i, j) for j in range(s2)]) / keep_prob
                out[b, h, i] = p @ v[b, h // g]
    return out, mx, sm


def ref_fas(q, k, v, n1, layout="BSH", scale=1.0, shift=None, mask=None, mode=0, pre=BIG, nxt=BIG,
            prefix=None, drop_bits=None, keep_prob=1.0, stats=False):
    n2 = k.shape[-1] * n1 // q.shape[-1] if layout in ("BSH", "SBH") else None
    qb, kb, vb = _heads(q, layout, n1), _heads(k, layout, n2 or 1), _heads(v, layout, n2 or 1)
    s1, s2 = qb.shape[2], kb.shape[2]
    m4 = None if mask is None else np.broadcast_to(mask.reshape((1,) * (4 - mask.ndim) + mask.shape),
                                                   qb.shape[:2] + (s1, s2))

    def keep(b, h, i, j):
        masked = None if m4 is None or mode in (2, 3, 4) else bool(m4[b, h, i, j])
        return _kept(mode, i, j, s1, s2, pre, nxt, masked, 0 if prefix is None else prefix[b])

    sh = None if shift is None else (lambda b, h, i, j: shift[b % shift.shape[0], h, i, j])
    dr = None if drop_bits is None else (lambda b, h, i, j: drop_bits[b, h, i, j])
    out, mx, sm = ref_attention(qb, kb, vb, scale, keep, sh, True, dr, keep_prob)
    out = _unheads(out, layout)
    if not stats:
        return out
    return np.repeat(mx[..., None], 8, -1), np.repeat(sm[..., None], 8, -1), out


def ref_tnd(q, k, v, n1, cq, ck, scale, mode):
    outs = []
    q0 = k0 = 0
    for q1, k1 in zip(cq, ck):
        outs.append(ref_fas(q[None, q0:q1], k[None, k0:k1], v[None, k0:k1], n1, "BSND", scale, mode=mode)[0])
        q0, k0 = q1, k1
    return np.concatenate(outs, 0)


# ------------------------------------------------------------------ flash_attention_score
Q_BSH, K_BSH, V_BSH = rand(2, 3, 8, seed=1), rand(2, 5, 4, seed=2), rand(2, 5, 4, seed=3)    # N1=4, N2=2, D=2
Q4, K4, V4 = rand(1, 2, 3, 4, seed=4), rand(1, 2, 5, 4, seed=5), rand(1, 2, 5, 4, seed=6)     # B N S D
PSE = rand(1, 2, 3, 5, seed=7)
MASK = np.array([[[[0, 1, 0, 0, 1], [0, 0, 0, 1, 0], [1, 0, 0, 0, 0]]]], dtype=np.uint8)       # (1,1,3,5)
DROP = np.random.default_rng(8).integers(0, 256, size=(1, 2, 3, 1)).astype(np.uint8)         # S2=5 -> 8 bits
DROP_BITS = np.unpackbits(DROP, axis=-1, bitorder="little")[..., :5].astype(bool)


def _fas(*args: Any, **kw: Any) -> Any:
    return ops.flash_attention_score(*args, **kw)


CASES = [
    OpCase("fas_bsh_gqa", lambda q, k, v: _fas(q, k, v, 4, scalar_value=0.5),
           [Q_BSH, K_BSH, V_BSH], lambda q, k, v: ref_fas(q, k, v, 4, "BSH", 0.5)),
    OpCase("fas_sbh_causal", lambda q, k, v: _fas(q, k, v, 4, scalar_value=0.7, input_layout="SBH",
                                                  sparse_mode=2),
           [Q_BSH.transpose(1, 0, 2), K_BSH.transpose(1, 0, 2), V_BSH.transpose(1, 0, 2)],
           lambda q, k, v: ref_fas(q, k, v, 4, "SBH", 0.7, mode=2)),
    OpCase("fas_bnsd_pse_mask_band", lambda q, k, v, p, m: _fas(q, k, v, 2, real_shift=p, attn_mask=m,
                                                                  scalar_value=0.5, pre_tokens=1,
                                                                  next_tokens=2, input_layout="BNSD"),
           [Q4, K4, V4, PSE, MASK], lambda q, k, v, p, m: ref_fas(q, k, v, 2, "BNSD", 0.5, p, m, 0, 1, 2),
           grad=(0, 1, 2, 3)),
    OpCase("fas_bsnd_right_down", lambda q, k, v: _fas(q, k, v, 2, scalar_value=0.5, input_layout="BSND",
                                                       sparse_mode=3),
           [Q4.transpose(0, 2, 1, 3), K4.transpose(0, 2, 1, 3), V4.transpose(0, 2, 1, 3)],
           lambda q, k, v: ref_fas(q, k, v, 2, "BSND", 0.5, mode=3)),
    OpCase("fas_band_mode4", lambda q, k, v: _fas(q, k, v, 2, input_layout="BNSD", sparse_mode=4,
                                                  pre_tokens=1, next_tokens=0),
           [Q4, K4, V4], lambda q, k, v: ref_fas(q, k, v, 2, "BNSD", mode=4, pre=1, nxt=0)),
    OpCase("fas_all_mask_mode1", lambda q, k, v, m: _fas(q, k, v, 2, attn_mask=m[0, 0], input_layout="BNSD",
                                                         sparse_mode=1, pre_tokens=0, next_tokens=0),
           [Q4, K4, V4, MASK], lambda q, k, v, m: ref_fas(q, k, v, 2, "BNSD", mask=m[0, 0], mode=1),
           grad=(0, 1, 2)),
    OpCase("fas_prefix_mode5", lambda q, k, v: _fas(q, k, v, 2, input_layout="BNSD", sparse_mode=5,
                                                    prefix=[3]),
           [Q4, K4, V4], lambda q, k, v: ref_fas(q, k, v, 2, "BNSD", mode=5, prefix=[3]), lower=False,
           note="prefix is a per-batch list of ints (a constant of the graph); the other modes are lowered"),
    OpCase("FlashAttentionScore_stats", lambda q, k, v: FlashAttentionScore(2, scale_value=0.5,
                                                                             input_layout="BNSD")(q, k, v),
           [Q4, K4, V4], lambda q, k, v: _with_empty(ref_fas(q, k, v, 2, "BNSD", 0.5, stats=True)), grad=(),
           note="softmax_max / softmax_sum are (B, N1, S1, 8), the row's value repeated"),
    OpCase("FlashAttentionScore_drop_mask", lambda q, k, v, d: FlashAttentionScore(
        2, keep_prob=0.7, input_layout="BNSD")(q, k, v, drop_mask=d)[3],
           [Q4, K4, V4, DROP],
           lambda q, k, v, d: ref_fas(q, k, v, 2, "BNSD", drop_bits=DROP_BITS, keep_prob=0.7),
           grad=(0, 1, 2), lower=False, note="the drop mask's bits are read eagerly (a graph constant)"),
    OpCase("fas_tnd", lambda q, k, v: _fas(q, k, v, 2, scalar_value=0.5, input_layout="TND", sparse_mode=3,
                                           actual_seq_qlen=[2, 5], actual_seq_kvlen=[3, 8]),
           [rand(5, 2, 4, seed=9), rand(8, 2, 4, seed=10), rand(8, 2, 4, seed=11)],
           lambda q, k, v: ref_tnd(q, k, v, 2, [2, 5], [3, 8], 0.5, 3)),
]


CASES += [
    OpCase("speed_fusion_pse_type0", lambda q, k, v, p: ops.speed_fusion_attention(
        q, k, v, 2, "BNSD", pse=p, scale=0.5, sparse_mode=2, pse_type=0)[:3],
           [Q4, K4, V4, PSE], lambda q, k, v, p: _speed_ref(q, k, v, p, 0.5), grad=(),
           note="softmax_max / softmax_sum are float32 always: the gradient row below checks the output"),
    OpCase("speed_fusion_pse_type0_grad", lambda q, k, v, p: ops.speed_fusion_attention(
        q, k, v, 2, "BNSD", pse=p, scale=0.5, sparse_mode=2, pse_type=0)[0],
           [Q4, K4, V4, PSE], lambda q, k, v, p: _speed_ref(q, k, v, p, 0.5)[0], grad=(0, 1, 2, 3),
           lower=False),
    OpCase("speed_fusion_pse_type1", lambda q, k, v, p: ops.speed_fusion_attention(
        q, k, v, 2, "BNSD", pse=p, scale=0.5)[0],
           [Q4, K4, V4, PSE], lambda q, k, v, p: ref_fas(q, k, v, 2, "BNSD", 0.5, p), grad=()),
]


def _speed_ref(q, k, v, p, scale):
    """pse_type 0: the shift added after scaling; causal from the top-left vertex (sparse_mode 2)."""
    out, mx, sm = ref_attention(q, k, v, scale, lambda b, h, i, j: j <= i, lambda b, h, i, j: p[0, h, i, j])
    return out, np.repeat(mx[..., None], 8, -1), np.repeat(sm[..., None], 8, -1)


def _with_empty(stats: tuple) -> tuple:
    mx, sm, out = stats
    return mx, sm, np.zeros((0,)), out


# ------------------------------------------------------------------ prompt / incre flash attention
def ref_pfa(q, k, v, n, kvn, layout, scale, mask=None, mode=0, pre=BIG, nxt=0, pse=None, qlen=None,
            kvlen=None):
    qb, kb, vb = _heads(q, layout, n), _heads(k, layout, kvn), _heads(v, layout, kvn)
    b_, _, s1, _ = qb.shape
    s2 = kb.shape[2]
    ql = [s1] * b_ if qlen is None else qlen
    kl = [s2] * b_ if kvlen is None else kvlen

    def keep(b, h, i, j):
        if j >= kl[b]:
            return False
        if mask is None or mode in (2, 3, 4):
            masked = None
        else:
            m3 = mask.reshape(-1, s1, s2)
            masked = bool(m3[b % m3.shape[0], i, j])
        return _kept(mode, i, j, ql[b], kl[b], pre, nxt, masked)

    sh = None if pse is None else (lambda b, h, i, j: pse[b % pse.shape[0], h, i, j])
    out = ref_attention(qb, kb, vb, scale, keep, sh, False)[0]
    for b in range(b_):
        out[b, :, ql[b]:] = 0.0
    return _unheads(out, layout)


PQ, PK, PV = rand(2, 4, 8, seed=20), rand(2, 6, 4, seed=21), rand(2, 6, 4, seed=22)           # N=4, kvN=2
PMASK = np.random.default_rng(23).random((2, 1, 4, 6)) < 0.3
PPSE = rand(1, 4, 4, 6, seed=24)

CASES += [
    OpCase("pfa_bsh_mask_pse_lengths", lambda q, k, v, m, p: ops.prompt_flash_attention(
        q, k, v, m, [4, 3], [6, 5], p, num_heads=4, scale_value=0.5, num_key_value_heads=2, next_tokens=2),
           [PQ, PK, PV, PMASK, PPSE],
           lambda q, k, v, m, p: ref_pfa(q, k, v, 4, 2, "BSH", 0.5, m, 0, BIG, 2, p, [4, 3], [6, 5]),
           grad=(0, 1, 2, 4)),
    OpCase("PromptFlashAttention_bnsd_mode3", lambda q, k, v: PromptFlashAttention(
        num_heads=2, scale_value=0.5, input_layout="BNSD", sparse_mode=3)(q, k, v),
           [Q4, K4, V4], lambda q, k, v: ref_pfa(q, k, v, 2, 2, "BNSD", 0.5, mode=3)),
    OpCase("pfa_no_mask_ignores_band", lambda q, k, v: ops.prompt_flash_attention(
        q, k, v, num_heads=4, num_key_value_heads=2),
           [PQ, PK, PV], lambda q, k, v: ref_pfa(q, k, v, 4, 2, "BSH", 1.0, mode=1)),
]


def ref_ifa(q, k, v, n, kvn, layout, scale, mask=None, lens=None, pse=None, pad=None):
    qb, kb, vb = _heads(q, layout, n), _heads(k, layout, kvn), _heads(v, layout, kvn)
    s = kb.shape[2]

    def keep(b, h, i, j):
        if mask is not None and mask.reshape(mask.shape[0], -1)[b, j]:
            return False
        if lens is None:
            return True
        if pad is None:
            return j < lens[b]
        return s - pad - lens[b] <= j < s - pad

    sh = None if pse is None else (lambda b, h, i, j: pse[b % pse.shape[0], h, 0, j])
    return _unheads(ref_attention(qb, kb, vb, scale, keep, sh, False)[0], layout)


IQ, IK, IV = rand(2, 1, 8, seed=30), rand(2, 6, 4, seed=31), rand(2, 6, 4, seed=32)           # N=4, kvN=2
IMASK = np.random.default_rng(33).random((2, 1, 1, 6)) < 0.3
IPSE = rand(2, 4, 1, 6, seed=34)


def _paged_layout(k: np.ndarray, block_size: int, order: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """(B, S, H) keys scattered into (num_blocks, block_size, H) blocks in the given order, and the table."""
    b, s, h = k.shape
    per = s // block_size
    blocks = np.zeros((len(order), block_size, h))
    table = np.zeros((b, per), dtype=np.int32)
    n = 0
    for i in range(b):
        for j in range(per):
            blocks[order[n]] = k[i, j * block_size:(j + 1) * block_size]
            table[i, j] = order[n]
            n += 1
    return blocks, table


KB, TABLE = _paged_layout(IK, 2, [4, 0, 2, 5, 1, 3])
VB, _ = _paged_layout(IV, 2, [4, 0, 2, 5, 1, 3])

CASES += [
    OpCase("ifa_bsh_list_mask_pse_lengths", lambda q, k, v, m, p: ops.incre_flash_attention(
        q, [k], [v], m, [6, 4], p, num_heads=4, scale_value=0.5, num_key_value_heads=2),
           [IQ, IK, IV, IMASK, IPSE], lambda q, k, v, m, p: ref_ifa(q, k, v, 4, 2, "BSH", 0.5, m, [6, 4], p),
           grad=(0, 1, 2)),
    OpCase("IncreFlashAttention_paged", lambda q, k, v: IncreFlashAttention(
        num_heads=4, scale_value=0.5, num_key_value_heads=2, block_size=2)(
        q, [k], [v], actual_seq_lengths=[5, 3], block_table=Tensor(TABLE)),
           [IQ, KB, VB], lambda q, k, v: ref_ifa(q, IK, IV, 4, 2, "BSH", 0.5, lens=[5, 3])),
    OpCase("ifa_bnsd_kv_padding", lambda q, k, v: ops.incre_flash_attention(
        q, k, v, actual_seq_lengths=[3, 2], num_heads=2, input_layout="BNSD", kv_padding_size=Tensor(1)),
           [rand(2, 2, 1, 4, seed=35), rand(2, 2, 6, 4, seed=36), rand(2, 2, 6, 4, seed=37)],
           lambda q, k, v: ref_ifa(q, k, v, 2, 2, "BNSD", 1.0, lens=[3, 2], pad=1)),
]


def ref_lse(q, k, kvn, layout, scale, keep=None):
    """log(sum(exp(scale * q k^T))) over the kept keys of each query row, (B, N, S, 1)."""
    qb, kb = _heads(q, layout, q.shape[1] if layout == "BNSD" else 4), _heads(k, layout, kvn)
    g = qb.shape[1] // kb.shape[1]
    out = np.zeros(qb.shape[:3] + (1,))
    for b in range(qb.shape[0]):
        for h in range(qb.shape[1]):
            for i in range(qb.shape[2]):
                row = scale * kb[b, h // g] @ qb[b, h, i]
                ok = np.ones_like(row, bool) if keep is None else keep(b, i)
                out[b, h, i, 0] = np.log(np.exp(row[ok]).sum())
    return out


CASES += [
    OpCase("fias_prompt_bsh_lse", lambda q, k, v, m: ops.fused_infer_attention_score(
        q, k, v, atten_mask=m, num_heads=4, num_key_value_heads=2, scale=0.5, softmax_lse_flag=True),
           [PQ, PK, PV, PMASK],
           lambda q, k, v, m: (ref_pfa(q, k, v, 4, 2, "BSH", 0.5, m, 0, BIG, BIG),
                               ref_lse(q, k, 2, "BSH", 0.5, lambda b, i: ~m[b, 0, i])), grad=(),
           note="softmax_lse is float32 always; the row below checks the gradient of the output"),
    OpCase("fias_prompt_bsh_grad", lambda q, k, v, m: ops.fused_infer_attention_score(
        q, k, v, atten_mask=m, num_heads=4, num_key_value_heads=2, scale=0.5)[0],
           [PQ, PK, PV, PMASK], lambda q, k, v, m: ref_pfa(q, k, v, 4, 2, "BSH", 0.5, m, 0, BIG, BIG),
           grad=(0, 1, 2), lower=False),
    OpCase("fias_incre_bsnd", lambda q, k, v: ops.fused_infer_attention_score(
        q, [k], [v], actual_seq_lengths_kv=[6, 4], num_heads=4, num_key_value_heads=2, scale=0.5,
        input_layout="BSND")[0],
           [IQ.reshape(2, 1, 4, 2), IK.reshape(2, 6, 2, 2), IV.reshape(2, 6, 2, 2)],
           lambda q, k, v: ref_ifa(q.reshape(2, 1, 8), k.reshape(2, 6, 4), v.reshape(2, 6, 4), 4, 2, "BSH",
                                   0.5, lens=[6, 4]).reshape(2, 1, 4, 2)),
    OpCase("fias_bnsd_bsnd_out", lambda q, k, v: ops.fused_infer_attention_score(
        q, k, v, num_heads=2, input_layout="BNSD_BSND", sparse_mode=3)[0],
           [Q4, K4, V4], lambda q, k, v: ref_pfa(q, k, v, 2, 2, "BNSD", 1.0, mode=3).transpose(0, 2, 1, 3)),
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


# ------------------------------------------------------------------ dropout drawn by the counter generator
def test_flash_attention_dropout_reproducible_and_lowered() -> None:
    """keep_prob < 1 without drop_mask draws the mask from the dropout generator: set_seed repeats it, the
    kept probabilities are scaled by 1 / keep_prob (the expectation is the attention), and the ONNX graph
    draws the same mask."""
    q, k, v = (Tensor(a.astype(np.float32)) for a in (Q4, K4, V4))
    ms.set_seed(5)
    a = _fas(q, k, v, 2, keep_prob=0.6, input_layout="BNSD").asnumpy()
    ms.set_seed(5)
    b = _fas(q, k, v, 2, keep_prob=0.6, input_layout="BNSD").asnumpy()
    np.testing.assert_array_equal(a, b)
    full = ref_fas(Q4, K4, V4, 2, "BNSD")
    assert not np.allclose(a, full, atol=1e-3)
    means = np.mean([_fas(q, k, v, 2, keep_prob=0.6, input_layout="BNSD").asnumpy() for _ in range(400)], 0)
    assert_close(means, full, rtol=0.15, scale_rtol=0.15, what="mean of dropped attention")
    *_, seed, offset, numels = ops.speed_fusion_attention(q, k, v, 2, "BNSD", keep_prob=0.6)
    assert int(numels.asnumpy()) == 1 * 2 * 3 * 5 and seed.dtype == ms.int64 and offset.dtype == ms.int64
    case = OpCase("fas_dropout", lambda x, y, z: _fas(x, y, z, 2, keep_prob=0.6, input_layout="BNSD"),
                  [Q4, K4, V4])
    check_lowering(case, 18)


# ------------------------------------------------------------------ the paged cache
def ref_paged(q, kc, vc, tables, ctx, scale, kvn, qlens=None, alibi=None):
    t, n, _ = q.shape
    g = n // kvn
    bs = kc.shape[1]
    out = np.zeros((t, n, vc.shape[-1]))
    rows = list(range(t)) if qlens is None else list(np.repeat(np.arange(len(qlens)), qlens))
    ahead = [0] * t if qlens is None else [x for m in qlens for x in range(m - 1, -1, -1)]
    for i in range(t):
        r = rows[i]
        last = ctx[r] - ahead[i]
        keys = np.array([kc[tables[r, p // bs], p % bs] for p in range(last)])
        vals = np.array([vc[tables[r, p // bs], p % bs] for p in range(last)])
        for h in range(n):
            s = scale * keys[:, h // g] @ q[i, h]
            if alibi is not None:
                s = s + alibi[i, h, 0, :last]
            e = np.exp(s - s.max())
            out[i, h] = (e / e.sum()) @ vals[:, h // g]
    return out


def test_reshape_and_cache_then_paged_attention() -> None:
    """Keys / values written token by token through slot_mapping, then read back through the block tables by
    PagedAttention (grouped heads), as a decoding step does."""
    rng = np.random.default_rng(40)
    nb, bs, kvn, d, n = 6, 2, 2, 4, 4
    kc = Parameter(Tensor(np.zeros((nb, bs, kvn, d), np.float32)), name="key_cache")
    vc = Parameter(Tensor(np.zeros((nb, bs, kvn, d), np.float32)), name="value_cache")
    tables = np.array([[3, 1, 5], [0, 4, 2]], dtype=np.int32)
    ctx = np.array([5, 3], dtype=np.int32)
    keys = rng.standard_normal((2, 5, kvn, d)).astype(np.float32)
    vals = rng.standard_normal((2, 5, kvn, d)).astype(np.float32)
    slots = [tables[b, p // bs] * bs + p % bs for b in range(2) for p in range(ctx[b])]
    rows = np.concatenate([keys[0, :5], keys[1, :3]])
    vrows = np.concatenate([vals[0, :5], vals[1, :3]])
    reshape_and_cache = ops.ReshapeAndCache()
    out = reshape_and_cache(Tensor(rows), Tensor(vrows), kc, vc, Tensor(np.array(slots, np.int32)))
    assert out is kc
    want_k = np.zeros((nb * bs, kvn, d), np.float32)
    want_k[slots] = rows
    np.testing.assert_array_equal(kc.asnumpy().reshape(-1, kvn, d), want_k)
    # a padding token (slot -1) is not written
    reshape_and_cache(Tensor(rows[:2] + 1), None, kc, None, Tensor(np.array([-1, slots[0]], np.int32)))
    want_k[slots[0]] = rows[1] + 1
    np.testing.assert_array_equal(kc.asnumpy().reshape(-1, kvn, d), want_k)
    reshape_and_cache(Tensor(rows[:1]), None, kc, None, Tensor(np.array([slots[0]], np.int32)))

    q = rng.standard_normal((2, n, d)).astype(np.float32)
    pa = ops.PagedAttention(n, 0.5, kvn)
    got = pa(Tensor(q), kc, vc, Tensor(tables), Tensor(ctx)).asnumpy()
    want = ref_paged(q.astype(np.float64), kc.asnumpy(), vc.asnumpy(), tables, ctx, 0.5, kvn)
    assert_close(got, want, rtol=1e-5, scale_rtol=1e-6, what="PagedAttention")
    # (B, 1, H) queries, as a model's decoding step passes them, give (B, 1, H)
    got_h = pa(Tensor(q.reshape(2, 1, n * d)), kc, vc, Tensor(tables), Tensor(ctx)).asnumpy()
    assert_close(got_h, want.reshape(2, 1, n * d), rtol=1e-5, scale_rtol=1e-6, what="PagedAttention BSH")
    # several query tokens a batch (q_seq_lens): token i sees the context up to itself
    q3 = rng.standard_normal((5, n, d)).astype(np.float32)
    got3 = pa(Tensor(q3), kc, vc, Tensor(tables), Tensor(ctx), q_seq_lens=Tensor(np.array([3, 2]))).asnumpy()
    want3 = ref_paged(q3.astype(np.float64), kc.asnumpy(), vc.asnumpy(), tables, ctx, 0.5, kvn, [3, 2])
    assert_close(got3, want3, rtol=1e-5, scale_rtol=1e-6, what="PagedAttention q_seq_lens")
    # PagedAttentionMask: an ALiBi bias (num_tokens, N, 1, kv_len) added to the scaled scores
    alibi = rng.standard_normal((2, n, 1, 6)).astype(np.float32)
    got4 = ops.PagedAttentionMask(n, 0.5, kvn)(Tensor(q), kc, vc, Tensor(tables), Tensor(ctx),
                                                alibi_mask=Tensor(alibi)).asnumpy()
    want4 = ref_paged(q.astype(np.float64), kc.asnumpy(), vc.asnumpy(), tables, ctx, 0.5, kvn, alibi=alibi)
    assert_close(got4, want4, rtol=1e-5, scale_rtol=1e-6, what="PagedAttentionMask")


def test_paged_attention_lowered_with_tables_as_inputs() -> None:
    """The block tables and context lengths are graph inputs: one ONNX graph serves every table."""
    from cellonnx.graph.trace import trace
    rng = np.random.default_rng(41)
    kc = rng.standard_normal((6, 2, 2, 4)).astype(np.float32)
    vc = rng.standard_normal((6, 2, 2, 4)).astype(np.float32)
    q = rng.standard_normal((2, 4, 4)).astype(np.float32)
    pa = ops.PagedAttention(4, 0.5, 2)
    tables = np.array([[3, 1, 5], [0, 4, 2]], dtype=np.int32)
    ctx = np.array([5, 3], dtype=np.int32)
    specs = [(name, Tensor(a), list(a.shape)) for name, a in
             (("q", q), ("kc", kc), ("vc", vc), ("tables", tables), ("ctx", ctx))]
    g, _ = trace(lambda *xs: pa(*xs), specs, opset=18, name="paged")
    sess = ort.InferenceSession(g.model().SerializeToString(), providers=["CPUExecutionProvider"])
    other = (np.array([[2, 0, 1], [5, 3, 4]], np.int32), np.array([2, 6], np.int32))
    for tab, lens in ((tables, ctx), other):
        got = sess.run(None, {"q": q, "kc": kc, "vc": vc, "tables": tab, "ctx": lens})[0]
        want = ref_paged(q.astype(np.float64), kc, vc, tab, lens, 0.5, 2)
        assert_close(got, want, rtol=1e-5, scale_rtol=1e-6, what="PagedAttention in onnxruntime")


# ------------------------------------------------------------------ a mindformers-style attention block
class LlamaStyleAttention(nn.Cell):
    """Grouped-query causal attention as ported LLM code writes it: FlashAttentionScore (BNSD, causal
    sparse_mode 2) for the prompt; ReshapeAndCache + PagedAttention for each decoding step."""

    def __init__(self, hidden: int, heads: int, kv_heads: int, block_size: int, num_blocks: int) -> None:
        super().__init__()
        self.n, self.kvn, self.d = heads, kv_heads, hidden // heads
        self.wq = nn.Dense(hidden, hidden, has_bias=False)
        self.wk = nn.Dense(hidden, kv_heads * self.d, has_bias=False)
        self.wv = nn.Dense(hidden, kv_heads * self.d, has_bias=False)
        self.wo = nn.Dense(hidden, hidden, has_bias=False)
        scale = 1.0 / self.d ** 0.5
        self.flash_attention = FlashAttentionScore(head_num=heads, scale_value=scale, input_layout="BNSD",
                                                   sparse_mode=2, next_tokens=0)
        self.reshape_and_cache = ops.ReshapeAndCache()
        self.paged_attention = ops.PagedAttention(heads, scale, kv_heads)
        shape = (num_blocks, block_size, kv_heads, self.d)
        self.key_cache = Parameter(Tensor(np.zeros(shape, np.float32)), name="key_cache", requires_grad=False)
        self.value_cache = Parameter(Tensor(np.zeros(shape, np.float32)), name="value_cache",
                                     requires_grad=False)

    def construct(self, x: Tensor, slot_mapping: Tensor | None = None, block_tables: Tensor | None = None,
                  context_lens: Tensor | None = None) -> Tensor:
        b, s, h = x.shape
        q, k, v = self.wq(x), self.wk(x), self.wv(x)
        if block_tables is None:  # prompt
            qh = ops.transpose(ops.reshape(q, (b, s, self.n, self.d)), (0, 2, 1, 3))
            kh = ops.transpose(ops.reshape(k, (b, s, self.kvn, self.d)), (0, 2, 1, 3))
            vh = ops.transpose(ops.reshape(v, (b, s, self.kvn, self.d)), (0, 2, 1, 3))
            out = self.flash_attention(qh, kh, vh)[3]
            out = ops.reshape(ops.transpose(out, (0, 2, 1, 3)), (b, s, h))
            if slot_mapping is not None:
                self.reshape_and_cache(ops.reshape(k, (b * s, self.kvn, self.d)),
                                       ops.reshape(v, (b * s, self.kvn, self.d)), self.key_cache,
                                       self.value_cache, slot_mapping)
            return self.wo(out)
        self.reshape_and_cache(ops.reshape(k, (b, self.kvn, self.d)), ops.reshape(v, (b, self.kvn, self.d)),
                               self.key_cache, self.value_cache, slot_mapping)
        out = self.paged_attention(q, self.key_cache, self.value_cache, block_tables, context_lens)
        return self.wo(out)


def _block_ref(x: np.ndarray, net: LlamaStyleAttention) -> np.ndarray:
    w = {name: p.asnumpy().astype(np.float64) for name, p in
         (("q", net.wq.weight), ("k", net.wk.weight), ("v", net.wv.weight), ("o", net.wo.weight))}
    q = _heads(x @ w["q"].T, "BSH", net.n)
    k = _heads(x @ w["k"].T, "BSH", net.kvn)
    v = _heads(x @ w["v"].T, "BSH", net.kvn)
    out = ref_attention(q, k, v, 1.0 / net.d ** 0.5, lambda b_, h_, i, j: j <= i)[0]
    return _unheads(out, "BSH") @ w["o"].T


def test_llama_style_block_prompt_decode_train_and_export() -> None:
    """The prompt pass matches the float64 reference of causal grouped-query attention; each decoding step
    through the paged cache gives the prompt pass's row for the same prefix; a training step's gradients
    match finite differences; the prompt pass exports to ONNX and runs in onnxruntime."""
    ms.set_seed(0)
    net = LlamaStyleAttention(hidden=16, heads=4, kv_heads=2, block_size=2, num_blocks=8)
    x = np.random.default_rng(50).standard_normal((2, 5, 16)).astype(np.float32)
    full = net(Tensor(x)).asnumpy()
    assert_close(full, _block_ref(x.astype(np.float64), net), rtol=1e-5, scale_rtol=1e-6, what="prompt pass")

    tables = np.array([[6, 1, 3], [0, 7, 2]], dtype=np.int32)

    def slot(b: int, p: int) -> int:
        return int(tables[b, p // 2] * 2 + p % 2)

    prompt = 3
    net(Tensor(x[:, :prompt]), Tensor(np.array([slot(b, p) for b in range(2) for p in range(prompt)],
                                                np.int32)))
    for p in range(prompt, 5):
        slots = Tensor(np.array([slot(0, p), slot(1, p)], np.int32))
        step = net(Tensor(x[:, p:p + 1]), slots, Tensor(tables), Tensor(np.array([p + 1, p + 1], np.int32)))
        step = step.asnumpy()
        assert_close(step[:, 0], full[:, p], rtol=1e-5, scale_rtol=1e-6, what=f"decoding step {p}")

    # gradient of the prompt pass (float64) against central differences, through the weights of wq
    x64 = Tensor(x.astype(np.float64))
    for p in net.trainable_params():
        p.set_data(Tensor(p.asnumpy().astype(np.float64)))
    proj = np.random.default_rng(51).standard_normal(full.shape)

    def loss(inp: Tensor) -> Tensor:
        return ops.sum(net(inp) * Tensor(proj))

    grad_x = ops.grad(loss)(x64).asnumpy()
    eps = 1e-6
    num = np.zeros_like(x, dtype=np.float64)
    base = x.astype(np.float64)
    for idx in [(0, 0, 0), (0, 2, 5), (1, 4, 15), (1, 1, 7)]:
        hi, lo = base.copy(), base.copy()
        hi[idx] += eps
        lo[idx] -= eps
        num[idx] = (loss(Tensor(hi)).asnumpy() - loss(Tensor(lo)).asnumpy()) / (2 * eps)
        np.testing.assert_allclose(grad_x[idx], num[idx], rtol=1e-5, atol=1e-8, err_msg=f"d loss / d x{idx}")
    for p in net.trainable_params():
        p.set_data(Tensor(p.asnumpy().astype(np.float32)))

    from cellonnx.graph.trace import trace
    g, _ = trace(lambda t: net(t), [("x", Tensor(x), [None, 5, 16])], opset=18, name="llama_attention")
    sess = ort.InferenceSession(g.model().SerializeToString(), providers=["CPUExecutionProvider"])
    assert_close(sess.run(None, {"x": x})[0], full, rtol=1e-5, scale_rtol=1e-6, what="onnxruntime")


def test_errors_name_the_op() -> None:
    q = Tensor(np.ones((1, 2, 8), np.float32))
    with pytest.raises(ValueError, match="FlashAttentionScore.*input_layout"):
        ops.flash_attention_score(q, q, q, 2, input_layout="NSD")
    with pytest.raises(ValueError, match="FlashAttentionScore.*sparse_mode"):
        ops.flash_attention_score(q, q, q, 2, sparse_mode=7)
    with pytest.raises(ValueError, match="PromptFlashAttention.*num_key_value_heads"):
        ops.prompt_flash_attention(q, q, q, num_heads=2, num_key_value_heads=3)
    with pytest.raises(ValueError, match="IncreFlashAttention.*quantization"):
        ops.incre_flash_attention(q[:, :1], q, q, num_heads=2, quant_scale2=Tensor(1.0))
    t = Tensor(np.ones((4, 2, 8), np.float32))   # TND: two batches of 2 tokens
    with pytest.raises(ValueError, match="FlashAttentionScore.*TND.*pse_type 2 or 3"):
        ops.flash_attention_score(t, t, t, 2, real_shift=Tensor(np.zeros((2, 2, 2, 2), np.float32)),
                                  actual_seq_qlen=(2, 4), actual_seq_kvlen=(2, 4), input_layout="TND")


def test_softmax_lse_gradient() -> None:
    """softmax_lse is float32, but its gradient flows back in the input's float64: it is the softmax of the
    scaled scores, checked against central differences of the float64 reference."""
    def lse(q: Tensor) -> Tensor:
        return ops.sum(ops.fused_infer_attention_score(q, Tensor(PK), Tensor(PV), atten_mask=Tensor(PMASK),
                                                       num_heads=4, num_key_value_heads=2, scale=0.5,
                                                       softmax_lse_flag=True)[1])

    got = ops.grad(lse)(Tensor(PQ)).asnumpy()
    want = np.zeros_like(PQ)

    def keep(b: int, i: int) -> np.ndarray:
        return ~PMASK[b, 0, i]

    for idx in np.ndindex(*PQ.shape):
        hi, lo = PQ.copy(), PQ.copy()
        hi[idx] += 1e-6
        lo[idx] -= 1e-6
        up, down = ref_lse(hi, PK, 2, "BSH", 0.5, keep), ref_lse(lo, PK, 2, "BSH", 0.5, keep)
        want[idx] = (up.sum() - down.sum()) / 2e-6
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-7)
