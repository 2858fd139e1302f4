"""Similarity metrics: the cosine / dot similarity matrix of a batch, and the Dice coefficient."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.nn.metrics.metric import Metric, rearrange_inputs

__all__ = ["CosineSimilarity", "Dice"]


def _choice(value: Any, name: str, cls: str, allowed: list[str]) -> str:
    if not isinstance(value, str):
        raise TypeError(f"For '{cls}', the '{name}' must be a str, but got {type(value).__name__}.")
    if value not in allowed:
        raise ValueError(f"For '{cls}', the '{name}' must be in {allowed}, but got {value}.")
    return value


class CosineSimilarity(Metric):
    r"""The similarity of every pair of rows of one batch: :math:`S_{ij} = x_i \cdot x_j`, divided by
    :math:`\|x_i\| \|x_j\|` for ``'cosine'``. Each ``update`` replaces the matrix.

    Args:
        similarity (str): ``'cosine'`` or ``'dot'``. Default: ``'cosine'``.
        reduction (str): ``'none'`` (the matrix), ``'sum'`` or ``'mean'`` (over each row). Default:
        ``'none'``.
        zero_diagonal (bool): set the self-similarities to 0. Default: ``True``.

    Examples:
        >>> m = nn.CosineSimilarity()
        >>> m.update(np.array([[1, 3, 4, 7], [2, 4, 2, 5], [3, 1, 5, 8]]))
        >>> m.eval().shape
        (3, 3)
    """

    def __init__(self, similarity: str = "cosine", reduction: str = "none",
                 zero_diagonal: bool = True) -> None:
        super().__init__()
        self.similarity = _choice(similarity, "similarity", "CosineSimilarity", ["dot", "cosine"])
        self.reduction = _choice(reduction, "reduction", "CosineSimilarity", ["none", "sum", "mean"])
        if not isinstance(zero_diagonal, bool):
            raise TypeError(f"For 'CosineSimilarity', the 'zero_diagonal' must be a bool, but got "
                            f"{type(zero_diagonal).__name__}.")
        self.zero_diagonal = zero_diagonal
        self.clear()

    def clear(self) -> None:
        self.sqr_mtx_res: Any = 0
        self._is_update = False

    @rearrange_inputs
    def update(self, inputs: Any) -> None:
        """Args: a batch of vectors, (N, D)."""
        x = self._convert_data(inputs)
        if self.similarity == "cosine":
            x = x / np.expand_dims(np.linalg.norm(x, ord=2, axis=1), 1)
        self.sqr_mtx_res = np.dot(x, x.T)
        self._is_update = True

    def eval(self) -> np.ndarray:
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        if self.zero_diagonal:
            np.fill_diagonal(self.sqr_mtx_res, 0)
        if self.reduction == "mean":
            self.sqr_mtx_res = np.mean(self.sqr_mtx_res, axis=-1)
        elif self.reduction == "sum":
            self.sqr_mtx_res = np.sum(self.sqr_mtx_res, axis=-1)
        return self.sqr_mtx_res


class Dice(Metric):
    r"""The Dice coefficient :math:`\frac{2 |X \cap Y|}{|X|^2 + |Y|^2 + \text{smooth}}` of each batch (the
    products summed over all its elements), summed over the updates and divided by the number of samples (the
    batches' first dimensions).

    Args:
        smooth (float): > 0. Default: ``1e-5``.

    Examples:
        >>> m = nn.Dice(smooth=1e-5)
        >>> m.update(np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]]), np.array([[0, 1], [1, 0], [0, 1]]))
    """

    def __init__(self, smooth: float = 1e-5) -> None:
        super().__init__()
        if not isinstance(smooth, float) or not smooth > 0:
            raise ValueError(f"For 'Dice', the 'smooth' must be a positive float, but got {smooth!r}.")
        self.smooth = smooth
        self.clear()

    def clear(self) -> None:
        self._dice_coeff_sum = 0.0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Args: the prediction and the label, of one shape."""
        if len(inputs) != 2:
            raise ValueError(f"For 'Dice.update', it needs 2 inputs (predicted value, true value), but got "
                             f"{len(inputs)}.")
        y_pred, y = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        self._samples_num += y.shape[0]
        if y_pred.shape != y.shape:
            raise ValueError("For 'Dice.update', predicted value (input[0]) and true value (input[1]) "
                             "should have "
                             f"same shape, but got predicted value shape: {y_pred.shape}, true value shape: "
                             f"{y.shape}.")
        p, t = y_pred.reshape(-1), y.reshape(-1)
        self._dice_coeff_sum += 2 * float(np.dot(p, t)) / float(np.dot(p, p) + np.dot(t, t) + self.smooth)

    def eval(self) -> float:
        if self._samples_num == 0:
            raise RuntimeError("The 'Dice coefficient' can not be calculated, because the number of samples "
                               "is 0, "
                               "please check whether your inputs(predicted value, true value) are empty, or "
                               "has called update method before calling eval method.")
        return self._dice_coeff_sum / float(self._samples_num)
