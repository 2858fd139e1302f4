"""Custom autograd functions (MindSpore's ``_Function``, PyTorch's ``autograd.Function``): a subclass gives
``forward(ctx, *args)`` and ``backward(ctx, *grad_outputs)`` as static methods and is called through
``apply``; the tape records one node whose gradient is the subclass's ``backward``.

While a graph is traced the forward's own ops are what the graph records (an ONNX graph of the inference
path needs no backward).
"""
from __future__ import annotations

import inspect
from typing import Any

import numpy as np

from cellonnx.autograd.tape import _mode, no_grad
from cellonnx.tensor import Tensor

__all__ = ["_Function"]


class _Function:
    """Base of custom autograd functions.

    Examples:
        >>> from cellonnx.autograd.function import _Function
        >>> class Scale(_Function):
        ...     @staticmethod
        ...     def forward(ctx, x, k):
        ...         ctx.k = k
        ...         return x * k
        ...     @staticmethod
        ...     def backward(ctx, g):
        ...         return g * ctx.k, None
        >>> x = Tensor(np.array([1.0, 2.0], np.float32))
        >>> y = Scale.apply(x, 3.0)
        >>> print(y, ms.grad(lambda t: Scale.apply(t, 3.0).sum())(x))
        [3. 6.] [3. 3.]
    """

    saved_tensors: tuple = ()
    materialize_grads = True
    non_differentiable: tuple = ()
    dirty_tensors: tuple = ()

    @staticmethod
    def forward(ctx: Any, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("forward function should be customized.")

    @staticmethod
    def backward(ctx: Any, *grad_outputs: Any) -> Any:
        raise NotImplementedError("backward function should be customized.")

    @staticmethod
    def setup_context(ctx: Any, inputs: tuple[Any, ...], output: Any) -> Any:
        """Save what backward needs (with a ``forward`` that takes no ctx)."""
        raise NotImplementedError("setup_context is not implemented.")

    def save_for_backward(self, *tensors: Tensor) -> None:
        self.saved_tensors = tensors

    def mark_dirty(self, *args: Tensor) -> None:
        self.dirty_tensors = args

    def mark_non_differentiable(self, *args: Tensor) -> None:
        self.non_differentiable = args

    def set_materialize_grads(self, value: bool) -> None:
        """False: outputs that got no gradient reach ``backward`` as None rather than zeros."""
        self.materialize_grads = value

    @classmethod
    def apply(cls, *args: Any, **kwargs: Any) -> Any:
        """Run ``forward`` (without recording) and, when an input requires grad, record one node whose
        gradient is ``backward``."""
        from cellonnx.ops import registry

        ctx = cls.__new__(cls)
        has_setup = cls.setup_context is not _Function.setup_context
        if has_setup:
            bound = inspect.signature(cls.forward).bind(*args, **kwargs)
            bound.apply_defaults()
            args, kwargs = bound.args, bound.kwargs
        if registry.TRACE_HOOK is not None:  # traced: the forward's ops are the graph
            return cls._run_forward(ctx, has_setup, args, kwargs)
        tensors = [a for a in args if isinstance(a, Tensor)]
        recording = _mode.enabled and any(t.requires_grad for t in tensors)
        with no_grad():
            out = cls._run_forward(ctx, has_setup, args, kwargs)
        if not recording:
            return out
        outs = list(out) if isinstance(out, (tuple, list)) else [out]
        if not all(isinstance(o, Tensor) for o in outs):
            raise TypeError(f"{cls.__name__}.forward must return Tensors (or a tuple of them) to be "
                            f"differentiated, got {[type(o).__name__ for o in outs]}")
        node = _node_class()()
        node.set_outputs(len(outs))
        results = registry.apply(node, tuple(tensors), {"fn": cls, "ctx": ctx, "args": args,
                                                        "pending": tuple(o._data for o in outs)})
        results = [results] if len(outs) == 1 else list(results)
        frozen = {id(t) for t in ctx.non_differentiable}
        for r, o in zip(results, outs):
            if id(o) in frozen:
                r.requires_grad, r._node = False, None
        if isinstance(out, (tuple, list)):
            return type(out)(results)
        return results[0]

    @staticmethod
    def _run_forward(ctx: Any, has_setup: bool, args: tuple, kwargs: dict) -> Any:
        fn = type(ctx)
        if has_setup:
            out = fn.forward(*args, **kwargs)
            fn.setup_context(ctx, args, out)
            return out
        return fn.forward(ctx, *args, **kwargs)


_NODE: list[type] = []


def _node_class() -> type:
    """The op class of a custom function's node (made on first use: the op registry sits above the tape)."""
    if _NODE:
        return _NODE[0]
    from cellonnx.ops.registry import Op

    class _FunctionNode(Op, register=False):
        """Forward hands on the outputs ``apply`` computed; backward is the function's own."""

        name = "Function"

        def set_outputs(self, n: int) -> None:
            vars(self)["n_outputs"] = n

        def forward(self, *xs: np.ndarray, fn: Any, ctx: Any, args: tuple, pending: tuple) -> Any:
            return pending[0] if len(pending) == 1 else pending

        def backward(self, node: Any, *grads: Tensor, fn: Any, ctx: Any, args: tuple, pending: tuple
                     ) -> list[Tensor | None]:
            if ctx.materialize_grads:
                grads = tuple(g if g is not None else Tensor._make(np.zeros_like(p))
                              for g, p in zip(grads, pending))
            result = fn.backward(ctx, *grads)
            result = result if isinstance(result, (tuple, list)) else (result,)
            if len(result) < len(args):
                raise ValueError(f"{fn.__name__}.backward returned {len(result)} gradients for "
                                 f"{len(args)} inputs of forward")
            out: list[Tensor | None] = []
            for a, r in zip(args, result):
                if not isinstance(a, Tensor):
                    continue
                if r is not None and not isinstance(r, Tensor):
                    r = Tensor._make(np.asarray(r, dtype=a._data.dtype))
                out.append(r)
            return out

    _NODE.append(_FunctionNode)
    return _FunctionNode
