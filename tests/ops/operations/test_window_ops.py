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
