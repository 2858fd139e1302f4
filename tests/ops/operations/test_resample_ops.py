"""ops.ResizeArea and ops.ScaleAndTranslate against MindSpore 2.10 on CPU
(tests/fixtures/mindspore/gen_pending_ops.py): every kernel, with and without antialias, down- and
up-scaling, translated, float and integer images; plus MindSpore's errors. Gradients and the ONNX lowering are
checked by the op table (tests/ops/cases_patches.py)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import ops
from tests.tolerance import assert_close

FIX = np.load(Path(__file__).parents[2] / "fixtures/mindspore/pending_ops/resample.npz")
KERNELS = ("lanczos1", "lanczos3", "lanczos5", "gaussian", "box", "triangle", "keyscubic", "mitchellcubic")
SAT = (((3, 4), (0.6, 0.55), (0.0, 0.0)), ((9, 12), (1.8, 1.7), (0.5, -1.0)),
       ((4, 5), (0.8, 0.7), (-0.7, 1.2)))


def _i32(v):
    return ms.Tensor(np.array(v, np.int32))


def _f32(v):
    return ms.Tensor(np.array(v, np.float32))


@pytest.mark.parametrize("align", [False, True])
def test_resize_area_matches_mindspore(align):
    for i, size in enumerate(((3, 4), (8, 10), (5, 3))):
        got = ops.ResizeArea(align)(ms.Tensor(FIX["x"]), _i32(size))
        assert got.dtype == ms.float32
        assert_close(got.asnumpy(), FIX[f"area{int(align)}{i}"], rtol=1e-5)
    got = ops.ResizeArea(align)(ms.Tensor(FIX["xi"]), _i32([3, 4]))
    assert_close(got.asnumpy(), FIX[f"area{int(align)}i"], rtol=1e-6)


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("antialias", [False, True])
def test_scale_and_translate_matches_mindspore(kernel, antialias):
    for i, (size, scale, trans) in enumerate(SAT):
        prim = ops.ScaleAndTranslate(kernel, antialias)
        got = prim(ms.Tensor(FIX["x"]), _i32(size), _f32(scale), _f32(trans))
        assert got.dtype == ms.float32 and got.shape == FIX[f"sat_{kernel}{int(antialias)}{i}"].shape
        assert_close(got.asnumpy(), FIX[f"sat_{kernel}{int(antialias)}{i}"], rtol=1e-5)
    got = ops.ScaleAndTranslate()(ms.Tensor(FIX["xi"]), _i32([3, 4]), _f32([0.7, 0.6]), _f32([0.2, 0.0]))
    assert_close(got.asnumpy(), FIX["sat_int"], rtol=1e-6)


def test_docstring_example():
    image = ms.Tensor(np.array([[[[9.0], [5.0], [2.0], [1.0]], [[6.0], [1.0], [9.0], [7.0]]]], np.float32))
    got = ops.ScaleAndTranslate()(image, _i32([2, 2]), _f32([1, 1]), _f32([1, 1]))
    np.testing.assert_allclose(got.asnumpy().ravel(), [0.0, 0.0, 0.0, 9.0], atol=1e-6)


def test_errors_as_mindspore():
    x = ms.Tensor(np.zeros((1, 4, 4, 1), np.float32))
    with pytest.raises(ValueError, match="kernel_type"):
        ops.ScaleAndTranslate("cubic")
    with pytest.raises(TypeError, match="align_corners"):
        ops.ResizeArea(1)
    with pytest.raises(TypeError, match="'size' must be int32"):
        ops.ResizeArea()(x, ms.Tensor(np.array([2, 2], np.int64)))
    with pytest.raises(ValueError, match="positive"):
        ops.ResizeArea()(x, _i32([0, 2]))
    with pytest.raises(ValueError, match="dimension of 'images' must be 4"):
        ops.ResizeArea()(ms.Tensor(np.zeros((4, 4, 1), np.float32)), _i32([2, 2]))
    with pytest.raises(TypeError, match="'scale' must be float32"):
        ops.ScaleAndTranslate()(x, _i32([2, 2]), ms.Tensor(np.array([1.0, 1.0])), _f32([0, 0]))


@pytest.mark.parametrize("centered", [False, True])
@pytest.mark.parametrize("normalized", [False, True])
def test_extract_glimpse_matches_mindspore(centered, normalized):
    g = np.load(Path(__file__).parents[2] / "fixtures/mindspore/pending_ops/glimpse.npz")
    off = g["off_n" if normalized else "off_u"]
    for i, size in enumerate(((3, 4), (2, 5))):
        prim = ops.ExtractGlimpse(centered, normalized, False, "zero")
        got = prim(ms.Tensor(g["x"]), _i32(size), ms.Tensor(off)).asnumpy()
        np.testing.assert_array_equal(got, g[f"y{int(centered)}{int(normalized)}{i}"])


@pytest.mark.parametrize("uniform, noise", [(True, "uniform"), (False, "gaussian")])
def test_extract_glimpse_noise_fills_only_outside(uniform, noise):
    x = np.random.default_rng(0).uniform(2.0, 3.0, (1, 4, 4, 1)).astype(np.float32)
    prim = ops.ExtractGlimpse(False, False, uniform, noise)
    got = prim(ms.Tensor(x), _i32([4, 4]), ms.Tensor(np.array([[1.0, 2.0]], np.float32))).asnumpy()
    np.testing.assert_array_equal(got[0, 1:, :], x[0, :3, :])  # window rows -1..2, cols 0..3
    assert np.all(got[0, 0] != 0)
    if noise == "uniform":
        assert np.all((got[0, 0] >= x.min()) & (got[0, 0] <= x.max()))


def test_extract_glimpse_errors():
    with pytest.raises(ValueError, match="uniform when uniform_noise is True"):
        ops.ExtractGlimpse(noise="zero")
    with pytest.raises(ValueError, match="noise"):
        ops.ExtractGlimpse(uniform_noise=False, noise="salt")
    with pytest.raises(ValueError, match="offsets"):
        ops.ExtractGlimpse()(ms.Tensor(np.zeros((2, 4, 4, 1), np.float32)), _i32([2, 2]),
                             ms.Tensor(np.zeros((1, 2), np.float32)))


def _distort(prim, size, boxes, cover, dtype=np.int32):
    return prim(ms.Tensor(np.array(size, dtype)), ms.Tensor(np.array(boxes, np.float32)),
                ms.Tensor(np.array([cover], np.float32)))


def test_sample_distorted_bounding_box_meets_its_constraints():
    """MindSpore's draws are its own; each window drawn here keeps the constraints: aspect ratio and area
    within range, inside the image, covering 80% of the box, begin / size / bboxes describing one window."""
    prim = ops.SampleDistortedBoundingBoxV2(seed=1, seed2=1, aspect_ratio_range=(0.9, 1.1),
                                            area_range=(0.1, 1.0))
    h, w = 640, 480
    y0, x0, y1, x1 = int(0.38 * h), int(0.17 * w), int(0.95 * h), int(0.40 * w)
    for _ in range(20):
        begin, size, bboxes = _distort(prim, [h, w, 3], [[[0.38, 0.17, 0.95, 0.40]]], 0.8)
        assert begin.dtype == size.dtype == ms.int32
        assert bboxes.dtype == ms.float32 and bboxes.shape == (1, 1, 4)
        (by, bx, bz), (sh, sw, last) = begin.asnumpy().tolist(), size.asnumpy().tolist()
        assert bz == 0 and last == -1 and 0 <= by and by + sh <= h and 0 <= bx and bx + sw <= w
        assert 0.1 * h * w <= sh * sw <= h * w and abs(sw / sh - 1.0) <= 0.1 + 1.0 / sh
        inter = max(min(bx + sw, x1) - max(bx, x0), 0) * max(min(by + sh, y1) - max(by, y0), 0)
        assert inter / ((x1 - x0) * (y1 - y0)) >= 0.8
        assert_close(bboxes.asnumpy().ravel(), np.array([by / h, bx / w, (by + sh) / h, (bx + sw) / w]),
                     rtol=1e-6)


def test_sample_distorted_bounding_box_falls_back_to_the_image():
    prim = ops.SampleDistortedBoundingBoxV2(area_range=(0.05, 0.1), max_attempts=5)
    begin, size, bboxes = _distort(prim, [40, 30, 3], [[[0.0, 0.0, 1.0, 1.0]]], 1.0, np.uint8)
    assert begin.asnumpy().tolist() == [0, 0, 0] and size.asnumpy().tolist() == [40, 30, 255]
    np.testing.assert_array_equal(bboxes.asnumpy(), [[[0.0, 0.0, 1.0, 1.0]]])


def test_sample_distorted_bounding_box_errors():
    with pytest.raises(ValueError, match="area_range"):
        ops.SampleDistortedBoundingBoxV2(area_range=(0.5, 1.5))
    with pytest.raises(TypeError, match="aspect_ratio_range"):
        ops.SampleDistortedBoundingBoxV2(aspect_ratio_range=(1, 2))
    with pytest.raises(ValueError, match="no bounding boxes"):
        _distort(ops.SampleDistortedBoundingBoxV2(), [4, 4, 3], np.zeros((1, 0, 4)), 0.1)
    whole = ops.SampleDistortedBoundingBoxV2(use_image_if_no_bounding_boxes=True)
    _distort(whole, [4, 4, 3], np.zeros((1, 0, 4)), 0.1)
