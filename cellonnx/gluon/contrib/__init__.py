"""gluon.contrib: Gluon 1.x's contributed layers (contrib.nn)."""
from __future__ import annotations

from cellonnx.gluon.contrib import nn

__all__ = ["nn"]
