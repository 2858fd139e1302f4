"""MXNet's image operators (``_image_*``: mx.nd.image, mx.sym.image, mx.npx.image) over cellonnx ops, so
they run eagerly and trace to ONNX: to_tensor, normalize, crop, resize, the flips, and the color operators
computed as MXNet's C++ kernels compute them (float32 arithmetic, uint8 results clipped and truncated). The
random operators draw their factors with ``ops.uniform`` / ``ops.normal`` (seeded by ``mx.random.seed``;
RandomUniform / RandomNormal nodes in an exported graph); a factor range of one value needs no draw.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from cellonnx import ops
from cellonnx.mxnet._op.image_color import adjust_hue, lighting_shift
from cellonnx.mxnet.base import MXNetError
from cellonnx.tensor import Tensor

__all__ = ["IMAGE"]

_COEF = (0.299, 0.587, 0.114)


def _check_hwc(data: Tensor, op: str, batch: bool = False) -> None:
    ndims = (3, 4) if batch else (3,)
    if data.ndim not in ndims:
        shape = "(height, width, channels)" + (", or (N, height, width, channels)" if batch else "")
        raise MXNetError(f"{op}: Input image must have shape {shape}, but got {tuple(data.shape)}")
    if not batch and data.shape[-1] not in (1, 3):
        raise MXNetError(f"{op}: The last dimension of input image must be the channel dimension with "
                         f"either 1 or 3 elements, but got input with shape {tuple(data.shape)}")


def _f32(data: Tensor) -> Tensor:
    return data if data._data.dtype == np.float32 else ops.cast(data, np.float32)


def _saturate(val: Tensor, dtype: np.dtype) -> Tensor:
    """MXNet's saturate_cast of a float32 result: uint8 clipped to [0, 255] then truncated."""
    if dtype == np.uint8:
        val = ops.clamp(val, 0.0, 255.0)
    return val if dtype == np.float32 else ops.cast(val, dtype)


def _factor(lo: float, hi: float) -> Any:
    """A factor drawn uniformly from [lo, hi) (a plain float when the range is one value)."""
    lo, hi = float(lo), float(hi)
    if lo == hi:
        return np.float32(lo)
    return ops.uniform((1,), Tensor(np.float32(lo)), Tensor(np.float32(hi)))


def to_tensor(data: Tensor, **_: Any) -> Tensor:
    """(H, W, C) or (N, H, W, C) in [0, 255] to float32 (C, H, W) / (N, C, H, W) in [0, 1]."""
    if data.ndim not in (3, 4):
        raise MXNetError("to_tensor: Input image must have shape (height, width, channels), or (N, height, "
                         f"width, channels) but got {tuple(data.shape)}")
    out = _f32(data) / np.float32(255.0)
    return ops.transpose(out, (2, 0, 1) if data.ndim == 3 else (0, 3, 1, 2))


def _per_channel(values: Any, n: int, name: str, shape: tuple) -> np.ndarray:
    vals = np.atleast_1d(np.asarray(values, dtype=np.float32))
    if vals.size not in (1, n):
        raise MXNetError(f"normalize: Invalid {name} for input with shape {shape}. {name} must have either "
                         f"1 or {n} elements, but got {tuple(vals.tolist())}")
    return np.resize(vals, n)


def normalize(data: Tensor, mean: Any = (0.0, 0.0, 0.0, 0.0), std: Any = (1.0, 1.0, 1.0, 1.0),
              **_: Any) -> Tensor:
    """``(data - mean[c]) / std[c]`` over the channel axis of (C, H, W) or (N, C, H, W), in data's dtype."""
    shape = tuple(data.shape)
    if data.ndim not in (3, 4):
        raise MXNetError("normalize: Input tensor must have shape (channels, height, width), or (N, "
                         f"channels, height, width), but got {shape}")
    n = shape[-3]
    if n not in (1, 3):
        raise MXNetError("normalize: The channel dimension must have either 1 or 3 elements, but got input "
                         f"with shape {shape}")
    dtype = data._data.dtype
    m = _per_channel(mean, n, "mean", shape).astype(dtype).reshape(n, 1, 1)
    s = _per_channel(std, n, "std", shape).astype(dtype).reshape(n, 1, 1)
    return (data - Tensor(m)) / Tensor(s)


def crop(data: Tensor, x: int, y: int, width: int, height: int, **_: Any) -> Tensor:
    """The ``height`` x ``width`` window at column ``x``, row ``y`` of (H, W, C) or (N, H, W, C)."""
    _check_hwc(data, "crop", batch=True)
    h, w = int(data.shape[-3]), int(data.shape[-2])
    if x + width > w:
        raise MXNetError("crop: x + width should not be greater than input width")
    if y + height > h:
        raise MXNetError("crop: y + height should not be greater than input height")
    if data.ndim == 3:
        return data[y:y + height, x:x + width, :]
    return data[:, y:y + height, x:x + width, :]


def _resized_hw(h: int, w: int, size: Any, keep_ratio: bool) -> tuple[int, int]:
    size = tuple(size) if isinstance(size, (list, tuple)) else (size,)
    if len(size) not in (1, 2):
        raise MXNetError(f"resize: Input size dimension must be 1 or 2, but got {len(size)}")
    if any(int(s) <= 0 for s in size):
        raise MXNetError(f"resize: Input size should greater than 0, but got {size}")
    if len(size) == 2:
        return int(size[1]), int(size[0])
    s = int(size[0])
    if not keep_ratio:
        return s, s
    return (h * s // w, s) if h > w else (s, w * s // h)


def resize(data: Tensor, size: Any = (), keep_ratio: bool = False, interp: int = 1, **_: Any) -> Tensor:
    """(H, W, C) or (N, H, W, C) resized with OpenCV's interpolation ``interp`` to ``size`` ((width, height),
    or one side: both, or the shorter one with ``keep_ratio``)."""
    from cellonnx.graph import trace
    from cellonnx.mxnet.image import _resize

    _check_hwc(data, "resize", batch=True)
    if not isinstance(interp, (int, np.integer)) or isinstance(interp, bool):
        raise MXNetError(f"Invalid Parameter format for interp expect int but value='{interp}', in operator "
                         "_image_resize")
    if data._data.dtype == np.float16:
        raise MXNetError("resize: image resize doesn't support fp16")
    if keep_ratio:  # a dynamic height or width is refused (StaticDimRequired: then traced static)
        for d in data.shape[-3:-1]:
            trace.require_static(d, "resize with keep_ratio sizes its output from the image's and")
    nh, nw = _resized_hw(int(data.shape[-3]), int(data.shape[-2]), size, keep_ratio)
    if trace._current:
        from cellonnx.mxnet._op.image_resize import traced_resize

        return traced_resize(data, nh, nw, int(interp))
    arr = data.asnumpy()
    if arr.ndim == 3:
        return Tensor(_resize(arr, nw, nh, int(interp)))
    return Tensor(np.stack([_resize(a, nw, nh, int(interp)) for a in arr]))


def flip_left_right(data: Tensor, **_: Any) -> Tensor:
    """(H, W, C) with its columns reversed."""
    _check_hwc(data, "flip_left_right")
    return ops.flip(data, (1,))


def flip_top_bottom(data: Tensor, **_: Any) -> Tensor:
    """(H, W, C) with its rows reversed."""
    _check_hwc(data, "flip_top_bottom")
    return ops.flip(data, (0,))


def _random_flip(data: Tensor, axis: int, op: str) -> Tensor:
    _check_hwc(data, op)
    keep = ops.uniform((), Tensor(np.float32(0.0)), Tensor(np.float32(1.0))) < np.float32(0.5)
    return ops.where(keep, data, ops.flip(data, (axis,)))


def _brightness(data: Tensor, alpha: Any) -> Tensor:
    return _saturate(_f32(data) * alpha, data._data.dtype)


def _contrast(data: Tensor, alpha: Any) -> Tensor:
    x = _f32(data)
    terms = x * Tensor(np.asarray(_COEF, np.float32)) if data.shape[-1] > 1 else x
    # the kernel's running float32 sum, pixel by pixel and channel by channel
    total = ops.cumsum(terms.reshape((-1,)), 0)[-1]
    mean = total / np.float32(data.shape[0] * data.shape[1])
    return _saturate(x * alpha + (np.float32(1.0) - alpha) * mean, data._data.dtype)


def _saturation(data: Tensor, alpha: Any) -> Tensor:
    if data.shape[-1] == 1:
        return data
    x = _f32(data)
    # MXNet's kernel keeps only the last term of its gray sum (B * 0.114), and so does this
    gray = x[..., 2:3] * np.float32(_COEF[2]) * (np.float32(1.0) - alpha)
    return _saturate(gray + x * alpha, data._data.dtype)


def _hue(data: Tensor, alpha: Any) -> Tensor:
    if data.shape[-1] == 1:
        return data
    return _saturate(adjust_hue(_f32(data), alpha), data._data.dtype)


def _enhance(kernel: Callable[[Tensor, Any], Tensor], op: str) -> Callable[..., Tensor]:
    def fn(data: Tensor, min_factor: float, max_factor: float, **_: Any) -> Tensor:
        _check_hwc(data, op)
        if min_factor < 0 or max_factor < 0:
            raise MXNetError(f"{op}: min_factor and max_factor must be >= 0, got {min_factor}, {max_factor}")
        return kernel(data, _factor(min_factor, max_factor))
    fn.__name__ = op
    return fn


def random_color_jitter(data: Tensor, brightness: float, contrast: float, saturation: float, hue: float,
                        **_: Any) -> Tensor:
    """Brightness, contrast, saturation and hue jitters (each a factor 1 + U(-j, j), skipped when j is 0),
    applied in a random order (drawn eagerly; a traced graph keeps the order drawn while tracing)."""
    from cellonnx.ops.prims.random import generator

    _check_hwc(data, "random_color_jitter")
    out = data
    for k in generator("mx_image_color_jitter").permutation(4):
        jitter = (brightness, contrast, saturation, hue)[k]
        if jitter > 0:
            kernel = (_brightness, _contrast, _saturation, _hue)[k]
            out = kernel(out, np.float32(1.0) + _factor(-jitter, jitter))
    return out


def adjust_lighting(data: Tensor, alpha: Any, **_: Any) -> Tensor:
    """AlexNet's PCA lighting: each of R, G, B shifted by the eigenvectors times ``alpha`` (3 values)."""
    _check_hwc(data, "adjust_lighting")
    if data.shape[-1] == 1:
        return data
    return _saturate(_f32(data) + lighting_shift(alpha), data._data.dtype)


def random_lighting(data: Tensor, alpha_std: float = 0.05, **_: Any) -> Tensor:
    """adjust_lighting with ``alpha`` drawn from N(0, alpha_std^2)."""
    _check_hwc(data, "random_lighting")
    if data.shape[-1] == 1:
        return data
    alpha = ops.normal((3,), Tensor(np.float32(0.0)), Tensor(np.float32(alpha_std)))
    return _saturate(_f32(data) + lighting_shift(alpha), data._data.dtype)


IMAGE: dict[str, Callable[..., Any]] = {
    "to_tensor": to_tensor,
    "normalize": normalize,
    "crop": crop,
    "resize": resize,
    "flip_left_right": flip_left_right,
    "flip_top_bottom": flip_top_bottom,
    "random_flip_left_right": lambda data, **_: _random_flip(data, 1, "random_flip_left_right"),
    "random_flip_top_bottom": lambda data, **_: _random_flip(data, 0, "random_flip_top_bottom"),
    "random_brightness": _enhance(_brightness, "random_brightness"),
    "random_contrast": _enhance(_contrast, "random_contrast"),
    "random_saturation": _enhance(_saturation, "random_saturation"),
    "random_hue": _enhance(_hue, "random_hue"),
    "random_color_jitter": random_color_jitter,
    "adjust_lighting": adjust_lighting,
    "random_lighting": random_lighting,
}
