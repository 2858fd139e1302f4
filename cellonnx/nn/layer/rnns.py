"""GRU and RNN (MindSpore's nn.layer.rnns) with MindSpore's parameter layout (weight_ih_l{k}[_reverse], ...)
over the GRU / RNN primitives, and the single-step cells RNNCell, GRUCell and LSTMCell (nn.layer.rnn_cells)
written with ops."""
from __future__ import annotations

import math
from typing import Any

from cellonnx import dtypes, ops
from cellonnx.common.initializer import Uniform
from cellonnx.nn.cell import Cell
from cellonnx.nn.layer._util import check_positive_int, check_type, new_param
from cellonnx.nn.layer.basic import Dropout
from cellonnx.nn.parameter_tuple import ParameterTuple
from cellonnx.ops.prims._util import is_float_dtype
from cellonnx.ops.prims.rnn_gru import stacked_rnn
from cellonnx.tensor import Parameter, Tensor

__all__ = ["GRU", "RNN", "GRUCell", "LSTMCell", "RNNCell"]


class _RNNBase(Cell):
    def __init__(self, mode: str, input_size: int, hidden_size: int, num_layers: int = 1,
                 has_bias: bool = True,
                 batch_first: bool = False, dropout: float = 0.0, bidirectional: bool = False,
                 dtype: Any = dtypes.float32) -> None:
        super().__init__()
        owner = self.cls_name
        check_positive_int(owner, hidden_size=hidden_size, input_size=input_size, num_layers=num_layers)
        if not isinstance(dropout, float):
            raise TypeError(f"For '{owner}', the 'dropout' must be float, but got {type(dropout).__name__}.")
        check_type(owner, bool, has_bias=has_bias, batch_first=batch_first, bidirectional=bidirectional)
        if not 0 <= dropout < 1:
            raise ValueError(f"For '{owner}', the 'dropout' must be a number in range [0, 1) representing "
                             f"the probability of an element being zeroed, but got {dropout}.")
        self.mode = mode
        self.hidden_size = hidden_size
        self.batch_first = batch_first
        self.num_layers = num_layers
        self.dropout = dropout
        self.dropout_op = Dropout(p=float(dropout))
        self.bidirectional = bidirectional
        self.has_bias = has_bias
        self.is_lstm = False
        gate_size = (3 if mode == "GRU" else 1) * hidden_size
        directions = 2 if bidirectional else 1
        init = Uniform(1 / math.sqrt(hidden_size))
        w_ih: list[Parameter] = []
        w_hh: list[Parameter] = []
        b_ih: list[Parameter] = []
        b_hh: list[Parameter] = []
        for layer in range(num_layers):
            for direction in range(directions):
                in_size = input_size if layer == 0 else hidden_size * directions
                suffix = f"l{layer}" + ("_reverse" if direction else "")
                w_ih.append(new_param(init, (gate_size, in_size), dtype, f"weight_ih_{suffix}"))
                w_hh.append(new_param(init, (gate_size, hidden_size), dtype, f"weight_hh_{suffix}"))
                if has_bias:
                    b_ih.append(new_param(init, (gate_size,), dtype, f"bias_ih_{suffix}"))
                    b_hh.append(new_param(init, (gate_size,), dtype, f"bias_hh_{suffix}"))
        self.w_ih_list = ParameterTuple(w_ih)
        self.w_hh_list = ParameterTuple(w_hh)
        self.b_ih_list = ParameterTuple(b_ih)
        self.b_hh_list = ParameterTuple(b_hh)

    def _weights(self, dtype: Any) -> list[Tensor]:
        out: list[Tensor] = []
        for i in range(len(self.w_ih_list)):
            out += [self.w_ih_list[i], self.w_hh_list[i]]
            if self.has_bias:
                out += [self.b_ih_list[i], self.b_hh_list[i]]
        return [w if w.dtype == dtype else ops.cast(w, dtype) for w in out]

    def construct(self, x: Tensor, hx: Tensor | None = None, seq_length: Tensor | None = None
                  ) -> tuple[Tensor, Tensor]:
        owner = self.cls_name
        if not isinstance(x, Tensor):
            raise TypeError(f"For '{owner}', the 'x' must be a Tensor, but got {type(x).__name__}.")
        if x.ndim != 3 or not is_float_dtype(x._data.dtype):
            raise ValueError(f"For '{owner}', 'x' must be a 3-D float tensor, but got {x.dtype} of shape "
                             f"{tuple(x.shape)}.")
        batch = x.shape[0] if self.batch_first else x.shape[1]
        directions = 2 if self.bidirectional else 1
        if hx is not None:
            if not isinstance(hx, Tensor):
                raise TypeError(f"For '{owner}', the 'h' must be a Tensor, but got {type(hx).__name__}.")
            if hx.dtype != x.dtype:
                raise TypeError(f"For '{owner}', 'x' and 'hx' must have one dtype, but got {x.dtype} and "
                                f"{hx.dtype}.")
            want = (self.num_layers * directions, int(batch), self.hidden_size)
            if tuple(int(v) for v in hx.shape) != want:
                raise ValueError(f"For '{owner}', 'hx' must have shape {want} (num_layers * num_directions, "
                                 f"batch, hidden_size), but got {tuple(hx.shape)}.")
        if seq_length is not None:
            if seq_length.dtype not in (dtypes.int32, dtypes.int64):
                raise TypeError(f"For '{owner}', the 'seq_length' must be int32 or int64, but got "
                                f"{seq_length.dtype}.")
            if tuple(seq_length.shape) != (batch,):
                raise ValueError(f"For '{owner}', the 'seq_length' must have shape ({batch},) (one length "
                                 f"per batch item), but got {tuple(seq_length.shape)}.")
        return stacked_rnn(self.mode, x, hx, self._weights(x.dtype), self.num_layers, self.bidirectional,
                           self.batch_first, self.dropout, self.training, seq_length)

    def extend_repr(self) -> str:
        return (f"hidden_size={self.hidden_size}, num_layers={self.num_layers}, has_bias={self.has_bias}, "
                f"batch_first={self.batch_first}, dropout={self.dropout}, "
                f"bidirectional={self.bidirectional}")


class RNN(_RNNBase):
    r"""Multi-layer Elman RNN: :math:`h_t = \tanh(W_{ih} x_t + b_{ih} + W_{hh} h_{t-1} + b_{hh})` (or relu).

    Args:
        input_size (int), hidden_size (int), num_layers (int): Default 1. nonlinearity (str, keyword only):
        'tanh' (default) or 'relu'. has_bias (bool): Default True. batch_first (bool): Default False.
        dropout (float): between layers in training. Default 0.0. bidirectional (bool): Default False.
        dtype: parameter dtype.

    Inputs:
        x (seq_len, batch, input_size) (batch first with ``batch_first``); hx (num_directions * num_layers,
        batch, hidden_size), optional; seq_length (batch,) int32 / int64, optional: steps past a sample's
        length
        output zeros and leave its state unchanged.

    Outputs:
        (output (seq_len, batch, num_directions * hidden_size), h_n).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> net = nn.RNN(input_size=10, hidden_size=16, num_layers=1, batch_first=True, bidirectional=True)
        >>> x = Tensor(np.ones((3, 5, 10)), ms.float32)
        >>> h0 = Tensor(np.zeros((2, 3, 16)), ms.float32)
        >>> output, hn = net(x, h0)
        >>> output.shape
        (3, 5, 32)
        >>> hn.shape
        (2, 3, 16)
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        mode = "RNN_TANH"
        if "nonlinearity" in kwargs:
            nonlinearity = kwargs.pop("nonlinearity")
            if nonlinearity not in ("tanh", "relu"):
                raise ValueError(f"For '{type(self).__name__}', the 'nonlinearity' must be in ['tanh', "
                                 f"'relu'], but got {nonlinearity}.")
            mode = "RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU"
        super().__init__(mode, *args, **kwargs)


class GRU(_RNNBase):
    r"""Multi-layer gated recurrent unit (gates r, z, n stacked in that order):

    .. math::
        r = \sigma(W_{ir} x + b_{ir} + W_{hr} h + b_{hr}),\ z = \sigma(\dots),\
        n = \tanh(W_{in} x + b_{in} + r (W_{hn} h + b_{hn})),\ h' = (1 - z) n + z h

    Args, Inputs and Outputs as :class:`RNN` (no ``nonlinearity``).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> net = nn.GRU(input_size=10, hidden_size=16, num_layers=1, batch_first=True)
        >>> x = Tensor(np.ones((3, 5, 10)), ms.float32)
        >>> h0 = Tensor(np.zeros((1, 3, 16)), ms.float32)
        >>> output, hn = net(x, h0)
        >>> output.shape
        (3, 5, 16)
        >>> hn.shape
        (1, 3, 16)
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__("GRU", *args, **kwargs)


class _CellBase(Cell):
    _chunks = 1

    def __init__(self, input_size: int, hidden_size: int, has_bias: bool, dtype: Any) -> None:
        super().__init__()
        check_type(self.cls_name, bool, has_bias=has_bias)
        check_positive_int(self.cls_name, hidden_size=hidden_size, input_size=input_size)
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.has_bias = has_bias
        init = Uniform(1 / math.sqrt(hidden_size))
        g = self._chunks * hidden_size
        self.weight_ih = new_param(init, (g, input_size), dtype, "weight_ih")
        self.weight_hh = new_param(init, (g, hidden_size), dtype, "weight_hh")
        self.bias_ih: Parameter | None = new_param(init, (g,), dtype, "bias_ih") if has_bias else None
        self.bias_hh: Parameter | None = new_param(init, (g,), dtype, "bias_hh") if has_bias else None

    def _check(self, name: str, t: Any) -> None:
        if not isinstance(t, Tensor):
            raise TypeError(f"For '{self.cls_name}', the '{name}' must be a Tensor, but got "
                            f"{type(t).__name__}.")
        if not is_float_dtype(t._data.dtype):
            raise TypeError(f"For '{self.cls_name}', the '{name}' must be a float tensor, but got {t.dtype}.")

    def _gates(self, x: Tensor, h: Tensor) -> tuple[Tensor, Tensor]:
        gi = ops.matmul(x, ops.transpose(self.weight_ih, (1, 0)))
        gh = ops.matmul(h, ops.transpose(self.weight_hh, (1, 0)))
        if self.bias_ih is not None and self.bias_hh is not None:
            gi, gh = gi + self.bias_ih, gh + self.bias_hh
        return gi, gh


class RNNCell(_CellBase):
    r"""One Elman RNN step: :math:`h' = \tanh(W_{ih} x + b_{ih} + W_{hh} h + b_{hh})` (or relu).

    Args:
        input_size (int), hidden_size (int), has_bias (bool): Default True. nonlinearity (str): 'tanh'
        (default) or 'relu'. dtype: parameter dtype.

    Inputs:
        x (batch, input_size), hx (batch, hidden_size).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> cell = nn.RNNCell(input_size=10, hidden_size=16, nonlinearity='relu')
        >>> x = Tensor(np.ones((3, 10)), ms.float32)
        >>> hx = Tensor(np.zeros((3, 16)), ms.float32)
        >>> cell(x, hx).shape
        (3, 16)
    """

    def __init__(self, input_size: int, hidden_size: int, has_bias: bool = True, nonlinearity: str = "tanh",
                 dtype: Any = dtypes.float32) -> None:
        super().__init__(input_size, hidden_size, has_bias, dtype)
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"For '{self.cls_name}', the 'nonlinearity' must be in ['tanh', 'relu'], but "
                             f"got {nonlinearity!r}.")
        self.nonlinearity = nonlinearity

    def construct(self, x: Tensor, hx: Tensor) -> Tensor:
        self._check("x", x)
        self._check("hx", hx)
        gi, gh = self._gates(x, hx)
        return ops.tanh(gi + gh) if self.nonlinearity == "tanh" else ops.relu(gi + gh)


class GRUCell(_CellBase):
    r"""One GRU step (gates r, z, n): :math:`h' = (1 - z) n + z h`.

    Args:
        input_size (int), hidden_size (int), has_bias (bool): Default True. dtype: parameter dtype.

    Inputs:
        x (batch, input_size), hx (batch, hidden_size).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> cell = nn.GRUCell(input_size=10, hidden_size=16)
        >>> x = Tensor(np.ones((3, 10)), ms.float32)
        >>> hx = Tensor(np.zeros((3, 16)), ms.float32)
        >>> cell(x, hx).shape
        (3, 16)
    """

    _chunks = 3

    def __init__(self, input_size: int, hidden_size: int, has_bias: bool = True,
                 dtype: Any = dtypes.float32) -> None:
        super().__init__(input_size, hidden_size, has_bias, dtype)

    def construct(self, x: Tensor, hx: Tensor) -> Tensor:
        self._check("x", x)
        self._check("hx", hx)
        gi, gh = self._gates(x, hx)
        i_r, i_z, i_n = ops.split(gi, self.hidden_size, 1)
        h_r, h_z, h_n = ops.split(gh, self.hidden_size, 1)
        reset = ops.sigmoid(i_r + h_r)
        update = ops.sigmoid(i_z + h_z)
        new = ops.tanh(i_n + reset * h_n)
        return new + update * (hx - new)


class LSTMCell(_CellBase):
    r"""One LSTM step (gates i, f, g, o): :math:`c' = f c + i g,\ h' = o \tanh(c')`.

    Args:
        input_size (int), hidden_size (int), has_bias (bool): Default True. dtype: parameter dtype.

    Inputs:
        x (batch, input_size), hx: the tuple (h, c), each (batch, hidden_size).

    Outputs:
        (h', c').

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> cell = nn.LSTMCell(input_size=10, hidden_size=16)
        >>> x = Tensor(np.ones((3, 10)), ms.float32)
        >>> hx = Tensor(np.zeros((3, 16)), ms.float32)
        >>> cx = Tensor(np.zeros((3, 16)), ms.float32)
        >>> h, c = cell(x, (hx, cx))
        >>> h.shape
        (3, 16)
    """

    _chunks = 4

    def __init__(self, input_size: int, hidden_size: int, has_bias: bool = True,
                 dtype: Any = dtypes.float32) -> None:
        super().__init__(input_size, hidden_size, has_bias, dtype)

    def construct(self, x: Tensor, hx: Any) -> tuple[Tensor, Tensor]:
        self._check("x", x)
        if not isinstance(hx, tuple) or len(hx) != 2:
            raise TypeError(f"For '{self.cls_name}', the 'hx' must be a tuple (h, c) of two Tensors.")
        h, c = hx
        self._check("hx[0]", h)
        self._check("hx[1]", c)
        gi, gh = self._gates(x, h)
        i, f, g, o = ops.split(gi + gh, self.hidden_size, 1)
        cy = ops.sigmoid(f) * c + ops.sigmoid(i) * ops.tanh(g)
        return ops.sigmoid(o) * ops.tanh(cy), cy
