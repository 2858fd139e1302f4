"""A Triton model repository for an ONNX file: NAME/config.pbtxt and NAME/1/model.onnx.

The config is built once as a dict in the JSON form of Triton's ModelConfig message; it is rendered with
protobuf's text_format through tritonclient's model_config_pb2 when that is importable, and by a small
writer of the same text format otherwise.
"""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import onnx
from google.protobuf.descriptor import FieldDescriptor
from onnx.external_data_helper import ExternalDataInfo, uses_external_data

from cellonnx.converters.atomic import atomic_copy, atomic_write
from cellonnx.serve.model import Signature, TensorSpec, load_signature

PLATFORM = "onnxruntime_onnx"
KINDS = {"cpu": "KIND_CPU", "gpu": "KIND_GPU", "auto": "KIND_AUTO"}


class Enum(str):
    """A protobuf enum value (written bare in text format, quoted everywhere else)."""


def model_config(signature: Signature, name: str, max_batch: int = 0, instances: int = 1, device: str = "cpu",
                 batch_delay_us: int = 0) -> dict[str, Any]:
    """Triton's ModelConfig for an ONNX signature, as the dict protobuf's JSON mapping would give.

    With max_batch > 0 every input and output must have a dynamic first axis, which Triton then leaves out
    of `dims`. A tensor left with no dims is written as dims [1] reshaped to [] (Triton needs dims).

    Args:
        signature: the model's inputs and outputs (``load_signature``).
        name: the model name.
        max_batch: Triton's max_batch_size (0: no batching).
        instances: the instance_group count.
        device: "cpu", "gpu" or "auto".
        batch_delay_us: dynamic_batching's max_queue_delay_microseconds.

    Returns:
        dict, as protobuf's JSON mapping of ModelConfig gives it.

    Raises:
        ValueError: a negative max_batch, no instance, an unknown device, or batching asked of a model
            without a dynamic first axis everywhere.

    Examples:
        >>> from cellonnx.serve import load_signature, model_config
        >>> net = nn.Dense(4, 3)
        >>> net.set_inputs(Tensor(shape=(None, 4), dtype=ms.float32))
        >>> path = ms.export(net, Tensor(np.ones((1, 4), np.float32)), file_name="mlp")  # mlp.onnx
        >>> config = model_config(load_signature("mlp.onnx"), "mlp", max_batch=8)
        >>> config["max_batch_size"], config["input"], config["dynamic_batching"]
        (8, [{'name': 'x', 'data_type': 'TYPE_FP32', 'dims': [4]}], {})
    """
    if max_batch < 0 or instances < 1:
        raise ValueError(f"max_batch must be >= 0 and instances >= 1, got {max_batch} and {instances}")
    if device not in KINDS:
        raise ValueError(f"unknown device {device!r}; expected one of {sorted(KINDS)}")
    if max_batch > 0 and not signature.batchable:
        fixed = [t.name for t in signature.inputs + signature.outputs if not t.shape or t.shape[0] != -1]
        raise ValueError(f"Triton batching (max_batch_size {max_batch}) needs a dynamic first axis on every "
                         f"input and output, but {fixed} have none; use max_batch 0 (--max-batch 0)")
    config: dict[str, Any] = {
        "name": name,
        "platform": PLATFORM,
        "max_batch_size": max_batch,
        "input": [_tensor(t, max_batch) for t in signature.inputs],
        "output": [_tensor(t, max_batch) for t in signature.outputs],
        "instance_group": [{"count": instances, "kind": Enum(KINDS[device])}],
    }
    if max_batch > 0:
        config["dynamic_batching"] = ({"max_queue_delay_microseconds": batch_delay_us} if batch_delay_us
                                      else {})
    return config


def _tensor(spec: TensorSpec, max_batch: int) -> dict[str, Any]:
    dims = list(spec.shape[1:] if max_batch > 0 else spec.shape)
    entry: dict[str, Any] = {"name": spec.name, "data_type": Enum(spec.datatype.triton), "dims": dims or [1]}
    if not dims:
        entry["reshape"] = {"shape": []}
    return entry


def to_pbtxt(config: dict[str, Any], use_protobuf: bool = True) -> str:
    """config.pbtxt text for a config dict: protobuf's own text_format when tritonclient's model_config_pb2
    is importable (and `use_protobuf`), else the built-in writer.

    Args:
        config: a ModelConfig dict (``model_config``).
        use_protobuf: use protobuf's writer where it is available.

    Returns:
        str, the text of config.pbtxt.

    Examples:
        >>> from cellonnx.serve import load_signature, model_config, to_pbtxt
        >>> net = nn.Dense(4, 3)
        >>> net.set_inputs(Tensor(shape=(None, 4), dtype=ms.float32))
        >>> path = ms.export(net, Tensor(np.ones((1, 4), np.float32)), file_name="mlp")  # mlp.onnx
        >>> print(to_pbtxt(model_config(load_signature("mlp.onnx"), "mlp"), use_protobuf=False))
        name: "mlp"
        platform: "onnxruntime_onnx"
        max_batch_size: 0
        input {
          name: "x"
          data_type: TYPE_FP32
          dims: [-1, 4]
        }
        output {
          name: "output"
          data_type: TYPE_FP32
          dims: [-1, 3]
        }
        instance_group {
          count: 1
          kind: KIND_CPU
        }
        <BLANKLINE>
    """
    if use_protobuf:
        try:
            from google.protobuf import json_format, text_format
            from tritonclient.grpc import model_config_pb2
        except ImportError:
            pass
        else:
            message = json_format.ParseDict(config, model_config_pb2.ModelConfig())
            return str(text_format.MessageToString(message))
    return "".join(_text_fields(config, 0))


def _scalar(value: Any) -> str:
    if isinstance(value, Enum):
        return str(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return str(int(value))


def _text_fields(fields: dict[str, Any], depth: int) -> list[str]:
    pad = "  " * depth
    lines: list[str] = []
    for key, value in fields.items():
        if isinstance(value, dict):
            lines += [f"{pad}{key} {{\n", *_text_fields(value, depth + 1), f"{pad}}}\n"]
        elif isinstance(value, list) and any(isinstance(v, dict) for v in value):
            for item in value:
                lines += [f"{pad}{key} {{\n", *_text_fields(item, depth + 1), f"{pad}}}\n"]
        elif isinstance(value, list):
            lines.append(f"{pad}{key}: [{', '.join(_scalar(v) for v in value)}]\n")
        else:
            lines.append(f"{pad}{key}: {_scalar(value)}\n")
    return lines


def _external_files(path: Path) -> list[str]:
    """Relative locations of the external-data files an ONNX model refers to."""
    model = onnx.load(str(path), load_external_data=False)
    locations: set[str] = set()

    def visit(graph: onnx.GraphProto) -> None:
        tensors = list(graph.initializer) + [s.values for s in graph.sparse_initializer]
        for node in graph.node:
            for attr in node.attribute:
                tensors += ([attr.t] if attr.HasField("t") else []) + list(attr.tensors)
                for sub in ([attr.g] if attr.HasField("g") else []) + list(attr.graphs):
                    visit(sub)
        locations.update(ExternalDataInfo(t).location for t in tensors if uses_external_data(t))

    visit(model.graph)
    return sorted(locations)


def export_model_repository(onnx_path: str | os.PathLike[str], repo_dir: str | os.PathLike[str],
                            name: str | None = None, max_batch: int | None = None, instances: int = 1,
                            device: str = "cpu", batch_delay_us: int = 0) -> Path:
    """Write REPO_DIR/NAME/config.pbtxt and REPO_DIR/NAME/1/model.onnx (plus any external-data files).

    Args:
        onnx_path: the ONNX file.
        repo_dir: the Triton model repository (created if missing).
        name: the model name; the file stem by default.
        max_batch: Triton's max_batch_size; None picks 32 when the model has a dynamic first axis, else 0.
        instances: model instances (instance_group count).
        device: "cpu" (KIND_CPU) or "gpu" (KIND_GPU).
        batch_delay_us: dynamic_batching max_queue_delay_microseconds.

    Returns:
        The model's directory, REPO_DIR/NAME.

    Raises:
        ValueError: a name that is not a plain folder name, or a batching the model cannot take.
        ModelLoadError: the ONNX file cannot be read.

    Examples:
        >>> from cellonnx.serve import export_model_repository
        >>> net = nn.Dense(4, 3)
        >>> net.set_inputs(Tensor(shape=(None, 4), dtype=ms.float32))
        >>> path = ms.export(net, Tensor(np.ones((1, 4), np.float32)), file_name="mlp")  # mlp.onnx
        >>> model_dir = export_model_repository("mlp.onnx", "repo")
        >>> sorted(str(p.relative_to("repo")) for p in model_dir.rglob("*"))
        ['mlp/1', 'mlp/1/model.onnx', 'mlp/config.pbtxt']
        >>> print((model_dir / "config.pbtxt").read_text().splitlines()[2])
        max_batch_size: 32
    """
    onnx_path = Path(onnx_path)
    name = name or onnx_path.stem
    if not re.fullmatch(r"[A-Za-z0-9_.\-]+", name) or name in (".", ".."):
        raise ValueError(f"model name {name!r} must be a plain directory name (letters, digits, '_', '-', '.')")
    signature = load_signature(onnx_path)
    if max_batch is None:
        max_batch = 32 if signature.batchable else 0
    config = model_config(signature, name, max_batch, instances, device, batch_delay_us)
    model_dir = Path(repo_dir) / name
    version_dir = model_dir / "1"
    try:
        version_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise type(exc)(f"cannot create the model folder {version_dir}: {exc.strerror or exc}") from None
    # data files first, then the model naming them, then the config: a reader never sees a partial file
    for location in _external_files(onnx_path):
        target = version_dir / location
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_copy(onnx_path.parent / location, target)
    atomic_copy(onnx_path, version_dir / "model.onnx")
    with atomic_write(model_dir / "config.pbtxt") as f:
        f.write(to_pbtxt(config).encode("utf-8"))
    return model_dir


def config_json(message: Any) -> dict[str, Any]:
    """A ModelConfig message as JSON for the HTTP endpoint: field names as in the .proto, the fields that
    are set (max_batch_size always), 64-bit integers as numbers (protobuf's JSON mapping writes them as
    strings)."""
    from google.protobuf import json_format

    doc = json_format.MessageToDict(message, preserving_proto_field_name=True)
    doc.setdefault("max_batch_size", 0)
    return _numbers(message.DESCRIPTOR, doc)


_INT64 = (FieldDescriptor.CPPTYPE_INT64, FieldDescriptor.CPPTYPE_UINT64)


def _numbers(descriptor: Any, doc: dict[str, Any]) -> dict[str, Any]:
    for key, value in doc.items():
        field = descriptor.fields_by_name.get(key)
        if field is None:
            continue
        if field.cpp_type == FieldDescriptor.CPPTYPE_MESSAGE:
            sub = field.message_type
            if sub.GetOptions().map_entry:
                item = sub.fields_by_name["value"]
                if item.cpp_type == FieldDescriptor.CPPTYPE_MESSAGE:
                    doc[key] = {k: _numbers(item.message_type, v) for k, v in value.items()}
                elif item.cpp_type in _INT64:
                    doc[key] = {k: int(v) for k, v in value.items()}
            elif isinstance(value, list):
                doc[key] = [_numbers(sub, v) for v in value]
            elif isinstance(value, dict):
                doc[key] = _numbers(sub, value)
        elif field.cpp_type in _INT64:
            doc[key] = [int(v) for v in value] if isinstance(value, list) else int(value)
    return doc
