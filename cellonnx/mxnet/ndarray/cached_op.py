"""mx.nd.CachedOp: a symbol graph made callable on NDArrays (the op Gluon's hybridized blocks run)."""
from __future__ import annotations

from typing import Any

from cellonnx.gluon.symbol.interpreter import Program
from cellonnx.mxnet import _op
from cellonnx.mxnet._placement import follow
from cellonnx.mxnet.base import MXNetError
from cellonnx.mxnet.ndarray.ndarray import NDArray

__all__ = ["CachedOp"]


class CachedOp:
    """A symbol compiled once and called with its inputs' arrays in ``sym.list_inputs()`` order; the
    result is one NDArray, or a list for a grouped symbol. Calls record gradients as other operators do.

    Args:
        sym: the symbol.
        flags: MXNet's CachedOp flags (``static_alloc``, ``static_shape``, ...): kept, and without effect on
            the results (they tune MXNet's memory planning).

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> a, b = mx.sym.var('a'), mx.sym.var('b')
        >>> op = mx.nd.CachedOp(a * 2 + b)
        >>> print(op(mx.nd.array([1, 2]), mx.nd.array([10, 20])).asnumpy())
        [12. 24.]
    """

    def __init__(self, sym: Any, flags: Any = ()) -> None:
        self.sym = sym
        self.flags = list(flags.items()) if isinstance(flags, dict) else list(flags)
        graph, heads = sym._graph_view()
        self._program = Program(graph, heads)
        self._inputs = list(sym.list_inputs())

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        out = kwargs.pop("out", None)
        kwargs.pop("default_ctx", None)
        if kwargs:
            raise TypeError(f"CachedOp.__call__: unexpected keyword arguments {sorted(kwargs)}")
        if len(args) != len(self._inputs):
            raise MXNetError(f"CachedOp: {len(args)} inputs given, the symbol takes {len(self._inputs)} "
                             f"({', '.join(self._inputs)})")
        results = follow(_op.retype(self._program.run(dict(zip(self._inputs, args))), NDArray), args, {})
        if out is not None:
            targets = out if isinstance(out, (list, tuple)) else [out]
            for target, value in zip(targets, results):
                target[...] = value
            return out
        return results[0] if len(results) == 1 else list(results)
