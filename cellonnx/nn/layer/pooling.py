"""Pooling layers: MaxPool2d, AvgPool2d (MindSpore's pad modes) and AdaptiveAvgPool2d."""
from __future__ import annotations

from typing import Any

from cellonnx import ops
from cellonnx.graph.symint import SymInt
from cellonnx.nn.cell import Cell
from cellonnx.nn.layer._primitive import Primitive
from cellonnx.tensor import Tensor

__all__ = ["AdaptiveAvgPool2d", "AvgPool2d", "MaxPool2d"]


def _int_or_pair(value: Any, name: str, owner: str) -> Any:
    if isinstance(value, int) and not isinstance(value, bool):
        if value <= 0:
            raise ValueError(f"For '{owner}', the '{name}' must be an positive int number or a tuple, but got {value}")
        return value
    if isinstance(value, tuple) and all(isinstance(v, int) and v > 0 for v in value):
        return value[0] if len(value) == 1 else value
    raise ValueError(f"For '{owner}', the '{name}' must be an positive int number or a tuple, but got {value}")


def _pair(v: Any) -> tuple[int, int]:
    return (v, v) if isinstance(v, int) else (int(v[0]), int(v[1]))


def _same_pads(h: int, w: int, k: tuple[int, int], s: tuple[int, int]) -> tuple[int, int, int, int]:
    """TF-style 'same' padding (left, right, top, bottom): output ceil(n / s), the odd pixel at the end.
    Written with non-negative integer steps only, so traced (symbolic) dims export exactly."""
    out = []
    for n, kk, ss in ((w, k[1], s[1]), (h, k[0], s[0])):
        total = ((n + ss - 1) // ss - 1) * ss + kk - n
        if kk < ss:  # the total can only be negative when the window is smaller than the stride
            total = max(total, 0)
        out += [total // 2, total - total // 2]
    return out[0], out[1], out[2], out[3]


class _PoolNd(Cell):
    def __init__(self, kernel_size: Any, stride: Any, pad_mode: str, data_format: str = "NCHW") -> None:
        super().__init__()
        owner = self.cls_name
        if not isinstance(pad_mode, str):
            raise TypeError(f"For '{owner}', the 'pad_mode' must be str, but got {type(pad_mode).__name__}.")
        self.pad_mode = pad_mode.upper()
        if self.pad_mode not in ("VALID", "SAME", "PAD"):
            raise ValueError(f"For '{owner}', the 'pad_mode' must be one of ['VALID', 'SAME', 'PAD'], but got "
                             f"{pad_mode!r}.")
        if data_format != "NCHW":
            raise ValueError(f"For '{owner}', only the 'NCHW' format is supported, but got {data_format!r}.")
        self.format = data_format
        self.kernel_size = _int_or_pair(kernel_size, "kernel_size", owner)
        self.stride = _int_or_pair(stride, "stride", owner)

    def extend_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}"


class MaxPool2d(_PoolNd):
    """2D max pooling over (N, C, H, W) or (C, H, W).

    Args:
        kernel_size: int or (kh, kw). Default: 1.
        stride: int or (sh, sw). Default: 1.
        pad_mode: 'valid' (no padding), 'same' (output ceil(H / sh), padded with -inf, extra at the bottom /
            right) or 'pad' (``padding``, ``dilation``, ``return_indices``, ``ceil_mode``). Default: 'valid'.
        padding, dilation, return_indices, ceil_mode: only with pad_mode 'pad'.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.arange(16).reshape(1, 1, 4, 4), ms.float32)
        >>> pool = nn.MaxPool2d(kernel_size=2, stride=2)
        >>> print(pool(x))
        [[[[ 5.  7.]
           [13. 15.]]]]
    """

    def __init__(self, kernel_size: Any = 1, stride: Any = 1, pad_mode: str = "valid", padding: Any = 0,
                 dilation: Any = 1, return_indices: bool = False, ceil_mode: bool = False,
                 data_format: str = "NCHW") -> None:
        super().__init__(kernel_size, stride, pad_mode, data_format)
        if self.pad_mode != "PAD" and (padding != 0 or dilation != 1 or return_indices or ceil_mode):
            raise ValueError("For MaxPool2d, the parameter 'padding', 'dilation', 'return_indices', 'ceil_mode' can "
                             "not be set to non-default value when pad_mode is not 'pad', but got "
                             f"pad_mode:{pad_mode}.")
        self.padding = padding
        self.dilation = dilation
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode
        self.max_pool = Primitive("MaxPool", ops.max_pool2d, kernel_size=self.kernel_size, stride=self.stride,
                                  pad_mode=self.pad_mode.lower())

    def construct(self, x: Tensor) -> Any:
        batched = x.ndim != 3
        if not batched:
            x = ops.expand_dims(x, 0)
        k, s = _pair(self.kernel_size), _pair(self.stride)
        if self.pad_mode == "PAD":
            out = ops.max_pool2d(x, k, s, self.padding, self.dilation, self.return_indices, self.ceil_mode)
        elif self.pad_mode == "SAME" and max(s) > 1 and any(isinstance(n, SymInt) for n in x.shape[2:]):
            # the op's pad_mode='same' needs static spatial dims with a stride; these pads follow the runtime
            # size
            pads = _same_pads(x.shape[2], x.shape[3], k, s)
            out = ops.max_pool2d(ops.pad(x, pads, value=float("-inf")), k, s)
        else:
            out = ops.max_pool2d(x, k, s, pad_mode=self.pad_mode.lower())
        if not batched:
            out = tuple(o.squeeze(0) for o in out) if isinstance(out, tuple) else out.squeeze(0)
        return out


class AvgPool2d(_PoolNd):
    """2D average pooling over (N, C, H, W) or (C, H, W).

    Args:
        kernel_size, stride: as MaxPool2d. Default: 1, 1.
        pad_mode: 'valid', 'same' (the average counts only the input pixels under the window, as MindSpore
            does) or 'pad'. Default: 'valid'.
        padding, ceil_mode, count_include_pad, divisor_override: ops.avg_pool2d's, with pad_mode 'pad' (or any
            non-default value, as MindSpore).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.arange(16).reshape(1, 1, 4, 4), ms.float32)
        >>> pool = nn.AvgPool2d(kernel_size=2, stride=2)
        >>> print(pool(x))
        [[[[ 2.5  4.5]
           [10.5 12.5]]]]
    """

    def __init__(self, kernel_size: Any = 1, stride: Any = 1, pad_mode: str = "valid", padding: Any = 0,
                 ceil_mode: bool = False, count_include_pad: bool = True, divisor_override: int | None = None,
                 data_format: str = "NCHW") -> None:
        super().__init__(kernel_size, stride, pad_mode, data_format)
        if divisor_override is not None and divisor_override <= 0:
            raise ValueError(f"For '{self.cls_name}', the 'divisor_override' must be > 0, but got {divisor_override}.")
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override
        self._explicit = self.pad_mode == "PAD" or padding != 0 or ceil_mode or not count_include_pad or \
            divisor_override is not None
        self.avg_pool = Primitive("AvgPool", ops.avg_pool2d, kernel_size=self.kernel_size, stride=self.stride,
                                  pad_mode=self.pad_mode.lower())

    def construct(self, x: Tensor) -> Tensor:
        batched = x.ndim != 3
        if not batched:
            x = ops.expand_dims(x, 0)
        k, s = _pair(self.kernel_size), _pair(self.stride)
        if self._explicit:
            out = ops.avg_pool2d(x, k, s, self.padding, self.ceil_mode, self.count_include_pad,
                                 self.divisor_override or 0)
        else:  # 'same' averages over the pixels inside the input, as MindSpore
            out = ops.avg_pool2d(x, k, s, pad_mode=self.pad_mode.lower())
        return out if batched else out.squeeze(0)


class AdaptiveAvgPool2d(Cell):
    """Average pooling to a fixed output size.

    Args:
        output_size: int or (H_out, W_out); None in the tuple keeps that input dim.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.arange(16).reshape(1, 1, 4, 4), ms.float32)
        >>> print(nn.AdaptiveAvgPool2d((2, 2))(x))
        [[[[ 2.5  4.5]
           [10.5 12.5]]]]
        >>> nn.AdaptiveAvgPool2d(1)(x).shape
        (1, 1, 1, 1)
    """

    def __init__(self, output_size: Any) -> None:
        super().__init__()
        self.output_size = output_size
        self.adaptive_avgpool2d = Primitive("AdaptiveAvgPool2D", ops.adaptive_avg_pool2d,
                                            output_size=output_size)

    def construct(self, input: Tensor) -> Tensor:
        return ops.adaptive_avg_pool2d(input, self.output_size)
