"""mx.test_utils' data helpers: ``download``, ``download_model``, ``get_mnist`` / ``get_mnist_ubyte`` /
``get_mnist_pkl`` / ``get_mnist_iterator``, ``get_cifar10``, ``get_zip_data``, ``get_bz2_data`` and
``get_im2rec_path``.

They look for their files where MXNet 1.9.1 puts them (the URL's file name in the current directory, or
``data/`` for the MNIST / CIFAR-10 archives) and use them as MXNet does. cellonnx does not download: when
a file is absent, ``download`` raises an error that names the URL and the path to save it at, so the files
can be fetched once by hand (or copied from a machine where MXNet downloaded them).
"""
from __future__ import annotations

import bz2
import gzip
import logging
import os
import struct
import zipfile

import numpy as np

__all__ = ["download", "download_model", "get_bz2_data", "get_cifar10", "get_im2rec_path", "get_mnist",
           "get_mnist_iterator", "get_mnist_pkl", "get_mnist_ubyte", "get_zip_data"]

_MNIST_URL = "http://data.mxnet.io/data/mnist/"
_BASE_MODEL_URL = "http://data.mxnet.io/models/"
_MODEL_PATHS = {
    "imagenet1k-inception-bn": "imagenet/inception-bn/Inception-BN-symbol.json imagenet/inception-bn/"
                               "Inception-BN-0126.params",
    "imagenet1k-resnet-18": "imagenet/resnet/18-layers/resnet-18",
    "imagenet1k-resnet-34": "imagenet/resnet/34-layers/resnet-34",
    "imagenet1k-resnet-50": "imagenet/resnet/50-layers/resnet-50",
    "imagenet1k-resnet-101": "imagenet/resnet/101-layers/resnet-101",
    "imagenet1k-resnet-152": "imagenet/resnet/152-layers/resnet-152",
    "imagenet1k-resnext-50": "imagenet/resnext/50-layers/resnext-50",
    "imagenet1k-resnext-101": "imagenet/resnext/101-layers/resnext-101",
    "imagenet1k-resnext-101-64x4d": "imagenet/resnext/101-layers/resnext-101-64x4d",
    "imagenet11k-resnet-152": "imagenet-11k/resnet-152/resnet-152",
    "imagenet11k-place365ch-resnet-152": "imagenet-11k-place365-ch/resnet-152",
    "imagenet11k-place365ch-resnet-50": "imagenet-11k-place365-ch/resnet-50",
}


def _model_info() -> dict[str, dict[str, str]]:
    """MXNet's default ``download_model`` table: model name to its symbol and params URLs."""
    info = {}
    for name, path in _MODEL_PATHS.items():
        if " " in path:
            symbol, params = path.split(" ")
        else:
            symbol, params = f"{path}-symbol.json", f"{path}-0000.params"
        info[name] = {"symbol": _BASE_MODEL_URL + symbol, "params": _BASE_MODEL_URL + params}
    return info


def download(url: str, fname: str | None = None, dirname: str | None = None, overwrite: bool = False,
             retries: int = 5) -> str:
    """The local file for ``url``: ``fname`` (default: the URL's last path component), inside ``dirname``
    when given, as MXNet names it; the directory is created. An existing file is used (MXNet skips the
    download too).

    Raises:
        OSError: the file is absent (or ``overwrite`` asks for a new copy): cellonnx does not download; the
            message names the URL and where to save it.

    Examples:
        >>> import os, tempfile
        >>> import cellonnx.mxnet as mx
        >>> folder = tempfile.mkdtemp()
        >>> open(os.path.join(folder, "a.txt"), "w").close()
        >>> path = mx.test_utils.download("http://example.com/a.txt", dirname=folder)
        >>> path == os.path.join(folder, "a.txt")
        True
    """
    assert retries >= 0, "Number of retries should be at least 0"
    if fname is None:
        fname = url.split("/")[-1]
    if dirname is None:
        dirname = os.path.dirname(fname)
    else:
        fname = os.path.join(dirname, fname)
    if dirname != "" and not os.path.exists(dirname):
        logging.info("create directory %s", dirname)
        os.makedirs(dirname, exist_ok=True)
    if not overwrite and os.path.exists(fname):
        logging.info("%s exists, skipping download", fname)
        return fname
    where = os.path.abspath(fname)
    why = "a new copy was asked for with overwrite=True" if os.path.exists(fname) else "not found"
    raise OSError(f"download: cellonnx does not download; {url} is needed at {where} ({why}). Fetch it there "
                  f"(for example `curl -L -o {where} {url}`) and run again.")


def download_model(model_name: str, dst_dir: str = "./", meta_info: dict | None = None) -> tuple:
    """A model's ``<dst_dir>/<model_name>-symbol.json`` and ``-0000.params`` (MXNet's model table, or
    ``meta_info``: name to {'symbol': url, 'params': url}).

    Returns:
        (path prefix, 0), or (None, 0) for a name the table lacks.
    """
    meta_info = dict(_model_info() if meta_info is None else meta_info)
    if model_name not in meta_info:
        return None, 0
    if not os.path.isdir(dst_dir):
        os.mkdir(dst_dir)
    meta = dict(meta_info[model_name])
    assert "symbol" in meta, "missing symbol url"
    prefix = os.path.join(dst_dir, model_name)
    download(meta["symbol"], prefix + "-symbol.json")
    assert "params" in meta, "mssing parameter file url"
    download(meta["params"], prefix + "-0000.params")
    return prefix, 0


def _read_mnist(label_url: str, image_url: str) -> tuple[np.ndarray, np.ndarray]:
    with gzip.open(download(label_url)) as flbl:
        struct.unpack(">II", flbl.read(8))
        label = np.frombuffer(flbl.read(), dtype=np.int8)
    with gzip.open(download(image_url), "rb") as fimg:
        _, _, rows, cols = struct.unpack(">IIII", fimg.read(16))
        image = np.frombuffer(fimg.read(), dtype=np.uint8).reshape(len(label), rows, cols)
        image = image.reshape(image.shape[0], 1, 28, 28).astype(np.float32) / 255
    return label, image


def get_mnist() -> dict[str, np.ndarray]:
    """MNIST from the four ``*-idx*-ubyte.gz`` files in the current directory (MXNet's download names):
    {'train_data', 'train_label', 'test_data', 'test_label'}, images as float32 (N, 1, 28, 28) in [0, 1],
    labels int8."""
    train_lbl, train_img = _read_mnist(_MNIST_URL + "train-labels-idx1-ubyte.gz",
                                       _MNIST_URL + "train-images-idx3-ubyte.gz")
    test_lbl, test_img = _read_mnist(_MNIST_URL + "t10k-labels-idx1-ubyte.gz",
                                     _MNIST_URL + "t10k-images-idx3-ubyte.gz")
    return {"train_data": train_img, "train_label": train_lbl, "test_data": test_img, "test_label": test_lbl}


def get_mnist_pkl() -> None:
    """Make sure ``data/mnist.pkl.gz`` is there (the ``data`` folder is created)."""
    if not os.path.isdir("data"):
        os.makedirs("data")
    if not os.path.exists("data/mnist.pkl.gz"):
        download("http://deeplearning.net/data/mnist/mnist.pkl.gz", dirname="data")


_UBYTE = ("train-images-idx3-ubyte", "train-labels-idx1-ubyte", "t10k-images-idx3-ubyte",
          "t10k-labels-idx1-ubyte")


def get_mnist_ubyte() -> None:
    """Make sure the four MNIST ubyte files are in ``data/``: when one is missing, ``data/mnist.zip`` is
    extracted there (the ``data`` folder is created)."""
    if not os.path.isdir("data"):
        os.makedirs("data")
    if not all(os.path.exists(os.path.join("data", name)) for name in _UBYTE):
        zip_file_path = download("http://data.mxnet.io/mxnet/data/mnist.zip", dirname="data")
        with zipfile.ZipFile(zip_file_path) as zf:
            zf.extractall("data")


def get_cifar10() -> None:
    """Make sure ``data/cifar/{train,test}.{rec,lst}`` are there: when one is missing, ``data/cifar10.zip`` is
    extracted into ``data``."""
    if not os.path.isdir("data"):
        os.makedirs("data")
    needed = ("train.rec", "test.rec", "train.lst", "test.lst")
    if not all(os.path.exists(os.path.join("data", "cifar", name)) for name in needed):
        zip_file_path = download("http://data.mxnet.io/mxnet/data/cifar10.zip", dirname="data")
        with zipfile.ZipFile(zip_file_path) as zf:
            zf.extractall("data")


def get_mnist_iterator(batch_size: int, input_shape: tuple, num_parts: int = 1, part_index: int = 0) -> tuple:
    """(train, validation) ``mx.io.MNISTIter`` over ``data/``'s MNIST ubyte files (``get_mnist_ubyte``);
    the training one shuffles; images are flat unless ``input_shape`` has 3 dimensions."""
    from cellonnx.mxnet import io

    get_mnist_ubyte()
    flat = len(input_shape) != 3
    train = io.MNISTIter(image="data/train-images-idx3-ubyte", label="data/train-labels-idx1-ubyte",
                         input_shape=input_shape, batch_size=batch_size, shuffle=True, flat=flat,
                         num_parts=num_parts, part_index=part_index)
    val = io.MNISTIter(image="data/t10k-images-idx3-ubyte", label="data/t10k-labels-idx1-ubyte",
                       input_shape=input_shape, batch_size=batch_size, flat=flat, num_parts=num_parts,
                       part_index=part_index)
    return train, val


def get_zip_data(data_dir: str, url: str, data_origin_name: str) -> None:
    """Extract ``data_dir/data_origin_name`` (the zip ``url`` names) into ``data_dir`` unless it is there
    already extracted (MXNet checks for the zip itself)."""
    data_origin_name = os.path.join(data_dir, data_origin_name)
    if not os.path.exists(data_origin_name):
        download(url, dirname=data_dir, overwrite=False)
        with zipfile.ZipFile(data_origin_name) as zip_file:
            zip_file.extractall(path=data_dir)


def get_bz2_data(data_dir: str, data_name: str, url: str, data_origin_name: str) -> None:
    """Decompress ``data_dir/data_origin_name`` into ``data_dir/data_name`` (and remove the .bz2) unless
    ``data_name`` is there."""
    data_name = os.path.join(data_dir, data_name)
    data_origin_name = os.path.join(data_dir, data_origin_name)
    if not os.path.exists(data_name):
        download(url, fname=data_origin_name, dirname=data_dir, overwrite=False)
        with bz2.BZ2File(data_origin_name, "rb") as bz_file, open(data_name, "wb") as fout:
            for line in bz_file:
                fout.write(line)
        os.remove(data_origin_name)


def get_im2rec_path(home_env: str = "MXNET_HOME") -> str:
    """The path of MXNet's ``tools/im2rec.py``: under ``$MXNET_HOME`` (or the package folder), then two
    levels up from it (a source build).

    Raises:
        OSError: neither holds tools/im2rec.py (cellonnx does not ship it); the message names both places.
    """
    import cellonnx.mxnet as mx

    root = os.environ.get(home_env) or os.path.dirname(mx.__file__)
    candidates = [os.path.join(root, "tools", "im2rec.py"),
                  os.path.join(root, "..", "..", "tools", "im2rec.py")]
    for path in candidates:
        if os.path.isfile(path):
            return path
    raise OSError(f"Could not find path to tools/im2rec.py (looked at {', '.join(candidates)}; set "
                  f"${home_env} to an MXNet source tree or installation that holds it)")
