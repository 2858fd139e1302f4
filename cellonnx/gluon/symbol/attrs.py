"""MXNet's attribute strings as Python values, by the kind the operator declares: ``"(3, 3)"`` -> (3, 3),
``"True"`` / ``"1"`` -> True, ``"None"`` -> None, ``"1e-05"`` -> 1e-05, enumerations checked against their
choices. Python 2 era files write longs as ``3L``; that suffix is accepted as MXNet's parser accepts it.
"""

from __future__ import annotations

import math
from typing import Any

from cellonnx.gluon.symbol.spec import AttrSpec

__all__ = ["AttrError", "parse_attr", "parse_tuple"]

_TRUE = ("true", "1")
_FALSE = ("false", "0")


class AttrError(ValueError):
    """An attribute string that does not parse as its declared kind."""


def _int(text: str) -> int:
    t = text.strip()
    if t[-1:] in ("L", "l"):
        t = t[:-1]
    try:
        return int(t)
    except ValueError:
        pass
    value = float(t)  # '3.0' is written for an integer by some writers; a fraction is an error
    if not math.isfinite(value) or value != int(value):
        raise ValueError(t)
    return int(value)


def _float(text: str) -> float:
    return float(text.strip())


def _bool(text: str) -> bool:
    t = text.strip().lower()
    if t in _TRUE:
        return True
    if t in _FALSE:
        return False
    raise ValueError(text)


def parse_tuple(text: str, item: Any) -> tuple:
    """``"(1, 2)"``, ``"[1, 2]"``, ``"(1,)"``, ``"()"`` or a bare ``"1"`` as a tuple of ``item(...)`` values;
    ``None`` entries stay None (slice bounds)."""
    t = text.strip()
    if t[:1] in "([" and t[-1:] in ")]":
        t = t[1:-1]
    elif not t:
        return ()
    parts = [p.strip() for p in t.split(",")]
    if parts and parts[-1] == "":
        parts.pop()
    return tuple(None if p == "None" else item(p) for p in parts)


_PARSERS = {
    "int": _int,
    "float": _float,
    "bool": _bool,
    "str": lambda t: t,
    "ptr": lambda t: t,
    "shape": lambda t: parse_tuple(t, _int),
    "ints": lambda t: parse_tuple(t, _int),
    "floats": lambda t: parse_tuple(t, _float),
}


def parse_attr(spec: AttrSpec, text: str) -> Any:
    """The value of one attribute string by its declared kind.

    Raises:
        AttrError: the string does not parse, or an enumeration value is not one of the choices.
    """
    kind = spec.kind
    if kind == "enum":
        assert spec.choices is not None
        if text not in spec.choices:
            raise AttrError(f"value {text!r} is not one of {', '.join(repr(c) for c in spec.choices)}")
        return None if text == "None" else text
    optional = kind.endswith("?")
    if optional:
        kind = kind[:-1]
        if text.strip() == "None":
            return None
    try:
        return _PARSERS[kind](text)
    except (ValueError, TypeError, IndexError):
        raise AttrError(f"value {text!r} is not {_WHAT[kind]}") from None


_WHAT = {
    "int": "an integer",
    "float": "a number",
    "bool": "a boolean (True/False/1/0)",
    "str": "a string",
    "ptr": "a pointer",
    "shape": "a tuple of integers such as (3, 3)",
    "ints": "a tuple of integers",
    "floats": "a tuple of numbers",
}
