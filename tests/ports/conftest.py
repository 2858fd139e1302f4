"""The ported packages: the files of sources.json, read from their verified wheels, ported by port.py into a
temporary directory that is put first on sys.path (each xdist worker ports its own copy)."""
from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.ports import port, wheels


def port_member(entry: dict[str, Any], member: str, text: str) -> str:
    """One file of a wheel, ported by the rule of the framework its package is written for."""
    if not member.endswith(".py"):
        return text
    rule = port.rule_for(entry.get("framework", "mindspore"), member, entry["files"])
    return port.port_file(text, member, rule)


@pytest.fixture(scope="session")
def ported(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The directory holding the ported packages, importable while the session lasts."""
    root = tmp_path_factory.mktemp("ported")
    wheels.extract(list(wheels.manifest()), root, transform=port_member)
    sys.path.insert(0, str(root))
    importlib.invalidate_caches()
    yield root
    sys.path.remove(str(root))


@pytest.fixture(scope="session")
def importer(ported: Path) -> Any:
    """importlib.import_module for the ported packages."""
    return importlib.import_module
