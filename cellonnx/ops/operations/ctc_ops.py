"""MindSpore's ``ops.CTCLoss``: the CTC loss of logits against labels given in sparse form (TensorFlow's
convention), with its gradient, as a table row over ``ops.ctc_loss`` (see table.py).

``x`` is (max_time, batch, num_classes) of unnormalised logits (a softmax is applied inside); the label
``labels_values[i]`` sits at ``labels_indices[i] = (batch, position)``; the blank is the last class,
``num_classes - 1``. The outputs are the loss per sample and its gradient with respect to ``x``
(``softmax(x)`` minus the posterior of each label, zero past a sequence's length).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.ops.operations.table import Row, build
from cellonnx.tensor import Tensor


def _dense_labels(indices: Tensor, values: Tensor, batch: int,
                  collapse: bool) -> tuple[np.ndarray, np.ndarray]:
    idx = indices.asnumpy().astype(np.int64).reshape(-1, 2)
    vals = values.asnumpy().astype(np.int64).reshape(-1)
    if idx.shape[0] != vals.shape[0]:
        raise ValueError(f"For 'CTCLoss', labels_indices has {idx.shape[0]} rows but labels_values "
                         f"{vals.shape[0]} values.")
    rows: list[list[int]] = [[] for _ in range(batch)]
    for (b, _), v in sorted(zip(map(tuple, idx), vals), key=lambda item: item[0]):
        if not 0 <= b < batch:
            raise ValueError(f"For 'CTCLoss', a label index names batch {b}, out of [0, {batch}).")
        if collapse and rows[b] and rows[b][-1] == v:
            continue
        rows[b].append(int(v))
    lengths = np.array([len(r) for r in rows], np.int64)
    dense = np.zeros((batch, max(1, int(lengths.max(initial=0)))), np.int64)
    for b, r in enumerate(rows):
        dense[b, :len(r)] = r
    return dense, lengths


def _ctc(x: Tensor, labels_indices: Tensor, labels_values: Tensor, sequence_length: Tensor,
         prim: Any) -> tuple[Tensor, Tensor]:
    from cellonnx.ops import ctc_loss, log_softmax, sum, value_and_grad
    if x.ndim != 3:
        raise ValueError(f"For 'CTCLoss', x must be (max_time, batch, num_classes), but got shape "
                         f"{tuple(x.shape)}.")
    steps, batch, classes = (int(s) for s in x.shape)
    targets, target_lengths = _dense_labels(labels_indices, labels_values, batch,
                                            prim.preprocess_collapse_repeated)
    lengths = sequence_length.asnumpy().astype(np.int64).reshape(-1)
    if lengths.shape != (batch,) or lengths.max(initial=0) > steps:
        raise ValueError(f"For 'CTCLoss', sequence_length must hold {batch} lengths of at most {steps}, but "
                         f"got {lengths.tolist()}.")
    too_long = target_lengths > lengths
    if too_long.any() and not prim.ignore_longer_outputs_than_inputs:
        raise ValueError(f"For 'CTCLoss', the labels of samples {np.flatnonzero(too_long).tolist()} are "
                         "longer than their sequences (set ignore_longer_outputs_than_inputs=True to give "
                         "them loss 0).")
    if not prim.ctc_merge_repeated:
        return _ctc_no_merge(x, targets, target_lengths, lengths, too_long)
    # samples whose labels do not fit get loss 0 and no gradient, as MindSpore's kernel with the flag
    fit_target_lengths = np.where(too_long, 0, target_lengths)
    keep = Tensor((~too_long).astype(x._data.dtype))
    dense = Tensor(targets)

    def total(logits: Tensor) -> tuple[Tensor, Tensor]:
        loss, _ = ctc_loss(log_softmax(logits, -1), dense, Tensor(lengths), Tensor(fit_target_lengths),
                           classes - 1, "none")
        loss = loss * keep
        return sum(loss), loss

    (_, loss), grad = value_and_grad(total, 0, has_aux=True)(x)
    return loss, grad


def _ctc_no_merge(x: Tensor, targets: np.ndarray, target_lengths: np.ndarray, lengths: np.ndarray,
                  skip: np.ndarray) -> tuple[Tensor, Tensor]:
    """ctc_merge_repeated=False: repeated frames of a label are not merged, so a label takes exactly one frame
    (only blanks last) and a label may follow the same label without a blank between them (``a a`` reads
    as two ``a``). Loss and gradient over the logits, by the forward-backward recursions in float64."""
    z = x.asnumpy().astype(np.float64)
    _, batch, classes = z.shape
    blank = classes - 1
    lp = z - z.max(-1, keepdims=True)
    lp = lp - np.log(np.exp(lp).sum(-1, keepdims=True))
    loss = np.zeros(batch)
    grad = np.zeros_like(z)
    for b in range(batch):
        t_n = int(lengths[b])
        if skip[b] or t_n == 0:
            continue
        ext = [blank]
        for v in targets[b, :int(target_lengths[b])]:
            ext += [int(v), blank]
        n = len(ext)
        p = lp[:t_n, b][:, ext]  # (T, S)
        alpha = np.full((t_n, n), -np.inf)
        beta = np.full((t_n, n), -np.inf)
        alpha[0, 0] = p[0, 0]
        if n > 1:
            alpha[0, 1] = p[0, 1]
        for t in range(1, t_n):
            for s_ in range(n):
                terms = [alpha[t - 1, s_ - 1]] if s_ > 0 else [-np.inf]
                if ext[s_] == blank:
                    terms.append(alpha[t - 1, s_])
                if ext[s_] != blank and s_ > 1:
                    terms.append(alpha[t - 1, s_ - 2])
                alpha[t, s_] = np.logaddexp.reduce(terms) + p[t, s_]
        beta[-1, -1] = p[-1, -1]
        if n > 1:
            beta[-1, -2] = p[-1, -2]
        for t in range(t_n - 2, -1, -1):
            for s_ in range(n):
                terms = [beta[t + 1, s_ + 1]] if s_ < n - 1 else [-np.inf]
                if ext[s_] == blank:
                    terms.append(beta[t + 1, s_])
                if ext[s_] != blank and s_ < n - 2:
                    terms.append(beta[t + 1, s_ + 2])
                beta[t, s_] = np.logaddexp.reduce(terms) + p[t, s_]
        ll = np.logaddexp(alpha[-1, -1], alpha[-1, -2]) if n > 1 else alpha[-1, -1]
        loss[b] = -ll
        post = np.exp(alpha + beta - p - ll)  # (T, S): the posterior of each lattice state
        g = np.exp(lp[:t_n, b])
        for s_, k in enumerate(ext):
            g[:, k] -= post[:, s_]
        grad[:t_n, b] = g
    dt = x._data.dtype
    return Tensor(loss.astype(dt)), Tensor(grad.astype(dt))


def _setup_ctc(prim: Any) -> None:
    for attr in ("preprocess_collapse_repeated", "ctc_merge_repeated", "ignore_longer_outputs_than_inputs"):
        if not isinstance(getattr(prim, attr), bool):
            raise TypeError(f"For 'CTCLoss', the '{attr}' must be a bool, but got {getattr(prim, attr)!r}.")


ROWS = [
    Row("CTCLoss", "preprocess_collapse_repeated=False, ctc_merge_repeated=True, "
        "ignore_longer_outputs_than_inputs=False", "x, labels_indices, labels_values, sequence_length",
        "_ctc(x, labels_indices, labels_values, sequence_length, self)", _setup_ctc,
        summary="The CTC loss of ``(T, N, C)`` scores against sparse labels, and its gradient.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[[0.3, 0.6, 0.6], [0.4, 0.3, 0.9]],
        ...                [[0.9, 0.4, 0.2], [0.9, 0.9, 0.1]]]), ms.float32)
        >>> labels_indices = Tensor(np.array([[0, 0], [1, 0]]), ms.int64)
        >>> labels_values = Tensor(np.array([1, 0]), ms.int32)
        >>> sequence_length = Tensor(np.array([2, 2]), ms.int32)
        >>> loss, gradient = ops.CTCLoss()(x, labels_indices, labels_values, sequence_length)
        >>> print(loss.asnumpy().round(4))
        [1.2154 1.033 ]
        """),
]

CLASSES = build(ROWS, globals())
globals().update(CLASSES)
__all__ = list(CLASSES)
