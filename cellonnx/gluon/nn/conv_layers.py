"""gluon.nn convolution and pooling layers with MXNet signatures, for 1, 2 and 3 spatial axes: the _Conv and
_Pooling bases and the 2-D layers Conv2D, Conv2DTranspose, MaxPool2D, AvgPool2D, GlobalMaxPool2D,
GlobalAvgPool2D (the 1-D and 3-D ones are in conv_nd_layers).

Weights are laid out as MXNet (and ONNX) lay them: Conv (channels, in_channels / groups, *kernel),
ConvTranspose (in_channels, channels / groups, *kernel); with a channel-last layout (NHWC, NDHWC) MXNet keeps
the kernel axes before the input channels: (channels, *kernel, in_channels / groups). ``ceil_mode`` is MXNet's
'full' pooling convention.
"""
from __future__ import annotations

from typing import Any

from cellonnx import ops
from cellonnx.gluon.hybrid import HybridBlock
from cellonnx.gluon.nn.activations import Activation
from cellonnx.gluon.parameter import Parameter
from cellonnx.tensor import Tensor

__all__ = ["AvgPool2D", "Conv2D", "Conv2DTranspose", "GlobalAvgPool2D", "GlobalMaxPool2D", "MaxPool2D"]


class LayoutError(ValueError, AssertionError):
    """A layout the layer does not take (MXNet asserts it: an AssertionError, and a ValueError)."""


def _ntuple(value: Any, n: int, name: str, owner: str) -> tuple[int, ...]:
    if isinstance(value, int):
        return (value,) * n
    out = tuple(int(v) for v in value)
    if len(out) != n:
        raise ValueError(f"{owner}: {name} must be a number or a list of {n} ints, got {value!r}")
    return out


def _pair(value: Any, name: str, owner: str) -> tuple[int, int]:
    return _ntuple(value, 2, name, owner)  # type: ignore[return-value]


def _check_layout(layout: str, owner: str, allowed: tuple[str, ...] = ("NCHW",)) -> bool:
    """Whether ``layout`` (one of ``allowed``) puts the channels last."""
    if layout not in allowed:
        names = " and ".join(repr(a) for a in allowed)
        raise LayoutError(f"{owner}: only the {names} layouts are supported, got {layout!r}")
    return layout.endswith("C")


def _to_first(x: Tensor) -> Tensor:
    return ops.transpose(x, (0, x.ndim - 1, *range(1, x.ndim - 1)))


def _to_last(x: Tensor) -> Tensor:
    return ops.transpose(x, (0, *range(2, x.ndim), 1))


class _Conv(HybridBlock):
    _transpose = False
    _nd = 2
    _layouts: tuple[str, ...] = ("NCHW", "NHWC")

    def __init__(self, channels: int, kernel_size: Any, strides: Any, padding: Any, dilation: Any,
                 groups: int,
                 layout: str, in_channels: int, activation: str | None, use_bias: bool,
                 weight_initializer: Any,
                 bias_initializer: Any, output_padding: Any = 0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        owner, n = type(self).__name__, self._nd
        self._last = _check_layout(layout, owner, self._layouts)
        self._layout = layout
        self._channels = channels
        self._in_channels = in_channels
        self._kernel = _ntuple(kernel_size, n, "kernel_size", owner)
        self._strides = _ntuple(strides, n, "strides", owner)
        self._padding = _ntuple(padding, n, "padding", owner)
        self._dilation = _ntuple(dilation, n, "dilation", owner)
        self._output_padding = _ntuple(output_padding, n, "output_padding", owner)
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
            out, inner = in_channels, self._channels // self._groups
        else:
            out, inner = self._channels, in_channels // self._groups if in_channels else 0
        return (out, *self._kernel, inner) if self._last else (out, inner, *self._kernel)

    def infer_shape(self, x: Tensor, *args: Any) -> None:
        self.weight.shape = self._weight_shape(int(x.shape[-1 if self._last else 1]))

    def _conv(self, x: Tensor, weight: Tensor) -> Tensor:
        if self._transpose:
            from cellonnx.ops.prims.conv_grad import conv_transpose
            return conv_transpose(x, weight, self.bias, stride=self._strides, padding=self._padding,
                                  output_padding=self._output_padding, groups=self._groups,
                                  dilation=self._dilation, op=type(self).__name__)
        conv = {1: ops.conv1d, 2: ops.conv2d, 3: ops.conv3d}[self._nd]
        return conv(x, weight, self.bias, stride=self._strides, pad_mode="pad", padding=self._padding,
                    dilation=self._dilation, groups=self._groups)

    def forward(self, x: Tensor) -> Tensor:
        if self._last:
            out = _to_last(self._conv(_to_first(x), _to_first(self.weight)))
        else:
            out = self._conv(x, self.weight)
        return self.act(out) if self.act is not None else out

    def __repr__(self) -> str:
        shape = self.weight.shape
        c_inner = shape[-1] if self._last else shape[1]
        c_in, c_out = (shape[0], c_inner * self._groups) if self._transpose else (c_inner * self._groups,
                                                                                  shape[0])
        n = self._nd
        s = f"{type(self).__name__}({c_in if c_in else None} -> {c_out}, kernel_size={self._kernel}, " \
            f"stride={self._strides}"
        if self._padding != (0,) * n:
            s += f", padding={self._padding}"
        if self._dilation != (1,) * n:
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
        layout: 'NCHW' or 'NHWC' (weight (channels, kH, kW, in_channels / groups)).
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


class _Pooling(HybridBlock):
    """Max or average pooling over the ``_nd`` spatial axes (the whole map with ``global_pool``)."""

    _nd = 2
    _layouts: tuple[str, ...] = ("NCHW", "NHWC")
    _pool_type = "max"

    def __init__(self, pool_size: Any, strides: Any, padding: Any, ceil_mode: bool, layout: str,
                 count_include_pad: bool | None = None, global_pool: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        owner, n = type(self).__name__, self._nd
        self._last = _check_layout(layout, owner, self._layouts)
        self._layout = layout
        self._kernel = _ntuple(pool_size, n, "pool_size", owner)
        self._strides = self._kernel if strides is None else _ntuple(strides, n, "strides", owner)
        self._padding = _ntuple(padding, n, "padding", owner)
        self._ceil_mode = bool(ceil_mode)
        self._global = bool(global_pool)
        self._count_include_pad = True if count_include_pad is None else bool(count_include_pad)

    def _alias(self) -> str:
        return "pool"

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(size={self._kernel}, stride={self._strides}, "
                f"padding={self._padding}, ceil_mode={self._ceil_mode}, global_pool={self._global}, "
                f"pool_type={self._pool_type}, layout={self._layout})")

    def _pool(self, x: Tensor) -> Tensor:
        n = self._nd
        if self._global:
            axes = tuple(range(2, 2 + n))
            return ops.amax(x, axes, keep_dims=True) if self._pool_type == "max" else ops.mean(x, axes, True)
        if self._pool_type == "max":
            pool = {1: ops.max_pool1d, 2: ops.max_pool2d, 3: ops.max_pool3d}[n]
            return pool(x, self._kernel, self._strides, self._padding, ceil_mode=self._ceil_mode)
        pool = {1: ops.avg_pool1d, 2: ops.avg_pool2d, 3: ops.avg_pool3d}[n]
        return pool(x, self._kernel, self._strides, self._padding, ceil_mode=self._ceil_mode,
                    count_include_pad=self._count_include_pad)

    def forward(self, x: Tensor) -> Tensor:
        if x.ndim != self._nd + 2:
            raise ValueError(f"{type(self).__name__}: expected a {self._nd + 2}-d input ({self._layout}), "
                             f"got shape {tuple(x.shape)}")
        return _to_last(self._pool(_to_first(x))) if self._last else self._pool(x)


class _GlobalPooling(_Pooling):
    def __init__(self, layout: str, **kwargs: Any) -> None:
        super().__init__(1, None, 0, True, layout, global_pool=True, **kwargs)


class MaxPool2D(_Pooling):
    """2D max pooling.

    Args:
        pool_size: Default: (2, 2).
        strides: Default: None (pool_size).
        padding: Default: 0.
        layout: 'NCHW' or 'NHWC'.
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

    _pool_type = "avg"

    def __init__(self, pool_size: Any = (2, 2), strides: Any = None, padding: Any = 0,
                 ceil_mode: bool = False,
                 layout: str = "NCHW", count_include_pad: bool = True, **kwargs: Any) -> None:
        super().__init__(pool_size, strides, padding, ceil_mode, layout, count_include_pad, **kwargs)


class GlobalMaxPool2D(_GlobalPooling):
    """Max over H and W: (N, C, H, W) -> (N, C, 1, 1).

    Examples:
        >>> from cellonnx.mxnet import np, npx, gluon
        >>> npx.set_np()
        >>> pool = gluon.nn.GlobalMaxPool2D()
        >>> x = np.arange(16).reshape(1, 1, 4, 4)
        >>> print(pool(x))
        [[[[15.]]]]
    """

    _pool_type = "max"

    def __init__(self, layout: str = "NCHW", **kwargs: Any) -> None:
        super().__init__(layout, **kwargs)


class GlobalAvgPool2D(_GlobalPooling):
    """Mean over H and W: (N, C, H, W) -> (N, C, 1, 1).

    Examples:
        >>> from cellonnx.mxnet import np, npx, gluon
        >>> npx.set_np()
        >>> pool = gluon.nn.GlobalAvgPool2D()
        >>> x = np.arange(16).reshape(1, 1, 4, 4)
        >>> print(pool(x))
        [[[[7.5]]]]
    """

    _pool_type = "avg"

    def __init__(self, layout: str = "NCHW", **kwargs: Any) -> None:
        super().__init__(layout, **kwargs)
