"""Abusive clients on 127.0.0.1: half-sent headers and bodies, idle sockets past the connection cap, uploads
that stall while a batch forms, clients that hang up mid-upload, and all of it interleaved with good traffic.
The server answers 4xx or closes, never hangs, never answers 5xx, and good requests get correct answers."""
from __future__ import annotations

import json
import logging
import resource
import socket
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import httpx
import numpy as np
import onnxruntime as ort
import pytest

from cellonnx.serve import ServedModel, ServerConfig, create_app, make_server
from tests.serve.helpers import MLP_RTOL, LiveServer
from tests.tolerance import assert_close, close_mask

HEADER_TIMEOUT = 0.5
BODY_TIMEOUT = 0.5
MAX_CONNECTIONS = 24
BATCH_DELAY_MS = 5000.0  # long, so that a request held up by the stalled upload shows on a busy machine
GOOD = {"inputs": [{"name": "x", "shape": [2, 4], "datatype": "FP32", "data": [[1, 2, 3, 4], [5, 6, 7, 8]]}]}


@pytest.fixture(scope="module")
def guarded_server(model_dir: Path) -> Iterator[LiveServer]:
    app = create_app([ServedModel(model_dir / "mlp.onnx")],
                     ServerConfig(max_batch=8, batch_delay_ms=BATCH_DELAY_MS, max_body_bytes=1 << 20, workers=2,
                                  header_timeout_s=HEADER_TIMEOUT, body_timeout_s=BODY_TIMEOUT,
                                  max_connections=MAX_CONNECTIONS))
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    server = make_server(app, log_level="warning")
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.01)
    yield LiveServer(f"127.0.0.1:{sock.getsockname()[1]}", app, server)
    server.should_exit = True
    thread.join(timeout=15)
    sock.close()


def _want(model_dir: Path) -> np.ndarray:
    sess = ort.InferenceSession(str(model_dir / "mlp.onnx"), providers=["CPUExecutionProvider"])
    return sess.run(None, {"x": np.array(GOOD["inputs"][0]["data"], np.float32)})[0]


def _connect(server: LiveServer) -> socket.socket:
    host, port = server.url.split(":")
    return socket.create_connection((host, int(port)), timeout=10)


def _read_all(sock: socket.socket) -> bytes:
    chunks = []
    while True:
        try:
            data = sock.recv(65536)
        except ConnectionResetError:
            break
        if not data:
            break
        chunks.append(data)
    return b"".join(chunks)


def _good(server: LiveServer, model_dir: Path) -> float:
    start = time.monotonic()
    r = httpx.post(f"{server.base}/v2/models/mlp/infer", json=GOOD, timeout=10)
    assert r.status_code == 200, r.text
    assert_close(np.array(r.json()["outputs"][0]["data"]).reshape(2, 3), _want(model_dir), rtol=1e-6,
                 scale_rtol=MLP_RTOL)
    return time.monotonic() - start


def test_a_half_sent_header_gets_408_and_the_connection_closes(guarded_server: LiveServer) -> None:
    with _connect(guarded_server) as sock:
        sock.sendall(b"POST /v2/models/mlp/infer HTTP/1.1\r\nHost: x\r\nContent-Le")
        start = time.monotonic()
        answer = _read_all(sock)
    assert answer.startswith(b"HTTP/1.1 408"), answer[:80]
    assert b"no complete request header" in answer
    assert time.monotonic() - start < HEADER_TIMEOUT + 5


def test_a_connection_that_never_speaks_is_closed(guarded_server: LiveServer) -> None:
    with _connect(guarded_server) as sock:
        start = time.monotonic()
        answer = _read_all(sock)
    assert answer.startswith(b"HTTP/1.1 408")
    assert time.monotonic() - start < HEADER_TIMEOUT + 5


def test_a_stalled_body_gets_408(guarded_server: LiveServer) -> None:
    with _connect(guarded_server) as sock:
        sock.sendall(b"POST /v2/models/mlp/infer HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"inp")
        answer = _read_all(sock)
    assert answer.startswith(b"HTTP/1.1 408"), answer[:80]
    assert b"no complete request body" in answer


def test_idle_sockets_past_the_cap_do_not_lock_out_real_clients(guarded_server: LiveServer,
                                                                model_dir: Path) -> None:
    idle = [_connect(guarded_server) for _ in range(MAX_CONNECTIONS + 10)]
    try:
        for sock in idle[: MAX_CONNECTIONS // 2]:
            sock.sendall(b"GET /v2 HTTP/1.1\r\nHo")  # half a header
        for _ in range(5):
            _good(guarded_server, model_dir)
    finally:
        for sock in idle:
            sock.close()


def test_a_stalled_upload_does_not_hold_up_a_lone_request(guarded_server: LiveServer, model_dir: Path) -> None:
    _good(guarded_server, model_dir)  # warm up
    with _connect(guarded_server) as stalled:
        stalled.sendall(b"POST /v2/models/mlp/infer HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{\"in")
        time.sleep(0.05)
        took = _good(guarded_server, model_dir)
    # the upload stalls for the whole request: it must not make the request wait the batch delay (1 s)
    assert took < BATCH_DELAY_MS / 1000 / 2, f"{took:.3f} s"


def test_a_client_hanging_up_mid_upload_is_counted_499_without_a_traceback(
        guarded_server: LiveServer, caplog: pytest.LogCaptureFixture) -> None:
    def failures() -> Counter:
        text = httpx.get(f"{guarded_server.base}/metrics", timeout=10).text
        out: Counter = Counter()
        for line in text.splitlines():
            if line.startswith("cellonnx_inference_failures_total{"):
                labels, value = line.rsplit(" ", 1)
                for status in ("499", "500"):
                    if f'code="{status}"' in labels:
                        out[status] += float(value)
        return out

    before = failures()
    with caplog.at_level(logging.DEBUG, logger="cellonnx.serve"):
        for _ in range(3):
            with _connect(guarded_server) as sock:
                sock.sendall(b"POST /v2/models/mlp/infer HTTP/1.1\r\nHost: x\r\nContent-Length: 500\r\n\r\n{")
                time.sleep(0.05)
        time.sleep(0.3)
    after = failures()
    assert after["500"] == before["500"]
    assert after["499"] - before["499"] == 3
    assert not any(r.exc_info for r in caplog.records)


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


BAD_BODIES = [b'{"inputs": [', b"[" * 20_000 + b"]" * 20_000, b'{"inputs": [\xff]}',
              json.dumps({"inputs": [{**GOOD["inputs"][0], "shape": [2] * 40}]}).encode(),
              json.dumps({"inputs": [{**GOOD["inputs"][0], "data": [[1e300, 2, 3, 4], [5, 6, 7, 8]]}]}).encode(),
              json.dumps({"inputs": [{**GOOD["inputs"][0], "shape": [0, 2**62, 2**62]}]}).encode()]


def test_soak_good_and_bad_traffic_interleaved(guarded_server: LiveServer, model_dir: Path) -> None:
    want = _want(model_dir)
    statuses: Counter = Counter()
    wrong: list[str] = []
    lock = threading.Lock()

    def client(seed: int) -> None:
        rng = np.random.default_rng(seed)
        with httpx.Client(base_url=guarded_server.base, timeout=20) as http:
            for _ in range(60):
                kind = rng.integers(4)
                if kind == 0:  # a slow half header, dropped
                    with _connect(guarded_server) as sock:
                        sock.sendall(b"POST /v2/models/mlp/infer HTTP/1.1\r\nHo")
                    continue
                if kind == 1:
                    r = http.post("/v2/models/mlp/infer", content=BAD_BODIES[rng.integers(len(BAD_BODIES))])
                else:
                    r = http.post("/v2/models/mlp/infer", json=GOOD)
                    if r.status_code == 200:
                        got = np.array(r.json()["outputs"][0]["data"]).reshape(2, 3)
                        if not close_mask(got, want, rtol=1e-6, scale_rtol=MLP_RTOL).all():
                            with lock:
                                wrong.append(r.text[:200])
                with lock:
                    statuses[r.status_code] += 1

    _good(guarded_server, model_dir)
    start_rss = _rss_mb()
    threads = [threading.Thread(target=client, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "a client hung"
    assert wrong == []
    assert not [s for s in statuses if s >= 500], statuses
    assert statuses[200] > 0 and statuses[400] > 0
    assert _rss_mb() - start_rss < 200, "memory grew under load"
