"""The nodes of a rewrite SymbolTree and their topology (internal; the public face is node.py).

A node stands for one statement of construct. Nodes live in an ordered list of their manager: the tree (the
body of construct), a control-flow block (the body of an ``if``, its ``else``, a ``for`` or ``while``), or a
cell container (the cells a SequentialCell runs). Topology is kept as MindSpore keeps it: argument ``i`` of a
node is provided by the nearest earlier node of the same manager with a target equal to it, and each edit
updates the providers and users incrementally (so a statement inserted after ``conv1`` with target ``x`` does
not take over ``conv1``'s users unless they come after it and read ``x``).
"""
from __future__ import annotations

import ast
import inspect
from typing import Any

from cellonnx.rewrite.node_type import NodeType
from cellonnx.rewrite.scoped_value import ScopedValue, ValueType, to_ast

Provider = tuple["NodeImpl", int]


class NodeImpl:
    """One statement of construct (see the module docstring)."""

    def __init__(self, node_type: NodeType, name: str, ast_node: ast.AST | None = None,
                 targets: list[ScopedValue] | None = None, func: ScopedValue | None = None,
                 args: list[ScopedValue] | None = None, kwargs: dict[str, ScopedValue] | None = None,
                 instance: Any = None) -> None:
        self.node_type = node_type
        self.name = name
        self.ast: Any = ast_node
        self.targets: list[ScopedValue] = list(targets or [])
        self.func = func
        self.args: list[ScopedValue] = list(args or [])
        self.kwargs: dict[str, ScopedValue] = dict(kwargs or {})
        self.instance = instance
        self.tree: Any = None          # the SymbolTreeImpl it belongs to
        self.manager: Any = None       # the SymbolTreeImpl or NodeImpl whose `children` holds it
        self.children: list[NodeImpl] = []   # for ControlFlow and CellContainer nodes
        self.subtree: Any = None       # for Tree nodes
        self.is_orelse = False         # the else block of an if/for/while
        self.partner: NodeImpl | None = None  # if <-> else
        self.loop_vars: list[str] = []
        self.arg_providers: dict[int, Provider | tuple] = {}
        self.target_users: dict[int, list[tuple[NodeImpl, int]]] = {}
        self.attributes: dict[str, Any] = {}
        self.math_kind = ""            # MathOps: the ast class of the expression ("BinOp" ...)
        self.method = ""               # CallMethod: pass_through / tuple / list / dict
        self.func_def: ast.FunctionDef | None = None  # CallFunction whose body is parsed into `children`
        self.is_method = False

    # ---- arguments
    def normalized_args(self) -> list[ScopedValue]:
        return self.args + list(self.kwargs.values())

    def get_instance_type(self) -> Any:
        """The type of what the statement calls; a plain function is returned itself (as MindSpore does)."""
        if inspect.isfunction(self.instance):
            return self.instance
        return type(self.instance)

    def get_targets_users(self, index: int) -> list[tuple[NodeImpl, int]]:
        return self.target_users.setdefault(index, [])

    # ---- position in its manager
    def siblings(self) -> list[NodeImpl]:
        return self.manager.children if self.manager is not None else []

    def prev(self) -> NodeImpl | None:
        sib = self.siblings()
        i = _index(sib, self)
        return sib[i - 1] if i > 0 else None

    def next(self) -> NodeImpl | None:
        sib = self.siblings()
        i = _index(sib, self)
        return sib[i + 1] if 0 <= i < len(sib) - 1 else None

    def __repr__(self) -> str:
        return f"<rewrite node {self.name} ({self.node_type.name})>"


def _index(nodes: list[NodeImpl], node: NodeImpl) -> int:
    for i, n in enumerate(nodes):
        if n is node:
            return i
    return -1


# ------------------------------------------------------------------ topology
def value_provider(node: NodeImpl, value: ScopedValue) -> Provider | tuple:
    """The nearest node before `node` (same manager) whose target `index` equals `value`."""
    sib = node.siblings()
    for prev in reversed(sib[:_index(sib, node)]):
        for index, target in enumerate(prev.targets):
            if target == value:
                return (prev, index)
    return ()


def _users_by_value(node: NodeImpl, index: int, value: ScopedValue) -> None:
    """A new target name: later nodes reading it, up to the next node writing it, become users."""
    sib = node.siblings()
    for later in sib[_index(sib, node) + 1:]:
        for arg_index, arg in enumerate(later.normalized_args()):
            if arg == value:
                node.get_targets_users(index).append((later, arg_index))
                later.arg_providers[arg_index] = (node, index)
        if any(t == value for t in later.targets):
            return


def _users_by_node(node: NodeImpl, index: int, provider: Provider) -> None:
    """A target written before too: the earlier writer's users that come after `node` move to `node`."""
    sib = node.siblings()
    start, stop = _index(sib, provider[0]), _index(sib, node)
    between = sib[start + 1:stop + 1]
    users = provider[0].get_targets_users(provider[1])
    for user in users[:]:
        if not any(user[0] is b for b in between):
            node.get_targets_users(index).append(user)
            users.remove(user)
            user[0].arg_providers[user[1]] = (node, index)


def on_insert(node: NodeImpl) -> None:
    for index, arg in enumerate(node.normalized_args()):
        provider = value_provider(node, arg)
        if provider:
            node.arg_providers[index] = provider
            provider[0].get_targets_users(provider[1]).append((node, index))
    for index, target in enumerate(node.targets):
        provider = value_provider(node, target)
        if provider:
            _users_by_node(node, index, provider)
        else:
            _users_by_value(node, index, target)


def on_erase(node: NodeImpl) -> None:
    fallbacks: dict[int, Provider | None] = {}
    for index, users in node.target_users.items():
        if users:
            fallbacks[index] = value_provider(node, node.targets[index]) or None
    for index, fallback in fallbacks.items():
        for user in node.get_targets_users(index):
            if fallback is None:
                user[0].arg_providers.pop(user[1], None)
            else:
                fallback[0].get_targets_users(fallback[1]).append(user)
                user[0].arg_providers[user[1]] = fallback
    for provider in node.arg_providers.values():
        if not provider:
            continue
        users = provider[0].get_targets_users(provider[1])
        for user in reversed(users[:]):
            if user[0] is node:
                users.remove(user)


def on_update_arg(node: NodeImpl, index: int, old: ScopedValue, new: ScopedValue) -> None:
    old_provider = value_provider(node, old)
    if old_provider:
        users = old_provider[0].get_targets_users(old_provider[1])
        for user in reversed(users[:]):
            if user[0] is node and user[1] == index:
                users.remove(user)
                break
    provider = value_provider(node, new)
    if provider:
        provider[0].get_targets_users(provider[1]).append((node, index))
    node.arg_providers[index] = provider


def on_update_arg_by_node(dst: NodeImpl, index: int, src: NodeImpl, out_index: int) -> None:
    old = dst.arg_providers.get(index)
    if old:
        users = old[0].get_targets_users(old[1])
        for user in users[:]:
            if user[0] is dst and user[1] == index:
                users.remove(user)
    src.get_targets_users(out_index).append((dst, index))
    dst.arg_providers[index] = (src, out_index)


# ------------------------------------------------------------------ keeping the statement in step
def set_arg_in_ast(node: NodeImpl, index: int, value: ScopedValue) -> None:
    """Write argument `index` of `node` into its statement."""
    stmt = node.ast
    if stmt is None:
        return
    expr = to_ast(value)
    if node.node_type == NodeType.Output:
        stmt.value = expr
        return
    rhs = stmt.value if isinstance(stmt, ast.Assign) else None
    if node.node_type == NodeType.MathOps and rhs is not None:
        if isinstance(rhs, ast.BinOp):
            setattr(rhs, ("left", "right")[index], expr)
        elif isinstance(rhs, ast.UnaryOp):
            rhs.operand = expr
        elif isinstance(rhs, ast.BoolOp):
            rhs.values[index] = expr
        elif isinstance(rhs, ast.Compare):
            if index == 0:
                rhs.left = expr
            else:
                rhs.comparators[index - 1] = expr
        return
    if isinstance(rhs, ast.Call):
        if index < len(rhs.args):
            rhs.args[index] = expr
        else:
            key = list(node.kwargs)[index - len(node.args)]
            for kw in rhs.keywords:
                if kw.arg == key:
                    kw.value = expr
        return
    if node.node_type == NodeType.CallMethod and rhs is not None:
        if isinstance(rhs, (ast.Tuple, ast.List)):
            rhs.elts[index] = expr
        elif isinstance(rhs, ast.Dict):
            rhs.values[index] = expr
        else:
            stmt.value = expr
        return
    if node.node_type == NodeType.ControlFlow:
        if isinstance(stmt, ast.For):
            stmt.iter = expr
        else:
            stmt.test = expr


def build_call_ast(node: NodeImpl) -> ast.Assign:
    """``targets = func(*args, **kwargs)`` for a node made by create_call_cell/create_call_function."""
    if len(node.targets) == 1:
        target: ast.expr = to_ast(node.targets[0])
    else:
        target = ast.Tuple(elts=[to_ast(t) for t in node.targets], ctx=ast.Store())
    for leaf in ast.walk(target):
        if isinstance(leaf, (ast.Name, ast.Attribute, ast.Tuple)):
            leaf.ctx = ast.Store()
    assert node.func is not None, f"node {node.name} calls nothing"
    call = ast.Call(func=to_ast(node.func), args=[to_ast(a) for a in node.args],
                    keywords=[ast.keyword(arg=k, value=to_ast(v)) for k, v in node.kwargs.items()])
    return ast.fix_missing_locations(ast.Assign(targets=[target], value=call))


def naming(value: ScopedValue | str) -> ScopedValue:
    if isinstance(value, str):
        return ScopedValue.create_naming_value(value)
    return value


def is_naming(value: ScopedValue) -> bool:
    return value.type == ValueType.NamingValue
