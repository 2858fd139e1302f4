"""mx.rnn: MXNet 1.x's symbolic recurrent cells (over mx.sym), the fused cell, sentence bucketing and RNN
checkpoints."""
from __future__ import annotations

from cellonnx.mxnet.rnn import io, rnn, rnn_cell
from cellonnx.mxnet.rnn.io import *
from cellonnx.mxnet.rnn.rnn import *
from cellonnx.mxnet.rnn.rnn_cell import *

__all__ = io.__all__ + rnn.__all__ + rnn_cell.__all__
