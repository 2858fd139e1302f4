"""Margin and embedding losses with MindSpore 2.10's names, signatures and reduction rules (margin ranking,
cosine / hinge embedding, multi-class and multi-label margins, triplet margin), written over primitives."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import ops as _ops
from cellonnx.graph.symint import sym_broadcast_shapes
from cellonnx.ops.composite.loss import _check_reduction, _shape
from cellonnx.ops.prims._util import is_float_dtype
from cellonnx.tensor import Tensor

F: Any = _ops  # the functional API; its names are filled in at import time, so typed loosely

__all__ = ["cosine_embedding_loss", "hinge_embedding_loss", "margin_ranking_loss", "multi_margin_loss",
           "multilabel_margin_loss", "multilabel_soft_margin_loss", "triplet_margin_loss"]

_HALF = (np.dtype(np.float16),)


def _tensor(x: Any, name: str, arg: str) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{name}', the '{arg}' must be a Tensor, but got {type(x).__name__}.")
    return x


def _same_dtype(a: Tensor, b: Tensor, name: str, an: str, bn: str) -> None:
    if a._data.dtype != b._data.dtype:
        raise TypeError(f"For '{name}', the dtype of '{an}' ({a.dtype}) and '{bn}' ({b.dtype}) must be the "
                        "same.")


def get_loss(x: Tensor, reduction: str, name: str) -> Tensor:
    """MindSpore's loss reduction: 'mean' / 'sum' over every element, computed at least in float32 (a float16
    loss is reduced in float32 and cast back), 'none' keeps the elementwise loss."""
    _check_reduction(reduction, name)
    if reduction == "none":
        return x
    dt = x._data.dtype
    y = F.cast(x, np.float32) if dt in _HALF or not is_float_dtype(dt) else x
    y = F.mean(y) if reduction == "mean" else F.sum(y)
    return F.cast(y, dt) if y._data.dtype != dt else y


def margin_ranking_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0,
                        reduction: str = "mean") -> Tensor:
    r"""Ranking loss of two inputs against targets of 1 (``input1`` should rank higher) or -1.

    .. math::
        \text{loss} = \max(0, -\text{target} \cdot (\text{input1} - \text{input2}) + \text{margin})

    Args:
        input1 (Tensor): :math:`(N, *)`.
        input2 (Tensor): the shape and dtype of ``input1``.
        target (Tensor): 1 or -1, the shape and dtype of ``input1``.
        margin (float): Default: ``0.0``.
        reduction (str): ``'none'``, ``'mean'`` or ``'sum'``. Default: ``'mean'``.

    Returns:
        Tensor: the input's shape for ``'none'``, else 0-d.

    Raises:
        TypeError: ``margin`` is not a float, an input is not a Tensor or the dtypes differ.

    Examples:
        >>> x1 = Tensor(np.array([0.3, -1.2, 0.5], np.float32))
        >>> x2 = Tensor(np.array([0.1, 0.4, -0.2], np.float32))
        >>> print(ops.margin_ranking_loss(x1, x2, Tensor(np.array([1, -1, -1], np.float32))))
        0.2333...
    """
    name = "margin_ranking_loss"
    if not isinstance(margin, float):
        raise TypeError(f"For '{name}', the 'margin' must be a float, but got {type(margin).__name__}.")
    for arg, v in (("input1", input1), ("input2", input2), ("target", target)):
        _tensor(v, name, arg)
    _same_dtype(input1, input2, name, "input1", "input2")
    _same_dtype(target, input1, name, "target", "input1")
    _check_reduction(reduction, name)
    x = F.clamp(F.add(F.mul(F.neg(target), F.sub(input1, input2)), margin), min=0)
    return get_loss(x, reduction, name)


def cosine_embedding_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0,
                          reduction: str = "mean") -> Tensor:
    r"""Similarity loss of two batches of vectors by their cosine along axis 1.

    .. math::
        \text{loss}(x_1, x_2, y) = \begin{cases} 1 - \cos(x_1, x_2), & y = 1 \\
        \max(0, \cos(x_1, x_2) - \text{margin}), & y = -1 \end{cases}

    (0 for any other target value).

    Args:
        input1 (Tensor): :math:`(N, D, *)`; int inputs are cast to float32.
        input2 (Tensor): the shape and dtype of ``input1``.
        target (Tensor): 1 or -1, the shape of ``input1`` without axis 1.
        margin (float): in [-1, 1]; an int is taken as a float. Default: ``0.0``.
        reduction (str): ``'none'``, ``'mean'`` or ``'sum'``. Default: ``'mean'``.

    Returns:
        Tensor: the target's shape for ``'none'``, else 0-d.

    Examples:
        >>> x1 = Tensor(np.array([[0.3, 0.8], [0.4, 0.3]], np.float32))
        >>> x2 = Tensor(np.array([[0.4, 1.2], [-0.4, -0.9]], np.float32))
        >>> print(ops.cosine_embedding_loss(x1, x2, Tensor(np.array([1, -1], np.int32))))
        0.000342...
    """
    name = "ops.cosine_embedding_loss"
    for arg, v in (("input1", input1), ("input2", input2), ("target", target)):
        _tensor(v, name, arg)
    _same_dtype(input1, input2, name, "input1", "input2")
    shape = _shape(input1)
    if len(shape) < 2 or shape[:1] + shape[2:] != _shape(target):
        raise ValueError(f"For '{name}', the shape of 'target' must be that of 'input1' {shape} without "
                         f"axis 1, but got {_shape(target)}.")
    if input1._data.dtype.kind in "iu":
        input1, input2 = F.cast(input1, np.float32), F.cast(input2, np.float32)
    margin_f = float(margin) if isinstance(margin, int) and not isinstance(margin, bool) else margin
    if not isinstance(margin_f, float):
        raise TypeError(f"For '{name}', 'margin' must be float, but got {type(margin).__name__}.")
    if not -1.0 <= margin_f <= 1.0:
        raise ValueError(f"For '{name}', the value of 'margin' should be in [-1, 1], but got {margin_f}.")
    _check_reduction(reduction, name)
    prod = F.sum(F.mul(input1, input2), 1)
    denom = F.mul(F.sqrt(F.sum(F.square(input1), 1)), F.sqrt(F.sum(F.square(input2), 1)))
    cosine = F.div(prod, denom)
    zeros = F.zeros_like(cosine)
    pos = F.where(F.equal(target, 1), F.sub(1.0, cosine), zeros)
    neg = F.where(F.equal(target, -1), F.maximum(F.sub(cosine, margin_f), 0.0), zeros)
    return get_loss(F.add(pos, neg), reduction, "cosine_embedding_loss")


def hinge_embedding_loss(inputs: Tensor, targets: Tensor, margin: float = 1.0,
                         reduction: str = "mean") -> Tensor:
    r"""Hinge embedding loss of distances ``inputs`` against targets of 1 or -1.

    .. math::
        l_n = \begin{cases} x_n, & y_n > 0 \\ \max(0, \text{margin} - x_n), & y_n < 0 \end{cases}

    (0 where the target is 0).

    Args:
        inputs (Tensor): float, any shape.
        targets (Tensor): float, broadcastable with ``inputs``.
        margin (Union[float, int]): Default: ``1.0``.
        reduction (str): ``'none'``, ``'mean'`` or ``'sum'``. Default: ``'mean'``.

    Returns:
        Tensor: the broadcast shape for ``'none'``, else 0-d.

    Examples:
        >>> x = Tensor(np.array([0.9, -1.2, 2.0, 0.8], np.float32))
        >>> print(ops.hinge_embedding_loss(x, Tensor(np.array([1, 1, -1, -1], np.float32))))
        -0.0250...
    """
    name = "HingeEmbeddingLoss"
    if not isinstance(margin, (float, int)) or isinstance(margin, bool):
        raise TypeError(f"For '{name}', 'margin' must be a float or int, but got {type(margin).__name__}.")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"For '{name}', 'reduction' must be one of 'none', 'mean', 'sum', but got "
                         f"{reduction}.")
    _tensor(inputs, name, "first input")
    _tensor(targets, name, "second input")
    for which, t in (("first", inputs), ("second", targets)):
        if not is_float_dtype(t._data.dtype):
            raise TypeError(f"For '{name}', the dtype of the {which} input must be float, but got {t.dtype}.")
    dt = inputs._data.dtype
    pos_index = F.cast(F.greater(targets, 0), dt)
    neg_index = F.cast(F.less(targets, 0), dt)
    neg = F.clamp(F.sub(F.mul(neg_index, float(margin)), F.mul(neg_index, inputs)), min=0)
    loss = F.add(F.mul(pos_index, inputs), neg)
    if reduction == "mean":
        return F.mean(loss)
    if reduction == "sum":
        return F.sum(loss)
    return loss


def _class_targets(target: Tensor, n_classes: int, name: str) -> None:
    t = target._data
    if t.dtype.kind not in "iu":
        raise TypeError(f"For '{name}', 'target' must hold int class indices, but got {target.dtype}.")
    if t.size and ((t < 0) | (t >= n_classes)).any():
        raise ValueError(f"For '{name}', the values of 'target' must be in [0, {n_classes}), but got "
                         f"{t[(t < 0) | (t >= n_classes)].reshape(-1)[:5].tolist()}.")


def multi_margin_loss(input: Tensor, target: Tensor, p: int = 1, margin: int = 1,
                      weight: Tensor | None = None, reduction: str = "mean") -> Tensor:
    r"""Multi-class hinge loss of scores ``input`` (N, C) against class indices ``target`` (N,).

    .. math::
        l_n = \frac{1}{C} \sum_{i \ne y_n} w_{y_n} \max(0, \text{margin} - x_{n, y_n} + x_{n, i})^p

    ``'mean'`` is the plain mean over the batch (the class weight is not a normalizer), as MindSpore's kernel.

    Args:
        input (Tensor): :math:`(N, C)` float scores.
        target (Tensor): :math:`(N,)` int class indices in [0, C).
        p (int): 1 or 2. Default: ``1``.
        margin (int): must be an int here (the functional's check; ``nn.MultiMarginLoss`` takes a float).
            Default: ``1``.
        weight (Tensor, optional): :math:`(C,)` weight of each target class. Default: ``None``.
        reduction (str): ``'none'``, ``'mean'`` or ``'sum'``. Default: ``'mean'``.

    Returns:
        Tensor: :math:`(N,)` for ``'none'``, else 0-d.

    Examples:
        >>> x = Tensor(np.ones((3, 3), np.float32))
        >>> print(ops.multi_margin_loss(x, Tensor(np.array([1, 2, 1], np.int64))))
        0.6666...
    """
    if not isinstance(margin, int) or isinstance(margin, bool):
        raise TypeError(f"For 'multi_margin_loss', the type of 'margin' must be int, but got {type(margin)}.")
    return _multi_margin(input, target, p, float(margin), weight, reduction, "MultiMarginLoss")


def _multi_margin(input: Tensor, target: Tensor, p: int, margin: float, weight: Tensor | None, reduction: str,
                  name: str) -> Tensor:
    if not isinstance(p, int) or p not in (1, 2):
        raise ValueError(f"For '{name}', 'p' must be 1 or 2, but got {p!r}.")
    _check_reduction(reduction, name)
    _tensor(input, name, "x")
    _tensor(target, name, "target")
    if input.ndim != 2 or _shape(target) != _shape(input)[:1]:
        raise ValueError(f"For '{name}', 'x' must be (N, C) and 'target' (N,), but got {_shape(input)} and "
                         f"{_shape(target)}.")
    n_classes = _shape(input)[1]
    _class_targets(target, n_classes, name)
    classes = input.shape[1]  # a graph value where the class axis is dynamic
    hot = F.equal(F.expand_dims(target, 1), F.cast(F.arange(classes), target.dtype))
    x_y = F.sum(F.where(hot, input, 0.0), 1, keepdim=True)
    h = F.relu(F.add(F.sub(input, x_y), margin))
    if p == 2:
        h = F.square(h)
    h = F.where(hot, 0.0, h)
    if weight is not None:
        _tensor(weight, name, "weight")
        if _shape(weight) != (n_classes,):
            raise ValueError(f"For '{name}', 'weight' must have shape ({n_classes},), but got "
                             f"{_shape(weight)}.")
        h = F.mul(h, F.expand_dims(F.gather(weight, target, 0), 1))
    loss = F.div(F.sum(h, 1), classes)
    if reduction == "mean":
        return F.mean(loss)
    if reduction == "sum":
        return F.sum(loss)
    return loss


def multilabel_margin_loss(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:
    r"""Multi-label hinge loss: ``target`` lists each sample's classes, ended by the first -1.

    .. math::
        l_n = \frac{1}{C} \sum_{j} \sum_{i \notin y_n} \max(0, 1 - (x_{n, y_{nj}} - x_{n, i}))

    over the listed classes :math:`y_{nj}` (before the first -1) and the classes :math:`i` not listed.

    Args:
        input (Tensor): :math:`(C)` or :math:`(N, C)` float scores.
        target (Tensor): int, the shape of ``input``: class indices padded with -1.
        reduction (str): ``'none'``, ``'mean'`` or ``'sum'``. Default: ``'mean'``.

    Returns:
        Tensor: :math:`(N,)` for ``'none'`` (0-d for a 1-D input), else 0-d.

    Examples:
        >>> x = Tensor(np.array([[0.1, 0.2, 0.4, 0.8], [0.2, 0.3, 0.5, 0.7]], np.float32))
        >>> print(ops.multilabel_margin_loss(x, Tensor(np.array([[1, 2, 0, 3], [2, 3, -1, 1]], np.int32))))
        0.325
    """
    name = "MultilabelMarginLoss"
    _check_reduction(reduction, name)
    _tensor(input, name, "x")
    _tensor(target, name, "target")
    if input.ndim not in (1, 2) or _shape(target) != _shape(input):
        raise ValueError(f"For '{name}', 'x' must be (C) or (N, C) and 'target' of its shape, but got "
                         f"{_shape(input)} and {_shape(target)}.")
    if target._data.dtype.kind not in "iu":
        raise TypeError(f"For '{name}', 'target' must be int, but got {target.dtype}.")
    squeeze = input.ndim == 1
    if squeeze:
        input, target = F.expand_dims(input, 0), F.expand_dims(target, 0)
    n_classes = _shape(input)[1]
    t = target._data
    listed = np.cumsum(t == -1, axis=1) == 0
    if ((t < 0) | (t >= n_classes))[listed].any():
        raise ValueError(f"For '{name}', the listed targets must be in [0, {n_classes}), but got "
                         f"{t[listed & ((t < 0) | (t >= n_classes))][:5].tolist()}.")
    # listed_j: the target slots before the first -1 (a cumulative count of -1s still at zero)
    listed_j = F.equal(F.cumsum(F.cast(F.equal(target, -1), np.int32), 1), 0)
    safe = F.where(listed_j, target, 0)
    classes = F.arange(input.shape[1])  # a graph value where the class axis is dynamic
    hot = F.equal(F.expand_dims(safe, 2), F.cast(classes, safe.dtype))
    hot = F.logical_and(hot, F.expand_dims(listed_j, 2))
    is_target = F.greater(F.sum(F.cast(hot, np.int32), 1), 0)                      # (N, C)
    x_t = F.gather_elements(input, 1, safe)                                          # (N, J)
    h = F.relu(F.add(F.sub(F.expand_dims(input, 1), F.expand_dims(x_t, 2)), 1.0))   # (N, J, C)
    keep = F.logical_and(F.expand_dims(listed_j, 2), F.expand_dims(F.logical_not(is_target), 1))
    loss = F.div(F.sum(F.where(keep, h, 0.0), (1, 2)), input.shape[1])
    if squeeze:
        loss = F.reshape(loss, ())
    if reduction == "mean":
        return F.mean(loss)
    if reduction == "sum":
        return F.sum(loss)
    return loss


def multilabel_soft_margin_loss(input: Tensor, target: Tensor, weight: Tensor | None = None,
                                reduction: str = "mean") -> Tensor:
    r"""Multi-label one-versus-all logistic loss, averaged over the classes (the last axis).

    .. math::
        l_n = -\frac{1}{C} \sum_i w_i \left[ y_{ni} \log \sigma(x_{ni})
        + (1 - y_{ni}) \log(1 - \sigma(x_{ni})) \right]

    Args:
        input (Tensor): :math:`(N, C)` scores.
        target (Tensor): 0 / 1 labels of the same shape.
        weight (Tensor, optional): weight of each class, broadcast to the input. Default: ``None``.
        reduction (str): ``'none'``, ``'mean'`` or ``'sum'``. Default: ``'mean'``.

    Returns:
        Tensor: :math:`(N,)` for ``'none'``, else 0-d.

    Examples:
        >>> x = Tensor(np.array([[0.3, 0.6, 0.6], [0.9, 0.4, 0.2]], np.float32))
        >>> target = Tensor(np.array([[0., 0., 1.], [0., 0., 1.]], np.float32))
        >>> print(ops.multilabel_soft_margin_loss(x, target))
        0.8469...
    """
    name = "multilabel_soft_margin_loss"
    _tensor(input, name, "input")
    _tensor(target, name, "target")
    _check_reduction(reduction, name)
    # log(1 + exp(-x)) and log(1 + exp(x)), as softplus so that large |x| stays finite
    loss = F.add(F.mul(target, F.softplus(F.neg(input))), F.mul(F.sub(1, target), F.softplus(input)))
    if weight is not None:
        loss = F.mul(loss, weight)
    class_dim = input.ndim - 1
    loss = F.div(F.sum(loss, class_dim), input.shape[class_dim])  # a dim dynamic in a graph stays so
    return get_loss(loss, reduction, name)


def _pairwise(a: Tensor, b: Tensor, p: int, eps: float) -> Tensor:
    """(sum_i |a_i - b_i + eps|^p)^(1/p) along axis 1 (MindSpore's TripletMarginLoss kernel)."""
    d = F.abs(F.add(F.sub(a, b), eps))
    if p == 1:
        return F.sum(d, 1)
    if p == 2:
        return F.sqrt(F.sum(F.square(d), 1))
    return F.pow(F.sum(F.pow(d, float(p)), 1), 1.0 / p)


def triplet_margin_loss(anchor: Tensor, positive: Tensor, negative: Tensor, margin: float = 1.0, p: int = 2,
                        eps: float = 1e-06, swap: bool = False, reduction: str = "mean") -> Tensor:
    r"""Triplet loss of anchors against positive and negative examples.

    .. math::
        L(a, p, n) = \max\{d(a_i, p_i) - d(a_i, n_i) + \text{margin}, 0\},\quad
        d(x, y) = \Big(\sum_k |x_k - y_k + \epsilon|^p\Big)^{1/p}

    the norm taken along axis 1 (MindSpore's kernel adds :math:`\epsilon` to each difference); with ``swap``,
    :math:`d(a, n)` is replaced by :math:`\min(d(a, n), d(p, n))`.

    Args:
        anchor (Tensor): :math:`(N, D, *)`.
        positive (Tensor): broadcastable with ``anchor``.
        negative (Tensor): broadcastable with ``anchor``.
        margin (Union[float, Tensor]): Default: ``1.0``.
        p (int): the norm degree (0 counts the elements). Default: ``2``.
        eps (float): Default: ``1e-06``.
        swap (bool): Default: ``False``.
        reduction (str): ``'none'``, ``'mean'`` or ``'sum'``. Default: ``'mean'``.

    Returns:
        Tensor: :math:`(N, *)` for ``'none'``, else 0-d.

    Examples:
        >>> x = Tensor(np.array([[0.3, 0.7], [0.5, 0.5]], np.float32))
        >>> pos = Tensor(np.array([[0.4, 0.6], [0.4, 0.6]], np.float32))
        >>> neg = Tensor(np.array([[0.2, 0.9], [0.3, 0.7]], np.float32))
        >>> print(ops.triplet_margin_loss(x, pos, neg))
        0.8881...
    """
    name = "TripletMarginLoss"
    for arg, v in (("x", anchor), ("positive", positive), ("negative", negative)):
        _tensor(v, name, arg)
    if not isinstance(p, int) or isinstance(p, bool):
        raise TypeError(f"For '{name}', 'p' must be an int, but got {type(p).__name__}.")
    if not isinstance(eps, float):
        raise TypeError(f"For '{name}', 'eps' must be a float, but got {type(eps).__name__}.")
    if not isinstance(swap, bool):
        raise TypeError(f"For '{name}', 'swap' must be a bool, but got {type(swap).__name__}.")
    _check_reduction(reduction, name)
    if max(anchor.ndim, positive.ndim, negative.ndim) <= 1:
        raise ValueError(f"For '{name}', the inputs must have more than one dimension, but got "
                         f"{_shape(anchor)}, {_shape(positive)} and {_shape(negative)}.")
    ts = (anchor, positive, negative)
    shape = np.broadcast_shapes(*(_shape(t) for t in ts))
    target = sym_broadcast_shapes(*(t.shape for t in ts))  # dynamic dims stay graph values
    a, pos, neg = (t if _shape(t) == shape else F.broadcast_to(t, target) for t in ts)
    if p == 0:
        d_ap = d_an = F.sum(F.ones_like(a), 1)  # the size of axis 1, read at run time in a graph
    else:
        d_ap, d_an = _pairwise(a, pos, p, eps), _pairwise(a, neg, p, eps)
        if swap:
            d_an = F.minimum(d_an, _pairwise(pos, neg, p, eps))
    loss = F.relu(F.add(F.sub(d_ap, d_an), margin))
    if reduction == "mean":
        return F.mean(loss)
    if reduction == "sum":
        return F.sum(loss)
    return loss
