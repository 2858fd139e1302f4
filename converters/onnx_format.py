"""ONNX as the native checkpoint: a ModelProto holding only initializers (any ONNX model reads as its initializers).

External data (tensors kept in side files, needed past protobuf's 2 GB limit) is read by memory-mapping the side
file; a location that leaves the model's folder is refused. Writing switches to one external data file
automatically when the tensors pass `EXTERNAL_THRESHOLD` bytes.
"""
from __future__ import annotations

import contextlib
import os
import re
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import onnx
from cellonnx.converters.atomic import atomic_write, remove_stale_temporaries
from cellonnx.converters.binio import (
    empty_array,
    little_endian,
    map_array,
    nbytes_of,
    report_written,
    write_array,
)
from cellonnx.converters.errors import CheckpointError
from cellonnx.converters.onnx_weights import parameter_initializers
from cellonnx.converters.proto_chunks import message_chunks
from cellonnx.converters.tensors import Metadata, Tensors, checked
from onnx import TensorProto, external_data_helper, helper, numpy_helper

from cellonnx import dtypes

EXTERNAL_THRESHOLD = 2**31 - 2**26  # stay clear of protobuf's 2 GiB message limit
_ALIGN = 4096  # external tensors start on page boundaries, so onnxruntime can map them
_INLINE_BELOW = 1024  # save_model keeps initializers smaller than this (bytes) inside the model


def read(path: str | os.PathLike[str]) -> tuple[Tensors, Metadata]:
    """Read the parameter initializers of an ONNX model (all initializers of a model that does not mark
    them: see `onnx_weights.parameter_initializers`), and its metadata_props as metadata."""
    path = Path(path)
    model = load_model(path, load_external=False)
    tensors: Tensors = {}
    for init in parameter_initializers(model):  # a cellonnx export's graph constants are no checkpoint
        tensors[init.name] = tensor_to_array(path, init)
    return tensors, {p.key: p.value for p in model.metadata_props}


def load_model(path: str | os.PathLike[str], *, load_external: bool = True) -> onnx.ModelProto:
    """onnx.load with errors as CheckpointError; external data is checked to stay in the model's folder."""
    path = Path(path)
    if not path.is_file():
        raise CheckpointError(path, "is a directory, not an ONNX file" if path.is_dir() else "no such file")
    try:
        model = onnx.load(path, load_external_data=False)
    except Exception as exc:  # protobuf DecodeError, OSError, ...
        raise CheckpointError(path, f"not a valid ONNX model: {type(exc).__name__}: {exc}") from None
    if model.graph.sparse_initializer:
        raise CheckpointError(path, f"sparse initializers ({model.graph.sparse_initializer[0].values.name!r} "
                                    f"...) are not supported")
    if load_external:
        for init in model.graph.initializer:
            if external_data_helper.uses_external_data(init):
                array = tensor_to_array(path, init)
                init.CopyFrom(numpy_helper.from_array(np.ascontiguousarray(array), init.name))
    return model


def tensor_to_array(path: Path, init: TensorProto) -> np.ndarray:
    """One initializer as an array: external data memory-mapped, inline data via onnx.numpy_helper."""
    try:
        dt = dtypes.from_onnx(init.data_type)
    except TypeError as exc:
        raise CheckpointError(path, f"initializer {init.name!r}: {exc}") from None
    shape = tuple(int(d) for d in init.dims)
    if any(d < 0 for d in shape):
        raise CheckpointError(path, f"initializer {init.name!r} has negative dims {shape}")
    if external_data_helper.uses_external_data(init):
        return _external(path, init, dt, shape)
    try:
        array = numpy_helper.to_array(init)
    except Exception as exc:
        raise CheckpointError(path, f"initializer {init.name!r}: cannot decode data: {exc}") from None
    if array.shape != shape:
        raise CheckpointError(path, f"initializer {init.name!r}: data for shape {array.shape}, dims say {shape}")
    return array


def _external(path: Path, init: TensorProto, dt: dtypes.DType, shape: tuple[int, ...]) -> np.ndarray:
    info = {e.key: e.value for e in init.external_data}
    location = info.get("location", "")
    folder = path.resolve().parent
    target = (folder / location).resolve()
    if not location or os.path.isabs(location) or folder not in target.parents:
        raise CheckpointError(path, f"initializer {init.name!r}: external data location {location!r} is outside "
                                    f"the model's folder {str(folder)!r}")
    if not target.is_file():
        raise CheckpointError(path, f"initializer {init.name!r}: external data file {location!r} not found")
    try:
        offset = int(info.get("offset", 0))
        length = int(info["length"]) if "length" in info else None
    except ValueError:
        raise CheckpointError(path, f"initializer {init.name!r}: bad external data offset/length") from None
    expected = nbytes_of(shape, dt.itemsize)
    size = target.stat().st_size
    if offset < 0 or (length is not None and length != expected) or offset + expected > size:
        raise CheckpointError(path, f"initializer {init.name!r}: needs {expected} bytes at offset {offset} of "
                                    f"{location!r} (length {length}), the file has {size}")
    if expected == 0:
        return empty_array(path, shape, little_endian(dt.np_dtype))
    return map_array(target, offset, little_endian(dt.np_dtype), shape)


def write(path: str | os.PathLike[str], tensors: Mapping[str, Any], *, metadata: Mapping[str, Any] | None = None,
          external_data: bool | None = None) -> None:
    """Write tensors as an initializer-only ONNX model (atomically).

    Args:
        metadata: stored as the model's metadata_props (values as strings).
        external_data: keep tensor data in a `<name>.<hex>.data` file beside the model (see `data_location`).
            Default: only past ~2 GB.
    """
    path = Path(path)
    arrays = checked(path, tensors, "ONNX")
    total = sum(a.nbytes for a in arrays.values())
    external = total > EXTERNAL_THRESHOLD if external_data is None else external_data
    graph = helper.make_graph([], "checkpoint", [], [])
    if external:
        location = data_location(path)
        with atomic_write(path.parent / location) as f:
            for name, array in arrays.items():
                f.write(b"\0" * ((-f.tell()) % _ALIGN))
                offset = f.tell()
                write_array(f, array)
                graph.initializer.append(_external_tensor(name, array, location, offset))
    else:
        graph.initializer.extend(numpy_helper.from_array(np.asarray(a), name) for name, a in arrays.items())
    model = helper.make_model(graph, producer_name="cellonnx")
    for key, value in (metadata or {}).items():
        model.metadata_props.add(key=str(key), value=str(value))
    save_model(model, path)


def _external_tensor(name: str, array: np.ndarray, location: str, offset: int) -> TensorProto:
    tensor = TensorProto(name=name, data_type=dtypes.dtype(array.dtype).onnx, dims=list(array.shape))
    # (onnx's set_external_data insists on raw_data being present first; the entries are these three)
    for key, value in (("location", location), ("offset", str(offset)), ("length", str(array.nbytes))):
        tensor.external_data.add(key=key, value=value)
    tensor.data_location = TensorProto.EXTERNAL
    return tensor


def save_model(model: onnx.ModelProto, path: str | os.PathLike[str], external_data: bool | None = None) -> None:
    """Serialize a model atomically. Its tensors go to a `<name>.<hex>.data` file beside it when
    `external_data` is True, or by default once the inline tensors pass ~2 GB (protobuf's limit). The data
    file the model replaced is removed once the new model is in place."""
    path = Path(path)
    inline = sum(_inline_nbytes(t) for t in model.graph.initializer
                 if t.data_location != TensorProto.EXTERNAL)
    if external_data or (external_data is None and inline > EXTERNAL_THRESHOLD):
        # small tensors (shape constants, scalars) stay inline: shape inference reads their values, and
        # onnxruntime's cannot read them from external data
        moved = [t for t in model.graph.initializer
                 if t.data_location != TensorProto.EXTERNAL and _inline_nbytes(t) >= _INLINE_BELOW]
        tensors = {t.name: numpy_helper.to_array(t) for t in moved}
        location = data_location(path)
        with atomic_write(path.parent / location) as f:
            for init in moved:
                f.write(b"\0" * ((-f.tell()) % _ALIGN))
                offset = f.tell()
                write_array(f, tensors[init.name])
                init.CopyFrom(_external_tensor(init.name, tensors[init.name], location, offset))
        del tensors
    with atomic_write(path) as f:
        for chunk in message_chunks(model):
            f.write(chunk)
            report_written(len(chunk))
    _remove_replaced_data(path, _locations(model))


def data_location(path: Path) -> str:
    """A new name for the external data of the model at ``path``: ``<model file>.<8 hex digits>.data``.

    A save never writes over the data file the model now on disk reads: it writes a new one, then replaces the
    model, then removes the old data. Killed at any point, the model on disk and the data it names agree.
    """
    return f"{path.name}.{secrets.token_hex(4)}.data"


def _locations(model: onnx.ModelProto) -> set[str]:
    return {e.value for t in model.graph.initializer for e in t.external_data if e.key == "location"}


def data_files(path: str | os.PathLike[str]) -> list[Path]:
    """The external data files the ONNX model at ``path`` reads (none when its tensors are inline)."""
    path = Path(path)
    return sorted(path.parent / name for name in _locations(load_model(path, load_external=False)))


def _remove_replaced_data(path: Path, keep: set[str]) -> None:
    """Remove the data files earlier saves of this model wrote (and any a killed save left) except ``keep``."""
    name = re.escape(path.name) + r"(\.[0-9a-f]{8})?\.data"
    pattern = re.compile(name)
    folder = path.parent if str(path.parent) else Path(".")
    remove_stale_temporaries(folder, name)
    for entry in folder.iterdir():
        if pattern.fullmatch(entry.name) and entry.name not in keep:
            with contextlib.suppress(OSError):
                entry.unlink()


def _inline_nbytes(t: TensorProto) -> int:
    # from the dims: reading raw_data would copy it
    return nbytes_of(tuple(int(d) for d in t.dims), helper.tensor_dtype_to_np_dtype(t.data_type).itemsize)
