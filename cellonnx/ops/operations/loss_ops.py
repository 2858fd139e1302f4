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


def _rnnt_loss(acts: Tensor, labels: Tensor, input_lengths: Tensor, label_lengths: Tensor,
               blank_label: int) -> tuple[Tensor, Tensor]:
    """ops.RNNTLoss: per sequence, the transducer loss ``-log P(labels | acts)`` (``acts`` are logits over the
    (T, U+1) lattice, log-softmaxed over V) and its gradient with respect to ``acts`` (zero outside each
    sequence's lengths); computed in float64 by the forward-backward recursions."""
    import numpy as np

    z = acts.asnumpy().astype(np.float64)
    y, tl, ul = labels.asnumpy(), input_lengths.asnumpy(), label_lengths.asnumpy()
    if z.ndim != 4 or y.ndim != 2 or z.shape[0] != y.shape[0] or z.shape[2] != y.shape[1] + 1:
        raise ValueError(f"For 'RNNTLoss', acts must be (B, T, U, V) and labels (B, U - 1), but got "
                         f"{tuple(z.shape)} and {tuple(y.shape)}")
    lp = z - z.max(-1, keepdims=True)
    lp = lp - np.log(np.exp(lp).sum(-1, keepdims=True))
    costs = np.zeros(z.shape[0])
    grads = np.zeros_like(z)
    for b in range(z.shape[0]):
        t_n, u_n = int(tl[b]), int(ul[b]) + 1
        if not (0 < t_n <= z.shape[1] and 0 < u_n <= z.shape[2]):
            raise ValueError(f"For 'RNNTLoss', sequence {b} has input length {t_n} and label length "
                             f"{u_n - 1}, outside acts of shape {tuple(z.shape)}")
        p = lp[b, :t_n, :u_n]
        blank = p[:, :, blank_label]
        emit = np.stack([p[:, u, y[b, u]] for u in range(u_n - 1)], 1) if u_n > 1 else np.zeros((t_n, 0))
        alpha = np.full((t_n, u_n), -np.inf)
        beta = np.full((t_n, u_n), -np.inf)
        for t in range(t_n):
            for u in range(u_n):
                if t == 0 and u == 0:
                    alpha[t, u] = 0.0
                    continue
                a = alpha[t - 1, u] + blank[t - 1, u] if t > 0 else -np.inf
                c = alpha[t, u - 1] + emit[t, u - 1] if u > 0 else -np.inf
                alpha[t, u] = np.logaddexp(a, c)
        for t in range(t_n - 1, -1, -1):
            for u in range(u_n - 1, -1, -1):
                if t == t_n - 1 and u == u_n - 1:
                    beta[t, u] = blank[t, u]
                    continue
                a = beta[t + 1, u] + blank[t, u] if t < t_n - 1 else -np.inf
                c = beta[t, u + 1] + emit[t, u] if u < u_n - 1 else -np.inf
                beta[t, u] = np.logaddexp(a, c)
        ll = beta[0, 0]
        costs[b] = -ll
        g = np.exp(p + (alpha + beta - ll)[:, :, None])  # softmax times each node's occupancy
        nxt = np.full((t_n, u_n), -np.inf)
        nxt[:-1] = beta[1:]
        nxt[-1, -1] = 0.0
        g[:, :, blank_label] -= np.exp(alpha + blank + nxt - ll)
        for u in range(u_n - 1):
            g[:, u, y[b, u]] -= np.exp(alpha[:, u] + emit[:, u] + beta[:, u + 1] - ll)
        grads[b, :t_n, :u_n] = g
    dt = acts.dtype.np_dtype
    return Tensor(costs.astype(dt)), Tensor(grads.astype(dt))


ROWS = [
    Row("RNNTLoss", "blank_label=0", "acts, labels, input_lengths, label_lengths",
        "_rnnt_loss(acts, labels, input_lengths, label_lengths, blank_label)",
        summary="The RNN-transducer loss of ``(B, T, U, V)`` activations, and its gradient.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> acts = Tensor(np.zeros((1, 2, 3, 5)), ms.float32)
        >>> labels = Tensor(np.array([[1, 2]]), ms.int32)
        >>> input_lengths, label_lengths = Tensor([2], ms.int32), Tensor([2], ms.int32)
        >>> costs, grads = ops.RNNTLoss(blank_label=0)(acts, labels, input_lengths, label_lengths)
        >>> print(costs.asnumpy().round(4), grads.shape)
        [5.3391] (1, 2, 3, 5)
        """),
    Row("MultiMarginLoss", "p=1, margin=1.0, reduction='mean'", "x, target, weight=None",
        "_multi_margin(x, target, p, _margin(margin), weight, reduction, 'MultiMarginLoss')",
        summary="The multi-class hinge loss ``sum_i max(0, margin - x[y] + x[i]) ** p / C``, reduced.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[0.1, 0.2, 0.4, 0.8], [0.3, 0.1, 0.2, 0.6]]), ms.float32)
        >>> target = Tensor(np.array([3, 0]), ms.int64)
        >>> print(ops.MultiMarginLoss()(x, target).asnumpy().round(4))
        0.5375
        """),
    Row("MultilabelMarginLoss", "reduction='mean'", "x, target",
        "_multilabel_margin_loss(x, target, reduction)",
        summary="The multi-label hinge loss over the labels in ``target`` (ended by -1), and the label mask.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[0.1, 0.2, 0.4, 0.8], [0.2, 0.3, 0.5, 0.7]]), ms.float32)
        >>> target = Tensor(np.array([[1, 2, 0, 3], [2, 3, -1, 1]]), ms.int32)
        >>> loss, is_target = ops.MultilabelMarginLoss()(x, target)
        >>> print(loss.asnumpy().round(4))
        0.325
        >>> print(is_target)
        [[1 1 1 1]
         [0 0 1 1]]
        """),
    Row("TripletMarginLoss", "p=2, swap=False, eps=1e-06, reduction='mean'", "x, positive, negative, margin",
        "triplet_margin_loss(x, positive, negative, _margin(margin), p, eps, swap, reduction)",
        summary="The triplet loss ``max(d(x, positive) - d(x, negative) + margin, 0)``, reduced.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[0.3, 0.7], [0.5, 0.5]]), ms.float32)
        >>> positive = Tensor(np.array([[0.4, 0.6], [0.4, 0.6]]), ms.float32)
        >>> negative = Tensor(np.array([[0.2, 0.9], [0.3, 0.7]]), ms.float32)
        >>> print(ops.TripletMarginLoss()(x, positive, negative, Tensor(1.0, ms.float32)).asnumpy().round(4))
        0.8882
        """),
    Row("CTCLossV2", "blank=0, reduction='none', zero_infinity=False",
        "log_probs, targets, input_lengths, target_lengths",
        "ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, reduction, zero_infinity)",
        summary="The CTC loss of log-probabilities ``(T, N, C)`` against padded targets, and the log-alphas.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> log_probs = Tensor(np.log(np.full((3, 1, 3), 1 / 3)), ms.float32)
        >>> targets = Tensor(np.array([[1, 2]]), ms.int32)
        >>> input_lengths, target_lengths = Tensor([3], ms.int32), Tensor([2], ms.int32)
        >>> loss, log_alpha = ops.CTCLossV2()(log_probs, targets, input_lengths, target_lengths)
        """),
    Row("CTCGreedyDecoder", "merge_repeated=True", "inputs, sequence_length",
        "ctc_greedy_decoder(inputs, sequence_length, merge_repeated)",
        summary="Greedy CTC decoding of ``(T, N, C)`` scores: sparse decoded labels and log-probabilities.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> inputs = Tensor(np.array([[[0.6, 0.4, 0.2]], [[0.6, 0.4, 0.2]], [[0.3, 0.8, 0.1]]]), ms.float32)
        >>> outputs = ops.CTCGreedyDecoder()(inputs, Tensor([3], ms.int32))
        >>> decoded_indices, decoded_values, decoded_shape, log_probability = outputs
        >>> print(decoded_values, decoded_shape)
        [0 1] [1 2]
        """),
]

CLASSES = build(ROWS, globals())
globals().update(CLASSES)
__all__ = list(CLASSES)
