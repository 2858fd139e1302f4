"""Margin and embedding loss cells (MindSpore 2.10's classes, defaults and argument checks) over the
functional losses of ``cellonnx.ops``."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cellonnx import ops
from cellonnx.nn.loss.loss import LossBase, _check_tensor
from cellonnx.ops.composite.loss_margin import _multi_margin
from cellonnx.tensor import Tensor

__all__ = ["CosineEmbeddingLoss", "HingeEmbeddingLoss", "MarginRankingLoss", "MultiLabelSoftMarginLoss",
           "MultiMarginLoss", "MultilabelMarginLoss", "SoftMarginLoss", "TripletMarginLoss",
           "TripletMarginWithDistanceLoss"]


class MarginRankingLoss(LossBase):
    r"""Ranking loss :math:`\max(0, -y (x_1 - x_2) + \text{margin})` for targets :math:`y` of 1 or -1.

    Args:
        margin (float): Default: ``0.0``.
        reduction (str): ``'none'``, ``'mean'`` or ``'sum'``. Default: ``'mean'``.

    Inputs:
        - **input1** (Tensor) - :math:`(N, *)`.
        - **input2** (Tensor) - the shape and dtype of ``input1``.
        - **target** (Tensor) - 1 or -1, the shape and dtype of ``input1``.

    Examples:
        >>> loss = nn.MarginRankingLoss(margin=0.2)
    """

    def __init__(self, margin: float = 0.0, reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.margin = margin

    def construct(self, input1: Tensor, input2: Tensor, target: Tensor) -> Tensor:
        return ops.margin_ranking_loss(input1, input2, target, self.margin, self.reduction)


class SoftMarginLoss(LossBase):
    r"""Two-class logistic loss :math:`\log(1 + \exp(-y x))` for targets of 1 or -1.

    Args:
        reduction (str): ``'none'``, ``'mean'`` or ``'sum'``. Default: ``'mean'``.

    Inputs:
        - **logits** (Tensor) - any shape.
        - **labels** (Tensor) - 1 or -1, the shape of ``logits``.

    Examples:
        >>> loss = nn.SoftMarginLoss()
    """

    def __init__(self, reduction: str = "mean") -> None:
        super().__init__()
        self.reduction = reduction

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        return ops.soft_margin_loss(logits, labels, self.reduction)


class CosineEmbeddingLoss(LossBase):
    r"""Cosine similarity loss: :math:`1 - \cos(x_1, x_2)` where the label is 1,
    :math:`\max(0, \cos(x_1, x_2) - \text{margin})` where it is -1 (the cosine along axis 1).

    Args:
        margin (float): in [-1.0, 1.0]. Default: ``0.0``.
        reduction (str): ``'none'``, ``'mean'`` or ``'sum'``. Default: ``'mean'``.

    Inputs:
        - **logits_x1** (Tensor) - :math:`(N, *)`.
        - **logits_x2** (Tensor) - the shape and dtype of ``logits_x1``.
        - **labels** (Tensor) - 1 or -1, the shape of ``logits_x1`` without axis 1.

    Examples:
        >>> loss = nn.CosineEmbeddingLoss(margin=0.1)
    """

    def __init__(self, margin: float = 0.0, reduction: str = "mean") -> None:
        super().__init__(reduction)
        if not isinstance(margin, float):
            raise TypeError(f"For '{self.cls_name}', the type of 'margin' must be float, but got "
                            f"{type(margin).__name__}.")
        if not -1.0 <= margin <= 1.0:
            raise ValueError(f"For '{self.cls_name}', the 'margin' must be in range [-1.0, 1.0], but got "
                             f"{margin}.")
        self.margin = margin

    def construct(self, logits_x1: Tensor, logits_x2: Tensor, labels: Tensor) -> Tensor:
        for name, v in (("logits_x1", logits_x1), ("logits_x2", logits_x2), ("labels", labels)):
            _check_tensor(name, v, self.cls_name)
        if logits_x1.shape != logits_x2.shape or logits_x1.dtype != logits_x2.dtype:
            raise TypeError(f"For '{self.cls_name}', 'logits_x1' and 'logits_x2' must have the same shape "
                            f"and dtype, but got {logits_x1.shape} {logits_x1.dtype} and {logits_x2.shape} "
                            f"{logits_x2.dtype}.")
        prod = ops.sum(ops.mul(logits_x1, logits_x2), 1)
        norm1 = ops.sqrt(ops.sum(ops.square(logits_x1), 1))
        denom = ops.mul(norm1, ops.sqrt(ops.sum(ops.square(logits_x2), 1)))
        cosine = ops.div(prod, denom)
        zeros = ops.zeros_like(cosine)
        pos = ops.where(ops.equal(labels, 1), ops.sub(1.0, cosine), zeros)
        neg = ops.where(ops.equal(labels, -1), ops.maximum(ops.sub(cosine, self.margin), 0.0), zeros)
        return self.get_loss(ops.add(pos, neg))


class HingeEmbeddingLoss(LossBase):
    r"""Hinge embedding loss: :math:`x` where the target is 1, :math:`\max(0, \text{margin} - x)` where it
    is -1.

    Args:
        margin (Union[float, int]): Default: ``1.0``.
        reduction (str): ``'none'``, ``'mean'`` or ``'sum'``. Default: ``'mean'``.

    Inputs:
        - **logits** (Tensor) - float, any shape.
        - **labels** (Tensor) - float 1 / -1, broadcastable with ``logits``.

    Examples:
        >>> loss = nn.HingeEmbeddingLoss(margin=2.0)
    """

    def __init__(self, margin: float = 1.0, reduction: str = "mean") -> None:
        super().__init__()
        if not isinstance(margin, (float, int)) or isinstance(margin, bool):
            raise TypeError(f"For '{self.cls_name}', the 'margin' must be float or int, but got "
                            f"{type(margin).__name__}.")
        if reduction not in ("none", "sum", "mean"):
            raise ValueError(f"For '{self.cls_name}', the 'reduction' must be in ['none', 'sum', 'mean'], "
                             f"but got {reduction}.")
        self.margin = margin
        self.reduction = reduction

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        return ops.hinge_embedding_loss(logits, labels, self.margin, self.reduction)


class MultiMarginLoss(LossBase):
    r"""Multi-class hinge loss of scores :math:`(N, C)` against class indices :math:`(N,)`:
    :math:`\frac{1}{C}\sum_{i \ne y} w_y \max(0, \text{margin} - x_y + x_i)^p`.

    Args:
        p (int): 1 or 2. Default: ``1``.
        margin (float): Default: ``1.0``.
        reduction (str): ``'none'``, ``'mean'`` or ``'sum'``. Default: ``'mean'``.
        weight (Tensor, optional): :math:`(C,)` weight of each target class; it takes precedence over the one
            given to ``construct``. Default: ``None``.

    Inputs:
        - **x** (Tensor) - :math:`(N, C)`.
        - **target** (Tensor) - :math:`(N,)` int class indices.
        - **weight** (Tensor, optional) - :math:`(C,)`. Default: ``None`` (all ones).

    Examples:
        >>> loss = nn.MultiMarginLoss(p=2, margin=0.5)
    """

    def __init__(self, p: int = 1, margin: float = 1.0, reduction: str = "mean",
                 weight: Tensor | None = None) -> None:
        super().__init__()
        if not isinstance(p, int) or isinstance(p, bool):
            raise TypeError(f"For 'MultiMarginLoss', the 'p' must be int, but got {type(p).__name__}.")
        if p not in (1, 2):
            raise ValueError(f"For 'MultiMarginLoss', the 'p' must be in {{1, 2}}, but got {p}.")
        if not isinstance(margin, float):
            raise TypeError("For 'MultiMarginLoss', the 'margin' must be float, but got "
                            f"{type(margin).__name__}.")
        if reduction not in ("none", "sum", "mean"):
            raise ValueError("For 'MultiMarginLoss', the 'reduction' must be in ['none', 'sum', 'mean'], "
                             f"but got {reduction}.")
        self.p = p
        self.margin = margin
        self.reduction = reduction
        self.weight = weight

    def construct(self, x: Tensor, target: Tensor, weight: Tensor | None = None) -> Tensor:
        _check_tensor("x", x, self.cls_name)
        _check_tensor("target", target, self.cls_name)
        if self.weight is not None:
            weight = self.weight
        if weight is not None:
            _check_tensor("weight", weight, self.cls_name)
        return _multi_margin(x, target, self.p, self.margin, weight, self.reduction, "MultiMarginLoss")


class MultilabelMarginLoss(LossBase):
    r"""Multi-label hinge loss; each row of the target lists the sample's classes, ended by the first -1.

    Args:
        reduction (str): ``'none'``, ``'mean'`` or ``'sum'``. Default: ``'mean'``.

    Inputs:
        - **x** (Tensor) - :math:`(C)` or :math:`(N, C)`.
        - **target** (Tensor) - int, the shape of ``x``: class indices padded with -1.

    Examples:
        >>> loss = nn.MultilabelMarginLoss()
    """

    def __init__(self, reduction: str = "mean") -> None:
        super().__init__()
        if reduction not in ("none", "sum", "mean"):
            raise ValueError("For 'MultilabelMarginLoss', the 'reduction' must be in ['none', 'sum', "
                             f"'mean'], but got {reduction}.")
        self.reduction = reduction

    def construct(self, x: Tensor, target: Tensor) -> Tensor:
        return ops.multilabel_margin_loss(x, target, self.reduction)


class MultiLabelSoftMarginLoss(LossBase):
    r"""Multi-label one-versus-all logistic loss, averaged over the classes.

    Args:
        weight (Union[Tensor, int, float]): weight of each class. Default: ``None``.
        reduction (str): ``'none'``, ``'mean'`` or ``'sum'``. Default: ``'mean'``.

    Inputs:
        - **x** (Tensor) - :math:`(N, C)`.
        - **target** (Tensor) - 0 / 1 labels, the shape of ``x``.

    Examples:
        >>> loss = nn.MultiLabelSoftMarginLoss(reduction='sum')
    """

    def __init__(self, weight: Any = None, reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.weight = weight

    def construct(self, x: Tensor, target: Tensor) -> Tensor:
        return ops.multilabel_soft_margin_loss(x, target, self.weight, self.reduction)


class TripletMarginLoss(LossBase):
    r"""Triplet loss :math:`\max(d(a, p) - d(a, n) + \text{margin}, 0)` with the p-norm distance along axis 1
    (see :func:`cellonnx.ops.triplet_margin_loss`).

    Args:
        p (int): Default: ``2``.
        swap (bool): Default: ``False``.
        eps (float): Default: ``1e-06``.
        reduction (str): ``'none'``, ``'mean'`` or ``'sum'``. Default: ``'mean'``.
        margin (Union[float, Tensor]): used unless it is 1.0, then the ``margin`` given to ``construct``.
            Default: ``1.0``.

    Inputs:
        - **x** (Tensor) - the anchors, :math:`(N, *)`.
        - **positive** (Tensor) - broadcastable with ``x``.
        - **negative** (Tensor) - broadcastable with ``x``.
        - **margin** (Union[float, Tensor]) - Default: ``1.0``.

    Examples:
        >>> loss = nn.TripletMarginLoss(margin=0.5)
    """

    def __init__(self, p: int = 2, swap: bool = False, eps: float = 1e-06, reduction: str = "mean",
                 margin: Any = 1.) -> None:
        super().__init__()
        self.p = p
        self.swap = swap
        self.eps = eps
        self.reduction = reduction
        self.margin = margin

    def construct(self, x: Tensor, positive: Tensor, negative: Tensor, margin: Any = 1.) -> Tensor:
        if isinstance(self.margin, Tensor) or self.margin != 1.0:
            margin = self.margin
        return ops.triplet_margin_loss(x, positive, negative, margin=margin, p=self.p, eps=self.eps,
                                       swap=self.swap, reduction=self.reduction)


def _pairwise_distance(x: Tensor, y: Tensor) -> Tensor:
    d = ops.abs(ops.sub(x, y))
    if d.ndim == 0:
        raise ValueError("For 'pairwise_distance' in 'TripletMarginWithDistanceLoss', 'ndim' of the input "
                         f"must be positive, but got {d.ndim}")
    return ops.sqrt(ops.sum(ops.square(d), 1))


class TripletMarginWithDistanceLoss(LossBase):
    r"""Triplet loss :math:`\max(d(a, p) - d(a, n) + \text{margin}, 0)` with any distance function.

    Args:
        distance_function (Callable, optional): ``f(x, y)`` -> distances. Default: ``None``, the Euclidean
            norm of :math:`|x - y|` along axis 1.
        swap (bool): use :math:`\min(d(a, n), d(p, n))` for the negative distance. Default: ``False``.
        reduction (str): ``'none'``, ``'mean'`` or ``'sum'``. Default: ``'mean'``.
        margin (float): Default: ``1.0``.

    Inputs:
        - **x** (Tensor) - the anchors.
        - **positive** (Tensor) - positive examples.
        - **negative** (Tensor) - negative examples.

    Examples:
        >>> loss = nn.TripletMarginWithDistanceLoss(margin=0.5, swap=True)
    """

    def __init__(self, distance_function: Callable[[Tensor, Tensor], Tensor] | None = None,
                 swap: bool = False, reduction: str = "mean", margin: float = 1.0) -> None:
        super().__init__(reduction=reduction)
        if not isinstance(margin, float):
            raise TypeError(f"For '{self.cls_name}', the type of 'margin' must be float, but got "
                            f"{type(margin).__name__}.")
        if not isinstance(swap, bool):
            raise TypeError(f"For '{self.cls_name}', the type of 'swap' must be bool, but got "
                            f"{type(swap).__name__}.")
        self.distance_function = _pairwise_distance if distance_function is None else distance_function
        self.swap = swap
        self.reduction = reduction
        self.margin = margin

    def construct(self, x: Tensor, positive: Tensor, negative: Tensor) -> Tensor:
        for name, v in (("x", x), ("positive", positive), ("negative", negative)):
            _check_tensor(name, v, self.cls_name)
        d1 = self.distance_function(x, positive)
        d2 = self.distance_function(x, negative)
        if self.swap:
            d2 = ops.minimum(d2, self.distance_function(positive, negative))
        return self.get_loss(ops.maximum(ops.add(ops.sub(d1, d2), self.margin), 0.0))
