"""Every public name of MindSpore 2.10's namespaces (dumped from real MindSpore) is implemented in cellonnx,
listed in cellonnx/unsupported.py with its reason, or recorded as still to do in pending/<namespace>.txt; the
pending record must shrink as names land (a name implemented but still listed fails)."""
from __future__ import annotations

import pytest

from cellonnx.unsupported import UnsupportedError
from tests.mindspore_api.api import (
    NAMESPACES,
    cellonnx_module,
    listed_unsupported,
    mindspore_names,
    pending,
    status,
)


@pytest.mark.parametrize("namespace", list(NAMESPACES))
def test_every_name_is_implemented_unsupported_or_pending(namespace: str) -> None:
    names = mindspore_names()[namespace]
    absent = {name for name in names if status(namespace, name) == "absent"}
    todo = pending(namespace)
    assert sorted(absent - todo) == [], f"{namespace}: neither implemented, unsupported nor pending"
    assert sorted(todo - absent) == [], f"{namespace}: implemented or unsupported now; take them off pending"


@pytest.mark.parametrize("namespace", sorted(listed_unsupported()))
def test_unsupported_names_are_mindspore_names_and_raise_naming_themselves(namespace: str) -> None:
    names = mindspore_names()[namespace]
    module = cellonnx_module(namespace)
    for name, reason in listed_unsupported()[namespace].items():
        assert name in names, f"{namespace}.{name} is not a MindSpore 2.10 name"
        assert reason, f"{namespace}.{name}: no reason given"
        assert status(namespace, name) == "unsupported", f"{namespace}.{name} is listed but also implemented"
        with pytest.raises(UnsupportedError, match=rf"{namespace}\.{name} is not available in cellonnx: "):
            getattr(module, name)()
