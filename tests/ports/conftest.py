"""The ported packages: the files of sources.json, read from their verified wheels, ported by port.py into a
temporary directory that is put first on sys.path (each xdist worker ports its own copy); and the porting
suites' tests in network order."""
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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The porting suites' tests network by network (a network's aspects in the file's order, then the next
    network's): pytest-xdist hands each worker consecutive tests, so one worker builds a network once
    (test_ports.build, test_ports_mxnet.build) and exports the network its hybridized test compiled
    (test_ports_mxnet.hybridized), where the files' order (aspect by aspect) had each worker build every
    network."""
    from tests.ports import networks, networks_mxnet

    suites = (("test_ports.py", networks.NETWORKS), ("test_ports_mxnet.py", networks_mxnet.NETWORKS))
    for file, nets in suites:
        order = {name: i for i, name in enumerate(nets)}
        at = [i for i, item in enumerate(items) if item.path.name == file and item.path.parent.name == "ports"
              and getattr(item, "callspec", None) is not None and item.callspec.params.get("name") in order]
        ordered = sorted((items[i] for i in at), key=lambda item: order[item.callspec.params["name"]])
        for i, item in zip(at, ordered):
            items[i] = item
