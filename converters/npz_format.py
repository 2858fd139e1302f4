"""NumPy .npz archives, read and written with allow_pickle=False.

NumPy has no bfloat16 of its own, so bfloat16 arrays are stored as float32 (every bfloat16 value is one
exactly) and named in a `__metadata__` entry: a 0-d unicode array holding JSON {"dtypes": {name: "bfloat16"},
"metadata": {...}}. Plain NumPy reads the right numbers; this reader gives the bfloat16 array back. Files from
earlier versions, which stored the uint16 bit patterns, still read.
"""
from __future__ import annotations

import json
import math
import os
import zipfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
from cellonnx.converters import zip_members
from cellonnx.converters.atomic import atomic_write
from cellonnx.converters.binio import report_written
from cellonnx.converters.errors import CheckpointError
from cellonnx.converters.tensors import Metadata, Tensors, checked

from cellonnx import dtypes

META_KEY = "__metadata__"


def read(path: str | os.PathLike[str]) -> tuple[Tensors, Metadata]:
    """Read an .npz file: arrays in archive order, plus the metadata stored by `write` (if any)."""
    path = Path(path)
    tensors: Tensors = {}
    try:
        with zipfile.ZipFile(path) as archive:
            for member in zip_members.members(path, archive).values():
                if not member.filename.endswith(".npy"):
                    continue
                tensors[member.filename[:-4]] = _read_member(path, archive, member)
    except CheckpointError:
        raise
    except (ValueError, OSError, EOFError, zipfile.BadZipFile, zipfile.LargeZipFile, KeyError, TypeError,
            RuntimeError, NotImplementedError) as exc:
        raise CheckpointError(path, f"not a valid .npz archive: {exc}") from None
    info = _parse_meta(path, tensors.pop(META_KEY, None))
    dtype_map = info.get("dtypes", {})
    if not isinstance(dtype_map, dict):
        raise CheckpointError(path, f"{META_KEY}: 'dtypes' must be an object")
    for name, dtype_name in dtype_map.items():
        if name not in tensors:
            raise CheckpointError(path, f"{META_KEY} names dtype {dtype_name!r} for {name!r}, which is absent")
        stored = tensors[name]
        if dtype_name != "bfloat16" or stored.dtype not in (np.float32, np.uint16):
            raise CheckpointError(path, f"{META_KEY}: {name!r} stored as {stored.dtype}, cannot be "
                                        f"{dtype_name!r} (expected float32 values, or uint16 bits, of bfloat16)")
        bf16 = dtypes.bfloat16.np_dtype
        tensors[name] = stored.view(bf16) if stored.dtype == np.uint16 else stored.astype(bf16)
    for name, array in tensors.items():
        try:
            dtypes.dtype(array.dtype)
        except TypeError as exc:
            raise CheckpointError(path, f"array {name!r}: {exc}") from None
    meta = info.get("metadata", {})
    return tensors, dict(meta) if isinstance(meta, dict) else {}


def _read_member(path: Path, archive: zipfile.ZipFile, member: zipfile.ZipInfo) -> np.ndarray:
    name = member.filename
    with archive.open(member) as f:
        try:
            version = np.lib.format.read_magic(f)
            if version == (1, 0):
                shape, _fortran, dtype = np.lib.format.read_array_header_1_0(f)
            elif version == (2, 0):
                shape, _fortran, dtype = np.lib.format.read_array_header_2_0(f)
            else:
                raise CheckpointError(path, f"member {name!r}: unsupported .npy version {version}")
        except CheckpointError:
            raise
        except Exception as exc:  # NumPy parses the header as a Python literal: any parser error can come out
            raise CheckpointError(path, f"member {name!r}: unreadable .npy header: {type(exc).__name__}: "
                                        f"{exc}") from None
        header_len = f.tell()
    if dtype.hasobject:
        raise CheckpointError(path, f"member {name!r} holds Python objects (dtype {dtype}); pickles are refused")
    claimed = math.prod(shape) * dtype.itemsize
    if claimed != member.file_size - header_len:
        raise CheckpointError(path, f"member {name!r}: header claims shape {shape} of {dtype} ({claimed} "
                                    f"bytes), the member holds {member.file_size - header_len}")
    with archive.open(member) as f:
        return np.lib.format.read_array(f, allow_pickle=False)


def write(path: str | os.PathLike[str], tensors: Mapping[str, Any], *,
          metadata: Mapping[str, Any] | None = None) -> None:
    """Write an uncompressed .npz archive (atomically). Metadata must be JSON-serialisable."""
    path = Path(path)
    arrays = checked(path, tensors, ".npz")
    if META_KEY in arrays:
        raise CheckpointError(path, f"{META_KEY!r} is reserved for metadata in .npz files")
    bf16 = {name for name, a in arrays.items() if a.dtype == dtypes.bfloat16.np_dtype}
    out = {name: (a.astype(np.float32) if name in bf16 else a) for name, a in arrays.items()}
    if bf16 or metadata:
        info = {"dtypes": {name: "bfloat16" for name in bf16}, "metadata": dict(metadata or {})}
        try:
            out[META_KEY] = np.array(json.dumps(info))
        except TypeError as exc:
            raise CheckpointError(path, f"metadata must be JSON-serialisable for .npz: {exc}") from None
    with atomic_write(path) as f, zipfile.ZipFile(f, "w", zipfile.ZIP_STORED, allowZip64=True) as archive:
        for name, array in out.items():
            with archive.open(name + ".npy", "w", force_zip64=True) as member:
                np.lib.format.write_array(member, np.asarray(array), allow_pickle=False)
            report_written(np.asarray(array).nbytes)


def _parse_meta(path: Path, entry: np.ndarray | None) -> dict[str, Any]:
    if entry is None:
        return {}
    try:
        info = json.loads(str(entry[()]))
        if not isinstance(info, dict):
            raise ValueError("not a JSON object")
    except (ValueError, TypeError, IndexError) as exc:
        raise CheckpointError(path, f"{META_KEY} entry is not the JSON this format writes: {exc}") from None
    return info
