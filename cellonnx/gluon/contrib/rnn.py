"""gluon.contrib.rnn: where MXNet 1.x kept the convolutional recurrent cells, LSTMPCell and
VariationalDropoutCell (gluon.rnn in MXNet 2.x); the same classes as gluon.rnn's."""

from __future__ import annotations

from cellonnx.gluon.rnn.cell_wrappers import VariationalDropoutCell
from cellonnx.gluon.rnn.conv_rnn_cell import (
    Conv1DGRUCell,
    Conv1DLSTMCell,
    Conv1DRNNCell,
    Conv2DGRUCell,
    Conv2DLSTMCell,
    Conv2DRNNCell,
    Conv3DGRUCell,
    Conv3DLSTMCell,
    Conv3DRNNCell,
)
from cellonnx.gluon.rnn.rnn_cell import LSTMPCell

__all__ = [
    "Conv1DGRUCell",
    "Conv1DLSTMCell",
    "Conv1DRNNCell",
    "Conv2DGRUCell",
    "Conv2DLSTMCell",
    "Conv2DRNNCell",
    "Conv3DGRUCell",
    "Conv3DLSTMCell",
    "Conv3DRNNCell",
    "LSTMPCell",
    "VariationalDropoutCell",
]
