"""mx.sym.histogram against real MXNet 1.9.1 (tests/fixtures/mxnet/gen_sym_histogram.py): the _histogram
node it makes (attributes, output and argument names), its int64 counts and float32 edges, the graph read
back from its JSON, and the symbol-mode error without a range."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import cellonnx.mxnet as mx

FIXTURE = json.loads((Path(__file__).resolve().parents[1] / "fixtures" / "mxnet" / "sym_histogram.json")
                     .read_text())


def _build(a, spec: dict):
    if "edges" in spec:
        return mx.sym.histogram(a, bins=mx.sym.var("b"))
    return mx.sym.histogram(a, bins=spec["bins"], range=tuple(spec["range"]))


def _eval(h, spec: dict) -> list:
    feed = {"a": mx.nd.array(FIXTURE["data"])}
    if "edges" in spec:
        feed["b"] = mx.nd.array(spec["edges"])
    return h.eval(**feed)


@pytest.mark.parametrize("case", sorted(FIXTURE["cases"]))
def test_histogram_matches_mxnet(case: str) -> None:
    want = FIXTURE["cases"][case]
    a = mx.sym.var("a")
    with mx.name.NameManager():
        h = _build(a, want["spec"])
    nodes = [{"op": n["op"], "name": n["name"], "attrs": n.get("attrs", {})}
             for n in json.loads(h.tojson())["nodes"]]
    assert nodes == want["nodes"]
    assert h.list_outputs() == want["outputs"] and h.list_arguments() == want["arguments"]
    for got_sym in (h, mx.sym.load_json(h.tojson())):
        got = _eval(got_sym, want["spec"])
        assert [str(g.asnumpy().dtype) for g in got] == want["dtypes"]
        for g, w in zip(got, want["values"]):
            np.testing.assert_array_equal(g.asnumpy(), np.asarray(w, g.asnumpy().dtype))


def test_histogram_needs_a_range_in_symbol_mode() -> None:
    assert FIXTURE["version"] == "1.9.1"
    with pytest.raises(ValueError) as err:
        mx.sym.histogram(mx.sym.var("a"), bins=3)
    assert str(err.value) == FIXTURE["no_range_error"]
