"""Attach NumPy-style operators and MindSpore's Tensor methods to Tensor; each is a thin call into ops."""
from __future__ import annotations

from typing import Any

from cellonnx import dtypes
from cellonnx import ops as F
from cellonnx.tensor import Tensor


def _shape_args(shape: tuple) -> Any:
    return shape[0] if len(shape) == 1 and isinstance(shape[0], (tuple, list)) else shape


def _reshape(self: Tensor, *shape: Any) -> Tensor:
    return F.reshape(self, _shape_args(shape))


def _transpose(self: Tensor, *axes: Any) -> Tensor:
    axes = _shape_args(axes)
    if not axes:
        axes = tuple(range(self.ndim))[::-1]
    return F.transpose(self, axes)


def _flatten(self: Tensor, order: str = "C", *, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    return F.flatten(self, order, start_dim=start_dim, end_dim=end_dim)


def _sum(self: Tensor, axis: Any = None, dtype: Any = None, keepdims: bool = False, initial: Any = None) -> Tensor:
    out = F.sum(self, axis, keepdims, dtype=dtype)
    return out if initial is None else F.add(out, initial)


def _mean(self: Tensor, axis: Any = None, keep_dims: bool = False) -> Tensor:
    return F.mean(self, axis, keep_dims)


def _max(self: Tensor, axis: Any = None, keepdims: bool = False, *, return_indices: bool = False, **_: Any) -> Any:
    if axis is None or isinstance(axis, (tuple, list)):
        return F.amax(self, axis, keepdims)
    out = F.max(self, axis, keepdims)
    return out if return_indices else out[0]


def _min(self: Tensor, axis: Any = None, keepdims: bool = False, *, return_indices: bool = False, **_: Any) -> Any:
    if axis is None or isinstance(axis, (tuple, list)):
        return F.amin(self, axis, keepdims)
    out = F.min(self, axis, keepdims)
    return out if return_indices else out[0]


def _argmax(self: Tensor, axis: Any = None, keepdims: bool = False) -> Tensor:
    return F.argmax(self, axis, keepdims)


def _argmin(self: Tensor, axis: Any = None, keepdims: bool = False) -> Tensor:
    return F.argmin(self, axis, keepdims)


def _astype(self: Tensor, dtype: Any, copy: bool = True) -> Tensor:
    return F.cast(self, dtype)


def _copy(self: Tensor) -> Tensor:
    return Tensor(self._data.copy())


def _expand_as(self: Tensor, other: Tensor) -> Tensor:
    return F.broadcast_to(self, other.shape)


def _rev(fn: Any) -> Any:
    return lambda self, other: fn(other, self)


_METHODS: dict[str, Any] = {
    # operators
    "__add__": F.add, "__radd__": _rev(F.add), "__sub__": F.sub, "__rsub__": _rev(F.sub),
    "__mul__": F.mul, "__rmul__": _rev(F.mul), "__truediv__": F.div, "__rtruediv__": _rev(F.div),
    "__floordiv__": F.floor_div, "__rfloordiv__": _rev(F.floor_div), "__mod__": F.floor_mod,
    "__rmod__": _rev(F.floor_mod), "__pow__": F.pow, "__rpow__": _rev(F.pow),
    "__matmul__": F.matmul, "__rmatmul__": _rev(F.matmul), "__neg__": F.neg, "__abs__": F.abs,
    "__pos__": lambda self: self,
    "__eq__": F.equal, "__ne__": F.not_equal, "__lt__": F.less, "__le__": F.less_equal,
    "__gt__": F.greater, "__ge__": F.greater_equal,
    "__and__": lambda a, b: F.logical_and(a, b), "__or__": lambda a, b: F.logical_or(a, b),
    "__xor__": lambda a, b: F.logical_xor(a, b), "__invert__": F.logical_not,
    # math
    "add": F.add, "sub": F.sub, "mul": F.mul, "div": F.div, "pow": F.pow, "neg": F.neg, "abs": F.abs,
    "exp": F.exp, "log": F.log, "sqrt": F.sqrt, "rsqrt": F.rsqrt, "square": F.square, "sin": F.sin,
    "cos": F.cos, "tanh": F.tanh, "sigmoid": F.sigmoid, "sign": F.sign, "reciprocal": F.reciprocal,
    "floor": F.floor, "ceil": F.ceil, "round": F.round, "relu": F.relu, "erf": F.erf,
    "clip": F.clamp, "clamp": F.clamp, "maximum": F.maximum, "minimum": F.minimum, "isnan": F.isnan,
    "isinf": F.isinf, "equal": F.equal, "matmul": F.matmul, "logical_not": F.logical_not,
    # shape
    "reshape": _reshape, "view": _reshape, "transpose": _transpose, "permute": _transpose,
    "expand_dims": F.expand_dims, "unsqueeze": F.expand_dims, "squeeze": F.squeeze, "flatten": _flatten,
    "broadcast_to": F.broadcast_to, "expand_as": _expand_as, "swapaxes": F.swapaxes,
    # reductions
    "sum": _sum, "mean": _mean, "max": _max, "min": _min, "argmax": _argmax, "argmin": _argmin,
    "prod": F.prod, "amax": F.amax, "amin": F.amin, "all": F.all, "any": F.any,
    # dtype
    "astype": _astype, "to": _astype, "copy": _copy,
    "float": lambda self: F.cast(self, dtypes.float32), "half": lambda self: F.cast(self, dtypes.float16),
    "int": lambda self: F.cast(self, dtypes.int32), "long": lambda self: F.cast(self, dtypes.int64),
    "bool": lambda self: F.cast(self, dtypes.bool_), "double": lambda self: F.cast(self, dtypes.float64),
}


def install(extra: dict[str, Any] | None = None) -> None:
    """Attach the methods (family modules may add their own through ``extra``)."""
    for name, fn in {**_METHODS, **(extra or {})}.items():
        setattr(Tensor, name, fn)
    Tensor.__hash__ = object.__hash__  # defining __eq__ would otherwise drop it
    Tensor.T = property(lambda self: _transpose(self))  # type: ignore[attr-defined]
    Tensor.mT = property(lambda self: F.swapaxes(self, -1, -2))  # type: ignore[attr-defined]


install()
for _mod in F._modules:
    if hasattr(_mod, "TENSOR_METHODS"):
        install(_mod.TENSOR_METHODS)


def _install_mindspore_methods() -> None:
    """MindSpore's further Tensor methods (cellonnx/ops/tensor_methods_ms.py) where nothing above set one."""
    from cellonnx.ops import tensor_methods_fill, tensor_methods_ms

    methods = {**tensor_methods_ms.TENSOR_METHODS, **tensor_methods_fill.TENSOR_METHODS,
               **{name: tensor_methods_ms._inplace(fn, name)
                  for name, fn in tensor_methods_fill.INPLACE.items()}}
    install({name: fn for name, fn in methods.items() if name not in Tensor.__dict__})
    install(tensor_methods_fill.OVERRIDES)
    from cellonnx.ops.tensor_method_overloads import overloads
    install(overloads())


def _install_unsupported() -> None:
    """MindSpore's Tensor / Parameter attributes with no meaning here: using one raises naming it
    (cellonnx/unsupported.py lists each with its reason)."""
    from cellonnx.tensor import Parameter
    from cellonnx.unsupported import UNSUPPORTED_METHODS, UNSUPPORTED_PROPERTIES, UnsupportedAttribute

    for cls in (Tensor, Parameter):
        for name, reason in UNSUPPORTED_METHODS[cls.__name__].items():
            if name not in cls.__dict__:
                setattr(cls, name, UnsupportedAttribute(f"mindspore.{cls.__name__}.{name}", reason,
                                                        name in UNSUPPORTED_PROPERTIES))


_install_mindspore_methods()
_install_unsupported()
