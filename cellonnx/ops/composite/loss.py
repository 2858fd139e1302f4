"""Loss functions with MindSpore 2.x names, signatures and defaults, written over primitives (their gradients
and ONNX lowerings come from the primitives). All share ``_reduce(loss, reduction)``.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.autograd.grad import stop_gradient
from cellonnx.ops.prims._util import is_float_dtype
from cellonnx.ops.prims.activation import SparseSoftmaxCrossEntropy, log_softmax, softplus
from cellonnx.ops.prims.creation import arange
from cellonnx.ops.prims.math import (
    abs,
    add,
    cast,
    div,
    equal,
    greater,
    less,
    log,
    logical_and,
    mul,
    neg,
    not_equal,
    sub,
    where,
)
from cellonnx.ops.prims.reduce import mean, sum
from cellonnx.ops.prims.shape import expand_dims, reshape
from cellonnx.tensor import Tensor

_REDUCTIONS = ("none", "mean", "sum")


def _shape(t: Tensor) -> tuple[int, ...]:
    return tuple(t._data.shape)


def _check_reduction(reduction: str, name: str, allowed: tuple[str, ...] = _REDUCTIONS) -> None:
    if reduction not in allowed:
        raise ValueError(f"ops.{name}: reduction must be one of {', '.join(map(repr, allowed))}, "
                         f"got {reduction!r}")


def _reduce(loss: Tensor, reduction: str) -> Tensor:
    """'mean' / 'sum' over every element (a 0-d result), 'none' keeps the elementwise loss."""
    if reduction == "mean":
        return mean(loss)
    if reduction == "sum":
        return sum(loss)
    return loss


def _float(x: Any, name: str, arg: str) -> Tensor:
    if not isinstance(x, Tensor):
        x = Tensor(x)
    if not is_float_dtype(x._data.dtype):
        raise TypeError(f"ops.{name}: {arg} must be a float tensor, got {x.dtype} of shape {_shape(x)}")
    return x


def _class_shape(weight: Tensor, ndim: int, class_dim: int) -> Tensor:
    """A (C,) weight shaped to broadcast along ``class_dim`` of a rank-``ndim`` tensor."""
    if ndim <= 1 or class_dim == ndim - 1:
        return weight
    return reshape(weight, tuple(-1 if i == class_dim else 1 for i in range(ndim)))


# ---------------------------------------------------------------- classification
def nll_loss(inputs: Tensor, target: Tensor, weight: Tensor | None = None, ignore_index: int = -100,
             reduction: str = "mean", label_smoothing: float = 0.0) -> Tensor:
    r"""Negative log-likelihood of log-probabilities ``inputs`` at the class indices ``target``.

    .. math::
        l_n = -w_{t_n} x_{n, t_n} \cdot 1\{t_n \ne \text{ignore_index}\}

    'mean' divides the sum by :math:`\sum_n w_{t_n}` over the targets that are not ignored. With
    ``label_smoothing`` :math:`\epsilon` each term becomes
    :math:`(1 - \epsilon) l_n - \frac{\epsilon}{C} \sum_c w_c x_{n,c}` (zero at ignored targets) before the
    reduction, as MindSpore 2.10 (and PyTorch) compute it.

    Args:
        inputs (Tensor): log-probabilities, (C,), (N, C) or (N, C, d1, ..., dK).
        target (Tensor): int class indices, (), (N) or (N, d1, ..., dK).
        weight (Tensor, optional): (C,) rescaling weight per class. Default: None.
        ignore_index (int): target value that contributes nothing. Default: -100.
        reduction (str): 'none', 'mean' or 'sum'. Default: 'mean'.
        label_smoothing (float): in [0, 1]. Default: 0.0.

    Returns:
        Tensor: 0-d for 'mean' / 'sum', else the target's shape.

    Examples:
        >>> logp = ops.log_softmax(Tensor(np.random.randn(3, 5).astype(np.float32)), 1)
        >>> ops.nll_loss(logp, Tensor(np.array([1, 0, 4]))).shape
        ()
    """
    _check_reduction(reduction, "nll_loss")
    inputs = _float(inputs, "nll_loss", "inputs")
    if not isinstance(target, Tensor):
        target = Tensor(target)
    if target._data.dtype.kind not in "iu":
        raise TypeError(f"ops.nll_loss: target must hold int class indices, got {target.dtype}")
    if not 0.0 <= label_smoothing <= 1.0:
        raise ValueError(f"ops.nll_loss: label_smoothing must be in [0, 1], got {label_smoothing}")
    nd = inputs.ndim
    class_dim = 0 if nd == 1 else 1
    shape = tuple(inputs._data.shape)
    want = shape[:class_dim] + shape[class_dim + 1:]
    if _shape(target) != want:
        raise ValueError(f"ops.nll_loss: target has shape {_shape(target)}, expected {want} for inputs "
                         f"of shape {shape} (classes on axis {class_dim})")
    n_classes = shape[class_dim]
    t = target._data
    bad = (t != ignore_index) & ((t < 0) | (t >= n_classes))
    if bad.any():
        raise ValueError(f"ops.nll_loss: target values must be in [0, {n_classes}) or "
                         f"ignore_index={ignore_index}, found {t[bad].reshape(-1)[:5].tolist()}")
    if weight is not None:
        weight = _float(weight, "nll_loss", "weight")
        if _shape(weight) != (n_classes,):
            raise ValueError(f"ops.nll_loss: weight has shape {_shape(weight)}, expected ({n_classes},)")

    valid = not_equal(target, ignore_index)
    # one-hot of the target along the class axis; ignored targets select nothing
    classes = arange(inputs.shape[class_dim])  # the class count read from the graph where it is dynamic
    if nd > 1:
        classes = reshape(classes, tuple(-1 if i == class_dim else 1 for i in range(nd)))
    hot = logical_and(equal(expand_dims(target, class_dim), cast(classes, target._data.dtype)),
                      expand_dims(valid, class_dim))
    wb = _class_shape(weight, nd, class_dim) if weight is not None else None
    picked = where(hot, inputs, 0.0)
    if wb is not None:
        picked = mul(picked, wb)
    loss = neg(sum(picked, class_dim))
    if label_smoothing > 0.0:
        weighted = mul(inputs, wb) if wb is not None else inputs
        smooth = where(valid, neg(sum(weighted, class_dim)), 0.0)
        # divided by the class count as a dim (a float on the left of a dynamic one would bake it)
        share = div(mul(smooth, label_smoothing), inputs.shape[class_dim])
        loss = add(mul(loss, 1.0 - label_smoothing), share)
    if reduction == "sum":
        return sum(loss)
    if reduction == "mean":
        denom = sum(where(hot, wb, 0.0)) if wb is not None else sum(cast(valid, inputs._data.dtype))
        return div(sum(loss), denom)
    return loss


def cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None, ignore_index: int = -100,
                  reduction: str = "mean", label_smoothing: float = 0.0) -> Tensor:
    r"""Cross entropy between the logits ``input`` and ``target`` (class indices or class probabilities).

    Class indices (an int ``target``): ``nll_loss(log_softmax(input, class_axis), target, ...)``.
    Class probabilities (a float ``target`` of the input's shape):

    .. math::
        l_n = -\sum_c w_c\, y_{n,c} \log \mathrm{softmax}(x_n)_c

    with :math:`y` smoothed to :math:`y (1 - \epsilon) + \epsilon / C`; 'mean' divides the sum by the number
    of positions (the input's size over C).

    Args:
        input (Tensor): logits, (C,), (N, C) or (N, C, d1, ..., dK); classes on axis 1 (axis 0 for 1-D).
        target (Tensor): int indices of shape (), (N) or (N, d1, ..., dK), or float probabilities of the
            input's shape.
        weight (Tensor, optional): (C,) rescaling weight per class. Default: None.
        ignore_index (int): target index that contributes nothing (class indices only). Default: -100.
        reduction (str): 'none', 'mean' or 'sum'. Default: 'mean'.
        label_smoothing (float): in [0, 1]. Default: 0.0.

    Returns:
        Tensor: 0-d for 'mean' / 'sum', else the input's shape without the class axis.

    Examples:
        >>> logits = Tensor(np.random.randn(3, 5).astype(np.float32))
        >>> ops.cross_entropy(logits, Tensor(np.array([1, 0, 4]))).shape
        ()
    """
    _check_reduction(reduction, "cross_entropy")
    input = _float(input, "cross_entropy", "input")
    if not isinstance(target, Tensor):
        target = Tensor(target)
    if not 0.0 <= label_smoothing <= 1.0:
        raise ValueError(f"ops.cross_entropy: label_smoothing must be in [0, 1], got {label_smoothing}")
    nd = input.ndim
    class_dim = 0 if nd == 1 else 1
    t = target._data
    if weight is None and label_smoothing == 0.0 and nd == 2 and t.dtype.kind in "iu" and \
            t.shape == input._data.shape[:1] and t.size and \
            ((t >= 0) & (t < input._data.shape[1]) & (t != ignore_index)).all():
        # the common case in one primitive (no weight, no smoothing, every target a class, none ignored)
        return SparseSoftmaxCrossEntropy.apply(input, target, reduction=reduction,
                                               ignore_index=int(ignore_index))
    logp = log_softmax(input, class_dim)
    if target._data.dtype.kind in "iu":
        return nll_loss(logp, target, weight, ignore_index, reduction, label_smoothing)
    target = _float(target, "cross_entropy", "target")
    if _shape(target) != _shape(input):
        raise ValueError(f"ops.cross_entropy: probability target has shape {_shape(target)}, expected "
                         f"the input's shape {_shape(input)}")
    if label_smoothing > 0.0:  # label_smoothing / C, C read from the graph where it is dynamic
        share = div(Tensor(np.asarray(label_smoothing, target._data.dtype)), input.shape[class_dim])
        target = add(mul(target, 1.0 - label_smoothing), share)
    prod = mul(logp, target)
    if weight is not None:
        weight = _float(weight, "cross_entropy", "weight")
        prod = mul(prod, _class_shape(weight, nd, class_dim))
    if reduction == "mean":  # the sum over the number of positions (input.size / C), kept dynamic
        return neg(mean(sum(prod, class_dim)))
    if reduction == "sum":
        return neg(sum(prod))
    return neg(sum(prod, class_dim))


def binary_cross_entropy(logits: Tensor, labels: Tensor, weight: Tensor | None = None,
                         reduction: str = "mean") -> Tensor:
    r"""Binary cross entropy between probabilities ``logits`` (in [0, 1]) and ``labels``.

    .. math::
        l_n = -w_n \left[ y_n \log(x_n + \varepsilon) + (1 - y_n) \log(1 - x_n + \varepsilon) \right]

    with :math:`\varepsilon = 10^{-12}` keeping the logarithms finite at 0 and 1, as MindSpore's CPU kernel
    does (PyTorch clamps the logarithms at -100 instead).

    Args:
        logits (Tensor): probabilities, any shape.
        labels (Tensor): targets of the same shape.
        weight (Tensor, optional): rescaling weight broadcast to the logits' shape. Default: None.
        reduction (str): 'none', 'mean' or 'sum'. Default: 'mean'.

    Returns:
        Tensor: 0-d for 'mean' / 'sum', else the logits' shape.

    Examples:
        >>> p = Tensor(np.array([0.2, 0.7, 0.1], np.float32)); y = Tensor(np.array([0., 1., 0.], np.float32))
        >>> ops.binary_cross_entropy(p, y).shape
        ()
    """
    _check_reduction(reduction, "binary_cross_entropy")
    logits = _float(logits, "binary_cross_entropy", "logits")
    labels = _float(labels, "binary_cross_entropy", "labels")
    if _shape(labels) != _shape(logits):
        raise ValueError(f"ops.binary_cross_entropy: labels have shape {_shape(labels)}, expected the "
                         f"logits' shape {_shape(logits)}")
    eps = 1e-12
    loss = neg(add(mul(labels, log(add(logits, eps))),
                   mul(sub(1.0, labels), log(add(sub(1.0, logits), eps)))))
    if weight is not None:
        loss = mul(loss, _float(weight, "binary_cross_entropy", "weight"))
    return _reduce(loss, reduction)


def binary_cross_entropy_with_logits(input: Tensor, target: Tensor, weight: Tensor | None = None,
                                     pos_weight: Tensor | None = None, reduction: str = "mean") -> Tensor:
    r"""Binary cross entropy of ``sigmoid(input)`` against ``target``, computed stably from the logits.

    .. math::
        l_n = -w_n \left[ p_n y_n \log \sigma(x_n) + (1 - y_n) \log(1 - \sigma(x_n)) \right]

    Args:
        input (Tensor): the logits, any shape.
        target (Tensor): targets of the same shape.
        weight (Tensor, optional): rescaling weight broadcast to the logits' shape. Default: None.
        pos_weight (Tensor, optional): weight of the positive term per class (broadcast along the last axis).
            Default: None.
        reduction (str): 'none', 'mean' or 'sum'. Default: 'mean'.

    Returns:
        Tensor: 0-d for 'mean' / 'sum', else the logits' shape.

    Examples:
        >>> x = Tensor(np.array([[-0.8, 1.2], [0.5, -2.0]], np.float32))
        >>> ops.binary_cross_entropy_with_logits(x, Tensor(np.array([[0., 1.], [1., 0.]], np.float32))).shape
        ()
    """
    _check_reduction(reduction, "binary_cross_entropy_with_logits")
    logits = _float(input, "binary_cross_entropy_with_logits", "input")
    label = _float(target, "binary_cross_entropy_with_logits", "target")
    if _shape(label) != _shape(logits):
        raise ValueError(f"ops.binary_cross_entropy_with_logits: target has shape {_shape(label)}, "
                         f"expected the input's shape {_shape(logits)}")
    # -log sigmoid(x) = softplus(-x); -log(1 - sigmoid(x)) = softplus(x)
    pos = mul(label, softplus(neg(logits)))
    if pos_weight is not None:
        pos = mul(pos, _float(pos_weight, "binary_cross_entropy_with_logits", "pos_weight"))
    loss = add(pos, mul(sub(1.0, label), softplus(logits)))
    if weight is not None:
        loss = mul(loss, _float(weight, "binary_cross_entropy_with_logits", "weight"))
    return _reduce(loss, reduction)


def kl_div(logits: Tensor, labels: Tensor, reduction: str = "mean") -> Tensor:
    r"""Kullback-Leibler divergence of log-probabilities ``logits`` from probabilities ``labels``.

    .. math::
        L = y \cdot (\log y - x)

    with 0 where :math:`y = 0`; the labels get no gradient (as MindSpore's KLDivLoss). 'mean' averages over
    all elements, 'batchmean' divides the sum by the batch size (``logits.shape[0]``; the mathematical KL
    divergence), 'sum' sums.

    Args:
        logits (Tensor): log-probabilities.
        labels (Tensor): probabilities of the same shape.
        reduction (str): 'none', 'mean', 'batchmean' or 'sum'. Default: 'mean'.

    Returns:
        Tensor: 0-d unless reduction is 'none'.

    Examples:
        >>> x = Tensor(np.array([0.2, 0.7, 0.1], np.float32)); y = Tensor(np.array([0., 1., 0.], np.float32))
        >>> print(ops.kl_div(x, y))
        -0.2333...
    """
    _check_reduction(reduction, "kl_div", ("none", "mean", "batchmean", "sum"))
    logits = _float(logits, "kl_div", "logits")
    # MindSpore's KLDivLoss gives the labels no gradient
    labels = stop_gradient(_float(labels, "kl_div", "labels"))
    positive = greater(labels, 0.0)
    ylogy = where(positive, mul(labels, log(where(positive, labels, 1.0))), 0.0)
    loss = sub(ylogy, mul(labels, logits))
    if reduction == "batchmean":  # sum / batch size, as a mean over the batch so the batch may be dynamic
        return mean(sum(loss, tuple(range(1, loss.ndim)))) if loss.ndim > 1 else mean(loss)
    return _reduce(loss, reduction)


def soft_margin_loss(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:
    r"""Two-class logistic loss :math:`\log(1 + \exp(-y x))` for targets :math:`y \in \{-1, 1\}`.

    Args:
        input (Tensor): predictions, any shape.
        target (Tensor): -1 / 1 targets of the same shape.
        reduction (str): 'none', 'mean' or 'sum'. Default: 'mean'.

    Returns:
        Tensor: 0-d for 'mean' / 'sum', else the input's shape.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.5, -1.0]), ms.float32)
        >>> y = Tensor(np.array([1.0, -1.0]), ms.float32)
        >>> print(ops.soft_margin_loss(x, y).asnumpy().round(4))
        0.3937
    """
    _check_reduction(reduction, "soft_margin_loss")
    input = _float(input, "soft_margin_loss", "input")
    return _reduce(softplus(neg(mul(target, input))), reduction)


# ---------------------------------------------------------------- regression
def l1_loss(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:
    """Mean absolute error :math:`|x - y|` (input and target broadcast).

    Args:
        input (Tensor): predictions.
        target (Tensor): targets, broadcastable with ``input``.
        reduction (str): 'none', 'mean' or 'sum'. Default: 'mean'.

    Returns:
        Tensor: 0-d for 'mean' / 'sum', else the broadcast shape.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> logits = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> labels = Tensor(np.array([1.0, 1.0, 1.0]), ms.float32)
        >>> print(ops.l1_loss(logits, labels))
        1.0
    """
    _check_reduction(reduction, "l1_loss")
    return _reduce(abs(sub(input, target)), reduction)


def mse_loss(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:
    """Mean squared error :math:`(x - y)^2` (input and target broadcast).

    Args:
        input (Tensor): predictions.
        target (Tensor): targets, broadcastable with ``input``.
        reduction (str): 'none', 'mean' or 'sum'. Default: 'mean'.

    Returns:
        Tensor: 0-d for 'mean' / 'sum', else the broadcast shape.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> logits = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> labels = Tensor(np.array([1.0, 1.0, 1.0]), ms.float32)
        >>> print(ops.mse_loss(logits, labels))
        1.6666666
    """
    _check_reduction(reduction, "mse_loss")
    d = sub(input, target)
    return _reduce(mul(d, d), reduction)


def _piecewise(input: Tensor, target: Tensor, threshold: float, name: str) -> tuple[Tensor, Tensor, Tensor]:
    if not threshold > 0:
        raise ValueError(f"ops.{name}: the threshold must be > 0, got {threshold}")
    d = abs(sub(input, target))
    return d, less(d, threshold), mul(d, d)


def smooth_l1_loss(input: Tensor, target: Tensor, beta: float = 1.0, reduction: str = "none") -> Tensor:
    r"""Smooth L1 loss: :math:`0.5 d^2 / \beta` where :math:`d = |x - y| < \beta`, else :math:`d - 0.5 \beta`.

    MindSpore's default reduction here is 'none' (PyTorch's is 'mean').

    Args:
        input (Tensor): predictions.
        target (Tensor): targets of the same shape.
        beta (float): where the loss turns from quadratic to linear; > 0. Default: 1.0.
        reduction (str): 'none', 'mean' or 'sum'. Default: 'none'.

    Returns:
        Tensor: the input's shape for 'none', else 0-d.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> logits = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> labels = Tensor(np.array([1.0, 2.5, 1.0]), ms.float32)
        >>> print(ops.smooth_l1_loss(logits, labels, reduction='none'))
        [0.    0.125 1.5  ]
    """
    _check_reduction(reduction, "smooth_l1_loss")
    d, small, d2 = _piecewise(input, target, beta, "smooth_l1_loss")
    return _reduce(where(small, mul(d2, 0.5 / beta), sub(d, 0.5 * beta)), reduction)


def huber_loss(input: Tensor, target: Tensor, reduction: str = "mean", delta: float = 1.0) -> Tensor:
    r"""Huber loss: :math:`0.5 d^2` where :math:`d = |x - y| < \delta`, else :math:`\delta (d - 0.5 \delta)`.

    Args:
        input (Tensor): predictions.
        target (Tensor): targets, broadcastable with ``input``.
        reduction (str): 'none', 'mean' or 'sum'. Default: 'mean'.
        delta (float): where the loss turns from quadratic to linear; > 0. Default: 1.0.

    Returns:
        Tensor: 0-d for 'mean' / 'sum', else the broadcast shape.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> logits = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> labels = Tensor(np.array([1.0, 2.5, 1.0]), ms.float32)
        >>> print(ops.huber_loss(logits, labels, reduction='none', delta=1.0))
        [0.    0.125 1.5  ]
    """
    _check_reduction(reduction, "huber_loss")
    d, small, d2 = _piecewise(input, target, delta, "huber_loss")
    return _reduce(where(small, mul(d2, 0.5), mul(sub(d, 0.5 * delta), delta)), reduction)


__all__ = ["binary_cross_entropy", "binary_cross_entropy_with_logits", "cross_entropy", "huber_loss",
           "kl_div", "l1_loss", "mse_loss", "nll_loss", "smooth_l1_loss", "soft_margin_loss"]
