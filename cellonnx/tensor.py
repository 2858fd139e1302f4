"""Tensor and Parameter: NumPy arrays with autograd history, MindSpore's construction rules and repr.

Arithmetic methods (`+`, `reshape`, `sum`, ...) are attached by `cellonnx.ops.tensor_methods`, so that this
module stays below the op registry in the layering.
"""
from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from cellonnx import dtypes
from cellonnx.dtypes import DType

if TYPE_CHECKING:
    from cellonnx.autograd.tape import Node

# Set by the tracer while compile() runs: shape_of(tensor) may return symbolic dims, on_bool raises a
# pointed error when Python branches on a traced tensor's value.
SHAPE_HOOK: Callable[[Tensor], tuple] | None = None
BOOL_HOOK: Callable[[Tensor], None] | None = None
# Set while tracing: alias(new, old) makes a detached view of a traced tensor refer to the same graph value.
ALIAS_HOOK: Callable[[Tensor, Tensor], None] | None = None
# Set while tracing: symbolic(t, value) binds a tensor made from a symbolic dim (or a list holding one) to
# the graph value computing it, so Tensor(x.shape[0]) or x / x.shape[0] reads the size at run time.
SYMBOLIC_HOOK: Callable[[Tensor, Any], None] | None = None
# Set while a training step is traced: value(t) raises when Python reads the value of graph state or of a
# value computed from it (asnumpy, item, float ...), which the graph would otherwise freeze.
VALUE_HOOK: Callable[..., None] | None = None
# Set while a training step is traced: assign(parameter, value) records Parameter.set_data as a graph update.
ASSIGN_HOOK: Callable[[Any, Any], bool] | None = None


def is_symbolic(value: Any) -> bool:
    """A symbolic dim of a dynamic trace (``x.shape[0]``), or a flat list / tuple holding one."""
    if hasattr(value, "onnx_name"):
        return True
    return isinstance(value, (list, tuple)) and any(hasattr(v, "onnx_name") for v in value)


def _infer_array(data: Any, dtype: DType | None) -> np.ndarray:
    """MindSpore's rules: Python floats become float32, Python ints int64, bools bool, complex numbers
    complex128; NumPy arrays keep theirs."""
    if isinstance(data, Tensor):
        arr = data._data
    elif isinstance(data, np.ndarray):
        arr = data
    elif isinstance(data, np.generic):
        arr = np.asarray(data)
    else:
        arr = np.asarray(data)
        if arr.dtype == np.float64:
            arr = arr.astype(np.float32)
        elif arr.dtype.kind == "i":
            arr = arr.astype(np.int64)
        elif arr.dtype.kind not in "fiubc":
            raise TypeError(f"Tensor: cannot make a tensor from {type(data).__name__} "
                            f"(NumPy dtype {arr.dtype})")
    if dtype is not None:
        target = dtypes.to_numpy(dtype)
        if arr.dtype != target:
            arr = arr.astype(target)
    elif arr.dtype not in dtypes._BY_NUMPY:
        raise TypeError(f"Tensor: NumPy dtype {arr.dtype} is not supported")
    return arr



class Shape(tuple):
    """A tensor's shape: a tuple, which also answers a call with itself, so that MindSpore 0.x code that wrote
    ``t.shape()`` (a method then, a tuple since 0.5) still runs."""

    __slots__ = ()

    def __call__(self) -> tuple:
        return self

class Tensor:
    """An n-dimensional array that records the operations applied to it for autograd and tracing.

    Args:
        input_data: array-like, Tensor or number. ``None`` with a ``shape`` makes a tensor described only by
            shape and dtype; a ``None`` in that shape marks a dynamic dimension (an input signature for
            ``Cell.set_inputs``).
        dtype: a cellonnx dtype (``cellonnx.float32``), NumPy dtype or name.
        shape: the shape, when ``input_data`` is ``None``.
        init: an initializer (``cellonnx.common.initializer``) used with ``shape`` to fill the data.

    Examples:
        >>> x = Tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> print(x.dtype, x.shape)
        Float32 (2, 2)
    """

    __slots__ = (
        "__dict__",
        "__weakref__",
        "_data",
        "_hooks",
        "_node",
        "_out_index",
        "_sig_dtype",
        "_sig_shape",
        "grad",
        "requires_grad",
    )
    __array_priority__ = 1000  # ndarray (op) Tensor defers to Tensor's reflected operator

    def __init__(self, input_data: Any = None, dtype: Any = None, shape: Any = None, init: Any = None,
                 internal: bool = False, const_arg: bool = False) -> None:
        self.requires_grad = False
        self._node: Node | None = None
        self._out_index = 0
        self.grad: Tensor | None = None
        self._sig_shape: tuple | None = None
        self._sig_dtype: DType | None = None
        self._hooks: list | None = None
        if input_data is None:
            if shape is None:
                raise ValueError("Tensor: give input_data, or shape (and dtype) to describe one")
            shape = (shape,) if isinstance(shape, int) else tuple(shape)
            dt = dtypes.dtype(dtype) if dtype is not None else dtypes.float32
            # None, a negative size or a Symbol (cellonnx.Symbol) marks a dynamic dim
            dynamic = [not isinstance(d, (int, np.integer)) or d < 0 for d in shape]
            if any(dynamic):
                self._sig_shape = tuple(None if dyn else int(d) for d, dyn in zip(shape, dynamic))
                self._sig_dtype = dt
                self._data = np.zeros([0 if d is None else d for d in self._sig_shape], dt.np_dtype)
                return
            if init is not None:  # filled on first use or by init_data(), as MindSpore does
                from cellonnx.common.initializer import initializer as make
                del self._sig_shape, self._sig_dtype
                self._lazy_from(make(init, shape, dt))
                return
            else:
                self._data = np.zeros(shape, dt.np_dtype)
            return
        if init is not None:
            raise ValueError("Tensor: init is used with shape, not with input_data")
        self._data = _infer_array(input_data, dtype)
        if SYMBOLIC_HOOK is not None and is_symbolic(input_data):
            SYMBOLIC_HOOK(self, input_data)

    @classmethod
    def _lazy(cls, shape: tuple, dtype: DType, init: Any, fill: Callable[[], np.ndarray]) -> Tensor:
        """A tensor whose data ``fill()`` makes on first use (or ``init_data()``): what ``initializer``
        returns. Its shape and dtype are known before."""
        t = cls._make(np.empty(0, dtype.np_dtype))
        del t._data
        t._sig_shape, t._sig_dtype = tuple(shape), dtype
        t.__dict__["_lazy"] = (init, fill)
        t.__dict__["init"] = init
        return t

    def _lazy_from(self, other: Tensor) -> None:
        """Take ``other``'s pending initialization (a lazy tensor made by ``initializer``)."""
        self._sig_shape, self._sig_dtype = other._sig_shape, other._sig_dtype
        self.__dict__["_lazy"] = other.__dict__["_lazy"]
        self.__dict__["init"] = other.__dict__["init"]

    def __getattr__(self, name: str) -> Any:
        # reached only when normal lookup fails: the data of a lazy tensor is made on its first use
        if name == "_data" and "_lazy" in self.__dict__:
            self.init_data()
            return self._data
        if name == "_data" and "_device_state" in self.__dict__:
            # the value lives in a compiled training step's state (cellonnx/graph/state.py): copy it back
            self._data = self.__dict__.pop("_device_state").fetch(self)
            return self._data
        if name == "init":  # the initializer a lazy tensor waits for (set in its __dict__), else None
            return None
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    @property
    def has_init(self) -> bool:
        """True while the tensor waits for ``init_data()`` (made by ``initializer`` or with ``init=``)."""
        return "_lazy" in self.__dict__

    def init_data(self, slice_index: Any = None, shape: Any = None, opt_shard_group: Any = None) -> Tensor:
        """Run the pending initializer (a no-op for a tensor holding data); returns this tensor."""
        lazy = self.__dict__.pop("_lazy", None)
        if lazy is not None:
            self.__dict__.pop("init", None)
            self.__dict__["_numpy_repr"] = True
            self._data = lazy[1]()
            self._sig_shape = self._sig_dtype = None
        return self

    @classmethod
    def _make(cls, arr: Any) -> Tensor:
        """Wrap an array without checks (the op dispatcher's fast path)."""
        t = object.__new__(Tensor)
        if type(arr) is not np.ndarray:
            arr = np.asarray(arr)
        t._data = arr
        t.requires_grad = False
        t._node = None
        t._out_index = 0
        t.grad = None
        t._sig_shape = None
        t._sig_dtype = None
        t._hooks = None
        return t

    # ---- metadata ----
    @property
    def shape(self) -> tuple:
        if SHAPE_HOOK is not None:
            return SHAPE_HOOK(self)
        if self._sig_shape is not None:  # a dynamic dim of a signature reads -1, as in MindSpore
            return Shape(-1 if d is None else d for d in self._sig_shape)
        return Shape(self._data.shape)

    @property
    def dtype(self) -> DType:
        if self._sig_dtype is not None:
            return self._sig_dtype
        return dtypes._BY_NUMPY[self._data.dtype]

    @property
    def ndim(self) -> int:
        return self._data.ndim if self._sig_shape is None else len(self._sig_shape)

    @property
    def size(self) -> int:
        return self._data.size

    @property
    def itemsize(self) -> int:
        return self._data.itemsize

    @property
    def nbytes(self) -> int:
        return self._data.nbytes

    @property
    def is_signature(self) -> bool:
        """True for a shape/dtype description without data (``Tensor(shape=(None, 3), dtype=...)``)."""
        return self._sig_shape is not None and "_lazy" not in self.__dict__

    @property
    def grad_fn(self) -> Node | None:
        return self._node

    def is_leaf(self) -> bool:
        return self._node is None

    def dim(self) -> int:
        return self._data.ndim

    def numel(self) -> int:
        return self._data.size

    def nelement(self) -> int:
        return self._data.size

    def __len__(self) -> int:
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return len(self._data)

    # ---- conversion ----
    def asnumpy(self) -> np.ndarray:
        """The data as a NumPy array (shared, not copied)."""
        if VALUE_HOOK is not None:
            VALUE_HOOK(self)
        return self._data

    def numpy(self) -> np.ndarray:
        if VALUE_HOOK is not None:
            VALUE_HOOK(self)
        return self._data

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        if VALUE_HOOK is not None:
            VALUE_HOOK(self)
        return self._data if dtype is None else self._data.astype(dtype)

    def item(self, index: Any = None) -> Any:
        if VALUE_HOOK is not None:
            VALUE_HOOK(self)
        if index is None:
            if self._data.size != 1:
                raise ValueError(f"item(): tensor of shape {self._data.shape} has {self._data.size} "
                                 "elements, expected 1")
            return self._data.reshape(()).item()
        return self._data.item(index)

    def tolist(self) -> Any:
        if VALUE_HOOK is not None:
            VALUE_HOOK(self)
        return self._data.tolist()

    def __bool__(self) -> bool:
        if BOOL_HOOK is not None:
            BOOL_HOOK(self)
        return bool(self._data)

    def __int__(self) -> int:
        if VALUE_HOOK is not None:
            VALUE_HOOK(self)
        return int(self._data)

    def __float__(self) -> float:
        if VALUE_HOOK is not None:
            VALUE_HOOK(self)
        return float(self._data)

    def __index__(self) -> int:
        if self._data.dtype.kind not in "iub":
            raise TypeError(f"only integer tensors can be used as an index, got {self.dtype}")
        return int(self._data)

    __hash__ = object.__hash__

    # ---- autograd ----
    def detach(self) -> Tensor:
        """A tensor sharing this one's data, cut from its gradient history."""
        t = Tensor._make(self._data)
        if ALIAS_HOOK is not None:
            ALIAS_HOOK(t, self)
        return t

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        self.requires_grad = requires_grad
        return self

    def backward(self, gradient: Any = None, retain_graph: bool = False, create_graph: bool = False) -> None:
        """Accumulate d(self)/d(leaf) into each leaf's ``.grad`` (PyTorch / Gluon style)."""
        from cellonnx.autograd.tape import run_backward
        run_backward([self], [gradient], create_graph=create_graph, accumulate=True)

    def attach_grad(self, grad_req: str = "write") -> None:
        """Gluon: mark this tensor as a leaf whose gradient ``backward`` writes into ``.grad``."""
        if grad_req not in ("write", "add", "null"):
            raise ValueError(f"attach_grad: grad_req must be 'write', 'add' or 'null', got {grad_req!r}")
        self._node = None
        self.requires_grad = grad_req != "null"
        self.__dict__["grad_req"] = grad_req  # 'write': each backward overwrites .grad; 'add': accumulates
        self.grad = Tensor._make(np.zeros_like(self._data)) if self.requires_grad else None

    def register_hook(self, hook: Callable[[Tensor], Tensor | None]) -> Any:
        """Call ``hook(grad)`` when this tensor's gradient is computed; a returned tensor replaces it."""
        from cellonnx.autograd.tape import HookHandle
        if self._hooks is None:
            self._hooks = []
        handle = HookHandle(self._hooks, hook)
        self.__dict__.setdefault("_hook_handles", {})[handle.id] = handle  # for remove_hook(handle.id)
        return handle

    # ---- printing ----
    def __repr__(self) -> str:
        """MindSpore's format: ``Tensor(shape=[2], dtype=Float32, value= [ 1.50000000e+00,  2.25000000e+00])``
        (cellonnx/tensor_repr.py)."""
        if self._sig_shape is not None:  # no data: a signature of dynamic dims, or waiting for init_data()
            shape = [-1 if d is None else d for d in self._sig_shape]
            if "_lazy" in self.__dict__:
                return f"Tensor(shape={shape}, dtype={self.dtype}, value=\n<uninitialized>)"
            return f"Tensor(shape={shape}, dtype={self.dtype}, value={chr(10) if len(shape) > 1 else ' '})"
        if VALUE_HOOK is not None:
            VALUE_HOOK(self, "printed")
        from cellonnx.tensor_repr import format_numpy, format_value
        # data MindSpore keeps in a NumPy array (from_numpy, init_data) prints in NumPy's format
        fmt = format_numpy if self.__dict__.get("_numpy_repr") else format_value
        return f"Tensor(shape={list(self._data.shape)}, dtype={self.dtype}, value={fmt(self._data)})"

    def __str__(self) -> str:
        if self._sig_shape is not None:
            return repr(self)
        if VALUE_HOOK is not None:
            VALUE_HOOK(self, "printed")
        if self._data.ndim == 0:  # as NumPy prints a scalar: 15.0, 1e-08 (not the array form 15.)
            return str(self._data[()])
        return np.array2string(self._data, separator=" ")

    def __format__(self, spec: str) -> str:
        if VALUE_HOOK is not None:
            VALUE_HOOK(self, "printed")
        if self._data.ndim == 0:
            return format(self._data.item(), spec)
        return str(self)

    def __deepcopy__(self, memo: dict) -> Tensor:
        t = type(self).__new__(type(self))
        memo[id(self)] = t
        for k in Tensor.__slots__:
            if k in ("__weakref__", "__dict__"):
                continue
            setattr(t, k, getattr(self, k, None))
        t._data = self._data.copy()
        t._node = None
        t.grad = None
        t._hooks = None
        t.__dict__.update({k: v for k, v in self.__dict__.items()})
        return t

    def __getstate__(self) -> dict:
        return {"data": self._data, "requires_grad": self.requires_grad, "dict": self.__dict__}

    def __setstate__(self, state: dict) -> None:
        Tensor._make  # noqa: B018
        self._data = state["data"]
        self.requires_grad = state["requires_grad"]
        self._node = None
        self._out_index = 0
        self.grad = None
        self._sig_shape = None
        self._sig_dtype = None
        self._hooks = None
        self.__dict__.update(state["dict"])


class DeferredInitError(RuntimeError):
    """A Parameter whose shape is not known yet was used before its first forward pass gave it one."""


class Parameter(Tensor):
    """A trainable tensor owned by a Cell; its ``name`` is the state-dict key, checkpoint key and ONNX
    initializer name.

    Args:
        default_input: initial value (Tensor, ndarray, number), or an initializer object / name when the
            shape is given by ``shape`` or deferred (a shape holding 0 or None is filled at first use).
        name: the parameter's name; Cells set it to the attribute path (``fc1.weight``).
        requires_grad: whether optimizers and ``value_and_grad(weights=...)`` update it (kept for integer
            parameters too, as MindSpore keeps it; their gradient is cast to their dtype).

    Examples:
        >>> p = Parameter(Tensor(np.ones((2, 3)), ms.float32), name="w")
        >>> p
        Parameter (name=w, shape=(2, 3), dtype=Float32, requires_grad=True)
    """

    __slots__ = ("_deferred", "_inited", "_name", "_version", "layerwise_parallel", "parallel_optimizer")

    def __init__(self, default_input: Any = None, name: str | None = None, requires_grad: bool = True,
                 layerwise_parallel: bool = False, parallel_optimizer: bool = True,
                 shape: Any = None, dtype: Any = None) -> None:
        self._name = name or "Parameter"
        self._version = 0
        self._deferred: tuple | None = None  # (initializer, dtype) while the shape is unknown
        self.layerwise_parallel = layerwise_parallel
        self.parallel_optimizer = parallel_optimizer
        self._node = None
        self._out_index = 0
        self.grad = None
        self._sig_shape = None
        self._sig_dtype = None
        self._hooks = None
        init_obj = default_input
        if isinstance(default_input, (Tensor, np.ndarray, np.generic, int, float, bool, list, tuple)) \
                and shape is None:
            self._data = _infer_array(default_input, dtype).copy() if not isinstance(default_input, Tensor) \
                else _infer_array(default_input, dtype)
        else:
            from cellonnx.common.initializer import Initializer, initializer
            dt = dtypes.dtype(dtype) if dtype is not None else dtypes.float32
            shp = tuple(shape) if shape is not None else None
            if shp is None or any(d in (0, None, -1) for d in shp):
                self._deferred = (init_obj, dt, shp)
                self._data = np.zeros((0,), dt.np_dtype)
            elif isinstance(init_obj, (Initializer, str)) or callable(init_obj):
                self._data = initializer(init_obj, shp, dt).asnumpy()
            else:
                raise TypeError(f"Parameter {self._name}: cannot initialise from {type(init_obj).__name__}")
        self.requires_grad = bool(requires_grad)  # integer and bool parameters too, as in MindSpore
        self._inited = True

    # ---- identity ----
    @property
    def name(self) -> str:
        return self._name

    @name.setter
    def name(self, value: str) -> None:
        if not isinstance(value, str):
            raise TypeError(f"Parameter name must be a str, got {type(value).__name__}")
        self._name = value

    @property
    def data(self) -> Parameter:
        return self

    @property
    def version(self) -> int:
        """Bumped by every in-place update, so compiled graphs know when to refresh their weights."""
        return self._version

    @property
    def has_init(self) -> bool:
        """True while an initializer is still to run (the shape is deferred to the first forward pass)."""
        return self._deferred is not None

    @property
    def is_deferred(self) -> bool:
        return self._deferred is not None

    @property
    def shape(self) -> tuple:
        if self._deferred is not None:
            shp = self._deferred[2]
            return tuple(shp) if shp is not None else ()
        return super().shape

    def _check_ready(self) -> None:
        if self._deferred is not None:
            raise DeferredInitError(f"Parameter {self._name} has a deferred shape {self._deferred[2]}; run a "
                                    "forward pass (or load parameters) first so its shape can be inferred")

    def finish_deferred(self, shape: tuple[int, ...]) -> None:
        """Give a deferred parameter its shape and run its initializer."""
        if self._deferred is None:
            if tuple(self._data.shape) != tuple(shape):
                raise ValueError(f"Parameter {self._name}: shape {self._data.shape} is set, cannot change to "
                                 f"{tuple(shape)}")
            return
        init_obj, dt, _ = self._deferred
        from cellonnx.common.initializer import initializer
        self._data = initializer(init_obj if init_obj is not None else "zeros", tuple(shape), dt).asnumpy()
        self._deferred = None
        self._version += 1

    def set_deferred_init(self, init: Any) -> None:
        if self._deferred is not None:
            self._deferred = (init, self._deferred[1], self._deferred[2])

    # ---- updates ----
    def set_data(self, data: Any, slice_shape: bool = False) -> Parameter:
        """Replace the value. The shape must match unless ``slice_shape`` is True or the shape was deferred;
        the dtype is cast to this parameter's dtype (as MindSpore does for a Tensor of another float type)."""
        if ASSIGN_HOOK is not None and self._deferred is None and ASSIGN_HOOK(self, data):
            return self
        arr = _infer_array(data, None)
        if self._deferred is not None:
            dt = self._deferred[1]
            self._deferred = None
            self._data = arr.astype(dt.np_dtype, copy=True)
            self._version += 1
            return self
        if not slice_shape and arr.shape != self._data.shape:
            raise ValueError(f"Parameter {self._name}: set_data got shape {arr.shape}, expected "
                             f"{self._data.shape}")
        if arr.dtype != self._data.dtype:
            arr = arr.astype(self._data.dtype)
        elif arr is self._data or (isinstance(data, Tensor) and arr is data._data):
            arr = arr.copy()
        self._data = arr
        self._version += 1
        return self

    def assign_value(self, value: Any) -> Parameter:
        return self.set_data(value)

    def _assign_array(self, arr: np.ndarray) -> None:
        """Optimizer fast path: take ``arr`` (already the right shape and dtype) as the new value."""
        self._data = arr
        self._version += 1

    def mark_updated(self) -> None:
        """Call after changing ``asnumpy()`` in place."""
        self._version += 1

    def init_data(self, layout: Any = None, set_sliced: bool = False) -> Parameter:
        return self

    def clone(self, init: Any = "same") -> Parameter:
        """A new Parameter with the same name, flags and (for ``init='same'``) a copy of the value."""
        if init == "same":
            p = Parameter(self._data.copy(), name=self._name, requires_grad=self.requires_grad)
        else:
            from cellonnx.common.initializer import initializer
            p = Parameter(initializer(init, self.shape, self.dtype), name=self._name,
                          requires_grad=self.requires_grad)
        p.layerwise_parallel = self.layerwise_parallel
        p.parallel_optimizer = self.parallel_optimizer
        return p

    @property
    def inited_param(self) -> None:
        """The new parameter ``init_data`` made, as MindSpore records it; None: cellonnx's ``init_data``
        fills the parameter itself.

        Examples:
            >>> Parameter(Tensor(np.ones(2), ms.float32), name="w").inited_param is None
            True
        """
        return None

    def register_hook(self, hook_fn: Any) -> Any:  # MindSpore's Parameter names it hook_fn
        """Call ``hook_fn(grad)`` when this parameter's gradient is computed (``Tensor.register_hook``).

        Examples:
            >>> p = Parameter(Tensor(np.ones(2), ms.float32), name="w")
            >>> handle = p.register_hook(lambda grad: grad * 2)
        """
        return super().register_hook(hook_fn)

    def __repr__(self) -> str:
        return (f"Parameter (name={self._name}, shape={tuple(self.shape)}, dtype={self.dtype}, "
                f"requires_grad={self.requires_grad})")

    def __str__(self) -> str:
        return self.__repr__()

    def __deepcopy__(self, memo: dict) -> Parameter:
        p = Parameter(self._data.copy(), name=self._name, requires_grad=self.requires_grad)
        p._deferred = self._deferred
        memo[id(self)] = p
        return p

    def __reduce__(self) -> Any:
        return (Parameter, (self._data, self._name, self.requires_grad))


def tensor(input_data: Any = None, dtype: Any = None, shape: Any = None, init: Any = None,
           const_arg: bool = False, device: str | None = None) -> Tensor:
    """``cellonnx.tensor(data, dtype)``: the Tensor constructor as a function (MindSpore's ``tensor``).

    Args:
        input_data, dtype, shape, init, const_arg: as ``Tensor``.
        device: None or "CPU": cellonnx tensors live in host memory (compiled graphs move their inputs).

    Raises:
        ValueError: another device.

    Examples:
        >>> import cellonnx as ms
        >>> x = ms.tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> x.shape
        (2, 2)
        >>> x.dtype
        mindspore.float32
    """
    if device not in (None, "CPU"):
        raise ValueError(f"tensor: device {device!r} is not available; cellonnx tensors live in host memory "
                         "(device=None or 'CPU')")
    return Tensor(input_data, dtype, shape, init, const_arg=const_arg)


def is_tensor(obj: Any) -> bool:
    """Whether ``obj`` is a cellonnx Tensor (a Parameter is one too).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> ms.is_tensor(ms.Tensor(np.ones(2)))
        True
        >>> ms.is_tensor(np.ones(2))
        False
    """
    return isinstance(obj, Tensor)


def _caller_location(skip_package: str = "cellonnx") -> str:
    """`file:line` of the innermost frame outside this package, for error messages about user code."""
    frame = sys._getframe(1)
    while frame is not None:
        mod = frame.f_globals.get("__name__", "")
        if not (mod == skip_package or mod.startswith(skip_package + ".")):
            return f"{frame.f_code.co_filename}:{frame.f_lineno}"
        frame = frame.f_back
    return "<unknown>"
