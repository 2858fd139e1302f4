"""The table that builds MindSpore's operator classes over cellonnx's functional ops.

One row is one class:

    Row("ReduceMean", "keep_dims=False", "x, axis=()", "mean(x, axes(axis), keep_dims)")

- ``init``: the constructor's parameters as MindSpore declares them (names, order, defaults); each argument
  becomes an attribute (``prim.keep_dims``, ``prim.attrs``), as ``prim_attr_register`` does.
- ``call``: the parameters of ``prim(...)``.
- ``twin``: the functional call it stands for, a Python expression over the call's parameters, the
  attributes and ``self`` (the primitive, for adapters that read several attributes). Function names are
  looked up in the family module that holds the row (adapters: its ``_private`` helpers, when MindSpore's
  attributes mean more than a plain argument) and otherwise on ``cellonnx.ops`` when the call runs.
- ``setup``: optional, checks and normalises the attributes after the constructor ran, with MindSpore's
  errors (``Conv2D``'s ``pad`` must be 0 unless ``pad_mode`` is 'pad' ...).
- ``summary`` and ``example``: optional, the class docstring's first line and its ``Examples:`` section
  (doctest lines, as a user writes them: imports, a small input, the call, the printed result). The
  docstring also states the constructor, the call and the functional op the class stands for.

The class's ``__call__`` is compiled from ``call`` and ``twin`` (no per-call argument binding), and its
``__init__`` carries MindSpore's signature, so ``inspect.signature(ops.ReduceMean)`` reads
``(keep_dims=False)``. The rows live in the family modules beside their adapters (math_ops.py, array_ops.py,
nn_ops.py ...); ``cellonnx.ops.operations.ROWS`` is the whole table.
"""
from __future__ import annotations

import ast
import builtins
import importlib
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cellonnx import dtypes as mstype
from cellonnx.ops.primitive import Primitive


@dataclass(frozen=True)
class Row:
    """One operator class: see the module docstring."""

    name: str
    init: str
    call: str
    twin: str
    setup: Callable[[Any], None] | None = None
    summary: str = ""
    example: str = ""


def _parse_params(text: str, what: str) -> ast.arguments:
    try:
        tree = ast.parse(f"def f({text}): pass")
    except SyntaxError as exc:
        raise SyntaxError(f"operator table: cannot read the {what} parameters ({text!r}): {exc}") from None
    return tree.body[0].args  # type: ignore[attr-defined]


def _names(args: ast.arguments) -> list[str]:
    names = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]
    if args.vararg:
        names.append(args.vararg.arg)
    if args.kwarg:
        names.append(args.kwarg.arg)
    return names


class _Resolve(ast.NodeTransformer):
    """Rewrites the twin's names: call parameters stay, attributes become ``self.<name>``, names the family
    module defines (its adapters) stay, and the others become ``_ops.<name>``, read from ``cellonnx.ops`` when
    the call runs (so a functional op replaced after the table was built is the one called), except Python
    builtins that cellonnx.ops does not shadow."""

    def __init__(self, attrs: set[str], params: set[str], module_globals: dict[str, Any]) -> None:
        self.attrs = attrs
        self.params = params
        self.module_globals = module_globals
        self.from_ops: set[str] = set()

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id in self.params:
            return node
        if node.id in self.attrs:
            return ast.copy_location(ast.Attribute(ast.Name("self", ast.Load()), node.id, ast.Load()), node)
        if node.id in self.module_globals:
            return node
        import cellonnx.ops as ops_module
        if hasattr(builtins, node.id) and not hasattr(ops_module, node.id):
            return node  # a Python builtin (len, int ...); ops' names (slice, max, round ...) go first
        self.from_ops.add(node.id)
        return ast.copy_location(ast.Attribute(ast.Name("_ops", ast.Load()), node.id, ast.Load()), node)


def _signature(args: ast.arguments, namespace: dict[str, Any]) -> inspect.Signature:
    """The Signature of ``def f(<args>)``, defaults evaluated in ``namespace``."""
    fdef = ast.FunctionDef("f", args, [ast.Pass()], [], None, None)
    tree = ast.fix_missing_locations(ast.Module([fdef], []))
    code = compile(tree, "<operator table>", "exec")
    scope: dict[str, Any] = {}
    exec(code, namespace, scope)  # noqa: S102 (the table's own parameter lists)
    return inspect.signature(scope["f"])


def _self() -> inspect.Parameter:
    return inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)


def make_class(row: Row, namespace: dict[str, Any], module: str) -> type:
    """The operator class for ``row``; ``namespace`` (the family module's globals) resolves the twin's
    adapters and the defaults."""
    init_args = _parse_params(row.init, f"{row.name} constructor")
    call_args = _parse_params(row.call, f"{row.name} call")
    attrs, params = set(_names(init_args)), set(_names(call_args))
    if attrs & params:
        raise ValueError(f"operator table: {row.name} uses {sorted(attrs & params)} as both an attribute and "
                         "a call parameter")
    try:
        expr = ast.parse(row.twin, mode="eval").body
    except SyntaxError as exc:
        raise SyntaxError(f"operator table: {row.name}'s twin {row.twin!r} is not an expression: "
                          f"{exc}") from None
    resolver = _Resolve(attrs, params | {"self"}, namespace)
    body = resolver.visit(expr)

    call_def = ast.FunctionDef(
        "__call__",
        ast.arguments(posonlyargs=[], args=[ast.arg("self"), *call_args.posonlyargs, *call_args.args],
                      vararg=call_args.vararg, kwonlyargs=call_args.kwonlyargs,
                      kw_defaults=call_args.kw_defaults, kwarg=call_args.kwarg, defaults=call_args.defaults),
        [ast.Return(body)], [], None, None)
    module_ast = ast.fix_missing_locations(ast.Module([call_def], []))
    scope: dict[str, Any] = {}
    exec(compile(module_ast, f"<ops.{row.name}>", "exec"), namespace, scope)  # noqa: S102 (the table's rows)
    call = scope["__call__"]
    call.__qualname__ = f"{row.name}.__call__"

    init_sig = _signature(init_args, namespace)
    setup, name = row.setup, row.name

    def __init__(self: Primitive, *args: Any, **kwargs: Any) -> None:
        try:
            bound = init_sig.bind(*args, **kwargs)
        except TypeError as exc:
            raise TypeError(f"ops.{name}{init_sig}: {exc}") from None
        bound.apply_defaults()
        Primitive.__init__(self, getattr(type(self), "substitute_name", type(self).__name__))
        del self.init_attrs["name"]
        for key, value in bound.arguments.items():
            self._set_prim_arg(key, value)
            self.init_attrs[key] = value
        if setup is not None:
            setup(self)

    __init__.__signature__ = init_sig.replace(  # type: ignore[attr-defined]
        parameters=[_self(), *init_sig.parameters.values()])
    __init__.__qualname__ = f"{row.name}.__init__"
    doc = _docstring(row)
    return type(row.name, (Primitive,), {"__init__": __init__, "__call__": call, "__doc__": doc,
                                         "__module__": module, "row": row,
                                         "ops_names": frozenset(resolver.from_ops),
                                         "twin_namespace": classmethod(_twin_namespace)})


def _docstring(row: Row) -> str:
    """The class docstring: the row's summary, what the class computes, and the row's example."""
    import textwrap

    what = f"``ops.{row.name}({row.init})``: ``prim({row.call})`` computes ``{row.twin}``."
    refer = f"Refer to MindSpore's ``mindspore.ops.{row.name}`` for the attributes and inputs."
    if not row.summary:
        return f"{what}\n\n{refer}"
    doc = f"{row.summary}\n\n{what} {refer}"
    if row.example:
        doc += "\n\nExamples:\n" + textwrap.indent(textwrap.dedent(row.example).strip("\n"), "    ") + "\n"
    return doc


def _twin_namespace(cls: type) -> dict[str, Any]:
    """The names the row's expression reads, resolved as its ``__call__`` resolves them (for evaluating the
    expression itself, as the table test does)."""
    import cellonnx.ops as ops_module
    module_globals = vars(importlib.import_module(cls.__module__))
    return {**vars(ops_module), **module_globals}


def build(rows: list[Row], module_globals: dict[str, Any]) -> dict[str, type]:
    """The classes of ``rows`` (call them from the family module, after its adapters): the twins' names are
    the module's own, else ``cellonnx.ops``'s; the module also gets ``_ops`` and ``mstype``."""
    import cellonnx.ops as ops_module

    module_globals.setdefault("_ops", ops_module)
    module_globals.setdefault("mstype", mstype)
    module = module_globals["__name__"]
    classes = {}
    for row in rows:
        if row.name in classes:
            raise ValueError(f"operator table: {row.name} has two rows in {module}")
        classes[row.name] = make_class(row, module_globals, module)
    return classes
