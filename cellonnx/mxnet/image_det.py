"""mx.image's detection augmenters (MXNet 1.9.1's ``DetAugmenter`` classes, ``CreateDetAugmenter`` and
``CreateMultiRandCropAugmenter``).

A detection augmenter is called on an (H, W, C) image and its label, a NumPy array of objects (one row
each: class id, then xmin, ymin, xmax, ymax as fractions of the image, then any extra columns), and returns
both, transformed together. Random choices come from Python's ``random`` in MXNet's order, so with the same
seed they give MXNet's crops, pads and flips.
"""
from __future__ import annotations

import json
import logging
import random
import warnings
from math import sqrt
from numbers import Number
from typing import Any

import numpy as np

from cellonnx.mxnet.image import _numpy, _wrap, copyMakeBorder, fixed_crop
from cellonnx.mxnet.image_aug import (
    Augmenter,
    CastAug,
    ColorJitterAug,
    ColorNormalizeAug,
    ForceResizeAug,
    HueJitterAug,
    LightingAug,
    RandomGrayAug,
    ResizeAug,
)
from cellonnx.tensor import Tensor

__all__ = ["CreateDetAugmenter", "CreateMultiRandCropAugmenter", "DetAugmenter", "DetBorrowAug",
           "DetHorizontalFlipAug", "DetRandomCropAug", "DetRandomPadAug", "DetRandomSelectAug"]


class DetAugmenter:
    """Base class of the detection augmenters: ``aug(src, label) -> (src, label)``."""

    def __init__(self, **kwargs: Any) -> None:
        self._kwargs = kwargs
        for k, v in self._kwargs.items():
            if isinstance(v, Tensor):
                v = v.asnumpy()
            if isinstance(v, np.ndarray):
                self._kwargs[k] = v.tolist()

    def dumps(self) -> Any:
        """The augmenter as JSON: ``[class name in lower case, its arguments]``."""
        return json.dumps([self.__class__.__name__.lower(), self._kwargs])

    def __call__(self, src: Any, label: np.ndarray) -> tuple[Any, np.ndarray]:
        raise NotImplementedError("Must override implementation.")


class DetBorrowAug(DetAugmenter):
    """An image augmenter used for detection: the image changes, the label stays."""

    def __init__(self, augmenter: Augmenter) -> None:
        if not isinstance(augmenter, Augmenter):
            raise TypeError("Borrowing from invalid Augmenter")
        super().__init__(augmenter=augmenter.dumps())
        self.augmenter = augmenter

    def dumps(self) -> Any:
        return [self.__class__.__name__.lower(), self.augmenter.dumps()]

    def __call__(self, src: Any, label: np.ndarray) -> tuple[Any, np.ndarray]:
        return self.augmenter(src), label


class DetRandomSelectAug(DetAugmenter):
    """One augmenter of ``aug_list`` drawn at random (after shuffling the list), or, with probability
    ``skip_prob``, none."""

    def __init__(self, aug_list: Any, skip_prob: float = 0) -> None:
        super().__init__(skip_prob=skip_prob)
        if not isinstance(aug_list, (list, tuple)):
            aug_list = [aug_list]
        if any(not isinstance(aug, DetAugmenter) for aug in aug_list):
            raise ValueError("Allow DetAugmenter in list only")
        self.aug_list = aug_list
        self.skip_prob = skip_prob if aug_list else 1

    def dumps(self) -> Any:
        return [self.__class__.__name__.lower(), [x.dumps() for x in self.aug_list]]

    def __call__(self, src: Any, label: np.ndarray) -> tuple[Any, np.ndarray]:
        if random.random() < self.skip_prob:
            return src, label
        random.shuffle(self.aug_list)
        return self.aug_list[0](src, label)


class DetHorizontalFlipAug(DetAugmenter):
    """With probability ``p``, the image mirrored left to right and the boxes with it (in place)."""

    def __init__(self, p: float) -> None:
        super().__init__(p=p)
        self.p = p

    def __call__(self, src: Any, label: np.ndarray) -> tuple[Any, np.ndarray]:
        if random.random() < self.p:
            src = _wrap(np.ascontiguousarray(_numpy(src)[:, ::-1]))
            left = 1.0 - label[:, 3]
            label[:, 3] = 1.0 - label[:, 1]
            label[:, 1] = left
        return src, label


def _pair(value: Any, what: str, name: str) -> tuple:
    if isinstance(value, (tuple, list)):
        return tuple(value)
    if not isinstance(value, Number):
        raise TypeError(f"{name}: {what} must be a number or a (min, max) pair, got {value!r}")
    logging.info("Using fixed %s: %s in %s", what, value, name)
    return (value, value)


def _areas(boxes: np.ndarray) -> np.ndarray:
    """Areas of (xmin, ymin, xmax, ymax) rows (0 for empty boxes)."""
    return np.maximum(0, boxes[:, 3] - boxes[:, 1]) * np.maximum(0, boxes[:, 2] - boxes[:, 0])


def _clip_boxes(boxes: np.ndarray, x1: float, y1: float, x2: float, y2: float) -> np.ndarray:
    """The boxes cut to the window; those that miss it become all zeros."""
    out = boxes.copy()
    out[:, 0] = np.maximum(boxes[:, 0], x1)
    out[:, 1] = np.maximum(boxes[:, 1], y1)
    out[:, 2] = np.minimum(boxes[:, 2], x2)
    out[:, 3] = np.minimum(boxes[:, 3], y2)
    out[(out[:, 0] >= out[:, 2]) | (out[:, 1] >= out[:, 3])] = 0
    return out


def _box_height(ratio: float, min_area: float, max_area: float, width: int, height: int,
                crop: bool) -> tuple[int, int] | None:
    """The (start, max) heights of a crop (``crop``) or pad of aspect ``ratio``; None to try again."""
    h = round(sqrt(min_area / ratio))
    max_h = round(sqrt(max_area / ratio))
    if crop:
        if round(max_h * ratio) > width:
            max_h = int((width + 0.4999999) / ratio)
        max_h = min(max_h, height)
    else:
        if round(h * ratio) < width:
            h = int((width + 0.499999) / ratio)
        h = max(h, height)
    return min(h, max_h), max_h


class DetRandomCropAug(DetAugmenter):
    """A random crop (area fraction in ``area_range``, aspect in ``aspect_ratio_range``) that keeps every
    object at least ``min_object_covered`` covered; objects less than ``min_eject_coverage`` inside the crop
    are dropped; after ``max_attempts`` failures, no crop."""

    def __init__(self, min_object_covered: float = 0.1, aspect_ratio_range: Any = (0.75, 1.33),
                 area_range: Any = (0.05, 1.0), min_eject_coverage: float = 0.3,
                 max_attempts: int = 50) -> None:
        aspect_ratio_range = _pair(aspect_ratio_range, "aspect ratio", "DetRandomCropAug")
        area_range = _pair(area_range, "area range", "DetRandomCropAug")
        super().__init__(min_object_covered=min_object_covered, aspect_ratio_range=aspect_ratio_range,
                         area_range=area_range, min_eject_coverage=min_eject_coverage,
                         max_attempts=max_attempts)
        self.min_object_covered = min_object_covered
        self.min_eject_coverage = min_eject_coverage
        self.max_attempts = max_attempts
        self.aspect_ratio_range = aspect_ratio_range
        self.area_range = area_range
        self.enabled = False
        if area_range[1] <= 0 or area_range[0] > area_range[1]:
            warnings.warn(f"Skip DetRandomCropAug due to invalid area_range: {area_range}", stacklevel=2)
        elif aspect_ratio_range[0] > aspect_ratio_range[1] or aspect_ratio_range[0] <= 0:
            warnings.warn(f"Skip DetRandomCropAug due to invalid aspect_ratio_range: {aspect_ratio_range}",
                          stacklevel=2)
        else:
            self.enabled = True

    def __call__(self, src: Any, label: np.ndarray) -> tuple[Any, np.ndarray]:
        crop = self._random_crop_proposal(label, int(src.shape[0]), int(src.shape[1]))
        if crop:
            x, y, w, h, label = crop
            src = fixed_crop(src, x, y, w, h, None)
        return src, label

    def _satisfied(self, label: np.ndarray, box: tuple[int, int, int, int], width: int, height: int) -> bool:
        xmin, ymin, xmax, ymax = box
        if (xmax - xmin) * (ymax - ymin) < 2:
            return False
        areas = _areas(label[:, 1:])
        valid = np.where(areas * width * height > 2)[0]
        if valid.size < 1:
            return False
        cut = _clip_boxes(label[valid, 1:], xmin / width, ymin / height, xmax / width, ymax / height)
        coverages = _areas(cut) / areas[valid]
        coverages = coverages[coverages > 0]
        return coverages.size > 0 and np.amin(coverages) > self.min_object_covered

    def _update_labels(self, label: np.ndarray, box: tuple[int, int, int, int], height: int,
                       width: int) -> np.ndarray | None:
        xmin, ymin = box[0] / width, box[1] / height
        w, h = box[2] / width, box[3] / height
        out = label.copy()
        out[:, (1, 3)] = (out[:, (1, 3)] - xmin) / w
        out[:, (2, 4)] = (out[:, (2, 4)] - ymin) / h
        out[:, 1:5] = np.minimum(1, np.maximum(0, out[:, 1:5]))
        coverage = _areas(out[:, 1:]) * w * h / _areas(label[:, 1:])
        keep = (out[:, 3] > out[:, 1]) & (out[:, 4] > out[:, 2]) & (coverage > self.min_eject_coverage)
        return out[keep] if keep.any() else None

    def _random_crop_proposal(self, label: np.ndarray, height: int, width: int) -> tuple:
        if not self.enabled or height <= 0 or width <= 0:
            return ()
        min_area = self.area_range[0] * height * width
        max_area = self.area_range[1] * height * width
        for _ in range(self.max_attempts):
            ratio = random.uniform(*self.aspect_ratio_range)
            if ratio <= 0:
                continue
            h, max_h = _box_height(ratio, min_area, max_area, width, height, crop=True)
            if h < max_h:
                h = random.randint(h, max_h)
            w = round(h * ratio)
            if w * h < min_area:
                h += 1
                w = round(h * ratio)
            if w * h > max_area:
                h -= 1
                w = round(h * ratio)
            if not (min_area <= w * h <= max_area and 0 <= w <= width and 0 <= h <= height):
                continue
            y = random.randint(0, max(0, height - h))
            x = random.randint(0, max(0, width - w))
            if self._satisfied(label, (x, y, x + w, y + h), width, height):
                new_label = self._update_labels(label, (x, y, w, h), height, width)
                if new_label is not None:
                    return x, y, w, h, new_label
        return ()


class DetRandomPadAug(DetAugmenter):
    """The image placed at a random spot of a larger canvas (area ``area_range`` times the image's, aspect
    in ``aspect_ratio_range``) filled with ``pad_val``; the boxes follow."""

    def __init__(self, aspect_ratio_range: Any = (0.75, 1.33), area_range: Any = (1.0, 3.0),
                 max_attempts: int = 50, pad_val: Any = (128, 128, 128)) -> None:
        if not isinstance(pad_val, (list, tuple)) and not isinstance(pad_val, Number):
            raise TypeError(f"DetRandomPadAug: pad_val must be a number or a tuple, got {pad_val!r}")
        aspect_ratio_range = _pair(aspect_ratio_range, "aspect ratio", "DetRandomPadAug")
        area_range = _pair(area_range, "area range", "DetRandomPadAug")
        super().__init__(aspect_ratio_range=aspect_ratio_range, area_range=area_range,
                         max_attempts=max_attempts, pad_val=pad_val)
        self.pad_val = pad_val
        self.aspect_ratio_range = aspect_ratio_range
        self.area_range = area_range
        self.max_attempts = max_attempts
        self.enabled = False
        if area_range[1] <= 1.0 or area_range[0] > area_range[1]:
            warnings.warn(f"Skip DetRandomPadAug due to invalid parameters: {area_range}", stacklevel=2)
        elif aspect_ratio_range[0] <= 0 or aspect_ratio_range[0] > aspect_ratio_range[1]:
            warnings.warn(f"Skip DetRandomPadAug due to invalid aspect_ratio_range: {aspect_ratio_range}",
                          stacklevel=2)
        else:
            self.enabled = True

    def __call__(self, src: Any, label: np.ndarray) -> tuple[Any, np.ndarray]:
        height, width = int(src.shape[0]), int(src.shape[1])
        pad = self._random_pad_proposal(label, height, width)
        if pad:
            x, y, w, h, label = pad
            # a single number is OpenCV's Scalar(v): v in the first channel, 0 in the others
            values = list(self.pad_val) if isinstance(self.pad_val, (list, tuple)) else \
                [self.pad_val] + [0] * (int(src.shape[2]) - 1)
            src = copyMakeBorder(src, y, h - y - height, x, w - x - width, 0, values=values)
        return src, label

    def _random_pad_proposal(self, label: np.ndarray, height: int, width: int) -> tuple:
        if not self.enabled or height <= 0 or width <= 0:
            return ()
        min_area = self.area_range[0] * height * width
        max_area = self.area_range[1] * height * width
        for _ in range(self.max_attempts):
            ratio = random.uniform(*self.aspect_ratio_range)
            if ratio <= 0:
                continue
            h, max_h = _box_height(ratio, min_area, max_area, width, height, crop=False)
            if h < max_h:
                h = random.randint(h, max_h)
            w = round(h * ratio)
            if h - height < 2 or w - width < 2:
                continue
            y = random.randint(0, max(0, h - height))
            x = random.randint(0, max(0, w - width))
            out = label.copy()
            out[:, (1, 3)] = (out[:, (1, 3)] * width + x) / w
            out[:, (2, 4)] = (out[:, (2, 4)] * height + y) / h
            return x, y, w, h, out
        return ()


def CreateMultiRandCropAugmenter(min_object_covered: Any = 0.1, aspect_ratio_range: Any = (0.75, 1.33),
                                 area_range: Any = (0.05, 1.0), min_eject_coverage: Any = 0.3,
                                 max_attempts: Any = 50, skip_prob: float = 0) -> DetRandomSelectAug:
    """A DetRandomSelectAug over DetRandomCropAugs: each argument a value or a list (lists of one length,
    one crop augmenter per entry; single values repeat).

    Examples:
        >>> from cellonnx.mxnet import image
        >>> aug = image.CreateMultiRandCropAugmenter(min_object_covered=[0.1, 0.5], skip_prob=0.2)
        >>> [a.min_object_covered for a in aug.aug_list], aug.skip_prob
        ([0.1, 0.5], 0.2)
    """
    params = [p if isinstance(p, list) else [p] for p in
              (min_object_covered, aspect_ratio_range, area_range, min_eject_coverage, max_attempts)]
    num = max(len(p) for p in params)
    for k, p in enumerate(params):
        if len(p) != num:
            if len(p) != 1:
                raise ValueError(f"CreateMultiRandCropAugmenter: lists of {len(p)} and {num} entries")
            params[k] = p * num
    augs = [DetRandomCropAug(min_object_covered=moc, aspect_ratio_range=arr, area_range=ar,
                             min_eject_coverage=mec, max_attempts=ma)
            for moc, arr, ar, mec, ma in zip(*params)]
    return DetRandomSelectAug(augs, skip_prob=skip_prob)


def CreateDetAugmenter(data_shape: tuple, resize: int = 0, rand_crop: float = 0, rand_pad: float = 0,
                       rand_gray: float = 0, rand_mirror: bool = False, mean: Any = None, std: Any = None,
                       brightness: float = 0, contrast: float = 0, saturation: float = 0,
                       pca_noise: float = 0, hue: float = 0, inter_method: int = 2,
                       min_object_covered: Any = 0.1,
                       aspect_ratio_range: Any = (0.75, 1.33), area_range: Any = (0.05, 3.0),
                       min_eject_coverage: Any = 0.3, max_attempts: Any = 50,
                       pad_val: Any = (127, 127, 127)) -> list[DetAugmenter]:
    """MXNet's standard detection augmenters for images of ``data_shape`` (C, H, W): optional resize of the
    short edge, random crops (probability ``rand_crop``), mirroring, random padding (probability
    ``rand_pad``), the forced resize to (W, H), the cast to float32, colour / hue jitters, PCA lighting
    noise, random gray, and colour normalisation (``mean`` / ``std`` True for ImageNet's values).

    Examples:
        >>> from cellonnx.mxnet import image
        >>> augs = image.CreateDetAugmenter((3, 300, 300), rand_crop=0.5, rand_mirror=True)
        >>> [type(a).__name__ for a in augs]
        ['DetRandomSelectAug', 'DetHorizontalFlipAug', 'DetBorrowAug', 'DetBorrowAug']
    """
    auglist: list[DetAugmenter] = []
    if resize > 0:
        auglist.append(DetBorrowAug(ResizeAug(resize, inter_method)))
    if rand_crop > 0:
        auglist.append(CreateMultiRandCropAugmenter(min_object_covered, aspect_ratio_range, area_range,
                                                    min_eject_coverage, max_attempts,
                                                    skip_prob=1 - rand_crop))
    if rand_mirror > 0:
        auglist.append(DetHorizontalFlipAug(0.5))
    if rand_pad > 0:
        pad_aug = DetRandomPadAug(aspect_ratio_range, (1.0, area_range[1]), max_attempts, pad_val)
        auglist.append(DetRandomSelectAug([pad_aug], 1 - rand_pad))
    auglist.append(DetBorrowAug(ForceResizeAug((data_shape[2], data_shape[1]), inter_method)))
    auglist.append(DetBorrowAug(CastAug()))
    if brightness or contrast or saturation:
        auglist.append(DetBorrowAug(ColorJitterAug(brightness, contrast, saturation)))
    if hue:
        auglist.append(DetBorrowAug(HueJitterAug(hue)))
    if pca_noise > 0:
        eigval = np.array([55.46, 4.794, 1.148])
        eigvec = np.array([[-0.5675, 0.7192, 0.4009], [-0.5808, -0.0045, -0.814], [-0.5836, -0.6948, 0.4203]])
        auglist.append(DetBorrowAug(LightingAug(pca_noise, eigval, eigvec)))
    if rand_gray > 0:
        auglist.append(DetBorrowAug(RandomGrayAug(rand_gray)))
    if mean is True:
        mean = np.array([123.68, 116.28, 103.53])
    elif mean is not None and not (isinstance(mean, np.ndarray) and mean.shape[0] in (1, 3)):
        raise ValueError("CreateDetAugmenter: mean must be True or a NumPy array of 1 or 3 values")
    if std is True:
        std = np.array([58.395, 57.12, 57.375])
    elif std is not None and not (isinstance(std, np.ndarray) and std.shape[0] in (1, 3)):
        raise ValueError("CreateDetAugmenter: std must be True or a NumPy array of 1 or 3 values")
    if mean is not None or std is not None:
        auglist.append(DetBorrowAug(ColorNormalizeAug(mean, std)))
    return auglist
