"""More pooling layers (MindSpore's nn.layer.pooling): MaxPool1d/3d, AvgPool1d/3d, the *Ext variants, adaptive
pooling in 1-D, 2-D (max) and 3-D, LPPool1d/2d, FractionalMaxPool2d/3d and MaxUnpool1d/2d/3d."""
from __future__ import annotations

from typing import Any

from cellonnx import dtypes, ops
from cellonnx.nn.cell import Cell
from cellonnx.nn.layer._primitive import Primitive
from cellonnx.nn.layer.pooling import _PoolNd
from cellonnx.ops.prims._util import is_float_dtype
from cellonnx.tensor import Tensor

__all__ = ["AdaptiveAvgPool1d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d",
           "AdaptiveMaxPool3d",
           "AvgPool1d", "AvgPool1dExt", "AvgPool2dExt", "AvgPool3d", "AvgPool3dExt", "FractionalMaxPool2d",
           "FractionalMaxPool3d", "LPPool1d", "LPPool2d", "MaxPool1d", "MaxPool2dExt", "MaxPool3d",
           "MaxUnpool1d",
           "MaxUnpool2d", "MaxUnpool3d"]


def _unbatched(x: Tensor, rank: int) -> tuple[Tensor, bool]:
    """An input one dim short of ``rank`` gets a batch dim (removed again by ``_rebatch``)."""
    return (ops.expand_dims(x, 0), True) if x.ndim == rank - 1 else (x, False)


def _rebatch(out: Any, added: bool) -> Any:
    if not added:
        return out
    return tuple(o.squeeze(0) for o in out) if isinstance(out, tuple) else out.squeeze(0)


def _check_int(owner: str, **values: Any) -> None:
    for name, v in values.items():
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError(f"For '{owner}', the '{name}' must be int, but got {type(v).__name__}.")
        if v < 1:
            raise ValueError(f"For '{owner}', the '{name}' must be >= 1, but got {v}.")


def _padding(padding: Any, nd: int, owner: str) -> Any:
    if isinstance(padding, int) and not isinstance(padding, bool):
        if padding < 0:
            raise ValueError(f"For '{owner}', the 'padding' must be non-negative, but got {padding}.")
        return padding
    if isinstance(padding, (tuple, list)) and all(isinstance(p, int) and p >= 0 for p in padding):
        if len(padding) == 1:
            return padding[0]
        if len(padding) in (nd, 2 * nd):
            return tuple(padding)
    raise ValueError(f"For {owner}, the padding must be a non-negative int or a tuple of 1 or {nd} ints, "
                     f"but got {padding!r}.")


class MaxPool1d(_PoolNd):
    """1D max pooling over (N, C, L) or (C, L).

    Args:
        kernel_size (int): Default: 1. stride (int): Default: 1.
        pad_mode (str): 'valid', 'same' (output ceil(L / stride)) or 'pad'. Default: 'valid'.
        padding, dilation, return_indices, ceil_mode: with pad_mode 'pad' only (as MindSpore).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([[[1.0, 5.0, 2.0, 8.0, 3.0, 4.0]]]), ms.float32)
        >>> print(nn.MaxPool1d(kernel_size=2, stride=2)(x))
        [[[5. 8. 4.]]]
    """

    def __init__(self, kernel_size: int = 1, stride: int = 1, pad_mode: str = "valid", padding: Any = 0,
                 dilation: Any = 1, return_indices: bool = False, ceil_mode: bool = False) -> None:
        super().__init__(kernel_size, stride, pad_mode)
        _check_int(self.cls_name, kernel_size=kernel_size, stride=stride)
        self.kernel_size, self.stride = (1, kernel_size), (1, stride)
        self.return_indices = return_indices
        self.use_pad = self.pad_mode == "PAD"
        if not self.use_pad and (padding != 0 or dilation != 1 or return_indices or ceil_mode):
            raise ValueError("For MaxPool1d, the parameter 'padding', 'dilation', 'return_indices', "
                             "'ceil_mode' can not be set to non-default value when pad_mode is not 'pad', "
                             f"but got pad_mode:{pad_mode}.")
        self.padding = _padding(padding, 1, self.cls_name)
        self.dilation = dilation[0] if isinstance(dilation, tuple) and len(dilation) == 1 else dilation
        self.ceil_mode = ceil_mode
        self.max_pool = Primitive("MaxPool", ops.max_pool1d, kernel_size=kernel_size, stride=stride,
                                  pad_mode=self.pad_mode.lower())

    def construct(self, x: Tensor) -> Any:
        x, added = _unbatched(x, 3)
        if x.ndim != 3:
            raise ValueError(f"For '{self.cls_name}', the input must has 3 dim, but got {x.ndim}")
        k, s = self.kernel_size[1], self.stride[1]
        if self.use_pad:
            out = ops.max_pool1d(x, k, s, self.padding, self.dilation, self.return_indices, self.ceil_mode)
        else:
            out = ops.max_pool1d(x, k, s, pad_mode=self.pad_mode.lower())
        return _rebatch(out, added)


class MaxPool3d(_PoolNd):
    """3D max pooling over (N, C, D, H, W) or (C, D, H, W).

    Args:
        kernel_size, stride (Union[int, tuple[int]]): Default: 1, 1.
        pad_mode (str): 'valid', 'same' or 'pad'. Default: 'valid'.
        padding (Union[int, tuple[int]]): with 'pad': int or (d, h, w). Default: 0.
        dilation (Union[int, tuple[int]]), return_indices (bool): need pad_mode 'pad'. Default: 1, False.
        ceil_mode (bool): Default: False.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.arange(16).reshape(1, 1, 2, 2, 4), ms.float32)
        >>> print(nn.MaxPool3d(kernel_size=2, stride=2)(x))
        [[[[[13. 15.]]]]]
    """

    def __init__(self, kernel_size: Any = 1, stride: Any = 1, pad_mode: str = "valid", padding: Any = 0,
                 dilation: Any = 1, return_indices: bool = False, ceil_mode: bool = False) -> None:
        super().__init__(kernel_size, stride, pad_mode)
        self.return_indices = return_indices
        self.padding = _padding(padding, 3, self.cls_name)
        self.dilation = dilation
        self.ceil_mode = ceil_mode
        self.only_pad = dilation != 1 or return_indices
        if self.only_pad and self.pad_mode != "PAD":
            raise ValueError(f"For {self.cls_name}, the pad_mode must be 'pad' when dilation is not 1 or "
                             f"return_indices is True, but got pad_mode:{pad_mode}.")
        self.max_pool = Primitive("MaxPool3D", ops.max_pool3d, kernel_size=kernel_size, stride=stride,
                                  pad_mode=self.pad_mode.lower())

    def construct(self, x: Tensor) -> Any:
        x, added = _unbatched(x, 5)
        if self.pad_mode == "PAD":
            out = ops.max_pool3d(x, self.kernel_size, self.stride, self.padding, self.dilation,
                                 self.ceil_mode,
                                 self.return_indices)
        else:
            out = ops.max_pool3d(x, self.kernel_size, self.stride, pad_mode=self.pad_mode.lower())
        return _rebatch(out, added)


class MaxPool2dExt(Cell):
    """2D max pooling with PyTorch's arguments (stride defaults to kernel_size), over (N, C, H, W) or
    (C, H, W).

    Args:
        kernel_size (Union[int, tuple[int]]): Default: 1. stride: Default: None (kernel_size).
        padding, dilation (Union[int, tuple[int]]): Default: 0, 1.
        return_indices (bool): Default: False. ceil_mode (bool): Default: False.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.arange(16).reshape(1, 1, 4, 4), ms.float32)
        >>> print(nn.MaxPool2dExt(kernel_size=2, stride=2)(x))
        [[[[ 5.  7.]
           [13. 15.]]]]
    """

    def __init__(self, kernel_size: Any = 1, stride: Any = None, padding: Any = 0, dilation: Any = 1,
                 return_indices: bool = False, ceil_mode: bool = False) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.dilation = dilation
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode

    def construct(self, input: Tensor) -> Any:
        x, added = _unbatched(input, 4)
        out = ops.max_pool2d(x, self.kernel_size, self.stride, self.padding, self.dilation,
                             self.return_indices,
                             self.ceil_mode)
        return _rebatch(out, added)


class AvgPool1d(_PoolNd):
    """1D average pooling over (N, C, L) or (C, L).

    Args:
        kernel_size (int): Default: 1. stride (int): Default: 1.
        pad_mode (str): 'valid', 'same' (averages over the real elements of each window) or 'pad'.
            Default: 'valid'.
        padding (int): with 'pad'. ceil_mode (bool), count_include_pad (bool): as ops.avg_pool1d.

    Note:
        As MindSpore, outside 'pad' mode an input no longer than kernel_size + stride - 1 gives one output:
        the mean of its first kernel_size elements.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([[[1.0, 5.0, 2.0, 8.0, 3.0, 4.0]]]), ms.float32)
        >>> print(nn.AvgPool1d(kernel_size=2, stride=2)(x))
        [[[3.  5.  3.5]]]
    """

    def __init__(self, kernel_size: int = 1, stride: int = 1, pad_mode: str = "valid", padding: Any = 0,
                 ceil_mode: bool = False, count_include_pad: bool = True) -> None:
        super().__init__(kernel_size, stride, pad_mode)
        _check_int(self.cls_name, kernel_size=self.kernel_size, stride=self.stride)
        self.is_expand_3d = self.pad_mode == "PAD" or padding != 0 or ceil_mode or not count_include_pad
        self.padding = _padding(padding, 1, self.cls_name)
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        if not self.is_expand_3d:
            self.kernel_size, self.stride = (1, self.kernel_size), (1, self.stride)

    def construct(self, x: Tensor) -> Tensor:
        x, added = _unbatched(x, 3)
        if x.ndim != 3:
            raise ValueError(f"For '{self.cls_name}', the input must has 3 dim, but got {x.ndim}")
        if self.is_expand_3d:
            out = ops.avg_pool1d(x, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                                 self.count_include_pad)
        else:
            k, s = self.kernel_size[1], self.stride[1]
            width = x.shape[2]
            if width == k:
                out = ops.mean(x, 2, keep_dims=True)
            elif width - k < s:
                out = ops.mean(x[:, :, :k], 2, keep_dims=True)
            else:
                out = ops.avg_pool1d(x, k, s, pad_mode=self.pad_mode.lower())
        return _rebatch(out, added)


class AvgPool3d(_PoolNd):
    """3D average pooling over (N, C, D, H, W) or (C, D, H, W).

    Args:
        kernel_size, stride (Union[int, tuple[int]]): Default: 1, 1.
        pad_mode (str): 'valid', 'same' (averages over the real voxels of each window) or 'pad'.
            Default: 'valid'.
        padding (Union[int, tuple[int]]): int, (d, h, w) or (head, tail, top, bottom, left, right).
        ceil_mode (bool), count_include_pad (bool), divisor_override (int): as ops.avg_pool3d.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.arange(16).reshape(1, 1, 2, 2, 4), ms.float32)
        >>> print(nn.AvgPool3d(kernel_size=2, stride=2)(x))
        [[[[[6.5 8.5]]]]]
    """

    def __init__(self, kernel_size: Any = 1, stride: Any = 1, pad_mode: str = "valid", padding: Any = 0,
                 ceil_mode: bool = False, count_include_pad: bool = True, divisor_override: int | None = None
                 ) -> None:
        super().__init__(kernel_size, stride, pad_mode)
        if divisor_override is not None and divisor_override <= 0:
            raise ValueError(f"For '{self.cls_name}', the 'divisor_override' must be > 0, but got "
                             f"{divisor_override}.")
        self.padding = _padding(padding, 3, self.cls_name)
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = 0 if divisor_override is None else divisor_override
        self.avg_pool = Primitive("AvgPool3D", ops.avg_pool3d, kernel_size=kernel_size, stride=stride,
                                  padding=self.padding, ceil_mode=ceil_mode,
                                  count_include_pad=count_include_pad,
                                  divisor_override=self.divisor_override, pad_mode=self.pad_mode.lower())

    def construct(self, x: Tensor) -> Tensor:
        x, added = _unbatched(x, 5)
        return _rebatch(self.avg_pool(x), added)


class AvgPool1dExt(Cell):
    """1D average pooling with PyTorch's arguments (stride defaults to kernel_size).

    Args:
        kernel_size (Union[int, tuple[int]]). stride: Default: None. padding: Default: 0.
        ceil_mode (bool): Default: False. count_include_pad (bool): Default: True.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, nn
        >>> pool = nn.AvgPool1dExt(kernel_size=2, stride=2)
        >>> x = Tensor(np.array([[[1.0, 2.0, 3.0, 4.0]]]), ms.float32)
        >>> print(pool(x))
        [[[1.5 3.5]]]
    """

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
                 count_include_pad: bool = True) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad

    def construct(self, input: Tensor) -> Tensor:
        x, added = _unbatched(input, 3)
        stride = self.kernel_size if self.stride is None else self.stride
        out = ops.avg_pool1d(x, self.kernel_size, stride, self.padding, self.ceil_mode,
                             self.count_include_pad)
        return _rebatch(out, added)


class _AvgPoolExt(Cell):
    """2D / 3D average pooling with PyTorch's arguments (stride defaults to kernel_size); ``_rank`` is the
    batched input's rank."""

    _rank = 4

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
                 count_include_pad: bool = True, divisor_override: int | None = None) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def construct(self, input: Tensor) -> Tensor:
        x, added = _unbatched(input, self._rank)
        stride = self.kernel_size if self.stride is None else self.stride
        if self._rank == 4:
            out = ops.avg_pool2d(x, self.kernel_size, stride, self.padding, self.ceil_mode,
                                 self.count_include_pad, self.divisor_override)
        else:
            out = ops.avg_pool3d(x, self.kernel_size, stride, self.padding, self.ceil_mode,
                                 self.count_include_pad, self.divisor_override or 0)
        return _rebatch(out, added)


class AvgPool2dExt(_AvgPoolExt):
    """2D average pooling with PyTorch's arguments (stride defaults to kernel_size).

    Args:
        kernel_size (Union[int, tuple[int]]). stride: Default: None. padding: Default: 0.
        ceil_mode (bool), count_include_pad (bool), divisor_override (int, optional): as ops.avg_pool2d.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.arange(16).reshape(1, 1, 4, 4), ms.float32)
        >>> print(nn.AvgPool2dExt(kernel_size=2, stride=2)(x))
        [[[[ 2.5  4.5]
           [10.5 12.5]]]]
    """

    _rank = 4


class AvgPool3dExt(_AvgPoolExt):
    """3D average pooling with PyTorch's arguments (stride defaults to kernel_size).

    Args:
        kernel_size (Union[int, tuple[int]]). stride: Default: None. padding: Default: 0.
        ceil_mode (bool), count_include_pad (bool), divisor_override (int, optional): as ops.avg_pool3d.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, nn
        >>> pool = nn.AvgPool3dExt(kernel_size=2, stride=2)
        >>> x = Tensor(np.arange(8).reshape(1, 1, 2, 2, 2), ms.float32)
        >>> print(pool(x))
        [[[[[3.5]]]]]
    """

    _rank = 5


def _adaptive_1d_check(x: Tensor, output_size: int, owner: str) -> None:
    if x.ndim != 3:
        raise ValueError(f"For {owner}, the input must has 3 dim, but got {x.ndim}.")
    width = int(x.shape[2])
    if width < output_size:
        raise ValueError(f"For {owner}, the input's last dimension must be greater or equal to output size "
                         f"{output_size}, but got {width}.")
    if width % output_size:
        raise ValueError(f"For {owner}, the input's last dimension must be divisible by output size "
                         f"{output_size}, but got {width}.")
    if not is_float_dtype(x._data.dtype):
        raise TypeError(f"For {owner}, the x_dtype must be a float type, but got {x.dtype}.")


class AdaptiveAvgPool1d(Cell):
    """Average pooling of (N, C, L) to L_out = output_size (L must be a multiple of it, as MindSpore
    requires).

    Args:
        output_size (int): L_out.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]]]), ms.float32)
        >>> print(nn.AdaptiveAvgPool1d(3)(x))
        [[[1.5 3.5 5.5]]]
    """

    def __init__(self, output_size: int) -> None:
        super().__init__()
        _check_int(self.cls_name, output_size=output_size)
        self.output_size = output_size

    def construct(self, input: Tensor) -> Tensor:
        _adaptive_1d_check(input, self.output_size, self.cls_name)
        return ops.adaptive_avg_pool1d(input, self.output_size)


class AdaptiveMaxPool1d(Cell):
    """Max pooling of (N, C, L) to L_out = output_size (L must be a multiple of it, as MindSpore requires).

    Args:
        output_size (int): L_out.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([[[1.0, 5.0, 3.0, 4.0, 2.0, 6.0]]]), ms.float32)
        >>> print(nn.AdaptiveMaxPool1d(2)(x))
        [[[5. 6.]]]
    """

    def __init__(self, output_size: int) -> None:
        super().__init__()
        _check_int(self.cls_name, output_size=output_size)
        self.output_size = output_size

    def construct(self, x: Tensor) -> Tensor:
        _adaptive_1d_check(x, self.output_size, self.cls_name)
        return ops.adaptive_max_pool1d(x, self.output_size)


class AdaptiveMaxPool2d(Cell):
    """Max pooling to a fixed output size.

    Args:
        output_size (Union[int, tuple]): int or (H_out, W_out); None keeps that input dim.
        return_indices (bool): also return the argmax (int64 flat plane indices). Default: False.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.arange(16).reshape(1, 1, 4, 4), ms.float32)
        >>> print(nn.AdaptiveMaxPool2d((2, 2))(x))
        [[[[ 5.  7.]
           [13. 15.]]]]
    """

    def __init__(self, output_size: Any, return_indices: bool = False) -> None:
        super().__init__()
        self.output_size = output_size
        self.return_indices = return_indices

    def construct(self, input: Tensor) -> Any:
        return ops.adaptive_max_pool2d(input, self.output_size, self.return_indices)


class AdaptiveAvgPool3d(Cell):
    """Average pooling of (N, C, D, H, W) or (C, D, H, W) to a fixed output size.

    Args:
        output_size (Union[int, tuple]): int or (D_out, H_out, W_out); None keeps that input dim.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.arange(16).reshape(1, 1, 2, 2, 4), ms.float32)
        >>> print(nn.AdaptiveAvgPool3d((1, 1, 2))(x))
        [[[[[6.5 8.5]]]]]
    """

    def __init__(self, output_size: Any) -> None:
        super().__init__()
        self.output_size = output_size
        self.adaptive_avg_pool3d = Primitive("AdaptiveAvgPool3D", ops.adaptive_avg_pool3d,
                                             output_size=output_size)

    def construct(self, input: Tensor) -> Tensor:
        return self.adaptive_avg_pool3d(input)


class AdaptiveMaxPool3d(Cell):
    """Max pooling of (N, C, D, H, W) or (C, D, H, W) to a fixed output size.

    Args:
        output_size (Union[int, tuple]): int or (D_out, H_out, W_out).
        return_indices (bool): also return the argmax (int32 flat volume indices). Default: False.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.arange(16).reshape(1, 1, 2, 2, 4), ms.float32)
        >>> print(nn.AdaptiveMaxPool3d((1, 1, 2))(x))
        [[[[[13. 15.]]]]]
    """

    def __init__(self, output_size: Any, return_indices: bool = False) -> None:
        super().__init__()
        if isinstance(output_size, int):
            output_size = (output_size,) * 3
        self.output_size = Tensor(output_size, dtype=dtypes.int32)
        self._size = tuple(output_size)
        self.return_indices = return_indices

    def construct(self, input: Tensor) -> Any:
        return ops.adaptive_max_pool3d(input, self._size, self.return_indices)


class LPPool1d(Cell):
    """Power-average pooling over (N, C, L) or (C, L): (mean(x^p) * k)^(1/p) per window.

    Args:
        norm_type (Union[int, float]): p. kernel_size (int). stride (int, optional): Default: kernel_size.
        ceil_mode (bool): Default: False.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([[[3.0, 4.0, 6.0, 8.0]]]), ms.float32)
        >>> print(nn.LPPool1d(norm_type=2, kernel_size=2, stride=2)(x))
        [[[ 5. 10.]]]
    """

    def __init__(self, norm_type: float, kernel_size: int, stride: int | None = None,
                 ceil_mode: bool = False) -> None:
        super().__init__()
        self.norm_type = norm_type
        self.kernel_size = kernel_size
        self.stride = stride
        self.ceil_mode = ceil_mode

    def construct(self, x: Tensor) -> Tensor:
        return ops.lp_pool1d(x, self.norm_type, self.kernel_size, self.stride, self.ceil_mode)


class LPPool2d(Cell):
    """Power-average pooling over (N, C, H, W): (mean(x^p) * kH * kW)^(1/p) per window.

    Args:
        norm_type (Union[int, float]): p. kernel_size (Union[int, tuple[int]]).
        stride (Union[int, tuple[int]], optional): Default: kernel_size. ceil_mode (bool): Default: False.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([[[[3.0, 4.0], [0.0, 0.0]]]]), ms.float32)
        >>> print(nn.LPPool2d(norm_type=2, kernel_size=2)(x))
        [[[[5.]]]]
    """

    def __init__(self, norm_type: float, kernel_size: Any, stride: Any = None,
                 ceil_mode: bool = False) -> None:
        super().__init__()
        self.norm_type = norm_type
        self.kernel_size = kernel_size
        self.stride = stride
        self.ceil_mode = ceil_mode

    def construct(self, x: Tensor) -> Tensor:
        return ops.lp_pool2d(x, self.norm_type, self.kernel_size, self.stride, self.ceil_mode)


class FractionalMaxPool2d(Cell):
    """Fractional max pooling over (N, C, H, W) or (C, H, W) (see ``ops.fractional_max_pool2d``).

    Args:
        kernel_size (Union[int, tuple[int]]). output_size (Union[int, tuple[int]], optional).
        output_ratio (Union[float, tuple[float]], optional). return_indices (bool): Default: False.
        _random_samples (Tensor, optional): (N, C, 2) samples placing the windows; drawn per call when None.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, nn
        >>> x = Tensor(np.arange(16).reshape(1, 1, 4, 4), ms.float32)
        >>> samples = Tensor(np.array([[[0.5, 0.5]]]), ms.float32)
        >>> pool = nn.FractionalMaxPool2d(2, output_size=(2, 2), _random_samples=samples)
        >>> print(pool(x))
        [[[[ 5.  7.]
           [13. 15.]]]]
    """

    def __init__(self, kernel_size: Any, output_size: Any = None, output_ratio: Any = None,
                 return_indices: bool = False, _random_samples: Tensor | None = None) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.output_size = output_size
        self.output_ratio = output_ratio
        self.return_indices = return_indices
        self._random_samples = _random_samples

    def construct(self, input: Tensor) -> Any:
        return ops.fractional_max_pool2d(input, self.kernel_size, self.output_size, self.output_ratio,
                                         self.return_indices, self._random_samples)


class FractionalMaxPool3d(Cell):
    """Fractional max pooling over (N, C, D, H, W) or (C, D, H, W) (see ``ops.fractional_max_pool3d``);
    arguments as FractionalMaxPool2d with (N, C, 3) samples.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, nn
        >>> x = Tensor(np.arange(32).reshape(1, 1, 2, 4, 4), ms.float32)
        >>> samples = Tensor(np.array([[[0.5, 0.5, 0.5]]]), ms.float32)
        >>> pool = nn.FractionalMaxPool3d((1, 2, 2), output_size=(1, 2, 2), _random_samples=samples)
        >>> print(pool(x))
        [[[[[21. 23.]
            [29. 31.]]]]]
    """

    def __init__(self, kernel_size: Any, output_size: Any = None, output_ratio: Any = None,
                 return_indices: bool = False, _random_samples: Tensor | None = None) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.output_size = output_size
        self.output_ratio = output_ratio
        self.return_indices = return_indices
        self._random_samples = _random_samples

    def construct(self, input: Tensor) -> Any:
        return ops.fractional_max_pool3d(input, self.kernel_size, self.output_size, self.output_ratio,
                                         self.return_indices, self._random_samples)


class _MaxUnpoolNd(Cell):
    _nd = 1

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = kernel_size if stride is None else stride
        self.padding = padding

    def construct(self, x: Tensor, indices: Tensor, output_size: Any = None) -> Tensor:
        name = self.cls_name
        if output_size is not None:
            if not isinstance(output_size, tuple):
                raise ValueError(f"For {name}, output_size must be tuple, but type {type(output_size)}.")
            if not output_size:
                raise ValueError(f"For {name}, the length of output_size must be positive, but got 0.")
        unpool = (ops.max_unpool1d, ops.max_unpool2d, ops.max_unpool3d)[self._nd - 1]
        return unpool(x, indices, self.kernel_size, stride=self.stride, padding=self.padding,
                      output_size=output_size or None)


class MaxUnpool1d(_MaxUnpoolNd):
    """The partial inverse of MaxPool1d: values put back at their argmax, zeros elsewhere.

    Args:
        kernel_size (Union[int, tuple[int]]). stride: Default: None (kernel_size). padding: Default: 0.

    Inputs:
        x (N, C, L) or (C, L); indices of x's shape; output_size (tuple, optional).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, nn
        >>> unpool = nn.MaxUnpool1d(kernel_size=2)
        >>> x = Tensor(np.array([[[2.0, 4.0]]]), ms.float32)
        >>> indices = Tensor(np.array([[[1, 3]]]), ms.int64)
        >>> print(unpool(x, indices))
        [[[0. 2. 0. 4.]]]
    """

    _nd = 1


class MaxUnpool2d(_MaxUnpoolNd):
    """The partial inverse of MaxPool2d; arguments as MaxUnpool1d, over (N, C, H, W) or (C, H, W).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, ops, Tensor
        >>> x = Tensor(np.array([[[[1.0, 2.0], [3.0, 4.0]]]]), ms.float32)
        >>> pooled, indices = ops.max_pool2d(x, kernel_size=2, stride=2, return_indices=True)
        >>> print(nn.MaxUnpool2d(kernel_size=2, stride=2)(pooled, indices))
        [[[[0. 0.]
           [0. 4.]]]]
    """

    _nd = 2


class MaxUnpool3d(_MaxUnpoolNd):
    """The partial inverse of MaxPool3d; arguments as MaxUnpool1d, over (N, C, D, H, W) or (C, D, H, W).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, nn
        >>> unpool = nn.MaxUnpool3d(kernel_size=2)
        >>> x = Tensor(np.array([[[[[5.0]]]]]), ms.float32)
        >>> indices = Tensor(np.array([[[[[7]]]]]), ms.int64)
        >>> print(unpool(x, indices).reshape(-1))
        [0. 0. 0. 0. 0. 0. 0. 5.]
    """

    _nd = 3
