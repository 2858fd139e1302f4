"""``mindspore.dtype``: the same module as ``cellonnx.common.dtype`` (``from cellonnx import dtype as
mstype``; ``mstype.float32``, ``mstype.number``, ``mstype.pytype_to_dtype`` ...)."""
from __future__ import annotations

import sys

from cellonnx.common import dtype as _dtype

sys.modules[__name__] = _dtype
