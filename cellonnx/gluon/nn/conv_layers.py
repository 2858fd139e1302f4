"""gluon.nn convolution and pooling layers (NCHW) with MXNet 2.x signatures: Conv2D, Conv2DTranspose,
MaxPool2D, AvgPool2D, GlobalMaxPool2D, GlobalAvgPool2D.

Weights are laid out as MXNet (and ONNX) lay them: Conv2D (channels, in_channels / groups, kH, kW),
Conv2DTranspose (in_channels, channels / groups, kH, kW). ``ceil_mode`` is MXNet's 'full' pooling convention.
"""
from __future__ import annotations

from typing import Any

from cellonnx import ops
from cellonnx.gluon.hybrid import HybridBlock
from cellonnx.gluon.nn.activations import Activation
from cellonnx.gluon.parameter import Parameter
from cellonnx.tensor import Tensor

__all__ = ["AvgPool2D", "Conv2D", "Conv2DTranspose", "GlobalAvgPool2D", "GlobalMaxPool2D", "MaxPool2D"]


def _pair(value: Any, name: str, owner: str) -> tuple[int, int]:
    if isinstance(value, int):
        return (value, value)
    out = tuple(int(v) for v in value)
    if len(out) != 2:
        raise ValueError(f"{owner}: {name} must be a number or a list of 2 ints, got {value!r}")
    return out  # type: ignore[return-value]


def _check_layout(layout: str, owner: str) -> None:
    if layout != "NCHW":
        raise ValueError(f"{owner}: only the 'NCHW' layout is supported, got {layout!r} (transpose the input "
                         "with ops.transpose(x, (0, 3, 1, 2)))")


class _Conv(HybridBlock):
    _transpose = False

    def __init__(self, channels: int, kernel_size: Any, strides: Any, padding: Any, dilation: Any,
                 groups: int,
                 layout: str, in_channels: int, activation: str | None, use_bias: bool,
                 weight_initializer: Any,
                 bias_initializer: Any, output_padding: Any = 0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        owner = type(self).__name__
        _check_layout(layout, owner)
        self._channels = channels
        self._in_channels = in_channels
        self._kernel = _pair(kernel_size, "kernel_size", owner)
        self._strides = _pair(strides, "strides", owner)
        self._padding = _pair(padding, "padding", owner)
        self._dilation = _pair(dilation, "dilation", owner)
        self._output_padding = _pair(output_padding, "output_padding", owner)
        self._groups = groups
        self.weight = Parameter("weight", shape=self._weight_shape(in_channels), init=weight_initializer,
                                allow_deferred_init=True)
        self.bias = Parameter("bias", shape=(channels,), init=bias_initializer,
                              allow_deferred_init=True) if use_bias else None
        self.act = Activation(activation) if activation is not None else None

    def _alias(self) -> str:
        return "conv"

    def _weight_shape(self, in_channels: int) -> tuple[int, ...]:
        if self._transpose:
            return (in_channels, self._channels // self._groups, *self._kernel)
        return (self._channels, in_channels // self._groups if in_channels else 0, *self._kernel)

    def infer_shape(self, x: Tensor, *args: Any) -> None:
        self.weight.shape = self._weight_shape(int(x.shape[1]))

    def _conv(self, x: Tensor) -> Tensor:
        return ops.conv2d(x, self.weight, self.bias, stride=self._strides, pad_mode="pad",
                          padding=self._padding,
                          dilation=self._dilation, groups=self._groups)

    def forward(self, x: Tensor) -> Tensor:
        out = self._conv(x)
        return self.act(out) if self.act is not None else out

    def __repr__(self) -> str:
        shape = self.weight.shape
        c_in, c_out = (shape[0], shape[1] * self._groups) if self._transpose else (shape[1] * self._groups,
                                                                                  shape[0])
        s = f"{type(self).__name__}({c_in if c_in else None} -> {c_out}, kernel_size={self._kernel}, " \
            f"stride={self._strides}"
        if self._padding != (0, 0):
            s += f", padding={self._padding}"
        if self._dilation != (1, 1):
            s += f", dilation={self._dilation}"
        if self._groups != 1:
            s += f", groups={self._groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.act is not None:
            s += f", {self.act}"
        return s + ")"


class Conv2D(_Conv):
    """2D convolution over (N, C, H, W).

    Args:
        channels: output channels.
        kernel_size: int or (kH, kW).
        strides: Default: (1, 1).
        padding: zero padding on both sides of each spatial axis. Default: (0, 0).
        dilation: Default: (1, 1).
        groups: Default: 1.
        layout: only 'NCHW'.
        activation: an Activation name or None. Default: None.
        use_bias: Default: True.
        weight_initializer, bias_initializer: Default: None (the global initializer), 'zeros'.
        in_channels: 0 infers it at the first forward pass. Default: 0.

    Shape:
        out = floor((in + 2 * padding - dilation * (kernel - 1) - 1) / stride) + 1.

    Examples:
        >>> from cellonnx.mxnet import np, npx, gluon
        >>> npx.set_np()
        >>> conv = gluon.nn.Conv2D(8, kernel_size=3, padding=1, in_channels=3)
        >>> conv.initialize()
        >>> x = np.ones((1, 3, 16, 16))
        >>> conv(x).shape
        (1, 8, 16, 16)
        >>> conv.weight.shape
        (8, 3, 3, 3)
    """

    def __init__(self, channels: int, kernel_size: Any, strides: Any = (1, 1), padding: Any = (0, 0),
                 dilation: Any = (1, 1), groups: int = 1, layout: str = "NCHW", activation: str | None = None,
                 use_bias: bool = True, weight_initializer: Any = None, bias_initializer: Any = "zeros",
                 in_channels: int = 0, **kwargs: Any) -> None:
        super().__init__(channels, kernel_size, strides, padding, dilation, groups, layout, in_channels,
                         activation,
                         use_bias, weight_initializer, bias_initializer, **kwargs)


class Conv2DTranspose(_Conv):
    """2D transposed convolution over (N, C, H, W).

    Args:
        channels, kernel_size, strides, padding, dilation, groups, layout, activation, use_bias,
        weight_initializer, bias_initializer, in_channels: as Conv2D.
        output_padding: added to one side of the output. Default: (0, 0).

    Shape:
        out = (in - 1) * stride - 2 * padding + dilation * (kernel - 1) + output_padding + 1.

    Examples:
        >>> from cellonnx.mxnet import np, npx, gluon
        >>> npx.set_np()
        >>> deconv = gluon.nn.Conv2DTranspose(2, kernel_size=2, strides=2, in_channels=4)
        >>> deconv.initialize()
        >>> deconv(np.ones((1, 4, 5, 5))).shape
        (1, 2, 10, 10)
    """

    _transpose = True

    def __init__(self, channels: int, kernel_size: Any, strides: Any = (1, 1), padding: Any = (0, 0),
                 output_padding: Any = (0, 0), dilation: Any = (1, 1), groups: int = 1, layout: str = "NCHW",
                 activation: str | None = None, use_bias: bool = True, weight_initializer: Any = None,
                 bias_initializer: Any = "zeros", in_channels: int = 0, **kwargs: Any) -> None:
        super().__init__(channels, kernel_size, strides, padding, dilation, groups, layout, in_channels,
                         activation,
                         use_bias, weight_initializer, bias_initializer, output_padding, **kwargs)
        self.outpad = self._output_padding

    def _conv(self, x: Tensor) -> Tensor:
        return ops.conv_transpose2d(x, self.weight, self.bias, stride=self._strides, padding=self._padding,
                                    output_padding=self._output_padding, groups=self._groups,
                                    dilation=self._dilation)


def _pool_repr(block: HybridBlock, kernel: tuple[int, ...], strides: tuple[int, ...],
               padding: tuple[int, ...], ceil_mode: bool, global_pool: bool) -> str:
    """MXNet's repr of a pooling layer (the global ones show a 1x1 window, ceil_mode True)."""
    pool_type = "max" if "Max" in type(block).__name__ else "avg"
    return (f"{type(block).__name__}(size={kernel}, stride={strides}, padding={padding}, "
            f"ceil_mode={ceil_mode}, global_pool={global_pool}, pool_type={pool_type}, layout=NCHW)")


class _Pooling(HybridBlock):
    def __init__(self, pool_size: Any, strides: Any, padding: Any, ceil_mode: bool, layout: str,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        owner = type(self).__name__
        _check_layout(layout, owner)
        self._kernel = _pair(pool_size, "pool_size", owner)
        self._strides = self._kernel if strides is None else _pair(strides, "strides", owner)
        self._padding = _pair(padding, "padding", owner)
        self._ceil_mode = bool(ceil_mode)

    def _alias(self) -> str:
        return "pool"

    def __repr__(self) -> str:
        return _pool_repr(self, self._kernel, self._strides, self._padding, self._ceil_mode, False)


class MaxPool2D(_Pooling):
    """2D max pooling.

    Args:
        pool_size: Default: (2, 2).
        strides: Default: None (pool_size).
        padding: Default: 0.
        layout: only 'NCHW'.
        ceil_mode: round output sizes up ('full' convention). Default: False.

    Examples:
        >>> from cellonnx.mxnet import np, npx, gluon
        >>> npx.set_np()
        >>> pool = gluon.nn.MaxPool2D(pool_size=2, strides=2)
        >>> x = np.arange(16).reshape(1, 1, 4, 4)
        >>> print(pool(x))
        [[[[ 5.  7.]
           [13. 15.]]]]
    """

    def __init__(self, pool_size: Any = (2, 2), strides: Any = None, padding: Any = 0, layout: str = "NCHW",
                 ceil_mode: bool = False, **kwargs: Any) -> None:
        super().__init__(pool_size, strides, padding, ceil_mode, layout, **kwargs)

    def forward(self, x: Tensor) -> Tensor:
        return ops.max_pool2d(x, self._kernel, self._strides, self._padding, ceil_mode=self._ceil_mode)


class AvgPool2D(_Pooling):
    """2D average pooling.

    Args:
        pool_size, strides, padding, ceil_mode, layout: as MaxPool2D.
        count_include_pad: count the zero padding in the divisor. Default: True.

    Examples:
        >>> from cellonnx.mxnet import np, npx, gluon
        >>> npx.set_np()
        >>> pool = gluon.nn.AvgPool2D(pool_size=2, strides=2)
        >>> x = np.arange(16).reshape(1, 1, 4, 4)
        >>> print(pool(x))
        [[[[ 2.5  4.5]
           [10.5 12.5]]]]
    """

    def __init__(self, pool_size: Any = (2, 2), strides: Any = None, padding: Any = 0,
                 ceil_mode: bool = False,
                 layout: str = "NCHW", count_include_pad: bool = True, **kwargs: Any) -> None:
        super().__init__(pool_size, strides, padding, ceil_mode, layout, **kwargs)
        self._count_include_pad = bool(count_include_pad)

    def forward(self, x: Tensor) -> Tensor:
        return ops.avg_pool2d(x, self._kernel, self._strides, self._padding, ceil_mode=self._ceil_mode,
                              count_include_pad=self._count_include_pad)


class GlobalMaxPool2D(HybridBlock):
    """Max over H and W: (N, C, H, W) -> (N, C, 1, 1).

    Examples:
        >>> from cellonnx.mxnet import np, npx, gluon
        >>> npx.set_np()
        >>> pool = gluon.nn.GlobalMaxPool2D()
        >>> x = np.arange(16).reshape(1, 1, 4, 4)
        >>> print(pool(x))
        [[[[15.]]]]
    """

    def __init__(self, layout: str = "NCHW", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        _check_layout(layout, "GlobalMaxPool2D")

    def _alias(self) -> str:
        return "pool"

    def __repr__(self) -> str:
        return _pool_repr(self, (1, 1), (1, 1), (0, 0), True, True)

    def forward(self, x: Tensor) -> Tensor:
        return ops.amax(x, (2, 3), keep_dims=True)


class GlobalAvgPool2D(HybridBlock):
    """Mean over H and W: (N, C, H, W) -> (N, C, 1, 1).

    Examples:
        >>> from cellonnx.mxnet import np, npx, gluon
        >>> npx.set_np()
        >>> pool = gluon.nn.GlobalAvgPool2D()
        >>> x = np.arange(16).reshape(1, 1, 4, 4)
        >>> print(pool(x))
        [[[[7.5]]]]
    """

    def __init__(self, layout: str = "NCHW", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        _check_layout(layout, "GlobalAvgPool2D")

    def _alias(self) -> str:
        return "pool"

    def __repr__(self) -> str:
        return _pool_repr(self, (1, 1), (1, 1), (0, 0), True, True)

    def forward(self, x: Tensor) -> Tensor:
        return ops.mean(x, (2, 3), keep_dims=True)
