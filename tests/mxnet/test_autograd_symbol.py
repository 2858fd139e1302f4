"""mx.autograd.get_symbol against MXNet 1.9.1 (fixtures from gen_autograd_symbol.py): the recorded
computation's arguments, outputs and operators, and its value (eval) equal to the recorded result.

MXNet numbers ``var<i>`` / ``node_<i>`` with counters global to the process; here they count from 0 for
each symbol, so names are compared after renumbering from 0."""
from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

import cellonnx.mxnet as mx
from tests.mxnet.autograd_symbol_cases import CASES, inputs
from tests.tolerance import assert_close

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet"
WANT = json.loads((FIXTURES / "autograd_symbol.json").read_text())
VALUES = np.load(FIXTURES / "autograd_symbol.npz")


def renumbered(names: list[str], prefix: str) -> list[str]:
    numbers = [int(re.search(r"\d+", n).group()) for n in names]
    low = min(numbers)
    return [re.sub(r"\d+", str(k - low), n, count=1) for n, k in zip(names, numbers)]


@pytest.mark.parametrize("case", list(CASES))
def test_get_symbol_matches_mxnet(case):
    fn, _ = CASES[case]
    arrays = [mx.nd.array(a) for a in inputs(case)]
    for a in arrays:
        a.attach_grad()
    with mx.autograd.record():
        out = fn(mx, *arrays)
    sym = mx.autograd.get_symbol(out)
    want = WANT[case]
    assert sym.list_arguments() == renumbered(want["arguments"], "var")
    first_node = int(re.search(r"\d+", want["outputs"][0]).group()) - len(want["ops"]) + 1
    assert sym.list_outputs() == [f"node_{int(re.search(r'[0-9]+', want['outputs'][0]).group()) - first_node}"
                                  "_output"]
    assert [n["op"] for n in json.loads(sym.tojson())["nodes"] if n["op"] != "null"] == want["ops"]
    value = sym.eval(**dict(zip(sym.list_arguments(), arrays)))[0].asnumpy()
    assert_close(value, VALUES[case], rtol=1e-5)
    assert_close(out.asnumpy(), VALUES[f"{case}/recorded"], rtol=1e-5)


def test_get_symbol_of_an_unrecorded_array_is_an_error():
    a = mx.nd.array([1.0, 2.0])
    with mx.autograd.record():
        b = a * 2
    with pytest.raises(mx.base.MXNetError, match="not part of a computation graph"):
        mx.autograd.get_symbol(b)
