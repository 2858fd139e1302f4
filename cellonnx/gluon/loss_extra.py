"""gluon.loss: the rest of MXNet 1.9.1's losses - HuberLoss, HingeLoss, SquaredHingeLoss, LogisticLoss,
TripletLoss, PoissonNLLLoss, CosineEmbeddingLoss, KLDivLoss, SDMLLoss, CTCLoss - with its reductions, which
differ from loss to loss (KLDivLoss and TripletLoss sum over the non-batch axes, PoissonNLLLoss averages over
everything, CosineEmbeddingLoss keeps (N, 1), CTCLoss gives one loss per sequence)."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from cellonnx import ops
from cellonnx.gluon.loss import Loss, _apply_weighting, _reshape_like
from cellonnx.tensor import Tensor

__all__ = ["CTCLoss", "CosineEmbeddingLoss", "HingeLoss", "HuberLoss", "KLDivLoss", "LogisticLoss",
           "PoissonNLLLoss", "SDMLLoss", "SquaredHingeLoss", "TripletLoss"]


def _tensor(x: Any, like: Tensor) -> Tensor:
    return x if isinstance(x, Tensor) else Tensor(np.asarray(x), like.dtype)


def _numpy(x: Any) -> np.ndarray:
    return np.asarray(x.asnumpy() if hasattr(x, "asnumpy") else x)


def _batch_sum(loss: Tensor, batch_axis: int) -> Tensor:
    axis = batch_axis % loss.ndim
    axes = tuple(i for i in range(loss.ndim) if i != axis)
    return ops.sum(loss, axes) if axes else loss


class HuberLoss(Loss):
    r"""Smoothed L1: :math:`|l - p| - \rho / 2` where :math:`|l - p| > \rho`, else
    :math:`\frac{1}{2\rho}(l - p)^2` (mean over the non-batch axes).

    Args:
        rho: the threshold. Default: 1.
        weight: Default: None. batch_axis: Default: 0.

    Examples:
        >>> from cellonnx.mxnet import nd, gluon
        >>> loss = gluon.loss.HuberLoss()
        >>> print(loss(nd.array([[0.0, 3.0]]), nd.array([[0.5, 0.0]])))
        [1.3125]
        <NDArray 1 @cpu(0)>
    """

    def __init__(self, rho: float = 1, weight: float | None = None, batch_axis: int = 0,
                 **kwargs: Any) -> None:
        super().__init__(weight, batch_axis, **kwargs)
        self._rho = rho

    def forward(self, pred: Tensor, label: Any, sample_weight: Any = None) -> Tensor:
        diff = ops.abs(ops.sub(_reshape_like(label, pred), pred))
        rho = float(self._rho)
        loss = ops.where(ops.gt(diff, rho), ops.sub(diff, 0.5 * rho), ops.mul(ops.square(diff), 0.5 / rho))
        return self._batch_mean(_apply_weighting(loss, self._weight, sample_weight))


class HingeLoss(Loss):
    r"""Hinge loss :math:`\max(0, margin - p \cdot l)` with labels in {-1, 1} (mean over the non-batch axes).

    Args:
        margin: Default: 1. weight: Default: None. batch_axis: Default: 0.

    Examples:
        >>> from cellonnx.mxnet import nd, gluon
        >>> print(gluon.loss.HingeLoss()(nd.array([[0.5, -2.0]]), nd.array([[1, 1]])))
        [1.75]
        <NDArray 1 @cpu(0)>
    """

    _squared = False

    def __init__(self, margin: float = 1, weight: float | None = None, batch_axis: int = 0,
                 **kwargs: Any) -> None:
        super().__init__(weight, batch_axis, **kwargs)
        self._margin = margin

    def forward(self, pred: Tensor, label: Any, sample_weight: Any = None) -> Tensor:
        loss = ops.relu(ops.sub(float(self._margin), ops.mul(pred, _reshape_like(label, pred))))
        if self._squared:
            loss = ops.square(loss)
        return self._batch_mean(_apply_weighting(loss, self._weight, sample_weight))


class SquaredHingeLoss(HingeLoss):
    r"""Squared hinge loss :math:`\max(0, margin - p \cdot l)^2` with labels in {-1, 1} (mean over the
    non-batch axes).

    Args:
        margin: Default: 1. weight: Default: None. batch_axis: Default: 0.

    Examples:
        >>> from cellonnx.mxnet import nd, gluon
        >>> print(gluon.loss.SquaredHingeLoss()(nd.array([[0.5, -2.0]]), nd.array([[1, 1]])))
        [4.625]
        <NDArray 1 @cpu(0)>
    """

    _squared = True


class LogisticLoss(Loss):
    r"""Logistic loss :math:`\log(1 + e^{-p \cdot l})` on logits, in the stable form
    :math:`\max(p, 0) - p z + \log(1 + e^{-|p|})` with :math:`z = (l + 1) / 2` for 'signed' labels (-1 / 1) or
    :math:`z = l` for 'binary' ones (0 / 1).

    Args:
        weight: Default: None. batch_axis: Default: 0.
        label_format: 'signed' or 'binary'. Default: 'signed'.

    Raises:
        ValueError: another label_format.

    Examples:
        >>> from cellonnx.mxnet import nd, gluon
        >>> print(gluon.loss.LogisticLoss()(nd.array([[0.0]]), nd.array([[1]])))
        [0.6931472]
        <NDArray 1 @cpu(0)>
    """

    def __init__(self, weight: float | None = None, batch_axis: int = 0, label_format: str = "signed",
                 **kwargs: Any) -> None:
        super().__init__(weight, batch_axis, **kwargs)
        if label_format not in ("signed", "binary"):
            raise ValueError(f"label_format can only be signed or binary, recieved {label_format}.")
        self._label_format = label_format

    def forward(self, pred: Tensor, label: Any, sample_weight: Any = None) -> Tensor:
        label = _reshape_like(label, pred)
        if self._label_format == "signed":
            label = ops.div(ops.add(label, 1.0), 2.0)
        loss = ops.add(ops.sub(ops.relu(pred), ops.mul(pred, label)), ops.softplus(ops.neg(ops.abs(pred))))
        return self._batch_mean(_apply_weighting(loss, self._weight, sample_weight))


class TripletLoss(Loss):
    r"""Triplet loss :math:`\max(0, \sum (pos - p)^2 - \sum (neg - p)^2 + margin)`, the sums over the
    non-batch axes.

    Args:
        margin: Default: 1. weight: Default: None. batch_axis: Default: 0.

    Inputs:
        pred, positive, negative (same number of elements).

    Examples:
        >>> from cellonnx.mxnet import nd, gluon
        >>> loss = gluon.loss.TripletLoss()
        >>> print(loss(nd.array([[0.0, 0.0]]), nd.array([[1.0, 0.0]]), nd.array([[0.0, 0.5]])))
        [1.75]
        <NDArray 1 @cpu(0)>
    """

    def __init__(self, margin: float = 1, weight: float | None = None, batch_axis: int = 0,
                 **kwargs: Any) -> None:
        super().__init__(weight, batch_axis, **kwargs)
        self._margin = margin

    def forward(self, pred: Tensor, positive: Any, negative: Any) -> Tensor:
        positive, negative = _reshape_like(positive, pred), _reshape_like(negative, pred)
        gap = ops.sub(ops.square(ops.sub(positive, pred)), ops.square(ops.sub(negative, pred)))
        loss = ops.relu(ops.add(_batch_sum(gap, self._batch_axis), float(self._margin)))
        return _apply_weighting(loss, self._weight, None)


class PoissonNLLLoss(Loss):
    r"""Poisson negative log likelihood, :math:`e^p - t p` (``from_logits``) or
    :math:`p - t \log(p + \epsilon)`, plus Stirling's term :math:`t \log t - t + \frac{1}{2}\log(2 \pi t)`
    where t > 1 with ``compute_full``; averaged over every element (a scalar, as MXNet 1.9.1).

    Args:
        weight: Default: None. from_logits: Default: True. batch_axis: Default: 0.
        compute_full: add Stirling's approximation term. Default: False.

    Inputs:
        pred, target, sample_weight (optional), epsilon (Default: 1e-08).

    Examples:
        >>> from cellonnx.mxnet import nd, gluon
        >>> print(gluon.loss.PoissonNLLLoss()(nd.array([[0.0, 1.0]]), nd.array([[1.0, 2.0]])))
        [0.859141]
        <NDArray 1 @cpu(0)>
    """

    def __init__(self, weight: float | None = None, from_logits: bool = True, batch_axis: int = 0,
                 compute_full: bool = False, **kwargs: Any) -> None:
        super().__init__(weight, batch_axis, **kwargs)
        self._from_logits = from_logits
        self._compute_full = compute_full

    def forward(self, pred: Tensor, target: Any, sample_weight: Any = None, epsilon: float = 1e-08) -> Tensor:
        target = _reshape_like(target, pred)
        if self._from_logits:
            loss = ops.sub(ops.exp(pred), ops.mul(target, pred))
        else:
            loss = ops.sub(pred, ops.mul(target, ops.log(ops.add(pred, float(epsilon)))))
        if self._compute_full:
            stirling = ops.add(ops.sub(ops.mul(target, ops.log(target)), target),
                               ops.mul(ops.log(ops.mul(target, 2 * math.pi)), 0.5))
            loss = ops.add(loss, ops.mul(stirling, ops.cast(ops.gt(target, 1.0), stirling.dtype)))
        loss = _apply_weighting(loss, self._weight, sample_weight)
        return ops.reshape(ops.mean(loss), (1,))


class CosineEmbeddingLoss(Loss):
    r"""Cosine embedding loss of two batches of vectors: :math:`1 - \cos(x_1, x_2)` for label 1,
    :math:`\max(0, \cos(x_1, x_2) - margin)` for label -1 (the cosine with the norms' product at least 1e-12);
    shape (N, 1).

    Args:
        weight: Default: None. batch_axis: Default: 0. margin: Default: 0.

    Inputs:
        input1, input2 (N, D), label (N,) of 1 / -1, sample_weight (optional).

    Examples:
        >>> from cellonnx.mxnet import nd, gluon
        >>> loss = gluon.loss.CosineEmbeddingLoss()
        >>> x1, x2 = nd.array([[1.0, 0.0], [1.0, 1.0]]), nd.array([[0.0, 1.0], [1.0, 1.0]])
        >>> print(loss(x1, x2, nd.array([1, -1])))
        [[1.       ]
         [1.0000001]]
        <NDArray 2x1 @cpu(0)>
    """

    def __init__(self, weight: float | None = None, batch_axis: int = 0, margin: float = 0,
                 **kwargs: Any) -> None:
        super().__init__(weight, batch_axis, **kwargs)
        self._margin = margin

    def forward(self, input1: Tensor, input2: Tensor, label: Any, sample_weight: Any = None) -> Tensor:
        input1 = _reshape_like(input1, input2)
        label = ops.reshape(_tensor(label, input2), (-1, 1))
        x_norm = ops.reshape(ops.sqrt(ops.sum(ops.square(input1), -1)), (-1, 1))
        y_norm = ops.reshape(ops.sqrt(ops.sum(ops.square(input2), -1)), (-1, 1))
        dot = ops.reshape(ops.sum(ops.mul(input1, input2), -1), (-1, 1))
        cos = ops.div(dot, ops.maximum(ops.mul(x_norm, y_norm), 1e-12))
        pos = ops.cast(ops.equal(label, 1.0), cos.dtype)
        neg = ops.cast(ops.equal(label, -1.0), cos.dtype)
        loss = ops.add(ops.mul(ops.sub(1.0, cos), pos),
                       ops.relu(ops.mul(neg, ops.sub(cos, float(self._margin)))))
        return _apply_weighting(loss, self._weight, sample_weight)


class KLDivLoss(Loss):
    r"""Kullback-Leibler divergence :math:`l (\log(l + 10^{-12}) - p)` summed over the non-batch axes, with
    ``pred`` log-probabilities (``from_logits``) or logits (log_softmax over ``axis`` applied first).

    Args:
        from_logits: Default: True. axis: Default: -1. weight: Default: None. batch_axis: Default: 0.

    Examples:
        >>> from cellonnx.mxnet import nd, gluon
        >>> loss = gluon.loss.KLDivLoss(from_logits=False)
        >>> print(loss(nd.array([[0.0, 0.0]]), nd.array([[0.25, 0.75]])).asnumpy().round(4))
        [0.1308]
    """

    def __init__(self, from_logits: bool = True, axis: int = -1, weight: float | None = None,
                 batch_axis: int = 0, **kwargs: Any) -> None:
        super().__init__(weight, batch_axis, **kwargs)
        self._from_logits = from_logits
        self._axis = axis

    def forward(self, pred: Tensor, label: Any, sample_weight: Any = None) -> Tensor:
        if not self._from_logits:
            pred = ops.log_softmax(pred, self._axis)
        label = _tensor(label, pred)
        loss = ops.mul(label, ops.sub(ops.log(ops.add(label, 1e-12)), pred))
        return _batch_sum(_apply_weighting(loss, self._weight, sample_weight), self._batch_axis)


class SDMLLoss(Loss):
    r"""Smoothed deep metric learning loss of two aligned batches (N, D): the KL divergence between the
    softmax over each row of minus the squared distances :math:`\|x_{1,i} - x_{2,j}\|^2` and the smoothed
    identity (1 - smoothing_parameter on the diagonal, smoothing_parameter / (N - 1) elsewhere); shape (N,).

    Args:
        smoothing_parameter: Default: 0.3. weight: Default: 1.0. batch_axis: Default: 0.

    Examples:
        >>> from cellonnx.mxnet import nd, gluon
        >>> loss = gluon.loss.SDMLLoss()
        >>> out = loss(nd.array([[0.0, 0.0], [1.0, 1.0]]), nd.array([[0.0, 0.0], [1.0, 1.0]]))
        >>> print(out.asnumpy().round(4))
        [0.1161 0.1161]
    """

    def __init__(self, smoothing_parameter: float = 0.3, weight: float = 1.0, batch_axis: int = 0,
                 **kwargs: Any) -> None:
        super().__init__(weight, batch_axis, **kwargs)
        self.kl_loss = KLDivLoss(from_logits=True)
        self.smoothing_parameter = smoothing_parameter

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        if tuple(x1.shape) != tuple(x2.shape) or x1.ndim != 2:
            raise ValueError(f"SDMLLoss: x1 and x2 must be two (batch_size, dim) batches of one shape, got "
                             f"{tuple(x1.shape)} and {tuple(x2.shape)}")
        n = x1.shape[0]  # the batch, a graph value where it is dynamic
        s = float(self.smoothing_parameter)
        gold = ops.eye(n, n, x1.dtype)
        off = ops.div(Tensor(np.float32(s), x1.dtype), n - 1)  # s / (n - 1) computed in the graph
        labels = ops.add(ops.mul(gold, 1 - s), ops.mul(ops.sub(1, gold), off))
        dist = ops.sum(ops.square(ops.sub(ops.expand_dims(x1, 1), ops.expand_dims(x2, 0))), 2)
        return self.kl_loss(ops.log_softmax(ops.neg(dist), 1), labels)


class CTCLoss(Loss):
    r"""Connectionist temporal classification loss of unnormalized scores (softmax taken inside) against
    label sequences, the blank being the last class; one loss per sequence, (N,).

    Args:
        layout: of pred, 'NTC' or 'TNC'. Default: 'NTC'.
        label_layout: 'NT' or 'TN'. Default: 'NT'.
        weight: Default: None.

    Inputs:
        pred (N, T, C), label (N, L) in [0, C - 1) padded with -1 (where label_lengths is not given),
        pred_lengths (N,) (optional), label_lengths (N,) (optional), sample_weight (optional).

    Examples:
        >>> from cellonnx.mxnet import nd, gluon
        >>> loss = gluon.loss.CTCLoss()
        >>> print(loss(nd.zeros((1, 2, 3)), nd.array([[0, -1]])))
        [1.0986123]
        <NDArray 1 @cpu(0)>
    """

    def __init__(self, layout: str = "NTC", label_layout: str = "NT", weight: float | None = None,
                 **kwargs: Any) -> None:
        if layout not in ("NTC", "TNC"):
            raise AssertionError(f"Only 'NTC' and 'TNC' layouts for pred are supported. Got: {layout}")
        if label_layout not in ("NT", "TN"):
            raise AssertionError(f"Only 'NT' and 'TN' layouts for label are supported. Got: {label_layout}")
        self._layout = layout
        self._label_layout = label_layout
        super().__init__(weight, label_layout.find("N"), **kwargs)

    def forward(self, pred: Tensor, label: Any, pred_lengths: Any = None, label_lengths: Any = None,
                sample_weight: Any = None) -> Tensor:
        from cellonnx.ops import registry

        if registry.TRACE_HOOK is not None:
            raise NotImplementedError("CTCLoss reads its labels and lengths to build the alignment lattice "
                                      "and runs eagerly only: call it outside a hybridized block")
        if self._layout == "NTC":
            pred = ops.swapaxes(pred, 0, 1)
        label = _numpy(label)
        if self._batch_axis == 1:
            label = label.T
        steps, batch, classes = (int(v) for v in pred.shape)
        label = label.astype(np.int64)
        if label_lengths is None:
            padded = label < 0
            lengths = np.where(padded.any(1), padded.argmax(1), label.shape[1])
        else:
            lengths = _numpy(label_lengths)
        in_lengths = np.full(batch, steps) if pred_lengths is None else _numpy(pred_lengths)
        targets = Tensor(np.where(label < 0, 0, label), "int64")
        loss, _ = ops.ctc_loss(ops.log_softmax(pred, -1), targets, tuple(int(v) for v in in_lengths),
                               tuple(int(v) for v in lengths), blank=classes - 1, reduction="none")
        return _apply_weighting(loss, self._weight, sample_weight)
