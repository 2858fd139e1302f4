"""Abusive traffic against `cellonnx serve` over loopback, longer than the test suite runs it (not run in CI).

    python bench/serve_abuse.py [--requests 4000] [--clients 8] [--idle 300]

Starts the server as a subprocess (header/body timeouts of 2 s, --max-connections 128, --batch-delay-ms 50) on
the digits-sized MLP of tests/serve/helpers.py, opens ``--idle`` sockets that send half a header and stall, and
then runs ``--clients`` threads sending ``--requests`` requests in all: good ones (answers checked against
onnxruntime), malformed ones (broken, deep, non-UTF-8 JSON, 40 dims, dims past 2**31, 1e300 as FP32, booleans,
wrong sizes), slow uploads that stall and clients that hang up mid-body. Reports the answers by status, wrong
answers, hung requests (no answer within 30 s), the latency of good requests and the server's RSS before and
after. Prints a Markdown table for bench/RESULTS.md.
"""
from __future__ import annotations

import argparse
import collections
import json
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
import numpy as np
import onnxruntime as ort

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.serve.helpers import mlp_model  # noqa: E402

GOOD = {"inputs": [{"name": "x", "shape": [2, 4], "datatype": "FP32", "data": [[1, 2, 3, 4], [5, 6, 7, 8]]}]}
X = GOOD["inputs"][0]
BAD = [b'{"inputs": [', b"[" * 50_000 + b"]" * 50_000, b'{"inputs": [\xff]}',
       json.dumps({"inputs": [{**X, "shape": [2] * 40}]}).encode(),
       json.dumps({"inputs": [{**X, "shape": [0, 2**62, 2**62]}]}).encode(),
       json.dumps({"inputs": [{**X, "data": [[1e300, 2, 3, 4], [5, 6, 7, 8]]}]}).encode(),
       json.dumps({"inputs": [{**X, "data": [[True, 2, 3, 4], [5, 6, 7, 8]]}]}).encode(),
       json.dumps({"inputs": [{**X, "data": [1, 2, 3]}]}).encode(),
       json.dumps({"inputs": [{**X, "shape": [2] * 20000}]}).encode()]


def _rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=4000)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--idle", type=int, default=300)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        model = mlp_model(Path(tmp) / "mlp.onnx")
        want = ort.InferenceSession(str(model), providers=["CPUExecutionProvider"]).run(
            None, {"x": np.array(X["data"], np.float32)})[0]
        server = subprocess.Popen([sys.executable, "-m", "cellonnx", "serve", str(model), "--port", "0",
                                   "--header-timeout", "2", "--body-timeout", "2", "--max-connections", "128",
                                   "--batch-delay-ms", "50", "--log-level", "warning"],
                                  stderr=subprocess.PIPE, text=True)
        try:
            address = None
            while address is None:
                line = server.stderr.readline()
                if not line:
                    raise SystemExit("the server stopped")
                found = re.search(r"listening on http://(\S+)", line)
                address = found.group(1) if found else None
            host, port = address.rsplit(":", 1)
            rss_before = _rss_kb(server.pid)
            idle = []
            for _ in range(args.idle):
                sock = socket.create_connection((host, int(port)))
                sock.sendall(b"POST /v2/models/mlp/infer HTTP/1.1\r\nHo")
                idle.append(sock)
            statuses: collections.Counter = collections.Counter()
            latencies: list[float] = []
            wrong = hung = 0
            lock = threading.Lock()
            per_client = args.requests // args.clients

            def client(seed: int) -> None:
                nonlocal wrong, hung
                rng = np.random.default_rng(seed)
                with httpx.Client(base_url=f"http://{address}", timeout=30) as http:
                    for _ in range(per_client):
                        kind = rng.integers(10)
                        try:
                            if kind < 5:
                                start = time.monotonic()
                                r = http.post("/v2/models/mlp/infer", json=GOOD)
                                took = time.monotonic() - start
                                ok = r.status_code == 200 and np.allclose(
                                    np.array(r.json()["outputs"][0]["data"]).reshape(want.shape), want, rtol=1e-6)
                                with lock:
                                    latencies.append(took)
                                    wrong += r.status_code == 200 and not ok
                            elif kind < 8:
                                r = http.post("/v2/models/mlp/infer", content=BAD[rng.integers(len(BAD))])
                            else:  # a slow upload that stalls, or a client that hangs up mid-body
                                with socket.create_connection((host, int(port))) as sock:
                                    sock.sendall(b"POST /v2/models/mlp/infer HTTP/1.1\r\nHost: x\r\n"
                                                 b"Content-Length: 400\r\n\r\n{\"inputs\"")
                                    if kind == 8:
                                        time.sleep(0.05)
                                        with lock:
                                            statuses["dropped by the client"] += 1
                                        continue
                                    sock.settimeout(30)
                                    answer = sock.recv(64)
                                    with lock:
                                        statuses[int(answer.split()[1]) if answer else "closed"] += 1
                                continue
                        except httpx.TimeoutException:
                            with lock:
                                hung += 1
                            continue
                        except httpx.TransportError as exc:  # counted: a good client should never see one
                            with lock:
                                statuses[f"connection error ({type(exc).__name__})"] += 1
                            continue
                        with lock:
                            statuses[r.status_code] += 1

            start = time.monotonic()
            threads = [threading.Thread(target=client, args=(i,)) for i in range(args.clients)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            wall = time.monotonic() - start
            rss_after = _rss_kb(server.pid)
            for sock in idle:
                sock.close()
        finally:
            server.terminate()
            server.wait(timeout=60)
    lat = np.array(latencies) * 1000
    fivexx = sum(v for k, v in statuses.items() if isinstance(k, int) and k >= 500)
    print("| requests | by status | 5xx | wrong answers | hung | good p50 / p99 | idle sockets held open | "
          "server RSS before / after | wall |")
    print("|---|---|---|---|---|---|---|---|---|")
    print(f"| {sum(statuses.values()) + hung:,} | "
          f"{', '.join(f'{k}: {v}' for k, v in sorted(statuses.items(), key=str))} | {fivexx} | {wrong} | "
          f"{hung} | {np.percentile(lat, 50):.1f} / {np.percentile(lat, 99):.1f} ms | {args.idle} | "
          f"{rss_before / 1024:.0f} / {rss_after / 1024:.0f} MiB | {wall:.1f} s |")


if __name__ == "__main__":
    main()
