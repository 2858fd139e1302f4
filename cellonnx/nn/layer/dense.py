"""BiDense (the bilinear layer) and ChannelShuffle."""
from __future__ import annotations

import math
from typing import Any

from cellonnx import dtypes, ops
from cellonnx.common.initializer import Uniform
from cellonnx.nn.cell import Cell
from cellonnx.nn.layer._primitive import Primitive
from cellonnx.nn.layer._util import check_positive_int, check_type, new_param
from cellonnx.tensor import Parameter, Tensor

__all__ = ["BiDense", "ChannelShuffle"]


class BiDense(Cell):
    r"""The bilinear layer :math:`y_k = x_1^T W_k x_2 + b_k`.

    Args:
        in1_channels, in2_channels (int): sizes of the two inputs' last dims.
        out_channels (int): size of the output's last dim.
        weight_init, bias_init: initializers of the (out, in1, in2) weight and the bias. Default:
            U(-1/sqrt(in1_channels), 1/sqrt(in1_channels)) for both.
        has_bias (bool): Default: True. dtype: parameter dtype. Default: float32.

    Inputs:
        input1 (*, in1_channels), input2 (*, in2_channels) with the same leading dims.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> net = nn.BiDense(3, 4, 5)
        >>> x1 = Tensor(np.ones((2, 3)), ms.float32)
        >>> x2 = Tensor(np.ones((2, 4)), ms.float32)
        >>> net(x1, x2).shape
        (2, 5)
    """

    def __init__(self, in1_channels: int, in2_channels: int, out_channels: int, weight_init: Any = None,
                 bias_init: Any = None, has_bias: bool = True, dtype: Any = dtypes.float32) -> None:
        super().__init__()
        check_positive_int(self.cls_name, in1_channels=in1_channels, in2_channels=in2_channels,
                           out_channels=out_channels)
        check_type(self.cls_name, bool, has_bias=has_bias)
        self.in_channels = in2_channels  # MindSpore sets this twice, the second time to in2_channels
        self.in1_channels, self.in2_channels, self.out_channels = in1_channels, in2_channels, out_channels
        self.has_bias = has_bias
        bound = 1 / math.sqrt(in1_channels)
        shape = (out_channels, in1_channels, in2_channels)
        if isinstance(weight_init, Tensor) and tuple(weight_init.shape) != shape:
            raise ValueError(f"For '{self.cls_name}', weight init shape error: expected {shape}, got "
                             f"{tuple(weight_init.shape)}.")
        self.weight = new_param(Uniform(bound) if weight_init is None else weight_init, shape, dtype,
                                "weight")
        self.bias: Parameter | None = None
        if has_bias:
            if isinstance(bias_init, Tensor) and tuple(bias_init.shape) != (out_channels,):
                raise ValueError(f"For '{self.cls_name}', bias init shape error: expected "
                                 f"({out_channels},), got {tuple(bias_init.shape)}.")
            self.bias = new_param(Uniform(bound) if bias_init is None else bias_init, [out_channels], dtype,
                                  "bias")
            self.bias_add = Primitive("BiasAdd", ops.bias_add)
        self.matmul = Primitive("MatMul", ops.matmul)

    def construct(self, input1: Tensor, input2: Tensor) -> Tensor:
        for name, x, n in (("input1", input1, self.in1_channels), ("input2", input2, self.in2_channels)):
            if int(x.shape[-1]) != n:
                raise ValueError(f"For '{self.cls_name}', the last dimension of '{name}' must be same as "
                                 f"'{name[:-1]}{name[-1]}_channels' {n}, but got {int(x.shape[-1])}.")
        return ops.bidense(input1, input2, self.weight, self.bias)

    def extend_repr(self) -> str:
        s = (f"in1_channels={self.in1_channels}, in2_channels={self.in2_channels}, "
             f"output_channels={self.out_channels}")
        return s + (f", has_bias={self.has_bias}" if self.has_bias else "")


class ChannelShuffle(Cell):
    """Interleave the channel groups of (N, C, ...): (N, g, C / g, ...) transposed to (N, C / g, g, ...).

    Args:
        groups (int): the number of groups, dividing C.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.arange(4).reshape(1, 4, 1, 1), ms.int32)
        >>> print(nn.ChannelShuffle(2)(x).reshape(-1))
        [0 2 1 3]
    """

    def __init__(self, groups: int) -> None:
        super().__init__()
        if isinstance(groups, bool) or not isinstance(groups, int):
            raise TypeError(f"For ChannelShuffle, the param `groups` must be int, but got {type(groups)}.")
        if groups < 1:
            raise ValueError("For ChannelShuffle, the param `groups` must be larger than 0, but got "
                             f"{groups}.")
        self.groups = groups

    def construct(self, x: Tensor) -> Tensor:
        return ops.channel_shuffle(x, self.groups)
