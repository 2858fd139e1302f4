"""Image bytes of image records: ``cv2.imencode`` / ``cv2.imdecode`` as mx.recordio calls them, with Pillow
(images in OpenCV's BGR channel order)."""
from __future__ import annotations

import io

import numpy as np

__all__ = ["decode", "encode"]


def encode(img: np.ndarray, quality: int, img_fmt: str) -> bytes:
    """JPEG or PNG bytes of a (H, W), (H, W, 1) or (H, W, 3) BGR uint8 image."""
    from PIL import Image

    arr = np.asarray(img.asnumpy() if hasattr(img, "asnumpy") else img)
    if arr.dtype != np.uint8:
        raise TypeError(f"pack_img: the image must be uint8, got {arr.dtype}")
    if arr.ndim == 3 and arr.shape[2] == 1:
        arr = arr[:, :, 0]
    if arr.ndim == 3 and arr.shape[2] in (3, 4):
        arr = np.ascontiguousarray(arr[:, :, [2, 1, 0, 3][:arr.shape[2]]])
    elif arr.ndim != 2:
        raise ValueError(f"pack_img: the image must be (H, W) or (H, W, 1/3/4), got shape {arr.shape}")
    out = io.BytesIO()
    fmt = img_fmt.upper()
    if fmt in (".JPG", ".JPEG"):
        Image.fromarray(arr).save(out, format="JPEG", quality=int(quality))
    elif fmt == ".PNG":
        Image.fromarray(arr).save(out, format="PNG", compress_level=max(0, min(int(quality), 9)))
    else:
        raise ValueError(f"pack_img: img_fmt must be '.jpg', '.jpeg' or '.png', got {img_fmt!r}")
    return out.getvalue()


def decode(data: bytes, iscolor: int) -> np.ndarray:
    """The image of encoded ``data`` as ``cv2.imdecode(data, iscolor)`` gives it."""
    from PIL import Image

    from cellonnx.mxnet.image import _decode

    if iscolor == 1:
        return _decode(bytes(data), 1, False)
    if iscolor == 0:
        return _decode(bytes(data), 0, True)[:, :, 0]
    try:
        img = Image.open(io.BytesIO(bytes(data)))
        img.load()
    except Exception as exc:  # noqa: BLE001 - Pillow raises several types for undecodable data
        raise ValueError(f"unpack_img: the data is not an image Pillow can decode ({exc})") from None
    if img.mode in ("L", "1"):
        return np.asarray(img.convert("L"), np.uint8)
    if img.mode in ("RGBA", "LA", "PA") or (img.mode == "P" and "transparency" in img.info):
        return np.ascontiguousarray(np.asarray(img.convert("RGBA"), np.uint8)[:, :, [2, 1, 0, 3]])
    return np.ascontiguousarray(np.asarray(img.convert("RGB"), np.uint8)[:, :, ::-1])
