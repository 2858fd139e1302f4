"""gluon.loss: MXNet's losses with its batch-axis convention - one loss per sample, the mean over every axis
but ``batch_axis`` - so ``loss(pred, label).backward()`` followed by ``trainer.step(batch_size)`` (which
rescales by 1 / batch_size) averages over the batch.

Each loss takes ``weight`` (a global scalar) and ``sample_weight`` (broadcast against the element-wise loss).
"""
from __future__ import annotations

from typing import Any

from cellonnx import ops
from cellonnx.gluon.hybrid import HybridBlock
from cellonnx.tensor import Tensor

__all__ = ["L1Loss", "L2Loss", "Loss", "SigmoidBCELoss", "SigmoidBinaryCrossEntropyLoss", "SoftmaxCELoss",
           "SoftmaxCrossEntropyLoss"]


def _apply_weighting(loss: Tensor, weight: float | None = None, sample_weight: Any = None) -> Tensor:
    if sample_weight is not None:
        loss = ops.mul(loss, sample_weight)
    if weight is not None:
        if not isinstance(weight, (int, float)):
            raise TypeError(f"loss weight must be a number, got {type(weight).__name__}")
        loss = ops.mul(loss, float(weight))
    return loss


def _reshape_like(x: Any, like: Tensor) -> Tensor:
    x = x if isinstance(x, Tensor) else Tensor(x, like.dtype)
    return ops.reshape(x, like.shape) if tuple(x.shape) != tuple(like.shape) else x


class Loss(HybridBlock):
    """Base class of losses.

    Args:
        weight: global scalar weight, or None.
        batch_axis: the mini-batch axis. Default: 0.
    """

    def __init__(self, weight: float | None, batch_axis: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._weight = weight
        self._batch_axis = batch_axis

    def _batch_mean(self, loss: Tensor) -> Tensor:
        axis = self._batch_axis % loss.ndim if loss.ndim else 0
        axes = tuple(i for i in range(loss.ndim) if i != axis)
        return ops.mean(loss, axes) if axes else loss

    def __repr__(self) -> str:
        return f"{type(self).__name__}(batch_axis={self._batch_axis}, w={self._weight})"


class L2Loss(Loss):
    r"""Half the squared error, :math:`L = \frac{1}{2} \sum_i (label_i - pred_i)^2` (mean over the non-batch
    axes).

    Args:
        weight: Default: 1.0.
        batch_axis: Default: 0.

    Inputs:
        pred, label (same number of elements), sample_weight (optional, broadcastable to pred).

    Outputs:
        (batch_size,).
    """

    def __init__(self, weight: float = 1.0, batch_axis: int = 0, **kwargs: Any) -> None:
        super().__init__(weight, batch_axis, **kwargs)

    def forward(self, pred: Tensor, label: Any, sample_weight: Any = None) -> Tensor:
        label = _reshape_like(label, pred)
        loss = ops.square(ops.sub(label, pred))
        loss = _apply_weighting(loss, None if self._weight is None else self._weight / 2, sample_weight)
        return self._batch_mean(loss)


class L1Loss(Loss):
    r"""Absolute error, :math:`L = \sum_i |label_i - pred_i|` (mean over the non-batch axes).

    Args:
        weight: Default: None.
        batch_axis: Default: 0.
    """

    def __init__(self, weight: float | None = None, batch_axis: int = 0, **kwargs: Any) -> None:
        super().__init__(weight, batch_axis, **kwargs)

    def forward(self, pred: Tensor, label: Any, sample_weight: Any = None) -> Tensor:
        label = _reshape_like(label, pred)
        loss = _apply_weighting(ops.abs(ops.sub(label, pred)), self._weight, sample_weight)
        return self._batch_mean(loss)


class SigmoidBinaryCrossEntropyLoss(Loss):
    r"""Binary cross entropy, on logits (``from_sigmoid=False``, with the stable form
    :math:`\max(x, 0) - x z + \log(1 + e^{-|x|})`) or on probabilities (``from_sigmoid=True``, with 1e-12
    inside the logs).

    Args:
        from_sigmoid: ``pred`` holds probabilities. Default: False.
        weight: Default: None.
        batch_axis: Default: 0.

    Inputs:
        pred, label, sample_weight (optional), pos_weight (optional: weight of the positive class,
        broadcastable to label).
    """

    def __init__(self, from_sigmoid: bool = False, weight: float | None = None, batch_axis: int = 0,
                 **kwargs: Any) -> None:
        super().__init__(weight, batch_axis, **kwargs)
        self._from_sigmoid = from_sigmoid

    def forward(self, pred: Tensor, label: Any, sample_weight: Any = None, pos_weight: Any = None) -> Tensor:
        label = _reshape_like(label, pred)
        if not self._from_sigmoid:
            softrelu = ops.softplus(ops.neg(ops.abs(pred)))
            if pos_weight is None:
                loss = ops.add(ops.sub(ops.relu(pred), ops.mul(pred, label)), softrelu)
            else:
                log_weight = ops.add(ops.mul(ops.sub(pos_weight, 1.0), label), 1.0)
                loss = ops.add(ops.sub(pred, ops.mul(pred, label)),
                               ops.mul(log_weight, ops.add(softrelu, ops.relu(ops.neg(pred)))))
        else:
            eps = 1e-12
            pos = ops.mul(ops.log(ops.add(pred, eps)), label)
            if pos_weight is not None:
                pos = ops.mul(pos, pos_weight)
            neg = ops.mul(ops.log(ops.add(ops.sub(1.0, pred), eps)), ops.sub(1.0, label))
            loss = ops.neg(ops.add(pos, neg))
        return self._batch_mean(_apply_weighting(loss, self._weight, sample_weight))


SigmoidBCELoss = SigmoidBinaryCrossEntropyLoss


class SoftmaxCrossEntropyLoss(Loss):
    r"""Softmax cross entropy: :math:`-\log softmax(pred)_{label}` with integer (or float) class labels
    (``sparse_label=True``), or :math:`-\sum_c label_c \log softmax(pred)_c` with label distributions.

    Args:
        axis: the class axis. Default: -1.
        sparse_label: labels are class indices (clipped to the class range, as MXNet's pick). Default: True.
        from_logits: ``pred`` already holds log-probabilities. Default: False.
        weight: Default: None.
        batch_axis: Default: 0.
    """

    def __init__(self, axis: int = -1, sparse_label: bool = True, from_logits: bool = False,
                 weight: float | None = None, batch_axis: int = 0, **kwargs: Any) -> None:
        super().__init__(weight, batch_axis, **kwargs)
        self._axis = axis
        self._sparse_label = sparse_label
        self._from_logits = from_logits

    def forward(self, pred: Tensor, label: Any, sample_weight: Any = None) -> Tensor:
        axis = self._axis % pred.ndim
        if not self._from_logits:
            pred = ops.log_softmax(pred, axis)
        if self._sparse_label:
            idx = label if isinstance(label, Tensor) else Tensor(label)
            last = ops.cast(Tensor(pred.shape[axis] - 1), "int64")  # a dynamic class count: read at run time
            idx = ops.minimum(ops.maximum(ops.cast(idx, "int64"), 0), last)
            if idx.ndim == pred.ndim - 1:
                idx = ops.expand_dims(idx, axis)
            loss = ops.neg(ops.gather_elements(pred, axis, idx))
        else:
            label = _reshape_like(label, pred)
            loss = ops.neg(ops.sum(ops.mul(pred, label), axis, keepdim=True))
        return self._batch_mean(_apply_weighting(loss, self._weight, sample_weight))


SoftmaxCELoss = SoftmaxCrossEntropyLoss


from cellonnx.gluon import loss_extra  # noqa: E402
from cellonnx.gluon.loss_extra import *  # noqa: E402,F403

__all__ += loss_extra.__all__
