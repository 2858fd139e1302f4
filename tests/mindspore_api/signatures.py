"""Whether a cellonnx callable accepts every call MindSpore's signature allows: each MindSpore parameter
exists by name, a positional one at the same position, with the same default (cellonnx may add keyword-only
ones)."""
from __future__ import annotations

import ast
import inspect
from typing import Any

_NO_DEFAULT = object()


def parse(signature: str) -> list[tuple[str, str, Any]] | None:
    """MindSpore's signature string as (name, kind, default) rows; None when it cannot be read back."""
    text = signature.split(" -> ")[0]
    try:
        tree = ast.parse(f"def f{text}: pass")
    except SyntaxError:
        return None
    args = tree.body[0].args  # type: ignore[attr-defined]
    rows: list[tuple[str, str, Any]] = []
    positional = args.posonlyargs + args.args
    defaults = [_NO_DEFAULT] * (len(positional) - len(args.defaults)) + list(args.defaults)
    for a, d in zip(positional, defaults):
        rows.append((a.arg, "positional", d))
    if args.vararg:
        rows.append((args.vararg.arg, "varargs", _NO_DEFAULT))
    for a, d in zip(args.kwonlyargs, args.kw_defaults):
        rows.append((a.arg, "keyword", _NO_DEFAULT if d is None else d))
    if args.kwarg:
        rows.append((args.kwarg.arg, "varkw", _NO_DEFAULT))
    return rows


def _literal(node: Any) -> Any:
    if node is _NO_DEFAULT:
        return _NO_DEFAULT
    try:
        return ast.literal_eval(node)
    except (ValueError, SyntaxError):
        return ast.unparse(node)  # a name such as mstype.float32: compared as text


def mismatches(ours: Any, theirs: str, skip_self: bool) -> list[str]:
    """What in MindSpore's ``theirs`` the callable ``ours`` does not accept (empty: compatible)."""
    rows = parse(theirs)
    if rows is None:
        return []
    if skip_self and rows and rows[0][0] == "self":
        rows = rows[1:]
    if any(kind in ("varargs", "varkw") for _, kind, _ in rows):
        return []  # MindSpore forwards *args / **kwargs: nothing to compare
    try:
        sig = inspect.signature(ours)
    except (TypeError, ValueError):
        return []
    params = list(sig.parameters.values())
    if params and params[0].name == "self":
        params = params[1:]
    by_name = {p.name: p for p in params}
    has_varkw = any(p.kind is p.VAR_KEYWORD for p in params)
    has_varargs = any(p.kind is p.VAR_POSITIONAL for p in params)
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    problems = []
    for index, (name, kind, default) in enumerate(rows):
        p = by_name.get(name)
        if p is None:
            if not (has_varkw or (kind == "positional" and has_varargs)):
                problems.append(f"no parameter {name!r}")
            continue
        if kind == "positional" and (index >= len(positional) or positional[index].name != name) \
                and not has_varargs:
            problems.append(f"{name!r} is not positional parameter {index}")
        want = _literal(default)
        if want is not _NO_DEFAULT and p.default is not p.empty and not _same_default(p.default, want):
            problems.append(f"{name!r} defaults to {p.default!r}, MindSpore {want!r}")
        if want is not _NO_DEFAULT and p.default is p.empty:
            problems.append(f"{name!r} has no default, MindSpore {want!r}")
    return problems


def _same_default(ours: Any, theirs: Any) -> bool:
    if isinstance(theirs, str) and not isinstance(ours, str):  # a name such as mstype.float32
        if repr(ours) == theirs:  # an expression such as datetime.timedelta(seconds=300)
            return True
        name = theirs.split(".")[-1].lower()
        return name in (str(ours).lower(), str(getattr(ours, "__name__", "")).lower())
    if isinstance(ours, bool) != isinstance(theirs, bool):
        return False
    try:
        return bool(ours == theirs)
    except Exception:  # noqa: BLE001 (arrays and tensors compare elementwise)
        return False
