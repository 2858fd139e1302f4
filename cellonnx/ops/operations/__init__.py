"""MindSpore's operator classes (``from mindspore.ops import operations as P``):
``P.MatMul(transpose_b=True)(a, b)``, ``P.ReduceMean(keep_dims=True)(x, 1)`` ... Each is a row of one table
over cellonnx's functional ops (table.py); the family modules hold the rows. The same classes are
``cellonnx.ops.MatMul`` etc.
"""
from __future__ import annotations

from cellonnx.ops.operations import (
    adafactor_ops,
    array_ops,
    attention_ops,
    color_ops,
    comm_ops,
    compat_ops,
    ctc_ops,
    debug_ops,
    extra_ops,
    image_ops,
    linalg_ops,
    loss_ops,
    math_ops,
    matrix_ops,
    nms_ops,
    nn3d_ops,
    nn_ops,
    optim_ops,
    other_ops,
    random_ops,
    resample_ops,
    resize_ops,
    rnn_ops,
    sampling_ops,
    scatter_ops,
    special_ops,
    spectral_ops,
    text_ops,
    window_ops,
)
from cellonnx.ops.operations.adafactor_ops import *
from cellonnx.ops.operations.array_ops import *
from cellonnx.ops.operations.attention_ops import *
from cellonnx.ops.operations.color_ops import *
from cellonnx.ops.operations.comm_ops import *
from cellonnx.ops.operations.compat_ops import *
from cellonnx.ops.operations.ctc_ops import *
from cellonnx.ops.operations.debug_ops import *
from cellonnx.ops.operations.extra_ops import *
from cellonnx.ops.operations.image_ops import *
from cellonnx.ops.operations.linalg_ops import *
from cellonnx.ops.operations.loss_ops import *
from cellonnx.ops.operations.math_ops import *
from cellonnx.ops.operations.matrix_ops import *
from cellonnx.ops.operations.nms_ops import *
from cellonnx.ops.operations.nn3d_ops import *
from cellonnx.ops.operations.nn_ops import *
from cellonnx.ops.operations.optim_ops import *
from cellonnx.ops.operations.other_ops import *
from cellonnx.ops.operations.random_ops import *
from cellonnx.ops.operations.resample_ops import *
from cellonnx.ops.operations.resize_ops import *
from cellonnx.ops.operations.rnn_ops import *
from cellonnx.ops.operations.sampling_ops import *
from cellonnx.ops.operations.scatter_ops import *
from cellonnx.ops.operations.special_ops import *
from cellonnx.ops.operations.spectral_ops import *
from cellonnx.ops.operations.text_ops import *
from cellonnx.ops.operations.window_ops import *
from cellonnx.ops.prims.control import ForiLoop, Scan, WhileLoop

FAMILIES = (math_ops, array_ops, nn_ops, random_ops, optim_ops, debug_ops, other_ops, special_ops, linalg_ops,
            scatter_ops, image_ops, loss_ops, compat_ops, extra_ops, nn3d_ops, resize_ops, rnn_ops,
            spectral_ops, color_ops, matrix_ops, nms_ops, ctc_ops, sampling_ops, window_ops,
            resample_ops, text_ops, adafactor_ops, attention_ops)
ROWS = [row for family in FAMILIES for row in family.ROWS]

__all__ = ["ForiLoop", "Scan", "WhileLoop"]
__all__ += [name for family in FAMILIES for name in family.__all__]
__all__ += comm_ops.__all__

from cellonnx.unsupported import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr(__name__, "mindspore.ops.operations", "mindspore.ops")
