"""ops.BasicLSTMCell, ops.DynamicRNN and ops.DynamicGRUV2 as MindSpore code calls them: the examples of
MindSpore's docstrings (shapes, dtypes), the layouts MindSpore's own nn.LSTM / nn.GRU hand these kernels on
Ascend (gate blocks reordered i, f, g, o -> i, g, f, o and weights transposed for DynamicRNN; nn.GRU's r, z, n
weights transposed for DynamicGRUV2 with gate_order='rzh') giving nn.LSTM's / nn.GRU's results, and the
attribute checks. The math itself is checked against NumPy in tests/ops/cases_rnn_fused.py."""
from __future__ import annotations

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import Tensor, ops
from cellonnx.ops import operations as P
from cellonnx.ops.prims.rnn_gru import stacked_rnn
from tests.tolerance import assert_close


def _r(*shape: int, seed: int = 0, dtype: type = np.float32) -> Tensor:
    return Tensor(np.random.default_rng(seed).uniform(-1, 1, shape).astype(dtype))


def test_dynamic_rnn_docstring_example() -> None:
    x = Tensor(np.random.rand(2, 16, 64).astype(np.float16))
    w = Tensor(np.random.rand(96, 128).astype(np.float16))
    b = Tensor(np.random.rand(128).astype(np.float16))
    init_h = Tensor(np.random.rand(1, 16, 32).astype(np.float16))
    init_c = Tensor(np.random.rand(1, 16, 32).astype(np.float16))
    output = ops.DynamicRNN()(x, w, b, None, init_h, init_c)
    assert len(output) == 8
    assert all(o.shape == (2, 16, 32) for o in output)
    assert all(o.dtype == ms.float16 for o in output)


def test_dynamic_rnn_float32_bias_gives_float16_output_h() -> None:
    x, w = _r(2, 3, 4, dtype=np.float16), _r(9, 20, seed=1, dtype=np.float16)
    out = P.DynamicRNN()(x, w, _r(20, seed=2), None, _r(1, 3, 5, seed=3, dtype=np.float16),
                         _r(1, 3, 5, seed=4, dtype=np.float16))
    assert [o.dtype for o in out] == [ms.float32, ms.float16] + [ms.float32] * 6


def test_dynamic_gru_v2_docstring_example() -> None:
    x = Tensor(np.random.rand(2, 8, 64).astype(np.float16))
    weight_i = Tensor(np.random.rand(64, 48).astype(np.float16))
    weight_h = Tensor(np.random.rand(16, 48).astype(np.float16))
    bias_i = Tensor(np.random.rand(48).astype(np.float16))
    bias_h = Tensor(np.random.rand(48).astype(np.float16))
    init_h = Tensor(np.random.rand(8, 16).astype(np.float16))
    output = ops.DynamicGRUV2()(x, weight_i, weight_h, bias_i, bias_h, None, init_h)
    assert len(output) == 6
    assert all(o.shape == (2, 8, 16) for o in output)


def test_basic_lstm_cell_outputs() -> None:
    x, h, c = _r(2, 3), _r(2, 4, seed=1), _r(2, 4, seed=2)
    out = ops.BasicLSTMCell(forget_bias=0.5)(x, h, c, _r(7, 16, seed=3), _r(16, seed=4))
    assert len(out) == 7 and all(o.shape == (2, 4) for o in out)
    assert out[1].dtype == ms.float16 and out[0].dtype == ms.float32  # ht is float16, as MindSpore infers
    ct, ht, it, jt, ft, ot, tanhct = (o.asnumpy().astype(np.float64) for o in out)
    assert_close(ct, ft * c.asnumpy() + it * jt, rtol=1e-6, scale_rtol=1e-6)
    assert_close(ht, ot * tanhct, rtol=1e-3, scale_rtol=1e-3)


def test_dynamic_rnn_is_nn_lstm_with_mindspores_ascend_layout() -> None:
    steps, batch, in_size, hid = 4, 3, 5, 6
    x, h0, c0 = _r(steps, batch, in_size), _r(1, batch, hid, seed=1), _r(1, batch, hid, seed=2)
    w_ih, w_hh = _r(4 * hid, in_size, seed=3), _r(4 * hid, hid, seed=4)
    b_ih, b_hh = _r(4 * hid, seed=5), _r(4 * hid, seed=6)
    want, (h_n, c_n) = ops.lstm(x, (h0, c0), [w_ih, w_hh, b_ih, b_hh])

    def igfo(t: Tensor) -> Tensor:
        i, f, g, o = ops.split(t, hid, 0)
        return ops.concat((i, g, f, o), 0)

    w = ops.transpose(ops.concat((igfo(w_ih), igfo(w_hh)), 1), (1, 0))
    y, output_h, output_c, *_ = ops.DynamicRNN()(x, w, igfo(b_ih + b_hh), None, h0, c0)
    assert_close(y.asnumpy(), want.asnumpy(), rtol=1e-5, scale_rtol=1e-6)
    assert_close(output_h.asnumpy()[-1], h_n.asnumpy()[0], rtol=1e-5, scale_rtol=1e-6)
    assert_close(output_c.asnumpy()[-1], c_n.asnumpy()[0], rtol=1e-5, scale_rtol=1e-6)


@pytest.mark.parametrize("bias", [True, False])
def test_dynamic_gru_v2_is_nn_gru_with_mindspores_ascend_layout(bias: bool) -> None:
    steps, batch, in_size, hid = 4, 3, 5, 6
    x, h0 = _r(steps, batch, in_size), _r(batch, hid, seed=1)
    w_ih, w_hh = _r(3 * hid, in_size, seed=3), _r(3 * hid, hid, seed=4)
    b_ih, b_hh = _r(3 * hid, seed=5), _r(3 * hid, seed=6)
    weights = [w_ih, w_hh, b_ih, b_hh] if bias else [w_ih, w_hh]
    want, h_n = stacked_rnn("GRU", x, ops.expand_dims(h0, 0), weights, 1, False, False, 0.0, False)
    y, output_h, *_ = ops.DynamicGRUV2(gate_order="rzh")(
        x, ops.transpose(w_ih, (1, 0)), ops.transpose(w_hh, (1, 0)), b_ih if bias else None,
        b_hh if bias else None, None, h0)
    assert_close(y.asnumpy(), want.asnumpy(), rtol=1e-5, scale_rtol=1e-6)
    assert_close(output_h.asnumpy()[-1], h_n.asnumpy()[0], rtol=1e-5, scale_rtol=1e-6)


def test_signatures_and_attributes() -> None:
    rnn = ops.DynamicRNN(forget_bias=1.0, cell_clip=2.0)
    assert (rnn.cell_type, rnn.direction, rnn.keep_prob, rnn.forget_bias, rnn.cell_clip) == \
        ("LSTM", "UNIDIRECTIONAL", 1.0, 1.0, 2.0)
    gru = ops.DynamicGRUV2()
    assert (gru.gate_order, gru.reset_after, gru.time_major) == ("rzh", True, True)
    cell = ops.BasicLSTMCell()
    assert (cell.keep_prob, cell.forget_bias, cell.state_is_tuple, cell.activation) == \
        (1.0, 1.0, True, "tanh")


@pytest.mark.parametrize("make,error,words", [
    (lambda: ops.DynamicRNN(forget_bias=1), TypeError, "forget_bias"),
    (lambda: ops.DynamicRNN(cell_type="GRU"), ValueError, "cell_type"),
    (lambda: ops.DynamicRNN(time_major=False), ValueError, "time_major"),
    (lambda: ops.DynamicRNN(keep_prob=1.5), ValueError, "keep_prob"),
    (lambda: ops.DynamicRNN(use_peephole=True), ValueError, "use_peephole"),
    (lambda: ops.DynamicRNN(num_proj=-1), ValueError, "num_proj"),
    (lambda: ops.DynamicGRUV2(gate_order="hzr"), ValueError, "gate_order"),
    (lambda: ops.DynamicGRUV2(reset_after=1), TypeError, "reset_after"),
    (lambda: ops.BasicLSTMCell(activation="relu"), ValueError, "activation"),
])
def test_attribute_errors(make, error, words) -> None:
    with pytest.raises(error, match=words):
        make()


def test_keep_prob_applies_only_in_training() -> None:
    ops.DynamicRNN(keep_prob=0.5, is_training=False)
    with pytest.raises(ValueError, match="keep_prob"):
        ops.DynamicRNN(keep_prob=0.5)


def test_input_errors_name_the_op_and_shapes() -> None:
    with pytest.raises(ValueError, match=r"DynamicRNN.*\(9, 20\).*\(8, 20\)"):
        ops.DynamicRNN()(_r(2, 3, 4), _r(8, 20), _r(20), None, _r(1, 3, 5), _r(1, 3, 5))
    with pytest.raises(ValueError, match="seq_length"):
        ops.DynamicRNN()(_r(2, 3, 4), _r(9, 20), _r(20), Tensor(np.array([2, 2, 2], np.int32)), _r(1, 3, 5),
                         _r(1, 3, 5))
    with pytest.raises(ValueError, match=r"DynamicGRUV2.*init_h"):
        ops.DynamicGRUV2()(_r(2, 3, 4), _r(4, 15), _r(5, 15), None, None, None, _r(2, 5))
