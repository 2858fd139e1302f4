"""The real tritonclient.http against the server: health, metadata, and inference with binary and JSON tensors,
compared with a direct onnxruntime run."""
from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest
import tritonclient.http as httpclient
from tritonclient.utils import InferenceServerException

from cellonnx.serve.datatypes import TABLE
from tests.serve.helpers import MLP_RTOL, TYPES_MODEL, LiveServer, sample
from tests.tolerance import assert_close


@pytest.fixture(scope="module")
def client(live_server: LiveServer) -> Iterator[httpclient.InferenceServerClient]:
    with httpclient.InferenceServerClient(live_server.url, network_timeout=30.0) as c:
        yield c


def direct(model_dir: Path, model: str, feeds: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    session = ort.InferenceSession(str(model_dir / f"{model}.onnx"), providers=["CPUExecutionProvider"])
    names = [o.name for o in session.get_outputs()]
    return dict(zip(names, session.run(names, feeds)))


def infer_input(name: str, array: np.ndarray, datatype: str, binary: bool) -> httpclient.InferInput:
    tensor = httpclient.InferInput(name, list(array.shape), datatype)
    tensor.set_data_from_numpy(array, binary_data=binary)
    return tensor


def test_health_and_server_metadata(client: httpclient.InferenceServerClient) -> None:
    assert client.is_server_live()
    assert client.is_server_ready()
    meta = client.get_server_metadata()
    assert meta["name"] == "cellonnx" and "binary_tensor_data" in meta["extensions"]


@pytest.mark.parametrize("name,version,ready", [("mlp", "", True), ("mlp", "1", True), ("mlp", "2", False),
                                                ("nope", "", False)])
def test_model_ready(client: httpclient.InferenceServerClient, name: str, version: str, ready: bool) -> None:
    assert client.is_model_ready(name, version) is ready


def test_model_metadata(client: httpclient.InferenceServerClient) -> None:
    meta = client.get_model_metadata("multi")
    assert meta == {"name": "multi", "versions": ["1"], "platform": "onnxruntime_onnx",
                    "inputs": [{"name": "a", "datatype": "FP32", "shape": [-1, 4]},
                               {"name": "b", "datatype": "FP32", "shape": [-1, 4]}],
                    "outputs": [{"name": "sum", "datatype": "FP32", "shape": [-1, 4]},
                                {"name": "neg", "datatype": "FP32", "shape": [-1, 4]},
                                {"name": "argmax", "datatype": "INT64", "shape": [-1]}]}
    assert client.get_model_metadata("fixed", "1")["inputs"][0]["shape"] == [1, 3]
    with pytest.raises(InferenceServerException, match="unknown model 'nope'"):
        client.get_model_metadata("nope")


def test_model_config_matches_triton_layout(client: httpclient.InferenceServerClient) -> None:
    config = client.get_model_config("mlp")
    assert config["platform"] == "onnxruntime_onnx" and config["max_batch_size"] > 0
    assert config["input"] == [{"name": "x", "data_type": "TYPE_FP32", "dims": [4]}]
    assert client.get_model_config("fixed")["max_batch_size"] == 0


@pytest.mark.parametrize("in_binary,out_binary", list(itertools.product([True, False], [True, False, None])))
def test_multi_output_model(client: httpclient.InferenceServerClient, model_dir: Path, in_binary: bool,
                            out_binary: bool | None) -> None:
    a, b = sample("FP32", (3, 4), 1), sample("FP32", (3, 4), 2)
    inputs = [infer_input("a", a, "FP32", in_binary), infer_input("b", b, "FP32", in_binary)]
    outputs = None if out_binary is None else [httpclient.InferRequestedOutput(n, binary_data=out_binary)
                                               for n in ("sum", "neg", "argmax")]
    result = client.infer("multi", inputs, outputs=outputs, request_id="req-7")
    expected = direct(model_dir, "multi", {"a": a, "b": b})
    assert result.get_response()["id"] == "req-7"
    for name, want in expected.items():
        np.testing.assert_array_equal(result.as_numpy(name), want)
        assert result.as_numpy(name).dtype == want.dtype


def test_requested_outputs_subset(client: httpclient.InferenceServerClient, model_dir: Path) -> None:
    a, b = sample("FP32", (2, 4), 3), sample("FP32", (2, 4), 4)
    result = client.infer("multi", [infer_input("a", a, "FP32", True), infer_input("b", b, "FP32", False)],
                          outputs=[httpclient.InferRequestedOutput("argmax", binary_data=False)])
    assert [o["name"] for o in result.get_response()["outputs"]] == ["argmax"]
    np.testing.assert_array_equal(result.as_numpy("argmax"), direct(model_dir, "multi", {"a": a, "b": b})["argmax"])
    assert result.as_numpy("sum") is None


# tritonclient refuses BF16 as JSON input ("BF16 inputs must be sent as binary data over HTTP")
TYPE_CASES = [(dt.name, binary) for dt in TABLE for binary in (True, False)
              if binary or dt.name != "BF16"]


@pytest.mark.parametrize("datatype,binary", TYPE_CASES)
def test_every_datatype_round_trips(client: httpclient.InferenceServerClient, datatype: str,
                                    binary: bool) -> None:
    model, names = ("bf16", ["BF16"]) if datatype == "BF16" else ("types", TYPES_MODEL)
    feeds = {f"in_{name}": sample(name, (3, 2), i) for i, name in enumerate(names)}
    inputs = [infer_input(n, a, n[3:], binary if n[3:] == datatype else True) for n, a in feeds.items()]
    outputs = [httpclient.InferRequestedOutput(f"out_{datatype}", binary_data=binary)]
    result = client.infer(model, inputs, outputs=outputs)
    got, want = result.as_numpy(f"out_{datatype}"), feeds[f"in_{datatype}"]
    if datatype == "BYTES" and not binary:
        got = np.array([s.encode() for s in got.reshape(-1)], dtype=object).reshape(got.shape)
    assert got.shape == want.shape
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got.astype(np.float32) if datatype == "BF16" else got,
                                  want.astype(np.float32) if datatype == "BF16" else want)


def test_errors_reach_the_client_and_server_keeps_serving(client: httpclient.InferenceServerClient) -> None:
    x = sample("FP32", (2, 5), 0)
    with pytest.raises(InferenceServerException, match=r"shape \[2, 5\].*expects \[-1, 4\]"):
        client.infer("mlp", [infer_input("x", x, "FP32", True)])
    with pytest.raises(InferenceServerException, match="unknown model"):
        client.infer("nope", [infer_input("x", x, "FP32", True)])
    ok = client.infer("mlp", [infer_input("x", x[:, :4].copy(), "FP32", True)])
    assert ok.as_numpy("y").shape == (2, 3)


@pytest.mark.parametrize("algorithm", ["gzip", "deflate"])
def test_compressed_request_and_response(client: httpclient.InferenceServerClient, model_dir: Path,
                                         algorithm: str) -> None:
    x = sample("FP32", (64, 4), 5)
    result = client.infer("mlp", [infer_input("x", x, "FP32", True)], request_compression_algorithm=algorithm,
                          response_compression_algorithm=algorithm)
    want = direct(model_dir, "mlp", {"x": x})["y"]
    assert_close(result.as_numpy("y"), want, rtol=1e-6, scale_rtol=MLP_RTOL)
