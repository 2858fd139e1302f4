"""Rows of tests/graph/test_dynamic_axes.py that still fail, each with its reason (strict xfails: a fix
makes the row XPASS, and it must leave this list). Data only."""
from __future__ import annotations

KNOWN: dict[str, str] = {}
# the array APIs' tables (tests/graph/dynamic_axes_mx.py)
KNOWN.update(dict.fromkeys([
    'mx.np/bincount', 'mx.np/bincount_w',
], 'output size depends on the values: refused without length (MXNetValueError, not a dim refusal)'))
