"""mx.nd.imdecode: MXNet 1.x's legacy image decoder into a (channels, H, W) NDArray."""
from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["imdecode"]


def imdecode(str_img: Any, clip_rect: tuple = (0, 0, 0, 0), out: Any = None, index: int = 0,
             channels: int = 3, mean: Any = None) -> Any:
    """Decode an encoded image (bytes) into a (channels, H, W) array, pixels in OpenCV's order (BGR; one
    gray channel with ``channels=1``), optionally cut to ``clip_rect`` (x0, y0, x1, y1) and less ``mean``
    (an array of the result's shape, whose dtype the result takes; float32 otherwise). With ``out`` (3-D,
    or 4-D: written at ``out[index]``) the image is written there. (MXNet 1.9.1's own function fails on
    Python 3 bytes: OpenCV gets the text of the bytes; this one decodes them.)

    Returns:
        NDArray, (channels, y1 - y0, x1 - x0), or ``out``.

    Raises:
        ValueError: undecodable data, more channels than the image has, a clip outside the image, or an
            ``out`` / ``mean`` of another shape.

    Examples:
        >>> import io
        >>> import numpy as np
        >>> from PIL import Image
        >>> import cellonnx.mxnet as mx
        >>> buf = io.BytesIO()
        >>> Image.fromarray(np.array([[[255, 0, 0], [0, 0, 255]]], np.uint8)).save(buf, "PNG")
        >>> mx.nd.imdecode(buf.getvalue()).asnumpy()[:, 0].tolist()
        [[0.0, 255.0], [0.0, 0.0], [255.0, 0.0]]
    """
    from cellonnx.mxnet.image import _decode, _numpy
    from cellonnx.mxnet.ndarray import array

    if isinstance(str_img, (bytes, bytearray)):
        data = bytes(str_img)
    else:
        data = _numpy(str_img).astype(np.uint8).tobytes()
    channels = int(channels)
    img = _decode(data, 0 if channels == 1 else 1, False)
    if channels > img.shape[2]:
        raise ValueError(f"imdecode: {channels} channels asked, the image has {img.shape[2]}")
    x0, y0, x1, y1 = (int(v) for v in clip_rect)
    if y1 - y0 == 0:
        x0, y0, x1, y1 = 0, 0, img.shape[1], img.shape[0]
    if not (0 <= x0 < x1 <= img.shape[1] and 0 <= y0 < y1 <= img.shape[0]):
        raise ValueError(f"imdecode: clip_rect {tuple(clip_rect)} is outside the "
                         f"{img.shape[1]}x{img.shape[0]} image")
    res = img[y0:y1, x0:x1, :channels].transpose(2, 0, 1)
    dtype = np.float32 if mean is None else np.dtype(mean.dtype)
    res = res.astype(dtype)
    if mean is not None:
        m = _numpy(mean)
        if m.shape != res.shape:
            raise ValueError(f"imdecode: mean has shape {m.shape}, the image {res.shape}")
        res = (res - m).astype(dtype)
    if out is None:
        return array(res, dtype=res.dtype)
    target = out if out.ndim == 3 else out[int(index)]
    if tuple(target.shape) != res.shape:
        raise ValueError(f"imdecode: out has room for {tuple(target.shape)}, the image is {res.shape}")
    if out.ndim == 3:
        out[:] = array(res.astype(np.dtype(out.dtype)))
    else:
        out[int(index)] = array(res.astype(np.dtype(out.dtype)))
    return out
