"""mx.rnn (MXNet 1.x's symbolic cells) against real MXNet 1.9.1 (tests/fixtures/mxnet/gen_rnn_sym.py): the
unrolled symbols' arguments, output names and shapes and their outputs on seeded arguments; FusedRNNCell's
unpacked weight names and an unfused network run on them; encode_sentences; LSTMBias and FusedRNN."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import cellonnx.mxnet as mx
from tests.mxnet import rnn_sym_cases
from tests.tolerance import assert_close

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet" / "rnn"
META = json.loads((HERE / "sym.json").read_text())
ARRAYS = dict(np.load(HERE / "sym.npz"))


def value(seed: int, shape: tuple) -> np.ndarray:
    return np.random.default_rng(seed).uniform(-0.5, 0.5, shape).astype(np.float32)


def build(case: str) -> tuple:
    with mx.name.NameManager():
        return rnn_sym_cases.CASES[case](mx)


@pytest.mark.parametrize("case", sorted(rnn_sym_cases.CASES))
def test_unrolled_symbol_matches_mxnet(case: str) -> None:
    sym, layout = build(case)
    want = META[case]
    assert sym.list_arguments() == want["arguments"]
    assert sym.list_outputs() == want["outputs"]
    x = rnn_sym_cases.INPUTS[layout]
    arg_shapes, out_shapes, _ = sym.infer_shape(data=x.shape)
    assert [list(s) for s in out_shapes] == want["out_shapes"]
    args = {"data": mx.nd.array(x)}
    for i, (arg, shape) in enumerate(zip(sym.list_arguments(), arg_shapes)):
        if arg != "data":
            args[arg] = mx.nd.array(value(i, shape))
    if case == "unfused_lstm":
        cell = mx.rnn.FusedRNNCell(3, num_layers=2, mode="lstm", bidirectional=True, prefix="f_")
        fused, _ = build("fused_lstm")
        shapes = dict(zip(fused.list_arguments(), fused.infer_shape(data=x.shape)[0]))
        packed = {"f_parameters": mx.nd.array(value(1, shapes["f_parameters"]))}
        unpacked = cell.unpack_weights(packed)
        assert sorted(unpacked) == META["unpacked_names"]
        back = cell.pack_weights(unpacked)
        np.testing.assert_array_equal(back["f_parameters"].asnumpy(), packed["f_parameters"].asnumpy())
        args.update(cell.unfuse().pack_weights(unpacked))
    outs = sym.bind(mx.cpu(), args).forward(is_train=False)
    for j, o in enumerate(outs):
        assert_close(o.asnumpy(), ARRAYS[f"{case}/out{j}"], 1e-5, 1e-6, what=f"{case} output {j}")


def test_unfused_network_gives_the_fused_outputs() -> None:
    """The fused vector unpacked runs the unfused cells to the fused operator's outputs (MXNet's own
    fixtures for both cases come from the same vector)."""
    assert_close(ARRAYS["unfused_lstm/out0"], ARRAYS["fused_lstm/out0"], 1e-5, 1e-6)


def test_encode_sentences_matches_mxnet() -> None:
    coded, vocab = mx.rnn.encode_sentences(rnn_sym_cases.SENTENCES, start_label=1)
    assert coded == META["encoded"]["coded"]
    assert vocab == META["encoded"]["vocab"]
    with pytest.raises(AssertionError, match="Unknown token"):
        mx.rnn.encode_sentences([["zebra"]], vocab=dict(vocab))


def test_bucket_sentence_iter() -> None:
    coded, _ = mx.rnn.encode_sentences(rnn_sym_cases.SENTENCES * 2, start_label=1)
    it = mx.rnn.BucketSentenceIter(coded, 2, buckets=[2, 3, 4], invalid_label=0)
    batches = list(it)
    assert sorted(b.bucket_key for b in batches) == [2, 2, 3, 4]
    for b in batches:
        data, label = b.data[0].asnumpy(), b.label[0].asnumpy()
        assert data.shape == (2, b.bucket_key) == label.shape
        np.testing.assert_array_equal(label[:, :-1], data[:, 1:])
        assert (label[:, -1] == 0).all()
    it = mx.rnn.BucketSentenceIter(coded, 2, buckets=[4], layout="TN")
    assert next(iter(it)).data[0].shape == (4, 2)


def test_lstm_bias_and_fused_rnn_initializers_match_mxnet() -> None:
    bias = np.zeros(12, np.float32)
    mx.init.LSTMBias(forget_bias=2.0)._init_weight("lstm_i2h_bias", bias)
    np.testing.assert_array_equal(bias, ARRAYS["lstmbias"])
    vec = np.zeros(4 * 2 * (3 + 2 + 2), np.float32)
    mx.init.FusedRNN(mx.init.Zero(), 2, 1, "lstm", forget_bias=1.5)._init_weight("lstm_parameters", vec)
    np.testing.assert_array_equal(vec, ARRAYS["fusedrnn"])


def test_rnn_checkpoint_round_trip(tmp_path: Path) -> None:
    cell = mx.rnn.FusedRNNCell(3, num_layers=1, mode="gru", prefix="g_")
    sym, _ = cell.unroll(4, mx.sym.Variable("data"), layout="TNC", merge_outputs=True)
    vec = mx.nd.array(value(9, (3 * 3 * (3 + 3 + 2),)))
    mx.rnn.save_rnn_checkpoint(cell, str(tmp_path / "m"), 2, sym, {"g_parameters": vec}, {})
    saved = mx.nd.load(str(tmp_path / "m-0002.params"))
    assert "arg:g_l0_i2h_r_weight" in saved and "arg:g_parameters" not in saved
    sym2, arg, aux = mx.rnn.load_rnn_checkpoint(cell, str(tmp_path / "m"), 2)
    np.testing.assert_array_equal(arg["g_parameters"].asnumpy(), vec.asnumpy())
    assert sym2.list_arguments() == sym.list_arguments() and aux == {}
