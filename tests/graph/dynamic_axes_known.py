"""Rows of tests/graph/test_dynamic_axes.py that still fail, each with its reason (strict xfails: a fix
makes the row XPASS, and it must leave this list). Data only."""
from __future__ import annotations

KNOWN: dict[str, str] = {}
KNOWN.update(dict.fromkeys([
    'ops/geometry/nms_keep',
], ("eager takes boxes and scores of different counts; the check varies the boxes (the op's first input)"
    " alone")))
# the array APIs' tables (tests/graph/dynamic_axes_mx.py)
KNOWN.update(dict.fromkeys([
    'mx.np/bincount', 'mx.np/bincount_w',
], 'output size depends on the values: refused without length (MXNetValueError, not a dim refusal)'))
