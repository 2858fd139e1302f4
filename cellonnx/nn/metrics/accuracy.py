"""Accuracy for classification and multilabel outputs."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.nn.metrics.metric import EvaluationBase, _empty, rearrange_inputs

__all__ = ["Accuracy"]


class Accuracy(EvaluationBase):
    r"""The share of correct predictions: argmax of y_pred equals the label (classification), or all labels of a
    sample match (multilabel).

    Args:
        eval_type (str): 'classification' (y_pred (N, C, ...), y class indices or one-hot) or 'multilabel' (0/1
            y_pred and y of the same shape). Default: ``'classification'``.

    Examples:
        >>> m = nn.Accuracy()
        >>> m.update(Tensor([[0.2, 0.5], [0.3, 0.1]]), Tensor([1, 0]))
        >>> print(m.eval())
        1.0
    """

    def __init__(self, eval_type: str = "classification") -> None:
        super().__init__(eval_type)
        self.clear()

    def clear(self) -> None:
        self._correct_num = 0
        self._total_num = 0
        self._class_num = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        y_pred, y, c = self._checked_inputs(inputs)
        if self._type == "classification":
            result = np.equal(y_pred.argmax(axis=1), y).reshape(-1)
        else:
            last = y_pred.ndim - 1
            y_pred = y_pred.swapaxes(1, last).reshape(-1, c)
            y = y.swapaxes(1, last).reshape(-1, c)
            result = np.equal(y_pred, y).all(axis=1)
        self._correct_num += int(result.sum())
        self._total_num += result.shape[0]

    def eval(self) -> float:
        if self._total_num == 0:
            raise _empty(self)
        return np.float64(self._correct_num) / self._total_num  # a float64, as MindSpore returns
