"""The test models on disk, and a live server on free loopback ports (uvicorn in a thread, the gRPC service on
its event loop)."""
from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from starlette.applications import Starlette

from cellonnx.serve import ServedModel, ServerConfig, create_app, make_server
from tests.serve.helpers import (
    BATCH_DELAY_MS,
    MAX_BATCH,
    SERVED,
    TYPED_MODEL,
    TYPES_MODEL,
    LiveServer,
    fixed_model,
    mlp_model,
    multi_model,
    types_model,
)


@pytest.fixture(scope="session")
def model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("serve-models")
    mlp_model(root / "mlp.onnx")
    multi_model(root / "multi.onnx")
    types_model(root / "types.onnx", TYPES_MODEL)
    types_model(root / "bf16.onnx", ["BF16"])
    types_model(root / "typed.onnx", TYPED_MODEL)
    fixed_model(root / "fixed.onnx")
    return root


@contextmanager
def running(app: Starlette) -> Iterator[LiveServer]:
    """`app` served on a free loopback port until the block ends."""
    # proto IPPROTO_TCP, not 0: asyncio only sets TCP_NODELAY on sockets whose proto says TCP, and without it
    # Nagle's algorithm meets delayed ACKs and every response stalls ~40 ms
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    server = make_server(app, log_level="warning")
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.01)
    grpc_port = app.state.grpc_port
    try:
        yield LiveServer(f"127.0.0.1:{sock.getsockname()[1]}", app, server,
                         None if grpc_port is None else f"127.0.0.1:{grpc_port}")
    finally:
        server.should_exit = True
        thread.join(timeout=15)
        sock.close()


@pytest.fixture(scope="session")
def live_server(model_dir: Path) -> Iterator[LiveServer]:
    models = [ServedModel(model_dir / f"{n}.onnx") for n in SERVED]
    app = create_app(models, ServerConfig(max_batch=MAX_BATCH, batch_delay_ms=BATCH_DELAY_MS,
                                          max_body_bytes=1 << 20, workers=2, grpc_port=0))
    with running(app) as server:
        yield server
