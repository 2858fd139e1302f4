"""PyTorch .pt / .pth / .bin checkpoints, read and written without torch.

Reading: the zip format (torch >= 1.6: `<archive>/data.pkl`, `byteorder`, `data/<key>` raw storages, `version`) and
the legacy pickle stream (magic number, protocol 1001, sys info, the object, the storage keys, then each storage as
i64 element count + bytes). The pickle goes through `torch_pickle.RestrictedUnpickler`; storages are memory-mapped
and tensors are views of them (storage offsets, strides, shared storages), so nothing is copied. Nested dicts and
lists are flattened to dotted keys; non-tensor leaves (epoch, lr, ...) go to the metadata.

Writing: the zip format as `torch.save` does it (stored members, ZIP64 when large, storages 64-byte aligned), one
storage per tensor, loadable by `torch.load(..., weights_only=True)`.
"""
from __future__ import annotations

import io
import math
import os
import pickle
import struct
import tarfile
import zipfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
from cellonnx.converters import zip_members
from cellonnx.converters.atomic import atomic_write
from cellonnx.converters.binio import BinaryReader, contiguous_le, empty_array, map_array, write_array
from cellonnx.converters.errors import CheckpointError
from cellonnx.converters.tensors import Metadata, Tensors, checked
from cellonnx.converters.torch_pickle import StorageRef, TensorRef, TorchDtype, storage_from_pid, unpickle

from cellonnx import dtypes

LEGACY_MAGIC = 0x1950A86A20F9469CFC6C
LEGACY_PROTOCOL = 1001
_MAX_DEPTH = 64
_MAX_VIEW_BYTES = 1 << 42  # a strided view (stride 0 repeats elements) that could never be materialised
_MAX_PICKLE = 64 << 20  # data.pkl holds names and structure, never tensor data: megabytes at most
_PLAIN = (type(None), bool, int, float, complex, str, bytes)


def read(path: str | os.PathLike[str]) -> tuple[Tensors, Metadata]:
    """Read a PyTorch checkpoint (zip or legacy) into flat tensors and metadata."""
    path = Path(path)
    if _looks_like_zip(path):
        obj, arrays = _read_zip(path)
    elif _is_tar(path):
        raise CheckpointError(path, "is a tar-based PyTorch checkpoint (torch < 0.4), which is not supported")
    else:
        obj, arrays = _read_legacy(path)
    tensors: Tensors = {}
    metadata: Metadata = {}
    _flatten(path, obj, "", tensors, metadata, arrays, 0)
    return tensors, metadata


def _looks_like_zip(path: Path) -> bool:
    try:
        return zipfile.is_zipfile(path)
    except (zipfile.BadZipFile, ValueError, struct.error):
        return True  # it has a zip end record, just a damaged one: let the zip reader say what is wrong


def _is_tar(path: Path) -> bool:
    try:
        return tarfile.is_tarfile(path)
    except (OSError, tarfile.TarError):
        return False


class _Storages:
    """Persistent-id storages seen in the pickle, one StorageRef per key (shared storages stay shared)."""

    def __init__(self) -> None:
        self.refs: dict[str, StorageRef] = {}

    def __call__(self, pid: tuple[Any, ...]) -> StorageRef:
        ref = storage_from_pid(pid)
        root = self.refs.setdefault(ref.key, StorageRef(ref.key, ref.dtype, ref.numel))
        if root.dtype != ref.dtype or root.numel != ref.numel:
            raise pickle.UnpicklingError(f"storage {ref.key!r} is named with two different types or sizes")
        return ref if ref.view else root


def _read_zip(path: Path) -> tuple[Any, _Raw]:
    try:
        with zipfile.ZipFile(path) as zf:
            members = zip_members.members(path, zf)
            pickles = [n for n in members
                       if (n.endswith("/data.pkl") and n.count("/") == 1) or n == "data.pkl"]
            if len(pickles) != 1:
                raise CheckpointError(path, f"zip holds {len(pickles)} data.pkl records, expected one "
                                            f"(<archive>/data.pkl); not a torch.save file")
            prefix = pickles[0][: -len("data.pkl")]
            byteorder = "little"
            if prefix + "byteorder" in members:
                record = zip_members.read_member(path, zf, members[prefix + "byteorder"], 16)
                byteorder = record.decode("ascii", "replace").strip()
                if byteorder not in ("little", "big"):
                    raise CheckpointError(path, f"byteorder record says {byteorder!r}, expected little or big")
            storages = _Storages()
            pickled = zip_members.read_member(path, zf, members[pickles[0]], _MAX_PICKLE)
            obj = unpickle(path, io.BytesIO(pickled), storages)
            arrays = {key: _zip_storage(path, zf, members, prefix, ref) for key, ref in storages.refs.items()}
    except CheckpointError:
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, EOFError, OSError, ValueError,
            KeyError, struct.error) as exc:
        raise CheckpointError(path, f"damaged zip archive: {type(exc).__name__}: {exc}") from None
    return obj, _Raw(arrays, byteorder == "little", storages.refs)


def _zip_storage(path: Path, zf: zipfile.ZipFile, members: dict[str, zipfile.ZipInfo], prefix: str,
                 ref: StorageRef) -> np.ndarray:
    name = f"{prefix}data/{ref.key}"
    info = members.get(name)
    if info is None:
        raise CheckpointError(path, f"storage {ref.key!r} is used by a tensor but {name!r} is missing")
    expected = ref.numel * ref.dtype.itemsize
    if info.file_size < expected:
        raise CheckpointError(path, f"storage {name!r} holds {info.file_size} bytes, expected {expected} "
                                    f"({ref.numel} x {ref.dtype.name})")
    if info.compress_type != zipfile.ZIP_STORED:
        return np.frombuffer(zip_members.read_member(path, zf, info, info.file_size), np.uint8, count=expected)
    with open(path, "rb") as f:
        r = BinaryReader(f, path)
        f.seek(info.header_offset)
        signature, name_len, extra_len = struct.unpack("<4s22xHH", r.read(30, f"local header of {name!r}"))
        if signature != b"PK\x03\x04":
            raise r.error(f"bad local header for {name!r}", info.header_offset)
        start = info.header_offset + 30 + name_len + extra_len
        if start + expected > r.size:
            raise CheckpointError(path, f"storage {name!r} runs past the end of the file")
    return map_array(path, start, np.dtype(np.uint8), (expected,))


def _read_legacy(path: Path) -> tuple[Any, _Raw]:
    def no_storage(pid: tuple[Any, ...]) -> StorageRef:
        raise pickle.UnpicklingError("storage reference outside the object pickle")

    with open(path, "rb") as f:
        magic = unpickle(path, f, no_storage)
        if magic != LEGACY_MAGIC:
            raise CheckpointError(path, "not a PyTorch checkpoint (neither a zip archive nor the legacy magic "
                                        "number)")
        protocol = unpickle(path, f, no_storage)
        if protocol != LEGACY_PROTOCOL:
            raise CheckpointError(path, f"legacy protocol version {protocol!r}, expected {LEGACY_PROTOCOL}")
        sys_info = unpickle(path, f, no_storage)
        little = not isinstance(sys_info, dict) or sys_info.get("little_endian", True)
        storages = _Storages()
        obj = unpickle(path, f, storages)
        keys = unpickle(path, f, no_storage)
        if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
            raise CheckpointError(path, "legacy storage key list is not a list of strings")
        r = BinaryReader(f, path)
        arrays: dict[str, np.ndarray] = {}
        for key in keys:
            ref = storages.refs.get(key)
            if ref is None:
                raise r.error(f"storage {key!r} is listed but no tensor uses it, so its type is unknown")
            (numel,) = struct.unpack("<q" if little else ">q", r.read(8, f"size of storage {key!r}"))
            if numel < 0:
                raise r.error(f"storage {key!r} has negative size {numel}")
            nbytes = numel * ref.dtype.itemsize
            offset = r.skip(nbytes, f"storage {key!r} ({numel} x {ref.dtype.name})")
            arrays[key] = map_array(path, offset, np.dtype(np.uint8), (nbytes,))
    missing = set(storages.refs) - set(arrays)
    if missing:
        raise CheckpointError(path, f"storages {sorted(missing)[:5]} are used but not stored")
    return obj, _Raw(arrays, little, storages.refs)


class _Raw:
    """The bytes of every storage (memory-mapped), their byte order and their element types."""

    def __init__(self, data: dict[str, np.ndarray], little: bool, refs: dict[str, StorageRef]) -> None:
        self.data, self.little, self.refs = data, little, refs


def _tensor(path: Path, name: str, ref: TensorRef, raw: _Raw) -> np.ndarray:
    data = raw.data[ref.storage.key]
    if ref.storage.view is not None:  # legacy storage views, counted in the root storage's elements
        _, view_offset, view_size = ref.storage.view
        item = raw.refs[ref.storage.key].dtype.itemsize
        if (view_offset + view_size) * item > data.size:
            raise CheckpointError(path, f"tensor {name!r}: storage view past the end of storage {ref.storage.key!r}")
        data = data[view_offset * item: (view_offset + view_size) * item]
    dtype = ref.dtype.np_dtype.newbyteorder("<" if raw.little else ">") if ref.dtype.itemsize > 1 \
        else ref.dtype.np_dtype
    base = data[: data.size // dtype.itemsize * dtype.itemsize].view(dtype)
    size, stride, offset = ref.size, ref.stride, ref.offset
    if len(size) != len(stride) or any(s < 0 for s in size) or any(s < 0 for s in stride) or offset < 0:
        raise CheckpointError(path, f"tensor {name!r}: size {size} / stride {stride} / offset {offset} invalid")
    if 0 in size:
        return empty_array(path, size, dtype)
    last = offset + sum((n - 1) * s for n, s in zip(size, stride))
    if last >= base.size:
        raise CheckpointError(path, f"tensor {name!r}: size {size}, stride {stride} at offset {offset} reaches "
                                    f"element {last}, storage {ref.storage.key!r} has {base.size}")
    numel = math.prod(size)
    if numel * dtype.itemsize > _MAX_VIEW_BYTES:
        raise CheckpointError(path, f"tensor {name!r}: size {size} claims {numel * dtype.itemsize:,} bytes as a "
                                    f"view of {base.nbytes:,} stored bytes (stride {stride})")
    if stride == _contiguous_strides(size):
        return base[offset: offset + numel].reshape(size)
    return np.lib.stride_tricks.as_strided(base[offset:], shape=size,
                                           strides=tuple(s * dtype.itemsize for s in stride), writeable=False)


def _contiguous_strides(size: tuple[int, ...]) -> tuple[int, ...]:
    strides, step = [], 1
    for n in reversed(size):
        strides.append(step)
        step *= max(n, 1)
    return tuple(reversed(strides))


def _flatten(path: Path, obj: Any, key: str, tensors: Tensors, metadata: Metadata, arrays: _Raw,
             depth: int) -> None:
    if depth > _MAX_DEPTH:
        raise CheckpointError(path, f"containers nest deeper than {_MAX_DEPTH} levels at {key!r}")
    if isinstance(obj, TensorRef):
        tensors[key or "tensor"] = _tensor(path, key, obj, arrays)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            _flatten(path, v, f"{key}.{k}" if key else str(k), tensors, metadata, arrays, depth + 1)
    elif isinstance(obj, (list, tuple)):
        for i, v in enumerate(obj):
            _flatten(path, v, f"{key}.{i}" if key else str(i), tensors, metadata, arrays, depth + 1)
    elif isinstance(obj, _PLAIN):
        metadata[key or "value"] = obj
    elif isinstance(obj, TorchDtype):
        metadata[key or "value"] = f"torch.{obj.name}"
    elif isinstance(obj, (set, frozenset)):
        metadata[key or "value"] = sorted(obj, key=repr)
    else:
        metadata[key or "value"] = repr(obj)


# ---------------------------------------------------------------------------------------------------- writing

_V3_DTYPES = {"uint16", "uint32", "uint64"}  # torch.storage._new_dtypes(): saved as UntypedStorage + dtype
_ALIGN = 64


class _Global:
    """A `module.name` global written into the pickle by name (torch is never imported)."""

    def __init__(self, module: str, name: str) -> None:
        self.module, self.name = module, name

    def __call__(self, *args: Any) -> Any:  # pickle's save_reduce wants a callable; this one is never called
        raise TypeError(f"{self.module}.{self.name} is a name written into a pickle, not a function")


class _Storage:
    def __init__(self, key: str, array: np.ndarray) -> None:
        dt = dtypes.dtype(array.dtype)
        self.untyped = dt.torch in _V3_DTYPES
        self.key = key
        self.type = _Global("torch.storage", "UntypedStorage") if self.untyped else _Global("torch", str(dt.torch_storage))
        self.numel = array.nbytes if self.untyped else array.size


class _Tensor:
    def __init__(self, storage: _Storage, array: np.ndarray) -> None:
        self.storage, self.shape = storage, tuple(array.shape)
        self.dtype = dtypes.dtype(array.dtype)

    def reduce(self) -> tuple[Any, tuple[Any, ...]]:
        args = (self.storage, 0, self.shape, _contiguous_strides(self.shape), False, _EMPTY_HOOKS)
        if self.storage.untyped:
            return _Global("torch._utils", "_rebuild_tensor_v3"), (*args, _Global("torch", str(self.dtype.torch)))
        return _Global("torch._utils", "_rebuild_tensor_v2"), args


class _EmptyHooks:
    pass


_EMPTY_HOOKS = _EmptyHooks()


class _Pickler(pickle._Pickler):  # the pure-Python pickler lets save_global write names it cannot import
    def __init__(self, file: BinaryIO) -> None:
        super().__init__(file, protocol=2)

    def persistent_id(self, obj: Any) -> Any:
        if isinstance(obj, _Storage):
            return ("storage", obj.type, obj.key, "cpu", obj.numel)
        return None

    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, _Global):
            return obj.name
        if isinstance(obj, _Tensor):
            return obj.reduce()
        if obj is _EMPTY_HOOKS:
            return _Global("collections", "OrderedDict"), ()
        return NotImplemented

    def save_global(self, obj: Any, name: str | None = None) -> None:
        if not isinstance(obj, _Global):
            raise pickle.PicklingError(f"cannot write {obj!r} into a torch checkpoint")
        self.write(pickle.GLOBAL + f"{obj.module}\n{obj.name}\n".encode())
        self.memoize(obj)


def write(path: str | os.PathLike[str], tensors: Mapping[str, Any], *,
          metadata: Mapping[str, Any] | None = None) -> None:
    """Write a flat state dict in torch's zip format (atomically).

    Args:
        metadata: plain values (None, bool, int, float, str) stored next to the tensors in the top-level dict.
    """
    path = Path(path)
    arrays = {name: contiguous_le(a) for name, a in checked(path, tensors, "PyTorch .pt").items()}
    state: dict[str, Any] = {}
    storages: list[tuple[_Storage, np.ndarray]] = []
    for i, (name, array) in enumerate(arrays.items()):
        storage = _Storage(str(i), array)
        storages.append((storage, array))
        state[name] = _Tensor(storage, array)
    for key, value in (metadata or {}).items():
        if key in state:
            raise CheckpointError(path, f"metadata key {key!r} is also a tensor name")
        if not isinstance(value, (type(None), bool, int, float, str)):
            raise CheckpointError(path, f"metadata {key!r} is {type(value).__name__}; only None, bool, int, "
                                        f"float and str are written")
        state[key] = value
    buffer = io.BytesIO()
    _Pickler(buffer).dump(state)
    archive = path.stem or "archive"
    with atomic_write(path) as f, zipfile.ZipFile(f, "w", zipfile.ZIP_STORED, allowZip64=True) as zf:
        _member(f, zf, f"{archive}/data.pkl", buffer.getvalue())
        _member(f, zf, f"{archive}/.format_version", b"1")
        _member(f, zf, f"{archive}/.storage_alignment", str(_ALIGN).encode())
        _member(f, zf, f"{archive}/byteorder", b"little")
        for storage, array in storages:
            _member(f, zf, f"{archive}/data/{storage.key}", array)
        _member(f, zf, f"{archive}/version", b"3\n")


def _member(f: BinaryIO, zf: zipfile.ZipFile, name: str, data: bytes | np.ndarray) -> None:
    size = len(data) if isinstance(data, bytes) else data.nbytes
    info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_STORED
    info.file_size = size
    zip64 = size >= 2**31
    raw_name = name.encode("utf-8")
    header = 30 + len(raw_name) + (20 if zip64 else 0) + 4  # + the padding field's own 4 bytes
    pad = (-(f.tell() + header)) % _ALIGN
    info.extra = b"FB" + struct.pack("<H", pad) + b"Z" * pad  # torch's own padding record
    with zf.open(info, "w", force_zip64=zip64) as out:
        if isinstance(data, bytes):
            out.write(data)
        else:
            write_array(out, data)  # type: ignore[arg-type]
