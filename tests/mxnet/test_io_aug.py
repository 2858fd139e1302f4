"""ImageRecordIter's augmentations against real MXNet 1.9.1 (fixtures: tests/fixtures/mxnet/gen_io_aug.py):
every case of io_aug_cases.py (rotation, shear, aspect ratio, random scale, image size limits, every
interpolation, crop sizes, random resized crops, brightness / contrast / saturation, HLS offsets, PCA noise
and all of them at once) gives MXNet's batches to the pixel; and arguments MXNet refuses are errors."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import cellonnx.mxnet as mx
from tests.mxnet import io_aug_cases, io_cases
from tests.mxnet import recorded as recorded_

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet" / "io_aug" / "io_aug.npz"


def recorded() -> dict[str, np.ndarray]:
    return recorded_.load(FIXTURE)


def test_fixture_is_mxnet_1_9_1() -> None:
    assert str(recorded()["meta/version"]) == "1.9.1"


def test_every_case_is_recorded() -> None:
    assert {k.split("/")[0] for k in recorded()} - {"meta"} == set(io_aug_cases.CASES)


@pytest.mark.parametrize("name", sorted(io_aug_cases.CASES))
def test_matches_mxnet(name: str, tmp_path: Path) -> None:
    got = io_aug_cases.CASES[name](mx, tmp_path)
    recorded_.assert_matches(name, got, recorded())


@pytest.mark.parametrize(("kwargs", "match"), [
    (dict(rotate=10, inter_method=0), "invalid inter_method 0"),
    (dict(resize=12, inter_method=5), "invalid inter_method 5"),
    (dict(random_resized_crop=True, rand_crop=True, max_random_area=0.5), "conflicts with"),
    (dict(random_resized_crop=True, min_random_area=0.9, max_random_area=0.5), "min_random_area"),
    (dict(min_crop_size=5, max_crop_size=30), "smaller than max_crop_size"),
    (dict(max_rotate_angle="x"), "max_rotate_angle='x' must be an integer"),
])
def test_refused_arguments(tmp_path: Path, kwargs: dict, match: str) -> None:
    rec, _ = io_cases._pack_rec(mx, tmp_path)
    with pytest.raises(mx.MXNetError, match=match):
        mx.io.ImageRecordIter(path_imgrec=rec, data_shape=(3, 8, 8), batch_size=1, **kwargs).next()


def test_colour_needs_three_channels(tmp_path: Path) -> None:
    rec, _ = io_cases._pack_rec(mx, tmp_path)
    with pytest.raises(mx.MXNetError, match="need colour images"):
        mx.io.ImageRecordIter(path_imgrec=rec, data_shape=(1, 8, 8), batch_size=1, brightness=0.2).next()
