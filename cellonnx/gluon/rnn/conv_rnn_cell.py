"""gluon.rnn's convolutional recurrent cells (gluon.contrib.rnn in MXNet 1.x): Conv1D/2D/3D RNN, LSTM
(Shi et al. 2015) and GRU cells, whose input-to-state and state-to-state transforms are convolutions; the
state keeps the spatial shape the i2h convolution gives (the h2h convolution is padded to keep it)."""

from __future__ import annotations

from typing import Any

from cellonnx import ops
from cellonnx.gluon.parameter import Parameter
from cellonnx.gluon.rnn.cell_base import HybridRecurrentCell, apply_activation, gru_update, lstm_update
from cellonnx.mxnet import _op
from cellonnx.tensor import Tensor

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
]

_FIRST = {1: "NCW", 2: "NCHW", 3: "NCDHW"}


def _tuple(v: Any, dims: int) -> tuple[int, ...]:
    return (int(v),) * dims if isinstance(v, (int, float)) else tuple(int(x) for x in v)


def _conv_out_size(dims: tuple, kernels: tuple, pads: tuple, dilations: tuple) -> tuple[int, ...]:
    return tuple(
        int(x + 2 * p - d * (k - 1) - 1) + 1 if x else 0 for x, k, p, d in zip(dims, kernels, pads, dilations)
    )


class _BaseConvRNNCell(HybridRecurrentCell):
    """What the convolutional cells share: parameters, shapes and the two convolutions."""

    _gate_names: tuple[str, ...] = ("",)

    def __init__(
        self,
        input_shape: tuple,
        hidden_channels: int,
        i2h_kernel: Any,
        h2h_kernel: Any,
        i2h_pad: Any,
        i2h_dilate: Any,
        h2h_dilate: Any,
        i2h_weight_initializer: Any,
        h2h_weight_initializer: Any,
        i2h_bias_initializer: Any,
        h2h_bias_initializer: Any,
        dims: int,
        conv_layout: str,
        activation: Any,
        prefix: str | None = None,
        params: Any = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(prefix=prefix, params=params, **kwargs)
        for spec in (i2h_kernel, i2h_pad, i2h_dilate, h2h_kernel, h2h_dilate):
            if not isinstance(spec, int) and len(spec) != dims:
                raise AssertionError(
                    f"For {dims}D convolution, the convolution settings can only be either int "
                    f"or list/tuple of length {dims}"
                )
        self._hidden_channels = int(hidden_channels)
        self._input_shape = tuple(input_shape)
        self._conv_layout = conv_layout
        self._activation = activation
        self._dims = dims
        self._i2h_kernel = _tuple(i2h_kernel, dims)
        self._stride = (1,) * dims
        self._i2h_pad = _tuple(i2h_pad, dims)
        self._i2h_dilate = _tuple(i2h_dilate, dims)
        self._h2h_kernel = _tuple(h2h_kernel, dims)
        if not all(k % 2 == 1 for k in self._h2h_kernel):
            raise AssertionError(f"Only support odd number, get h2h_kernel= {h2h_kernel}")
        self._h2h_dilate = _tuple(h2h_dilate, dims)
        self._h2h_pad = tuple(d * (k - 1) // 2 for d, k in zip(self._h2h_dilate, self._h2h_kernel))
        self._channel_axis = conv_layout.find("C")
        first = self._channel_axis == 1
        self._in_channels = self._input_shape[self._channel_axis - 1]
        spatial = self._input_shape[1:] if first else self._input_shape[:-1]
        out = self._hidden_channels * len(self._gate_names)
        conv_out = _conv_out_size(spatial, self._i2h_kernel, self._i2h_pad, self._i2h_dilate)
        if first:
            i2h_shape = (out, self._in_channels) + self._i2h_kernel
            h2h_shape = (out, self._hidden_channels) + self._h2h_kernel
            self._state_shape = (self._hidden_channels,) + conv_out
        else:
            i2h_shape = (out,) + self._i2h_kernel + (self._in_channels,)
            h2h_shape = (out,) + self._h2h_kernel + (self._hidden_channels,)
            self._state_shape = conv_out + (self._hidden_channels,)
        self.i2h_weight = Parameter(
            "i2h_weight", shape=i2h_shape, init=i2h_weight_initializer, allow_deferred_init=True
        )
        self.h2h_weight = Parameter(
            "h2h_weight", shape=h2h_shape, init=h2h_weight_initializer, allow_deferred_init=True
        )
        self.i2h_bias = Parameter(
            "i2h_bias", shape=(out,), init=i2h_bias_initializer, allow_deferred_init=True
        )
        self.h2h_bias = Parameter(
            "h2h_bias", shape=(out,), init=h2h_bias_initializer, allow_deferred_init=True
        )

    def __repr__(self) -> str:
        shape = self.i2h_weight.shape
        in_channels = shape[1 if self._channel_axis == 1 else -1]
        return (
            f"{type(self).__name__}({in_channels if in_channels else None} -> {shape[0]}, "
            f"{self._activation}, {self._conv_layout})"
        )

    def state_info(self, batch_size: int = 0) -> list[dict[str, Any]]:
        """One state per gate family ((N, hidden_channels, spatial...) in a channel-first layout)."""
        n = 2 if len(self._gate_names) == 4 else 1
        return [{"shape": (batch_size,) + self._state_shape, "__layout__": self._conv_layout}] * n

    def _conv(
        self, x: Tensor, weight: Tensor, bias: Tensor, kernel: tuple, pad: tuple, dilate: tuple
    ) -> Tensor:
        last = self._channel_axis != 1
        if last:  # channel-last: convolve channel-first and move the channels back
            to_first = (0, x.ndim - 1, *range(1, x.ndim - 1))
            x = ops.transpose(x, to_first)
            weight = ops.transpose(weight, to_first)
        out = _op.TABLE["Convolution"](
            x,
            weight,
            bias,
            kernel=kernel,
            stride=self._stride,
            dilate=dilate,
            pad=pad,
            num_filter=self._hidden_channels * len(self._gate_names),
            layout=_FIRST[self._dims],
        )
        if last:
            out = ops.transpose(out, (0, *range(2, out.ndim), 1))
        return out

    def _conv_forward(self, inputs: Tensor, state: Tensor) -> tuple[Tensor, Tensor]:
        i2h = self._conv(
            inputs, self.i2h_weight, self.i2h_bias, self._i2h_kernel, self._i2h_pad, self._i2h_dilate
        )
        h2h = self._conv(
            state, self.h2h_weight, self.h2h_bias, self._h2h_kernel, self._h2h_pad, self._h2h_dilate
        )
        return i2h, h2h

    def _split(self, x: Tensor, n: int) -> tuple[Tensor, ...]:
        return ops.split(x, self._hidden_channels, axis=self._channel_axis if n else 1)


class _ConvRNNCell(_BaseConvRNNCell):
    def _alias(self) -> str:
        return "conv_rnn"

    def forward(self, inputs: Tensor, states: list[Tensor]) -> tuple[Tensor, list[Tensor]]:
        i2h, h2h = self._conv_forward(inputs, states[0])
        out = apply_activation(i2h + h2h, self._activation)
        return out, [out]


class _ConvLSTMCell(_BaseConvRNNCell):
    _gate_names = ("_i", "_f", "_c", "_o")

    def _alias(self) -> str:
        return "conv_lstm"

    def forward(self, inputs: Tensor, states: list[Tensor]) -> tuple[Tensor, list[Tensor]]:
        i2h, h2h = self._conv_forward(inputs, states[0])
        next_h, next_c = lstm_update(*self._split(i2h + h2h, 4), states[1], self._activation, "sigmoid")
        return next_h, [next_h, next_c]


class _ConvGRUCell(_BaseConvRNNCell):
    _gate_names = ("_r", "_z", "_o")

    def _alias(self) -> str:
        return "conv_gru"

    def forward(self, inputs: Tensor, states: list[Tensor]) -> tuple[Tensor, list[Tensor]]:
        i2h, h2h = self._conv_forward(inputs, states[0])
        out = gru_update(self._split(i2h, 3), self._split(h2h, 3), states[0], self._activation, "sigmoid")
        return out, [out]


def _make(base: type, dims: int, kind: str) -> type:
    layout = _FIRST[dims]
    ones = (1,) * dims

    def __init__(
        self: Any,
        input_shape: tuple,
        hidden_channels: int,
        i2h_kernel: Any,
        h2h_kernel: Any,
        i2h_pad: Any = (0,) * dims,
        i2h_dilate: Any = ones,
        h2h_dilate: Any = ones,
        i2h_weight_initializer: Any = None,
        h2h_weight_initializer: Any = None,
        i2h_bias_initializer: Any = "zeros",
        h2h_bias_initializer: Any = "zeros",
        conv_layout: str = layout,
        activation: Any = "tanh",
        prefix: str | None = None,
        params: Any = None,
        **kwargs: Any,
    ) -> None:
        base.__init__(
            self,
            input_shape,
            hidden_channels,
            i2h_kernel,
            h2h_kernel,
            i2h_pad,
            i2h_dilate,
            h2h_dilate,
            i2h_weight_initializer,
            h2h_weight_initializer,
            i2h_bias_initializer,
            h2h_bias_initializer,
            dims,
            conv_layout,
            activation,
            prefix,
            params,
            **kwargs,
        )

    name = f"Conv{dims}D{kind}Cell"
    gates = {"RNN": "", "LSTM": " (gates i, f, c, o; states h and c)", "GRU": " (gates r, z, n)"}[kind]
    shape = {1: "(C, W)", 2: "(C, H, W)", 3: "(C, D, H, W)"}[dims]
    spatial = {1: "(4, 7)", 2: "(4, 7, 7)", 3: "(4, 5, 5, 5)"}[dims]
    state = {1: "(2, 6, 7)", 2: "(2, 6, 7, 7)", 3: "(2, 6, 5, 5, 5)"}[dims]
    doc = f"""A {dims}-D convolutional {kind} cell{gates}: the i2h and h2h transforms are {dims}-D
    convolutions.

    Args:
        input_shape: the input's shape without the batch, {shape} for layout '{layout}'.
        hidden_channels: channels of the state.
        i2h_kernel, h2h_kernel: kernel sizes (h2h odd: the state keeps its size).
        i2h_pad, i2h_dilate, h2h_dilate: padding and dilations. Default: 0, 1, 1.
        i2h_weight_initializer, h2h_weight_initializer, i2h_bias_initializer, h2h_bias_initializer:
            Default: None, None, 'zeros', 'zeros'.
        conv_layout: '{layout}' or its channel-last form. Default: '{layout}'.
        activation: Default: 'tanh'.
        prefix, params: MXNet 1.x's block prefix and shared parameters. Default: None.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> cell = mx.gluon.rnn.{name}({spatial}, 6, 3, 3, i2h_pad=1)
        >>> cell.initialize()
        >>> out, states = cell.unroll(3, mx.nd.ones((2, 3) + {spatial}), merge_outputs=True)
        >>> states[0].shape
        {state}
    """
    cls = type(name, (base,), {"__init__": __init__, "__doc__": doc, "__module__": __name__})
    cls.__qualname__ = name
    return cls


Conv1DRNNCell = _make(_ConvRNNCell, 1, "RNN")
Conv2DRNNCell = _make(_ConvRNNCell, 2, "RNN")
Conv3DRNNCell = _make(_ConvRNNCell, 3, "RNN")
Conv1DLSTMCell = _make(_ConvLSTMCell, 1, "LSTM")
Conv2DLSTMCell = _make(_ConvLSTMCell, 2, "LSTM")
Conv3DLSTMCell = _make(_ConvLSTMCell, 3, "LSTM")
Conv1DGRUCell = _make(_ConvGRUCell, 1, "GRU")
Conv2DGRUCell = _make(_ConvGRUCell, 2, "GRU")
Conv3DGRUCell = _make(_ConvGRUCell, 3, "GRU")
