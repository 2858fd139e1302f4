"""Zip archives (PyTorch .pth, NumPy .npz) read without trusting their directories.

A zip's central directory may point several members at the same compressed bytes: each member then passes a
per-member inflation check while the archive as a whole inflates a thousand times per member. ``members``
reads every local header and refuses members whose data overlap, run past the central directory, or claim
more inflated bytes than deflate can produce from their compressed size, so that the whole archive can never
inflate to more than ``DEFLATE_RATIO`` times its own size. ``read_member`` reads one member into memory under
a byte cap.
"""
from __future__ import annotations

import itertools
import struct
import zipfile
from pathlib import Path

from cellonnx.converters.errors import CheckpointError

DEFLATE_RATIO = 1032  # deflate's largest expansion: 258 bytes from 2 bits


def members(path: Path, archive: zipfile.ZipFile) -> dict[str, zipfile.ZipInfo]:
    """The archive's members by name, after checking that their data are disjoint and plausible."""
    size = path.stat().st_size
    spans: list[tuple[int, int, str]] = []
    by_name: dict[str, zipfile.ZipInfo] = {}
    with open(path, "rb") as f:
        for info in archive.infolist():
            if info.filename in by_name:
                raise CheckpointError(path, f"zip names member {info.filename!r} twice")
            f.seek(info.header_offset)
            header = f.read(30)
            if len(header) < 30 or header[:4] != b"PK\x03\x04":
                raise CheckpointError(path, f"member {info.filename!r}: no local header at offset "
                                            f"{info.header_offset}")
            name_len, extra_len = struct.unpack("<HH", header[26:30])
            start = info.header_offset + 30 + name_len + extra_len
            end = start + info.compress_size
            if end > size:
                raise CheckpointError(path, f"member {info.filename!r}: {info.compress_size} bytes at offset "
                                            f"{start} run past the end of the {size}-byte file")
            kind = "stored" if info.compress_type == zipfile.ZIP_STORED else "deflated"
            if info.file_size > info.compress_size * (1 if kind == "stored" else DEFLATE_RATIO):
                raise CheckpointError(path, f"member {info.filename!r} claims {info.file_size} bytes from "
                                            f"{info.compress_size} {kind} bytes, more than they can hold")
            spans.append((info.header_offset, end, info.filename))
            by_name[info.filename] = info
    spans.sort()
    for (_, end, name), (start, _, other) in itertools.pairwise(spans):
        if start < end:
            raise CheckpointError(path, f"members {name!r} and {other!r} share bytes (offsets overlap): a "
                                        f"zip made to inflate one compressed stream many times")
    return by_name


def read_member(path: Path, archive: zipfile.ZipFile, info: zipfile.ZipInfo, cap: int) -> bytes:
    """The member's bytes, refusing before inflating when it claims more than ``cap`` bytes."""
    if info.file_size > cap:
        raise CheckpointError(path, f"member {info.filename!r} holds {info.file_size:,} bytes, more than the "
                                    f"{cap:,} a record of this kind may hold")
    return archive.read(info)
