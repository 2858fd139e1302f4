"""MXNet 1.9.1's operator signatures (mxnet_ops.json, written from real MXNet by
tests/fixtures/mxnet/gen_op_spec.py): for every forward operator its input names, auxiliary states and typed
attributes, and the aliases a symbol.json may name an operator by.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

__all__ = ["AttrSpec", "OpSpec", "canonical", "op_spec"]

_FILE = Path(__file__).resolve().parent / "mxnet_ops.json"


@dataclass(frozen=True)
class AttrSpec:
    """One attribute of an operator: its kind (int, float, bool, str, shape, floats, ints, enum, and the
    optional forms int? float? bool? shape?), MXNet's default as MXNet writes it, whether it is required and
    the choices of an enumeration."""

    kind: str
    default: str | None
    required: bool
    choices: tuple[str, ...] | None = None


@dataclass(frozen=True)
class OpSpec:
    """An operator's inputs (in order), auxiliary states, the attribute counting a variadic input list (None
    for a fixed list; 'num_args' for Concat ...; '' when the list is variadic without a counting attribute)
    and
    attributes."""

    name: str
    inputs: tuple[str, ...]
    aux: tuple[str, ...]
    variadic: str | None
    attrs: dict[str, AttrSpec]


@cache
def _data() -> dict[str, Any]:
    return json.loads(_FILE.read_text())


@cache
def _ops() -> dict[str, OpSpec]:
    out = {}
    for name, row in _data()["ops"].items():
        attrs = {
            k: AttrSpec(v[0], v[1], bool(v[2]), tuple(v[3]) if len(v) > 3 else None)
            for k, v in row["attrs"].items()
        }
        variadic = row.get("variadic")
        out[name] = OpSpec(
            name,
            tuple(row["inputs"]),
            tuple(row.get("aux", ())),
            None if variadic is None else ("" if variadic is True else variadic),
            attrs,
        )
    return out


def canonical(name: str) -> str | None:
    """The canonical name of operator ``name`` (itself, or what the alias stands for); None if MXNet 1.9.1
    has no forward operator of that name."""
    if name in _ops():
        return name
    return _data()["aliases"].get(name)


def op_spec(name: str) -> OpSpec | None:
    """The signature of operator ``name`` (canonical name or alias), None if unknown."""
    c = canonical(name)
    return None if c is None else _ops()[c]


def all_specs() -> dict[str, OpSpec]:
    """Every operator's signature by canonical name."""
    return dict(_ops())


def aliases() -> dict[str, str]:
    """alias -> canonical name."""
    return dict(_data()["aliases"])


def mxnet_version() -> str:
    return str(_data()["mxnet_version"])
