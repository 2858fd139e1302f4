"""Gluon's Parameter: a cellonnx Parameter with MXNet's life cycle and gradient buffer.

A Gluon parameter is created with a shape that may hold unknown (0) dims, gets its value from ``initialize``
(at once, or at the first forward pass when the shape is still unknown) or from ``load_parameters``, and keeps
a gradient per ``grad_req``: 'write' (each backward pass overwrites ``.grad``), 'add' (backward passes
accumulate until ``zero_grad``) or 'null' (no gradient: frozen).

``p.data()`` and ``p.grad()`` work as in MXNet; ``p.data`` and ``p.grad`` are also the tensors themselves, as
cellonnx code expects.
"""
from __future__ import annotations

import sys
import warnings
import weakref
from typing import Any

import numpy as np

from cellonnx import dtypes
from cellonnx.autograd import tape
from cellonnx.gluon import init as _init
from cellonnx.ops.prims.shape import Reshape as _Reshape
from cellonnx.tensor import DeferredInitError, Tensor, _infer_array
from cellonnx.tensor import Parameter as _CoreParameter

__all__ = ["Constant", "DeferredInitializationError", "Parameter"]

_GRAD_SLOT = Tensor.__dict__["grad"]          # the slot a Parameter's gradient lives in
_RUN_BACKWARD = tape.run_backward.__code__
_REQS = ("write", "add", "null")


# p.data() arrays by id: (the array, its parameter), so that writing into one sets the parameter
_VIEWS: dict[int, tuple[weakref.ref, weakref.ref]] = {}


def written(array: Tensor) -> None:
    """After ``array[...] = value``: when ``array`` is a parameter's ``data()``, the parameter takes its new
    value (``p.data()[:] = 0`` sets ``p``, as in MXNet)."""
    refs = _VIEWS.get(id(array))
    if refs is None or refs[0]() is not array:
        return
    param = refs[1]()
    if param is not None and param._data is not array._data:
        param._assign_array(array._data)


class DeferredInitializationError(DeferredInitError):
    """A parameter whose shape is still unknown was read before the first forward pass gave it one.

    Examples:
        >>> from cellonnx import gluon
        >>> from cellonnx.mxnet import nd
        >>> layer = gluon.nn.Dense(2)
        >>> layer.initialize()
        >>> try:
        ...     layer.weight.data()
        ... except gluon.DeferredInitializationError:
        ...     print('shape unknown until the first forward pass')
        shape unknown until the first forward pass
        >>> layer(nd.ones((1, 3))).shape
        (1, 2)
        >>> layer.weight.data().shape
        (2, 3)
    """


def _in_place(binary: Any) -> Any:
    def method(self: GradArray, other: Any) -> GradArray:
        result = binary(Tensor._make(self._data), other)
        self._data = np.ascontiguousarray(np.broadcast_to(result._data, self._data.shape), self._data.dtype)
        return self
    method.__name__ = f"__i{binary.__name__[2:]}"
    return method


class GradArray(Tensor):
    """A gradient tensor that can also be called, as MXNet's ``param.grad()``; ``g *= s`` (and ``+=``,
    ``-=``, ``/=``) change the stored gradient in place, as on MXNet's NDArray (``clip_global_norm`` scales
    the gradients the Trainer then reads)."""

    __slots__ = ()

    def __call__(self, device: Any = None) -> GradArray:
        return self

    __iadd__ = _in_place(Tensor.__add__)
    __isub__ = _in_place(Tensor.__sub__)
    __imul__ = _in_place(Tensor.__mul__)
    __itruediv__ = _in_place(Tensor.__truediv__)


def _row_sparse_grad(dense: np.ndarray, rows: np.ndarray | None) -> Any:
    """The gradient as MXNet's row-sparse ``grad()``: rows ``rows`` of ``dense``, callable like GradArray."""
    from cellonnx.mxnet.ndarray.sparse import CallableRowSparse, make

    rows = np.zeros(0, np.int64) if rows is None else rows
    out = make("row_sparse", (dense[rows], rows), dense.shape)
    out.__class__ = CallableRowSparse
    return out


def _shape_known(shape: tuple | None) -> bool:
    return shape is not None and all(int(d) > 0 for d in shape)


class Parameter(_CoreParameter):
    """A Gluon parameter (``mxnet.gluon.Parameter``).

    Args:
        name: the parameter's local name (blocks give it its structural name, ``features.0.weight``).
        grad_req: 'write', 'add' or 'null'. Default: 'write'.
        shape: the shape; 0 marks a dim inferred at the first forward pass (with allow_deferred_init).
        dtype: Default: float32.
        lr_mult, wd_mult: multipliers of the learning rate and weight decay for this parameter. Default: 1.0.
        init: the parameter's own initializer (takes precedence over the one given to ``initialize``).
        allow_deferred_init: allow ``initialize`` while the shape is unknown. Default: False.
        differentiable: False forces grad_req 'null'. Default: True.
        stype: only 'default' (dense) storage is supported for the value.
        grad_stype: 'default', or 'row_sparse': ``grad()`` is then a RowSparseNDArray of the rows the
            parameter's lookups read (``Embedding(sparse_grad=True)``), and an optimizer with ``lazy_update``
            updates those rows only, as MXNet's does.

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> from cellonnx.gluon import Parameter
        >>> w = Parameter('weight', shape=(3, 4), init=mx.init.Xavier())
        >>> w.initialize()
        >>> w.data().shape
        (3, 4)
    """

    def __init__(self, name: str = "weight", grad_req: str = "write", shape: Any = None, dtype: Any = np.float32,
                 lr_mult: float = 1.0, wd_mult: float = 1.0, init: Any = None, allow_deferred_init: bool = False,
                 differentiable: bool = True, stype: str = "default", grad_stype: str = "default") -> None:
        if stype != "default":
            raise ValueError(f"Parameter {name}: stype={stype!r} is not supported; only dense ('default') "
                             "storage is")
        if grad_stype not in ("default", "row_sparse"):
            raise ValueError(f"Parameter {name}: grad_stype must be 'default' or 'row_sparse', got "
                             f"{grad_stype!r}")
        dt = dtypes.dtype(dtype)
        super().__init__(None, name=name, requires_grad=True, shape=(0,), dtype=dt)
        self._gshape: tuple | None = None if shape is None else \
            ((int(shape),) if isinstance(shape, (int, np.integer)) else tuple(int(d) for d in shape))
        self._deferred = (None, dt, self._gshape or ())
        self.init = init
        self.lr_mult = lr_mult
        self.wd_mult = wd_mult
        self._allow_deferred_init = allow_deferred_init
        self._differentiable = differentiable
        self._grad_req = "null"
        self._pending_init: Any = None
        self._fresh_grad = False
        self._grad_stype = grad_stype
        self._looked_up: list[np.ndarray] = []  # rows read since the last backward (row-sparse gradients)
        self._grad_rows: np.ndarray | None = None  # the rows the gradient holds
        self._trainer: Any = None
        self.grad_req = grad_req

    # ---------------------------------------------------------------- shape, dtype, state
    @property
    def shape(self) -> Any:
        """The shape; unknown dims are 0 until the first forward pass (or a load) fixes them."""
        if self._deferred is None:
            return self._data.shape
        return self._gshape

    @shape.setter
    def shape(self, new_shape: Any) -> None:
        new_shape = tuple(int(d) for d in new_shape)
        cur = self.shape
        if cur is not None and (len(cur) != len(new_shape)
                                or any(c not in (0, -1, n) for c, n in zip(cur, new_shape))):
            raise ValueError(f"Parameter '{self.name}': expected shape {new_shape} is incompatible with its shape "
                             f"{cur}")
        if self._deferred is not None:
            self._gshape = new_shape
            self._deferred = (self._deferred[0], self._deferred[1], new_shape)

    @property
    def dtype(self) -> dtypes.DType:
        return self._deferred[1] if self._deferred is not None else dtypes._BY_NUMPY[self._data.dtype]

    @dtype.setter
    def dtype(self, value: Any) -> None:
        self.cast(value)

    @property
    def is_initialized(self) -> bool:
        """Whether the parameter holds a value."""
        return self._deferred is None

    @property
    def grad_req(self) -> str:
        return self._grad_req

    @grad_req.setter
    def grad_req(self, req: str) -> None:
        if req not in _REQS:
            raise ValueError(f"Parameter '{self.name}': grad_req must be one of {list(_REQS)}, got {req!r}")
        if not self._differentiable:
            req = "null"
        self._grad_req = req
        self.requires_grad = req != "null"
        if req == "null":
            _GRAD_SLOT.__set__(self, None)
        elif self._deferred is None and _GRAD_SLOT.__get__(self) is None:
            self._zero_grad_buffer()

    # ---------------------------------------------------------------- gradient
    @property  # type: ignore[override]
    def grad(self) -> GradArray | None:
        """The gradient (also callable: ``p.grad()``); None with grad_req 'null' or before initialization."""
        stored = _GRAD_SLOT.__get__(self)
        # the tape reads the old gradient to add the new one to it: with 'write' there is nothing to add
        caller = sys._getframe(1).f_code
        if self._grad_req == "write" and caller is _RUN_BACKWARD:
            return None
        if self._grad_stype == "row_sparse" and stored is not None and caller is not _RUN_BACKWARD:
            return _row_sparse_grad(stored._data, self._grad_rows)
        return stored

    @property
    def grad_stype(self) -> str:
        """The gradient's storage type: 'default' or 'row_sparse'."""
        return self._grad_stype

    def _note_rows(self, indices: Any) -> None:
        """Record rows a lookup read (they are the rows of the next row-sparse gradient); in a block traced
        into a compiled forward, the rows it reads each time that graph runs."""
        if self._grad_stype == "row_sparse" and self._grad_req != "null":
            from cellonnx.graph import trace

            if trace.current() is not None:
                trace.observe(indices, self._note_rows)
                return
            data = indices._data if isinstance(indices, Tensor) else indices
            self._looked_up.append(np.asarray(data).astype(np.int64).ravel())

    def _take_rows(self, dense: np.ndarray) -> None:
        """After a backward: the rows of the new gradient, those looked up (added to the old ones with
        grad_req 'add'); without recorded lookups the rows with a nonzero gradient."""
        if self._looked_up:
            rows = np.unique(np.concatenate(self._looked_up))
        else:
            rows = np.nonzero(dense.reshape(dense.shape[0], -1).any(axis=1))[0]
        if self._grad_req == "add" and self._grad_rows is not None:
            rows = np.union1d(self._grad_rows, rows)
        self._grad_rows, self._looked_up = rows, []

    @grad.setter
    def grad(self, value: Tensor | None) -> None:
        if value is not None:
            if not isinstance(value, Tensor):
                value = Tensor(np.asarray(value, dtype=self._data.dtype))
            if type(value) is Tensor:
                value.__class__ = GradArray
            if sys._getframe(1).f_code is _RUN_BACKWARD:
                self._fresh_grad = True
                if self._grad_stype == "row_sparse":
                    self._take_rows(value._data)
        _GRAD_SLOT.__set__(self, value)

    def _zero_grad_buffer(self) -> None:
        g = GradArray._make(np.zeros(self._data.shape, self._data.dtype))
        g.__class__ = GradArray
        _GRAD_SLOT.__set__(self, g)

    def zero_grad(self) -> None:
        """Set the gradient to 0 (with grad_req 'add', gradients accumulate until this is called)."""
        self._grad_rows = None
        g = _GRAD_SLOT.__get__(self)
        if g is None:
            return
        if g._data.flags.writeable and g._node is None:
            g._data[...] = 0
        else:
            self._zero_grad_buffer()

    def list_grad(self) -> list[GradArray]:
        """[gradient] (one device)."""
        if self._grad_req == "null":
            raise RuntimeError(f"Cannot get gradient array for Parameter '{self.name}' because grad_req='null'")
        self._check_initialized()
        return [self.grad]  # type: ignore[list-item]

    # ---------------------------------------------------------------- data
    def _check_initialized(self) -> None:
        if self._deferred is None:
            return
        if self._pending_init is not None:
            raise DeferredInitializationError(
                f"Parameter '{self.name}' has not been initialized yet because initialization was deferred. Actual "
                "initialization happens during the first forward pass. Please pass one batch of data through the "
                "network before accessing Parameters. You can also avoid deferred initialization by specifying "
                "in_units, in_channels, etc., for network layers.")
        raise RuntimeError(f"Parameter '{self.name}' has not been initialized. Note that you should initialize "
                           "parameters and create Trainer with Block.collect_params() instead of Block.params because "
                           "the later does not include Parameters of nested child Blocks")

    @property
    def data(self) -> Parameter:  # type: ignore[override]
        """The parameter itself once it holds a value; called, ``p.data()``, its value as MXNet's array."""
        self._check_initialized()
        return self

    def __call__(self, device: Any = None) -> Any:
        """``p.data()``: the value as MXNet's array (mx.np.ndarray under ``npx.set_np()``, else
        mx.nd.NDArray), printing as one. It shares the parameter's memory (writing into it sets the
        parameter) and, while autograd records, passes its gradient on to the parameter; while a graph is
        traced it is the parameter itself."""
        self._check_initialized()
        layer_symbols = sys.modules.get("cellonnx.gluon.symbol.layer_symbols")
        if layer_symbols is not None and layer_symbols.is_tracing():  # traced to MXNet operators
            return layer_symbols.param_var(self)
        from cellonnx.graph import trace
        if trace.current() is not None:
            return self
        from cellonnx.mxnet._placement import place
        from cellonnx.mxnet.ndarray.ndarray import NDArray
        from cellonnx.mxnet.numpy.multiarray import ndarray
        from cellonnx.mxnet.util import is_np_array
        where = self._device_for(device)
        view = _Reshape.apply(self, shape=tuple(self._data.shape))  # NumPy's reshape: a view
        view.__class__ = ndarray if is_np_array() else NDArray
        place(view, where)
        key = id(view)
        _VIEWS[key] = (weakref.ref(view, lambda _: _VIEWS.pop(key, None)), weakref.ref(self))
        return view

    def _device_for(self, device: Any) -> Any:
        """The device ``data(device)`` gives an array on: ``device``, which must be one the parameter was
        initialized on; by default its only device, else the current one."""
        from cellonnx.mxnet._placement import device_arg
        devices = self.list_device()
        if device is None:
            device = devices[0] if len(devices) == 1 else None
        device = device_arg(device)
        if device not in devices:
            raise RuntimeError(f"Parameter '{self.name}' was not initialized on context {device}. It was "
                               f"only initialized on {devices}.")
        return device

    def _record_devices(self, device: Any) -> None:
        """Keep the devices of ``initialize(ctx=...)`` / ``reset_ctx``: one Device or a list (default: the
        current device)."""
        from cellonnx.mxnet._placement import device_arg
        listed = list(device) if isinstance(device, (list, tuple)) else [device]
        self.__dict__["_mx_devices"] = [device_arg(d) for d in listed]

    def list_data(self) -> list[Any]:
        """The value as an array on each device it was initialized on (one host copy: they share memory)."""
        return [self(d) for d in self.list_device()]

    def list_device(self) -> list[Any]:
        """The devices the parameter was initialized on (``initialize(ctx=[...])``); [cpu(0)] by default."""
        devices = self.__dict__.get("_mx_devices")
        if devices is None:
            from cellonnx.mxnet.device import cpu
            return [cpu(0)]
        return list(devices)

    list_ctx = list_device

    def reset_device(self, device: Any = None) -> None:
        """Move the parameter to ``device`` (a Device or a list of them; default: the current device). The
        value stays in host memory (onnxruntime sessions copy it); the devices are what ``list_ctx`` and
        ``data()`` report."""
        self._record_devices(device)

    reset_ctx = reset_device

    def _set_value(self, arr: np.ndarray) -> None:
        """Take ``arr`` (the parameter's shape and dtype) as the value and make the gradient buffer."""
        self._deferred = None
        self._pending_init = None
        self._gshape = tuple(arr.shape)
        self._assign_array(arr)
        if self._grad_req != "null":
            self._zero_grad_buffer()
        else:
            _GRAD_SLOT.__set__(self, None)

    def set_data(self, data: Any, slice_shape: bool = False) -> Parameter:
        """Replace the value (cast to the parameter's dtype); the shape must fit the known dims."""
        arr = _infer_array(data, None)
        if not slice_shape:
            self.shape = arr.shape
        target = self.dtype.np_dtype
        arr = arr.astype(target) if arr.dtype != target else arr.copy()
        if self._deferred is not None:
            self._set_value(arr)
        else:
            self._assign_array(arr)
        return self

    def _load_init(self, data: Any, cast_dtype: bool = False, dtype_source: str = "current") -> None:
        """Set the value from a loaded array, MXNet's checks: known dims must match, dtypes must match unless
        ``cast_dtype`` ('current' keeps this parameter's dtype, 'saved' takes the file's)."""
        if cast_dtype and dtype_source not in ("current", "saved"):
            raise ValueError(f"dtype_source must be 'current' or 'saved', got {dtype_source!r}")
        arr = np.asarray(data.asnumpy() if isinstance(data, Tensor) else data)
        cur = self.shape
        if cur is not None and (len(cur) != arr.ndim or any(c not in (0, -1, d) for c, d in zip(cur, arr.shape))):
            raise AssertionError(f"Failed loading Parameter '{self.name}' from saved params: shape incompatible "
                                 f"expected {cur} vs saved {arr.shape}")
        want = self.dtype.np_dtype
        if arr.dtype != want:
            if not cast_dtype:
                raise AssertionError(f"Failed loading Parameter '{self.name}' from saved params: dtype incompatible "
                                     f"expected {want} vs saved {arr.dtype}. Set cast_dtype=True to cast the dtype "
                                     "of saved params.")
            if dtype_source == "current":
                arr = arr.astype(want)
            else:
                self.cast(arr.dtype)
        self._set_value(np.array(arr, copy=True))

    # ---------------------------------------------------------------- initialization
    def initialize(self, init: Any = None, device: Any = None, default_init: Any = None,
                   force_reinit: bool = False, ctx: Any = None) -> None:
        """Give the parameter its initial value, or record the initializer until the shape is known.

        Args:
            init: initializer for this parameter; default: its own ``init``, else ``default_init``.
            device: the device or list of devices (``ctx`` is MXNet 1.x's name); default: the current one.
                The value is held once, in host memory.
            default_init: used when neither ``init`` nor the parameter's own is given. Default: Uniform().
            force_reinit: re-initialize a parameter that already holds a value. Default: False.
        """
        if self._deferred is None and not force_reinit:
            warnings.warn(f"Parameter '{self.name}' is already initialized, ignoring. Set force_reinit=True to "
                          "re-initialize.", stacklevel=2)
            return
        self._record_devices(device if device is not None else ctx)
        if init is None:
            init = self.init if self.init is not None else (default_init if default_init is not None
                                                            else _init.Uniform())
        self._pending_init = init
        if not _shape_known(self.shape):
            if not self._allow_deferred_init:
                raise ValueError(f"Cannot initialize Parameter '{self.name}' because it has invalid shape: "
                                 f"{self.shape}.")
            return
        self._finish_deferred_init()

    def _finish_deferred_init(self) -> None:
        """Run the recorded initializer now that the shape is known (no-op without one)."""
        if self._pending_init is None:
            return
        shape = self.shape
        if not _shape_known(shape):
            raise ValueError(f"Cannot initialize Parameter '{self.name}' because it has invalid shape: {shape}. "
                             "Please specify in_units, in_channels, etc for `Block`s.")
        init = _init.create(self._pending_init)
        arr = np.zeros(shape, dtype=self.dtype.np_dtype)
        init._init_weight(self.name, arr)
        init._log(self.name, init, arr)
        self._set_value(arr)

    # ---------------------------------------------------------------- casting and printing
    def cast(self, dtype: Any) -> None:
        """Change the dtype (the value and gradient are cast)."""
        dt = dtypes.dtype(dtype)
        if self._deferred is not None:
            self._deferred = (self._deferred[0], dt, self._deferred[2])
            self._data = np.zeros((0,), dt.np_dtype)
            return
        if self._data.dtype != dt.np_dtype:
            self._set_value(self._data.astype(dt.np_dtype))

    def var(self) -> Any:
        """This parameter as a symbol variable (``mx.sym.var`` with its name, shape - 0 for an unknown dim -,
        dtype, lr_mult, wd_mult and init), the same Symbol on every call."""
        cached = self.__dict__.get("_var")
        if cached is None:
            from cellonnx.gluon.symbol.symbol import var

            dims = self.shape
            shape = None if dims is None else tuple(0 if d is None or d < 0 else int(d) for d in dims)
            cached = var(self.name, shape=shape, dtype=self.dtype.np_dtype, lr_mult=self.lr_mult,
                         wd_mult=self.wd_mult, init=self.init, stype="default")
            self.__dict__["_var"] = cached
        return cached

    def row_sparse_data(self, row_id: Any) -> Any:
        raise NotImplementedError("row_sparse parameters are not supported (dense storage only)")

    def _reduce(self) -> np.ndarray:
        self._check_initialized()
        return self._data

    def __repr__(self) -> str:
        return f"Parameter {self.name} (shape={self.shape}, dtype={self.dtype.np_dtype})"

    __str__ = __repr__

    def __deepcopy__(self, memo: dict) -> Parameter:
        p = type(self).__new__(type(self))
        memo[id(self)] = p
        p.__dict__.update(self.__dict__)
        p.__dict__["_looked_up"] = []
        for slot in ("_name", "_version", "_deferred", "_inited", "layerwise_parallel", "parallel_optimizer",
                     "requires_grad", "_node", "_out_index", "_sig_shape", "_sig_dtype", "_hooks"):
            object.__setattr__(p, slot, getattr(self, slot))
        p._data = self._data.copy()
        p._node = None
        _GRAD_SLOT.__set__(p, None)
        if self._deferred is None and self._grad_req != "null":
            p._zero_grad_buffer()
        return p


class Constant(Parameter):
    """A parameter that holds a fixed value and takes no gradient (``mxnet.gluon.Constant``).

    Args:
        value: the value (array-like or Tensor).

    Examples:
        >>> from cellonnx import gluon
        >>> c = gluon.Constant(name='c', value=[[1, 2], [3, 4]])
        >>> c.initialize()
        >>> print(c.data().asnumpy())
        [[1. 2.]
         [3. 4.]]
        >>> c.grad_req
        'null'
    """

    def __init__(self, value: Any, name: str = "const") -> None:
        arr = _infer_array(value, None)
        if not isinstance(value, (Tensor, np.ndarray, np.generic)):
            arr = arr.astype(np.float32)  # a Python list or number: float32, as MXNet's nd.array / np.array
        super().__init__(name=name, grad_req="null", shape=arr.shape, dtype=arr.dtype, init=_init.Constant(arr),
                         differentiable=False)
        self.value = arr

    def __repr__(self) -> str:
        return f"Constant {self.name} (shape={self.shape}, dtype={self.dtype.np_dtype})"
