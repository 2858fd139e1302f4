"""Tracing: run a function once on example tensors with every op also lowering itself into a GraphBuilder.

Tensors computed only from constants are folded (their eager value becomes an initializer where a traced
op needs it). Dims declared dynamic come back from ``tensor.shape`` as SymInts. Branching on a traced
tensor's value raises TraceError pointing at the user's line.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import ml_dtypes
import numpy as np
from onnx import TensorProto, helper

from cellonnx import dtypes
from cellonnx.autograd.tape import no_grad
from cellonnx.graph.builder import GraphBuilder, value_info_of
from cellonnx.graph.shape_probe import ShapeProbe
from cellonnx.graph.symint import SymInt, is_symbolic
from cellonnx.ops import registry
from cellonnx.tensor import Parameter, Tensor, _caller_location

# the module (the package attribute `cellonnx.tensor` is the tensor() function, as in MindSpore)
tensor_mod = importlib.import_module("cellonnx.tensor")


_BF16 = np.dtype(ml_dtypes.bfloat16)
# ops whose lowering moves bfloat16 data without computing on it (Cast converts it)
_BF16_NATIVE = frozenset({"Cast", "Reshape", "Squeeze", "ExpandDims"})


class TraceError(RuntimeError):
    """The traced function did something a static ONNX graph cannot express."""


class StaticDimRequired(TraceError):
    """An op unrolls over a dim that is dynamic in the graph being traced (a recurrence's time steps): the
    graph can only hold the example's size of it."""


def require_static(dim: Any, what: str, float_read: bool = False, pieces: bool = False,
                   attribute: bool = False) -> None:
    """Raise :class:`StaticDimRequired` where ``dim`` is dynamic in the graph being traced: ``what`` unrolls
    over it (one node per step), so the graph would only hold the example's ``int(dim)`` steps and silently
    take another size for it (or fail in onnxruntime); with ``float_read``, ``what`` makes a Python float of
    it, which the graph would hold as the example's size; with ``pieces``, ``what`` returns a number of
    tensors that depends on it (a split into pieces of a given size, unbind), which a graph's outputs cannot
    follow; with ``attribute``, ``what`` is a number written into the graph's node (a convolution's group
    count)."""
    if not (_current and is_symbolic(dim)):
        return
    if attribute:
        raise StaticDimRequired(f"{_where()}: {what} is a number in the graph, which would hold {int(dim)}, "
                                "the example's size of a dim that is dynamic in this graph; declare that dim "
                                "static (set_inputs with its size)")
    if pieces:
        raise StaticDimRequired(f"{_where()}: {what} gives a number of pieces that depends on the size "
                                f"of a dim that is dynamic in this graph (the example's {int(dim)}); declare "
                                "that dim static (set_inputs with its size), or split into a given number of "
                                "pieces (tensor_split)")
    if float_read:
        raise StaticDimRequired(f"{_where()}: {what} the graph would hold as {int(dim)}, the example's size "
                                "of a dim that is dynamic in this graph; divide by the int (x / x.shape[0] "
                                "stays dynamic), or declare that dim static (set_inputs with its size)")
    raise StaticDimRequired(f"{_where()}: {what} unrolls over its {int(dim)} steps, a dim that is "
                            "dynamic in this graph; declare that dim static (set_inputs with its size), "
                            "or keep the steps on an axis that is not the batch (batch_first=True)")


class LoweringError(TraceError, NotImplementedError):
    """An op met while tracing has no ONNX lowering (for these arguments)."""


def _where() -> str:
    """The user's line, and the innermost library line below it when that is where it happened."""
    import sys

    user = _caller_location()
    frame = sys._getframe(1)
    while frame is not None:
        mod = frame.f_globals.get("__name__", "")
        if mod.startswith("cellonnx.") and frame.f_locals.get("__tracebackhide__"):   # a check the op called
            frame = frame.f_back
            continue
        if mod.startswith("cellonnx.") and not mod.startswith(("cellonnx.graph.", "cellonnx.tensor",
                                                               "cellonnx.ops.registry")):
            return f"{user} (in {frame.f_code.co_filename}:{frame.f_lineno})"
        if not mod.startswith("cellonnx"):
            break
        frame = frame.f_back
    return user


class Tracer:
    """Binds the Tensors of a traced function to graph values.

    A ``stateful`` tracer (a training step) makes every Parameter it meets a graph input instead of an
    initializer, records which Parameters the function assigns (their last binding becomes a graph output
    paired with the input) and forbids reading state values into Python (VALUE_HOOK).
    """

    def __init__(self, g: GraphBuilder, dynamic: bool, parent: Tracer | None = None,
                 stateful: bool = False) -> None:
        self.g = g
        self.dynamic = dynamic
        self.parent = parent
        self.stateful = stateful
        self.state_inputs: dict[int, tuple[str, Parameter]] = {}   # id -> (graph input name, parameter)
        self.written: dict[int, Parameter] = {}                    # parameters assigned, in order
        self.snapshots: dict[int, tuple[Parameter, np.ndarray, int]] = {}
        self.static_inputs: set[str] = set()
        # dim_params of graph inputs left open to take whatever size a value inference could not follow
        # has (a backward seed's), which is no dynamic dim of their own
        self.open_dims: set[str] = set()
        self.cells_seen: dict[int, Any] = {}   # cells called while tracing (their training flags matter)
        self.observed: list[tuple[Tensor, Callable[[np.ndarray], None]]] = []   # see observe()
        self.names: dict[int, str] = {}
        self.consts: set[int] = set()
        self._keep: list[Tensor] = []   # keeps ids stable while tracing
        self._shapes: dict[int, tuple] = {}
        self._probe = ShapeProbe(g)

    def bind(self, t: Tensor, name: str, const: bool = False) -> None:
        self.names[id(t)] = name
        self._keep.append(t)
        if const:
            self.consts.add(id(t))

    def alias(self, new: Tensor, old: Tensor) -> None:
        name = self._lookup(old)
        if name is not None:
            self.bind(new, name, const=not self.is_traced(old))

    def is_traced(self, t: Tensor) -> bool:
        if id(t) in self.names:
            return id(t) not in self.consts
        return self.parent.is_traced(t) if self.parent is not None else False

    def _lookup(self, t: Tensor) -> str | None:
        name = self.names.get(id(t))
        if name is None and self.parent is not None:
            return self.parent._lookup(t)  # an outer-scope value, referenced by name from the subgraph
        return name

    def root(self) -> Tracer:
        return self if self.parent is None else self.parent.root()

    def snapshot(self, p: Parameter) -> None:
        """Remember ``p``'s value before the trace touched it (the trace's eager side effects are undone)."""
        if id(p) not in self.snapshots:
            self.snapshots[id(p)] = (p, p._data, p._version)

    def state_input(self, p: Parameter) -> str:
        """The graph input holding ``p`` (made on first use)."""
        entry = self.state_inputs.get(id(p))
        if entry is None:
            self.snapshot(p)
            name = self.g.fresh(p.name)
            self.g.inputs.append(value_info_of(name, p._data))
            self.state_inputs[id(p)] = entry = (name, p)
            self.static_inputs.add(name)
            self.bind(p, name)
        return entry[0]

    def name_of(self, t: Tensor) -> str:
        name = self._lookup(t)
        if name is None:
            root = self.root()
            if isinstance(t, Parameter) and root.stateful:
                return root.state_input(t)
            if isinstance(t, Parameter):
                pname = t.name if t.name not in self.g._used else self.g.fresh(t.name)
                name = self.g.initializer(pname, t._data)
                self.bind(t, name)
            else:
                name = self.g.const(t._data)
                self.bind(t, name, const=True)
        return name

    def record(self, op: Any, inputs: tuple[Tensor, ...], attrs: dict, outs: tuple[Tensor, ...]) -> None:
        if op.deterministic and not any(self.is_traced(t) or isinstance(t, Parameter) for t in inputs) \
                and not is_symbolic(list(attrs.values())):
            return  # constant: folded, materialised only if a traced op consumes it
        names = [self.name_of(t) for t in inputs]
        g = self.g
        if op.name not in _BF16_NATIVE and any(t._data.dtype == _BF16 for t in (*inputs, *outs)):
            result = self._lower_in_float32(op, inputs, attrs, outs, names)
        else:
            inputs, names = self._promoted(inputs, outs, names)
            g.in_tensors, g.out_tensors = inputs, outs
            try:
                result = op.lower(g, *names, **attrs)
            except NotImplementedError as exc:
                if isinstance(exc, TraceError):
                    raise
                if type(exc) is not NotImplementedError:  # its own kind (NotExportable ...): say where
                    try:
                        located = type(exc)(f"{_where()}: {exc} (compute it with ops that have an ONNX "
                                            "lowering, or run this code in PYNATIVE_MODE)")
                    except TypeError:
                        raise exc from None
                    raise located from exc
                raise LoweringError(f"{_where()}: op {op.name} cannot be written as ONNX ({exc}); compute "
                                    "it with ops that have a lowering, or run this code in PYNATIVE_MODE"
                                    ) from exc
        if isinstance(result, str):
            result = (result,)
        if len(result) != len(outs):
            raise TraceError(f"op {op.name}: lowering gave {len(result)} outputs for {len(outs)}")
        for t, n in zip(outs, result):
            self.bind(t, n)
        root = self.root()
        if root.stateful:
            for t in outs:
                if isinstance(t, Parameter):
                    if self is not root:
                        raise TraceError(f"{_caller_location()}: a parameter ({t.name}) is assigned inside a "
                                         "control-flow body of a compiled training step; assign it after the "
                                         "loop / branch (ops.where selects the value)")
                    root.snapshot(t)
                    root.written.setdefault(id(t), t)

    def on_value(self, t: Tensor, use: str = "read") -> None:
        """VALUE_HOOK of a stateful trace: Python may not read graph state or what is computed from it
        (``use`` 'printed': print / str / format / ops.Print of it)."""
        if isinstance(t, Parameter) or self.is_traced(t):
            what = f"parameter {t.name!r}" if isinstance(t, Parameter) else "a tensor computed in the graph"
            if use == "printed":
                raise TraceError(f"{_where()}: {what} is printed while a training step is compiled; the "
                                 "print would run once, at trace time, with the example's values, and never "
                                 "again. "
                                 "Return the tensor from the step (or read it in a callback) and print it "
                                 "there, or run the step in PYNATIVE_MODE")
            raise TraceError(f"{_where()}: the value of {what} is read into Python (asnumpy / item / "
                             "float / NumPy) while a training step is compiled; the graph would freeze it. "
                             "Compute it with cellonnx ops (ops.where for a choice), or run the step in "
                             "PYNATIVE_MODE")

    def on_assign(self, p: Parameter, value: Any) -> bool:
        """ASSIGN_HOOK of a stateful trace: ``p.set_data(value)`` becomes a graph assignment."""
        from cellonnx.ops.operations._util import assign_to

        assign_to(p, value, "Parameter.set_data")
        return True

    def restore_state(self) -> None:
        """Undo what tracing did to the parameters' eager values."""
        for p, data, version in self.snapshots.values():
            p._data, p._version = data, version

    def _promoted(self, inputs: tuple[Tensor, ...], outs: tuple[Tensor, ...],
                  names: list[str]) -> tuple[tuple[Tensor, ...], list[str]]:
        """Float inputs of mixed widths whose result has the widest of them (NumPy's promotion: a float64
        batch through float32 weights computes in float64 eagerly) are cast to it first: ONNX ops take one
        float type (a Gemm of float64 by float32 would not load)."""
        widths = {t._data.dtype for t in inputs if t._data.dtype.kind == "f"}
        result = {t._data.dtype for t in outs if t._data.dtype.kind == "f"}
        if len(widths) < 2 or len(result) != 1:
            return inputs, names
        (wide,) = result
        if any(d.itemsize >= wide.itemsize for d in widths - {wide}):
            return inputs, names
        to = helper.np_dtype_to_tensor_dtype(wide)
        cast = [t._data.dtype.kind == "f" and t._data.dtype != wide for t in inputs]
        names = [self.g.op("Cast", n, to=to) if c else n for n, c in zip(names, cast)]
        inputs = tuple(Tensor._make(t._data.astype(wide)) if c else t for t, c in zip(inputs, cast))
        return inputs, names

    def _lower_in_float32(self, op: Any, inputs: tuple[Tensor, ...], attrs: dict, outs: tuple[Tensor, ...],
                          names: list[str]) -> tuple[str, ...]:
        """A bfloat16 op as float32 between Casts: ONNX defines few ops on bfloat16 and onnxruntime's CPU
        provider runs almost none; computing in float32 and rounding the result to bfloat16 is also what
        the NumPy forward does (ml_dtypes), so eager and graph round at the same places."""
        g = self.g

        def f32(t: Tensor) -> Tensor:
            return Tensor._make(t._data.astype(np.float32)) if t._data.dtype == _BF16 else t

        names = [g.op("Cast", n, to=TensorProto.FLOAT) if t._data.dtype == _BF16 else n
                 for n, t in zip(names, inputs)]
        g.in_tensors, g.out_tensors = tuple(f32(t) for t in inputs), tuple(f32(t) for t in outs)
        result = op.lower(g, *names, **attrs)
        result = (result,) if isinstance(result, str) else tuple(result)
        return tuple(g.op("Cast", r, to=TensorProto.BFLOAT16) if t._data.dtype == _BF16 else r
                     for r, t in zip(result, outs))

    # ---- subgraphs for control flow (If / Loop / Scan bodies) ----
    @contextmanager
    def suspended(self) -> Iterator[None]:
        """Run ops eagerly without emitting nodes (the eager side of a loop)."""
        saved = _install(None)
        try:
            yield
        finally:
            _restore(saved)

    def subgraph(self, fn: Callable[..., Any], examples: Sequence[Tensor], name: str
                 ) -> tuple[Any, list[Tensor]]:
        """Trace ``fn(*placeholders)`` into a subgraph whose inputs are the placeholders; returns the
        GraphProto and fn's eager outputs (flattened)."""
        child = Tracer(self.g.child(self.g.fresh(name)), self.dynamic, parent=self)
        placeholders = []
        for i, ex in enumerate(examples):
            t = Tensor._make(ex._data)
            iname = child.g.fresh(f"{child.g.name}_in{i}")
            child.g.inputs.append(child.g.subgraph_io(iname, ex.dtype.onnx, ex.ndim))
            child.bind(t, iname)
            placeholders.append(t)
        saved = _install(child)
        try:
            outs = flatten_outputs(fn(*placeholders))
            for k, o in enumerate(outs):
                oname = child.g.fresh(f"{child.g.name}_out{k}")
                child.g.nodes.append(helper.make_node("Identity", [child.name_of(o)], [oname],
                                                      name=child.g.fresh(f"{child.g.name}/Identity")))
                child.g.outputs.append(child.g.subgraph_io(oname, o.dtype.onnx))
        finally:
            _restore(saved)
        return child.g.graph(), outs

    def tensor_of(self, value: Any) -> Tensor:
        """A traced int64 scalar tensor for a SymInt (or a constant one for a plain int)."""
        t = Tensor._make(np.asarray(int(value), dtype=np.int64))
        if isinstance(value, SymInt):
            self.bind(t, self.g.op("Squeeze", value.onnx_name(self.g), self.g.i64([0])))
        return t

    def bind_symbolic(self, t: Tensor, value: Any) -> None:
        """Bind ``t``, a tensor made from a symbolic dim (``Tensor(x.shape[0])``, ``x / x.shape[0]``) or a
        sequence holding one, to the graph value computing it, so the size is read at run time."""
        g = self.g
        if isinstance(value, SymInt):
            name = g.op("Squeeze", value.onnx_name(g), g.i64([0]))
        else:
            name = g.shape_value([v if isinstance(v, SymInt) else int(v) for v in value])
        if t._data.dtype != np.int64:
            name = g.op("Cast", name, to=dtypes.dtype(t._data.dtype).onnx)
        self.bind(t, name)

    def emit(self, op_type: str, inputs: Sequence[Tensor | None], outputs: Sequence[Tensor],
             **attrs: Any) -> None:
        """Emit one node over traced tensors and bind ``outputs`` (eager values) to its results."""
        names = ["" if t is None else self.name_of(t) for t in inputs]
        result = self.g.op(op_type, *names, outputs=len(outputs), **attrs)
        for t, n in zip(outputs, (result,) if isinstance(result, str) else result):
            self.bind(t, n)

    def _static_dims(self, name: str) -> list | None:
        """What ONNX shape inference knows of ``name``'s dims in the graph traced so far: ints for static
        dims, None for dynamic ones. Re-run only for a value made since the last run (appending nodes never
        changes what was inferred of the values already there)."""
        if self.parent is not None:
            return None
        return self._probe.dims().get(name)

    def shape_of(self, t: Tensor) -> tuple:
        shape = t._data.shape
        if not self.dynamic or not self.is_traced(t) or not shape:
            return shape
        cached = self._shapes.get(id(t))
        if cached is None:
            name = self._lookup(t)
            # a weight, a folded constant or a state input: its shape is part of the model
            if name in self.g.initializers or name in self.root().static_inputs:
                return shape
            full: dict[int, str] = {}
            known = self._static_dims(name) or [None] * len(shape)

            def dim(i: int) -> Callable[[GraphBuilder], str]:
                def make(g: GraphBuilder) -> str:
                    if g.opset >= 15:
                        return g.op("Shape", name, start=i, end=i + 1)
                    if id(g) not in full:
                        full[id(g)] = g.op("Shape", name)
                    return g.op("Gather", full[id(g)], g.i64([i]), axis=0)
                return make

            # dims shape inference proves static stay plain ints (no Shape node, usable where an op needs
            # an int); a dynamic one keeps the symbol inference gave it (``d0``, ``d1`` ...), which tells two
            # dims of the graph apart where the example's sizes are equal (batch and sequence both 1)
            symbols = self._probe.symbols().get(name) if self.parent is None else None
            symbols = [self._dim_symbol(sym) for sym in symbols or [None] * len(shape)]
            cached = tuple(d if isinstance(k, int) and k == d else SymInt(d, dim(i), symbol=sym)
                           for i, (d, k, sym) in enumerate(zip(shape, known, symbols)))
            self._shapes[id(t)] = cached
        return cached

    def _dim_symbol(self, param: str | None) -> tuple | None:
        """A dim's symbol for SymInt: its dim_param with the dim_params declared beside it on one graph input.
        Two axes of one input are two dims; the same name on two inputs says nothing (inputs name their
        dynamic dims by axis: ``d1`` of x (5, d1, 3) and ``d0`` of its lengths (d0,) are one batch)."""
        if param is None:
            return None
        beside: set[str] = set()
        inputs = 0
        for vi in self.g.inputs:
            params = {d.dim_param for d in vi.type.tensor_type.shape.dim if d.dim_param}
            if param in params:
                beside |= params
                inputs += 1
        # a name inference made up (unk__0) is no input's dim: each probe numbers its own from 0
        if not inputs or param in self.root().open_dims:
            return None
        # the third entry: the name is one input's, so two dims holding it are one dim at every size
        return (param, frozenset(beside - {param}), inputs == 1)

    def on_bool(self, t: Tensor) -> None:
        if self.is_traced(t):
            raise TraceError(f"{_where()}: Python control flow on a tensor's value cannot be "
                             "traced into an ONNX graph; use ops.where (elementwise) or ops.cond / "
                             "ops.while_loop")


def _install(tracer: Tracer | None) -> tuple:
    """Point the tensor and op-registry hooks at ``tracer`` (None: no tracing); returns what was there."""
    saved = (registry.TRACE_HOOK, registry.ACTIVE_TRACER, tensor_mod.SHAPE_HOOK, tensor_mod.BOOL_HOOK,
             tensor_mod.ALIAS_HOOK, tensor_mod.SYMBOLIC_HOOK, tensor_mod.VALUE_HOOK, tensor_mod.ASSIGN_HOOK)
    if tracer is None:
        registry.TRACE_HOOK = registry.ACTIVE_TRACER = None
        tensor_mod.SHAPE_HOOK = tensor_mod.BOOL_HOOK = tensor_mod.ALIAS_HOOK = tensor_mod.SYMBOLIC_HOOK = None
        tensor_mod.VALUE_HOOK = tensor_mod.ASSIGN_HOOK = None
    else:
        registry.TRACE_HOOK, registry.ACTIVE_TRACER = tracer.record, tracer
        tensor_mod.SHAPE_HOOK, tensor_mod.BOOL_HOOK = tracer.shape_of, tracer.on_bool
        tensor_mod.ALIAS_HOOK, tensor_mod.SYMBOLIC_HOOK = tracer.alias, tracer.bind_symbolic
        stateful = tracer.root().stateful
        tensor_mod.VALUE_HOOK = tracer.root().on_value if stateful else None
        tensor_mod.ASSIGN_HOOK = tracer.root().on_assign if stateful else None
    return saved


def _restore(saved: tuple) -> None:
    (registry.TRACE_HOOK, registry.ACTIVE_TRACER, tensor_mod.SHAPE_HOOK, tensor_mod.BOOL_HOOK,
     tensor_mod.ALIAS_HOOK, tensor_mod.SYMBOLIC_HOOK, tensor_mod.VALUE_HOOK, tensor_mod.ASSIGN_HOOK) = saved


_current: list[Tracer] = []


def current() -> Tracer | None:
    return _current[-1] if _current else None


def tracing_step() -> bool:
    """True while a training step (a stateful trace) is being traced."""
    return bool(_current) and _current[-1].root().stateful


@contextmanager
def tracing(tracer: Tracer) -> Iterator[Tracer]:
    _current.append(tracer)
    saved = _install(tracer)
    try:
        with no_grad():
            yield tracer
    finally:
        _current.pop()
        _restore(saved)


def observe(t: Tensor, callback: Callable[[np.ndarray], None]) -> None:
    """While a function is traced into a forward graph (trace_vjp): ``callback`` receives the value ``t``
    takes each time that graph runs (the graph returns it as one more output), as eager code would have
    seen it; a row-sparse gradient's lookups are recorded this way. Outside a trace, called at once."""
    tracer = current()
    if tracer is None:
        callback(np.asarray(t._data if isinstance(t, Tensor) else t))
        return
    if tracer.parent is not None:
        raise TraceError(f"{_where()}: a value read at run time (an embedding's lookup with a row-sparse "
                         "gradient) inside a control-flow body; do the lookup outside the loop / branch")
    tracer.observed.append((t if isinstance(t, Tensor) else Tensor._make(np.asarray(t)), callback))


@contextmanager
def updates_unless(skip: Tensor) -> Iterator[None]:
    """In a training step being traced: the parameter assignments made inside take effect only where the
    boolean scalar ``skip`` is False (each assigned value becomes ``where(skip, old, new)``), as a step that
    skips its update on a gradient overflow. Outside a trace the block simply runs."""
    tracer = current()
    if tracer is None or not tracer.root().stateful:
        yield
        return
    from cellonnx.ops.prims.math import where

    root = tracer.root()
    before = {pid: root._lookup(p) for pid, p in root.written.items()}
    yield
    for pid, p in list(root.written.items()):
        new = root._lookup(p)
        old = before.get(pid)
        if old == new:
            continue
        if old is None:  # first assignment in the block: the old value is the step's input (made an input
            # when the step writes it unread: a skipped step keeps the value it was called with)
            entry = root.state_inputs.get(pid)
            old = entry[0] if entry is not None else root.state_input(p)
        old_t, new_t = Tensor._make(p._data), Tensor._make(p._data)
        root.bind(old_t, old)
        root.bind(new_t, new)
        root.bind(p, root.name_of(where(skip, old_t, new_t)))


@contextmanager
def scope(name: str) -> Iterator[None]:
    """Name the nodes emitted inside (``layer1.0.conv1/Conv``); free when not tracing."""
    tracer = current()
    if tracer is None or not name:
        yield
        return
    tracer.g.scope.append(name)
    try:
        yield
    finally:
        tracer.g.scope.pop()


def flatten_outputs(out: Any) -> list[Tensor]:
    if isinstance(out, Tensor):
        return [out]
    if isinstance(out, (tuple, list)):
        flat: list[Tensor] = []
        for o in out:
            flat.extend(flatten_outputs(o))
        return flat
    raise TraceError(f"traced function returned {type(out).__name__}; expected Tensors (or tuples of them)")


def trace(fn: Callable[..., Any], inputs: Sequence[tuple[str, Tensor, Sequence[Any]]],
          params: Sequence[tuple[str, Parameter]] = (), opset: int | None = None, name: str = "cellonnx",
          output_names: Sequence[str] | None = None) -> tuple[GraphBuilder, Any]:
    """Trace ``fn(*example_tensors)`` into a GraphBuilder.

    Args:
        inputs: (graph input name, example tensor, declared shape with None, or a dim_param name, for
            dynamic dims).
        params: (initializer name, parameter) pairs, named as parameters_and_names() names them.
    Returns:
        the builder (inputs, outputs and initializers set) and fn's eager result.
    """
    from cellonnx.graph.builder import DEFAULT_OPSET

    g = GraphBuilder(opset or DEFAULT_OPSET, name)
    dynamic = any(d is None or isinstance(d, str) for _, _, shape in inputs for d in shape)
    tracer = Tracer(g, dynamic)
    for pname, p in params:
        if id(p) in tracer.names:
            continue  # shared parameter: one initializer
        tracer.bind(p, g.initializer(pname, p._data))
    args = []
    for iname, example, shape in inputs:
        t = Tensor._make(example._data)
        tracer.bind(t, g.add_input(iname, example.dtype, shape))
        args.append(t)
    with tracing(tracer):
        result = fn(*args)
        flat = flatten_outputs(result)
        names = list(output_names) if output_names else \
            ([f"output_{i}" for i in range(len(flat))] if len(flat) > 1 else ["output"])
        if len(names) != len(flat):
            raise TraceError(f"{len(names)} output names given for {len(flat)} outputs")
        with g.adding_outputs():
            for t, oname in zip(flat, names):
                value = tracer.name_of(t)
                shape = [None if tracer.dynamic and tracer.is_traced(t) else int(d) for d in t._data.shape]
                g.add_output(value, oname, t.dtype, shape)
    return g, result


def example_from_signature(sig: Tensor, fill: int = 2) -> Tensor:
    """A concrete example for an input signature (dynamic dims set to ``fill``)."""
    shape = [fill if d is None else d for d in (sig._sig_shape or sig.shape)]
    return Tensor._make(np.zeros(shape, dtype=sig.dtype.np_dtype))
