"""Every implemented MindSpore name accepts the calls MindSpore's signature allows (tests/mindspore_api/
signatures.py); the known exceptions are recorded in pending/signatures.txt and must shrink."""
from __future__ import annotations

import pytest

from tests.mindspore_api.api import NAMESPACES, PENDING, cellonnx_module, mindspore_names, status
from tests.mindspore_api.signatures import mismatches


def _pending() -> set[str]:
    lines = (line.strip() for line in (PENDING / "signatures.txt").read_text().splitlines())
    return {line for line in lines if line and not line.startswith("#")}


@pytest.mark.parametrize("namespace", list(NAMESPACES))
def test_signatures_accept_mindspore_calls(namespace: str) -> None:
    module = cellonnx_module(namespace)
    differing = {}
    for name, row in mindspore_names()[namespace].items():
        if row["kind"] not in ("class", "function") or not row.get("signature"):
            continue
        if status(namespace, name) != "implemented":
            continue
        problems = mismatches(getattr(module, name), row["signature"], skip_self=row["kind"] == "class")
        if problems:
            differing[f"{namespace}.{name}"] = problems
    known = {key for key in _pending() if key.rsplit(".", 1)[0] == namespace}
    new = {key: problems for key, problems in differing.items() if key not in known}
    assert new == {}, f"signatures that do not accept MindSpore's calls: {new}"
    assert sorted(known - set(differing)) == [], \
        "these match MindSpore now; take them off pending/signatures.txt"
