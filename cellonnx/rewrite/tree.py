"""SymbolTreeImpl: the nodes of one network's construct, the edits on them, and the rewritten network."""
from __future__ import annotations

import ast
import builtins
import copy
import inspect
import linecache
import textwrap
from typing import Any

from cellonnx.rewrite import graph
from cellonnx.rewrite.flatten import Flattener
from cellonnx.rewrite.graph import NodeImpl
from cellonnx.rewrite.namer import CLASS_NAMER, FUNCTION_NAMER, Namer
from cellonnx.rewrite.node_type import NodeType
from cellonnx.rewrite.scoped_value import ScopedValue

_STORES = ("_params", "_cells", "_buffers", "_params_list")


class Position:
    """Where a node is inserted: before or after `node` of `tree`."""

    def __init__(self, tree: SymbolTreeImpl, node: NodeImpl, before_node: bool) -> None:
        self.symbol_tree = tree
        self.node = node
        self.before_node = before_node


def _construct_source(cls: type) -> tuple[type, ast.FunctionDef]:
    """The class of `cls`'s MRO that defines construct, and construct's FunctionDef (read from the source of
    the function, which also works for classes defined in doctests and interactive sessions)."""
    for owner in cls.__mro__:
        if "construct" in owner.__dict__:
            break
    else:
        raise TypeError(f"For 'SymbolTree.create', {cls.__name__} defines no construct.")
    func = inspect.unwrap(owner.__dict__["construct"])
    try:
        source = inspect.getsource(func)
    except (OSError, TypeError) as err:
        raise RuntimeError(f"For 'SymbolTree.create', the source of {owner.__name__}.construct cannot be "
                           f"read ({err}); rewrite parses a network's source.") from err
    module = ast.parse(textwrap.dedent(source))
    func_def = module.body[0] if module.body else None
    if not isinstance(func_def, ast.FunctionDef):
        raise RuntimeError(f"For 'SymbolTree.create', {owner.__name__}.construct is not a function "
                           "definition.")
    return owner, func_def


class SymbolTreeImpl:
    """The parsed construct of `network` (see cellonnx.rewrite.SymbolTree)."""

    def __init__(self, network: Any) -> None:
        from cellonnx.rewrite.parse import Parser
        self.network = network
        self.origin_class, func = _construct_source(type(network))
        self.func_ast: ast.FunctionDef = func
        self.func_ast.decorator_list = []
        self.children: list[NodeImpl] = []
        self.manager = None
        self.node_namer = Namer()
        self.target_namer = Namer()
        self.ori_cls_name = type(network).__name__
        self.opt_cls_name = CLASS_NAMER.get_name(self.ori_cls_name)
        self.tree_fields: dict[str, NodeImpl] = {}
        self.tree_node_list: list[NodeImpl] = []  # every Tree node parsed or inserted (erased ones included)
        self.inserted_functions: dict[str, Any] = {}  # name in the generated code -> function
        self.new_fields: list[str] = []
        self.modified = False
        self.saved_file_name = f"{self.opt_cls_name}.py"
        self.function_namer = FUNCTION_NAMER
        Flattener().flatten_body(self.func_ast.body)
        Parser(self).parse_function(self.func_ast, self)

    def names(self) -> dict[str, Any]:
        """The names construct sees: its module's globals and the variables it closes over."""
        func = inspect.unwrap(self.origin_class.__dict__["construct"])
        namespace = dict(getattr(func, "__globals__", {}))
        try:
            namespace.update(inspect.getclosurevars(func).nonlocals)
        except (TypeError, ValueError):
            pass
        return namespace

    def argument_nodes(self, func: ast.FunctionDef) -> list[NodeImpl]:
        """Input nodes for the arguments of `func` (``self`` left out)."""
        args = func.args
        positional = args.posonlyargs + args.args
        defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
        nodes = []
        items = list(zip(positional, defaults))
        if args.vararg is not None:
            items.append((args.vararg, None))
        items += list(zip(args.kwonlyargs, args.kw_defaults))
        if args.kwarg is not None:
            items.append((args.kwarg, None))
        from cellonnx.rewrite.scoped_value import from_ast
        for arg, default in items:
            if arg.arg == "self":
                continue
            node = NodeImpl(NodeType.Input, f"input_{arg.arg}", arg,
                            targets=[ScopedValue.create_naming_value(arg.arg)])
            node.attributes["default"] = from_ast(default) if default is not None else None
            nodes.append(node)
        return nodes

    # ------------------------------------------------------------ building
    def make_tree_node(self, cell: Any, stmt: ast.AST | None, targets: list[ScopedValue], func: ScopedValue,
                       args: list[ScopedValue], kwargs: dict[str, ScopedValue], name: str) -> NodeImpl:
        node = NodeImpl(NodeType.Tree, name, stmt, targets, func, args, kwargs, cell)
        node.subtree = SymbolTreeImpl(cell)
        return node

    def append(self, node: NodeImpl, manager: Any) -> NodeImpl:
        node.name = self.node_namer.get_name(node.name)
        for target in node.targets:
            self.target_namer.add_name(str(target))
        node.tree = self
        node.manager = manager
        manager.children.append(node)
        graph.on_insert(node)
        return node

    # ------------------------------------------------------------ queries
    def nodes(self) -> list[NodeImpl]:
        return list(self.children)

    def managers_nodes(self) -> list[NodeImpl]:
        """The nodes of construct, of its control-flow blocks and of its cell containers, in MindSpore's
        order (a stack of managers)."""
        found: list[NodeImpl] = []
        stack: list[Any] = [self]
        while stack:
            manager = stack.pop()
            found.extend(manager.children)
            stack.extend(n for n in manager.children if _is_manager(n))
        return found

    def tree_nodes(self) -> list[NodeImpl]:
        return list(self.tree_node_list)

    def all_nodes(self, subtree_nodes: bool = True) -> list[NodeImpl]:
        found = self.managers_nodes()
        if subtree_nodes:
            for node in self.tree_nodes():
                found.extend(node.subtree.all_nodes())
        return found

    def get_node(self, name: str) -> NodeImpl | None:
        stack: list[Any] = [self]
        while stack:
            manager = stack.pop()
            for node in manager.children:
                if node.name == name:
                    return node
            stack.extend(n for n in manager.children if _is_manager(n))
        return None

    def real_node(self, node_or_name: NodeImpl | str) -> NodeImpl | None:
        if isinstance(node_or_name, str):
            return self.get_node(node_or_name)
        return node_or_name if node_or_name.tree is self else None

    def input_nodes(self) -> list[NodeImpl]:
        return [n for n in self.children if n.node_type == NodeType.Input]

    # ------------------------------------------------------------ edits
    def position(self, node_or_name: NodeImpl | str, before: bool) -> Position:
        node = self.real_node(node_or_name)
        if node is None:
            raise RuntimeError(f"For 'SymbolTree', node {_label(node_or_name)} does not belong to the "
                               f"SymbolTree of {self.ori_cls_name}.")
        return Position(self, node, before)

    def insert_node(self, node: NodeImpl, base: NodeImpl, before: bool) -> NodeImpl:
        if node.tree is not None:
            raise ValueError(f"For 'SymbolTree.insert', node {node.name} is already in a SymbolTree.")
        if base.tree is not self:
            raise ValueError(f"For 'SymbolTree.insert', the position is in the SymbolTree of "
                             f"{getattr(base.tree, 'ori_cls_name', None)}, not of {self.ori_cls_name}.")
        if base.node_type == NodeType.Input:
            nxt = base.next()
            if before or (nxt is not None and nxt.node_type == NodeType.Input):
                raise RuntimeError(f"For 'SymbolTree.insert', a node cannot be inserted before or between "
                                   f"the inputs of construct (at {base.name}).")
        manager = base.manager
        if manager.node_type == NodeType.CellContainer if isinstance(manager, NodeImpl) else False:
            raise NotImplementedError("For 'SymbolTree.insert', inserting into a cell container is not "
                                      "supported.")
        if (isinstance(manager, NodeImpl) and manager.func_def is not None and not manager.is_method
                and node.node_type in (NodeType.CallCell, NodeType.CallPrimitive)):
            raise TypeError(f"For 'SymbolTree.insert', a {node.node_type} node cannot be inserted into "
                            f"function '{manager.name}', which is not a method of the network (it has no "
                            "'self').")
        for target in node.targets:
            self.target_namer.add_name(str(target))
        node.name = self.node_namer.get_name(node.name or _default_name(node))
        if node.node_type in (NodeType.CallCell, NodeType.CallPrimitive, NodeType.Tree):
            field = node.name
            node.func = ScopedValue.create_naming_value(field, "self")
            setattr(self.network, field, node.instance)
            if field not in self.new_fields:
                self.new_fields.append(field)
            if node.node_type == NodeType.Tree:
                self.tree_fields[field] = node
                self.tree_node_list.append(node)
        function = node.attributes.get("function")
        if node.node_type == NodeType.CallFunction and function is not None and node.ast is None:
            node.func = ScopedValue.create_naming_value(self._function_name(function))
        if node.ast is None:
            node.ast = graph.build_call_ast(node)
        node.tree = self
        node.manager = manager
        sib = manager.children
        at = graph._index(sib, base) + (0 if before else 1)
        sib.insert(at, node)
        graph.on_insert(node)
        self.modified = True
        return node

    def _function_name(self, function: Any) -> str:
        """The name an inserted function is called by in the generated code (its own, or ``name_n`` when the
        network's module gives that name to something else)."""
        base = getattr(function, "__name__", "function")
        names = self.names()
        name, n = base, 0
        while (name in names and names[name] is not function) or hasattr(builtins, name) or (
                name in self.inserted_functions and self.inserted_functions[name] is not function):
            n += 1
            name = f"{base}_{n}"
        self.inserted_functions[name] = function
        return name

    def erase_node(self, node_or_name: NodeImpl | str) -> NodeImpl:
        node = self.real_node(node_or_name)
        if node is None:
            raise RuntimeError(f"For 'SymbolTree.erase', node {_label(node_or_name)} does not belong to the "
                               f"SymbolTree of {self.ori_cls_name}.")
        graph.on_erase(node)
        sib = node.manager.children
        del sib[graph._index(sib, node)]
        if node.partner is not None:
            node.partner.partner = None
        node.tree = None
        self.modified = True
        return node

    def replace(self, old: NodeImpl, new_nodes: list[NodeImpl]) -> NodeImpl:
        if self.real_node(old) is None:
            raise RuntimeError(f"For 'SymbolTree.replace', node {old.name} does not belong to the SymbolTree "
                               f"of {self.ori_cls_name}.")
        if not new_nodes:
            raise ValueError("For 'SymbolTree.replace', new_nodes is empty.")
        base = old
        for node in new_nodes:
            self.insert_node(node, base, False)
            base = node
        self.erase_node(old)
        return new_nodes[-1]

    def set_node_arg(self, node: NodeImpl, index: int, arg: ScopedValue | str) -> None:
        old, new = _set_arg(node, index, arg)
        graph.on_update_arg(node, index, old, new)
        self.modified = True

    def set_node_arg_by_node(self, dst: NodeImpl, index: int, src: NodeImpl, out_index: int | None) -> None:
        if self.real_node(src) is None:
            raise RuntimeError(f"For 'Node.set_arg_by_node', src_node {src.name} does not belong to the "
                               f"SymbolTree of {self.ori_cls_name}.")
        out_index = _out_index(src, out_index)
        _set_arg(dst, index, src.targets[out_index])
        graph.on_update_arg_by_node(dst, index, src, out_index)
        self.modified = True

    def set_output(self, value: str, index: int) -> NodeImpl:
        returns = [n for n in self.children if n.node_type == NodeType.Output]
        if not returns:
            raise RuntimeError(f"For 'SymbolTree.set_output', construct of {self.ori_cls_name} returns "
                               "nothing.")
        self.set_node_arg(returns[0], index, value)
        return returns[0]

    def unique_name(self, name: str) -> str:
        return self.target_namer.get_name(name)

    # ------------------------------------------------------------ code
    def construct_ast(self) -> ast.FunctionDef:
        return _function_ast(self.func_ast, self.children)

    def class_methods(self) -> list[ast.FunctionDef]:
        """construct and the parsed methods, in the order of the class's source."""
        def line(name: str) -> int:
            fn = inspect.unwrap(getattr(type(self.network), name, None) or (lambda: None))
            return getattr(getattr(fn, "__code__", None), "co_firstlineno", 0)
        funcs = [self.construct_ast(), *self.parsed_functions(True)]
        return sorted(funcs, key=lambda f: line(f.name))

    def parsed_functions(self, methods: bool) -> list[ast.FunctionDef]:
        """The functions (or methods) called by construct whose bodies were parsed, as rewritten."""
        found = []
        for node in self.managers_nodes():
            if node.func_def is not None and node.is_method == methods and node.tree is self:
                found.append(_function_ast(node.func_def, node.children))
        return found

    def init_lines(self, tree_class_names: dict[int, str]) -> list[str]:
        init_lines = ["nn.Cell.__init__(self)", "for key, value in obj.__dict__.items():",
                      "    setattr(self, key, value)"]
        for field, node in self.tree_fields.items():
            if field in self.new_fields:
                continue
            init_lines.append(f"self.{field} = {tree_class_names[id(node.subtree)]}(self.{field})")
        for field in self.new_fields:
            tree_node = self.tree_fields.get(field)
            if tree_node is not None:
                init_lines.append(f"self.{field} = {tree_class_names[id(tree_node.subtree)]}(obj.{field})")
            else:
                init_lines.append(f"self.{field} = obj.{field}")
        return init_lines

    def class_ast(self, tree_class_names: dict[int, str]) -> ast.ClassDef:
        init_lines = self.init_lines(tree_class_names)
        init_src = "def __init__(self, obj):\n" + textwrap.indent("\n".join(init_lines), "    ")
        init = ast.parse(init_src).body[0]
        cls = ast.parse(f"class {self.opt_cls_name}({self.ori_cls_name}, nn.Cell):\n    pass").body[0]
        assert isinstance(cls, ast.ClassDef)
        cls.body = [init, *self.class_methods()]
        return ast.fix_missing_locations(cls)

    def get_code(self) -> str:
        lines = ["import sys", "import cellonnx", "from cellonnx import nn", "from cellonnx.nn import Cell",
                 "from cellonnx.ops import functional as F", "#"]
        trees = self._preorder()
        names = _dedupe(trees)
        # Each sub-network's class goes before its parent's, later siblings before earlier ones (MindSpore's
        # order); an unmodified sub-network identical to an earlier one reuses that class.
        order: list[SymbolTreeImpl] = []

        def place(tree: SymbolTreeImpl, pos: int) -> None:
            order.insert(pos, tree)
            for sub in tree.subtrees():
                place(sub, pos)

        place(self, 0)
        for tree in order:
            if names[id(tree)] != tree.opt_cls_name:
                continue
            for name, fn in tree.inserted_functions.items():
                alias = "" if name == fn.__name__ else f" as {name}"
                lines.append(f"from {fn.__module__} import {fn.__name__}{alias}")
            for func in tree.parsed_functions(False):
                lines += [ast.unparse(func), "#"]
            for line in tree.module_imports():
                if line not in lines:
                    lines.append(line)
            lines.append(f"from {tree.origin_class.__module__} import {tree.origin_class.__name__}")
            if tree.origin_class.__name__ != tree.ori_cls_name:
                lines.append(f"{tree.ori_cls_name} = {tree.origin_class.__name__}")
            lines += ["", ast.unparse(tree.class_ast(names)), "#"]
        return "\n".join(lines) + "\n"

    def module_imports(self) -> list[str]:
        """The module-level imports of the file defining the network's class (what its code may name), as
        MindSpore copies them into the generated code."""
        module = inspect.getmodule(self.origin_class)
        try:
            tree = ast.parse(inspect.getsource(module)) if module is not None else None
        except (OSError, TypeError, SyntaxError):
            tree = None
        if tree is None:
            return []
        return [ast.unparse(stmt) for stmt in tree.body if isinstance(stmt, (ast.Import, ast.ImportFrom))
                and not (isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__")]

    def subtrees(self) -> list[SymbolTreeImpl]:
        return [node.subtree for node in self.tree_node_list]

    def _preorder(self) -> list[SymbolTreeImpl]:
        found = [self]
        for sub in self.subtrees():
            found += sub._preorder()
        return found

    def get_network(self) -> Any:
        """A new network of class ``<Name>Opt`` (a subclass of the network's class) whose construct is the
        rewritten code; it shares the original's cells and parameters."""
        net = self.network
        cls = type(net)
        namespace = self.names()
        namespace.update(self.inserted_functions)
        methods = self.parsed_functions(True)
        body: list[ast.stmt] = [*self.parsed_functions(False), self.construct_ast(), *methods]
        for func in body:
            assert isinstance(func, ast.FunctionDef)
            func.returns = None  # evaluated when the def runs; the code text keeps it, as MindSpore's does
        source = ast.unparse(ast.Module(body=body, type_ignores=[]))
        filename = f"<rewritten {self.opt_cls_name}.construct>"
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        exec(compile(source, filename, "exec"), namespace)  # noqa: S102 - code generated from the parsed AST
        construct = namespace["construct"]
        construct.__qualname__ = f"{self.opt_cls_name}.construct"
        members = {"construct": construct, "__module__": cls.__module__}
        for method in methods:
            members[method.name] = namespace[method.name]
            members[method.name].__qualname__ = f"{self.opt_cls_name}.{method.name}"
        opt_cls = type(self.opt_cls_name, (cls,), members)
        new: Any = opt_cls.__new__(opt_cls)  # type: ignore[call-overload]
        state = dict(net.__dict__)
        for store in _STORES:
            if store in state:
                state[store] = type(state[store])(state[store])
        new.__dict__.update(state)
        for field, node in self.tree_fields.items():
            sub = node.subtree.get_network()
            new.__dict__["_cells"][field] = sub
        return new


def _function_ast(func_def: ast.FunctionDef, children: list[NodeImpl]) -> ast.FunctionDef:
    func = copy.copy(func_def)
    func.args = copy.deepcopy(func.args)
    for arg in ast.walk(func.args):
        if isinstance(arg, ast.arg):
            arg.annotation = None  # as MindSpore: annotations may name what the new module lacks
    func.body = _emit(children) or [ast.Pass()]
    return ast.fix_missing_locations(func)


def _is_manager(node: NodeImpl) -> bool:
    return node.node_type in (NodeType.ControlFlow, NodeType.CellContainer) or node.func_def is not None


def _dedupe(trees: list[SymbolTreeImpl]) -> dict[int, str]:
    """The class name each tree's code uses: an unmodified tree whose __init__ equals that of an earlier
    unmodified tree of the same class uses the earlier one's class."""
    names = {id(t): t.opt_cls_name for t in trees}
    changed = True
    while changed:
        changed = False
        first: dict[tuple[type, str], str] = {}
        for tree in trees:
            if tree.modified:
                continue
            key = (type(tree.network), "\n".join(tree.init_lines(names)))
            name = first.setdefault(key, names[id(tree)])
            if names[id(tree)] != name:
                names[id(tree)] = name
                changed = True
    return names


def _emit(nodes: list[NodeImpl]) -> list[ast.stmt]:
    out: list[ast.stmt] = []
    for node in nodes:
        if node.node_type == NodeType.Input or node.ast is None:
            continue
        if node.node_type == NodeType.ControlFlow:
            if node.is_orelse:
                if node.partner is None:  # its if/for was erased: the block stands alone
                    out.extend(_emit(node.children))
                continue
            block = copy.copy(node.ast)
            block.body = _emit(node.children) or [ast.Pass()]
            block.orelse = _emit(node.partner.children) if node.partner is not None else []
            out.append(block)
            continue
        out.append(node.ast)
    return out


def _default_name(node: NodeImpl) -> str:
    if node.node_type in (NodeType.CallCell, NodeType.CallPrimitive, NodeType.CallFunction, NodeType.Tree):
        inst = node.instance
        return getattr(inst, "__name__", None) or type(inst).__name__
    return {NodeType.Python: "python_node", NodeType.Input: "parameter", NodeType.Output: "return",
            NodeType.MathOps: "math_ops"}.get(node.node_type, str(node.node_type))


def _label(node_or_name: Any) -> str:
    if isinstance(node_or_name, str):
        return node_or_name
    return getattr(node_or_name, "name", repr(node_or_name))


def _set_arg(node: NodeImpl, index: int, arg: ScopedValue | str) -> tuple[ScopedValue, ScopedValue]:
    new = graph.naming(arg)
    count = len(node.args) + len(node.kwargs)
    if not 0 <= index < count:
        raise ValueError(f"For 'Node.set_arg', index {index} is out of range: node {node.name} has {count} "
                         "arguments.")
    if index < len(node.args):
        old = node.args[index]
        node.args[index] = new
    else:
        key = list(node.kwargs)[index - len(node.args)]
        old = node.kwargs[key]
        node.kwargs[key] = new
    graph.set_arg_in_ast(node, index, new)
    return old, new


def _out_index(src: NodeImpl, out_index: int | None) -> int:
    if out_index is None:
        if len(src.targets) != 1:
            raise ValueError(f"For 'Node.set_arg_by_node', node {src.name} has {len(src.targets)} outputs; "
                             "name one with out_idx.")
        return 0
    if not 0 <= out_index < len(src.targets):
        raise ValueError(f"For 'Node.set_arg_by_node', out_idx {out_index} is out of range: node {src.name} "
                         f"has {len(src.targets)} outputs.")
    return out_index
