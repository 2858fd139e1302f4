"""Gradients through F.contrib.foreach / while_loop / cond in hybridized blocks under autograd.record():
outputs and every parameter's and input's gradient equal real MXNet 1.9.1's (rows: flow_grad_cases.py;
fixture: tests/fixtures/mxnet/flow_grad.npz from gen_flow_grad.py), eager and hybridized; the exported ONNX
of the same block (no gradient traced) still holds one Scan / Loop / If."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import onnx
import onnxruntime as ort
import pytest

import cellonnx
import cellonnx.mxnet as mx
from tests.mxnet import flow_grad_cases
from tests.tolerance import assert_close

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet" / "flow_grad.npz"
WANT = dict(np.load(FIXTURE))
IDS = [c[0] for c in flow_grad_cases.CASES]


def _net(make: Any, inputs: list[np.ndarray]) -> Any:
    net = make(mx)
    net.initialize()
    net(*[mx.nd.array(x) for x in inputs])
    for k, p in enumerate(net.collect_params().values()):
        p.set_data(mx.nd.array(flow_grad_cases.initial(k, p.shape)))
    return net


def _want(case_id: str) -> list[np.ndarray]:
    return [WANT[f"{case_id}__{i}"] for i in range(int(WANT[f"{case_id}__n"]))]


@pytest.mark.parametrize("hybrid", [False, True], ids=["eager", "hybridized"])
@pytest.mark.parametrize("case", flow_grad_cases.CASES, ids=IDS)
def test_gradients_equal_mxnet(case: tuple, hybrid: bool) -> None:
    case_id, make, inputs = case
    net = _net(make, inputs)
    if hybrid:
        net.hybridize()
    got = flow_grad_cases.run(mx, net, inputs)
    want = _want(case_id)
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        assert g.shape == w.shape, (case_id, i)
        assert_close(g, w, rtol=1e-5, scale_rtol=1e-6, what=f"{case_id} array {i}")


def test_cond_branch_follows_each_call() -> None:
    """One hybridized block called on inputs taking either branch: each call's gradients are its branch's."""
    rows = {c[0]: c for c in flow_grad_cases.CASES}
    net = _net(rows["cond_then"][1], rows["cond_then"][2])
    net.hybridize()
    for case_id in ("cond_then", "cond_else", "cond_then"):
        got = flow_grad_cases.run(mx, net, rows[case_id][2])
        for g, w in zip(got, _want(case_id)):
            assert_close(g, w, rtol=1e-5, scale_rtol=1e-6, what=case_id)


@pytest.mark.parametrize("case_id,node", [("foreach_rnn", "Scan"), ("foreach_lists", "Scan"),
                                          ("while_counted", "Loop"), ("cond_then", "If")])
def test_export_keeps_control_flow_node(case_id: str, node: str, tmp_path: Path) -> None:
    """After training calls, the inference export is the loop / branch node, run by onnxruntime."""
    _, make, inputs = next(c for c in flow_grad_cases.CASES if c[0] == case_id)
    net = _net(make, inputs)
    net.hybridize()
    flow_grad_cases.run(mx, net, inputs)
    with mx.autograd.pause():
        out = net(*[mx.nd.array(x) for x in inputs])
    want = [o.asnumpy() for o in (out if isinstance(out, (list, tuple)) else [out])]
    path = tmp_path / f"{case_id}.onnx"
    specs = [cellonnx.Tensor(shape=x.shape, dtype=cellonnx.float32) for x in inputs]
    cellonnx.export(net, *specs, file_name=str(path), file_format="ONNX")
    model = onnx.load(str(path))
    onnx.checker.check_model(model, full_check=True)
    assert [n.op_type for n in model.graph.node].count(node) == 1
    session = ort.InferenceSession(str(path))
    feeds = {i.name: x for i, x in zip(session.get_inputs(), inputs)}
    for g, w in zip(session.run(None, feeds), want):
        assert_close(g, w, rtol=1e-6, scale_rtol=1e-6, what=f"{case_id} onnxruntime")


def test_data_dependent_while_loop_trains_hybridized() -> None:
    """A while_loop whose condition reads the data, hybridized under autograd.record(): one compiled graph
    serves inputs taking different step counts, with the eager block's outputs and gradients."""
    rows = flow_grad_cases.DATA_WHILE
    net = _net(rows[0][1], rows[0][2])
    eager = [flow_grad_cases.run(mx, net, inputs) for _, _, inputs in rows]
    steps = {float(e[1][0]) for e in eager}
    assert len(steps) == 2, steps
    net.hybridize()
    for (case_id, _, inputs), want in zip(rows + rows[:1], eager + eager[:1]):
        got = flow_grad_cases.run(mx, net, inputs)
        for i, (g, w) in enumerate(zip(got, want)):
            assert_close(g, w, rtol=1e-5, scale_rtol=1e-6, what=f"{case_id} array {i}")


def test_npx_foreach_gradients_equal_mxnet() -> None:
    """MXNet 2.x's npx.foreach in a hybridized Gluon 2 block (mx.np arrays): foreach_rnn's gradients."""
    class NpRNN(mx.gluon.HybridBlock):
        def __init__(self) -> None:
            super().__init__()
            self.i2h = mx.gluon.nn.Dense(4, in_units=3, flatten=False)
            self.h2h = mx.gluon.nn.Dense(4, in_units=4, flatten=False)

        def forward(self, x: Any, h: Any) -> Any:
            def step(d: Any, states: Any) -> Any:
                nh = mx.np.tanh(self.i2h(d) + self.h2h(states[0]))
                return nh * 2, [nh]
            outs, states = mx.npx.foreach(step, x, [h])
            return outs, states[0]

    _, _, inputs = next(c for c in flow_grad_cases.CASES if c[0] == "foreach_rnn")
    net = NpRNN()
    net.initialize()
    for k, p in enumerate(net.collect_params().values()):
        p.set_data(mx.np.array(flow_grad_cases.initial(k, p.shape)))
    net.hybridize()
    arrays = [mx.np.array(x) for x in inputs]
    for a in arrays:
        a.attach_grad()
    with mx.autograd.record():
        outs, state = net(*arrays)
        loss = outs.sum() + (state * 2).sum()
    loss.backward()
    assert isinstance(outs, mx.np.ndarray)
    got = [p.grad().asnumpy() for p in net.collect_params().values()] + [a.grad.asnumpy() for a in arrays]
    for i, (g, w) in enumerate(zip(got, _want("foreach_rnn")[2:])):
        assert_close(g, w, rtol=1e-5, scale_rtol=1e-6, what=f"npx.foreach gradient {i}")
