"""Throughput of `cellonnx serve` over gRPC beside HTTP, in one run against one server (not run in CI).

Starts `cellonnx serve MLP --port 0 --grpc-port 0` as a subprocess, then drives it alternately in blocks (all
HTTP requests of a block, a pause, all gRPC requests of the next block, a pause, ...) from asyncio clients
sending what tritonclient sends: over HTTP the binary-tensor body of tritonclient.http (aiohttp, as
tritonclient.http.aio), over gRPC the ModelInferRequest of tritonclient.grpc with raw_input_contents
(grpc.aio, as tritonclient.grpc.aio, one channel). Same model, same server, same batching. Reports per
protocol the median block: p50/p99 latency, throughput and failures, at concurrency 1 and at concurrency C.

    python bench/serve_grpc.py        # 3 blocks of 5,000 requests per protocol at concurrency 32
    python bench/serve_grpc.py --requests 1000 --blocks 1
"""
from __future__ import annotations

import argparse
import asyncio
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import grpc
import numpy as np
import onnxruntime as ort
import tritonclient.grpc as grpcclient
from tritonclient.grpc import service_pb2_grpc

sys.path.insert(0, str(Path(__file__).resolve().parent))
from serve_load import ROOT, Run, drive, median_run, mlp, request_body
from serve_load import Server as HttpServer


class Server(HttpServer):
    """`cellonnx serve` with HTTP and gRPC on free ports (stopped as serve_load's HTTP-only server is)."""

    def __init__(self, model: Path, *flags: str) -> None:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
        self.proc = subprocess.Popen([sys.executable, "-m", "cellonnx", "serve", str(model), "--name", "mlp",
                                      "--port", "0", "--grpc-port", "0", *flags], stderr=subprocess.PIPE,
                                     text=True, env=env)
        self.url = self.grpc = ""
        deadline = time.monotonic() + 120
        assert self.proc.stderr is not None
        while time.monotonic() < deadline and not (self.url and self.grpc):
            line = self.proc.stderr.readline()
            found = re.search(r"listening on (http://[\d.]+:\d+)", line)
            self.url = found.group(1) if found else self.url
            found = re.search(r"gRPC listening on ([\d.]+:\d+)", line)
            self.grpc = found.group(1) if found else self.grpc
            if not line and self.proc.poll() is not None:
                break
        if not (self.url and self.grpc):
            self.stop()
            raise RuntimeError("the server did not start")


def grpc_request(x: np.ndarray) -> object:
    """The ModelInferRequest tritonclient.grpc builds for x (raw_input_contents), with output y."""
    tensor = grpcclient.InferInput("x", list(x.shape), "FP32")
    tensor.set_data_from_numpy(x)
    from tritonclient.grpc._utils import _get_inference_request

    return _get_inference_request(model_name="mlp", inputs=[tensor], model_version="", request_id="",
                                  outputs=[grpcclient.InferRequestedOutput("y")], sequence_id=0,
                                  sequence_start=False, sequence_end=False, priority=0, timeout=None,
                                  parameters=None)


async def drive_grpc(address: str, request: object, requests: int, concurrency: int,
                     max_seconds: float) -> Run:
    latencies: list[float] = []
    failures = 0
    counter = iter(range(requests))
    stop_at = time.monotonic() + max_seconds
    async with grpc.aio.insecure_channel(address) as channel:
        stub = service_pb2_grpc.GRPCInferenceServiceStub(channel)

        async def worker() -> None:
            nonlocal failures
            for _ in counter:
                if time.monotonic() > stop_at:
                    return
                start = time.perf_counter()
                try:
                    response = await stub.ModelInfer(request, timeout=60)
                    ok = len(response.raw_output_contents) == 1
                except grpc.aio.AioRpcError:
                    ok = False
                if ok:
                    latencies.append(time.perf_counter() - start)
                else:
                    failures += 1

        start = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        return Run(latencies, failures, time.perf_counter() - start)


def check_answers(server: Server, x: np.ndarray, path: Path) -> None:
    import tritonclient.http as httpclient

    want = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"]).run(["y"], {"x": x})[0]
    with grpcclient.InferenceServerClient(server.grpc) as client:
        tensor = grpcclient.InferInput("x", list(x.shape), "FP32")
        tensor.set_data_from_numpy(x)
        np.testing.assert_allclose(client.infer("mlp", [tensor]).as_numpy("y"), want, rtol=1e-4, atol=1e-4)
    with httpclient.InferenceServerClient(server.url.removeprefix("http://")) as client:
        tensor = httpclient.InferInput("x", list(x.shape), "FP32")
        tensor.set_data_from_numpy(x)
        np.testing.assert_allclose(client.infer("mlp", [tensor]).as_numpy("y"), want, rtol=1e-4, atol=1e-4)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=5_000, help="requests per block at concurrency C")
    parser.add_argument("--sequential", type=int, default=1_000, help="requests per block at concurrency 1")
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--blocks", type=int, default=3, help="blocks per protocol; the median is reported")
    parser.add_argument("--pause", type=float, default=2.0, help="seconds between two blocks")
    parser.add_argument("--features", type=int, default=256)
    parser.add_argument("--hidden", type=int, default=1024)
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--max-batch", type=int, default=32)
    parser.add_argument("--max-seconds", type=float, default=120.0, help="wall-time cap per block")
    args = parser.parse_args()

    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = mlp(Path(tmp) / "mlp.onnx", args.features, args.hidden, args.layers, 10)
        body, headers, x = request_body(args.features)
        request = grpc_request(x)
        print(f"machine: {platform.machine()} {os.cpu_count()} cores, Python {platform.python_version()}, "
              f"onnxruntime {ort.__version__}, grpcio {grpc.__version__}, load average "
              f"{os.getloadavg()[0]:.1f} at start")
        print(f"model: MLP {args.features} -> {args.layers} x {args.hidden} -> 10 (FP32, batch 1 per "
              f"request), --max-batch {args.max_batch}")
        server = Server(path, "--max-batch", str(args.max_batch))
        try:
            check_answers(server, x, path)
            for concurrency, count in ((1, args.sequential), (args.concurrency, args.requests)):
                runs: dict[str, list[Run]] = {"HTTP": [], "gRPC": []}
                for _ in range(args.blocks):
                    for protocol in runs:
                        if protocol == "HTTP":
                            run = asyncio.run(drive(server.url, body, headers, count, concurrency,
                                                    args.max_seconds))
                        else:
                            run = asyncio.run(drive_grpc(server.grpc, request, count, concurrency,
                                                         args.max_seconds))
                        runs[protocol].append(run)
                        failures += run.failures
                        time.sleep(args.pause)
                for protocol, blocks in runs.items():
                    print(median_run(blocks).line(f"{protocol}, concurrency {concurrency}"))
        finally:
            server.stop()
    print(f"total failed requests: {failures}; load average {os.getloadavg()[0]:.1f} at end")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
