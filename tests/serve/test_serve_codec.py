"""The datatype table and the codec without a server: every row round-trips through JSON and binary tensor
data, edge values survive, malformed tensors are refused with the input named; and serve/ stays on
onnxruntime (no cellonnx.nn / ops / graph imports)."""
from __future__ import annotations

import ast
import gzip
import json
import struct
import zlib
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np
import onnx
import pytest

from cellonnx.serve import codec, compression
from cellonnx.serve.datatypes import TABLE, by_name, by_ort
from cellonnx.serve.errors import BadRequest, PayloadTooLarge
from tests.serve.helpers import ONNX_TYPES, sample

SERVE = Path(__file__).resolve().parents[2] / "cellonnx" / "serve"


def test_every_datatype_row_has_an_onnx_type_and_back() -> None:
    assert sorted(ONNX_TYPES) == sorted(d.name for d in TABLE)
    for dt in TABLE:
        onnx_name = onnx.TensorProto.DataType.Name(ONNX_TYPES[dt.name]).lower()
        expected = {"float": "float", "double": "double", "float16": "float16"}.get(onnx_name, onnx_name)
        assert dt.ort == f"tensor({expected})"
        assert by_ort(dt.ort) is dt and by_name(dt.name) is dt
        assert dt.triton == ("TYPE_STRING" if dt.name == "BYTES" else f"TYPE_{dt.name}")


def _request(arrays: dict[str, tuple[str, np.ndarray]], binary: bool) -> tuple[bytes, int | None]:
    """A request body as tritonclient would send it."""
    inputs, tails = [], []
    for name, (datatype, array) in arrays.items():
        entry: dict[str, Any] = {"name": name, "shape": list(array.shape), "datatype": datatype}
        if binary:
            outputs = [codec.OutputTensor(name, by_name(datatype), array, True)]
            body, headers = codec.encode_response("m", "1", None, outputs)
            tail = body[int(headers[codec.HEADER_LENGTH.lower()]):]
            entry["parameters"] = {"binary_data_size": len(tail)}
            tails.append(tail)
        else:
            flat = array.reshape(-1)
            entry["data"] = ([b.decode() for b in flat] if datatype == "BYTES"
                             else flat.astype(np.float32).tolist() if datatype == "BF16" else flat.tolist())
        inputs.append(entry)
    header = json.dumps({"inputs": inputs}).encode()
    return header + b"".join(tails), (len(header) if binary else None)


@pytest.mark.parametrize("binary", [True, False], ids=["binary", "json"])
@pytest.mark.parametrize("datatype", [d.name for d in TABLE])
def test_request_round_trip(datatype: str, binary: bool) -> None:
    array = sample(datatype, (2, 3), 7)
    body, length = _request({"t": (datatype, array)}, binary)
    (tensor,) = codec.decode_request(body, length).inputs
    assert tensor.datatype is by_name(datatype) and tensor.array.shape == (2, 3)
    assert tensor.array.dtype == array.dtype
    np.testing.assert_array_equal(tensor.array, array)


@pytest.mark.parametrize("binary", [True, False], ids=["binary", "json"])
@pytest.mark.parametrize("datatype", [d.name for d in TABLE])
def test_response_round_trip(datatype: str, binary: bool) -> None:
    array = sample(datatype, (3, 2), 11)
    body, headers = codec.encode_response("m", "1", "id-1", [codec.OutputTensor("o", by_name(datatype), array, binary)])
    length = int(headers.get(codec.HEADER_LENGTH.lower(), len(body)))
    doc = json.loads(body[:length])
    assert doc["id"] == "id-1" and doc["outputs"][0]["shape"] == [3, 2]
    if binary:
        assert headers["content-type"] == "application/octet-stream"
        assert doc["outputs"][0]["parameters"]["binary_data_size"] == len(body) - length
    else:
        assert headers == {"content-type": "application/json"}
        data = doc["outputs"][0]["data"]
        expected = array.reshape(-1)
        if datatype == "BYTES":
            assert data == [b.decode() for b in expected]
        else:
            np.testing.assert_array_equal(np.array(data).astype(array.dtype), expected)


EDGE_VALUES = [("UINT64", [0, 2**64 - 1]), ("INT64", [-(2**63), 2**63 - 1]), ("UINT8", [0, 255]),
               ("INT8", [-128, 127]), ("FP16", [65504.0, -0.5]), ("BOOL", [True, False]),
               ("BF16", [1.5, -2.0]), ("FP64", [1e300, -1e-300])]


@pytest.mark.parametrize("datatype,values", EDGE_VALUES, ids=[c[0] for c in EDGE_VALUES])
def test_json_edge_values(datatype: str, values: list[Any]) -> None:
    body = json.dumps({"inputs": [{"name": "t", "shape": [2], "datatype": datatype, "data": values}]}).encode()
    (tensor,) = codec.decode_request(body).inputs
    assert tensor.array.dtype == by_name(datatype).numpy
    assert tensor.array.tolist() == values or (datatype == "BF16"
                                               and tensor.array.astype(float).tolist() == values)


BAD_TENSORS = [
    ("INT32", [2], [1.5, 2], None, "must hold integers, got non-integer numbers"),
    ("UINT8", [2], [-1, 2], None, "out of range for UINT8"),
    ("INT64", [1], [2**64], None, "out of range for INT64"),
    ("BOOL", [2], [0, 1], None, "must hold true/false, got integers"),
    ("FP32", [2], [1, "x"], None, "got strings"),
    ("BYTES", [2], ["a", 1], None, "must be strings"),
    ("FP32", [2, 2], [[1, 2], [3]], None, "rectangular"),
    ("BYTES", [2], None, struct.pack("<I", 5) + b"abc", "runs past"),
    ("BYTES", [2], None, struct.pack("<I", 1) + b"a" + b"\x01\x00", "ends inside"),
    ("BYTES", [3], None, struct.pack("<I", 1) + b"a", "holds 1 elements but shape [3] needs 3"),
    ("FP16", [3], None, b"\0" * 4, "binary_data_size is 4 bytes but shape [3] of FP16 needs 6 bytes"),
]


@pytest.mark.parametrize("datatype,shape,data,raw,words", BAD_TENSORS)
def test_bad_tensors_name_the_input(datatype: str, shape: list[int], data: Any, raw: bytes | None,
                                    words: str) -> None:
    entry: dict[str, Any] = {"name": "pixels", "shape": shape, "datatype": datatype}
    if raw is None:
        entry["data"] = data
        body, length = json.dumps({"inputs": [entry]}).encode(), None
    else:
        entry["parameters"] = {"binary_data_size": len(raw)}
        header = json.dumps({"inputs": [entry]}).encode()
        body, length = header + raw, len(header)
    with pytest.raises(BadRequest) as info:
        codec.decode_request(body, length)
    assert "input 'pixels'" in str(info.value) and words in str(info.value)


def test_binary_output_defaults() -> None:
    base = {"inputs": [{"name": "t", "shape": [1], "datatype": "FP32", "data": [1]}]}
    cases: list[tuple[dict[str, Any], bool | None, bool]] = [({}, None, False), ({"parameters": {"binary_data_output": True}}, None, True),
             ({"parameters": {"binary_data_output": True}, "outputs": [{"name": "o"}]}, True, True),
             ({"parameters": {"binary_data_output": True},
               "outputs": [{"name": "o", "parameters": {"binary_data": False}}]}, False, True),
             ({"outputs": [{"name": "o", "parameters": {"binary_data": True}}]}, True, False)]
    for extra, output_binary, default in cases:
        request = codec.decode_request(json.dumps({**base, **extra}).encode())
        assert request.binary_output is default
        assert (request.outputs[0].binary if request.outputs else None) is output_binary


@pytest.mark.parametrize("encoding,pack", [("gzip", gzip.compress), ("deflate", zlib.compress),
                                           ("identity", lambda b: b), (None, lambda b: b)])
def test_decompress(encoding: str | None, pack: Any) -> None:
    assert compression.decompress(pack(b"x" * 1000), encoding, 1000) == b"x" * 1000
    if encoding in ("gzip", "deflate"):
        with pytest.raises(PayloadTooLarge):
            compression.decompress(pack(b"x" * 1001), encoding, 1000)
        assert compression.decompress(compression.compress(b"abc", encoding), encoding, 10) == b"abc"


@pytest.mark.parametrize("header,chosen", [(None, None), ("gzip", "gzip"), ("br, deflate", "deflate"),
                                           ("gzip;q=0, deflate", "deflate"), ("identity", None)])
def test_choose_encoding(header: str | None, chosen: str | None) -> None:
    assert compression.choose_encoding(header) == chosen


def test_bf16_is_ml_dtypes() -> None:
    assert by_name("BF16").numpy == np.dtype(ml_dtypes.bfloat16)


def test_serve_sits_on_onnxruntime_only() -> None:
    """serve/ may import cellonnx.serve, the package root (for __version__) and the atomic file writer of the
    checkpoint formats, nothing of the training stack."""
    files = sorted(SERVE.glob("*.py")) + [SERVE.parent / "cli" / "serve.py", SERVE.parent / "cli" / "export_triton.py"]
    for path in files:
        for node in ast.walk(ast.parse(path.read_text())):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                if name.split(".")[0] == "cellonnx":
                    assert name in ("cellonnx", "cellonnx.cli", "cellonnx.converters.atomic") \
                        or name.startswith("cellonnx.serve"), \
                        f"{path.name} imports {name}"
