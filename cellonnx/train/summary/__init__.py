"""MindSpore's summary API (``mindspore.train.summary``), writing TensorBoard event files."""
from __future__ import annotations

from cellonnx.train.summary.summary_record import SummaryRecord

__all__ = ["SummaryRecord"]
