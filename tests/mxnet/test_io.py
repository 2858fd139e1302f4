"""mx.io's iterators against real MXNet 1.9.1 (fixtures: tests/fixtures/mxnet/gen_io.py): every case of
io_cases.py (CSVIter, LibSVMIter, MNISTIter, ResizeIter, PrefetchingIter, DataDesc) gives MXNet's batches,
labels, pads, indices and descriptions; and broken or short input files give errors that name the file and
the line or offset."""
from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest

import cellonnx.mxnet as mx
from tests.mxnet import io_cases
from tests.mxnet import recorded as recorded_

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet" / "io" / "io.npz"


def recorded() -> dict[str, np.ndarray]:
    return recorded_.load(FIXTURE)


def test_fixture_is_mxnet_1_9_1() -> None:
    assert str(recorded()["meta/version"]) == "1.9.1"


@pytest.mark.parametrize("name", sorted(io_cases.CASES))
def test_matches_mxnet(name: str, tmp_path: Path) -> None:
    got = io_cases.run(mx, tmp_path / name, name)
    recorded_.assert_matches(name, got, recorded())


def test_native_iterators_are_mxdataiters(tmp_path: Path) -> None:
    path = tmp_path / "d.csv"
    path.write_text(io_cases.CSV)
    it = mx.io.CSVIter(data_csv=str(path), data_shape=(3,), batch_size=2)
    assert type(it) is mx.io.MXDataIter and mx.io.CSVIter.__name__ == "CSVIter"
    with pytest.raises(TypeError, match="keyword"):
        mx.io.CSVIter(str(path))


def _error(make, match: str) -> None:
    with pytest.raises(mx.MXNetError, match=match):
        make()


def test_broken_csv(tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("1,2,3\n4,x,6\n")
    _error(lambda: mx.io.CSVIter(data_csv=str(bad), data_shape=(3,), batch_size=1), r"bad\.csv, line 2: 'x'")
    short = tmp_path / "short.csv"
    short.write_text("1,2,3\n4,5\n")
    _error(lambda: mx.io.CSVIter(data_csv=str(short), data_shape=(3,), batch_size=1),
           r"short\.csv, line 2: 2 values; the shape given needs 3")
    _error(lambda: mx.io.CSVIter(data_csv=str(tmp_path / "none.csv"), data_shape=(3,), batch_size=1),
           "no such file")
    _error(lambda: mx.io.CSVIter(data_csv=str(short), data_shape=(3,), batch_size=1, dtype="float64"),
           "float64 is not supported")


def test_broken_libsvm(tmp_path: Path) -> None:
    bad = tmp_path / "bad.t"
    bad.write_text("1 0:1\n2 0:1 5:2\n")
    _error(lambda: mx.io.LibSVMIter(data_libsvm=str(bad), data_shape=(3,), batch_size=1),
           r"bad\.t, line 2: feature index 5 is out of range")
    bad.write_text("1 0:1\n2 0-1\n")
    _error(lambda: mx.io.LibSVMIter(data_libsvm=str(bad), data_shape=(3,), batch_size=1),
           r"bad\.t, line 2: expected 'label index:value")
    bad.write_text("1 2:1 0:1\n")
    _error(lambda: mx.io.LibSVMIter(data_libsvm=str(bad), data_shape=(3,), batch_size=1), "ascending")


def test_broken_mnist(tmp_path: Path) -> None:
    img, lab = io_cases._mnist_files(tmp_path)
    _error(lambda: mx.io.MNISTIter(image=lab, label=lab, batch_size=1),
           r"lab\.idx \(offset 0\): magic number")
    cut = tmp_path / "cut.idx"
    cut.write_bytes(Path(img).read_bytes()[:-5])
    _error(lambda: mx.io.MNISTIter(image=str(cut), label=lab, batch_size=1), r"cut\.idx: the header says")
    cut.write_bytes(struct.pack(">I", 2051))
    _error(lambda: mx.io.MNISTIter(image=str(cut), label=lab, batch_size=1), "shorter than an idx header")
    _error(lambda: mx.io.MNISTIter(image=str(tmp_path / "no"), label=lab, batch_size=1), "cannot open")
    _error(lambda: mx.io.MNISTIter(image=img, label=lab, batch_size=100), "batch_size 100")


@pytest.mark.parametrize("name", ["CSVIter", "LibSVMIter", "MNISTIter", "ImageRecordIter",
                                  "ImageRecordIter_v1",
                                  "ImageRecordUInt8Iter", "ImageRecordUInt8Iter_v1", "ImageRecordInt8Iter",
                                  "ImageDetRecordIter"])
def test_docstring_examples(name: str) -> None:
    import doctest

    fn = getattr(mx.io, name)
    assert fn.__doc__.splitlines()[0].strip() and "Examples:" in fn.__doc__
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in doctest.DocTestFinder().find(fn, name, globs={}):
        runner.run(test)
    assert runner.failures == 0, f"{name}: {runner.failures} docstring example(s) failed"


def test_imagerec_errors(tmp_path: Path) -> None:
    rec, _ = io_cases._pack_rec(mx, tmp_path)
    _error(lambda: mx.io.ImageRecordIter(path_imgrec=rec, data_shape=(3, 4, 4), batch_size=1,
                                         dtype="float16"),
           "unknown dtype")
    _error(lambda: mx.io.ImageRecordIter(path_imgrec=rec, data_shape=(3, 4, 4), batch_size=1, bogus=1),
           "unknown argument 'bogus'")
    data = bytearray(Path(rec).read_bytes())
    data[40:60] = b"\0" * 20  # inside the first image's bytes
    Path(rec).write_bytes(bytes(data))
    _error(lambda: mx.io.ImageRecordIter(path_imgrec=rec, data_shape=(3, 4, 4), batch_size=1),
           r"images\.rec, record 0 at byte offset 0")
    Path(rec).write_bytes(bytes(data[:-7]))
    _error(lambda: mx.io.ImageRecordIter(path_imgrec=rec, data_shape=(3, 4, 4), batch_size=1), r"images\.rec")


def test_imagerec_random_crop_and_mirror(tmp_path: Path) -> None:
    """rand_crop / rand_mirror: every crop lies inside the image, about half the images are mirrored."""
    rec, _ = io_cases._pack_rec(mx, tmp_path)
    np.random.seed(0)
    plain = mx.io.ImageRecordUInt8Iter(path_imgrec=rec, data_shape=(3, 11, 11), batch_size=5).next()
    full = plain.data[0].asnumpy()[0]  # photo.png, 11 x 14: centre crop at x 1
    it = mx.io.ImageRecordUInt8Iter(path_imgrec=rec, data_shape=(3, 11, 11), batch_size=5, rand_crop=True,
                                    rand_mirror=True)
    image = mx.image.imdecode((io_cases.IMAGES / "photo.png").read_bytes()).asnumpy().transpose(2, 0, 1)
    mirrored = 0
    for _ in range(40):
        crop = it.next().data[0].asnumpy()[0]
        it.reset()
        windows = [image[:, :, x:x + 11] for x in range(4)]
        plain_hit = any((crop == w).all() for w in windows)
        flip_hit = any((crop == w[:, :, ::-1]).all() for w in windows)
        assert plain_hit or flip_hit
        mirrored += flip_hit and not plain_hit
    assert 8 <= mirrored <= 32 and full.shape == (3, 11, 11)
