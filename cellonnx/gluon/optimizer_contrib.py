"""MXNet 1.9's contrib optimizers (mx.optimizer.contrib), on NumPy arrays.

    GroupAdaGrad: g = clip(rescale_grad * grad);  h += mean(g^2 over each row);  w -= lr * g / sqrt(h + eps)
                  (one history value per row of a 2-D weight; no weight decay)
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.gluon.optimizer import Optimizer, register

__all__ = ["GroupAdaGrad"]


@register
class GroupAdaGrad(Optimizer):
    """AdaGrad with one learning rate per row of a 2-D weight (embeddings), MXNet's contrib optimizer. Its
    update is row by row, so a lazy update of a row-sparse gradient's rows is the same update on them.

    Args:
        eps: added to the history under the square root. Default: 1e-5.

    Raises:
        ValueError: a weight that is not 2-D, or a non-zero weight decay.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> opt = mx.optimizer.contrib.GroupAdaGrad(learning_rate=0.1)
        >>> w = np.zeros((2, 2), np.float32)
        >>> g = np.array([[1.0, 1.0], [2.0, 0.0]], np.float32)
        >>> print(np.round(opt.update(0, w, g, opt.create_state(0, w)), 4))
        [[-0.1    -0.1   ]
         [-0.1414  0.    ]]
    """

    def __init__(self, eps: float = 1e-5, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.float_stable_eps = eps

    def create_state(self, index: Any, weight: np.ndarray) -> Any:
        if weight.ndim != 2:
            raise ValueError(f"GroupAdaGrad: weight {index!r} has shape {weight.shape}; it takes 2-D weights")
        return np.zeros((weight.shape[0], 1), np.float32)

    def update(self, index: Any, weight: Any, grad: Any, state: Any) -> Any:
        if isinstance(index, (list, tuple)):
            return super().update(index, weight, grad, state)
        self._update_count(index)
        lr, wd = self._get_lr(index), self._get_wd(index)
        if wd != 0:
            raise ValueError(f"GroupAdaGrad: weight decay is not supported (weight {index!r} has wd={wd})")
        dt = weight.dtype.type
        g = self._clip_py(grad * dt(self.rescale_grad))
        state[...] = state + np.mean(g * g, axis=1, keepdims=True)
        new = weight - dt(lr) * g / np.sqrt(state + dt(self.float_stable_eps))
        return new.astype(weight.dtype, copy=False)
