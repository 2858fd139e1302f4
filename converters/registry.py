"""The format table and the two entry points, `read` and `write`, that pick a format by extension or name."""
from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cellonnx.converters import (
    mindspore_format,
    mxnet_format,
    npz_format,
    onnx_format,
    safetensors_format,
    torch_format,
)
from cellonnx.converters.errors import CheckpointError
from cellonnx.converters.sniff import sniff
from cellonnx.converters.tensors import Metadata, Tensors


@dataclass(frozen=True)
class Format:
    """One checkpoint format: its name, file extensions, reader and writer, and what it can carry.

    Examples:
        >>> from cellonnx import converters
        >>> fmt = converters.get_format("weights.pth")
        >>> print(fmt.name, fmt.extensions)
        torch ('.pt', '.pth', '.bin')
    """

    name: str
    extensions: tuple[str, ...]
    reader: Callable[..., tuple[Tensors, Metadata]]
    writer: Callable[..., None]
    description: str
    crc: bool = False          # supports crc_check
    write_options: tuple[str, ...] = ()  # extra keyword options of the writer


FORMATS: dict[str, Format] = {f.name: f for f in (
    Format("onnx", (".onnx",), onnx_format.read, onnx_format.write,
           "ONNX model initializers (cellonnx's native checkpoint)", write_options=("external_data",)),
    Format("mindspore", (".ckpt",), mindspore_format.read, mindspore_format.write, "MindSpore .ckpt", crc=True),
    Format("mxnet", (".params",), mxnet_format.read, mxnet_format.write, "MXNet .params (nd.save)",
           write_options=("version",)),
    Format("torch", (".pt", ".pth", ".bin"), torch_format.read, torch_format.write, "PyTorch torch.save"),
    Format("safetensors", (".safetensors",), safetensors_format.read, safetensors_format.write, "safetensors",
           crc=True),
    Format("npz", (".npz",), npz_format.read, npz_format.write, "NumPy .npz"),
)}
_ALIASES = {"ckpt": "mindspore", "ms": "mindspore", "params": "mxnet", "pt": "torch", "pth": "torch",
            "pytorch": "torch", "st": "safetensors", "numpy": "npz"}


def get_format(path: str | os.PathLike[str] | None = None, format: str | None = None) -> Format:
    """The Format named by `format`, else the one whose extension `path` has.

    Raises:
        ValueError: unknown format name, or an extension no format claims.

    Examples:
        >>> from cellonnx import converters
        >>> print(converters.get_format("model.safetensors").name)
        safetensors
        >>> fmt = converters.get_format(format="ckpt")
        >>> print(fmt.name, fmt.extensions, fmt.crc)
        mindspore ('.ckpt',) True
    """
    if format:
        key = _ALIASES.get(format.lower(), format.lower())
        if key not in FORMATS:
            raise ValueError(f"unknown checkpoint format {format!r}; expected one of {sorted(FORMATS)}")
        return FORMATS[key]
    suffix = Path(path or "").suffix.lower()
    for fmt in FORMATS.values():
        if suffix in fmt.extensions:
            return fmt
    known = sorted(e for f in FORMATS.values() for e in f.extensions)
    raise ValueError(f"cannot tell the checkpoint format of {os.fspath(path or '')!r} from its extension "
                     f"{suffix or '(none)'}; name the format (--from / --to on the command line, format= in "
                     f"Python: one of {sorted(FORMATS)}) or use one of the extensions {known}")


def read(path: str | os.PathLike[str], format: str | None = None, crc_check: bool = False
         ) -> tuple[Tensors, Metadata]:
    """Read a checkpoint into an ordered {name: numpy.ndarray} dict and a metadata dict.

    Args:
        path: the file.
        format: a name from FORMATS (or an alias such as "ckpt", "pth"); default: from the extension.
        crc_check: verify (and require) a CRC; MindSpore .ckpt and safetensors only.

    Returns:
        (tensors, metadata). Arrays may be read-only or memory-mapped views of the file: copy before editing
        in place when that matters.

    Raises:
        CheckpointError: the file is damaged or not of that format (names the file and the problem).

    Examples:
        >>> from cellonnx.converters import read, write
        >>> write("fc.pth", {"fc.weight": np.ones((10, 512), np.float32)})
        >>> tensors, meta = read("fc.pth")
        >>> tensors["fc.weight"].shape
        (10, 512)
    """
    fmt = get_format(path, format)
    if Path(path).is_dir():
        raise IsADirectoryError(f"{os.fspath(path)}: is a directory, not a checkpoint file")
    if not Path(path).is_file():
        raise FileNotFoundError(f"{os.fspath(path)}: no such checkpoint file")
    if crc_check and not fmt.crc:
        raise ValueError(f"crc_check is supported by {[f.name for f in FORMATS.values() if f.crc]}, not {fmt.name}")
    if Path(path).stat().st_size == 0:
        raise CheckpointError(path, "is empty (0 bytes), not a checkpoint")
    try:
        return fmt.reader(path, crc_check=True) if crc_check else fmt.reader(path)
    except CheckpointError as exc:
        guess = sniff(Path(path))
        if guess is None or guess == fmt.name:
            raise
        other = FORMATS[guess]
        raise CheckpointError(path, f"{exc.message}; the file looks like a {other.description} file: name it "
                                    f"{other.extensions[0]} or name its format (--from {guess} on the command "
                                    f"line, format={guess!r} in Python)") from None


def write(path: str | os.PathLike[str], tensors: Mapping[str, Any], format: str | None = None,
          metadata: Mapping[str, Any] | None = None, crc_check: bool = False, **options: Any) -> None:
    """Write tensors (and metadata, where the format has room for it) atomically.

    Args:
        path: the file; written to a temp file beside it, then renamed into place.
        tensors: name -> array-like, in the order to store.
        format: a name from FORMATS; default: from the extension.
        metadata: format-specific extra values (see each format module).
        crc_check: add a CRC (MindSpore .ckpt, safetensors).
        options: format-specific writer options (`Format.write_options`).

    Examples:
        >>> from cellonnx.converters import read, write
        >>> write("w.safetensors", {"w": np.arange(3, dtype=np.float32)}, metadata={"epoch": 3})
        >>> tensors, meta = read("w.safetensors")
        >>> print(tensors["w"], meta)
        [0. 1. 2.] {'epoch': '3'}
    """
    fmt = get_format(path, format)
    if crc_check and not fmt.crc:
        raise ValueError(f"crc_check is supported by {[f.name for f in FORMATS.values() if f.crc]}, not {fmt.name}")
    unknown = set(options) - set(fmt.write_options)
    if unknown:
        raise TypeError(f"{fmt.name} writer has no option(s) {sorted(unknown)}; it takes {list(fmt.write_options)}")
    kwargs = dict(options, metadata=metadata)
    if crc_check:
        kwargs["crc_check"] = True
    fmt.writer(path, tensors, **kwargs)
