"""Small nn functions written over primitives: channel_shuffle, bidense, add_layer_norm, pdist, intopk, msort,
fliplr, flipud and is_floating_point."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import ops as _ops
from cellonnx.ops.prims._util import is_float_dtype, to_tensor
from cellonnx.tensor import Tensor

F: Any = _ops


def _tensor(x: Any, name: str, op: str) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{op}', '{name}' must be a Tensor, but got {type(x).__name__}.")
    return x


def channel_shuffle(x: Tensor, groups: int) -> Tensor:
    """Split the C channels of (N, C, ...) into ``groups`` groups and interleave them: (N, g, C / g, ...) is
    transposed to (N, C / g, g, ...), as MindSpore's ``ops.channel_shuffle``.

    Args:
        x (Tensor): (N, C, ...), at least 3-D.
        groups (int): divides C.

    Returns:
        Tensor of x's shape.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(4).reshape(1, 4, 1, 1), ms.int32)
        >>> print(ops.channel_shuffle(x, 2).reshape(-1))
        [0 2 1 3]
    """
    x = _tensor(x, "x", "channel_shuffle")
    if isinstance(groups, bool) or not isinstance(groups, int) or groups < 1:
        raise ValueError(f"For ChannelShuffle, the param `groups` must be a positive int, but got "
                         f"{groups!r}.")
    if x.ndim < 3:
        raise ValueError("For ChannelShuffle, the input must have at least 3 dims, but got shape "
                         f"{tuple(x.shape)}.")
    shape = tuple(x.shape)
    c = int(shape[1])
    if c % groups:
        raise ValueError(f"For ChannelShuffle, the channel count {c} must be divisible by groups {groups}.")
    out = F.reshape(x, (shape[0], groups, c // groups, -1))
    return F.reshape(F.transpose(out, (0, 2, 1, 3)), shape)


def bidense(input1: Tensor, input2: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    r"""Bilinear transform :math:`y_k = x_1^T W_k x_2 + b_k`, as MindSpore's ``ops.bidense``.

    Args:
        input1 (Tensor): (*, in1_channels).
        input2 (Tensor): (*, in2_channels), the same leading dims.
        weight (Tensor): (out_channels, in1_channels, in2_channels).
        bias (Tensor, optional): (out_channels,).

    Returns:
        (*, out_channels).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x1 = Tensor(np.array([[1.0, 2.0]]), ms.float32)
        >>> x2 = Tensor(np.array([[1.0, 1.0, 1.0]]), ms.float32)
        >>> weight = Tensor(np.ones((4, 2, 3)), ms.float32)
        >>> print(ops.bidense(x1, x2, weight))
        [[9. 9. 9. 9.]]
    """
    x1 = _tensor(input1, "input1", "bidense")
    x2 = _tensor(input2, "input2", "bidense")
    w = _tensor(weight, "weight", "bidense")
    if tuple(x1.shape[:-1]) != tuple(x2.shape[:-1]):
        raise ValueError("For 'bidense', the dimensions except the last one of 'input1' and 'input2' must "
                         f"be the same, but got {tuple(x1.shape)} and {tuple(x2.shape)}.")
    if w.ndim != 3 or int(w.shape[1]) != int(x1.shape[-1]) or int(w.shape[2]) != int(x2.shape[-1]):
        raise ValueError(f"For 'bidense', 'weight' must be (out, {int(x1.shape[-1])}, {int(x2.shape[-1])}), "
                         f"but got {tuple(w.shape)}.")
    lead = tuple(x1.shape[:-1])
    a = F.reshape(x1, (-1, int(x1.shape[-1])))
    b = F.reshape(x2, (-1, int(x2.shape[-1])))
    out_c = int(w.shape[0])
    # (M, in1) @ (in1, out * in2) -> (M, out, in2), then contracted with x2 over in2
    t = F.matmul(a, F.reshape(F.transpose(w, (1, 0, 2)), (int(w.shape[1]), -1)))
    y = F.sum(F.mul(F.reshape(t, (-1, out_c, int(w.shape[2]))), F.expand_dims(b, 1)), 2)
    if bias is not None:
        bias = _tensor(bias, "bias", "bidense")
        if bias._data.dtype != x1._data.dtype or x2._data.dtype != x1._data.dtype:
            raise TypeError("For 'bidense', the dtype of 'bias', 'input1' and 'input2' must be the same, "
                            f"but got {bias.dtype}, {x1.dtype} and {x2.dtype}.")
        y = F.add(y, bias)
    return F.reshape(y, lead + (out_c,)) if len(lead) != 1 else y


def add_layer_norm(x1: Tensor, x2: Tensor, gamma: Tensor, beta: Tensor, epsilon: float = 1e-5,
                   additional_output: bool = False) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """Layer normalization of ``x1 + x2`` over the trailing dims gamma covers, as MindSpore's
    ``ops.add_layer_norm``.

    Args:
        x1, x2 (Tensor): float tensors of one shape.
        gamma, beta (Tensor): the scale and shift, shaped as the trailing dims of x1.
        epsilon (float): added to the variance. Default: 1e-5.
        additional_output (bool): MindSpore's flag for returning ``x1 + x2``; it is returned either way.

    Returns:
        (y, mean, rstd, x): the normalized output, the mean and reciprocal standard deviation (trailing dims
        kept as 1) and x1 + x2.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x1 = Tensor(np.array([[1.0, 2.0]]), ms.float32)
        >>> x2 = Tensor(np.array([[1.0, 4.0]]), ms.float32)
        >>> gamma = Tensor(np.ones(2), ms.float32)
        >>> beta = Tensor(np.zeros(2), ms.float32)
        >>> y, mean, rstd, x = ops.add_layer_norm(x1, x2, gamma, beta)
        >>> print(y.asnumpy().round(4), x)
        [[-1.  1.]] [[2. 6.]]
    """
    for name, t in (("x1", x1), ("x2", x2), ("gamma", gamma), ("beta", beta)):
        _tensor(t, name, "add_layer_norm")
    if not isinstance(epsilon, float):
        raise TypeError(f"For 'add_layer_norm', 'epsilon' must be a float, but got {type(epsilon).__name__}.")
    if not isinstance(additional_output, bool):
        raise TypeError("For 'add_layer_norm', 'additional_output' must be a bool, but got "
                        f"{type(additional_output).__name__}.")
    x = F.add(x1, x2)
    axes = tuple(range(x.ndim - gamma.ndim, x.ndim))
    mean = F.mean(x, axes, keep_dims=True)
    centered = F.sub(x, mean)
    var = F.mean(F.square(centered), axes, keep_dims=True)
    rstd = F.rsqrt(F.add(var, epsilon))
    y = F.add(F.mul(F.mul(centered, rstd), gamma), beta)
    return y, mean, rstd, x


def pdist(input: Tensor, p: float = 2.0) -> Tensor:
    r"""p-norm distances between every pair of rows (i < j) of the last two dims, as MindSpore's
    ``ops.pdist``.

    Args:
        input (Tensor): (*, N, M), float.
        p (float): the norm, >= 0 (0 counts the differing elements, inf takes the largest). Default: 2.0.

    Returns:
        (*, N * (N - 1) / 2), the pairs in row-major upper-triangle order.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[0.0, 0.0], [3.0, 4.0], [6.0, 8.0]]), ms.float32)
        >>> print(ops.pdist(x))
        [ 5. 10.  5.]
    """
    x = _tensor(input, "input", "pdist")
    if not is_float_dtype(x._data.dtype):
        raise TypeError(f"For 'pdist', 'input' must be a float tensor, but got {x.dtype}.")
    if not isinstance(p, (int, float)) or isinstance(p, bool) or p < 0:
        raise ValueError(f"For 'pdist', 'p' must be a non-negative float, but got {p!r}.")
    if x.ndim < 2:
        raise ValueError(f"For 'pdist', 'input' must have at least 2 dims, but got shape {tuple(x.shape)}.")
    from cellonnx.graph.trace import require_static
    require_static(x.shape[-2], "pdist lists its row pairs in Python and")
    n = int(x.shape[-2])
    rows, cols = np.triu_indices(n, 1)
    if rows.size == 0:
        return F.zeros(tuple(x.shape[:-2]) + (0,), x.dtype)
    d = F.sub(F.gather(x, Tensor(rows.astype(np.int64)), x.ndim - 2),
              F.gather(x, Tensor(cols.astype(np.int64)), x.ndim - 2))
    if p == 0:
        return F.sum(F.cast(F.not_equal(d, 0), x.dtype), -1)
    if p == float("inf"):
        return F.amax(F.abs(d), -1)
    if p == 1:
        return F.sum(F.abs(d), -1)
    if p == 2:
        return F.sqrt(F.sum(F.square(d), -1))
    return F.pow(F.sum(F.pow(F.abs(d), float(p)), -1), 1.0 / p)


def intopk(x1: Tensor, x2: Tensor, k: int) -> Tensor:
    """Whether each target's prediction is among the ``k`` largest of its row, as MindSpore's ``ops.intopk``
    (ties at the boundary count as inside; a non-finite prediction is never inside).

    Args:
        x1 (Tensor): (N, C) predictions, float16 or float32.
        x2 (Tensor): (N,) int32 / int64 targets.
        k (int): the number of top elements.

    Returns:
        (N,) bool.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x1 = Tensor(np.array([[0.1, 0.8, 0.1], [0.5, 0.2, 0.3]]), ms.float32)
        >>> x2 = Tensor(np.array([1, 2]), ms.int32)
        >>> print(ops.intopk(x1, x2, 1))
        [ True False]
    """
    x1 = _tensor(x1, "x1", "intopk")
    x2 = _tensor(x2, "x2", "intopk")
    if isinstance(k, bool) or not isinstance(k, int):
        raise TypeError(f"For 'InTopK', 'k' must be an int, but got {type(k).__name__}.")
    if x1.ndim != 2 or x2.ndim != 1 or int(x2.shape[0]) != int(x1.shape[0]):
        raise ValueError(f"For 'InTopK', 'x1' must be (N, C) and 'x2' (N,), but got {tuple(x1.shape)} and "
                         f"{tuple(x2.shape)}.")
    target = F.gather_elements(x1, 1, F.expand_dims(F.cast(x2, np.int64), 1))
    above = F.sum(F.cast(F.greater(x1, target), np.int32), 1)
    return F.logical_and(F.less(above, k), F.squeeze(F.isfinite(target), 1))


def msort(input: Tensor) -> Tensor:
    """``input`` sorted ascending along its first axis, as MindSpore's ``ops.msort``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[3.0, 1.0], [1.0, 2.0]]), ms.float32)
        >>> print(ops.msort(x))
        [[1. 1.]
         [3. 2.]]
    """
    return F.sort(_tensor(input, "input", "msort"), axis=0)[0]


def fliplr(input: Tensor) -> Tensor:
    """Reverse the second axis (left-right), as MindSpore's ``ops.fliplr``; the input is at least 2-D.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1, 2], [3, 4]]), ms.int32)
        >>> print(ops.fliplr(x))
        [[2 1]
         [4 3]]
    """
    x = _tensor(input, "input", "fliplr")
    if x.ndim < 2:
        raise ValueError(f"For 'fliplr', the input must be at least 2-D, but got shape {tuple(x.shape)}.")
    return F.flip(x, (1,))


def flipud(input: Tensor) -> Tensor:
    """Reverse the first axis (up-down), as MindSpore's ``ops.flipud``; the input is at least 1-D.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1, 2], [3, 4]]), ms.int32)
        >>> print(ops.flipud(x))
        [[3 4]
         [1 2]]
    """
    x = _tensor(input, "input", "flipud")
    if x.ndim < 1:
        raise ValueError("For 'flipud', the input must be at least 1-D, but got a scalar.")
    return F.flip(x, (0,))


def is_floating_point(input: Tensor) -> bool:
    """Whether ``input``'s dtype is a floating-point type (float16, bfloat16, float32, float64).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> ops.is_floating_point(Tensor(np.ones(2), ms.float16))
        True
        >>> ops.is_floating_point(Tensor(np.ones(2), ms.int32))
        False
    """
    return is_float_dtype(to_tensor(input)._data.dtype)


__all__ = ["add_layer_norm", "bidense", "channel_shuffle", "fliplr", "flipud", "intopk", "is_floating_point",
           "msort", "pdist"]
