"""How MXNet 1.9.1's executor hands operator inputs to a monitor installed with ``monitor_all=True``
(monitor_inputs.json, written from real MXNet by tests/fixtures/mxnet/gen_monitor_inputs.py).

Before each forward node runs, every input is reported as ``<node>_<name>`` (the operator's listed input
names, or ``input<i>``), preceded by the variable's own name when the input is a variable. Each backward
node ``<node>_backward`` reports its inputs the same way before its outputs; what they hold depends on the
operator's gradient: the gradient of a forward output, a forward input or a forward output.
"""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

__all__ = ["backward_inputs", "forward_input_names"]

_FILE = Path(__file__).resolve().parent / "monitor_inputs.json"


@cache
def _table() -> dict[str, Any]:
    return json.loads(_FILE.read_text())


def _row(op: str, attrs: dict[str, Any]) -> dict[str, Any] | None:
    table = _table()
    act = attrs.get("act_type")
    if act is not None and f"{op}:{act}" in table:
        return table[f"{op}:{act}"]  # type: ignore[no-any-return]
    return table.get(op)


def forward_input_names(op: str, attrs: dict[str, Any], count: int) -> list[str]:
    """The names MXNet gives a node's ``count`` inputs (``input<i>`` for operators MXNet lists none for,
    and for operators outside the table)."""
    row = _row(op, attrs)
    names = list(row["inputs"]) if row is not None else []
    return names[:count] + [f"input{i}" for i in range(len(names), count)]


def backward_inputs(op: str, attrs: dict[str, Any]) -> list[tuple[str, str, int]] | None:
    """The backward node's inputs: (name, 'ograd' | 'in' | 'out', index); None for operators outside the
    table (their backward inputs are not reported)."""
    row = _row(op, attrs)
    return None if row is None else [(n, k, int(i)) for n, k, i in row["backward"]]
