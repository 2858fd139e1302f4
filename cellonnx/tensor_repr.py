"""Tensor values printed as MindSpore 2.10 prints them (``Tensor.__repr__``'s value part).

- floating point: ``% .8e`` (float16 ``% .4e``), NaN and infinities right-aligned to that width; bfloat16 and
  complex values in the short ``%g`` form;
- integers and bools right-aligned to the widest printed value;
- a 1-D tensor of up to 1000 values is printed whole, 12 floats / bools or 24 integers to a line; a longer one
  shows its first and last 3 values around ``...``;
- from 2-D up, every axis longer than 6 shows its first and last 3 entries around ``...``.

Data MindSpore keeps in a NumPy array (``from_numpy``, what ``init_data`` fills) prints in NumPy's format.
"""
from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise

import ml_dtypes
import numpy as np

_BF16 = np.dtype(ml_dtypes.bfloat16)
EDGE = 3            # entries kept at each end of a summarized axis
AXIS_LIMIT = 6      # (2-D and up) an axis longer than this is summarized
SIZE_LIMIT = 1000   # (1-D) a tensor longer than this is summarized


def _g(v: float) -> str:
    return f"{v:g}"


def _complex(v: complex) -> str:
    return f"{_g(v.real)}{_g(v.imag) if _g(v.imag)[0] == '-' else '+' + _g(v.imag)}j"


def _element_format(a: np.ndarray) -> tuple[Callable[[object], str], int, bool]:
    """(format one value, values per line of an unsummarized 1-D tensor (0: no wrapping), right-align)."""
    if a.dtype == _BF16:
        return (lambda v: _g(float(v))), 0, True
    kind = a.dtype.kind
    if kind == "c":
        return (lambda v: _complex(complex(v))), 0, False
    if kind == "f":
        digits, width = (4, 11) if a.dtype == np.float16 else (8, 15)
        return (lambda v: f"{float(v): .{digits}e}".rjust(width)), 12, True
    if kind == "b":
        return (lambda v: " True" if v else "False"), 12, True
    return (lambda v: str(int(v))), 24, True


def _shown(n: int, summarize: bool) -> list[int | None]:
    """The indices printed along an axis of length ``n``, None standing for the ellipsis."""
    if summarize and n > 2 * EDGE:
        return [*range(EDGE), None, *range(n - EDGE, n)]
    return list(range(n))


def format_value(a: np.ndarray) -> str:
    """The ``value=`` part of a tensor's repr (from the character after ``value=``)."""
    if a.ndim == 0:
        v = a.item()
        if isinstance(v, complex):
            return " " + _complex(v)
        return " " + (_g(v) if isinstance(v, float) else str(v))
    if a.size == 0:
        return " " if a.ndim == 1 else "\n"
    fmt, per_line, right = _element_format(a)
    if a.ndim == 1:
        summarize = a.shape[0] > SIZE_LIMIT
    else:
        summarize = any(n > AXIS_LIMIT for n in a.shape)
    texts: dict[tuple[int, ...], str] = {}

    def collect(prefix: tuple[int, ...]) -> None:
        for i in _shown(a.shape[len(prefix)], summarize):
            if i is None:
                continue
            if len(prefix) + 1 == a.ndim:
                texts[(*prefix, i)] = fmt(a[(*prefix, i)])
            else:
                collect((*prefix, i))

    collect(())
    width = max(len(t) for t in texts.values()) if right else 0

    def render(prefix: tuple[int, ...]) -> str:
        depth = len(prefix)
        indent = " " * (depth + 1)
        if depth + 1 == a.ndim:
            items = [None if i is None else texts[(*prefix, i)].rjust(width)
                     for i in _shown(a.shape[depth], summarize)]
            if None in items:
                k = items.index(None)
                return "[" + ", ".join(items[:k]) + " ... " + ", ".join(items[k + 1:]) + "]"  # type: ignore[arg-type]
            if a.ndim == 1 and per_line and len(items) > per_line:
                lines = [", ".join(items[k:k + per_line]) for k in range(0, len(items), per_line)]  # type: ignore[arg-type]
                return "[" + (", \n" + indent).join(lines) + "]"
            return "[" + ", ".join(items) + "]"  # type: ignore[arg-type]
        parts = []
        for i in _shown(a.shape[depth], summarize):
            if i is None:
                parts.append("...")
            else:
                parts.append(render((*prefix, i)))
        out = parts[0]
        for prev, part in pairwise(parts):
            out += ("\n" if prev == "..." else ",\n") + indent + part
        return "[" + out + "]"

    body = render(())
    return (" " if a.ndim == 1 else "\n") + body


def format_numpy(a: np.ndarray) -> str:
    """The ``value=`` part for data MindSpore holds as a NumPy array (``from_numpy``, ``init_data``): NumPy's
    own ``array2string`` with ", " between values."""
    if a.ndim == 0 or a.size == 0:
        return format_value(a)
    shown = a.astype(np.float32) if a.dtype == _BF16 else a
    return (" " if a.ndim == 1 else "\n") + np.array2string(shown, separator=", ")
