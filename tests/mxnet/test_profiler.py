"""mx.profiler: a profile of cellonnx's operators in the Chrome trace layout MXNet 1.9.1 writes (its
``dump`` of the same kind of session, recorded in tests/fixtures/mxnet/module/profile_mxnet.json: the
top-level keys, the metadata, operator, task, counter and marker event fields), and the statistics table."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import cellonnx.mxnet as mx

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet" / "module" / "profile_mxnet.json"


def _session(tmp_path: Path) -> dict:
    mx.profiler.set_config(profile_all=True, filename=str(tmp_path / "p.json"), aggregate_stats=True)
    mx.profiler.dumps(reset=True)
    mx.profiler.set_state("run")
    a = mx.nd.ones((2, 3))
    (a * 2 + 1).sum()
    domain = mx.profiler.Domain("dom")
    task = mx.profiler.Task(domain, "task")
    task.start()
    task.stop()
    counter = mx.profiler.Counter(domain, "cnt", 5)
    counter += 2
    mx.profiler.Marker(domain, "mark").mark()
    mx.profiler.pause()
    (a * 3).sum()  # not recorded
    mx.profiler.resume()
    with mx.profiler.scope("net"):
        a + 1
    mx.profiler.set_state("stop")
    mx.profiler.dump()
    return json.loads((tmp_path / "p.json").read_text())


def test_trace_has_mxnets_layout(tmp_path: Path) -> None:
    got = _session(tmp_path)
    want = json.loads(FIXTURE.read_text())
    assert sorted(got) == sorted(want) and got["displayTimeUnit"] == want["displayTimeUnit"]

    def kinds(trace: dict) -> dict:
        out = {}
        for e in trace["traceEvents"]:
            key = (e["ph"], e.get("cat", "") if e["ph"] != "M" else "meta")
            out.setdefault(key, set(e))
        return out

    mine, theirs = kinds(got), kinds(want)
    for key in (("M", "meta"), ("B", "operator"), ("E", "operator"), ("b", "dom"), ("e", "dom"), ("C", "dom"),
                ("n", "dom,instant_marker")):
        assert key in mine and mine[key] == theirs[key], key
    ops = [e for e in got["traceEvents"] if e.get("cat") == "operator"]
    names = [e["name"] for e in ops if e["ph"] == "B"]
    assert names.count("net:Add") == 1 and len(ops) % 2 == 0
    assert all(b["ts"] <= e["ts"] for b, e in zip(ops[::2], ops[1::2]))
    counters = [e["args"]["cnt"] for e in got["traceEvents"] if e["ph"] == "C"]
    assert counters == [5, 7]


def test_statistics_table(tmp_path: Path) -> None:
    _session(tmp_path)
    table = mx.profiler.dumps(reset=True)
    assert table.startswith("\nProfile Statistics:\n\tNote the difference in units for different entries.")
    assert "operator\n=================\nName                          Total Count        Time (ms)" in table
    assert "\ndom\n" in table and "\ntask                                    1" in table
    assert json.loads(mx.profiler.dumps(format="json"))["Unit"] == {"Time": "ms"}
    with pytest.raises(ValueError, match="state must be"):
        mx.profiler.set_state("go")
    with pytest.raises(ValueError, match="unknown setting"):
        mx.profiler.set_config(nope=1)
