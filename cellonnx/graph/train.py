"""Compiled training: a traced step function (cellonnx/graph/step_trace.py) run by onnxruntime with its state
in OrtValues (cellonnx/graph/state.py) bound through IOBinding, so parameters, optimizer slots and moving
statistics stay in onnxruntime (on the GPU under CUDA) from one step to the next.

graph/ never imports nn/: a "cell" here is anything callable with ``parameters_and_names()`` and
(optionally) ``cells_and_names()`` and ``training``.
"""
from __future__ import annotations

import inspect
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import onnxruntime as ort

from cellonnx import context, log
from cellonnx.graph.binding import StepBinding
from cellonnx.graph.compile import serialize
from cellonnx.graph.runtime import Session
from cellonnx.graph.state import StateHolder
from cellonnx.graph.step_trace import StepGraph, batch_is_dynamic, data_specs, rebuild, trace_step
from cellonnx.graph.trace import StaticDimRequired
from cellonnx.tensor import Parameter, Tensor

# onnxruntime's memory pattern off for training steps: the pattern's block, planned from the first run, is
# allocated on the second beside the arena's chunks from the first, which the arena keeps: twice the step's
# activations resident (the Transformer classifier: +104 MiB over the arena alone, bench/RESULTS.md)
MEM_PATTERN = False


class CompiledStep:
    """A StepGraph bound to an onnxruntime session; calling it runs one step on the Tensor arguments.

    The state lives in two sets of buffers on the session's device: a step reads one set and writes its
    updates into the other, and the next step the other way round (state the step does not update has one
    buffer). Every buffer is bound once, so a step binds only its batch; a buffer written before costs no
    page faults (onnxruntime allocating a fresh output every run made an SGD update of (512, 512, 3, 3) 14x
    slower); and on CUDA the two runs replay as two captured CUDA graphs (``set_context(cuda_graph=...)``,
    True by default), the batch copied into a buffer of its own and the other outputs written into theirs.

    Args:
        step: the traced step.
        device_target: "CPU" or "GPU" (default: the context's).
    """

    def __init__(self, step: StepGraph, device_target: str | None = None, device_id: int | None = None,
                 intra_op_num_threads: int = 0) -> None:
        self.step = step
        target = device_target or context.get_context("device_target")
        dev_id = context.get_context("device_id") if device_id is None else device_id
        threads = intra_op_num_threads or context.get_context("intra_op_num_threads") or 0
        self._out_shapes = [_static_shape(step.model, name) for name in step.outputs]
        self._where = (target, dev_id, threads)
        self._open(context.get_context("cuda_graph") and _replayable(step.model))
        self.device = "cuda" if self.session.on_gpu else "cpu"
        self.device_id = dev_id
        self.state = StateHolder(self.device, dev_id)
        self._out_names = list(self.session.output_names)
        self._update_shapes = [tuple(p._data.shape) for _, p in step.updates]
        self.steps = 0
        self.guard: tuple = ()
        self._parity = 0
        self._bindings: list[StepBinding] = []       # per parity, made by the first call
        self._reads: list[dict[str, Any]] = []       # per parity: state input -> its buffer
        self._writes: list[dict[str, Any]] = []      # per parity: update output -> its buffer
        self._data_buffers: dict[str, Any] = {}      # CUDA graphs: data input -> its buffer
        self._free_outputs: list[str] = []           # outputs bound afresh each run (any shape)
        updated = {name for name, _ in step.updates}
        self._read_back = [name for name in self._out_names if name not in updated]
        self._read_back_at = [self._out_names.index(name) for name in self._read_back]

    @property
    def cuda_graph(self) -> bool:
        """Whether the step replays as CUDA graphs."""
        return self.session.cuda_graph

    @property
    def parameters(self) -> list[Parameter]:
        seen: dict[int, Parameter] = {}
        for _, p in (*self.step.state, *self.step.updates):
            seen.setdefault(id(p), p)
        return list(seen.values())

    def _open(self, cuda_graph: bool) -> None:
        target, dev_id, threads = self._where
        model = self.step.session_model if target == "CPU" else self.step.model   # NCHWc kernels: CPU only
        self.session = Session(serialize(model), target, dev_id,
                               intra_op_num_threads=threads, mem_pattern=MEM_PATTERN, cuda_graph=cuda_graph)
        if self.session.cuda_graph_refused:
            log.info("cellonnx: the training step runs without CUDA graphs: %s",
                     self.session.cuda_graph_refused)

    def __call__(self, *args: Any) -> Any:
        if not self._bindings:
            self._bind()
        k = self._parity
        binding = self._bindings[k]
        for name, p in self.step.state:
            buffer = self._reads[k][name]
            if not self.state.holds(p, buffer):   # first step, set_data, or another step ran since
                self.state.write(p, buffer)
        for name, pos in self.step.data_inputs:
            batch = np.ascontiguousarray(args[pos]._data)
            if self.cuda_graph:
                self._data_buffers[name].update_inplace(batch)
            else:
                binding.host_input(name, batch)
        for name in self._free_outputs:
            binding.output(name)
        try:
            outputs = binding.run(self._read_back_at)
        except Exception as exc:  # onnxruntime raises its own exception types
            if not (self.cuda_graph and "captur" in str(exc).lower()):   # capture, capturing
                raise
            # a node onnxruntime placed on the CPU (its copies cannot be captured): nothing ran, the state
            # is where it was; a plain session takes it from the buffers
            log.info("cellonnx: the training step could not be captured as a CUDA graph; it runs without: %s",
                     str(exc).splitlines()[-1])
            self._open(cuda_graph=False)
            self.unbind()
            return self(*args)
        values = dict(zip(self._read_back, outputs))
        self._parity ^= 1
        values.update(self._writes[k])
        return self._finish(values)

    def unbind(self) -> None:
        """Drop the buffers and bindings: the next call binds afresh (to a session swapped in since, too),
        taking the state from wherever the parameters hold it."""
        self._parity, self._bindings, self._reads, self._writes = 0, [], [], []
        self._data_buffers, self._free_outputs = {}, []

    def _bind(self) -> None:
        """The buffers and the two bindings: state read from set k and written into set 1 - k."""
        device_id = self.device_id if self.device == "cuda" else 0

        def buffer(shape: Sequence[int], dtype: Any) -> Any:
            return ort.OrtValue.ortvalue_from_shape_and_type(list(shape), dtype, self.device, device_id)

        written = {id(p) for _, p in self.step.updates}
        sets: dict[int, tuple] = {}
        for _, p in (*self.step.state, *self.step.updates):
            if id(p) not in sets:
                arr = p._data
                one = buffer(arr.shape, arr.dtype)
                sets[id(p)] = (one, buffer(arr.shape, arr.dtype)) if id(p) in written else (one, one)
        model_outputs = {o.name: o for o in self.step.model.graph.output}
        fixed_outputs = {}
        if self.cuda_graph:
            for name, _ in self.step.data_inputs:
                self._data_buffers[name] = _graph_buffer(self.step.model.graph.input, name, buffer)
        update_outputs = {name for name, _ in self.step.updates}
        for name in self._out_names:
            if name in update_outputs:
                continue
            if self.cuda_graph:
                fixed_outputs[name] = _graph_buffer(model_outputs.values(), name, buffer)
            else:
                self._free_outputs.append(name)
        for k in (0, 1):
            self._reads.append({name: sets[id(p)][k] for name, p in self.step.state})
            self._writes.append({name: sets[id(p)][1 - k] for name, p in self.step.updates})
            binding = StepBinding(self.session.inner, StepBinding.device(self.device, self.device_id),
                                  graph_id=k if self.cuda_graph else None)
            for name, value in self._reads[k].items():
                binding.input(name, value)
            for name, value in self._data_buffers.items():
                binding.input(name, value)
            for name in self._out_names:   # in the session's order: the order the outputs come back in
                binding.output(name, self._writes[k].get(name, fixed_outputs.get(name)))
            self._bindings.append(binding)

    def _finish(self, values: dict[str, Any]) -> Any:
        """Keep the updated state (OrtValues by output name) and build the step's results."""
        self.state.update((p, values[name], shape)
                          for (name, p), shape in zip(self.step.updates, self._update_shapes))
        self.steps += 1
        for name, check in self.step.checks:   # the eager errors (graph/step_checks.py), state kept
            check(np.asarray(values[name].numpy()))
        flat: list[Any] = []
        for i, name in enumerate(self.step.outputs):
            p = self.step.returned_params.get(i)
            if p is None:
                arr = np.array(values[name].numpy(), copy=True)
                shape = self._out_shapes[i]
                p = Tensor._make(arr.reshape(shape) if shape is not None and arr.size == 1 else arr)
            flat.append(p)
        return rebuild(self.step.structure, flat)


def _replayable(model: Any) -> bool:
    """Whether ``model`` can run as CUDA graphs: every input and output of a static shape (the graphs replay
    fixed buffers), and no Loop, If or Scan (onnxruntime refuses to capture control flow)."""
    io = (*model.graph.input, *model.graph.output)
    return all(v.type.tensor_type.HasField("shape") for v in io) and \
        all(d.HasField("dim_value") for v in io for d in v.type.tensor_type.shape.dim) and \
        not any(n.op_type in ("Loop", "If", "Scan") for n in model.graph.node)


def _graph_buffer(values: Any, name: str, buffer: Callable[..., Any]) -> Any:
    """A buffer for the graph input or output ``name`` (static shape)."""
    import onnx

    info = next(v for v in values if v.name == name).type.tensor_type
    return buffer([d.dim_value for d in info.shape.dim], onnx.helper.tensor_dtype_to_np_dtype(info.elem_type))


def _static_shape(model: Any, name: str) -> tuple | None:
    for o in model.graph.output:
        if o.name == name:
            dims = o.type.tensor_type.shape.dim
            if all(d.HasField("dim_value") for d in dims):
                return tuple(d.dim_value for d in dims)
    return None


# ---------------------------------------------------------------- cache
_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_LAST_KEY: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_KEY_PARTS = ("argument signature", "opset", "device_target")
_GUARD_PARTS = ("training flags (set_train)", "requires_grad of the parameters",
                "parameter dtypes (set_dtype)", "cell flags")


def step_key(owner: Any, args: Sequence[Any]) -> tuple:
    """What picks the compiled steps to try for a call: argument dtypes, ranks and non-batch dims, constant
    arguments, opset and device. Among them the step's guard (``StepGraph.guard``: the training flags of the
    cells it called, the requires_grad and dtype of the parameters it holds, the cells' graph attributes)
    picks the one that fits, or none."""
    sig = []
    for pos, t, shape in data_specs(args, _dynamic_batch(owner)):
        sig.append((pos, t._data.dtype.str, tuple(shape)))
    for i, a in enumerate(args):
        if not isinstance(a, Tensor):
            sig.append((i, "const", repr(a)))
    return (tuple(sig), context.get_context("opset"), context.get_context("device_target"))


# owners whose step unrolls over axis 0 (graph/trace.py require_static): traced with it static, once per size
_STATIC_AXIS0: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _dynamic_batch(owner: Any) -> bool:
    return batch_is_dynamic() and owner not in _STATIC_AXIS0


def _why(old: tuple | None, new: tuple, parts: tuple = _KEY_PARTS) -> str:
    if old is None:
        return "first call"
    changed = [part for part, a, b in zip(parts, old, new) if a != b]
    return ", ".join(changed) + " changed"


def _changed(last_key: tuple | None, last: Any, key: tuple) -> str:
    """Why the step the last call ran does not serve this one: its key, or what its guard assumed."""
    if last is None or last_key != key:
        return _why(last_key, key)
    return _why(last.guard, last.step.guard(), _GUARD_PARTS)


def compiled_step(owner: Any, fn: Callable[..., Any], args: Sequence[Any], name: str = "train_step",
                  arg_names: Sequence[str] | None = None, extra_key: Any = None) -> CompiledStep:
    """The compiled step of ``fn`` for ``owner`` (a cell, or the function itself), traced once per
    structure (see :func:`step_key`; for a function, the training flags of the cells it called and the
    requires_grad of the parameters it read); the reason for each (re)compilation is logged at debug level."""
    key = (step_key(owner, args), extra_key)
    per_owner = _CACHE.setdefault(owner, {})
    entries = per_owner.setdefault(key, [])
    compiled = next((c for c in entries if c.step.guard() == c.guard), None)
    last_key, last = _LAST_KEY.get(owner, (None, None))
    if compiled is None:
        why = _changed(last_key, last, key[0])
        log.debug("cellonnx: compiling the training step of %s (%s)", name, why)
        for others in per_owner.values():   # the state held by another structure goes back to the host
            for other in others:
                other.state.sync(other.parameters)
        dynamic = _dynamic_batch(owner)
        try:
            traced = trace_step(fn, args, name, arg_names=arg_names, dynamic_batch=dynamic)
        except StaticDimRequired as exc:
            if not dynamic:
                raise
            # a recurrence steps over axis 0 (a time-major LSTM), or the step makes a float of its size: one
            # graph per size of it
            _STATIC_AXIS0[owner] = str(exc)
            if not entries:
                per_owner.pop(key, None)
            log.debug("cellonnx: %s: %s; its step is traced for each size of axis 0", name, exc)
            return compiled_step(owner, fn, args, name, arg_names, extra_key)
        if traced.boundaries:   # collectives in the step: graphs cut around them (graph/split_step.py)
            from cellonnx.graph.split_step import SplitStep
            compiled = SplitStep(traced)
        else:
            compiled = CompiledStep(traced)
        compiled.guard = compiled.step.guard()
        _release_trace_memory()
        entries.append(compiled)
    elif last is not None and last is not compiled:
        why = _changed(last_key, last, key[0])
        log.debug("cellonnx: reusing the compiled training step of %s (%s)", name, why)
    _LAST_KEY[owner] = (key[0], compiled)
    return compiled


def _release_trace_memory() -> None:
    """Give back the heap the trace used. Tracing runs the step eagerly once (every activation and gradient
    as a NumPy array); the heap keeps that memory mapped for the next eager step (cellonnx/_malloc.py), but
    a compiled step's arrays live in onnxruntime's arena, so it would stay resident for nothing (about 200 MiB
    for ResNet-18 at batch 32). The trace's arrays are freed by reference counting when it returns: a full
    garbage collection here found no more (the same resident size after compiling ResNet-18 / -50, the
    Transformer and the LSTM classifier) and cost 0.03-0.3 s a compile, more the larger the process."""
    from cellonnx.runtime import empty_cache
    empty_cache()


def compiled_steps(owner: Any) -> list[CompiledStep]:
    """Every compiled step held for ``owner`` (a gradient function's are held for every one made alike)."""
    owner = getattr(owner, "compiled_owner", owner)
    return [c for entries in _CACHE.get(owner, {}).values() for c in entries]


def run_function(owner: Any, fn: Callable[..., Any], args: Sequence[Any]) -> Any:
    """Run ``fn(*args)`` (a ``jit`` function: forward, value_and_grad, ``optimizer(grads)`` ...) as one
    compiled step."""
    compiled = compiled_step(owner, fn, args, getattr(fn, "__name__", "step"), arg_names_of(fn, len(args)))
    return compiled(*args)


def arg_names_of(cell: Any, n: int) -> list[str]:
    fn = getattr(cell, "construct", None) or cell
    try:
        names = [p.name for p in inspect.signature(fn).parameters.values()
                 if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        names = []
    return names[:n] + [f"input_{i}" for i in range(len(names), n)]


_in_step = [False]


def run_step(cell: Any, *args: Any) -> Any:
    """GRAPH_MODE: a top-level training-mode call of ``cell`` runs as one compiled step."""
    def fn(*xs: Any) -> Any:
        return cell.run_construct(xs, {}) if hasattr(cell, "run_construct") else cell(*xs)

    compiled = compiled_step(cell, fn, args, type(cell).__name__, arg_names_of(cell, len(args)))
    _in_step[0] = True
    try:
        return compiled(*args)
    finally:
        _in_step[0] = False
