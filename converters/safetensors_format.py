"""safetensors files through the safetensors package; bfloat16 through ml_dtypes.

The package validates the file (header size, contiguous non-overlapping offsets, sizes matching dtype x shape, data
ending at the end of the file); the arrays are then memory-mapped straight from the validated offsets, so reading
holds no second copy and bfloat16 (which the package's NumPy API lacks) comes back as ml_dtypes.bfloat16.
"""
from __future__ import annotations

import binascii
import json
import os
import struct
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import safetensors
from cellonnx.converters.atomic import atomic_path
from cellonnx.converters.binio import contiguous_le, little_endian, map_array, raw_bytes, report_written
from cellonnx.converters.errors import CheckpointError
from cellonnx.converters.tensors import Metadata, Tensors, checked, dtype_of

from cellonnx import dtypes

_BY_HEADER_NAME = {d.safetensors: d for d in dtypes.ALL if d.safetensors}
CRC_KEY = "crc_num"  # MindSpore's save_checkpoint(format="safetensors", crc_check=True) metadata key


def read(path: str | os.PathLike[str], *, crc_check: bool = False) -> tuple[Tensors, Metadata]:
    """Read a .safetensors file: tensors in file order and the `__metadata__` strings.

    Args:
        path: the file.
        crc_check: verify MindSpore's `crc_num` metadata (crc32 over each name and its data, in file order).
    """
    path = Path(path)
    try:
        with safetensors.safe_open(path, framework="np") as handle:
            metadata: Metadata = dict(handle.metadata() or {})
    except (safetensors.SafetensorError, OSError, ValueError) as exc:
        raise CheckpointError(path, f"not a valid safetensors file: {exc}") from None
    with open(path, "rb") as f:
        (header_len,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(header_len))
    header.pop("__metadata__", None)
    data_start = 8 + header_len
    tensors: Tensors = {}
    for name, info in sorted(header.items(), key=lambda kv: kv[1]["data_offsets"][0]):
        dt = _BY_HEADER_NAME.get(info["dtype"])
        if dt is None:
            raise CheckpointError(path, f"tensor {name!r} has dtype {info['dtype']}; supported: "
                                        f"{sorted(_BY_HEADER_NAME)}")
        begin = info["data_offsets"][0]
        tensors[name] = map_array(path, data_start + begin, little_endian(dt.np_dtype), tuple(info["shape"]))
    if crc_check:
        _verify_crc(path, tensors, metadata)
    return tensors, metadata


def write(path: str | os.PathLike[str], tensors: Mapping[str, Any], *, metadata: Mapping[str, Any] | None = None,
          crc_check: bool = False) -> None:
    """Write a .safetensors file (atomically). Metadata values are stored as strings.

    Args:
        crc_check: add MindSpore's `crc_num` metadata so `mindspore.load_checkpoint(..., crc_check=True)` and
            `read(..., crc_check=True)` can verify the data.
    """
    path = Path(path)
    arrays = {name: contiguous_le(a) for name, a in checked(path, tensors, "safetensors").items()}
    meta = {str(k): str(v) for k, v in (metadata or {}).items()}
    if crc_check:
        meta[CRC_KEY] = str(_crc(arrays))
    with atomic_path(path) as tmp:
        safetensors.serialize_file(_specs(path, arrays), tmp, meta or None)
    report_written(sum(a.nbytes for a in arrays.values()))  # one call writes the whole file


def _specs(path: Path, arrays: dict[str, np.ndarray]) -> dict[str, Any]:
    if hasattr(safetensors, "TensorSpec"):  # safetensors >= 0.8: zero-copy from the arrays' memory
        return {name: safetensors.TensorSpec(dtype=a.dtype.name, shape=list(a.shape),
                                             data_ptr=a.ctypes.data, data_len=a.nbytes)
                for name, a in arrays.items()}
    return {name: {"dtype": dtype_of(path, name, a).safetensors, "shape": list(a.shape), "data": a.tobytes()}
            for name, a in arrays.items()}


def _crc(arrays: Mapping[str, np.ndarray]) -> int:
    crc = 0
    for name in sorted(arrays):  # MindSpore's order, when saving and when loading
        crc = binascii.crc32(name.encode("utf-8"), crc)
        crc = binascii.crc32(_crc_bytes(arrays[name]), crc)
    return crc


def _crc_bytes(array: np.ndarray) -> bytes | np.ndarray:
    """The bytes MindSpore feeds to crc32 for a tensor: `bytes(array)`.

    For a 0-d integer array `bytes()` goes through `__index__` and yields `value` zero bytes instead of
    the data; MindSpore's CRC includes that quirk, so it is reproduced here to stay compatible.
    """
    if array.ndim == 0 and array.dtype.kind in "iu" and 0 <= int(array) < 2**31:
        return bytes(int(array))
    return raw_bytes(np.ascontiguousarray(array))


def _verify_crc(path: Path, tensors: Tensors, metadata: Metadata) -> None:
    if CRC_KEY not in metadata:
        raise CheckpointError(path, f"crc_check was asked for but the metadata has no {CRC_KEY!r}")
    crc = _crc(tensors)
    if str(crc) != str(metadata[CRC_KEY]):
        raise CheckpointError(path, f"CRC mismatch: metadata says {metadata[CRC_KEY]}, data gives {crc}")
