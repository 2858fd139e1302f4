"""Bounded little-endian reading of binary checkpoint files.

Every size a file claims is checked against the bytes actually left before anything is allocated, and every
failure becomes a CheckpointError naming the file, the offset and what was expected.
"""
from __future__ import annotations

import math
import os
import struct
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
from cellonnx.converters.errors import CheckpointError


class BinaryReader:
    """Reads fixed-size fields and raw blocks from an open file, never past its end."""

    def __init__(self, f: BinaryIO, path: str | os.PathLike[str], size: int | None = None) -> None:
        self.f = f
        self.path = Path(path)
        self.size = os.fstat(f.fileno()).st_size if size is None else size

    def tell(self) -> int:
        return self.f.tell()

    def remaining(self) -> int:
        return self.size - self.f.tell()

    def error(self, message: str, offset: int | None = None) -> CheckpointError:
        at = self.tell() if offset is None else offset
        return CheckpointError(self.path, f"at offset {at}: {message}")

    def read(self, n: int, what: str) -> bytes:
        """Exactly `n` bytes, or a CheckpointError saying what was being read."""
        if n < 0 or n > self.remaining():
            raise self.error(f"{what} needs {n} bytes but only {self.remaining()} are left")
        data = self.f.read(n)
        if len(data) != n:
            raise self.error(f"{what}: file ended early ({len(data)} of {n} bytes)")
        return data

    def unpack(self, fmt: str, what: str) -> tuple[int, ...]:
        return struct.unpack("<" + fmt, self.read(struct.calcsize("<" + fmt), what))

    def u32(self, what: str) -> int:
        return int(self.unpack("I", what)[0])

    def i32(self, what: str) -> int:
        return int(self.unpack("i", what)[0])

    def u64(self, what: str) -> int:
        return int(self.unpack("Q", what)[0])

    def i64(self, what: str) -> int:
        return int(self.unpack("q", what)[0])

    def skip(self, n: int, what: str) -> int:
        """Move past `n` bytes (checked against the end of the file); returns where they started."""
        start = self.tell()
        if n < 0 or n > self.remaining():
            raise self.error(f"{what} needs {n} bytes but only {self.remaining()} are left")
        self.f.seek(n, os.SEEK_CUR)
        return start

    def count(self, n: int, min_item_bytes: int, what: str) -> int:
        """Check that `n` items of at least `min_item_bytes` each can still fit in the file."""
        if n < 0 or n * max(min_item_bytes, 1) > self.remaining():
            raise self.error(f"{what} claims {n} entries, more than the {self.remaining()} bytes left can hold")
        return n


def nbytes_of(shape: tuple[int, ...], itemsize: int) -> int:
    """Bytes of a C-order array; Python ints, so a corrupt shape cannot overflow."""
    return math.prod(shape) * itemsize


def map_array(path: str | os.PathLike[str], offset: int, dtype: np.dtype, shape: tuple[int, ...]) -> np.ndarray:
    """The array stored at `offset` in `path`, memory-mapped copy-on-write (nothing is read until used).

    The caller has already checked that the bytes lie inside the file. Writable: changes stay in memory.
    """
    if nbytes_of(shape, dtype.itemsize) == 0:
        return empty_array(path, shape, dtype)
    return np.memmap(path, dtype=dtype, mode="c", offset=offset, shape=shape).view(np.ndarray)


def empty_array(path: str | os.PathLike[str], shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """A zero-size array; a shape like (0, 2**62, 2**62) that NumPy cannot even describe is a CheckpointError."""
    try:
        return np.zeros(shape, dtype)
    except (ValueError, OverflowError) as exc:
        raise CheckpointError(path, f"shape {shape[:8]} cannot be represented: {exc}") from None


def little_endian(dtype: np.dtype) -> np.dtype:
    """`dtype` with little-endian byte order (files store little-endian data)."""
    return dtype if dtype.itemsize == 1 else dtype.newbyteorder("<")


def contiguous_le(array: np.ndarray) -> np.ndarray:
    """A C-contiguous little-endian version of `array`, copied only if it is not one already."""
    array = np.asarray(array)
    if array.dtype.byteorder == ">":
        array = array.astype(array.dtype.newbyteorder("<"))
    return array if array.flags.c_contiguous else array.copy(order="C")  # keeps 0-d arrays 0-d


_on_written: ContextVar[Callable[[int], Any] | None] = ContextVar("on_bytes_written", default=None)


@contextmanager
def on_bytes_written(callback: Callable[[int], Any]) -> Iterator[None]:
    """Call ``callback(n)`` as the writers put n bytes of tensor data on disk (a progress display's hook)."""
    token = _on_written.set(callback)
    try:
        yield
    finally:
        _on_written.reset(token)


def report_written(n: int) -> None:
    """Tell the ``on_bytes_written`` callback, if any, that ``n`` more bytes were written."""
    callback = _on_written.get()
    if callback is not None and n:
        callback(n)


def write_array(f: BinaryIO, array: np.ndarray) -> None:
    """Write the raw C-order little-endian bytes of `array` without an extra full copy."""
    array = contiguous_le(array)
    if array.nbytes:
        f.write(memoryview(raw_bytes(array)))
        report_written(array.nbytes)


def raw_bytes(array: np.ndarray) -> np.ndarray:
    """The bytes of a C-contiguous array as a flat uint8 view (works for every dtype, bfloat16 included)."""
    return array.reshape(-1).view(np.uint8)


def encode_varint(value: int) -> bytes:
    """A non-negative int as a protobuf varint."""
    out = bytearray()
    while value > 0x7F:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)
