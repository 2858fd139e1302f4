"""LSTM: MindSpore's nn.LSTM with its parameter layout (weight_ih_l{k}[_reverse], ...) over ops.lstm."""
from __future__ import annotations

import math
from typing import Any

from cellonnx import dtypes, ops
from cellonnx.common.initializer import Uniform
from cellonnx.nn.cell import Cell
from cellonnx.nn.layer._util import check_positive_int, check_type, new_param
from cellonnx.nn.parameter_tuple import ParameterTuple
from cellonnx.tensor import Parameter, Tensor

__all__ = ["LSTM"]


class LSTM(Cell):
    r"""Multi-layer long short-term memory over a sequence (gates i, f, g, o):

    .. math::
        i_t = \sigma(W_{ii} x_t + b_{ii} + W_{hi} h_{t-1} + b_{hi}), \dots,
        c_t = f_t c_{t-1} + i_t g_t, \quad h_t = o_t \tanh(c_t)

    Args:
        input_size: features of x.
        hidden_size: features of h.
        num_layers: stacked layers. Default: 1.
        has_bias: whether the b_ih / b_hh biases exist. Default: True.
        batch_first: inputs and outputs are (batch, seq, feature). Default: False.
        dropout: dropout probability on every layer's output but the last, in training. Default: 0.0.
        bidirectional: add a reverse direction. Default: False.
        dtype: parameter dtype. Default: float32.

    Inputs:
        x: (seq_len, batch, input_size) (batch first with ``batch_first``); hx: optional (h0, c0), each
        (num_directions * num_layers, batch, hidden_size); seq_length: not supported (raises).

    Outputs:
        (output, (h_n, c_n)).

    Parameters (all U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))): weight_ih_l{k}[_reverse]
        (4 * hidden_size, in), weight_hh_l{k}[_reverse] (4 * hidden_size, hidden_size), bias_ih_l{k}[_reverse],
        bias_hh_l{k}[_reverse] (4 * hidden_size,).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> net = nn.LSTM(input_size=10, hidden_size=16, num_layers=2, batch_first=True)
        >>> x = Tensor(np.ones((3, 5, 10)), ms.float32)
        >>> h0 = Tensor(np.zeros((2, 3, 16)), ms.float32)
        >>> c0 = Tensor(np.zeros((2, 3, 16)), ms.float32)
        >>> output, (hn, cn) = net(x, (h0, c0))
        >>> output.shape
        (3, 5, 16)
        >>> hn.shape
        (2, 3, 16)
    """

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1, has_bias: bool = True,
                 batch_first: bool = False, dropout: float = 0.0, bidirectional: bool = False,
                 dtype: Any = dtypes.float32) -> None:
        super().__init__()
        owner = self.cls_name
        check_positive_int(owner, input_size=input_size, hidden_size=hidden_size, num_layers=num_layers)
        check_type(owner, bool, has_bias=has_bias, batch_first=batch_first, bidirectional=bidirectional)
        if not isinstance(dropout, float) or not 0 <= dropout < 1:
            raise ValueError(f"For '{owner}', the 'dropout' must be a float in range [0, 1) representing the "
                             f"probability of an element being zeroed, but got {dropout!r}.")
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.has_bias = has_bias
        self.batch_first = batch_first
        self.dropout = dropout
        self.bidirectional = bidirectional
        directions = 2 if bidirectional else 1
        gate = 4 * hidden_size
        init = Uniform(1 / math.sqrt(hidden_size))
        w_ih: list[Parameter] = []
        w_hh: list[Parameter] = []
        b_ih: list[Parameter] = []
        b_hh: list[Parameter] = []
        for layer in range(num_layers):
            for direction in range(directions):
                in_size = input_size if layer == 0 else hidden_size * directions
                suffix = f"l{layer}" + ("_reverse" if direction else "")
                w_ih.append(new_param(init, (gate, in_size), dtype, f"weight_ih_{suffix}"))
                w_hh.append(new_param(init, (gate, hidden_size), dtype, f"weight_hh_{suffix}"))
                if has_bias:
                    b_ih.append(new_param(init, (gate,), dtype, f"bias_ih_{suffix}"))
                    b_hh.append(new_param(init, (gate,), dtype, f"bias_hh_{suffix}"))
        self.w_ih_list = ParameterTuple(w_ih)
        self.w_hh_list = ParameterTuple(w_hh)
        self.b_ih_list = ParameterTuple(b_ih)
        self.b_hh_list = ParameterTuple(b_hh)

    def _weights(self) -> list[Tensor]:
        out: list[Tensor] = []
        for i in range(len(self.w_ih_list)):
            out += [self.w_ih_list[i], self.w_hh_list[i]]
            if self.has_bias:
                out += [self.b_ih_list[i], self.b_hh_list[i]]
        return out

    def construct(self, x: Tensor, hx: Any = None, seq_length: Any = None) -> tuple[Tensor, tuple[Tensor, Tensor]]:
        if seq_length is not None:
            raise NotImplementedError("LSTM: seq_length (per-sample lengths) is not supported; pad the sequences "
                                      "or run each length separately")
        if hx is not None and not (isinstance(hx, tuple) and len(hx) == 2 and all(isinstance(h, Tensor) for h in hx)):
            raise TypeError(f"For '{self.cls_name}', 'hx' must be a tuple (h0, c0) of two Tensors.")
        dt = x.dtype
        weights = [w if w.dtype == dt else ops.cast(w, dt) for w in self._weights()]
        out, (h, c) = ops.lstm(x, hx, weights, self.num_layers, self.bidirectional, self.batch_first,
                               self.dropout, self.training)
        return out, (h, c)

    def extend_repr(self) -> str:
        return (f"input_size={self.input_size}, hidden_size={self.hidden_size}, num_layers={self.num_layers}, "
                f"has_bias={self.has_bias}, batch_first={self.batch_first}, dropout={self.dropout}, "
                f"bidirectional={self.bidirectional}")
