"""Network utilities (``mindspore.nn.utils``)."""
from __future__ import annotations

from cellonnx.nn.utils.init import no_init_parameters

__all__ = ["no_init_parameters"]
