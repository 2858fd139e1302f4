"""MindSpore's loss and sequence-decoding operator classes (``ops.MultiMarginLoss``,
``ops.MultilabelMarginLoss``, ``ops.TripletMarginLoss``, ``ops.CTCLossV2``, ``ops.CTCGreedyDecoder``): table
rows over the functional losses (see table.py)."""
from __future__ import annotations

from typing import Any

from cellonnx.ops.composite.loss_margin import _multi_margin  # noqa: F401 (the rows' twins read it)
from cellonnx.ops.operations.table import Row, build
from cellonnx.tensor import Tensor


def _multilabel_margin_loss(x: Tensor, target: Tensor, reduction: str) -> tuple[Tensor, Tensor]:
    """MindSpore's MultilabelMarginLoss: (the loss, ``is_target``), where ``is_target[n, c]`` is 1 when class
    ``c`` is one of row ``n``'s targets (those before its first -1), in the dtype of ``target``."""
    from cellonnx import ops
    loss = ops.multilabel_margin_loss(x, target, reduction)
    valid = ops.cumprod(ops.cast(ops.not_equal(target, -1), target.dtype), -1)
    hot = ops.mul(ops.one_hot(ops.clamp(target, 0, None), int(x.shape[-1]), 1, 0), ops.unsqueeze(valid, -1))
    return loss, ops.cast(ops.amax(hot, -2), target.dtype)


def _margin(margin: Any) -> float:
    return float(margin.asnumpy().item()) if isinstance(margin, Tensor) else float(margin)


ROWS = [
    Row("MultiMarginLoss", "p=1, margin=1.0, reduction='mean'", "x, target, weight=None",
        "_multi_margin(x, target, p, _margin(margin), weight, reduction, 'MultiMarginLoss')"),
    Row("MultilabelMarginLoss", "reduction='mean'", "x, target",
        "_multilabel_margin_loss(x, target, reduction)"),
    Row("TripletMarginLoss", "p=2, swap=False, eps=1e-06, reduction='mean'", "x, positive, negative, margin",
        "triplet_margin_loss(x, positive, negative, _margin(margin), p, eps, swap, reduction)"),
    Row("CTCLossV2", "blank=0, reduction='none', zero_infinity=False",
        "log_probs, targets, input_lengths, target_lengths",
        "ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, reduction, zero_infinity)"),
    Row("CTCGreedyDecoder", "merge_repeated=True", "inputs, sequence_length",
        "ctc_greedy_decoder(inputs, sequence_length, merge_repeated)"),
]

CLASSES = build(ROWS, globals())
globals().update(CLASSES)
__all__ = list(CLASSES)
