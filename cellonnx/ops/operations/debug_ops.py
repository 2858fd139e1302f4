"""MindSpore's debugging and side-effect operator classes as they behave in PyNative mode: ``ops.Print``,
``ops.Assert``, the summaries, ``ops.TensorDump``, and the gradient hooks ``ops.HookBackward``,
``ops.InsertGradientOf``, ``ops.DumpGradient`` and ``ops.Morph`` (a function with its own backward)."""
from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from cellonnx.autograd.tape import is_grad_enabled
from cellonnx.ops.operations._util import one_of
from cellonnx.ops.operations.table import Row, build
from cellonnx.ops.prims._util import to_tensor
from cellonnx.ops.registry import Op, apply
from cellonnx.tensor import Parameter, Tensor

# What the summary operators recorded, by channel ("scalar", "image", "tensor", "histogram") then tag: the
# latest value of each (MindSpore's SummaryRecord collects them from here in PyNative mode).
SUMMARY_DATA: dict[str, dict[str, Tensor]] = {"scalar": {}, "image": {}, "tensor": {}, "histogram": {}}

_dump_ids = itertools.count()


def _print(*args: Any) -> None:
    for arg in args:
        if isinstance(arg, Parameter):
            print(Tensor.__repr__(arg))
        elif isinstance(arg, Tensor):
            print(repr(arg))
        else:
            print(arg)


def _assert(condition: Any, input_data: Any, summarize: int) -> None:
    ok = condition.asnumpy().all() if isinstance(condition, Tensor) else bool(condition)
    if ok:
        return
    data = input_data if isinstance(input_data, (tuple, list)) else (input_data,)
    shown = [np.asarray(to_tensor(t).asnumpy()).ravel()[:summarize].tolist() for t in data]
    raise ValueError(f"For 'Assert', the condition is false; the first {summarize} values of each input: "
                     f"{shown}")


def _summary(channel: str, name: Any, value: Any) -> None:
    if not isinstance(name, str) or not name:
        raise ValueError(f"For '{channel.capitalize()}Summary', the name must be a non-empty str, but got "
                         f"{name!r}")
    if not isinstance(value, Tensor):
        raise TypeError(f"For '{channel.capitalize()}Summary', the value must be a Tensor, but got "
                        f"{type(value).__name__}")
    if channel == "scalar" and value.size != 1:
        raise ValueError(f"For 'ScalarSummary', the value must hold one element, but got shape "
                         f"{tuple(value.shape)}")
    if channel == "image" and value.ndim != 4:
        raise ValueError(f"For 'ImageSummary', the value must be 4-D (N, C, H, W), but got shape "
                         f"{tuple(value.shape)}")
    SUMMARY_DATA[channel][name] = value.detach()


def _tensor_dump(file: Any, x: Any, input_output: str) -> None:
    if not isinstance(file, str) or not file:
        raise ValueError(f"For 'TensorDump', the input argument[file] must be a non-empty str, but got "
                         f"{file!r}.")
    if not isinstance(x, Tensor):
        raise TypeError(f"For 'TensorDump', the input_x must be a Tensor, but got {type(x).__name__}.")
    arr = x.asnumpy()
    if arr.dtype.name == "bfloat16":
        arr = arr.astype(np.float32)
    path = Path(file)
    mode = "_in" if input_output == "in" else ""
    stem = path.stem if path.suffix == ".npy" else path.name
    name = f"{stem}{mode}_{x.dtype.name.lower()}_{next(_dump_ids)}.npy"
    np.save(path.parent / name, arr)


# ---------------------------------------------------------------- gradient hooks
class _GradHook(Op, register=False):
    """Identity on its inputs; backward hands the incoming gradients to the call's function, which may return
    replacements. Made per call (not registered); its lowering passes the inputs through."""

    name = "GradHook"

    def __init__(self, n: int, on_grad: Callable[[tuple], Any]) -> None:
        vars(self)["n_outputs"] = n
        self.on_grad = on_grad

    def forward(self, *xs: np.ndarray, **attrs: Any) -> Any:
        return xs[0] if len(xs) == 1 else tuple(xs)

    def backward(self, ctx: Any, *grads: Tensor, **attrs: Any) -> tuple:
        out = self.on_grad(tuple(grads))
        if out is None:
            return grads
        out = out if isinstance(out, tuple) else (out,)
        if len(out) != len(grads):
            raise ValueError(f"the gradient hook returned {len(out)} gradients for {len(grads)} inputs")
        return tuple(g if isinstance(g, Tensor) else Tensor(np.asarray(g, dtype=r._data.dtype))
                     for g, r in zip(out, grads))

    def lower(self, g: Any, *xs: str, **attrs: Any) -> Any:
        return xs[0] if len(xs) == 1 else tuple(xs)


def _hooked(inputs: tuple, on_grad: Callable[[tuple], Any]) -> Any:
    """``inputs`` passed through an identity whose backward calls ``on_grad(grads)``; one tensor stays one."""
    tensors = tuple(to_tensor(t) for t in inputs)
    if not is_grad_enabled() or not any(t.requires_grad for t in tensors):
        return tensors[0] if len(tensors) == 1 else tensors
    return apply(_GradHook(len(tensors), on_grad), tensors, {})


def _hook_backward(hook_fn: Callable, *inputs: Any) -> Any:
    """HookBackward: ``hook_fn(grads)`` sees the tuple of the inputs' gradients (a 1-tuple for one input, as
    MindSpore passes it) and may return a tuple of replacements."""
    if not inputs:
        raise ValueError("For 'HookBackward', at least one input is needed.")
    return _hooked(inputs, hook_fn)


def _insert_gradient_of(f: Callable, x: Any) -> Any:
    """InsertGradientOf: the gradient flowing back to ``x`` becomes ``f(gradient)``."""
    return _hooked((x,), lambda grads: f(grads[0]))


def _dump_gradient(path: str, x: Any, input_output: str) -> Any:
    """DumpGradient: saves the gradient flowing back to ``x`` with TensorDump's naming."""

    def on_grad(grads: tuple) -> None:
        _tensor_dump(path, grads[0], input_output)

    return _hooked((x,), on_grad)


def _check_hook_fn(prim: Any) -> None:
    if not callable(prim.hook_fn):
        raise TypeError(f"For 'HookBackward', the hook_fn must be a Python function, but got "
                        f"{type(prim.hook_fn).__name__}")


def _check_input_output(prim: Any) -> None:
    one_of(prim, "input_output", ("in", "out"))


def _check_f(prim: Any) -> None:
    if not callable(prim.f):
        raise TypeError(f"For 'InsertGradientOf', the f must be a function, but got {type(prim.f).__name__}")


class _Morph(Op, register=False):
    """The outputs of ``fn`` computed beforehand; backward calls ``bprop_fn(*inputs, out, dout)``."""

    name = "Morph"

    def __init__(self, n: int, out: tuple, inputs: tuple, bprop_fn: Callable, packed: bool) -> None:
        vars(self)["n_outputs"] = n
        self.out, self.inputs, self.bprop_fn, self.packed = out, inputs, bprop_fn, packed

    def forward(self, *xs: np.ndarray, **attrs: Any) -> Any:
        arrays = tuple(o._data for o in self.out)
        return arrays[0] if len(arrays) == 1 else arrays

    def backward(self, ctx: Any, *grads: Tensor, **attrs: Any) -> tuple:
        out = self.out if self.packed else self.out[0]
        dout = tuple(grads) if self.packed else grads[0]
        result = self.bprop_fn(*self.inputs, out, dout)
        result = result if isinstance(result, tuple) else (result,)
        by_input = dict(zip((id(t) for t in self.inputs), result))
        return tuple(by_input.get(id(t)) for t in ctx.inputs)

    def lower(self, g: Any, *xs: str, **attrs: Any) -> Any:
        raise NotImplementedError("ops.Morph cannot be exported: its function runs in Python")


def _morph(fn: Callable, bprop_fn: Callable | None, *args: Any) -> Any:
    """Morph: ``fn(*args)``; with ``bprop_fn``, gradients come from ``bprop_fn(*args, out, dout)``."""
    from cellonnx.autograd.tape import no_grad
    tensors = tuple(a for a in args if isinstance(a, Tensor))
    if bprop_fn is None or not is_grad_enabled() or not any(t.requires_grad for t in tensors):
        return fn(*args)
    with no_grad():
        out = fn(*args)
    packed = isinstance(out, tuple)
    outs = out if packed else (out,)
    res = apply(_Morph(len(outs), outs, args, bprop_fn, packed), tensors, {})
    return res


ROWS = [
    Row("Print", "", "*args", "_print(*args)",
        summary="Prints strings and tensors (tensors with their shape and dtype), one per line.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.ones((2, 1)), ms.int32)
        >>> ops.Print()("Print Tensor x:", x)
        Print Tensor x:
        Tensor(shape=[2, 1], dtype=Int32, value=
        [[1],
         [1]])
        """),
    Row("Assert", "summarize=3", "condition, input_data", "_assert(condition, input_data, summarize)",
        summary="Raises an error showing ``input_data`` (``summarize`` values) if ``condition`` is False.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> a = Tensor(np.array([-1, 0, 1, 2, 3]), ms.int32)
        >>> _ = ops.Assert(3)(True, [a])
        """),
    Row("ScalarSummary", "", "name, value", "_summary('scalar', name, value)",
        summary="Records a one-element tensor under ``name`` for the summary collector (nothing is printed).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> ops.ScalarSummary()("loss", Tensor(0.5, ms.float32))
        """),
    Row("ImageSummary", "", "name, value", "_summary('image', name, value)",
        summary="Records an ``(N, C, H, W)`` tensor under ``name`` as images for the summary collector.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> ops.ImageSummary()("image", Tensor(np.zeros((1, 3, 4, 4)), ms.float32))
        """),
    Row("TensorSummary", "", "name, value", "_summary('tensor', name, value)",
        summary="Records a tensor under ``name`` for the summary collector (nothing is printed).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> ops.TensorSummary()("weights", Tensor(np.ones((2, 2)), ms.float32))
        """),
    Row("HistogramSummary", "", "name, value", "_summary('histogram', name, value)",
        summary="Records a tensor under ``name`` as a histogram for the summary collector.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> ops.HistogramSummary()("weights", Tensor(np.ones((2, 2)), ms.float32))
        """),
    Row("TensorDump", "input_output='out'", "file, input_x", "_tensor_dump(file, input_x, input_output)",
        _check_input_output,
        summary="Saves ``input_x`` to an ``.npy`` file named from ``file``, its dtype and a running id.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> ops.TensorDump()("dump_x", Tensor(np.ones(3), ms.float32))
        >>> import glob
        >>> print(len(glob.glob("dump_x*.npy")))
        1
        """),
    Row("HookBackward", "hook_fn, cell_id=''", "*inputs", "_hook_backward(hook_fn, *inputs)", _check_hook_fn,
        summary="Its inputs unchanged; on the way back ``hook_fn`` sees (and may replace) their gradients.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> def hook_fn(grad):
        ...     print(grad)
        >>> hook = ops.HookBackward(hook_fn)
        >>> def f(x, y):
        ...     return hook(x * y) * y
        >>> output = ms.grad(f, grad_position=(0, 1))(Tensor(1.0, ms.float32), Tensor(2.0, ms.float32))
        (Tensor(shape=[], dtype=Float32, value= 2),)
        >>> print(output)
        (Tensor(shape=[], dtype=Float32, value= 4), Tensor(shape=[], dtype=Float32, value= 4))
        """),
    Row("InsertGradientOf", "f", "input_x", "_insert_gradient_of(f, input_x)", _check_f,
        summary="``input_x`` unchanged; the gradient flowing back to it becomes ``f(gradient)``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> clip = ops.InsertGradientOf(lambda dout: ops.clip_by_value(dout, -0.1, 0.1))
        >>> def f(x):
        ...     return clip(x) * 3.0
        >>> print(ms.grad(f)(Tensor(np.array([1.0, 2.0]), ms.float32)))
        [0.1 0.1]
        """),
    Row("DumpGradient", "", "path, x, input_output", "_dump_gradient(path, x, input_output)",
        summary="``x`` unchanged; the gradient flowing back to it is saved under ``path``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> dg = ops.DumpGradient()
        >>> def f(x, y):
        ...     return dg("x_dout.npy", x, "out") * y
        >>> x, y = Tensor(1.0, ms.float32), Tensor(2.0, ms.float32)
        >>> x_grad, y_grad = ms.grad(f, grad_position=(0, 1))(x, y)
        >>> print(x_grad, y_grad)
        2.0 1.0
        """),
    Row("Morph", "fn, infer_shape, infer_dtype, bprop_fn=None", "*args", "_morph(fn, bprop_fn, *args)",
        summary="``fn(*args)`` as an operator, its gradient from ``bprop_fn(*args, out, dout)`` if given.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> def double(x):
        ...     return x * 2
        >>> def infer_shape(*shapes):
        ...     return shapes[0]
        >>> def infer_dtype(*dtypes):
        ...     return dtypes[0]
        >>> op = ops.Morph(double, infer_shape, infer_dtype)
        >>> print(op(Tensor(np.array([1.0, 2.0]), ms.float32)))
        [2. 4.]
        """),
]

CLASSES = build(ROWS, globals())
globals().update(CLASSES)
__all__ = list(CLASSES)
