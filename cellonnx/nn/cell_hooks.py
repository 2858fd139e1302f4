"""The slow half of ``Cell.__call__``: forward and backward hooks, recompute and custom ``bprop``.

Backward hooks and custom gradients are identity-like primitives placed on the cell's inputs and outputs:
their forward passes the tensors through, their backward calls the user's function. They are not registered
in the op registry (they belong to one call of one cell) and their lowering returns the inputs unchanged, so a
traced graph never sees them. They are only applied while gradients are being recorded.
"""
from __future__ import annotations

import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from cellonnx.autograd.tape import is_grad_enabled, no_grad, run_backward, set_grad_enabled
from cellonnx.ops.registry import Op, apply
from cellonnx.tensor import Parameter, Tensor

if TYPE_CHECKING:
    from typing_extensions import Self

    from cellonnx.nn.cell import Cell


class CellHookHandle:
    """Returned by ``register_*_hook``: ``remove()`` takes the hook out again (also as a context manager)."""

    _next_id = 0

    def __init__(self, hooks: OrderedDict | None = None, cell: Cell | None = None,
                 extra: tuple[dict, ...] = ()) -> None:
        CellHookHandle._next_id += 1
        self.handle_id = CellHookHandle._next_id
        self._hooks = weakref.ref(hooks) if hooks is not None else None
        self._cell = weakref.ref(cell) if cell is not None else None
        self._extra = extra

    @property
    def id(self) -> int:
        return self.handle_id

    def remove(self) -> None:
        hooks = self._hooks() if self._hooks is not None else None
        if hooks is not None:
            hooks.pop(self.handle_id, None)
        for d in self._extra:
            d.pop(self.handle_id, None)
        cell = self._cell() if self._cell is not None else None
        if cell is not None:
            cell._refresh_call_path()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.remove()

    def __repr__(self) -> str:
        return f"<CellHookHandle id={self.handle_id}>"


def check_hook_fn(hook_fn: Any, what: str) -> None:
    if not callable(hook_fn):
        raise TypeError(f"{what}: the hook must be a Python function or callable, got {type(hook_fn).__name__}")


# ------------------------------------------------------------------ flattening tensors out of call structures
def flatten_tensors(obj: Any) -> tuple[list[Tensor], Callable[[list[Tensor]], Any]]:
    """The float tensors inside ``obj`` (a tensor, or tuples / lists / dicts of them) and a function that puts
    replacements back in the same structure."""
    found: list[Tensor] = []

    def walk(o: Any) -> Any:
        if isinstance(o, Tensor):
            if o._data.dtype.kind == "f" or o._data.dtype.name == "bfloat16":
                found.append(o)
                return len(found) - 1
            return ("keep", o)
        if isinstance(o, (tuple, list)):
            return (type(o), [walk(x) for x in o])
        if isinstance(o, dict):
            return (dict, {k: walk(v) for k, v in o.items()})
        return ("keep", o)

    spec = walk(obj)

    def rebuild(new: list[Tensor]) -> Any:
        def build(s: Any) -> Any:
            if isinstance(s, int):
                return new[s]
            kind, body = s
            if kind == "keep":
                return body
            if kind is dict:
                return {k: build(v) for k, v in body.items()}
            items = [build(x) for x in body]
            return kind(*items) if hasattr(kind, "_fields") else kind(items)
        return build(spec)

    return found, rebuild


def _apply_identity(op: _PassThrough, tensors: list[Tensor], state: Any) -> list[Tensor]:
    op.set_outputs(len(tensors))
    out = apply(op, tuple(tensors), {"state": state})
    return [out] if len(tensors) == 1 else list(out)


class _PassThrough(Op, register=False):
    """Forward: the inputs unchanged. Lowering: the input names, so the graph does not see it."""

    def set_outputs(self, n: int) -> None:
        """This call's output count (an instance is made per call, so it may differ from the class's)."""
        vars(self)["n_outputs"] = n

    def forward(self, *xs: np.ndarray, **attrs: Any) -> Any:
        return xs[0] if len(xs) == 1 else tuple(xs)

    def lower(self, g: Any, *xs: str, **attrs: Any) -> Any:
        return xs[0] if len(xs) == 1 else tuple(xs)


def _as_tuple(ret: Any) -> tuple:
    return ret if isinstance(ret, tuple) else (ret,)


def _grad_tensor(g: Any, like: Tensor) -> Tensor:
    if isinstance(g, Tensor):
        return g
    return Tensor(np.asarray(g, dtype=like._data.dtype))


class _CallState:
    """What one call of a hooked cell shares between its output-side and input-side hook ops."""

    __slots__ = ("cell", "grad_output", "inputs_hooked", "n_inputs")

    def __init__(self, cell: Cell) -> None:
        self.cell = cell
        self.grad_output: tuple | None = None
        self.inputs_hooked = False
        self.n_inputs = 0


class _CellOutputHook(_PassThrough, register=False):
    """On the cell's outputs. Backward: run the backward pre-hooks (which may replace the gradient), record
    the gradient for the backward hooks, pass it on."""

    name = "CellBackwardHook"

    def backward(self, ctx: Any, *grads: Tensor, **attrs: Any) -> tuple[Tensor | None, ...]:
        state: _CallState = attrs["state"]
        cell = state.cell
        grads_t: tuple = tuple(grads)
        for hook in list(cell._backward_pre_hook.values()):
            ret = hook(cell, grads_t)
            if ret is not None:
                ret = _as_tuple(ret)
                if len(ret) != len(grads_t):
                    raise TypeError(f"{type(cell).__name__}: the backward pre hook returned {len(ret)} gradients "
                                    f"for {len(grads_t)} outputs")
                grads_t = tuple(_grad_tensor(g, o) for g, o in zip(ret, grads_t))
        state.grad_output = grads_t
        if cell._backward_hook and not state.inputs_hooked:
            # no input of this call takes a gradient: MindSpore still calls the hook, with None for grad_input
            _run_backward_hooks(cell, (None,) * max(state.n_inputs, 1), grads_t)
        return grads_t


class _CellInputHook(_PassThrough, register=False):
    """On the cell's inputs. Backward: call the backward hooks with (grad_input, grad_output); a returned
    tuple replaces grad_input."""

    name = "CellBackwardHook"

    def backward(self, ctx: Any, *grads: Tensor, **attrs: Any) -> tuple[Tensor | None, ...]:
        state: _CallState = attrs["state"]
        grad_input = tuple(g if ctx.needs_grad(i) else None for i, g in enumerate(grads))
        grad_output = state.grad_output if state.grad_output is not None else ()
        return _run_backward_hooks(state.cell, grad_input, grad_output)


def _run_backward_hooks(cell: Cell, grad_input: tuple, grad_output: tuple) -> tuple:
    for hook in list(cell._backward_hook.values()):
        ret = hook(cell, grad_input, grad_output)
        if ret is not None:
            ret = _as_tuple(ret)
            if len(ret) != len(grad_input):
                raise TypeError(f"{type(cell).__name__}: the backward hook returned {len(ret)} gradients for "
                                f"{len(grad_input)} inputs")
            grad_input = tuple(g if g is None or isinstance(g, Tensor) else Tensor(g) for g in ret)
    return grad_input


def hook_inputs(cell: Cell, args: tuple, state: _CallState) -> tuple:
    tensors, rebuild = flatten_tensors(args)
    state.n_inputs = len(tensors)
    if not tensors or not any(t.requires_grad for t in tensors):
        return args
    state.inputs_hooked = True
    return rebuild(_apply_identity(_CellInputHook(), tensors, state))


def hook_outputs(cell: Cell, out: Any, state: _CallState) -> Any:
    tensors, rebuild = flatten_tensors(out)
    if not tensors or not any(t.requires_grad for t in tensors):
        return out
    return rebuild(_apply_identity(_CellOutputHook(), tensors, state))


# ------------------------------------------------------------------ forward hooks
def run_forward_pre_hooks(cell: Cell, args: tuple, kwargs: dict) -> tuple[tuple, dict]:
    with_kwargs = cell._forward_pre_hook_with_kwargs
    for hid, hook in list(cell._forward_pre_hook.items()):
        if hid in with_kwargs:
            ret = hook(cell, args, kwargs)
            if ret is not None:
                if not (isinstance(ret, tuple) and len(ret) == 2):
                    raise RuntimeError("forward pre hook with kwargs must return None or a tuple of "
                                       f"(new_args, new_kwargs), but got {ret}")
                args, kwargs = ret
        else:
            ret = hook(cell, args)
            if ret is not None:
                args = ret if isinstance(ret, tuple) else (ret,)
    return args, kwargs


def run_forward_hooks(cell: Cell, args: tuple, kwargs: dict, output: Any, called: set) -> Any:
    with_kwargs = cell._forward_hook_with_kwargs
    always = cell._forward_hook_always_called
    for hid, hook in list(cell._forward_hook.items()):
        if hid in always:
            called.add(hid)
        ret = hook(cell, args, kwargs, output) if hid in with_kwargs else hook(cell, args, output)
        if ret is not None:
            output = ret
    return output


def run_always_called_hooks(cell: Cell, args: tuple, kwargs: dict, output: Any, called: set) -> None:
    """After construct raised: the forward hooks registered with always_call=True that have not run yet."""
    import warnings

    for hid, hook in list(cell._forward_hook.items()):
        if hid not in cell._forward_hook_always_called or hid in called:
            continue
        try:
            if hid in cell._forward_hook_with_kwargs:
                hook(cell, args, kwargs, output)
            else:
                hook(cell, args, output)
        except Exception as exc:  # noqa: BLE001 - the forward error is the one to report
            warnings.warn("cell forward hook with ``always_call=True`` raised an exception that was silenced "
                          f"because another error was already raised in forward: {exc}", stacklevel=3)


# ------------------------------------------------------------------ recompute and custom bprop
class _Replay:
    """State of one recomputed / custom-bprop call: the cell, its arguments with the tensor slots marked,
    and (while the op is being applied) the output arrays computed without recording."""

    __slots__ = (
        "args",
        "cell",
        "kwargs",
        "n_tensor_inputs",
        "out",
        "pending",
        "rebuild_args",
        "rebuild_out",
        "rng_state",
    )

    def __init__(self, cell: Cell, args: tuple, kwargs: dict) -> None:
        self.cell = cell
        self.args = args
        self.kwargs = kwargs
        self.rebuild_args: Callable[[list[Tensor]], Any] = lambda new: args
        self.out: Any = None
        self.rebuild_out: Callable[[list[Tensor]], Any] = lambda new: new
        self.n_tensor_inputs = 0
        self.pending: tuple | None = None
        self.rng_state: Any = None


def _generator() -> np.random.Generator:
    from cellonnx.common.initializer import _rng
    return _rng()


def _counter_state() -> Parameter:
    """The state of dropout's counter generator (its draws are replayed too)."""
    from cellonnx.ops.prims.counter_rng import rng_state
    return rng_state()


class _Precomputed(_PassThrough, register=False):
    """Forward hands on the outputs the cell already computed (``state.pending``); subclasses give
    backward."""

    def forward(self, *xs: np.ndarray, **attrs: Any) -> Any:
        state: _Replay = attrs["state"]
        out = state.pending
        state.pending = None
        assert out is not None
        return out[0] if len(out) == 1 else out


class _Recompute(_Precomputed, register=False):
    """Keeps only the cell's inputs on the tape; backward runs construct again with recording on and
    back-propagates through that fresh graph."""

    name = "Recompute"

    def backward(self, ctx: Any, *grads: Tensor, **attrs: Any) -> list[Tensor | None]:
        state: _Replay = attrs["state"]
        n_in = state.n_tensor_inputs
        originals = ctx.inputs[:n_in]
        params = list(ctx.inputs[n_in:])
        fresh = []
        for t in originals:
            f = Tensor._make(t._data)
            f.requires_grad = t.requires_grad
            fresh.append(f)
        args = state.rebuild_args(fresh)
        # replay the random draws of the first pass (dropout masks), then give the generator its state back
        gen, counter = _generator(), _counter_state()
        now, counter_now = gen.bit_generator.state, counter.asnumpy().copy()
        gen.bit_generator.state, first_counter = state.rng_state
        counter.set_data(first_counter)
        try:
            with set_grad_enabled(True):
                out = state.cell.construct(*args, **state.kwargs)
        finally:
            gen.bit_generator.state = now
            counter.set_data(counter_now)
        outs, _ = flatten_tensors(out)
        heads = [(o, g) for o, g in zip(outs, grads) if o.requires_grad and g is not None]
        wrt = [f for f in fresh] + params
        if not heads:
            return [None] * len(ctx.inputs)
        got = run_backward([h for h, _ in heads], [g for _, g in heads], create_graph=ctx.create_graph, wrt=wrt)
        return [g if t.requires_grad else None for g, t in zip(got, list(originals) + params)]


def run_recompute(cell: Cell, args: tuple, kwargs: dict) -> Any:
    tensors, rebuild = flatten_tensors(args)
    params = [p for p in cell.trainable_params() if isinstance(p, Parameter)]
    if not any(t.requires_grad for t in tensors) and not params:
        return cell.construct(*args, **kwargs)
    rng_state = (_generator().bit_generator.state, _counter_state().asnumpy().copy())
    with no_grad():
        out = cell.construct(*args, **kwargs)
    outs, rebuild_out = flatten_tensors(out)
    if not outs:
        return out
    state = _Replay(cell, args, kwargs)
    state.rng_state = rng_state
    state.rebuild_args = rebuild
    state.n_tensor_inputs = len(tensors)
    state.pending = tuple(o._data for o in outs)
    op = _Recompute()
    op.set_outputs(len(outs))
    res = apply(op, tuple(tensors) + tuple(params), {"state": state})
    res = [res] if len(outs) == 1 else list(res)
    # the tape keeps the arguments through the node's inputs; drop the copies held here
    state.args = ()
    return rebuild_out(res)


class _CustomBprop(_Precomputed, register=False):
    """Backward calls the cell's ``bprop(*inputs, out, dout)``; parameters used inside get no gradient."""

    name = "CellBprop"

    def backward(self, ctx: Any, *grads: Tensor, **attrs: Any) -> list[Tensor | None]:
        state: _Replay = attrs["state"]
        cell = state.cell
        dout = state.rebuild_out(list(grads))
        result = cell.bprop(*state.args, state.out, dout, **state.kwargs)
        result = _as_tuple(result)
        if len(result) != len(state.args):
            raise ValueError(f"{type(cell).__name__}.bprop returned {len(result)} gradients for "
                             f"{len(state.args)} inputs of construct")
        by_input = {id(a): r for a, r in zip(state.args, result) if isinstance(a, Tensor)}
        out: list[Tensor | None] = []
        for t in ctx.inputs:
            g = by_input.get(id(t))
            out.append(_grad_tensor(g, t) if g is not None else None)
        return out


def run_custom_bprop(cell: Cell, args: tuple, kwargs: dict) -> Any:
    with no_grad():
        out = cell.construct(*args, **kwargs)
    tensors = [a for a in args if isinstance(a, Tensor) and a.requires_grad]
    outs, rebuild_out = flatten_tensors(out)
    if not tensors or not outs:
        return out
    state = _Replay(cell, args, kwargs)
    state.out = out
    state.rebuild_out = rebuild_out
    state.pending = tuple(o._data for o in outs)
    op = _CustomBprop()
    op.set_outputs(len(outs))
    res = apply(op, tuple(tensors), {"state": state})
    res = [res] if len(outs) == 1 else list(res)
    return rebuild_out(res)


def grad_recording() -> bool:
    return is_grad_enabled()
