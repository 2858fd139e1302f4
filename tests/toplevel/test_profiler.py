"""ms.Profiler over eager execution (cellonnx/profiler.py): the ops of a training step (forward and
backward) are timed, the files analyse() writes, steps, op_analyse, offline_analyse, and the op registry
left as it was."""
from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import nn, ops
from cellonnx.ops import registry


def _train_steps(prof: ms.Profiler, steps: int) -> None:
    net = nn.Dense(3, 2)
    x = ms.Tensor(np.ones((4, 3), np.float32))
    grad_fn = ms.value_and_grad(lambda v: ops.mean(ops.relu(net(v))), None, net.trainable_params())
    for _ in range(steps):
        grad_fn(x)
        prof.step()


def test_profiler_times_forward_and_backward_ops(tmp_path: Path) -> None:
    before = registry.apply
    prof = ms.Profiler(output_path=str(tmp_path), profile_memory=True)
    assert registry.apply is not before
    _train_steps(prof, 3)
    prof.add_metadata("run", "unit")
    prof.analyse()
    assert registry.apply is before
    folder = tmp_path / "profiler"
    rows = list(csv.DictReader((folder / "op_statistic.csv").open()))
    names = {r["op_name"] for r in rows}
    assert {"Gemm", "Relu"} <= names and len(names) > 3  # forward ops and the gradients' ops
    assert abs(sum(float(r["ratio"]) for r in rows) - 1.0) < 1e-6
    steps = list(csv.DictReader((folder / "step_trace_time.csv").open()))
    assert [int(s["step"]) for s in steps] == [0, 1, 2] and all(float(s["time_us"]) > 0 for s in steps)
    trace = json.loads((folder / "trace_view.json").read_text())
    assert {e["args"]["step"] for e in trace} == {0, 1, 2} and all(e["ph"] == "X" for e in trace)
    meta = json.loads((folder / "profiler_metadata.json").read_text())
    assert meta["run"] == "unit" and meta["options"]["profile_memory"] == "True"
    relu = json.loads(prof.op_analyse("Relu"))
    assert len(relu) == 1 and relu[0]["calls"] == 3


def test_profiler_start_stop_and_context(tmp_path: Path) -> None:
    prof = ms.Profiler(output_path=str(tmp_path), start_profile=False)
    ops.relu(ms.Tensor([1.0]))
    assert prof.events == []
    with prof:
        ops.relu(ms.Tensor([1.0]))
        with pytest.raises(RuntimeError, match="another Profiler"):
            ms.Profiler()
    assert [e[0] for e in prof.events] == ["Relu"] and not prof.is_running
    prof.analyse(step_list=[0])
    ms.Profiler.offline_analyse(str(tmp_path))
    rows = list(csv.DictReader((tmp_path / "profiler" / "op_statistic.csv").open()))
    assert [r["op_name"] for r in rows] == ["Relu"]
