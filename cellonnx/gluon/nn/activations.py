"""gluon.nn activation layers: Activation, LeakyReLU, PReLU, ELU, SELU, GELU, SiLU, Swish."""
from __future__ import annotations

from typing import Any

from cellonnx import ops
from cellonnx.gluon import init as _init
from cellonnx.gluon.hybrid import HybridBlock
from cellonnx.gluon.parameter import Parameter
from cellonnx.tensor import Tensor

__all__ = ["ELU", "GELU", "SELU", "Activation", "LeakyReLU", "PReLU", "SiLU", "Swish"]

# MXNet's act_type names; softrelu is log(1 + exp(x))
_ACTIVATIONS = {"relu": ops.relu, "sigmoid": ops.sigmoid, "tanh": ops.tanh, "softrelu": ops.softplus,
                "softsign": ops.softsign, "log_sigmoid": ops.logsigmoid, "mish": ops.mish}


class Activation(HybridBlock):
    """Apply an activation function by name: 'relu', 'sigmoid', 'tanh', 'softrelu', 'softsign', 'log_sigmoid'
    or 'mish'.

    Examples:
        >>> from cellonnx.mxnet import np, npx, gluon
        >>> npx.set_np()
        >>> act = gluon.nn.Activation('relu')
        >>> print(act(np.array([-1.0, 0.5, 2.0])))
        [0.  0.5 2. ]
    """

    def __init__(self, activation: str, **kwargs: Any) -> None:
        if activation not in _ACTIVATIONS:
            raise ValueError(f"Activation: unknown activation {activation!r}; expected one of "
                             f"{sorted(_ACTIVATIONS)}")
        self._act_type = activation  # before Block.__init__: it is the 1.x prefix's hint
        super().__init__(**kwargs)
        self._fn = _ACTIVATIONS[activation]

    def _alias(self) -> str:
        return self._act_type

    def forward(self, x: Tensor) -> Tensor:
        return self._fn(x)

    def __repr__(self) -> str:
        return f"Activation({self._act_type})"


class LeakyReLU(HybridBlock):
    """``x`` for x >= 0, ``alpha * x`` otherwise.

    Args:
        alpha: slope of the negative half axis, >= 0.

    Examples:
        >>> from cellonnx.mxnet import np, npx, gluon
        >>> npx.set_np()
        >>> print(gluon.nn.LeakyReLU(0.1)(np.array([-2.0, 0.0, 3.0])))
        [-0.2  0.   3. ]
    """

    def __init__(self, alpha: float, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if alpha < 0:
            raise ValueError(f"LeakyReLU: the slope coefficient must be no less than 0, got {alpha}")
        self._alpha = float(alpha)

    def forward(self, x: Tensor) -> Tensor:
        return ops.leaky_relu(x, self._alpha)

    def __repr__(self) -> str:
        return f"LeakyReLU({self._alpha})"


class PReLU(HybridBlock):
    """Parametric ReLU: ``alpha * x`` for x < 0 with a learned ``alpha`` (one, or one per channel of axis 1).

    Args:
        alpha_initializer: Default: Constant(0.25).
        in_channels: number of slopes, 1 or the channel count. Default: 1.

    Examples:
        >>> from cellonnx.mxnet import np, npx, gluon
        >>> npx.set_np()
        >>> prelu = gluon.nn.PReLU()
        >>> prelu.initialize()
        >>> print(prelu(np.array([-2.0, 0.0, 3.0])))
        [-0.5  0.   3. ]
    """

    def __init__(self, alpha_initializer: Any = None, in_channels: int = 1, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.alpha = Parameter("alpha", shape=(in_channels,),
                               init=_init.Constant(0.25) if alpha_initializer is None else alpha_initializer)

    def forward(self, x: Tensor) -> Tensor:
        return ops.prelu(x, self.alpha)


class ELU(HybridBlock):
    """Exponential linear unit: ``x`` for x > 0, ``alpha * (exp(x) - 1)`` otherwise (Default alpha: 1.0).

    Examples:
        >>> from cellonnx.mxnet import np, npx, gluon
        >>> npx.set_np()
        >>> print(gluon.nn.ELU()(np.array([-2.0, 0.0, 1.0])).asnumpy().round(4))
        [-0.8647  0.      1.    ]
    """

    def __init__(self, alpha: float = 1.0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._alpha = float(alpha)

    def forward(self, x: Tensor) -> Tensor:
        return ops.elu(x, self._alpha)


class SELU(HybridBlock):
    """Scaled exponential linear unit.

    Examples:
        >>> from cellonnx.mxnet import np, npx, gluon
        >>> npx.set_np()
        >>> print(gluon.nn.SELU()(np.array([-1.0, 0.0, 2.0])).asnumpy().round(4))
        [-1.1113  0.      2.1014]
    """

    def forward(self, x: Tensor) -> Tensor:
        return ops.selu(x)


class GELU(HybridBlock):
    """Gaussian error linear unit.

    Args:
        approximation: 'erf' (exact) or 'tanh'. Default: 'erf'.

    Examples:
        >>> from cellonnx.mxnet import np, npx, gluon
        >>> npx.set_np()
        >>> print(gluon.nn.GELU()(np.array([-1.0, 0.0, 1.0])).asnumpy().round(4))
        [-0.1587  0.      0.8413]
    """

    def __init__(self, approximation: str = "erf", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if approximation not in ("erf", "tanh"):
            raise ValueError(f"GELU: approximation must be 'erf' or 'tanh', got {approximation!r}")
        self._approximate = "none" if approximation == "erf" else "tanh"

    def forward(self, x: Tensor) -> Tensor:
        return ops.gelu(x, approximate=self._approximate)


class SiLU(HybridBlock):
    """Sigmoid linear unit: ``x * sigmoid(x)``.

    Examples:
        >>> from cellonnx.mxnet import np, npx, gluon
        >>> npx.set_np()
        >>> print(gluon.nn.SiLU()(np.array([-1.0, 0.0, 1.0])).asnumpy().round(4))
        [-0.2689  0.      0.7311]
    """

    def forward(self, x: Tensor) -> Tensor:
        return ops.silu(x)


class Swish(HybridBlock):
    """Swish: ``x * sigmoid(beta * x)`` (Default beta: 1.0).

    Examples:
        >>> from cellonnx.mxnet import np, npx, gluon
        >>> npx.set_np()
        >>> print(gluon.nn.Swish(beta=1.0)(np.array([-1.0, 0.0, 1.0])).asnumpy().round(4))
        [-0.2689  0.      0.7311]
    """

    def __init__(self, beta: float = 1.0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._beta = float(beta)

    def forward(self, x: Tensor) -> Tensor:
        return ops.mul(x, ops.sigmoid(ops.mul(x, self._beta)))
