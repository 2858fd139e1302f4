"""Rows for ctc_loss and ctc_greedy_decoder (cellonnx/ops/composite/loss_ctc.py) against a float64 NumPy CTC
forward recursion written here; gradients through a log_softmax (where MindSpore's gradient convention and the
true derivative agree)."""

from __future__ import annotations

import numpy as np

from cellonnx import ops
from tests.ops.harness import OpCase, rand

T, N, C, S = 6, 3, 5, 3
LOGITS = rand(T, N, C, seed=70) * 2
TARGETS = np.array([[1, 2, 2], [3, 1, 0], [4, 0, 0]], np.int32)
IN_LEN = np.array([6, 5, 3], np.int32)
TGT_LEN = np.array([3, 2, 0], np.int32)
# sample 0 can not align: 3 labels with a repeat need 4 steps, it has 3
IMPOSSIBLE_IN = np.array([3, 5, 3], np.int32)


def _log_softmax(x, axis):
    m = x.max(axis=axis, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis=axis, keepdims=True))


def ctc_ref(lp, targets, in_len, tgt_len, blank=0, reduction="mean", zero_infinity=False):
    """-log p(target | input) by the forward recursion, and log alpha (N, T, 2S+1) with -inf elsewhere."""
    n_steps, batch, _ = lp.shape
    k = 2 * targets.shape[1] + 1
    log_alpha = np.full((batch, n_steps, k), -np.inf)
    loss = np.zeros(batch)
    for n in range(batch):
        ext = [blank]
        for c in targets[n, : tgt_len[n]]:
            ext += [int(c), blank]
        for t in range(in_len[n]):
            for s in range(len(ext)):
                if t == 0:
                    v = lp[0, n, ext[s]] if s < 2 else -np.inf
                else:
                    prev = [log_alpha[n, t - 1, s]]
                    if s >= 1:
                        prev.append(log_alpha[n, t - 1, s - 1])
                    if s >= 2 and ext[s] != blank and ext[s] != ext[s - 2]:
                        prev.append(log_alpha[n, t - 1, s - 2])
                    v = np.logaddexp.reduce(prev) + lp[t, n, ext[s]]
                log_alpha[n, t, s] = v
        last = log_alpha[n, in_len[n] - 1]
        end = [last[len(ext) - 1]] + ([last[len(ext) - 2]] if len(ext) > 1 else [])
        loss[n] = -np.logaddexp.reduce(end)
    if zero_infinity:
        loss = np.where(np.isinf(loss), 0.0, loss)
    if reduction == "mean":
        return (loss / np.maximum(tgt_len, 1)).mean(), log_alpha
    if reduction == "sum":
        return loss.sum(), log_alpha
    return loss, log_alpha


def greedy_ref(x, lengths, merge):
    idx, vals, logp, longest = [], [], [], 0
    for b in range(x.shape[1]):
        best = x[: lengths[b], b].argmax(1)
        out, prev = [], -1
        for c in best:
            if c != x.shape[2] - 1 and not (merge and c == prev):
                out.append(int(c))
            prev = c
        idx += [(b, i) for i in range(len(out))]
        vals += out
        longest = max(longest, len(out))
        logp.append([-x[: lengths[b], b].max(1).sum()])
    return (np.array(idx, np.int64).reshape(-1, 2), np.array(vals, np.int64),
            np.array([x.shape[1], longest], np.int64), np.array(logp))


def _loss(x, t, il, tl, **kw):
    return ops.ctc_loss(ops.log_softmax(x, 2), t, il, tl, **kw)[0]


CASES: list[OpCase] = []
for r in ("none", "mean", "sum"):
    CASES.append(
        OpCase(f"ctc_loss_{r}", lambda x, t, il, tl, r=r: _loss(x, t, il, tl, reduction=r),
               [LOGITS, TARGETS, IN_LEN, TGT_LEN],
               lambda x, t, il, tl, r=r: ctc_ref(_log_softmax(x, 2), t, il, tl, reduction=r)[0])
    )
CASES += [
    OpCase("ctc_loss_log_alpha", lambda x, t, il, tl: ops.ctc_loss(ops.log_softmax(x, 2), t, il, tl)[1],
           [LOGITS, TARGETS, IN_LEN, TGT_LEN],
           lambda x, t, il, tl: ctc_ref(_log_softmax(x, 2), t, il, tl)[1], grad=(),
           note="log alpha carries -inf where no alignment reaches: checked forward and lowered only"),
    OpCase(
        "ctc_loss_blank_last_int64",
        lambda x, t, il, tl: _loss(x, t, il, tl, blank=C - 1, reduction="sum"),
        [LOGITS, np.array([[0, 1, 1], [2, 3, 0], [0, 0, 0]], np.int64), IN_LEN.astype(np.int64),
         np.array([3, 2, 1], np.int64)],
        lambda x, t, il, tl: ctc_ref(_log_softmax(x, 2), t, il, tl, blank=C - 1, reduction="sum")[0],
    ),
    OpCase(
        "ctc_loss_zero_infinity",
        lambda x, t, il, tl: _loss(x, t, il, tl, reduction="none", zero_infinity=True),
        [LOGITS, TARGETS, IMPOSSIBLE_IN, TGT_LEN],
        lambda x, t, il, tl: ctc_ref(_log_softmax(x, 2), t, il, tl, reduction="none", zero_infinity=True)[0],
    ),
    OpCase("ctc_loss_impossible_is_inf", lambda x, t, il, tl: _loss(x, t, il, tl, reduction="none"),
           [LOGITS, TARGETS, IMPOSSIBLE_IN, TGT_LEN],
           lambda x, t, il, tl: ctc_ref(_log_softmax(x, 2), t, il, tl, reduction="none")[0], grad=(),
           note="an infinite loss has no gradient to check"),
    OpCase("ctc_greedy_decoder_merge", lambda x, n: ops.ctc_greedy_decoder(x, n), [LOGITS, IN_LEN],
           lambda x, n: greedy_ref(x, n, True), grad=(), lower=False,
           note="the decoded length depends on the values: eager only"),
    OpCase("ctc_greedy_decoder_no_merge", lambda x, n: ops.ctc_greedy_decoder(x, n, merge_repeated=False),
           [np.repeat(LOGITS, 2, axis=0), IN_LEN * 2], lambda x, n: greedy_ref(x, n, False), grad=(),
           lower=False, note="the decoded length depends on the values: eager only"),
]
