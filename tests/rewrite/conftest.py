"""nets_rewrite.py (written for MindSpore) ported to cellonnx by rewriting its import lines only."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.ports import port

SOURCE = Path(__file__).resolve().parents[1] / "fixtures" / "mindspore" / "nets_rewrite.py"


@pytest.fixture(scope="session")
def nets(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    """The ported nets_rewrite module (imported from a temporary directory, so rewrite can read its
    source)."""
    path = tmp_path_factory.mktemp("rewrite") / "nets_rewrite_ported.py"
    path.write_text(port.port_file(SOURCE.read_text(), str(SOURCE)))
    spec = importlib.util.spec_from_file_location("nets_rewrite_ported", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
