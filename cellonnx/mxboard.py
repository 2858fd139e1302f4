"""``import mxboard`` ports as ``import cellonnx.mxboard as mxboard``: its ``SummaryWriter`` for Gluon
code."""
from __future__ import annotations

from cellonnx.gluon.summary import SummaryWriter

__all__ = ["SummaryWriter"]
