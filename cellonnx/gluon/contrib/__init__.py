"""gluon.contrib: Gluon 1.x's contributed layers (contrib.nn)."""
from __future__ import annotations

from cellonnx.gluon.contrib import nn, rnn

__all__ = ["nn"]
__all__ += ["rnn"]
