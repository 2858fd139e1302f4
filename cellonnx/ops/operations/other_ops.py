"""MindSpore's state and plumbing operator classes as they behave in PyNative mode: ``ops.Assign`` (and its
add / sub forms, which update a Parameter in place), ``ops.Depend``, ``ops.UpdateState``,
``ops.StopGradient``,
``ops.Partial``, and the Python-function operators ``ops.PyFunc`` and ``ops.Custom`` (func_type 'pyfunc')."""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from cellonnx import dtypes
from cellonnx.ops.operations._util import assign_to
from cellonnx.ops.operations.table import Row, build
from cellonnx.ops.primitive import Primitive
from cellonnx.ops.prims._util import to_tensor
from cellonnx.ops.prims.math import add, sub
from cellonnx.ops.registry import Op, apply
from cellonnx.tensor import Tensor


def _assign(variable: Tensor, value: Any, how: str) -> Tensor:
    if how == "add":
        value = add(variable, to_tensor(value, variable))
    elif how == "sub":
        value = sub(variable, to_tensor(value, variable))
    op = {"set": "Assign", "add": "AssignAdd", "sub": "AssignSub"}[how]
    from cellonnx.autograd.tape import no_grad
    with no_grad():
        return assign_to(variable, value, op)


def _partial(*args: Any) -> functools.partial:
    if not args or not callable(args[0]):
        raise TypeError("For 'Partial', the first input must be a function (or cell)")
    return functools.partial(args[0], *args[1:])


def _numpy_args(args: tuple) -> list[Any]:
    return [a.asnumpy() if isinstance(a, Tensor) else a for a in args]


def _as_tensor(value: Any, dtype: Any) -> Tensor:
    return Tensor(np.asarray(value), dtype) if dtype is not None else Tensor(np.asarray(value))


def _py_func(fn: Callable, out_types: Any, *args: Any) -> tuple[Tensor, ...]:
    """PyFunc: ``fn`` on the inputs as NumPy arrays (scalars for 0-d); its results as a tuple of Tensors."""
    inputs = tuple(args[0]) if len(args) == 1 and isinstance(args[0], (tuple, list)) else args
    out = fn(*_numpy_args(inputs))
    outs = out if isinstance(out, (tuple, list)) else (out,)
    types = list(out_types) + [None] * (len(outs) - len(out_types))
    return tuple(_as_tensor(o, t) for o, t in zip(outs, types))


class _CustomOp(Op, register=False):
    """A Custom 'pyfunc' operator applied once: forward has the outputs already, backward calls the bprop."""

    name = "Custom"

    def __init__(self, outs: tuple, inputs: tuple, bprop: Callable) -> None:
        vars(self)["n_outputs"] = len(outs)
        self.outs, self.inputs, self.bprop = outs, inputs, bprop

    def forward(self, *xs: np.ndarray, **attrs: Any) -> Any:
        arrays = tuple(o._data for o in self.outs)
        return arrays[0] if len(arrays) == 1 else arrays

    def backward(self, ctx: Any, *grads: Tensor, **attrs: Any) -> tuple:
        out = self.outs[0] if len(self.outs) == 1 else self.outs
        dout = grads[0] if len(grads) == 1 else tuple(grads)
        result = self.bprop(*self.inputs, out, dout)
        result = result if isinstance(result, tuple) else (result,)
        return tuple(r if r is None or isinstance(r, Tensor) else Tensor(r) for r in result)

    def lower(self, g: Any, *xs: str, **attrs: Any) -> Any:
        raise NotImplementedError("ops.Custom(func_type='pyfunc') cannot be exported: its function runs in "
                                  "Python")


def _custom(prim: Any, *inputs: Any) -> Any:
    """Custom with func_type 'pyfunc': ``func`` runs on the inputs as NumPy arrays; ``bprop(*inputs, out,
    dout)``, when given, gives the gradients of the inputs. ``out_dtype`` may be a function of the inputs'
    dtypes, as MindSpore's infer functions are (``out_shape`` is not needed: the result has its shape)."""
    from cellonnx.autograd.tape import is_grad_enabled
    out = prim.func(*_numpy_args(inputs))
    multi = isinstance(out, (tuple, list))
    values = tuple(out) if multi else (out,)
    dt = prim.out_dtype
    if callable(dt) and not isinstance(dt, dtypes.DType):
        dt = dt(*(t.dtype if isinstance(t, Tensor) else type(t) for t in inputs))
    dts = tuple(dt) if isinstance(dt, (tuple, list)) else (dt,) * len(values)
    outs = tuple(_as_tensor(v, d) for v, d in zip(values, dts))
    tensors = tuple(t for t in inputs if isinstance(t, Tensor))
    if prim.bprop is not None and is_grad_enabled() and any(t.requires_grad for t in tensors):
        if len(tensors) != len(inputs):
            raise TypeError("For 'Custom' with a bprop, every input must be a Tensor")
        res = apply(_CustomOp(outs, tuple(inputs), prim.bprop), tensors, {})
        return res
    return outs if multi else outs[0]


def _setup_custom(prim: Any) -> None:
    if prim.func_type != "pyfunc":
        from cellonnx.unsupported import UnsupportedError
        raise UnsupportedError(f"mindspore.ops.Custom(func_type={prim.func_type!r}) is not available in "
                               f"cellonnx: it "
                               "compiles or loads native kernels for MindSpore's runtime; func_type 'pyfunc' "
                               "(a "
                               "Python function over NumPy arrays) is supported")
    if not callable(prim.func):
        raise TypeError(f"For 'Custom', func must be a Python function with func_type 'pyfunc', but got "
                        f"{type(prim.func).__name__}")
    dt = prim.out_dtype
    infer = callable(dt) and not isinstance(dt, dtypes.DType)
    if dt is not None and not isinstance(dt, (tuple, list)) and not infer:
        dtypes.dtype(dt)


ROWS = [
    Row("Assign", "", "variable, value", "_assign(variable, value, 'set')",
        summary="Sets the Parameter ``variable`` to ``value`` in place and returns the new value.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> variable = Parameter(Tensor(np.array([1.0]), ms.float32), name="variable")
        >>> value = Tensor(np.array([2.0]), ms.float32)
        >>> print(ops.Assign()(variable, value))
        [2.]
        >>> print(variable.asnumpy())
        [2.]
        """),
    Row("AssignAdd", "", "variable, value", "_assign(variable, value, 'add')",
        summary="Adds ``value`` to the Parameter ``variable`` in place and returns the new value.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> variable = Parameter(Tensor(np.array([1.0, 2.0]), ms.float32), name="variable")
        >>> print(ops.AssignAdd()(variable, Tensor(np.array([10.0, 10.0]), ms.float32)))
        [11. 12.]
        >>> print(variable.asnumpy())
        [11. 12.]
        """),
    Row("AssignSub", "", "variable, value", "_assign(variable, value, 'sub')",
        summary="Subtracts ``value`` from the Parameter ``variable`` in place and returns the new value.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> variable = Parameter(Tensor(np.array([1.0, 2.0]), ms.float32), name="variable")
        >>> print(ops.AssignSub()(variable, Tensor(np.array([10.0, 10.0]), ms.float32)))
        [-9. -8.]
        >>> print(variable.asnumpy())
        [-9. -8.]
        """),
    Row("Depend", "", "value, expr", "value",
        summary="``value`` itself, with ``expr`` evaluated first (orders side effects in graphs).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> y = ops.Softmax()(x)
        >>> print(ops.Depend()(x, y))
        [1. 2.]
        """),
    Row("UpdateState", "", "*args", "args[0]",
        summary="Its first argument (the side-effect state in MindSpore's graphs), unchanged.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> print(ops.UpdateState()(x, Tensor(np.array([3.0]), ms.float32)))
        [1. 2.]
        """),
    Row("StopGradient", "", "value", "stop_gradient(value)",
        summary="``value`` itself, with no gradient flowing back through it.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> def f(t):
        ...     return (t * ops.StopGradient()(t)).sum()
        >>> grad = ms.grad(f)(x)
        >>> print(grad)
        [1. 2.]
        """),
    Row("Reusing", "", "x", "x",
        summary="``x`` itself (MindSpore marks the cell for graph reuse; cellonnx needs no mark).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> print(ops.Reusing()(x))
        [1. 2.]
        """),
    Row("MoveTo", "", "input, to='CPU', blocking=True", "input",
        summary="``input`` (cellonnx keeps every tensor in host memory, so there is nothing to move).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> print(ops.MoveTo()(x, "CPU"))
        [1. 2.]
        """),
    Row("Partial", "", "*args", "_partial(*args)",
        summary="``functools.partial`` of its first argument (a function or cell) with the rest bound.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> add = ops.Partial()(ops.Add(), Tensor(np.array([1.0, 2.0]), ms.float32))
        >>> print(add(Tensor(np.array([10.0, 20.0]), ms.float32)))
        [11. 22.]
        """),
    Row("PyFunc", "fn, in_types, in_shapes, out_types, out_shapes, stateful=True", "*args",
        "_py_func(fn, out_types, *args)",
        summary="A Python function run on NumPy arrays of its inputs, its outputs returned as tensors.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> def func(x1, x2):
        ...     return x1 + x2
        >>> x1 = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> x2 = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> op = ops.PyFunc(func, [x1.dtype, x2.dtype], [x1.shape, x2.shape], [x1.dtype], [x1.shape])
        >>> print(op(x1, x2)[0].asnumpy())
        [2. 4. 6.]
        """),
    Row("Custom", "func, out_shape=None, out_dtype=None, func_type='pyfunc', bprop=None, reg_info=None",
        "*inputs", "_custom(self, *inputs)", _setup_custom,
        summary="A user operator; in cellonnx ``func_type='pyfunc'``: a Python function over NumPy arrays.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> def add(x, y):
        ...     return x + y
        >>> op = ops.Custom(add, out_shape=lambda x, _: x, out_dtype=lambda x, _: x, func_type="pyfunc")
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> print(op(x, x))
        [2. 4.]
        """),
]

CLASSES = build(ROWS, globals())
globals().update(CLASSES)


class identity(Primitive):
    """The input itself: MindSpore's (deprecated since 2.0) identity primitive, a class whose instances
    return what they are called with, logging that ``nn.Identity`` replaces it; ``ops.identity`` (MindSpore's
    ``ops.functional.identity``) is such an instance.

    Examples:
        >>> from cellonnx.ops import operations as P
        >>> op = P.identity()
        >>> op
        Prim[identity]<side_effect_propagate=1>
        >>> print(op(Tensor(np.array([1.0, 2.0], np.float32))))
        [1. 2.]
        >>> op(3)
        3
    """

    side_effect_propagate = 1

    def __init__(self) -> None:
        super().__init__("identity")
        self.add_prim_attr("side_effect_propagate", 1)

    def __call__(self, x: Any) -> Any:
        import logging

        logging.getLogger("cellonnx").warning(
            "'identity' is deprecated from version 2.0 and will be removed in a future version, use "
            "'nn.Identity' instead.")
        return x


# the function MindSpore's operations namespace also holds


def _ms_pyfunc(infer_func: Callable[..., Any]) -> Callable[[Callable[..., Any]], Primitive]:
    """Decorator factory turning a Python function into a primitive whose call runs it (``infer_func`` is
    kept as the primitive's ``infer_func`` attribute)."""

    def decorator(fn: Callable[..., Any]) -> Primitive:
        class PyCallback(Primitive):
            def __call__(self, *args: Any) -> Any:
                return fn(*args)

        PyCallback.__name__ = f"PyCallback_{fn.__name__}"
        prim = PyCallback(PyCallback.__name__)
        prim.add_prim_attr("infer_func", infer_func)
        return prim

    return decorator


__all__ = [*CLASSES, "_ms_pyfunc", "identity"]
