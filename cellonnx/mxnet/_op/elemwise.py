"""MXNet's element-wise operators: unary math, binary arithmetic (broadcast_*, elemwise_*, scalar forms) and
comparisons, as tables of MXNet name -> implementation over cellonnx.ops.

MXNet 1.x's comparison and logical operators return 0/1 in the input's dtype (not bool); ``LEGACY`` holds
those, ``NUMPY`` the bool-returning forms of the NumPy interface.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from cellonnx import ops
from cellonnx.mxnet._docs import borrowed
from cellonnx.mxnet._op._util import as_tensor
from cellonnx.tensor import Tensor

__all__ = ["BINARY", "LEGACY_COMPARE", "NUMPY_COMPARE", "UNARY"]


def _unary(f: Callable[[Tensor], Tensor]) -> Callable[..., Tensor]:
    def op(data: Any, **_: Any) -> Tensor:
        return f(as_tensor(data))
    op.__doc__ = borrowed(f.__doc__)
    return op


def _trunc(x: Tensor) -> Tensor:
    return ops.mul(ops.sign(x), ops.floor(ops.abs(x)))


def _gamma(x: Tensor) -> Tensor:
    """Gamma(x) = sign * exp(lgamma(x)); the sign is -1 on (-1, 0), (-3, -2), ..."""
    odd = ops.floor_mod(ops.floor(ops.neg(x)), 2.0)  # 0 on (-1, 0), 1 on (-2, -1), ...
    sign = ops.where(ops.greater(x, 0), ops.ones_like(x), ops.sub(ops.mul(odd, 2.0), 1.0))
    return ops.mul(sign, ops.exp(ops.lgamma(x)))


def _rint(x: Tensor) -> Tensor:
    """The nearest integer, a tie going to the one below (MXNet's rint: -2.5 -> -3, 2.5 -> 2)."""
    below, above = ops.floor(x), ops.ceil(x)
    return ops.where(ops.less_equal(ops.sub(x, below), ops.sub(above, x)), below, above)


def _cbrt(x: Tensor) -> Tensor:
    return ops.mul(ops.sign(x), ops.pow(ops.abs(x), 1.0 / 3.0))


_UNARY_FNS: dict[str, Callable[[Tensor], Tensor]] = {
    "abs": ops.abs, "sign": ops.sign, "exp": ops.exp, "log": ops.log, "sqrt": ops.sqrt, "rsqrt": ops.rsqrt,
    "square": ops.square, "reciprocal": ops.reciprocal, "negative": ops.neg, "floor": ops.floor,
    "ceil": ops.ceil, "round": lambda x: ops.mul(ops.sign(x), ops.floor(ops.add(ops.abs(x), 0.5))),
    "rint": _rint, "fix": _trunc, "trunc": _trunc,
    "sin": ops.sin, "cos": ops.cos, "tan": lambda x: ops.div(ops.sin(x), ops.cos(x)), "tanh": ops.tanh,
    "sinh": lambda x: ops.mul(ops.sub(ops.exp(x), ops.exp(ops.neg(x))), 0.5),
    "cosh": lambda x: ops.mul(ops.add(ops.exp(x), ops.exp(ops.neg(x))), 0.5),
    "arcsinh": lambda x: ops.log(ops.add(x, ops.sqrt(ops.add(ops.square(x), 1.0)))),
    "arccosh": lambda x: ops.log(ops.add(x, ops.sqrt(ops.sub(ops.square(x), 1.0)))),
    "arctanh": lambda x: ops.mul(ops.log(ops.div(ops.add(x, 1.0), ops.sub(1.0, x))), 0.5),
    "arcsin": ops.asin, "arccos": ops.acos, "arctan": ops.atan, "expm1": ops.expm1, "log1p": ops.log1p,
    "log2": lambda x: ops.div(ops.log(x), math.log(2.0)),
    "log10": lambda x: ops.div(ops.log(x), math.log(10.0)),
    "cbrt": _cbrt, "rcbrt": lambda x: ops.reciprocal(_cbrt(x)),
    "degrees": lambda x: ops.mul(x, 180.0 / math.pi), "radians": lambda x: ops.mul(x, math.pi / 180.0),
    "relu": ops.relu, "sigmoid": ops.sigmoid, "softsign": ops.softsign, "erf": ops.erf,
    "erfinv": ops.erfinv, "gamma": _gamma, "gammaln": ops.lgamma,
    "log_sigmoid": ops.logsigmoid, "mish": ops.mish,
    "identity": lambda x: ops.mul(x, 1) if x._data.dtype.kind != "b" else x,
    "stop_gradient": ops.stop_gradient, "zeros_like": ops.zeros_like, "ones_like": ops.ones_like,
    "isnan": ops.isnan, "isinf": ops.isinf, "isfinite": ops.isfinite,
}
_UNARY_ALIASES = {"_copy": "identity", "BlockGrad": "stop_gradient", "fix": "trunc"}

UNARY: dict[str, Callable[..., Tensor]] = {name: _unary(f) for name, f in _UNARY_FNS.items()}
UNARY.update({alias: UNARY[target] for alias, target in _UNARY_ALIASES.items()})


def _operands(lhs: Any, rhs: Any) -> tuple[Tensor, Tensor]:
    if isinstance(lhs, Tensor):
        return lhs, as_tensor(rhs, lhs)
    if isinstance(rhs, Tensor):
        return as_tensor(lhs, rhs), rhs
    return as_tensor(lhs), as_tensor(rhs)


def _binary(f: Callable[[Tensor, Tensor], Tensor]) -> Callable[..., Tensor]:
    def op(lhs: Any, rhs: Any, **_: Any) -> Tensor:
        a, b = _operands(lhs, rhs)
        return f(a, b)
    return op


def _mod(a: Tensor, b: Tensor) -> Tensor:
    # MXNet's mod follows the divisor's sign, as Python's %
    return ops.floor_mod(a, b)


_BINARY_FNS: dict[str, Callable[[Tensor, Tensor], Tensor]] = {
    "add": ops.add, "sub": ops.sub, "mul": ops.mul, "div": ops.div, "mod": _mod, "power": ops.pow,
    "maximum": ops.maximum, "minimum": ops.minimum,
    "hypot": lambda a, b: ops.sqrt(ops.add(ops.square(a), ops.square(b))),
}

BINARY: dict[str, Callable[..., Tensor]] = {}
for _name, _f in _BINARY_FNS.items():
    BINARY[_name] = BINARY[f"broadcast_{_name}"] = _binary(_f)
for _name in ("add", "sub", "mul", "div"):
    BINARY[f"elemwise_{_name}"] = BINARY[_name]
BINARY.update({"plus": BINARY["add"], "minus": BINARY["sub"], "broadcast_plus": BINARY["add"],
               "broadcast_minus": BINARY["sub"], "subtract": BINARY["sub"], "multiply": BINARY["mul"],
               "divide": BINARY["div"], "true_divide": BINARY["div"], "modulo": BINARY["mod"],
               "_plus": BINARY["add"], "_minus": BINARY["sub"], "_mul": BINARY["mul"], "_div": BINARY["div"],
               "_mod": BINARY["mod"], "_power": BINARY["power"], "_maximum": BINARY["maximum"],
               "_minimum": BINARY["minimum"], "_hypot": BINARY["hypot"]})

_COMPARE_FNS: dict[str, Callable[[Tensor, Tensor], Tensor]] = {
    "equal": ops.equal, "not_equal": ops.not_equal, "greater": ops.greater,
    "greater_equal": ops.greater_equal,
    "lesser": ops.less, "lesser_equal": ops.less_equal,
    "logical_and": lambda a, b: ops.logical_and(ops.not_equal(a, 0), ops.not_equal(b, 0)),
    "logical_or": lambda a, b: ops.logical_or(ops.not_equal(a, 0), ops.not_equal(b, 0)),
    "logical_xor": lambda a, b: ops.logical_xor(ops.not_equal(a, 0), ops.not_equal(b, 0)),
}


def _legacy(f: Callable[[Tensor, Tensor], Tensor]) -> Callable[..., Tensor]:
    def op(lhs: Any, rhs: Any, **_: Any) -> Tensor:
        a, b = _operands(lhs, rhs)
        out = f(a, b)
        dt = a._data.dtype if a._data.dtype.kind != "b" else np.dtype(np.float32)
        return ops.cast(out, dt)
    return op


LEGACY_COMPARE: dict[str, Callable[..., Tensor]] = {}
NUMPY_COMPARE: dict[str, Callable[..., Tensor]] = {}
for _name, _f in _COMPARE_FNS.items():
    LEGACY_COMPARE[_name] = LEGACY_COMPARE[f"broadcast_{_name}"] = LEGACY_COMPARE[f"_{_name}"] = _legacy(_f)
    NUMPY_COMPARE[_name] = _binary(_f)
NUMPY_COMPARE["less"] = NUMPY_COMPARE["lesser"]
NUMPY_COMPARE["less_equal"] = NUMPY_COMPARE["lesser_equal"]
