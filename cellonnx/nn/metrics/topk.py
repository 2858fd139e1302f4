"""Top-k categorical accuracy."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.nn.metrics.metric import Metric, _check_onehot_data, _empty, _two_inputs, rearrange_inputs

__all__ = ["Top1CategoricalAccuracy", "Top5CategoricalAccuracy", "TopKCategoricalAccuracy"]


class TopKCategoricalAccuracy(Metric):
    """The share of samples whose label is among the k highest predictions.

    Args:
        k (int): at least 1.

    Examples:
        >>> m = nn.TopKCategoricalAccuracy(2)
        >>> m.update(Tensor([[0.2, 0.5, 0.3], [0.6, 0.1, 0.3]]), Tensor([2, 1]))
        >>> print(m.eval())
        0.5
    """

    def __init__(self, k: int) -> None:
        super().__init__()
        if not isinstance(k, int) or isinstance(k, bool):
            raise TypeError(f"For 'TopKCategoricalAccuracy', 'k' must be an int, got {type(k).__name__}")
        if k < 1:
            raise ValueError(f"For 'TopKCategoricalAccuracy', 'k' must be at least 1, got {k}")
        self.k = k
        self.clear()

    def clear(self) -> None:
        self._correct_num = 0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        y_pred, y = _two_inputs(self, inputs)
        if y_pred.ndim == y.ndim and _check_onehot_data(y):
            y = y.argmax(axis=1)
        # NumPy's default argsort, as MindSpore: the same choice among tied scores
        top = np.argsort(-y_pred, axis=1)[:, :self.k]
        correct = np.equal(top, y.reshape(-1, 1)).sum(axis=1)
        self._correct_num += int(correct.sum())
        self._samples_num += top.shape[0]

    def eval(self) -> float:
        if self._samples_num == 0:
            raise _empty(self)
        return np.float64(self._correct_num) / self._samples_num  # a float64, as MindSpore returns


class Top1CategoricalAccuracy(TopKCategoricalAccuracy):
    """Top-1 categorical accuracy.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> metric = nn.Top1CategoricalAccuracy()
        >>> metric.clear()
        >>> x = Tensor(np.array([[0.2, 0.5, 0.3], [0.3, 0.2, 0.5], [0.6, 0.1, 0.3]]), ms.float32)
        >>> y = Tensor(np.array([1, 0, 0]), ms.int32)
        >>> metric.update(x, y)
        >>> print(metric.eval())
        0.6666666666666666
    """

    def __init__(self) -> None:
        super().__init__(1)


class Top5CategoricalAccuracy(TopKCategoricalAccuracy):
    """Top-5 categorical accuracy.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> metric = nn.Top5CategoricalAccuracy()
        >>> metric.clear()
        >>> scores = np.array([[0.1, 0.2, 0.3, 0.4, 0.5, 0.6], [0.6, 0.5, 0.4, 0.3, 0.2, 0.1]])
        >>> logits = Tensor(scores, ms.float32)
        >>> labels = Tensor(np.array([0, 0]), ms.int32)
        >>> metric.update(logits, labels)
        >>> print(metric.eval())
        0.5
    """

    def __init__(self) -> None:
        super().__init__(5)
