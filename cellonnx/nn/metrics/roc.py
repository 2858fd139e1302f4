"""The receiver operating characteristic curve (ROC) and the area under a curve (auc)."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.nn.metrics.metric import Metric, rearrange_inputs

__all__ = ["ROC", "auc"]


def _binary_clf_curve(preds: np.ndarray, target: np.ndarray, pos_label: int) -> tuple[np.ndarray, ...]:
    """False and true positive counts at each distinct score, scores in decreasing order."""
    order = np.argsort(-preds)
    preds, target = preds[order], target[order]
    last = np.pad(np.where(preds[1:] - preds[:-1])[0], (0, 1), constant_values=target.shape[0] - 1)
    hits = (target == pos_label).astype(np.int64)
    tps = np.cumsum(hits)[last]
    fps = 1 + last - tps
    return fps, tps, preds[last]


def _roc_one(preds: np.ndarray, target: np.ndarray, pos_label: int) -> tuple[np.ndarray, ...]:
    fps, tps, thresholds = _binary_clf_curve(preds, target, pos_label)
    tps = np.hstack([np.zeros(1, dtype=tps.dtype), tps])
    fps = np.hstack([np.zeros(1, dtype=fps.dtype), fps])
    thresholds = np.hstack([thresholds[0][None] + 1, thresholds])
    if fps[-1] <= 0:
        raise ValueError("For 'ROC.eval', there is no negative samples in true value, false positive value "
                         "is meaningless.")
    if tps[-1] <= 0:
        raise ValueError("For 'ROC.eval', there is no positive samples in true value, true positive value is "
                         "meaningless.")
    return fps / fps[-1], tps / tps[-1], thresholds


class ROC(Metric):
    r"""The ROC curve: false and true positive rates at every distinct score.

    Binary: ``y_pred`` and ``y`` of one shape, the positive class ``pos_label`` (default 1). Multi-class:
    ``y_pred`` of shape (N, C) and labels (N,); then one curve per class (one-versus-rest on column c), as
    lists. MindSpore 2.10 takes the columns from a reshape of ``y_pred`` to (C, N) that is only a transpose
    when N == C; for N != C its curves mix samples, and here each class uses its own column.

    Args:
        class_num (int, optional): the number of classes (multi-class). Default: ``None``.
        pos_label (int, optional): the positive class (binary). Default: ``None``.

    Returns (eval):
        tuple: ``fpr``, ``tpr`` and ``thresholds`` (the first threshold is the largest score plus 1).

    Examples:
        >>> m = nn.ROC(pos_label=2)
        >>> m.update(np.array([3, 1, 4, 2]), np.array([0, 1, 2, 3]))
        >>> fpr, tpr, thresholds = m.eval()
    """

    def __init__(self, class_num: int | None = None, pos_label: int | None = None) -> None:
        super().__init__()
        for name, v in (("class_num", class_num), ("pos_label", pos_label)):
            if v is not None and (not isinstance(v, int) or isinstance(v, bool)):
                raise TypeError(f"For 'ROC', the '{name}' must be an int, but got {type(v).__name__}.")
        self.class_num = class_num
        self.pos_label = pos_label
        self.clear()

    def clear(self) -> None:
        self.y_pred: Any = 0
        self.y: Any = 0
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Args: the scores and the labels (the last update is the one evaluated)."""
        if len(inputs) != 2:
            raise ValueError(f"For 'ROC.update', it needs 2 inputs (predicted value, true value), but got "
                             f"{len(inputs)}")
        y_pred, y = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        if y_pred.ndim == y.ndim:
            if self.class_num is not None and self.class_num != 1:
                raise ValueError("For 'ROC', when predicted value (input[0]) and true value (input[1]) have "
                                 f"the same shape, the 'class_num' must be 1, but got {self.class_num}.")
            self.class_num = 1
            self.pos_label = 1 if self.pos_label is None else self.pos_label
            y_pred, y = y_pred.reshape(-1), y.reshape(-1)
        elif y_pred.ndim == y.ndim + 1:
            if self.pos_label is not None:
                raise ValueError("For 'ROC', when the dimension of predicted value (input[0]) equals the "
                                 "dimension "
                                 "of true value (input[1]) add 1, the 'pos_label' must be None, but got "
                                 f"{self.pos_label}.")
            if self.class_num != y_pred.shape[1]:
                raise ValueError("For 'ROC', the 'class_num' must equal the number of classes from predicted "
                                 "value "
                                 f"(input[0]), but got 'class_num' {self.class_num}, the number of classes "
                                 f"from predicted value {y_pred.shape[1]}.")
            y_pred, y = np.moveaxis(y_pred, 1, -1).reshape(-1, self.class_num), y.reshape(-1)
        else:
            raise ValueError("For 'ROC', predicted value (input[0]) and true value (input[1]) must have same "
                             "dimensions, or the dimension of predicted value equal the dimension of true "
                             "value add "
                             f"1, but got predicted value ndim: {y_pred.ndim}, true value ndim: {y.ndim}.")
        self.y_pred, self.y = y_pred, y
        self._is_update = True

    def eval(self) -> tuple:
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        if self.class_num == 1:
            return _roc_one(self.y_pred, self.y, self.pos_label)
        curves = [_roc_one(self.y_pred[:, c], self.y, c) for c in range(self.class_num)]
        return tuple([c[i] for c in curves] for i in range(3))


def _as_1d(a: np.ndarray) -> np.ndarray:
    if a.ndim == 1 or (a.ndim == 2 and a.shape[1] == 1):
        return a.reshape(-1)
    raise ValueError("For 'auc', the input must be a 1-dimensional array, or a 2-dimensional array with the "
                     f"second dimension of 1, but got shape {a.shape}.")


def auc(x: np.ndarray, y: np.ndarray, reorder: bool = False) -> float:
    """The area under the curve through the points (x, y), by the trapezoidal rule.

    Args:
        x (numpy.ndarray): monotonic x coordinates (any order with ``reorder``).
        y (numpy.ndarray): y coordinates.
        reorder (bool): sort the points by x (ties by y) first. Default: ``False``.

    Returns:
        float, the area.

    Examples:
        >>> fpr, tpr, _ = nn.ROC(pos_label=2)(np.array([3, 1, 4, 2]), np.array([0, 1, 2, 3]))
        >>> print(nn.auc(fpr, tpr))  # the one positive (label 2) has the highest score
        1.0
    """
    if not isinstance(x, np.ndarray) or not isinstance(y, np.ndarray):
        raise TypeError(f"For 'auc', the argument 'x' and 'y' must all be np.ndarray, but got {type(x)}, "
                        f"{type(y)}")
    for a in (x, y):
        if a.ndim == 0:
            raise TypeError(f"Singleton array {a} cannot be considered as a valid collection.")
    if x.shape[0] != y.shape[0]:
        raise ValueError("Found input variables with inconsistent numbers of samples: "
                         f"{[x.shape[0], y.shape[0]]}.")
    x, y = _as_1d(x), _as_1d(y)
    if x.shape[0] < 2:
        raise ValueError("For 'auc', the shape of the argument 'x' in axis 0 must be greater than 2, but "
                         f"got {x.shape[0]}.")
    direction = 1
    if reorder:
        order = np.lexsort((y, x))
        x, y = x[order], y[order]
    else:
        dx = np.diff(x)
        if np.any(dx < 0):
            if not np.all(dx <= 0):
                raise ValueError("For 'auc', if the argument is False, the argument 'x' array must be "
                                 f"increasing or decreasing, but got 'x': {x}")
            direction = -1
    trapezoid = getattr(np, "trapezoid", None) or np.trapz
    return direction * trapezoid(y, x)
