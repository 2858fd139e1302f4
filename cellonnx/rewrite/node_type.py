"""NodeType: the kinds of statement a rewrite Node stands for (MindSpore's ``mindspore.rewrite.NodeType``)."""
from __future__ import annotations

from enum import Enum

__all__ = ["NodeType"]


class NodeType(Enum):
    """`NodeType` represents type of `Node`.

    - Unknown: a node whose type is not set.
    - CallCell: a call of a cell held by the network (``x = self.conv(x)``).
    - CallPrimitive: a call of a primitive held by the network (``y = self.mul(x, 2)``).
    - CallFunction: a call of a function or method (``y = ops.relu(x)``, ``s = x.sum()``).
    - CallMethod: a statement that is not a call mapped to a cell or primitive (``t = (a, b)``, ``y = x``).
    - Python: a statement kept as it is (``print(x)``, augmented assignments ...).
    - Input: an argument of ``construct``.
    - Output: a ``return`` statement.
    - Tree: a call of a user-defined sub-network, parsed into a SymbolTree of its own.
    - CellContainer: a call of a :class:`cellonnx.nn.SequentialCell` (or the CellList a loop runs over).
    - MathOps: an arithmetic, boolean or comparison expression (``z = x + y``).
    - ControlFlow: an ``if``/``else``, ``for`` or ``while`` block.

    Examples:
        >>> from cellonnx.rewrite import NodeType
        >>> print(NodeType.CallCell, NodeType.CallCell.value)
        NodeType.CallCell 1
    """

    Unknown = 0
    CallCell = 1
    CallPrimitive = 2
    CallModule = 3
    CallFunction = 4
    CallMethod = 5
    Python = 6
    Input = 7
    Output = 8
    Tree = 9
    CellContainer = 10
    MathOps = 11
    ControlFlow = 12
