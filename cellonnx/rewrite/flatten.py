"""Flattening of nested expressions in construct, as MindSpore's rewrite does before it parses statements.

``x = self.pool(self.relu(self.conv(x)))`` becomes ``conv_var = self.conv(x)``, ``relu_var = self.relu(
conv_var)``, ``x = self.pool(relu_var)``. Statements are visited from the last to the first and each new
assignment is visited again, so the names are taken in that order (the later of two nested ``relu`` calls gets
``relu_var``, the earlier ``relu_var_1``), exactly the names MindSpore gives.
"""
from __future__ import annotations

import ast
import keyword
from typing import Any

from cellonnx.rewrite.namer import Namer

# Which fields of which expressions are pulled out into assignments of their own.
_FIELDS: dict[type, tuple[str, ...]] = {
    ast.Return: ("value",),
    ast.Call: ("func", "args", "keywords"),
    ast.BinOp: ("left", "right"),
    ast.BoolOp: ("values",),
    ast.UnaryOp: ("operand",),
    ast.Compare: ("left", "comparators"),
    ast.If: ("test",),
    ast.For: ("iter",),
    ast.Tuple: ("elts",),
    ast.List: ("elts",),
}
_NOT_FLATTENED = ("set_vertex_attr",)


def _base_name(node: ast.AST) -> str:
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Name):
            name = func.id + "_var"
        elif isinstance(func, ast.Attribute):
            name = func.attr + "_var"
        else:
            name = "function_var"
    elif isinstance(node, ast.Return):
        name = "return_value"
    elif isinstance(node, (ast.BinOp, ast.BoolOp, ast.UnaryOp)):
        name = type(node.op).__name__.lower() + "_var"
    elif isinstance(node, ast.Name):
        name = node.id
    elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        name = f"{node.value.id}_{node.attr}"
    else:
        name = type(node).__name__.lower() + "_var"
    if keyword.iskeyword(name):
        name += "_var"
    return name


class Flattener:
    """Flattens the statements of one body (a function's, or an if/for/while block's)."""

    def __init__(self, target_namer: Namer | None = None) -> None:
        self.target_namer = target_namer

    def _new_name(self, node: ast.AST, taken: list[str]) -> str:
        base = _base_name(node)
        name, suffix = base, 0
        while name in taken:
            suffix += 1
            name = f"{base}_{suffix}"
        if self.target_namer is not None:
            name = self.target_namer.get_name(name)
        taken.append(name)
        return name

    def _pull(self, node: Any, taken: list[str], parent: ast.AST) -> tuple[Any, ast.Assign | None]:
        """`node` as a plain operand, and the assignment computing it (None when it already is one)."""
        if isinstance(node, (ast.Name, ast.Constant)):
            return node, None
        if isinstance(node, ast.Attribute) and not isinstance(parent, ast.For):
            inner = node
            while isinstance(inner.value, ast.Attribute):
                inner = inner.value
            if isinstance(inner.value, ast.Name):
                return node, None
            name = self._new_name(inner.value, taken)
            new = ast.Attribute(value=ast.Name(id=name, ctx=ast.Load()), attr=inner.attr, ctx=inner.ctx)
            return new, ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())], value=inner.value)
        name = self._new_name(node, taken)
        return (ast.Name(id=name, ctx=ast.Load()),
                ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())], value=node))

    def _flatten(self, node: ast.AST, taken: list[str]) -> list[ast.Assign]:
        if isinstance(node, ast.Call):
            func = node.func
            fname = (func.id if isinstance(func, ast.Name)
                     else func.attr if isinstance(func, ast.Attribute) else "")
            if fname in _NOT_FLATTENED:
                return []
        fields = _FIELDS.get(type(node))
        if fields is None:
            return []
        pulled: list[ast.Assign] = []
        for field in fields:
            todo: Any = getattr(node, field)
            if isinstance(todo, list):
                kept = []
                for idx, item in enumerate(todo):
                    keep_as_is = isinstance(item, ast.Starred) or (
                        isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And) and idx > 0)
                    if keep_as_is:
                        kept.append(item)
                        continue
                    if isinstance(item, ast.keyword):
                        new, assign = self._pull(item.value, taken, node)
                        if assign is not None:
                            item.value = new
                            pulled.append(assign)
                        kept.append(item)
                        continue
                    new, assign = self._pull(item, taken, node)
                    kept.append(new)
                    if assign is not None:
                        pulled.append(assign)
                setattr(node, field, kept)
            else:
                new, assign = self._pull(todo, taken, node)
                if assign is not None:
                    setattr(node, field, new)
                    pulled.append(assign)
        return pulled

    def flatten_body(self, body: list[ast.stmt]) -> None:
        """Flatten `body` in place."""
        # a = b = value  ->  b = value; a = b
        pos = 0
        while pos < len(body):
            stmt = body[pos]
            if isinstance(stmt, ast.Assign) and len(stmt.targets) > 1:
                targets = stmt.targets
                for idx, target in enumerate(targets[:-1]):
                    body.insert(pos + idx + 1, ast.Assign(targets=[target], value=targets[idx + 1]))
                stmt.targets = [targets[-1]]
            pos += 1
        taken = _target_names(body)
        index = len(body) - 1
        while index >= 0:
            stmt = body[index]
            expr = stmt.value if isinstance(stmt, (ast.Assign, ast.Expr)) else stmt
            pulled = self._flatten(expr, taken)
            for assign in reversed(pulled):
                body.insert(index, assign)
                index += 1
            index -= 1
        for stmt in body:
            ast.fix_missing_locations(stmt)


def _target_names(body: list[ast.stmt]) -> list[str]:
    names: list[str] = []
    for stmt in body:
        if not isinstance(stmt, ast.Assign):
            continue
        queue: list[Any] = list(stmt.targets)
        while queue:
            target = queue.pop()
            if isinstance(target, ast.Name):
                if target.id not in names:
                    names.append(target.id)
            elif isinstance(target, (ast.Tuple, ast.List)):
                queue.extend(target.elts)
    return names
