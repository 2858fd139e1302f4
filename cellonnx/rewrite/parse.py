"""Parsing construct into rewrite nodes: one node per (flattened) statement, named as MindSpore names them."""
from __future__ import annotations

import ast
import builtins
import inspect
import os
import sysconfig
from typing import Any

from cellonnx.rewrite.graph import NodeImpl
from cellonnx.rewrite.node_type import NodeType
from cellonnx.rewrite.scoped_value import ScopedValue, ValueType, from_ast

_ATTR_NODES = (ast.Name, ast.Attribute, ast.Tuple, ast.Constant)


def _func_parts(call: ast.Call) -> tuple[str, str]:
    """(scope, name) of a call's function: ``self.conv`` -> ("self", "conv"), ``relu`` -> ("", "relu")."""
    func = call.func
    if isinstance(func, ast.Name):
        return "", func.id
    if isinstance(func, ast.Attribute):
        return ast.unparse(func.value), func.attr
    return "", ast.unparse(func)


def _targets(target: ast.AST) -> list[ScopedValue]:
    if isinstance(target, (ast.Tuple, ast.List)):
        out: list[ScopedValue] = []
        for elt in target.elts:
            out.extend(_targets(elt))
        return out
    return [from_ast(target)]


def is_framework_object(obj: Any) -> bool:
    module = inspect.getmodule(obj)
    name = getattr(module, "__name__", "") or ""
    return name == "cellonnx" or name.startswith("cellonnx.")


def _is_third_party(obj: Any) -> bool:
    """Objects from the standard library or installed packages (other than cellonnx) are not parsed."""
    module = inspect.getmodule(obj)
    path = getattr(module, "__file__", None)
    if path is None:
        return True
    path = os.path.realpath(path)
    roots = {os.path.realpath(sysconfig.get_paths()[k]) for k in ("stdlib", "purelib", "platlib")}
    return any(path.startswith(root + os.sep) for root in roots)


def is_subnet(cell: Any) -> bool:
    """A user-defined network (its class is not one of cellonnx's layers): parsed into a Tree node."""
    from cellonnx.nn import Cell
    return isinstance(cell, Cell) and not is_framework_object(type(cell))


def _resolve(scope: str, name: str, module_globals: dict[str, Any]) -> Any:
    parts = ([*scope.split(".")] if scope else []) + [name]
    if parts[0] in module_globals:
        obj = module_globals[parts[0]]
    elif hasattr(builtins, parts[0]):
        obj = getattr(builtins, parts[0])
    else:
        return None
    for part in parts[1:]:
        try:
            obj = getattr(obj, part)
        except AttributeError:
            return None
    return obj


class Parser:
    """Turns the flattened statements of one function body into nodes of a SymbolTreeImpl."""

    def __init__(self, tree: Any) -> None:
        self.tree = tree
        net = tree.network
        self.network = net
        self.globals = tree.names()

    # ------------------------------------------------------------ functions
    def parse_function(self, func: ast.FunctionDef, manager: Any) -> None:
        """The arguments of `func` as Input nodes, then its statements (docstrings dropped, statements after
        the first return dropped, nested definitions kept as Python nodes), into `manager`."""
        for node in self.tree.argument_nodes(func):
            self.tree.append(node, manager)
        body = []
        for stmt in func.body:
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(
                    stmt.value.value, str):
                continue
            body.append(stmt)
        func.body[:] = body
        self.parse_body(func.body, manager)
        children = manager.children
        returns = [i for i, n in enumerate(children) if n.node_type == NodeType.Output]
        if returns:
            for node in reversed(children[returns[0] + 1:]):
                self.tree.erase_node(node)

    def function_call(self, stmt: ast.Assign, call: ast.Call, targets: list[ScopedValue], func: ScopedValue,
                      args: list[ScopedValue], kwargs: dict[str, ScopedValue], manager: Any, fn: Any,
                      is_method: bool, instance: Any = None) -> bool:
        """A CallFunction node whose function body is parsed into nodes of its own (False when the source of
        `fn` cannot be parsed: nested definitions, no source)."""
        from cellonnx.rewrite.flatten import Flattener
        try:
            source = inspect.getsource(inspect.unwrap(fn))
        except (OSError, TypeError):
            return False
        import textwrap
        module = ast.parse(textwrap.dedent(source))
        func_def = module.body[0] if module.body else None
        if not isinstance(func_def, ast.FunctionDef) or any(
                isinstance(n, ast.FunctionDef) for n in func_def.body):
            return False
        func_def.decorator_list = []
        if is_method:
            node_name = func.value
        else:
            own = func_def.name if func_def.name == str(func) else f"{func_def.name}_opt"
            node_name = self.tree.function_namer.get_name(own)
            func_def.name = node_name
            if node_name != str(func):
                call.func = ast.Name(id=node_name, ctx=ast.Load())
                func = ScopedValue.create_naming_value(node_name)
        node = NodeImpl(NodeType.CallFunction, node_name, stmt, targets, func, args, kwargs,
                        fn if instance is None else instance)
        node.func_def = func_def
        node.is_method = is_method
        self.tree.append(node, manager)
        Flattener(self.tree.target_namer).flatten_body(func_def.body)
        self.parse_function(func_def, node)
        return True

    # ------------------------------------------------------------ statements
    def parse_body(self, body: list[ast.stmt], manager: Any) -> None:
        for stmt in body:
            if isinstance(stmt, ast.Assign):
                self.parse_assign(stmt, manager)
            elif isinstance(stmt, ast.Return):
                node = NodeImpl(NodeType.Output, "return", stmt, args=[from_ast(stmt.value)]
                                if stmt.value is not None else [])
                self.tree.append(node, manager)
            elif isinstance(stmt, ast.If):
                self.parse_block(stmt, manager, "if_node", "else_node", [from_ast(stmt.test)])
            elif isinstance(stmt, ast.For):
                self.parse_block(stmt, manager, "for_node", "for_else_node", [from_ast(stmt.iter)],
                                 loop_target=stmt.target)
            elif isinstance(stmt, ast.While):
                self.parse_block(stmt, manager, "while_node", "while_else_node", [from_ast(stmt.test)])
            else:
                self.python_node(stmt, manager)

    def python_node(self, stmt: ast.stmt, manager: Any) -> None:
        self.tree.append(NodeImpl(NodeType.Python, type(stmt).__name__, stmt), manager)

    def parse_block(self, stmt: Any, manager: Any, name: str, else_name: str, args: list[ScopedValue],
                    loop_target: ast.AST | None = None) -> None:
        from cellonnx.rewrite.flatten import Flattener
        flattener = Flattener(self.tree.target_namer)
        flattener.flatten_body(stmt.body)
        if stmt.orelse:
            flattener.flatten_body(stmt.orelse)
        loop_vars = [ast.unparse(t) for t in _targets_ast(loop_target)] if loop_target is not None else []
        head = NodeImpl(NodeType.ControlFlow, name, stmt, args=args)
        head.loop_vars = loop_vars
        self.tree.append(head, manager)
        self.parse_body(stmt.body, head)
        if stmt.orelse:
            other = NodeImpl(NodeType.ControlFlow, else_name, stmt, args=list(args))
            other.is_orelse = True
            other.loop_vars = loop_vars
            self.tree.append(other, manager)
            self.parse_body(stmt.orelse, other)
            head.partner, other.partner = other, head

    # ------------------------------------------------------------ assignments
    def parse_assign(self, stmt: ast.Assign, manager: Any) -> None:
        if len(stmt.targets) != 1:
            self.python_node(stmt, manager)
            return
        targets = _targets(stmt.targets[0])
        value = stmt.value
        if isinstance(value, ast.Call):
            self.parse_call(stmt, value, targets, manager)
        elif isinstance(value, (ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare)):
            self.parse_math(stmt, value, targets, manager)
        elif isinstance(value, ast.Subscript):
            self.method_node(stmt, targets, "pass_through", [from_ast(value)], {}, "subscript_var", manager)
        elif isinstance(value, ast.Constant):
            self.method_node(stmt, targets, "pass_through", [from_ast(value)], {}, "constant_assign", manager)
        elif isinstance(value, (ast.Name, ast.Attribute)):
            self.parse_name(stmt, value, targets, manager)
        elif isinstance(value, (ast.Tuple, ast.List)):
            if all(isinstance(e, _ATTR_NODES) for e in value.elts):
                kind = "tuple" if isinstance(value, ast.Tuple) else "list"
                self.method_node(stmt, targets, kind, [from_ast(e) for e in value.elts], {}, kind, manager)
            else:
                self.python_node(stmt, manager)
        elif isinstance(value, ast.Dict) and all(
                isinstance(k, ast.Constant) and isinstance(k.value, str) for k in value.keys) and all(
                isinstance(v, _ATTR_NODES) for v in value.values):
            kwargs = {str(k.value): from_ast(v) for k, v in zip(value.keys, value.values)
                      if isinstance(k, ast.Constant)}
            self.method_node(stmt, targets, "dict", [], kwargs, "dict", manager)
        else:
            self.python_node(stmt, manager)

    def method_node(self, stmt: ast.Assign, targets: list[ScopedValue], method: str, args: list[ScopedValue],
                    kwargs: dict[str, ScopedValue], name: str, manager: Any) -> None:
        node = NodeImpl(NodeType.CallMethod, name, stmt, targets, ScopedValue.create_naming_value(method),
                        args, kwargs)
        node.method = method
        self.tree.append(node, manager)

    def parse_math(self, stmt: ast.Assign, op: ast.AST, targets: list[ScopedValue], manager: Any) -> None:
        kind = type(op).__name__
        name = kind
        if isinstance(op, ast.BinOp):
            name += "_" + type(op.op).__name__
            args = [from_ast(op.left), from_ast(op.right)]
        elif isinstance(op, ast.UnaryOp):
            name += "_" + type(op.op).__name__
            args = [from_ast(op.operand)]
        elif isinstance(op, ast.BoolOp):
            name += "_" + type(op.op).__name__
            args = [from_ast(v) for v in op.values]
        else:
            assert isinstance(op, ast.Compare)
            args = [from_ast(op.left)]
            for cmp, right in zip(op.ops, op.comparators):
                name += "_" + type(cmp).__name__
                args.append(from_ast(right))
        node = NodeImpl(NodeType.MathOps, name.lower(), stmt, targets, ScopedValue.create_naming_value(kind),
                        args)
        node.math_kind = kind
        self.tree.append(node, manager)

    def parse_name(self, stmt: ast.Assign, value: ast.AST, targets: list[ScopedValue], manager: Any) -> None:
        from cellonnx.nn import CellList
        inst = None
        scoped = from_ast(value)
        if (isinstance(value, ast.Attribute) and scoped.type == ValueType.NamingValue
                and scoped.scope == "self"):
            inst = getattr(self.network, scoped.value, None)
        from cellonnx.nn import Cell
        if isinstance(inst, CellList) or (isinstance(inst, list) and inst and all(isinstance(c, Cell)
                                                                                   for c in inst)):
            self.container_node(stmt, str(scoped), scoped, inst, targets, [], {}, manager)
            return
        name = f"{type(value).__name__.lower()}_assign"
        self.method_node(stmt, targets, "pass_through", [scoped], {}, name, manager)

    def container_node(self, stmt: ast.Assign | None, name: str, func: ScopedValue, container: Any,
                       targets: list[ScopedValue], args: list[ScopedValue], kwargs: dict[str, ScopedValue],
                       manager: Any) -> NodeImpl:
        node = NodeImpl(NodeType.CellContainer, name, stmt, targets, func, args, kwargs, container)
        self.tree.append(node, manager)
        for cell in container:
            cname = type(cell).__name__
            if is_subnet(cell):
                child = self.tree.make_tree_node(cell, None, list(targets), func, list(args), dict(kwargs),
                                                 cname)
            else:
                child = NodeImpl(NodeType.CallCell, cname, None, list(targets), func, list(args),
                                 dict(kwargs), cell)
            self.tree.append(child, node)
        return node

    def parse_call(self, stmt: ast.Assign, call: ast.Call, targets: list[ScopedValue], manager: Any) -> None:
        from cellonnx.nn import CellList, SequentialCell
        from cellonnx.ops.primitive import Primitive
        args = [from_ast(a) for a in call.args]
        kwargs = {kw.arg: from_ast(kw.value) for kw in call.keywords if kw.arg is not None}
        scope, name = _func_parts(call)
        func = ScopedValue.create_naming_value(name, scope)
        full = str(func)

        def function_node(node_name: str, instance: Any = None) -> None:
            self.tree.append(NodeImpl(NodeType.CallFunction, node_name, stmt, targets, func, args, kwargs,
                                      instance), manager)

        if any(isinstance(n, ast.Call) for n in ast.walk(call.func)) or full in dir(builtins):
            function_node(name)
            return
        if full in _loop_vars(manager):
            function_node(name)
            return
        if scope == "self":
            cells = self.network.__dict__.get("_cells", {})
            if name in cells:
                cell = cells[name]
                if isinstance(cell, (SequentialCell, CellList)):
                    self.container_node(stmt, name, func, cell, targets, args, kwargs, manager)
                elif is_subnet(cell):
                    node = self.tree.make_tree_node(cell, stmt, targets, func, args, kwargs, name)
                    self.tree.append(node, manager)
                    self.tree.tree_fields[name] = node
                    self.tree.tree_node_list.append(node)
                else:
                    node = NodeImpl(NodeType.CallCell, name, stmt, targets, func, args, kwargs, cell)
                    self.tree.append(node, manager)
                return
            attr = self.network.__dict__.get(name)
            if isinstance(attr, Primitive):
                node = NodeImpl(NodeType.CallPrimitive, name, stmt, targets, func, args, kwargs, attr)
                self.tree.append(node, manager)
                return
            if hasattr(self.network, name):
                method = getattr(self.network, name)
                if not (inspect.ismethod(method) and self.function_call(
                        stmt, call, targets, func, args, kwargs, manager, method.__func__, True, method)):
                    function_node(name, method if inspect.ismethod(method) else None)
                return
        if _local_provider(manager, full) or _local_provider(manager, full.split(".")[0]):
            function_node(name)
            return
        obj = _resolve(scope, name, self.globals)
        if obj is None:
            function_node(name)
            return
        if isinstance(obj, Primitive):
            self.tree.append(NodeImpl(NodeType.CallPrimitive, name, stmt, targets, func, args, kwargs, obj),
                             manager)
            return
        if inspect.isclass(obj):
            function_node(name)
            return
        if inspect.isfunction(obj) and not is_framework_object(obj) and not _is_third_party(obj):
            if self.function_call(stmt, call, targets, func, args, kwargs, manager, obj, False):
                return
        if inspect.isfunction(obj) and (is_framework_object(obj) or not _is_third_party(obj)):
            # MindSpore names a function it parses after the function's own name, with "_opt" when the call
            # spells it otherwise (``ops.relu`` -> ``relu_opt``).
            own = obj.__name__
            function_node(own if own == full else f"{own}_opt", obj)
            return
        function_node(name, obj)


def _targets_ast(target: ast.AST) -> list[ast.AST]:
    if isinstance(target, (ast.Tuple, ast.List)):
        out: list[ast.AST] = []
        for elt in target.elts:
            out.extend(_targets_ast(elt))
        return out
    return [target]


def _loop_vars(manager: Any) -> list[str]:
    found: list[str] = []
    while isinstance(manager, NodeImpl):
        found.extend(manager.loop_vars)
        manager = manager.manager
    return found


def _local_provider(manager: Any, name: str) -> bool:
    """Whether a statement of this block (or an enclosing one) assigns `name`."""
    value = ScopedValue.create_naming_value(name) if "." not in name else ScopedValue.create_naming_value(
        name.rsplit(".", 1)[1], name.rsplit(".", 1)[0])
    while manager is not None:
        for node in manager.children:
            if any(t == value for t in node.targets):
                return True
        manager = manager.manager if isinstance(manager, NodeImpl) else None
    return False
