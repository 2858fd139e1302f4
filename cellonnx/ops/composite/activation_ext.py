"""Activations written over primitives (gradient and lowering come from them): glu, soft_shrink (the
deprecated spelling of softshrink), threshold, rrelu, and bias_add."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import ops as _ops
from cellonnx.ops.prims._util import is_float_dtype, norm_axis, to_tensor
from cellonnx.tensor import Tensor

F: Any = _ops


def _tensor(x: Any, op: str) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{op}', the input must be a Tensor, but got {type(x).__name__}.")
    return x


def _number(v: Any, name: str, op: str) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
        raise TypeError(f"For '{op}', '{name}' must be an int or a float, but got {type(v).__name__}.")
    return float(v)


def glu(x: Tensor, axis: int = -1) -> Tensor:
    r"""Gated linear unit: split ``x`` in two halves ``a, b`` along ``axis`` and return :math:`a \sigma(b)`.

    Args:
        x (Tensor): float tensor whose ``axis`` has an even length.
        axis (int): the axis to split. Default: -1.

    Returns:
        Tensor with ``axis`` halved.

    Examples:
        >>> ops.glu(Tensor([[1., 2., 0., 0.]])).shape
        (1, 2)
    """
    x = _tensor(x, "glu")
    a = norm_axis(axis, x.ndim, "glu")
    n = int(x._data.shape[a])
    if n % 2:
        raise ValueError(f"For 'glu', the length {n} of axis {axis} of the input {tuple(x.shape)} must be "
                         "even.")
    half = x.shape[a] // 2  # two halves at every even size: a dynamic axis' half stays a graph value
    first, second = F.split(x, [half, half], a)
    return F.mul(first, F.sigmoid(second))


def soft_shrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """MindSpore's deprecated spelling of :func:`softshrink` (same arguments, same result).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([-1.0, 0.2, 2.0]), ms.float32)
        >>> print(ops.soft_shrink(x, 0.5))
        [-0.5  0.   1.5]
    """
    return F.softshrink(input, lambd)


def threshold(input: Tensor, thr: float, value: float) -> Tensor:
    """``input`` where it is greater than ``thr``, else ``value``.

    Args:
        input (Tensor): tensor of any shape.
        thr (Union[int, float]): the threshold.
        value (Union[int, float]): what replaces the elements at or below ``thr``.

    Returns:
        Tensor of the input's shape and dtype.

    Examples:
        >>> print(ops.threshold(Tensor([1., 2., 3.]), 1.5, 20.))
        [20.  2.  3.]
    """
    x = _tensor(input, "threshold")
    _number(thr, "thr", "threshold")
    _number(value, "value", "threshold")
    fill = F.full_like(x, value)
    return F.where(F.greater(x, thr), x, fill)


def rrelu(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3) -> Tensor:
    r"""Randomized leaky ReLU: x where x >= 0, else :math:`a x` with :math:`a` drawn uniformly from
    [lower, upper) for every element (MindSpore draws in training and evaluation alike).

    Args:
        input (Tensor): float tensor.
        lower (Union[int, float]): lower bound of the slope. Default: 1/8.
        upper (Union[int, float]): upper bound of the slope. Default: 1/3.

    Returns:
        Tensor of the input's shape and dtype.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> print(ops.rrelu(x))
        [1. 2. 3.]
    """
    lower = _number(lower, "lower", "rrelu")
    upper = _number(upper, "upper", "rrelu")
    if lower > upper:
        raise ValueError("For 'rrelu', the value of 'upper' must be greater than or equal to 'lower', but "
                         f"got upper: {upper}, lower: {lower}.")
    x = _tensor(input, "rrelu")
    if not is_float_dtype(x._data.dtype):
        raise TypeError(f"For 'rrelu', the input must be a float tensor, got {x.dtype}")
    if lower == upper:
        slope: Any = lower
    else:
        slope = F.cast(F.uniform(tuple(x.shape), lower, upper), x._data.dtype)
    return F.where(F.less(x, 0), F.mul(x, slope), x)


def bias_add(input_x: Tensor, bias: Tensor) -> Tensor:
    """Add a 1-D ``bias`` along the channel axis (axis 1) of an (N, C, ...) input, as MindSpore's
    ``ops.bias_add`` (data format NCHW).

    Args:
        input_x (Tensor): (N, C, ...) with 2 to 5 dims.
        bias (Tensor): (C,).

    Returns:
        Tensor of input_x's shape.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.zeros((2, 3)), ms.float32)
        >>> bias = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> print(ops.bias_add(x, bias))
        [[1. 2. 3.]
         [1. 2. 3.]]
    """
    x = _tensor(input_x, "bias_add")
    b = to_tensor(bias)
    if not 2 <= x.ndim <= 5:
        raise ValueError(f"For 'BiasAdd', the dimension of 'input_x' must be in [2, 5], but got {x.ndim}.")
    if b.ndim != 1 or int(b._data.shape[0]) != int(x._data.shape[1]):
        raise ValueError("For 'BiasAdd', 'bias' must be 1-D with the input's channel count "
                         f"{int(x._data.shape[1])}, but got shape {tuple(b.shape)}.")
    if b._data.dtype != x._data.dtype:
        raise TypeError(f"For 'BiasAdd', 'input_x' and 'bias' must have one dtype, got {x.dtype} and "
                        f"{b.dtype}.")
    return F.add(x, F.reshape(b, (-1,) + (1,) * (x.ndim - 2)))


__all__ = ["bias_add", "glu", "rrelu", "soft_shrink", "threshold"]
