"""MXNet's ``_histogram`` operator (the node ``mx.sym.histogram`` makes): the int64 counts of the flattened
data in ``bin_cnt`` equal bins over ``range`` (values outside it left out), or in the bins whose edges the
second input gives, and the float32 edges. Not differentiable (counts)."""
from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

import numpy as np

from cellonnx.tensor import Tensor

__all__ = ["HISTOGRAM", "histogram_op"]


def _range(value: Any) -> tuple[float, float]:
    if isinstance(value, str):  # the JSON attribute "(0.0, 3.0)"
        value = ast.literal_eval(value)
    if value is None or len(value) != 2:
        raise ValueError(f"_histogram: range must be (low, high), got {value!r}")
    return float(value[0]), float(value[1])


def histogram_op(data: Tensor, bins: Tensor | None = None, bin_cnt: Any = None, range: Any = None,
                 **_: Any) -> tuple[Tensor, Tensor]:
    """(counts, edges) of the flattened ``data``: ``bin_cnt`` bins over ``range``, or the edges ``bins``."""
    values = np.asarray(data._data, np.float64).reshape(-1)
    if bins is not None:
        edges = np.asarray(bins._data)
    else:
        if bin_cnt is None or (isinstance(bin_cnt, str) and bin_cnt == "None"):
            raise ValueError("_histogram: give bin_cnt with range, or the bin edges")
        low, high = _range(range)
        edges = np.linspace(low, high, int(bin_cnt) + 1)
    counts, _ = np.histogram(values, bins=np.asarray(edges, np.float64))
    return Tensor(counts.astype(np.int64)), Tensor(np.asarray(edges).astype(np.float32))


HISTOGRAM: dict[str, Callable[..., Any]] = {"_histogram": histogram_op}
