"""Dynamic batching: which requests merge (scheduler driven directly), and a short load test through the
real tritonclient with zero failures and merged runs showing in /metrics."""
from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import numpy as np
import onnxruntime as ort
import pytest
import tritonclient.http as httpclient
from prometheus_client.parser import text_string_to_metric_families

from cellonnx.serve.batcher import Scheduler
from cellonnx.serve.model import ServedModel
from tests.serve.helpers import MLP_RTOL, LiveServer, dynamic_model, fixed_model, sample
from tests.tolerance import assert_close

# (case, model, input shapes in arrival order, max_batch, expected runs as sorted (rows, requests))
SCHEDULE_CASES = [
    ("same-shapes-merge", "dynamic", [(1, 4)] * 5, 16, [(5, 5)]),
    ("other-widths-apart", "dynamic", [(1, 4), (1, 8), (1, 4), (2, 8), (3, 4)], 16, [(3, 2), (5, 3)]),
    ("max-batch-splits", "dynamic", [(1, 4)] * 20, 8, [(4, 4), (8, 8), (8, 8)]),
    ("oversized-runs-alone", "dynamic", [(10, 4), (1, 4), (1, 4)], 8, [(2, 2), (10, 1)]),
    ("batching-off", "dynamic", [(1, 4)] * 3, 0, [(1, 1)] * 3),
    ("fixed-first-axis", "fixed", [(1, 3)] * 3, 16, [(1, 1)] * 3),
]


@pytest.mark.parametrize("case", SCHEDULE_CASES, ids=[c[0] for c in SCHEDULE_CASES])
def test_which_requests_merge(tmp_path: Path, case: tuple) -> None:
    _, kind, shapes, max_batch, expected = case
    path = (dynamic_model if kind == "dynamic" else fixed_model)(tmp_path / f"{kind}.onnx")
    model = ServedModel(path)
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    runs: list[tuple[int, int]] = []
    feeds = [{"x": sample("FP32", shape, i)} for i, shape in enumerate(shapes)]

    async def main() -> list[dict[str, np.ndarray]]:
        with ThreadPoolExecutor(2) as executor:
            scheduler = Scheduler(model, executor, slots=2, max_batch=max_batch, delay=0.0,
                                  observe=lambda rows, n, s: runs.append((rows, n)))
            await scheduler.start()
            try:
                return await asyncio.gather(*(scheduler.infer(f, ["y"]) for f in feeds))
            finally:
                await scheduler.stop()

    results = asyncio.run(main())
    assert sorted(runs) == sorted(expected)
    for f, result in zip(feeds, results):  # each request gets back exactly its own rows
        np.testing.assert_array_equal(result["y"], session.run(["y"], f)[0])


def test_batch_waits_only_for_requests_being_received(tmp_path: Path) -> None:
    """A lone request is sent at once despite a long delay; one whose body is still arriving is waited for."""
    model = ServedModel(dynamic_model(tmp_path / "dynamic.onnx"))
    runs: list[tuple[int, int]] = []
    a, b = sample("FP32", (1, 4), 1), sample("FP32", (1, 4), 2)

    async def main() -> float:
        with ThreadPoolExecutor(2) as executor:
            scheduler = Scheduler(model, executor, slots=2, max_batch=16, delay=10.0,
                                  observe=lambda rows, n, s: runs.append((rows, n)))
            await scheduler.start()
            start = time.monotonic()
            await scheduler.infer({"x": a}, ["y"])
            lone = time.monotonic() - start

            async def late() -> dict[str, np.ndarray]:
                with scheduler.receiving() as upload:
                    for _ in range(5):  # its body is still on the way, a piece every 10 ms
                        await asyncio.sleep(0.01)
                        upload.progress()
                return await scheduler.infer({"x": b}, ["y"])

            await asyncio.gather(late(), scheduler.infer({"x": a}, ["y"]))
            await scheduler.stop()
            return lone

    lone = asyncio.run(main())
    assert lone < 5.0  # far below the 10 s delay: nobody else was coming
    assert runs == [(1, 1), (2, 2)]


def test_load_zero_failures_and_merged_runs(live_server: LiveServer, model_dir: Path) -> None:
    """500 requests from 16 threads, each with its own tritonclient.http client (its gevent async_infer
    path adds ~10 ms per request on its own side, so threads give the real concurrency)."""
    requests, concurrency = 500, 16
    session = ort.InferenceSession(str(model_dir / "mlp.onnx"), providers=["CPUExecutionProvider"])
    xs = [sample("FP32", (1, 4), i) for i in range(requests)]
    local, clients = threading.local(), []

    def infer(i: int) -> httpclient.InferResult:
        if not hasattr(local, "client"):
            local.client = httpclient.InferenceServerClient(live_server.url, network_timeout=60.0)
            clients.append(local.client)
        tensor = httpclient.InferInput("x", [1, 4], "FP32")
        tensor.set_data_from_numpy(xs[i], binary_data=bool(i % 2))
        out = httpclient.InferRequestedOutput("y", binary_data=bool(i % 3))
        return local.client.infer("mlp", [tensor], outputs=[out], request_id=str(i))

    with ThreadPoolExecutor(concurrency) as pool:
        results = list(pool.map(infer, range(requests)))
    for client in clients:
        client.close()
    for i, (x, result) in enumerate(zip(xs, results)):
        assert result.get_response()["id"] == str(i)
        assert_close(result.as_numpy("y"), session.run(["y"], {"x": x})[0], rtol=1e-6, scale_rtol=MLP_RTOL)
    metrics = httpx.get(f"{live_server.base}/metrics").text
    runs = {}
    for family in text_string_to_metric_families(metrics):
        if family.name == "cellonnx_inference_batch_requests":
            runs = {s.labels["le"]: s.value for s in family.samples
                    if s.name.endswith("_bucket") and s.labels["model"] == "mlp"}
    assert runs["+Inf"] > runs["1.0"], "no onnxruntime run merged more than one request"
