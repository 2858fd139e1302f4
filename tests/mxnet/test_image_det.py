"""mx.image's detection augmenters, ImageDetIter, ImageIter over RecordIO files, imrotate and random_rotate
against real MXNet 1.9.1 (fixtures: tests/fixtures/mxnet/gen_image_det.py): every case of
image_det_cases.py, the random ones seeded alike on both sides, gives MXNet's images, boxes, batches and
pads; plus nd.imdecode and broken inputs."""
from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

import cellonnx.mxnet as mx
from tests.mxnet import image_det_cases
from tests.mxnet import recorded as recorded_

IMAGES = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet" / "image"


def recorded() -> dict[str, np.ndarray]:
    return recorded_.load(IMAGES / "detection.npz")


def test_fixture_is_mxnet_1_9_1() -> None:
    assert str(recorded()["meta/version"]) == "1.9.1"


@pytest.mark.parametrize("name", sorted(image_det_cases.CASES))
def test_matches_mxnet(name: str, tmp_path: Path) -> None:
    got = image_det_cases.run(mx, IMAGES, tmp_path / name, name)
    recorded_.assert_matches(name, got, recorded(), float_rtol=1e-5)


def _png(pixels: np.ndarray) -> bytes:
    buf = io.BytesIO()
    Image.fromarray(pixels).save(buf, "PNG")
    return buf.getvalue()


def test_nd_imdecode() -> None:
    pixels = (np.arange(4 * 5 * 3) * 11 % 256).astype(np.uint8).reshape(4, 5, 3)
    buf = _png(pixels)
    got = mx.nd.imdecode(buf)
    np.testing.assert_array_equal(got.asnumpy(), pixels[:, :, ::-1].transpose(2, 0, 1).astype(np.float32))
    assert got.dtype == np.float32
    clipped = mx.nd.imdecode(buf, clip_rect=(1, 0, 4, 3), mean=mx.nd.ones((3, 3, 3)))
    np.testing.assert_array_equal(clipped.asnumpy(), pixels[0:3, 1:4, ::-1].transpose(2, 0, 1) - 1.0)
    out = mx.nd.zeros((2, 3, 4, 5))
    mx.nd.imdecode(buf, out=out, index=1)
    np.testing.assert_array_equal(out.asnumpy()[1], got.asnumpy())
    assert mx.nd.imdecode(buf, channels=1).shape == (1, 4, 5)
    with pytest.raises(ValueError, match="outside"):
        mx.nd.imdecode(buf, clip_rect=(0, 0, 9, 9))
    with pytest.raises(ValueError, match="not an image"):
        mx.nd.imdecode(b"not an image")


def test_imrotate_errors_and_gradient() -> None:
    img = mx.nd.ones((3, 4, 4))
    with pytest.raises(ValueError, match="cannot be both"):
        mx.image.imrotate(img, 10, zoom_in=True, zoom_out=True)
    with pytest.raises(TypeError, match="float32"):
        mx.image.imrotate(img.astype("float64"), 10)
    with pytest.raises(TypeError, match="scalar"):
        mx.image.imrotate(img, mx.nd.array([10.0]))
    with pytest.raises(ValueError, match="equal"):
        mx.image.imrotate(mx.nd.ones((2, 3, 4, 4)), mx.nd.array([1.0, 2.0, 3.0]))
    x = mx.nd.array(np.random.default_rng(0).random((1, 1, 5, 5)).astype(np.float32))
    x.attach_grad()
    with mx.autograd.record():
        y = (mx.image.imrotate(x, mx.nd.array([30.0])) ** 2).sum()
    y.backward()
    assert x.grad.shape == (1, 1, 5, 5) and float(np.abs(x.grad.asnumpy()).sum()) > 0


def test_det_iter_bad_labels(tmp_path: Path) -> None:
    name = image_det_cases.FILES[0]
    with pytest.raises(RuntimeError, match="Label shape is invalid"):
        mx.image.ImageDetIter(1, (3, 4, 4), imglist=[[[2, 5, 0, 0.1], name]], path_root=str(IMAGES))
    with pytest.raises(RuntimeError, match="inconsistent with annotation width"):
        mx.image.ImageDetIter(1, (3, 4, 4), imglist=[[[2, 5, 0, 0.1, 0.1, 0.5, 0.5, 1], name]],
                              path_root=str(IMAGES))
    with pytest.raises(ValueError, match="reduce label count"):
        it = mx.image.ImageDetIter(1, (3, 4, 4), imglist=[[image_det_cases._label(0), name]],
                                   path_root=str(IMAGES))
        it.reshape(label_shape=(1, 5))


def test_rec_iter_broken_record(tmp_path: Path) -> None:
    rec, idx = image_det_cases._pack(mx, IMAGES, tmp_path, det=False)
    data = bytearray(Path(rec).read_bytes())
    data[40:60] = b"\0" * 20  # inside the first image's bytes
    Path(rec).write_bytes(bytes(data))
    it = mx.image.ImageIter(1, (3, 4, 4), path_imgrec=rec, path_imgidx=idx)
    with pytest.raises(RuntimeError, match="Broken image"):
        it.next()
