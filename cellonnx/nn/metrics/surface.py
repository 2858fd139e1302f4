"""Segmentation surface metrics: Hausdorff distance, mean surface distance and root mean square surface
distance between the edges of a predicted and a true mask (SciPy's distance transforms)."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.nn.metrics.metric import Metric, rearrange_inputs

__all__ = ["HausdorffDistance", "MeanSurfaceDistance", "RootMeanSquareDistance"]

_METRICS = ["euclidean", "chessboard", "taxicab"]


def _ndimage() -> Any:
    from scipy import ndimage  # imported when a surface metric is first used: SciPy loads slowly
    return ndimage


def _edges(mask: np.ndarray) -> np.ndarray:
    """The mask's boundary: the voxels its binary erosion removes."""
    return _ndimage().binary_erosion(mask) ^ mask


def _surface_distance(metric: str, from_edges: np.ndarray, to_edges: np.ndarray) -> np.ndarray:
    """For every edge voxel of ``from_edges``, the distance to the nearest edge voxel of ``to_edges`` (inf
    when that has none); empty when ``from_edges`` has none."""
    if not np.any(from_edges):
        return np.array([])
    if not np.any(to_edges):
        dist = np.full(to_edges.shape, np.inf)
    elif metric == "euclidean":
        dist = _ndimage().distance_transform_edt(~to_edges)
    else:
        dist = _ndimage().distance_transform_cdt(~to_edges, metric=metric)
    return dist[from_edges]


class _SurfaceMetric(Metric):
    """update(y_pred, y, label_idx): the masks ``== label_idx`` (boolean inputs as they are) and their
    edges."""

    _name = ""

    def _check_metric(self, distance_metric: Any) -> str:
        if not isinstance(distance_metric, str):
            raise TypeError(f"For '{self._name}', the 'distance_metric' must be a str, but got "
                            f"{type(distance_metric).__name__}.")
        if distance_metric not in _METRICS:
            raise ValueError(f"For '{self._name}', the 'distance_metric' must be in {_METRICS}, but got "
                             f"{distance_metric}.")
        return distance_metric

    def _masks(self, inputs: tuple) -> tuple[np.ndarray, np.ndarray]:
        name = self._name
        if len(inputs) != 3:
            raise ValueError(f"For '{name}.update', it needs 3 inputs (predicted value, true value, label "
                             f"index), but got {len(inputs)}.")
        y_pred, y = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        label_idx = inputs[2]
        if isinstance(label_idx, bool) or not isinstance(label_idx, (int, float)):
            raise ValueError(f"For '{name}.update', the label index (input[2]) must be int or float, but got "
                             f"{type(label_idx)}.")
        if label_idx not in y_pred and label_idx not in y:
            raise ValueError(f"For '{name}.update', the label index (input[2]) must be in predicted value "
                             f"(input[0]) or true value (input[1]), but {label_idx} is not.")
        if y_pred.size == 0 or y_pred.shape != y.shape:
            raise ValueError(f"For '{name}.update', the predicted value (input[0]) and true value (input[1]) "
                             f"must be non-empty and of one shape, but got {y_pred.shape} and {y.shape}.")
        y_pred = y_pred if y_pred.dtype == bool else y_pred == label_idx
        y = y if y.dtype == bool else y == label_idx
        return y_pred, y


class HausdorffDistance(_SurfaceMetric):
    r"""The Hausdorff distance between the edges of the predicted and the true mask of one label: the largest
    (or the ``percentile``-th) distance from an edge voxel of one to the nearest edge voxel of the other, the
    larger of the two directions unless ``directed``.

    Args:
        distance_metric (str): ``'euclidean'``, ``'chessboard'`` or ``'taxicab'``. Default: ``'euclidean'``.
        percentile (float, optional): in [0, 100], a robust Hausdorff distance. Default: ``None`` (the
        maximum).
        directed (bool): the distance from the prediction to the label only. Default: ``False``.
        crop (bool): crop both masks to the bounding box of their union first. Default: ``True``.

    Examples:
        >>> m = nn.HausdorffDistance()
        >>> pred = np.array([[3, 0, 1], [1, 1, 0], [0, 1, 1]])
        >>> m.update(pred, np.array([[1, 1, 0], [3, 1, 0], [0, 1, 1]]), 0)
    """

    _name = "HausdorffDistance"

    def __init__(self, distance_metric: str = "euclidean", percentile: float | None = None,
                 directed: bool = False,
                 crop: bool = True) -> None:
        super().__init__()
        self.distance_metric = self._check_metric(distance_metric)
        if percentile is not None and not isinstance(percentile, float):
            raise TypeError(f"For 'HausdorffDistance', the 'percentile' must be a float, but got "
                            f"{type(percentile).__name__}.")
        for name, v in (("directed", directed), ("crop", crop)):
            if v is not None and not isinstance(v, bool):
                raise TypeError(f"For 'HausdorffDistance', the '{name}' must be a bool, but got "
                                f"{type(v).__name__}.")
        self.percentile = percentile
        self.directed = directed
        self.crop = crop
        self.clear()

    def clear(self) -> None:
        self.y_pred_edges: Any = 0
        self.y_edges: Any = 0
        self._is_update = False

    @staticmethod
    def _bounding_box(mask: np.ndarray) -> tuple[slice, ...]:
        found = np.nonzero(mask)
        return tuple(slice(int(ix.min()), int(ix.max()) + 1) for ix in found)

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Args: the predicted mask, the true mask (of one shape) and the label index (int or float)."""
        self._is_update = True
        y_pred, y = self._masks(inputs)
        if self.crop:
            union = y_pred | y
            if not np.any(union):
                self.y_pred_edges, self.y_edges = np.zeros_like(y_pred), np.zeros_like(y)
                return
            box = self._bounding_box(union)
            y_pred, y = np.squeeze(y_pred[box]), np.squeeze(y[box])
        self.y_pred_edges, self.y_edges = _edges(y_pred), _edges(y)

    def _directed(self, from_edges: np.ndarray, to_edges: np.ndarray) -> float:
        dist = _surface_distance(self.distance_metric, from_edges, to_edges)
        if dist.shape == (0,):
            return np.inf
        if not self.percentile:
            return dist.max()
        if 0 <= self.percentile <= 100:
            return np.percentile(dist, self.percentile)
        raise ValueError("For 'HausdorffDistance', the value of the argument 'percentile' must be [0, 100], "
                         f"but got {self.percentile}.")

    def eval(self) -> float:
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        hd = self._directed(self.y_pred_edges, self.y_edges)
        if self.directed:
            return hd
        return max(hd, self._directed(self.y_edges, self.y_pred_edges))


class _MeanDistance(_SurfaceMetric):
    def __init__(self, symmetric: bool = False, distance_metric: str = "euclidean") -> None:
        super().__init__()
        self.distance_metric = self._check_metric(distance_metric)
        if not isinstance(symmetric, bool):
            raise TypeError(f"For '{self._name}', the 'symmetric' must be a bool, but got "
                            f"{type(symmetric).__name__}.")
        self.symmetric = symmetric
        self.clear()

    def clear(self) -> None:
        self._y_pred_edges: Any = 0
        self._y_edges: Any = 0
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Args: the predicted mask, the true mask (of one shape) and the label index (int or float)."""
        y_pred, y = self._masks(inputs)
        self._y_pred_edges, self._y_edges = _edges(y_pred), _edges(y)
        self._is_update = True

    def _distances(self) -> tuple[np.ndarray, np.ndarray | None]:
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        forward = _surface_distance(self.distance_metric, self._y_pred_edges, self._y_edges)
        if not self.symmetric or forward.shape == (0,):
            return forward, None
        return forward, _surface_distance(self.distance_metric, self._y_edges, self._y_pred_edges)


class MeanSurfaceDistance(_MeanDistance):
    r"""The mean distance from the edge voxels of the predicted mask of one label to the nearest edge voxel of
    the true mask; with ``symmetric``, the mean of both directions' means.

    Args:
        symmetric (bool): average both directions. Default: ``False``.
        distance_metric (str): ``'euclidean'``, ``'chessboard'`` or ``'taxicab'``. Default: ``'euclidean'``.

    Examples:
        >>> m = nn.MeanSurfaceDistance(symmetric=False, distance_metric="euclidean")
    """

    _name = "MeanSurfaceDistance"

    def eval(self) -> float:
        forward, backward = self._distances()
        if forward.shape == (0,):
            return np.inf
        if not self.symmetric:
            return forward.mean()
        if backward is None or backward.shape == (0,):
            return np.inf
        return np.mean((forward.mean(), backward.mean()))


class RootMeanSquareDistance(_MeanDistance):
    r"""The root mean square surface distance between the predicted and the true mask of one label.

    With ``symmetric``: :math:`\sqrt{(\overline{d_{pt}^2} + \overline{d_{tp}^2}) / 2}`. Without, MindSpore
    returns
    the mean of the squared distances :math:`\overline{d_{pt}^2}` (no square root), and so does this.

    Args:
        symmetric (bool): average both directions. Default: ``False``.
        distance_metric (str): ``'euclidean'``, ``'chessboard'`` or ``'taxicab'``. Default: ``'euclidean'``.

    Examples:
        >>> m = nn.RootMeanSquareDistance(symmetric=True)
    """

    _name = "RootMeanSquareDistance"

    def eval(self) -> float:
        forward, backward = self._distances()
        if forward.shape == (0,):
            return np.inf
        if not self.symmetric:
            return (forward ** 2).mean()
        if backward is None or backward.shape == (0,):
            return np.inf
        return np.sqrt(np.mean(((forward ** 2).mean(), (backward ** 2).mean())))

