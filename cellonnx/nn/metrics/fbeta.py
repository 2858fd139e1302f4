"""Fbeta and F1 per class."""
from __future__ import annotations

import sys
from typing import Any

from cellonnx.nn.metrics.metric import (
    Metric,
    _check_onehot_data,
    _class_num,
    _one_hot_rows,
    _two_inputs,
    rearrange_inputs,
)

__all__ = ["F1", "Fbeta"]


class Fbeta(Metric):
    r""":math:`F_\beta = (1+\beta^2) \frac{precision \cdot recall}{\beta^2 precision + recall}` per class.

    Args:
        beta (Union[float, int]): > 0; weight of recall against precision.

    Examples:
        >>> m = nn.Fbeta(1)
        >>> m.update(Tensor([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]]), Tensor([1, 0, 1]))
        >>> m.eval()
        array([0.66666667, 0.66666667])
    """

    def __init__(self, beta: float) -> None:
        super().__init__()
        self.eps = sys.float_info.min
        if not beta > 0:
            raise ValueError(f"For 'Fbeta', 'beta' must be greater than 0, got {beta}")
        self.beta = beta
        self.clear()

    def clear(self) -> None:
        self._true_positives: Any = 0
        self._actual_positives: Any = 0
        self._positives: Any = 0
        self._class_num = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        y_pred, y = _two_inputs(self, inputs)
        if y_pred.ndim == y.ndim and _check_onehot_data(y):
            y = y.argmax(axis=1)
        y_pred, y = _one_hot_rows(self, y_pred, y, _class_num(self, y_pred))
        self._true_positives = self._true_positives + (y * y_pred).sum(axis=0)
        self._positives = self._positives + y_pred.sum(axis=0)
        self._actual_positives = self._actual_positives + y.sum(axis=0)

    def eval(self, average: bool = False) -> Any:
        """Per-class values, or their mean with ``average=True``."""
        if not isinstance(average, bool):
            raise TypeError(f"For '{type(self).__name__}.eval', 'average' must be a bool, got "
                            f"{type(average).__name__}")
        if self._class_num == 0:
            raise RuntimeError(f"The '{type(self).__name__}' can not be calculated, because the number of samples "
                               "is 0; call update with a batch before eval")
        b2 = self.beta ** 2
        fbeta = (1.0 + b2) * self._true_positives / (b2 * self._actual_positives + self._positives + self.eps)
        return fbeta.mean() if average else fbeta


class F1(Fbeta):
    """Fbeta with beta = 1: the harmonic mean of precision and recall, per class.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> metric = nn.F1()
        >>> metric.clear()
        >>> x = Tensor(np.array([[0.2, 0.8], [0.6, 0.4], [0.3, 0.7], [0.9, 0.1]]), ms.float32)
        >>> y = Tensor(np.array([1, 1, 0, 0]), ms.int32)
        >>> metric.update(x, y)
        >>> print(metric.eval())
        [0.5 0.5]
    """

    def __init__(self) -> None:
        super().__init__(1.0)
