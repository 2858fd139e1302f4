"""mx.image's augmenters and ImageIter, written once for real MXNet 1.9.1 (tests/fixtures/mxnet/
gen_image_aug.py records the results) and cellonnx.mxnet (test_image_aug.py replays them). NumPy and the
standard library only.

A case is a function of ``(mx, images)`` (``images`` the folder of the committed test images) returning a list
of NumPy arrays or strings. The random augmenters run after ``random.seed`` and ``numpy.random.seed`` with the
case's seed, so both frameworks draw the same numbers: Python's ``random`` for crops, flips, jitters and
orders, NumPy's for the lighting noise.
"""
from __future__ import annotations

import random
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

EIGVAL = np.array([55.46, 4.794, 1.148])
EIGVEC = np.array([[-0.5675, 0.7192, 0.4009], [-0.5808, -0.0045, -0.814], [-0.5836, -0.6948, 0.4203]])
FILES = ["photo.png", "photo.jpg", "turned.jpg", "gray.png"]


def _image(mx: Any, images: Path, name: str = "photo.png", dtype: str = "float32") -> Any:
    return mx.image.imdecode((images / name).read_bytes()).astype(dtype)


def _apply(aug_fn: Callable[[Any], Any], calls: int = 1, dtype: str = "float32") -> Callable[..., list]:
    def case(mx: Any, images: Path) -> list:
        aug = aug_fn(mx)
        return [aug(_image(mx, images, dtype=dtype)).asnumpy() for _ in range(calls)]
    return case


def _pipeline(**kwargs: Any) -> Callable[..., list]:
    def case(mx: Any, images: Path) -> list:
        augs = mx.image.CreateAugmenter((3, 6, 8), **kwargs)
        out = []
        for name in FILES[:3]:
            img = mx.image.imdecode((images / name).read_bytes())
            for aug in augs:
                img = aug(img)
            out.append(img.asnumpy())
        return out + [str([type(a).__name__ for a in augs])]
    return case


def _iterate(epochs: int = 2, **kwargs: Any) -> Callable[..., list]:
    def case(mx: Any, images: Path) -> list:
        imglist = [[float(i), name] for i, name in enumerate(FILES)]
        it = mx.image.ImageIter(3, (3, 5, 6), imglist=imglist, path_root=str(images), **kwargs)
        out: list = []
        for _ in range(epochs):
            for batch in it:
                out += [batch.data[0].asnumpy(), batch.label[0].asnumpy(), np.array(batch.pad)]
            it.reset()
        return out + [str(it.provide_data[0][1]), str(it.provide_label[0][1])]
    return case


def _iterate_lst(mx: Any, images: Path) -> list:
    lst = images / "images.lst"
    it = mx.image.ImageIter(2, (3, 4, 4), path_imglist=str(lst), path_root=str(images), label_width=2,
                            last_batch_handle="discard", rand_mirror=True)
    out: list = []
    for batch in it:
        out += [batch.data[0].asnumpy(), batch.label[0].asnumpy(), np.array(batch.pad)]
    return out + [str(it.provide_label[0][1])]


def _dumps(mx: Any, images: Path) -> list:
    augs = [mx.image.ResizeAug(8), mx.image.ForceResizeAug((9, 7), 1), mx.image.RandomCropAug((4, 4)),
            mx.image.RandomSizedCropAug((4, 4), 0.3, (0.75, 1.33)), mx.image.CenterCropAug((5, 5)),
            mx.image.BrightnessJitterAug(0.2), mx.image.HueJitterAug(0.1), mx.image.RandomGrayAug(0.3),
            mx.image.HorizontalFlipAug(0.5), mx.image.CastAug(), mx.image.LightingAug(0.1, EIGVAL, EIGVEC),
            mx.image.SequentialAug([mx.image.CastAug(), mx.image.HorizontalFlipAug(1.0)]),
            mx.image.ColorJitterAug(0.1, 0.2, 0.0)]
    return [str(a.dumps()) for a in augs]


CASES: dict[str, Callable[..., list]] = {
    # deterministic
    "resize_short": _apply(lambda mx: mx.image.ResizeAug(8)),
    "resize_short_up": _apply(lambda mx: mx.image.ResizeAug(20, interp=1)),
    "resize_short_u8": _apply(lambda mx: mx.image.ResizeAug(7, interp=1), dtype="uint8"),
    "force_resize": _apply(lambda mx: mx.image.ForceResizeAug((9, 7))),
    "force_resize_nearest": _apply(lambda mx: mx.image.ForceResizeAug((20, 5), interp=0)),
    "center_crop": _apply(lambda mx: mx.image.CenterCropAug((8, 6))),
    "center_crop_resized": _apply(lambda mx: mx.image.CenterCropAug((20, 20), interp=1)),
    "normalize": _apply(lambda mx: mx.image.ColorNormalizeAug(np.array([120.0, 110.0, 100.0]),
                                                              np.array([50.0, 60.0, 70.0]))),
    "normalize_mean": _apply(lambda mx: mx.image.ColorNormalizeAug(mx.nd.array([100.0, 100.0, 100.0]), None)),
    "cast": _apply(lambda mx: mx.image.CastAug("float64"), dtype="uint8"),
    "flip_always": _apply(lambda mx: mx.image.HorizontalFlipAug(1.0)),
    "gray_always": _apply(lambda mx: mx.image.RandomGrayAug(1.0)),
    "sequential": _apply(lambda mx: mx.image.SequentialAug([mx.image.ResizeAug(6, 1), mx.image.CastAug(),
                                                            mx.image.HorizontalFlipAug(1.0)]), dtype="uint8"),
    # seeded random
    "random_crop": _apply(lambda mx: mx.image.RandomCropAug((8, 6)), calls=4),
    "random_sized_crop": _apply(lambda mx: mx.image.RandomSizedCropAug((8, 6), 0.3, (0.75, 1.33)), calls=4),
    "random_sized_crop_range": _apply(lambda mx: mx.image.RandomSizedCropAug((5, 5), (0.5, 0.9), (0.5, 2.0),
                                                                             interp=1), calls=4),
    "brightness": _apply(lambda mx: mx.image.BrightnessJitterAug(0.3), calls=3),
    "contrast": _apply(lambda mx: mx.image.ContrastJitterAug(0.3), calls=3),
    "saturation": _apply(lambda mx: mx.image.SaturationJitterAug(0.3), calls=3),
    "hue": _apply(lambda mx: mx.image.HueJitterAug(0.2), calls=3),
    "color_jitter": _apply(lambda mx: mx.image.ColorJitterAug(0.2, 0.3, 0.4), calls=3),
    "lighting": _apply(lambda mx: mx.image.LightingAug(0.1, EIGVAL, EIGVEC), calls=3),
    "random_order": _apply(lambda mx: mx.image.RandomOrderAug([mx.image.BrightnessJitterAug(0.2),
                                                               mx.image.HorizontalFlipAug(0.5),
                                                               mx.image.RandomGrayAug(0.5)]), calls=4),
    "flip_half": _apply(lambda mx: mx.image.HorizontalFlipAug(0.5), calls=6),
    "gray_half": _apply(lambda mx: mx.image.RandomGrayAug(0.5), calls=6),
    # CreateAugmenter's pipelines
    "create_center": _pipeline(),
    "create_resize_mirror": _pipeline(resize=7, rand_mirror=True, mean=True, std=True),
    "create_random": _pipeline(rand_crop=True, rand_resize=True, brightness=0.2, contrast=0.2, saturation=0.2,
                               hue=0.1, pca_noise=0.1, rand_gray=0.3, inter_method=1),
    "create_crop_mean": _pipeline(rand_crop=True, mean=np.array([100.0, 110.0, 120.0])),
    "dumps": _dumps,
    # ImageIter
    "iter_pad": _iterate(),
    "iter_discard": _iterate(last_batch_handle="discard"),
    "iter_roll_over": _iterate(epochs=3, last_batch_handle="roll_over"),
    "iter_shuffle_aug": _iterate(shuffle=True, rand_crop=True, rand_mirror=True, brightness=0.1),
    "iter_parts": _iterate(epochs=1, part_index=1, num_parts=2, dtype="int32"),
    "iter_lst": _iterate_lst,
}


def run(mx: Any, images: Path, name: str) -> list:
    seed = zlib.crc32(name.encode()) % 10_000
    random.seed(seed)
    np.random.seed(seed)
    return CASES[name](mx, images)
