"""mx.image against MXNet 1.9.1 (OpenCV inside): the arrays tests/fixtures/mxnet/gen_image.py recorded from
the committed images. Decoding, nearest and uint8 bilinear resizing, crops and borders are compared exactly;
float32 resizing to float32 rounding (tests/tolerance.py); uint8 bicubic, area and Lanczos resizing, which
OpenCV computes in fixed point, within one level of MXNet's.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cellonnx.mxnet as mx
from tests.tolerance import assert_close

IMAGES = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet" / "image"
FILES = ("photo.png", "photo.jpg", "turned.jpg", "gray.png")
SIZES = [(17, 13), (6, 5), (14, 7), (5, 11)]
EXACT, LEVEL, FLOAT = "exact", "one level", "float32"


def _want() -> dict[str, np.ndarray]:
    with np.load(IMAGES / "expected.npz") as f:
        return {k: f[k] for k in f.files}


WANT = _want()


def _pixels() -> Any:
    return mx.image.imdecode((IMAGES / "photo.png").read_bytes())


def _decode(name: str, kwargs: dict) -> Any:
    return mx.image.imdecode((IMAGES / name).read_bytes(), **kwargs)


def _float_pixels() -> Any:
    return _pixels().astype("float32") / 255


# key -> (compute, comparison)
ROWS: dict[str, tuple[Callable[[], Any], str]] = {}
for _name in FILES:
    for _call, _kw in (("decode", {}), ("decode_bgr", {"to_rgb": 0}), ("decode_gray", {"flag": 0})):
        ROWS[f"{_call}/{_name}"] = ((lambda n=_name, k=_kw: _decode(n, k)), EXACT)
for _interp in range(5):
    for _w, _h in SIZES:
        if _interp == 3 and (_w > 14 or _h > 11):
            continue
        ROWS[f"resize/{_interp}/{_w}x{_h}"] = (
            lambda i=_interp, w=_w, h=_h: mx.image.imresize(_pixels(), w, h, interp=i),
            EXACT if _interp in (0, 1, 2, 4) else LEVEL,
        )
        ROWS[f"resize_f32/{_interp}/{_w}x{_h}"] = (
            lambda i=_interp, w=_w, h=_h: mx.image.imresize(_float_pixels(), w, h, interp=i),
            FLOAT,
        )
for _size in (8, 15):
    ROWS[f"resize_short/{_size}"] = ((lambda s=_size: mx.image.resize_short(_pixels(), s)), EXACT)
for _kind in range(5):
    ROWS[f"border/{_kind}"] = (
        lambda k=_kind: mx.image.copyMakeBorder(_pixels(), 2, 1, 3, 0, type=k, value=7), EXACT
    )
ROWS["center_crop"] = (lambda: mx.image.center_crop(_pixels(), (9, 6))[0], EXACT)
ROWS["center_crop_box"] = (lambda: np.array(mx.image.center_crop(_pixels(), (9, 6))[1]), EXACT)
ROWS["center_crop_up"] = (lambda: mx.image.center_crop(_pixels(), (20, 16), interp=1)[0], EXACT)
ROWS["center_crop_up_box"] = (lambda: np.array(mx.image.center_crop(_pixels(), (20, 16), interp=1)[1]), EXACT)
ROWS["fixed_crop"] = (lambda: mx.image.fixed_crop(_pixels(), 2, 3, 8, 6, size=(12, 9), interp=1), EXACT)
ROWS["color_normalize"] = (
    lambda: mx.image.color_normalize(
        _float_pixels(), mx.nd.array([0.4, 0.5, 0.6]), mx.nd.array([0.2, 0.25, 0.3])
    ),
    FLOAT,
)


def test_every_recorded_array_has_a_row() -> None:
    assert sorted(ROWS) == sorted(WANT)


@pytest.mark.parametrize("key", sorted(ROWS))
def test_matches_mxnet(key: str) -> None:
    compute, how = ROWS[key]
    got = compute()
    got = got.asnumpy() if hasattr(got, "asnumpy") else np.asarray(got)
    want = WANT[key]
    assert got.dtype == want.dtype or (how == EXACT and got.dtype.kind == want.dtype.kind == "i"), (
        f"{key}: dtype {got.dtype}, MXNet {want.dtype}"
    )
    if how == EXACT:
        np.testing.assert_array_equal(got, want, err_msg=key)
    elif how == LEVEL:
        assert got.shape == want.shape, f"{key}: shape {got.shape}, MXNet {want.shape}"
        diff = np.abs(got.astype(np.int64) - want.astype(np.int64))
        assert diff.max() <= 1, f"{key}: {int((diff > 1).sum())} values more than one level from MXNet's"
    else:
        assert_close(got, want, 1e-6, 4e-7, key)


def test_decode_rejects_text_and_garbage() -> None:
    with pytest.raises(ValueError, match="bytes"):
        mx.image.imdecode("photo.png")
    with pytest.raises(ValueError, match="imdecode"):
        mx.image.imdecode(b"not an image")


def test_imread_and_np_mode(tmp_path: Path) -> None:
    data = mx.image.imread(str(IMAGES / "photo.png"))
    assert isinstance(data, mx.nd.NDArray)
    np.testing.assert_array_equal(data.asnumpy(), WANT["decode/photo.png"])
    from cellonnx.mxnet import util

    util.set_np()
    try:
        arr = mx.image.imdecode((IMAGES / "photo.png").read_bytes())
        assert isinstance(arr, mx.np.ndarray)
    finally:
        util.reset_np()
