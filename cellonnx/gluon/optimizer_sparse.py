"""Which updates MXNet 1.9.1 applies to the rows of a row-sparse gradient alone (its sparse update kernels)
rather than to the whole weight: SGD and Adam with ``lazy_update`` (the default), Ftrl when the weight is
row-sparse too, and AdaGrad always (its sparse kernel has no weight decay: MXNet refuses wd != 0). Other
optimizers, and these in the other cases, update the whole weight with the gradient made dense.
"""
from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["sparse_rows"]

# optimizer class name -> when its row-sparse kernel applies
_RULES = {"SGD": "lazy", "Adam": "lazy", "Ftrl": "row_sparse_weight", "AdaGrad": "always_no_wd"}


def sparse_rows(opt: Any, index: Any, grad: Any, weight_stype: str = "default") -> np.ndarray | None:
    """The rows the update of ``grad`` touches alone (the indices of a row-sparse gradient), or None when
    the whole weight takes the update."""
    if getattr(grad, "stype", "default") != "row_sparse":
        return None
    rule = next((_RULES[c.__name__] for c in type(opt).__mro__ if c.__name__ in _RULES), None)
    if rule == "lazy" and getattr(opt, "lazy_update", False):
        return np.asarray(grad.indices._data)
    if rule == "row_sparse_weight" and weight_stype == "row_sparse":
        return np.asarray(grad.indices._data)
    if rule == "always_no_wd":
        wd = opt._get_wd(index)
        if wd != 0:
            from cellonnx.mxnet.base import MXNetError
            raise MXNetError(f"{type(opt).__name__}: a row-sparse gradient takes MXNet's sparse AdaGrad "
                             f"update (_sparse_adagrad_update), which has no weight decay; got wd={wd} for "
                             f"parameter {index!r}. Set wd=0 or give a dense gradient.")
        return np.asarray(grad.indices._data)
    return None
