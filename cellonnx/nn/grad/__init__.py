"""Cells that differentiate a function: Jvp and Vjp (``mindspore.nn.grad``)."""
from __future__ import annotations

from cellonnx.nn.grad.cell_grad import Jvp, Vjp

__all__ = ["Jvp", "Vjp"]
