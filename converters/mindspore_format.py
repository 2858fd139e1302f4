"""MindSpore .ckpt files: a concatenation of serialized `Checkpoint` messages, optionally a CRC trailer.

Facts from mindspore/train/serialization.py (2.x):
- the writer emits one `Checkpoint{value: [Value]}` per tensor, or per chunk of a tensor over 512 MiB; chunks repeat
  the tag and the full dims, and the reader joins consecutive values with the same tag (a later, non-consecutive
  value with the same tag replaces the earlier one);
- scalars have dims [] (also read from [0]); strings (append_dict str values) are tensor_type "str", dims [0],
  content the UTF-32 bytes of `np.array(s)`;
- append_dict int / float / bool values become scalar Int64 / Float32 / Bool tensors;
- with crc_check=True the file ends with b"crc_num" + crc32 (of everything before it) as 10 big-endian bytes.

String entries stay in their place among the tensors, as MindSpore writes and loads them: `read_entries` and
`write_entries` keep one ordered dict; `read` / `write` (the registry's interface) split it into tensors and
metadata.

MindSpore parses the whole file as one message; here the records are framed one at a time (each is field 1,
length-delimited, of the concatenated Checkpoint) and their wire format is read only as far as the tag, dims and
tensor_type: the tensor_content stays in the memory-mapped file, and the arrays are views of it (every length is
checked against the bytes of the record it lies in, every dims product against the content's length). The writer
emits each record's header bytes, computed from the lengths up front, then the array's own buffer (no copy).
"""
from __future__ import annotations

import mmap
import os
import zlib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
from cellonnx.converters.atomic import atomic_write
from cellonnx.converters.binio import (
    contiguous_le,
    empty_array,
    encode_varint,
    little_endian,
    nbytes_of,
    raw_bytes,
    report_written,
)
from cellonnx.converters.errors import CheckpointError
from cellonnx.converters.tensors import Metadata, Tensors, checked

from cellonnx import dtypes

CRC_MARK = b"crc_num"
TRAILER_LEN = len(CRC_MARK) + 10
CHUNK_BYTES = 512 * 1024 * 1024  # MindSpore's slice size (SLICE_SIZE KiB)
_VALUE_FIELD_TAG = 0x0A  # field 1, wire type 2 (length-delimited)
_BY_TYPE = {d.name: d for d in dtypes.ALL}
_MAX_NDIM = 64

Entries = dict[str, np.ndarray | str]


def read(path: str | os.PathLike[str], *, crc_check: bool = False) -> tuple[Tensors, Metadata]:
    """Read a .ckpt file: numeric entries as arrays, string entries (append_dict str values) as metadata.

    A CRC trailer, when present, is always verified; `crc_check=True` additionally requires one.
    """
    entries = read_entries(path, crc_check=crc_check)
    tensors = {k: v for k, v in entries.items() if not isinstance(v, str)}
    metadata: Metadata = {k: v for k, v in entries.items() if isinstance(v, str)}
    return tensors, metadata


def read_entries(path: str | os.PathLike[str], *, crc_check: bool = False) -> Entries:
    """Read a .ckpt file into one dict in the file's order: arrays, and str for string entries (append_dict
    str values) in their place among them, as ``mindspore.load_checkpoint`` returns them.

    The arrays are views of the file, memory-mapped copy-on-write (a tensor cut in chunks is joined into one new
    array). A CRC trailer, when present, is always verified; `crc_check=True` additionally requires one.
    """
    path = Path(path)
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        end, expected_crc = _trailer(f, size)
        if crc_check and expected_crc is None:
            raise CheckpointError(path, "crc_check was asked for but the file has no crc_num trailer "
                                        "(saved without crc_check=True)")
        data = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_COPY) if size else b""
    entries, crc = _read_records(data, path, end, expected_crc is not None)
    if expected_crc is not None and crc != expected_crc:
        raise CheckpointError(path, f"CRC mismatch: trailer says {expected_crc}, data gives {crc} (damaged file)")
    return entries


def _trailer(f: BinaryIO, size: int) -> tuple[int, int | None]:
    if size >= TRAILER_LEN:
        f.seek(size - TRAILER_LEN)
        tail = f.read(TRAILER_LEN)
        if tail[: len(CRC_MARK)] == CRC_MARK:
            f.seek(0)
            return size - TRAILER_LEN, int.from_bytes(tail[len(CRC_MARK):], "big")
    f.seek(0)
    return size, None


class _Pending:
    """Chunks of one tag (each a (start, end) range of the file) until the next tag shows they are complete."""

    def __init__(self, path: Path, data: Any, tag: str, dims: tuple[int, ...], tensor_type: str,
                 first: tuple[int, int]) -> None:
        self.tag, self.dims, self.tensor_type = tag, dims, tensor_type
        self.chunks = [first]
        self.path, self.data = path, data

    def matches(self, tag: str) -> bool:
        return tag == self.tag

    def add(self, dims: tuple[int, ...], tensor_type: str, content: tuple[int, int]) -> None:
        if dims != self.dims or tensor_type != self.tensor_type:
            raise CheckpointError(self.path, f"tensor {self.tag!r}: chunk with dims {list(dims)} {tensor_type}, "
                                             f"earlier chunks had {list(self.dims)} {self.tensor_type}")
        self.chunks.append(content)

    def finish(self, entries: Entries) -> None:
        total = sum(e - s for s, e in self.chunks)
        if self.tensor_type == "str":
            raw = b"".join(self.data[s:e] for s, e in self.chunks)
            entries[self.tag] = _decode_str(self.path, self.tag, raw)
            return
        dt = _BY_TYPE.get(self.tensor_type)
        if dt is None:
            hint = " (4-bit qint4x2 weights)" if self.tensor_type == "Int4" else ""
            raise CheckpointError(self.path, f"tensor {self.tag!r} has tensor_type {self.tensor_type!r}{hint}; "
                                             f"supported: {sorted(_BY_TYPE) + ['str']}")
        shape = self.dims
        if shape == (0,) and total == dt.itemsize:
            shape = ()  # MindSpore's scalar spelling dims=[0]
        expected = nbytes_of(shape, dt.itemsize)
        if total != expected:
            raise CheckpointError(self.path, f"tensor {self.tag!r}: {total} bytes of data, expected {expected} "
                                             f"for dims {list(self.dims)} of {dt.name}")
        np_dtype = little_endian(dt.np_dtype)
        if total == 0:
            array = empty_array(self.path, shape, np_dtype)
        elif len(self.chunks) == 1:
            start, _ = self.chunks[0]
            array = np.frombuffer(self.data, np_dtype, total // dt.itemsize, start).reshape(shape)
        else:
            array = np.empty(shape, np_dtype)
            flat, at = raw_bytes(array), 0
            for s, e in self.chunks:
                flat[at: at + e - s] = np.frombuffer(self.data, np.uint8, e - s, s)
                at += e - s
        self.chunks.clear()
        entries[self.tag] = array


def _read_records(data: Any, path: Path, end: int, with_crc: bool) -> tuple[Entries, int]:
    """Frame the records of the concatenated Checkpoint (field 1, length-delimited) in data[:end]; the crc is
    computed over them only when the file has a trailer to compare it with."""
    entries: Entries = {}
    crc = 0
    pending: _Pending | None = None
    pos = 0
    view = memoryview(data)
    try:
        while pos < end:
            if data[pos] != _VALUE_FIELD_TAG:
                raise CheckpointError(path, f"at offset {pos}: byte {data[pos]:#04x}, expected "
                                            f"{_VALUE_FIELD_TAG:#04x} (a Checkpoint.value record); not a MindSpore "
                                            f"checkpoint or damaged")
            length, start = _varint(path, data, pos + 1, end, pos)
            if length > end - start:
                raise CheckpointError(path, f"at offset {pos}: record of {length} bytes, only {end - start} left")
            if with_crc:
                crc = zlib.crc32(view[pos: start + length], crc)
            tag, dims, tensor_type, content = _parse(path, data, start, start + length)
            pos = start + length
            if pending is not None and pending.matches(tag):
                pending.add(dims, tensor_type, content)
                continue
            if pending is not None:
                pending.finish(entries)
            pending = _Pending(path, data, tag, dims, tensor_type, content)
        if pending is not None:
            pending.finish(entries)
    finally:
        view.release()
    return entries, crc


def _varint(path: Path, data: Any, at: int, end: int, offset: int) -> tuple[int, int]:
    """The varint at data[at:end] and the position after it."""
    value = shift = 0
    for i in range(at, min(at + 10, end)):
        byte = data[i]
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, i + 1
    raise CheckpointError(path, f"at offset {offset}: truncated or over-long varint")


def _fields(path: Path, data: Any, pos: int, end: int, what: str) -> Iterator[tuple[int, int, int, int]]:
    """(field number, wire type, value or start, end) of each field of the message in data[pos:end]: the value
    for varints, the byte range for length-delimited, 64-bit and 32-bit fields."""
    while pos < end:
        key, pos = _varint(path, data, pos, end, pos)
        number, wire = key >> 3, key & 7
        if number == 0:
            raise CheckpointError(path, f"at offset {pos}: {what} has a field numbered 0 (damaged)")
        if wire == 0:
            value, pos = _varint(path, data, pos, end, pos)
            yield number, wire, value, pos
            continue
        if wire == 2:
            size, pos = _varint(path, data, pos, end, pos)
        elif wire in (1, 5):
            size = 8 if wire == 1 else 4
        else:
            raise CheckpointError(path, f"at offset {pos}: {what} field {number} has wire type {wire} "
                                        f"(not a MindSpore checkpoint record, or damaged)")
        if size > end - pos:
            raise CheckpointError(path, f"at offset {pos}: {what} field {number} of {size} bytes, only "
                                        f"{end - pos} left in the record")
        yield number, wire, pos, pos + size
        pos += size


def _text(path: Path, data: Any, start: int, end: int, what: str) -> str:
    try:
        return bytes(data[start:end]).decode("utf-8")
    except UnicodeDecodeError:
        raise CheckpointError(path, f"at offset {start}: {what} is not UTF-8") from None


def _parse(path: Path, data: Any, start: int, end: int) -> tuple[str, tuple[int, ...], str, tuple[int, int]]:
    """One Checkpoint.Value in data[start:end], parsed as far as needed: its tag, the tensor's dims and type, and
    where its content lies (the content itself is not read). Repeated fields merge as protobuf merges them; fields
    of other numbers or wire types are skipped as unknown fields."""
    tag = tensor_type = ""  # absent fields read as their defaults, as protobuf reads them
    dims: list[int] = []
    content = (start, start)
    has_tensor = has_map = False
    for number, wire, a, b in _fields(path, data, start, end, "Checkpoint.Value"):
        if number == 1 and wire == 2:
            tag = _text(path, data, a, b, "a tag")
        elif number == 2 and wire == 2:
            has_tensor, has_map = True, False
            for n, w, ta, tb in _fields(path, data, a, b, "TensorProto"):
                if n == 1 and w == 0:
                    dims.append(_int64(ta))
                elif n == 1 and w == 2:  # packed dims
                    at = ta
                    while at < tb:
                        if len(dims) > _MAX_NDIM:
                            break
                        d, at = _varint(path, data, at, tb, at)
                        dims.append(_int64(d))
                elif n == 2 and w == 2:
                    tensor_type = _text(path, data, ta, tb, "a tensor_type")
                elif n == 3 and w == 2:
                    content = (ta, tb)
                if len(dims) > _MAX_NDIM:
                    break
        elif number == 3 and wire == 2:
            has_tensor, has_map = False, True
        if len(dims) > _MAX_NDIM:
            break
    if len(dims) > _MAX_NDIM or any(d < 0 for d in dims):
        raise CheckpointError(path, f"tensor {tag!r} has dims {dims[:8]}: negative or too many")
    if has_map:
        raise CheckpointError(path, f"entry {tag!r} is a MapParameter (maptensor); only tensors are supported")
    if not has_tensor:
        raise CheckpointError(path, f"entry {tag!r} holds neither a tensor nor a maptensor")
    return tag, tuple(dims), tensor_type, content


def _int64(value: int) -> int:
    value &= (1 << 64) - 1
    return value - (1 << 64) if value >= 1 << 63 else value


def _decode_str(path: Path, tag: str, data: bytes) -> str:
    # numpy 'U' bytes: UTF-32-LE, padded with NULs that numpy drops when reading the value back
    try:
        return data.decode("utf-32-le").rstrip("\x00")
    except UnicodeDecodeError as exc:
        raise CheckpointError(path, f"string {tag!r} is not valid UTF-32: {exc}") from None


def write(path: str | os.PathLike[str], tensors: Mapping[str, Any], *, metadata: Mapping[str, Any] | None = None,
          crc_check: bool = False) -> None:
    """Write a .ckpt file (atomically) that `mindspore.load_checkpoint` reads: the tensors, then the metadata.

    Args:
        metadata: append_dict-style values: str -> "str" entries; int / float / bool -> scalar Int64 / Float32 /
            Bool tensors (as MindSpore's `Tensor(value)` makes them).
        crc_check: end the file with MindSpore's crc_num trailer.
    """
    path = Path(path)
    entries: dict[str, Any] = dict(tensors)
    for key, value in (metadata or {}).items():
        if key in entries:
            raise CheckpointError(path, f"metadata key {key!r} is also a tensor name")
        if isinstance(value, str):
            entries[key] = value
        elif isinstance(value, (bool, int, float)):
            kind = np.bool_ if isinstance(value, bool) else np.int64 if isinstance(value, int) else np.float32
            entries[key] = np.asarray(value, kind)
        else:
            raise CheckpointError(path, f"metadata {key!r} is {type(value).__name__}; a .ckpt stores only str, "
                                        f"int, float and bool values")
    write_entries(path, entries, crc_check=crc_check)


def write_entries(path: str | os.PathLike[str], entries: Mapping[str, Any], *,
                  crc_check: bool = False) -> None:
    """Write a .ckpt file (atomically) with the entries in the given order: str values as string entries (as
    MindSpore writes append_dict strings), anything else as an array.

    Args:
        crc_check: end the file with MindSpore's crc_num trailer.
    """
    path = Path(path)
    arrays = checked(path, {k: v for k, v in entries.items() if not isinstance(v, str)}, "MindSpore .ckpt")
    with atomic_write(path) as f:
        crc = 0
        for name in entries:
            value = arrays.get(name, entries[name])
            for header, content in _records(name, value):
                f.write(header)
                if content.size:
                    f.write(content.data)
                    report_written(content.nbytes)
                if crc_check:
                    crc = zlib.crc32(content.data, zlib.crc32(header, crc))
        if crc_check:
            f.write(CRC_MARK + crc.to_bytes(10, "big"))


def _records(name: str, value: np.ndarray | str) -> Iterator[tuple[bytes, np.ndarray]]:
    """One Checkpoint per tensor, or per 512 MiB chunk: its serialized bytes up to the tensor_content, and the
    content as a flat uint8 view of the array (not copied)."""
    if isinstance(value, str):
        content = np.frombuffer(np.array(value).tobytes(), np.uint8)
        yield _serialize(name, [0], "str", content.size), content
        return
    array = contiguous_le(value)
    dims = list(array.shape)
    tensor_type = dtypes.dtype(array.dtype).name
    flat = raw_bytes(array)
    for at in range(0, max(flat.size, 1), CHUNK_BYTES):
        chunk = flat[at: at + CHUNK_BYTES]
        yield _serialize(name, dims, tensor_type, chunk.size), chunk


def _serialize(name: str, dims: list[int], tensor_type: str, content_len: int) -> bytes:
    """The bytes of `Checkpoint{value: [Value{tag, tensor: TensorProto{dims, tensor_type, tensor_content}}]}` up to
    the tensor_content's bytes (which follow them), as protobuf serializes it (fields in number order, dims
    unpacked); lengths are computed from `content_len`."""
    tensor = bytearray()
    for d in dims:
        tensor += b"\x08" + encode_varint(int(d) & ((1 << 64) - 1))
    type_raw = tensor_type.encode("utf-8")
    tensor += b"\x12" + encode_varint(len(type_raw)) + type_raw
    tensor += b"\x1a" + encode_varint(content_len)
    tensor_len = len(tensor) + content_len
    tag_raw = name.encode("utf-8")
    value = b"\x0a" + encode_varint(len(tag_raw)) + tag_raw + b"\x12" + encode_varint(tensor_len)
    value_len = len(value) + tensor_len
    return bytes(b"\x0a" + encode_varint(value_len) + value + tensor)
