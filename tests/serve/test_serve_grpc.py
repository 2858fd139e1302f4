"""The real tritonclient.grpc (and the generated stub, for typed contents) against the server that also
answers tritonclient.http: every call of GRPCInferenceService, raw and typed contents, streaming, refusals
with their gRPC status, and the same metadata, statistics and metrics on both protocols."""
from __future__ import annotations

import queue
from collections.abc import Iterator
from pathlib import Path

import grpc
import httpx
import numpy as np
import pytest
import tritonclient.grpc as grpcclient
import tritonclient.http as httpclient
from tritonclient.grpc import service_pb2, service_pb2_grpc
from tritonclient.utils import InferenceServerException

from cellonnx.serve.datatypes import TABLE
from tests.serve.helpers import MLP_RTOL, SERVED, TYPED_MODEL, TYPES_MODEL, LiveServer, sample
from tests.serve.test_serve_tritonclient import direct
from tests.tolerance import assert_close


@pytest.fixture(scope="module")
def client(live_server: LiveServer) -> Iterator[grpcclient.InferenceServerClient]:
    with grpcclient.InferenceServerClient(live_server.grpc_url) as c:
        yield c


@pytest.fixture(scope="module")
def http(live_server: LiveServer) -> Iterator[httpclient.InferenceServerClient]:
    with httpclient.InferenceServerClient(live_server.url, network_timeout=30.0) as c:
        yield c


@pytest.fixture(scope="module")
def stub(live_server: LiveServer) -> Iterator[service_pb2_grpc.GRPCInferenceServiceStub]:
    with grpc.insecure_channel(live_server.grpc_url) as channel:
        yield service_pb2_grpc.GRPCInferenceServiceStub(channel)


def grpc_input(name: str, array: np.ndarray, datatype: str) -> grpcclient.InferInput:
    tensor = grpcclient.InferInput(name, list(array.shape), datatype)
    tensor.set_data_from_numpy(array)
    return tensor


def refused(call: object, code: grpc.StatusCode, words: str) -> None:
    with pytest.raises(InferenceServerException) as info:
        call()  # type: ignore[operator]
    assert info.value.status() == f"StatusCode.{code.name}", info.value
    assert words in info.value.message(), info.value.message()


def test_health_and_server_metadata(client: grpcclient.InferenceServerClient) -> None:
    assert client.is_server_live() and client.is_server_ready()
    meta = client.get_server_metadata(as_json=True)
    assert meta["name"] == "cellonnx" and "binary_tensor_data" in meta["extensions"]
    assert {"model_repository", "statistics"} <= set(meta["extensions"])


@pytest.mark.parametrize("name,version,ready", [("mlp", "", True), ("mlp", "1", True), ("mlp", "2", False),
                                                ("nope", "", False)])
def test_model_ready(client: grpcclient.InferenceServerClient, name: str, version: str, ready: bool) -> None:
    assert client.is_model_ready(name, version) is ready


@pytest.mark.parametrize("model", SERVED)
def test_model_metadata_and_config_match_http(client: grpcclient.InferenceServerClient,
                                              http: httpclient.InferenceServerClient, model: str) -> None:
    ours = client.get_model_metadata(model, as_json=True)
    theirs = http.get_model_metadata(model)
    # protobuf's JSON mapping writes int64 dims as strings
    for tensor in ours["inputs"] + ours["outputs"]:
        tensor["shape"] = [int(d) for d in tensor["shape"]]
    assert ours == theirs
    config = client.get_model_config(model).config
    http_config = http.get_model_config(model)
    assert config.max_batch_size == http_config["max_batch_size"]
    assert ([(t.name, list(t.dims)) for t in config.input]
            == [(t["name"], t["dims"]) for t in http_config["input"]])


def test_metadata_errors(client: grpcclient.InferenceServerClient) -> None:
    refused(lambda: client.get_model_metadata("nope"), grpc.StatusCode.NOT_FOUND, "unknown model 'nope'")
    refused(lambda: client.get_model_metadata("mlp", "7"), grpc.StatusCode.INVALID_ARGUMENT, "no version '7'")
    refused(lambda: client.get_model_config("nope"), grpc.StatusCode.NOT_FOUND, "unknown model 'nope'")


def test_multi_output_model_raw(client: grpcclient.InferenceServerClient, model_dir: Path) -> None:
    a, b = sample("FP32", (3, 4), 1), sample("FP32", (3, 4), 2)
    result = client.infer("multi", [grpc_input("a", a, "FP32"), grpc_input("b", b, "FP32")],
                          request_id="req-7")
    response = result.get_response()
    assert (response.id, response.model_name, response.model_version) == ("req-7", "multi", "1")
    for name, want in direct(model_dir, "multi", {"a": a, "b": b}).items():
        np.testing.assert_array_equal(result.as_numpy(name), want)
        assert result.as_numpy(name).dtype == want.dtype


def test_requested_outputs_subset(client: grpcclient.InferenceServerClient, model_dir: Path) -> None:
    a, b = sample("FP32", (2, 4), 3), sample("FP32", (2, 4), 4)
    result = client.infer("multi", [grpc_input("a", a, "FP32"), grpc_input("b", b, "FP32")],
                          outputs=[grpcclient.InferRequestedOutput("argmax")])
    assert [o.name for o in result.get_response().outputs] == ["argmax"]
    want = direct(model_dir, "multi", {"a": a, "b": b})["argmax"]
    np.testing.assert_array_equal(result.as_numpy("argmax"), want)


@pytest.mark.parametrize("datatype", [d.name for d in TABLE])
def test_every_datatype_round_trips_raw(client: grpcclient.InferenceServerClient, datatype: str) -> None:
    model, names = ("bf16", ["BF16"]) if datatype == "BF16" else ("types", TYPES_MODEL)
    feeds = {f"in_{name}": sample(name, (3, 2), i) for i, name in enumerate(names)}
    inputs = [grpc_input(n, a, n[3:]) for n, a in feeds.items()]
    result = client.infer(model, inputs, outputs=[grpcclient.InferRequestedOutput(f"out_{datatype}")])
    got, want = result.as_numpy(f"out_{datatype}"), feeds[f"in_{datatype}"]
    assert got.shape == want.shape and got.dtype == want.dtype
    if datatype == "BF16":
        got, want = got.astype(np.float32), want.astype(np.float32)
    np.testing.assert_array_equal(got, want)


def typed_request(model: str, feeds: dict[str, np.ndarray]) -> service_pb2.ModelInferRequest:
    """A request with every input in its typed contents field, as a client without raw support sends it."""
    from cellonnx.serve.grpc_codec import TYPED_FIELDS

    request = service_pb2.ModelInferRequest(model_name=model, id="typed")
    for name, array in feeds.items():
        datatype = name[3:]
        tensor = request.inputs.add(name=name, datatype=datatype, shape=list(array.shape))
        values = array.reshape(-1).tolist()
        getattr(tensor.contents, TYPED_FIELDS[datatype]).extend(values)
    return request


def test_typed_contents_every_datatype(stub: service_pb2_grpc.GRPCInferenceServiceStub) -> None:
    names = TYPED_MODEL
    feeds = {f"in_{name}": sample(name, (3, 2), i) for i, name in enumerate(names)}
    request = typed_request("typed", feeds)
    request.outputs.extend([service_pb2.ModelInferRequest.InferRequestedOutputTensor(name=f"out_{n}")
                            for n in names])
    response = stub.ModelInfer(request, timeout=30)
    result = grpcclient.InferResult(response)
    assert response.id == "typed"
    for name in names:
        got, want = result.as_numpy(f"out_{name}"), feeds[f"in_{name}"]
        assert got.dtype == want.dtype, name
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("datatype,values,words", [
    ("INT8", [1, 2, 300, 4, 5, 6], "values out of range for INT8 [-128, 127]"),
    ("UINT16", [1, 2, 3, 70000, 5, 6], "values out of range for UINT16"),
    ("FP32", [1.0, 2.0, 3.0], "contents.fp32_contents holds 3 elements but shape [3, 2] of FP32 needs 6"),
])
def test_typed_contents_refused(stub: service_pb2_grpc.GRPCInferenceServiceStub, datatype: str,
                                values: list, words: str) -> None:
    from cellonnx.serve.grpc_codec import TYPED_FIELDS

    feeds = {f"in_{n}": sample(n, (3, 2), i) for i, n in enumerate(TYPED_MODEL)}
    request = typed_request("typed", feeds)
    tensor = next(t for t in request.inputs if t.datatype == datatype)
    field = getattr(tensor.contents, TYPED_FIELDS[datatype])
    del field[:]
    field.extend(values)
    with pytest.raises(grpc.RpcError) as info:
        stub.ModelInfer(request, timeout=30)
    assert info.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert words in info.value.details()


def test_fp16_needs_raw(stub: service_pb2_grpc.GRPCInferenceServiceStub) -> None:
    request = service_pb2.ModelInferRequest(model_name="types")
    request.inputs.add(name="in_FP16", datatype="FP16", shape=[1, 2])
    with pytest.raises(grpc.RpcError) as info:
        stub.ModelInfer(request, timeout=30)
    assert info.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert "input 'in_FP16': FP16 has no typed contents field" in info.value.details()


def test_refusals_name_what_was_wrong(client: grpcclient.InferenceServerClient,
                                      stub: service_pb2_grpc.GRPCInferenceServiceStub) -> None:
    x = sample("FP32", (2, 4), 0)
    refused(lambda: client.infer("nope", [grpc_input("x", x, "FP32")]), grpc.StatusCode.NOT_FOUND,
            "unknown model 'nope'")
    refused(lambda: client.infer("mlp", [grpc_input("x", sample("FP32", (2, 5), 0), "FP32")]),
            grpc.StatusCode.INVALID_ARGUMENT,
            "input 'x' of model 'mlp' has shape [2, 5]; the model expects [-1, 4]")
    refused(lambda: client.infer("mlp", [grpc_input("x", x.astype(np.float64), "FP64")]),
            grpc.StatusCode.INVALID_ARGUMENT, "has datatype FP64; the model expects FP32")
    refused(lambda: client.infer("mlp", [grpc_input("z", x, "FP32")]), grpc.StatusCode.INVALID_ARGUMENT,
            "model 'mlp' has no input 'z'")
    refused(lambda: client.infer("multi", [grpc_input("a", x, "FP32")]), grpc.StatusCode.INVALID_ARGUMENT,
            "needs input(s) ['b']")
    refused(lambda: client.infer("mlp", [grpc_input("x", x, "FP32")], model_version="3"),
            grpc.StatusCode.INVALID_ARGUMENT, "no version '3'")
    refused(lambda: client.infer("mlp", [grpc_input("x", x, "FP32")],
                                 outputs=[grpcclient.InferRequestedOutput("nope")]),
            grpc.StatusCode.INVALID_ARGUMENT, "model 'mlp' has no output 'nope'")
    # raw bytes that do not fit the shape, and a raw buffer missing
    request = service_pb2.ModelInferRequest(model_name="mlp")
    request.inputs.add(name="x", datatype="FP32", shape=[2, 4])
    request.raw_input_contents.append(b"\0" * 12)
    with pytest.raises(grpc.RpcError) as info:
        stub.ModelInfer(request, timeout=30)
    assert info.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert "raw_input_contents is 12 bytes but shape [2, 4] of FP32 needs 32 bytes" in info.value.details()
    request.inputs.add(name="y", datatype="FP32", shape=[1])
    with pytest.raises(grpc.RpcError) as info:
        stub.ModelInfer(request, timeout=30)
    assert "1 raw_input_contents for 2 inputs" in info.value.details()
    request = service_pb2.ModelInferRequest(model_name="mlp")
    request.inputs.add(name="x", datatype="FP99", shape=[2, 4])
    with pytest.raises(grpc.RpcError) as info:
        stub.ModelInfer(request, timeout=30)
    assert "input 'x': unknown datatype 'FP99'" in info.value.details()
    # the server goes on serving
    assert client.infer("mlp", [grpc_input("x", x, "FP32")]).as_numpy("y").shape == (2, 3)


def test_message_over_the_limit_is_resource_exhausted(client: grpcclient.InferenceServerClient) -> None:
    big = np.zeros((70_000, 4), np.float32)  # 1.1 MB: over the fixture's 1 MiB
    refused(lambda: client.infer("mlp", [grpc_input("x", big, "FP32")]), grpc.StatusCode.RESOURCE_EXHAUSTED,
            "larger than max")


def test_repository_calls_on_a_files_server(client: grpcclient.InferenceServerClient) -> None:
    index = client.get_model_repository_index(as_json=True)["models"]
    assert {m["name"] for m in index} == set(SERVED)
    assert all(m["state"] == "READY" and m["version"] == "1" for m in index)
    refused(lambda: client.load_model("mlp"), grpc.StatusCode.FAILED_PRECONDITION, "not a model repository")
    refused(lambda: client.unload_model("mlp"), grpc.StatusCode.FAILED_PRECONDITION, "not a model repository")


def test_an_idle_stream_and_a_deadline_hold_up_nobody(live_server: LiveServer,
                                                       client: grpcclient.InferenceServerClient) -> None:
    """A stream that sends nothing, and calls whose deadline passes, leave the server answering others."""
    import threading

    with grpc.insecure_channel(live_server.grpc_url) as channel:
        stub = service_pb2_grpc.GRPCInferenceServiceStub(channel)
        never = threading.Event()

        def silent() -> Iterator[service_pb2.ModelInferRequest]:
            never.wait(30)
            return
            yield  # a generator that sends nothing until released

        stream = stub.ModelStreamInfer(silent())
        try:
            x = np.ones((2, 4), np.float32)
            for _ in range(3):
                assert client.infer("mlp", [grpc_input("x", x, "FP32")]).as_numpy("y").shape == (2, 3)
            # calls whose deadline runs out while in the server are dropped, not left running
            for _ in range(5):
                try:
                    client.infer("mlp", [grpc_input("x", x, "FP32")], client_timeout=1e-4)
                except InferenceServerException as exc:
                    assert exc.status() == "StatusCode.DEADLINE_EXCEEDED", exc
            assert client.infer("mlp", [grpc_input("x", x, "FP32")]).as_numpy("y").shape == (2, 3)
        finally:
            never.set()
            stream.cancel()


def test_stream_answers_in_order_and_survives_a_bad_request(client: grpcclient.InferenceServerClient,
                                                             model_dir: Path) -> None:
    answers: queue.Queue = queue.Queue()
    client.start_stream(callback=lambda result, error: answers.put((result, error)))
    try:
        xs = [sample("FP32", (i % 3 + 1, 4), i) for i in range(12)]
        for i, x in enumerate(xs):
            if i == 5:
                client.async_stream_infer("mlp", [grpc_input("x", sample("FP32", (1, 5), 0), "FP32")],
                                          request_id="bad")
            client.async_stream_infer("mlp", [grpc_input("x", x, "FP32")], request_id=str(i))
        got = [answers.get(timeout=30) for _ in range(len(xs) + 1)]
    finally:
        client.stop_stream()
    errors = [e for _, e in got if e is not None]
    assert len(errors) == 1 and "shape [1, 5]" in errors[0].message()
    results = [r for r, e in got if e is None]
    assert [r.get_response().id for r in results] == [str(i) for i in range(len(xs))]
    for r, x in zip(results, xs):
        assert_close(r.as_numpy("y"), direct(model_dir, "mlp", {"x": x})["y"], rtol=1e-6, scale_rtol=MLP_RTOL)


def test_statistics_count_both_protocols(client: grpcclient.InferenceServerClient,
                                         http: httpclient.InferenceServerClient) -> None:
    before = http.get_inference_statistics("fixed")["model_stats"][0]
    x = np.ones((1, 3), np.float32)
    client.infer("fixed", [grpc_input("x", x, "FP32")])
    tensor = httpclient.InferInput("x", [1, 3], "FP32")
    tensor.set_data_from_numpy(x)
    http.infer("fixed", [tensor])
    refused(lambda: client.infer("fixed", [grpc_input("x", np.ones((1, 4), np.float32), "FP32")]),
            grpc.StatusCode.INVALID_ARGUMENT, "shape [1, 4]")
    after = http.get_inference_statistics("fixed")["model_stats"][0]
    assert (after["name"], after["version"]) == ("fixed", "1")
    stats, earlier = after["inference_stats"], before["inference_stats"]
    assert stats["success"]["count"] - earlier["success"]["count"] == 2
    assert stats["fail"]["count"] - earlier["fail"]["count"] == 1
    assert after["inference_count"] - before["inference_count"] == 2
    assert after["execution_count"] - before["execution_count"] == 2
    # the same numbers through gRPC (protobuf's JSON mapping: uint64 as strings, zeros left out)
    over_grpc = client.get_inference_statistics("fixed").model_stats[0]
    assert over_grpc.inference_stats.success.count == stats["success"]["count"]
    assert over_grpc.inference_count == after["inference_count"]
    everything = http.get_inference_statistics()["model_stats"]
    assert {s["name"] for s in everything} == set(SERVED)
    refused(lambda: client.get_inference_statistics("nope"), grpc.StatusCode.NOT_FOUND, "unknown model")


def test_grpc_failures_reach_the_metrics(client: grpcclient.InferenceServerClient,
                                         live_server: LiveServer) -> None:
    def failures() -> float:
        text = httpx.get(f"{live_server.base}/metrics", timeout=30).text
        line = [x for x in text.splitlines()
                if x.startswith('cellonnx_inference_failures_total{code="400",model="multi",version="1"}')]
        return float(line[0].split()[-1]) if line else 0.0

    before = failures()
    refused(lambda: client.infer("multi", [grpc_input("a", np.ones((1, 4), np.float32), "FP32")]),
            grpc.StatusCode.INVALID_ARGUMENT, "needs input(s) ['b']")
    assert failures() == before + 1


def test_bounded_load_both_protocols_zero_failures(live_server: LiveServer, model_dir: Path) -> None:
    """Threads of clients, half gRPC and half HTTP, each with its own client, for a few seconds: every answer
    right, no failure, and the server's failure counters unchanged."""
    import threading
    import time

    seconds, threads = 3.0, 8
    xs = [sample("FP32", (1 + i % 4, 4), i) for i in range(8)]
    wants = [direct(model_dir, "mlp", {"x": x})["y"] for x in xs]
    counts = {"grpc": 0, "http": 0}
    problems: list[str] = []
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def work(index: int) -> None:
        kind = "grpc" if index % 2 else "http"
        done = 0
        try:
            if kind == "grpc":
                client = grpcclient.InferenceServerClient(live_server.grpc_url)
                make = grpc_input
            else:
                client = httpclient.InferenceServerClient(live_server.url, network_timeout=60.0)

                def make(name: str, array: np.ndarray, datatype: str) -> httpclient.InferInput:
                    tensor = httpclient.InferInput(name, list(array.shape), datatype)
                    tensor.set_data_from_numpy(array, binary_data=True)
                    return tensor
            while time.monotonic() < stop:
                k = (index + done) % len(xs)
                result = client.infer("mlp", [make("x", xs[k], "FP32")])
                got = result.as_numpy("y")
                if got.shape != wants[k].shape or not np.allclose(got, wants[k], rtol=1e-5, atol=1e-5):
                    raise AssertionError(f"wrong answer for request {k}")
                done += 1
            client.close()
        except Exception as exc:  # noqa: BLE001 - collected and reported by the test
            with lock:
                problems.append(f"{kind} client {index}: {type(exc).__name__}: {exc}")
        with lock:
            counts[kind] += done

    def failures() -> float:
        text = httpx.get(f"{live_server.base}/metrics", timeout=30).text
        return sum(float(x.split()[-1]) for x in text.splitlines()
                   if x.startswith("cellonnx_inference_failures_total{") and 'model="mlp"' in x)

    before = failures()
    workers = [threading.Thread(target=work, args=(i,)) for i in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(timeout=seconds + 60)
    assert not problems, problems
    assert counts["grpc"] > 0 and counts["http"] > 0, counts
    assert failures() == before
