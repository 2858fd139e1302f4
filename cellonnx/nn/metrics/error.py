"""Regression errors: MAE and MSE (summed over each sample's elements, averaged over samples, as MindSpore)."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.nn.metrics.metric import Metric, _empty, _two_inputs, rearrange_inputs

__all__ = ["MAE", "MSE"]


class _SampleError(Metric):
    """The error of each element summed over all samples seen, divided by the number of samples."""

    def __init__(self) -> None:
        super().__init__()
        self.clear()

    @staticmethod
    def _error(diff: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def clear(self) -> None:
        self._error_sum: Any = 0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        y_pred, y = _two_inputs(self, inputs)
        # summed in float64 across updates: MindSpore's result is a float64 (as it documents)
        self._error_sum += np.float64(self._error(y.reshape(y_pred.shape) - y_pred).sum())
        self._samples_num += y.shape[0]

    def eval(self) -> Any:
        if self._samples_num == 0:
            raise _empty(self)
        return self._error_sum / self._samples_num


class MAE(_SampleError):
    r"""Mean absolute error: :math:`\frac{1}{N}\sum_i \sum_j |y_{ij} - \hat y_{ij}|` (N = samples, i.e. first
    dimension).

    Examples:
        >>> m = nn.MAE()
        >>> m.update(Tensor([0.1, 0.2, 0.6, 0.9]), Tensor([0.1, 0.25, 0.7, 0.9]))
        >>> print(round(m.eval(), 6))
        0.0375
    """

    @staticmethod
    def _error(diff: np.ndarray) -> np.ndarray:
        return np.abs(diff)


class MSE(_SampleError):
    r"""Mean squared error: :math:`\frac{1}{N}\sum_i \sum_j (y_{ij} - \hat y_{ij})^2` (N = samples).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> metric = nn.MSE()
        >>> metric.clear()
        >>> y_pred = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> y = Tensor(np.array([1.0, 1.0, 1.0]), ms.float32)
        >>> metric.update(y_pred, y)
        >>> print(round(metric.eval(), 4))
        1.6667
    """

    @staticmethod
    def _error(diff: np.ndarray) -> np.ndarray:
        return np.square(diff)
