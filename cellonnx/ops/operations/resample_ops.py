"""MindSpore's ``ops.ResizeArea``, ``ops.ScaleAndTranslate`` and ``ops.ExtractGlimpse``: table rows over the
separable resampling of cellonnx/ops/composite/resample.py and the windows of glimpse.py (see table.py).
Inputs are NHWC images; the output is float32. Also ``ops.SampleDistortedBoundingBoxV2``, a random crop
window drawn in NumPy (eager only)."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.ops import registry
from cellonnx.ops.composite.glimpse import extract_glimpse
from cellonnx.ops.composite.resample import KERNELS, area_weights, scale_translate_weights, separable
from cellonnx.ops.operations.table import Row, build
from cellonnx.tensor import Tensor

_IMAGE_DTYPES = ("int8", "uint8", "int16", "uint16", "int32", "int64", "float16", "float32", "float64")


def _images(images: Any, op: str) -> Tensor:
    if not isinstance(images, Tensor):
        raise TypeError(f"For '{op}', 'images' must be a Tensor, but got {type(images).__name__}.")
    if images.ndim != 4:
        raise ValueError(f"For '{op}', the dimension of 'images' must be 4 (N, H, W, C), but got shape "
                         f"{tuple(images.shape)}.")
    if images.asnumpy().dtype.name not in _IMAGE_DTYPES:
        raise TypeError(f"For '{op}', the dtype of 'images' must be one of {list(_IMAGE_DTYPES)}, but got "
                        f"{images.dtype}.")
    return images


def _pair(value: Any, name: str, dtype: str, op: str, positive: bool) -> np.ndarray:
    if not isinstance(value, Tensor):
        raise TypeError(f"For '{op}', '{name}' must be a Tensor of {dtype}, but got {type(value).__name__}.")
    arr = value.asnumpy()
    if arr.dtype.name != dtype:
        raise TypeError(f"For '{op}', the dtype of '{name}' must be {dtype}, but got {value.dtype}.")
    if arr.shape != (2,):
        raise ValueError(f"For '{op}', the shape of '{name}' must be (2,), but got {arr.shape}.")
    if positive and np.any(arr <= 0):
        raise ValueError(f"For '{op}', the values of '{name}' must be positive, but got {arr.tolist()}.")
    return arr


def _setup_resize_area(prim: Any) -> None:
    if not isinstance(prim.align_corners, bool):
        raise TypeError(f"For '{prim.name}', the 'align_corners' must be a bool, but got "
                        f"{type(prim.align_corners).__name__}.")


def _static_hw(images: Tensor, op: str) -> tuple[int, int]:
    """(H, W) as ints: the resampling tables are built over them, so a dynamic one is refused
    (StaticDimRequired) rather than held at the example's size."""
    from cellonnx.graph.trace import require_static

    for d in images.shape[1:3]:
        require_static(d, f"{op} builds its resampling tables over the image size and")
    return int(images.shape[1]), int(images.shape[2])


def _resize_area(images: Any, size: Any, align_corners: bool) -> Tensor:
    op = "ResizeArea"
    images = _images(images, op)
    oh, ow = (int(v) for v in _pair(size, "size", "int32", op, True))
    h, w = _static_hw(images, op)
    return separable(images, area_weights(h, oh, align_corners), area_weights(w, ow, align_corners))


def _setup_scale_translate(prim: Any) -> None:
    if not isinstance(prim.kernel_type, str):
        raise TypeError(f"For '{prim.name}', the 'kernel_type' must be a str, but got "
                        f"{type(prim.kernel_type).__name__}.")
    if prim.kernel_type not in KERNELS:
        raise ValueError(f"For '{prim.name}', the 'kernel_type' must be one of {list(KERNELS)}, but got "
                         f"{prim.kernel_type!r}.")
    if not isinstance(prim.antialias, bool):
        raise TypeError(f"For '{prim.name}', the 'antialias' must be a bool, but got "
                        f"{type(prim.antialias).__name__}.")


def _scale_and_translate(images: Any, size: Any, scale: Any, translation: Any, kernel_type: str,
                         antialias: bool) -> Tensor:
    op = "ScaleAndTranslate"
    images = _images(images, op)
    oh, ow = (int(v) for v in _pair(size, "size", "int32", op, True))
    sy, sx = (float(v) for v in _pair(scale, "scale", "float32", op, True))
    ty, tx = (float(v) for v in _pair(translation, "translation", "float32", op, False))
    h, w = _static_hw(images, op)
    return separable(images, scale_translate_weights(h, oh, sy, ty, kernel_type, antialias),
                     scale_translate_weights(w, ow, sx, tx, kernel_type, antialias))


def _setup_glimpse(prim: Any) -> None:
    for attr in ("centered", "normalized", "uniform_noise"):
        if not isinstance(getattr(prim, attr), bool):
            raise TypeError(f"For '{prim.name}', the '{attr}' must be a bool, but got "
                            f"{type(getattr(prim, attr)).__name__}.")
    if not isinstance(prim.noise, str):
        raise TypeError(f"For '{prim.name}', the 'noise' must be a str, but got {type(prim.noise).__name__}.")
    if prim.noise not in ("uniform", "gaussian", "zero"):
        raise ValueError(f"For '{prim.name}', the 'noise' must be one of ['uniform', 'gaussian', 'zero'], "
                         f"but got {prim.noise!r}.")
    if prim.uniform_noise and prim.noise != "uniform":
        raise ValueError(f"For '{prim.name}', the value of 'noise' must be uniform when uniform_noise is "
                         f"True, but got {prim.noise}.")


def _glimpse(prim: Any, x: Any, size: Any, offsets: Any) -> Tensor:
    from cellonnx.ops.prims.random import generator

    op = "ExtractGlimpse"
    if not isinstance(x, Tensor) or x.ndim != 4 or x.asnumpy().dtype != np.float32:
        raise TypeError(f"For '{op}', 'x' must be a 4-D float32 Tensor (N, H, W, C), but got "
                        f"{x.dtype if isinstance(x, Tensor) else type(x).__name__} of shape "
                        f"{tuple(x.shape) if isinstance(x, Tensor) else None}.")
    gh, gw = (int(v) for v in _pair(size, "size", "int32", op, True))
    if not isinstance(offsets, Tensor):
        raise ValueError(f"For '{op}', 'offsets' must be a Tensor, but got {type(offsets).__name__}.")
    off = offsets.asnumpy()
    if off.ndim != 2 or off.shape[1] != 2 or off.shape[0] != int(x.shape[0]):
        raise ValueError(f"For '{op}', 'offsets' must be (batch_size = {int(x.shape[0])}, 2), but got shape "
                         f"{off.shape}.")
    noise = "uniform" if prim.uniform_noise else prim.noise
    _static_hw(x, op)  # the glimpse windows are placed in Python over the image size
    return extract_glimpse(x, (gh, gw), off, prim.centered, prim.normalized, noise, generator(op))


def _setup_distorted(prim: Any) -> None:
    op = prim.name
    for name in ("seed", "seed2"):
        if isinstance(getattr(prim, name), bool) or not isinstance(getattr(prim, name), int):
            raise TypeError(f"For '{op}', the '{name}' must be an int, but got {getattr(prim, name)!r}.")
    for name in ("aspect_ratio_range", "area_range"):
        value = getattr(prim, name)
        if not isinstance(value, (list, tuple)):
            raise TypeError(f"For '{op}', the '{name}' must be a list or tuple, but got "
                            f"{type(value).__name__}.")
        for i, v in enumerate(value):
            if not isinstance(v, float):
                raise TypeError(f"For '{op}', the '{name}[{i}]' must be a float, but got {type(v).__name__}.")
        if len(value) != 2 or value[1] <= value[0]:
            raise ValueError(f"For '{op}', the '{name}' must be 2 increasing floats, but got {value!r}.")
    if prim.aspect_ratio_range[0] <= 0:
        raise ValueError(f"For '{op}', the 'aspect_ratio_range' must be positive, but got "
                         f"{prim.aspect_ratio_range!r}.")
    if prim.area_range[0] <= 0 or prim.area_range[1] > 1:
        raise ValueError(f"For '{op}', the 'area_range' must be in (0.0, 1.0], but got {prim.area_range!r}.")
    if isinstance(prim.max_attempts, bool) or not isinstance(prim.max_attempts, int) or prim.max_attempts < 1:
        raise ValueError(f"For '{op}', the 'max_attempts' must be a positive int, but got "
                         f"{prim.max_attempts!r}.")
    if not isinstance(prim.use_image_if_no_bounding_boxes, bool):
        raise TypeError(f"For '{op}', the 'use_image_if_no_bounding_boxes' must be a bool, but got "
                        f"{type(prim.use_image_if_no_bounding_boxes).__name__}.")


def _random_crop(rng: np.random.Generator, width: int, height: int, areas: tuple[float, float],
                 ratio: float) -> tuple[int, int, int, int] | None:
    """TensorFlow's GenerateRandomCrop: a (x, y, w, h) window of aspect ``ratio`` whose area lies in
    ``areas`` (fractions of the image), its height drawn uniformly among the feasible ones."""
    min_area, max_area = (np.float32(a) * np.float32(width * height) for a in areas)
    h = int(np.rint(np.sqrt(min_area / np.float32(ratio))))
    max_h = int(np.rint(np.sqrt(max_area / np.float32(ratio))))
    if int(np.rint(max_h * ratio)) > width:
        max_h = int((width + 0.5 - 1e-7) / ratio)
        if int(np.rint(max_h * ratio)) > width:
            max_h -= 1
    max_h = min(max_h, height)
    h = min(h, max_h)
    if h < max_h:
        h += int(rng.integers(0, max_h - h + 1))
    w = int(np.rint(h * ratio))
    if w * h < min_area:
        h += 1
        w = int(np.rint(h * ratio))
    if w * h > max_area:
        h -= 1
        w = int(np.rint(h * ratio))
    if w * h < min_area or w * h > max_area or w > width or h > height or w <= 0 or h <= 0:
        return None
    y = int(rng.integers(0, height - h)) if h < height else 0
    x = int(rng.integers(0, width - w)) if w < width else 0
    return x, y, w, h


def _covers(crop: tuple[int, int, int, int], boxes: list[tuple[int, int, int, int]], fraction: float) -> bool:
    """A crop (x, y, w, h) of at least a pixel covering ``fraction`` of one of the boxes (x0, y0, x1, y1)."""
    x, y, w, h = crop
    if w * h < 1:
        return False
    for x0, y0, x1, y1 in boxes:
        area = (x1 - x0) * (y1 - y0)
        if area < 1:
            continue
        inter = max(min(x + w, x1) - max(x, x0), 0) * max(min(y + h, y1) - max(y, y0), 0)
        if inter / area >= fraction:
            return True
    return False


def _distorted_box(prim: Any, image_size: Any, bounding_boxes: Any, min_object_covered: Any) -> tuple:
    """(begin [y, x, 0], size [h, w, -1], the window as a normalised box (1, 1, 4)): TensorFlow's
    SampleDistortedBoundingBox, drawn from cellonnx's random streams."""
    from cellonnx.ops.prims.random import generator

    op = prim.name
    if registry.ACTIVE_TRACER is not None:
        raise NotImplementedError(f"ops.{op} cannot be exported to ONNX: the window is drawn at random on "
                                  "each call; it runs eagerly only")
    for name, t in (("image_size", image_size), ("bounding_boxes", bounding_boxes),
                    ("min_object_covered", min_object_covered)):
        if not isinstance(t, Tensor):
            raise TypeError(f"For '{op}', '{name}' must be a Tensor, but got {type(t).__name__}.")
    size, boxes, cover = image_size.asnumpy(), bounding_boxes.asnumpy(), min_object_covered.asnumpy()
    if size.shape != (3,):
        raise ValueError(f"For '{op}', 'image_size' must be 1-D with 3 elements, but got shape {size.shape}.")
    if boxes.ndim != 3 or boxes.shape[2] != 4:
        raise ValueError(f"For '{op}', 'bounding_boxes' must be (batch, N, 4), but got shape {boxes.shape}.")
    if cover.size != 1:
        raise ValueError(f"For '{op}', 'min_object_covered' must have 1 element, but got {cover.size}.")
    height, width = int(size[0]), int(size[1])
    fraction = float(cover.reshape(-1)[0])
    if height <= 0 or width <= 0 or np.any(size <= 0):
        raise RuntimeError(f"For '{op}', the values of 'image_size' must be positive, but got "
                           f"{size.tolist()}.")
    if not 0.0 <= fraction <= 1.0:
        raise RuntimeError(f"For '{op}', 'min_object_covered' must be in [0.0, 1.0], but got {fraction}.")
    flat = boxes.reshape(-1, 4).astype(np.float64)
    if np.any(flat < 0) or np.any(flat > 1):
        raise RuntimeError(f"For '{op}', the values of 'bounding_boxes' must be in [0.0, 1.0].")
    if np.any(flat[:, 2] < flat[:, 0]) or np.any(flat[:, 3] < flat[:, 1]):
        raise RuntimeError(f"For '{op}', each bounding box must be (y_min, x_min, y_max, x_max) with the "
                           "minimums not above the maximums.")
    rects = [(int(b[1] * width), int(b[0] * height), int(b[3] * width), int(b[2] * height)) for b in flat]
    if not rects:
        if not prim.use_image_if_no_bounding_boxes:
            raise ValueError(f"For '{op}', no bounding boxes were given and 'use_image_if_no_bounding_boxes' "
                             "is False.")
        rects = [(0, 0, width, height)]
    seed = prim.seed or prim.seed2
    rng = generator(op, int(seed) if seed else None)
    lo, hi = prim.aspect_ratio_range
    crop = (0, 0, width, height)
    for _ in range(prim.max_attempts):
        ratio = float(np.float32(rng.random() * (hi - lo) + lo))
        found = _random_crop(rng, width, height, tuple(prim.area_range), ratio)
        if found is not None and _covers(found, rects, fraction):
            crop = found
            break
    x, y, w, h = crop
    dtype = size.dtype
    last = 255 if dtype == np.uint8 else -1
    box = np.array([[[y / height, x / width, (y + h) / height, (x + w) / width]]], np.float32)
    return (Tensor(np.array([y, x, 0], dtype)), Tensor(np.array([h, w, last]).astype(dtype)), Tensor(box))


ROWS = [
    Row("ResizeArea", "align_corners=False", "images, size", "_resize_area(images, size, align_corners)",
        _setup_resize_area,
        summary="Resizes NHWC images to ``size`` by area averaging.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> images = Tensor(np.arange(2.0, 18.0, 2.0).reshape(1, 2, 4, 1), ms.float32)
        >>> print(ops.ResizeArea()(images, Tensor(np.array([1, 2]), ms.int32)).asnumpy().ravel())
        [ 7. 11.]
        """),
    Row("ScaleAndTranslate", "kernel_type='lanczos3', antialias=True", "images, size, scale, translation",
        "_scale_and_translate(images, size, scale, translation, kernel_type, antialias)",
        _setup_scale_translate,
        summary="Resizes NHWC images by ``scale`` and shifts them by ``translation`` (anti-aliased).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> image = Tensor(np.array([9.0, 5.0, 2.0, 1.0, 6.0, 1.0, 9.0, 7.0]).reshape(1, 2, 4, 1), ms.float32)
        >>> size = Tensor(np.array([2, 2]), ms.int32)
        >>> scale = Tensor(np.array([1.0, 1.0]), ms.float32)
        >>> translation = Tensor(np.array([1.0, 1.0]), ms.float32)
        >>> print(ops.ScaleAndTranslate()(image, size, scale, translation).asnumpy().ravel())
        [0. 0. 0. 9.]
        """),
    Row("ExtractGlimpse", "centered=True, normalized=True, uniform_noise=True, noise='uniform'",
        "x, size, offsets", "_glimpse(self, x, size, offsets)", _setup_glimpse,
        summary="Windows of ``size`` from NHWC images at ``offsets`` (noise where they leave the image).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(9).reshape(1, 3, 3, 1), ms.float32)
        >>> size = Tensor(np.array([2, 2]), ms.int32)
        >>> offsets = Tensor(np.array([[1.0, 1.0]]), ms.float32)
        >>> op = ops.ExtractGlimpse(centered=False, normalized=False, uniform_noise=False, noise="uniform")
        >>> print(op(x, size, offsets).asnumpy().ravel())
        [0. 1. 3. 4.]
        """),
    Row("SampleDistortedBoundingBoxV2", "seed=0, seed2=0, aspect_ratio_range=(0.75, 1.33), "
        "area_range=(0.05, 1.0), max_attempts=100, use_image_if_no_bounding_boxes=False",
        "image_size, bounding_boxes, min_object_covered",
        "_distorted_box(self, image_size, bounding_boxes, min_object_covered)", _setup_distorted,
        summary="A random crop of an image covering at least ``min_object_covered`` of a bounding box.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> image_size = Tensor(np.array([640, 480, 3]), ms.int32)
        >>> bounding_boxes = Tensor(np.array([[[0.38, 0.17, 0.95, 0.40]]]), ms.float32)
        >>> min_object_covered = Tensor(np.array([0.8]), ms.float32)
        >>> op = ops.SampleDistortedBoundingBoxV2(seed=1, seed2=1, area_range=(0.05, 1.0), max_attempts=100)
        >>> begin, size, bboxes = op(image_size, bounding_boxes, min_object_covered)
        >>> print(begin.shape, size.shape, bboxes.shape)
        (3,) (3,) (1, 1, 4)
        """),
]

CLASSES = build(ROWS, globals())
globals().update(CLASSES)
__all__ = list(CLASSES)
