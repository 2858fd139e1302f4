"""parameter_broadcast's bookkeeping against real MindSpore 2.10 (tests/fixtures/mindspore/
gen_param_redundancy.py): for each layout, the groups of ranks holding the same slice of each parameter and
the rank that keeps each parameter after deduplication (one process, no communication)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from cellonnx.param_broadcast import _owners, _redundancy

FIXTURE = json.loads((Path(__file__).resolve().parents[1] / "fixtures" / "mindspore"
                      / "param_redundancy.json").read_text())


@pytest.mark.parametrize("case", sorted(FIXTURE))
def test_redundancy_and_owners_match_mindspore(case: str) -> None:
    spec = FIXTURE[case]
    red = _redundancy(spec["layout"], spec["initial_rank"])
    assert {k: [list(g) for g in v] for k, v in red.items()} == spec["redundancy"]
    assert list(red) == sorted(red)
    assert {str(r): sorted(p) for r, p in _owners(red).items()} == spec["owners"]
