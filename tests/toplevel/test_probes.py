"""The top-level namespace against real MindSpore 2.10: each probe of tests/fixtures/mindspore/
toplevel_probes.py (dtypes, tensor reprs, signatures, lazy initializers, integer parameters, recompute,
generators, context and devices, jit and its markers, checkpoint conversion) runs with ``cellonnx`` in place
of ``mindspore`` and must print what MindSpore printed (toplevel.json, written by gen_toplevel.py)."""
from __future__ import annotations

import json
import sys
import types
from pathlib import Path

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import context, nn, ops
from cellonnx import dtype as mstype
from cellonnx.common import initializer

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "mindspore"
sys.path.insert(0, str(FIXTURES))
import toplevel_probes  # noqa: E402

WANT = json.loads((FIXTURES / "toplevel.json").read_text())


@pytest.fixture
def restore_state() -> None:
    """The probes set seeds, devices and context keys: put them back."""
    saved = (context.mode, context.device_target, context.device_id, dict(context._extra),
             ms.default_generator.get_state())
    yield
    context.mode, context.device_target, context.device_id = saved[:3]
    context._extra.clear()
    context._extra.update(saved[3])
    ms.default_generator.set_state(saved[4])


@pytest.mark.parametrize("name", list(toplevel_probes.PROBES))
def test_probe_prints_what_mindspore_prints(name: str, tmp_path: Path, restore_state: None) -> None:
    M = types.SimpleNamespace(ms=ms, nn=nn, ops=ops, mstype=mstype, initializer=initializer, np=np,
                              tmp=str(tmp_path))
    got = toplevel_probes.PROBES[name](M)
    want = WANT[name]
    assert len(got) == len(want), f"{name}: {len(got)} rows, MindSpore {len(want)}"
    for k, (g, w) in enumerate(zip(got, want)):
        assert g == w, f"{name} row {k}:\n{g}\nMindSpore printed:\n{w}"


def test_every_probe_was_recorded() -> None:
    assert sorted(set(WANT) - {"version"}) == sorted(toplevel_probes.PROBES)
    assert WANT["version"] == "2.10.0"
