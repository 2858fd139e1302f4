"""gluon.rnn's single-step cells: RNNCell, LSTMCell, GRUCell and LSTMPCell (an LSTM with a projected hidden
state), their parameters named as MXNet names them (``i2h_weight``, ``h2h_weight``, ``i2h_bias``,
``h2h_bias``, ``h2r_weight``)."""
from __future__ import annotations

from typing import Any

from cellonnx import ops
from cellonnx.gluon.parameter import Parameter
from cellonnx.gluon.rnn.cell_base import HybridRecurrentCell, apply_activation, gru_update, lstm_update
from cellonnx.tensor import Tensor

__all__ = ["GRUCell", "LSTMCell", "LSTMPCell", "RNNCell"]


class _GatedCell(HybridRecurrentCell):
    """Cells with i2h / h2h weights and biases of ``gates * hidden_size`` rows."""

    _gates = 1

    def __init__(self, hidden_size: int, i2h_weight_initializer: Any, h2h_weight_initializer: Any,
                 i2h_bias_initializer: Any, h2h_bias_initializer: Any, input_size: int, prefix: str | None,
                 params: Any, recurrent_size: int | None = None, **kwargs: Any) -> None:
        super().__init__(prefix=prefix, params=params, **kwargs)
        self._hidden_size = int(hidden_size)
        self._input_size = int(input_size)
        rows = self._gates * self._hidden_size
        self.i2h_weight = Parameter("i2h_weight", shape=(rows, self._input_size), init=i2h_weight_initializer,
                                    allow_deferred_init=True)
        self.h2h_weight = Parameter("h2h_weight", shape=(rows, recurrent_size or self._hidden_size),
                                    init=h2h_weight_initializer, allow_deferred_init=True)
        self._more_weights()
        self.i2h_bias = Parameter("i2h_bias", shape=(rows,), init=i2h_bias_initializer,
                                  allow_deferred_init=True)
        self.h2h_bias = Parameter("h2h_bias", shape=(rows,), init=h2h_bias_initializer,
                                  allow_deferred_init=True)

    def _more_weights(self) -> None:
        """Parameters registered between the weights and the biases (MXNet's order)."""

    def state_info(self, batch_size: int = 0) -> list[dict[str, Any]]:
        """One state (N, hidden_size)."""
        return [{"shape": (batch_size, self._hidden_size), "__layout__": "NC"}]

    def infer_shape(self, inputs: Tensor, *args: Any) -> None:
        self.i2h_weight.shape = (self.i2h_weight.shape[0], int(inputs.shape[-1]))

    def _projections(self, inputs: Tensor, h: Tensor) -> tuple[Tensor, Tensor]:
        return (ops.dense(inputs, self.i2h_weight, self.i2h_bias),
                ops.dense(h, self.h2h_weight, self.h2h_bias))

    def __repr__(self) -> str:
        shape = self.i2h_weight.shape
        extra = f", {self._activation}" if type(self) is RNNCell else ""
        return f"{type(self).__name__}({shape[1] if shape[1] else None} -> {shape[0]}{extra})"


class _TwoActivationCell(_GatedCell):
    """LSTMCell's and GRUCell's constructor: the gated cell with an activation and a recurrent
    (gate) activation."""

    def __init__(self, hidden_size: int, i2h_weight_initializer: Any = None,
                 h2h_weight_initializer: Any = None, i2h_bias_initializer: Any = "zeros",
                 h2h_bias_initializer: Any = "zeros", input_size: int = 0,
                 prefix: str | None = None, params: Any = None, activation: Any = "tanh",
                 recurrent_activation: Any = "sigmoid", **kwargs: Any) -> None:
        super().__init__(hidden_size, i2h_weight_initializer, h2h_weight_initializer, i2h_bias_initializer,
                         h2h_bias_initializer, input_size, prefix, params, **kwargs)
        self._activation = activation
        self._recurrent_activation = recurrent_activation


class RNNCell(_GatedCell):
    r"""An Elman RNN cell: ``h_t = act(W_ih x_t + b_ih + W_hh h_(t-1) + b_hh)``.

    Args:
        hidden_size: number of units in the output.
        activation: 'tanh', 'relu', 'sigmoid', 'softsign' or a block. Default: 'tanh'.
        i2h_weight_initializer, h2h_weight_initializer, i2h_bias_initializer, h2h_bias_initializer:
            initializers. Default: None, None, 'zeros', 'zeros'.
        input_size: input features; 0 infers them at the first call. Default: 0.
        prefix, params: MXNet 1.x's block prefix and shared parameters. Default: None.

    Inputs:
        data (N, C) and states [h (N, hidden_size)].

    Outputs:
        out (N, hidden_size) and [out].

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> cell = mx.gluon.rnn.RNNCell(4, input_size=3)
        >>> cell.initialize()
        >>> x = mx.nd.ones((2, 5, 3))
        >>> out, states = cell.unroll(5, x, merge_outputs=True)
        >>> out.shape, states[0].shape
        ((2, 5, 4), (2, 4))
    """

    def __init__(self, hidden_size: int, activation: Any = "tanh", i2h_weight_initializer: Any = None,
                 h2h_weight_initializer: Any = None, i2h_bias_initializer: Any = "zeros",
                 h2h_bias_initializer: Any = "zeros", input_size: int = 0, prefix: str | None = None,
                 params: Any = None, **kwargs: Any) -> None:
        super().__init__(hidden_size, i2h_weight_initializer, h2h_weight_initializer, i2h_bias_initializer,
                         h2h_bias_initializer, input_size, prefix, params, **kwargs)
        self._activation = activation

    def _alias(self) -> str:
        return "rnn"

    def forward(self, inputs: Tensor, states: list[Tensor]) -> tuple[Tensor, list[Tensor]]:
        i2h, h2h = self._projections(inputs, states[0])
        out = apply_activation(i2h + h2h, self._activation)
        return out, [out]


class LSTMCell(_TwoActivationCell):
    r"""A long short-term memory cell (gates i, f, c, o stacked in that order).

    Args:
        hidden_size: number of units in the output.
        i2h_weight_initializer, h2h_weight_initializer, i2h_bias_initializer, h2h_bias_initializer:
            initializers. Default: None, None, 'zeros', 'zeros'.
        input_size: input features; 0 infers them at the first call. Default: 0.
        prefix, params: MXNet 1.x's block prefix and shared parameters. Default: None.
        activation: the candidate's and output's activation. Default: 'tanh'.
        recurrent_activation: the gates' activation. Default: 'sigmoid'.

    Inputs:
        data (N, C) and states [h, c] (N, hidden_size) each.

    Outputs:
        h (N, hidden_size) and [h, c].

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> cell = mx.gluon.rnn.LSTMCell(4, input_size=3)
        >>> cell.initialize()
        >>> out, states = cell(mx.nd.ones((2, 3)), cell.begin_state(batch_size=2))
        >>> out.shape, [s.shape for s in states]
        ((2, 4), [(2, 4), (2, 4)])
    """

    _gates = 4

    def state_info(self, batch_size: int = 0) -> list[dict[str, Any]]:
        """States h and c, (N, hidden_size) each."""
        return [{"shape": (batch_size, self._hidden_size), "__layout__": "NC"},
                {"shape": (batch_size, self._hidden_size), "__layout__": "NC"}]

    def _alias(self) -> str:
        return "lstm"

    def _step(self, inputs: Tensor, states: list[Tensor]) -> tuple[Tensor, Tensor]:
        i2h, h2h = self._projections(inputs, states[0])
        i, f, c, o = ops.split(i2h + h2h, self._hidden_size, axis=-1)
        return lstm_update(i, f, c, o, states[1], self._activation, self._recurrent_activation)

    def forward(self, inputs: Tensor, states: list[Tensor]) -> tuple[Tensor, list[Tensor]]:
        next_h, next_c = self._step(inputs, states)
        return next_h, [next_h, next_c]


class GRUCell(_TwoActivationCell):
    r"""A gated recurrent unit cell, as cuDNN computes it (the reset gate multiplies ``W_hn h + b_hn``):
    ``h_t = (1 - z) * tanh(W_in x + b_in + r * (W_hn h + b_hn)) + z * h``.

    Args:
        hidden_size: number of units in the output.
        i2h_weight_initializer, h2h_weight_initializer, i2h_bias_initializer, h2h_bias_initializer:
            initializers. Default: None, None, 'zeros', 'zeros'.
        input_size: input features; 0 infers them at the first call. Default: 0.
        prefix, params: MXNet 1.x's block prefix and shared parameters. Default: None.
        activation: the candidate's activation. Default: 'tanh'.
        recurrent_activation: the gates' activation. Default: 'sigmoid'.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> cell = mx.gluon.rnn.GRUCell(4, input_size=3)
        >>> cell.initialize()
        >>> out, states = cell.unroll(3, mx.nd.ones((3, 2, 3)), layout='TNC', merge_outputs=True)
        >>> out.shape
        (3, 2, 4)
    """

    _gates = 3

    def _alias(self) -> str:
        return "gru"

    def forward(self, inputs: Tensor, states: list[Tensor]) -> tuple[Tensor, list[Tensor]]:
        h = states[0]
        i2h, h2h = self._projections(inputs, h)
        parts = [ops.split(x, self._hidden_size, axis=-1) for x in (i2h, h2h)]
        out = gru_update(*parts, h, self._activation, self._recurrent_activation)
        return out, [out]


class LSTMPCell(LSTMCell):
    r"""An LSTM cell whose hidden state is projected to ``projection_size`` (LSTMP, Sak et al. 2014):
    ``r_t = W_hr (o * tanh(c_t))``; the recurrence runs on r.

    Args:
        hidden_size: number of LSTM units.
        projection_size: size of the projected state (the output).
        i2h_weight_initializer, h2h_weight_initializer, h2r_weight_initializer, i2h_bias_initializer,
            h2h_bias_initializer: initializers. Default: None, None, None, 'zeros', 'zeros'.
        input_size: input features; 0 infers them at the first call. Default: 0.
        prefix, params: MXNet 1.x's block prefix and shared parameters. Default: None.

    Inputs:
        data (N, C) and states [r (N, projection_size), c (N, hidden_size)].

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> cell = mx.gluon.rnn.LSTMPCell(4, 2, input_size=3)
        >>> cell.initialize()
        >>> out, states = cell(mx.nd.ones((2, 3)), cell.begin_state(batch_size=2))
        >>> out.shape, [s.shape for s in states]
        ((2, 2), [(2, 2), (2, 4)])
    """

    def __init__(self, hidden_size: int, projection_size: int, i2h_weight_initializer: Any = None,
                 h2h_weight_initializer: Any = None, h2r_weight_initializer: Any = None,
                 i2h_bias_initializer: Any = "zeros", h2h_bias_initializer: Any = "zeros",
                 input_size: int = 0,
                 prefix: str | None = None, params: Any = None, activation: Any = "tanh",
                 recurrent_activation: Any = "sigmoid", **kwargs: Any) -> None:
        self.__dict__["_projection_size"] = int(projection_size)
        self.__dict__["_h2r_init"] = h2r_weight_initializer
        _GatedCell.__init__(self, hidden_size, i2h_weight_initializer, h2h_weight_initializer,
                            i2h_bias_initializer, h2h_bias_initializer, input_size, prefix, params,
                            recurrent_size=int(projection_size), **kwargs)
        self._activation = activation
        self._recurrent_activation = recurrent_activation

    def _more_weights(self) -> None:
        self.h2r_weight = Parameter("h2r_weight", shape=(self._projection_size, self._hidden_size),
                                    init=self._h2r_init, allow_deferred_init=True)

    def state_info(self, batch_size: int = 0) -> list[dict[str, Any]]:
        """States r (N, projection_size) and c (N, hidden_size)."""
        return [{"shape": (batch_size, self._projection_size), "__layout__": "NC"},
                {"shape": (batch_size, self._hidden_size), "__layout__": "NC"}]

    def _alias(self) -> str:
        return "lstmp"

    def forward(self, inputs: Tensor, states: list[Tensor]) -> tuple[Tensor, list[Tensor]]:
        next_h, next_c = self._step(inputs, states)
        next_r = ops.dense(next_h, self.h2r_weight, None)
        return next_r, [next_r, next_c]
