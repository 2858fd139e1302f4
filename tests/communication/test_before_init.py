"""mindspore.communication's rank and size queries before init(): the launcher's environment variable
(RANK_ID, RANK_SIZE, LOCAL_RANK, LOCAL_RANK_SIZE), else the answer of a job of one process; a group that is
not a str is a TypeError. Checked against what MindSpore 2.10 returned
(tests/fixtures/mindspore/gen_comm_before_init.py)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from cellonnx.communication import management

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures/mindspore/communication/before_init.json"
RECORDED = json.loads(FIXTURE.read_text())
GROUPS = {"default": None, "named": "group_a", "int": 3}
VARIABLES = ("RANK_ID", "RANK_SIZE", "LOCAL_RANK", "LOCAL_RANK_SIZE")


@pytest.mark.parametrize("case", RECORDED["cases"],
                         ids=lambda c: f"{c['name']}-{c['environment']}-{c['group']}")
def test_queries_before_init_as_mindspore(case: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(management.GlobalComm, "INITED", False)
    for variable in VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    for variable, value in RECORDED["environments"][case["environment"]].items():
        monkeypatch.setenv(variable, value)
    query = getattr(management, case["name"])
    group = GROUPS[case["group"]]
    args = () if group is None else (group,)
    if "error" in case:
        with pytest.raises(TypeError) as info:
            query(*args)
        assert type(info.value).__name__ == case["error"]
        assert str(info.value) == case["message"]
    else:
        got = query(*args)
        assert type(got) is int and got == case["value"]
