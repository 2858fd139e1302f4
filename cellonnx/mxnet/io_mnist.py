"""mx.io.MNISTIter: batches of MNIST's idx files (images scaled by 1/256, labels as float32), as MXNet's
C++ iterator gives them: only whole batches, the examples shuffled once (after partitioning) with
``std::shuffle`` over ``mt19937(seed)``."""
from __future__ import annotations

import struct
from typing import Any

import numpy as np

from cellonnx.mxnet.base import MXNetError
from cellonnx.mxnet.io_native import cxx_shuffle, flag, native, out_dtype

__all__ = ["MNISTIter"]


def _read_idx(path: str, magic: int, what: str) -> np.ndarray:
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as exc:
        raise MXNetError(f"MNISTIter: cannot open {what} file {path}: {exc.strerror}") from None
    ndim = magic - 2048
    head = 4 + 4 * ndim
    found = struct.unpack(">I", raw[:4])[0] if len(raw) >= 4 else None
    if found is not None and found != magic:
        raise MXNetError(f"MNISTIter: {path} (offset 0): magic number {found}, expected {magic} for an idx "
                         f"{what} file")
    if len(raw) < head:
        raise MXNetError(f"MNISTIter: {path}: {len(raw)} bytes, shorter than an idx header ({head} bytes)")
    dims = struct.unpack(f">{ndim}I", raw[4:head])
    size = int(np.prod(dims))
    if len(raw) - head < size:
        raise MXNetError(f"MNISTIter: {path}: the header says {dims} ({size} bytes from offset {head}); "
                         f"the file has {len(raw) - head}")
    return np.frombuffer(raw, np.uint8, size, head).reshape(dims)


class _Mnist:
    def __init__(self, images: np.ndarray, labels: np.ndarray, batch_size: int, flat: bool,
                 dtype: np.dtype | None) -> None:
        self.images = images.astype(np.float32) * np.float32(1.0 / 256.0)
        self.images = self.images.reshape(len(images), -1) if flat else self.images[:, None]
        self.labels = labels.astype(np.float32)
        self.batch_size, self.dtype, self.loc, self.cur = batch_size, dtype, 0, 0

    def before_first(self) -> None:
        self.loc = 0

    def next(self) -> bool:
        if self.loc + self.batch_size <= len(self.images):
            self.cur = self.loc
            self.loc += self.batch_size
            return True
        return False

    def value(self) -> tuple[Any, Any, Any, int]:
        from cellonnx.mxnet.ndarray import array

        sl = slice(self.cur, self.cur + self.batch_size)
        data, label = self.images[sl], self.labels[sl]
        if self.dtype is not None:
            data, label = data.astype(self.dtype), label.astype(self.dtype)
        return (array(data, dtype=data.dtype), array(label, dtype=label.dtype),
                np.zeros(self.batch_size, np.uint64), 0)


def _make_mnist(image: str = "./train-images-idx3-ubyte", label: str = "./train-labels-idx1-ubyte",
                batch_size: int = 128, shuffle: bool = True, flat: bool = False, seed: int = 0,
                silent: bool = False, num_parts: int = 1, part_index: int = 0, prefetch_buffer: int = 4,
                ctx: str = "gpu", dtype: Any = None, data_name: str = "data",
                label_name: str = "softmax_label", **_ignored: Any) -> _Mnist:
    # MXNet's MNISTIter ignores keywords it does not know (get_mnist_iterator passes input_shape)
    images = _read_idx(image, 2051, "image")
    labels = _read_idx(label, 2049, "label")
    if len(labels) != len(images):
        raise MXNetError(f"MNISTIter: {image} holds {len(images)} images, {label} {len(labels)} labels")
    num_parts, part_index = int(num_parts), int(part_index)
    if not 0 <= part_index < num_parts:
        raise MXNetError(f"MNISTIter: part_index {part_index} must be in [0, num_parts={num_parts})")
    count = len(images) // num_parts
    end = len(images) if part_index == num_parts - 1 else (part_index + 1) * count
    order = list(range(part_index * count, end))
    if flag(shuffle):
        cxx_shuffle(order, int(seed))
    batch_size = int(batch_size)
    if batch_size <= 0 or batch_size > len(order):
        raise MXNetError(f"MNISTIter: batch_size {batch_size} must be in [1, {len(order)}] (the images read)")
    typ = out_dtype(dtype, "MNISTIter", ("float32",))
    return _Mnist(images[order], labels[order], batch_size, flag(flat), typ)


MNISTIter = native("MNISTIter", """Batches of the MNIST dataset from its idx files (``image``: magic
2051, ``label``: magic 2049): data (batch, 1, 28, 28) or, with ``flat``, (batch, 784), scaled by 1/256;
labels (batch,) float32. Only whole batches are given.

Args:
    image (str): Default: './train-images-idx3-ubyte'.
    label (str): Default: './train-labels-idx1-ubyte'.
    batch_size (int): Default: 128.
    shuffle (bool): shuffle the examples once, with ``seed``. Default: True.
    flat (bool): Default: False.
    seed (int): Default: 0.
    silent (bool): accepted; nothing is printed.
    num_parts, part_index (int): read one part of the examples. Default: 1, 0.
    dtype (str): None or 'float32' (MXNet's iterator gives no other).

Returns:
    MXDataIter.

Examples:
    >>> import os, struct, tempfile
    >>> import numpy as np
    >>> import cellonnx.mxnet as mx
    >>> root = tempfile.mkdtemp()
    >>> img, lab = os.path.join(root, "img"), os.path.join(root, "lab")
    >>> _ = open(img, "wb").write(struct.pack(">IIII", 2051, 4, 2, 2) + bytes(range(16)))
    >>> _ = open(lab, "wb").write(struct.pack(">II", 2049, 4) + bytes([3, 1, 4, 1]))
    >>> it = mx.io.MNISTIter(image=img, label=lab, batch_size=2, shuffle=False)
    >>> batch = it.next()
    >>> batch.data[0].shape, batch.label[0].asnumpy().tolist()
    ((2, 1, 2, 2), [3.0, 1.0])
""", _make_mnist)
