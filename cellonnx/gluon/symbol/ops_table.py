"""The operators exported graphs use that mx.nd's table does not hold, by MXNet name."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

OPS: dict[str, Callable[..., Any]] = {}
