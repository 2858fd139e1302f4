"""mx.io.ImageDetRecordIter: batches of a detection RecordIO file (each record's label: ``header_width,
object_width, (more header), objects...``, objects as class id, xmin, ymin, xmax, ymax in fractions, extras),
as MXNet's C++ iterator gives them.

Per image: decode (EXIF orientation applied); ``resize`` its shorter edge if given; fit it to
``data_shape`` by ``resize_mode`` ('force': resized to (H, W); 'fit': scaled to fit, keeping the aspect
ratio, at the top left of a zero canvas; 'shrink': as 'fit' but never enlarged), with OpenCV's
``inter_method``; mirror with probability ``rand_mirror_prob`` (boxes too; drawn as MXNet draws it, a float
from ``mt19937(233)`` per image, kept across epochs); then ``(x - mean) / std * scale`` per channel (no
division where a std is 0, the default). The label row of an image is ``[channels, height, width, label
length, label...]`` of the image placed in the canvas, padded with ``label_pad_value`` to
``label_pad_width`` + 4 (0 / -1: the longest label of the part read). Reading order, parts and batching are
ImageRecordIter's; ``shuffle`` draws its permutations from
``mt19937(233 + seed)``. The random crops, pads and colour changes of MXNet's detection augmenter are not
done here: giving them is an error naming them.
"""
from __future__ import annotations

import os
from typing import Any

import numpy as np

from cellonnx.mxnet.base import MXNetError
from cellonnx.mxnet.io_imagerec import (
    Images,
    _canonical_float,
    checked_layout,
    decode_upright,
    part_of,
    records_of,
)
from cellonnx.mxnet.io_native import BatchLoader, _mt19937, flag, native

__all__ = ["ImageDetRecordIter"]

_UNSUPPORTED = {"rand_crop_prob": 0, "rand_pad_prob": 0, "random_hue_prob": 0, "random_saturation_prob": 0,
                "random_illumination_prob": 0, "random_contrast_prob": 0, "mean_img": ""}
_IGNORED = {"aug_seq", "preprocess_threads", "verbose", "shuffle_chunk_size", "shuffle_chunk_seed",
            "prefetch_buffer", "ctx", "data_name", "label_name", "min_crop_scales", "max_crop_scales",
            "min_crop_aspect_ratios", "max_crop_aspect_ratios", "min_crop_overlaps", "max_crop_overlaps",
            "min_crop_sample_coverages", "max_crop_sample_coverages", "min_crop_object_coverages",
            "max_crop_object_coverages", "num_crop_sampler", "crop_emit_mode", "emit_overlap_thresh",
            "max_crop_trials", "max_pad_scale", "max_random_hue", "max_random_saturation",
            "max_random_illumination", "max_random_contrast", "fill_value"}


def _raw_label(header: Any, where: str) -> np.ndarray:
    raw = np.atleast_1d(np.asarray(header.label, np.float32))
    if raw.size < 7:
        raise MXNetError(f"ImageDetRecordIter: {where}: a detection label needs at least 7 values, got "
                         f"{raw.size}")
    header_width, obj_width = int(raw[0]), int(raw[1])
    if header_width < 2 or obj_width < 5 or (raw.size - header_width) % obj_width:
        raise MXNetError(f"ImageDetRecordIter: {where}: label of {raw.size} values does not split into a "
                         f"header of {header_width} and objects of {obj_width}")
    return raw


class _DetImages(Images):
    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.det_gen = _mt19937(233)  # MXNet's detection augmenter engine (first thread), kept across epochs
    def _sample(self, header: Any, img: bytes, k: int, offset: int) -> tuple:
        a = self.args
        raw = _raw_label(header, f"{self.path}, record {k} at byte offset {offset}")
        c, h, w = a["data_shape"]
        from cellonnx.mxnet.image import _interp, _resize

        res = decode_upright(img, c)
        if a["resize"] > 0:  # the shorter edge first
            rows, cols = res.shape[:2]
            nh, nw = (a["resize"] * rows // cols, a["resize"]) if rows > cols else \
                (a["resize"], a["resize"] * cols // rows)
            res = _resize(res, nw, nh, _interp(a["inter_method"], (rows, cols, nh, nw)))
        rows, cols = res.shape[:2]
        if a["resize_mode"] == "force":
            nh, nw = h, w
        else:
            scale = min(w / cols, h / rows)
            if a["resize_mode"] == "shrink":
                scale = min(scale, 1.0)
            nh, nw = int(rows * scale), int(cols * scale)
        if (nh, nw) != (rows, cols):
            res = _resize(res, nw, nh, _interp(a["inter_method"], (rows, cols, nh, nw)))
        raw = raw.copy()
        if a["rand_mirror_prob"] > 0 and _canonical_float(self.det_gen) < np.float32(a["rand_mirror_prob"]):
            res = res[:, ::-1]
            hw, ow = int(raw[0]), int(raw[1])
            objects = raw[hw:].reshape(-1, ow)
            xmin = objects[:, 1].copy()
            objects[:, 1] = 1.0 - objects[:, 3]
            objects[:, 3] = 1.0 - xmin
            raw[hw:] = objects.reshape(-1)
        canvas = np.zeros((c, h, w), np.float32)
        canvas[:, :nh, :nw] = res.transpose(2, 0, 1)
        mean = np.asarray([a["mean_r"], a["mean_g"], a["mean_b"], a["mean_a"]][:c], np.float32)[:, None, None]
        std = np.asarray([a["std_r"], a["std_g"], a["std_b"], a["std_a"]][:c], np.float32)[:, None, None]
        out = canvas - mean
        out = np.where(std > 0, out / np.where(std > 0, std, 1), out) * np.float32(a["scale"])
        label = np.full(a["label_width"], a["label_pad_value"], np.float32)
        row = np.concatenate([[c, nh, nw, raw.size], raw]).astype(np.float32)
        label[:row.size] = row
        return int(header.id), out.astype(np.float32), label


def _make(path_imgrec: str = "./data/imgrec.rec", data_shape: Any = None, batch_size: int = 0,
          path_imglist: str = "", label_width: int = -1, num_parts: int = 1, part_index: int = 0,
          label_pad_width: int = 0, label_pad_value: float = -1, shuffle: bool = False, seed: int = 0,
          round_batch: bool = True, dtype: Any = None, resize: int = -1, rand_mirror_prob: float = 0,
          inter_method: int = 1, resize_mode: str = "force", mean_r: float = 0, mean_g: float = 0,
          mean_b: float = 0, mean_a: float = 0, std_r: float = 0, std_g: float = 0, std_b: float = 0,
          std_a: float = 0, scale: float = 1, **kwargs: Any) -> BatchLoader:
    name = "ImageDetRecordIter"
    for key, value in kwargs.items():
        if key in _UNSUPPORTED:
            if str(value) not in ("None", str(_UNSUPPORTED[key])) and value != _UNSUPPORTED[key]:
                raise NotImplementedError(f"{name}: {key}={value!r}: this augmentation of MXNet's detection "
                                          "iterator is not done by cellonnx (use mx.image.ImageDetIter's "
                                          "augmenters)")
        elif key not in _IGNORED:
            raise MXNetError(f"{name}: unknown argument {key!r}")
    if path_imglist:
        raise NotImplementedError(f"{name}: path_imglist: the labels are read from the records here")
    if resize_mode not in ("force", "fit", "shrink"):
        raise MXNetError(f"{name}: resize_mode must be 'force', 'fit' or 'shrink', got {resize_mode!r}")
    if dtype is not None and str(dtype) not in ("None", "float32"):
        raise MXNetError(f"{name}: unknown dtype {dtype!r} (float32)")
    if not os.path.isfile(path_imgrec):
        raise MXNetError(f"{name}: {path_imgrec}: no such file")
    shape, num_parts, part_index = checked_layout(name, data_shape, num_parts, part_index)
    from cellonnx.mxnet import recordio

    records = records_of(path_imgrec)
    part = part_of(records, os.path.getsize(path_imgrec), num_parts, part_index, False)
    longest = 0  # over the records of this part, as MXNet estimates it
    for k in part:
        offset, rec = records[k]
        header, _ = recordio.unpack(rec)
        longest = max(longest, _raw_label(header, f"{path_imgrec}, record {k} at byte offset {offset}").size)
    if int(label_pad_width) > 0 and int(label_pad_width) < longest:
        raise MXNetError(f"ImageDetRecordIOParser: label_pad_width: {int(label_pad_width)} smaller than "
                         f"estimated width: {longest}")
    width = (int(label_pad_width) if int(label_pad_width) > 0 else longest) + 4
    args = dict(data_shape=shape, label_width=width, label_pad_value=float(label_pad_value),
                shuffle=flag(shuffle), seed=int(seed), rand_mirror_prob=float(rand_mirror_prob),
                inter_method=int(inter_method), resize_mode=resize_mode, resize=int(resize),
                mean_r=float(mean_r),
                mean_g=float(mean_g), mean_b=float(mean_b), mean_a=float(mean_a), std_r=float(std_r),
                std_g=float(std_g), std_b=float(std_b), std_a=float(std_a), scale=float(scale), name=name,
                rand_magic=233)
    source = _DetImages(path_imgrec, records, part, args, None)
    source.before_first()
    return BatchLoader(source, int(batch_size), shape, (width,), flag(round_batch), None, np.float32,
                       report_short_pad=False)


ImageDetRecordIter = native("ImageDetRecordIter", """Batches of a detection RecordIO file's images and
their object labels (see the module cellonnx.mxnet.io_imagedet).

Args:
    path_imgrec (str): the .rec file.
    data_shape (tuple): (channels, height, width).
    batch_size (int): images per batch.
    label_pad_width (int): the label row width; 0 or -1 estimates it. Default: 0.
    label_pad_value (float): Default: -1.
    num_parts, part_index (int), shuffle (bool), seed (int), round_batch (bool): as ImageRecordIter's.
    resize_mode (str): 'force', 'fit' or 'shrink'. Default: 'force'.
    rand_mirror_prob (float): Default: 0.
    inter_method (int): Default: 1.
    mean_r, mean_g, mean_b, mean_a, std_r, std_g, std_b, std_a, scale: the normalisation.

Returns:
    MXDataIter.

Examples:
    >>> import io, os, tempfile
    >>> import numpy as np
    >>> from PIL import Image
    >>> import cellonnx.mxnet as mx
    >>> path = os.path.join(tempfile.mkdtemp(), "det.rec")
    >>> rec = mx.recordio.MXRecordIO(path, "w")
    >>> buf = io.BytesIO()
    >>> Image.fromarray(np.zeros((6, 6, 3), np.uint8)).save(buf, "PNG")
    >>> label = np.array([2, 5, 1, 0.1, 0.2, 0.5, 0.6], np.float32)
    >>> rec.write(mx.recordio.pack(mx.recordio.IRHeader(len(label), label, 0, 0), buf.getvalue()))
    >>> rec.close()
    >>> it = mx.io.ImageDetRecordIter(path_imgrec=path, data_shape=(3, 4, 4), batch_size=1)
    >>> [round(float(v), 2) for v in it.next().label[0].asnumpy()[0]]
    [3.0, 4.0, 4.0, 7.0, 2.0, 5.0, 1.0, 0.1, 0.2, 0.5, 0.6]
""", _make)
