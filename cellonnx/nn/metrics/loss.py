"""Loss: the average of the loss values seen (each update's mean counts once)."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.nn.metrics.metric import Metric, _empty, rearrange_inputs

__all__ = ["Loss"]


class Loss(Metric):
    r"""Average of the per-update mean loss: :math:`\frac{1}{k}\sum_i loss_i`.

    Examples:
        >>> m = nn.Loss()
        >>> m.update(Tensor([0.2, 0.4]))
        >>> m.eval()
        np.float64(0.30000001192092896)
    """

    def __init__(self) -> None:
        super().__init__()
        self.clear()

    def clear(self) -> None:
        self._sum_loss: Any = 0
        self._total_num = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        if len(inputs) != 1:
            raise ValueError(f"For 'Loss.update', 1 input (the loss) is needed, got {len(inputs)}")
        loss = self._convert_data(inputs[0])
        if loss.ndim == 0:
            loss = loss.reshape(1)
        if loss.ndim != 1:
            raise ValueError(f"For 'Loss.update', the loss must be 0-D or 1-D, got {loss.ndim}-D")
        self._sum_loss += np.float64(loss.mean(-1))  # MindSpore's result is a float64 (as it documents)
        self._total_num += 1

    def eval(self) -> Any:
        if self._total_num == 0:
            raise _empty(self)
        return self._sum_loss / self._total_num
