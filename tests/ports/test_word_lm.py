"""MXNet's Gluon word language model (example/gluon/word_language_model/model.py, vendored byte-for-byte:
tests/ports/vendored.json), ported by changing its import lines only, against real MXNet 1.9.1.

For each case of networks_word_lm.py (lstm, gru, rnn_tanh, rnn_relu, lstm with tied weights): 1.x
parameter names and save_parameters keys, ``begin_state``, the eager forward from a given state and from
begin_state's zeros, train.py's training step twice (gluon.Trainer SGD, loss scaled by bptt * batch,
``clip_global_norm``), the same loop hybridized (one compiled training graph for every step and the
shorter last batch), the hybridized forward at batch 2 and 1 (other states: the same graph), ``export``
with a dynamic batch run by onnxruntime at batch 1 and 2, and mx.contrib.amp's ``convert_hybrid_block``
(lstm); everything compared with the fixtures tests/fixtures/mxnet/gen_word_lm.py wrote with MXNet 1.9.1
from the same file. The file is the same on MXNet's 1.9.1 and 2.x lines (vendored.json), so
each case covers both.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.ort_session import cpu_session
from tests.ports import checks, wheels
from tests.ports import networks_word_lm as lm
from tests.ports.checks import GRAD_TOL, OUT_TOL
from tests.tolerance import assert_close

CASES = list(lm.CASES)


def fixture(case: str) -> dict[str, np.ndarray]:
    return checks.fixture("mxnet", f"word_lm_{case}")


def module(importer: Any) -> Any:
    return importer(f"{wheels.manifest()[lm.PACKAGE]['import_root']}.{lm.MODULE}")


def structural(net: Any) -> dict[str, Any]:
    """The parameters by the keys save_parameters writes (MXNet 1.x's for a 1.x model)."""
    from cellonnx.gluon.rnn.rnn_layer import unfused_key

    return {unfused_key(block, key, local): p for key, block, local, p in net._walk()}


def build(case: str, importer: Any) -> Any:
    import cellonnx.mxnet as mx

    return lm.build(module(importer), mx, case, structural)


def run(net: Any, case: str, batch: int = lm.BATCH, zero: bool = False) -> list[np.ndarray]:
    """The outputs (decoded, then the state arrays) on the case's last block of tokens, the first ``batch``
    samples (the batch axis is 1: time-major tokens, states (layers, batch, hidden))."""
    import cellonnx.mxnet as mx

    d = lm.data(case)
    x = mx.nd.array(d["tokens"][lm.STEPS][:, :batch])
    hidden = net.begin_state(func=mx.nd.zeros, batch_size=batch) if zero else \
        [mx.nd.array(h[:, :batch]) for h in d["hidden"]]
    decoded, hidden = net(x, hidden)
    return [decoded.asnumpy(), *[h.asnumpy() for h in hidden]]


def expected(want: dict[str, np.ndarray], stage: str, batch: int = lm.BATCH) -> list[np.ndarray]:
    """The fixture's outputs of ``stage`` for the first ``batch`` samples (decoded rows are time-major)."""
    out = checks.outputs(want, stage)
    decoded = out[0].reshape(lm.BPTT, lm.BATCH, -1)[:, :batch].reshape(lm.BPTT * batch, -1)
    return [decoded, *[h[:, :batch] for h in out[1:]]]


def compare(got: list[np.ndarray], want: list[np.ndarray], what: str) -> None:
    assert len(got) == len(want), f"{what}: {len(got)} outputs, MXNet 1.9.1 gives {len(want)}"
    for i, (g, w) in enumerate(zip(got, want)):
        assert_close(g, w, **OUT_TOL, what=f"{what} output {i}")


@pytest.mark.parametrize("case", CASES)
def test_names_and_begin_state(case: str, importer: Any) -> None:
    import cellonnx.mxnet as mx

    net = build(case, importer)
    want = fixture(case)
    params = net.collect_params()
    assert list(params) == want["names"].tolist()
    assert [str(tuple(p.shape)) for p in params.values()] == want["shapes"].tolist()
    assert list(structural(net)) == want["structural"].tolist()
    begin = net.begin_state(func=mx.nd.zeros, batch_size=lm.BATCH)
    assert [tuple(b.shape) for b in begin] == [tuple(want[f"begin/{i}"]) for i in range(len(begin))]
    assert all(float(abs(b).sum().asscalar()) == 0 for b in begin)


@pytest.mark.parametrize("case", CASES)
def test_eval_forward(case: str, importer: Any) -> None:
    net = build(case, importer)
    want = fixture(case)
    compare(run(net, case), expected(want, "eval"), f"{case} eval")
    compare(run(net, case, zero=True), expected(want, "zero"), f"{case} eval from begin_state")


@pytest.mark.parametrize("case", CASES)
def test_train_steps(case: str, importer: Any) -> None:
    """train.py's loop body twice: losses, the norms clip_global_norm returns, every parameter after the
    steps (tied weights stay one array) and the outputs then."""
    import cellonnx.mxnet as mx

    net = build(case, importer)
    want = fixture(case)
    got = lm.train_steps(net, mx, case)
    assert_close(got["train/loss"], want["train/loss"], **OUT_TOL, what=f"{case} losses")
    assert_close(got["train/norm"], want["train/norm"], **GRAD_TOL, what=f"{case} gradient norms")
    params = structural(net)
    for key in (k for k in want if k.startswith("param/")):
        assert_close(params[key[6:]].data().asnumpy(), want[key], **GRAD_TOL,
                     what=f"{case} {key[6:]} after two steps")
    compare(run(net, case), expected(want, "after"), f"{case} eval after two steps")


def last_batch_step(net: Any, case: str, batch: int = 1) -> tuple[float, Any]:
    """train.py's loop body once more on the first ``batch`` samples (an epoch's shorter last batch): the
    loss and the outputs (decoded, then the states)."""
    import cellonnx.mxnet as mx

    d = lm.data(case)
    trainer = mx.gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": lm.LR, "momentum": 0, "wd": 0})
    hidden = [mx.nd.array(h[:, :batch]).detach() for h in d["hidden"]]
    with mx.autograd.record():
        output, hidden = net(mx.nd.array(d["tokens"][lm.STEPS][:, :batch]), hidden)
        L = mx.gluon.loss.SoftmaxCrossEntropyLoss()(
            output, mx.nd.array(d["targets"][lm.STEPS][:, :batch]).reshape((-1, 1))) / (lm.BPTT * batch)
        L.backward()
    mx.gluon.utils.clip_global_norm([p.grad() for p in net.collect_params().values()], lm.CLIP)
    trainer.step(1)
    return float(mx.nd.sum(L).asscalar()), [output.asnumpy(), *[h.asnumpy() for h in hidden]]


@pytest.mark.parametrize("case", CASES)
def test_hybridized_train_steps(case: str, importer: Any) -> None:
    """train.py's loop with the model hybridized: its forward and backward run as onnxruntime graphs that
    take the detached states as inputs, so one trace serves every step, the shorter last batch included;
    losses, gradient norms and parameters equal MXNet 1.9.1's and the eager loop's."""
    import cellonnx.mxnet as mx
    from cellonnx.gluon.hybrid_train import CompiledTraining

    want = fixture(case)
    nets = [build(case, importer) for _ in range(2)]
    nets[1].hybridize()
    got = [lm.train_steps(net, mx, case) for net in nets]
    for key in ("train/loss", "train/norm"):
        tol = OUT_TOL if key == "train/loss" else GRAD_TOL
        assert_close(got[1][key], want[key], **tol, what=f"{case} hybridized {key} vs MXNet 1.9.1")
        assert_close(got[1][key], got[0][key], **tol, what=f"{case} hybridized {key} vs eager")
    params = [structural(net) for net in nets]
    for key in (k for k in want if k.startswith("param/")):
        assert_close(params[1][key[6:]].data().asnumpy(), want[key], **GRAD_TOL,
                     what=f"{case} hybridized {key[6:]} after two steps")
    last = [last_batch_step(net, case) for net in nets]
    assert_close(np.array(last[1][0]), np.array(last[0][0]), **OUT_TOL, what=f"{case} last batch loss")
    compare(last[1][1], last[0][1], f"{case} last batch outputs")
    for key, p in params[1].items():
        assert_close(p.data().asnumpy(), params[0][key].data().asnumpy(), **GRAD_TOL,
                     what=f"{case} {key} after the last batch")
    graphs = [c for c in nets[1]._compiled.values() if isinstance(c, CompiledTraining)]
    assert [(g.forward_runs, g.backward_runs) for g in graphs] == [(lm.STEPS + 1, lm.STEPS + 1)], \
        f"{case}: one trace for {lm.STEPS + 1} steps of two batch sizes"


@pytest.mark.parametrize("case", CASES)
def test_hybridized_forward(case: str, importer: Any) -> None:
    net = build(case, importer)
    want = fixture(case)
    net.hybridize()
    for batch in (2, 1):
        compare(run(net, case, batch), expected(want, "hybrid", batch), f"{case} hybridized at batch {batch}")
    # other state values are inputs of the same graph, not a new compilation
    compare(run(net, case, zero=True), expected(want, "zero"), f"{case} hybridized from begin_state")
    assert len(net._compiled) == 2, f"{case}: {len(net._compiled)} compiled graphs for two batch sizes"


@pytest.mark.parametrize("case", CASES)
def test_export_dynamic_batch(case: str, importer: Any, tmp_path: Path) -> None:
    import onnx

    net = build(case, importer)
    want = fixture(case)
    net.hybridize()
    run(net, case, 1)
    path = net.export(str(tmp_path / case))
    onnx.checker.check_model(onnx.load(path), full_check=True)
    names = {t.name for t in onnx.load(path).graph.initializer}
    assert names & set(want["names"].tolist()), f"{case}: no initializer carries MXNet's parameter names"
    session = cpu_session(path)
    feeds = [i.name for i in session.get_inputs()]
    assert len(feeds) == 1 + lm.states(case), f"{case}: the tokens and each state array are graph inputs"
    d = lm.data(case)
    for batch in (1, 2):
        arrays = [d["tokens"][lm.STEPS][:, :batch], *[h[:, :batch] for h in d["hidden"]]]
        got = session.run(None, dict(zip(feeds, arrays)))
        compare(got, expected(want, "eval", batch), f"{case} onnxruntime at batch {batch}")


def test_amp_convert_hybrid_block(importer: Any) -> None:
    """mx.contrib.amp.convert_hybrid_block (bfloat16) of the hybridized lstm model: MXNet 1.9.1's converted
    graph node for node (variables' attributes aside; inputs data0..2, the states flattened), parameter
    types, and the converted block's outputs to bfloat16's precision."""
    import json

    import cellonnx.mxnet as mx
    from cellonnx.mxnet.contrib import amp

    want = json.loads((checks.FIXTURES / "mxnet" / "ports" / "word_lm_amp.json").read_text())
    net = build("lstm", importer)
    net.hybridize()
    run(net, "lstm")
    out = amp.convert_hybrid_block(net, target_dtype="bfloat16", ctx=mx.cpu())
    nodes = [[n["op"], n["name"], n.get("attrs", {}), n["inputs"]]
             for n in json.loads(out.symbol.tojson(remove_amp_cast=False))["nodes"]]
    assert nodes == [[op, name, {} if op == "null" else attrs, inputs]
                     for op, name, attrs, inputs in want["nodes"]]
    assert out._input_names == want["inputs"]
    assert {k: np.dtype(p.data().dtype).name for k, p in out.collect_params().items()} == want["params"]
    d = lm.data("lstm")
    got = out(mx.nd.array(d["tokens"][lm.STEPS]), *[mx.nd.array(h) for h in d["hidden"]])
    for i, (g, w) in enumerate(zip(got, expected(fixture("lstm"), "eval"))):
        assert_close(g.asnumpy(), w, rtol=2.0 ** -6, scale_rtol=2.0 ** -6, what=f"bfloat16 lstm output {i}")
