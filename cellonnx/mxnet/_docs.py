"""Docstrings that MXNet's names borrow from the cellonnx functions behind them."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any


def borrowed(doc: str | None) -> str | None:
    """``doc`` without its ``Examples:`` section: those examples call the MindSpore-style function (its
    names, its arguments), not the MXNet name that borrows the description."""
    if not doc:
        return doc
    lines = doc.split("\n")
    out: list[str] = []
    skip_deeper_than: int | None = None
    for line in lines:
        indent = len(line) - len(line.lstrip())
        if skip_deeper_than is not None:
            if not line.strip() or indent > skip_deeper_than:
                continue
            skip_deeper_than = None
        if line.strip() in ("Examples:", "Example:"):
            skip_deeper_than = indent
            continue
        out.append(line)
    while out and not out[-1].strip():
        out.pop()
    if out and len(lines) > 1 and not lines[-1].strip():
        out.append(lines[-1])  # the closing quotes' indentation
    return "\n".join(out)


def with_example(fn: Callable[..., Any], example: str | None,
                 summary: str | None = None) -> Callable[..., Any]:
    """``fn`` with ``example`` (doctest lines) as the ``Examples:`` section of its docstring, and ``summary``
    as the docstring when it has none."""
    import textwrap

    if not (fn.__doc__ or "").strip() and summary:
        fn.__doc__ = summary
    if example is not None and fn.__doc__ and "Examples:" not in fn.__doc__:
        body = textwrap.indent(textwrap.dedent(example).strip("\n"), "    ")
        fn.__doc__ = f"{fn.__doc__.rstrip()}\n\nExamples:\n{body}\n"
    return fn


def attach(namespace: dict[str, Any], examples: dict[str, str], summaries: dict[str, str]) -> None:
    """Give the functions of ``namespace`` their examples (and summaries) from a module's tables."""
    for name, example in examples.items():
        with_example(namespace[name], example, summaries.get(name))
