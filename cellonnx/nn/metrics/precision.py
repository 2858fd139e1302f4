"""Precision and Recall per class (or per sample for multilabel, as MindSpore)."""
from __future__ import annotations

import sys
from typing import Any

import numpy as np

from cellonnx.nn.metrics.metric import EvaluationBase, _one_hot_rows, rearrange_inputs

__all__ = ["Precision", "Recall"]


class _PrecisionRecall(EvaluationBase):
    _count_pred = True  # Precision divides by predicted positives, Recall by actual positives

    def __init__(self, eval_type: str = "classification") -> None:
        super().__init__(eval_type)
        self.eps = sys.float_info.min
        self.clear()

    def clear(self) -> None:
        self._class_num = 0
        if self._type == "multilabel":
            self._true_positives: Any = np.empty(0)
            self._denominator: Any = np.empty(0)
            self._true_positives_average = 0.0
            self._denominator_average = 0
        else:
            self._true_positives = 0
            self._denominator = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        y_pred, y, c = self._checked_inputs(inputs)
        if self._type == "classification":
            y_pred, y = _one_hot_rows(self, y_pred, y, c)
        else:
            # NOTE: as MindSpore, the multilabel sums run over axis 0 of the (C, N) view: one value per sample
            y_pred = y_pred.swapaxes(1, 0).reshape(c, -1)
            y = y.swapaxes(1, 0).reshape(c, -1)
        denominator = (y_pred if self._count_pred else y).sum(axis=0)
        true_positives = (y * y_pred).sum(axis=0)
        if self._type == "multilabel":
            self._true_positives_average += float(np.sum(true_positives / (denominator + self.eps)))
            self._denominator_average += len(denominator)
            self._true_positives = np.concatenate((self._true_positives, true_positives), axis=0)
            self._denominator = np.concatenate((self._denominator, denominator), axis=0)
        else:
            self._true_positives = self._true_positives + true_positives
            self._denominator = self._denominator + denominator

    def eval(self, average: bool = False) -> Any:
        """Per-class values (per-sample for multilabel), or their mean with ``average=True``."""
        if self._class_num == 0:
            raise RuntimeError(f"The '{type(self).__name__}' can not be calculated, because the number of samples "
                               "is 0; call update with a batch before eval")
        if not isinstance(average, bool):
            raise TypeError(f"For '{type(self).__name__}.eval', 'average' must be a bool, got "
                            f"{type(average).__name__}")
        result = self._true_positives / (self._denominator + self.eps)
        if average:
            if self._type == "multilabel":
                result = np.asarray(self._true_positives_average / (self._denominator_average + self.eps))
            return result.mean()
        return result


class Precision(_PrecisionRecall):
    r"""Precision :math:`TP / (TP + FP)` per class; ``eval(average=True)`` gives the mean.

    Args:
        eval_type (str): 'classification' or 'multilabel'. Default: ``'classification'``.

    Examples:
        >>> m = nn.Precision('classification')
        >>> m.update(Tensor([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]]), Tensor([1, 0, 1]))
        >>> m.eval()
        array([0.5, 1. ])
    """

    _count_pred = True


class Recall(_PrecisionRecall):
    r"""Recall :math:`TP / (TP + FN)` per class; ``eval(average=True)`` gives the mean.

    Args:
        eval_type (str): 'classification' or 'multilabel'. Default: ``'classification'``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> metric = nn.Recall('classification')
        >>> metric.clear()
        >>> x = Tensor(np.array([[0.2, 0.8], [0.6, 0.4], [0.3, 0.7], [0.9, 0.1]]), ms.float32)
        >>> y = Tensor(np.array([1, 1, 0, 0]), ms.int32)
        >>> metric.update(x, y)
        >>> print(metric.eval())
        [0.5 0.5]
    """

    _count_pred = False
