"""gluon.HybridBlock: a Block that ``hybridize()`` compiles to an ONNX graph run by onnxruntime.

Once hybridized, the first inference call traces ``forward`` through ``cellonnx.graph.compile`` (batch axis
dynamic unless ``static_shape=True``) and later calls run the compiled graph; weights updated since (a Trainer
step, load_parameters) reach the session without a new trace. Calls inside ``autograd.record()`` run a
forward and a backward graph traced for training (cellonnx/gluon/hybrid_train.py, MXNet's CachedOp: one tape
entry whose backward is the compiled one); calls in training mode outside ``record()`` run eagerly.
``export`` writes the same graph to ``<path>.onnx``; ``register_op_hook`` sees every intermediate value of the
compiled graph.
"""
from __future__ import annotations

import logging
import warnings
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
import onnx

from cellonnx import context
from cellonnx.autograd.tape import is_grad_enabled
from cellonnx.gluon import autograd
from cellonnx.gluon.block import Block, _grad_req, adopt
from cellonnx.gluon.flat_call import FlatCall, is_nested, leaves
from cellonnx.gluon.hybrid_train import CompiledTraining, input_shapes
from cellonnx.graph import compile as _compile
from cellonnx.graph import trace as _trace
from cellonnx.graph.runtime import Session
from cellonnx.graph.step_trace import batch_is_dynamic
from cellonnx.graph.vjp import trace_vjp
from cellonnx.nn import cell as _cell
from cellonnx.nn.cell import Cell
from cellonnx.tensor import Tensor

__all__ = ["HybridBlock"]

_BACKENDS = {None: None, "cpu": "CPU", "cpuexecutionprovider": "CPU", "gpu": "GPU", "cuda": "GPU",
             "cudaexecutionprovider": "GPU", "auto": "auto"}


_log = logging.getLogger(__name__)
_eager = [0]   # >0 while a hybridized block runs eagerly to give its children their deferred shapes


class _Spec(NamedTuple):
    """The shape and dtype of a tensor argument of the last call (what export traces with)."""

    shape: tuple
    dtype: Any


_SYMBOL_BASE: list[Any] = []


def _symbol_base() -> Any:
    """cellonnx.gluon.symbol's Symbol base class, once that package is loaded (no Symbol exists before)."""
    if not _SYMBOL_BASE:
        import sys

        base = getattr(sys.modules.get("cellonnx.gluon.symbol.symbol"), "SymbolBase", None)
        if base is None:
            return None
        _SYMBOL_BASE.append(base)
    return _SYMBOL_BASE[0]


def _specs(args: tuple) -> tuple:
    return tuple(_Spec(tuple(a.shape), a.dtype) if isinstance(a, Tensor)
                 else type(a)(_specs(tuple(a))) if type(a) in (list, tuple) else a for a in args)


def _signature(args: tuple, static: bool) -> list[Any]:
    """Inputs for tracing: a tensor keeps its dtype and shape, axis 0 dynamic unless ``static``."""
    sigs: list[Any] = []
    for a in args:
        if isinstance(a, (Tensor, _Spec)) and len(a.shape) > 0 and not static:
            sigs.append(Tensor(shape=(None, *a.shape[1:]), dtype=a.dtype))
        elif isinstance(a, _Spec):
            sigs.append(Tensor(np.zeros(a.shape, a.dtype.np_dtype)))
        else:
            sigs.append(a)
    return sigs


def _leaves(args: Any) -> list[Any]:
    """The tensor arguments (Tensors and _Specs) of ``args``, lists and tuples flattened, in order."""
    if type(args) in (list, tuple):
        return [leaf for a in args for leaf in _leaves(a)]
    return [args] if isinstance(args, (Tensor, _Spec)) else []


def _export_signature(block: Any, args: tuple, static: bool) -> list[Any]:
    """Inputs for tracing an export: each tensor's batch axis dynamic (gluon.rnn.batch_axes: axis 0, or the
    recurrent layout's), states and other tensors inside lists included, unless ``static``."""
    from cellonnx.gluon.rnn.batch_axes import batch_axes

    leaves = _leaves(args)
    axes = iter(batch_axes(block, [tuple(a.shape) for a in leaves]))

    def sig(a: Any) -> Any:
        if type(a) in (list, tuple):
            return type(a)(sig(x) for x in a)
        if not isinstance(a, (Tensor, _Spec)):
            return a
        axis = next(axes)
        if static or len(a.shape) == 0:
            return Tensor(np.zeros(a.shape, a.dtype.np_dtype)) if isinstance(a, _Spec) else a
        return Tensor(shape=tuple(None if i == axis else d for i, d in enumerate(a.shape)), dtype=a.dtype)
    return [sig(a) for a in args]


def _key(sigs: list[Any]) -> tuple:
    return tuple((str(s.dtype), tuple(s._sig_shape or s.shape)) if isinstance(s, Tensor)
                 else ("const", repr(s))
                 for s in sigs)


class HybridBlock(Block):
    """A Block whose ``forward`` uses only tensor operations, so that ``hybridize()`` can compile it.

    Examples:
        >>> from cellonnx.gluon import nn
        >>> x = Tensor(np.ones((4, 8), np.float32))
        >>> net = nn.HybridSequential()
        >>> net.add(nn.Dense(10, activation='relu'), nn.Dense(2))
        >>> net.initialize()
        >>> net.hybridize()
        >>> y = net(x)            # traced once, then run by onnxruntime
        >>> net.export('model')   # model.onnx
        'model.onnx'
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        d = self.__dict__
        d["_active"] = False
        d["_hybrid_flags"] = {}
        d["_compiled"] = {}
        d["_backend"] = None
        d["_in_args"] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # Gluon 1.x: hybrid_forward(F, x, *args, **params) is the computation unless the class defines forward
        if "hybrid_forward" in cls.__dict__:
            cls._uses_hybrid_forward = True
            if "forward" not in cls.__dict__:
                cls.construct = HybridBlock._run_hybrid_forward  # type: ignore[method-assign]
                cls.forward = HybridBlock._run_hybrid_forward  # type: ignore[method-assign]

    def hybrid_forward(self, F: Any, x: Any, *args: Any, **kwargs: Any) -> Any:
        """Gluon 1.x's computation: ``F`` is the operator namespace (``mx.nd`` eagerly, ``mx.sym`` while a
        hybridized block is traced), parameters come as keyword arguments named as the attributes."""
        raise NotImplementedError(f"{type(self).__name__} must define forward (Gluon 2.x) or hybrid_forward "
                                  "(Gluon 1.x)")

    def _run_hybrid_forward(self, x: Any, *args: Any) -> Any:
        """Call ``hybrid_forward`` with the operator namespace and this block's registered parameters.

        While tracing, F is ``mx.sym``: its operators are the same functions as ``mx.nd``'s, recorded into the
        graph because their inputs are traced tensors; so one code path serves both and ``F is mx.sym`` still
        tells code that it is being hybridized."""
        from cellonnx.gluon.symbol.symbol import is_symbol
        from cellonnx.mxnet import ndarray, symbol

        if is_symbol(x):  # called on Symbols, as MXNet 1.x allows: the parameters are variables of the graph
            from cellonnx.mxnet.name import Prefix

            params = {k: symbol.var(p.name) for k, p in self._params.items() if p is not None}
            with Prefix(getattr(self, "prefix", "") or ""):  # node names take the block's prefix, as in MXNet
                return self.hybrid_forward(symbol, x, *args, **params)
        F = symbol if _trace._current else ndarray
        params = {k: p for k, p in self._params.items() if p is not None}
        return self.hybrid_forward(F, x, *args, **params)

    def register_child(self, block: Cell, name: str | None = None) -> None:
        if isinstance(block, Block) and not isinstance(block, HybridBlock):  # MXNet raises ValueError here
            raise ValueError(  # noqa: TRY004
                f"Children of HybridBlock must also be HybridBlock, but {block!r} has type "
                f"{type(block)}. If you "
                "are using Sequential, please try HybridSequential instead.")
        super().register_child(block, name)
        if self._active:
            warnings.warn("Currently the model has been hybridized. Automatically deactivate the "
                          "hybridization when "
                          "adding new children block.", stacklevel=2)
            self.__dict__["_active"] = False
        self._clear_cached_op()

    # ---------------------------------------------------------------- hybridize
    def hybridize(self, active: bool = True, partition_if_dynamic: bool = True, static_alloc: bool = False,
                  static_shape: bool = False, inline_limit: int = 2, forward_bulk_size: int | None = None,
                  backward_bulk_size: int | None = None, **kwargs: Any) -> None:
        """Compile this block (and its HybridBlock children) at the next call (inference, or training
        inside ``autograd.record()``).

        Args:
            active: turn compilation on or off. Default: True.
            static_shape: trace with the exact input shapes (one graph per shape) instead of a dynamic batch
                axis. Default: False.
            partition_if_dynamic, static_alloc, inline_limit, forward_bulk_size, backward_bulk_size: MXNet's
                executor options, accepted for compatibility (onnxruntime plans memory itself).
        """
        self.__dict__["_active"] = bool(active)
        self.__dict__["_hybrid_flags"] = {"static_alloc": static_alloc, "static_shape": static_shape}
        self._clear_cached_op()
        if active and (self._forward_hook or self._forward_pre_hook):
            warnings.warn(f'"{type(self).__name__}" is being hybridized while still having forward '
                          'hook/pre-hook. '
                          "The hooks do not run while the compiled graph does.", stacklevel=2)
        super().hybridize(active, static_alloc=static_alloc, static_shape=static_shape, **kwargs)

    def _set_active(self, active: bool) -> None:
        self.__dict__["_active"] = active
        self._clear_cached_op()

    def _clear_cached_op(self) -> None:
        self._compiled.clear()

    def cast(self, dtype: Any) -> HybridBlock:
        self._clear_cached_op()
        super().cast(dtype)
        return self

    def register_op_hook(self, callback: Callable[[str, str, Tensor], Any],
                         monitor_all: bool = False) -> None:
        """Call ``callback(tensor_name, op_type, tensor)`` for every node output of the compiled graph (inputs
        too with ``monitor_all``) when this hybridized block runs."""
        self.__dict__["_callback"] = callback
        self.__dict__["_monitor_all"] = bool(monitor_all)
        super().register_op_hook(callback, monitor_all)

    # ---------------------------------------------------------------- calling
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if args and _symbol_base() is not None and isinstance(args[0], _symbol_base()):
            if not type(self)._uses_hybrid_forward:
                return self._call_on_symbols(args, kwargs)
            return Cell.__call__(self, *args, **kwargs)  # hybrid_forward builds nodes: nothing to compile
        self._prepare_params(args)
        if _trace._current:
            return adopt(Cell.__call__(self, *args, **kwargs), args)
        self.__dict__["_in_args"] = _specs(args)
        if self._active and not _eager[0] and not kwargs and autograd.is_recording():
            return adopt(self._call_recorded(args), args)
        if self._active and not _eager[0] and not kwargs and not autograd.is_training() \
                and not self.training:
            return adopt(self._call_compiled(args), args)
        return adopt(Cell.__call__(self, *args, **kwargs), args)

    def _call_on_symbols(self, args: tuple, kwargs: dict) -> Any:
        """Called on Symbols (MXNet 1.x code builds its graph so; mx.contrib.amp traces blocks so): a gluon.nn
        layer adds the node MXNet's hybrid_forward adds, other blocks run their forward on the Symbols (their
        layers, mx.npx operators and ``p.data()`` then build the graph)."""
        from cellonnx.gluon.symbol.layer_symbols import layer_symbol

        out = layer_symbol(self, *args) if not kwargs else None
        return out if out is not None else Cell.__call__(self, *args, **kwargs)

    def _ready(self) -> bool:
        return all(p._deferred is None for p in self._unique_params())

    def _settle_shapes(self, args: tuple) -> None:
        if not self._ready():  # children still have deferred shapes: one eager pass gives them theirs
            _eager[0] += 1
            _cell._graph_depth[0] += 1  # eager even in GRAPH_MODE: there is no graph before the shapes
            try:
                with autograd.pause(train_mode=False):
                    Cell.__call__(self, *args)
            finally:
                _eager[0] -= 1
                _cell._graph_depth[0] -= 1

    def _compiled_for(self, args: tuple, device_target: str | None = None) -> _compile.CompiledCell:
        """The compiled graph of a call on ``args``; tensors inside list arguments (a recurrent model's
        states) are graph inputs, so the compiled graph is called on ``leaves(args)``."""
        self._settle_shapes(args)
        flat = FlatCall(self, args) if is_nested(args) else None
        static = bool(self._hybrid_flags.get("static_shape")) or "_static_axis0" in self.__dict__
        sigs = _signature(tuple(flat.leaves) if flat else args, static)
        target = device_target or self._backend or context.get_context("device_target")
        key = (_key(sigs), target, context.get_context("opset"), flat.structure() if flat else None)
        compiled = self._compiled.get(key)
        if compiled is None:
            self._name_params()
            try:
                with autograd.pause(train_mode=False):
                    traced = _compile.trace_cell(flat or self, sigs)
            except _trace.StaticDimRequired as exc:
                if static:
                    raise
                self.__dict__["_static_axis0"] = True
                _log.debug("%s: %s; traced for each size of axis 0", type(self).__name__, exc)
                return self._compiled_for(args, device_target)
            compiled = _compile.CompiledCell(self, traced, device_target=target)
            self._compiled[key] = compiled
        return compiled

    def _training_for(self, args: tuple) -> tuple[CompiledTraining, tuple]:
        """The compiled forward and backward graphs for a call inside ``autograd.record()`` and the
        arguments they take (the tensors of list arguments flattened, as the inference graph takes them),
        traced again when the input signature, the training mode, which inputs need gradients or a grad_req
        changes."""
        self._settle_shapes(args)
        static = bool(self._hybrid_flags.get("static_shape")) or not batch_is_dynamic() or \
            "_static_axis0" in self.__dict__
        flat = FlatCall(self, args) if is_nested(args) else None
        call = tuple(flat.leaves) if flat else args
        shapes = input_shapes(self, call, static)
        wrt = tuple(i for i, a in enumerate(call) if isinstance(a, Tensor) and a.requires_grad
                    and is_grad_enabled())
        target = self._backend or context.get_context("device_target")
        signature = tuple((str(a.dtype), shape) if shape is not None else ("const", repr(a))
                          for a, shape in zip(call, shapes))
        key = ("train", signature, flat.structure() if flat else None, autograd.is_training(), wrt,
               tuple(_grad_req(p) for p in self._unique_params()),
               tuple(bool(c.training) for _, c in self.cells_and_names()), target,
               context.get_context("opset"))
        compiled = self._compiled.get(key)
        if compiled is None:
            self._name_params()

            def forward(*xs: Any) -> Any:
                return flat(*xs) if flat else Cell.__call__(self, *xs)

            _log.debug("%s: tracing the training graphs for %s", type(self).__name__, key[1:3])
            try:
                graphs = trace_vjp(forward, call, wrt, dynamic_batch=not static, name=type(self).__name__,
                                   shapes=shapes)
            except _trace.StaticDimRequired as exc:
                if static:
                    raise
                # a recurrence over axis 0 (TNC), a float of the batch size: one graph per size of axis 0
                self.__dict__["_static_axis0"] = True
                _log.debug("%s: %s; its training graphs are traced for each size of axis 0",
                           type(self).__name__, exc)
                return self._training_for(args)
            except _trace.TraceError as exc:
                raise type(exc)(f"{type(self).__name__} is hybridized and trains as a compiled graph under "
                                f"autograd.record(): {exc} (or call hybridize(False) on it to train it "
                                "eagerly)") from exc
            batch = next((int(a.shape[0]) for a in call if isinstance(a, Tensor) and a.ndim), None)
            compiled = CompiledTraining(graphs, target, context.get_context("device_id") or 0,
                                        type(self).__name__, batch=batch)
            self._compiled[key] = compiled
        return compiled, call

    def _call_recorded(self, args: tuple) -> Any:
        compiled, call = self._training_for(args)
        return compiled(call)

    def _call_compiled(self, args: tuple) -> Any:
        compiled = self._compiled_for(args)
        args = leaves(args) if is_nested(args) else args
        out = compiled(*args)
        if self._callback is not None:
            _run_op_hook(compiled, args, self._callback, self._monitor_all)
        return out

    def optimize_for(self, x: Any, *args: Any, backend: str | None = None, clear: bool = False,
                     partition_if_dynamic: bool = True, static_alloc: bool = False,
                     static_shape: bool = False,
                     inline_limit: int = 2, forward_bulk_size: int | None = None,
                     backward_bulk_size: int | None = None, **kwargs: Any) -> None:
        """Hybridize and compile now for an onnxruntime provider, without running the graph.

        Args:
            x, args: example inputs.
            backend: 'CPU' / 'CPUExecutionProvider', 'GPU' / 'CUDA' / 'CUDAExecutionProvider', 'auto', or None
                (the context's device_target).
            clear: forget earlier compilations. Default: False.
        """
        name = backend.lower() if isinstance(backend, str) else backend
        if name not in _BACKENDS:
            raise ValueError(f"optimize_for: unknown backend {backend!r}; expected one of "
                             "'CPU', 'CPUExecutionProvider', 'GPU', 'CUDA', 'CUDAExecutionProvider', "
                             "'auto' or None")
        if clear or not self._active:
            self.hybridize(True, partition_if_dynamic, static_alloc, static_shape, inline_limit,
                           forward_bulk_size,
                           backward_bulk_size)
        self.__dict__["_backend"] = _BACKENDS[name]
        inputs = (x, *args)
        self._prepare_params(inputs)
        self.__dict__["_in_args"] = _specs(inputs)
        compiled = self._compiled_for(inputs)
        compiled.session  # noqa: B018 - build the onnxruntime session now

    # ---------------------------------------------------------------- export
    def export(self, path: str, epoch: int = 0, remove_amp_cast: bool = True) -> str:
        """Write the inference graph to ``<path>.onnx`` (batch axis dynamic), parameters as initializers named
        by structural name.

        Args:
            path: file path without extension.
            epoch: recorded in the model's metadata (MXNet put it in the .params file name). Default: 0.
            remove_amp_cast: accepted for compatibility.

        Returns:
            The path written.
        """
        if self._in_args is None:
            raise RuntimeError("Please first call block.hybridize() and then run forward with this "
                               "block at least "
                               "once before calling export.")
        from cellonnx.converters.onnx_format import save_model

        sigs = _export_signature(self, self._in_args, bool(self._hybrid_flags.get("static_shape")))
        self._name_params()
        with autograd.pause(train_mode=False):
            if is_nested(tuple(sigs)):  # lists of tensors (a recurrent model's states): one input each
                flat = FlatCall(self, tuple(sigs))
                model = _compile.export_model(flat, *flat.leaves)
            else:
                model = _compile.export_model(self, *sigs)
        onnx.helper.set_model_props(model,
                                    {**{p.key: p.value for p in model.metadata_props}, "epoch": str(epoch)})
        file_name = path if path.endswith(".onnx") else path + ".onnx"
        save_model(model, file_name)
        return file_name


def _run_op_hook(compiled: _compile.CompiledCell, args: tuple, callback: Callable, monitor_all: bool) -> None:
    """Run the compiled graph again with every node output (and input, with monitor_all) exposed."""
    model = onnx.ModelProto()
    model.CopyFrom(compiled.model)
    inferred = onnx.shape_inference.infer_shapes(model)
    types = {vi.name: vi for vi in (*inferred.graph.value_info, *inferred.graph.output,
                                    *inferred.graph.input)}
    outputs = {o.name for o in model.graph.output}
    init_names = {t.name for t in model.graph.initializer}
    watched: list[tuple[str, str]] = []
    for node in model.graph.node:
        names = [*(node.input if monitor_all else ()), *node.output]
        for name in names:
            if name and name in types and name not in init_names:
                watched.append((name, node.op_type))
                if name not in outputs:
                    model.graph.output.append(types[name])
                    outputs.add(name)
    overrides = {n: p._data for n, p in compiled.traced.params.items() if n in init_names}
    session = Session(model.SerializeToString(), compiled.device_target, compiled.device_id,
                      overrides=overrides)
    values = dict(zip(session.output_names, session.run(compiled.feeds(args))))
    feeds = compiled.feeds(args)
    for name, op_type in watched:
        value = values.get(name, feeds.get(name))
        if value is not None:
            callback(name, op_type, Tensor._make(np.asarray(value)))
