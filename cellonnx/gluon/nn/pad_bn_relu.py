"""gluon.nn ReflectionPad2D (reflection padding of H and W) and BatchNormReLU (BatchNorm followed by ReLU,
MXNet's fused ``fuse_relu`` batch norm), with MXNet 1.9.1's signatures."""
from __future__ import annotations

from typing import Any

from cellonnx import ops
from cellonnx.gluon.hybrid import HybridBlock
from cellonnx.gluon.nn.norm_layers import BatchNorm
from cellonnx.tensor import Tensor

__all__ = ["BatchNormReLU", "ReflectionPad2D"]


class ReflectionPad2D(HybridBlock):
    """Pads H and W of an (N, C, H, W) input with the reflection of its border (the border itself not
    repeated).

    Args:
        padding: an int (the same on the four sides) or MXNet's 8 ``pad_width`` values (before, after for
            each of the 4 axes; those of N and C must be 0). Default: 0.

    Shape:
        (N, C, H + 2 * padding, W + 2 * padding).

    Examples:
        >>> from cellonnx.mxnet import nd, gluon
        >>> print(gluon.nn.ReflectionPad2D(1)(nd.arange(4).reshape((1, 1, 2, 2))))
        <BLANKLINE>
        [[[[3. 2. 3. 2.]
           [1. 0. 1. 0.]
           [3. 2. 3. 2.]
           [1. 0. 1. 0.]]]]
        <NDArray 1x1x4x4 @cpu(0)>
    """

    def __init__(self, padding: Any = 0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if isinstance(padding, int):
            padding = (0, 0, 0, 0, padding, padding, padding, padding)
        padding = tuple(int(p) for p in padding)
        if len(padding) != 8:
            raise ValueError(f"ReflectionPad2D: padding must be an int or 8 pad_width values, got "
                             f"{padding!r}")
        if any(padding[:4]):
            raise ValueError(f"ReflectionPad2D: the batch and channel axes cannot be padded, got {padding!r}")
        self._padding = padding

    def forward(self, x: Tensor) -> Tensor:
        p = self._padding
        if x.ndim != 4:
            raise ValueError(f"ReflectionPad2D: expected a 4-d (N, C, H, W) input, got shape "
                             f"{tuple(x.shape)}")
        return ops.pad(x, (p[6], p[7], p[4], p[5]), "reflect")


class BatchNormReLU(BatchNorm):
    """Batch normalization followed by ReLU (MXNet's BatchNorm with ``fuse_relu``, the operator
    ``contrib.BatchNormWithReLU``); arguments, parameters and running statistics as :class:`BatchNorm`. As in
    MXNet 1.9.1, the ReLU applies with NDArray semantics only: under ``npx.set_np()`` the layer is a plain
    BatchNorm.

    Examples:
        >>> from cellonnx.mxnet import nd, gluon
        >>> bn = gluon.nn.BatchNormReLU(in_channels=2)
        >>> bn.initialize()
        >>> print(bn(nd.array([[[[1.0, -2.0]], [[-3.0, 6.0]]]])))
        <BLANKLINE>
        [[[[0.999995 0.      ]]
        <BLANKLINE>
          [[0.       5.99997 ]]]]
        <NDArray 1x2x1x2 @cpu(0)>
    """

    def __init__(self, axis: int = 1, momentum: float = 0.9, epsilon: float = 1e-5, center: bool = True,
                 scale: bool = True, use_global_stats: bool = False, beta_initializer: Any = "zeros",
                 gamma_initializer: Any = "ones", running_mean_initializer: Any = "zeros",
                 running_variance_initializer: Any = "ones", in_channels: int = 0, **kwargs: Any) -> None:
        super().__init__(axis, momentum, epsilon, center, scale, use_global_stats, beta_initializer,
                         gamma_initializer, running_mean_initializer, running_variance_initializer,
                         in_channels, **kwargs)

    def forward(self, x: Tensor) -> Tensor:
        from cellonnx.mxnet.util import is_np_array

        out = super().forward(x)
        return out if is_np_array() else ops.relu(out)
