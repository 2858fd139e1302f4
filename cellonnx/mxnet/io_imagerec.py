"""mx.io.ImageRecordIter (and _v1, ImageRecordUInt8Iter, ImageRecordInt8Iter): batches of the images of
an MXNet RecordIO file, decoded and augmented as MXNet's C++ iterator does.

Per image: decode (3 channels, or gray with ``data_shape[0] == 1``; EXIF orientation applied); then MXNet's
default augmenter (cellonnx.mxnet.io_imageaug: ``resize``, the affine augmentations, ``pad``, the crops,
colour, HLS and PCA noise); mirror (``mirror``, or ``rand_mirror`` at random); then ``(x - mean) * scale /
std`` per channel (RGB order) into float32, or the
raw pixels for the UInt8 / Int8 iterators and ``dtype`` 'uint8' / 'int8' (int8 saturating at 127). Labels
are the records' header labels (``label_width`` values), or those of ``path_imglist`` by record id. The
records are read in order, or, with ``shuffle``, in a permutation drawn at each epoch as MXNet's reader draws
it (``std::shuffle`` over ``mt19937(111 + seed)``); ``num_parts`` / ``part_index`` read a part split as
MXNet splits the file. A batch's ``index`` is the records' ids for the _v1 iterators, zeros for the others
(as MXNet's). Batching is MXNet's batch loader (``round_batch``); as MXNet's, a batch past the end without
``round_batch`` reports pad 0. The augmenter's random numbers and the mirror coin are drawn as MXNet's
first preprocessing thread draws them: from ``mt19937(111)``, kept across epochs, or, with ``seed_aug``,
reseeded per image with ``111 + seed_aug + n``, ``n`` the image's place in the pass over the file plus the
batch slot the pass began at (as MXNet counts within one read chunk of the file; its other threads, when it
runs several, have engines of their own). The float and int8 iterators then draw the random contrast ``c``
and illumination ``l`` (``max_random_contrast`` / ``max_random_illumination``, times ``scale``) and give
``(x - mean) * (c / std) + l / std``. ``mean_img`` names a file holding the
mean image (subtracted instead of the per-channel means); when it does not exist, the mean of the images as
the iterator gives them without it is computed and saved there first, as MXNet does (so the saved mean is
already scaled, and scaled again when subtracted).
"""
from __future__ import annotations

import os
from typing import Any

import numpy as np

from cellonnx.mxnet.base import MXNetError
from cellonnx.mxnet.io_imageaug import aug_args, augment
from cellonnx.mxnet.io_imageaug import canonical as _canonical_float
from cellonnx.mxnet.io_native import BatchLoader, _mt19937, _uniform_int, flag, native, shape_arg

__all__ = ["ImageRecordInt8Iter", "ImageRecordIter", "ImageRecordIter_v1", "ImageRecordUInt8Iter",
           "ImageRecordUInt8Iter_v1"]

_ACCEPTED = {"aug_seq", "preprocess_threads", "verbose", "device_id", "shuffle_chunk_size",
             "shuffle_chunk_seed", "prefetch_buffer", "ctx", "data_name", "label_name"}
_KRAND_MAGIC = 111


def records_of(path: str) -> list[tuple[int, bytes]]:
    """(byte offset, payload) of every record of ``path``."""
    from cellonnx.mxnet import recordio

    reader = recordio.MXRecordIO(path, "r")
    out = []
    try:
        while True:
            offset = reader._tell()
            rec = reader.read()
            if rec is None:
                return out
            out.append((offset, rec))
    finally:
        reader.close()


def checked_layout(name: str, data_shape: Any, num_parts: Any, part_index: Any) -> tuple:
    """(data_shape, num_parts, part_index) of an image record iterator, checked: (C, H, W) with 1 or 3
    channels, and a part index below the number of parts."""
    shape = shape_arg(data_shape, f"{name} data_shape")
    if len(shape) != 3 or shape[0] not in (1, 3):
        raise MXNetError(f"{name}: data_shape must be (channels, height, width) with 1 or 3 channels, "
                         f"got {shape}")
    num_parts, part_index = int(num_parts), int(part_index)
    if not 0 <= part_index < num_parts:
        raise MXNetError(f"{name}: part_index {part_index} must be in [0, num_parts={num_parts})")
    return shape, num_parts, part_index


def part_of(records: list, size: int, num_parts: int, part_index: int, indexed: bool) -> range:
    """The records of part ``part_index``: by record count with an index file, else by bytes (each
    boundary moved to the next record), as dmlc's splitters do."""
    n = len(records)
    if indexed:
        step = (n + num_parts - 1) // num_parts
        return range(min(step * part_index, n), min(step * (part_index + 1), n))
    step = (size + num_parts - 1) // num_parts
    step = (step + 3) // 4 * 4
    begin, end = min(step * part_index, size), min(step * (part_index + 1), size)
    starts = [off for off, _ in records]
    first = next((i for i, off in enumerate(starts) if off >= begin), n)
    last = next((i for i, off in enumerate(starts) if off >= end), n)
    return range(first, last)


def _lst_labels(path: str, width: int) -> dict[int, np.ndarray]:
    labels = {}
    with open(path) as f:
        for no, line in enumerate(f, start=1):
            fields = line.strip().split("\t")
            if len(fields) < width + 2:
                raise MXNetError(f"ImageRecordIter: {path}, line {no}: expected index, {width} label(s) and "
                                 f"a path, tab separated")
            try:
                labels[int(fields[0])] = np.asarray([float(v) for v in fields[1:1 + width]], np.float32)
            except ValueError:
                raise MXNetError(f"ImageRecordIter: {path}, line {no}: the index and labels must be "
                                 "numbers") from None
    return labels


def _orientation(img: bytes) -> int:
    """The EXIF orientation of an encoded image (1 when it has none)."""
    import io

    from PIL import Image

    if b"Exif" not in img[:65536]:  # no EXIF block: nothing to parse
        return 1
    try:
        return int(Image.open(io.BytesIO(img)).getexif().get(274, 1))
    except Exception:  # noqa: BLE001 - undecodable data fails in the decoder, with its message
        return 1


def _oriented(arr: np.ndarray, orientation: int) -> np.ndarray:
    """``arr`` (H, W, C) turned upright as EXIF ``orientation`` says (OpenCV's decoder does this)."""
    turns = {2: lambda a: a[:, ::-1], 3: lambda a: a[::-1, ::-1], 4: lambda a: a[::-1],
             5: lambda a: a.transpose(1, 0, 2), 6: lambda a: np.rot90(a, -1),
             7: lambda a: np.rot90(a, 2).transpose(1, 0, 2), 8: lambda a: np.rot90(a, 1)}
    return np.ascontiguousarray(turns[orientation](arr)) if orientation in turns else arr


def _coin(gen: Any) -> bool:
    """libstdc++'s bernoulli_distribution(0.5): a 53-bit canonical double from two 32-bit draws, < 0.5."""
    low, high = gen(), gen()
    return (low + high * 2.0**32) / 2.0**64 < 0.5


def decode_upright(img: bytes, channels: int) -> np.ndarray:
    """An encoded image as (H, W, C) uint8 RGB (gray for 1 channel), turned upright by its EXIF orientation
    as OpenCV's decoder does (MXNet's C++ iterators decode BGR and swap on output)."""
    from cellonnx.mxnet.image import _decode

    return _oriented(_decode(img, 0 if channels == 1 else 1, True), _orientation(img))


class Images:
    """The decoded, augmented images of a .rec file, one per ``next()``: (index, CHW array, label)."""

    def __init__(self, path: str, records: list, part: range, args: dict, labels: dict | None) -> None:
        self.path, self.records, self.part, self.args, self.labels = path, records, part, args, labels
        self.order = list(part)
        self.pos = 0
        self.gen_seed = args.get("rand_magic", _KRAND_MAGIC) + args["seed"]
        self._perm_gen: Any = None
        self.aug_gen = _mt19937(_KRAND_MAGIC)  # MXNet's first preprocessing thread's engine
        self.start_slot = 0

    def before_first(self) -> None:
        self.pos = 0
        if self.args["shuffle"]:
            if self._perm_gen is None:
                self._perm_gen = _mt19937(self.gen_seed)
            order = list(self.part)
            for i in range(1, len(order)):
                j = _uniform_int(self._perm_gen, i)
                order[i], order[j] = order[j], order[i]
            self.order = order

    def next(self) -> tuple | None:
        from cellonnx.mxnet import recordio

        if self.pos >= len(self.order):
            return None
        k = self.order[self.pos]
        self.pos += 1
        offset, rec = self.records[k]
        header, img = recordio.unpack(rec)
        try:
            return self._sample(header, img, k, offset)
        except MXNetError:
            raise
        except Exception as exc:  # noqa: BLE001 - a decoder failure, reported with the record
            raise MXNetError(f"{self.args['name']}: {self.path}, record {k} at byte offset {offset}: "
                             f"{exc}") from None

    def _sample(self, header: Any, img: bytes, k: int, offset: int) -> tuple:
        if self.args.get("seed_aug") is not None:
            # MXNet reseeds per image with its place in the parsed chunk, counted from the batch slot the
            # pass over the file began at
            self.aug_gen = _mt19937(_KRAND_MAGIC + self.args["seed_aug"] + self.start_slot + self.pos - 1)
        pixels = self._augment(img)
        width = self.args["label_width"]
        if self.labels is not None:
            if int(header.id) not in self.labels:
                raise MXNetError(f"ImageRecordIter: record {k} (id {int(header.id)}) of {self.path} is not "
                                 "in the image list")
            label = self.labels[int(header.id)]
        else:
            label = np.atleast_1d(np.asarray(header.label, np.float32))
            if label.size < width:
                raise MXNetError(f"ImageRecordIter: {self.path}, record {k} at byte offset {offset}: "
                                 f"{label.size} label(s), label_width is {width}")
            label = label[:width]
        return (int(header.id) if self.args["v1"] else 0), pixels, label

    def _augment(self, img: bytes) -> np.ndarray:
        a = self.args
        c = a["data_shape"][0]
        res = augment(decode_upright(img, c), a, self.aug_gen)
        if (a["rand_mirror"] and _coin(self.aug_gen)) or a["mirror"]:
            res = res[:, ::-1]
        contrast, illumination = np.float32(1), np.float32(0)
        if a["kind"] != "uint8":  # MXNet draws a random contrast and illumination for these
            f32 = np.float32
            max_c, max_i = f32(a["max_random_contrast"]), f32(a["max_random_illumination"])
            scale = f32(a["scale"])
            u1, u2 = _canonical_float(self.aug_gen), _canonical_float(self.aug_gen)
            contrast = (u1 * max_c * f32(2) - max_c + f32(1)) * scale
            illumination = (u2 * max_i * f32(2) - max_i) * scale
        out = res.transpose(2, 0, 1)
        if a["kind"] == "float":
            mean = np.asarray([a["mean_r"], a["mean_g"], a["mean_b"], a["mean_a"]][:c],
                              np.float32)[:, None, None]
            if a.get("mean_image") is not None:
                mean = a["mean_image"]
            std = np.asarray([a["std_r"], a["std_g"], a["std_b"], a["std_a"]][:c], np.float32)[:, None, None]
            return (out.astype(np.float32) - mean) * (contrast / std) + illumination / std
        if a["kind"] == "int8":
            return np.minimum(out, 127).astype(np.int8)
        return out.astype(np.uint8)


def _mean_image(path: str, path_imgrec: str, records: list, part: range, args: dict,
                labels: dict | None) -> np.ndarray:
    """The mean image of ``path`` (an NDArray file holding 'mean_img'), or, when there is no such file, the
    mean of the images as this iterator gives them without one (so already scaled and divided by std, which
    MXNet's subtraction then applies again), written there first, as MXNet does."""
    from cellonnx.mxnet import ndarray as nd

    shape = args["data_shape"]
    if os.path.isfile(path):
        loaded = nd.load(path)
        value = loaded.get("mean_img") if isinstance(loaded, dict) else (loaded[0] if loaded else None)
        if value is None or tuple(value.shape) != tuple(shape):
            raise MXNetError(f"{args['name']}: {path} holds no 'mean_img' of shape {tuple(shape)}")
        return value.asnumpy().astype(np.float32)
    source = Images(path_imgrec, records, part, {**args, "mean_image": None}, labels)
    total, count = np.zeros(shape, np.float32), 0
    while (inst := source.next()) is not None:
        total += inst[1]
        count += 1
    if not count:
        raise MXNetError(f"{args['name']}: no images to compute the mean image {path} from")
    mean = total * np.float32(1.0 / count)
    nd.save(path, {"mean_img": nd.array(mean)})
    return mean


def _maker(name: str, kind: str) -> Any:
    v1 = name.endswith("_v1")

    def make(path_imgrec: str = "", data_shape: Any = None, batch_size: int = 0, path_imglist: str = "",
             path_imgidx: str = "", label_width: int = 1, num_parts: int = 1, part_index: int = 0,
             shuffle: bool = False, seed: int = 0, round_batch: bool = True, dtype: Any = None,
             resize: int = -1,
             rand_crop: bool = False, rand_mirror: bool = False, mirror: bool = False, pad: int = 0,
             fill_value: int = 255, inter_method: int = 1, mean_r: float = 0, mean_g: float = 0,
             mean_b: float = 0, mean_a: float = 0, std_r: float = 1, std_g: float = 1, std_b: float = 1,
             std_a: float = 1, scale: float = 1, seed_aug: Any = None, max_random_contrast: float = 0,
             max_random_illumination: float = 0, mean_img: str = "", **kwargs: Any) -> BatchLoader:
        augs = aug_args(kwargs, name)
        for key in kwargs:
            if key not in _ACCEPTED:
                raise MXNetError(f"{name}: unknown argument {key!r}")
        if not path_imgrec:
            raise MXNetError(f"{name}: path_imgrec is required")
        if os.path.isdir(path_imgrec):
            raise MXNetError(f"{name}: {path_imgrec} is a folder; give the .rec file")
        shape, num_parts, part_index = checked_layout(name, data_shape, num_parts, part_index)
        records = records_of(path_imgrec)
        part = part_of(records, os.path.getsize(path_imgrec), num_parts, part_index, bool(path_imgidx))
        width = int(label_width)
        labels = _lst_labels(path_imglist, width) if path_imglist else None
        args = dict(data_shape=shape, label_width=width, shuffle=flag(shuffle), seed=int(seed),
                    resize=int(resize), rand_crop=flag(rand_crop), rand_mirror=flag(rand_mirror),
                    mirror=flag(mirror), pad=int(pad), fill_value=int(fill_value),
                    inter_method=int(inter_method),
                    mean_r=float(mean_r), mean_g=float(mean_g), mean_b=float(mean_b), mean_a=float(mean_a),
                    std_r=float(std_r), std_g=float(std_g), std_b=float(std_b), std_a=float(std_a),
                    scale=float(scale), kind=kind, v1=v1, name=name,
                    max_random_contrast=float(max_random_contrast),
                    max_random_illumination=float(max_random_illumination),
                    seed_aug=None if seed_aug is None or str(seed_aug) == "None" else int(seed_aug), **augs)
        if dtype is not None and str(dtype) != "None":
            if str(dtype) not in ("float32", "uint8", "int8"):
                raise MXNetError(f"{name}: unknown dtype {dtype!r} (float32, uint8 or int8)")
            if kind == "float" and str(dtype) != "float32":
                args["kind"] = str(dtype)
        if mean_img:
            args["mean_image"] = _mean_image(str(mean_img), path_imgrec, records, part, args, labels)
        source = Images(path_imgrec, records, part, args, labels)
        source.before_first()
        data_dtype = {"float": np.float32, "uint8": np.uint8, "int8": np.int8}[args["kind"]]
        return BatchLoader(source, int(batch_size), shape, (width,), flag(round_batch), None, data_dtype,
                           report_short_pad=False)
    return make


def _doc(name: str, what: str) -> str:
    return f"""{what}

See the module cellonnx.mxnet.io_imagerec for what is done to each image.

Args:
    path_imgrec (str): the .rec file.
    data_shape (tuple): (channels, height, width) of one output image.
    batch_size (int): images per batch.
    path_imglist (str): a .lst file whose labels replace the records' (by record id).
    path_imgidx (str): the .idx file (parts split by record count).
    label_width (int): labels per image. Default: 1.
    num_parts, part_index (int): Default: 1, 0.
    shuffle (bool), seed (int): Default: False, 0.
    round_batch (bool): Default: True.
    resize, rand_crop, rand_mirror, mirror, pad, fill_value, inter_method: as MXNet's.
    max_rotate_angle, rotate, rotate_list, max_shear_ratio, max_aspect_ratio, min_aspect_ratio,
        min_random_scale, max_random_scale, max_img_size, min_img_size, max_crop_size, min_crop_size,
        random_resized_crop, min_random_area, max_random_area, brightness, contrast, saturation,
        random_h, random_s, random_l, pca_noise: MXNet's default augmenter (cellonnx.mxnet.io_imageaug).
    mean_r, mean_g, mean_b, mean_a, std_r, std_g, std_b, std_a, scale: the normalisation.
    dtype (str): the output type (float iterators); None keeps float32.

Returns:
    MXDataIter.

Examples:
    >>> import io, os, tempfile
    >>> import numpy as np
    >>> from PIL import Image
    >>> import cellonnx.mxnet as mx
    >>> root = tempfile.mkdtemp()
    >>> rec = mx.recordio.MXRecordIO(os.path.join(root, "a.rec"), "w")
    >>> for i in range(3):
    ...     buf = io.BytesIO()
    ...     Image.fromarray(np.full((6, 6, 3), 50 * i, np.uint8)).save(buf, "PNG")
    ...     rec.write(mx.recordio.pack(mx.recordio.IRHeader(0, float(i), i, 0), buf.getvalue()))
    >>> rec.close()
    >>> it = mx.io.{name}(path_imgrec=os.path.join(root, "a.rec"), data_shape=(3, 4, 4), batch_size=2)
    >>> [(b.label[0].asnumpy().tolist(), b.pad) for b in it]
    [([0.0, 1.0], 0), ([2.0, 0.0], 1)]
"""


_NAMES = {
    "ImageRecordIter": ("float", "Batches of float32 images of a RecordIO file, normalised."),
    "ImageRecordIter_v1": ("float", "MXNet's first ImageRecordIter: the same batches, indices the records' "
                                    "ids."),
    "ImageRecordUInt8Iter": ("uint8", "Batches of the uint8 pixels of a RecordIO file's images (no "
                                      "normalisation)."),
    "ImageRecordUInt8Iter_v1": ("uint8", "MXNet's first ImageRecordUInt8Iter: the same batches, indices the "
                                         "records' ids."),
    "ImageRecordInt8Iter": ("int8", "Batches of a RecordIO file's images as int8 (pixels above 127 "
                                    "saturate)."),
}
ImageRecordIter = native("ImageRecordIter", _doc("ImageRecordIter", _NAMES["ImageRecordIter"][1]),
                         _maker("ImageRecordIter", "float"))
ImageRecordIter_v1 = native("ImageRecordIter_v1", _doc("ImageRecordIter_v1", _NAMES["ImageRecordIter_v1"][1]),
                            _maker("ImageRecordIter_v1", "float"))
ImageRecordUInt8Iter = native("ImageRecordUInt8Iter",
                              _doc("ImageRecordUInt8Iter", _NAMES["ImageRecordUInt8Iter"][1]),
                              _maker("ImageRecordUInt8Iter", "uint8"))
ImageRecordUInt8Iter_v1 = native("ImageRecordUInt8Iter_v1",
                                 _doc("ImageRecordUInt8Iter_v1", _NAMES["ImageRecordUInt8Iter_v1"][1]),
                                 _maker("ImageRecordUInt8Iter_v1", "uint8"))
ImageRecordInt8Iter = native("ImageRecordInt8Iter",
                             _doc("ImageRecordInt8Iter", _NAMES["ImageRecordInt8Iter"][1]),
                             _maker("ImageRecordInt8Iter", "int8"))
