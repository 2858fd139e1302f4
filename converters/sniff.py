"""Guess a checkpoint's format from its first bytes, to tell a user whose file carries the wrong extension what
it really is. Only a hint for error messages: readers never trust it."""
from __future__ import annotations

import zipfile
from pathlib import Path

_TORCH_LEGACY = b"\x80\x02\x8a\nl\xfc\x9cF\xf9 j\xa8P\x19"  # pickled magic number 0x1950a86a20f9469cfc6c
_MXNET_LIST = (0x112).to_bytes(8, "little")


def sniff(path: Path) -> str | None:
    """The format name the file's content looks like, or None when it looks like none of them."""
    try:
        with open(path, "rb") as f:
            head = f.read(32)
    except OSError:
        return None
    if head.startswith(b"PK\x03\x04"):
        return _zip_kind(path)
    if head.startswith(_TORCH_LEGACY):
        return "torch"
    if head.startswith(_MXNET_LIST):
        return "mxnet"
    if len(head) > 9 and head[8:9] == b"{" and int.from_bytes(head[:8], "little") < 100 << 20:
        return "safetensors"
    if head[:1] == b"\x0a" and len(head) > 3 and head[2:3] == b"\x0a":
        return "mindspore"  # Checkpoint.value (field 1) holding Value.tag (field 1)
    if head[:1] == b"\x08":
        return "onnx"  # ModelProto.ir_version (field 1, varint) comes first
    return None


def _zip_kind(path: Path) -> str | None:
    try:
        with zipfile.ZipFile(path) as zf:
            names = zf.namelist()
    except Exception:  # noqa: BLE001 - a hint only: zipfile raises many types on damaged archives
        return None
    if any(n == "data.pkl" or n.endswith("/data.pkl") for n in names):
        return "torch"
    if names and all(n.endswith(".npy") for n in names):
        return "npz"
    return None
