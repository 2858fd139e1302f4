"""The op registry. A primitive is one class with three faces side by side:

    class Exp(Op):
        save_output = True                      # backward reads the output
        def forward(self, x):                   # NumPy arrays in, array(s) out
            return np.exp(x)
        def backward(self, ctx, g):             # written with cellonnx ops: differentiable and traceable
            return (g * ctx.out,)
        def lower(self, g, x):                  # ONNX node(s); g is the graph builder, x an ONNX value name
            return g.op("Exp", x)

Attributes are keyword arguments to all three. Defining the class registers it; ``Exp.apply(x)`` runs it.
Composite ops (losses, gelu, ...) are plain functions over primitives and need none of this.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import numpy as np

from cellonnx.autograd.tape import Node, _mode
from cellonnx.tensor import Tensor

REGISTRY: dict[str, Op] = {}

# Set by cellonnx.graph.trace while compile() traces: called with (op, inputs, attrs, outputs).
TRACE_HOOK: Callable[..., None] | None = None
# The active tracer while tracing; control-flow ops use its subgraph()/emit()/suspended() interface.
ACTIVE_TRACER: Any = None


class OpError(ValueError):
    """An op was given inputs it cannot take; the message names the op, the shapes and dtypes (a ValueError).

    Examples:
        >>> try:
        ...     ops.matmul(Tensor(np.ones((2, 3))), Tensor(np.ones((2, 3))))
        ... except ops.OpError as e:
        ...     print(isinstance(e, ValueError), str(e)[:40])
        True ops.MatMul: shapes (2, 3) and (2, 3) are
    """


def describe(inputs: Sequence[Tensor]) -> str:
    return ", ".join(f"{tuple(t._data.shape)} {t.dtype}" for t in inputs)


class Op:
    """Base class of primitives. Subclasses set the faces below; see the module docstring. Defining a
    subclass registers it under its name (``register=False`` keeps it out of the registry).

    Examples:
        >>> from cellonnx.ops import Op, apply
        >>> class Cube(Op, register=False):
        ...     def forward(self, x):
        ...         return x ** 3
        ...     def backward(self, ctx, g):
        ...         x, = ctx.inputs
        ...         return (g * 3 * x * x,)
        ...     def lower(self, g, x):
        ...         return g.op("Mul", g.op("Mul", x, x), x)
        >>> x = Tensor(np.array([1.0, 2.0], np.float32))
        >>> print(apply(Cube(), (x,), {}))
        [1. 8.]
        >>> print(ms.grad(lambda t: apply(Cube(), (t,), {}))(x))
        [ 3. 12.]
    """

    name: ClassVar[str] = "Op"
    save_output: ClassVar[bool] = False   # keep output arrays for backward (ctx.out)
    differentiable: ClassVar[bool] = True  # False: outputs never require grad (comparisons, argmax, ...)
    deterministic: ClassVar[bool] = True  # False: never constant-folded while tracing (random ops)
    n_outputs: ClassVar[int] = 1          # >1: forward returns a tuple
    # the inputs whose values backward reads (None: all; () when it needs only their shapes): what
    # saved_tensors_hooks pack
    saved_inputs: ClassVar[tuple[int, ...] | None] = None
    _instance: ClassVar[Op]

    def __init_subclass__(cls, register: bool = True, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "name" not in cls.__dict__:
            cls.name = cls.__name__
        if register:
            if cls.name in REGISTRY:
                raise RuntimeError(f"op {cls.name} is registered twice "
                                   f"({type(REGISTRY[cls.name]).__module__} and {cls.__module__})")
            cls._instance = cls()
            REGISTRY[cls.name] = cls._instance

    def forward(self, *xs: np.ndarray, **attrs: Any) -> Any:
        raise NotImplementedError(f"op {self.name} has no forward")

    def backward(self, ctx: Any, *grads: Tensor, **attrs: Any) -> Sequence[Tensor | None]:
        raise NotImplementedError(f"op {self.name} has no gradient")

    def lower(self, g: Any, *xs: str, **attrs: Any) -> str | Sequence[str]:
        raise NotImplementedError(f"op {self.name} has no ONNX lowering")

    def check(self, *xs: np.ndarray, **attrs: Any) -> str | None:
        """Optional validation: return a message saying what is wrong (shapes, dtypes, attributes)."""
        return None

    @classmethod
    def apply(cls, *inputs: Tensor, **attrs: Any) -> Any:
        return apply(cls._instance, inputs, attrs)

    def __repr__(self) -> str:
        return f"<op {self.name}>"


def apply(op: Op, inputs: tuple[Tensor, ...], attrs: dict[str, Any]) -> Any:
    """Run ``op`` on tensors: NumPy forward, tape record when needed, ONNX lowering while tracing.

    Args:
        op (Op): the primitive (``REGISTRY[name]`` for a registered one).
        inputs (tuple[Tensor, ...]): its inputs.
        attrs (dict): its attributes, passed to forward, backward and lower as keyword arguments.

    Returns:
        Tensor, or a tuple of Tensors for an op of several outputs.

    Raises:
        OpError: the forward rejects the inputs (the message names the op, the shapes and dtypes).

    Examples:
        >>> from cellonnx.ops import REGISTRY, apply
        >>> x = Tensor(np.array([[1.0, -2.0], [3.0, -4.0]], np.float32))
        >>> print(apply(REGISTRY["Relu"], (x,), {}))
        [[1. 0.]
         [3. 0.]]
    """
    arrays = [t._data for t in inputs]
    try:
        out = op.forward(*arrays, **attrs)
    except (ValueError, TypeError, IndexError) as exc:
        msg = op.check(*arrays, **attrs)
        detail = msg or str(exc)
        raise OpError(f"ops.{op.name}: {detail} (inputs: {describe(inputs)}"
                      + (f"; attributes: {_fmt_attrs(attrs)}" if attrs else "") + ")") from None
    if op.n_outputs == 1:
        result = Tensor._make(out)
        outs: tuple[Tensor, ...] = (result,)
    else:
        outs = tuple(Tensor._make(o) for o in out)
        result = outs
    if op.differentiable and _mode.enabled:
        for t in inputs:
            if t.requires_grad:
                node = Node(op, inputs, attrs, outs, arrays)
                for i, o in enumerate(outs):
                    if o._data.dtype.kind == "f" or o._data.dtype.name == "bfloat16":
                        o._node = node
                        o._out_index = i
                        o.requires_grad = True
                break
    if TRACE_HOOK is not None:
        TRACE_HOOK(op, inputs, attrs, outs)
    return result


def _fmt_attrs(attrs: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in attrs.items() if not callable(v))
