"""Convolution layers: Conv1d, Conv2d, Conv3d and their transposes, with MindSpore's pad modes, parameter
shapes and default initializers (weight HeUniform(sqrt(5)), bias U(-1/sqrt(fan_in), 1/sqrt(fan_in)))."""
from __future__ import annotations

from typing import Any

from cellonnx import dtypes, ops
from cellonnx.nn.cell import Cell
from cellonnx.nn.layer._primitive import Primitive
from cellonnx.nn.layer._util import check_positive_int, check_type, weight_and_bias
from cellonnx.tensor import Parameter, Tensor

__all__ = ["Conv1d", "Conv1dTranspose", "Conv2d", "Conv2dTranspose", "Conv3d", "Conv3dTranspose"]


def _pair(value: Any, name: str, owner: str) -> tuple[int, int]:
    if isinstance(value, int) and not isinstance(value, bool):
        out = (value, value)
    elif isinstance(value, (tuple, list)) and len(value) == 2:
        out = (int(value[0]), int(value[1]))
    else:
        raise TypeError(f"For '{owner}', the '{name}' must be an int or a tuple of two ints, but got {value!r}.")
    if min(out) < 1:
        raise ValueError(f"For '{owner}', every '{name}' value must be positive, but got {value!r}.")
    return out


def _padding4(padding: Any, owner: str) -> tuple[int, int, int, int]:
    """(top, bottom, left, right)."""
    pads: tuple[int, ...]
    if isinstance(padding, int) and not isinstance(padding, bool):
        pads = (padding,) * 4
    elif isinstance(padding, tuple) and len(padding) == 4:
        pads = tuple(int(p) for p in padding)
    else:
        raise TypeError(f"For '{owner}', the 'padding' must be an int or a tuple of four ints (top, bottom, left, "
                        f"right), but got {padding!r}.")
    if min(pads) < 0:
        raise ValueError(f"For '{owner}', the 'padding' must be non-negative, but got {padding!r}.")
    return pads[0], pads[1], pads[2], pads[3]


class _Conv(Cell):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: tuple, stride: tuple, pad_mode: str,
                 padding: Any, dilation: tuple, group: int, has_bias: bool, weight_init: Any, bias_init: Any,
                 data_format: str = "NCHW", transposed: bool = False, dtype: Any = dtypes.float32) -> None:
        super().__init__()
        owner = self.cls_name
        check_positive_int(owner, in_channels=in_channels, out_channels=out_channels, group=group)
        if pad_mode not in ("same", "valid", "pad"):
            raise ValueError(f"For '{owner}', the 'pad_mode' must be one of ['same', 'valid', 'pad'], but got "
                             f"{pad_mode!r}.")
        if data_format not in ("NCHW", "NCDHW"):
            raise ValueError(f"For '{owner}', only the 'NCHW' / 'NCDHW' formats are supported (MindSpore "
                             f"supports 'NHWC' only on GPU), but got {data_format!r}.")
        if in_channels % group or out_channels % group:
            raise ValueError(f"For '{owner}', 'in_channels' ({in_channels}) and 'out_channels' ({out_channels}) must "
                             f"be divisible by 'group' ({group}).")
        check_type(owner, bool, has_bias=has_bias)
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = kernel_size
        self.stride = stride
        self.pad_mode = pad_mode
        self.padding = padding
        self.dilation = dilation
        self.group = group
        self.has_bias = has_bias
        self.data_format = data_format
        shape = [in_channels, out_channels // group, *kernel_size] if transposed else \
            [out_channels, in_channels // group, *kernel_size]
        self.weight: Parameter
        self.bias: Parameter | None
        self.weight, self.bias, self.weight_init, self.bias_init = weight_and_bias(
            weight_init, bias_init, shape, out_channels, has_bias, dtype)

    def extend_repr(self) -> str:
        return (f"input_channels={self.in_channels}, output_channels={self.out_channels}, "
                f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}, "
                f"padding={self.padding}, dilation={self.dilation}, group={self.group}, has_bias={self.has_bias}, "
                f"weight_init={self.weight_init}, bias_init={self.bias_init}, format={self.data_format}")


def _conv2d(x: Tensor, conv: _Conv, pads: tuple[int, int, int, int]) -> Tensor:
    """ops.conv2d with the layer's pad_mode; ``pads`` (top, bottom, left, right) are all zero unless it is
    'pad'."""
    return ops.conv2d(x, conv.weight, conv.bias, conv.stride, conv.pad_mode, pads, conv.dilation, conv.group)


def _conv2d_prim(x: Tensor, weight: Tensor, **attrs: Any) -> Tensor:
    """Conv2D's call: (x, weight), the bias added by the layer."""
    return ops.conv2d(x, weight, None, **attrs)


def _transpose_prim(x: Tensor, weight: Tensor, input_size: Any = None, **attrs: Any) -> Tensor:
    """Conv2DTranspose's call (x, weight[, output shape]): the layer's pad mode fixes the output size."""
    return ops.conv_transpose2d(x, weight, None, **attrs)


def _check_padding_mode(pads: tuple[int, ...], pad_mode: str, owner: str) -> None:
    if pad_mode != "pad" and any(pads):
        raise ValueError(f"For '{owner}', the 'padding' must be zero when 'pad_mode' is not 'pad', but got "
                         f"padding {pads} and pad_mode {pad_mode!r}.")


class Conv2d(_Conv):
    r"""2D convolution over an (N, C_in, H, W) input.

    Args:
        in_channels, out_channels: channel counts.
        kernel_size: int or (kh, kw).
        stride: int or (sh, sw). Default: 1.
        pad_mode: 'same' (output H_out = ceil(H / sh); extra padding at the bottom / right), 'valid' (no
            padding) or 'pad' (``padding``). Default: 'same'.
        padding: int or (top, bottom, left, right), only with pad_mode 'pad'. Default: 0.
        dilation: int or (dh, dw). Default: 1.
        group: number of groups. Default: 1.
        has_bias: Default: False.
        weight_init: initializer of the (out, in / group, kh, kw) weight. Default: HeUniform(sqrt(5)).
        bias_init: initializer of the bias. Default: U(-1/sqrt(fan_in), 1/sqrt(fan_in)).
        data_format: 'NCHW' only. dtype: parameter dtype.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> net = nn.Conv2d(3, 8, kernel_size=3, pad_mode='same')
        >>> x = Tensor(np.ones((1, 3, 16, 16)), ms.float32)
        >>> net(x).shape
        (1, 8, 16, 16)
        >>> net.weight.shape
        (8, 3, 3, 3)
        >>> net = nn.Conv2d(3, 8, kernel_size=3, stride=2, pad_mode='valid')
        >>> net(x).shape
        (1, 8, 7, 7)
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 pad_mode: str = "same", padding: Any = 0, dilation: Any = 1, group: int = 1,
                 has_bias: bool = False, weight_init: Any = None, bias_init: Any = None, data_format: str = "NCHW",
                 dtype: Any = dtypes.float32) -> None:
        owner = type(self).__name__
        pads = _padding4(padding, owner)
        _check_padding_mode(pads, pad_mode, owner)
        super().__init__(in_channels, out_channels, _pair(kernel_size, "kernel_size", owner),
                         _pair(stride, "stride", owner), pad_mode, padding, _pair(dilation, "dilation", owner), group,
                         has_bias, weight_init, bias_init, data_format, dtype=dtype)
        self._pads = pads
        self.conv2d = Primitive("Conv2D", _conv2d_prim, stride=self.stride, pad_mode=pad_mode, padding=pads,
                                dilation=self.dilation, groups=group)
        self.bias_add = Primitive("BiasAdd", ops.bias_add)

    def construct(self, x: Tensor) -> Tensor:
        return _conv2d(x, self, self._pads)


class Conv1d(_Conv):
    """1D convolution over an (N, C_in, L) input. As in MindSpore, the weight is stored as a 2D kernel
    (out, in / group, 1, kernel_size) and the layer runs a 2D convolution on (N, C_in, 1, L).

    Args:
        in_channels, out_channels, kernel_size, stride (ints), pad_mode ('same', 'valid', 'pad'),
        padding (int, both ends), dilation, group, has_bias, weight_init, bias_init, dtype: as Conv2d.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> net = nn.Conv1d(4, 6, kernel_size=3, pad_mode='valid')
        >>> x = Tensor(np.ones((2, 4, 10)), ms.float32)
        >>> net(x).shape
        (2, 6, 8)
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int = 1,
                 pad_mode: str = "same", padding: int = 0, dilation: int = 1, group: int = 1, has_bias: bool = False,
                 weight_init: Any = None, bias_init: Any = None, dtype: Any = dtypes.float32) -> None:
        owner = type(self).__name__
        for name, v, low in (("kernel_size", kernel_size, 1), ("stride", stride, 1), ("padding", padding, 0),
                             ("dilation", dilation, 1)):
            if isinstance(v, bool) or not isinstance(v, int):
                raise TypeError(f"For '{owner}', the '{name}' must be int, but got {type(v).__name__}.")
            if v < low:
                raise ValueError(f"For '{owner}', the '{name}' must be >= {low}, but got {v}.")
        _check_padding_mode((padding,), pad_mode, owner)
        if isinstance(weight_init, Tensor) and weight_init.ndim == 3:
            weight_init = ops.expand_dims(weight_init, 2)
        super().__init__(in_channels, out_channels, (1, kernel_size), (1, stride), pad_mode, padding,
                         (1, dilation), group, has_bias, weight_init, bias_init, dtype=dtype)
        self.padding = (0, 0, padding, padding)
        self._pads = (0, 0, padding, padding)
        self.conv2d = Primitive("Conv2D", _conv2d_prim, stride=self.stride, pad_mode=pad_mode,
                                padding=self._pads, dilation=self.dilation, groups=group)
        self.bias_add = Primitive("BiasAdd", ops.bias_add)
        self.expand_dims = Primitive("ExpandDims", ops.expand_dims)
        self.squeeze = Primitive("Squeeze", ops.squeeze, axis=2)

    def construct(self, x: Tensor) -> Tensor:
        out = _conv2d(ops.expand_dims(x, 2), self, self._pads)
        return ops.squeeze(out, 2)


class Conv2dTranspose(_Conv):
    """2D transposed convolution (the gradient of Conv2d with respect to its input) over (N, C_in, H, W).

    Args:
        in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation, group, has_bias,
        weight_init, bias_init, dtype: as Conv2d; the weight is (in_channels, out_channels / group, kh, kw).
        output_padding: int or (h, w); with pad_mode 'pad', zeros appended at the bottom / right of the
            output (after the bias, as MindSpore does). Default: 0.

    Shape:
        'same': H_out = H * sh; 'valid': H * sh + max(k_eff - sh, 0); 'pad': H * sh - (top + bottom) + k_eff - sh,
        with k_eff = kh + (kh - 1)(dh - 1).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> net = nn.Conv2dTranspose(4, 2, kernel_size=2, stride=2)
        >>> x = Tensor(np.ones((1, 4, 5, 5)), ms.float32)
        >>> net(x).shape
        (1, 2, 10, 10)
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 pad_mode: str = "same", padding: Any = 0, output_padding: Any = 0, dilation: Any = 1,
                 group: int = 1, has_bias: bool = False, weight_init: Any = None, bias_init: Any = None,
                 dtype: Any = dtypes.float32) -> None:
        owner = type(self).__name__
        pads = _padding4(padding, owner)
        if isinstance(output_padding, tuple) and len(output_padding) != 2:
            raise ValueError(f"For '{owner}', the 'output_padding' tuple must have 2 ints, got {output_padding!r}.")
        super().__init__(in_channels, out_channels, _pair(kernel_size, "kernel_size", owner),
                         _pair(stride, "stride", owner), pad_mode, padding, _pair(dilation, "dilation", owner), group,
                         has_bias, weight_init, bias_init, transposed=True, dtype=dtype)
        self.output_padding = output_padding
        self._pads = pads
        self.is_valid, self.is_same, self.is_pad = pad_mode == "valid", pad_mode == "same", pad_mode == "pad"
        self.conv2d_transpose = Primitive("Conv2DTranspose", _transpose_prim, stride=self.stride,
                                          padding=pads if pad_mode == "pad" else 0, groups=group,
                                          dilation=self.dilation, pad_mode=pad_mode)
        self.bias_add = Primitive("BiasAdd", ops.bias_add)

    def construct(self, x: Tensor) -> Tensor:
        # 'padding' counts in 'pad' mode only; the op gives MindSpore's output window for 'same' / 'valid'
        padding = self._pads if self.pad_mode == "pad" else 0
        out = ops.conv_transpose2d(x, self.weight, self.bias, self.stride, padding, 0, self.group,
                                   self.dilation, pad_mode=self.pad_mode)
        op = self.output_padding
        op_h, op_w = (op, op) if isinstance(op, int) else op
        if op_h or op_w:
            (sh, sw), (dh, dw) = self.stride, self.dilation
            if op_h >= max(dh, sh) or op_w >= max(dw, sw) or min(op_h, op_w) < 0:
                raise ValueError("output_padding must be in range of [0, max(stride, dilation)).")
            if self.pad_mode != "pad":
                raise ValueError("when output_padding is not zero, pad_mode must be 'pad'")
            # zeros after the bias, as MindSpore (the op's output_padding would carry the bias)
            out = ops.pad(out, (0, op_w, 0, op_h))
        return out


def _triple(value: Any, name: str, owner: str, minimum: int = 1) -> tuple[int, int, int]:
    if isinstance(value, int) and not isinstance(value, bool):
        out = (value,) * 3
    elif isinstance(value, tuple) and len(value) == 3 and all(isinstance(v, int) for v in value):
        out = tuple(value)
    else:
        raise TypeError(f"For '{owner}', the '{name}' must be an int or a tuple of three ints, "
                        f"but got {value!r}.")
    if min(out) < minimum:
        raise ValueError(f"For '{owner}', every '{name}' value must be >= {minimum}, but got {value!r}.")
    return out[0], out[1], out[2]


def _padding6(padding: Any, owner: str) -> tuple[int, ...]:
    """(head, tail, top, bottom, left, right)."""
    if isinstance(padding, int) and not isinstance(padding, bool):
        pads: tuple[int, ...] = (padding,) * 6
    elif isinstance(padding, tuple) and len(padding) == 6:
        pads = tuple(int(p) for p in padding)
    else:
        raise TypeError(f"For '{owner}', the 'padding' must be an int or a tuple of six ints (head, tail, "
                        f"top, bottom, left, right), but got {padding!r}.")
    if min(pads) < 0:
        raise ValueError(f"For '{owner}', the 'padding' must be non-negative, but got {padding!r}.")
    return pads


def _conv3d_prim(x: Tensor, weight: Tensor, **attrs: Any) -> Tensor:
    """Conv3D's call: (x, weight) of one group, the bias added by the layer."""
    return ops.conv3d(x, weight, None, **attrs)


class Conv3d(_Conv):
    """3D convolution over an (N, C_in, D, H, W) input.

    Args:
        in_channels, out_channels (int): channel counts.
        kernel_size (Union[int, tuple[int]]): int or (kd, kh, kw).
        stride (Union[int, tuple[int]]): Default: 1.
        pad_mode (str): 'same' (output ceil(in / stride)), 'valid' or 'pad'. Default: 'same'.
        padding (Union[int, tuple[int]]): int or (head, tail, top, bottom, left, right), with 'pad'.
            Default: 0.
        dilation (Union[int, tuple[int]]): Default: 1.
        group (int): Default: 1.
        has_bias (bool): Default: False.
        weight_init, bias_init: initializers of the (out, in / group, kd, kh, kw) weight and the bias.
            Default: HeUniform(sqrt(5)) and U(-1/sqrt(fan_in), 1/sqrt(fan_in)).
        data_format (str): 'NCDHW' only. dtype: parameter dtype.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> net = nn.Conv3d(2, 4, kernel_size=3, pad_mode='same')
        >>> x = Tensor(np.ones((1, 2, 4, 6, 6)), ms.float32)
        >>> net(x).shape
        (1, 4, 4, 6, 6)
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 pad_mode: str = "same", padding: Any = 0, dilation: Any = 1, group: int = 1,
                 has_bias: bool = False, weight_init: Any = None, bias_init: Any = None,
                 data_format: str = "NCDHW", dtype: Any = dtypes.float32) -> None:
        owner = type(self).__name__
        pads = _padding6(padding, owner)
        _check_padding_mode(pads, pad_mode, owner)
        if data_format != "NCDHW":
            raise ValueError(f"For '{owner}', the 'data_format' must be 'NCDHW', but got {data_format!r}.")
        super().__init__(in_channels, out_channels, _triple(kernel_size, "kernel_size", owner),
                         _triple(stride, "stride", owner), pad_mode, padding,
                         _triple(dilation, "dilation", owner), group, has_bias, weight_init, bias_init,
                         data_format, dtype=dtype)
        self._pads = pads
        self.conv3d = Primitive("Conv3D", _conv3d_prim, stride=self.stride, pad_mode=pad_mode,
                                padding=pads if pad_mode == "pad" else 0, dilation=self.dilation)
        self.bias_add = Primitive("BiasAdd", ops.bias_add)

    def construct(self, x: Tensor) -> Tensor:
        padding = self._pads if self.pad_mode == "pad" else 0
        return ops.conv3d(x, self.weight, self.bias, self.stride, self.pad_mode, padding, self.dilation,
                          self.group)


class Conv3dTranspose(_Conv):
    """3D transposed convolution over an (N, C_in, D, H, W) input; the weight is (in_channels,
    out_channels / group, kd, kh, kw).

    Args:
        in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation, group, has_bias,
        weight_init, bias_init, data_format, dtype: as Conv3d.
        output_padding (Union[int, tuple[int]]): extra size at the back / bottom / right of the output, with
            pad_mode 'pad'. Default: 0.

    Shape:
        'same': D_out = D * sd; 'valid': D * sd + max(k_eff - sd, 0);
        'pad': (D - 1) * sd - head - tail + k_eff + output_padding, with k_eff = dd * (kd - 1) + 1.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> net = nn.Conv3dTranspose(4, 2, kernel_size=2, stride=2)
        >>> x = Tensor(np.ones((1, 4, 2, 3, 3)), ms.float32)
        >>> net(x).shape
        (1, 2, 4, 6, 6)
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 pad_mode: str = "same", padding: Any = 0, dilation: Any = 1, group: int = 1,
                 output_padding: Any = 0, has_bias: bool = False, weight_init: Any = None,
                 bias_init: Any = None, data_format: str = "NCDHW", dtype: Any = dtypes.float32) -> None:
        owner = type(self).__name__
        pads = _padding6(padding, owner)
        _check_padding_mode(pads, pad_mode, owner)
        if data_format != "NCDHW":
            raise ValueError(f"For '{owner}', the 'data_format' must be 'NCDHW', but got {data_format!r}.")
        self.output_padding = _triple(output_padding, "output_padding", owner, minimum=0)
        super().__init__(in_channels, out_channels, _triple(kernel_size, "kernel_size", owner),
                         _triple(stride, "stride", owner), pad_mode, padding,
                         _triple(dilation, "dilation", owner), group, has_bias, weight_init, bias_init,
                         data_format, transposed=True, dtype=dtype)
        self._pads = pads
        self.conv3d_transpose = Primitive("Conv3DTranspose", ops.conv3d_transpose, pad_mode=pad_mode,
                                          padding=pads if pad_mode == "pad" else 0, stride=self.stride,
                                          dilation=self.dilation, group=group,
                                          output_padding=self.output_padding)
        self.bias_add = Primitive("BiasAdd", ops.bias_add)

    def construct(self, x: Tensor) -> Tensor:
        out = self.conv3d_transpose(x, self.weight)
        if self.has_bias:
            out = ops.bias_add(out, ops.cast(self.bias, out.dtype))
        return out


class Conv1dTranspose(_Conv):
    """1D transposed convolution over an (N, C_in, L) input. As in MindSpore, the weight is stored as a 2D
    kernel (in_channels, out_channels / group, 1, kernel_size) and the layer runs a 2D transposed convolution
    on (N, C_in, 1, L).

    Args:
        in_channels, out_channels, kernel_size, stride (ints), pad_mode ('same', 'valid', 'pad'),
        padding (int, both ends), dilation, group, has_bias, weight_init, bias_init, dtype: as Conv1d.

    Shape:
        'same': L_out = L * stride; 'valid': L * stride + max(k_eff - stride, 0);
        'pad': L * stride - 2 * padding + k_eff - stride.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> net = nn.Conv1dTranspose(4, 2, kernel_size=2, stride=2)
        >>> x = Tensor(np.ones((1, 4, 5)), ms.float32)
        >>> net(x).shape
        (1, 2, 10)
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int = 1,
                 pad_mode: str = "same", padding: int = 0, dilation: int = 1, group: int = 1,
                 has_bias: bool = False, weight_init: Any = None, bias_init: Any = None,
                 dtype: Any = dtypes.float32) -> None:
        owner = type(self).__name__
        for name, v, low in (("kernel_size", kernel_size, 1), ("stride", stride, 1), ("padding", padding, 0),
                             ("dilation", dilation, 1)):
            if isinstance(v, bool) or not isinstance(v, int):
                raise TypeError(f"For '{owner}', the '{name}' must be int, but got {type(v).__name__}.")
            if v < low:
                raise ValueError(f"For '{owner}', the '{name}' must be >= {low}, but got {v}.")
        _check_padding_mode((padding,), pad_mode, owner)
        if isinstance(weight_init, Tensor) and weight_init.ndim == 3:
            weight_init = ops.expand_dims(weight_init, 2)
        super().__init__(in_channels, out_channels, (1, kernel_size), (1, stride), pad_mode, padding,
                         (1, dilation), group, has_bias, weight_init, bias_init, transposed=True, dtype=dtype)
        self.padding = (0, 0, padding, padding)
        self.is_valid, self.is_same, self.is_pad = pad_mode == "valid", pad_mode == "same", pad_mode == "pad"
        self.conv2d_transpose = Primitive("Conv2DBackpropInput", _transpose_prim, stride=self.stride,
                                          padding=self.padding if pad_mode == "pad" else 0, groups=group,
                                          dilation=self.dilation, pad_mode=pad_mode)
        self.bias_add = Primitive("BiasAdd", ops.bias_add)
        self.expand_dims = Primitive("ExpandDims", ops.expand_dims)
        self.squeeze = Primitive("Squeeze", ops.squeeze, axis=2)

    def construct(self, x: Tensor) -> Tensor:
        if x.ndim != 3:
            raise ValueError(f"For '{self.cls_name}', the dimension of input must be 3d, but got {x.ndim}.")
        padding = self.padding if self.pad_mode == "pad" else 0
        out = ops.conv_transpose2d(ops.expand_dims(x, 2), self.weight, self.bias, self.stride, padding, 0,
                                   self.group, self.dilation, pad_mode=self.pad_mode)
        return ops.squeeze(out, 2)
