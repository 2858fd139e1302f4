"""Connectionist temporal classification: ``ctc_loss`` (the forward recursion over log-probabilities written
with primitives, so it differentiates and traces) and ``ctc_greedy_decoder`` (best-path decoding on the
host)."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import ops as _ops
from cellonnx.ops import registry
from cellonnx.ops.prims._util import is_float_dtype
from cellonnx.tensor import Tensor

F: Any = _ops  # the functional API; its names are filled in at import time, so typed loosely

__all__ = ["ctc_greedy_decoder", "ctc_loss"]

# log(0) in the recursion: finite, so that gradients of the log-sum-exps stay finite; alignments that stay
# below _IMPOSSIBLE are impossible (their loss is infinite)
_NEG = -1e30
_IMPOSSIBLE = -1e29


def _int_tensor(v: Any, name: str, n: int) -> Tensor:
    t = v if isinstance(v, Tensor) else Tensor(np.asarray(v, np.int64))
    if t._data.dtype.kind not in "iu" or t.shape != (n,):
        raise ValueError(f"For 'ctc_loss', '{name}' must be {n} ints (one per batch entry), but got "
                         f"{t.dtype} of shape {t.shape}.")
    return t


def _lse(*terms: Tensor) -> Tensor:
    return F.logsumexp(F.stack(terms, 0), 0)


def ctc_loss(log_probs: Tensor, targets: Tensor, input_lengths: Any, target_lengths: Any, blank: int = 0,
             reduction: str = "mean", zero_infinity: bool = False) -> tuple[Tensor, Tensor]:
    r"""The CTC loss of log-probabilities against target label sequences.

    The forward variable runs over the targets extended with blanks,
    :math:`l' = (\text{blank}, l_1, \text{blank}, \ldots, l_L, \text{blank})`:

    .. math::
        \alpha_t(s) = \log p_t(l'_s) + \log\sum \exp\{\alpha_{t-1}(s), \alpha_{t-1}(s-1),
        \alpha_{t-1}(s-2)\}

    the last term only where :math:`l'_s` is not blank and differs from :math:`l'_{s-2}`; the loss of a
    sequence is :math:`-\log(e^{\alpha_{T-1}(2L)} + e^{\alpha_{T-1}(2L-1)})` with its own input length
    :math:`T` and target length :math:`L`.

    As MindSpore's kernel, the gradient with respect to ``log_probs`` is :math:`e^{\log p} - \gamma` (the
    posterior :math:`\gamma` of each label at each step): the derivative through a ``log_softmax`` that
    produced ``log_probs``, which is what training needs (the extra :math:`e^{\log p}` cancels in the
    log-softmax backward). Steps past an input length get no gradient.

    Args:
        log_probs (Tensor): :math:`(T, N, C)` float log-probabilities.
        targets (Tensor): :math:`(N, S)` int labels, padded past each target length.
        input_lengths (Union[Tensor, tuple]): :math:`(N)` ints, each at most :math:`T`.
        target_lengths (Union[Tensor, tuple]): :math:`(N)` ints, each at most :math:`S` and its input length.
        blank (int): the blank label, in [0, C). Default: ``0``.
        reduction (str): ``'none'``, ``'mean'`` (each loss divided by its target length, at least 1, then
            averaged) or ``'sum'``. Default: ``'mean'``.
        zero_infinity (bool): make infinite losses (impossible alignments) and their gradients 0.
            Default: ``False``.

    Returns:
        tuple[Tensor, Tensor]: the loss (:math:`(N)` for ``'none'``, else 0-d) and :math:`\log\alpha` of shape
        :math:`(N, T, 2S+1)` (-inf where no alignment reaches, past the input length and past
        :math:`2L+1`).

    Examples:
        >>> lp = ops.log_softmax(Tensor(np.random.randn(5, 2, 4).astype(np.float32)), 2)
        >>> loss, log_alpha = ops.ctc_loss(lp, Tensor(np.array([[1, 2], [3, 0]], np.int32)), (5, 4), (2, 1))
    """
    name = "ctc_loss"
    if not isinstance(blank, int) or isinstance(blank, bool):
        raise TypeError(f"For '{name}', 'blank' must be an int, but got {type(blank).__name__}.")
    if reduction not in ("none", "sum", "mean"):
        raise ValueError(f"For '{name}', 'reduction' must be in ['none', 'sum', 'mean'], but got "
                         f"{reduction!r}.")
    if not isinstance(zero_infinity, bool):
        raise TypeError(f"For '{name}', 'zero_infinity' must be a bool, but got "
                        f"{type(zero_infinity).__name__}.")
    if not isinstance(log_probs, Tensor) or log_probs.ndim != 3 or not is_float_dtype(log_probs._data.dtype):
        raise ValueError(f"For '{name}', 'log_probs' must be a float (T, N, C) Tensor, but got "
                         f"{getattr(log_probs, 'shape', type(log_probs).__name__)}.")
    n_steps, batch, n_classes = log_probs.shape
    if not isinstance(targets, Tensor) or targets.ndim != 2 or targets._data.dtype.kind not in "iu" \
            or targets.shape[0] != batch:
        raise ValueError(f"For '{name}', 'targets' must be an int ({batch}, S) Tensor, but got "
                         f"{getattr(targets, 'shape', type(targets).__name__)}.")
    if not 0 <= blank < n_classes:
        raise ValueError(f"For '{name}', 'blank' must be in [0, {n_classes}), but got {blank}.")
    il = _int_tensor(input_lengths, "input_lengths", batch)
    tl = _int_tensor(target_lengths, "target_lengths", batch)
    if (il._data > n_steps).any() or (il._data < 0).any():
        raise RuntimeError(f"For '{name}', the input lengths must be in [0, {n_steps}], but got "
                           f"{il._data.tolist()}.")
    if (tl._data < 0).any() or (tl._data > il._data).any() or (tl._data > targets.shape[1]).any():
        raise RuntimeError(f"For '{name}', each target length must be in [0, its input length] and at most "
                           f"{targets.shape[1]}, but got {tl._data.tolist()} for input lengths "
                           f"{il._data.tolist()}.")
    n_ext = 2 * targets.shape[1] + 1
    dt = log_probs._data.dtype
    s_index = np.arange(n_ext)
    # the targets extended with blanks: l'_s = blank at even s, targets[(s - 1) / 2] at odd s
    labels = F.cast(F.gather(targets, Tensor(np.maximum((s_index - 1) // 2, 0)), 1), np.int64)
    ext = F.where(Tensor(s_index % 2 == 0), blank, labels)                                  # (N, K)
    # log p_t(l'_s) for every step: one gather from (T, N*C) at n*C + l'_s
    flat = F.reshape(F.add(ext, Tensor(np.arange(batch).reshape(-1, 1) * n_classes)), (-1,))
    emit = F.reshape(F.gather(F.reshape(log_probs, (n_steps, -1)), flat, 1), (n_steps, batch, n_ext))
    before2 = F.concat([F.full((batch, 2), -1, dtype=np.int64), ext[:, :-2]], 1)
    skip = F.logical_and(F.not_equal(ext, blank), F.not_equal(ext, before2))
    s_row = Tensor(s_index.reshape(1, -1))
    valid_s = F.less(s_row, F.add(F.mul(F.cast(F.expand_dims(tl, 1), np.int64), 2), 1))  # s < 2L + 1
    running = F.cast(F.expand_dims(il, 1), np.int64)                                     # (N, 1)
    neg = Tensor(np.full((batch, n_ext), _NEG, dt))
    neg1, neg2 = neg[:, :1], neg[:, :2]
    steps = F.unbind(emit, 0)
    alpha = F.where(F.logical_and(Tensor(s_index.reshape(1, -1) < 2), valid_s), steps[0], neg)
    alpha = F.where(F.greater(running, 0), alpha, neg)
    rows = [alpha]
    for t in range(1, n_steps):
        a1 = F.concat([neg1, alpha[:, :-1]], 1)
        a2 = F.where(skip, F.concat([neg2, alpha[:, :-2]], 1), neg)
        new = F.where(valid_s, F.add(_lse(alpha, a1, a2), steps[t]), neg)
        live = F.greater(running, t)
        alpha = F.where(live, new, alpha)
        rows.append(F.where(live, new, neg))
    two_l = F.mul(F.cast(F.expand_dims(tl, 1), np.int64), 2)
    end = F.logical_or(F.equal(s_row, two_l), F.equal(s_row, F.sub(two_l, 1)))
    nll = F.neg(F.logsumexp(F.where(end, alpha, neg), 1))
    impossible = F.greater(nll, -_IMPOSSIBLE)
    # MindSpore's gradient adds exp(log_probs) over the live steps (value 0, gradient only)
    live_t = F.less(Tensor(np.arange(n_steps).reshape(-1, 1)), F.cast(F.expand_dims(il, 0), np.int64))
    extra = F.sum(F.where(F.expand_dims(live_t, 2), F.exp(log_probs), 0.0), (0, 2))
    nll = F.add(nll, F.sub(extra, F.stop_gradient(extra)))
    loss = F.where(impossible, 0.0 if zero_infinity else float("inf"), nll)
    log_alpha = F.stack(rows, 1)
    log_alpha = F.where(F.less(log_alpha, _IMPOSSIBLE), float("-inf"), log_alpha)
    if reduction == "sum":
        loss = F.sum(loss)
    elif reduction == "mean":
        loss = F.mean(F.div(loss, F.clamp(F.cast(tl, dt), min=1.0)))
    return loss, log_alpha


def ctc_greedy_decoder(inputs: Tensor, sequence_length: Tensor,
                       merge_repeated: bool = True) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    r"""Best-path decoding: the most likely class at each step, repeats merged, blanks (the last class)
    dropped.

    Args:
        inputs (Tensor): :math:`(T, N, C)` float scores; class :math:`C-1` is the blank.
        sequence_length (Tensor): :math:`(N,)` int32 lengths, each at most :math:`T`.
        merge_repeated (bool): merge a class repeated on consecutive steps. Default: ``True``.

    Returns:
        tuple[Tensor]: ``decoded_indices`` (total, 2) int64 (batch entry, position), ``decoded_values``
        (total,) int64 classes, ``decoded_shape`` (2,) int64 (N, longest decoding) and ``log_probability``
        (N, 1): minus the sum of each step's largest score.

    Examples:
        >>> x = Tensor(np.array([[[0.6, 0.4, 0.2], [0.8, 0.6, 0.3]], [[0.0, 0.6, 0.0], [0.5, 0.4, 0.5]]],
        ...                     np.float32))
        >>> indices, values, shape, logp = ops.ctc_greedy_decoder(x, Tensor(np.array([2, 2], np.int32)))
        >>> values
        Tensor(shape=[3], dtype=Int64, value= [0, 1, 0])
    """
    name = "ctc_greedy_decoder"
    if not isinstance(merge_repeated, bool):
        raise TypeError(f"For '{name}', 'merge_repeated' must be a bool, but got "
                        f"{type(merge_repeated).__name__}.")
    if registry.ACTIVE_TRACER is not None:
        raise NotImplementedError(f"ops.{name}: the decoded length depends on the values; it runs eagerly "
                                  "and can not be traced into an ONNX graph")
    if not isinstance(inputs, Tensor) or inputs.ndim != 3 or not is_float_dtype(inputs._data.dtype):
        raise ValueError(f"For '{name}', 'inputs' must be a float (T, N, C) Tensor, but got "
                         f"{getattr(inputs, 'shape', type(inputs).__name__)}.")
    x = inputs._data
    n_steps, batch, n_classes = x.shape
    lengths = np.asarray(sequence_length._data if isinstance(sequence_length, Tensor) else sequence_length)
    if lengths.shape != (batch,) or lengths.dtype.kind not in "iu" or (lengths > n_steps).any() \
            or (lengths < 0).any():
        raise ValueError(f"For '{name}', 'sequence_length' must be {batch} ints in [0, {n_steps}], but got "
                         f"{lengths.tolist()}.")
    best = x.argmax(axis=2)
    blank = n_classes - 1
    indices, values, logp = [], [], np.zeros((batch, 1), x.dtype)
    longest = 0
    for b in range(batch):
        n = int(lengths[b])
        logp[b, 0] = -x[:n, b].max(axis=1).sum(dtype=x.dtype)
        out: list[int] = []
        prev = -1
        for t in range(n):
            c = int(best[t, b])
            if c != blank and not (merge_repeated and c == prev):
                out.append(c)
            prev = c
        indices += [(b, i) for i in range(len(out))]
        values += out
        longest = max(longest, len(out))
    return (Tensor(np.array(indices, np.int64).reshape(-1, 2)), Tensor(np.array(values, np.int64)),
            Tensor(np.array([batch, longest], np.int64)), Tensor(logp))
