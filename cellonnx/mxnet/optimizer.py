"""mx.optimizer: MXNet's optimizers (gluon.optimizer's, the same classes) plus ``register`` and
``Updater`` / ``get_updater``."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.gluon.optimizer import _REGISTRY, SGD, Adam, Optimizer, create
from cellonnx.tensor import Tensor

__all__ = ["SGD", "Adam", "Optimizer", "Updater", "create", "get_updater", "register"]


def register(klass: type[Optimizer]) -> type[Optimizer]:
    """Class decorator: make ``create('<lower-case class name>')`` build ``klass``."""
    _REGISTRY[klass.__name__.lower()] = klass
    return klass


class Updater:
    """Apply ``optimizer`` to (index, grad, weight) triples, keeping a state per index (MXNet's kvstore
    updater)."""

    def __init__(self, optimizer: Optimizer) -> None:
        self.optimizer = optimizer
        self.states: dict[int, Any] = {}

    def __call__(self, index: Any, grad: Any, weight: Any) -> None:
        indices = index if isinstance(index, (list, tuple)) else [index]
        grads = grad if isinstance(grad, (list, tuple)) else [grad]
        weights = weight if isinstance(weight, (list, tuple)) else [weight]
        for i, g, w in zip(indices, grads, weights):
            if i not in self.states:
                self.states[i] = self.optimizer.create_state_multi_precision(i, w._data)
            new = self.optimizer.update_multi_precision(i, w._data, np.asarray(g._data, w._data.dtype),
                                                        self.states[i])
            if isinstance(w, Tensor):
                w._data = np.ascontiguousarray(new, dtype=w._data.dtype)


def get_updater(optimizer: Optimizer) -> Updater:
    return Updater(optimizer)
