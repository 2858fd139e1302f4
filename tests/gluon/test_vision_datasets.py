"""gluon.data.vision datasets on tiny files in MXNet's formats, against what MXNet 1.9.1 read from the same
files (tests/fixtures/mxnet/gen_vision_datasets.py), and their errors when files are missing."""
from __future__ import annotations

import shutil
import warnings
from pathlib import Path

import numpy as np
import pytest

import cellonnx.mxnet as mx
from cellonnx.gluon.data import DataLoader, vision

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet" / "vision"
WANT = np.load(HERE / "expected.npz")


def _check(key, data):
    assert len(data) == int(WANT[f"{key}/len"])
    for i in range(len(data)):
        x, y = data[i]
        assert isinstance(x, mx.nd.NDArray)
        want = WANT[f"{key}/{i}/x"]
        assert x.asnumpy().dtype == want.dtype
        np.testing.assert_array_equal(x.asnumpy(), want)
        ytype = str(WANT[f"{key}/{i}/ytype"])
        got_y = y.asnumpy() if hasattr(y, "asnumpy") else y
        np.testing.assert_array_equal(np.asarray(got_y), WANT[f"{key}/{i}/y"])
        assert type(y).__name__ == ytype, (key, i, type(y), ytype)


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the tiny files are not MXNet's downloads (SHA-1 differs)
        return fn(*args, **kwargs)


DATASETS = [
    *[(f"mnist/{t}", vision.MNIST, "mnist", {"train": bool(t)}) for t in (0, 1)],
    *[(f"fashion/{t}", vision.FashionMNIST, "fashion-mnist", {"train": bool(t)}) for t in (0, 1)],
    *[(f"cifar10/{t}", vision.CIFAR10, "cifar10", {"train": bool(t)}) for t in (0, 1)],
    *[(f"cifar100/{t}/{f}", vision.CIFAR100, "cifar100", {"train": bool(t), "fine_label": bool(f)})
      for t in (0, 1) for f in (0, 1)],
]


@pytest.mark.parametrize("key, cls, folder, kwargs", DATASETS, ids=[d[0] for d in DATASETS])
def test_downloaded_datasets(key, cls, folder, kwargs, tmp_path):
    root = tmp_path / folder
    shutil.copytree(HERE / folder, root)
    with pytest.warns(UserWarning, match="not MXNet's copy"):
        data = cls(str(root), **kwargs)
    _check(key, data)


def test_image_datasets():
    _check("record/1", vision.ImageRecordDataset(str(HERE / "images.rec")))
    _check("record/0", vision.ImageRecordDataset(str(HERE / "images.rec"), flag=0))
    folder = _quiet(vision.ImageFolderDataset, str(HERE / "folder"))
    _check("folder", folder)
    assert folder.synsets == WANT["folder/synsets"].tolist()
    assert [str(Path(p).relative_to(HERE)) for p, _ in folder.items] == WANT["folder/items"].tolist()
    _check("folder_transformed", _quiet(vision.ImageFolderDataset, str(HERE / "folder"), flag=0,
                                        transform=lambda x, y: (x, y + 10)))
    with pytest.warns(UserWarning, match="Ignoring .*README, which is not a directory"):
        vision.ImageFolderDataset(str(HERE / "folder"))


def test_image_list_dataset(tmp_path):
    shutil.copy(HERE / "folder" / "cat" / "0_photo.png", tmp_path / "a.png")
    (tmp_path / "list.lst").write_text("5\t1.5\ta.png\n7\t2\t3\ta.png\n")
    data = vision.ImageListDataset(str(tmp_path), "list.lst")
    img, label = data[1]
    np.testing.assert_array_equal(img.asnumpy(), WANT["folder/0/x"])
    assert label.asnumpy().tolist() == [2.0, 3.0] and len(data) == 2
    data = vision.ImageListDataset(str(tmp_path), [[4, "a.png"], [[1, 2], "a.png"]], flag=0)
    assert data[0][0].shape[-1] == 1 and data[1][1].asnumpy().tolist() == [1.0, 2.0]
    with pytest.raises(ValueError, match="imglist must be filename or list"):
        vision.ImageListDataset(str(tmp_path), None)


def test_missing_files_say_where_to_put_them(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"train-images-idx3-ubyte.gz' is missing .* put it in"):
        vision.MNIST(str(tmp_path / "mnist"))
    with pytest.raises(FileNotFoundError, match=r"data_batch_1.bin.* cifar-10-binary.tar.gz"):
        vision.CIFAR10(str(tmp_path / "cifar10"))
    with pytest.raises(FileNotFoundError, match=r"train.bin, test.bin missing"):
        vision.CIFAR100(str(tmp_path / "cifar100"))


def test_cifar_archive_is_extracted(tmp_path):
    import tarfile

    with tarfile.open(tmp_path / "cifar-10-binary.tar.gz", "w:gz") as tar:
        for f in sorted((HERE / "cifar10").iterdir()):
            tar.add(f, arcname=f.name)
    data = _quiet(vision.CIFAR10, str(tmp_path), train=False)
    _check("cifar10/0", data)


def test_mnist_through_transforms_and_loader(tmp_path):
    shutil.copytree(HERE / "mnist", tmp_path / "mnist")
    data = _quiet(vision.MNIST, str(tmp_path / "mnist")).transform_first(vision.transforms.ToTensor())
    x, y = next(iter(DataLoader(data, batch_size=2)))
    assert x.shape == (2, 1, 28, 28) and y.asnumpy().dtype == np.int32
    np.testing.assert_allclose(x.asnumpy()[1, 0], WANT["mnist/1/1/x"][:, :, 0] / np.float32(255), rtol=1e-7)


@pytest.mark.parametrize("workers", [dict(num_workers=2), dict(num_workers=2, thread_pool=True)],
                         ids=["processes", "threads"])
def test_record_dataset_in_workers(tmp_path, workers):
    """Workers read one .rec file: forked processes reopen it, threads take turns at its seek and read."""
    rec = mx.recordio.MXIndexedRecordIO(str(tmp_path / "r.idx"), str(tmp_path / "r.rec"), "w")
    images = [np.full((4, 5, 3), i * 20, np.uint8) for i in range(12)]
    for i, img in enumerate(images):
        rec.write_idx(i, mx.recordio.pack_img(mx.recordio.IRHeader(0, float(i), i, 0), img, img_fmt=".png"))
    rec.close()
    data = vision.ImageRecordDataset(str(tmp_path / "r.rec"))
    for _ in range(2):
        batches = list(DataLoader(data, batch_size=3, **workers))
        x = np.concatenate([b[0].asnumpy() for b in batches])
        y = np.concatenate([b[1].asnumpy() for b in batches])
        np.testing.assert_array_equal(x, np.stack(images))  # gray images: BGR and RGB alike
        np.testing.assert_array_equal(y, np.arange(12, dtype=np.float32))
