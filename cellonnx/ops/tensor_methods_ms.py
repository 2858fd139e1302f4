"""More of MindSpore 2.10's Tensor methods: the ops functions taking the tensor first (``x.cosh()`` is
``ops.cosh(x)``), MindSpore's method forms where they differ from the function (``x.where(condition, y)``,
``x.count_nonzero(dim)``), creation helpers (``new_zeros``), dtype helpers, and the in-place forms
(``x.add_(y)``), which write their result into the tensor and return it, as MindSpore documents."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import dtypes
from cellonnx import ops as F
from cellonnx.tensor import Tensor

# methods that are the ops function of the same name with the tensor as its first argument
SAME_AS_OPS = (
    "absolute", "acos", "acosh", "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctan2", "arctanh",
    "asin", "asinh", "atan", "atan2", "atanh", "cosh", "sinh", "tan", "log1p", "log2", "log10", "expm1",
    "erfc", "erfinv", "trunc", "frac", "negative", "sgn", "signbit", "deg2rad", "rad2deg", "isfinite",
    "isneginf", "isposinf", "isreal", "t", "fliplr", "flipud", "sinc", "lgamma", "digamma", "logit",
    "nan_to_num", "nansum", "i0", "eq", "ne", "not_equal", "gt", "ge", "lt", "le", "greater",
    "greater_equal", "less", "less_equal", "divide", "true_divide", "subtract", "multiply", "remainder",
    "fmod", "floor_divide", "xlogy", "xdivy", "logaddexp", "logaddexp2", "hypot", "fmax", "fmin",
    "copysign", "heaviside", "float_power", "nextafter", "ldexp", "logical_and", "logical_or",
    "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift",
    "bitwise_right_shift", "gcd", "lcm", "isclose", "dot", "mm", "bmm", "inner", "cumprod", "median",
    "cummax", "cummin", "rot90", "diff", "diagflat", "addbmm", "addcdiv", "addcmul", "addmv", "addr",
    "baddbmm", "adjoint", "angle", "conj", "real", "imag", "cov", "cross", "det", "logdet", "slogdet",
    "matrix_power", "matrix_determinant", "log_matrix_determinant", "inverse", "inv", "invert", "igamma",
    "igammac", "mvlgamma", "nanmean", "nanmedian", "nanquantile", "quantile", "msort", "renorm", "histc",
    "bincount", "logcumsumexp", "hardshrink", "soft_shrink", "cholesky", "cholesky_inverse",
    "cholesky_solve", "lu_solve", "qr", "svd", "eigvals", "lstsq", "geqrf", "orgqr", "ormqr",
    "approximate_equal", "multinomial", "random_categorical", "unsorted_segment_max",
    "unsorted_segment_min", "unsorted_segment_prod", "unique_with_pad", "is_complex", "is_floating_point",
)


def _delegate(fn: Any) -> Any:
    def method(self: Tensor, *args: Any, **kwargs: Any) -> Any:
        return fn(self, *args, **kwargs)
    method.__name__ = getattr(fn, "__name__", "method")
    method.__doc__ = f"``ops.{method.__name__}(self, ...)``."
    return method


def _count_nonzero(self: Tensor, dim: Any = None) -> Tensor:
    return F.count_nonzero(self, () if dim is None else dim)


def _where(self: Tensor, condition: Any, y: Any) -> Tensor:
    return F.where(condition, self, y)


def _allclose(self: Tensor, other: Any, rtol: float = 1e-05, atol: float = 1e-08,
              equal_nan: bool = False) -> bool:
    return bool(F.all(F.isclose(self, other, rtol, atol, equal_nan)).asnumpy())


def _unique(self: Tensor, sorted: bool = True, return_inverse: bool = False, return_counts: bool = False,
            dim: int | None = None) -> Any:
    """The unique values (sorted), and with the flags the index of each element's value and each value's
    count, as ``torch.unique``; MindSpore's ``ops.unique`` is the function."""
    if dim is not None:
        raise NotImplementedError("Tensor.unique(dim=...) is not supported; unique over all elements only")
    data = self.asnumpy()
    values, inverse, counts = np.unique(data, return_inverse=True, return_counts=True)
    out = [Tensor(values.astype(data.dtype))]
    if return_inverse:
        out.append(Tensor(inverse.reshape(data.shape).astype(np.int64)))
    if return_counts:
        out.append(Tensor(counts.astype(np.int64)))
    return out[0] if len(out) == 1 else tuple(out)


def _with_value(reduce: Any) -> Any:
    def method(self: Tensor, axis: int = 0, keep_dims: bool = False) -> tuple[Tensor, Tensor]:
        values = (F.amax if reduce is F.argmax else F.amin)(self, axis, keep_dims)
        return values, F.cast(reduce(self, axis, keep_dims), dtypes.int64)
    return method


def _ptp(self: Tensor, axis: Any = None, keepdims: bool = False) -> Tensor:
    return F.sub(F.amax(self, axis, keepdims), F.amin(self, axis, keepdims))


def _sum_to_size(self: Tensor, *size: Any) -> Tensor:
    shape = tuple(size[0]) if len(size) == 1 and isinstance(size[0], (tuple, list)) else tuple(size)
    lead = self.ndim - len(shape)
    kept = tuple(lead + i for i, d in enumerate(shape) if d == 1 and self.shape[lead + i] != 1)
    axes = tuple(range(lead)) + kept
    out = F.sum(self, axes, True) if axes else self
    return F.reshape(out, shape)


def _new(fill: Any) -> Any:
    def method(self: Tensor, size: Any, *args: Any, dtype: Any = None) -> Tensor:
        value = args[0] if args else fill
        shape = tuple(size) if isinstance(size, (tuple, list)) else (size,)
        return F.full(shape, value, dtype=dtype if dtype is not None else self.dtype)
    return method


def _reshape_as(self: Tensor, other: Tensor) -> Tensor:
    return F.reshape(self, other.shape)


def _ndimension(self: Tensor) -> int:
    return self.ndim


def _is_signed(self: Tensor) -> bool:
    return np.dtype(self.dtype.np_dtype).kind in "fic"


def _cast_to(dtype: Any) -> Any:
    return lambda self: F.cast(self, dtype)


def _type(self: Tensor, dtype: Any = None) -> Any:
    """The dtype's name (``'Float32'``) without ``dtype``, else the tensor cast to it (MindSpore's
    ``Tensor.type``)."""
    return str(self.dtype) if dtype is None else F.cast(self, dtype)


def _clone(self: Tensor) -> Tensor:
    return F.add(self, F.zeros_like(self)) if self.requires_grad else Tensor(self.asnumpy().copy())


def _set_dtype(self: Tensor, dtype: Any) -> Any:
    """Cast the tensor to ``dtype`` in place; returns the dtype (as MindSpore's ``Tensor.set_dtype``)."""
    dt = dtypes.dtype(dtype)
    self._data = self._data.astype(dt.np_dtype)
    if hasattr(self, "_version"):
        self._version += 1
    return dt


def _bitwise_not(self: Tensor) -> Tensor:
    return F.logical_not(self) if self.dtype == dtypes.bool_ else F.invert(self)


def _mH(self: Tensor) -> Tensor:
    return F.conj(F.swapaxes(self, -1, -2)) if self.dtype in (dtypes.complex64, dtypes.complex128) \
        else F.swapaxes(self, -1, -2)


def _inplace(fn: Any, name: str) -> Any:
    """``x.<name>(...)``: ``fn(x, ...)`` written into x (cellonnx.ops' in-place machinery), returning x."""
    from cellonnx.ops.composite.scatter_inplace import write_back

    def method(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        return write_back(self, fn(self, *args, **kwargs), name)
    method.__name__ = name
    return method


def _add(self: Tensor, other: Any, *, alpha: Any = 1) -> Tensor:
    return F.add(self, other if alpha == 1 else F.mul(other, alpha))


def _sub(self: Tensor, other: Any, *, alpha: Any = 1) -> Tensor:
    return F.sub(self, other if alpha == 1 else F.mul(other, alpha))


def _fill(self: Tensor, value: Any) -> Tensor:
    return F.full_like(self, value)


def _masked_fill(self: Tensor, mask: Any, value: Any) -> Tensor:
    return F.masked_fill(self, mask, value)


INPLACE = {
    "add_": _add, "sub_": _sub, "mul_": F.mul, "div_": F.div, "fill_": _fill, "masked_fill_": _masked_fill,
    "clamp_": F.clamp, "exp_": F.exp, "log_": F.log, "floor_": F.floor, "sigmoid_": F.sigmoid,
    "tanh_": F.tanh, "sign_": F.sign, "remainder_": F.remainder, "floor_divide_": F.floor_divide,
    "erfinv_": F.erfinv, "copy_": lambda self, src: F.broadcast_to(F.cast(src, self.dtype), self.shape),
}

TENSOR_METHODS: dict[str, Any] = {
    **{name: _delegate(getattr(F, name)) for name in SAME_AS_OPS if hasattr(F, name)},
    **{name: _inplace(fn, name) for name, fn in INPLACE.items()},
    "count_nonzero": _count_nonzero, "where": _where, "allclose": _allclose, "unique": _unique,
    "argmax_with_value": _with_value(F.argmax), "argmin_with_value": _with_value(F.argmin), "ptp": _ptp,
    "sum_to_size": _sum_to_size, "new_zeros": _new(0), "new_ones": _new(1), "new_full": _new(None),
    "new_empty": _new(0), "reshape_as": _reshape_as, "ndimension": _ndimension, "is_signed": _is_signed,
    "byte": _cast_to(dtypes.uint8), "short": _cast_to(dtypes.int16), "bfloat16": _cast_to(dtypes.bfloat16),
    "type": _type, "clone": _clone, "set_dtype": _set_dtype, "bitwise_not": _bitwise_not,
    "mH": property(_mH), "H": property(_mH),
}
