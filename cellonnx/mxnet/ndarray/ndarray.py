"""mx.nd.NDArray: MXNet 1.x's array, a cellonnx Tensor with NDArray's methods.

An NDArray is a Tensor (ops, autograd and tracing treat it as one); its methods and operators follow MXNet
1.x: ``reshape`` takes the special codes (0, -1, -2, -3, -4), ``flatten`` keeps the first axis, comparisons
give 0/1 in the input's dtype, ``argmax`` gives float indices, ``x.dtype == np.float32``, ``asscalar()``,
``context``, ``as_in_context``, ``copyto``, ``attach_grad`` / ``grad`` / ``backward``. Results of NDArray
methods, of mx.nd functions and of Gluon blocks called with NDArrays are NDArrays.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import ops
from cellonnx.autograd.tape import is_grad_enabled
from cellonnx.mxnet import _op
from cellonnx.mxnet._dtype import mx_dtype
from cellonnx.mxnet._errors import mx_errors
from cellonnx.mxnet._op._util import dtype_of, mx_float
from cellonnx.mxnet._placement import device_arg, device_of, follow, keep_device, place
from cellonnx.mxnet.device import Device
from cellonnx.tensor import Tensor

__all__ = ["NDArray", "array", "concatenate", "empty", "moveaxis", "waitall"]


def _written(array: Tensor) -> None:
    """A parameter's ``data()`` array was written into: the parameter takes the value (gluon.parameter)."""
    from cellonnx.gluon.parameter import written
    written(array)


def _as(out: Any) -> Any:
    return _op.retype(out, NDArray)


def _index(key: Any) -> Any:
    """MXNet indexes with float arrays too: they become integer indices."""
    if isinstance(key, Tensor) and key._data.dtype.kind == "f":
        return ops.cast(key, "int64")
    if isinstance(key, tuple):
        return tuple(_index(k) for k in key)
    return key


def _method(name: str) -> Any:
    impl = _op.TABLE[name]

    @mx_errors
    def method(self: NDArray, *args: Any, **kwargs: Any) -> Any:
        kwargs.pop("name", None)
        return follow(_as(impl(self, *args, **kwargs)), (self,), {})
    method.__name__ = name
    method.__doc__ = f"``mx.nd.{name}(self, ...)``."
    return method


def _binary(name: str, reverse: bool = False) -> Any:
    impl = _op.TABLE[name]

    @mx_errors
    def method(self: NDArray, other: Any) -> Any:
        if not isinstance(other, (Tensor, int, float, bool, np.generic, np.ndarray)):
            return NotImplemented
        return follow(_as(impl(other, self) if reverse else impl(self, other)), (self,), {})
    return method


def _inplace(name: str) -> Any:
    impl = _op.TABLE[name]

    @mx_errors
    def method(self: NDArray, other: Any) -> Any:
        result = impl(self, other)
        if is_grad_enabled() and (self.requires_grad or self._node is not None or result._node is not None):
            return follow(_as(result), (self,), {})  # recorded: a new array, as the tape needs the old value
        self._data = np.ascontiguousarray(result._data, dtype=self._data.dtype)
        return self
    return method


_GRAD_SLOT = Tensor.__dict__["grad"]  # the slot NDArray.grad reads and writes


class NDArray(Tensor):
    """MXNet 1.x's NDArray (see the module docstring). Make one with ``mx.nd.array``."""

    __slots__ = ()
    _gluon_array = True  # gluon blocks called with NDArrays return NDArrays

    # ---------------------------------------------------------------- properties
    @property
    def dtype(self) -> Any:  # type: ignore[override]
        """The dtype; equal to NumPy's (``x.dtype == np.float32``) and to cellonnx's."""
        return mx_dtype(Tensor.dtype.fget(self))  # type: ignore[attr-defined]

    @property
    def context(self) -> Device:
        """The device the array is on (``ctx=`` when made, the current context by default; arrays are
        computed in host memory)."""
        return device_of(self)

    ctx = context
    device = context

    @property
    def stype(self) -> str:
        return "default"

    @property
    def T(self) -> NDArray:
        return _as(_op.TABLE["transpose"](self))

    @property
    def handle(self) -> int:
        return id(self)

    @property
    def writable(self) -> bool:
        return True

    # ---------------------------------------------------------------- conversion and copies
    def asscalar(self) -> Any:
        """The value of a one-element array as a NumPy scalar."""
        if self.size != 1:
            raise ValueError("The current array is not a scalar")
        return self._data.reshape(()).copy()[()]

    def astype(self, dtype: Any, copy: bool = True) -> NDArray:
        if not copy and dtype_of(dtype).np_dtype == self._data.dtype:
            return self
        return follow(_as(ops.cast(self, dtype_of(dtype))), (self,), {})

    def copy(self) -> NDArray:
        out = _as(ops.mul(self, 1) if self._data.dtype.kind != "b" else Tensor(self._data.copy()))
        return follow(out, (self,), {})

    def copyto(self, other: Any) -> NDArray:
        """A copy on device ``other``, or written into NDArray ``other``.

        Examples:
            >>> from cellonnx import mxnet as mx
            >>> x = mx.nd.array([1, 2])
            >>> y = x.copyto(mx.cpu(1))
            >>> y.context, y is x
            (cpu(1), False)
        """
        if isinstance(other, Tensor):
            other[...] = self
            return other  # type: ignore[return-value]
        return place(self.copy(), device_arg(other))

    def as_in_context(self, context: Any) -> NDArray:
        """The array on device ``context``: itself when it is there, else a copy there.

        Examples:
            >>> from cellonnx import mxnet as mx
            >>> x = mx.nd.array([1, 2])
            >>> x.as_in_context(mx.cpu(0)) is x
            True
            >>> x.as_in_context(mx.cpu(1)).context
            cpu(1)
        """
        device = device_arg(context)
        return self if device == device_of(self) else place(self.copy(), device)

    as_in_ctx = as_in_context
    to_device = as_in_context

    def as_nd_ndarray(self) -> NDArray:
        return self

    def to_dlpack_for_read(self) -> Any:
        """A DLPack capsule of the array for reading (``mx.nd.to_dlpack_for_read``)."""
        from cellonnx.mxnet.ndarray.dlpack import to_dlpack_for_read
        return to_dlpack_for_read(self)

    def to_dlpack_for_write(self) -> Any:
        """A DLPack capsule of the array for writing (``mx.nd.to_dlpack_for_write``)."""
        from cellonnx.mxnet.ndarray.dlpack import to_dlpack_for_write
        return to_dlpack_for_write(self)

    def as_np_ndarray(self) -> Any:
        from cellonnx.mxnet.numpy.multiarray import ndarray
        out = Tensor._make(self._data)
        out.__class__ = ndarray
        return out

    def tostype(self, stype: str) -> NDArray:
        """The array in storage ``stype``: 'default', 'csr' or 'row_sparse' (mx.nd.sparse)."""
        if stype == "default":
            return self
        from cellonnx.mxnet.ndarray.sparse import cast_storage
        return cast_storage(self, stype)

    def wait_to_read(self) -> None:
        """Computation is synchronous here: nothing to wait for."""

    wait_to_write = wait_to_read

    def attach_grad(self, grad_req: str = "write", stype: str | None = None) -> None:
        """Make the array a leaf whose gradient ``backward`` writes into ``grad`` ('write') or adds to it
        ('add'); ``stype='row_sparse'`` gives the gradient as a RowSparseNDArray (as MXNet's sparse
        operators, SparseEmbedding and dot with a CSR array, write it)."""
        if stype not in (None, "default", "row_sparse", "csr"):
            raise ValueError(f"attach_grad: stype must be 'default', 'row_sparse' or 'csr', got {stype!r}")
        self.__dict__.pop("_grad_buffer", None)
        Tensor.attach_grad(self, grad_req)
        self.__dict__["_grad_stype"] = stype or "default"

    @property
    def grad(self) -> NDArray | None:  # type: ignore[override]
        """The gradient ``backward`` wrote (after ``attach_grad``), an NDArray as in MXNet (in the storage
        type ``attach_grad`` asked for)."""
        grad = follow(_as(_GRAD_SLOT.__get__(self, Tensor)), (self,), {})
        stype = self.__dict__.get("_grad_stype", "default") if grad is not None else "default"
        if stype != "default":
            from cellonnx.mxnet.ndarray.sparse import cast_storage
            return cast_storage(grad, stype)  # type: ignore[no-any-return]
        return grad

    @grad.setter
    def grad(self, value: Any) -> None:
        buffer = self.__dict__.get("_grad_buffer")  # autograd.mark_variables' gradient array
        if (buffer is not None and value is not None and value is not buffer
                and tuple(buffer.shape) == tuple(value.shape) and buffer._data.flags.writeable):
            buffer._data[...] = value._data  # backward writes into the array given, as MXNet does
            value = buffer
        _GRAD_SLOT.__set__(self, value)

    def detach(self) -> NDArray:
        return _as(Tensor.detach(self))

    def backward(self, out_grad: Any = None, retain_graph: bool = False, train_mode: bool = True) -> None:
        """Back-propagate into the ``grad`` of every array marked with ``attach_grad`` (and parameters)."""
        Tensor.backward(self, out_grad, retain_graph)

    # ---------------------------------------------------------------- shape methods with MXNet's forms
    @mx_errors
    def reshape(self, *shape: Any, **kwargs: Any) -> NDArray:
        """``reshape((2, -1))``, ``reshape(2, -1)`` or ``reshape(shape=..., reverse=...)``; MXNet's special
        codes apply."""
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        if "shape" in kwargs:
            shape = kwargs.pop("shape")
        return _as(_op.TABLE["reshape"](self, shape, **kwargs))

    @mx_errors
    def transpose(self, *axes: Any, **kwargs: Any) -> NDArray:
        if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
            axes = tuple(axes[0])
        return _as(_op.TABLE["transpose"](self, kwargs.get("axes", axes)))

    def __getitem__(self, key: Any) -> Any:
        return follow(_as(Tensor.__getitem__(self, _index(key))), (self,), {})  # type: ignore[attr-defined]

    def __setitem__(self, key: Any, value: Any) -> None:
        Tensor.__setitem__(self, _index(key), value)  # type: ignore[attr-defined]
        _written(self)

    def __neg__(self) -> NDArray:
        return _as(ops.neg(self))

    def __abs__(self) -> NDArray:
        return _as(ops.abs(self))

    __hash__ = Tensor.__hash__

    def __repr__(self) -> str:
        if self._sig_shape is not None:
            return f"<NDArray {'x'.join(str(d) for d in self._sig_shape)} @cpu(0) (signature)>"
        shape = "x".join(str(d) for d in self._data.shape)
        return f"\n{self._data}\n<{type(self).__name__} {shape} @{self.context}>"

    __str__ = __repr__


_BINARY = {"__add__": "add", "__sub__": "sub", "__mul__": "mul", "__truediv__": "div", "__div__": "div",
           "__mod__": "mod", "__pow__": "power", "__eq__": "equal", "__ne__": "not_equal",
           "__gt__": "greater",
           "__ge__": "greater_equal", "__lt__": "lesser", "__le__": "lesser_equal"}
_REFLECTED = {"__radd__": "add", "__rsub__": "sub", "__rmul__": "mul", "__rtruediv__": "div",
              "__rdiv__": "div",
              "__rmod__": "mod", "__rpow__": "power"}
_INPLACE = {"__iadd__": "add", "__isub__": "sub", "__imul__": "mul", "__itruediv__": "div", "__imod__": "mod"}
# NDArray methods that are the mx.nd operator of the same name with the array first
_METHODS = (
    "zeros_like", "ones_like", "broadcast_to", "broadcast_like", "broadcast_axes", "broadcast_axis", "repeat",
    "pad", "swapaxes", "split", "split_v2", "slice", "slice_axis", "slice_like", "take", "one_hot", "pick",
    "sort", "topk", "argsort", "argmax", "argmax_channel", "argmin", "clip", "abs", "sign", "flatten",
    "shape_array", "size_array", "expand_dims", "tile", "flip", "depth_to_space", "space_to_depth", "diag",
    "sum", "nansum", "prod", "nanprod", "mean", "max", "min", "norm", "round", "rint", "fix", "floor", "ceil",
    "trunc", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "degrees", "radians", "sinh", "cosh", "tanh",
    "arcsinh", "arccosh", "arctanh", "exp", "expm1", "log", "log10", "log2", "log1p", "sqrt", "rsqrt", "cbrt",
    "rcbrt", "square", "reciprocal", "relu", "sigmoid", "softmax", "log_softmax", "softmin", "squeeze",
    "reshape_like", "erf",
)
for _name, _op_name in _BINARY.items():
    setattr(NDArray, _name, _binary(_op_name))
for _name, _op_name in _REFLECTED.items():
    setattr(NDArray, _name, _binary(_op_name, reverse=True))
for _name, _op_name in _INPLACE.items():
    setattr(NDArray, _name, _inplace(_op_name))
for _name in _METHODS:
    setattr(NDArray, _name, _method(_name))
keep_device(NDArray, ("T", "detach", "reshape", "transpose", "__neg__", "__abs__"))


def array(source_array: Any, ctx: Any = None, dtype: Any = None, **_: Any) -> NDArray:
    """An NDArray from an array-like: float32 unless ``dtype`` is given or the source is an NDArray (which
    keeps its dtype); a NumPy array of any dtype becomes float32 too, as in MXNet 1.9.1. On device ``ctx``
    (default: the current context)."""
    if isinstance(source_array, Tensor):
        arr = source_array._data.copy()
    else:
        arr = mx_float(source_array)._data
        arr = arr.copy() if isinstance(source_array, np.ndarray) and arr is source_array else arr
        if dtype is None and arr.dtype != np.float32:
            arr = arr.astype(np.float32)
    if dtype is not None:
        arr = arr.astype(dtype_of(dtype).np_dtype)
    out = Tensor._make(np.ascontiguousarray(arr))
    out.__class__ = NDArray
    return place(out, device_arg(ctx))  # type: ignore[no-any-return]


def empty(shape: Any, ctx: Any = None, dtype: Any = None, **_: Any) -> NDArray:
    return place(_as(_op.TABLE["zeros"](shape, dtype=dtype)), device_arg(ctx))  # type: ignore[no-any-return]


def concatenate(arrays: Any, axis: int = 0, always_copy: bool = True) -> NDArray:
    return _as(ops.concat(list(arrays), axis=axis))


def moveaxis(tensor: Any, source: int, destination: int) -> NDArray:
    return _as(_op.TABLE["moveaxis"](tensor, source, destination))


def waitall() -> None:
    """Computation is synchronous here: nothing to wait for."""
