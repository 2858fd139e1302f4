"""Basic layers: Dense, Flatten, Identity, Dropout, OneHot, Norm, ClipByNorm."""
from __future__ import annotations

from typing import Any

from cellonnx import dtypes, ops
from cellonnx.nn.cell import Cell
from cellonnx.nn.layer._primitive import Primitive
from cellonnx.nn.layer._util import check_positive_int, check_type, weight_and_bias
from cellonnx.nn.layer.activation import get_activation
from cellonnx.tensor import Parameter, Tensor

__all__ = ["ClipByNorm", "Dense", "Dropout", "Flatten", "Identity", "Norm", "OneHot"]


class Dense(Cell):
    r"""The fully connected layer: :math:`\text{outputs} = \text{activation}(X W^T + \text{bias})`.

    Args:
        in_channels: size of the input's last dim.
        out_channels: size of the output's last dim.
        weight_init: initializer of the (out_channels, in_channels) weight. Default: None, which is
            ``HeUniform(math.sqrt(5))`` (U(-1/sqrt(in_channels), 1/sqrt(in_channels))).
        bias_init: initializer of the bias. Default: None, which is ``Uniform(1/sqrt(in_channels))``.
        has_bias: whether there is a bias. Default: True.
        activation: an activation name ('relu', ...), Cell or None. Default: None.
        dtype: parameter dtype. Default: float32.

    Shape:
        (*, in_channels) -> (*, out_channels).

    Examples:
        >>> net = nn.Dense(3, 4)
        >>> net(ops.ones((2, 3))).shape
        (2, 4)
    """

    def __init__(self, in_channels: int, out_channels: int, weight_init: Any = None, bias_init: Any = None,
                 has_bias: bool = True, activation: Any = None, dtype: Any = dtypes.float32) -> None:
        super().__init__()
        check_positive_int(self.cls_name, in_channels=in_channels, out_channels=out_channels)
        check_type(self.cls_name, bool, has_bias=has_bias)
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.has_bias = has_bias
        if isinstance(weight_init, Tensor) and tuple(weight_init.shape) != (out_channels, in_channels):
            raise ValueError(f"For '{self.cls_name}', weight init shape error: expected ({out_channels}, "
                             f"{in_channels}) (out_channels, in_channels), got {tuple(weight_init.shape)}.")
        if has_bias and isinstance(bias_init, Tensor) and tuple(bias_init.shape) != (out_channels,):
            raise ValueError(f"For '{self.cls_name}', bias init shape error: expected ({out_channels},), got "
                             f"{tuple(bias_init.shape)}.")
        self.weight: Parameter
        self.bias: Parameter | None
        self.weight, self.bias, _, _ = weight_and_bias(weight_init, bias_init, [out_channels, in_channels],
                                                       out_channels, has_bias, dtype)
        self.activation: Any = get_activation(activation) if isinstance(activation, str) else activation
        if activation is not None and not isinstance(self.activation, Cell) and not callable(self.activation):
            raise TypeError(f"For '{self.cls_name}', the 'activation' must be str or Cell, but got "
                            f"{type(activation).__name__}.")
        self.activation_flag = self.activation is not None
        self.matmul = Primitive("MatMul", _matmul_transpose_b)
        if has_bias:
            self.bias_add = Primitive("BiasAdd", ops.bias_add)

    def construct(self, x: Tensor) -> Tensor:
        # above 2-D one MatMul broadcasts over the leading axes: the graph needs no Reshape pair, whose
        # target shape would be read at run time when a leading axis is dynamic
        x = ops.dense(x, self.weight, self.bias)
        return self.activation(x) if self.activation_flag else x

    def extend_repr(self) -> str:
        s = f"input_channels={self.in_channels}, output_channels={self.out_channels}"
        if self.has_bias:
            s += f", has_bias={self.has_bias}"
        if self.activation_flag:
            s += f", activation={self.activation}"
        return s


class Flatten(Cell):
    """Flatten the dims from ``start_dim`` to ``end_dim`` into one.

    Args:
        start_dim: first dim to flatten. Default: 1 (keep the batch dim).
        end_dim: last dim to flatten. Default: -1.

    Shape:
        (N, *) -> (N, prod(*)) with the defaults.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.arange(12).reshape(2, 2, 3), ms.float32)
        >>> output = nn.Flatten()(x)
        >>> output.shape
        (2, 6)
        >>> print(output)
        [[ 0.  1.  2.  3.  4.  5.]
         [ 6.  7.  8.  9. 10. 11.]]
    """

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def construct(self, x: Tensor) -> Tensor:
        ndim = x.ndim if x.ndim else 1
        for axis in (self.start_dim, self.end_dim):
            if axis < -ndim or axis >= ndim:
                raise ValueError(f"Flatten: 'start_dim' or 'end_dim' out of range ({axis} for a rank-{ndim} input).")
        return ops.flatten(x, start_dim=self.start_dim, end_dim=self.end_dim)


class Identity(Cell):
    """Returns its input; arguments to the constructor are ignored.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([1, 2, 3, 4]), ms.int64)
        >>> print(nn.Identity()(x))
        [1 2 3 4]
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()

    def construct(self, input: Any) -> Any:
        return input


class Dropout(Cell):
    r"""Zero elements with probability ``p`` in training and scale the kept ones by :math:`1/(1-p)`; the
    identity in evaluation.

    Args:
        keep_prob: the older keyword: probability of keeping an element, in (0, 1]. Default: 0.5.
        p: probability of zeroing an element, in [0, 1); takes precedence over keep_prob. Default: None.
        dtype: ignored (kept for signature compatibility). Default: float32.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.ones((2, 4)), ms.float32)
        >>> dropout = nn.Dropout(p=0.5)
        >>> dropout.set_train(False)
        Dropout(p=0.5)
        >>> print(dropout(x))
        [[1. 1. 1. 1.]
         [1. 1. 1. 1.]]
        >>> dropout.set_train(True)
        Dropout(p=0.5)
        >>> output = dropout(x)
        >>> output.shape
        (2, 4)
        >>> sorted(set(output.asnumpy().ravel().tolist())) in ([0.0, 2.0], [0.0], [2.0])
        True
    """

    def __init__(self, keep_prob: float = 0.5, p: float | None = None, dtype: Any = dtypes.float32) -> None:
        super().__init__()
        if p is None:
            if not isinstance(keep_prob, float):
                raise TypeError(f"For '{self.cls_name}', the 'keep_prob' must be float, but got "
                                f"{type(keep_prob).__name__}.")
            if keep_prob <= 0 or keep_prob > 1:
                raise ValueError(f"For '{self.cls_name}', the 'keep_prob' must be a number in range (0, 1], but got "
                                 f"{keep_prob}.")
            self._drop = 1.0 - keep_prob
        else:
            if isinstance(p, bool) or not isinstance(p, (float, int)):
                raise TypeError(f"For '{self.cls_name}', the 'p' must be float or int, but got {type(p).__name__}.")
            if p < 0 or p >= 1:
                raise ValueError(f"For '{self.cls_name}', the 'p' must be a number in range [0, 1), but got {p}.")
            self._drop = float(p)
        self.p = p
        self.keep_prob = keep_prob
        self.dropout = Primitive("Dropout", _dropout_pair, p=self._drop)

    def construct(self, x: Tensor) -> Tensor:
        if not self.training or self._drop == 0:
            return x
        return ops.dropout(x, p=self._drop, training=True)

    def extend_repr(self) -> str:
        return f"keep_prob={self.keep_prob}" if self.p is None else f"p={self.p}"


def _matmul_transpose_b(a: Tensor, b: Tensor) -> Tensor:
    """MindSpore's MatMul(transpose_b=True) call."""
    return ops.matmul(a, ops.transpose(b, (1, 0)))


def _dropout_pair(x: Tensor, p: float) -> tuple[Tensor, Tensor]:
    """MindSpore's Dropout call: (output, mask), the mask 1 where an element was kept."""
    out = ops.dropout(x, p=p, training=True)
    return out, ops.cast(ops.not_equal(out, 0), x.dtype)


class OneHot(Cell):
    """One-hot encode integer ``indices``: ``on_value`` at the index along a new ``axis`` of size ``depth``.

    Args:
        axis: where the new axis goes. Default: -1.
        depth: number of classes. Default: 1.
        on_value, off_value: the two values. Default: 1.0, 0.0.
        dtype: output dtype. Default: float32.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> indices = Tensor(np.array([0, 2, 1]), ms.int32)
        >>> print(nn.OneHot(depth=3)(indices))
        [[1. 0. 0.]
         [0. 0. 1.]
         [0. 1. 0.]]
    """

    def __init__(self, axis: int = -1, depth: int = 1, on_value: float = 1.0, off_value: float = 0.0,
                 dtype: Any = dtypes.float32) -> None:
        super().__init__()
        self.axis = axis
        self.depth = depth
        self.dtype = dtypes.dtype(dtype)
        self.on_value = on_value
        self.off_value = off_value

    def construct(self, indices: Tensor) -> Tensor:
        on = Tensor(self.on_value, self.dtype)
        off = Tensor(self.off_value, self.dtype)
        return ops.one_hot(indices, self.depth, on, off, self.axis)


class Norm(Cell):
    r"""The L2 norm :math:`\sqrt{\sum x^2}` over ``axis`` (all axes for ``()``).

    Args:
        axis: int or tuple of ints; () reduces every axis. Default: ().
        keep_dims: keep the reduced dims as size 1. Default: False.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([[3.0, 4.0], [6.0, 8.0]]), ms.float32)
        >>> print(nn.Norm(axis=1)(x))
        [ 5. 10.]
    """

    def __init__(self, axis: Any = (), keep_dims: bool = False) -> None:
        super().__init__()
        check_type(self.cls_name, bool, keep_dims=keep_dims)
        self.axis = axis
        self.keep_dims = keep_dims

    def construct(self, x: Tensor) -> Tensor:
        axis = None if self.axis == () else self.axis
        out = ops.sqrt(ops.sum(ops.square(x), axis, keepdim=True))
        if not self.keep_dims:
            out = ops.squeeze(out, axis)
        return out

    def extend_repr(self) -> str:
        return f"axis={self.axis}, keep_dims={self.keep_dims}"


class ClipByNorm(Cell):
    r"""Scale ``x`` so that its L2 norm over ``axis`` is at most ``clip_norm``:
    :math:`x \cdot \text{clip\_norm} / \max(\lVert x \rVert_2, \text{clip\_norm})`.

    Args:
        axis: int or tuple of ints for the norm; None for all axes. Default: None.

    Inputs:
        x (Tensor), clip_norm (Tensor or number, broadcastable to x).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([[3.0, 4.0]]), ms.float32)
        >>> clip_norm = Tensor(np.array([1.0]), ms.float32)
        >>> print(nn.ClipByNorm()(x, clip_norm))
        [[0.6 0.8]]
    """

    def __init__(self, axis: Any = None) -> None:
        super().__init__()
        self.axis = axis

    def construct(self, x: Tensor, clip_norm: Any) -> Tensor:
        norm = ops.sqrt(ops.sum(ops.square(x), self.axis, keepdim=True))
        clip = clip_norm if isinstance(clip_norm, Tensor) else Tensor(clip_norm, x.dtype)
        clip = ops.cast(clip, x.dtype)
        return ops.div(ops.mul(x, clip), ops.maximum(norm, clip))
