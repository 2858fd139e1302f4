"""ops.ExtractImagePatches, ExtractVolumePatches, Dilation2D and DepthwiseConv2dNative: attributes and errors
as MindSpore 2.10 sets them, and ExtractVolumePatches against MindSpore's CPU kernel
(tests/fixtures/mindspore/gen_pending_ops.py). The values of all four are checked by the op table
(tests/ops/cases_patches.py: float64 references, gradients, ONNX)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import ops
from tests.tolerance import assert_close

FIX = Path(__file__).parents[2] / "fixtures/mindspore/pending_ops"


@pytest.mark.parametrize("name, k, s, pad", [("valid", (1, 1, 2, 2, 2), (1, 1, 1, 2, 1), "VALID"),
                                             ("same", (1, 1, 2, 3, 2), (1, 1, 2, 1, 2), "SAME"),
                                             ("same_int", 2, 1, "same")])
def test_volume_patches_match_mindspore(name, k, s, pad):
    fix = np.load(FIX / "volume_patches.npz")
    got = ops.ExtractVolumePatches(k, s, pad)(ms.Tensor(fix["x"])).asnumpy()
    assert got.shape == fix[name].shape
    assert_close(got, fix[name], rtol=0)


def test_attributes_as_mindspore_sets_them():
    p = ops.ExtractImagePatches([1, 1, 2, 3], (1, 1, 1, 2), [1, 1, 1, 1])
    assert (p.ksizes, p.strides, p.rates, p.padding) == ((2, 3), (1, 2), (1, 1), 2)
    assert ops.ExtractImagePatches([2, 2], [1, 1], [1, 1], "same").padding == 1
    p = ops.ExtractVolumePatches(2, [1, 1, 1, 2, 1], "same")
    assert (p.kernel_size, p.strides, p.padding) == ((1, 1, 2, 2, 2), (1, 1, 1, 2, 1), "SAME")
    p = ops.Dilation2D(2, (1, 2))
    assert (p.stride, p.dilation, p.pad_mode, p.data_format) == ((1, 1, 2, 2), (1, 1, 1, 2), "SAME", "NCHW")
    p = ops.DepthwiseConv2dNative(1, 3, pad_mode="pad", pad=1)
    assert (p.stride, p.dilation, p.pad, p.padding) == ((1, 1, 1, 1),) * 4


def test_errors_name_the_op():
    with pytest.raises(TypeError, match="ExtractImagePatches"):
        ops.ExtractImagePatches(2, [1, 1, 1, 1], [1, 1, 1, 1])
    with pytest.raises(ValueError, match="ExtractVolumePatches"):  # MindSpore refuses negative SAME padding
        ops.ExtractVolumePatches(2, 3, "same")(ms.Tensor(np.zeros((1, 1, 3, 3, 3), np.float32)))
    with pytest.raises(ValueError, match="NHWC"):
        ops.Dilation2D(1, 1, data_format="NHWC")
    with pytest.raises(ValueError, match="stride"):
        ops.Dilation2D(256, 1)
    with pytest.raises(ValueError, match="pad"):
        ops.DepthwiseConv2dNative(1, 3, pad=1)
    with pytest.raises(ValueError, match="batch of 'weight' must be 1"):
        ops.DepthwiseConv2dNative(1, 3)(ms.Tensor(np.zeros((1, 2, 5, 5), np.float32)),
                                        ms.Tensor(np.zeros((2, 2, 3, 3), np.float32)))


def test_dilation2d_integer_input_keeps_its_dtype():
    x = ms.Tensor(np.arange(16, dtype=np.int32).reshape(1, 1, 4, 4))
    f = ms.Tensor(np.array([[[0, -1], [2, 0]]], np.int32))
    y = ops.Dilation2D(1, 1, "valid")(x, f)
    assert y.dtype == ms.int32
    np.testing.assert_array_equal(y.asnumpy()[0, 0], np.arange(16).reshape(4, 4)[1:, :3] + 2)


RATIOS = [([1.0, 1.5, 1.5, 1.0], False), ([1.0, 1.4, 1.7, 1.0], False), ([1.0, 1.3, 2.2, 1.0], True),
          ([1.0, 1.6, 1.2, 1.0], True)]  # as gen_pending_ops.FRACTIONAL: (pooling_ratio, overlapping)


@pytest.mark.parametrize("op, mode", [("FractionalMaxPool", "max"), ("FractionalAvgPool", "avg")])
@pytest.mark.parametrize("i", range(4))
@pytest.mark.parametrize("kind", ["f", "i"])
def test_fractional_pools_match_mindspore_on_its_cells(op, mode, i, kind):
    """MindSpore's random cells are its own; pooled over the same cells, the values are MindSpore's."""
    from cellonnx.ops.composite.fractional_pool import pool_with_sequences

    fix = np.load(FIX / "fractional.npz")
    key = f"{op}{i}{kind}"
    x = fix["x" if kind == "f" else "xi"]
    got = pool_with_sequences(ms.Tensor(x), fix[f"{key}_rows"], fix[f"{key}_cols"], RATIOS[i][1], mode)
    assert got.dtype == ms.Tensor(x).dtype
    assert_close(got.asnumpy(), fix[f"{key}_y"], rtol=1e-6 if kind == "f" else 0)


@pytest.mark.parametrize("op", ["FractionalMaxPool", "FractionalAvgPool"])
@pytest.mark.parametrize("pseudo", [False, True])
def test_fractional_cells_are_fractional(op, pseudo):
    """The drawn boundaries start at 0, end at the input size and step by in // out or in // out + 1; the
    outputs are the pools over them."""
    x = np.random.default_rng(0).standard_normal((2, 11, 13, 3)).astype(np.float32)
    for seed in range(5):
        y, rows, cols = getattr(ops, op)([1.0, 1.7, 1.45, 1.0], pseudo, False, True, seed + 1)(ms.Tensor(x))
        for seq, n, r in ((rows.asnumpy(), 11, 1.7), (cols.asnumpy(), 13, 1.45)):
            out = int(n / r)
            assert seq.dtype == np.int64 and len(seq) == out + 1 and seq[0] == 0 and seq[-1] == n
            assert set(np.diff(seq)) <= {n // out, n // out + 1}
        want = np.zeros(y.shape)
        reduce = np.max if op == "FractionalMaxPool" else np.mean
        r, c = rows.asnumpy(), cols.asnumpy()
        for a, b in np.ndindex(len(r) - 1, len(c) - 1):
            want[:, a, b] = reduce(x[:, r[a]:r[a + 1], c[b]:c[b + 1]], axis=(1, 2))
        assert_close(y.asnumpy(), want, rtol=1e-6)


def test_fractional_docstring_examples():
    x = ms.Tensor(np.arange(1, 17).reshape(1, 4, 4, 1).astype(np.int64))
    y, rows, _ = ops.FractionalMaxPool([1.0, 1.5, 1.5, 1.0])(x)
    np.testing.assert_array_equal(y.asnumpy().ravel(), [6, 8, 14, 16])
    np.testing.assert_array_equal(rows.asnumpy(), [0, 2, 4])
    y, _, _ = ops.FractionalAvgPool([1.0, 1.5, 1.5, 1.0])(x)
    np.testing.assert_array_equal(y.asnumpy().ravel(), [3, 5, 11, 13])


def test_fractional_gradient_and_errors():
    x = ms.Tensor(np.random.default_rng(1).standard_normal((1, 6, 6, 1)).astype(np.float32))
    g = ms.grad(lambda t: ops.FractionalAvgPool([1.0, 2.0, 2.0, 1.0])(t)[0].sum())(x)
    assert_close(g.asnumpy(), np.full((1, 6, 6, 1), 0.25), rtol=1e-6)
    with pytest.raises(ValueError, match="first and last"):
        ops.FractionalMaxPool([2.0, 1.5, 1.5, 1.0])
    with pytest.raises(TypeError, match="pooling_ratio"):
        ops.FractionalMaxPool((1.0, 1.5, 1.5, 1.0))
    with pytest.raises(ValueError, match="seed"):
        ops.FractionalAvgPool([1.0, 1.5, 1.5, 1.0], seed=1)
    with pytest.raises(TypeError, match="4-D"):
        ops.FractionalMaxPool([1.0, 1.5, 1.5, 1.0])(ms.Tensor(np.zeros((4, 4, 1), np.float32)))
    with pytest.raises(NotImplementedError, match="FractionalMaxPool"):
        from cellonnx.ops import registry
        old, registry.ACTIVE_TRACER = registry.ACTIVE_TRACER, object()
        try:
            ops.FractionalMaxPool([1.0, 1.5, 1.5, 1.0])(x)
        finally:
            registry.ACTIVE_TRACER = old


DEFORMABLE = [((1, 1, 1, 1), (0, 0, 0, 0), (2, 2), (1, 1, 1, 1), 1),
              ((1, 1, 2, 1), (1, 0, 1, 1), (3, 2), (1, 1, 1, 2), 2)]  # as gen_pending_ops.deformable


@pytest.mark.parametrize("i", range(2))
def test_deformable_offsets_match_mindspore(i):
    fix = np.load(FIX / "deformable.npz")
    strides, pads, ksize, dilations, groups = DEFORMABLE[i]
    prim = ops.DeformableOffsets(strides, pads, ksize, dilations, "NCHW", groups)
    got = prim(ms.Tensor(fix["x"]), ms.Tensor(fix[f"off{i}"]))
    assert got.shape == fix[f"y{i}"].shape
    assert_close(got.asnumpy(), fix[f"y{i}"], rtol=1e-6)


def test_deformable_offsets_errors():
    with pytest.raises(ValueError, match="N and C dimensions of 'strides'"):
        ops.DeformableOffsets((1, 2, 1, 1), (0, 0, 0, 0), (2, 2))
    with pytest.raises(ValueError, match="modulated"):
        ops.DeformableOffsets((1, 1, 1, 1), (0, 0, 0, 0), (2, 2), modulated=False)
    with pytest.raises(ValueError, match="offsets"):
        prim = ops.DeformableOffsets((1, 1, 1, 1), (0, 0, 0, 0), (2, 2))
        prim(ms.Tensor(np.zeros((1, 2, 4, 4), np.float32)), ms.Tensor(np.zeros((1, 12, 2, 2), np.float32)))
