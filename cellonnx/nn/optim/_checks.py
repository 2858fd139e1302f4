"""Argument checks shared by the optimizers, with MindSpore's messages."""
from __future__ import annotations

from typing import Any


def check_float(value: Any, name: str, cls: str) -> float:
    if not isinstance(value, float):
        raise TypeError(f"For '{cls}', the '{name}' must be a float, but got {type(value).__name__}.")
    return value


def check_bool(value: Any, name: str, cls: str) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"For '{cls}', the '{name}' must be a bool, but got {type(value).__name__}.")
    return value


def check_non_negative(value: Any, name: str, cls: str) -> float:
    check_float(value, name, cls)
    if value < 0.0:
        raise ValueError(f"For '{cls}', the '{name}' must be >= 0, but got {value}.")
    return value


def check_positive(value: Any, name: str, cls: str) -> float:
    check_float(value, name, cls)
    if value <= 0.0:
        raise ValueError(f"For '{cls}', the '{name}' must be > 0, but got {value}.")
    return value


def check_range(value: Any, name: str, cls: str, low: float, high: float, closed: bool) -> float:
    """``value`` in [low, high] when ``closed``, else in (low, high)."""
    check_float(value, name, cls)
    inside = low <= value <= high if closed else low < value < high
    if not inside:
        bounds = f"[{low}, {high}]" if closed else f"({low}, {high})"
        raise ValueError(f"For '{cls}', the '{name}' must be in range of {bounds}, but got {value}.")
    return value
