"""KServe v2 request and response bodies: JSON tensors and Triton's binary tensor data extension.

A body is a JSON object, optionally followed by raw tensor bytes; the `Inference-Header-Content-Length`
header then gives the JSON's length. Binary inputs carry `parameters.binary_data_size` and appear in the
tail in the order of the JSON `inputs`; outputs are returned binary when the requested output says
`binary_data: true`, or the request says `binary_data_output: true` and the output does not override it.
Binary data is little-endian, row-major; BOOL is one byte per element; a BYTES element is a 4-byte
little-endian length followed by its bytes.
"""
from __future__ import annotations

import json
import math
import struct
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import ml_dtypes
import numpy as np

from cellonnx.serve import datatypes
from cellonnx.serve.datatypes import Datatype
from cellonnx.serve.errors import BadRequest
from cellonnx.serve.model import RequestTensor

HEADER_LENGTH = "Inference-Header-Content-Length"
_UNSUPPORTED_PARAMETERS = ("shared_memory_region", "shared_memory_byte_size", "shared_memory_offset",
                           "classification")
_LENGTH = struct.Struct("<I")
MAX_DIMS = 32          # as onnxruntime and NumPy < 2
MAX_DIM = 2**31 - 1    # no body the server accepts holds a longer axis


def _clip(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


@dataclass(frozen=True)
class RequestedOutput:
    name: str
    binary: bool


@dataclass(frozen=True)
class InferRequest:
    """A decoded inference request. `outputs` is None when the client asked for all of them, which are then
    returned binary or not according to `binary_output`."""

    id: str | None
    inputs: tuple[RequestTensor, ...]
    outputs: tuple[RequestedOutput, ...] | None
    binary_output: bool


@dataclass(frozen=True)
class OutputTensor:
    name: str
    datatype: Datatype
    array: np.ndarray
    binary: bool


def parse_header_length(value: str | None, body_size: int) -> int | None:
    """The JSON length from the Inference-Header-Content-Length header, checked against the body."""
    if value is None:
        return None
    try:
        length = int(value)
    except ValueError:
        raise BadRequest(f"{HEADER_LENGTH} must be an integer, got {value!r}") from None
    if not 0 <= length <= body_size:
        raise BadRequest(f"{HEADER_LENGTH} is {length} but the request body has {body_size} bytes")
    return length


def decode_request(body: bytes, header_length: int | None = None) -> InferRequest:
    """Parse an inference request body (JSON, or JSON then binary tensor data)."""
    json_part = body if header_length is None else body[:header_length]
    tail = memoryview(body)[len(json_part):]
    try:
        text = bytes(json_part).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadRequest(f"the request's JSON is not UTF-8: byte 0x{json_part[exc.start]:02x} at offset "
                         f"{exc.start}") from None
    try:
        doc = json.loads(text)
    except ValueError as exc:
        raise BadRequest(f"malformed JSON in the request body: {exc}") from None
    except RecursionError:
        raise BadRequest("the request's JSON nests deeper than this server parses") from None
    if not isinstance(doc, dict):
        raise BadRequest(f"the request body must be a JSON object, got {type(doc).__name__}")
    request_id = doc.get("id")
    if request_id is not None and not isinstance(request_id, str):
        raise BadRequest(f"request 'id' must be a string, got {request_id!r}")
    parameters = _object(doc.get("parameters"), "request 'parameters'")
    binary_output = _flag(parameters.get("binary_data_output", False), "binary_data_output")

    raw_inputs = doc.get("inputs")
    if not isinstance(raw_inputs, list):
        raise BadRequest("the request needs an 'inputs' list")
    inputs: list[RequestTensor] = []
    offset = 0
    for item in raw_inputs:
        tensor, used = _decode_input(item, tail[offset:])
        inputs.append(tensor)
        offset += used
    if offset != len(tail):
        raise BadRequest(f"the request carries {len(tail)} bytes of binary tensor data but its inputs' "
                         f"binary_data_size add up to {offset}")

    outputs: tuple[RequestedOutput, ...] | None = None
    if "outputs" in doc:
        if not isinstance(doc["outputs"], list):
            raise BadRequest("request 'outputs' must be a list")
        outputs = tuple(_decode_requested_output(o, binary_output) for o in doc["outputs"])
    return InferRequest(request_id, tuple(inputs), outputs, binary_output)


def _object(value: Any, what: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise BadRequest(f"{what} must be a JSON object")
    return value


def _flag(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise BadRequest(f"parameter '{what}' must be true or false, got {value!r}")
    return value


def _decode_requested_output(item: Any, binary_default: bool) -> RequestedOutput:
    if not isinstance(item, dict) or not isinstance(item.get("name"), str):
        raise BadRequest(f"each requested output needs a 'name', got {item!r}")
    parameters = _object(item.get("parameters"), f"output '{item['name']}' parameters")
    _reject_unsupported(parameters, f"output '{item['name']}'")
    binary = _flag(parameters.get("binary_data", binary_default), "binary_data")
    return RequestedOutput(item["name"], binary)


def _reject_unsupported(parameters: dict[str, Any], what: str) -> None:
    for key in _UNSUPPORTED_PARAMETERS:
        if key in parameters:
            raise BadRequest(f"{what}: parameter '{key}' is not supported by this server")


def _decode_input(item: Any, tail: memoryview) -> tuple[RequestTensor, int]:
    """One request input and the number of tail bytes it consumed."""
    if not isinstance(item, dict) or not isinstance(item.get("name"), str):
        raise BadRequest(f"each input needs a string 'name', got {item!r}")
    name = item["name"]
    try:
        datatype = datatypes.by_name(item.get("datatype"))
    except TypeError as exc:
        raise BadRequest(f"input '{name}': {exc}") from None
    shape = item.get("shape")
    if not isinstance(shape, list) or not all(type(d) is int and d >= 0 for d in shape):
        raise BadRequest(f"input '{name}': 'shape' must be a list of non-negative integers, got "
                         f"{_clip(repr(shape))}")
    if len(shape) > MAX_DIMS:
        raise BadRequest(f"input '{name}': 'shape' has {len(shape)} dimensions, at most {MAX_DIMS} are accepted")
    if any(d > MAX_DIM for d in shape):
        raise BadRequest(f"input '{name}': shape {_clip(repr(shape))} has a dimension over {MAX_DIM:,}")
    parameters = _object(item.get("parameters"), f"input '{name}' parameters")
    _reject_unsupported(parameters, f"input '{name}'")
    size = parameters.get("binary_data_size")
    if size is None:
        if "data" not in item:
            raise BadRequest(f"input '{name}' has neither 'data' nor parameters.binary_data_size")
        return RequestTensor(name, datatype, _from_json(item["data"], datatype, shape, name)), 0
    if "data" in item:
        raise BadRequest(f"input '{name}' has both 'data' and parameters.binary_data_size")
    if type(size) is not int or size < 0:
        raise BadRequest(f"input '{name}': binary_data_size must be a non-negative integer, got {size!r}")
    if size > len(tail):
        raise BadRequest(f"input '{name}': binary_data_size is {size} bytes but only {len(tail)} bytes of "
                         "binary data are left in the request body")
    return RequestTensor(name, datatype, from_binary(tail[:size], datatype, shape, name)), size


def _count_error(name: str, found: int, shape: list[int], what: str) -> BadRequest:
    return BadRequest(f"input '{name}': {what} holds {found} elements but shape {shape} needs "
                      f"{math.prod(shape)}")


def from_binary(data: memoryview, datatype: Datatype, shape: list[int], name: str,
                what: str = "binary_data_size") -> np.ndarray:
    """An input's array from its raw little-endian bytes (`what` names where they came from in errors)."""
    count = math.prod(shape)
    if datatype.name == "BYTES":
        elements = _split_bytes(data, name, what)
        if len(elements) != count:
            raise _count_error(name, len(elements), shape, "binary BYTES data")
        array = np.empty(count, dtype=object)
        array[:] = elements
        return array.reshape(shape)
    expected = count * datatype.itemsize
    if len(data) != expected:
        raise BadRequest(f"input '{name}': {what} is {len(data)} bytes but shape {shape} of "
                         f"{datatype.name} needs {expected} bytes")
    if datatype.name == "BOOL":
        return (np.frombuffer(data, dtype=np.uint8) != 0).reshape(shape)
    array = np.frombuffer(data, dtype=datatype.numpy)
    if sys.byteorder == "big":
        array = array.byteswap()
    return array.reshape(shape)


def _split_bytes(data: memoryview, name: str, what: str) -> list[bytes]:
    elements: list[bytes] = []
    offset = 0
    while offset < len(data):
        if offset + 4 > len(data):
            raise BadRequest(f"input '{name}': binary BYTES data ends inside an element's 4-byte length")
        (length,) = _LENGTH.unpack_from(data, offset)
        offset += 4
        if offset + length > len(data):
            raise BadRequest(f"input '{name}': a BYTES element of {length} bytes runs past the input's "
                             "binary_data_size")
        elements.append(bytes(data[offset:offset + length]))
        offset += length
    return elements


def _flatten(data: Any) -> list[Any]:
    """The leaves of nested lists, in order (iteratively: the nesting comes from the client)."""
    if not isinstance(data, list):
        return [data]
    if not any(isinstance(d, list) for d in data):
        return data
    flat: list[Any] = []
    stack = [iter(data)]
    while stack:
        for item in stack[-1]:
            if isinstance(item, list):
                stack.append(iter(item))
                break
            flat.append(item)
        else:
            stack.pop()
    return flat


def _from_json(data: Any, datatype: Datatype, shape: list[int], name: str) -> np.ndarray:
    count = math.prod(shape)
    if datatype.name == "BYTES":
        flat = _flatten(data)
        if not all(isinstance(s, str) for s in flat):
            raise BadRequest(f"input '{name}': BYTES data in JSON must be strings")
        if len(flat) != count:
            raise _count_error(name, len(flat), shape, "'data'")
        array = np.empty(count, dtype=object)
        array[:] = [s.encode("utf-8") for s in flat]
        return array.reshape(shape)
    if datatype.kind != "b" and any(type(v) is bool for v in _flatten(data)):
        raise BadRequest(f"input '{name}': 'data' of {datatype.name} holds true/false values")
    try:
        raw = np.asarray(data)
    except (ValueError, OverflowError, RecursionError):
        raise BadRequest(f"input '{name}': 'data' is not a rectangular array of numbers") from None
    if raw.size != count:
        raise _count_error(name, raw.size, shape, "'data'")
    if datatype.kind in "iu" and raw.dtype.kind in "fO":
        # NumPy infers float64 or object for integers past int64 (e.g. [0, 2**64 - 1]); convert them exactly
        flat = _flatten(data)
        if all(type(v) is int for v in flat):
            try:
                return np.array(flat, dtype=datatype.numpy).reshape(shape)
            except OverflowError:
                info = np.iinfo(datatype.numpy)
                raise BadRequest(f"input '{name}': values out of range for {datatype.name} "
                                 f"[{info.min}, {info.max}]") from None
    if count and raw.dtype.kind not in _JSON_KINDS[datatype.kind]:
        raise BadRequest(f"input '{name}': 'data' of {datatype.name} must hold "
                         f"{_KIND_WORDS[datatype.kind]}, got {_describe(raw)}")
    if count and datatype.kind in "iu":
        info = np.iinfo(datatype.numpy)
        if raw.min() < info.min or raw.max() > info.max:
            raise BadRequest(f"input '{name}': values out of range for {datatype.name} "
                             f"[{info.min}, {info.max}]")
    with np.errstate(over="ignore"):
        array = raw.astype(datatype.numpy)
    if count and datatype.kind == "f":
        overflow = np.isfinite(raw) & ~np.isfinite(array.astype(np.float64))
        if overflow.any():
            raise BadRequest(f"input '{name}': value {float(raw[overflow][0]):g} is out of range for "
                             f"{datatype.name} (largest {float(ml_dtypes.finfo(datatype.numpy).max):.4g})")
    return array.reshape(shape)


# which NumPy kinds a JSON array may parse to, for each datatype kind
_JSON_KINDS = {"b": "b", "i": "iu", "u": "iu", "f": "iuf"}
_KIND_WORDS = {"b": "true/false", "i": "integers", "u": "integers", "f": "numbers"}


def _describe(raw: np.ndarray) -> str:
    kinds = {"b": "booleans", "i": "integers", "u": "integers", "f": "non-integer numbers", "U": "strings",
             "O": "mixed or out-of-range values"}
    return kinds.get(raw.dtype.kind, str(raw.dtype))


def _to_json(array: np.ndarray, datatype: Datatype, name: str) -> list[Any]:
    flat = array.reshape(-1)
    if datatype.name == "BYTES":
        try:
            return [b.decode("utf-8") if isinstance(b, bytes) else str(b) for b in flat]
        except UnicodeDecodeError:
            raise BadRequest(f"output '{name}' holds bytes that are not UTF-8; request it with "
                             "parameters.binary_data = true") from None
    if datatype.name in ("BF16", "FP16"):
        flat = flat.astype(np.float32)
    return flat.tolist()


def to_binary(array: np.ndarray, datatype: Datatype) -> bytes:
    if datatype.name == "BYTES":
        parts: list[bytes] = []
        for element in array.reshape(-1):
            raw = element if isinstance(element, bytes) else str(element).encode("utf-8")
            parts.append(_LENGTH.pack(len(raw)))
            parts.append(raw)
        return b"".join(parts)
    array = np.ascontiguousarray(array)
    if sys.byteorder == "big":
        array = array.byteswap()
    return array.tobytes()


def encode_response(model_name: str, model_version: str, request_id: str | None,
                    outputs: Sequence[OutputTensor]) -> tuple[bytes, dict[str, str]]:
    """The response body and its headers (Content-Type, and Inference-Header-Content-Length when any output
    is binary)."""
    doc: dict[str, Any] = {"model_name": model_name, "model_version": model_version}
    if request_id is not None:
        doc["id"] = request_id
    tails: list[bytes] = []
    entries = []
    for out in outputs:
        entry: dict[str, Any] = {"name": out.name, "datatype": out.datatype.name,
                                 "shape": list(out.array.shape)}
        if out.binary:
            raw = to_binary(out.array, out.datatype)
            entry["parameters"] = {"binary_data_size": len(raw)}
            tails.append(raw)
        else:
            entry["data"] = _to_json(out.array, out.datatype, out.name)
        entries.append(entry)
    doc["outputs"] = entries
    header = json.dumps(doc, separators=(",", ":")).encode("utf-8")
    if not tails:
        return header, {"content-type": "application/json"}
    return b"".join([header, *tails]), {"content-type": "application/octet-stream",
                                        HEADER_LENGTH.lower(): str(len(header))}
