"""gluon.rnn: MXNet's recurrent layers (RNN, LSTM, GRU over the fused RNN operator) and cells (RNNCell,
LSTMCell, GRUCell, LSTMPCell; stacks, bidirectional, dropout, zoneout, residual and variational-dropout
modifiers; the convolutional cells Conv1D/2D/3D RNN/LSTM/GRU), with MXNet's names, signatures and
parameter names."""

from __future__ import annotations

from cellonnx.gluon.rnn import cell_base, cell_wrappers, conv_rnn_cell, rnn_cell, rnn_layer
from cellonnx.gluon.rnn.cell_base import *
from cellonnx.gluon.rnn.cell_wrappers import *
from cellonnx.gluon.rnn.conv_rnn_cell import *
from cellonnx.gluon.rnn.rnn_cell import *
from cellonnx.gluon.rnn.rnn_layer import *

__all__ = (
    cell_base.__all__ + cell_wrappers.__all__ + conv_rnn_cell.__all__ + rnn_cell.__all__ + rnn_layer.__all__
)
