"""SymbolTree: a network's construct as editable nodes, as MindSpore's ``mindspore.rewrite.SymbolTree``."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from cellonnx.rewrite.node import Node, _check
from cellonnx.rewrite.tree import Position, SymbolTreeImpl

__all__ = ["SymbolTree"]


def _table(rows: list[list[str]], headers: list[str]) -> str:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]
    def line(cells: list[str]) -> str:
        return "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()
    return "\n".join([line(headers), line(["-" * w for w in widths]), *(line(r) for r in rows)])


class SymbolTree:
    """A network's forward computation as a tree of nodes that can be edited and turned back into a network.

    Each (flattened) statement of ``construct`` is a :class:`cellonnx.rewrite.Node`; nodes can be inserted,
    erased and replaced, their arguments changed, and ``get_network`` returns a network running the edited
    code. A call of a user-defined sub-network becomes a `NodeType.Tree` node holding the sub-network's own
    SymbolTree; a SequentialCell call becomes a `NodeType.CellContainer` node; ``if``/``for``/``while`` blocks
    become `NodeType.ControlFlow` nodes whose statements are nodes of their own (with no topology across the
    block's border, as in MindSpore).

    Args:
        handler (SymbolTreeImpl): the internal tree; use :func:`SymbolTree.create`.

    Examples:
        >>> from cellonnx.models import LeNet5
        >>> from cellonnx.rewrite import SymbolTree
        >>> stree = SymbolTree.create(LeNet5())
        >>> print([node.get_name() for node in stree.nodes()][:4])
        ['input_x', 'conv1', 'relu', 'max_pool2d']
    """

    def __init__(self, handler: SymbolTreeImpl) -> None:
        _check("handler", handler, (SymbolTreeImpl,), "SymbolTree")
        self._symbol_tree = handler

    @classmethod
    def create(cls, network: Any) -> SymbolTree:
        """Create a SymbolTree from `network`, parsing the source of its construct.

        Nested calls are expanded into one statement each (``x = self.pool(self.relu(self.conv(x)))`` becomes
        three nodes ``conv``, ``relu``, ``pool`` with targets ``conv_var``, ``relu_var``, ``x``), with
        MindSpore's names for the new variables and the nodes.

        Args:
            network (Cell): the network.

        Returns:
            SymbolTree.

        Raises:
            TypeError: If `network` is not a Cell.

        Examples:
            >>> from cellonnx.models import LeNet5
            >>> from cellonnx.rewrite import SymbolTree
            >>> print(type(SymbolTree.create(LeNet5())).__name__)
            SymbolTree
        """
        from cellonnx.nn import Cell
        _check("network", network, (Cell,), "SymbolTree.create")
        from cellonnx.rewrite.namer import FUNCTION_NAMER
        FUNCTION_NAMER.reset()
        return cls(SymbolTreeImpl(network))

    def get_handler(self) -> SymbolTreeImpl:
        """The internal tree."""
        return self._symbol_tree

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SymbolTree) and other._symbol_tree is self._symbol_tree

    def __hash__(self) -> int:
        return id(self._symbol_tree)

    def nodes(self, all_nodes: bool = False) -> Iterator[Node]:
        """Iterate over the nodes of construct (with `all_nodes`, also those inside control-flow blocks, cell
        containers and sub-trees).

        Args:
            all_nodes (bool): include the nested nodes. Default: ``False``.

        Returns:
            A generator of nodes.

        Raises:
            TypeError: If `all_nodes` is not a bool.

        Examples:
            >>> from cellonnx.models import LeNet5
            >>> from cellonnx.rewrite import SymbolTree
            >>> print([node.get_name() for node in SymbolTree.create(LeNet5()).nodes()][-3:])
            ['relu_3', 'fc3', 'return_1']
        """
        _check("all_nodes", all_nodes, (bool,), "SymbolTree.nodes")
        tree = self._symbol_tree
        for node in tree.all_nodes() if all_nodes else tree.nodes():
            yield Node(node)

    def all_nodes(self, subtree_nodes: bool = True) -> list[Node]:
        """All nodes, nested ones included (those of sub-trees when `subtree_nodes`)."""
        _check("subtree_nodes", subtree_nodes, (bool,), "SymbolTree.all_nodes")
        return [Node(n) for n in self._symbol_tree.all_nodes(subtree_nodes)]

    def get_node(self, node_name: str) -> Node | None:
        """The node named `node_name` (searched in construct, its blocks and containers), or None.

        Args:
            node_name (str): the node's name.

        Returns:
            Node or None.

        Examples:
            >>> from cellonnx.models import LeNet5
            >>> from cellonnx.rewrite import SymbolTree
            >>> print(SymbolTree.create(LeNet5()).get_node("conv1").get_name())
            conv1
        """
        _check("node_name", node_name, (str,), "SymbolTree.get_node")
        node = self._symbol_tree.get_node(node_name)
        return Node(node) if node is not None else None

    def get_inputs(self) -> list[Node]:
        """The Input nodes (the arguments of construct)."""
        return [Node(n) for n in self._symbol_tree.input_nodes()]

    def before(self, node: Node | str) -> Position:
        """The position before `node`, for :func:`SymbolTree.insert`.

        Args:
            node (Union[Node, str]): a node or its name.

        Returns:
            Position.

        Raises:
            TypeError: If `node` is not a Node or str.

        Examples:
            >>> from cellonnx.models import LeNet5
            >>> from cellonnx.rewrite import SymbolTree
            >>> stree = SymbolTree.create(LeNet5())
            >>> position = stree.before(stree.get_node("conv2"))
        """
        _check("node", node, (Node, str), "SymbolTree.before")
        return self._symbol_tree.position(node.get_handler() if isinstance(node, Node) else node, True)

    def after(self, node: Node | str) -> Position:
        """The position after `node`, for :func:`SymbolTree.insert`.

        Args:
            node (Union[Node, str]): a node or its name.

        Returns:
            Position.

        Raises:
            TypeError: If `node` is not a Node or str.

        Examples:
            >>> from cellonnx.models import LeNet5
            >>> from cellonnx.rewrite import SymbolTree
            >>> stree = SymbolTree.create(LeNet5())
            >>> position = stree.after("conv1")
        """
        _check("node", node, (Node, str), "SymbolTree.after")
        return self._symbol_tree.position(node.get_handler() if isinstance(node, Node) else node, False)

    def insert(self, position: Position, node: Node) -> Node:
        """Insert `node` at `position` (from :func:`before` or :func:`after`).

        A node calling a cell or primitive stores it on the network under the node's (unique) name.

        Args:
            position (Position): where to insert.
            node (Node): the node.

        Returns:
            The inserted Node.

        Raises:
            TypeError: If `position` is not a Position or `node` not a Node.
            ValueError: If `position` is in another SymbolTree.

        Examples:
            >>> from cellonnx import nn
            >>> from cellonnx.models import LeNet5
            >>> from cellonnx.rewrite import SymbolTree, Node, ScopedValue
            >>> stree = SymbolTree.create(LeNet5())
            >>> node = stree.get_node("conv1")
            >>> new_node = Node.create_call_cell(cell=nn.ReLU(), targets=["x"],
            ...                                  args=[ScopedValue.create_naming_value("x")], name="new_relu")
            >>> print(stree.insert(stree.after(node), new_node).get_name())
            new_relu
        """
        _check("position", position, (Position,), "SymbolTree.insert")
        _check("node", node, (Node,), "SymbolTree.insert")
        tree = position.symbol_tree
        if tree is not self._symbol_tree and position.node.tree is not self._symbol_tree:
            raise ValueError(f"For 'SymbolTree.insert', the position is in the SymbolTree of "
                             f"{tree.ori_cls_name}, "
                             f"not of {self._symbol_tree.ori_cls_name}.")
        return Node(self._symbol_tree.insert_node(node.get_handler(), position.node, position.before_node))

    def erase(self, node: Node | str) -> Node:
        """Erase `node`: users of its outputs fall back to an earlier node with the same target.

        Args:
            node (Union[Node, str]): a node or its name.

        Returns:
            The erased Node.

        Raises:
            TypeError: If `node` is not a Node or str.

        Examples:
            >>> from cellonnx.models import LeNet5
            >>> from cellonnx.rewrite import SymbolTree
            >>> stree = SymbolTree.create(LeNet5())
            >>> print(stree.erase("relu_3").get_name())
            relu_3
        """
        _check("node", node, (Node, str), "SymbolTree.erase")
        return Node(self._symbol_tree.erase_node(node.get_handler() if isinstance(node, Node) else node))

    def replace(self, old_node: Node, new_nodes: list[Node]) -> Node:
        """Replace `old_node` by `new_nodes` (inserted one after another, then `old_node` erased).

        Args:
            old_node (Node): the node to replace.
            new_nodes (List[Node]): the new nodes; their inputs and outputs are the caller's to connect.

        Returns:
            The last of `new_nodes`.

        Raises:
            TypeError: If `old_node` is not a Node or `new_nodes` not a list of Nodes.

        Examples:
            >>> from cellonnx import nn
            >>> from cellonnx.models import LeNet5
            >>> from cellonnx.rewrite import SymbolTree, Node, ScopedValue
            >>> stree = SymbolTree.create(LeNet5())
            >>> node = stree.get_node("relu")
            >>> new = Node.create_call_cell(nn.Sigmoid(), targets=node.get_targets(), args=node.get_args(),
            ...                             name="sigmoid")
            >>> print(stree.replace(node, [new]).get_name())
            sigmoid
        """
        _check("old_node", old_node, (Node,), "SymbolTree.replace")
        if not isinstance(new_nodes, list) or not all(isinstance(n, Node) for n in new_nodes):
            raise TypeError("For 'SymbolTree.replace', 'new_nodes' should be a list of Node.")
        return Node(self._symbol_tree.replace(old_node.get_handler(), [n.get_handler() for n in new_nodes]))

    def set_output(self, index: int, return_value: str) -> Node:
        """Set value `index` of the return statement to the variable `return_value`."""
        _check("index", index, (int,), "SymbolTree.set_output")
        _check("return_value", return_value, (str,), "SymbolTree.set_output")
        return Node(self._symbol_tree.set_output(return_value, index))

    def unique_name(self, name: str = "output") -> str:
        """A variable name based on `name` not used in the tree (``name`` or ``name_n``).

        Args:
            name (str, optional): the prefix. Default: ``"output"``.

        Returns:
            str.

        Examples:
            >>> from cellonnx.models import LeNet5
            >>> from cellonnx.rewrite import SymbolTree
            >>> print(SymbolTree.create(LeNet5()).unique_name("x"))
            x_1
        """
        _check("name", name, (str,), "SymbolTree.unique_name")
        return self._symbol_tree.unique_name(name)

    def print_node_tabulate(self, all_nodes: bool = False) -> None:
        """Print the nodes: type, name, code, argument providers ``[idx, (node, k)]`` and target users.

        Args:
            all_nodes (bool): include nested nodes (blocks, containers, sub-trees). Default: ``False``.

        Raises:
            TypeError: If `all_nodes` is not a bool.

        Examples:
            >>> from cellonnx.models import LeNet5
            >>> from cellonnx.rewrite import SymbolTree
            >>> SymbolTree.create(LeNet5()).print_node_tabulate()  # doctest: +ELLIPSIS
            <BLANKLINE>
            [LeNet5Opt...]
            node type         name          codes                          arg providers...
            ...
        """
        _check("all_nodes", all_nodes, (bool,), "SymbolTree.print_node_tabulate")
        print(self._tabulate(self._symbol_tree, self._symbol_tree.opt_cls_name, all_nodes))

    @classmethod
    def _tabulate(cls, manager: Any, title: str, all_nodes: bool) -> str:
        import ast

        from cellonnx.rewrite.node_type import NodeType
        rows = []
        for n in manager.children:
            code = ast.unparse(n.ast).split("\n")[0] if n.ast is not None else ""
            providers = [[k, (v[0].name, v[1]) if v else ()] for k, v in n.arg_providers.items()]
            users = [[k, [(u.name, i) for u, i in v]] for k, v in n.target_users.items()]
            rows.append([str(n.node_type), n.name, code, str(providers), str(users)])
        headers = ["node type", "name", "codes", "arg providers", "target users"]
        text = f"\n[{title}]\n" + _table(rows, headers)
        if all_nodes:
            for n in manager.children:
                if n.node_type in (NodeType.ControlFlow, NodeType.CellContainer):
                    text += cls._tabulate(n, f"{title}.{n.name}", True)
                elif n.node_type == NodeType.Tree:
                    text += cls._tabulate(n.subtree, n.subtree.opt_cls_name, True)
        return text

    def get_code(self) -> str:
        """The source of the rewritten network (its class ``<Name>Opt`` and those of its sub-networks).

        Returns:
            str.

        Examples:
            >>> from cellonnx.models import LeNet5
            >>> from cellonnx.rewrite import SymbolTree
            >>> code = SymbolTree.create(LeNet5()).get_code()
            >>> print("conv1_var = self.conv1(x)" in code)
            True
        """
        return self._symbol_tree.get_code()

    def get_network(self) -> Any:
        """A network running the rewritten construct.

        It is an instance of a new subclass ``<Name>Opt`` of the network's class and shares the original
        network's cells and parameters (so trained weights carry over; change the original no more).

        Returns:
            Cell.

        Examples:
            >>> import numpy as np
            >>> from cellonnx import Tensor
            >>> from cellonnx.models import LeNet5
            >>> from cellonnx.rewrite import SymbolTree
            >>> net = SymbolTree.create(LeNet5()).get_network()
            >>> print(type(net).__name__, net(Tensor(np.ones((1, 1, 32, 32), np.float32))).shape)
            LeNet5Opt... (1, 10)
        """
        return self._symbol_tree.get_network()

    def get_origin_network(self) -> Any:
        """The network the tree was created from."""
        return self._symbol_tree.network

    def set_saved_file_name(self, file_name: str) -> None:
        """Set the file name `save_network_to_file` writes (``<Name>Opt.py`` by default)."""
        _check("file_name", file_name, (str,), "SymbolTree.set_saved_file_name")
        self._symbol_tree.saved_file_name = file_name if file_name.endswith(".py") else file_name + ".py"

    def get_saved_file_name(self) -> str:
        """The file name `save_network_to_file` writes."""
        return self._symbol_tree.saved_file_name

    def save_network_to_file(self) -> None:
        """Write `get_code()` to ``rewritten_network/<saved file name>`` under the current directory."""
        import os
        os.makedirs("rewritten_network", exist_ok=True)
        with open(os.path.join("rewritten_network", self.get_saved_file_name()), "w", encoding="utf-8") as f:
            f.write(self.get_code())
