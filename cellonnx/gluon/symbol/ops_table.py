"""The operators exported graphs use that mx.nd's table does not hold, by MXNet name."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cellonnx.gluon.symbol.custom_op import run_custom
from cellonnx.gluon.symbol.ops_box import BOX_OPS
from cellonnx.gluon.symbol.ops_deform import DEFORM_OPS
from cellonnx.gluon.symbol.ops_deform_psroi import DEFORM_PSROI_OPS
from cellonnx.gluon.symbol.ops_extra import EXTRA_OPS
from cellonnx.gluon.symbol.ops_fused import FUSED_OPS
from cellonnx.gluon.symbol.ops_legacy import LEGACY_OPS
from cellonnx.gluon.symbol.ops_loss import LOSS_OPS
from cellonnx.gluon.symbol.ops_mkldnn import MKLDNN_OPS
from cellonnx.gluon.symbol.ops_multibox import MULTIBOX_OPS
from cellonnx.gluon.symbol.ops_proposal import PROPOSAL_OPS
from cellonnx.gluon.symbol.ops_psroi import PSROI_OPS
from cellonnx.gluon.symbol.ops_rnn import RNN_OPS
from cellonnx.gluon.symbol.ops_roi import ROI_OPS
from cellonnx.gluon.symbol.ops_rroi import RROI_OPS
from cellonnx.gluon.symbol.ops_scalar import SCALAR
from cellonnx.gluon.symbol.ops_target import TARGET_OPS

OPS: dict[str, Callable[..., Any]] = {
    **SCALAR, **RNN_OPS, **LOSS_OPS, **EXTRA_OPS, **BOX_OPS, **ROI_OPS, **MULTIBOX_OPS,
    **LEGACY_OPS,
}
OPS.update(TARGET_OPS)
OPS.update(FUSED_OPS)
OPS.update(PSROI_OPS)
OPS.update(DEFORM_OPS)
OPS.update(PROPOSAL_OPS)
OPS.update(RROI_OPS)
OPS.update(DEFORM_PSROI_OPS)
OPS.update(MKLDNN_OPS)
OPS["Custom"] = run_custom
