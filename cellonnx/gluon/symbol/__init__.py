"""MXNet's symbol graphs (``name-symbol.json``) run without MXNet: the graph reader, the op table, the
interpreter and SymbolBlock.

    from cellonnx.gluon import SymbolBlock
    net = SymbolBlock.imports('resnet-symbol.json', ['data'], 'resnet-0000.params')
"""

from __future__ import annotations

from cellonnx.gluon.symbol.block import SymbolBlock
from cellonnx.gluon.symbol.graph import SymbolFileError, SymbolGraph, load_graph, parse_graph
from cellonnx.gluon.symbol.interpreter import Program, SymbolError
from cellonnx.gluon.symbol.symbol import Symbol, Variable, load, load_json, var

__all__ = [
    "Program",
    "Symbol",
    "SymbolBlock",
    "SymbolError",
    "SymbolFileError",
    "SymbolGraph",
    "Variable",
    "load",
    "load_graph",
    "load_json",
    "parse_graph",
    "var",
]
