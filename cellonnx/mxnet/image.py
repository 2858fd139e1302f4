"""mx.image: decoding and resizing images as MXNet 1.x does with OpenCV, without OpenCV.

``imdecode`` / ``imread`` decode with Pillow into (H, W, C) uint8 arrays (RGB, or BGR with ``to_rgb=0``; (H,
W, 1) grayscale with ``flag=0``: a JPEG's luma as libjpeg gives it, other color images converted as libpng
does), leaving the EXIF orientation unapplied as MXNet 1.9.1's decoder does. ``imresize`` computes OpenCV's
interpolations (nearest, bilinear, bicubic, area, Lanczos; pixel centres at half-integers, edges replicated):
uint8 bilinear, bicubic and Lanczos in OpenCV's fixed point, bit for bit (bicubic and Lanczos in
cv_resize.py); the others in float64, uint8 results rounded to the nearest level (OpenCV's kernels may land
one level away). ``resize_short``, ``fixed_crop``,
``center_crop``, ``random_crop``, ``scale_down``, ``color_normalize`` and ``copyMakeBorder`` follow MXNet's
python over those; the augmenters (``CreateAugmenter``, ``ResizeAug`` ...) are in image_aug.py and
``ImageIter`` in image_iter.py.
"""
from __future__ import annotations

import io
import random as _random
from typing import Any

import numpy as np

from cellonnx.tensor import Tensor

__all__ = ["center_crop", "color_normalize", "copyMakeBorder", "fixed_crop", "imdecode", "imread",
           "imresize", "random_crop", "resize_short", "scale_down"]


def _wrap(arr: np.ndarray) -> Any:
    """An NDArray (an mx.np ndarray once ``set_np()`` is on)."""
    from cellonnx.mxnet import util

    if util.is_np_array():
        from cellonnx.mxnet.numpy import array as np_array

        return np_array(arr, dtype=arr.dtype)
    from cellonnx.mxnet.ndarray import array

    return array(arr, dtype=arr.dtype)


def _numpy(src: Any) -> np.ndarray:
    return src.asnumpy() if isinstance(src, Tensor) else np.asarray(src)


def _decode(data: bytes, flag: int, to_rgb: bool) -> np.ndarray:
    from PIL import Image

    try:
        img = Image.open(io.BytesIO(data))
        if flag == 0 and img.format == "JPEG":
            img.draft("L", img.size)  # the decoder's luma, as libjpeg gives OpenCV a grayscale image
        img.load()
    except Exception as exc:  # noqa: BLE001 - Pillow raises several types for undecodable data
        raise ValueError(f"imdecode: the data is not an image Pillow can decode ({exc})") from None
    if flag == 0 and img.mode not in ("L", "1", "P", "RGB", "RGBA"):
        img = img.convert("RGB")
    if flag == 0 and img.mode in ("RGB", "RGBA"):
        # libpng's conversion (0.299 R + 0.587 G, in 15-bit fixed point, truncated)
        rgb = np.asarray(img.convert("RGB"), np.int64)
        gray = (rgb[:, :, 0] * 9798 + rgb[:, :, 1] * 19235 + rgb[:, :, 2] * 3735) >> 15
        return gray.astype(np.uint8)[:, :, None]
    if flag == 0:
        return np.asarray(img.convert("L"), np.uint8)[:, :, None]
    out = np.asarray(img.convert("RGB"), np.uint8)
    return out if to_rgb else out[:, :, ::-1].copy()


def imdecode(buf: Any, flag: int = 1, to_rgb: int = 1, out: Any = None) -> Any:
    """Decode an encoded image (bytes, bytearray, or a uint8 array / NDArray of its bytes).

    Args:
        buf: the encoded image.
        flag: 1 for three channels, 0 for one grayscale channel. Default: 1.
        to_rgb: 1 for RGB order, 0 for OpenCV's BGR. Default: 1.
        out: an NDArray to write the image into, or None.

    Returns:
        NDArray, (H, W, 3) or (H, W, 1) uint8.

    Raises:
        ValueError: ``buf`` is a str, or not an image Pillow decodes.
    """
    if isinstance(buf, str):
        raise ValueError("imdecode: buf must be of type bytes, bytearray or numpy.ndarray, if you would like "
                         "to input type str, please convert to bytes")
    data = bytes(buf) if isinstance(buf, (bytes, bytearray)) else _numpy(buf).astype(np.uint8).tobytes()
    arr = _decode(data, int(flag), bool(to_rgb))
    return _into(out, arr)


def imread(filename: str, flag: int = 1, to_rgb: bool = True, out: Any = None) -> Any:
    """Read and decode the image file ``filename`` (see ``imdecode``)."""
    with open(filename, "rb") as f:
        return imdecode(f.read(), flag, int(to_rgb), out)


def _into(out: Any, arr: np.ndarray) -> Any:
    if out is None:
        return _wrap(arr)
    if tuple(out.shape) != arr.shape:
        raise ValueError(f"image: out has shape {tuple(out.shape)}, the result {arr.shape}")
    out[:] = _wrap(arr)
    return out


# ---------------------------------------------------------------- resizing
def _cubic(t: np.ndarray) -> np.ndarray:
    """OpenCV's cubic convolution weights (A = -0.75) of the 4 taps around fraction ``t``."""
    a = -0.75
    w0 = ((a * (t + 1) - 5 * a) * (t + 1) + 8 * a) * (t + 1) - 4 * a
    w1 = ((a + 2) * t - (a + 3)) * t * t + 1
    w2 = ((a + 2) * (1 - t) - (a + 3)) * (1 - t) * (1 - t) + 1
    return np.stack([w0, w1, w2, 1 - w0 - w1 - w2], -1)


def _lanczos(t: np.ndarray) -> np.ndarray:
    """OpenCV's Lanczos-4 weights of the 8 taps around fraction ``t``, normalized to sum 1."""
    d = t[:, None] + 3 - np.arange(8)[None, :]
    with np.errstate(invalid="ignore", divide="ignore"):
        w = np.sin(np.pi * d) * np.sin(np.pi * d / 4) / (np.pi * np.pi * d * d / 4)
    w = np.where(np.abs(d) < 1e-7, 1.0, w)
    return w / w.sum(-1, keepdims=True)


def _weights(src: int, dst: int, interp: int) -> np.ndarray:
    """(dst, src) interpolation matrix along one axis."""
    scale = src / dst
    mat = np.zeros((dst, src))
    rows = np.arange(dst)
    if interp == 0:
        mat[rows, np.minimum(np.floor(rows * scale).astype(int), src - 1)] = 1.0
        return mat
    if interp == 3:
        if scale < 1:
            raise NotImplementedError("imresize: area interpolation (interp=3) enlarging an image is not "
                                      "supported (it shrinks; use 1 or 2 to enlarge)")
        for d in range(dst):  # the overlap of [d, d + 1) * scale with each source pixel
            lo, hi = d * scale, (d + 1) * scale
            for s in range(int(np.floor(lo)), min(int(np.ceil(hi)), src)):
                mat[d, s] = (min(hi, s + 1) - max(lo, s)) / scale
        return mat
    pos = (rows + 0.5) * scale - 0.5
    base = np.floor(pos).astype(int)
    frac = pos - base
    if interp == 1:
        taps, w = np.array([0, 1]), np.stack([1 - frac, frac], -1)
        w[base < 0] = (1.0, 0.0)
        w[base >= src - 1] = (1.0, 0.0)
        base = np.clip(base, 0, src - 1)
    elif interp == 2:
        taps, w = np.arange(-1, 3), _cubic(frac)
    elif interp == 4:
        taps, w = np.arange(-3, 5), _lanczos(frac)
    else:
        raise ValueError(f"imresize: unknown interp {interp} (0 nearest, 1 bilinear, 2 bicubic, 3 area, "
                         f"4 Lanczos)")
    idx = np.clip(base[:, None] + taps[None, :], 0, src - 1)
    np.add.at(mat, (np.repeat(rows, len(taps)), idx.reshape(-1)), w.reshape(-1))
    return mat


def _linear_fixed(src: int, dst: int, clamp: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """OpenCV's bilinear taps and 11-bit weights along one axis: positions in float32; along x an edge
    position takes its edge pixel whole (``clamp``), along y only the row indices are clamped."""
    pos = ((np.arange(dst) + 0.5) * (src / dst) - 0.5).astype(np.float32)
    base = np.floor(pos).astype(np.int64)
    frac = pos - base.astype(np.float32)
    if clamp:
        frac = np.where((base < 0) | (base >= src - 1), np.float32(0), frac)
        base = np.clip(base, 0, src - 1)
    w0 = np.rint((np.float32(1) - frac) * 2048).astype(np.int64)
    w1 = np.rint(frac * 2048).astype(np.int64)
    return np.clip(base, 0, src - 1), np.clip(base + 1, 0, src - 1), w0, w1


def _bilinear_u8(x: np.ndarray, w: int, h: int) -> np.ndarray:
    """OpenCV's uint8 bilinear resize, bit for bit: a horizontal pass in 11-bit fixed point, then a vertical
    one that drops 4 bits of each row before its 16-bit products, as its vector kernel does."""
    x0, x1, a0, a1 = _linear_fixed(x.shape[1], w, True)
    y0, y1, b0, b1 = _linear_fixed(x.shape[0], h, False)
    img = x.astype(np.int64)
    rows = img[:, x0] * a0[None, :, None] + img[:, x1] * a1[None, :, None]
    top, bottom = rows[y0] >> 4, rows[y1] >> 4
    out = (((b0[:, None, None] * top) >> 16) + ((b1[:, None, None] * bottom) >> 16) + 2) >> 2
    return np.clip(out, 0, 255).astype(np.uint8)


def _resize(img: np.ndarray, w: int, h: int, interp: int) -> np.ndarray:
    if w <= 0 or h <= 0:
        raise ValueError(f"imresize: the size must be positive, got w={w}, h={h}")
    squeeze = img.ndim == 2
    x = img[:, :, None] if squeeze else img
    if interp in (1, 2, 4) and img.dtype == np.uint8:
        if interp == 1:
            out = _bilinear_u8(x, w, h)
        else:
            from cellonnx.mxnet.cv_resize import resize_u8

            out = resize_u8(x, w, h, interp)
        return out[:, :, 0] if squeeze else out
    wy, wx = _weights(x.shape[0], h, interp), _weights(x.shape[1], w, interp)
    out = np.einsum("yh,hwc,xw->yxc", wy, x.astype(np.float64), wx)
    if np.issubdtype(img.dtype, np.integer):
        info = np.iinfo(img.dtype)
        out = np.clip(np.rint(out), info.min, info.max)
    out = out.astype(img.dtype)
    return out[:, :, 0] if squeeze else out


def imresize(src: Any, w: int, h: int, interp: int = 1, out: Any = None) -> Any:
    """Resize an (H, W, C) image to ``w`` x ``h`` with OpenCV's interpolation ``interp`` (0 nearest, 1
    bilinear, 2 bicubic, 3 area (shrinking), 4 Lanczos).

    Returns:
        NDArray of ``src``'s dtype, (h, w, C).
    """
    return _into(out, _resize(_numpy(src), int(w), int(h), _interp(int(interp))))


def _interp(interp: int, sizes: tuple = ()) -> int:
    """MXNet's interpolation choice: 9 is bicubic to enlarge, area to shrink, bilinear otherwise; 10 a random
    one."""
    if interp == 9:
        if not sizes:
            return 2
        oh, ow, nh, nw = sizes
        return 2 if nh > oh and nw > ow else 3 if nh < oh and nw < ow else 1
    if interp == 10:
        return _random.randint(0, 4)
    if interp not in (0, 1, 2, 3, 4):
        raise ValueError(f"Unknown interp method {interp}")
    return interp


def resize_short(src: Any, size: int, interp: int = 2) -> Any:
    """Resize so that the shorter edge is ``size`` (the longer one keeps the ratio, rounded down)."""
    h, w = int(src.shape[0]), int(src.shape[1])
    new_h, new_w = (size * h // w, size) if h > w else (size, size * w // h)
    return imresize(src, new_w, new_h, interp=_interp(interp, (h, w, new_h, new_w)))


def scale_down(src_size: tuple, size: tuple) -> tuple[int, int]:
    """The crop size (w, h) ``size`` scaled down (keeping its ratio) to fit in ``src_size`` (w, h)."""
    w, h = size
    sw, sh = src_size
    if sh < h:
        w, h = float(w * sh) / h, sh
    if sw < w:
        w, h = sw, float(h * sw) / w
    return int(w), int(h)


def fixed_crop(src: Any, x0: int, y0: int, w: int, h: int, size: tuple | None = None, interp: int = 2) -> Any:
    """The crop [y0, y0 + h) x [x0, x0 + w) of ``src``, resized to ``size`` (w, h) if given."""
    out = _wrap(_numpy(src)[y0:y0 + h, x0:x0 + w].copy())
    if size is not None and (w, h) != tuple(size):
        out = imresize(out, *size, interp=_interp(interp, (h, w, size[1], size[0])))
    return out


def random_crop(src: Any, size: tuple, interp: int = 2) -> tuple[Any, tuple[int, int, int, int]]:
    """A crop of ``size`` (w, h) at a random place (scaled down to fit, then resized to ``size``); returns it
    and (x0, y0, w, h) of the crop in ``src``."""
    h, w = int(src.shape[0]), int(src.shape[1])
    new_w, new_h = scale_down((w, h), size)
    x0, y0 = _random.randint(0, w - new_w), _random.randint(0, h - new_h)
    return fixed_crop(src, x0, y0, new_w, new_h, size, interp), (x0, y0, new_w, new_h)


def center_crop(src: Any, size: tuple, interp: int = 2) -> tuple[Any, tuple[int, int, int, int]]:
    """The centred crop of ``size`` (w, h) (scaled down to fit, then resized to ``size``); returns it and
    (x0, y0, w, h) of the crop in ``src``."""
    h, w = int(src.shape[0]), int(src.shape[1])
    new_w, new_h = scale_down((w, h), size)
    x0, y0 = int((w - new_w) / 2), int((h - new_h) / 2)
    return fixed_crop(src, x0, y0, new_w, new_h, size, interp), (x0, y0, new_w, new_h)


def color_normalize(src: Any, mean: Any, std: Any = None) -> Any:
    """``(src - mean) / std`` (``std`` None: no division)."""
    out = src - mean
    return out / std if std is not None else out


def copyMakeBorder(src: Any, top: int, bot: int, left: int, right: int, type: int = 0,
                   value: float = 0.0, values: Any = None, out: Any = None) -> Any:
    """Pad an (H, W, C) image: OpenCV's border ``type`` 0 constant (``value``, or per channel ``values``),
    1 replicate, 2 reflect, 3 wrap, 4 reflect-101."""
    img = _numpy(src)
    pads = ((int(top), int(bot)), (int(left), int(right))) + ((0, 0),) * (img.ndim - 2)
    modes = {1: "edge", 2: "symmetric", 3: "wrap", 4: "reflect"}
    if int(type) == 0:
        res = np.pad(img, pads, constant_values=0)
        fill = np.broadcast_to(np.asarray(values if values else value, img.dtype), img.shape[2:])
        mask = np.ones(res.shape[:2], bool)
        mask[pads[0][0]:pads[0][0] + img.shape[0], pads[1][0]:pads[1][0] + img.shape[1]] = False
        res[mask] = fill
    elif int(type) in modes:
        res = np.pad(img, pads, mode=modes[int(type)])
    else:
        raise ValueError(f"copyMakeBorder: unknown border type {type} (0 constant, 1 replicate, 2 reflect, "
                         f"3 wrap, 4 reflect-101)")
    return _into(out, res)


# the augmenters and ImageIter, on top of the functions above
from cellonnx.mxnet.image_aug import *  # noqa: E402, F403
from cellonnx.mxnet.image_aug import __all__ as _aug_all  # noqa: E402
from cellonnx.mxnet.image_det import *  # noqa: E402, F403
from cellonnx.mxnet.image_det import __all__ as _det_all  # noqa: E402
from cellonnx.mxnet.image_det_iter import ImageDetIter  # noqa: E402
from cellonnx.mxnet.image_iter import ImageIter  # noqa: E402
from cellonnx.mxnet.image_rotate import imrotate, random_rotate  # noqa: E402

__all__ += [*_aug_all, *_det_all, "ImageDetIter", "ImageIter", "imrotate", "random_rotate"]
