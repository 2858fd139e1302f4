"""mx.sym: the operator namespace Gluon 1.x's ``hybrid_forward(F, ...)`` receives while a hybridized block is
traced.

MXNet builds a symbolic graph there; cellonnx traces the same Python code with tensors that record ONNX
nodes, so mx.sym's operators are mx.nd's (one table, the same functions) and their results are ``Symbol``s,
NDArrays that code can tell apart (``isinstance(x, mx.sym.Symbol)``, ``F is mx.sym``). Building graphs from
``mx.sym.var`` placeholders and reading symbol.json files is not part of this namespace.
"""
from __future__ import annotations

import sys
from typing import Any

from cellonnx.mxnet import _op
from cellonnx.mxnet.ndarray.ndarray import NDArray
from cellonnx.mxnet.symbol import contrib


class Symbol(NDArray):
    """An operator result while a hybridized block is traced (an NDArray holding a traced value)."""

    __slots__ = ()


_module = sys.modules[__name__]
for _name, _impl in _op.TABLE.items():
    setattr(_module, _name, _op.wrap(_name, _impl, Symbol))


def Group(symbols: list[Any]) -> list[Any]:
    """Several outputs: returned as a list (a traced block may return a tuple or list)."""
    return list(symbols)


def var(name: str, **_: Any) -> Any:
    """Placeholders of hand-built symbolic graphs are not supported: cellonnx traces Python code instead
    (hybridize a HybridBlock and call it, or export it to ONNX)."""
    raise NotImplementedError(f"mx.sym.var({name!r}): building graphs from symbolic placeholders is not "
                              "supported; hybridize a HybridBlock (its hybrid_forward is traced to "
                              "ONNX) instead")


Variable = var


def load(fname: str) -> Any:
    raise NotImplementedError(f"mx.sym.load({fname!r}): MXNet symbol.json files are not read by mx.sym; they "
                              "are a separate piece of work (gluon.SymbolBlock.imports)")


load_json = load

__all__ = ["Group", "Symbol", "Variable", "contrib", "load", "load_json", "var",
           *(n for n in _op.TABLE if not n.startswith("_"))]


def __getattr__(name: str) -> Any:
    if name == "np":
        from cellonnx.mxnet import numpy
        return numpy
    if name == "npx":
        from cellonnx.mxnet import numpy_extension
        return numpy_extension
    raise AttributeError(f"module 'mxnet.symbol' has no attribute '{name}'")
