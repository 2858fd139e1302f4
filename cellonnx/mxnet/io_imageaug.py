"""MXNet 1.9.1's default image augmenter (``src/io/image_aug_default.cc``), as ImageRecordIter runs it on
each decoded image before the mirror and the normalisation: ``resize``; the affine map (shear, rotation,
random scale and aspect ratio, ``min_img_size`` / ``max_img_size``) done by OpenCV's ``warpAffine``; ``pad``;
a random resized crop (area and aspect ratio), a crop of random size, or the centre / random crop (after
enlarging an image smaller than ``data_shape``); brightness, contrast and saturation in a random order;
random H, L and S offsets in OpenCV's HLS; PCA lighting noise. The random numbers are drawn as MXNet draws
them (libstdc++'s distributions over the thread's ``mt19937``), in the same order, so that batches equal
MXNet's; OpenCV's kernels are cellonnx.mxnet.cv_warp and cv_color.
"""
from __future__ import annotations

import math
import re
from typing import Any

import numpy as np

from cellonnx.mxnet.base import MXNetError
from cellonnx.mxnet.io_native import _uniform_int

__all__ = ["AUG_DEFAULTS", "aug_args", "augment"]

_F = np.float32

# the augmenter's arguments of ImageRecordIter beyond resize / rand_crop / pad / fill_value / inter_method
AUG_DEFAULTS: dict[str, Any] = {
    "random_resized_crop": False, "max_rotate_angle": 0, "max_aspect_ratio": 0.0, "min_aspect_ratio": None,
    "max_shear_ratio": 0.0, "max_crop_size": -1, "min_crop_size": -1, "max_random_scale": 1.0,
    "min_random_scale": 1.0, "max_random_area": 1.0, "min_random_area": 1.0, "max_img_size": 1e10,
    "min_img_size": 0.0, "brightness": 0.0, "contrast": 0.0, "saturation": 0.0, "pca_noise": 0.0,
    "random_h": 0, "random_s": 0, "random_l": 0, "rotate": -1, "rotate_list": ()}
_INTS = {"max_rotate_angle", "max_crop_size", "min_crop_size", "random_h", "random_s", "random_l", "rotate"}
# OpenCV's lighting eigenvectors times eigenvalues (float32), rows R, G, B
_EIGVEC = np.array([[_F(55.46) * _F(-0.5675), _F(4.794) * _F(0.7192), _F(1.148) * _F(0.4009)],
                    [_F(55.46) * _F(-0.5808), _F(4.794) * _F(-0.0045), _F(1.148) * _F(-0.8140)],
                    [_F(55.46) * _F(-0.5836), _F(4.794) * _F(-0.6948), _F(1.148) * _F(0.4203)]], np.float32)


def aug_args(kwargs: dict, name: str) -> dict:
    """The augmenter's arguments of ``kwargs`` (popped), parsed as MXNet parses them, with the defaults."""
    from cellonnx.mxnet.io_native import flag

    out = dict(AUG_DEFAULTS)
    for key in list(kwargs):
        if key not in AUG_DEFAULTS:
            continue
        value = kwargs.pop(key)
        if key == "random_resized_crop":
            out[key] = flag(value)
        elif key == "rotate_list":
            out[key] = tuple(_atoi(field) for field in str(value).split(",")) if str(value) else ()
        elif key == "min_aspect_ratio":
            out[key] = None if value is None or str(value) == "None" else float(value)
        else:
            try:
                out[key] = int(value) if key in _INTS else float(value)
            except (TypeError, ValueError):
                kind = "an integer" if key in _INTS else "a number"
                raise MXNetError(f"{name}: {key}={value!r} must be {kind}") from None
    return out


def _atoi(text: str) -> int:
    """C's atoi: optional blanks and sign, then the leading digits (0 when there are none)."""
    m = re.match(r"\s*([+-]?\d+)", text)
    return int(m.group(1)) if m else 0


def canonical(gen: Any) -> np.float32:
    """libstdc++'s uniform_real_distribution<float>(0, 1): one 32-bit draw over 2**32, kept below 1."""
    value = _F(gen()) / _F(2.0**32)
    return value if value < 1 else np.nextafter(_F(1), _F(0))


def uniform(gen: Any, low: Any, high: Any) -> np.float32:
    """uniform_real_distribution<float>(low, high)."""
    return canonical(gen) * (_F(high) - _F(low)) + _F(low)


def _normals(gen: Any, n: int, stddev: float) -> list:
    """``n`` draws of one normal_distribution<float>(0, stddev): Marsaglia's polar method, the second value
    of each pair kept for the next draw."""
    out: list = []
    while len(out) < n:
        while True:
            x = _F(float(_F(2) * canonical(gen)) - 1.0)  # float times float, minus a double
            y = _F(float(_F(2) * canonical(gen)) - 1.0)
            r2 = x * x + y * y
            if r2 <= 1 and r2 != 0:
                break
        mult = np.sqrt(_F(-2) * _F(math.log(float(r2))) / r2, dtype=np.float32)
        out += [y * mult, x * mult]
    return [v * _F(stddev) + _F(0) for v in out[:n]]


def _inter(method: int, old_w: int, old_h: int, new_w: int, new_h: int, gen: Any) -> int:
    """MXNet's GetInterMethod: 9 bicubic to enlarge, area to shrink, else bilinear; 10 a random one."""
    if method == 9:
        return 2 if new_w > old_w and new_h > old_h else 3 if new_w < old_w and new_h < old_h else 1
    if method == 10:
        return _uniform_int(gen, 4)
    return method


def _check_inter(method: int, name: str, nearest: bool) -> None:
    if not ((0 if nearest else 1) <= method <= 4 or method in (9, 10)):
        raise MXNetError(f"{name}: invalid inter_method {method}: valid values are "
                         f"{'0, ' if nearest else ''}1, 2, 3, 4, 9 and 10")


def _resize(img: np.ndarray, w: int, h: int, method: int) -> np.ndarray:
    from cellonnx.mxnet.image import _resize as resize

    return resize(img, int(w), int(h), method)


def _round(x: np.float32) -> int:
    """std::round of a positive float: halves away from zero."""
    low = math.floor(float(x))
    return low + (float(x) - low >= 0.5)


def _affine(res: np.ndarray, a: dict, ratios: tuple, gen: Any) -> np.ndarray:
    rows, cols = res.shape[:2]
    min_ratio, max_ratio = ratios
    shear = canonical(gen) * _F(a["max_shear_ratio"]) * _F(2) - _F(a["max_shear_ratio"])
    angle = _uniform_int(gen, 2 * a["max_rotate_angle"]) - a["max_rotate_angle"]
    if a["rotate"] > 0:
        angle = a["rotate"]
    if a["rotate_list"]:
        angle = a["rotate_list"][_uniform_int(gen, len(a["rotate_list"]) - 1)]
    ca, sa = _F(math.cos(angle / 180.0 * math.pi)), _F(math.sin(angle / 180.0 * math.pi))
    scale = ratio = _F(1)
    if not a["random_resized_crop"]:
        scale = canonical(gen) * (_F(a["max_random_scale"]) - _F(a["min_random_scale"])) + \
            _F(a["min_random_scale"])
        ratio = canonical(gen) * (max_ratio - min_ratio) + min_ratio
    hs = _F(2) * scale / (_F(1) + ratio)
    ws = ratio * hs
    lo, hi = _F(a["min_img_size"]), _F(a["max_img_size"])
    new_w = max(lo, min(hi, scale * _F(cols)))
    new_h = max(lo, min(hi, scale * _F(rows)))
    m = np.zeros((2, 3), np.float32)
    m[0, 0] = hs * ca - shear * sa * ws
    m[1, 0] = -sa * ws
    m[0, 1] = hs * sa + shear * ca * ws
    m[1, 1] = ca * ws
    centre_w = m[0, 0] * _F(cols) + m[0, 1] * _F(rows)
    centre_h = m[1, 0] * _F(cols) + m[1, 1] * _F(rows)
    m[0, 2] = (new_w - centre_w) / _F(2)
    m[1, 2] = (new_h - centre_h) / _F(2)
    _check_inter(a["inter_method"], a["name"], nearest=False)
    width, height = int(new_w), int(new_h)
    from cellonnx.mxnet.cv_warp import warp_affine

    return warp_affine(res, m, width, height, _inter(a["inter_method"], cols, rows, width, height, gen),
                       a["fill_value"])


def _resized_crop(res: np.ndarray, a: dict, ratios: tuple, gen: Any) -> np.ndarray | None:
    min_ratio, max_ratio = ratios
    name = a["name"]
    if a["min_random_scale"] != 1 or a["max_random_scale"] != 1 or a["min_crop_size"] != -1 or \
            a["max_crop_size"] != -1 or a["rand_crop"]:
        raise MXNetError(f"{name}: random_resized_crop conflicts with min_random_scale, max_random_scale, "
                         "min_crop_size, max_crop_size and rand_crop")
    if a["max_random_area"] == 1 and a["min_random_area"] == 1 and max_ratio == 1 and min_ratio == 1:
        return None
    if not (min_ratio > 0 and a["min_random_area"] <= a["max_random_area"] and min_ratio <= max_ratio):
        raise MXNetError(f"{name}: random_resized_crop needs 0 < min_aspect_ratio <= max_aspect_ratio and "
                         f"min_random_area <= max_random_area (got aspect ratios [{min_ratio}, {max_ratio}], "
                         f"areas [{a['min_random_area']}, {a['max_random_area']}])")
    rows, cols = res.shape[:2]
    _, h, w = a["data_shape"]
    area = _F(rows * cols)
    for _ in range(10):
        rand_area = uniform(gen, a["min_random_area"], a["max_random_area"])
        ratio = uniform(gen, min_ratio, max_ratio)
        target = area * rand_area
        y_area = _round(np.sqrt(target / ratio, dtype=np.float32))
        x_area = _round(np.sqrt(target * ratio, dtype=np.float32))
        if canonical(gen) > 0.5:
            y_area, x_area = x_area, y_area
        if y_area <= rows and x_area <= cols:
            y, x = _uniform_int(gen, rows - y_area), _uniform_int(gen, cols - x_area)
            method = _inter(a["inter_method"], x_area, y_area, w, h, gen)
            return _resize(res[y:y + y_area, x:x + x_area], w, h, method)
    return None


def _sized_crop(res: np.ndarray, a: dict, gen: Any) -> np.ndarray:
    rows, cols = res.shape[:2]
    _, h, w = a["data_shape"]
    low, high = a["min_crop_size"], a["max_crop_size"]
    if low < 1 or not (cols >= high and rows >= high and high >= low):
        raise MXNetError(f"{a['name']}: input image size smaller than max_crop_size (or the crop sizes are "
                         f"not 1 <= min_crop_size <= max_crop_size): the image is {rows}x{cols}, the crop "
                         f"sizes [{low}, {high}]")
    size = low + _uniform_int(gen, high - low)
    y, x = rows - size, cols - size
    if a["rand_crop"]:
        y, x = _uniform_int(gen, y), _uniform_int(gen, x)
    else:
        y, x = y // 2, x // 2
    method = _inter(a["inter_method"], size, size, w, h, gen)
    return _resize(res[y:y + size, x:x + size], w, h, method)


def _crop(res: np.ndarray, a: dict, gen: Any) -> np.ndarray:
    _, h, w = a["data_shape"]
    rows, cols = res.shape[:2]
    method = _inter(a["inter_method"], cols, rows, w, h, gen)
    if rows < h:
        res = _resize(res, int(_F(h) / _F(rows) * _F(cols)), h, method)
    if res.shape[1] < w:
        res = _resize(res, w, int(_F(w) / _F(res.shape[1]) * _F(res.shape[0])), method)
    if res.shape[0] < h or res.shape[1] < w:
        raise MXNetError(f"{a['name']}: input image size smaller than input shape: the image is "
                         f"{res.shape[0]}x{res.shape[1]} after resize/pad, data_shape asks {h}x{w}")
    y, x = res.shape[0] - h, res.shape[1] - w
    if a["rand_crop"]:
        y, x = _uniform_int(gen, y), _uniform_int(gen, x)
    else:
        y, x = y // 2, x // 2
    return res[y:y + h, x:x + w]


def _jitter(bgr: np.ndarray, a: dict, gen: Any) -> np.ndarray:
    from cellonnx.mxnet.cv_color import add_weighted, convert_scale, gray

    alphas = [_F(1.0 + float(uniform(gen, -_F(a[k]), _F(a[k])))) for k in ("brightness", "contrast",
                                                                             "saturation")]
    order = [0, 1, 2]
    for i in (1, 2):
        j = _uniform_int(gen, i)
        order[i], order[j] = order[j], order[i]
    for i in order:
        alpha = alphas[i]
        if i == 0:
            bgr = convert_scale(bgr, alpha, 0)
        elif i == 1:  # MXNet converts its BGR pixels with RGB2GRAY
            mean = _F(gray(bgr).sum(dtype=np.float64) / (bgr.shape[0] * bgr.shape[1]))
            bgr = convert_scale(bgr, alpha, (_F(1) - alpha) * mean)
        else:
            grey = np.repeat(gray(bgr)[..., None], 3, -1)
            bgr = add_weighted(bgr, alpha, grey, _F(1) - alpha, 0)
    return bgr


def _hls(bgr: np.ndarray, a: dict, gen: Any) -> np.ndarray:
    from cellonnx.mxnet.cv_color import bgr_to_hls, hls_to_bgr

    hls = bgr_to_hls(bgr).astype(np.int64)
    offsets = {}
    for key in ("random_h", "random_s", "random_l"):
        r = canonical(gen)
        r = (r + _F(4) * canonical(gen)) / _F(5)
        offsets[key] = int(r * _F(a[key]) * _F(2) - _F(a[key]))
    for k, (key, limit) in enumerate((("random_h", 180), ("random_l", 255), ("random_s", 255))):
        hls[..., k] = np.clip(hls[..., k] + offsets[key], 0, limit)
    return hls_to_bgr(hls.astype(np.uint8))


def _pca(bgr: np.ndarray, a: dict, gen: Any) -> np.ndarray:
    alpha = _normals(gen, 3, a["pca_noise"])
    r, g, b = (_EIGVEC[i, 0] * alpha[0] + _EIGVEC[i, 1] * alpha[1] + _EIGVEC[i, 2] * alpha[2]
               for i in range(3))
    noise = np.array([b, g, r], np.float32)
    return np.clip(np.trunc(bgr.astype(np.float32) + noise), 0, 255).astype(np.uint8)


def augment(res: np.ndarray, a: dict, gen: Any) -> np.ndarray:
    """MXNet's DefaultImageAugmenter::Process on a decoded (H, W, C) uint8 RGB (or gray) image: the
    (data_shape H, W) image it gives, drawing from ``gen`` as MXNet does."""
    name = a["name"]
    if a["min_aspect_ratio"] is not None:
        ratios = (_F(a["min_aspect_ratio"]), _F(a["max_aspect_ratio"]))
    else:
        ratios = (_F(1) - _F(a["max_aspect_ratio"]), _F(1) + _F(a["max_aspect_ratio"]))
    if a["resize"] > 0:
        _check_inter(a["inter_method"], name, nearest=True)
        rows, cols = res.shape[:2]
        nh, nw = (a["resize"] * rows // cols, a["resize"]) if rows > cols else \
            (a["resize"], a["resize"] * cols // rows)
        res = _resize(res, nw, nh, _inter(a["inter_method"], cols, rows, nw, nh, gen))
    if a["max_rotate_angle"] > 0 or a["max_shear_ratio"] > 0 or a["rotate"] > 0 or a["rotate_list"] or \
            a["max_random_scale"] != 1 or a["min_random_scale"] != 1 or \
            (not a["random_resized_crop"] and ratios != (1, 1)) or \
            _F(a["max_img_size"]) != _F(1e10) or a["min_img_size"] != 0:
        res = _affine(res, a, ratios, gen)
    if a["pad"] > 0:
        p = a["pad"]
        res = np.pad(res, ((p, p), (p, p), (0, 0)), constant_values=a["fill_value"])
    cropped = None
    if a["random_resized_crop"]:
        cropped = _resized_crop(res, a, ratios, gen)
    elif a["max_crop_size"] != -1 or a["min_crop_size"] != -1:
        cropped = _sized_crop(res, a, gen)
    res = _crop(res, a, gen) if cropped is None else cropped
    colour = a["brightness"] > 0 or a["contrast"] > 0 or a["saturation"] > 0
    hls = a["random_h"] != 0 or a["random_s"] != 0 or a["random_l"] != 0
    if (colour or hls or a["pca_noise"] > 0) and res.shape[2] != 3:
        raise MXNetError(f"{name}: brightness, contrast, saturation, random_h/s/l and pca_noise need colour "
                         f"images (data_shape[0] 3), got {res.shape[2]} channel(s)")
    bgr = res[..., ::-1]  # OpenCV's channel order, in which MXNet's augmenter works
    if colour:
        bgr = _jitter(bgr, a, gen)
    if hls:
        bgr = _hls(bgr, a, gen)
    if a["pca_noise"] > 0:
        bgr = _pca(bgr, a, gen)
    return np.ascontiguousarray(bgr[..., ::-1]) if res.ndim == 3 and res.shape[2] == 3 else res
