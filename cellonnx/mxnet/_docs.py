"""Docstrings that MXNet's names borrow from the cellonnx functions behind them."""
from __future__ import annotations


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
