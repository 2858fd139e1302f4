"""Raw HTTP against the server: the JSON protocol by hand, every error case (status and message), and that
the server keeps serving after each."""
from __future__ import annotations

import gzip
import json
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import onnxruntime as ort
import pytest

from tests.serve.helpers import MLP_RTOL, LiveServer, sample
from tests.tolerance import assert_close


@pytest.fixture(scope="module")
def http(live_server: LiveServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=live_server.base, timeout=30.0) as client:
        yield client


def mlp_direct(model_dir: Path, x: np.ndarray) -> np.ndarray:
    session = ort.InferenceSession(str(model_dir / "mlp.onnx"), providers=["CPUExecutionProvider"])
    return session.run(["y"], {"x": x})[0]


def binary_request(doc: dict[str, Any], tail: bytes) -> tuple[bytes, dict[str, str]]:
    header = json.dumps(doc).encode()
    return header + tail, {"Inference-Header-Content-Length": str(len(header))}


@pytest.mark.parametrize("nested", [False, True])
def test_json_inference_flat_and_nested(http: httpx.Client, model_dir: Path, nested: bool) -> None:
    x = sample("FP32", (2, 4), 9)
    data = x.tolist() if nested else x.reshape(-1).tolist()
    r = http.post("/v2/models/mlp/infer", json={"id": "abc", "inputs": [
        {"name": "x", "shape": [2, 4], "datatype": "FP32", "data": data}]})
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "application/json"
    body = r.json()
    assert body["id"] == "abc" and body["model_name"] == "mlp" and body["model_version"] == "1"
    (out,) = body["outputs"]
    assert out["name"] == "y" and out["datatype"] == "FP32" and out["shape"] == [2, 3]
    assert_close(np.array(out["data"], np.float32).reshape(2, 3), mlp_direct(model_dir, x), rtol=1e-6,
                 scale_rtol=MLP_RTOL)


def test_binary_request_and_response_by_hand(http: httpx.Client, model_dir: Path) -> None:
    x = sample("FP32", (1, 4), 3)
    body, headers = binary_request({"inputs": [{"name": "x", "shape": [1, 4], "datatype": "FP32",
                                                "parameters": {"binary_data_size": 16}}],
                                    "parameters": {"binary_data_output": True}}, x.tobytes())
    r = http.post("/v2/models/mlp/versions/1/infer", content=body, headers=headers)
    assert r.status_code == 200, r.text
    length = int(r.headers["inference-header-content-length"])
    doc = json.loads(r.content[:length])
    assert doc["outputs"][0]["parameters"] == {"binary_data_size": 12}
    got = np.frombuffer(r.content[length:], np.float32).reshape(1, 3)
    assert_close(got, mlp_direct(model_dir, x), rtol=1e-6, scale_rtol=MLP_RTOL)


def test_binary_bytes_elements_are_length_prefixed(http: httpx.Client) -> None:
    words = [b"a", "é".encode(), b"", b"xyz"]
    tail = b"".join(struct.pack("<I", len(w)) + w for w in words)
    inputs = [{"name": "in_BYTES", "shape": [2, 2], "datatype": "BYTES",
               "parameters": {"binary_data_size": len(tail)}}]
    others = [{"name": f"in_{dt}", "shape": [2, 2], "datatype": dt, "data": [0, 1, 0, 1]}
              for dt in ("UINT8", "UINT16", "UINT32", "UINT64", "INT8", "INT16", "INT32", "INT64", "FP16",
                         "FP32", "FP64")]
    others.append({"name": "in_BOOL", "shape": [2, 2], "datatype": "BOOL", "data": [True, False, True, True]})
    body, headers = binary_request({"inputs": others + inputs, "outputs": [
        {"name": "out_BYTES", "parameters": {"binary_data": True}}, {"name": "out_BOOL"}]}, tail)
    r = http.post("/v2/models/types/infer", content=body, headers=headers)
    assert r.status_code == 200, r.text
    length = int(r.headers["inference-header-content-length"])
    doc = json.loads(r.content[:length])
    assert doc["outputs"][1]["data"] == [True, False, True, True]
    assert r.content[length:] == tail


MLP_X = {"name": "x", "shape": [1, 4], "datatype": "FP32", "data": [1, 2, 3, 4]}
GOOD_A = {"name": "a", "shape": [1, 4], "datatype": "FP32", "data": [1, 2, 3, 4]}

# (case id, path, body: dict (JSON) or bytes, extra headers, status, words the error must contain)
ERROR_CASES: list[tuple[str, str, Any, dict[str, str], int, str]] = [
    ("malformed-json", "mlp", b'{"inputs": [', {}, 400, "malformed JSON"),
    ("not-an-object", "mlp", b"[1, 2]", {}, 400, "must be a JSON object"),
    ("no-inputs", "mlp", {"id": "1"}, {}, 400, "'inputs' list"),
    ("unknown-model", "nope", {"inputs": [MLP_X]}, {}, 404, "unknown model 'nope'"),
    ("unknown-version", "mlp/versions/2", {"inputs": [MLP_X]}, {}, 400, "no version '2'"),
    ("wrong-input-name", "mlp", {"inputs": [{**MLP_X, "name": "z"}]}, {}, 400, "has no input 'z'"),
    ("missing-input", "multi", {"inputs": [GOOD_A]}, {}, 400, "needs input(s) ['b']"),
    ("duplicate-input", "mlp", {"inputs": [MLP_X, MLP_X]}, {}, 400, "more than once"),
    ("rows-disagree", "multi", {"inputs": [{**GOOD_A, "shape": [2, 4], "data": [0] * 8},
                                           {**GOOD_A, "name": "b", "shape": [3, 4], "data": [0] * 12}]}, {}, 400,
     "onnxruntime could not run these inputs"),
    ("shape-mismatch", "mlp", {"inputs": [{**MLP_X, "shape": [2, 2]}]}, {}, 400, "expects [-1, 4]"),
    ("rank-mismatch", "mlp", {"inputs": [{**MLP_X, "shape": [4]}]}, {}, 400, "has shape [4]"),
    ("datatype-mismatch", "mlp", {"inputs": [{**MLP_X, "datatype": "FP64"}]}, {}, 400,
     "datatype FP64; the model expects FP32"),
    ("unknown-datatype", "mlp", {"inputs": [{**MLP_X, "datatype": "FLOAT"}]}, {}, 400, "unknown datatype"),
    ("bad-shape", "mlp", {"inputs": [{**MLP_X, "shape": [1, -4]}]}, {}, 400, "non-negative integers"),
    ("data-count", "mlp", {"inputs": [{**MLP_X, "data": [1, 2, 3]}]}, {}, 400, "holds 3 elements"),
    ("ragged-data", "mlp", {"inputs": [{**MLP_X, "shape": [2, 2], "data": [[1, 2], [3]]}]}, {}, 400,
     "rectangular"),
    ("strings-as-numbers", "mlp", {"inputs": [{**MLP_X, "data": ["a", "b", "c", "d"]}]}, {}, 400, "strings"),
    ("no-data", "mlp", {"inputs": [{k: v for k, v in MLP_X.items() if k != "data"}]}, {}, 400,
     "neither 'data' nor"),
    ("data-and-binary", "mlp", {"inputs": [{**MLP_X, "parameters": {"binary_data_size": 16}}]}, {}, 400,
     "both 'data' and"),
    ("id-not-string", "mlp", {"id": 5, "inputs": [MLP_X]}, {}, 400, "'id' must be a string"),
    ("unknown-output", "mlp", {"inputs": [MLP_X], "outputs": [{"name": "nope"}]}, {}, 400, "has no output 'nope'"),
    ("shared-memory", "mlp", {"inputs": [MLP_X], "outputs": [{"name": "y", "parameters":
                                                              {"shared_memory_region": "r"}}]}, {}, 400,
     "'shared_memory_region' is not supported"),
    ("binary-size-mismatch", "mlp", *binary_request({"inputs": [{**{k: v for k, v in MLP_X.items() if k != "data"},
                                                               "parameters": {"binary_data_size": 12}}]},
                                                   b"\0" * 12), 400,
     "binary_data_size is 12 bytes but shape [1, 4] of FP32 needs 16 bytes"),
    ("binary-size-past-body", "mlp", *binary_request({"inputs": [{**{k: v for k, v in MLP_X.items() if k != "data"},
                                                                "parameters": {"binary_data_size": 16}}]},
                                                    b"\0" * 8), 400, "only 8 bytes"),
    ("binary-extra-bytes", "mlp", *binary_request({"inputs": [MLP_X]}, b"\0" * 4), 400,
     "carries 4 bytes of binary tensor data"),
    ("header-length-too-big", "mlp", json.dumps({"inputs": [MLP_X]}).encode(),
     {"Inference-Header-Content-Length": "100000"}, 400, "Inference-Header-Content-Length is 100000"),
    ("header-length-not-int", "mlp", json.dumps({"inputs": [MLP_X]}).encode(),
     {"Inference-Header-Content-Length": "ten"}, 400, "must be an integer"),
    ("unsupported-encoding", "mlp", {"inputs": [MLP_X]}, {"Content-Encoding": "br"}, 400,
     "unsupported Content-Encoding"),
    ("bad-gzip", "mlp", b"not gzip at all", {"Content-Encoding": "gzip"}, 400, "not valid gzip"),
    ("json-nested-100000-deep", "mlp", b"[" * 100_000 + b"]" * 100_000, {}, 400, "nests deeper"),
    ("data-nested-100000-deep", "mlp", b'{"inputs": [{"name": "x", "shape": [1, 4], "datatype": "FP32", "data": '
     + b"[" * 100_000 + b"]" * 100_000 + b"}]}", {}, 400, "nests deeper"),
    ("20000-dimensions", "mlp", {"inputs": [{**MLP_X, "shape": [2] * 20000}]}, {}, 400,
     "20000 dimensions, at most 32"),
    ("huge-dims", "mlp", {"inputs": [{**MLP_X, "shape": [0, 2**62, 2**62], "data": []}]}, {}, 400,
     "a dimension over 2,147,483,647"),
    ("huge-dims-binary", "mlp", *binary_request({"inputs": [{"name": "x", "datatype": "FP32",
                                                            "shape": [0, 2**62, 2**62],
                                                            "parameters": {"binary_data_size": 0}}]}, b""), 400,
     "a dimension over 2,147,483,647"),
    ("not-utf8", "mlp", b'{"inputs": [\xff]}', {}, 400, "not UTF-8: byte 0xff at offset 12"),
    ("fp32-overflow", "mlp", {"inputs": [{**MLP_X, "data": [1e300, 1, 2, 3]}]}, {}, 400,
     "value 1e+300 is out of range for FP32"),
    ("booleans-as-fp32", "mlp", {"inputs": [{**MLP_X, "data": [True, 1.5, 2, 3]}]}, {}, 400,
     "holds true/false values"),
    ("too-large", "mlp", b" " * ((1 << 20) + 1), {}, 413, "exceeds the limit of 1048576 bytes"),
    ("gzip-bomb", "mlp", gzip.compress(b" " * (2 << 20)), {"Content-Encoding": "gzip"}, 413,
     "inflates past 1048576 bytes"),
]


@pytest.mark.parametrize("case", ERROR_CASES, ids=[c[0] for c in ERROR_CASES])
def test_errors(http: httpx.Client, case: tuple[str, str, Any, dict[str, str], int, str]) -> None:
    _, path, body, headers, status, words = case
    content = json.dumps(body).encode() if isinstance(body, dict) else body
    r = http.post(f"/v2/models/{path}/infer", content=content, headers=headers)
    assert r.status_code == status, r.text
    assert r.headers["content-type"] == "application/json"
    assert words in r.json()["error"]
    # and the next request is served as usual
    ok = http.post("/v2/models/mlp/infer", json={"inputs": [MLP_X]})
    assert ok.status_code == 200, ok.text


@pytest.mark.parametrize("method,path,status", [("GET", "/v2/models/mlp/infer", 405), ("GET", "/v3", 404),
                                                ("GET", "/v2/models/nope", 404),
                                                ("GET", "/v2/models/mlp/versions/9", 400),
                                                ("GET", "/v2/models/nope/ready", 404)])
def test_route_errors_are_json(http: httpx.Client, method: str, path: str, status: int) -> None:
    r = http.request(method, path)
    assert r.status_code == status
    assert isinstance(r.json()["error"], str) and r.json()["error"]


def test_out_of_range_integers_are_refused(http: httpx.Client) -> None:
    inputs: list[dict[str, Any]] = [{"name": f"in_{dt}", "shape": [1, 2], "datatype": dt, "data": [0, 1]}
              for dt in ("UINT8", "UINT16", "UINT32", "UINT64", "INT8", "INT16", "INT32", "INT64", "FP16",
                         "FP32", "FP64")]
    inputs += [{"name": "in_BOOL", "shape": [1, 2], "datatype": "BOOL", "data": [True, False]},
               {"name": "in_BYTES", "shape": [1, 2], "datatype": "BYTES", "data": ["a", "b"]}]
    assert http.post("/v2/models/types/infer", json={"inputs": inputs}).status_code == 200
    inputs[0] = {**inputs[0], "data": [0, 256]}
    r = http.post("/v2/models/types/infer", json={"inputs": inputs})
    assert r.status_code == 400 and "out of range for UINT8" in r.json()["error"]


def test_health_and_metadata_by_hand(http: httpx.Client) -> None:
    assert http.get("/v2/health/live").status_code == 200
    assert http.get("/v2/health/ready").status_code == 200
    assert http.get("/v2/models/mlp/versions/1/ready").json() == {"name": "mlp", "ready": True}
    meta = http.get("/v2").json()
    assert set(meta) == {"name", "version", "extensions"}


def test_metrics_count_requests_and_failures(http: httpx.Client) -> None:
    http.post("/v2/models/fixed/infer", json={"inputs": [{"name": "x", "shape": [1, 3], "datatype": "FP32",
                                                          "data": [-1, 0, 1]}]})
    http.post("/v2/models/fixed/infer", json={"inputs": []})
    text = http.get("/metrics").text
    assert 'cellonnx_inference_requests_total{model="fixed",version="1"}' in text
    assert 'cellonnx_inference_failures_total{code="400",model="fixed",version="1"}' in text
    assert 'cellonnx_inference_request_duration_seconds_bucket{le="0.0001",model="fixed",version="1"}' in text
