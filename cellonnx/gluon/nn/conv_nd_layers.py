"""gluon.nn 1-D and 3-D convolution and pooling layers with MXNet's signatures: Conv1D, Conv3D,
Conv1DTranspose, Conv3DTranspose, MaxPool1D/3D, AvgPool1D/3D, GlobalMaxPool1D/3D, GlobalAvgPool1D/3D (the
shared bases and the 2-D layers are in conv_layers)."""
from __future__ import annotations

from typing import Any

from cellonnx.gluon.nn.conv_layers import _Conv, _GlobalPooling, _Pooling

__all__ = ["AvgPool1D", "AvgPool3D", "Conv1D", "Conv1DTranspose", "Conv3D", "Conv3DTranspose",
           "GlobalAvgPool1D", "GlobalAvgPool3D", "GlobalMaxPool1D", "GlobalMaxPool3D", "MaxPool1D",
           "MaxPool3D"]

_1D, _3D = ("NCW", "NWC"), ("NCDHW", "NDHWC")


class Conv1D(_Conv):
    """1D convolution over (N, C, W), weight (channels, in_channels / groups, k).

    Args:
        channels, kernel_size, strides (Default: 1), padding (Default: 0), dilation (Default: 1), groups
        (Default: 1), activation, use_bias, weight_initializer, bias_initializer, in_channels: as Conv2D, one
        value per argument.
        layout: only 'NCW' (as MXNet 1.9.1).

    Shape:
        out = floor((in + 2 * padding - dilation * (kernel - 1) - 1) / stride) + 1.

    Examples:
        >>> from cellonnx.mxnet import np, npx, gluon
        >>> npx.set_np()
        >>> conv = gluon.nn.Conv1D(4, kernel_size=3, strides=2, in_channels=2)
        >>> conv.initialize()
        >>> conv(np.ones((1, 2, 9))).shape
        (1, 4, 4)
        >>> conv
        Conv1D(2 -> 4, kernel_size=(3,), stride=(2,))
    """

    _nd, _layouts = 1, ("NCW",)

    def __init__(self, channels: int, kernel_size: Any, strides: Any = 1, padding: Any = 0, dilation: Any = 1,
                 groups: int = 1, layout: str = "NCW", activation: str | None = None, use_bias: bool = True,
                 weight_initializer: Any = None, bias_initializer: Any = "zeros", in_channels: int = 0,
                 **kwargs: Any) -> None:
        super().__init__(channels, kernel_size, strides, padding, dilation, groups, layout, in_channels,
                         activation, use_bias, weight_initializer, bias_initializer, **kwargs)


class Conv3D(_Conv):
    """3D convolution over (N, C, D, H, W), weight (channels, in_channels / groups, kD, kH, kW); with layout
    'NDHWC' over (N, D, H, W, C) with weight (channels, kD, kH, kW, in_channels / groups).

    Args:
        channels, kernel_size, strides (Default: (1, 1, 1)), padding (Default: (0, 0, 0)), dilation (Default:
        (1, 1, 1)), groups, activation, use_bias, weight_initializer, bias_initializer, in_channels: as
        Conv2D.
        layout: 'NCDHW' or 'NDHWC'. Default: 'NCDHW'.

    Examples:
        >>> from cellonnx.mxnet import np, npx, gluon
        >>> npx.set_np()
        >>> conv = gluon.nn.Conv3D(4, kernel_size=3, padding=1, in_channels=2)
        >>> conv.initialize()
        >>> conv(np.ones((1, 2, 4, 5, 6))).shape
        (1, 4, 4, 5, 6)
    """

    _nd, _layouts = 3, _3D

    def __init__(self, channels: int, kernel_size: Any, strides: Any = (1, 1, 1), padding: Any = (0, 0, 0),
                 dilation: Any = (1, 1, 1), groups: int = 1, layout: str = "NCDHW",
                 activation: str | None = None, use_bias: bool = True, weight_initializer: Any = None,
                 bias_initializer: Any = "zeros", in_channels: int = 0, **kwargs: Any) -> None:
        super().__init__(channels, kernel_size, strides, padding, dilation, groups, layout, in_channels,
                         activation, use_bias, weight_initializer, bias_initializer, **kwargs)


class Conv1DTranspose(_Conv):
    """1D transposed convolution over (N, C, W), weight (in_channels, channels / groups, k).

    Args:
        channels, kernel_size, strides, padding, output_padding, dilation, groups, activation, use_bias,
        weight_initializer, bias_initializer, in_channels: as Conv2DTranspose, one value per argument
        (defaults 1, 0, 0, 1, 1).
        layout: only 'NCW'.

    Shape:
        out = (in - 1) * stride - 2 * padding + dilation * (kernel - 1) + output_padding + 1.

    Examples:
        >>> from cellonnx.mxnet import np, npx, gluon
        >>> npx.set_np()
        >>> deconv = gluon.nn.Conv1DTranspose(2, kernel_size=3, strides=2, output_padding=1, in_channels=4)
        >>> deconv.initialize()
        >>> deconv(np.ones((1, 4, 5))).shape
        (1, 2, 12)
    """

    _transpose, _nd, _layouts = True, 1, ("NCW",)

    def __init__(self, channels: int, kernel_size: Any, strides: Any = 1, padding: Any = 0,
                 output_padding: Any = 0, dilation: Any = 1, groups: int = 1, layout: str = "NCW",
                 activation: str | None = None, use_bias: bool = True, weight_initializer: Any = None,
                 bias_initializer: Any = "zeros", in_channels: int = 0, **kwargs: Any) -> None:
        super().__init__(channels, kernel_size, strides, padding, dilation, groups, layout, in_channels,
                         activation, use_bias, weight_initializer, bias_initializer, output_padding, **kwargs)
        self.outpad = self._output_padding


class Conv3DTranspose(_Conv):
    """3D transposed convolution over (N, C, D, H, W), weight (in_channels, channels / groups, kD, kH, kW)
    ((in_channels, kD, kH, kW, channels / groups) with layout 'NDHWC').

    Args:
        channels, kernel_size, strides, padding, output_padding, dilation, groups, activation, use_bias,
        weight_initializer, bias_initializer, in_channels: as Conv2DTranspose, three values per argument.
        layout: 'NCDHW' or 'NDHWC'. Default: 'NCDHW'.

    Examples:
        >>> from cellonnx.mxnet import np, npx, gluon
        >>> npx.set_np()
        >>> deconv = gluon.nn.Conv3DTranspose(2, kernel_size=2, strides=2, in_channels=3)
        >>> deconv.initialize()
        >>> deconv(np.ones((1, 3, 2, 3, 4))).shape
        (1, 2, 4, 6, 8)
    """

    _transpose, _nd, _layouts = True, 3, _3D

    def __init__(self, channels: int, kernel_size: Any, strides: Any = (1, 1, 1), padding: Any = (0, 0, 0),
                 output_padding: Any = (0, 0, 0), dilation: Any = (1, 1, 1), groups: int = 1,
                 layout: str = "NCDHW", activation: str | None = None, use_bias: bool = True,
                 weight_initializer: Any = None, bias_initializer: Any = "zeros", in_channels: int = 0,
                 **kwargs: Any) -> None:
        super().__init__(channels, kernel_size, strides, padding, dilation, groups, layout, in_channels,
                         activation, use_bias, weight_initializer, bias_initializer, output_padding, **kwargs)
        self.outpad = self._output_padding


class MaxPool1D(_Pooling):
    """1D max pooling over (N, C, W) ('NCW') or (N, W, C) ('NWC').

    Args:
        pool_size: Default: 2. strides: Default: None (pool_size). padding: Default: 0.
        layout: 'NCW' or 'NWC'. Default: 'NCW'.
        ceil_mode: round output sizes up ('full' convention). Default: False.

    Examples:
        >>> from cellonnx.mxnet import np, npx, gluon
        >>> npx.set_np()
        >>> print(gluon.nn.MaxPool1D(2)(np.array([[[1.0, 5.0, 2.0, 8.0, 3.0]]])))
        [[[5. 8.]]]
    """

    _nd, _layouts = 1, _1D

    def __init__(self, pool_size: Any = 2, strides: Any = None, padding: Any = 0, layout: str = "NCW",
                 ceil_mode: bool = False, **kwargs: Any) -> None:
        super().__init__(pool_size, strides, padding, ceil_mode, layout, **kwargs)


class MaxPool3D(_Pooling):
    """3D max pooling over (N, C, D, H, W) ('NCDHW') or (N, D, H, W, C) ('NDHWC').

    Args:
        pool_size: Default: (2, 2, 2). strides, padding, ceil_mode: as MaxPool1D.
        layout: 'NCDHW' or 'NDHWC'. Default: 'NCDHW'.

    Examples:
        >>> from cellonnx.mxnet import np, npx, gluon
        >>> npx.set_np()
        >>> print(gluon.nn.MaxPool3D()(np.arange(16).reshape(1, 1, 2, 2, 4)))
        [[[[[13. 15.]]]]]
    """

    _nd, _layouts = 3, _3D

    def __init__(self, pool_size: Any = (2, 2, 2), strides: Any = None, padding: Any = 0,
                 ceil_mode: bool = False, layout: str = "NCDHW", **kwargs: Any) -> None:
        super().__init__(pool_size, strides, padding, ceil_mode, layout, **kwargs)


class AvgPool1D(_Pooling):
    """1D average pooling.

    Args:
        pool_size, strides, padding, layout, ceil_mode: as MaxPool1D.
        count_include_pad: count the zero padding in the divisor. Default: True.

    Examples:
        >>> from cellonnx.mxnet import np, npx, gluon
        >>> npx.set_np()
        >>> print(gluon.nn.AvgPool1D(2)(np.array([[[1.0, 5.0, 2.0, 8.0]]])))
        [[[3. 5.]]]
    """

    _nd, _layouts, _pool_type = 1, _1D, "avg"

    def __init__(self, pool_size: Any = 2, strides: Any = None, padding: Any = 0, layout: str = "NCW",
                 ceil_mode: bool = False, count_include_pad: bool = True, **kwargs: Any) -> None:
        super().__init__(pool_size, strides, padding, ceil_mode, layout, count_include_pad, **kwargs)


class AvgPool3D(_Pooling):
    """3D average pooling.

    Args:
        pool_size, strides, padding, ceil_mode, layout: as MaxPool3D.
        count_include_pad: count the zero padding in the divisor. Default: True.

    Examples:
        >>> from cellonnx.mxnet import np, npx, gluon
        >>> npx.set_np()
        >>> print(gluon.nn.AvgPool3D()(np.arange(16).reshape(1, 1, 2, 2, 4)))
        [[[[[6.5 8.5]]]]]
    """

    _nd, _layouts, _pool_type = 3, _3D, "avg"

    def __init__(self, pool_size: Any = (2, 2, 2), strides: Any = None, padding: Any = 0,
                 ceil_mode: bool = False, layout: str = "NCDHW", count_include_pad: bool = True,
                 **kwargs: Any) -> None:
        super().__init__(pool_size, strides, padding, ceil_mode, layout, count_include_pad, **kwargs)


class GlobalMaxPool1D(_GlobalPooling):
    """Max over W: (N, C, W) -> (N, C, 1) (layout 'NCW' or 'NWC').

    Examples:
        >>> from cellonnx.mxnet import np, npx, gluon
        >>> npx.set_np()
        >>> print(gluon.nn.GlobalMaxPool1D()(np.array([[[1.0, 5.0, 2.0]]])))
        [[[5.]]]
    """

    _nd, _layouts = 1, _1D

    def __init__(self, layout: str = "NCW", **kwargs: Any) -> None:
        super().__init__(layout, **kwargs)


class GlobalMaxPool3D(_GlobalPooling):
    """Max over D, H and W: (N, C, D, H, W) -> (N, C, 1, 1, 1) (layout 'NCDHW' or 'NDHWC').

    Examples:
        >>> from cellonnx.mxnet import np, npx, gluon
        >>> npx.set_np()
        >>> print(gluon.nn.GlobalMaxPool3D()(np.arange(8).reshape(1, 1, 2, 2, 2)))
        [[[[[7.]]]]]
    """

    _nd, _layouts = 3, _3D

    def __init__(self, layout: str = "NCDHW", **kwargs: Any) -> None:
        super().__init__(layout, **kwargs)


class GlobalAvgPool1D(_GlobalPooling):
    """Mean over W: (N, C, W) -> (N, C, 1) (layout 'NCW' or 'NWC').

    Examples:
        >>> from cellonnx.mxnet import np, npx, gluon
        >>> npx.set_np()
        >>> print(gluon.nn.GlobalAvgPool1D()(np.array([[[1.0, 5.0, 3.0]]])))
        [[[3.]]]
    """

    _nd, _layouts, _pool_type = 1, _1D, "avg"

    def __init__(self, layout: str = "NCW", **kwargs: Any) -> None:
        super().__init__(layout, **kwargs)


class GlobalAvgPool3D(_GlobalPooling):
    """Mean over D, H and W: (N, C, D, H, W) -> (N, C, 1, 1, 1) (layout 'NCDHW' or 'NDHWC').

    Examples:
        >>> from cellonnx.mxnet import np, npx, gluon
        >>> npx.set_np()
        >>> print(gluon.nn.GlobalAvgPool3D()(np.arange(8).reshape(1, 1, 2, 2, 2)))
        [[[[[3.5]]]]]
    """

    _nd, _layouts, _pool_type = 3, _3D, "avg"

    def __init__(self, layout: str = "NCDHW", **kwargs: Any) -> None:
        super().__init__(layout, **kwargs)
