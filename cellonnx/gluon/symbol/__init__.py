"""MXNet's symbol graphs (``name-symbol.json``) run without MXNet: the graph reader, the op table, the
interpreter and SymbolBlock.

    from cellonnx.gluon import SymbolBlock
    net = SymbolBlock.imports('resnet-symbol.json', ['data'], 'resnet-0000.params')
"""

from __future__ import annotations

from cellonnx.gluon.symbol.block import SymbolBlock
from cellonnx.gluon.symbol.compose import AttrScope
from cellonnx.gluon.symbol.executor import Executor
from cellonnx.gluon.symbol.graph import SymbolFileError, SymbolGraph, load_graph, parse_graph
from cellonnx.gluon.symbol.interpreter import Program, SymbolError
from cellonnx.gluon.symbol.symbol import Group, Symbol, Variable, load, load_json, var

__all__ = [
    "AttrScope",
    "Executor",
    "Group",
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
