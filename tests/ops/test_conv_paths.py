"""The convolution kernels' layouts, each against the float64 loop references of cases_conv.py.

The op table covers the convolution family at small shapes, where every kernel takes its per-item path. These
shapes are picked to go through the batch-wide paths deep networks take: one GEMM over the batch with its
columns batch-last (short output rows) or batch-major, dead kernel positions left out of the GEMM or kept in,
the weight gradient from the forward's kept columns in either layout or from fresh ones, and the transposed
convolution's batch-wide col2im in both layouts.
"""
from __future__ import annotations

import numpy as np
import pytest

import cellonnx.ops.prims.conv as conv_mod
import cellonnx.ops.prims.conv_grad as conv_grad_mod
from cellonnx.ops.prims.conv import conv_forward
from cellonnx.ops.prims.conv_grad import (
    conv_grad_weight,
    conv_grad_weight_into,
    conv_transpose_forward,
    output_padding,
)
from tests.ops.cases_conv import ref_conv, ref_conv_grads, ref_conv_transpose
from tests.ops.harness import rand
from tests.tolerance import assert_close, sum_rtol

# (id, x shape, w shape, stride, pad, batch-last columns expected, dead kernel positions trimmed)
FORWARD = [
    ("batch_last_4x4", (4, 16, 4, 4), (32, 16, 3, 3), 1, 1, True, False),
    ("batch_last_stride2", (4, 8, 8, 8), (32, 8, 3, 3), 2, 1, True, False),
    ("batch_last_short_rows_small_items", (64, 8, 8, 8), (16, 8, 3, 3), 1, 1, True, False),
    ("batch_major_20x20", (2, 8, 20, 20), (64, 8, 3, 3), 1, 1, False, False),
    ("dead_positions_trimmed_1x1_plane", (8, 8, 1, 1), (16, 8, 3, 3), 1, 1, True, True),
    ("dead_positions_kept_2x2_stride2", (4, 8, 2, 2), (64, 8, 3, 3), 2, 1, True, False),
    ("per_item", (2, 2, 6, 6), (3, 2, 3, 3), 1, 1, False, False),
]


def _spy(monkeypatch: pytest.MonkeyPatch, module, name: str) -> list:
    calls: list = []
    real = getattr(module, name)

    def spy(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, spy)
    return calls


@pytest.mark.parametrize(("xs", "ws", "stride", "pad", "batch_last", "trimmed"), [c[1:] for c in FORWARD],
                         ids=[c[0] for c in FORWARD])
def test_forward_and_weight_gradient(monkeypatch: pytest.MonkeyPatch, xs, ws, stride, pad, batch_last,
                                     trimmed) -> None:
    x, w = rand(*xs, seed=1), rand(*ws, seed=2)
    x32, w32 = x.astype(np.float32), w.astype(np.float32)
    geometry = ((stride, stride), (pad,) * 4, (1, 1), 1)
    layout_calls = _spy(monkeypatch, conv_mod, "batch_last_cols")
    inner_calls = _spy(monkeypatch, conv_mod, "conv_forward")  # a trimmed kernel convolves again
    y = conv_forward(x32, w32, None, *geometry)
    assert (bool(layout_calls), bool(inner_calls)) == (batch_last, trimmed)
    expected = ref_conv(x, w, stride=stride, pads=(pad,) * 4)
    assert_close(y, expected, rtol=1e-5, scale_rtol=sum_rtol(ws[1] * ws[2] * ws[3]), what="forward")

    gy = rand(*y.shape, seed=3)
    _, expected_gw = ref_conv_grads(x, w, gy, stride, (pad,) * 4)
    kept = conv_grad_weight(x32, gy.astype(np.float32), ws[2:], *geometry)  # the forward's columns, if kept
    conv_mod._COLS.clear()
    fresh = conv_grad_weight(x32, gy.astype(np.float32), ws[2:], *geometry)
    terms = xs[0] * y.shape[2] * y.shape[3]  # a weight's gradient sums over the batch and output positions
    for got, columns in ((kept, "kept"), (fresh, "fresh")):
        assert_close(got, expected_gw, rtol=1e-5, scale_rtol=sum_rtol(terms), what=f"{columns} columns' gw")


@pytest.mark.parametrize(("xs", "ws", "stride", "pad"), [c[1:5] for c in FORWARD],
                         ids=[c[0] for c in FORWARD])
@pytest.mark.parametrize("columns", ["kept", "fresh"])
def test_weight_gradient_written_into_a_buffer(xs, ws, stride, pad, columns) -> None:
    # a data-parallel backward pass has the kernel write the gradient in its all-reduce bucket: every path
    # gives the same numbers there as into a fresh array
    x = rand(*xs, seed=1).astype(np.float32)
    w = rand(*ws, seed=2).astype(np.float32)
    geometry = ((stride, stride), (pad,) * 4, (1, 1), 1)
    results = []
    for into in (False, True):
        conv_mod._COLS.clear()
        y = conv_forward(x, w, None, *geometry)
        if columns == "fresh":
            conv_mod._COLS.clear()
        gy = rand(*y.shape, seed=3).astype(np.float32)
        if into:
            bucket = np.full(2 + int(np.prod(ws)), np.nan, np.float32)
            out = bucket[1:-1].reshape(ws)
            got = conv_grad_weight_into(x, gy, ws[2:], *geometry, out)
            assert np.shares_memory(got, out) and np.isnan(bucket[[0, -1]]).all()
            results.append(out)
        else:
            results.append(conv_grad_weight(x, gy, ws[2:], *geometry))
    np.testing.assert_array_equal(results[1], results[0])


@pytest.mark.parametrize(("xs", "ws", "dtype"), [((2, 3, 7), (4, 3, 3), np.float64),
                                                 ((2, 2, 4, 4, 4), (3, 2, 2, 2, 2), np.float32),
                                                 ((2, 2, 5, 5), (4, 1, 3, 3), np.float16)],
                         ids=["1d_float64", "3d", "float16"])
def test_weight_gradient_into_a_buffer_other_ranks_and_dtypes(xs, ws, dtype) -> None:
    nd = len(xs) - 2
    groups = xs[1] // ws[1]
    x = rand(*xs, seed=4).astype(dtype)
    geometry = ((1,) * nd, (0,) * (2 * nd), (1,) * nd, groups)
    y_shape = (xs[0], ws[0]) + tuple(s - k + 1 for s, k in zip(xs[2:], ws[2:]))
    gy = rand(*y_shape, seed=5).astype(dtype)
    out = np.full(ws, np.nan, dtype)
    got = conv_grad_weight_into(x, gy, ws[2:], *geometry, out)
    assert np.shares_memory(got, out)
    np.testing.assert_array_equal(out, conv_grad_weight(x, gy, ws[2:], *geometry))


# (id, u shape, w shape, stride, pad, conv input size): transposed convolutions (a conv's input gradient)
TRANSPOSED = [
    ("batched_batch_last", (4, 32, 4, 4), (32, 16, 3, 3), 1, 1, 4),
    ("batched_batch_last_stride2", (4, 64, 2, 2), (64, 16, 3, 3), 2, 1, 4),
    ("batched_batch_major_wide_rows", (1, 64, 1, 16), (64, 8, 3, 3), 1, 1, (1, 16)),
    ("batched_dead_positions_kept", (4, 64, 1, 1), (64, 16, 3, 3), 2, 1, 2),
    ("per_item_rows", (2, 3, 5, 5), (3, 2, 3, 3), 1, 1, 5),
]


@pytest.mark.parametrize(("us", "ws", "stride", "pad", "size"), [c[1:] for c in TRANSPOSED],
                         ids=[c[0] for c in TRANSPOSED])
def test_transposed_convolution(monkeypatch: pytest.MonkeyPatch, us, ws, stride, pad, size) -> None:
    u, w = rand(*us, seed=4), rand(*ws, seed=5)
    size = (size, size) if isinstance(size, int) else size
    op = output_padding(size, us[2:], ws[2:], (stride, stride), (pad,) * 4, (1, 1))
    calls = _spy(monkeypatch, conv_grad_mod, "_col2im_batched")
    out = conv_transpose_forward(u.astype(np.float32), w.astype(np.float32), None, (stride, stride), (pad,) * 4,
                                 (1, 1), 1, op)
    assert bool(calls) == (us != TRANSPOSED[-1][1])  # the last row takes the per-item path
    expected = ref_conv_transpose(u, w, None, stride, (pad,) * 4, op)
    assert out.shape == expected.shape == (us[0], ws[1]) + size
    assert_close(out, expected, rtol=1e-5, scale_rtol=sum_rtol(us[1] * ws[2] * ws[3]), what="transposed")
