"""mx.mon.Monitor on a Module: toc()'s entries (names, order, statistics) for a training batch against real
MXNet 1.9.1 (tests/fixtures/mxnet/monitor.json, written by gen_monitor.py from monitor_cases.py): the
forward operators' outputs (BatchNorm's mean and var too), the backward nodes' outputs, then the arguments
and auxiliary states after the update; with monitor_all, every operator's inputs too."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import cellonnx.mxnet as mx
from tests.mxnet import monitor_cases

WANT = json.loads((Path(__file__).resolve().parents[1] / "fixtures" / "mxnet" / "monitor.json").read_text())

# gradients of inputs that need none (the label, the data: MXNet's request is kNullOp), which MXNet's backward
# nodes leave unwritten: their statistic is whatever the buffer held
_UNWRITTEN = {"softmax_backward_output1", "fc1_backward_output0"}


@pytest.mark.parametrize("case_id", list(monitor_cases.CASES))
def test_toc_matches_mxnet(case_id: str) -> None:
    got = monitor_cases.run(mx, case_id)
    want = WANT[case_id]
    assert [(s, n) for s, n, _ in got] == [(s, n) for s, n, _ in want], case_id
    for (_, name, text), (_, _, want_text) in zip(got, want):
        assert text.endswith("\t")
        if name in _UNWRITTEN:
            continue
        np.testing.assert_allclose(float(text), float(want_text), rtol=2e-5, atol=1e-6,
                                   err_msg=f"{case_id}: {name}")


def test_backward_entries_are_the_nodes_partial_gradients() -> None:
    """A value used twice: each node's backward output is its own share, the argument's gradient the sum."""
    data = mx.sym.var("data")
    w = mx.sym.var("w")
    out = mx.sym.broadcast_mul(data, w, name="left") + mx.sym.broadcast_mul(data, w * 3, name="right")
    exe = out.simple_bind(mx.cpu(), data=(2,), w=(2,))
    seen: dict[str, np.ndarray] = {}
    exe.set_monitor_callback(lambda name, arr: seen.__setitem__(name, arr.asnumpy()))
    exe.arg_dict["data"][:] = np.array([1.0, 2.0])
    exe.arg_dict["w"][:] = np.array([0.5, -1.0])
    exe.forward(is_train=True)
    exe.backward(mx.nd.ones((2,)))
    np.testing.assert_allclose(seen["left_backward_output1"], [1.0, 2.0])
    np.testing.assert_allclose(seen["right_backward_output1"], [1.0, 2.0])
    np.testing.assert_allclose(exe.grad_dict["w"].asnumpy(), [4.0, 8.0])
