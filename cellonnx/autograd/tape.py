"""The tape: every differentiable op applied to a tensor that requires grad leaves a Node behind; backward
walks the nodes in reverse topological order and calls each op's gradient, which is written in cellonnx ops
(so with ``create_graph=True`` the backward pass is itself recorded and can be differentiated again).

A node keeps its input tensors and, only for ops that need it, its output *arrays* - never its output
tensors - so the graph has no reference cycles and activations are freed as soon as nothing needs them.
"""
from __future__ import annotations

import importlib
import threading
import weakref
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import numpy as np

from cellonnx.autograd import saved_hooks as _saved
from cellonnx.tensor import Tensor

if TYPE_CHECKING:
    from cellonnx.ops.registry import Op

tensor_mod = importlib.import_module("cellonnx.tensor")  # the module's hooks (the package exports a tensor())


class _GradMode(threading.local):
    enabled = True


_mode = _GradMode()


def is_grad_enabled() -> bool:
    """Whether operations are recorded for gradients now (``no_grad`` and ``set_grad_enabled`` turn it off).

    Examples:
        >>> import cellonnx as ms
        >>> ms.is_grad_enabled()
        True
        >>> with ms.no_grad():
        ...     print(ms.is_grad_enabled())
        False
    """
    return _mode.enabled


@contextmanager
def set_grad_enabled(enabled: bool) -> Iterator[None]:
    """A context manager that turns the recording of operations for gradients on or off.

    Examples:
        >>> import cellonnx as ms
        >>> with ms.set_grad_enabled(False):
        ...     print(ms.is_grad_enabled())
        False
        >>> ms.is_grad_enabled()
        True
    """
    prev = _mode.enabled
    _mode.enabled = enabled
    try:
        yield
    finally:
        _mode.enabled = prev


def no_grad() -> Any:
    """Context manager (and decorator) in which no op is recorded for autograd.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> x = ms.Tensor(np.array([2.0]), ms.float32)
        >>> with ms.no_grad():
        ...     y = x * x
        ...     print(ms.is_grad_enabled())
        False
        >>> ms.is_grad_enabled()
        True
    """
    return set_grad_enabled(False)


def enable_grad() -> Any:
    """A context manager that turns the recording of operations for gradients back on (inside ``no_grad``).

    Examples:
        >>> import cellonnx as ms
        >>> with ms.no_grad():
        ...     with ms.enable_grad():
        ...         print(ms.is_grad_enabled())
        True
    """
    return set_grad_enabled(True)


class HookHandle:
    """Returned by ``register_*hook``; ``remove()`` takes the hook out again."""

    _next_id = 0

    def __init__(self, registry: list | dict, hook: Any, key: Any = None) -> None:
        self._registry = registry
        HookHandle._next_id += 1
        self.id = HookHandle._next_id
        if isinstance(registry, dict):
            self._key = key if key is not None else self.id
            registry[self._key] = hook
        else:
            self._key = hook
            registry.append(hook)

    def remove(self) -> None:
        if isinstance(self._registry, dict):
            self._registry.pop(self._key, None)
        elif self._key in self._registry:
            self._registry.remove(self._key)

    def __enter__(self) -> HookHandle:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.remove()


class Node:
    """One recorded op application: the op, its input tensors, its attributes and (if the op's gradient
    needs them) its output arrays."""

    __slots__ = ("op", "inputs", "in_arrays", "attrs", "out_arrays", "out_refs", "n_out", "out_meta",
                 "saved", "__weakref__")

    def __init__(self, op: Op, inputs: tuple[Tensor, ...], attrs: dict, outputs: tuple[Tensor, ...],
                 in_arrays: Sequence[np.ndarray] | None = None) -> None:
        self.op = op
        self.inputs = inputs
        # to detect inputs changed in place before backward
        self.in_arrays = in_arrays if in_arrays is not None else tuple(t._data for t in inputs)
        self.attrs = attrs
        self.n_out = len(outputs)
        if op.save_output:
            self.out_arrays = tuple(o._data for o in outputs)
            # the output tensors themselves while they live (weakly: no cycle), so a traced backward reads the
            # traced value rather than a constant copy of the example's
            self.out_refs = tuple(weakref.ref(o) for o in outputs)
        else:
            self.out_arrays = self.out_refs = None
        if self.n_out == 1:
            out = outputs[0]._data
            self.out_meta = ((out.shape, out.dtype),)
        else:
            self.out_meta = tuple((o._data.shape, o._data.dtype) for o in outputs)
        hooks = _saved.active()
        self.saved = None if hooks is None else _pack_saved(self, hooks, inputs, outputs)

    def output(self, i: int = 0, connected: bool = False) -> Tensor:
        """The i-th output as a tensor; ``connected`` gives it this node as history (for higher order)."""
        if self.out_arrays is None or self.out_refs is None:
            raise RuntimeError(f"op {self.op.name}: its gradient reads its output, so set save_output = True")
        if self.saved is not None and ("out", i) in self.saved[1]:
            return _saved.unpack(self.saved[0], self.saved[1][("out", i)], self.op.name)
        live = self.out_refs[i]()
        tracing = tensor_mod.SHAPE_HOOK is not None
        # while tracing, the live output is the one bound to the graph value (also an output with no history
        # of its own, such as an argmax): a fresh tensor would be folded into a constant of the example
        if live is not None and (live._node is self or tracing) and live._data is self.out_arrays[i]:
            return live if connected or tracing else Tensor._make(live._data)
        t = Tensor._make(self.out_arrays[i])
        if connected:
            t._node = self
            t._out_index = i
            t.requires_grad = True
        return t

    def __repr__(self) -> str:
        return f"<Node {self.op.name}>"


def _pack_saved(node: Node, hooks: tuple, inputs: tuple[Tensor, ...], outputs: tuple[Tensor, ...]) -> tuple:
    """Pass the tensors ``node``'s gradient keeps through the active pack hook (saved_tensors_hooks)."""
    packed: dict[Any, Any] = {}
    which = node.op.saved_inputs
    for i, t in enumerate(inputs):
        if which is None or i in which:
            packed[i] = _saved.pack(hooks, t)
    if node.op.save_output:
        for i, o in enumerate(outputs):
            packed[("out", i)] = _saved.pack(hooks, o)
    return hooks, packed


def _unpacked(u: Tensor, orig: Tensor) -> Tensor:
    """An unpacked saved input as the gradient expects it: ``requires_grad`` as the tensor that was saved."""
    if u is orig or u.requires_grad == orig.requires_grad:
        return u
    t = Tensor._make(u._data)
    t.requires_grad = orig.requires_grad
    return t


class BackwardContext:
    """What an op's ``backward`` sees: its inputs, outputs and attributes."""

    __slots__ = ("create_graph", "dests", "node")

    def __init__(self, node: Node, create_graph: bool, dests: dict[int, np.ndarray] | None = None) -> None:
        self.node = node
        self.create_graph = create_graph
        self.dests = dests

    def grad_out(self, i: int) -> np.ndarray | None:
        """Where the gradient of input ``i`` may be written (a C-contiguous array of the input's shape and
        dtype), or None. Offered only for a leaf whose whole gradient this op computes, in a backward pass
        that is neither recorded nor traced (see GRAD_BUFFERS): a kernel writing its result there saves the
        copy; one that does not is still right (the buffer's owner copies the gradient in)."""
        return None if self.dests is None else self.dests.get(i)

    @property
    def inputs(self) -> tuple[Tensor, ...]:
        node = self.node
        if node.saved is None:
            return node.inputs
        hooks, packed = node.saved
        return tuple(_unpacked(_saved.unpack(hooks, packed[i], node.op.name), t) if i in packed else t
                     for i, t in enumerate(node.inputs))

    @property
    def out(self) -> Tensor:
        return self.node.output(0, self.create_graph)

    def output(self, i: int) -> Tensor:
        return self.node.output(i, self.create_graph)

    def needs_grad(self, i: int) -> bool:
        return self.node.inputs[i].requires_grad


def _toposort(roots: Sequence[Tensor]) -> list[Node]:
    order: list[Node] = []
    seen: set[int] = set()
    stack: list[tuple[Node, bool]] = [(t._node, False) for t in roots if t._node is not None]
    while stack:
        node, expanded = stack.pop()
        if expanded:
            order.append(node)
            continue
        if id(node) in seen:
            continue
        seen.add(id(node))
        stack.append((node, True))
        for t in node.inputs:
            if t._node is not None and id(t._node) not in seen:
                stack.append((t._node, False))
    order.reverse()  # roots first
    return order


def _accumulate(store: dict, key: Any, grad: Tensor) -> None:
    prev = store.get(key)
    if prev is None:
        store[key] = grad
    elif _mode.enabled or tensor_mod.SHAPE_HOOK is not None:  # recorded or traced: the sum is an op
        store[key] = prev + grad
    else:
        store[key] = Tensor._make(np.add(prev._data, grad._data, dtype=prev._data.dtype))


def _apply_hooks(t: Tensor, grad: Tensor) -> Tensor:
    for hook in list(t._hooks or ()):
        out = hook(grad)
        if out is not None:
            grad = out if isinstance(out, Tensor) else Tensor(out)
    return grad


def _check_unmodified(node: Node) -> None:
    for k, (t, arr) in enumerate(zip(node.inputs, node.in_arrays)):
        if t._data is not arr and (t.requires_grad or not getattr(t, "name", None)):
            raise RuntimeError(f"backward: input {k} of op {node.op.name} (shape {arr.shape}) was assigned to in "
                               "place after the op used it, so its gradient would be wrong; assign into a copy "
                               "(x = x.copy()) or before the first use")


# Called as hook(leaf, grad) the moment a leaf's gradient is complete during a backward pass (its last
# consumer has run), before the rest of the pass; hook(None, None) when the pass ends. Distributed training
# starts gradient all-reduces from here so communication overlaps the remaining backward computation.
GRAD_READY_HOOKS: list = []

# Called as buffer(leaf) -> array or None just before the op that computes a leaf's whole gradient runs its
# backward, in passes that report to GRAD_READY_HOOKS and are neither recorded nor traced: an array of the
# leaf's shape and dtype for the op to write the gradient into (BackwardContext.grad_out), so data-parallel
# training gets each gradient straight in its all-reduce bucket.
GRAD_BUFFERS: list = []


class _LeafReady:
    """Counts, per leaf that requires grad, the recorded uses still to be back-propagated."""

    __slots__ = ("left",)

    def __init__(self, order: list[Node]) -> None:
        left: dict[int, int] = {}
        for node in order:
            for t in node.inputs:
                if t._node is None and t.requires_grad:
                    left[id(t)] = left.get(id(t), 0) + 1
        self.left = left

    def dests(self, node: Node, grads: dict) -> dict[int, np.ndarray] | None:
        """GRAD_BUFFERS' arrays for ``node``'s leaf inputs whose whole gradient ``node`` computes."""
        found = None
        for k, t in enumerate(node.inputs):
            key = id(t)
            if self.left.get(key) != 1 or key in grads or t._hooks:
                continue
            for fn in GRAD_BUFFERS:
                dest = fn(t)
                if dest is not None:
                    if found is None:
                        found = {}
                    found[k] = dest
                    break
        return found

    def done(self, node: Node, grads: dict) -> None:
        for t in node.inputs:
            key = id(t)
            n = self.left.get(key)
            if n is None:
                continue
            if n > 1:
                self.left[key] = n - 1
                continue
            del self.left[key]
            g = grads.get(key)
            if g is not None:
                for hook in list(GRAD_READY_HOOKS):
                    hook(t, g)

    def finish(self) -> None:
        for hook in list(GRAD_READY_HOOKS):
            hook(None, None)


def run_backward(outputs: Sequence[Tensor], grad_outputs: Sequence[Any], *, create_graph: bool = False,
                 accumulate: bool = False, wrt: Sequence[Tensor] | None = None) -> list[Tensor | None]:
    """Back-propagate from ``outputs`` (seeded with ``grad_outputs``, ones where None).

    With ``accumulate``, leaf gradients are added into ``leaf.grad`` (Tensor.backward). With ``wrt``, the
    gradients of those tensors are returned (None where an input does not influence the outputs).
    """
    from cellonnx import ops

    grads: dict[Any, Tensor] = {}
    leaves: dict[int, Tensor] = {}
    with set_grad_enabled(create_graph):
        for out, g in zip(outputs, grad_outputs):
            if not out.requires_grad:
                raise RuntimeError("backward: the output does not require grad (no differentiable op "
                                   "connects it to a parameter or an input marked for gradients)")
            if g is None:
                g = ops.ones_like(out)
            elif not isinstance(g, Tensor):
                g = Tensor(np.asarray(g, dtype=out._data.dtype))
            if tuple(g.shape) != tuple(out.shape):
                raise ValueError(f"backward: gradient of shape {tuple(g.shape)} given for an output of shape "
                                 f"{tuple(out.shape)}")
            key = (id(out._node), out._out_index) if out._node is not None else id(out)
            if out._node is None:
                leaves[id(out)] = out
            _accumulate(grads, key, g)

        # tensors named in wrt that are also intermediate results: remember their keys
        inner_wanted = {}
        if wrt is not None:
            for t in wrt:
                if t._node is not None:
                    inner_wanted[(id(t._node), t._out_index)] = t

        order = _toposort(outputs)
        ready = _LeafReady(order) if GRAD_READY_HOOKS and not create_graph else None
        buffers = ready is not None and bool(GRAD_BUFFERS) and tensor_mod.SHAPE_HOOK is None
        for node in order:
            nid = id(node)
            out_grads = [grads.pop((nid, i), None) for i in range(node.n_out)]
            if inner_wanted:
                for i, g in enumerate(out_grads):
                    if g is not None and (nid, i) in inner_wanted:
                        grads[("wanted", id(inner_wanted[(nid, i)]))] = g
            if out_grads[0] is None and all(g is None for g in out_grads):
                if ready is not None:
                    ready.done(node, grads)
                continue
            if node.n_out > 1:
                out_grads = [g if g is not None else Tensor._make(np.zeros(*meta))
                             for g, meta in zip(out_grads, node.out_meta)]
            _check_unmodified(node)
            dests = ready.dests(node, grads) if buffers else None  # type: ignore[union-attr]
            in_grads = node.op.backward(BackwardContext(node, create_graph, dests), *out_grads, **node.attrs)
            if len(in_grads) != len(node.inputs):
                raise RuntimeError(f"op {node.op.name}: backward returned {len(in_grads)} gradients for "
                                   f"{len(node.inputs)} inputs")
            for t, g in zip(node.inputs, in_grads):
                if g is None or not t.requires_grad:
                    continue
                if t._hooks:
                    g = _apply_hooks(t, g)
                if t._node is None:
                    leaves[id(t)] = t
                    _accumulate(grads, id(t), g)
                else:
                    _accumulate(grads, (id(t._node), t._out_index), g)
            if ready is not None:
                ready.done(node, grads)
        if ready is not None:
            ready.finish()

        if accumulate:
            for key, leaf in leaves.items():
                g = grads.get(key)
                if g is None:
                    continue
                if not create_graph:
                    g = g.detach()
                overwrite = leaf.grad is None or leaf.__dict__.get("grad_req") == "write"
                leaf.grad = g if overwrite else leaf.grad + g
        if wrt is None:
            return []
        result: list[Tensor | None] = []
        for t in wrt:
            g = grads.get(id(t)) if t._node is None else grads.get(("wanted", id(t)))
            result.append(g)
        return result

