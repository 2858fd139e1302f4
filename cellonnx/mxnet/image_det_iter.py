"""mx.image.ImageDetIter: ImageIter for object detection, as MXNet 1.9.1's.

Each image's label is a flat list: ``[header_width, object_width, (more header), objects...]``, each object
``object_width`` values (class id, xmin, ymin, xmax, ymax as fractions, then extras). Objects with an empty
box are dropped. The batch's label is (batch_size, max objects, object_width), rows past an image's objects
filled with -1; the maximum is counted over the whole data set when the iterator is made (``reshape`` /
``sync_label_shape`` enlarge it).
"""
from __future__ import annotations

import logging
from typing import Any

import numpy as np

from cellonnx.mxnet.image import _numpy
from cellonnx.mxnet.image_det import CreateDetAugmenter
from cellonnx.mxnet.image_iter import ImageIter
from cellonnx.mxnet.io import DataDesc

__all__ = ["ImageDetIter"]


class ImageDetIter(ImageIter):
    """Image iterator with detection labels (see the module docstring); images from a ``.rec`` file
    (``path_imgrec`` / ``path_imgidx``), a ``.lst`` list or ``imglist``, augmented with ``aug_list`` or
    ``CreateDetAugmenter(data_shape, **kwargs)``.

    Examples:
        >>> import tempfile
        >>> import numpy as np
        >>> from PIL import Image
        >>> from cellonnx.mxnet import image
        >>> root = tempfile.mkdtemp()
        >>> Image.fromarray(np.zeros((8, 8, 3), np.uint8)).save(f"{root}/a.png")
        >>> objects = [2, 5, 0, 0.1, 0.1, 0.5, 0.6, 1, 0.2, 0.3, 0.9, 0.9]
        >>> it = image.ImageDetIter(1, (3, 4, 4), imglist=[[objects, "a.png"]], path_root=root)
        >>> it.provide_label[0][1]
        (1, 2, 5)
        >>> it.next().label[0].asnumpy()[0, 1].tolist()
        [1.0, 0.20000000298023224, 0.30000001192092896, 0.8999999761581421, 0.8999999761581421]
    """

    def __init__(self, batch_size: int, data_shape: tuple, path_imgrec: str | None = None,
                 path_imglist: str | None = None, path_root: str | None = None,
                 path_imgidx: str | None = None,
                 shuffle: bool = False, part_index: int = 0, num_parts: int = 1, aug_list: list | None = None,
                 imglist: list | None = None, data_name: str = "data", label_name: str = "label",
                 last_batch_handle: str = "pad", **kwargs: Any) -> None:
        super().__init__(batch_size=batch_size, data_shape=data_shape, path_imgrec=path_imgrec,
                         path_imglist=path_imglist, path_root=path_root, path_imgidx=path_imgidx,
                         shuffle=shuffle, part_index=part_index, num_parts=num_parts, aug_list=[],
                         imglist=imglist, data_name=data_name, label_name=label_name,
                         last_batch_handle=last_batch_handle)
        self.auglist = CreateDetAugmenter(data_shape, **kwargs) if aug_list is None else aug_list
        label_shape = self._estimate_label_shape()
        self.provide_label = [DataDesc(label_name, (self.batch_size, label_shape[0], label_shape[1]))]
        self.label_shape = label_shape

    def _check_valid_label(self, label: np.ndarray) -> None:
        if label.ndim != 2 or label.shape[1] < 5:
            raise RuntimeError(f"Label with shape (1+, 5+) required, {label} received.")
        valid = (label[:, 0] >= 0) & (label[:, 3] > label[:, 1]) & (label[:, 4] > label[:, 2])
        if not valid.any():
            raise RuntimeError("Invalid label occurs.")

    def _estimate_label_shape(self) -> tuple[int, int]:
        max_count, width = 0, 0
        self.reset()
        try:
            while True:
                label, _ = self.next_sample()
                label = self._parse_label(label)
                max_count, width = max(max_count, label.shape[0]), label.shape[1]
        except StopIteration:
            pass
        self.reset()
        return max_count, width

    def _parse_label(self, label: Any) -> np.ndarray:
        raw = np.asarray(_numpy(label), np.float32).ravel()
        if raw.size < 7:
            raise RuntimeError(f"Label shape is invalid: {raw.shape}")
        header_width, obj_width = int(raw[0]), int(raw[1])
        if obj_width <= 0 or (raw.size - header_width) % obj_width != 0:
            raise RuntimeError(f"Label shape {raw.shape} inconsistent with annotation width {obj_width}.")
        out = np.reshape(raw[header_width:], (-1, obj_width))
        valid = (out[:, 3] > out[:, 1]) & (out[:, 4] > out[:, 2])
        if not valid.any():
            raise RuntimeError("Encounter sample with no valid label.")
        return out[valid]

    def reshape(self, data_shape: tuple | None = None, label_shape: tuple | None = None) -> None:
        """Change the data shape (C, H, W) and / or the label shape (objects, object width)."""
        if data_shape is not None:
            self.check_data_shape(data_shape)
            self.provide_data = [DataDesc(self.provide_data[0][0], (self.batch_size, *data_shape))]
            self.data_shape = tuple(data_shape)
        if label_shape is not None:
            self.check_label_shape(label_shape)
            self.provide_label = [DataDesc(self.provide_label[0][0], (self.batch_size, *label_shape))]
            self.label_shape = tuple(label_shape)

    def check_label_shape(self, label_shape: tuple) -> None:
        if len(label_shape) != 2:
            raise ValueError("label_shape should have length 2")
        if label_shape[0] < self.label_shape[0]:
            raise ValueError(f"Attempts to reduce label count from {self.label_shape[0]} to "
                             f"{label_shape[0]}, not allowed.")
        if label_shape[1] != self.provide_label[0][1][2]:
            raise ValueError(f"label_shape object width inconsistent: {self.provide_label[0][1][2]} vs "
                             f"{label_shape[1]}.")

    def sync_label_shape(self, it: ImageDetIter, verbose: bool = False) -> ImageDetIter:
        """Give this iterator and ``it`` the same (larger) label shape; returns ``it``."""
        if not isinstance(it, ImageDetIter):
            raise TypeError("Synchronize with invalid iterator.")
        mine, theirs = self.label_shape, it.label_shape
        if mine[1] != theirs[1]:
            raise ValueError("object width mismatch.")
        max_count = max(mine[0], theirs[0])
        if max_count > mine[0]:
            self.reshape(None, (max_count, mine[1]))
        if max_count > theirs[0]:
            it.reshape(None, (max_count, theirs[1]))
        if verbose and max_count > min(mine[0], theirs[0]):
            logging.info("Resized label_shape to (%d, %d).", max_count, mine[1])
        return it

    def _label_buffer(self) -> np.ndarray:
        return np.full(self.provide_label[0][1], -1, np.float32)

    def _batchify(self, data: np.ndarray, label: np.ndarray, start: int = 0) -> int:
        i = start
        try:
            while i < self.batch_size:
                lab, s = self.next_sample()
                img = self.imdecode(s)
                try:
                    self.check_valid_image([img])
                    objects = self._parse_label(lab)
                    img, objects = self.augmentation_transform(img, objects)
                    self._check_valid_label(objects)
                except RuntimeError as exc:
                    logging.debug("Invalid image, skipping:  %s", exc)
                    continue
                data[i] = _numpy(self.postprocess_data(img))
                n = min(objects.shape[0], label.shape[1])
                label[i, :n] = objects[:n]
                label[i, n:] = -1
                i += 1
        except StopIteration:
            if not i:
                raise
        return i

    def augmentation_transform(self, data: Any, label: Any = None) -> Any:
        for aug in self.auglist:
            data, label = aug(data, label)
        return data, label
