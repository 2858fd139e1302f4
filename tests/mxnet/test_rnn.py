"""gluon.rnn and the fused RNN operator against real MXNet 1.9.1 (tests/fixtures/mxnet/gen_rnn.py): for each
case of rnn_cases.py, MXNet's collect_params() names and shapes, outputs and states, gradients with respect to
the input and every parameter, and parameters after two Trainer steps; nd.RNN for every mode; a .params file
MXNet's save_parameters wrote (``_unfused`` keys)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cellonnx.mxnet as mx
from cellonnx.gluon import naming
from cellonnx.gluon.symbol.ops_rnn import rnn
from tests.mxnet import rnn_cases
from tests.tolerance import assert_close

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet" / "rnn"
NAMES = json.loads((HERE / "names.json").read_text())
VALUES = dict(np.load(HERE / "values.npz"))
CASES = sorted(rnn_cases.CASES)


def value(seed: int, shape: tuple, scale: float = 0.5) -> np.ndarray:
    return np.random.default_rng(seed).uniform(-scale, scale, shape).astype(np.float32)


def build(case: str) -> tuple[Any, Any, Any, Any]:
    with mx.name.NameManager(), naming.mode("1.x"):
        net, kind, run = rnn_cases.CASES[case](mx)
    x = mx.nd.array(rnn_cases.INPUTS[kind])
    extra = mx.nd.array(rnn_cases.VALID_LENGTH)
    net.initialize()
    run(mx, net, x, extra)
    for i, p in enumerate(net.collect_params().values()):
        p.set_data(mx.nd.array(value(100 + i, p.shape)))
    return net, x, extra, run


def loss_of(outs: list, heads: list) -> Any:
    return mx.nd.add_n(*[(o * h).sum() for o, h in zip(outs, heads)])


@pytest.mark.parametrize("case", CASES)
def test_names_and_shapes_match_mxnet(case: str) -> None:
    net, *_ = build(case)
    params = net.collect_params()
    assert list(params) == NAMES[case]["names"]
    assert [list(p.shape) for p in params.values()] == NAMES[case]["shapes"]


@pytest.mark.parametrize("case", CASES)
def test_outputs_match_mxnet(case: str) -> None:
    net, x, extra, run = build(case)
    outs = run(mx, net, x, extra)
    want = sorted(k for k in VALUES if k.startswith(f"{case}/out"))
    assert len(outs) == len(want)
    for j, o in enumerate(outs):
        assert isinstance(o, mx.nd.NDArray)
        assert_close(o.asnumpy(), VALUES[f"{case}/out{j}"], 1e-5, 1e-6, what=f"{case} output {j}")


@pytest.mark.parametrize("case", [c for c in CASES if c != "lstmp"])  # MXNet 1.9.1 cannot train LSTMP on CPU
def test_gradients_and_trainer_steps_match_mxnet(case: str) -> None:
    net, x, extra, run = build(case)
    params = list(net.collect_params().values())
    outs = run(mx, net, x, extra)
    heads = [mx.nd.array(value(200 + j, o.shape, 1.0)) for j, o in enumerate(outs)]
    if f"{case}/dx" in VALUES:  # not for token ids
        x.attach_grad()
    with mx.autograd.record(train_mode=False):
        loss = loss_of(run(mx, net, x, extra), heads)
    loss.backward()
    if f"{case}/dx" in VALUES:
        assert_close(x.grad.asnumpy(), VALUES[f"{case}/dx"], 1e-4, 1e-5, what=f"{case} d input")
    for i, p in enumerate(params):
        assert_close(p.grad().asnumpy(), VALUES[f"{case}/dp{i}"], 1e-4, 1e-5, what=f"{case} d {p.name}")
    trainer = mx.gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1})
    for _ in range(2):
        with mx.autograd.record(train_mode=False):
            loss = loss_of(run(mx, net, x, extra), heads)
        loss.backward()
        trainer.step(1)
    for i, p in enumerate(params):
        assert_close(p.data().asnumpy(), VALUES[f"{case}/trained{i}"], 1e-4, 1e-5, what=f"{case} {p.name}")


FUSED = sorted({k.split("/")[1] for k in VALUES if k.startswith("fused/")})


@pytest.mark.parametrize("key", FUSED)
def test_fused_operator_matches_mxnet(key: str) -> None:
    mode = key.rsplit("_", 1)[0] if key != "lstmp" else "lstm"
    bi, proj = key.endswith("_bi"), 2 if key == "lstmp" else None
    hidden, layers, dirs = 4, 1 if proj else 2, 2 if bi else 1
    x = mx.nd.array(rnn_cases.INPUTS["tnc"])
    params = mx.nd.array(VALUES[f"fused/{key}/params"])
    states = [mx.nd.array(value(301, (layers * dirs, 2, proj or hidden)))]
    if mode == "lstm":
        states.append(mx.nd.array(value(302, (layers * dirs, 2, hidden))))
    args = [x, params, *states]
    for t in args:
        t.attach_grad()
    with mx.autograd.record(train_mode=False):
        outs = mx.nd.RNN(x, params, *states, mode=mode, state_size=hidden, num_layers=layers,
                         bidirectional=bi, state_outputs=True, projection_size=proj)
        loss = loss_of(outs, [mx.nd.array(value(310 + j, o.shape, 1.0)) for j, o in enumerate(outs)])
    loss.backward()
    for j, o in enumerate(outs):
        assert_close(o.asnumpy(), VALUES[f"fused/{key}/out{j}"], 1e-5, 1e-6, what=f"{key} output {j}")
    if proj:
        return  # MXNet 1.9.1 has no LSTMP gradient on CPU; the finite-difference test covers it
    for j, t in enumerate(args):
        assert_close(t.grad.asnumpy(), VALUES[f"fused/{key}/grad{j}"], 1e-4, 1e-5, what=f"{key} grad {j}")


def test_npx_rnn_is_the_fused_operator() -> None:
    from cellonnx.mxnet import np as mnp
    from cellonnx.mxnet import npx

    key = "gru_bi"
    x = mnp.array(rnn_cases.INPUTS["tnc"])
    out = npx.rnn(x, mnp.array(VALUES[f"fused/{key}/params"]), mnp.array(value(301, (4, 2, 4))), mode="gru",
                  state_size=4, num_layers=2, bidirectional=True, state_outputs=True)
    assert isinstance(out[0], mnp.ndarray)
    assert_close(out[0].asnumpy(), VALUES[f"fused/{key}/out0"], 1e-5, 1e-6)
    assert_close(out[1].asnumpy(), VALUES[f"fused/{key}/out1"], 1e-5, 1e-6)


def test_mxnet_params_file_loads() -> None:
    """MXNet 1.9.1's save_parameters keys a fused layer by its unfused cells (0._unfused.0.l_cell...)."""
    assert all("_unfused" in k for k in NAMES["saved"]["keys"] if k.startswith("0."))
    net = mx.gluon.nn.HybridSequential()
    net.add(mx.gluon.rnn.LSTM(4, num_layers=2, bidirectional=True, input_size=3))
    net.add(mx.gluon.nn.Dense(2, flatten=False, in_units=8))
    net.load_parameters(str(HERE / "lstm.params"))
    out = net(mx.nd.array(rnn_cases.INPUTS["tnc"]))
    assert_close(out.asnumpy(), VALUES["saved/out"], 1e-5, 1e-6)


def test_params_round_trip(tmp_path: Path) -> None:
    net = mx.gluon.rnn.GRU(3, num_layers=2, bidirectional=True, input_size=2)
    net.initialize()
    x = mx.nd.array(np.random.default_rng(0).normal(size=(4, 2, 2)).astype(np.float32))
    want = net(x).asnumpy()
    net.save_parameters(str(tmp_path / "gru.params"))
    keys = set(mx.nd.load(str(tmp_path / "gru.params")))
    assert keys == {f"{d}{i}_{g}_{t}" for d in "lr" for i in range(2) for g in ("i2h", "h2h")
                    for t in ("weight", "bias")}
    other = mx.gluon.rnn.GRU(3, num_layers=2, bidirectional=True)
    other.load_parameters(str(tmp_path / "gru.params"))
    assert_close(other(x).asnumpy(), want, 1e-6, 1e-7)


def test_state_shape_is_checked() -> None:
    net = mx.gluon.rnn.LSTM(4, input_size=3)
    net.initialize()
    with pytest.raises(ValueError, match="Invalid recurrent state shape"):
        net(mx.nd.ones((5, 2, 3)), [mx.nd.zeros((1, 3, 4)), mx.nd.zeros((1, 3, 4))])


def test_rnn_operator_rejects_a_wrong_parameter_vector() -> None:
    with pytest.raises(ValueError, match="parameter vector has 10 values"):
        mx.nd.RNN(mx.nd.ones((2, 1, 3)), mx.nd.ones(10), mx.nd.zeros((1, 1, 4)), mode="gru", state_size=4)


def _fd_check(fn: Any, inputs: list[np.ndarray], eps: float = 1e-6) -> None:
    """Gradients of sum(fn(*inputs) * head) against central finite differences, in float64."""
    from cellonnx import Tensor, grad, ops

    tensors = [Tensor(a) for a in inputs]
    out = fn(*tensors)
    head = Tensor(np.random.default_rng(5).normal(size=tuple(out.shape)))
    grads = grad(lambda *ts: ops.sum(fn(*ts) * head), tuple(range(len(tensors))))(*tensors)
    for k, a in enumerate(inputs):
        num = np.zeros_like(a)
        flat = a.reshape(-1)
        for i in range(flat.size):
            old = flat[i]
            flat[i] = old + eps
            up = float((fn(*[Tensor(b) for b in inputs]).asnumpy() * head.asnumpy()).sum())
            flat[i] = old - eps
            down = float((fn(*[Tensor(b) for b in inputs]).asnumpy() * head.asnumpy()).sum())
            flat[i] = old
            num.reshape(-1)[i] = (up - down) / (2 * eps)
        assert_close(grads[k].asnumpy(), num, 1e-6, 1e-7, what=f"input {k}")


@pytest.mark.parametrize("form", ["lstmp", "clip", "lengths", "gru_lengths"])
def test_loop_forms_match_finite_differences(form: str) -> None:
    rng = np.random.default_rng(1)
    mode = "gru" if form == "gru_lengths" else "lstm"
    proj = 2 if form == "lstmp" else None
    gates, hidden = (3 if mode == "gru" else 4), 3
    out_size = proj or hidden
    size = gates * hidden * (2 + out_size + 2) + (hidden * proj if proj else 0)
    x = rng.normal(size=(3, 2, 2))
    params = rng.uniform(-0.6, 0.6, size)
    h0 = rng.normal(size=(1, 2, out_size)) * 0.3
    c0 = rng.normal(size=(1, 2, hidden)) * 0.3
    lengths = np.array([2.0, 3.0])
    kw: dict[str, Any] = {"mode": mode, "state_size": hidden, "projection_size": proj}
    if form == "clip":
        kw.update(lstm_state_clip_min=-0.3, lstm_state_clip_max=0.3)
    if form in ("lengths", "gru_lengths"):
        kw.update(use_sequence_length=True, sequence_length=mx.nd.array(lengths))

    def fn(x: Any, p: Any, h: Any, *c: Any) -> Any:
        return rnn(x, p, h, *c, **kw)

    _fd_check(fn, [x, params, h0] + ([c0] if mode == "lstm" else []))


def test_sequence_lengths_zero_the_padding_and_keep_the_last_valid_state() -> None:
    net = mx.gluon.rnn.LSTM(3, input_size=2, use_sequence_length=True)
    net.initialize()
    x = mx.nd.array(np.random.default_rng(2).normal(size=(4, 2, 2)).astype(np.float32))
    out, (h, c) = net(x, net.begin_state(2), sequence_length=mx.nd.array([2, 4]))
    alone = mx.gluon.rnn.LSTM(3, input_size=2)
    alone.initialize()
    for p, q in zip(net.collect_params().values(), alone.collect_params().values()):
        q.set_data(p.data())
    ref, (rh, rc) = alone(x[:2, :1], alone.begin_state(1))
    assert np.allclose(out.asnumpy()[2:, 0], 0)
    assert_close(out.asnumpy()[:2, 0], ref.asnumpy()[:, 0], 1e-5, 1e-6)
    assert_close(h.asnumpy()[:, 0], rh.asnumpy()[:, 0], 1e-5, 1e-6)
    assert_close(c.asnumpy()[:, 0], rc.asnumpy()[:, 0], 1e-5, 1e-6)


ONNX_CASES = {
    "lstm_bi2": (lambda: mx.gluon.rnn.LSTM(4, num_layers=2, bidirectional=True, input_size=3), "LSTM", False),
    "lstm_states": (lambda: mx.gluon.rnn.LSTM(4, input_size=3), "LSTM", True),
    "gru_ntc": (lambda: mx.gluon.rnn.GRU(4, layout="NTC", bidirectional=True, input_size=3), "GRU", False),
    "rnn_relu2": (lambda: mx.gluon.rnn.RNN(4, num_layers=2, input_size=3), "RNN", False),
    "rnn_tanh_states": (lambda: mx.gluon.rnn.RNN(4, activation="tanh", input_size=3), "RNN", True),
}


@pytest.mark.parametrize("case", sorted(ONNX_CASES))
def test_layers_trace_to_onnx_fused_nodes(case: str) -> None:
    """One ONNX LSTM / GRU / RNN node per layer; onnxruntime at two batch sizes and two sequence lengths
    (both axes dynamic) against the eager layer."""
    import onnxruntime as ort

    from cellonnx.graph import compile as _compile
    from cellonnx.tensor import Tensor

    make, node, with_states = ONNX_CASES[case]
    net = make()
    net.initialize()
    n_states = 2 if node == "LSTM" else 1
    sigs = [Tensor(shape=(None, None, 3), dtype=mx.nd.ones((1,)).dtype)]
    if with_states:
        sigs += [Tensor(shape=(1, None, 4), dtype=sigs[0].dtype)] * n_states
    traced = _compile.trace_cell(net, sigs)
    kinds = [n.op_type for n in traced.model.graph.node]
    layers = 2 if case.endswith("2") else 1
    assert kinds.count(node) == layers, kinds
    assert not {"Loop", "Scan"} & set(kinds)
    session = ort.InferenceSession(traced.model.SerializeToString(), providers=["CPUExecutionProvider"])
    rng = np.random.default_rng(3)
    for steps, batch in ((5, 2), (3, 4)):
        x = rng.normal(size=(steps, batch, 3)).astype(np.float32)
        states = [rng.normal(size=(1, batch, 4)).astype(np.float32) for _ in range(n_states)] if with_states \
            else []
        want = net(mx.nd.array(x), [mx.nd.array(s) for s in states]) if with_states else net(mx.nd.array(x))
        want = [want[0], *want[1]] if with_states else [want]
        feeds = dict(zip([i.name for i in session.get_inputs()], [x, *states]))
        got = session.run(None, feeds)
        for g, w in zip(got, want):
            assert_close(g, w.asnumpy(), 1e-5, 1e-6, what=f"{case} T={steps} N={batch}")


@pytest.mark.parametrize("make", [
    lambda: mx.gluon.rnn.LSTM(4, num_layers=2, input_size=3),
    lambda: mx.gluon.rnn.GRU(4, bidirectional=True, layout="NTC", input_size=3),
], ids=["lstm", "gru"])
def test_hybridized_layer_trains_as_eager(make: Any) -> None:
    nets = []
    rng = np.random.default_rng(4)
    x = mx.nd.array(rng.normal(size=(5, 2, 3)).astype(np.float32))
    for hybrid in (False, True):
        net = make()
        net.initialize()
        for i, p in enumerate(net.collect_params().values()):
            p.set_data(mx.nd.array(value(500 + i, p.shape)))
        if hybrid:
            net.hybridize()
        trainer = mx.gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.5})
        for _ in range(3):
            with mx.autograd.record():
                loss = (net(x) ** 2).sum()
            loss.backward()
            trainer.step(1)
        nets.append(net)
    for p, q in zip(nets[0].collect_params().values(), nets[1].collect_params().values()):
        assert_close(q.data().asnumpy(), p.data().asnumpy(), 1e-5, 1e-6, what=p.name)


def test_hybridized_cells_step_as_eager() -> None:
    rnn_ = mx.gluon.rnn
    net = rnn_.HybridSequentialRNNCell()
    net.add(rnn_.LSTMCell(4, input_size=3))
    net.add(rnn_.ResidualCell(rnn_.GRUCell(4, input_size=4)))
    net.initialize()
    x = mx.nd.array(rnn_cases.INPUTS["ntc"])
    want, want_states = net.unroll(5, x, merge_outputs=True)
    net.hybridize()
    got, got_states = net.unroll(5, x, merge_outputs=True)
    assert_close(got.asnumpy(), want.asnumpy(), 1e-5, 1e-6)
    for g, w in zip(got_states, want_states):
        assert_close(g.asnumpy(), w.asnumpy(), 1e-5, 1e-6)


@pytest.mark.parametrize("kind", ["RNN", "LSTM", "GRU"])
def test_channel_last_conv_cells_match_channel_first(kind: str) -> None:
    """MXNet's CPU convolution has no channel-last layouts (so no fixture): the NHWC cell on transposed
    inputs and weights gives the NCHW cell's outputs transposed."""
    cls = getattr(mx.gluon.rnn, f"Conv2D{kind}Cell")
    first = cls((2, 4, 3), 3, 3, 3, i2h_pad=1)
    last = cls((4, 3, 2), 3, 3, 3, i2h_pad=1, conv_layout="NHWC")
    first.initialize()
    last.initialize()
    for p, q in zip(first.collect_params().values(), last.collect_params().values()):
        arr = p.data().asnumpy()
        q.set_data(mx.nd.array(arr.transpose(0, 2, 3, 1) if arr.ndim == 4 else arr))
    x = rnn_cases.INPUTS["img2"]
    out_f, states_f = first.unroll(3, mx.nd.array(x), merge_outputs=True)
    out_l, states_l = last.unroll(3, mx.nd.array(x.transpose(0, 1, 3, 4, 2)), merge_outputs=True)
    assert_close(out_l.asnumpy(), out_f.asnumpy().transpose(0, 1, 3, 4, 2), 1e-5, 1e-6)
    for a, b in zip(states_l, states_f):
        assert_close(a.asnumpy(), b.asnumpy().transpose(0, 2, 3, 1), 1e-5, 1e-6)


def test_1x_code_saves_the_keys_mxnet_1x_writes(tmp_path: Path) -> None:
    """Gluon 1.x code (a name scope) saves a fused layer under its unfused cells' keys, as MXNet 1.9.1's
    save_parameters does, so MXNet 1.9.1 loads the file; and loads it back here."""
    with mx.name.NameManager():
        net = mx.gluon.nn.HybridSequential()
        with net.name_scope():
            net.add(mx.gluon.rnn.LSTM(4, num_layers=2, bidirectional=True, input_size=3))
            net.add(mx.gluon.nn.Dense(2, flatten=False, in_units=8))
    net.load_parameters(str(HERE / "lstm.params"))
    net.save_parameters(str(tmp_path / "again.params"))
    assert sorted(mx.nd.load(str(tmp_path / "again.params"))) == NAMES["saved"]["keys"]
    net.load_parameters(str(tmp_path / "again.params"))
    assert_close(net(mx.nd.array(rnn_cases.INPUTS["tnc"])).asnumpy(), VALUES["saved/out"], 1e-5, 1e-6)


def test_exported_rnn_graphs_convert_to_fused_onnx_nodes(tmp_path: Path) -> None:
    """The symbol.json interpreter runs the RNN operator through the same function: an MXNet 1.9.1 export
    of LSTM, GRU and relu / tanh RNN layers becomes one ONNX LSTM / GRU / RNN node per layer, no loop."""
    from cellonnx.gluon.symbol.convert import convert_symbol

    src = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet" / "symbol" / "rnn_layers-symbol.json"
    model = convert_symbol(src, tmp_path / "rnn.onnx", input_shapes={"data": (4, 2, 3)})
    kinds = [n.op_type for n in model.graph.node]
    assert (kinds.count("LSTM"), kinds.count("GRU"), kinds.count("RNN")) == (3, 3, 3)
    assert "MatMul" not in kinds and "Loop" not in kinds


def test_language_model_hybridizes_and_trains() -> None:
    """The 1.x language model hybridized: MXNet's outputs, then Trainer steps as eager ones."""
    net, x, extra, run = build("language_model")
    net.hybridize()
    for j, o in enumerate(run(mx, net, x, extra)):
        assert_close(o.asnumpy(), VALUES[f"language_model/out{j}"], 1e-5, 1e-6, what=f"hybridized output {j}")
    eager, *_ = build("language_model")
    heads = [mx.nd.array(value(200 + j, o.shape, 1.0)) for j, o in enumerate(run(mx, eager, x, extra))]
    for model in (net, eager):
        trainer = mx.gluon.Trainer(model.collect_params(), "sgd", {"learning_rate": 0.1})
        for _ in range(2):
            with mx.autograd.record():
                loss = loss_of(run(mx, model, x, extra), heads)
            loss.backward()
            trainer.step(1)
    for p, q in zip(net.collect_params().values(), eager.collect_params().values()):
        assert_close(p.data().asnumpy(), q.data().asnumpy(), 1e-5, 1e-6, what=p.name)


def test_state_clip_nan_stops_nan_at_the_clip_range() -> None:
    """lstm_state_clip_nan: a NaN cell state becomes the clip range's minimum (cuDNN's NOT_PROPAGATE_NAN
    clipping, fmin(fmax(nan, min), max)); without it NaN propagates."""
    n = 4 * 4 * (3 + 4 + 2)
    params = np.full(n, 0.1, np.float32)
    params[0] = np.nan  # unit 0's input gate weight
    x, h0 = mx.nd.ones((2, 1, 3)), mx.nd.zeros((1, 1, 4))
    kw = {"mode": "lstm", "state_size": 4, "lstm_state_clip_min": -0.5, "lstm_state_clip_max": 0.5,
          "state_outputs": True}
    kept = mx.nd.RNN(x, mx.nd.array(params), h0, h0, lstm_state_clip_nan=False, **kw)[2].asnumpy()
    stopped = mx.nd.RNN(x, mx.nd.array(params), h0, h0, lstm_state_clip_nan=True, **kw)[2].asnumpy()
    assert np.isnan(kept[0, 0, 0]) and stopped[0, 0, 0] == -0.5
    assert np.all(np.abs(stopped) <= 0.5)


def test_reprs_match_mxnet() -> None:
    assert [repr(b) for b in rnn_cases.repr_blocks(mx)] == NAMES["reprs"]
