"""``mx.sym.histogram``: MXNet's ``_histogram`` node (counts and bin edges of the flattened input)."""
from __future__ import annotations

from typing import Any

from cellonnx.gluon.symbol.compose import create
from cellonnx.gluon.symbol.symbol import Symbol, is_symbol

__all__ = ["histogram"]


def histogram(a: Any, bins: Any = 10, range: Any = None, **kwargs: Any) -> Any:
    """The histogram of the flattened ``a``: a Symbol of two outputs, the int64 counts and the float32 bin
    edges. ``bins`` is an int (equal bins over ``range``, which symbol mode requires) or a Symbol of the
    edges.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> a = mx.sym.var('a')
        >>> h = mx.sym.histogram(a, bins=3, range=(0.0, 3.0))
        >>> counts, edges = h.eval(a=mx.nd.array([0.5, 1.5, 1.7, 2.9, 5.0]))
        >>> print(counts.asnumpy(), edges.asnumpy())
        [1 2 1] [0. 1. 2. 3.]
    """
    if is_symbol(bins):
        return create("_histogram", "_histogram", [a, bins], dict(kwargs), symbol_cls=Symbol)
    if isinstance(bins, int) and not isinstance(bins, bool):
        if range is None:
            raise ValueError("null range is not supported in symbol mode")
        return create("_histogram", "_histogram", [a], {"bin_cnt": bins, "range": tuple(range), **kwargs},
                      symbol_cls=Symbol)
    raise ValueError("bins argument should be either an integer or an NDArray")
