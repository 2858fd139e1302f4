"""gluon.rnn's fused recurrent layers: RNN (relu / tanh), LSTM (with projection and clipped cell states) and
GRU, stacked and bidirectional, TNC or NTC, over MXNet's RNN operator (cellonnx/gluon/symbol/ops_rnn.py).

Parameters are named as MXNet names them (``l0_i2h_weight``, ``r0_h2h_bias``, ``l1_h2r_weight``; 1.x code
adds the block prefix, ``lstm0_l0_i2h_weight``), so .params files written by MXNet 1.x (whose
``save_parameters`` keys them ``_unfused.0.i2h_weight``) and 2.x load here and the other way round.
"""
from __future__ import annotations

import re
from typing import Any

from cellonnx import ops
from cellonnx.gluon.hybrid import HybridBlock
from cellonnx.gluon.parameter import Parameter
from cellonnx.gluon.rnn.cell_base import begin_states
from cellonnx.gluon.symbol.ops_rnn import run_rnn
from cellonnx.tensor import Tensor

__all__ = ["GRU", "LSTM", "RNN"]  # from_unfused_keys / unfused_key serve .params I/O

_GATES = {"rnn_relu": 1, "rnn_tanh": 1, "lstm": 4, "gru": 3}
_LEGACY_KEY = re.compile(r"(^|\.)_unfused\.(\d+)\.(?:(l|r)_cell\.)?(i2h|h2h|h2r)_(weight|bias)$")


def from_unfused_keys(loaded: dict[str, Any]) -> dict[str, Any]:
    """MXNet 1.x's save_parameters keys a fused layer's parameters by its unfused cells
    (``_unfused.0.i2h_weight``, ``_unfused.1.r_cell.h2h_bias``): the layer's own names instead."""
    out = {}
    for key, value in loaded.items():
        m = _LEGACY_KEY.search(key)
        if m is not None:
            lead, layer, d, g, t = m.groups()
            key = f"{key[:m.start()]}{lead}{d or 'l'}{layer}_{g}_{t}"
        out[key] = value
    return out



def unfused_key(block: Any, key: str, local: str) -> str:
    """The key MXNet 1.x's save_parameters gives parameter ``local`` of a fused layer ``block`` saved under
    structural name ``key`` (``lstm._unfused.0.l_cell.i2h_weight``); other keys unchanged."""
    if not isinstance(block, _RNNLayer):
        return key
    m = re.fullmatch(r"(l|r)(\d+)_(i2h|h2h|h2r)_(weight|bias)", local)
    if m is None:
        return key
    d, layer, g, t = m.groups()
    cell = f"{d}_cell." if block._dir == 2 else ""
    return f"{key[:len(key) - len(local)]}_unfused.{layer}.{cell}{g}_{t}"


class _RNNLayer(HybridBlock):
    """The fused recurrent layer all three share (MXNet's ``_RNNLayer``)."""

    def __init__(self, hidden_size: int, num_layers: int, layout: str, dropout: float, bidirectional: bool,
                 input_size: int, i2h_weight_initializer: Any, h2h_weight_initializer: Any,
                 i2h_bias_initializer: Any, h2h_bias_initializer: Any, mode: str, projection_size: int | None,
                 h2r_weight_initializer: Any, lstm_state_clip_min: float | None,
                 lstm_state_clip_max: float | None, lstm_state_clip_nan: bool, dtype: Any,
                 use_sequence_length: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if layout not in ("TNC", "NTC"):
            raise ValueError(f"{type(self).__name__}: invalid layout {layout!r}; must be one of ['TNC' or "
                             "'NTC']")
        self._hidden_size = int(hidden_size)
        self._projection_size = int(projection_size) if projection_size else None
        self._num_layers = int(num_layers)
        self._mode = mode
        self._layout = layout
        self._dropout = dropout
        self._dir = 2 if bidirectional else 1
        self._input_size = int(input_size)
        self._lstm_state_clip_min = lstm_state_clip_min
        self._lstm_state_clip_max = lstm_state_clip_max
        self._lstm_state_clip_nan = lstm_state_clip_nan
        self._dtype = dtype
        self._use_sequence_length = bool(use_sequence_length)
        self._gates = _GATES[mode]
        ng, ni, nh = self._gates, self._input_size, self._hidden_size
        nr = self._projection_size or nh
        for i in range(self._num_layers):
            for j in "lr"[:self._dir]:
                self._register(f"{j}{i}_i2h_weight", (ng * nh, ni), i2h_weight_initializer, dtype)
                self._register(f"{j}{i}_h2h_weight", (ng * nh, nr), h2h_weight_initializer, dtype)
                self._register(f"{j}{i}_i2h_bias", (ng * nh,), i2h_bias_initializer, dtype)
                self._register(f"{j}{i}_h2h_bias", (ng * nh,), h2h_bias_initializer, dtype)
                if self._projection_size:
                    self._register(f"{j}{i}_h2r_weight", (nr, nh), h2r_weight_initializer, dtype)
            ni = nr * self._dir

    def _register(self, name: str, shape: tuple, init: Any, dtype: Any) -> None:
        setattr(self, name, Parameter(name, shape=shape, init=init, dtype=dtype, allow_deferred_init=True))

    def __repr__(self) -> str:
        s = f"{type(self).__name__}({{mapping}}, {self._layout}"
        if self._num_layers != 1:
            s += f", num_layers={self._num_layers}"
        if self._dropout != 0:
            s += f", dropout={self._dropout}"
        if self._dir == 2:
            s += ", bidirectional"
        shape = self.l0_i2h_weight.shape
        mapping = f"{shape[1] if shape[1] else None} -> {shape[0] // self._gates}"
        return s.format(mapping=mapping) + ")"

    def state_info(self, batch_size: int = 0) -> list[dict[str, Any]]:
        """The begin state's shape, layout and dtype."""
        return [{"shape": (self._num_layers * self._dir, batch_size, self._hidden_size), "__layout__": "LNC",
                 "dtype": self._dtype}]

    def infer_shape(self, inputs: Tensor, *args: Any) -> None:
        n = int(inputs.shape[-1])
        for j in "lr"[:self._dir]:
            p = getattr(self, f"{j}0_i2h_weight")
            p.shape = (p.shape[0], n)

    def cast(self, dtype: Any) -> _RNNLayer:
        super().cast(dtype)
        self._dtype = dtype
        return self

    def begin_state(self, batch_size: int = 0, func: Any = None, **kwargs: Any) -> list[Any]:
        """Initial states of the layer: zeros (or ``func(shape=..., **kwargs)``) shaped as ``state_info``.

        Args:
            batch_size: the batch size ('N' of the layout).
            func: makes each state from ``shape`` and ``**kwargs`` (``mx.nd.zeros``, ``mx.np.ones`` ...).
                Default: zeros of the current array kind (mx.np under ``set_np``, mx.nd otherwise).
            kwargs: more arguments for ``func`` (``dtype`` ...).

        Returns:
            list: the states.
        """
        infos = self.state_info(batch_size)
        return begin_states(infos, func, kwargs, [f"{self.prefix}h0_{i}" for i in range(len(infos))],
                            drop_name=True)

    def __call__(self, inputs: Any, states: Any = None, sequence_length: Any = None, *rest: Any,
                 **kwargs: Any) -> Any:
        flat = rest or (self._mode == "lstm" and isinstance(states, Tensor)
                        and isinstance(sequence_length, Tensor) and not self._use_sequence_length)
        if self.__dict__.get("_flat_call") or flat:
            # re-entered by tracing / compiling, or called with every state a separate tensor (as a traced
            # graph's inputs are): the flat form, returning (output, *states)
            args = (inputs,) + (() if states is None else (states,)) + \
                (() if sequence_length is None else (sequence_length,)) + rest
            return HybridBlock.__call__(self, *args, **kwargs)
        skip_states = states is None
        if states is None:
            states = []  # zeros made from the input's batch inside the computation (dynamic when traced)
        elif isinstance(states, Tensor):
            states = [states]
        args = [inputs, *states]
        if self._use_sequence_length:
            if sequence_length is None:
                raise ValueError(f"{type(self).__name__}: use_sequence_length=True needs sequence_length")
            args.append(sequence_length)
        self.__dict__["_flat_call"] = True
        try:
            out = super().__call__(*args, **kwargs)
        finally:
            self.__dict__["_flat_call"] = False
        if skip_states:
            return out[0]
        return out[0], list(out[1:])

    def forward(self, inputs: Tensor, *args: Tensor) -> tuple[Tensor, ...]:
        """(output, *states); ``args``: the begin states (none for zeros), then the sequence lengths with
        ``use_sequence_length``."""
        n_states = 2 if self._mode == "lstm" else 1
        lengths = args[-1] if self._use_sequence_length else None
        states = list(args[:len(args) - int(self._use_sequence_length)])
        batch_axis = self._layout.find("N")
        if states:
            if len(states) != n_states:
                raise ValueError(f"{type(self).__name__}: expected {n_states} begin states, got "
                                 f"{len(states)}")
            for state, info in zip(states, self.state_info(int(inputs.shape[batch_axis]))):
                if tuple(int(d) for d in state.shape) != info["shape"]:
                    raise ValueError(f"Invalid recurrent state shape. Expecting {info['shape']}, got "
                                     f"{tuple(state.shape)}.")
        else:
            states = [_zeros_like_batch(inputs, batch_axis, info["shape"]) for info in self.state_info(0)]
        x = ops.transpose(inputs, (1, 0, 2)) if self._layout == "NTC" else inputs
        weights = []
        for i in range(self._num_layers):
            for j in "lr"[:self._dir]:
                names = ["i2h_weight", "h2h_weight", "i2h_bias", "h2h_bias"]
                names += ["h2r_weight"] if self._projection_size else []
                weights.append([getattr(self, f"{j}{i}_{n}") for n in names])
        clip = None
        if self._lstm_state_clip_min is not None or self._lstm_state_clip_max is not None:
            clip = (self._lstm_state_clip_min, self._lstm_state_clip_max, bool(self._lstm_state_clip_nan))
        outs = run_rnn(x, weights, states[0], states[1] if n_states == 2 else None, self._mode,
                       self._num_layers, self._dir, float(self._dropout), lengths, clip)
        if self._layout == "NTC":
            outs[0] = ops.transpose(outs[0], (1, 0, 2))
        return tuple(outs)


def _zeros_like_batch(inputs: Tensor, batch_axis: int, shape: tuple) -> Tensor:
    """Zeros (L * D, N, H) with N the batch of ``inputs`` (dynamic when traced)."""
    lead = Tensor(ops.zeros((shape[0], 1, shape[2]), inputs.dtype)._data)
    col = inputs[0] if batch_axis == 1 else inputs[:, 0]
    return lead + ops.expand_dims(col[:, :1], 0) * 0


class RNN(_RNNLayer):
    r"""A multi-layer Elman RNN with tanh or ReLU non-linearity over a sequence:
    ``h_t = act(W_ih x_t + b_ih + W_hh h_(t-1) + b_hh)``.

    Args:
        hidden_size: number of features in the hidden state.
        num_layers: number of stacked layers. Default: 1.
        activation: 'relu' or 'tanh'. Default: 'relu'.
        layout: 'TNC' or 'NTC'. Default: 'TNC'.
        dropout: dropout on each layer's outputs but the last, in training. Default: 0.
        bidirectional: run a reverse direction too. Default: False.
        i2h_weight_initializer, h2h_weight_initializer, i2h_bias_initializer, h2h_bias_initializer:
            initializers. Default: None (the global one), None, 'zeros', 'zeros'.
        input_size: input features; 0 infers them at the first call. Default: 0.
        dtype: parameter dtype. Default: 'float32'.
        use_sequence_length: the call takes per-sample lengths. Default: False.

    Inputs:
        data (T, N, C) ('TNC'), states: list of (num_layers * D, N, H) or None for zeros; with
        ``use_sequence_length`` also ``sequence_length`` (N,).

    Outputs:
        out (T, N, D * H); with states given also the final states.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> layer = mx.gluon.rnn.RNN(100, 3)
        >>> layer.initialize()
        >>> x = mx.nd.random.uniform(shape=(5, 3, 10))
        >>> h0 = mx.nd.random.uniform(shape=(3, 3, 100))
        >>> output, hn = layer(x, h0)
        >>> output.shape, hn[0].shape
        ((5, 3, 100), (3, 3, 100))
    """

    def __init__(self, hidden_size: int, num_layers: int = 1, activation: str = "relu", layout: str = "TNC",
                 dropout: float = 0, bidirectional: bool = False, i2h_weight_initializer: Any = None,
                 h2h_weight_initializer: Any = None, i2h_bias_initializer: Any = "zeros",
                 h2h_bias_initializer: Any = "zeros", input_size: int = 0, dtype: Any = "float32",
                 use_sequence_length: bool = False, **kwargs: Any) -> None:
        if activation not in ("relu", "tanh"):
            raise ValueError(f"RNN: activation must be 'relu' or 'tanh', got {activation!r}")
        super().__init__(hidden_size, num_layers, layout, dropout, bidirectional, input_size,
                         i2h_weight_initializer, h2h_weight_initializer, i2h_bias_initializer,
                         h2h_bias_initializer, "rnn_" + activation, None, None, None, None, False, dtype,
                         use_sequence_length=use_sequence_length, **kwargs)

    def _alias(self) -> str:
        return "rnn"


class LSTM(_RNNLayer):
    r"""A multi-layer long short-term memory (LSTM) RNN over a sequence (gates i, f, g, o; with
    ``projection_size`` the hidden state is projected, LSTMP).

    Args:
        hidden_size: number of features in the hidden state.
        num_layers: number of stacked layers. Default: 1.
        layout: 'TNC' or 'NTC'. Default: 'TNC'.
        dropout: dropout on each layer's outputs but the last, in training. Default: 0.
        bidirectional: run a reverse direction too. Default: False.
        input_size: input features; 0 infers them at the first call. Default: 0.
        i2h_weight_initializer, h2h_weight_initializer, i2h_bias_initializer, h2h_bias_initializer:
            initializers. Default: None, None, 'zeros', 'zeros'.
        projection_size: size of the projected hidden state; None for none. Default: None.
        h2r_weight_initializer: the projection's initializer. Default: None.
        state_clip_min, state_clip_max: clip the cell state to this range. Default: None.
        state_clip_nan: whether NaN cell states become 0 when clipping. Default: False.
        dtype: parameter dtype. Default: 'float32'.
        use_sequence_length: the call takes per-sample lengths. Default: False.

    Inputs:
        data (T, N, C) ('TNC'), states: [h (num_layers * D, N, P or H), c (num_layers * D, N, H)] or None.

    Outputs:
        out (T, N, D * (P or H)); with states given also [h_n, c_n].

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> layer = mx.gluon.rnn.LSTM(100, 3)
        >>> layer.initialize()
        >>> x = mx.nd.random.uniform(shape=(5, 3, 10))
        >>> h0 = mx.nd.random.uniform(shape=(3, 3, 100))
        >>> c0 = mx.nd.random.uniform(shape=(3, 3, 100))
        >>> output, hn = layer(x, [h0, c0])
        >>> output.shape, [s.shape for s in hn]
        ((5, 3, 100), [(3, 3, 100), (3, 3, 100)])
    """

    def __init__(self, hidden_size: int, num_layers: int = 1, layout: str = "TNC", dropout: float = 0,
                 bidirectional: bool = False, input_size: int = 0, i2h_weight_initializer: Any = None,
                 h2h_weight_initializer: Any = None, i2h_bias_initializer: Any = "zeros",
                 h2h_bias_initializer: Any = "zeros", projection_size: int | None = None,
                 h2r_weight_initializer: Any = None, state_clip_min: float | None = None,
                 state_clip_max: float | None = None, state_clip_nan: bool = False, dtype: Any = "float32",
                 use_sequence_length: bool = False, **kwargs: Any) -> None:
        super().__init__(hidden_size, num_layers, layout, dropout, bidirectional, input_size,
                         i2h_weight_initializer, h2h_weight_initializer, i2h_bias_initializer,
                         h2h_bias_initializer, "lstm", projection_size, h2r_weight_initializer,
                         state_clip_min, state_clip_max, state_clip_nan, dtype,
                         use_sequence_length=use_sequence_length, **kwargs)

    def _alias(self) -> str:
        return "lstm"

    def state_info(self, batch_size: int = 0) -> list[dict[str, Any]]:
        """The begin states' shapes, layout and dtype (h, then c)."""
        h = self._projection_size or self._hidden_size
        return [{"shape": (self._num_layers * self._dir, batch_size, h), "__layout__": "LNC",
                 "dtype": self._dtype},
                {"shape": (self._num_layers * self._dir, batch_size, self._hidden_size), "__layout__": "LNC",
                 "dtype": self._dtype}]


class GRU(_RNNLayer):
    r"""A multi-layer gated recurrent unit (GRU) RNN over a sequence (gates r, z, n, the reset gate applied
    after the recurrent matrix product, as cuDNN computes it).

    Args:
        hidden_size: number of features in the hidden state.
        num_layers: number of stacked layers. Default: 1.
        layout: 'TNC' or 'NTC'. Default: 'TNC'.
        dropout: dropout on each layer's outputs but the last, in training. Default: 0.
        bidirectional: run a reverse direction too. Default: False.
        input_size: input features; 0 infers them at the first call. Default: 0.
        i2h_weight_initializer, h2h_weight_initializer, i2h_bias_initializer, h2h_bias_initializer:
            initializers. Default: None, None, 'zeros', 'zeros'.
        dtype: parameter dtype. Default: 'float32'.
        use_sequence_length: the call takes per-sample lengths. Default: False.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> layer = mx.gluon.rnn.GRU(100, 3)
        >>> layer.initialize()
        >>> x = mx.nd.random.uniform(shape=(5, 3, 10))
        >>> h0 = mx.nd.random.uniform(shape=(3, 3, 100))
        >>> output, hn = layer(x, h0)
        >>> output.shape, hn[0].shape
        ((5, 3, 100), (3, 3, 100))
    """

    def __init__(self, hidden_size: int, num_layers: int = 1, layout: str = "TNC", dropout: float = 0,
                 bidirectional: bool = False, input_size: int = 0, i2h_weight_initializer: Any = None,
                 h2h_weight_initializer: Any = None, i2h_bias_initializer: Any = "zeros",
                 h2h_bias_initializer: Any = "zeros", dtype: Any = "float32",
                 use_sequence_length: bool = False,
                 **kwargs: Any) -> None:
        super().__init__(hidden_size, num_layers, layout, dropout, bidirectional, input_size,
                         i2h_weight_initializer, h2h_weight_initializer, i2h_bias_initializer,
                         h2h_bias_initializer, "gru", None, None, None, None, False, dtype,
                         use_sequence_length=use_sequence_length, **kwargs)

    def _alias(self) -> str:
        return "gru"
