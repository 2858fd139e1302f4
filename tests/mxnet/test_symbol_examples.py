"""The docstring examples of mx.sym's operators print what real MXNet 1.9.1 prints for the same code: MXNet
ran every one (tests/fixtures/mxnet/gen_symbol_examples.py, with ``import mxnet as mx``) and recorded that its
output matched; the examples themselves run here in tests/docs. Only cellonnx's NumPy-style names that
MXNet 1.9.1's mx.sym lacks (``mx.sym.add`` ...) and the names of examples_update.CELLONNX_ONLY have no MXNet
run. A Symbol MXNet 1.9.1 cannot compose or run (its update operators) is checked through the same call on
mx.nd (examples_update.ND_FORMS): MXNet printed what that form says, and the form says what the Symbol
example says."""
from __future__ import annotations

import doctest
import hashlib
import json
from pathlib import Path

import pytest

from cellonnx.mxnet.symbol import _GRAPH_ALIASES
from cellonnx.mxnet.symbol.examples import EXAMPLES
from cellonnx.mxnet.symbol.examples_update import CELLONNX_ONLY, ND_FORMS, UPDATE_EXAMPLES

RECORDED = json.loads((Path(__file__).resolve().parents[1] / "fixtures" / "mxnet" /
                       "symbol_examples.json").read_text())
ALL = {**EXAMPLES, **UPDATE_EXAMPLES}
_RUN = "run tests/fixtures/mxnet/gen_symbol_examples.py"


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _printed(text: str) -> list[str]:
    return [" ".join(e.want.split()) for e in doctest.DocTestParser().get_examples(text) if e.want]


@pytest.mark.parametrize("name", sorted(ALL))
def test_example_output_is_mxnets(name: str) -> None:
    entry = RECORDED.get(name)
    assert entry is not None, f"{name}: no MXNet run recorded; {_RUN}"
    assert entry["digest"] == _digest(ALL[name]), f"{name}: the example changed since MXNet ran it; {_RUN}"
    if entry["status"] == "absent":
        assert name in _GRAPH_ALIASES, f"{name}: MXNet 1.9.1's mx.sym has no {name}; cellonnx says it should"
        return
    if entry["status"] == "cellonnx-only":
        assert name in CELLONNX_ONLY, f"{name}: recorded as cellonnx-only, which examples_update does not say"
        return
    if name in ND_FORMS:
        return  # test_nd_form_prints_what_the_symbol_example_prints
    assert entry["status"] == "passed", f"{name}: MXNet 1.9.1 printed otherwise:\n{entry.get('report')}"


@pytest.mark.parametrize("name", sorted(ND_FORMS))
def test_nd_form_prints_what_the_symbol_example_prints(name: str) -> None:
    entry = RECORDED.get(name, {})
    assert entry.get("nd_digest") == _digest(ND_FORMS[name]), f"{name}: the mx.nd form changed; {_RUN}"
    assert entry["nd"] == "passed", f"{name}: MXNet's mx.nd printed otherwise:\n{entry.get('nd_report')}"
    assert _printed(ND_FORMS[name]) == _printed(UPDATE_EXAMPLES[name]), (
        f"{name}: the Symbol example and its mx.nd form print different values")
