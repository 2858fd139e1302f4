"""General data transforms for ``Dataset.map`` (``mindspore.dataset.transforms``): Compose, TypeCast, OneHot,
Duplicate."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

__all__ = ["Compose", "Duplicate", "OneHot", "TypeCast"]


def _np_dtype(data_type: Any) -> np.dtype:
    from cellonnx import dtypes
    if isinstance(data_type, dtypes.DType):
        return np.dtype(dtypes.to_numpy(data_type))
    return np.dtype(data_type)


class TypeCast:
    """Cast a column to ``data_type`` (a cellonnx dtype or a NumPy dtype).

    Examples:
        >>> from cellonnx.dataset import NumpySlicesDataset
        >>> from cellonnx.dataset.transforms import TypeCast
        >>> ds = NumpySlicesDataset({"label": np.arange(4, dtype=np.int64)}, shuffle=False)
        >>> ds = ds.map(TypeCast(ms.int32), input_columns="label")
        >>> next(ds.create_tuple_iterator())[0].dtype
        mindspore.int32
    """

    def __init__(self, data_type: Any) -> None:
        self.data_type = _np_dtype(data_type)

    def __call__(self, x: Any) -> np.ndarray:
        return np.asarray(x).astype(self.data_type)


class OneHot:
    """Integer labels to one-hot rows of ``num_classes`` (``smoothing_rate`` spreads that much mass over the
    classes as in MindSpore)."""

    def __init__(self, num_classes: int, smoothing_rate: float = 0.0) -> None:
        if isinstance(num_classes, bool) or not isinstance(num_classes, int) or num_classes <= 0:
            raise ValueError(f"OneHot: num_classes must be a positive int, got {num_classes!r}")
        if not 0.0 <= smoothing_rate <= 1.0:
            raise ValueError(f"OneHot: smoothing_rate must be in [0, 1], got {smoothing_rate}")
        self.num_classes, self.smoothing_rate = num_classes, smoothing_rate

    def __call__(self, x: Any) -> np.ndarray:
        x = np.asarray(x)
        if x.dtype.kind not in "iu":
            raise TypeError(f"OneHot: labels must be integers, got {x.dtype}")
        out = np.eye(self.num_classes, dtype=x.dtype)[x]
        if self.smoothing_rate:
            out = out * (1 - self.smoothing_rate) + self.smoothing_rate / self.num_classes
        return out


class Duplicate:
    """Return the column twice (map it with two output columns)."""

    def __call__(self, x: Any) -> tuple[np.ndarray, np.ndarray]:
        x = np.asarray(x)
        return x, x.copy()


class Compose:
    """Chain transforms into one callable."""

    def __init__(self, transforms: Sequence[Callable]) -> None:
        if not transforms or not all(callable(t) for t in transforms):
            raise ValueError("Compose: transforms must be a non-empty list of callables")
        self.transforms = list(transforms)

    def __call__(self, *args: Any) -> Any:
        vals: Any = args
        for t in self.transforms:
            vals = t(*vals)
            vals = tuple(vals) if isinstance(vals, (tuple, list)) else (vals,)
        return vals[0] if len(vals) == 1 else vals
