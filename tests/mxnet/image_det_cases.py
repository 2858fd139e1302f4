"""mx.image's detection augmenters, ImageDetIter, ImageIter over RecordIO files, imrotate and random_rotate,
written once for real MXNet 1.9.1 (tests/fixtures/mxnet/gen_image_det.py records the results) and
cellonnx.mxnet (test_image_det.py replays them). NumPy and the standard library only.

A case is a function of ``(mx, images, folder)``: ``images`` the committed test images, ``folder`` a scratch
folder for the .rec / .idx files it packs (the images' PNG / JPEG bytes as they are, so both frameworks
write the same files). Random cases run after ``random.seed`` and ``numpy.random.seed`` with the case's seed.
Resizes of uint8 images use bilinear interpolation (``inter_method=1``), which mx.image computes bit for bit
as OpenCV; its bicubic may land one level away on uint8 (see cellonnx/mxnet/image.py).
"""
from __future__ import annotations

import random
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

FILES = ["photo.png", "photo.jpg", "turned.jpg", "gray.png"]
OBJECTS = [
    [[0, 0.1, 0.2, 0.6, 0.7], [1, 0.5, 0.4, 0.9, 0.95]],
    [[2, 0.05, 0.05, 0.45, 0.5]],
    [[1, 0.3, 0.1, 0.8, 0.6], [0, 0.0, 0.5, 0.4, 1.0], [3, 0.6, 0.6, 0.7, 0.7]],
    [[0, 0.2, 0.2, 0.8, 0.8]],
]


def _label(i: int) -> list[float]:
    """The flat detection label of image ``i``: header (width 2: 2, 5), then objects of 5 values."""
    return [2.0, 5.0] + [v for obj in OBJECTS[i] for v in obj]


def _image(mx: Any, images: Path, name: str = "photo.png") -> Any:
    return mx.image.imdecode((images / name).read_bytes()).astype("float32")


def _det(make: Callable[[Any], Any], calls: int = 1) -> Callable[..., list]:
    def case(mx: Any, images: Path, folder: Path) -> list:
        aug = make(mx)
        out: list = []
        for k in range(calls):
            label = np.array(OBJECTS[k % 3], np.float32)
            img, label = aug(_image(mx, images, FILES[k % 3]), label)
            out += [img.asnumpy(), np.asarray(label, np.float32)]
        return out
    return case


def _create(**kwargs: Any) -> Callable[..., list]:
    def case(mx: Any, images: Path, folder: Path) -> list:
        augs = mx.image.CreateDetAugmenter((3, 6, 8), **kwargs)
        out: list = [str([type(a).__name__ for a in augs])]
        for k in range(3):
            img = mx.image.imdecode((images / FILES[k]).read_bytes())
            label = np.array(OBJECTS[k], np.float32)
            for aug in augs:
                img, label = aug(img, label)
            out += [img.asnumpy(), np.asarray(label, np.float32)]
        return out
    return case


def _dumps(mx: Any, images: Path, folder: Path) -> list:
    augs = [mx.image.DetBorrowAug(mx.image.CastAug()), mx.image.DetHorizontalFlipAug(0.5),
            mx.image.DetRandomCropAug(0.2, (0.5, 2.0), (0.1, 1.0)), mx.image.DetRandomPadAug(),
            mx.image.DetRandomCropAug(aspect_ratio_range=1.0, area_range=0.5),
            mx.image.CreateMultiRandCropAugmenter([0.1, 0.3], skip_prob=0.5)]
    return [str(a.dumps()) for a in augs]


def _pack(mx: Any, images: Path, folder: Path, det: bool) -> tuple[str, str]:
    folder.mkdir(parents=True, exist_ok=True)
    rec, idx = str(folder / "images.rec"), str(folder / "images.idx")
    writer = mx.recordio.MXIndexedRecordIO(idx, rec, "w")
    for i, name in enumerate(FILES):
        label = np.array(_label(i), np.float32) if det else float(i)
        flag = len(label) if det else 0
        writer.write_idx(i, mx.recordio.pack(mx.recordio.IRHeader(flag, label, i, 0),
                                             (images / name).read_bytes()))
    writer.close()
    return rec, idx


def _batches(it: Any, epochs: int) -> list:
    out: list = [str(tuple(it.provide_data[0][1])), str(tuple(it.provide_label[0][1]))]
    for _ in range(epochs):
        for batch in it:
            out += [batch.data[0].asnumpy(), batch.label[0].asnumpy(), np.array(batch.pad)]
        it.reset()
    return out


def _rec_iter(epochs: int = 2, indexed: bool = True, **kwargs: Any) -> Callable[..., list]:
    def case(mx: Any, images: Path, folder: Path) -> list:
        rec, idx = _pack(mx, images, folder, det=False)
        it = mx.image.ImageIter(3, (3, 5, 6), path_imgrec=rec, path_imgidx=idx if indexed else None, **kwargs)
        return _batches(it, epochs)
    return case


def _det_iter(epochs: int = 2, source: str = "list", **kwargs: Any) -> Callable[..., list]:
    def case(mx: Any, images: Path, folder: Path) -> list:
        if source == "list":
            imglist = [[_label(i), name] for i, name in enumerate(FILES)]
            it = mx.image.ImageDetIter(3, (3, 6, 6), imglist=imglist, path_root=str(images), inter_method=1,
                                       **kwargs)
        else:
            rec, idx = _pack(mx, images, folder, det=True)
            it = mx.image.ImageDetIter(3, (3, 6, 6), path_imgrec=rec,
                                       path_imgidx=idx if source == "indexed" else None, inter_method=1,
                                       **kwargs)
        return _batches(it, epochs)
    return case


def _det_reshape(mx: Any, images: Path, folder: Path) -> list:
    a = mx.image.ImageDetIter(2, (3, 6, 6), imglist=[[_label(i), n] for i, n in enumerate(FILES)],
                              path_root=str(images))
    b = mx.image.ImageDetIter(2, (3, 6, 6), imglist=[[_label(1), FILES[1]]], path_root=str(images))
    out = [str(tuple(a.provide_label[0][1])), str(tuple(b.provide_label[0][1]))]
    a.sync_label_shape(b)
    out += [str(tuple(b.provide_label[0][1])), b.next().label[0].asnumpy()]
    a.reshape(label_shape=(5, 5))
    return out + [str(tuple(a.provide_label[0][1])), a.next().label[0].asnumpy()]


def _rotate(angle: Any, batch: bool = False, **kwargs: Any) -> Callable[..., list]:
    def case(mx: Any, images: Path, folder: Path) -> list:
        img = _image(mx, images).transpose((2, 0, 1))
        if batch:
            src = mx.nd.stack(img, img * 0.5, axis=0)
            return [mx.image.imrotate(src, mx.nd.array(angle), **kwargs).asnumpy()]
        return [mx.image.imrotate(img, angle, **kwargs).asnumpy()]
    return case


def _random_rotate(mx: Any, images: Path, folder: Path) -> list:
    img = _image(mx, images).transpose((2, 0, 1))
    one = mx.image.random_rotate(img, (-30, 30))
    two = mx.image.random_rotate(mx.nd.stack(img, img, axis=0), (-90, 90), zoom_in=True)
    return [one.asnumpy(), two.asnumpy()]


CASES: dict[str, Callable[..., list]] = {
    "det_flip": _det(lambda mx: mx.image.DetHorizontalFlipAug(1.0)),
    "det_flip_half": _det(lambda mx: mx.image.DetHorizontalFlipAug(0.5), calls=4),
    "det_borrow": _det(lambda mx: mx.image.DetBorrowAug(mx.image.ForceResizeAug((5, 4)))),
    "det_crop": _det(lambda mx: mx.image.DetRandomCropAug(area_range=(0.3, 1.0)), calls=5),
    "det_crop_strict": _det(lambda mx: mx.image.DetRandomCropAug(0.5, (0.5, 2.0), (0.1, 0.8), 0.5, 20),
                            calls=5),
    "det_pad": _det(lambda mx: mx.image.DetRandomPadAug(pad_val=(1, 2, 3)), calls=4),
    "det_pad_wide": _det(lambda mx: mx.image.DetRandomPadAug((1.0, 2.0), (1.5, 4.0), pad_val=9), calls=3),
    "det_select": _det(lambda mx: mx.image.CreateMultiRandCropAugmenter([0.1, 0.5], area_range=(0.2, 1.0),
                                                                        skip_prob=0.3), calls=5),
    "det_select_pad": _det(lambda mx: mx.image.DetRandomSelectAug([mx.image.DetRandomPadAug(),
                                                                   mx.image.DetHorizontalFlipAug(1.0)]),
                           calls=4),
    "create_plain": _create(inter_method=1),
    "create_random": _create(rand_crop=0.7, rand_pad=0.5, rand_mirror=True, mean=True, std=True,
                             brightness=0.1, inter_method=1),
    "create_resize": _create(resize=9, rand_gray=0.5, hue=0.1, pca_noise=0.1, inter_method=1),
    "dumps": _dumps,
    "rec_sequential": _rec_iter(indexed=False),
    "rec_indexed": _rec_iter(),
    "rec_shuffle": _rec_iter(shuffle=True, rand_mirror=True),
    "rec_parts": _rec_iter(epochs=1, num_parts=2, part_index=1),
    "rec_discard": _rec_iter(indexed=False, last_batch_handle="discard"),
    "rec_roll_over": _rec_iter(epochs=3, last_batch_handle="roll_over"),
    "det_iter_list": _det_iter(),
    "det_iter_aug": _det_iter(shuffle=True, rand_crop=0.5, rand_pad=0.5, rand_mirror=True),
    "det_iter_rec": _det_iter(source="sequential"),
    "det_iter_rec_indexed": _det_iter(source="indexed", shuffle=True, last_batch_handle="discard"),
    "det_reshape": _det_reshape,
    "rotate_90": _rotate(90),
    "rotate_30": _rotate(30.0),
    "rotate_zoom_in": _rotate(-25.0, zoom_in=True),
    "rotate_zoom_out": _rotate(40.0, zoom_out=True),
    "rotate_batch": _rotate([10.0, -60.0], batch=True),
    "random_rotate": _random_rotate,
}


def run(mx: Any, images: Path, folder: Path, name: str) -> list:
    seed = zlib.crc32(name.encode()) % 10_000
    random.seed(seed)
    np.random.seed(seed)
    return CASES[name](mx, images, folder)
