"""MXNet's ``autograd.Function``: a subclass gives ``forward(*inputs)`` and ``backward(*output_grads)`` over
NDArrays; calling an instance (once) runs ``forward`` with recording paused and, while recording, adds one
node to the tape whose gradient is ``backward``."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.autograd.function import _Function, _node_class
from cellonnx.tensor import Tensor

__all__ = ["Function"]


class _Bridge(_Function):
    """The tape node of one Function call (ctx.fn is the user's Function instance)."""

    @staticmethod
    def forward(ctx: Any, *inputs: Any) -> Any:
        raise AssertionError("unused: Function.__call__ runs forward itself")

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> Any:
        fn = ctx.fn
        output_grads = [_retype(g, ctx.out_class) for g in grads]
        rets = fn.backward(*output_grads)
        if isinstance(rets, Tensor):
            rets = (rets,)
        if len(rets) != ctx.n_inputs:
            raise AssertionError(f"{type(fn).__name__}.backward must return exactly the same number of "
                                 "NDArrays as the number of NDArrays arguments to forward.Expecting "
                                 f"{ctx.n_inputs} got {len(rets)}")
        for r in rets:
            if not isinstance(r, Tensor):
                raise AssertionError(f"autograd.Function.backward must return NDArrays, not {type(r)}")
        return tuple(Tensor._make(np.asarray(r._data)) for r in rets)


def _retype(t: Tensor, cls: type) -> Any:
    out = Tensor._make(np.asarray(t._data))
    out.__class__ = cls
    return out


class Function:
    """Customize differentiation: override ``forward`` and ``backward`` (NDArrays in, NDArrays out); each
    instance is called once.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> class Sigmoid(mx.autograd.Function):
        ...     def forward(self, x):
        ...         y = 1 / (1 + mx.nd.exp(-x))
        ...         self.save_for_backward(y)
        ...         return y
        ...     def backward(self, dy):
        ...         y, = self.saved_tensors
        ...         return dy * y * (1 - y)
        >>> x = mx.nd.array([0.0, 2.0])
        >>> x.attach_grad()
        >>> with mx.autograd.record():
        ...     y = Sigmoid()(x)
        >>> y.backward()
        >>> print(x.grad.asnumpy().round(4))
        [0.25  0.105]
    """

    def __init__(self) -> None:
        self._used = False
        self.saved_tensors: tuple = ()

    def save_for_backward(self, *args: Any) -> None:
        """Keep arrays for ``backward`` (``self.saved_tensors``)."""
        self.saved_tensors = args

    def __call__(self, *inputs: Any) -> Any:
        from cellonnx.gluon import autograd
        from cellonnx.ops import registry

        if self._used:
            raise AssertionError("Each Function instance can only be called once. Please create another "
                                 "instance.")
        self._used = True
        prev = autograd.set_recording(False)
        try:
            outputs = self.forward(*inputs)
        finally:
            autograd.set_recording(prev)
        if not prev:
            return outputs
        outs = [outputs] if isinstance(outputs, Tensor) else list(outputs)
        tensors = [x for x in inputs if isinstance(x, Tensor)]
        if not any(t.requires_grad for t in tensors):
            return outputs
        ctx = _Bridge.__new__(_Bridge)
        ctx.fn, ctx.n_inputs, ctx.out_class = self, len(inputs), type(outs[0])
        node = _node_class()()
        node.set_outputs(len(outs))
        results = registry.apply(node, tuple(tensors), {"fn": _Bridge, "ctx": ctx, "args": tuple(inputs),
                                                        "pending": tuple(o._data for o in outs)})
        results = [results] if len(outs) == 1 else list(results)
        for r, o in zip(results, outs):
            r.__class__ = type(o)
        if isinstance(outputs, Tensor):
            return results[0]
        return type(outputs)(results)

    def forward(self, *inputs: Any) -> Any:
        """The outputs of ``inputs`` (run with recording paused)."""
        raise NotImplementedError

    def backward(self, *output_grads: Any) -> Any:
        """The gradients of the inputs, one per input of ``forward``, from the outputs' gradients."""
        raise NotImplementedError
