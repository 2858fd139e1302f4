"""Activation layers and ``get_activation(name)``."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import dtypes, ops
from cellonnx.nn.cell import Cell
from cellonnx.nn.layer._primitive import Primitive
from cellonnx.nn.layer._util import check_positive_int, check_type
from cellonnx.tensor import Parameter, Tensor

__all__ = ["GELU", "HSwish", "LeakyReLU", "LogSoftmax", "PReLU", "ReLU", "ReLU6", "SiLU", "Sigmoid", "Softmax",
           "Tanh", "get_activation"]


class ReLU(Cell):
    """max(x, 0).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([-1.0, 2.0, -3.0, 2.0, -1.0]), ms.float32)
        >>> relu = nn.ReLU()
        >>> print(relu(x))
        [0. 2. 0. 2. 0.]
    """

    def __init__(self) -> None:
        super().__init__()
        self.relu = Primitive("ReLU", ops.relu)

    def construct(self, x: Tensor) -> Tensor:
        return ops.relu(x)


class ReLU6(Cell):
    """min(max(x, 0), 6).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([-1.0, 3.0, 6.0, 9.0]), ms.float32)
        >>> print(nn.ReLU6()(x))
        [0. 3. 6. 6.]
    """

    def __init__(self) -> None:
        super().__init__()
        self.relu6 = Primitive("ReLU6", ops.relu6)

    def construct(self, x: Tensor) -> Tensor:
        return ops.relu6(x)


class Sigmoid(Cell):
    """1 / (1 + exp(-x)).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([-2.0, 0.0, 2.0]), ms.float32)
        >>> output = nn.Sigmoid()(x)
        >>> print(output.asnumpy().round(4))
        [0.1192 0.5    0.8808]
    """

    def __init__(self) -> None:
        super().__init__()
        self.sigmoid = Primitive("Sigmoid", ops.sigmoid)

    def construct(self, x: Tensor) -> Tensor:
        return ops.sigmoid(x)


class Tanh(Cell):
    """tanh(x).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([-1.0, 0.0, 1.0, 2.0]), ms.float32)
        >>> output = nn.Tanh()(x)
        >>> print(output.asnumpy().round(4))
        [-0.7616  0.      0.7616  0.964 ]
    """

    def __init__(self) -> None:
        super().__init__()
        self.tanh = Primitive("Tanh", ops.tanh)

    def construct(self, x: Tensor) -> Tensor:
        return ops.tanh(x)


class SiLU(Cell):
    """x * sigmoid(x).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([-1.0, 0.0, 1.0, 2.0]), ms.float32)
        >>> print(nn.SiLU()(x).asnumpy().round(4))
        [-0.2689  0.      0.7311  1.7616]
    """

    def construct(self, x: Tensor) -> Tensor:
        return ops.silu(x)


class HSwish(Cell):
    """x * relu6(x + 3) / 6.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([-4.0, -1.5, 0.0, 1.5, 4.0]), ms.float32)
        >>> print(nn.HSwish()(x))
        [-0.    -0.375  0.     1.125  4.   ]
    """

    def __init__(self) -> None:
        super().__init__()
        self.hswish = Primitive("HSwish", ops.hardswish)

    def construct(self, x: Tensor) -> Tensor:
        return ops.hardswish(x)


class GELU(Cell):
    """Gaussian error linear unit.

    Args:
        approximate: True (MindSpore's default) uses the tanh approximation
            0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))); False the exact x * Phi(x).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([-1.0, 0.0, 1.0, 2.0]), ms.float32)
        >>> print(nn.GELU()(x).asnumpy().round(4))
        [-0.1588  0.      0.8412  1.9546]
        >>> print(nn.GELU(approximate=False)(x).asnumpy().round(4))
        [-0.1587  0.      0.8413  1.9545]
    """

    def __init__(self, approximate: bool = True) -> None:
        super().__init__()
        check_type(self.cls_name, bool, approximate=approximate)
        self.approximate = "tanh" if approximate else "none"

    def construct(self, x: Tensor) -> Tensor:
        return ops.gelu(x, approximate=self.approximate)


class LeakyReLU(Cell):
    """x for x >= 0, alpha * x otherwise.

    Args:
        alpha: slope of the negative part. Default: 0.2.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([[-1.0, 4.0, -8.0], [2.0, -5.0, 9.0]]), ms.float32)
        >>> leaky_relu = nn.LeakyReLU(alpha=0.5)
        >>> print(leaky_relu(x))
        [[-0.5  4.  -4. ]
         [ 2.  -2.5  9. ]]
    """

    def __init__(self, alpha: float = 0.2) -> None:
        super().__init__()
        self.alpha = alpha

    def construct(self, x: Tensor) -> Tensor:
        return ops.leaky_relu(x, self.alpha)


class PReLU(Cell):
    """Leaky ReLU with a learned slope per channel (axis 1): parameter ``w`` (named 'a' as in MindSpore).

    Args:
        channel: number of slopes (1, or the input's channel count). Default: 1.
        w: initial slope: a float, a list of ``channel`` floats or a (channel,) tensor. Default: 0.25.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([[-2.0, 1.0], [3.0, -4.0]]), ms.float32)
        >>> prelu = nn.PReLU(channel=1, w=0.25)
        >>> print(prelu(x))
        [[-0.5  1. ]
         [ 3.  -1. ]]
    """

    def __init__(self, channel: int = 1, w: Any = 0.25) -> None:
        super().__init__()
        check_positive_int(self.cls_name, channel=channel)
        if isinstance(w, (float, np.floating)):
            value = Tensor(np.full((channel,), w, np.float32))
        elif isinstance(w, list):
            if len(w) != channel:
                raise ValueError(f"For '{self.cls_name}', the length of 'w' must be equal to the 'channel' when the "
                                 f"'w' is a list, but got the length of 'w': {len(w)}, the 'channel': {channel}.")
            value = Tensor(np.asarray(w, np.float32))
        elif isinstance(w, Tensor):
            if w.dtype not in (dtypes.float16, dtypes.float32):
                raise ValueError(f"For '{self.cls_name}', the dtype of 'w' must be float16 or float32 when the 'w' "
                                 f"is a tensor, but got {w.dtype}.")
            if tuple(w.shape) != (channel,):
                raise ValueError(f"For '{self.cls_name}', 'w' must have shape ({channel},), got {tuple(w.shape)}.")
            value = w
        else:
            raise TypeError(f"For '{self.cls_name}', the 'w' only supported float, list and tensor, but got "
                            f"{type(w).__name__}.")
        self.w = Parameter(value, name="a")
        self.prelu = Primitive("PReLU", ops.prelu)

    def construct(self, x: Tensor) -> Tensor:
        return ops.prelu(x, ops.cast(self.w, x.dtype))


class Softmax(Cell):
    """exp(x) / sum(exp(x)) along ``axis`` (default -1).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]]), ms.float32)
        >>> softmax = nn.Softmax(axis=-1)
        >>> output = softmax(x)
        >>> print(output.asnumpy().round(4))
        [[0.09   0.2447 0.6652]
         [0.3333 0.3333 0.3333]]
    """

    def __init__(self, axis: int = -1) -> None:
        super().__init__()
        self.axis = axis
        self.softmax = Primitive("Softmax", ops.softmax, axis=axis)

    def construct(self, x: Tensor) -> Tensor:
        return ops.softmax(x, self.axis)


class LogSoftmax(Cell):
    """log(softmax(x)) along ``axis`` (default -1).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]]), ms.float32)
        >>> output = nn.LogSoftmax(axis=-1)(x)
        >>> print(output.asnumpy().round(4))
        [[-2.4076 -1.4076 -0.4076]
         [-1.0986 -1.0986 -1.0986]]
    """

    def __init__(self, axis: int = -1) -> None:
        super().__init__()
        self.axis = axis
        self.log_softmax = Primitive("LogSoftmax", ops.log_softmax, axis=axis)

    def construct(self, x: Tensor) -> Tensor:
        return ops.log_softmax(x, self.axis)


_ACTIVATIONS: dict[str, type[Cell]] = {
    "softmax": Softmax,
    "logsoftmax": LogSoftmax,
    "relu": ReLU,
    "relu6": ReLU6,
    "silu": SiLU,
    "tanh": Tanh,
    "gelu": GELU,
    "sigmoid": Sigmoid,
    "prelu": PReLU,
    "leakyrelu": LeakyReLU,
    "hswish": HSwish,
}


def _register_more() -> None:
    """MindSpore's full table (the classes of activation_ext import this module's Cell helpers)."""
    from cellonnx.nn.layer import activation_ext as ext
    _ACTIVATIONS.update({
        "softmin": ext.Softmin, "softmax2d": ext.Softmax2d, "logsoftmaxExt": ext.LogSoftmaxExt,
        "rrelu": ext.RReLU, "tanhshrink": ext.Tanhshrink, "hardtanh": ext.Hardtanh, "fast_gelu": ext.FastGelu,
        "elu": ext.ELU, "softsign": ext.Softsign, "preluExt": ext.PReLUExt, "hsigmoid": ext.HSigmoid,
        "logsigmoid": ext.LogSigmoid, "softshrink": ext.SoftShrink, "hshrink": ext.HShrink,
        "threshold": ext.Threshold, "mish": ext.Mish,
    })


def get_activation(name: str | None, prim_name: str | None = None) -> Cell | None:
    """The activation layer called ``name`` (None for None).

    Args:
        name: 'relu', 'relu6', 'gelu', 'sigmoid', 'tanh', 'softmax', 'logsoftmax', 'silu', 'prelu',
            'leakyrelu' or 'hswish'.
        prim_name: the caller's name for the error message.

    Raises:
        KeyError: for an unknown name.

    Examples:
        >>> nn.get_activation('relu')
        ReLU()
    """
    if name is None:
        return None
    if "mish" not in _ACTIVATIONS:
        _register_more()
    if name not in _ACTIVATIONS:
        prefix = f"For '{prim_name}', the" if prim_name else "The"
        raise KeyError(f"{prefix} 'name' must be in {list(_ACTIVATIONS)}, but got {name}.")
    return _ACTIVATIONS[name]()
