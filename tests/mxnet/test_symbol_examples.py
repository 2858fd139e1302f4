"""The docstring examples of mx.sym's operators print what real MXNet 1.9.1 prints for the same code: MXNet
ran every one (tests/fixtures/mxnet/gen_symbol_examples.py, with ``import mxnet as mx``) and recorded that its
output matched; the examples themselves run here in tests/docs. Only cellonnx's NumPy-style names that
MXNet 1.9.1's mx.sym lacks (``mx.sym.add`` ...) have no MXNet run."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from cellonnx.mxnet.symbol import _GRAPH_ALIASES
from cellonnx.mxnet.symbol.examples import EXAMPLES

RECORDED = json.loads((Path(__file__).resolve().parents[1] / "fixtures" / "mxnet" /
                       "symbol_examples.json").read_text())


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_example_output_is_mxnets(name: str) -> None:
    entry = RECORDED.get(name)
    assert entry is not None, f"{name}: no MXNet run recorded; run tests/fixtures/mxnet/gen_symbol_examples.py"
    assert entry["digest"] == hashlib.sha256(EXAMPLES[name].encode()).hexdigest()[:16], (
        f"{name}: the example changed since MXNet ran it; run tests/fixtures/mxnet/gen_symbol_examples.py")
    if entry["status"] == "absent":
        assert name in _GRAPH_ALIASES, f"{name}: MXNet 1.9.1's mx.sym has no {name}, and cellonnx says it should"
        return
    assert entry["status"] == "passed", f"{name}: MXNet 1.9.1 printed otherwise:\n{entry.get('report')}"
