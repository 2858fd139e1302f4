"""mx.image's augmenters (MXNet 1.9.1's ``mx.image.Augmenter`` classes and ``CreateAugmenter``).

Each augmenter is called on one (H, W, C) image array and returns the augmented image (an NDArray, or an
mx.np ndarray under ``npx.set_np()``). They draw their random numbers as MXNet's do: crops, flips, jitters
and orders from Python's ``random`` module, the lighting noise from ``numpy.random``; so with both seeded
the same, they give MXNet's images. The colour arithmetic is float32, as MXNet's NDArray arithmetic.
"""
from __future__ import annotations

import json
import random
import warnings
from numbers import Number
from typing import Any

import numpy as np

from cellonnx.mxnet.image import (
    _interp,
    _numpy,
    _wrap,
    center_crop,
    color_normalize,
    fixed_crop,
    imresize,
    random_crop,
    resize_short,
)
from cellonnx.tensor import Tensor

__all__ = ["Augmenter", "BrightnessJitterAug", "CastAug", "CenterCropAug", "ColorJitterAug",
           "ColorNormalizeAug", "ContrastJitterAug", "CreateAugmenter", "ForceResizeAug", "HorizontalFlipAug",
           "HueJitterAug", "LightingAug", "RandomCropAug", "RandomGrayAug", "RandomOrderAug",
           "RandomSizedCropAug", "ResizeAug", "SaturationJitterAug", "SequentialAug", "random_size_crop"]

_GRAY = np.array([0.299, 0.587, 0.114], np.float32)


def _float(src: Any) -> np.ndarray:
    return _numpy(src)


def _like(src: Any, arr: np.ndarray) -> Any:
    """``arr`` as an array of ``src``'s kind (the dtype ``arr`` has)."""
    return _wrap(np.ascontiguousarray(arr))


def random_size_crop(src: Any, size: tuple, area: Any, ratio: tuple, interp: int = 2,
                     **kwargs: Any) -> tuple[Any, tuple[int, int, int, int]]:
    """A crop of a random area fraction (``area``: a minimum, or a (min, max) range) and aspect ratio (in
    ``ratio``, drawn log-uniformly), resized to ``size`` (w, h); after 10 draws that do not fit, the centre
    crop. Returns the crop and its (x0, y0, w, h) in ``src``."""
    h, w = int(src.shape[0]), int(src.shape[1])
    if "min_area" in kwargs:
        warnings.warn("`min_area` is deprecated. Please use `area` instead.", DeprecationWarning,
                      stacklevel=2)
        area = kwargs.pop("min_area")
    if kwargs:
        raise TypeError(f"random_size_crop: unexpected keyword arguments {sorted(kwargs)}")
    if isinstance(area, Number):
        area = (area, 1.0)
    for _ in range(10):
        target = random.uniform(area[0], area[1]) * h * w
        log_ratio = (np.log(ratio[0]), np.log(ratio[1]))
        new_ratio = np.exp(random.uniform(*log_ratio))
        new_w = int(np.rint(np.sqrt(target * new_ratio)))
        new_h = int(np.rint(np.sqrt(target / new_ratio)))
        if new_w <= w and new_h <= h:
            x0 = random.randint(0, w - new_w)
            y0 = random.randint(0, h - new_h)
            return fixed_crop(src, x0, y0, new_w, new_h, size, interp), (x0, y0, new_w, new_h)
    return center_crop(src, size, interp)


class Augmenter:
    """Base class of the image augmenters: call one on an image to get the augmented image."""

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

    def __call__(self, src: Any) -> Any:
        raise NotImplementedError("Must override implementation.")


class SequentialAug(Augmenter):
    """The augmenters ``ts`` applied one after another."""

    def __init__(self, ts: list[Augmenter]) -> None:
        super().__init__()
        self.ts = ts

    def dumps(self) -> Any:
        return [self.__class__.__name__.lower(), [x.dumps() for x in self.ts]]

    def __call__(self, src: Any) -> Any:
        for aug in self.ts:
            src = aug(src)
        return src


class RandomOrderAug(Augmenter):
    """The augmenters ``ts`` applied in a random order (shuffled in place at each call)."""

    def __init__(self, ts: list[Augmenter]) -> None:
        super().__init__()
        self.ts = ts

    def dumps(self) -> Any:
        return [self.__class__.__name__.lower(), [x.dumps() for x in self.ts]]

    def __call__(self, src: Any) -> Any:
        random.shuffle(self.ts)
        for t in self.ts:
            src = t(src)
        return src


class ResizeAug(Augmenter):
    """Resize the shorter edge to ``size`` (the other keeps the aspect ratio)."""

    def __init__(self, size: int, interp: int = 2) -> None:
        super().__init__(size=size, interp=interp)
        self.size = size
        self.interp = interp

    def __call__(self, src: Any) -> Any:
        return resize_short(src, self.size, self.interp)


class ForceResizeAug(Augmenter):
    """Resize to ``size`` (w, h), ignoring the aspect ratio."""

    def __init__(self, size: tuple, interp: int = 2) -> None:
        super().__init__(size=size, interp=interp)
        self.size = size
        self.interp = interp

    def __call__(self, src: Any) -> Any:
        sizes = (int(src.shape[0]), int(src.shape[1]), self.size[1], self.size[0])
        return imresize(src, *self.size, interp=_interp(self.interp, sizes))


class RandomCropAug(Augmenter):
    """A crop of ``size`` (w, h) at a random place."""

    def __init__(self, size: tuple, interp: int = 2) -> None:
        super().__init__(size=size, interp=interp)
        self.size = size
        self.interp = interp

    def __call__(self, src: Any) -> Any:
        return random_crop(src, self.size, self.interp)[0]


class RandomSizedCropAug(Augmenter):
    """A crop of random area and aspect ratio, resized to ``size`` (w, h) (see ``random_size_crop``)."""

    def __init__(self, size: tuple, area: Any, ratio: tuple, interp: int = 2, **kwargs: Any) -> None:
        super().__init__(size=size, area=area, ratio=ratio, interp=interp)
        self.size = size
        if "min_area" in kwargs:
            warnings.warn("`min_area` is deprecated. Please use `area` instead.", DeprecationWarning,
                          stacklevel=2)
            self.area = kwargs.pop("min_area")
        else:
            self.area = area
        self.ratio = ratio
        self.interp = interp
        if kwargs:
            raise TypeError(f"RandomSizedCropAug: unexpected keyword arguments {sorted(kwargs)}")

    def __call__(self, src: Any) -> Any:
        return random_size_crop(src, self.size, self.area, self.ratio, self.interp)[0]


class CenterCropAug(Augmenter):
    """The centred crop of ``size`` (w, h)."""

    def __init__(self, size: tuple, interp: int = 2) -> None:
        super().__init__(size=size, interp=interp)
        self.size = size
        self.interp = interp

    def __call__(self, src: Any) -> Any:
        return center_crop(src, self.size, self.interp)[0]


class BrightnessJitterAug(Augmenter):
    """Scale the image by ``1 + u``, ``u`` uniform in [-brightness, brightness]."""

    def __init__(self, brightness: float) -> None:
        super().__init__(brightness=brightness)
        self.brightness = brightness

    def __call__(self, src: Any) -> Any:
        alpha = 1.0 + random.uniform(-self.brightness, self.brightness)
        x = _float(src)
        return _like(src, (x * x.dtype.type(alpha)).astype(x.dtype))


class ContrastJitterAug(Augmenter):
    """Blend the image with its mean gray level: ``alpha * x + (1 - alpha) * mean gray``, ``alpha = 1 + u``,
    ``u`` uniform in [-contrast, contrast]."""

    def __init__(self, contrast: float) -> None:
        super().__init__(contrast=contrast)
        self.contrast = contrast
        self.coef = _GRAY.reshape(1, 1, 3)

    def __call__(self, src: Any) -> Any:
        alpha = 1.0 + random.uniform(-self.contrast, self.contrast)
        x = _float(src)
        gray = x * self.coef
        level = np.float32(3.0 * (1.0 - alpha) / gray.size) * gray.sum(dtype=np.float32)
        return _like(src, (x * np.float32(alpha) + level).astype(x.dtype))


class SaturationJitterAug(Augmenter):
    """Blend each pixel with its gray level: ``alpha * x + (1 - alpha) * gray``, ``alpha = 1 + u``, ``u``
    uniform in [-saturation, saturation]."""

    def __init__(self, saturation: float) -> None:
        super().__init__(saturation=saturation)
        self.saturation = saturation
        self.coef = _GRAY.reshape(1, 1, 3)

    def __call__(self, src: Any) -> Any:
        alpha = 1.0 + random.uniform(-self.saturation, self.saturation)
        x = _float(src)
        gray = (x * self.coef).sum(axis=2, keepdims=True, dtype=np.float32) * np.float32(1.0 - alpha)
        return _like(src, (x * np.float32(alpha) + gray).astype(x.dtype))


class HueJitterAug(Augmenter):
    """Rotate the hue by ``u * pi``, ``u`` uniform in [-hue, hue], in YIQ space."""

    def __init__(self, hue: float) -> None:
        super().__init__(hue=hue)
        self.hue = hue
        self.tyiq = np.array([[0.299, 0.587, 0.114], [0.596, -0.274, -0.321], [0.211, -0.523, 0.311]])
        self.ityiq = np.array([[1.0, 0.956, 0.621], [1.0, -0.272, -0.647], [1.0, -1.107, 1.705]])

    def __call__(self, src: Any) -> Any:
        alpha = random.uniform(-self.hue, self.hue)
        u, w = np.cos(alpha * np.pi), np.sin(alpha * np.pi)
        bt = np.array([[1.0, 0.0, 0.0], [0.0, u, -w], [0.0, w, u]])
        t = np.dot(np.dot(self.ityiq, bt), self.tyiq).T.astype(np.float32)
        x = _float(src)
        return _like(src, np.dot(x.astype(np.float32), t))


class ColorJitterAug(RandomOrderAug):
    """Brightness, contrast and saturation jitters (those given as > 0) in a random order."""

    def __init__(self, brightness: float, contrast: float, saturation: float) -> None:
        ts: list[Augmenter] = []
        if brightness > 0:
            ts.append(BrightnessJitterAug(brightness))
        if contrast > 0:
            ts.append(ContrastJitterAug(contrast))
        if saturation > 0:
            ts.append(SaturationJitterAug(saturation))
        super().__init__(ts)


class LightingAug(Augmenter):
    """AlexNet-style PCA lighting noise: adds ``eigvec @ (alpha * eigval)``, ``alpha`` normal with standard
    deviation ``alphastd`` (drawn with numpy.random)."""

    def __init__(self, alphastd: float, eigval: Any, eigvec: Any) -> None:
        super().__init__(alphastd=alphastd, eigval=eigval, eigvec=eigvec)
        self.alphastd = alphastd
        self.eigval = eigval
        self.eigvec = eigvec

    def __call__(self, src: Any) -> Any:
        alpha = np.random.normal(0, self.alphastd, size=(3,))
        rgb = np.dot(np.asarray(self.eigvec) * alpha, np.asarray(self.eigval)).astype(np.float32)
        x = _float(src)
        return _like(src, (x + rgb).astype(x.dtype))


class ColorNormalizeAug(Augmenter):
    """``(x - mean) / std`` (either may be None)."""

    def __init__(self, mean: Any, std: Any) -> None:
        super().__init__(mean=mean, std=std)
        self.mean = None if mean is None else _wrap(np.asarray(_numpy(mean), np.float32))
        self.std = None if std is None else _wrap(np.asarray(_numpy(std), np.float32))

    def __call__(self, src: Any) -> Any:
        return color_normalize(src, self.mean, self.std)


class RandomGrayAug(Augmenter):
    """With probability ``p``, the image turned gray (0.21 R + 0.72 G + 0.07 B in every channel)."""

    def __init__(self, p: float) -> None:
        super().__init__(p=p)
        self.p = p
        self.mat = np.array([[0.21, 0.21, 0.21], [0.72, 0.72, 0.72], [0.07, 0.07, 0.07]], np.float32)

    def __call__(self, src: Any) -> Any:
        if random.random() < self.p:
            return _like(src, np.dot(_float(src).astype(np.float32), self.mat))
        return src


class HorizontalFlipAug(Augmenter):
    """With probability ``p``, the image mirrored left to right."""

    def __init__(self, p: float) -> None:
        super().__init__(p=p)
        self.p = p

    def __call__(self, src: Any) -> Any:
        if random.random() < self.p:
            return _like(src, _numpy(src)[:, ::-1])
        return src


class CastAug(Augmenter):
    """The image cast to ``typ``."""

    def __init__(self, typ: str = "float32") -> None:
        super().__init__(type=typ)
        self.typ = typ

    def __call__(self, src: Any) -> Any:
        return src.astype(self.typ)


def CreateAugmenter(data_shape: tuple, resize: int = 0, rand_crop: bool = False, rand_resize: bool = False,
                    rand_mirror: bool = False, mean: Any = None, std: Any = None, brightness: float = 0,
                    contrast: float = 0, saturation: float = 0, hue: float = 0, pca_noise: float = 0,
                    rand_gray: float = 0, inter_method: int = 2) -> list[Augmenter]:
    """MXNet's standard augmenter list for images of ``data_shape`` (C, H, W): optional resize of the short
    edge, a crop to (W, H) (random-sized, random or centred), optional mirroring, the cast to float32, colour
    and hue jitters, PCA lighting noise, random gray and colour normalisation (``mean`` / ``std`` True for
    ImageNet's values).

    Examples:
        >>> from cellonnx.mxnet import image
        >>> [type(a).__name__ for a in image.CreateAugmenter((3, 224, 224), resize=256, rand_mirror=True)]
        ['ResizeAug', 'CenterCropAug', 'HorizontalFlipAug', 'CastAug']
    """
    auglist: list[Augmenter] = []
    if resize > 0:
        auglist.append(ResizeAug(resize, inter_method))
    crop_size = (data_shape[2], data_shape[1])
    if rand_resize:
        if not rand_crop:
            raise ValueError("CreateAugmenter: rand_resize needs rand_crop")
        auglist.append(RandomSizedCropAug(crop_size, 0.08, (3.0 / 4.0, 4.0 / 3.0), inter_method))
    elif rand_crop:
        auglist.append(RandomCropAug(crop_size, inter_method))
    else:
        auglist.append(CenterCropAug(crop_size, inter_method))
    if rand_mirror:
        auglist.append(HorizontalFlipAug(0.5))
    auglist.append(CastAug())
    if brightness or contrast or saturation:
        auglist.append(ColorJitterAug(brightness, contrast, saturation))
    if hue:
        auglist.append(HueJitterAug(hue))
    if pca_noise > 0:
        eigval = np.array([55.46, 4.794, 1.148])
        eigvec = np.array([[-0.5675, 0.7192, 0.4009], [-0.5808, -0.0045, -0.814], [-0.5836, -0.6948, 0.4203]])
        auglist.append(LightingAug(pca_noise, eigval, eigvec))
    if rand_gray > 0:
        auglist.append(RandomGrayAug(rand_gray))
    if mean is True:
        mean = np.array([123.68, 116.28, 103.53])
    elif mean is not None and not (isinstance(mean, (np.ndarray, Tensor)) and mean.shape[0] in (1, 3)):
        raise ValueError("CreateAugmenter: mean must be True or an array of 1 or 3 values")
    if std is True:
        std = np.array([58.395, 57.12, 57.375])
    elif std is not None and not (isinstance(std, (np.ndarray, Tensor)) and std.shape[0] in (1, 3)):
        raise ValueError("CreateAugmenter: std must be True or an array of 1 or 3 values")
    if mean is not None or std is not None:
        auglist.append(ColorNormalizeAug(mean, std))
    return auglist
