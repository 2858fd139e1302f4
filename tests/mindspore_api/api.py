"""MindSpore 2.10's public names (tests/fixtures/mindspore/names.json, dumped from real MindSpore by
gen_names.py) and where each stands in cellonnx: implemented, listed unsupported (cellonnx/unsupported.py),
or pending (pending/<namespace>.txt, the committed record of what is still to do)."""
from __future__ import annotations

import importlib
import json
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from cellonnx.unsupported import UNSUPPORTED, Unsupported

ROOT = Path(__file__).resolve().parents[2]
NAMES_FILE = ROOT / "tests" / "fixtures" / "mindspore" / "names.json"
PENDING = Path(__file__).resolve().parent / "pending"

# the MindSpore namespaces checked, each with the cellonnx module standing for it
NAMESPACES = {
    "mindspore": "cellonnx",
    "mindspore.common": "cellonnx.common",
    "mindspore.common.dtype": "cellonnx.common.dtype",
    "mindspore.common.initializer": "cellonnx.common.initializer",
    "mindspore.nn": "cellonnx.nn",
    "mindspore.numpy": "cellonnx.numpy",
    "mindspore.ops": "cellonnx.ops",
    "mindspore.ops.composite": "cellonnx.ops.composite",
    "mindspore.ops.functional": "cellonnx.ops.functional",
    "mindspore.ops.operations": "cellonnx.ops.operations",
    "mindspore.train": "cellonnx.train",
}


@cache
def mindspore_names_file() -> dict[str, Any]:
    return json.loads(NAMES_FILE.read_text())


def mindspore_names() -> dict[str, dict[str, dict[str, Any]]]:
    return mindspore_names_file()["namespaces"]


def cellonnx_module(namespace: str) -> ModuleType | None:
    try:
        return importlib.import_module(NAMESPACES[namespace])
    except ModuleNotFoundError:
        return None


def status(namespace: str, name: str) -> str:
    """'implemented', 'unsupported' or 'absent'."""
    module = cellonnx_module(namespace)
    if module is None:
        return "absent"
    try:
        obj = getattr(module, name)
    except AttributeError:
        return "absent"
    if isinstance(obj, type) and issubclass(obj, Unsupported):
        return "unsupported"
    return "implemented"


def pending(namespace: str) -> set[str]:
    path = PENDING / f"{namespace}.txt"
    if not path.exists():
        return set()
    lines = (line.strip() for line in path.read_text().splitlines())
    return {line for line in lines if line and not line.startswith("#")}


def coverage() -> dict[str, dict[str, int]]:
    """Per namespace: how many names are implemented, unsupported and absent."""
    out = {}
    for namespace in NAMESPACES:
        counts = {"implemented": 0, "unsupported": 0, "absent": 0}
        for name in mindspore_names()[namespace]:
            counts[status(namespace, name)] += 1
        out[namespace] = counts
    return out


def listed_unsupported() -> dict[str, dict[str, str]]:
    return UNSUPPORTED
