"""Metric base classes: ``clear()`` / ``update(*inputs)`` / ``eval()`` over NumPy accumulators."""
from __future__ import annotations

import functools
from abc import ABCMeta, abstractmethod
from collections.abc import Callable
from typing import Any

import numpy as np

from cellonnx.tensor import Tensor

__all__ = ["EvaluationBase", "Metric", "rearrange_inputs"]

_EVAL_TYPES = ("classification", "multilabel")


def rearrange_inputs(func: Callable) -> Callable:
    """Decorator for ``update``: pick the inputs named by ``set_indexes`` (e.g. [1, 2] of (loss, logits, label)).

    Examples:
        >>> import numpy as np
        >>> from cellonnx import Tensor, nn
        >>> class Sum(nn.Metric):
        ...     def clear(self):
        ...         self.total = 0
        ...     @nn.rearrange_inputs
        ...     def update(self, a, b):
        ...         self.total += float(a.sum()) - float(b.sum())
        ...     def eval(self):
        ...         return self.total
        >>> m = Sum().set_indexes([1, 0])
        >>> m.clear()
        >>> m.update(Tensor(np.array([1.0])), Tensor(np.array([5.0])))
        >>> print(m.eval())
        4.0
    """

    @functools.wraps(func)
    def wrapper(self: Metric, *inputs: Any) -> Any:
        indexes = self.indexes
        return func(self, *(inputs if not indexes else [inputs[i] for i in indexes]))

    return wrapper


class Metric(metaclass=ABCMeta):
    """Base class of metrics: subclasses define ``clear``, ``update`` and ``eval``; calling a metric clears,
    updates once and evaluates.

    Examples:
        >>> import numpy as np
        >>> from cellonnx import nn
        >>> class MeanValue(nn.Metric):
        ...     def clear(self):
        ...         self.total, self.count = 0.0, 0
        ...     def update(self, *inputs):
        ...         values = self._convert_data(inputs[0])
        ...         self.total += float(values.sum())
        ...         self.count += values.size
        ...     def eval(self):
        ...         return self.total / self.count
        >>> metric = MeanValue()
        >>> metric.clear()
        >>> metric.update(np.array([1.0, 2.0, 3.0]))
        >>> metric.eval()
        2.0
    """

    def __init__(self) -> None:
        self._indexes: list[int] | None = None

    def _convert_data(self, data: Any) -> np.ndarray:
        if isinstance(data, Tensor):
            return data.asnumpy()
        if isinstance(data, list):
            return np.array(data)
        if isinstance(data, np.ndarray):
            return data
        raise TypeError(f"For '{type(self).__name__}', the inputs must be Tensor, list or numpy.ndarray, got "
                        f"{type(data).__name__}")

    @property
    def indexes(self) -> list[int] | None:
        return getattr(self, "_indexes", None)

    def set_indexes(self, indexes: list[int]) -> Metric:
        """Use these positions of the evaluation network's outputs as this metric's inputs."""
        if not isinstance(indexes, list) or not all(isinstance(i, int) for i in indexes):
            raise ValueError(f"For 'set_indexes', 'indexes' must be a list of int, got {indexes!r}")
        self._indexes = indexes
        return self

    def __call__(self, *inputs: Any) -> Any:
        self.clear()
        self.update(*inputs)
        return self.eval()

    @abstractmethod
    def clear(self) -> None:
        """Reset the accumulated state."""

    @abstractmethod
    def eval(self) -> Any:
        """The metric over everything seen since ``clear``."""

    @abstractmethod
    def update(self, *inputs: Any) -> None:
        """Accumulate one batch."""


class EvaluationBase(Metric):
    """Base of classification / multilabel metrics: checks the (y_pred, y) shapes and values.

    Args:
        eval_type (str): ``'classification'`` (y holds class indices, or one-hot rows) or ``'multilabel'``
            (y_pred and y of the same shape, of 0 and 1).

    Raises:
        TypeError: ``eval_type`` is neither.

    Examples:
        >>> class Hits(nn.EvaluationBase):
        ...     def __init__(self):
        ...         super().__init__('classification')
        ...         self.clear()
        ...     def clear(self):
        ...         self.hits, self.total = 0, 0
        ...     def update(self, *inputs):
        ...         y_pred, y = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        ...         self._check_shape(y_pred, y)
        ...         self.hits += int((y_pred.argmax(axis=1) == y).sum())
        ...         self.total += y.shape[0]
        ...     def eval(self):
        ...         return self.hits / self.total
        >>> metric = Hits()
        >>> metric.update(Tensor(np.array([[0.2, 0.8], [0.9, 0.1]])), Tensor(np.array([1, 1])))
        >>> print(metric.eval())
        0.5
    """

    def __init__(self, eval_type: str) -> None:
        super().__init__()
        if eval_type not in _EVAL_TYPES:
            raise TypeError(f"'eval_type' must be one of {list(_EVAL_TYPES)}, got {eval_type!r}")
        self._type = eval_type

    def _check_shape(self, y_pred: np.ndarray, y: np.ndarray) -> None:
        name = type(self).__name__
        if self._type == "classification":
            if y_pred.ndim != y.ndim + 1:
                raise ValueError(f"For '{name}', classification needs y_pred with one more dimension than y, got "
                                 f"y_pred {y_pred.ndim}-D and y {y.ndim}-D")
            if y.shape != (y_pred.shape[0],) + y_pred.shape[2:]:
                raise ValueError(f"For '{name}', y must have y_pred's shape without axis 1, got y_pred "
                                 f"{y_pred.shape} and y {y.shape}")
        elif y_pred.shape != y.shape:
            raise ValueError(f"For '{name}', multilabel needs y_pred and y of the same shape, got {y_pred.shape} "
                             f"and {y.shape}")

    def _check_value(self, y_pred: np.ndarray, y: np.ndarray) -> None:
        if self._type != "classification" and not (np.equal(y_pred ** 2, y_pred).all() and
                                                    np.equal(y ** 2, y).all()):
            raise ValueError(f"For '{type(self).__name__}', multilabel inputs must be 0 or 1")

    def _checked_inputs(self, inputs: tuple) -> tuple[np.ndarray, np.ndarray, int]:
        """``update``'s (y_pred, y) checked for the eval_type (one-hot class labels turned into indices), and
        the number of classes."""
        y_pred, y = _two_inputs(self, inputs)
        if self._type == "classification" and y_pred.ndim == y.ndim and _check_onehot_data(y):
            y = y.argmax(axis=1)
        self._check_shape(y_pred, y)
        self._check_value(y_pred, y)
        return y_pred, y, _class_num(self, y_pred)

    def clear(self) -> None:
        raise NotImplementedError

    def update(self, *inputs: Any) -> None:
        raise NotImplementedError

    def eval(self) -> Any:
        raise NotImplementedError


def _check_onehot_data(data: np.ndarray) -> bool:
    """True for one-hot labels (0/1 values summing to 1 over axis 1)."""
    if data.ndim > 1 and np.equal(data ** 2, data).all():
        shp = (data.shape[0],) + data.shape[2:]
        return bool(np.equal(np.ones(shp), data.sum(axis=1)).all())
    return False


def _two_inputs(metric: Metric, inputs: tuple) -> tuple[np.ndarray, np.ndarray]:
    if len(inputs) != 2:
        raise ValueError(f"For '{type(metric).__name__}.update', 2 inputs (predicted value, true value) are needed, "
                         f"got {len(inputs)}")
    return metric._convert_data(inputs[0]), metric._convert_data(inputs[1])


def _class_num(metric: Any, y_pred: np.ndarray) -> int:
    """The number of classes (axis 1 of y_pred), set by the first batch; a later batch with another count
    raises."""
    if metric._class_num == 0:
        metric._class_num = y_pred.shape[1]
    elif y_pred.shape[1] != metric._class_num:
        raise ValueError(f"For '{type(metric).__name__}.update', earlier batches had {metric._class_num} "
                         f"classes, this one {y_pred.shape[1]}")
    return int(metric._class_num)


def _one_hot_rows(metric: Metric, y_pred: np.ndarray, y: np.ndarray, c: int) -> tuple[np.ndarray, np.ndarray]:
    """The argmax predictions and the class-index labels as one-hot rows of ``c`` classes."""
    if y.max() + 1 > c:
        raise ValueError(f"For '{type(metric).__name__}.update', y holds class {y.max()} but y_pred has {c} "
                         "classes")
    eye = np.eye(c)
    return eye[y_pred.argmax(axis=1).reshape(-1)], eye[y.reshape(-1)]


def _empty(metric: Metric) -> RuntimeError:
    return RuntimeError(f"The '{type(metric).__name__}' can not be calculated, because the number of samples is 0; "
                        "call update with a batch before eval")
