"""mx.image's augmenters, CreateAugmenter and ImageIter against real MXNet 1.9.1 (fixtures:
tests/fixtures/mxnet/gen_image_aug.py): every case of image_aug_cases.py, the random ones seeded alike on
both sides, so the same crops, flips, jitters and batches come out; plus seeded statistics of the random
augmenters over many draws."""
from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

import cellonnx.mxnet as mx
from tests.mxnet import image_aug_cases
from tests.mxnet import recorded as recorded_

IMAGES = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet" / "image"


def recorded() -> dict[str, np.ndarray]:
    return recorded_.load(IMAGES / "augment.npz")


def test_fixture_is_mxnet_1_9_1() -> None:
    assert str(recorded()["meta/version"]) == "1.9.1"


@pytest.mark.parametrize("name", sorted(image_aug_cases.CASES))
def test_matches_mxnet(name: str) -> None:
    got = image_aug_cases.run(mx, IMAGES, name)
    recorded_.assert_matches(name, got, recorded(), float_rtol=1e-5)


def _photo() -> mx.nd.NDArray:
    return mx.image.imdecode((IMAGES / "photo.png").read_bytes()).astype("float32")


def test_random_augmenters_statistics() -> None:
    random.seed(3)
    np.random.seed(3)
    img = _photo()
    flips = sum(bool((mx.image.HorizontalFlipAug(0.3)(img).asnumpy() != img.asnumpy()).any())
                for _ in range(400))
    assert 90 <= flips <= 150  # 120 expected
    scales = [float(mx.image.BrightnessJitterAug(0.2)(img).asnumpy().sum() / img.asnumpy().sum())
              for _ in range(400)]
    assert 0.8 - 1e-5 <= min(scales) and max(scales) <= 1.2 + 1e-5 and abs(np.mean(scales) - 1.0) < 0.02
    crop = mx.image.RandomSizedCropAug((5, 4), (0.3, 0.6), (0.75, 1.33))
    for _ in range(50):
        assert crop(img).shape == (4, 5, 3)
    shift = [mx.image.LightingAug(0.1, image_aug_cases.EIGVAL, image_aug_cases.EIGVEC)(img).asnumpy() -
             img.asnumpy() for _ in range(300)]
    per_image = np.array([s[0, 0] for s in shift])  # one RGB offset per image, the same at every pixel
    assert np.allclose(shift[0], shift[0][0, 0], atol=1e-4)
    assert abs(per_image.mean()) < 1.0 and 2.0 < per_image.std() < 9.0


def test_image_iter_on_np_arrays_and_errors(tmp_path: Path) -> None:
    mx.npx.set_np()
    try:
        it = mx.image.ImageIter(2, (3, 4, 4), imglist=[[1.0, "photo.png"], [2.0, "gray.png"]],
                                path_root=str(IMAGES))
        batch = it.next()
        assert isinstance(batch.data[0], mx.np.ndarray) and batch.data[0].shape == (2, 3, 4, 4)
    finally:
        mx.npx.reset_np()
    with pytest.raises(mx.MXNetError, match=r"x\.rec"):  # a missing RecordIO file is named
        mx.image.ImageIter(2, (3, 4, 4), path_imgrec=str(tmp_path / "x.rec"))
    with pytest.raises(ValueError, match="3 channels"):
        mx.image.ImageIter(2, (1, 4, 4), imglist=[[1.0, "photo.png"]], path_root=str(IMAGES))
