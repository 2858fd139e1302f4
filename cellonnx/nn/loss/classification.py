"""Classification and segmentation loss cells (MindSpore 2.10's classes, defaults and argument checks):
DiceLoss, MultiClassDiceLoss, FocalLoss and SampledSoftmaxLoss."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from cellonnx import ops
from cellonnx.nn.cell import Cell
from cellonnx.nn.layer.activation import get_activation
from cellonnx.nn.loss.loss import LossBase, _check_tensor
from cellonnx.ops.prims.random import generator
from cellonnx.tensor import Tensor

__all__ = ["DiceLoss", "FocalLoss", "MultiClassDiceLoss", "SampledSoftmaxLoss"]


class DiceLoss(LossBase):
    r"""One minus the Dice coefficient of a prediction and a label, over all their elements.

    .. math::
        \text{loss} = 1 - \frac{2 \sum x y}{\sum x^2 + \sum y^2 + \text{smooth}}

    Args:
        smooth (float): > 0, keeps the ratio finite. Default: ``1e-5``.

    Inputs:
        - **logits** (Tensor) - any shape, not uint8.
        - **labels** (Tensor) - the shape of ``logits``, not uint8.

    Examples:
        >>> loss = nn.DiceLoss(smooth=1e-5)
    """

    def __init__(self, smooth: float = 1e-5) -> None:
        super().__init__()
        if not isinstance(smooth, float) or not smooth > 0:
            raise ValueError(f"For 'DiceLoss', the 'smooth' must be a positive float, but got {smooth!r}.")
        self.smooth = smooth

    def construct(self, logits: Tensor, label: Tensor) -> Tensor:
        _check_tensor("logits", logits, self.cls_name)
        _check_tensor("labels", label, self.cls_name)
        if logits.shape != label.shape:
            raise ValueError(f"For '{self.cls_name}', 'logits_shape' {logits.shape} must equal 'label_shape' "
                             f"{label.shape}.")
        for name, t in (("logits", logits), ("labels", label)):
            if t._data.dtype == np.uint8:
                raise TypeError(f"For '{self.cls_name}', the dtype of '{name}' can not be uint8.")
        x, y = ops.reshape(logits, (-1,)), ops.reshape(label, (-1,))
        intersection = ops.sum(ops.mul(x, y))
        union = ops.add(ops.sum(ops.mul(x, x)), ops.sum(ops.mul(y, y)))
        return ops.sub(1, ops.div(ops.mul(intersection, 2), ops.add(union, self.smooth)))


_DICE_ACTIVATIONS = ["softmax", "logsoftmax", "relu", "relu6", "tanh", "sigmoid"]


class MultiClassDiceLoss(LossBase):
    r"""The Dice loss of each class (axis 1) averaged over the classes, after an activation.

    Args:
        weights (Tensor, optional): 2-D, row ``i`` multiplies class ``i``'s loss. Default: ``None``.
        ignore_indiex (int, optional): a class left out of the sum (still counted in the average; the
            argument's spelling is MindSpore's). Default: ``None``.
        activation (Union[str, Cell]): ``'softmax'``, ``'logsoftmax'``, ``'relu'``, ``'relu6'``, ``'tanh'``,
            ``'sigmoid'``, a Cell or None. Default: ``'softmax'``.

    Inputs:
        - **logits** (Tensor) - :math:`(N, C, *)`.
        - **label** (Tensor) - the shape of ``logits`` (one-hot).

    Examples:
        >>> loss = nn.MultiClassDiceLoss(activation="sigmoid")
    """

    def __init__(self, weights: Tensor | None = None, ignore_indiex: int | None = None,
                 activation: Any = "softmax") -> None:
        super().__init__()
        self.binarydiceloss = DiceLoss(smooth=1e-5)
        if weights is not None:
            if not isinstance(weights, Tensor):
                raise TypeError(f"For '{self.cls_name}', the 'weights' must be a Tensor, but got "
                                f"{type(weights).__name__}.")
            if weights.ndim != 2:
                raise ValueError(f"For '{self.cls_name}', the dimension of 'weights' must be 2, but got "
                                 f"{weights.ndim}.")
        self.weights = weights
        bad_index = isinstance(ignore_indiex, bool) or not isinstance(ignore_indiex, int)
        if ignore_indiex is not None and bad_index:
            raise TypeError(f"For '{self.cls_name}', the 'ignore_indiex' must be an int, but got "
                            f"{type(ignore_indiex).__name__}.")
        self.ignore_indiex = ignore_indiex
        if isinstance(activation, str) and activation not in _DICE_ACTIVATIONS:
            raise ValueError(f"For '{self.cls_name}', the 'activation' must be in {_DICE_ACTIVATIONS}, but "
                             f"got {activation}.")
        self.activation = get_activation(activation) if isinstance(activation, str) else activation
        if self.activation is not None and not isinstance(self.activation, Cell):
            raise TypeError(f"For '{self.cls_name}', the 'activation' must be str or Cell, but got "
                            f"{type(self.activation)}.")

    def construct(self, logits: Tensor, label: Tensor) -> Tensor:
        _check_tensor("logits", logits, self.cls_name)
        _check_tensor("labels", label, self.cls_name)
        if logits.shape != label.shape:
            raise ValueError(f"For '{self.cls_name}', 'logits_shape' {logits.shape} must equal 'label_shape' "
                             f"{label.shape}.")
        if logits.ndim < 2:
            raise ValueError(f"For '{self.cls_name}', the 'logits' dimension must be greater than 1, but got "
                             f"{logits.ndim}.")
        if self.activation is not None:
            logits = self.activation(logits)
        n_classes = label.shape[1]
        if self.weights is not None and self.weights.shape[0] != n_classes:
            raise ValueError(f"For '{self.cls_name}', the weight_shape[0] must be equal to label_shape[1], "
                             "but got "
                             f"weight_shape[0]: {self.weights.shape[0]} and label_shape[1]: {n_classes}.")
        total: Any = 0
        for i in range(n_classes):
            if i != self.ignore_indiex:
                dice = self.binarydiceloss(logits[:, i], label[:, i])
                if self.weights is not None:
                    dice = ops.mul(dice, self.weights[i])
                total = ops.add(dice, total)
        return ops.div(total, n_classes)


class FocalLoss(LossBase):
    r"""Focal loss: cross entropy down-weighted on well-classified examples.

    .. math::
        FL(p_t) = -(1 - p_t)^\gamma \log(p_t)

    with :math:`p_t` the softmax probability (over axis 1) of the true class. Labels are either class indices
    shaped :math:`(N, 1, *)` (the loss averaged over the positions) or one-hot :math:`(N, C, *)` (each class's
    term averaged over the positions), then reduced by ``reduction``.

    Args:
        weight (Tensor, optional): :math:`(C,)` weight of each class. Default: ``None``.
        gamma (float): the focusing exponent. Default: ``2.0``.
        reduction (str): ``'none'``, ``'mean'`` or ``'sum'``. Default: ``'mean'``.

    Inputs:
        - **logits** (Tensor) - :math:`(N, C)`, :math:`(N, C, H)` or :math:`(N, C, H, W)`.
        - **labels** (Tensor) - the rank of ``logits``, axis 1 of size 1 (indices) or C (one-hot); int32,
          int64, float16 or float32.

    Examples:
        >>> loss = nn.FocalLoss(weight=Tensor(np.array([1., 2.], np.float32)), gamma=2.0)
    """

    def __init__(self, weight: Tensor | None = None, gamma: float = 2.0, reduction: str = "mean") -> None:
        super().__init__(reduction=reduction)
        if not isinstance(gamma, float):
            raise TypeError(f"For '{self.cls_name}', the 'gamma' must be a float, but got "
                            f"{type(gamma).__name__}.")
        if weight is not None and not isinstance(weight, Tensor):
            raise TypeError(f"For '{self.cls_name}', the type of 'weight' must be a Tensor, but got "
                            f"{type(weight).__name__}.")
        if isinstance(weight, Tensor) and weight.ndim != 1:
            raise ValueError(f"For '{self.cls_name}', the dimension of 'weight' must be 1, but got "
                             f"{weight.ndim}.")
        self.weight = weight
        self.gamma = gamma

    def _check(self, logits: Tensor, labels: Tensor) -> None:
        for which, nd in (("logits", logits.ndim), ("labels", labels.ndim)):
            if not 2 <= nd <= 4:
                raise ValueError(f"For '{self.cls_name}', the dimensions of '{which}' must be in [2, 4], "
                                 f"but got dimension of '{which}' {nd}.")
        if logits.ndim != labels.ndim:
            raise ValueError(f"For '{self.cls_name}', the dimensions of 'logits' and 'labels' must be "
                             "equal, but got "
                             f"dimension of 'logits' {logits.ndim} and dimension of 'labels' {labels.ndim}.")
        if logits.shape[1] == 1:
            raise ValueError(f"For '{self.cls_name}', the 'logits'.shape[1] cannot be one, but got 1.")
        if labels.shape[1] not in (1, logits.shape[1]):
            raise ValueError(f"For '{self.cls_name}', the 'labels'.shape[1] must be one or equal to "
                             f"'logits'.shape[1]: {logits.shape[1]}, but got {labels.shape[1]}.")
        if labels._data.dtype not in (np.int32, np.int64, np.float16, np.float32):
            raise TypeError(f"For '{self.cls_name}', the 'labels' must be int32, int64, float16 or float32, "
                            f"but got {labels.dtype}.")

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        _check_tensor("logits", logits, self.cls_name)
        _check_tensor("labels", labels, self.cls_name)
        self._check(logits, labels)
        indices = labels.shape[1] == 1
        if logits.ndim > 2:
            logits = ops.reshape(logits, (logits.shape[0], logits.shape[1], -1))
            labelss = ops.reshape(labels, (labels.shape[0], labels.shape[1], -1))
        else:
            logits, labelss = ops.expand_dims(logits, 2), ops.expand_dims(labels, 2)
        log_p = ops.log_softmax(logits, 1)
        if indices:
            index = ops.cast(labelss, np.int32)
            log_p = ops.squeeze(ops.gather_elements(log_p, 1, index), 1)
        prob = ops.exp(log_p)
        if self.weight is not None:
            w = ops.tile(ops.reshape(self.weight, (1, -1, 1)), (labelss.shape[0], 1, labelss.shape[2]))
            if indices:
                w = ops.squeeze(ops.gather_elements(w, 1, index), 1)
            log_p = ops.mul(log_p, w)
        focal = ops.pow(ops.sub(1.0, prob), self.gamma)
        if indices:
            loss = ops.mean(ops.neg(ops.mul(focal, log_p)), 1)
        else:
            loss = ops.mean(ops.neg(ops.mul(ops.mul(focal, labelss), log_p)), -1)
        return self.get_loss(loss)


def _uniform_candidates(true: np.ndarray, num_sampled: int, range_max: int, unique: bool, seed: int,
                        remove_accidental_hits: bool) -> tuple[np.ndarray, float]:
    """MindSpore's UniformCandidateSampler on the host: the candidates and their expected count (with
    accidental hits removed, the classes are drawn one by one, skipping true classes and repeats, and the
    count is 1 - (1 - 1/range_max)^tries; otherwise it is num_sampled / range_max)."""
    rng = generator("UniformCandidateSampler", seed or None)
    if unique and remove_accidental_hits:
        banned = set(true.reshape(-1).tolist())
        if range_max - len(banned) < num_sampled:
            raise ValueError(f"For 'SampledSoftmaxLoss', only {range_max - len(banned)} classes are not true "
                             f"classes, fewer than num_sampled={num_sampled}")
        picked: list[int] = []
        tries = 0
        while len(picked) < num_sampled:
            c = int(rng.integers(range_max))
            tries += 1
            if c not in banned and c not in picked:
                picked.append(c)
        return np.array(picked, np.int32), -math.expm1(tries * math.log1p(-1.0 / range_max))
    if unique:
        return rng.choice(range_max, num_sampled, replace=False).astype(np.int32), num_sampled / range_max
    return rng.integers(range_max, size=num_sampled).astype(np.int32), num_sampled / range_max


class SampledSoftmaxLoss(LossBase):
    r"""Softmax cross entropy over the true classes and a sample of the others, for many-class outputs.

    The logits of the true classes and of ``num_sampled`` classes drawn uniformly (``weights @ x + biases``
    for those rows only) are corrected by minus the log of each class's expected count under the sampler,
    then scored with softmax cross entropy against the true classes (each of the ``num_true`` labels with
    probability ``1 / num_true``).

    Args:
        num_sampled (int): the classes sampled per batch.
        num_classes (int): the number of classes.
        num_true (int): the true classes per example. Default: ``1``.
        sampled_values (Union[list, tuple], optional): ``(sampled_candidates, true_expected_count,
            sampled_expected_count)`` to use instead of sampling. Default: ``None``.
        remove_accidental_hits (bool): sample no true class. Default: ``True``.
        seed (int): the sampler's seed; 0 draws from the global stream. Default: ``0``.
        reduction (str): ``'none'``, ``'mean'`` or ``'sum'``. Default: ``'none'``.

    Inputs:
        - **weights** (Tensor) - :math:`(C, dim)`.
        - **biases** (Tensor) - :math:`(C,)`.
        - **labels** (Tensor) - :math:`(N, num\_true)` int32 / int64.
        - **logits** (Tensor) - :math:`(N, dim)`, the activations.

    Outputs:
        Tensor of shape :math:`(N,)` (the per-example loss; ``reduction`` is not applied, as in MindSpore).

    Examples:
        >>> loss = nn.SampledSoftmaxLoss(num_sampled=4, num_classes=7, num_true=1)
    """

    def __init__(self, num_sampled: int, num_classes: int, num_true: int = 1, sampled_values: Any = None,
                 remove_accidental_hits: bool = True, seed: int = 0, reduction: str = "none") -> None:
        super().__init__(reduction)
        if num_true < 1:
            raise ValueError(f"For '{self.cls_name}', the 'num_true' must be greater than or equal to 1, "
                             f"but got {num_true}.")
        if seed < 0:
            raise ValueError(f"For '{self.cls_name}', the 'seed' must be greater than or equal to 0, but "
                             f"got {seed}.")
        if num_sampled > num_classes:
            raise ValueError(f"For '{self.cls_name}', the 'num_sampled' must be smaller than or equal to "
                             f"'num_classes', but got 'num_sampled': {num_sampled} and 'num_classes': "
                             f"{num_classes}.")
        if num_true > num_classes:
            raise ValueError(f"For '{self.cls_name}', the 'num_true' must be smaller than or equal to "
                             f"'num_classes', but got 'num_true': {num_true} amd 'num_classes': "
                             f"{num_classes}.")
        if sampled_values is not None:
            if not isinstance(sampled_values, (list, tuple)):
                raise TypeError(f"For '{self.cls_name}', the type of 'sampled_values' must be a list or "
                                f"tuple, but got {type(sampled_values).__name__}.")
            if len(sampled_values) != 3:
                raise ValueError(f"For '{self.cls_name}', the length of 'sampled_values' must be equal to "
                                 f"3, but got {len(sampled_values)}.")
        self.num_sampled = num_sampled
        self.num_classes = num_classes
        self.num_true = num_true
        self.sampled_values = sampled_values
        self.remove_accidental_hits = remove_accidental_hits
        self.seed = seed

    def construct(self, weights: Tensor, biases: Tensor, labels: Tensor, logits: Tensor) -> Tensor:
        for name, v in (("weights", weights), ("biases", biases), ("labels", labels), ("logits", logits)):
            _check_tensor(name, v, self.cls_name)
        if labels._data.dtype not in (np.int32, np.int64):
            raise TypeError(f"For '{self.cls_name}', the 'labels' must be int32 or int64, but got "
                            f"{labels.dtype}.")
        logits, targets = self._compute_sampled_logits(weights, biases, labels, logits)
        shifted = ops.exp(ops.sub(logits, ops.amax(logits, 1, True)))
        pred = ops.div(shifted, ops.sum(shifted, 1, keepdim=True))
        return ops.neg(ops.sum(ops.mul(targets, ops.log(ops.add(pred, 1.0e-20))), 1))

    def _compute_sampled_logits(self, weights: Tensor, biases: Tensor, labels: Tensor,
                                logits: Tensor) -> tuple[Tensor, Tensor]:
        num_true = self.num_true
        labels = ops.reshape(ops.cast(labels, np.int32), (-1, num_true))
        labels_flat = ops.reshape(labels, (-1,))
        if self.sampled_values is None:
            sampled_np, count = _uniform_candidates(labels._data, self.num_sampled, self.num_classes, True,
                                                    self.seed, self.remove_accidental_hits)
            dt = logits.dtype
            sampled = Tensor(sampled_np)
            true_count: Any = Tensor(np.full(labels.shape, count), dt)
            sampled_count: Any = Tensor(np.full(sampled_np.shape, count), dt)
        else:
            sampled, true_count, sampled_count = self.sampled_values
            sampled = ops.cast(sampled, np.int32)
        all_ids = ops.concat([labels_flat, sampled], 0)
        n_true = labels_flat.shape[0]
        all_w = ops.gather(weights, all_ids, 0)
        true_w, sampled_w = all_w[:n_true], all_w[n_true:]
        all_b = ops.gather(biases, all_ids, 0)
        true_b, sampled_b = all_b[:n_true], all_b[n_true:]
        sampled_logits = ops.matmul(logits, ops.transpose(sampled_w, (1, 0)))
        dots = ops.mul(ops.expand_dims(logits, 1), ops.reshape(true_w, (-1, num_true, all_w.shape[1])))
        true_logits = ops.add(ops.sum(dots, 2), ops.reshape(true_b, (-1, num_true)))
        sampled_logits = ops.add(sampled_logits, sampled_b)
        true_logits = ops.sub(true_logits, ops.log(true_count))
        sampled_logits = ops.sub(sampled_logits, ops.log(sampled_count))
        out_logits = ops.concat([true_logits, sampled_logits], 1)
        true_labels = ops.div(ops.ones_like(true_logits), num_true)
        out_labels = ops.concat([true_labels, ops.zeros_like(sampled_logits)], 1)
        return out_logits, out_labels
