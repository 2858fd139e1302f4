"""Node: one statement of a network's construct, as MindSpore's ``mindspore.rewrite.Node``."""
from __future__ import annotations

from typing import Any

from cellonnx.rewrite import graph
from cellonnx.rewrite.graph import NodeImpl
from cellonnx.rewrite.node_type import NodeType
from cellonnx.rewrite.scoped_value import ScopedValue

__all__ = ["Node"]


def _check(what: str, value: Any, types: tuple[type, ...], where: str) -> None:
    if not isinstance(value, types) or (isinstance(value, bool) and bool not in types and int in types):
        names = ", ".join(t.__name__ for t in types)
        raise TypeError(f"For '{where}', the type of '{what}' should be {names}, but got "
                        f"{type(value).__name__}.")


def _check_values(what: str, values: Any, types: tuple[type, ...], where: str) -> None:
    if not isinstance(values, (list, tuple)):
        raise TypeError(f"For '{where}', '{what}' should be a list or tuple, but got "
                        f"{type(values).__name__}.")
    for value in values:
        _check(f"element of {what}", value, types, where)


def _check_kwargs(kwargs: Any, where: str) -> None:
    if not isinstance(kwargs, dict):
        raise TypeError(f"For '{where}', 'kwargs' should be a dict, but got {type(kwargs).__name__}.")
    for key, value in kwargs.items():
        _check("key of kwargs", key, (str,), where)
        _check("value of kwargs", value, (ScopedValue,), where)


class Node:
    """A node of a SymbolTree: one statement of the network's forward computation.

    A node stands for a ``Cell`` or ``Primitive`` call, a function call, an arithmetic expression, a
    ``return``, a control-flow block ... of construct. It records the statement's inputs (``get_args``),
    outputs (``get_targets``) and its links to the nodes providing and using them.

    Args:
        node (NodeImpl): the internal node. Nodes are made by ``SymbolTree`` and by ``Node.create_call_cell``
            / ``Node.create_call_function``, not by calling the constructor.

    Examples:
        >>> from cellonnx import nn
        >>> from cellonnx.rewrite import Node, ScopedValue
        >>> node = Node.create_call_cell(nn.ReLU(), targets=["x"],
        ...                              args=[ScopedValue.create_naming_value("x")], name="relu")
        >>> print(node.get_name(), node.get_node_type())
        relu NodeType.CallCell
    """

    def __init__(self, node: NodeImpl) -> None:
        self._node = node

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Node) and self._node is other._node

    def __hash__(self) -> int:
        return id(self._node)

    def __repr__(self) -> str:
        return f"Node({self._node.name}, {self._node.node_type})"

    # ------------------------------------------------------------ creation
    @staticmethod
    def create_call_cell(cell: Any, targets: list[ScopedValue | str], args: list[ScopedValue] | None = None,
                         kwargs: dict[str, ScopedValue] | None = None, name: str = "",
                         is_sub_net: bool = False) -> Node:
        """Create a node calling `cell`: ``targets = self.name(*args, **kwargs)``.

        Args:
            cell (Cell): the cell (or Primitive) the statement calls.
            targets (List[Union[ScopedValue, str]]): the output names.
            args (List[ScopedValue]): the positional inputs. Default: ``None`` (none).
            kwargs (Dict[str, ScopedValue]): the keyword inputs. Default: ``None`` (none).
            name (str): the node's name, also the field name of `cell` on the network; made unique when the
                node is inserted. Default: ``""`` (the class name of `cell`).
            is_sub_net (bool): parse `cell` into a sub-SymbolTree (a Tree node) instead of a CallCell node.
                Default: ``False``.

        Returns:
            An instance of `Node`.

        Raises:
            TypeError: If `cell` is not a Cell or Primitive, `targets` holds something else than
                ScopedValue or str, `args` something else than ScopedValue, or `kwargs` is not a dict of str
                to ScopedValue.

        Examples:
            >>> from cellonnx import nn
            >>> from cellonnx.rewrite import Node, ScopedValue
            >>> node = Node.create_call_cell(nn.ReLU(), targets=["x"],
            ...                              args=[ScopedValue.create_naming_value("x")], name="new_relu")
            >>> print(node.get_args(), node.get_targets())
            [x] [x]
        """
        from cellonnx.nn import Cell
        from cellonnx.ops.primitive import Primitive
        where = "Node.create_call_cell"
        _check("cell", cell, (Cell, Primitive), where)
        _check_values("targets", targets, (ScopedValue, str), where)
        _check("name", name, (str,), where)
        _check("is_sub_net", is_sub_net, (bool,), where)
        if args is not None:
            _check_values("args", args, (ScopedValue,), where)
        if kwargs is not None:
            _check_kwargs(kwargs, where)
        node_type = NodeType.CallPrimitive if isinstance(cell, Primitive) else NodeType.CallCell
        impl = NodeImpl(node_type, name, None, [graph.naming(t) for t in targets],
                        ScopedValue.create_naming_value(name, "self") if name else None,
                        list(args or []), dict(kwargs or {}), cell)
        if is_sub_net and isinstance(cell, Cell):
            from cellonnx.rewrite.tree import SymbolTreeImpl
            impl.node_type = NodeType.Tree
            impl.subtree = SymbolTreeImpl(cell)
        return Node(impl)

    @staticmethod
    def create_call_function(function: Any, targets: list[ScopedValue | str],
                             args: list[ScopedValue] | None = None,
                             kwargs: dict[str, ScopedValue] | None = None) -> Node:
        """Create a node calling `function`: ``targets = function(*args, **kwargs)`` (its body is not parsed).

        Args:
            function (FunctionType): the function to call.
            targets (List[Union[ScopedValue, str]]): the output names.
            args (List[ScopedValue]): the positional inputs. Default: ``None`` (none).
            kwargs (Dict[str, ScopedValue]): the keyword inputs. Default: ``None`` (none).

        Returns:
            An instance of `Node`.

        Raises:
            TypeError: If `function` is not a function, or `targets`, `args`, `kwargs` are of the wrong types.

        Examples:
            >>> from cellonnx import ops
            >>> from cellonnx.rewrite import Node, ScopedValue
            >>> node = Node.create_call_function(ops.abs, targets=["x"],
            ...                                  args=[ScopedValue.create_naming_value("x")])
            >>> print(node.get_node_type())
            NodeType.CallFunction
        """
        where = "Node.create_call_function"
        if not callable(function):
            raise TypeError(f"For '{where}', 'function' should be a function, but got "
                            f"{type(function).__name__}.")
        _check_values("targets", targets, (ScopedValue, str), where)
        if args is not None:
            _check_values("args", args, (ScopedValue,), where)
        if kwargs is not None:
            _check_kwargs(kwargs, where)
        name = getattr(function, "__name__", type(function).__name__)
        impl = NodeImpl(NodeType.CallFunction, name, None, [graph.naming(t) for t in targets],
                        ScopedValue.create_naming_value(name), list(args or []), dict(kwargs or {}), function)
        impl.attributes["function"] = function
        return Node(impl)

    # ------------------------------------------------------------ reading
    def get_handler(self) -> NodeImpl:
        """The internal node."""
        return self._node

    def get_inputs(self) -> list[Node]:
        """The nodes whose outputs this node reads, in argument order.

        Returns:
            A list of nodes.

        Examples:
            >>> from cellonnx.models import LeNet5
            >>> from cellonnx.rewrite import SymbolTree
            >>> stree = SymbolTree.create(LeNet5())
            >>> print([n.get_name() for n in stree.get_node("conv2").get_inputs()])
            ['max_pool2d']
        """
        return [Node(p[0]) for p in self._node.arg_providers.values() if p]

    def get_users(self) -> list[Node]:
        """The nodes that read this node's outputs.

        Returns:
            A list of nodes.

        Examples:
            >>> from cellonnx.models import LeNet5
            >>> from cellonnx.rewrite import SymbolTree
            >>> stree = SymbolTree.create(LeNet5())
            >>> print([n.get_name() for n in stree.get_node("conv1").get_users()])
            ['relu']
        """
        users: list[NodeImpl] = []
        for target_users in self._node.target_users.values():
            for user, _ in target_users:
                if not any(user is u for u in users):
                    users.append(user)
        return [Node(u) for u in users]

    def get_targets(self) -> list[ScopedValue]:
        """The output names of this node (the targets of its assignment).

        Returns:
            A list of `ScopedValue`.

        Examples:
            >>> from cellonnx.models import LeNet5
            >>> from cellonnx.rewrite import SymbolTree
            >>> print(SymbolTree.create(LeNet5()).get_node("conv1").get_targets())
            [conv1_var]
        """
        return self._node.targets

    def get_name(self) -> str:
        """The node's name (unique in its SymbolTree once inserted).

        Returns:
            str.

        Examples:
            >>> from cellonnx.models import LeNet5
            >>> from cellonnx.rewrite import SymbolTree
            >>> print(SymbolTree.create(LeNet5()).get_node("conv1").get_name())
            conv1
        """
        return self._node.name

    def get_node_type(self) -> NodeType:
        """The node's type (see :class:`cellonnx.rewrite.NodeType`).

        Returns:
            NodeType.

        Examples:
            >>> from cellonnx.models import LeNet5
            >>> from cellonnx.rewrite import SymbolTree
            >>> print(SymbolTree.create(LeNet5()).get_node("conv1").get_node_type())
            NodeType.CallCell
        """
        return self._node.node_type

    def get_instance_type(self) -> type:
        """The type of what the statement calls (``NoneType`` for Python, Input, Output and CallMethod nodes).

        Returns:
            type.

        Examples:
            >>> from cellonnx.models import LeNet5
            >>> from cellonnx.rewrite import SymbolTree
            >>> print(SymbolTree.create(LeNet5()).get_node("conv1").get_instance_type().__name__)
            Conv2d
        """
        return self._node.get_instance_type()

    def get_instance(self) -> Any:
        """What the statement calls (the cell, primitive or function), or None."""
        return self._node.instance

    def get_args(self) -> list[ScopedValue]:
        """The positional inputs of this node.

        Returns:
            A list of `ScopedValue`.

        Examples:
            >>> from cellonnx.models import LeNet5
            >>> from cellonnx.rewrite import SymbolTree
            >>> print(SymbolTree.create(LeNet5()).get_node("conv1").get_args())
            [x]
        """
        return self._node.args

    def get_kwargs(self) -> dict[str, ScopedValue]:
        """The keyword inputs of this node.

        Returns:
            A dict from str to `ScopedValue`.

        Examples:
            >>> from cellonnx import nn
            >>> from cellonnx.models import LeNet5
            >>> from cellonnx.rewrite import SymbolTree
            >>> class ReLUNet(nn.Cell):
            ...     def __init__(self):
            ...         super().__init__()
            ...         self.relu = nn.ReLU()
            ...     def construct(self, input):
            ...         output = self.relu(input=input)
            ...         return output
            >>> print(SymbolTree.create(ReLUNet()).get_node("relu").get_kwargs())
            {'input': input}
        """
        return self._node.kwargs

    def get_symbol_tree(self) -> Any:
        """The SymbolTree this node belongs to, or None.

        Examples:
            >>> from cellonnx.models import LeNet5
            >>> from cellonnx.rewrite import SymbolTree
            >>> print(type(SymbolTree.create(LeNet5()).get_node("conv1").get_symbol_tree()).__name__)
            SymbolTree
        """
        from cellonnx.rewrite.symbol_tree import SymbolTree
        tree = self._node.tree
        return SymbolTree(tree) if tree is not None else None

    def get_sub_tree(self) -> Any:
        """The sub-SymbolTree of a `NodeType.Tree` node.

        Raises:
            TypeError: If the node is not a Tree node.

        Examples:
            >>> from cellonnx import nn
            >>> from cellonnx.models import LeNet5
            >>> from cellonnx.rewrite import SymbolTree
            >>> class SubNet(nn.Cell):
            ...     def __init__(self):
            ...         super().__init__()
            ...         self.relu = nn.ReLU()
            ...     def construct(self, x):
            ...         x = self.relu(x)
            ...         return x
            >>> class Net(nn.Cell):
            ...     def __init__(self):
            ...         super().__init__()
            ...         self.subnet = SubNet()
            ...     def construct(self, x):
            ...         x = self.subnet(x)
            ...         return x
            >>> print(type(SymbolTree.create(Net()).get_node("subnet").get_sub_tree()).__name__)
            SymbolTree
        """
        if self._node.node_type != NodeType.Tree:
            raise TypeError(f"For 'Node.get_sub_tree', the type of node should be 'NodeType.Tree', but got "
                            f"{self._node.node_type}.")
        from cellonnx.rewrite.symbol_tree import SymbolTree
        return SymbolTree(self._node.subtree)

    def get_arg_providers(self) -> dict[int, tuple[Node, int]]:
        """{argument index: (node, output index)} of the nodes providing this node's arguments."""
        return {i: (Node(p[0]), p[1]) for i, p in self._node.arg_providers.items() if p}

    def get_target_users(self, index: int = -1) -> dict[int, list[tuple[Node, int]]] | list[tuple[Node, int]]:
        """{output index: [(node, argument index)]} of the nodes reading this node's outputs (one output's
        list when `index` is given)."""
        _check("index", index, (int,), "Node.get_target_users")
        if index == -1:
            return {i: [(Node(u), k) for u, k in users] for i, users in self._node.target_users.items()}
        return [(Node(u), k) for u, k in self._node.get_targets_users(index)]

    def set_attribute(self, key: str, value: Any) -> None:
        """Attach `value` to the node under `key`."""
        _check("key", key, (str,), "Node.set_attribute")
        self._node.attributes[key] = value

    def get_attributes(self) -> dict[str, Any]:
        """The attributes attached to the node."""
        return self._node.attributes

    def get_attribute(self, key: str) -> Any:
        """The attribute attached under `key` (None if none)."""
        _check("key", key, (str,), "Node.get_attribute")
        return self._node.attributes.get(key)

    # ------------------------------------------------------------ editing
    def set_arg(self, index: int, arg: ScopedValue | str) -> None:
        """Set argument `index` of this node.

        Args:
            index (int): which argument (keyword arguments follow the positional ones).
            arg (Union[ScopedValue, str]): the new argument (a str is a variable name).

        Raises:
            TypeError: If `index` is not an int or `arg` not a ScopedValue or str.

        Examples:
            >>> from cellonnx.models import LeNet5
            >>> from cellonnx.rewrite import SymbolTree
            >>> node = SymbolTree.create(LeNet5()).get_node("relu_3")
            >>> node.set_arg(0, "fc1")
            >>> print(node.get_args())
            [fc1]
        """
        _check("index", index, (int,), "Node.set_arg")
        _check("arg", arg, (ScopedValue, str), "Node.set_arg")
        tree = self._node.tree
        if tree is None:
            from cellonnx.rewrite.tree import _set_arg
            _set_arg(self._node, index, arg)
        else:
            tree.set_node_arg(self._node, index, arg)

    def set_arg_by_node(self, arg_idx: int, src_node: Node, out_idx: int | None = None) -> None:
        """Set argument `arg_idx` of this node to output `out_idx` of `src_node`.

        Args:
            arg_idx (int): which argument.
            src_node (Node): the node providing the new argument.
            out_idx (int, optional): which output of `src_node`. Default: ``None`` (its only output).

        Raises:
            TypeError: If `arg_idx` or `out_idx` is not an int, or `src_node` not a Node.
            ValueError: If `out_idx` is out of range, or missing while `src_node` has several outputs.

        Examples:
            >>> from cellonnx.models import LeNet5
            >>> from cellonnx.rewrite import SymbolTree
            >>> stree = SymbolTree.create(LeNet5())
            >>> dst = stree.get_node("relu_3")
            >>> dst.set_arg_by_node(0, stree.get_node("fc1"), 0)
            >>> print(dst.get_args())
            [fc1_var]
        """
        _check("arg_idx", arg_idx, (int,), "Node.set_arg_by_node")
        _check("src_node", src_node, (Node,), "Node.set_arg_by_node")
        if out_idx is not None:
            _check("out_idx", out_idx, (int,), "Node.set_arg_by_node")
        tree = self._node.tree
        if tree is None:
            from cellonnx.rewrite.tree import _out_index, _set_arg
            out = _out_index(src_node._node, out_idx)
            _set_arg(self._node, arg_idx, src_node._node.targets[out])
            graph.on_update_arg_by_node(self._node, arg_idx, src_node._node, out)
        else:
            tree.set_node_arg_by_node(self._node, arg_idx, src_node._node, out_idx)
