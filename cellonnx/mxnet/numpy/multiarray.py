"""mx.np.ndarray: MXNet 2.x's NumPy-compatible array, a cellonnx Tensor with NumPy's methods.

Its methods follow NumPy (``reshape`` without special codes, ``flatten`` to one axis, comparisons giving
bool, integer ``argmax``), plus MXNet's device and autograd ones (``device``, ``to_device``,
``attach_grad``, ``grad``, ``backward``, ``as_nd_ndarray``). It prints as NumPy does, without the dtype for
float32 (MXNet's default dtype).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import dtypes, ops
from cellonnx.autograd.tape import is_grad_enabled
from cellonnx.mxnet import _op
from cellonnx.mxnet._dtype import mx_dtype
from cellonnx.mxnet._errors import mx_errors
from cellonnx.mxnet._placement import device_arg, device_of, follow, keep_device, place
from cellonnx.mxnet.device import Device
from cellonnx.tensor import Tensor

__all__ = ["around", "ndarray", "to_np"]


def _written(array: Tensor) -> None:
    """A parameter's ``data()`` array was written into: the parameter takes the value (gluon.parameter)."""
    from cellonnx.gluon.parameter import written
    written(array)


def around(a: Tensor, decimals: int = 0) -> Any:
    """MXNet's rounding to ``decimals`` places, bit for bit: the value is multiplied by 10 (divided, for
    negative ``decimals``) once per place in its own dtype, rounded half to even, and divided back the same
    way (so float32 2.567 to 2 places is 2.5700002, not NumPy's 2.57). Integers are kept (to 0 or more
    places) or rounded as NumPy does."""
    decimals = int(decimals)
    if a._data.dtype.kind != "f":
        if decimals >= 0:
            return to_np(Tensor(a._data.copy()))
        return to_np(Tensor(np.round(a._data, decimals)))
    ten = np.asarray(10, a._data.dtype)
    t: Tensor = a
    for _ in range(abs(decimals)):
        t = ops.mul(t, Tensor(ten)) if decimals > 0 else ops.div(t, Tensor(ten))
    t = ops.round(t)
    for _ in range(abs(decimals)):
        t = ops.div(t, Tensor(ten)) if decimals > 0 else ops.mul(t, Tensor(ten))
    return to_np(t)


def to_np(out: Any) -> Any:
    """``out`` with plain Tensors turned into mx.np.ndarray."""
    return _op.retype(out, ndarray)


def _operand(x: Any, like: Tensor) -> Any:
    if isinstance(x, Tensor):
        return x
    if isinstance(x, (bool, int, float, np.generic)):
        if like._data.dtype.kind == "b" and not isinstance(x, bool):
            return Tensor(np.asarray(x, np.float32 if isinstance(x, float) else np.int64))
        if like._data.dtype.kind in "iu" and isinstance(x, float):
            return Tensor(np.asarray(x, np.float32))
        return Tensor(np.asarray(x, like._data.dtype))
    return Tensor(np.asarray(x))


def _binary(fn: Any, reverse: bool = False) -> Any:
    @mx_errors
    def method(self: ndarray, other: Any) -> Any:
        if not isinstance(other, (Tensor, int, float, bool, np.generic, np.ndarray, list)):
            return NotImplemented
        o = _operand(other, self)
        return follow(to_np(fn(o, self) if reverse else fn(self, o)), (self,), {})
    return method


def _axis(axis: Any) -> Any:
    return tuple(axis) if isinstance(axis, list) else axis


_GRAD_SLOT = Tensor.__dict__["grad"]  # the slot ndarray.grad reads and writes


class ndarray(Tensor):
    """MXNet 2.x's ``mx.np.ndarray`` (see the module docstring). Make one with ``mx.np.array``.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> x = np.array([[1.0, 2.0], [3.0, 4.0]])
        >>> print(x.T)
        [[1. 3.]
         [2. 4.]]
        >>> print(x.sum(axis=0))
        [4. 6.]
        >>> x.astype('int32')
        array([[1, 2],
               [3, 4]], dtype=int32)
        >>> x.device
        cpu(0)
    """

    __slots__ = ()
    _gluon_array = True

    @property
    def dtype(self) -> Any:  # type: ignore[override]
        return mx_dtype(Tensor.dtype.fget(self), numpy_style=True)  # type: ignore[attr-defined]

    @property
    def device(self) -> Device:
        """The device the array is on (``device=`` when made, the current device by default; arrays are
        computed in host memory)."""
        return device_of(self)

    ctx = device
    context = device

    @property
    def T(self) -> ndarray:
        return to_np(ops.transpose(self, tuple(range(self.ndim))[::-1]))

    @property
    def stype(self) -> str:
        return "default"

    @property
    def writable(self) -> bool:
        """Whether the array's memory may be written to: True, as for every array MXNet makes."""
        return True

    # ---------------------------------------------------------------- conversion
    def astype(self, dtype: Any, order: str = "K", casting: str = "unsafe", subok: bool = True,
               copy: bool = True) -> ndarray:
        dt = dtypes.dtype(dtype) if dtype is not None else dtypes.float32
        if not copy and dt.np_dtype == self._data.dtype:
            return self
        return to_np(ops.cast(self, dt))

    def copy(self, order: str = "C") -> ndarray:
        return follow(to_np(Tensor(self._data.copy())), (self,), {})

    def to_device(self, device: Any) -> ndarray:
        """The array on ``device``: itself when it is there, else a copy there.

        Examples:
            >>> from cellonnx.mxnet import np, npx, cpu
            >>> npx.set_np()
            >>> x = np.array([1.0, 2.0])
            >>> x.to_device(cpu(0)) is x, x.to_device(cpu(1)).device
            (True, cpu(1))
        """
        device = device_arg(device)
        return self if device == device_of(self) else place(self.copy(), device)

    as_in_ctx = to_device
    as_in_context = to_device

    def copyto(self, other: Any) -> Any:
        if isinstance(other, Tensor):
            other[...] = self
            return other
        return place(self.copy(), device_arg(other))

    def as_nd_ndarray(self) -> Any:
        from cellonnx.mxnet.ndarray.ndarray import NDArray
        out = Tensor._make(self._data)
        out.__class__ = NDArray
        return out

    def as_np_ndarray(self) -> ndarray:
        return self

    def wait_to_read(self) -> None:
        """Computation is synchronous here."""

    def detach(self) -> ndarray:
        return to_np(Tensor.detach(self))

    def backward(self, out_grad: Any = None, retain_graph: bool = False, train_mode: bool = True) -> None:
        Tensor.backward(self, out_grad, retain_graph)

    @property
    def grad(self) -> ndarray | None:  # type: ignore[override]
        """The gradient ``backward`` wrote (after ``attach_grad``), an mx.np.ndarray as in MXNet."""
        return to_np(_GRAD_SLOT.__get__(self, Tensor))

    @grad.setter
    def grad(self, value: Any) -> None:
        _GRAD_SLOT.__set__(self, value)

    # ---------------------------------------------------------------- NumPy methods
    def reshape(self, *shape: Any, order: str = "C", **kwargs: Any) -> ndarray:
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        shape = kwargs.get("newshape", shape)
        return to_np(ops.reshape(self, tuple(shape)))

    def flatten(self, order: str = "C") -> ndarray:
        return to_np(ops.reshape(self, (-1,)))

    def transpose(self, *axes: Any) -> ndarray:
        if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
            axes = tuple(axes[0])
        return to_np(ops.transpose(self, axes or tuple(range(self.ndim))[::-1]))

    def squeeze(self, axis: Any = None) -> ndarray:
        return to_np(ops.squeeze(self, _axis(axis)))

    def swapaxes(self, axis1: int, axis2: int) -> ndarray:
        return to_np(ops.swapaxes(self, axis1, axis2))

    def sum(self, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: bool = False) -> ndarray:
        return to_np(ops.sum(self, _axis(axis), keepdims, dtype=dtype))

    def mean(self, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: bool = False) -> ndarray:
        return to_np(ops.mean(self, _axis(axis), keepdims))

    def max(self, axis: Any = None, out: Any = None, keepdims: bool = False) -> ndarray:
        return to_np(ops.amax(self, _axis(axis), keepdims))

    def min(self, axis: Any = None, out: Any = None, keepdims: bool = False) -> ndarray:
        return to_np(ops.amin(self, _axis(axis), keepdims))

    def prod(self, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: bool = False) -> ndarray:
        return to_np(ops.prod(self, _axis(axis), keepdims))

    def argmax(self, axis: int | None = None, out: Any = None) -> ndarray:
        x = self if axis is not None else ops.reshape(self, (-1,))
        return to_np(ops.cast(ops.argmax(x, axis=axis if axis is not None else 0), np.int64))

    def argmin(self, axis: int | None = None, out: Any = None) -> ndarray:
        x = self if axis is not None else ops.reshape(self, (-1,))
        return to_np(ops.cast(ops.argmin(x, axis=axis if axis is not None else 0), np.int64))

    def round(self, decimals: int = 0, out: Any = None) -> ndarray:
        """Rounded to ``decimals`` places as MXNet rounds (see ``around``)."""
        result = around(self, decimals)
        if out is not None:
            out[...] = result
            return out
        return result

    def clip(self, min: Any = None, max: Any = None, out: Any = None) -> ndarray:
        return to_np(ops.clamp(self, min, max))

    def repeat(self, repeats: int, axis: int | None = None) -> ndarray:
        return to_np(_op.TABLE["repeat"](self, repeats, axis))

    def tile(self, reps: Any) -> ndarray:
        return to_np(_op.TABLE["tile"](self, (reps,) if isinstance(reps, int) else reps))

    def take(self, indices: Any, axis: int | None = None, mode: str = "raise") -> ndarray:
        x = self if axis is not None else ops.reshape(self, (-1,))
        return to_np(_op.TABLE["take"](x, indices, axis if axis is not None else 0, "clip"))

    def dot(self, b: Any) -> ndarray:
        return to_np(_op.TABLE["dot"](self, b))

    def item(self, *args: Any) -> Any:
        return self._data.item(*args)

    def __getitem__(self, key: Any) -> Any:
        return to_np(Tensor.__getitem__(self, key))  # type: ignore[attr-defined]

    def __setitem__(self, key: Any, value: Any) -> None:
        Tensor.__setitem__(self, key, value)  # type: ignore[attr-defined]
        _written(self)

    def __neg__(self) -> ndarray:
        return to_np(ops.neg(self))

    def __abs__(self) -> ndarray:
        return to_np(ops.abs(self))

    def __iadd__(self, other: Any) -> ndarray:
        return self._inplace(ops.add, other)

    def __isub__(self, other: Any) -> ndarray:
        return self._inplace(ops.sub, other)

    def __imul__(self, other: Any) -> ndarray:
        return self._inplace(ops.mul, other)

    def __itruediv__(self, other: Any) -> ndarray:
        return self._inplace(ops.div, other)

    def _inplace(self, fn: Any, other: Any) -> ndarray:
        result = fn(self, _operand(other, self))
        if is_grad_enabled() and (self.requires_grad or self._node is not None or result._node is not None):
            return to_np(result)
        self._data = np.ascontiguousarray(result._data, dtype=self._data.dtype)
        return self

    __hash__ = Tensor.__hash__

    def __repr__(self) -> str:
        if self._sig_shape is not None:
            return f"array(<signature shape={self._sig_shape}>)"
        text = repr(self._data)
        if "dtype=" in text:
            if self._data.dtype == np.float32:
                text = text[:text.rindex(",")] + ")"
        elif self._data.dtype not in (np.float32, np.bool_):
            text = text[:-1] + f", dtype={self._data.dtype})"
        return text

    def __str__(self) -> str:
        return str(self._data)


_OPERATORS = {"__add__": ops.add, "__sub__": ops.sub, "__mul__": ops.mul, "__truediv__": ops.div,
              "__floordiv__": ops.floor_div, "__mod__": ops.floor_mod, "__pow__": ops.pow,
              "__matmul__": ops.matmul, "__eq__": ops.equal, "__ne__": ops.not_equal, "__gt__": ops.greater,
              "__ge__": ops.greater_equal, "__lt__": ops.less, "__le__": ops.less_equal}
_REFLECTED = {"__radd__": ops.add, "__rsub__": ops.sub, "__rmul__": ops.mul, "__rtruediv__": ops.div,
              "__rfloordiv__": ops.floor_div, "__rmod__": ops.floor_mod, "__rpow__": ops.pow,
              "__rmatmul__": ops.matmul}
for _name, _fn in _OPERATORS.items():
    setattr(ndarray, _name, _binary(_fn))
for _name, _fn in _REFLECTED.items():
    setattr(ndarray, _name, _binary(_fn, reverse=True))
# results of the array's own methods are on its device
keep_device(ndarray, ("T", "astype", "detach", "reshape", "flatten", "transpose", "squeeze", "swapaxes",
                      "sum", "mean", "max", "min", "prod", "argmax", "argmin", "round", "clip", "repeat",
                      "tile", "take", "dot", "__getitem__", "__neg__", "__abs__"))
