"""SVRGModule's optimizers: ``_AssignmentOptimizer`` (the update is the gradient itself: how full gradients
accumulate in a KVStore) and ``_SVRGOptimizer`` (the assignment for the ``<param>_full`` keys, the user's
optimizer for the parameters)."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.gluon import optimizer as opt

__all__ = ["_AssignmentOptimizer", "_SVRGOptimizer"]

_BASE_PARAMS = ("rescale_grad", "param_idx2name", "wd", "clip_gradient", "learning_rate", "lr_scheduler",
                "sym", "begin_num_update", "multi_precision", "param_dict")


@opt.Optimizer.register
class _AssignmentOptimizer(opt.Optimizer):
    """Assigns the gradient to the weight (SVRGModule's accumulation of full gradients in the KVStore)."""

    def update(self, index: Any, weight: np.ndarray, grad: np.ndarray, state: Any) -> np.ndarray:
        return np.array(grad, dtype=weight.dtype, copy=True)


@opt.Optimizer.register
class _SVRGOptimizer(opt.Optimizer):
    """Wraps the optimizer given to ``SVRGModule.init_optimizer`` (``default_optimizer``, a name or an
    Optimizer) and ``_AssignmentOptimizer``: a parameter whose name holds 'full' is assigned, the others use
    the default optimizer.

    Args:
        default_optimizer: the optimizer of the parameters (a name, made with the other keyword arguments,
            or an Optimizer).
        **kwargs: the base Optimizer's arguments (rescale_grad, param_idx2name, wd, learning_rate ...) and the
            default optimizer's own.
    """

    def __init__(self, default_optimizer: Any, **kwargs: Any) -> None:
        super().__init__(**self._check_params(**kwargs))
        if isinstance(default_optimizer, str):
            self.default_opt = opt.create(default_optimizer, **kwargs)
        else:
            self.default_opt = default_optimizer
        self.aux_opt = opt.create(_AssignmentOptimizer.__name__)

    @staticmethod
    def _check_params(**kwargs: Any) -> dict[str, Any]:
        """The keyword arguments the base Optimizer takes."""
        return {k: v for k, v in kwargs.items() if k in _BASE_PARAMS}

    def _check_index(self, index: Any) -> str:
        """The parameter name of ``index`` (an int, or already a name)."""
        if index in self.idx2name.values():
            return index
        return self.idx2name[index]

    def _pick(self, index: Any) -> opt.Optimizer:
        return self.aux_opt if "full" in self._check_index(index) else self.default_opt

    def create_state(self, index: Any, weight: np.ndarray) -> Any:
        return self._pick(index).create_state(index, weight)

    def create_state_multi_precision(self, index: Any, weight: np.ndarray) -> Any:
        return self._pick(index).create_state_multi_precision(index, weight)

    def update(self, index: Any, weight: np.ndarray, grad: np.ndarray, state: Any) -> np.ndarray:
        return self._pick(index).update(index, weight, grad, state)

    def update_multi_precision(self, index: Any, weight: np.ndarray, grad: np.ndarray,
                               state: Any) -> np.ndarray:
        return self._pick(index).update_multi_precision(index, weight, grad, state)
