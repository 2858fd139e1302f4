"""Reading a Triton model repository as tritonserver does: REPO/NAME/config.pbtxt (Triton's ModelConfig in
protobuf text format, parsed against model_config.proto) and numbered version folders
REPO/NAME/<v>/model.onnx, of which the config's version_policy picks the ones to serve (latest
{num_versions}, all, specific).

Only ONNX models are served (platform onnxruntime_onnx or backend onnxruntime). A model folder without
config.pbtxt is configured from its ONNX file as `cellonnx export-triton` would write it.
"""
from __future__ import annotations

import hashlib
import os
from collections.abc import Hashable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from google.protobuf import json_format, text_format
from tritonclient.grpc import model_config_pb2

from cellonnx.serve.errors import ModelLoadError
from cellonnx.serve.model import Signature

ModelConfig = model_config_pb2.ModelConfig
CONFIG_FILE = "config.pbtxt"
DEFAULT_FILENAME = "model.onnx"
_PLATFORMS = ("", "onnxruntime_onnx")
_BACKENDS = ("", "onnxruntime")
DEVICE_OF_KIND = {"KIND_CPU": "cpu", "KIND_GPU": "gpu"}


@dataclass(frozen=True)
class ModelSource:
    """What one repository folder asks to serve.

    Args:
        name: the folder's name (the model's name).
        config: its ModelConfig (defaults where config.pbtxt is missing).
        versions: version -> model file, for the versions the version policy selects.
        has_config: whether the folder had a config.pbtxt.
        fingerprint: changes whenever config.pbtxt or a selected version's files change.
    """

    name: str
    config: Any
    versions: dict[str, Path]
    has_config: bool
    fingerprint: Hashable


def model_names(root: str | os.PathLike[str]) -> list[str]:
    """The model folders of a repository (hidden folders left out), sorted."""
    root = Path(root)
    if not root.is_dir():
        raise ModelLoadError(f"no model repository folder at {root}")
    return sorted(p.name for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))


def parse_config(text: str, where: str = CONFIG_FILE) -> Any:
    """A ModelConfig from config.pbtxt text; ModelLoadError names the file and the line protobuf gives."""
    try:
        return text_format.Parse(text, ModelConfig())
    except text_format.ParseError as exc:
        raise ModelLoadError(f"{where}: not a Triton ModelConfig: {exc}") from None


def _file_stamp(path: Path) -> tuple[str, int, int]:
    stat = path.stat()
    return (str(path), stat.st_size, stat.st_mtime_ns)


def _version_stamp(folder: Path) -> tuple[tuple[str, int, int], ...]:
    return tuple(sorted(_file_stamp(p) for p in folder.rglob("*") if p.is_file()))


def select_versions(config: Any, available: list[int], where: str) -> list[int]:
    """The versions the config's version_policy serves, out of the numbered folders `available`."""
    policy = config.version_policy
    which = policy.WhichOneof("policy_choice")
    if which == "all":
        return sorted(available)
    if which == "specific":
        wanted = sorted(set(policy.specific.versions))
        missing = [v for v in wanted if v not in available]
        if missing:
            raise ModelLoadError(f"{where}: version_policy specific names version(s) {missing} but the "
                                 f"folder holds {sorted(available)}")
        return wanted
    count = policy.latest.num_versions if which == "latest" else 1
    if count < 1:
        raise ModelLoadError(f"{where}: version_policy latest num_versions must be >= 1, got {count}")
    return sorted(available)[-count:]


def read_model(root: str | os.PathLike[str], name: str) -> ModelSource:
    """The config and selected versions of REPO/NAME; ModelLoadError says what is wrong with the folder."""
    folder = Path(root) / name
    if not folder.is_dir():
        raise ModelLoadError(f"model repository {root} has no model folder '{name}'")
    config_path = folder / CONFIG_FILE
    has_config = config_path.is_file()
    text = config_path.read_text(encoding="utf-8") if has_config else ""
    config = parse_config(text, str(config_path)) if has_config else ModelConfig()
    if config.name and config.name != name:
        raise ModelLoadError(f"{config_path}: name '{config.name}' does not match its folder '{name}'")
    config.name = name
    if config.platform not in _PLATFORMS or config.backend not in _BACKENDS:
        raise ModelLoadError(f"{config_path}: platform '{config.platform}' backend '{config.backend}': "
                             "this server serves ONNX models only (platform onnxruntime_onnx, backend "
                             "onnxruntime)")
    if not config.platform and not config.backend:
        config.platform = "onnxruntime_onnx"
    if config.max_batch_size < 0:
        raise ModelLoadError(f"{config_path}: max_batch_size must be >= 0, got {config.max_batch_size}")
    available = [int(p.name) for p in folder.iterdir() if p.is_dir() and p.name.isdigit()]
    if not available:
        raise ModelLoadError(f"model folder {folder} has no numbered version folder (such as {folder}/1)")
    filename = config.default_model_filename or DEFAULT_FILENAME
    versions: dict[str, Path] = {}
    for number in select_versions(config, available, str(config_path if has_config else folder)):
        path = folder / str(number) / filename
        if not path.is_file():
            raise ModelLoadError(f"version {number} of model '{name}' has no {filename} ({path})")
        versions[str(number)] = path
    fingerprint = (hashlib.sha256(text.encode()).hexdigest(),
                   tuple((v, _version_stamp(p.parent)) for v, p in sorted(versions.items())))
    return ModelSource(name, config, versions, has_config, fingerprint)


def complete_config(config: Any, signature: Signature) -> Any:
    """The config with the inputs and outputs config.pbtxt left out filled in from the ONNX signature, as
    Triton's auto-complete does; ModelLoadError when the config contradicts the model."""
    from cellonnx.serve.triton import model_config

    out = ModelConfig()
    out.CopyFrom(config)
    where = f"model '{config.name}'"
    if config.max_batch_size > 0 and not signature.batchable:
        fixed = [t.name for t in signature.inputs + signature.outputs if not t.shape or t.shape[0] != -1]
        raise ModelLoadError(f"{where}: max_batch_size {config.max_batch_size} needs a dynamic first axis on "
                             f"every input and output, but {fixed} have none")
    derived = json_format.ParseDict(
        model_config(signature, config.name, config.max_batch_size), ModelConfig())
    _check_tensors(where, "input", config.input, derived.input)
    _check_tensors(where, "output", config.output, derived.output)
    if not config.input:
        out.input.extend(derived.input)
    if not config.output:
        out.output.extend(derived.output)
    return out


def _check_tensors(where: str, kind: str, declared: Any, actual: Any) -> None:
    model = {t.name: t for t in actual}
    for tensor in declared:
        found = model.get(tensor.name)
        if found is None:
            raise ModelLoadError(f"{where}: config {kind} '{tensor.name}' is not an {kind} of the ONNX "
                                 f"model; its {kind}s are {list(model)}")
        if tensor.data_type != found.data_type:
            name = model_config_pb2.DataType.Name
            raise ModelLoadError(f"{where}: config {kind} '{tensor.name}' has data_type "
                                 f"{name(tensor.data_type)}; the ONNX model's is {name(found.data_type)}")
        if not tensor.HasField("reshape") and not found.HasField("reshape"):
            dims, real = list(tensor.dims), list(found.dims)
            if len(dims) != len(real) or any(r not in (-1, d) and d != -1 for d, r in zip(dims, real)):
                raise ModelLoadError(f"{where}: config {kind} '{tensor.name}' has dims {dims}; the ONNX "
                                     f"model gives {real} (without the batch axis when max_batch_size > 0)")
