"""Rewrite a network's forward computation, as MindSpore's ``mindspore.rewrite``: parse construct into nodes
(SymbolTree, Node), edit them (insert, erase, replace, set_arg ...) and get a network running the edited
code."""
from __future__ import annotations

from cellonnx.rewrite.node import Node
from cellonnx.rewrite.node_type import NodeType
from cellonnx.rewrite.scoped_value import ScopedValue, ValueType
from cellonnx.rewrite.symbol_tree import SymbolTree

__all__ = ["Node", "NodeType", "ScopedValue", "SymbolTree", "ValueType"]
