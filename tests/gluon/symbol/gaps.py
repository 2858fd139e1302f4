"""What the symbol interpreter does not do yet, case by case: the tests of these cases are expected to fail
(strict xfail, so a case that starts passing is noticed and taken off this list)."""

from __future__ import annotations

from typing import Any

import pytest

# test -> case -> reason
GAPS: dict[str, dict[str, str]] = {
    "inference": {
        "misc_contrib": "IdentityAttachKLSparseReg is not in the op table yet",
        "rrelu": "LeakyReLU rrelu's second output (its mask) is not computed; MXNet 1.9.1 leaves it "
        "uninitialized outside training, so its recorded values are not a reference either",
    },
    "step": {"misc_contrib": "IdentityAttachKLSparseReg is not in the op table yet"},
    "onnx": {
        "multibox": "_contrib_MultiBoxDetection runs eagerly only: it is not exported to ONNX yet",
        "misc_contrib": "IdentityAttachKLSparseReg is not in the op table yet",
        "rrelu": "LeakyReLU rrelu's second output (its mask) is not computed; MXNet 1.9.1 leaves it "
        "uninitialized outside training, so its recorded values are not a reference either",
    },
    "listings": {
        "misc_contrib": "IdentityAttachKLSparseReg's moving_avg is listed as an argument, MXNet lists it as "
        "an auxiliary state",
    },
}


def cases(test: str, names: list[str]) -> list[Any]:
    """``names`` as pytest parameters, the known gaps of ``test`` marked as strict xfails."""
    gaps = GAPS.get(test, {})
    return [
        pytest.param(n, marks=pytest.mark.xfail(reason=gaps[n], strict=True)) if n in gaps else n
        for n in names
    ]
