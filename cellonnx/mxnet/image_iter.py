"""mx.image.ImageIter: batches of decoded, augmented images and their labels, as MXNet 1.9.1's.

The images come from an image list: a ``.lst`` file (``path_imglist``: lines ``index<TAB>label(s)<TAB>path``)
or a Python list (``imglist``: ``[label, path]`` or ``[label1, label2, ..., path]``), paths relative to
``path_root``. Each image is decoded (RGB), run through the augmenters (``aug_list``, or
``CreateAugmenter(data_shape, **kwargs)``) and laid out as (C, H, W) in a float32 batch of ``(batch_size,
*data_shape)``. ``shuffle`` reorders the list at each reset with Python's ``random``; ``last_batch_handle``
says what the last, short batch does: 'pad' fills it from the start of the list (``batch.pad`` counts the
filler), 'discard' drops it, 'roll_over' keeps it and completes it at the start of the next epoch.

Or the images come from an MXNet RecordIO file (``path_imgrec``, labels from the records' headers, or from
the image list when one is given too): read in order, or through its index (``path_imgidx``), which
shuffling and ``num_parts`` need.
"""
from __future__ import annotations

import logging
import os
import random
from numbers import Number
from typing import Any

import numpy as np

from cellonnx.mxnet.image import _numpy, imdecode
from cellonnx.mxnet.image_aug import CreateAugmenter
from cellonnx.mxnet.io import DataBatch, DataDesc, DataIter

__all__ = ["ImageIter"]


def _array(values: Any, dtype: str) -> Any:
    from cellonnx.mxnet import util
    if util.is_np_array():
        from cellonnx.mxnet.numpy import array as np_array
        return np_array(np.asarray(values, dtype), dtype=dtype)
    from cellonnx.mxnet.ndarray import array
    return array(np.asarray(values, dtype), dtype=dtype)


class ImageIter(DataIter):
    """Image data iterator over an image list (see the module docstring).

    Args:
        batch_size (int): images per batch.
        data_shape (tuple): (3, H, W) of each image after augmentation.
        label_width (int): labels per image. Default: 1.
        path_imglist (str): a ``.lst`` file.
        path_root (str): the folder the list's paths are relative to.
        shuffle (bool): reorder the images at each reset. Default: False.
        part_index, num_parts (int): read only part ``part_index`` of ``num_parts`` equal parts.
        aug_list (list): the augmenters; None: ``CreateAugmenter(data_shape, **kwargs)``.
        imglist (list): the image list in Python (instead of ``path_imglist``).
        data_name, label_name (str): the names in ``provide_data`` / ``provide_label``.
        dtype (str): the labels' dtype: 'int32', 'float32', 'int64' or 'float64'. Default: 'float32'.
        last_batch_handle (str): 'pad', 'discard' or 'roll_over'. Default: 'pad'.

    Examples:
        >>> import tempfile, pathlib
        >>> from PIL import Image
        >>> import numpy as np
        >>> from cellonnx.mxnet import image
        >>> root = tempfile.mkdtemp()
        >>> for i in range(3):
        ...     Image.fromarray(np.full((8, 10, 3), 40 * i, np.uint8)).save(f"{root}/{i}.png")
        >>> it = image.ImageIter(2, (3, 6, 6), imglist=[[i, f"{i}.png"] for i in range(3)], path_root=root)
        >>> batch = it.next()
        >>> batch.data[0].shape, batch.label[0].asnumpy().tolist(), batch.pad
        ((2, 3, 6, 6), [0.0, 1.0], 0)
        >>> batch = it.next()
        >>> batch.label[0].asnumpy().tolist(), batch.pad
        ([2.0, 0.0], 1)
    """

    def __init__(self, batch_size: int, data_shape: tuple, label_width: int = 1,
                 path_imgrec: str | None = None, path_imglist: str | None = None,
                 path_root: str | None = None, path_imgidx: str | None = None,
                 shuffle: bool = False, part_index: int = 0, num_parts: int = 1, aug_list: list | None = None,
                 imglist: list | None = None, data_name: str = "data", label_name: str = "softmax_label",
                 dtype: str = "float32", last_batch_handle: str = "pad", **kwargs: Any) -> None:
        super().__init__(batch_size)
        if not (path_imgrec or path_imglist or isinstance(imglist, list)):
            raise ValueError("ImageIter: give path_imgrec (a .rec file), path_imglist (a .lst file) or "
                             "imglist (a list)")
        self.imgrec: Any = None
        self.imgidx: list | None = None
        if path_imgrec:
            from cellonnx.mxnet import recordio

            if path_imgidx:
                self.imgrec = recordio.MXIndexedRecordIO(path_imgidx, path_imgrec, "r")
                self.imgidx = list(self.imgrec.keys)
            else:
                self.imgrec = recordio.MXRecordIO(path_imgrec, "r")
        if dtype not in ("int32", "float32", "int64", "float64"):
            raise ValueError(f"ImageIter: label dtype {dtype} not supported (int32, float32, int64, float64)")
        if last_batch_handle not in ("pad", "discard", "roll_over"):
            raise ValueError(f"ImageIter: last_batch_handle {last_batch_handle!r}; expected 'pad', 'discard' "
                             "or 'roll_over'")
        keys: list[Any] = []
        table: dict[Any, tuple[Any, str]] | None = {}
        if path_imglist:
            with open(path_imglist) as fin:
                for line in iter(fin.readline, ""):
                    parts = line.strip().split("\t")
                    key = int(parts[0])
                    table[key] = (_array([float(v) for v in parts[1:-1]], dtype), parts[-1])
                    keys.append(key)
        elif isinstance(imglist, list):
            for index, img in enumerate(imglist, start=1):
                key = str(index)
                if len(img) > 2:
                    label = _array(img[:-1], dtype)
                elif isinstance(img[0], Number):
                    label = _array([img[0]], dtype)
                else:
                    label = _array(_numpy(img[0]), dtype)
                table[key] = (label, img[-1])
                keys.append(key)
        else:
            table = None
        self.imglist = table
        self.path_root = path_root
        self.check_data_shape(data_shape)
        self.provide_data = [DataDesc(data_name, (batch_size, *data_shape))]
        label_shape = (batch_size, label_width) if label_width > 1 else (batch_size,)
        self.provide_label = [DataDesc(label_name, label_shape)]
        self.data_shape = tuple(data_shape)
        self.label_width = label_width
        self.shuffle = shuffle
        self.seq: list | None = keys
        if self.imgrec is not None:
            if shuffle or num_parts > 1 or path_imgidx:
                if self.imgidx is None:
                    raise ValueError("ImageIter: shuffle and num_parts over a .rec file need its index "
                                     "(path_imgidx)")
                self.seq = self.imgidx
            else:
                self.seq = None
        if num_parts > 1:
            if not part_index < num_parts:
                raise ValueError(f"ImageIter: part_index {part_index} must be below num_parts {num_parts}")
            n = len(self.seq) // num_parts
            self.seq = self.seq[part_index * n:(part_index + 1) * n]
        self.auglist = CreateAugmenter(data_shape, **kwargs) if aug_list is None else aug_list
        self.cur = 0
        self._allow_read = True
        self.last_batch_handle = last_batch_handle
        self.num_image = len(self.seq) if self.seq is not None else None
        self._cache: tuple[np.ndarray, np.ndarray, int] | None = None
        self.reset()

    def reset(self) -> None:
        """Start a new epoch (reshuffled with ``shuffle``); with 'roll_over', a kept short batch stays."""
        if self.seq is not None and self.shuffle:
            random.shuffle(self.seq)
        if self.last_batch_handle != "roll_over" or self._cache is None:
            if self.imgrec is not None:
                self.imgrec.reset()
            self.cur = 0
            self._allow_read = True

    def hard_reset(self) -> None:
        """Start over, dropping a kept 'roll_over' batch."""
        if self.seq is not None and self.shuffle:
            random.shuffle(self.seq)
        if self.imgrec is not None:
            self.imgrec.reset()
        self.cur = 0
        self._allow_read = True
        self._cache = None

    def next_sample(self) -> tuple[Any, bytes]:
        """The next image's (label, encoded bytes)."""
        if not self._allow_read:
            raise StopIteration
        if self.seq is None:
            from cellonnx.mxnet import recordio

            rec = self.imgrec.read()
            if rec is None:
                if self.last_batch_handle != "discard":
                    self.imgrec.reset()
                raise StopIteration
            header, img = recordio.unpack(rec)
            self.cur += 1
            return header.label, img
        if self.cur >= self.num_image:
            if self.last_batch_handle != "discard":
                self.cur = 0
            raise StopIteration
        idx = self.seq[self.cur]
        self.cur += 1
        if self.imgrec is not None:
            from cellonnx.mxnet import recordio

            header, img = recordio.unpack(self.imgrec.read_idx(idx))
            return (header.label, img) if self.imglist is None else (self.imglist[idx][0], img)
        label, fname = self.imglist[idx]
        return label, self.read_image(fname)

    def _batchify(self, data: np.ndarray, label: np.ndarray, start: int = 0) -> int:
        i = start
        try:
            while i < self.batch_size:
                lab, s = self.next_sample()
                img = self.imdecode(s)
                try:
                    self.check_valid_image(img)
                except RuntimeError as exc:  # skipped, as MXNet's
                    logging.debug("Invalid image, skipping:  %s", exc)
                    continue
                img = self.augmentation_transform(img)
                data[i] = _numpy(self.postprocess_data(img))
                values = _numpy(lab).reshape(-1)
                label[i] = values.reshape(label.shape[1:]) if label.ndim > 1 else values[0]
                i += 1
        except StopIteration:
            if not i:
                raise
        return i

    def next(self) -> DataBatch:
        c, h, w = self.data_shape
        if self._cache is not None:
            data, label, i = self._cache
        else:
            data = np.zeros((self.batch_size, c, h, w), np.float32)
            label = self._label_buffer()
            i = self._batchify(data, label)
        pad = self.batch_size - i
        if pad:
            if self.last_batch_handle == "discard":
                raise StopIteration
            if self.last_batch_handle == "roll_over" and self._cache is None:
                self._cache = (data, label, i)
                raise StopIteration
            self._batchify(data, label, i)
            if self.last_batch_handle == "pad":
                self._allow_read = False
            else:
                self._cache = None
        return DataBatch([_array(data, "float32")], [_array(label, "float32")], pad=pad)

    def _label_buffer(self) -> np.ndarray:
        return np.zeros(self.provide_label[0][1], np.float32)

    def check_data_shape(self, data_shape: tuple) -> None:
        if len(data_shape) != 3:
            raise ValueError("data_shape should have length 3, with dimensions CxHxW")
        if data_shape[0] != 3:
            raise ValueError("This iterator expects inputs to have 3 channels.")

    def check_valid_image(self, data: Any) -> None:
        if len(data[0].shape) == 0:
            raise RuntimeError("Data shape is wrong")

    def imdecode(self, s: bytes) -> Any:
        """Decode one image (RGB); a broken one is an error naming its file."""
        try:
            return imdecode(s)
        except Exception as exc:  # noqa: BLE001 - any decoder failure, reported with the file
            if self.seq is not None:
                idx = self.seq[(self.cur - 1) % self.num_image]
            else:
                idx = self.cur - 1
            where = f"filename: {self.imglist[idx][1]}" if self.imglist is not None else f"index: {idx}"
            raise RuntimeError(f"Broken image {where}, {exc}") from None

    def read_image(self, fname: str) -> bytes:
        with open(os.path.join(self.path_root or "", fname), "rb") as fin:
            return fin.read()

    def augmentation_transform(self, data: Any) -> Any:
        for aug in self.auglist:
            data = aug(data)
        return data

    def postprocess_data(self, datum: Any) -> Any:
        return datum.transpose(2, 0, 1) if hasattr(datum, "transpose") else np.transpose(datum, (2, 0, 1))
