"""The serving knobs one server's HTTP and gRPC endpoints share."""
from __future__ import annotations

from dataclasses import dataclass, field

from cellonnx.serve.model import cpu_count
from cellonnx.serve.protocol import default_max_connections


@dataclass(frozen=True)
class ServerConfig:
    """Serving knobs.

    Args:
        max_batch: most rows one merged run may hold; 0 or 1 turns dynamic batching off (ONNX files given on
            the command line; a repository model's config.pbtxt sets its own).
        batch_delay_ms: how long the oldest queued request may wait for requests to the same model that are
            still being received to join its batch (a lone request never waits).
        max_body_bytes: largest request body accepted (after decompression), else 413; also the largest gRPC
            message (else RESOURCE_EXHAUSTED).
        workers: threads running onnxruntime (each run single-threaded), by default one per core.
        header_timeout_s: a request header must be complete this long after its connection opened or went
            idle, else 408 and the connection is closed.
        body_timeout_s: the longest pause allowed between two pieces of a request body, else 408 and close.
        max_connections: most connections held at once (by default what the open-file limit leaves); at the
            cap the one waiting longest for a request header is dropped, or the newcomer gets 503. Also the
            most gRPC calls in flight at once (past it RESOURCE_EXHAUSTED).
        grpc_port: where the gRPC service listens (0: any free port); None: no gRPC service.
        grpc_host: the address the gRPC service listens on.

    Examples:
        >>> from cellonnx.serve import ServerConfig
        >>> config = ServerConfig(max_batch=8, batch_delay_ms=2.0)
        >>> print(config.max_batch, config.batch_delay_ms, config.grpc_port)
        8 2.0 None
    """

    max_batch: int = 32
    batch_delay_ms: float = 0.0
    max_body_bytes: int = 64 * 2**20
    workers: int = field(default_factory=cpu_count)
    header_timeout_s: float = 10.0
    body_timeout_s: float = 30.0
    max_connections: int = field(default_factory=default_max_connections)
    grpc_port: int | None = None
    grpc_host: str = "127.0.0.1"
