"""compile(): a cell's construct traced into an ONNX model and run by onnxruntime.

graph/ never imports nn/: a "cell" here is anything with construct-style calling, parameters_and_names()
and (optionally) get_inputs(), training and named_buffers().
"""
from __future__ import annotations

import inspect
import json
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import onnx

import cellonnx
from cellonnx import context
from cellonnx.graph.builder import DEFAULT_OPSET
from cellonnx.graph.optimize import optimize
from cellonnx.graph.runtime import Session
from cellonnx.graph.trace import TraceError, trace
from cellonnx.tensor import Parameter, Tensor

TWO_GB = 2 * 1024 ** 3


# ---------------------------------------------------------------- input signatures
def _arg_names(cell: Any, n: int) -> list[str]:
    fn = getattr(cell, "construct", None) or getattr(cell, "forward", None) or cell
    try:
        params = [p for p in inspect.signature(fn).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        names = [p.name for p in params]
        if any(p.kind == p.VAR_POSITIONAL for p in inspect.signature(fn).parameters.values()):
            names += [f"input_{i}" for i in range(len(names), n)]
    except (TypeError, ValueError):
        names = []
    names = names[:n] + [f"input_{i}" for i in range(len(names), n)]
    return names


def input_specs(cell: Any, args: Sequence[Any]) -> list[tuple[int, Tensor, list]]:
    """(position, example, declared shape) for each Tensor argument; set_inputs() signatures give the
    dynamic dims (None).

    Args:
        cell: the cell (its ``get_inputs()`` declares dynamic dims, if any).
        args: the call's arguments; those that are not Tensors are left out.

    Returns:
        list of (position, example Tensor, shape list with None for each dynamic dim).

    Raises:
        ValueError: an argument's rank or static dims differ from what ``set_inputs`` declared.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, nn
        >>> net = nn.Dense(2, 1, weight_init='ones', bias_init='zeros')
        >>> x = Tensor(np.array([[1.0, 2.0]]), ms.float32)
        >>> from cellonnx.graph.compile import input_specs
        >>> net.set_inputs(Tensor(shape=[None, 2], dtype=ms.float32))
        >>> [(pos, shape) for pos, _, shape in input_specs(net, [x])]
        [(0, [None, 2])]
    """
    sigs = None
    get_inputs = getattr(cell, "get_inputs", None)
    if callable(get_inputs):
        sigs = get_inputs()
    specs = []
    for i, a in enumerate(args):
        if not isinstance(a, Tensor):
            continue
        if a.is_signature:  # Tensor(shape=(None, 3), dtype=...): its None dims are dynamic
            from cellonnx.graph.trace import example_from_signature
            specs.append((i, example_from_signature(a), list(a._sig_shape)))
            continue
        shape: list = list(a._data.shape)
        if sigs is not None and i < len(sigs) and isinstance(sigs[i], Tensor):
            sig = sigs[i]
            sig_shape = list(sig._sig_shape if sig._sig_shape is not None else sig.shape)
            if len(sig_shape) != len(shape):
                raise ValueError(f"input {i}: set_inputs declared rank {len(sig_shape)} {tuple(sig_shape)}, "
                                 f"got shape {tuple(shape)}")
            for k, (d, s) in enumerate(zip(shape, sig_shape)):
                if s is not None and s != d:
                    raise ValueError(f"input {i}: set_inputs declared dim {k} = {s}, got shape {tuple(shape)}")
            shape = [None if s is None else d for d, s in zip(shape, sig_shape)]
        specs.append((i, a, shape))
    return specs


def signature_key(cell: Any, args: Sequence[Any]) -> tuple:
    """The cache key of a compiled graph: each tensor input's position, dtype and (symbolic) shape.

    Args:
        cell: the cell.
        args: the call's arguments; those that are not Tensors enter the key by their repr.

    Returns:
        tuple, equal for two calls that share a compiled graph.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, nn
        >>> net = nn.Dense(2, 1, weight_init='ones', bias_init='zeros')
        >>> x = Tensor(np.array([[1.0, 2.0]]), ms.float32)
        >>> from cellonnx.graph.compile import signature_key
        >>> signature_key(net, [x])
        ((0, '<f4', (1, 2)),)
        >>> signature_key(net, [x]) == signature_key(net, [Tensor(np.zeros((1, 2)), ms.float32)])
        True
    """
    key = []
    for pos, t, shape in input_specs(cell, args):
        key.append((pos, t._data.dtype.str, tuple(shape)))
    for i, a in enumerate(args):
        if not isinstance(a, Tensor):
            key.append((i, "const", repr(a)))
    return tuple(key)


# ---------------------------------------------------------------- tracing a cell
def cell_parameters(cell: Any) -> list[tuple[str, Tensor]]:
    """A cell's parameters as (name, Parameter) pairs, each once, in ``parameters_and_names`` order,
    then its buffers: the graph initializers of a trace.

    Args:
        cell: the cell.

    Returns:
        list of (name, Parameter or Tensor).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, nn
        >>> net = nn.Dense(2, 1, weight_init='ones', bias_init='zeros')
        >>> x = Tensor(np.array([[1.0, 2.0]]), ms.float32)
        >>> from cellonnx.graph.compile import cell_parameters
        >>> [name for name, _ in cell_parameters(net)]
        ['weight', 'bias']
    """
    params: list[tuple[str, Tensor]] = []
    seen: set[int] = set()
    if hasattr(cell, "parameters_and_names"):
        for name, p in cell.parameters_and_names():
            if id(p) not in seen:
                seen.add(id(p))
                params.append((p.name if isinstance(p, Parameter) else name, p))
    if hasattr(cell, "named_buffers"):
        for name, b in cell.named_buffers():
            if id(b) not in seen and isinstance(b, Tensor):
                seen.add(id(b))
                params.append((name, b))
    return params


@dataclass
class Traced:
    """A traced cell: the ONNX model and how it maps onto the cell's call.

    Args:
        model: the ONNX ModelProto.
        params: initializer name -> the Parameter (or buffer) it was traced from.
        input_names: the graph inputs, in order.
        input_positions: the call argument each graph input is fed from.
        output_names: the graph outputs, in order.
        structure: how the flat outputs nest into the call's result (None for one Tensor).
        eager: the call's eager result, computed while tracing.
        values: recorded intermediate values, where a caller asked for them.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, nn
        >>> net = nn.Dense(2, 1, weight_init='ones', bias_init='zeros')
        >>> x = Tensor(np.array([[1.0, 2.0]]), ms.float32)
        >>> from cellonnx.graph.compile import trace_cell
        >>> traced = trace_cell(net, [x])
        >>> print(traced.input_names, traced.input_positions, sorted(traced.params))
        ['x'] [0] ['bias', 'weight']
    """

    model: onnx.ModelProto
    params: dict[str, Tensor]
    input_names: list[str]
    input_positions: list[int]
    output_names: list[str]
    structure: Any
    eager: Any = None
    values: dict[str, np.ndarray] = field(default_factory=dict)


def _structure(out: Any) -> Any:
    if isinstance(out, Tensor):
        return None
    return type(out), [_structure(o) for o in out]


def _rebuild(structure: Any, flat: list[Tensor]) -> Any:
    if structure is None:
        return flat.pop(0)
    kind, items = structure
    return kind(_rebuild(s, flat) for s in items)


def trace_cell(cell: Any, args: Sequence[Any], opset: int | None = None, optimize_graph: bool = True,
               dynamic_names: bool = True) -> Traced:
    """Trace ``cell(*args)`` into an optimized ONNX model.

    Args:
        cell: the cell.
        args: the call's arguments (Tensors become graph inputs; dims declared dynamic by
            ``set_inputs`` or by signature Tensors stay symbolic).
        opset: ONNX opset (None: the context's).
        optimize_graph: run cellonnx's graph optimizer on the trace.
        dynamic_names: name dynamic dims ("batch" for axis 0, "<input>_dim<k>" otherwise).

    Returns:
        Traced.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, nn
        >>> net = nn.Dense(2, 1, weight_init='ones', bias_init='zeros')
        >>> x = Tensor(np.array([[1.0, 2.0]]), ms.float32)
        >>> from cellonnx.graph.compile import trace_cell
        >>> traced = trace_cell(net, [x])
        >>> print([i.name for i in traced.model.graph.input], traced.eager)
        ['x'] [[3.]]
    """
    opset = opset or context.get_context("opset") or DEFAULT_OPSET
    specs = input_specs(cell, args)
    names = _arg_names(cell, len(args))
    graph_inputs = []
    for pos, t, shape in specs:
        dims = [None if d is None else d for d in shape]
        graph_inputs.append((names[pos], t, dims))
    params = cell_parameters(cell)
    positions = [pos for pos, _, _ in specs]
    args = list(args)
    for pos, example, _ in specs:
        args[pos] = example

    def fn(*tensors: Tensor) -> Any:
        call = list(args)
        for pos, t in zip(positions, tensors):
            call[pos] = t
        return cell(*call)

    g, result = trace(fn, graph_inputs, params, opset=opset, name=type(cell).__name__)
    if dynamic_names:
        _name_dynamic_dims(g, graph_inputs)
    meta = {"cell_class": f"{type(cell).__module__}.{type(cell).__qualname__}",
            "parameter_names": json.dumps([n for n, _ in params])}
    model = g.model(producer_version=cellonnx.__version__, metadata=meta)
    if optimize_graph:
        model = optimize(model, keep_initializers=[n for n, _ in params])
    return Traced(model, dict(params), [names[p] for p in positions], positions,
                  [o.name for o in model.graph.output], _structure(result), result)


def _name_dynamic_dims(g: Any, graph_inputs: list) -> None:
    """Dynamic dims get readable names: axis 0 is "batch", others "<input>_dim<k>"."""
    for vi, (name, _, dims) in zip(g.inputs, graph_inputs):
        for k, d in enumerate(vi.type.tensor_type.shape.dim):
            if dims[k] is None:
                d.Clear()
                d.dim_param = "batch" if k == 0 else f"{name}_dim{k}"


# ---------------------------------------------------------------- the compiled cell
def serialize(model: onnx.ModelProto) -> bytes:
    """The model's protobuf bytes, written chunk by chunk (no 2 GiB limit of one SerializeToString).

    Args:
        model: the ONNX ModelProto.

    Returns:
        bytes that ``onnx.load_from_string`` and onnxruntime read.

    Examples:
        >>> import onnx
        >>> from onnx import TensorProto, helper
        >>> from cellonnx.graph.compile import serialize
        >>> graph = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g",
        ...                           [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
        ...                           [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])])
        >>> model = helper.make_model(graph)
        >>> onnx.load_from_string(serialize(model)) == model
        True
    """
    from cellonnx.converters.proto_chunks import message_chunks

    chunks = message_chunks(model)
    if sum(len(c) for c in chunks) >= TWO_GB:
        raise ValueError("model is over 2 GB: export it with external data (cellonnx.export) and load the file")
    return b"".join(chunks)


class CompiledCell:
    """A traced cell bound to an onnxruntime session. Calling it feeds the Tensor arguments and returns
    Tensors shaped like the eager result. Parameters updated since the last call (optimizer steps,
    load_param_into_net) reach the graph on the next call: their initializers are rewritten and the session
    rebuilt, with no new trace.

    Args:
        cell: the cell that was traced (held weakly where it can be).
        traced: its trace (``trace_cell``).
        device_target: "CPU", "GPU" or "auto" (None: the context's).
        device_id: the GPU (None: the context's).
        intra_op_num_threads: onnxruntime's threads (0: the context's, or onnxruntime's choice).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, nn
        >>> net = nn.Dense(2, 1, weight_init='ones', bias_init='zeros')
        >>> x = Tensor(np.array([[1.0, 2.0]]), ms.float32)
        >>> from cellonnx.graph.compile import CompiledCell, trace_cell
        >>> compiled = CompiledCell(net, trace_cell(net, [x]))
        >>> print(compiled(x))
        [[3.]]
        >>> _ = net.bias.set_data(Tensor(np.array([1.0]), ms.float32))
        >>> print(compiled(x), compiled.sessions_built)
        [[4.]] 2
    """

    def __init__(self, cell: Any, traced: Traced, device_target: str | None = None, device_id: int | None = None,
                 intra_op_num_threads: int = 0) -> None:
        self.cell_ref = weakref.ref(cell) if _weakrefable(cell) else (lambda: cell)
        self.traced = traced
        self.device_target = device_target or context.get_context("device_target")
        self.device_id = context.get_context("device_id") if device_id is None else device_id
        self.threads = intra_op_num_threads or context.get_context("intra_op_num_threads") or 0
        self._model_bytes = serialize(traced.model)
        init_names = {t.name for t in traced.model.graph.initializer}
        self._live = {n: p for n, p in traced.params.items() if n in init_names}
        self._baked = {n: _version(p) for n, p in self._live.items()}
        self._baked_ids = {n: id(p._data) for n, p in self._live.items()}
        self._session: Session | None = None
        self.sessions_built = 0

    @property
    def model(self) -> onnx.ModelProto:
        return self.traced.model

    def _changed(self) -> list[str]:
        return [n for n, p in self._live.items()
                if _version(p) != self._baked[n] or id(p._data) != self._baked_ids[n]]

    def _write_weights(self, names: list[str]) -> None:
        """Put the current values of ``names`` into the model's initializers. (onnxruntime folds constants
        and fuses Conv+BatchNormalization from the model's own initializer data, so an initializer override
        given to the session would not reach a weight that is transposed, gathered or fused.)"""
        from cellonnx.graph.builder import to_tensor_proto

        index = {t.name: i for i, t in enumerate(self.traced.model.graph.initializer)}
        for name in names:
            p = self._live[name]
            old = self.traced.model.graph.initializer[index[name]]
            if list(old.dims) != list(p._data.shape) or old.data_type != p.dtype.onnx:
                raise RuntimeError(f"compiled {self.traced.model.graph.name}: parameter {name!r} changed from "
                                   f"{onnx.TensorProto.DataType.Name(old.data_type).lower()}{list(old.dims)} to "
                                   f"{p.dtype}{list(p._data.shape)} since it was traced; compile the cell again")
            old.CopyFrom(to_tensor_proto(p._data, name))
            self._baked[name], self._baked_ids[name] = _version(p), id(p._data)
        self._model_bytes = serialize(self.traced.model)

    @property
    def session(self) -> Session:
        changed = self._changed()
        if changed:
            self._write_weights(changed)
        if self._session is None or changed:
            self._session = Session(self._model_bytes, self.device_target, self.device_id,
                                    intra_op_num_threads=self.threads)
            self.sessions_built += 1
        return self._session

    def feeds(self, args: Sequence[Any]) -> dict[str, np.ndarray]:
        """The onnxruntime feeds for these call arguments: graph input name -> C-contiguous array."""
        return {name: np.require(args[pos]._data, requirements='C')
                for name, pos in zip(self.traced.input_names, self.traced.input_positions)}

    def __call__(self, *args: Any) -> Any:
        outs = self.session.run(self.feeds(args))
        return _rebuild(self.traced.structure, [Tensor._make(o) for o in outs])


def _version(p: Tensor) -> int:
    return p.version if isinstance(p, Parameter) else 0


def _weakrefable(obj: Any) -> bool:
    try:
        weakref.ref(obj)
        return True
    except TypeError:
        return False


_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def compile_cell(cell: Any, *args: Any, opset: int | None = None) -> CompiledCell:
    """Trace ``cell`` on ``args`` (once per input signature) and return the compiled graph.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, nn
        >>> net = nn.Dense(2, 1, weight_init='ones', bias_init='zeros')
        >>> x = Tensor(np.array([[1.0, 2.0]]), ms.float32)
        >>> compiled = ms.compile_graph(net, x)
        >>> print(compiled(x))
        [[3.]]
    """
    key = (signature_key(cell, args), opset or context.get_context("opset"), bool(getattr(cell, "training", False)),
           context.get_context("device_target"))
    per_cell = _CACHE.setdefault(cell, {}) if _weakrefable(cell) else {}
    compiled = per_cell.get(key)
    if compiled is None:
        compiled = CompiledCell(cell, trace_cell(cell, args, opset))
        per_cell[key] = compiled
    return compiled


def compile_and_run(cell: Any, *args: Any) -> Any:
    """Compile ``cell`` for these arguments (or reuse the cached graph) and run it in onnxruntime.

    Args:
        cell: the cell.
        args: its call's arguments.

    Returns:
        the call's result, Tensors shaped as the eager result.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, nn
        >>> net = nn.Dense(2, 1, weight_init='ones', bias_init='zeros')
        >>> x = Tensor(np.array([[1.0, 2.0]]), ms.float32)
        >>> from cellonnx.graph.compile import compile_and_run
        >>> print(compile_and_run(net, x))
        [[3.]]
    """
    return compile_cell(cell, *args)(*args)


_in_graph_call = [False]


def _any_training(cell: Any) -> bool:
    cells = getattr(cell, "cells_and_names", None)
    if callable(cells):
        return any(getattr(c, "training", False) for _, c in cells())
    return bool(getattr(cell, "training", False))


def run_graph_mode(cell: Any, *args: Any, step: bool = False) -> Any:
    """GRAPH_MODE: a top-level call of a cell runs its compiled graph: the inference graph, or in training
    mode (the cell or one of its sub-cells training, or ``step``: a training wrapper) the compiled training
    step (cellonnx/graph/train.py: parameter, optimizer-state and moving-statistic updates included).
    ``Cell.__call__`` calls it; a call made while a compiled call is under way returns None (run eagerly).

    Args:
        cell: the cell called.
        args: its call's arguments.
        step: run the compiled training step even where no sub-cell is training.

    Returns:
        the call's result, or None inside a compiled call.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, nn
        >>> net = nn.Dense(2, 1, weight_init='ones', bias_init='zeros')
        >>> x = Tensor(np.array([[1.0, 2.0]]), ms.float32)
        >>> from cellonnx.graph.compile import run_graph_mode
        >>> print(run_graph_mode(net.set_train(False), x))
        [[3.]]
    """
    if _in_graph_call[0]:
        return None
    _in_graph_call[0] = True
    try:
        if step or _any_training(cell):
            from cellonnx.graph.train import run_step
            return run_step(cell, *args)
        return compile_cell(cell, *args)(*args)
    finally:
        _in_graph_call[0] = False


def graph_mode_active() -> bool:
    """Whether calls run compiled now: GRAPH_MODE is set and no compiled call is under way.

    Returns:
        bool.

    Examples:
        >>> import cellonnx as ms
        >>> from cellonnx.graph.compile import graph_mode_active
        >>> ms.set_context(mode=ms.PYNATIVE_MODE)
        >>> graph_mode_active()
        False
    """
    return context.mode == context.GRAPH_MODE and not _in_graph_call[0]


# ---------------------------------------------------------------- export
def export_model(net: Any, *inputs: Any, opset: int | None = None) -> onnx.ModelProto:
    """The inference graph of ``net`` (traced in eval mode, its training flag restored afterwards).

    Args:
        net: the network (a Cell).
        inputs: example input Tensors; none to use those declared by ``net.set_inputs``.
        opset: ONNX opset (None: the context's).

    Returns:
        onnx.ModelProto.

    Raises:
        ValueError: no inputs given and none declared.
        TraceError: the network does something that cannot be traced.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, nn
        >>> net = nn.Dense(2, 1, weight_init='ones', bias_init='zeros')
        >>> x = Tensor(np.array([[1.0, 2.0]]), ms.float32)
        >>> from cellonnx.graph.compile import export_model
        >>> model = export_model(net, x)
        >>> [n.op_type for n in model.graph.node]
        ['Gemm']
    """
    was_training = bool(getattr(net, "training", False))
    set_train: Callable | None = getattr(net, "set_train", None)
    if was_training and set_train:
        set_train(False)
    try:
        if not inputs:
            sigs = net.get_inputs() if hasattr(net, "get_inputs") else None
            if not sigs:
                raise ValueError("export: give example inputs, or declare them with net.set_inputs(...)")
            from cellonnx.graph.trace import example_from_signature
            inputs = tuple(example_from_signature(s) for s in sigs)
        return trace_cell(net, inputs, opset).model
    except TraceError:
        raise
    finally:
        if was_training and set_train:
            set_train(True)
