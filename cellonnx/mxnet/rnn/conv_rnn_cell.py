"""mx.rnn's convolutional cells (MXNet 1.x, over mx.sym): ConvRNNCell, ConvLSTMCell and ConvGRUCell, 2-D
convolutions for the input-to-state and state-to-state transforms (Shi et al. 2015), leaky-ReLU (slope 0.2)
activations by default."""

from __future__ import annotations

import functools
from typing import Any

from cellonnx.mxnet import symbol
from cellonnx.mxnet.rnn.rnn_cell import BaseRNNCell, RNNParams, _batch_states

__all__ = ["BaseConvRNNCell", "ConvGRUCell", "ConvLSTMCell", "ConvRNNCell"]

_LEAKY = functools.partial(symbol.LeakyReLU, act_type="leaky", slope=0.2)


class BaseConvRNNCell(BaseRNNCell):
    """The base of the convolutional cells: the i2h convolution (kernel, stride, pad, dilate as given) and the
    h2h convolution (padded to keep the state's size; odd kernels only).

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> isinstance(mx.rnn.ConvRNNCell((1, 3, 8, 8), 4), mx.rnn.BaseConvRNNCell)
        True
    """

    _gate_names_: tuple[str, ...] = ("",)

    def __init__(
        self,
        input_shape: tuple,
        num_hidden: int,
        h2h_kernel: tuple,
        h2h_dilate: tuple,
        i2h_kernel: tuple,
        i2h_stride: tuple,
        i2h_pad: tuple,
        i2h_dilate: tuple,
        i2h_weight_initializer: Any,
        h2h_weight_initializer: Any,
        i2h_bias_initializer: Any,
        h2h_bias_initializer: Any,
        activation: Any,
        prefix: str = "",
        params: RNNParams | None = None,
        conv_layout: str = "NCHW",
    ) -> None:
        super().__init__(prefix=prefix, params=params)
        self._h2h_kernel = h2h_kernel
        if not (h2h_kernel[0] % 2 == 1 and h2h_kernel[1] % 2 == 1):
            raise AssertionError(f"Only support odd number, get h2h_kernel= {h2h_kernel}")
        self._h2h_pad = (h2h_dilate[0] * (h2h_kernel[0] - 1) // 2, h2h_dilate[1] * (h2h_kernel[1] - 1) // 2)
        self._h2h_dilate = h2h_dilate
        self._i2h_kernel = i2h_kernel
        self._i2h_stride = i2h_stride
        self._i2h_pad = i2h_pad
        self._i2h_dilate = i2h_dilate
        self._num_hidden = num_hidden
        self._input_shape = input_shape
        self._conv_layout = conv_layout
        self._activation = activation
        probe = symbol.Convolution(
            data=symbol.Variable("data"),
            num_filter=num_hidden,
            kernel=i2h_kernel,
            stride=i2h_stride,
            pad=i2h_pad,
            dilate=i2h_dilate,
            layout=conv_layout,
        )
        self._state_shape = (0,) + tuple(probe.infer_shape(data=input_shape)[1][0][1:])
        self._iW = self.params.get("i2h_weight", init=i2h_weight_initializer)
        self._hW = self.params.get("h2h_weight", init=h2h_weight_initializer)
        self._iB = self.params.get("i2h_bias", init=i2h_bias_initializer)
        self._hB = self.params.get("h2h_bias", init=h2h_bias_initializer)

    @property
    def _gate_names(self) -> Any:
        return self._gate_names_

    @property
    def _num_gates(self) -> int:
        return len(self._gate_names)

    @property
    def state_info(self) -> list[Any]:
        n = 2 if self._num_gates == 4 else 1
        return [{"shape": self._state_shape, "__layout__": self._conv_layout} for _ in range(n)]

    def _conv_forward(self, inputs: Any, states: list[Any], name: str) -> tuple[Any, Any]:
        filters = self._num_hidden * self._num_gates
        i2h = symbol.Convolution(
            name=f"{name}i2h",
            data=inputs,
            num_filter=filters,
            kernel=self._i2h_kernel,
            stride=self._i2h_stride,
            pad=self._i2h_pad,
            dilate=self._i2h_dilate,
            weight=self._iW,
            bias=self._iB,
            layout=self._conv_layout,
        )
        h2h = symbol.Convolution(
            name=f"{name}h2h",
            data=states[0],
            num_filter=filters,
            kernel=self._h2h_kernel,
            dilate=self._h2h_dilate,
            pad=self._h2h_pad,
            stride=(1, 1),
            weight=self._hW,
            bias=self._hB,
            layout=self._conv_layout,
        )
        return i2h, h2h

    def _step_name(self) -> str:
        self._counter += 1
        return f"{self._prefix}t{self._counter}_"

    def __call__(self, inputs: Any, states: Any) -> tuple[Any, list[Any]]:
        raise NotImplementedError("BaseConvRNNCell is abstract class for convolutional RNN")


def _cell_init(default_prefix: str) -> Any:
    """The constructor of a convolutional cell: BaseConvRNNCell's arguments with MXNet's defaults and the
    cell's own default prefix."""

    def __init__(
        self: BaseConvRNNCell,
        input_shape: tuple,
        num_hidden: int,
        h2h_kernel: tuple = (3, 3),
        h2h_dilate: tuple = (1, 1),
        i2h_kernel: tuple = (3, 3),
        i2h_stride: tuple = (1, 1),
        i2h_pad: tuple = (1, 1),
        i2h_dilate: tuple = (1, 1),
        i2h_weight_initializer: Any = None,
        h2h_weight_initializer: Any = None,
        i2h_bias_initializer: Any = "zeros",
        h2h_bias_initializer: Any = "zeros",
        activation: Any = _LEAKY,
        prefix: str = default_prefix,
        params: RNNParams | None = None,
        conv_layout: str = "NCHW",
    ) -> None:
        BaseConvRNNCell.__init__(self, input_shape, num_hidden, h2h_kernel, h2h_dilate, i2h_kernel,
                                 i2h_stride, i2h_pad, i2h_dilate, i2h_weight_initializer,
                                 h2h_weight_initializer, i2h_bias_initializer, h2h_bias_initializer,
                                 activation, prefix, params, conv_layout)

    return __init__


class ConvRNNCell(BaseConvRNNCell):
    """A convolutional RNN cell: ``act(conv(x) + conv(h))``.

    Args:
        input_shape: the input's shape, batch included ((N, C, H, W) for 'NCHW').
        num_hidden: channels of the state.
        h2h_kernel, h2h_dilate, i2h_kernel, i2h_stride, i2h_pad, i2h_dilate: the convolutions. Default:
            (3, 3), (1, 1), (3, 3), (1, 1), (1, 1), (1, 1).
        i2h_weight_initializer, h2h_weight_initializer, i2h_bias_initializer, h2h_bias_initializer:
            Default: None, None, 'zeros', 'zeros'.
        activation: Default: leaky ReLU with slope 0.2.
        prefix: Default: 'ConvRNN_'.
        params: Default: None.
        conv_layout: Default: 'NCHW'.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> cell = mx.rnn.ConvRNNCell((2, 3, 8, 8), 4)
        >>> out, _ = cell.unroll(2, mx.sym.Variable('data'), merge_outputs=True)
        >>> out.infer_shape(data=(2, 2, 3, 8, 8))[1]
        [(2, 2, 4, 8, 8)]
    """

    __init__ = _cell_init("ConvRNN_")

    def __call__(self, inputs: Any, states: Any) -> tuple[Any, list[Any]]:
        name = self._step_name()
        states = _batch_states(states, inputs)
        i2h, h2h = self._conv_forward(inputs, states, name)
        output = self._get_activation(i2h + h2h, self._activation, name=f"{name}out")
        return output, [output]


class ConvLSTMCell(BaseConvRNNCell):
    """A convolutional LSTM cell (Shi et al. 2015; gates i, f, c, o along the channel axis).

    Args: as ConvRNNCell; prefix Default: 'ConvLSTM_'.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> cell = mx.rnn.ConvLSTMCell((2, 3, 8, 8), 4)
        >>> out, states = cell.unroll(2, mx.sym.Variable('data'), merge_outputs=True)
        >>> len(states)
        2
    """

    _gate_names_ = ("_i", "_f", "_c", "_o")

    __init__ = _cell_init("ConvLSTM_")

    def __call__(self, inputs: Any, states: Any) -> tuple[Any, list[Any]]:
        name = self._step_name()
        states = _batch_states(states, inputs)
        i2h, h2h = self._conv_forward(inputs, states, name)
        gates = symbol.SliceChannel(
            i2h + h2h, num_outputs=4, axis=self._conv_layout.find("C"), name=f"{name}slice"
        )
        in_gate = symbol.Activation(gates[0], act_type="sigmoid", name=f"{name}i")
        forget_gate = symbol.Activation(gates[1], act_type="sigmoid", name=f"{name}f")
        in_transform = self._get_activation(gates[2], self._activation, name=f"{name}c")
        out_gate = symbol.Activation(gates[3], act_type="sigmoid", name=f"{name}o")
        next_c = symbol.elemwise_add(forget_gate * states[1], in_gate * in_transform, name=f"{name}state")
        next_h = symbol.elemwise_mul(
            out_gate, self._get_activation(next_c, self._activation), name=f"{name}out"
        )
        return next_h, [next_h, next_c]


class ConvGRUCell(BaseConvRNNCell):
    """A convolutional GRU cell (gates r, z along the channel axis).

    Args: as ConvRNNCell; prefix Default: 'ConvGRU_'.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> cell = mx.rnn.ConvGRUCell((2, 3, 8, 8), 4)
        >>> out, _ = cell.unroll(2, mx.sym.Variable('data'), merge_outputs=True)
        >>> out.infer_shape(data=(2, 2, 3, 8, 8))[1]
        [(2, 2, 4, 8, 8)]
    """

    _gate_names_ = ("_r", "_z", "_o")

    __init__ = _cell_init("ConvGRU_")

    def __call__(self, inputs: Any, states: Any) -> tuple[Any, list[Any]]:
        name = self._step_name()
        states = _batch_states(states, inputs)
        i2h, h2h = self._conv_forward(inputs, states, name)
        i2h_r, i2h_z, i2h = symbol.SliceChannel(i2h, num_outputs=3, name=f"{name}_i2h_slice")
        h2h_r, h2h_z, h2h = symbol.SliceChannel(h2h, num_outputs=3, name=f"{name}_h2h_slice")
        reset_gate = symbol.Activation(i2h_r + h2h_r, act_type="sigmoid", name=f"{name}_r_act")
        update_gate = symbol.Activation(i2h_z + h2h_z, act_type="sigmoid", name=f"{name}_z_act")
        next_h_tmp = self._get_activation(i2h + reset_gate * h2h, self._activation, name=f"{name}_h_act")
        next_h = symbol.elemwise_add(
            (1.0 - update_gate) * next_h_tmp, update_gate * states[0], name=f"{name}out"
        )
        return next_h, [next_h]
