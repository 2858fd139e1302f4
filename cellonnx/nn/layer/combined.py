"""Conv2dBnAct, DenseBnAct (MindSpore's nn.layer.combined) and TimeDistributed."""
from __future__ import annotations

from typing import Any

from cellonnx import ops
from cellonnx.nn.cell import Cell
from cellonnx.nn.layer._primitive import Primitive
from cellonnx.nn.layer.activation import LeakyReLU, get_activation
from cellonnx.nn.layer.basic import Dense
from cellonnx.nn.layer.conv import Conv2d
from cellonnx.nn.layer.normalization import BatchNorm1d, BatchNorm2d
from cellonnx.tensor import Tensor

__all__ = ["Conv2dBnAct", "DenseBnAct", "TimeDistributed"]


def _activation(owner: str, activation: Any, alpha: float) -> Any:
    if activation == "leakyrelu":
        return LeakyReLU(alpha)
    act = get_activation(activation) if isinstance(activation, str) else activation
    if activation is not None and not isinstance(act, (Cell, Primitive)) and not callable(act):
        raise TypeError(f"For '{owner}', the 'activation' must be str or Cell or Primitive, but got "
                        f"{type(activation).__name__}.")
    return act


def _check_bool(owner: str, **values: Any) -> None:
    for name, v in values.items():
        if not isinstance(v, bool):
            raise TypeError(f"For '{owner}', the '{name}' must be bool, but got {type(v).__name__}.")


class Conv2dBnAct(Cell):
    """Conv2d, then optionally BatchNorm2d and an activation.

    Args:
        in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation, group, has_bias: as
        Conv2d. weight_init (default 'normal'), bias_init (default 'zeros'): the convolution's.
        has_bn (bool): add a BatchNorm2d (``batchnorm``). Default: False. momentum (float): Default: 0.997.
        eps (float): Default: 1e-5. activation (Union[str, Cell], optional): an activation name ('leakyrelu'
        uses ``alpha``) or Cell. alpha (float): Default: 0.2. after_fake (bool): kept for MindSpore's
        quantization flows. Default: True.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> net = nn.Conv2dBnAct(3, 8, kernel_size=3, has_bn=True, activation='relu')
        >>> net(Tensor(np.ones((1, 3, 8, 8)), ms.float32)).shape
        (1, 8, 8, 8)
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 pad_mode: str = "same", padding: Any = 0, dilation: Any = 1, group: int = 1,
                 has_bias: bool = False,
                 weight_init: Any = "normal", bias_init: Any = "zeros", has_bn: bool = False,
                 momentum: float = 0.997,
                 eps: float = 1e-5, activation: Any = None, alpha: float = 0.2,
                 after_fake: bool = True) -> None:
        super().__init__()
        self.conv = Conv2d(in_channels, out_channels, kernel_size=kernel_size, stride=stride,
                           pad_mode=pad_mode,
                           padding=padding, dilation=dilation, group=group, has_bias=has_bias,
                           weight_init=weight_init, bias_init=bias_init)
        _check_bool(self.cls_name, has_bn=has_bn, after_fake=after_fake)
        self.has_bn = has_bn
        self.has_act = activation is not None
        self.after_fake = after_fake
        if has_bn:
            self.batchnorm = BatchNorm2d(out_channels, eps, momentum)
        self.activation = _activation(self.cls_name, activation, alpha)

    def construct(self, x: Tensor) -> Tensor:
        x = self.conv(x)
        if self.has_bn:
            x = self.batchnorm(x)
        return self.activation(x) if self.has_act else x


class DenseBnAct(Cell):
    """Dense, then optionally BatchNorm1d and an activation.

    Args:
        in_channels, out_channels (int). weight_init (default 'normal'), bias_init (default 'zeros'),
        has_bias (default True): the Dense layer's. has_bn (bool): Default: False. momentum (float): Default:
        0.9.
        eps (float): Default: 1e-5. activation, alpha, after_fake: as Conv2dBnAct.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> net = nn.DenseBnAct(3, 4, activation='relu')
        >>> net(Tensor(np.ones((2, 3)), ms.float32)).shape
        (2, 4)
    """

    def __init__(self, in_channels: int, out_channels: int, weight_init: Any = "normal",
                 bias_init: Any = "zeros",
                 has_bias: bool = True, has_bn: bool = False, momentum: float = 0.9, eps: float = 1e-5,
                 activation: Any = None, alpha: float = 0.2, after_fake: bool = True) -> None:
        super().__init__()
        self.dense = Dense(in_channels, out_channels, weight_init, bias_init, has_bias)
        _check_bool(self.cls_name, has_bn=has_bn, after_fake=after_fake)
        self.has_bn = has_bn
        self.has_act = activation is not None
        self.after_fake = after_fake
        if has_bn:
            self.batchnorm = BatchNorm1d(out_channels, eps, momentum)
        self.activation = _activation(self.cls_name, activation, alpha)

    def construct(self, x: Tensor) -> Tensor:
        x = self.dense(x)
        if self.has_bn:
            x = self.batchnorm(x)
        return self.activation(x) if self.has_act else x


class TimeDistributed(Cell):
    """Apply ``layer`` to every time step of the input (``time_axis``): step by step, or on all steps at once
    with the time axis merged into ``reshape_with_axis``.

    Args:
        layer (Union[Cell, callable]): the layer applied per step.
        time_axis (int): the time axis of the (at least 3-D) input.
        reshape_with_axis (int, optional): the axis the time axis is merged with. Default: None.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> net = nn.TimeDistributed(nn.Dense(3, 2), time_axis=1)
        >>> net(Tensor(np.ones((4, 5, 3)), ms.float32)).shape
        (4, 5, 2)
    """

    def __init__(self, layer: Any, time_axis: int, reshape_with_axis: int | None = None) -> None:
        if not isinstance(layer, (Cell, Primitive)) and not callable(layer):
            raise TypeError(f"For '{type(self).__name__}', the 'layer' must be Cell or Primitive instance, "
                            f"but got type: {type(layer).__name__}.")
        super().__init__()
        for name, v in (("time_axis", time_axis), ("reshape_with_axis", reshape_with_axis)):
            if v is not None and (isinstance(v, bool) or not isinstance(v, int)):
                raise TypeError(f"For '{self.cls_name}', the '{name}' must be int, but got "
                                f"{type(v).__name__}.")
        self.layer = layer
        self.time_axis = time_axis
        self.reshape_with_axis = reshape_with_axis

    def construct(self, inputs: Tensor) -> Tensor:
        if not isinstance(inputs, Tensor):
            raise TypeError(f"For '{self.cls_name}', the inputs and outputs must be a Tensor.")
        if inputs.ndim < 3:
            raise ValueError(f"For '{self.cls_name}', the inputs shape must be at least 3D, but got "
                             f"{inputs.ndim}.")
        ndim = inputs.ndim
        time_axis = self.time_axis % ndim
        if self.reshape_with_axis is None:
            outs = [self.layer(step) for step in ops.unbind(inputs, time_axis)]
            for o in outs:
                if not isinstance(o, Tensor):
                    raise TypeError(f"For '{self.cls_name}', the inputs and outputs must be a Tensor.")
                if time_axis > o.ndim:
                    raise ValueError(f"For '{self.cls_name}', the value of 'time_axis' must be in range of "
                                     f"[{-o.ndim - 1}, {o.ndim}], but got {time_axis}.")
            return ops.stack(outs, time_axis)
        reshape_with_axis = self.reshape_with_axis % ndim
        if reshape_with_axis == ndim - 1:
            time_new = ndim - 2
        else:
            time_new = reshape_with_axis + 1 if time_axis > reshape_with_axis else reshape_with_axis - 1
        pos = time_new if time_new < reshape_with_axis else reshape_with_axis
        lo, hi = sorted((time_new, time_axis))
        perm = tuple(range(lo)) + (hi,) + tuple(range(lo, hi)) + tuple(range(hi + 1, ndim))
        x = ops.transpose(inputs, perm)
        shape = tuple(x.shape)
        x = ops.reshape(x, shape[:pos] + (-1,) + shape[pos + 2:])
        out = self.layer(x)
        if not isinstance(out, Tensor):
            raise TypeError(f"For '{self.cls_name}', the inputs and outputs must be a Tensor.")
        if pos >= out.ndim or x.shape[pos] != out.shape[pos]:
            raise ValueError(f"For '{self.cls_name}', the 'reshape_with_axis' is invalid in the input and "
                             f"output: input {tuple(x.shape)}, output {tuple(out.shape)}, position {pos}. "
                             "You may try pass parameters without 'reshape_with_axis'.")
        new_shape = tuple(out.shape[:pos]) + shape[pos:pos + 2]
        if pos + 1 < out.ndim:
            new_shape += tuple(out.shape[pos + 1:])
        return ops.reshape(out, (-1,) + new_shape[1:])
