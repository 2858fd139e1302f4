"""``mindspore.common.parameter``: Parameter and ParameterTuple."""
from __future__ import annotations

from typing import Any

from cellonnx.tensor import Parameter

__all__ = ["Parameter", "ParameterTuple"]  # noqa: F822 (ParameterTuple: through __getattr__)


def __getattr__(name: str) -> Any:
    if name == "ParameterTuple":  # defined with the Cells (an upper layer), imported on first use
        from cellonnx.nn.parameter_tuple import ParameterTuple
        return ParameterTuple
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
