"""Occlusion sensitivity: how much a classifier's score for the true class drops when each part of the input
is
masked."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.nn.metrics.metric import Metric, rearrange_inputs
from cellonnx.tensor import Tensor

__all__ = ["OcclusionSensitivity"]


def _bounding_box(b_box: list | None, shape: np.ndarray) -> tuple[np.ndarray | None, np.ndarray | None]:
    if b_box is None:
        return None, None
    if len(b_box) != 2 * len(shape):
        raise ValueError("For 'OcclusionSensitivity', the bounding box must contain upper and lower for all "
                         "dimensions (except batch number), and the length of 'b_box' must be twice as long "
                         f"as predicted value's (except batch number), but got 'b_box' length {len(b_box)}, "
                         f"predicted value length (except batch number) {len(shape)}.")
    low, high = np.array(b_box[::2]), np.array(b_box[1::2])
    low[low < 0] = 0
    high[high < 0] = shape[high < 0] - 1
    if np.any(high >= shape):
        raise ValueError("For 'OcclusionSensitivity', maximum bounding box must be smaller than image size "
                         "for all values.")
    if np.any(low > high):
        raise ValueError("For 'OcclusionSensitivity', minimum bounding box must be smaller than maximum "
                         "bounding box for all values.")
    return low, high


class OcclusionSensitivity(Metric):
    r"""Occlusion sensitivity of a classification network for one input.

    For every position of the input (or of ``b_box``), the window from ``margin`` before it to ``margin``
    after
    it (end excluded) over all the input's non-batch axes is set to ``pad_val``; the result at that position
    is
    the baseline score of the label minus the score of the occluded input. The network runs on batches of
    ``n_batch`` occluded copies.

    Args:
        pad_val (float): the occluding value. Default: ``0.0``.
        margin (Union[int, list]): the half width of the occluding window. Default: ``2``.
        n_batch (int): occluded copies per network call. Default: ``128``.
        b_box (list, optional): ``[min, max]`` per non-batch axis (inclusive; negatives mean the axis' end) to
            restrict the positions. Default: ``None`` (all).

    Examples:
        >>> m = nn.OcclusionSensitivity()
        >>> net = nn.SequentialCell([nn.Flatten(), nn.Dense(3 * 8 * 8, 2)])
        >>> m.update(net, np.random.rand(1, 3, 8, 8).astype(np.float32), np.array([1]))
        >>> m.eval().shape
        (3, 8, 8)
    """

    def __init__(self, pad_val: float = 0.0, margin: Any = 2, n_batch: int = 128,
                 b_box: list | None = None) -> None:
        super().__init__()
        if not isinstance(pad_val, float):
            raise TypeError(f"For 'OcclusionSensitivity', the 'pad_val' must be a float, but got "
                            f"{type(pad_val).__name__}.")
        if isinstance(margin, bool) or not isinstance(margin, (int, list)):
            raise TypeError(f"For 'OcclusionSensitivity', the 'margin' must be an int or list, but got "
                            f"{type(margin).__name__}.")
        if not isinstance(n_batch, int) or isinstance(n_batch, bool):
            raise TypeError(f"For 'OcclusionSensitivity', the 'n_batch' must be an int, but got "
                            f"{type(n_batch).__name__}.")
        if b_box is not None and not isinstance(b_box, list):
            raise TypeError("For 'OcclusionSensitivity', the 'b_box' must be a list, but got "
                            f"{type(b_box).__name__}.")
        self.pad_val = pad_val
        self.margin = margin
        self.n_batch = n_batch
        self.b_box = b_box
        self.clear()

    def clear(self) -> None:
        self._baseline: Any = 0
        self._sensitivity_im: Any = 0
        self._is_update = False

    def _scores(self, model: Any, images: list[np.ndarray], label: np.ndarray) -> np.ndarray:
        out = model(Tensor(np.vstack(images))).asnumpy()
        return out[np.arange(len(images))[:, None], np.broadcast_to(label.reshape(-1), (len(images),
                                                                                        label.size))]

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Args: the classification network (a Cell), one input (batch of 1) and its label."""
        from cellonnx.nn.cell import Cell

        if len(inputs) != 3:
            raise ValueError("For 'OcclusionSensitivity.update', it needs 3 inputs (classification model, "
                             f"predicted value, label), but got {len(inputs)}.")
        model = inputs[0]
        if not isinstance(model, Cell):
            raise TypeError(f"For 'OcclusionSensitivity.update', the model must be a Cell, but got "
                            f"{type(model).__name__}.")
        x = self._convert_data(inputs[1])
        label = np.array([[inputs[2]]], dtype=int) if isinstance(inputs[2],
                                                                 int) else self._convert_data(inputs[2])
        if x.shape[0] > 1:
            raise RuntimeError("For 'OcclusionSensitivity.update', the shape at index 0 of the predicted "
                               f"value (input[1]) must be 1, but got {x.shape[0]}.")
        if np.prod(label.shape) != x.shape[0]:
            raise RuntimeError("For 'OcclusionSensitivity.update', the number of the label (input[2]) must "
                               "be same "
                               f"as the batches, but got the label number {np.prod(label.shape)}, and "
                               f"batches {x.shape[0]}.")
        shape = np.array(x.shape[1:])
        low, high = _bounding_box(self.b_box, shape)
        self._baseline = model(Tensor(x)).asnumpy()[0, label].item()
        out_shape = shape if low is None else high - low + 1
        total = int(np.prod(out_shape))
        scores: list[np.ndarray] = []
        batch: list[np.ndarray] = []
        for i in range(total):
            idx = np.unravel_index(i, out_shape)
            if low is not None:
                idx = tuple(np.asarray(idx) + low)
            lo = [max(0, int(k) - self.margin) for k in idx]
            hi = [min(int(n), int(k) + self.margin) for k, n in zip(idx, shape)]
            occluded = x.copy()
            occluded[(...,) + tuple(slice(a, b) for a, b in zip(lo, hi))] = self.pad_val
            batch.append(occluded)
            if len(batch) == self.n_batch or i == total - 1:
                scores.append(self._scores(model, batch, label))
                batch = []
        self._sensitivity_im = np.vstack(scores).reshape(out_shape)
        self._is_update = True

    def eval(self) -> np.ndarray:
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        return self._baseline - np.squeeze(self._sensitivity_im)
