"""A restricted unpickler for PyTorch checkpoints, as strict as `torch.load(weights_only=True)`, without torch.

`find_class` allows only an explicit list of globals (the tensor rebuild functions, storage types, dtypes,
torch.Size, OrderedDict and a few plain builtins) and maps each to a local stand-in; anything else is refused with
a CheckpointError before it is looked up. No module named by a file is ever imported and nothing from it runs.
Tensors come out as `TensorRef`s (storage, offset, size, stride, dtype) for the caller to materialise.
"""
from __future__ import annotations

import io
import os
import pickle
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cellonnx.converters import pickle_scan
from cellonnx.converters.errors import CheckpointError

from cellonnx import dtypes


class _Frozen:
    """Pickle's BUILD opcode may not change a stand-in (they are shared by every load)."""

    def __setstate__(self, state: Any) -> None:
        raise pickle.UnpicklingError(f"{self!r} cannot take state from a pickle")


@dataclass(frozen=True)
class StorageType(_Frozen):
    """`torch.FloatStorage` ... (dtype known) or `torch.UntypedStorage` (bytes; dtype from the tensor)."""

    name: str
    dtype: dtypes.DType | None


@dataclass(frozen=True)
class TorchDtype(_Frozen):
    """`torch.float32` ... as named in a pickle."""

    name: str
    dtype: dtypes.DType | None  # None for torch dtypes without a cellonnx counterpart (complex, float8 ...)


@dataclass
class StorageRef(_Frozen):
    """A storage named by a persistent id: `key` locates its bytes (zip member data/<key> or legacy record)."""

    key: str
    dtype: dtypes.DType  # element type (uint8 for untyped storages)
    numel: int
    view: tuple[str, int, int] | None = None  # legacy storage views: (view key, offset, size)


@dataclass
class TensorRef(_Frozen):
    """A tensor to build: `dtype` elements viewed from `storage` at `offset` with `size` and `stride`."""

    storage: StorageRef
    offset: int
    size: tuple[int, ...]
    stride: tuple[int, ...]
    dtype: dtypes.DType


class _Marker(_Frozen):
    """A class named by a pickle only to be passed around (torch.Tensor, Parameter): never instantiated."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise pickle.UnpicklingError(f"{self.name} may not be called from a pickle")

    def __repr__(self) -> str:
        return self.name


def _ints(value: Any, what: str) -> tuple[int, ...]:
    if not isinstance(value, (tuple, list)) or not all(isinstance(v, int) and not isinstance(v, bool)
                                                       for v in value):
        raise pickle.UnpicklingError(f"{what} must be a tuple of ints, got {value!r:.80}")
    return tuple(value)


def _rebuild_tensor(storage: Any, storage_offset: Any, size: Any, stride: Any) -> TensorRef:
    if not isinstance(storage, StorageRef):
        raise pickle.UnpicklingError(f"tensor storage must be a typed storage reference, got {storage!r:.80}")
    if not isinstance(storage_offset, int):
        raise pickle.UnpicklingError(f"storage offset must be an int, got {storage_offset!r:.80}")
    return TensorRef(storage, storage_offset, _ints(size, "size"), _ints(stride, "stride"), storage.dtype)


def _rebuild_tensor_v2(storage: Any, storage_offset: Any, size: Any, stride: Any, requires_grad: Any = False,
                       backward_hooks: Any = None, metadata: Any = None) -> TensorRef:
    return _rebuild_tensor(storage, storage_offset, size, stride)


def _rebuild_tensor_v3(storage: Any, storage_offset: Any, size: Any, stride: Any, requires_grad: Any,
                       backward_hooks: Any, dtype: Any, metadata: Any = None) -> TensorRef:
    ref = _rebuild_tensor(storage, storage_offset, size, stride)
    if not isinstance(dtype, TorchDtype):
        raise pickle.UnpicklingError(f"tensor dtype must be a torch dtype, got {dtype!r:.80}")
    if dtype.dtype is None:
        raise pickle.UnpicklingError(f"torch.{dtype.name} tensors have no cellonnx dtype")
    ref.dtype = dtype.dtype
    return ref


def _rebuild_parameter(data: Any, requires_grad: Any, backward_hooks: Any, state: Any = None) -> Any:
    if not isinstance(data, TensorRef):
        raise pickle.UnpicklingError("a Parameter must wrap a tensor")
    return data


def _rebuild_from_type_v2(func: Any, new_type: Any, args: Any, state: Any) -> Any:
    if func not in _REBUILD_FUNCS or not isinstance(args, tuple):
        raise pickle.UnpicklingError(f"_rebuild_from_type_v2 may only call a tensor rebuild function, got {func!r}")
    if new_type not in (_TENSOR, _PARAMETER):
        raise pickle.UnpicklingError(f"tensor subclass {new_type!r} is not allowed")
    return func(*args)


def _size(items: Any = ()) -> tuple[int, ...]:
    return _ints(tuple(items), "torch.Size")


def _device(*args: Any) -> str:
    return ":".join(str(a) for a in args)


def _bytearray(data: Any = b"", encoding: Any = None) -> bytearray:
    """bytearray as pickles write it (from bytes, or from text and 'latin-1'); never from a size, which would
    allocate that many bytes from a few in the file."""
    if isinstance(data, bytes) and encoding is None:
        return bytearray(data)
    if isinstance(data, str) and encoding in ("latin1", "latin-1"):
        return bytearray(data, encoding)
    raise pickle.UnpicklingError(f"bytearray may only be rebuilt from bytes here, got {type(data).__name__}")


def _codecs_encode(text: Any, encoding: Any = "utf-8") -> bytes:
    if not isinstance(text, str) or encoding not in ("latin1", "latin-1", "utf-8", "utf8"):
        raise pickle.UnpicklingError("_codecs.encode only decodes text to bytes here")
    return text.encode(encoding)


_TENSOR = _Marker("torch.Tensor")
_PARAMETER = _Marker("torch.nn.Parameter")
_REBUILD_FUNCS = (_rebuild_tensor, _rebuild_tensor_v2, _rebuild_tensor_v3)


def _allowed() -> dict[tuple[str, str], Any]:
    allowed: dict[tuple[str, str], Any] = {
        ("collections", "OrderedDict"): OrderedDict,
        ("torch._utils", "_rebuild_tensor"): _rebuild_tensor,
        ("torch._utils", "_rebuild_tensor_v2"): _rebuild_tensor_v2,
        ("torch._utils", "_rebuild_tensor_v3"): _rebuild_tensor_v3,
        ("torch._utils", "_rebuild_parameter"): _rebuild_parameter,
        ("torch._utils", "_rebuild_parameter_with_state"): _rebuild_parameter,
        ("torch._tensor", "_rebuild_from_type_v2"): _rebuild_from_type_v2,
        ("torch", "Size"): _size,
        ("torch", "device"): _device,
        ("torch", "Tensor"): _TENSOR,
        ("torch._tensor", "Tensor"): _TENSOR,
        ("torch.nn.parameter", "Parameter"): _PARAMETER,
        ("torch", "UntypedStorage"): StorageType("UntypedStorage", None),
        ("torch.storage", "UntypedStorage"): StorageType("UntypedStorage", None),
        ("_codecs", "encode"): _codecs_encode,
        ("builtins", "set"): set,
        ("builtins", "frozenset"): frozenset,
        ("builtins", "bytearray"): _bytearray,
        ("builtins", "complex"): complex,
    }
    for d in dtypes.ALL:
        if d.torch_storage:
            allowed[("torch", d.torch_storage)] = StorageType(d.torch_storage, d)
        if d.torch:
            allowed[("torch", d.torch)] = TorchDtype(d.torch, d)
    for alias, d in (("float", dtypes.float32), ("double", dtypes.float64), ("half", dtypes.float16),
                     ("long", dtypes.int64), ("int", dtypes.int32), ("short", dtypes.int16)):
        allowed[("torch", alias)] = TorchDtype(alias, d)
    for other in ("complex64", "complex128", "complex32", "cfloat", "cdouble", "float8_e4m3fn", "float8_e5m2",
                  "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e8m0fnu", "bits8", "bits16", "qint8", "quint8",
                  "qint32"):
        allowed[("torch", other)] = TorchDtype(other, None)
    return allowed


_ALLOWED = _allowed()
_PY2_MODULES = {"__builtin__": "builtins", "copy_reg": "copyreg", "_codecs": "_codecs"}


class RestrictedUnpickler(pickle.Unpickler):
    """Unpickles tensors and plain data only; every other global raises pickle.UnpicklingError."""

    def __init__(self, file: Any, storage: Callable[[tuple[Any, ...]], StorageRef]) -> None:
        super().__init__(file, encoding="utf-8")
        self._storage = storage

    def find_class(self, module: str, name: str) -> Any:
        key = (_PY2_MODULES.get(module, module), name)
        try:
            return _ALLOWED[key]
        except KeyError:
            raise pickle.UnpicklingError(f"refusing global {module}.{name}: only tensors, containers and plain "
                                         f"values may be loaded (as torch.load(weights_only=True) allows)") from None

    def persistent_load(self, pid: Any) -> Any:
        if not isinstance(pid, tuple) or not pid or pid[0] != "storage":
            raise pickle.UnpicklingError(f"unknown persistent id {pid!r:.80}")
        return self._storage(pid)


def storage_from_pid(pid: tuple[Any, ...]) -> StorageRef:
    """Check a persistent id ('storage', storage_type, key, location, numel[, view_metadata])."""
    if len(pid) not in (5, 6):
        raise pickle.UnpicklingError(f"storage id has {len(pid)} fields, expected 5 or 6")
    _, stype, key, _location, numel = pid[:5]
    if not isinstance(stype, StorageType):
        raise pickle.UnpicklingError(f"storage type must be a torch storage class, got {stype!r:.80}")
    if not isinstance(key, str) or not isinstance(numel, int) or numel < 0:
        raise pickle.UnpicklingError(f"bad storage key/size {key!r:.40} / {numel!r:.40}")
    view = None
    if len(pid) == 6 and pid[5] is not None:
        meta = pid[5]
        if not (isinstance(meta, tuple) and len(meta) == 3 and isinstance(meta[0], str)
                and all(isinstance(v, int) and v >= 0 for v in meta[1:])):
            raise pickle.UnpicklingError(f"bad storage view metadata {meta!r:.80}")
        view = (meta[0], meta[1], meta[2])
    return StorageRef(key, stype.dtype or dtypes.uint8, numel, view)


class _Capped(io.RawIOBase):
    """A read-only view of a file that never hands out (or asks for) more than the bytes left in it.

    The C unpickler allocates the full length a BINBYTES opcode claims before reading; pickletools' scan reads
    through this view first, so a claimed length past the end of the file fails before any allocation.
    """

    def __init__(self, f: Any, end: int) -> None:
        super().__init__()
        self._f, self._end = f, end

    def readable(self) -> bool:
        return True

    def _left(self) -> int:
        return max(self._end - self._f.tell(), 0)

    def read(self, n: int | None = -1) -> bytes:
        left = self._left()
        return self._f.read(left if n is None or n < 0 else min(n, left))

    def readinto(self, buffer: Any) -> int:
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)

    def readline(self, limit: int | None = -1) -> bytes:
        left = self._left()
        return self._f.readline(left if limit is None or limit < 0 else min(limit, left))

    def tell(self) -> int:
        return int(self._f.tell())

    def seek(self, offset: int, whence: int = 0) -> int:
        return int(self._f.seek(offset, whence))


def unpickle(path: str | os.PathLike[str], file: Any, storage: Callable[[tuple[Any, ...]], StorageRef],
             end: int | None = None) -> Any:
    """Run the restricted unpickler on the pickle at the current position of `file` (which ends by `end`).

    The opcodes are scanned first (pickletools) so that damaged lengths fail without allocation; any failure
    (refused global, bad opcode, truncation) is a CheckpointError.
    """
    if end is None:
        here = file.tell()
        file.seek(0, os.SEEK_END)
        end = file.tell()
        file.seek(here)
    capped = _Capped(file, end)
    start = capped.tell()
    try:  # (bytes in memory scan three times faster than through the capped view)
        pickle_scan.scan(file.getvalue()[start:end] if isinstance(file, io.BytesIO) else capped)
    except pickle_scan.PickleRefused as exc:
        raise CheckpointError(path, f"refusing the pickle at offset {start}: {exc}") from None
    except Exception as exc:  # pickletools raises ValueError and others on damaged streams
        raise CheckpointError(path, f"corrupt pickle at offset {start}: {exc}") from None
    capped.seek(start)
    try:
        return RestrictedUnpickler(capped, storage).load()
    except CheckpointError:
        raise
    except RecursionError:
        raise CheckpointError(path, "pickle nests too deeply") from None
    except MemoryError:
        raise CheckpointError(path, "pickle asks for more memory than available") from None
    except Exception as exc:  # the C unpickler raises many types on corrupt input
        raise CheckpointError(Path(path), f"unsafe or corrupt pickle: {type(exc).__name__}: {exc}") from None
