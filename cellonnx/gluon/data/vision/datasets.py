"""gluon.data.vision datasets: MNIST, FashionMNIST, CIFAR10 and CIFAR100 read from MXNet's files in a local
``root`` folder (there is no network here: a missing file raises, saying which file goes where, and a file
whose SHA-1 differs from MXNet's copy is read with a warning), and the image datasets over a RecordIO file, a
folder of class folders, or an image list."""
from __future__ import annotations

import gzip
import os
import struct
import tarfile
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from cellonnx.gluon.data import dataset
from cellonnx.gluon.utils import check_sha1

__all__ = ["CIFAR10", "CIFAR100", "MNIST", "FashionMNIST", "ImageFolderDataset", "ImageListDataset",
           "ImageRecordDataset"]

_REPO = "https://apache-mxnet.s3-accelerate.dualstack.amazonaws.com/gluon/dataset/"


def _data_root(*parts: str) -> str:
    from cellonnx.mxnet import base

    return os.path.join(base.data_dir(), "datasets", *parts)


def _array(data: np.ndarray) -> Any:
    from cellonnx.mxnet.util import is_np_array

    if is_np_array():
        from cellonnx.mxnet.numpy import array
    else:
        from cellonnx.mxnet.ndarray import array
    return array(data, dtype=data.dtype)


def _local(root: str, namespace: str, name: str, sha1: str) -> str:
    """The path of ``name`` in ``root``; raises if it is missing, warns if it is not MXNet's copy."""
    path = os.path.join(root, name)
    if not os.path.isfile(path):
        raise FileNotFoundError(
            f"{namespace}: {path!r} is missing and cellonnx has no network access. Download "
            f"{_REPO}{namespace}/{name} (MXNet's copy, SHA-1 {sha1}) and put it in {root!r}.")
    if not check_sha1(path, sha1):
        warnings.warn(f"{namespace}: {path!r} is not MXNet's copy (SHA-1 {sha1}); reading it as it is",
                      stacklevel=3)
    return path


class MNIST(dataset._DownloadedDataset):
    """MNIST handwritten digits from the idx files (gzip) in ``root``: (28, 28, 1) uint8 images and int32
    labels.

    Args:
        root (str): the folder of ``train-images-idx3-ubyte.gz``, ``train-labels-idx1-ubyte.gz``,
            ``t10k-images-idx3-ubyte.gz`` and ``t10k-labels-idx1-ubyte.gz``.
            Default: ``~/.mxnet/datasets/mnist``.
        train (bool): the training set, else the test set. Default: True.
        transform (Callable): ``transform(data, label)`` applied to each sample. Default: None.

    Raises:
        FileNotFoundError: a file is missing (the message says where to put it).

    Examples:
        >>> import gzip, os, struct, tempfile
        >>> import numpy as np
        >>> from cellonnx.gluon.data.vision import MNIST
        >>> root = tempfile.mkdtemp()
        >>> with gzip.open(os.path.join(root, 't10k-images-idx3-ubyte.gz'), 'wb') as f:
        ...     _ = f.write(struct.pack('>IIII', 2051, 2, 28, 28) + bytes(2 * 784))
        >>> with gzip.open(os.path.join(root, 't10k-labels-idx1-ubyte.gz'), 'wb') as f:
        ...     _ = f.write(struct.pack('>II', 2049, 2) + bytes([7, 2]))
        >>> import warnings; warnings.simplefilter('ignore')
        >>> data = MNIST(root, train=False)
        >>> img, label = data[1]
        >>> len(data), img.shape, int(label)
        (2, (28, 28, 1), 2)
    """

    def __init__(self, root: str = _data_root("mnist"), train: bool = True,
                 transform: Callable[..., Any] | None = None) -> None:
        self._train = train
        self._train_data = ("train-images-idx3-ubyte.gz", "6c95f4b05d2bf285e1bfb0e7960c31bd3b3f8a7d")
        self._train_label = ("train-labels-idx1-ubyte.gz", "2a80914081dc54586dbdf242f9805a6b8d2a15fc")
        self._test_data = ("t10k-images-idx3-ubyte.gz", "c3a25af1f52dad7f726cce8cacb138654b760d48")
        self._test_label = ("t10k-labels-idx1-ubyte.gz", "763e7fa3757d93b0cdec073cef058b2004252c17")
        self._namespace = "mnist"
        super().__init__(root, transform)

    def _get_data(self) -> None:
        data, label = (self._train_data, self._train_label) if self._train else (self._test_data,
                                                                                 self._test_label)
        data_file = _local(self._root, self._namespace, *data)
        label_file = _local(self._root, self._namespace, *label)
        with gzip.open(label_file, "rb") as fin:
            struct.unpack(">II", fin.read(8))
            labels = np.frombuffer(fin.read(), dtype=np.uint8).astype(np.int32)
        from cellonnx.mxnet.util import is_np_array

        with gzip.open(data_file, "rb") as fin:
            struct.unpack(">IIII", fin.read(16))
            images = np.frombuffer(fin.read(), dtype=np.uint8)
        if images.size != len(labels) * 784:
            raise ValueError(f"{self._namespace}: {data_file!r} holds {images.size} pixels, not 784 for each "
                             f"of the {len(labels)} labels of {label_file!r}")
        self._data = _array(images.reshape(len(labels), 28, 28, 1))
        self._label = _array(labels) if is_np_array() else labels


class FashionMNIST(MNIST):
    """Fashion-MNIST (Zalando's clothing images) in MNIST's file format and layout.

    Args:
        root (str): the folder of the four idx files. Default: ``~/.mxnet/datasets/fashion-mnist``.
        train (bool): the training set, else the test set. Default: True.
        transform (Callable): ``transform(data, label)`` applied to each sample. Default: None.

    Examples:
        >>> import tempfile
        >>> from cellonnx.gluon.data.vision import FashionMNIST
        >>> try:
        ...     FashionMNIST(tempfile.mkdtemp())
        ... except FileNotFoundError as e:
        ...     print(str(e).split(' is missing')[0].endswith("train-images-idx3-ubyte.gz'"))
        True
    """

    def __init__(self, root: str = _data_root("fashion-mnist"), train: bool = True,
                 transform: Callable[..., Any] | None = None) -> None:
        self._train = train
        self._train_data = ("train-images-idx3-ubyte.gz", "0cf37b0d40ed5169c6b3aba31069a9770ac9043d")
        self._train_label = ("train-labels-idx1-ubyte.gz", "236021d52f1e40852b06a4c3008d8de8aef1e40b")
        self._test_data = ("t10k-images-idx3-ubyte.gz", "626ed6a7c06dd17c0eec72fa3be1740f146a2863")
        self._test_label = ("t10k-labels-idx1-ubyte.gz", "17f9ab60e7257a1620f4ad76bbbaf857c3920701")
        self._namespace = "fashion-mnist"
        dataset._DownloadedDataset.__init__(self, root, transform)


class CIFAR10(dataset._DownloadedDataset):
    """CIFAR-10 from its binary batches in ``root`` (or the ``cifar-10-binary.tar.gz`` archive there, which is
    extracted): (32, 32, 3) uint8 images and int32 labels.

    Args:
        root (str): the folder of ``data_batch_1.bin`` ... ``data_batch_5.bin`` and ``test_batch.bin``.
            Default: ``~/.mxnet/datasets/cifar10``.
        train (bool): the training set, else the test set. Default: True.
        transform (Callable): ``transform(data, label)`` applied to each sample. Default: None.

    Raises:
        FileNotFoundError: the batch files and the archive are missing (the message says where to put them).

    Examples:
        >>> import os, tempfile
        >>> import numpy as np
        >>> from cellonnx.gluon.data.vision import CIFAR10
        >>> root = tempfile.mkdtemp()
        >>> for name in ['data_batch_%d.bin' % i for i in range(1, 6)] + ['test_batch.bin']:
        ...     _ = open(os.path.join(root, name), 'wb').write(bytes([3]) + bytes(3072))
        >>> import warnings; warnings.simplefilter('ignore')
        >>> img, label = CIFAR10(root, train=False)[0]
        >>> img.shape, int(label)
        ((32, 32, 3), 3)
    """

    def __init__(self, root: str = _data_root("cifar10"), train: bool = True,
                 transform: Callable[..., Any] | None = None) -> None:
        self._train = train
        self._archive_file = ("cifar-10-binary.tar.gz", "fab780a1e191a7eda0f345501ccd62d20f7ed891")
        self._train_data = [("data_batch_1.bin", "aadd24acce27caa71bf4b10992e9e7b2d74c2540"),
                            ("data_batch_2.bin", "c0ba65cce70568cd57b4e03e9ac8d2a5367c1795"),
                            ("data_batch_3.bin", "1dd00a74ab1d17a6e7d73e185b69dbf31242f295"),
                            ("data_batch_4.bin", "aab85764eb3584312d3c7f65fd2fd016e36a258e"),
                            ("data_batch_5.bin", "26e2849e66a845b7f1e4614ae70f4889ae604628")]
        self._test_data = [("test_batch.bin", "67eb016db431130d61cd03c7ad570b013799c88c")]
        self._namespace = "cifar10"
        super().__init__(root, transform)

    def _read_batch(self, filename: str) -> tuple[np.ndarray, np.ndarray]:
        with open(filename, "rb") as fin:
            raw = np.frombuffer(fin.read(), dtype=np.uint8)
        if raw.size % (3072 + 1):
            raise ValueError(f"{self._namespace}: {filename!r} is not a whole number of 3073-byte records")
        data = raw.reshape(-1, 3072 + 1)
        return data[:, 1:].reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1), data[:, 0].astype(np.int32)

    def _get_data(self) -> None:
        files = self._train_data + self._test_data
        if any(not os.path.isfile(os.path.join(self._root, name)) for name, _ in files):
            archive = os.path.join(self._root, self._archive_file[0])
            if not os.path.isfile(archive):
                missing = [n for n, _ in files if not os.path.isfile(os.path.join(self._root, n))]
                raise FileNotFoundError(
                    f"{self._namespace}: {', '.join(missing)} missing from {self._root!r}, and so is "
                    f"{self._archive_file[0]}; cellonnx has no network access. Download "
                    f"{_REPO}{self._namespace}/{self._archive_file[0]} (MXNet's copy) into {self._root!r}.")
            with tarfile.open(archive) as tar:
                tar.extractall(self._root, filter="data")
        chosen = self._train_data if self._train else self._test_data
        data, label = zip(*(self._read_batch(_local(self._root, self._namespace, name, sha1))
                            for name, sha1 in chosen), strict=True)
        from cellonnx.mxnet.util import is_np_array

        images, labels = np.concatenate(data), np.concatenate(label)
        self._data = _array(images)
        self._label = _array(labels) if is_np_array() else labels


class CIFAR100(CIFAR10):
    """CIFAR-100 from ``train.bin`` / ``test.bin`` in ``root`` (or ``cifar-100-binary.tar.gz``): the coarse
    (20) or fine (100) label of each (32, 32, 3) uint8 image.

    Args:
        root (str): the folder. Default: ``~/.mxnet/datasets/cifar100``.
        fine_label (bool): the 100 fine classes instead of the 20 coarse ones. Default: False.
        train (bool): the training set, else the test set. Default: True.
        transform (Callable): ``transform(data, label)`` applied to each sample. Default: None.

    Examples:
        >>> import os, tempfile
        >>> from cellonnx.gluon.data.vision import CIFAR100
        >>> root = tempfile.mkdtemp()
        >>> for name in ['train.bin', 'test.bin']:
        ...     _ = open(os.path.join(root, name), 'wb').write(bytes([4, 41]) + bytes(3072))
        >>> import warnings; warnings.simplefilter('ignore')
        >>> int(CIFAR100(root, train=False)[0][1]), int(CIFAR100(root, fine_label=True)[0][1])
        (4, 41)
    """

    def __init__(self, root: str = _data_root("cifar100"), fine_label: bool = False, train: bool = True,
                 transform: Callable[..., Any] | None = None) -> None:
        self._train = train
        self._archive_file = ("cifar-100-binary.tar.gz", "a0bb982c76b83111308126cc779a992fa506b90b")
        self._train_data = [("train.bin", "e207cd2e05b73b1393c74c7f5e7bea451d63e08e")]
        self._test_data = [("test.bin", "8fb6623e830365ff53cf14adec797474f5478006")]
        self._fine_label = fine_label
        self._namespace = "cifar100"
        dataset._DownloadedDataset.__init__(self, root, transform)

    def _read_batch(self, filename: str) -> tuple[np.ndarray, np.ndarray]:
        with open(filename, "rb") as fin:
            raw = np.frombuffer(fin.read(), dtype=np.uint8)
        if raw.size % (3072 + 2):
            raise ValueError(f"{self._namespace}: {filename!r} is not a whole number of 3074-byte records")
        data = raw.reshape(-1, 3072 + 2)
        return (data[:, 2:].reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1),
                data[:, 0 + self._fine_label].astype(np.int32))


class ImageRecordDataset(dataset.RecordFileDataset):
    """Images packed in a RecordIO file (``recordio.pack_img``), decoded with ``mx.image.imdecode``.

    Args:
        filename (str): the .rec file (its .idx beside it).
        flag (int): 1 for color (RGB), 0 for grayscale. Default: 1.
        transform (Callable): ``transform(image, label)`` applied to each sample. Default: None.

    Examples:
        >>> import os, tempfile
        >>> import numpy as np
        >>> from cellonnx import mxnet as mx
        >>> from cellonnx.gluon.data.vision import ImageRecordDataset
        >>> root = tempfile.mkdtemp()
        >>> rec = mx.recordio.MXIndexedRecordIO(os.path.join(root, 'i.idx'), os.path.join(root, 'i.rec'), 'w')
        >>> rec.write_idx(0, mx.recordio.pack_img(mx.recordio.IRHeader(0, 5.0, 0, 0),
        ...                                       np.zeros((4, 6, 3), np.uint8), img_fmt='.png'))
        >>> rec.close()
        >>> img, label = ImageRecordDataset(os.path.join(root, 'i.rec'))[0]
        >>> img.shape, label
        ((4, 6, 3), 5.0)
    """

    def __init__(self, filename: str, flag: int = 1, transform: Callable[..., Any] | None = None) -> None:
        super().__init__(filename)
        self._flag = flag
        self._transform = transform

    def __getitem__(self, idx: int) -> Any:
        from cellonnx.mxnet import image, recordio

        record = super().__getitem__(idx)
        header, img = recordio.unpack(record)
        if self._transform is not None:
            return self._transform(image.imdecode(img, self._flag), header.label)
        return image.imdecode(img, self._flag), header.label


class ImageFolderDataset(dataset.Dataset):
    """Images in class folders (``root/<class>/<image>``; .jpg, .jpeg, .png): folder names sorted are the
    classes (``synsets``), their index the label.

    Args:
        root (str): the folder of class folders.
        flag (int): 1 for color (RGB), 0 for grayscale. Default: 1.
        transform (Callable): ``transform(image, label)`` applied to each sample. Default: None.

    Examples:
        >>> import os, tempfile
        >>> import numpy as np
        >>> from PIL import Image
        >>> from cellonnx.gluon.data.vision import ImageFolderDataset
        >>> root = tempfile.mkdtemp()
        >>> for cls in ['cat', 'dog']:
        ...     os.makedirs(os.path.join(root, cls))
        ...     Image.fromarray(np.zeros((3, 5, 3), np.uint8)).save(os.path.join(root, cls, 'a.png'))
        >>> data = ImageFolderDataset(root)
        >>> data.synsets, len(data), data[1][0].shape, data[1][1]
        (['cat', 'dog'], 2, (3, 5, 3), 1)
    """

    def __init__(self, root: str, flag: int = 1, transform: Callable[..., Any] | None = None) -> None:
        self._root = os.path.expanduser(root)
        self._flag = flag
        self._transform = transform
        self._exts = [".jpg", ".jpeg", ".png"]
        self._list_images(self._root)

    def _list_images(self, root: str) -> None:
        self.synsets: list[str] = []
        self.items: list[tuple[str, int]] = []
        for folder in sorted(os.listdir(root)):
            path = os.path.join(root, folder)
            if not os.path.isdir(path):
                warnings.warn(f"Ignoring {path}, which is not a directory.", stacklevel=3)
                continue
            label = len(self.synsets)
            self.synsets.append(folder)
            for filename in sorted(os.listdir(path)):
                filename = os.path.join(path, filename)
                ext = os.path.splitext(filename)[1]
                if ext.lower() not in self._exts:
                    warnings.warn(f"Ignoring {filename} of type {ext}. Only support {', '.join(self._exts)}",
                                  stacklevel=3)
                    continue
                self.items.append((filename, label))

    def __getitem__(self, idx: int) -> Any:
        from cellonnx.mxnet import image

        img = image.imread(self.items[idx][0], self._flag)
        label = self.items[idx][1]
        if self._transform is not None:
            return self._transform(img, label)
        return img, label

    def __len__(self) -> int:
        return len(self.items)


class ImageListDataset(dataset.Dataset):
    """Images listed in a .lst file (``index<TAB>label(s)<TAB>path`` lines) or a list of ``[label(s)...,
    path]`` entries, paths relative to ``root`` (MXNet 2.x).

    Args:
        root (str): the folder the paths are relative to. Default: '.'.
        imglist (str or list): the .lst file (relative to root) or the entries.
        flag (int): 1 for color (RGB), 0 for grayscale. Default: 1.

    Raises:
        ValueError: ``imglist`` is neither a file name nor a list.

    Examples:
        >>> import os, tempfile
        >>> import numpy as np
        >>> from PIL import Image
        >>> from cellonnx.gluon.data.vision import ImageListDataset
        >>> root = tempfile.mkdtemp()
        >>> Image.fromarray(np.zeros((2, 2, 3), np.uint8)).save(os.path.join(root, 'a.png'))
        >>> data = ImageListDataset(root, [[3, 'a.png'], [1, 2, 'a.png']])
        >>> [(img.shape, label.asnumpy().tolist()) for img, label in data]
        [((2, 2, 3), [3.0]), ((2, 2, 3), [1.0, 2.0])]
    """

    def __init__(self, root: str = ".", imglist: Any = None, flag: int = 1) -> None:
        from cellonnx.mxnet.base import numeric_types

        self._root = root
        self._flag = flag
        self._imglist: dict[Any, tuple[Any, str]] = {}
        self._imgkeys: list[Any] = []
        if isinstance(imglist, str):
            with open(os.path.join(self._root, imglist)) as fin:
                for line in iter(fin.readline, ""):
                    fields = line.strip().split("\t")
                    key = int(fields[0])
                    self._imglist[key] = (_array(np.asarray([float(v) for v in fields[1:-1]], np.float32)),
                                          fields[-1])
                    self._imgkeys.append(key)
        elif isinstance(imglist, list):
            for index, img in enumerate(imglist, 1):
                key = str(index)
                if len(img) > 2:
                    label = np.asarray(img[:-1], np.float32)
                elif isinstance(img[0], numeric_types):
                    label = np.asarray([img[0]], np.float32)
                else:
                    label = np.asarray(img[0], np.float32)
                assert isinstance(img[-1], str), f"an entry's last item must be the path, got {img[-1]!r}"
                self._imglist[key] = (_array(label), img[-1])
                self._imgkeys.append(key)
        else:
            raise ValueError(f"imglist must be filename or list of valid entries, given {type(imglist)}")

    def __getitem__(self, idx: int) -> Any:
        from cellonnx.mxnet import image

        key = self._imgkeys[idx]
        label, path = self._imglist[key]
        return image.imread(os.path.join(self._root, path), self._flag), label

    def __len__(self) -> int:
        return len(self._imgkeys)
