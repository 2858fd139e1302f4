"""3-D convolutions: the functional ``conv3d`` and ``conv3d_transpose`` over the Conv / ConvTranspose
primitives (one ONNX Conv / ConvTranspose each; NumPy kernels in conv_nd.py)."""
from __future__ import annotations

from typing import Any

from cellonnx.ops.prims.conv import _conv
from cellonnx.ops.prims.conv_grad import conv_transpose
from cellonnx.tensor import Tensor


def conv3d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1,
           pad_mode: str = "valid", padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Tensor:
    """3D convolution (cross-correlation) over an NCDHW input, as MindSpore's ``ops.conv3d``.

    Args:
        input (Tensor): (N, C_in, D, H, W).
        weight (Tensor): (C_out, C_in / groups, kD, kH, kW).
        bias (Tensor, optional): (C_out,). Default: None.
        stride (Union[int, tuple[int]]): int or (sD, sH, sW). Default: 1.
        pad_mode (str): 'valid' (default, no padding), 'same' (output ceil(in / stride); an odd total padding
            puts the extra pixel at the back / bottom / right) or 'pad' (use ``padding``).
        padding (Union[int, tuple[int]]): with pad_mode 'pad': an int, (pad_d, pad_h, pad_w) (both sides) or
            (head, tail, top, bottom, left, right). Default: 0.
        dilation (Union[int, tuple[int]]): int or (dD, dH, dW). Default: 1.
        groups (int): channel groups. Default: 1.

    Returns:
        (N, C_out, D_out, H_out, W_out), D_out = (D + head + tail - dD * (kD - 1) - 1) // sD + 1.

    Examples:
        >>> x = ops.ones((1, 2, 4, 4, 4))
        >>> ops.conv3d(x, ops.ones((3, 2, 3, 3, 3))).shape
        (1, 3, 2, 2, 2)
    """
    return _conv("conv3d", 3, input, weight, bias, stride, pad_mode, padding, dilation, groups)


def conv3d_transpose(inputs: Tensor, weight: Tensor, pad_mode: str = "valid", padding: Any = 0,
                     stride: Any = 1, dilation: Any = 1, group: int = 1, output_padding: Any = 0) -> Tensor:
    """3D transposed convolution, as MindSpore's ``ops.conv3d_transpose`` (Conv3DTranspose).

    Args:
        inputs (Tensor): (N, C_in, D, H, W).
        weight (Tensor): (C_in, C_out / group, kD, kH, kW).
        pad_mode (str): 'valid' (default: output (in - 1) * stride + dilated kernel), 'same' (output
            in * stride) or 'pad' (``padding`` removed from each side of the full output).
        padding (Union[int, tuple[int]]): with 'pad': an int or (head, tail, top, bottom, left, right).
        stride, dilation (Union[int, tuple[int]]): int or one per spatial dim. Default: 1.
        group (int): channel groups. Default: 1.
        output_padding (Union[int, tuple[int]]): extra size at the back / bottom / right of the output, with
            'pad' only; smaller than the stride. Default: 0.

    Returns:
        (N, C_out, D_out, H_out, W_out), D_out = (D - 1) * sD - head - tail + dD * (kD - 1) + output_padding
        + 1
        with 'pad'.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.ones((1, 1, 1, 2, 2)), ms.float32)
        >>> w = Tensor(np.ones((1, 1, 1, 2, 2)), ms.float32)
        >>> print(ops.conv3d_transpose(x, w).shape)
        (1, 1, 1, 3, 3)
    """
    if not isinstance(inputs, Tensor) or inputs.ndim != 5:
        raise ValueError("For 'conv3d_transpose', the rank of inputs tensor should be 5, got "
                         f"{getattr(inputs, 'shape', inputs)}.")
    if not isinstance(weight, Tensor) or weight.ndim != 5:
        raise ValueError("For 'conv3d_transpose', the rank of weight tensor should be 5, got "
                         f"{getattr(weight, 'shape', weight)}.")
    return conv_transpose(inputs, weight, None, stride, padding, output_padding, group, dilation, pad_mode,
                          op="conv3d_transpose")


__all__ = ["conv3d", "conv3d_transpose"]
