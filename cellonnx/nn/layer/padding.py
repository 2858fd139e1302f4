"""Padding layers: ConstantPad1d/2d/3d, ZeroPad2d, ReflectionPad1d/2d/3d, ReplicationPad1d/2d/3d, and Pad
(MindSpore's per-axis paddings with modes CONSTANT / REFLECT / SYMMETRIC). ``padding`` follows
``ops.pad``: (left, right) of the last dim first, then (top, bottom) of the one before, and so on."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import ops
from cellonnx.nn.cell import Cell
from cellonnx.nn.layer._primitive import Primitive
from cellonnx.tensor import Tensor

__all__ = ["ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "Pad", "ReflectionPad1d", "ReflectionPad2d",
           "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "ZeroPad2d"]

_MAX_LEN = {"ConstantPad1d": 2, "ConstantPad2d": 4, "ZeroPad2d": 4, "ConstantPad3d": 6}


def _int_padding(padding: Any, dims: int) -> Any:
    return (padding,) * (2 * dims) if isinstance(padding, int) and not isinstance(padding, bool) else padding


def _check_crop(x: Tensor, padding: tuple, name: str) -> None:
    """A negative amount crops: what is left of each padded dim must stay positive."""
    shape = tuple(x.shape)
    if len(padding) // 2 > len(shape):
        raise ValueError(f"For '{name}', the dimension of input must more than or equal to len(padding)/2, "
                         f"but got {len(shape)}")
    for i in range(len(padding) // 2):
        size = int(shape[len(shape) - 1 - i])
        lo, hi = padding[2 * i], padding[2 * i + 1]
        if lo < -size or hi < -size or size + lo + hi <= 0:
            raise ValueError(f"For '{name}', the shape of input after padding must be positive, the input "
                             f"shape is {shape}, but dim {len(shape) - 1 - i} of size {size} with padding "
                             f"({lo}, {hi}) would not be.")


class _ConstantPadNd(Cell):
    def __init__(self, padding: Any, value: Any, name: str = "ConstantPadNd") -> None:
        super().__init__()
        dims = _MAX_LEN[name] // 2
        if isinstance(padding, int) and not isinstance(padding, bool):
            padding = _int_padding(padding, dims)
        elif isinstance(padding, tuple):
            if len(padding) % 2:
                raise ValueError(f"For '{name}', the length of parameter 'padding' with tuple type must be "
                                 f"a multiple of 2, but got {len(padding)}")
            if name == "ConstantPad1d" and len(padding) != 2:
                raise ValueError(f"For '{name}', the length of parameter 'padding' with tuple type must "
                                 f"equal to 2.but got {len(padding)}")
            if len(padding) > _MAX_LEN[name]:
                raise ValueError(f"For '{name}', the length of parameter 'padding' with tuple type must no "
                                 f"more than {_MAX_LEN[name]}.but got {len(padding)}")
        else:
            raise TypeError(f"For '{name}', the type of parameter 'padding' must be in [int, tuple], but "
                            f"got {type(padding)}")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"For '{name}', the type of parameter 'value' must be in [int, float], but got "
                            f"{type(value)}")
        self.value = value
        self.padding = padding

    def construct(self, x: Tensor) -> Tensor:
        if any(p < 0 for p in self.padding):
            _check_crop(x, self.padding, self.cls_name)
        return ops.pad(x, self.padding, mode="constant", value=self.value)

    def extend_repr(self) -> str:
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPadNd):
    """Pad the last dim with a constant.

    Args:
        padding (Union[int, tuple]): (left, right), or one int for both; negative amounts crop.
        value (Union[int, float]): the fill value.

    Shape:
        (..., W) -> (..., W + left + right).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([[[1.0, 2.0, 3.0]]]), ms.float32)
        >>> print(nn.ConstantPad1d((1, 2), value=9.0)(x))
        [[[9. 1. 2. 3. 9. 9.]]]
    """

    def __init__(self, padding: Any, value: Any) -> None:
        super().__init__(padding, value, name="ConstantPad1d")


class ConstantPad2d(_ConstantPadNd):
    """Pad the last two dims with a constant.

    Args:
        padding (Union[int, tuple]): (left, right[, top, bottom]), or one int for all four; negative amounts
            crop.
        value (Union[int, float]): the fill value.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.ones((1, 1, 2, 2)), ms.float32)
        >>> print(nn.ConstantPad2d((1, 0, 0, 1), value=5.0)(x))
        [[[[5. 1. 1.]
           [5. 1. 1.]
           [5. 5. 5.]]]]
    """

    def __init__(self, padding: Any, value: Any) -> None:
        super().__init__(padding, value, name="ConstantPad2d")


class ConstantPad3d(_ConstantPadNd):
    """Pad the last three dims with a constant.

    Args:
        padding (Union[int, tuple]): up to (left, right, top, bottom, front, back), or one int for all six.
        value (Union[int, float]): the fill value.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.ones((1, 1, 2, 2, 2)), ms.float32)
        >>> nn.ConstantPad3d(1, value=0.0)(x).shape
        (1, 1, 4, 4, 4)
    """

    def __init__(self, padding: Any, value: Any) -> None:
        super().__init__(padding, value, name="ConstantPad3d")


class ZeroPad2d(_ConstantPadNd):
    """Pad the last two dims with zeros; ``padding`` as ConstantPad2d's.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.ones((1, 1, 2, 2)), ms.float32)
        >>> print(nn.ZeroPad2d((1, 0, 0, 1))(x))
        [[[[0. 1. 1.]
           [0. 1. 1.]
           [0. 0. 0.]]]]
    """

    def __init__(self, padding: Any) -> None:
        super().__init__(padding, 0, name="ZeroPad2d")


def _check_tuple(padding: Any, name: str, non_negative: bool) -> tuple[int, ...]:
    if not isinstance(padding, tuple):
        raise TypeError(f"For '{name}' the input 'padding' must be an integer or tuple, but got "
                        f"{type(padding).__name__}")
    if len(padding) % 2:
        raise ValueError(f"For '{name}' the length of input 'padding' must be divisible by 2, but got "
                         f"padding of length {len(padding)}. ")
    if not all(isinstance(i, int) and not isinstance(i, bool) for i in padding):
        raise TypeError(f"For '{name}' every element in 'padding' must be integer, but got {padding}. ")
    if non_negative and not all(i >= 0 for i in padding):
        raise ValueError(f"For '{name}' every element in 'padding' must be >= 0. but got {padding}. ")
    return padding


class _ReflectionPadNd(Cell):
    def __init__(self, padding: Any, name: str = "ReflectionPadNd") -> None:
        super().__init__()
        self.name = name
        padding = _check_tuple(padding, name, True)
        self._torch_padding = padding
        # MindSpore keeps the pairs in axis order (first padded dim first), as MirrorPad takes them
        pairs = [[padding[2 * i], padding[2 * i + 1]] for i in range(len(padding) // 2)]
        pairs.reverse()
        self.padding = pairs

    def construct(self, x: Tensor) -> Tensor:
        if not self.padding:
            return x
        if x.ndim < len(self.padding):
            raise ValueError(f"For padding with length {len(self.padding) * 2}, the dimension of the tensor "
                             f"should be at least {len(self.padding)}, but got {x.ndim}")
        return ops.pad(x, self._torch_padding, mode="reflect")

    def extend_repr(self) -> str:
        return f"padding={self._torch_padding}"


class ReflectionPad1d(_ReflectionPadNd):
    """Pad the last dim by reflecting the input at its edges ([1, 2, 3] padded (2, 1) is [3, 2, 1, 2, 3, 2]).

    Args:
        padding (Union[int, tuple]): (left, right) or one int for both; each below the dim's size.

    Shape:
        (C, W) or (N, C, W) -> (..., W + left + right).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([[[1.0, 2.0, 3.0, 4.0]]]), ms.float32)
        >>> print(nn.ReflectionPad1d((2, 1))(x))
        [[[3. 2. 1. 2. 3. 4. 3.]]]
    """

    def __init__(self, padding: Any) -> None:
        super().__init__(_int_padding(padding, 1), "ReflectionPad1d")


class ReflectionPad2d(_ReflectionPadNd):
    """Reflection padding of the last two dims: padding (left, right, top, bottom) or one int.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.arange(4).reshape(1, 1, 2, 2), ms.float32)
        >>> print(nn.ReflectionPad2d((1, 1, 0, 0))(x))
        [[[[1. 0. 1. 0.]
           [3. 2. 3. 2.]]]]
    """

    def __init__(self, padding: Any) -> None:
        super().__init__(_int_padding(padding, 2), "ReflectionPad2d")


class ReflectionPad3d(_ReflectionPadNd):
    """Reflection padding of the last three dims: padding (left, right, top, bottom, front, back) or one
    int.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, nn
        >>> pad = nn.ReflectionPad3d((1, 1, 0, 0, 0, 0))
        >>> x = Tensor(np.array([[[[[1.0, 2.0, 3.0]]]]]), ms.float32)
        >>> print(pad(x))
        [[[[[2. 1. 2. 3. 2.]]]]]
    """

    def __init__(self, padding: Any) -> None:
        super().__init__(_int_padding(padding, 3), "ReflectionPad3d")


class _ReplicationPadNd(Cell):
    _ndim = 1

    def __init__(self, padding: Any, name: str = "ReplicationPadNd") -> None:
        super().__init__()
        self.name = name
        self.padding = _check_tuple(padding, name, False)
        self.padv3 = Primitive("PadV3", _pad_edge)

    def construct(self, x: Tensor) -> Tensor:
        if x.ndim not in (self._ndim + 1, self._ndim + 2):
            raise ValueError(f"For '{self.name}', the input must have {self._ndim + 1} or {self._ndim + 2} "
                             f"dims, but got {x.ndim} (shape {tuple(x.shape)}).")
        return self.padv3(x, self.padding, None)

    def extend_repr(self) -> str:
        return f"padding={self.padding}"


def _pad_edge(x: Tensor, padding: tuple, value: Any = None) -> Tensor:
    """PadV3 in mode 'edge': negative amounts crop, as MindSpore's kernel does."""
    crop = tuple(min(p, 0) for p in padding)
    if any(crop):
        x = ops.pad(x, crop, mode="constant")
    grow = tuple(max(p, 0) for p in padding)
    return ops.pad(x, grow, mode="replicate") if any(grow) else x


class ReplicationPad1d(_ReplicationPadNd):
    """Pad the last dim by repeating its edge values.

    Args:
        padding (Union[int, tuple]): (left, right) or one int for both.

    Shape:
        (C, W) or (N, C, W) -> (..., W + left + right).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([[[1.0, 2.0, 3.0, 4.0]]]), ms.float32)
        >>> print(nn.ReplicationPad1d((2, 1))(x))
        [[[1. 1. 1. 2. 3. 4. 4.]]]
    """

    _ndim = 1

    def __init__(self, padding: Any) -> None:
        super().__init__(_int_padding(padding, 1), name="ReplicationPad1d")


class ReplicationPad2d(_ReplicationPadNd):
    """Replication padding of the last two dims of (C, H, W) or (N, C, H, W): padding (left, right, top,
    bottom) or one int.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.arange(4).reshape(1, 1, 2, 2), ms.float32)
        >>> print(nn.ReplicationPad2d((1, 1, 0, 0))(x))
        [[[[0. 0. 1. 1.]
           [2. 2. 3. 3.]]]]
    """

    _ndim = 2

    def __init__(self, padding: Any) -> None:
        super().__init__(_int_padding(padding, 2), name="ReplicationPad2d")


class ReplicationPad3d(_ReplicationPadNd):
    """Replication padding of the last three dims of (C, D, H, W) or (N, C, D, H, W): padding (left, right,
    top, bottom, front, back) or one int.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, nn
        >>> pad = nn.ReplicationPad3d((1, 1, 0, 0, 0, 0))
        >>> x = Tensor(np.array([[[[[1.0, 2.0, 3.0]]]]]), ms.float32)
        >>> print(pad(x))
        [[[[[1. 1. 2. 3. 3.]]]]]
    """

    _ndim = 3

    def __init__(self, padding: Any) -> None:
        super().__init__(_int_padding(padding, 3), name="ReplicationPad3d")


class Pad(Cell):
    """Pad every axis of the input as ``paddings`` says.

    Args:
        paddings (tuple): one (before, after) pair of ints per axis of the input (at most 4 axes), first
            axis first.
        mode (str): 'CONSTANT' (zeros), 'REFLECT' (mirror without repeating the edge, amounts below the
            axis size) or 'SYMMETRIC' (mirror repeating the edge, amounts up to the size). Default:
            'CONSTANT'.

    Examples:
        >>> nn.Pad(((1, 1), (2, 2)))(ops.ones((2, 3))).shape
        (4, 7)
    """

    def __init__(self, paddings: Any, mode: str = "CONSTANT") -> None:
        super().__init__()
        self.mode = mode
        self.paddings = paddings
        if mode not in ("CONSTANT", "REFLECT", "SYMMETRIC"):
            raise ValueError(f"For '{self.cls_name}', the 'mode' must be in ['CONSTANT', 'REFLECT', "
                             f"'SYMMETRIC'], but got {mode!r}.")
        if not isinstance(paddings, tuple):
            raise TypeError(f"For '{self.cls_name}', the type of 'paddings' must be tuple, but got "
                            f"{type(paddings).__name__}.")
        for item in paddings:
            if len(item) != 2:
                raise ValueError(f"For '{self.cls_name}', the dimension of 'paddings' must be (n, 2), but "
                                 f"got {paddings}.")
        if len(paddings) > 4:
            raise ValueError(f"For '{self.cls_name}', only 'paddings' up to 4 dims is supported, but got "
                             f"{len(paddings)}.")
        if mode == "CONSTANT":
            self.pad = Primitive("Pad", _pad_pairs, paddings=paddings)
        else:
            self.paddings = Tensor(np.array(paddings), dtype="int64")
            self.pad = Primitive("MirrorPad", ops.mirror_pad, mode=mode)

    def construct(self, x: Tensor) -> Tensor:
        if self.mode == "CONSTANT":
            return self.pad(x)
        return self.pad(x, self.paddings)


def _pad_pairs(x: Tensor, paddings: tuple) -> Tensor:
    """MindSpore's Pad: one (before, after) pair per axis, first axis first."""
    if len(paddings) != x.ndim:
        raise ValueError("For 'Pad', the length of 'paddings' must be equal to the rank of 'input_x', but "
                         f"got {len(paddings)} vs {x.ndim}")
    flat: list[int] = []
    for before, after in reversed(paddings):
        if before < 0 or after < 0:
            raise ValueError(f"For 'Pad', all elements of paddings must be >= 0, but got {paddings}")
        flat += [int(before), int(after)]
    return ops.pad(x, tuple(flat), mode="constant")
