"""The operators exported graphs use that mx.nd's table does not hold, by MXNet name."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cellonnx.gluon.symbol.custom_op import run_custom
from cellonnx.gluon.symbol.ops_box import BOX_OPS
from cellonnx.gluon.symbol.ops_extra import EXTRA_OPS
from cellonnx.gluon.symbol.ops_legacy import LEGACY_OPS
from cellonnx.gluon.symbol.ops_loss import LOSS_OPS
from cellonnx.gluon.symbol.ops_multibox import MULTIBOX_OPS
from cellonnx.gluon.symbol.ops_rnn import RNN_OPS
from cellonnx.gluon.symbol.ops_roi import ROI_OPS
from cellonnx.gluon.symbol.ops_scalar import SCALAR

OPS: dict[str, Callable[..., Any]] = {
    **SCALAR, **RNN_OPS, **LOSS_OPS, **EXTRA_OPS, **BOX_OPS, **ROI_OPS, **MULTIBOX_OPS,
    **LEGACY_OPS,
}
OPS["Custom"] = run_custom
