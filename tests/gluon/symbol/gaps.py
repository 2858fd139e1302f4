"""What the symbol interpreter does not do yet, case by case: the tests of these cases are expected to fail
(strict xfail, so a case that starts passing is noticed and taken off this list)."""

from __future__ import annotations

from typing import Any

import pytest

# test -> case -> reason
GAPS: dict[str, dict[str, str]] = {
    "inference": {
        "rrelu": "LeakyReLU rrelu's second output (its mask) is not computed; MXNet 1.9.1 leaves it "
        "uninitialized outside training, so its recorded values are not a reference either",
    },
    "onnx": {
        "linalg_syevd": "the symmetric eigendecomposition has no ONNX lowering: ONNX has no operator for it "
        "and no fixed graph of ONNX operators computes it",
        "linalg_gelqf": "the LQ factorization (a QR of the transpose) has no ONNX lowering: ONNX has no "
        "operator for it and no fixed graph of ONNX operators computes it",
        "rrelu": "LeakyReLU rrelu's second output (its mask) is not computed; MXNet 1.9.1 leaves it "
        "uninitialized outside training, so its recorded values are not a reference either",
    },
}


def cases(test: str, names: list[str]) -> list[Any]:
    """``names`` as pytest parameters, the known gaps of ``test`` marked as strict xfails."""
    gaps = GAPS.get(test, {})
    return [
        pytest.param(n, marks=pytest.mark.xfail(reason=gaps[n], strict=True)) if n in gaps else n
        for n in names
    ]
