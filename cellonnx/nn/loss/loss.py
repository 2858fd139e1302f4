"""Loss cells over the functional losses (``cellonnx.ops``), with MindSpore's defaults."""
from __future__ import annotations

from typing import Any

from cellonnx import dtypes, ops
from cellonnx.nn.cell import Cell
from cellonnx.tensor import Parameter, Tensor

__all__ = ["BCELoss", "BCEWithLogitsLoss", "CrossEntropyLoss", "L1Loss", "LossBase", "MSELoss", "NLLLoss",
           "SmoothL1Loss", "SoftmaxCrossEntropyExpand", "SoftmaxCrossEntropyWithLogits"]

_REDUCTIONS = ("mean", "sum", "none")


def _check_tensor(name: str, value: Any, owner: str) -> None:
    if not isinstance(value, Tensor):
        raise TypeError(f"For '{owner}', the '{name}' must be a Tensor, but got {type(value).__name__}.")


class LossBase(Cell):
    """Base class of losses: ``get_loss(x, weights)`` weights an elementwise loss and reduces it.

    Args:
        reduction: 'mean', 'sum' or 'none'. Default: 'mean'.

    Examples:
        >>> class MyLoss(nn.LossBase):
        ...     def construct(self, logits, labels):
        ...         return self.get_loss(ops.abs(logits - labels))
    """

    def __init__(self, reduction: str = "mean") -> None:
        super().__init__()
        if reduction not in _REDUCTIONS:
            raise ValueError(f"For '{self.cls_name}', the 'reduction' must be in ['mean', 'sum', 'none'], but got "
                             f"{reduction}.")
        self.reduction = reduction
        self.average = reduction != "sum"
        self.reduce = reduction != "none"

    def get_axis(self, x: Tensor) -> tuple[int, ...]:
        """Every axis of ``x``."""
        return tuple(range(x.ndim))

    def get_loss(self, x: Tensor, weights: Any = 1.0) -> Tensor:
        """``weights * x`` (computed in float32) reduced by this loss's reduction, in ``x``'s dtype.

        Args:
            x: the elementwise loss.
            weights: a number or a tensor broadcastable to ``x``. Default: 1.0.
        """
        dt = x.dtype
        x = ops.cast(x, dtypes.float32)
        w = ops.cast(weights, dtypes.float32) if isinstance(weights, Tensor) else Tensor(weights, dtypes.float32)
        x = ops.mul(w, x)
        if self.reduce and self.average:
            x = ops.mean(x, self.get_axis(x))
        elif self.reduce:
            x = ops.sum(x, self.get_axis(x))
        return ops.cast(x, dt)

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        raise NotImplementedError(f"{self.cls_name}: a loss must define construct(logits, labels)")


class L1Loss(LossBase):
    """|logits - labels|, reduced ('mean' by default).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> loss = nn.L1Loss()
        >>> logits = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> labels = Tensor(np.array([1.0, 1.0, 1.0]), ms.float32)
        >>> print(loss(logits, labels))
        1.0
    """

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        return ops.l1_loss(logits, labels, self.reduction)


class MSELoss(LossBase):
    """(logits - labels)^2, reduced ('mean' by default).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> loss = nn.MSELoss()
        >>> logits = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> labels = Tensor(np.array([1.0, 1.0, 1.0]), ms.float32)
        >>> print(loss(logits, labels))
        1.6666666
        >>> print(nn.MSELoss(reduction='none')(logits, labels))
        [0. 1. 4.]
    """

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        _check_tensor("logits", logits, self.cls_name)
        _check_tensor("labels", labels, self.cls_name)
        return self.get_loss(ops.square(ops.sub(logits, labels)))


class SmoothL1Loss(LossBase):
    r"""0.5 d^2 / beta where |d| < beta, |d| - 0.5 beta elsewhere (d = logits - labels).

    Args:
        beta: the threshold. Default: 1.0.
        reduction: Default: 'none' (MindSpore's default for this loss).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> loss = nn.SmoothL1Loss(beta=1.0)
        >>> logits = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> labels = Tensor(np.array([1.0, 2.5, 1.0]), ms.float32)
        >>> print(loss(logits, labels))
        [0.    0.125 1.5  ]
    """

    def __init__(self, beta: float = 1.0, reduction: str = "none") -> None:
        super().__init__(reduction)
        self.beta = beta

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        return ops.smooth_l1_loss(logits, labels, self.beta, self.reduction)


def _softmax_cross_entropy(logits: Tensor, labels: Tensor) -> Tensor:
    """Per-sample -sum(labels * log_softmax(logits)) over the last axis."""
    return ops.neg(ops.sum(ops.mul(labels, ops.log_softmax(logits, -1)), -1))


class SoftmaxCrossEntropyWithLogits(LossBase):
    r"""Cross entropy of softmax(logits) against labels: :math:`-\sum_j y_j \log \mathrm{softmax}(x)_j`
    per sample.

    Args:
        sparse: labels are class indices (N,) instead of (N, C) distributions. Default: False.
        reduction: Default: 'none' (a (N,) loss).

    Keyword Args:
        is_grad (bool): MindSpore 0.x's graph-mode flag (whether the loss's gradient is taken); accepted, and
            without effect, as in MindSpore 1.x and later, which dropped it.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')
        >>> logits = Tensor(np.array([[2.0, 1.0, 0.1], [0.5, 2.5, 0.3]]), ms.float32)
        >>> labels = Tensor(np.array([0, 1]), ms.int32)
        >>> print(loss(logits, labels).asnumpy().round(4))
        0.3185
    """

    def __init__(self, sparse: bool = False, reduction: str = "none", *, is_grad: bool = True) -> None:
        super().__init__(reduction)
        if not isinstance(sparse, bool):
            raise TypeError(f"For '{self.cls_name}', the 'sparse' must be bool, but got {type(sparse).__name__}.")
        self.sparse = sparse

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        _check_tensor("logits", logits, self.cls_name)
        _check_tensor("labels", labels, self.cls_name)
        if logits.ndim != 2:
            raise ValueError(f"For '{self.cls_name}', the dimension of logits must be equal to 2 (batch_size, "
                             f"num_classes), but got logits of shape {tuple(logits.shape)}.")
        if self.sparse:
            if self.reduction == "mean":
                return ops.cross_entropy(logits, labels, reduction="mean")
            labels = ops.one_hot(labels, logits.shape[-1], Tensor(1.0, dtypes.float32), Tensor(0.0, dtypes.float32))
        labels = ops.cast(labels, logits.dtype) if labels.dtype != logits.dtype else labels
        # MindSpore's SoftmaxCrossEntropyWithLogits primitive gives the labels a zero gradient
        return self.get_loss(_softmax_cross_entropy(logits, ops.stop_gradient(labels)))


class SoftmaxCrossEntropyExpand(Cell):
    r"""Softmax cross entropy written out step by step (max-shifted softmax, log with a 1e-24 guard), the
    per-sample losses averaged: :math:`\mathrm{mean}_i(-\sum_j y_{ij} \log(\mathrm{softmax}(x_i)_j + 10^{-24}))`.
    (In MindSpore 1.x's nn; MindSpore 2.x no longer ships it.)

    Args:
        sparse: labels are class indices. Default: False.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, nn
        >>> loss = nn.SoftmaxCrossEntropyExpand(sparse=True)
        >>> logits = Tensor(np.array([[0.0, 0.0], [2.0, 0.0]]), ms.float32)
        >>> labels = Tensor(np.array([0, 0]), ms.int32)
        >>> print(loss(logits, labels).asnumpy().round(4))
        0.41
    """

    def __init__(self, sparse: bool = False) -> None:
        super().__init__()
        self.sparse = sparse

    def construct(self, logit: Tensor, label: Tensor) -> Tensor:
        shifted = ops.sub(logit, ops.amax(logit, -1, True))
        e = ops.exp(shifted)
        softmax = ops.div(e, ops.sum(e, -1, keepdim=True))
        if self.sparse:
            label = ops.one_hot(label, logit.shape[1], Tensor(1.0, dtypes.float32), Tensor(0.0, dtypes.float32))
        log_sm = ops.log(ops.add(softmax, Tensor(1e-24, softmax.dtype)))
        loss = ops.neg(ops.sum(ops.mul(log_sm, ops.cast(label, log_sm.dtype)), -1))
        return ops.mean(loss, -1)


class CrossEntropyLoss(LossBase):
    """Cross entropy of logits (N, C[, d...]) against class indices or class probabilities.

    Args:
        weight: per-class weights (C,). Default: None.
        ignore_index: label ignored in the loss and its mean. Default: -100.
        reduction: Default: 'mean'.
        label_smoothing: in [0, 1]. Default: 0.0.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> loss = nn.CrossEntropyLoss()
        >>> logits = Tensor(np.array([[2.0, 1.0, 0.1], [0.5, 2.5, 0.3]]), ms.float32)
        >>> labels = Tensor(np.array([0, 1]), ms.int32)
        >>> print(loss(logits, labels).asnumpy().round(4))
        0.3185
    """

    def __init__(self, weight: Tensor | None = None, ignore_index: int = -100, reduction: str = "mean",
                 label_smoothing: float = 0.0) -> None:
        super().__init__(reduction)
        if not isinstance(ignore_index, int):
            raise TypeError(f"For '{self.cls_name}', the 'ignore_index' must be int, but got "
                            f"{type(ignore_index).__name__}.")
        if not isinstance(label_smoothing, float) or not 0.0 <= label_smoothing <= 1.0:
            raise ValueError(f"For '{self.cls_name}', the 'label_smoothing' must be a float in [0.0, 1.0], but got "
                             f"{label_smoothing!r}.")
        if weight is not None and not isinstance(weight, Tensor):
            raise TypeError(f"For '{self.cls_name}', the 'weight' must be a Tensor, but got {type(weight).__name__}.")
        self.weight = weight
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        _check_tensor("logits", logits, self.cls_name)
        _check_tensor("labels", labels, self.cls_name)
        return ops.cross_entropy(logits, labels, self.weight, self.ignore_index, self.reduction,
                                 self.label_smoothing)


class NLLLoss(LossBase):
    """Negative log likelihood of log-probabilities (N, C[, d...]) at class indices.

    Args:
        weight: per-class weights (C,). Default: None.
        ignore_index: Default: -100.
        reduction: Default: 'mean'.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> loss = nn.NLLLoss()
        >>> log_probs = Tensor(np.log(np.array([[0.7, 0.2, 0.1], [0.1, 0.8, 0.1]])), ms.float32)
        >>> labels = Tensor(np.array([0, 1]), ms.int32)
        >>> print(loss(log_probs, labels).asnumpy().round(4))
        0.2899
    """

    def __init__(self, weight: Tensor | None = None, ignore_index: int = -100, reduction: str = "mean") -> None:
        super().__init__(reduction)
        if not isinstance(ignore_index, int):
            raise TypeError(f"For '{self.cls_name}', the 'ignore_index' must be int, but got "
                            f"{type(ignore_index).__name__}.")
        if weight is not None and not isinstance(weight, Tensor):
            raise TypeError(f"For '{self.cls_name}', the 'weight' must be a Tensor, but got {type(weight).__name__}.")
        self.weight = weight
        self.ignore_index = ignore_index

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        return ops.nll_loss(logits, labels, self.weight, self.ignore_index, self.reduction)


class BCELoss(LossBase):
    """Binary cross entropy of probabilities against targets in [0, 1].

    Args:
        weight: rescales each element's loss. Default: None.
        reduction: Default: 'mean'.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> loss = nn.BCELoss(reduction='mean')
        >>> probs = Tensor(np.array([0.9, 0.2, 0.6]), ms.float32)
        >>> labels = Tensor(np.array([1.0, 0.0, 1.0]), ms.float32)
        >>> print(loss(probs, labels).asnumpy().round(4))
        0.2798
    """

    def __init__(self, weight: Tensor | None = None, reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.weight = weight

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        return ops.binary_cross_entropy(logits, labels, self.weight, self.reduction)


class BCEWithLogitsLoss(LossBase):
    """Binary cross entropy of sigmoid(logits), computed stably from the logits.

    Args:
        reduction: Default: 'mean'.
        weight: rescales each element's loss. Default: None.
        pos_weight: weight of the positive examples, per class. Default: None.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> loss = nn.BCEWithLogitsLoss()
        >>> logits = Tensor(np.array([[2.0, -1.0], [0.5, 0.0]]), ms.float32)
        >>> labels = Tensor(np.array([[1.0, 0.0], [0.0, 1.0]]), ms.float32)
        >>> print(loss(logits, labels).asnumpy().round(4))
        0.5269
    """

    def __init__(self, reduction: str = "mean", weight: Tensor | None = None, pos_weight: Tensor | None = None) -> None:
        super().__init__(reduction)
        for name, v in (("weight", weight), ("pos_weight", pos_weight)):
            if isinstance(v, Parameter):
                raise TypeError(f"For '{self.cls_name}', the '{name}' can not be a Parameter.")
        self.weight = weight
        self.pos_weight = pos_weight

    def construct(self, input: Tensor, target: Tensor) -> Tensor:
        _check_tensor("input", input, self.cls_name)
        _check_tensor("target", target, self.cls_name)
        return ops.binary_cross_entropy_with_logits(input, target, self.weight, self.pos_weight, self.reduction)
