"""mx.test_utils' data helpers and mx.model's names against real MXNet 1.9.1
(tests/fixtures/mxnet/gen_data_helpers.py): with the files present they give what MXNet gives; with a file
absent they say which URL to fetch and where to put it."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import cellonnx.mxnet as mx
from tests.mxnet import data_helper_cases
from tests.tolerance import assert_close

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet"
WANT = np.load(FIXTURES / "data_helpers.npz")
RECORD = json.loads((FIXTURES / "data_helpers.json").read_text())


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    data_helper_cases.write_files(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("key", ["train_data", "train_label", "test_data", "test_label"])
def test_get_mnist(files: Path, key: str) -> None:
    got = mx.test_utils.get_mnist()[key]
    want = WANT[f"mnist/{key}"]
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)


def test_get_mnist_iterator(files: Path) -> None:
    train, val = mx.test_utils.get_mnist_iterator(batch_size=4, input_shape=(784,))
    assert [[d.name, list(d.shape)] for d in train.provide_data] == RECORD["iter/train/provide_data"]
    batch = next(iter(val))
    np.testing.assert_array_equal(batch.data[0].asnumpy(), WANT["iter/val/data"])
    np.testing.assert_array_equal(batch.label[0].asnumpy(), WANT["iter/val/label"])


def test_get_zip_and_bz2_data(files: Path) -> None:
    mx.test_utils.get_zip_data("z", "http://example.com/pack.zip", "pack.zip")
    mx.test_utils.get_bz2_data(".", "text", "http://example.com/text.bz2", "text.bz2")
    got = sorted(str(p.relative_to(files)) for p in files.rglob("*") if p.is_file() and "ubyte" not in p.name)
    assert got == RECORD["files"]
    assert (files / "text").read_text() == RECORD["bz2_text"]


def test_download_names_what_to_fetch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(OSError, match=r"http://data.mxnet.io/data/mnist/train-labels-idx1-ubyte.gz is "
                                      r"needed at .*train-labels-idx1-ubyte.gz"):
        mx.test_utils.get_mnist()
    with pytest.raises(OSError, match="mnist.zip is needed at .*data/mnist.zip"):
        mx.test_utils.get_mnist_ubyte()
    assert (tmp_path / "data").is_dir()
    assert mx.test_utils.download_model("no-such-model") == (None, 0)
    with pytest.raises(OSError, match="resnet-18-symbol.json is needed at .*models/imagenet1k-resnet-18-"):
        mx.test_utils.download_model("imagenet1k-resnet-18", dst_dir="models")


def test_get_im2rec_path_says_where_it_looked(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MXNET_HOME", str(tmp_path))
    with pytest.raises(OSError, match="Could not find path to tools/im2rec.py"):
        mx.test_utils.get_im2rec_path()
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "im2rec.py").write_text("")
    assert mx.test_utils.get_im2rec_path() == str(tmp_path / "tools" / "im2rec.py")


def test_model_get_updater_is_mxnets() -> None:
    updater = mx.model.get_updater(mx.optimizer.SGD(learning_rate=0.1, momentum=0.9, wd=0.01))
    weight = mx.nd.array(np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3))
    for step in range(3):
        updater(0, mx.nd.array(np.full((2, 3), 0.5 * (step + 1), dtype=np.float32)), weight)
        assert_close(weight.asnumpy(), WANT[f"updater/{step}"], rtol=1e-6, scale_rtol=1e-6)


def test_model_names() -> None:
    assert mx.model.cpu is mx.cpu and mx.model.Context is mx.Context
    assert mx.model.mx_real_t is np.float32 and mx.model.Uniform is mx.init.Uniform
    assert mx.model.LogValidationMetricsCallback is mx.callback.LogValidationMetricsCallback
    assert mx.test_utils.Context is mx.Context and mx.test_utils.array is mx.nd.array
