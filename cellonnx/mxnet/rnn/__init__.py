"""mx.rnn: MXNet 1.x's symbolic recurrent cells (over mx.sym), the fused cell, the convolutional cells,
sentence bucketing and RNN checkpoints."""
from __future__ import annotations

from cellonnx.mxnet.rnn import conv_rnn_cell, io, rnn, rnn_cell
from cellonnx.mxnet.rnn.conv_rnn_cell import *
from cellonnx.mxnet.rnn.io import *
from cellonnx.mxnet.rnn.io import DataBatch as DataBatch  # mx.rnn hands these on as MXNet's does
from cellonnx.mxnet.rnn.io import DataDesc as DataDesc
from cellonnx.mxnet.rnn.io import DataIter as DataIter
from cellonnx.mxnet.rnn.rnn import *
from cellonnx.mxnet.rnn.rnn_cell import *

__all__ = conv_rnn_cell.__all__ + io.__all__ + rnn.__all__ + rnn_cell.__all__


def __getattr__(name: str):
    # mx.rnn hands on mx.model's checkpoint functions, as MXNet's does (imported late: mx.model needs mx.sym)
    if name in ("load_checkpoint", "save_checkpoint"):
        from cellonnx.mxnet import model

        return getattr(model, name)
    raise AttributeError(f"module 'cellonnx.mxnet.rnn' has no attribute {name!r}")
