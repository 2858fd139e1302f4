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


def _setup_ctc(prim: Any) -> None:
    for attr in ("preprocess_collapse_repeated", "ctc_merge_repeated", "ignore_longer_outputs_than_inputs"):
        if not isinstance(getattr(prim, attr), bool):
            raise TypeError(f"For 'CTCLoss', the '{attr}' must be a bool, but got {getattr(prim, attr)!r}.")
    if not prim.ctc_merge_repeated:
        raise ValueError("For 'CTCLoss', ctc_merge_repeated=False (every frame of a repeated label counted "
                         "as its own label) is not supported; cellonnx computes the standard CTC of "
                         "ctc_merge_repeated=True.")


ROWS = [
    Row("CTCLoss", "preprocess_collapse_repeated=False, ctc_merge_repeated=True, "
        "ignore_longer_outputs_than_inputs=False", "x, labels_indices, labels_values, sequence_length",
        "_ctc(x, labels_indices, labels_values, sequence_length, self)", _setup_ctc),
]

CLASSES = build(ROWS, globals())
globals().update(CLASSES)
__all__ = list(CLASSES)
