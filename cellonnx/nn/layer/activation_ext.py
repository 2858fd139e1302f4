"""More activation layers (MindSpore's nn.layer.activation): CELU, ELU, SeLU, Mish, Softsign, HSigmoid,
Hardtanh, LogSigmoid, Softmin, Softmax2d, LogSoftmaxExt, GLU, FastGelu, RReLU, Threshold, SoftShrink, HShrink,
Tanhshrink, LRN, PReLUExt. Each keeps the operator attribute MindSpore's layer holds (``self.celu`` ...)."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import dtypes, ops
from cellonnx.nn.cell import Cell
from cellonnx.nn.layer._primitive import Primitive
from cellonnx.tensor import Parameter, Tensor

__all__ = [
    "CELU",
    "ELU",
    "GLU",
    "LRN",
    "FastGelu",
    "HShrink",
    "HSigmoid",
    "Hardtanh",
    "LogSigmoid",
    "LogSoftmaxExt",
    "Mish",
    "PReLUExt",
    "RReLU",
    "SeLU",
    "SoftShrink",
    "Softmax2d",
    "Softmin",
    "Softsign",
    "Tanhshrink",
    "Threshold",
]


class CELU(Cell):
    r""":math:`\max(0, x) + \min(0, \alpha (e^{x/\alpha} - 1))`.

    Args:
        alpha (float): Default: 1.0.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([-2.0, -1.0, 0.0, 3.0]), ms.float32)
        >>> print(nn.CELU(alpha=2.0)(x).asnumpy().round(4))
        [-1.2642 -0.7869  0.      3.    ]
    """

    def __init__(self, alpha: float = 1.0) -> None:
        super().__init__()
        if alpha == 0:
            raise ValueError(f"For '{self.cls_name}', the 'alpha' can not be 0.")
        self.celu = Primitive("CeLU", ops.celu, alpha=float(alpha))

    def construct(self, x: Tensor) -> Tensor:
        return self.celu(x)


class ELU(Cell):
    r"""x for x > 0, :math:`\alpha (e^x - 1)` otherwise.

    Args:
        alpha (float): Default: 1.0.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([-2.0, -1.0, 0.0, 2.0]), ms.float32)
        >>> print(nn.ELU(alpha=1.0)(x).asnumpy().round(4))
        [-0.8647 -0.6321  0.      2.    ]
    """

    def __init__(self, alpha: float = 1.0) -> None:
        super().__init__()
        self.elu = Primitive("Elu", ops.elu, alpha=float(alpha))

    def construct(self, x: Tensor) -> Tensor:
        return self.elu(x)


class SeLU(Cell):
    """Scaled ELU with the self-normalising constants (scale 1.0507..., alpha 1.6732...).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([-1.0, 0.0, 2.0]), ms.float32)
        >>> print(nn.SeLU()(x).asnumpy().round(4))
        [-1.1113  0.      2.1014]
    """

    def __init__(self) -> None:
        super().__init__()
        self.selu = Primitive("SeLU", ops.selu)

    def construct(self, input_x: Tensor) -> Tensor:
        return self.selu(input_x)


class Mish(Cell):
    """x * tanh(softplus(x)).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([-1.0, 0.0, 1.0, 2.0]), ms.float32)
        >>> print(nn.Mish()(x).asnumpy().round(4))
        [-0.3034  0.      0.8651  1.944 ]
    """

    def __init__(self) -> None:
        super().__init__()
        self.mish = Primitive("Mish", ops.mish)

    def construct(self, input_x: Tensor) -> Tensor:
        return self.mish(input_x)


class Softsign(Cell):
    """x / (1 + |x|).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([-3.0, 0.0, 1.0, 4.0]), ms.float32)
        >>> print(nn.Softsign()(x))
        [-0.75  0.    0.5   0.8 ]
    """

    def __init__(self) -> None:
        super().__init__()
        self.softsign = Primitive("Softsign", ops.softsign)

    def construct(self, x: Tensor) -> Tensor:
        return self.softsign(x)


class HSigmoid(Cell):
    """Hard sigmoid: relu6(x + 3) / 6.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([-4.0, -1.5, 0.0, 1.5, 4.0]), ms.float32)
        >>> print(nn.HSigmoid()(x))
        [0.   0.25 0.5  0.75 1.  ]
    """

    def __init__(self) -> None:
        super().__init__()
        self.hsigmoid = Primitive("HSigmoid", ops.hardsigmoid)

    def construct(self, input: Tensor) -> Tensor:
        return self.hsigmoid(input)


class Hardtanh(Cell):
    """Clamp to [min_val, max_val].

    Args:
        min_val (float): Default: -1.0.
        max_val (float): Default: 1.0; must be greater than min_val.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([-2.0, -0.5, 0.5, 2.0]), ms.float32)
        >>> print(nn.Hardtanh(min_val=-1.0, max_val=1.0)(x))
        [-1.  -0.5  0.5  1. ]
    """

    def __init__(self, min_val: float = -1.0, max_val: float = 1.0) -> None:
        super().__init__()
        self.min_val = min_val
        self.max_val = max_val
        if self.min_val >= self.max_val:
            raise ValueError(f"For Hardtanh, min_val should be less than max_val,but got {self.min_val} and "
                             f"{self.max_val}")

    def construct(self, x: Tensor) -> Tensor:
        return ops.hardtanh(x, self.min_val, self.max_val)


class LogSigmoid(Cell):
    """log(sigmoid(x)) = -softplus(-x).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([-1.0, 0.0, 1.0, 2.0]), ms.float32)
        >>> print(nn.LogSigmoid()(x).asnumpy().round(4))
        [-1.3133 -0.6931 -0.3133 -0.1269]
    """

    def construct(self, input_x: Tensor) -> Tensor:
        return ops.logsigmoid(input_x)


class Softmin(Cell):
    """softmax(-x) along ``axis``.

    Args:
        axis (Union[int, tuple[int]]): Default: -1.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> print(nn.Softmin(axis=-1)(x).asnumpy().round(4))
        [0.6652 0.2447 0.09  ]
    """

    def __init__(self, axis: Any = -1) -> None:
        super().__init__()
        self.axis = axis

    def construct(self, x: Tensor) -> Tensor:
        return ops.softmin(x, self.axis)


class Softmax2d(Cell):
    """Softmax over the channels (axis -3) of a (C, H, W) or (N, C, H, W) input.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([[[[1.0]], [[1.0]]]]), ms.float32)
        >>> print(nn.Softmax2d()(x))
        [[[[0.5]]
        <BLANKLINE>
          [[0.5]]]]
    """

    def __init__(self) -> None:
        super().__init__()
        self.softmax = Primitive("Softmax", ops.softmax, axis=-3)

    def construct(self, x: Tensor) -> Tensor:
        if x.ndim not in (3, 4):
            raise ValueError(f"For '{self.cls_name}', the in_shape must have 3 or 4 dims, but got {x.ndim}.")
        return self.softmax(x)


class LogSoftmaxExt(Cell):
    """log(softmax(x)) along ``dim``; None picks 0 for inputs of rank 0, 1 or 3 and 1 otherwise.

    Args:
        dim (int, optional): Default: None.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([[1.0, 2.0, 3.0]]), ms.float32)
        >>> print(nn.LogSoftmaxExt(dim=-1)(x).asnumpy().round(4))
        [[-2.4076 -1.4076 -0.4076]]
    """

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def construct(self, x: Tensor) -> Tensor:
        dim = self.dim if self.dim is not None else (0 if x.ndim in (0, 1, 3) else 1)
        return ops.log_softmax(x, dim)


class GLU(Cell):
    r"""Gated linear unit: the input split in halves a, b along ``axis``, :math:`a \sigma(b)`.

    Args:
        axis (int): Default: -1.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([[1.0, 2.0, 0.0, 0.0]]), ms.float32)
        >>> print(nn.GLU(axis=-1)(x))
        [[0.5 1. ]]
    """

    def __init__(self, axis: int = -1) -> None:
        super().__init__()
        self.dim = axis
        self.spilt = Primitive("Split", _halves, axis=axis)
        self.sigmoid = Primitive("Sigmoid", ops.sigmoid)

    def construct(self, x: Tensor) -> Tensor:
        return ops.glu(x, self.dim)


def _halves(x: Tensor, axis: int) -> tuple[Tensor, ...]:
    """MindSpore's Split(axis, output_num=2) call."""
    return tuple(ops.tensor_split(x, 2, axis))


class FastGelu(Cell):
    r"""MindSpore's fast GELU: :math:`x / (1 + e^{-1.702|x|}) \cdot e^{0.851 (x - |x|)}`.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([-1.0, 0.0, 1.0]), ms.float32)
        >>> print(nn.FastGelu()(x).asnumpy().round(4))
        [-0.1542  0.      0.8458]
    """

    def __init__(self) -> None:
        super().__init__()
        self.fast_gelu = Primitive("FastGeLU", ops.fast_gelu)

    def construct(self, x: Tensor) -> Tensor:
        return self.fast_gelu(x)


class RReLU(Cell):
    """Randomized leaky ReLU: negative elements scaled by a slope drawn uniformly from [lower, upper) for each
    element, in training and evaluation alike (as MindSpore's layer does).

    Args:
        lower (Union[int, float]): Default: 1/8.
        upper (Union[int, float]): Default: 1/3.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, nn
        >>> rrelu = nn.RReLU()
        >>> rrelu.set_train(False)
        RReLU()
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> print(rrelu(x))
        [1. 2.]
    """

    def __init__(self, lower: float = 1 / 8, upper: float = 1 / 3) -> None:
        super().__init__()
        for name, v in (("upper", upper), ("lower", lower)):
            if isinstance(v, bool) or not isinstance(v, (float, int)):
                raise TypeError(f"For '{self.cls_name}', the '{name}' must be float or int, but got "
                                f"{type(v).__name__}.")
        if lower > upper:
            raise ValueError(f"For {self.cls_name}, the value of 'upper' must be greater than or equal to "
                             f"'lower', but got upper: {upper}, lower: {lower}. ")
        self.lower = Tensor(lower, dtype=dtypes.float32)
        self.upper = Tensor(upper, dtype=dtypes.float32)
        self._bounds = (float(lower), float(upper))
        self.sign = Primitive("Sign", ops.sign)

    def construct(self, x: Tensor) -> Tensor:
        if not isinstance(x, Tensor):
            raise TypeError(f"For 'rrelu', the input must be a Tensor, but got {type(x)}.")
        return ops.rrelu(x, *self._bounds)


class Threshold(Cell):
    """``x`` where it is greater than ``threshold``, else ``value``.

    Args:
        threshold (Union[int, float]): the threshold.
        value (Union[int, float]): the replacement.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([0.5, 1.5, 2.5, 3.5]), ms.float32)
        >>> print(nn.Threshold(threshold=2.0, value=-1.0)(x))
        [-1.  -1.   2.5  3.5]
    """

    def __init__(self, threshold: float, value: float) -> None:
        super().__init__()
        self.threshold = threshold
        self.value = value

    def construct(self, input_x: Tensor) -> Tensor:
        return ops.threshold(input_x, self.threshold, self.value)


class SoftShrink(Cell):
    r"""Soft shrinkage: :math:`x \mp \lambda` outside :math:`[-\lambda, \lambda]`, 0 inside.

    Args:
        lambd (float): Default: 0.5.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([-1.0, -0.25, 0.25, 1.0]), ms.float32)
        >>> print(nn.SoftShrink(lambd=0.5)(x))
        [-0.5  0.   0.   0.5]
    """

    def __init__(self, lambd: float = 0.5) -> None:
        super().__init__()
        self.softshrink = Primitive("SoftShrink", ops.softshrink, lambd=lambd)

    def construct(self, input: Tensor) -> Tensor:
        return self.softshrink(input)


class HShrink(Cell):
    r"""Hard shrinkage: x where :math:`|x| > \lambda`, else 0.

    Args:
        lambd (float): Default: 0.5.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([-1.0, -0.25, 0.25, 1.0]), ms.float32)
        >>> print(nn.HShrink(lambd=0.5)(x))
        [-1.  0.  0.  1.]
    """

    def __init__(self, lambd: float = 0.5) -> None:
        super().__init__()
        self.hshrink = Primitive("HShrink", ops.hardshrink, lambd=lambd)

    def construct(self, input: Tensor) -> Tensor:
        return self.hshrink(input)


class Tanhshrink(Cell):
    """x - tanh(x).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([-1.0, 0.0, 1.0, 2.0]), ms.float32)
        >>> print(nn.Tanhshrink()(x).asnumpy().round(4))
        [-0.2384  0.      0.2384  1.036 ]
    """

    def construct(self, x: Tensor) -> Tensor:
        return ops.tanhshrink(x)


class LRN(Cell):
    """Local response normalization across the channels of an (N, C, H, W) input (see ``ops.lrn``).

    Args:
        depth_radius (int): Default: 5. bias (float): Default: 1.0. alpha (float): Default: 1.0.
        beta (float): Default: 0.5. norm_region (str): 'ACROSS_CHANNELS'.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.ones((1, 3, 2, 2)), ms.float32)
        >>> nn.LRN(depth_radius=2)(x).shape
        (1, 3, 2, 2)
    """

    def __init__(self, depth_radius: int = 5, bias: float = 1.0, alpha: float = 1.0, beta: float = 0.5,
                 norm_region: str = "ACROSS_CHANNELS") -> None:
        super().__init__()
        self.lrn_op = Primitive("LRN", ops.lrn, depth_radius=depth_radius, bias=bias, alpha=alpha, beta=beta,
                                norm_region=norm_region)

    def construct(self, input_x: Tensor) -> Tensor:
        return self.lrn_op(input_x)


class PReLUExt(Cell):
    """PReLU with a ``weight`` parameter of ``num_parameters`` slopes (1, or the channel count).

    Args:
        num_parameters (int): Default: 1.
        init (float): the initial slope. Default: 0.25.
        dtype: the parameter's dtype. Default: None (float32).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> prelu = nn.PReLUExt(num_parameters=1, init=0.25)
        >>> print(prelu(Tensor(np.array([-2.0, 0.0, 3.0]), ms.float32)))
        [-0.5  0.   3. ]
    """

    def __init__(self, num_parameters: int = 1, init: float = 0.25, dtype: Any = None) -> None:
        super().__init__()
        value = np.full((num_parameters,), init, np.float32)
        self.weight = Parameter(Tensor(value, dtype=dtype), name="weight")

    def construct(self, input: Tensor) -> Tensor:
        return ops.prelu(input, self.weight)
