"""MindSpore's ``ops.ResizeArea``, ``ops.ScaleAndTranslate`` and ``ops.ExtractGlimpse``: table rows over the
separable resampling of cellonnx/ops/composite/resample.py and the windows of glimpse.py (see table.py).
Inputs are NHWC images; the output is float32."""
from __future__ import annotations

from typing import Any

import numpy as np

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


def _resize_area(images: Any, size: Any, align_corners: bool) -> Tensor:
    op = "ResizeArea"
    images = _images(images, op)
    oh, ow = (int(v) for v in _pair(size, "size", "int32", op, True))
    h, w = int(images.shape[1]), int(images.shape[2])
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
    h, w = int(images.shape[1]), int(images.shape[2])
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
    return extract_glimpse(x, (gh, gw), off, prim.centered, prim.normalized, noise, generator(op))


ROWS = [
    Row("ResizeArea", "align_corners=False", "images, size", "_resize_area(images, size, align_corners)",
        _setup_resize_area),
    Row("ScaleAndTranslate", "kernel_type='lanczos3', antialias=True", "images, size, scale, translation",
        "_scale_and_translate(images, size, scale, translation, kernel_type, antialias)",
        _setup_scale_translate),
    Row("ExtractGlimpse", "centered=True, normalized=True, uniform_noise=True, noise='uniform'",
        "x, size, offsets", "_glimpse(self, x, size, offsets)", _setup_glimpse),
]

CLASSES = build(ROWS, globals())
globals().update(CLASSES)
__all__ = list(CLASSES)
