"""More basic layers (MindSpore's nn.layer.basic): Linear, Dropout1d/2d/3d, DropoutExt, Dropout2dExt,
Upsample,
Unflatten, Unfold, Roll, Tril, Triu, MatrixDiag, MatrixDiagPart, MatrixSetDiag and L1Regularizer."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from cellonnx import dtypes, ops
from cellonnx.nn.cell import Cell
from cellonnx.nn.layer._primitive import Primitive
from cellonnx.nn.layer._util import check_positive_int, check_type, weight_and_bias
from cellonnx.ops.prims._util import is_float_dtype, norm_axis
from cellonnx.tensor import Parameter, Tensor

__all__ = ["Dropout1d", "Dropout2d", "Dropout2dExt", "Dropout3d", "DropoutExt", "L1Regularizer", "Linear",
           "MatrixDiag", "MatrixDiagPart", "MatrixSetDiag", "Roll", "Tril", "Triu", "Unflatten", "Unfold",
           "Upsample"]


class Linear(Cell):
    r"""The fully connected layer :math:`y = x W^T + b` with PyTorch-style argument names.

    Args:
        in_features (int): size of the input's last dim.
        out_features (int): size of the output's last dim.
        bias (bool): whether there is a bias. Default: True.
        weight_init, bias_init: initializers of the (out_features, in_features) weight and the bias. Default:
            HeUniform(sqrt(5)) and U(-1/sqrt(in_features), 1/sqrt(in_features)).
        dtype: parameter dtype. Default: None (float32).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> net = nn.Linear(3, 4)
        >>> net(Tensor(np.ones((2, 3)), ms.float32)).shape
        (2, 4)
        >>> net.weight.shape
        (4, 3)
    """

    def __init__(self, in_features: int, out_features: int, bias: bool = True, weight_init: Any = None,
                 bias_init: Any = None, dtype: Any = None) -> None:
        super().__init__()
        check_positive_int(self.cls_name, in_features=in_features, out_features=out_features)
        check_type(self.cls_name, bool, has_bias=bias)
        self.in_features = in_features
        self.out_features = out_features
        self.has_bias = bias
        for name, init, shape in (("weight", weight_init, (out_features, in_features)),
                                  ("bias", bias_init, (out_features,))):
            if isinstance(init, Tensor) and tuple(init.shape) != shape and (name == "weight" or bias):
                raise ValueError(f"For '{self.cls_name}', {name} init shape error: expected {shape}, got "
                                 f"{tuple(init.shape)}.")
        self.weight: Parameter
        self.bias: Parameter | None
        self.weight, self.bias, _, _ = weight_and_bias(weight_init, bias_init, [out_features, in_features],
                                                       out_features, bias, dtype or dtypes.float32)
        self.dense = Primitive("Dense", ops.dense)

    def construct(self, x: Tensor) -> Tensor:
        return ops.dense(x, self.weight, self.bias)

    def extend_repr(self) -> str:
        s = f"input_features={self.in_features}, output_features={self.out_features}"
        return s + (f", has_bias={self.has_bias}" if self.has_bias else "")


def _check_p(owner: str, p: Any) -> float:
    if not isinstance(p, float):
        raise TypeError(f"For '{owner}', the 'p' must be float, but got {type(p).__name__}.")
    if p < 0 or p > 1:
        raise ValueError(f"For '{owner}', the 'p' must be a number in range [0, 1], but got {p}.")
    return p


class Dropout1d(Cell):
    """Zero whole channels of (N, C, L) or (C, L) with probability ``p`` in training (kept ones scaled by
    1 / (1 - p)); the identity in evaluation.

    Args:
        p (float): Default: 0.5.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> dropout = nn.Dropout1d(p=0.5)
        >>> x = Tensor(np.ones((2, 3, 4)), ms.float32)
        >>> dropout(x).shape
        (2, 3, 4)
    """

    def __init__(self, p: float = 0.5) -> None:
        super().__init__()
        self.prob = _check_p(self.cls_name, p)

    def construct(self, x: Tensor) -> Tensor:
        if not self.training or self.prob == 0:
            return x
        return ops.dropout1d(x, self.prob)


class Dropout2d(Cell):
    """Zero whole channels of (N, C, H, W) with probability ``p`` in training; the identity in evaluation.

    Args:
        p (float): Default: 0.5.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> dropout = nn.Dropout2d(p=0.5)
        >>> x = Tensor(np.ones((2, 3, 4, 4)), ms.float32)
        >>> dropout(x).shape
        (2, 3, 4, 4)
    """

    _ranks = (4,)

    def __init__(self, p: float = 0.5) -> None:
        super().__init__()
        self.keep_prob = 1.0 - _check_p(self.cls_name, p)

    def construct(self, x: Tensor) -> Tensor:
        if not self.training or self.keep_prob == 1:
            return x
        fn = ops.dropout2d if self._ranks == (4,) else ops.dropout3d
        return fn(x, 1.0 - self.keep_prob)

    def extend_repr(self) -> str:
        return f"p={self.keep_prob}"  # MindSpore prints the keep probability under this name


class Dropout3d(Dropout2d):
    """Zero whole channels of (N, C, D, H, W) with probability ``p`` in training; the identity in evaluation.

    Args:
        p (float): Default: 0.5.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> dropout = nn.Dropout3d(p=0.5)
        >>> dropout(Tensor(np.ones((2, 3, 2, 2, 2)), ms.float32)).shape
        (2, 3, 2, 2, 2)
    """

    _ranks = (5,)


class DropoutExt(Cell):
    """Zero elements with probability ``p`` in training (kept ones scaled by 1 / (1 - p)).

    Args:
        p (float): Default: 0.5.
        inplace (bool): accepted for signature compatibility (cellonnx tensors are not updated in place).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> dropout = nn.DropoutExt(p=0.5)
        >>> dropout.set_train(False)
        DropoutExt()
        >>> print(dropout(Tensor(np.ones((2, 3)), ms.float32)))
        [[1. 1. 1.]
         [1. 1. 1.]]
    """

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        self.p = p
        self.inplace = inplace

    def construct(self, input: Tensor) -> Tensor:
        if not self.training or self.p == 0:
            return input
        return ops.dropout(input, p=float(self.p), training=True)


class Dropout2dExt(DropoutExt):
    """Zero whole channels of (N, C, H, W) or (C, H, W) with probability ``p`` in training.

    Args:
        p (float): Default: 0.5. inplace (bool): accepted for signature compatibility.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, nn
        >>> dropout = nn.Dropout2dExt(p=0.5)
        >>> dropout.set_train(False)
        Dropout2dExt()
        >>> x = Tensor(np.ones((1, 2, 2, 2)), ms.float32)
        >>> print(dropout(x).shape)
        (1, 2, 2, 2)
    """

    def construct(self, input: Tensor) -> Tensor:
        if not self.training or self.p == 0:
            return input
        if input.ndim == 3:
            return ops.squeeze(ops.dropout2d(ops.expand_dims(input, 0), float(self.p)), 0)
        return ops.dropout2d(input, float(self.p))


class Upsample(Cell):
    """Resize the spatial dims of the input (see ``ops.interpolate``).

    Args:
        size, scale_factor, mode, align_corners, recompute_scale_factor: as ``ops.interpolate``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([[[[1.0, 2.0], [3.0, 4.0]]]]), ms.float32)
        >>> print(nn.Upsample(size=(4, 4), mode='nearest')(x))
        [[[[1. 1. 2. 2.]
           [1. 1. 2. 2.]
           [3. 3. 4. 4.]
           [3. 3. 4. 4.]]]]
    """

    def __init__(self, size: Any = None, scale_factor: Any = None, mode: str = "nearest",
                 align_corners: bool | None = None, recompute_scale_factor: bool | None = None) -> None:
        super().__init__()
        self.size = size
        self.scale_factor = scale_factor
        self.mode = mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def construct(self, x: Tensor) -> Tensor:
        return ops.interpolate(x, self.size, self.scale_factor, self.mode, self.align_corners,
                               self.recompute_scale_factor)


class Unflatten(Cell):
    """Expand dim ``axis`` into ``unflattened_size``.

    Args:
        axis (int): the dim to expand.
        unflattened_size (Union[tuple, list]): the new dims (product equal to the old size; one may be -1).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.arange(12).reshape(2, 6), ms.float32)
        >>> nn.Unflatten(1, (2, 3))(x).shape
        (2, 2, 3)
    """

    def __init__(self, axis: int, unflattened_size: Any) -> None:
        super().__init__()
        if isinstance(axis, bool) or not isinstance(axis, int):
            raise TypeError(f"For 'Unflatten', the 'axis' must be int, but got {type(axis).__name__}.")
        if not isinstance(unflattened_size, (tuple, list)):
            raise TypeError("For 'Unflatten', the 'unflattended_size' must be tuple or list, but got "
                            f"{type(unflattened_size).__name__}.")
        self.axis = axis
        self.unflattened_size = tuple(unflattened_size)

    def construct(self, input_x: Tensor) -> Tensor:
        shape = tuple(input_x.shape)
        new_shape = shape[:self.axis] + self.unflattened_size
        if self.axis != -1:
            new_shape += shape[self.axis + 1:]
        return ops.reshape(input_x, new_shape)


class Unfold(Cell):
    """Extract image patches (MindSpore's ExtractImagePatches): (N, C, H, W) -> (N, C * kh * kw, out_h,
    out_w),
    the patch values ordered (kernel row, kernel column, channel), channel fastest.

    Args:
        ksizes, strides, rates (Union[tuple, list]): [1, row, col, 1] each: patch size, step between patches,
            and the spacing of the sampled pixels.
        padding (str): 'valid' (patches inside the input) or 'same' (out = ceil(in / stride), zero padding
            split evenly with the odd pixel at the end). Default: 'valid'.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> net = nn.Unfold(ksizes=[1, 2, 2, 1], strides=[1, 1, 1, 1], rates=[1, 1, 1, 1])
        >>> x = Tensor(np.ones((1, 3, 4, 4)), ms.float32)
        >>> net(x).shape
        (1, 12, 3, 3)
    """

    def __init__(self, ksizes: Any, strides: Any, rates: Any, padding: str = "valid") -> None:
        super().__init__()
        for name, value in (("ksize", ksizes), ("stride", strides), ("rate", rates)):
            if not isinstance(value, (tuple, list)):
                raise TypeError(f"For '{self.cls_name}', the '{name}s' must be tuple or list, but got "
                                f"{type(value).__name__}.")
            if len(value) != 4 or value[0] != 1 or value[3] != 1:
                raise ValueError(f"For '{self.cls_name}' the format of '{name}s' must be [1, {name}_row, "
                                 f"{name}_col, 1], but got {value}.")
            if not all(isinstance(v, int) and v >= 1 for v in value[1:3]):
                raise ValueError(f"For '{self.cls_name}' the {name}_row and {name}_col in '{name}s' must be "
                                 f"an positive integer number, but got {value}")
        if not isinstance(padding, str) or padding.lower() not in ("same", "valid"):
            raise ValueError(f"For '{self.cls_name}', the 'padding' must be 'same' or 'valid', but got "
                             f"{padding!r}.")
        self.ksizes = (int(ksizes[1]), int(ksizes[2]))
        self.strides = (int(strides[1]), int(strides[2]))
        self.rates = (int(rates[1]), int(rates[2]))
        self.padding = padding.lower()

    def construct(self, input_x: Tensor) -> Tensor:
        from cellonnx.ops.composite.patches import extract_image_patches

        return extract_image_patches(input_x, (1, 1, *self.ksizes), (1, 1, *self.strides),
                                     (1, 1, *self.rates), self.padding.upper())


class Roll(Cell):
    """Roll the elements along ``axis`` by ``shift`` (elements past the end come back at the start).

    Args:
        shift (Union[int, tuple[int], list[int]]): the shifts.
        axis (Union[int, tuple[int], list[int]]): the axes, one per shift.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([0.0, 1.0, 2.0, 3.0, 4.0]), ms.float32)
        >>> print(nn.Roll(shift=2, axis=0)(x))
        [3. 4. 0. 1. 2.]
    """

    def __init__(self, shift: Any, axis: Any) -> None:
        super().__init__()
        for name, value in (("shift", shift), ("axis", axis)):
            if isinstance(value, bool) or not isinstance(value, (int, tuple, list)):
                raise TypeError(f"For '{self.cls_name}', the '{name}' must be int, tuple or list, but got "
                                f"{type(value).__name__}.")
        self.shift = list(shift) if isinstance(shift, (tuple, list)) else [shift]
        self.axis = list(axis) if isinstance(axis, (tuple, list)) else [axis]
        if len(self.shift) != len(self.axis):
            raise ValueError(f"For '{self.cls_name}', the shape of 'shift' and the shape of 'axis' must be "
                             f"the same, but got the length of 'shift' {len(self.shift)} and the length of "
                             f"'axis' {len(self.axis)}.")

    def construct(self, input_x: Tensor) -> Tensor:
        axes = [norm_axis(a, input_x.ndim, self.cls_name) for a in self.axis]
        return ops.roll(input_x, tuple(self.shift), tuple(axes))


def _band(x: Tensor, k: int, lower: bool, owner: str) -> Tensor:
    if x.ndim < 1:
        raise ValueError(f"For '{owner}', the input must be at least 1-D.")
    if isinstance(k, bool) or not isinstance(k, int):
        raise TypeError(f"For '{owner}', the 'k' must be int, but got {type(k).__name__}.")
    band = ops.tril if lower else ops.triu
    if is_float_dtype(x._data.dtype):  # a product with the mask, as MindSpore (inf / nan outside give nan)
        ones = ops.ones_like(x if x.ndim >= 2 else ops.expand_dims(x, 0))
        mask = band(ones, k)
        return ops.mul(x, mask if x.ndim >= 2 else mask[0])
    # MindSpore multiplies in float32 and casts back
    return ops.cast(_band(ops.cast(x, dtypes.float32), k, lower, owner), x.dtype)


class Tril(Cell):
    """The lower triangle of the last two dims (at and below diagonal ``k``), the rest zeros.

    Inputs:
        x (Tensor), k (int, default 0): 0 the main diagonal, > 0 above it, < 0 below it.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.arange(1, 10).reshape(3, 3), ms.int32)
        >>> print(nn.Tril()(x))
        [[1 0 0]
         [4 5 0]
         [7 8 9]]
    """

    def construct(self, x: Tensor, k: int = 0) -> Tensor:
        return _band(x, k, True, self.cls_name)


class Triu(Cell):
    """The upper triangle of the last two dims (at and above diagonal ``k``), the rest zeros.

    Inputs:
        x (Tensor), k (int, default 0).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.arange(1, 10).reshape(3, 3), ms.int32)
        >>> print(nn.Triu()(x, 1))
        [[0 2 3]
         [0 0 6]
         [0 0 0]]
    """

    def construct(self, x: Tensor, k: int = 0) -> Tensor:
        return _band(x, k, False, self.cls_name)


class MatrixDiag(Cell):
    """Batched diagonal matrices: (..., n) -> (..., n, n) with the input on the diagonal.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> print(nn.MatrixDiag()(Tensor(np.array([1.0, 2.0]), ms.float32)))
        [[1. 0.]
         [0. 2.]]
    """

    def construct(self, input_x: Tensor) -> Tensor:
        n = input_x.shape[-1]
        return ops.mul(ops.expand_dims(input_x, -2), ops.eye(n, n, input_x.dtype))


class MatrixDiagPart(Cell):
    """The batched main diagonals: (..., m, n) -> (..., min(m, n)).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.arange(9).reshape(3, 3), ms.float32)
        >>> print(nn.MatrixDiagPart()(x))
        [0. 4. 8.]
    """

    def construct(self, input_x: Tensor) -> Tensor:
        if input_x.ndim < 2:
            raise ValueError(f"For '{self.cls_name}', the input must be at least 2-D, got "
                             f"{tuple(input_x.shape)}.")
        m, n = input_x.shape[-2], input_x.shape[-1]
        diag = ops.sum(ops.mul(input_x, ops.eye(m, n, input_x.dtype)), -1)
        return diag[..., :n]  # min(m, n) values (a no-op slice where m <= n)


class MatrixSetDiag(Cell):
    """Replace the batched main diagonals: (..., m, n) with diagonal (..., min(m, n)) -> (..., m, n).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.zeros((2, 2)), ms.float32)
        >>> diagonal = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> print(nn.MatrixSetDiag()(x, diagonal))
        [[1. 0.]
         [0. 2.]]
    """

    def construct(self, input_x: Tensor, diagonal: Tensor) -> Tensor:
        if input_x.ndim < 2:
            raise ValueError(f"For '{self.cls_name}', the input must be at least 2-D, got "
                             f"{tuple(input_x.shape)}.")
        m, n = input_x.shape[-2], input_x.shape[-1]
        if int(diagonal.shape[-1]) != min(int(m), int(n)):
            raise ValueError(f"For '{self.cls_name}', the diagonal must have {min(int(m), int(n))} "
                             f"elements in its last dim, got shape {tuple(diagonal.shape)}.")
        eye = ops.eye(m, n, input_x.dtype)
        # the diagonal runs along the shorter of the two axes: d[i] goes to row i (m <= n) or column i
        d = ops.expand_dims(diagonal, -1 if int(m) <= int(n) else -2)
        return ops.add(ops.mul(input_x, ops.sub(1, eye)), ops.mul(d, eye))


class L1Regularizer(Cell):
    """scale * sum(|weights|).

    Args:
        scale (Union[int, float]): a positive, finite factor.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> weights = Tensor(np.array([[1.0, -2.0], [3.0, -4.0]]), ms.float32)
        >>> print(nn.L1Regularizer(scale=0.5)(weights))
        5.0
    """

    def __init__(self, scale: float) -> None:
        super().__init__()
        if isinstance(scale, bool) or not isinstance(scale, (int, float)):
            raise TypeError(f"For '{self.cls_name}', the 'scale' must be int or float, but got "
                            f"{type(scale).__name__}.")
        if scale <= 0:
            raise ValueError(f"For '{self.cls_name}', the 'scale' must be greater than 0, but got {scale}.")
        if math.isinf(scale) or math.isnan(scale):
            raise ValueError(f"For '{self.cls_name}', the 'scale' can not be INF or NAN, but got {scale}.")
        self.scale = Tensor(scale, dtype=dtypes.float32)

    def construct(self, weights: Tensor) -> Tensor:
        if weights.dtype == dtypes.bool_:
            raise TypeError(f"For '{self.cls_name}', 'weights' must be a number tensor, but got "
                            f"{weights.dtype}.")
        return ops.mul(self.scale, ops.sum(ops.abs(weights)))
