"""Hybridized Gluon recurrent blocks training under ``autograd.record()`` + ``Trainer.step``
(tests/gluon/hybrid_rnn_cases.py: gluon.rnn LSTM / GRU / RNN layers and a model taking its states as one list
argument): the states are graph inputs, so one traced pair of graphs serves every step whatever the states'
values, the shorter last batch included (its batch axis is dynamic); the gradients of the parameters and of
the begin states, the losses, the parameters and the states after four steps equal the eager loop's and
MXNet 1.9.1's (tests/fixtures/mxnet/gen_hybrid_rnn_train.py, hybridized there too). Another sequence
length traces again (the recurrent gradients unroll over the traced length) and gives the eager results."""
from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
import pytest

import cellonnx.mxnet as mx
from cellonnx.gluon import naming
from cellonnx.gluon.hybrid_train import CompiledTraining
from tests.gluon import hybrid_rnn_cases as cases
from tests.tolerance import assert_close

MXNET = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet" / "hybrid_rnn_train" / "expected.npz"
TOL = {"loss": (1e-4, 1e-5), "state": (1e-4, 1e-5), "param": (1e-4, 1e-5), "grad": (1e-3, 1e-4),
       "dstate": (1e-3, 1e-4)}


def tolerance(key: str) -> tuple[float, float]:
    return TOL[key.rstrip("0123456789")]


@pytest.fixture(scope="module")
def mxnet() -> dict[str, np.ndarray]:
    return dict(np.load(MXNET))


@pytest.mark.parametrize("case", list(cases.CASES))
def test_trajectory_equals_eager_and_mxnet(case: str, mxnet: dict[str, np.ndarray],
                                           caplog: pytest.LogCaptureFixture) -> None:
    with naming.mode("1.x"):  # MXNet 1.9.1's parameter names
        _, eager = cases.train(mx, case, hybrid=False)
        with caplog.at_level(logging.DEBUG, logger="cellonnx.gluon.hybrid"):
            net, hybrid = cases.train(mx, case, hybrid=True)
    want = {k.split("/", 1)[1]: v for k, v in mxnet.items() if k.startswith(f"{case}/")}
    assert hybrid["names"].tolist() == want["names"].tolist(), f"{case}: collect_params() names"
    assert sorted(hybrid) == sorted(eager) == sorted(want)
    for key in (k for k in want if k != "names"):
        rtol, scale = tolerance(key)
        assert_close(hybrid[key], eager[key], rtol, scale, what=f"{case} {key}: hybridized vs eager")
        assert_close(hybrid[key], want[key], rtol, scale, what=f"{case} {key}: hybridized vs MXNet 1.9.1")
    graphs = [c for c in net._compiled.values() if isinstance(c, CompiledTraining)]
    # the first step differentiates the begin states (attach_grad), the next three (detached, the last one
    # on a shorter batch) run one graph
    assert [(g.forward_runs, g.backward_runs) for g in graphs] == [(1, 1), (cases.STEPS - 1,) * 2], case
    traced = [r for r in caplog.records if "tracing the training graphs" in r.getMessage()]
    assert len(traced) == 2, f"{case}: {len(traced)} traces for {cases.STEPS} steps"


def test_state_values_are_graph_inputs() -> None:
    """Other state values (begin_state's zeros, a previous step's output) feed the same graph: its
    inputs are the data and each state array, none of them folded into the graph as a constant."""
    net = cases.build(mx, "model_lstm")
    net.hybridize()
    x = mx.nd.array(cases.data("model_lstm")["x"][0])
    for hidden in (net.begin_state(batch_size=3), [mx.nd.ones((2, 3, cases.H)), mx.nd.ones((2, 3, cases.H))]):
        with mx.autograd.record():
            out, hidden = net(x, hidden)
        out.backward()
    (graph,) = net._compiled.values()
    names = [i.name for i in graph.graphs.forward.graph.input]
    assert [n for n, _ in graph.graphs.data_inputs] == ["input_0", "input_1", "input_2"]
    assert {"input_0", "input_1", "input_2"} <= set(names)
    assert graph.forward_runs == 2


def test_static_shape_traces_each_batch_size_again() -> None:
    net = cases.build(mx, "lstm")
    net.hybridize(static_shape=True)
    x = cases.data("lstm")["x"][0]
    for batch in (3, 3, 2):
        hidden = net.begin_state(batch_size=batch)
        with mx.autograd.record():
            out, _ = net(mx.nd.array(x[:, :batch]), hidden)
        out.backward()
    assert sorted(c.forward_runs for c in net._compiled.values()) == [1, 2]


@pytest.mark.parametrize("case", ["lstm", "gru", "rnn_tanh", "lstm_ntc_bidirectional", "model_gru"])
def test_another_sequence_length_traces_again(case: str) -> None:
    _, layout, width = cases.CASES[case]
    runs = []
    for hybrid in (False, True):
        net = cases.build(mx, case)
        if hybrid:
            net.hybridize()
        got = []
        for k, (steps, batch) in enumerate(((4, 3), (2, 3), (4, 2), (6, 1))):
            shape = (steps, batch, cases.C) if layout == "TNC" else (batch, steps, cases.C)
            x = mx.nd.array(cases.value(40 + k, shape, 1.0))
            hidden = [mx.nd.array(cases.value(50 + j, s.shape)) for j, s in
                      enumerate(net.begin_state(batch_size=batch))]
            for h in hidden:
                h.attach_grad()
            with mx.autograd.record():
                out, new = net(x, hidden)
                loss = (out * out).sum() + sum((h * h).sum() for h in new)
            loss.backward()
            got += [loss.asnumpy(), *[h.grad.asnumpy() for h in hidden],
                    *[p.grad().asnumpy() for p in net.collect_params().values()]]
        runs.append(got)
        if hybrid:
            assert sorted(c.forward_runs for c in net._compiled.values()) == [1, 1, 2], \
                f"{case}: lengths 4, 2 and 6 each traced once, batch 3 and 2 of length 4 one graph"
    assert out.shape[-1] == width
    for i, (g, w) in enumerate(zip(runs[1], runs[0])):
        assert_close(g, w, 1e-4, 1e-5, what=f"{case} value {i}: hybridized vs eager")
