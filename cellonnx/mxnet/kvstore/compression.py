"""MXNet's 2-bit gradient compression: each value (plus what the last compression left over) is sent as
-threshold, 0 or +threshold, and the difference is kept as the residual of the next push."""
from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["GradientCompression"]


class GradientCompression:
    """The state of 2-bit compression: the threshold and a residual per (key, device)."""

    def __init__(self, params: dict[str, Any]) -> None:
        if not isinstance(params, dict):
            raise TypeError(f"compression_params must be a dict, got {type(params).__name__}")
        if "type" not in params:
            raise ValueError("compression_params requires `type` to be set")
        kind = str(params["type"])
        if kind != "2bit":
            raise ValueError(f"Unknown type for gradient compression {kind}")
        self.type = kind
        self.threshold = float(params.get("threshold", 0.5))
        if self.threshold <= 0:
            raise ValueError("threshold must be greater than 0 for two bit compression")
        self._residual: dict[Any, np.ndarray] = {}

    def compress(self, slot: Any, value: np.ndarray) -> np.ndarray:
        """What is sent for ``value`` from ``slot`` (key, device), updating the slot's residual."""
        total = value + self._residual.get(slot, 0)
        sent = np.where(total >= self.threshold, self.threshold,
                        np.where(total <= -self.threshold, -self.threshold, 0)).astype(value.dtype)
        self._residual[slot] = (total - sent).astype(value.dtype)
        return sent
