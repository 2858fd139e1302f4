"""The ASGI application: KServe v2 REST routes (Starlette) over the served models, plus /metrics.

    GET  /v2                                            server metadata
    GET  /v2/health/live, /v2/health/ready              health
    GET  /v2/models/{name}[/versions/{v}]               model metadata
    GET  /v2/models/{name}[/versions/{v}]/ready         model readiness
    GET  /v2/models/{name}[/versions/{v}]/config        Triton-style model config (JSON)
    POST /v2/models/{name}[/versions/{v}]/infer         inference (JSON or binary tensor data)
    GET  /metrics                                       Prometheus text

Every error is answered as `{"error": "..."}` with its status; the server keeps serving.
"""
from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from cellonnx import __version__
from cellonnx.serve import codec, compression
from cellonnx.serve.batcher import RunObserver, Scheduler
from cellonnx.serve.errors import BadRequest, ClientGone, NotFound, PayloadTooLarge, ServeError
from cellonnx.serve.metrics import UNKNOWN_MODEL, Metrics
from cellonnx.serve.model import ServedModel, cpu_count
from cellonnx.serve.protocol import default_max_connections
from cellonnx.serve.triton import model_config

_log = logging.getLogger("cellonnx.serve")
SERVER_NAME = "cellonnx"
EXTENSIONS = ("binary_tensor_data", "model_configuration", "metrics")
# how much of an oversized body is still read (and dropped) so the client gets to see the 413
_DRAIN_BYTES = 64 * 2**20


@dataclass(frozen=True)
class ServerConfig:
    """Serving knobs.

    Args:
        max_batch: most rows one merged run may hold; 0 or 1 turns dynamic batching off.
        batch_delay_ms: how long the oldest queued request may wait for requests to the same model that are
            still being received to join its batch (a lone request never waits).
        max_body_bytes: largest request body accepted (after decompression), else 413.
        workers: threads running onnxruntime (each run single-threaded), by default one per core.
        header_timeout_s: a request header must be complete this long after its connection opened or went
            idle, else 408 and the connection is closed.
        body_timeout_s: the longest pause allowed between two pieces of a request body, else 408 and close.
        max_connections: most connections held at once (by default what the open-file limit leaves); at the
            cap the one waiting longest for a request header is dropped, or the newcomer gets 503.
    """

    max_batch: int = 32
    batch_delay_ms: float = 0.0
    max_body_bytes: int = 64 * 2**20
    workers: int = field(default_factory=cpu_count)
    header_timeout_s: float = 10.0
    body_timeout_s: float = 30.0
    max_connections: int = field(default_factory=default_max_connections)


class _State:
    def __init__(self, models: Sequence[ServedModel], config: ServerConfig) -> None:
        self.models = {m.name: m for m in models}
        if len(self.models) != len(models):
            names = [m.name for m in models]
            raise ValueError(f"two models share a name: {sorted({n for n in names if names.count(n) > 1})}")
        self.config = config
        self.metrics = Metrics()
        self.executor = ThreadPoolExecutor(max_workers=config.workers, thread_name_prefix="cellonnx-infer")
        self.schedulers = {
            m.name: Scheduler(m, self.executor, config.workers, config.max_batch,
                              config.batch_delay_ms / 1000.0, self._observer(m.name))
            for m in models}

    def _observer(self, name: str) -> RunObserver:
        def observe(rows: int, requests: int, seconds: float) -> None:
            self.metrics.observe_run(name, rows, requests, seconds)
        return observe

    def model(self, request: Request) -> ServedModel:
        name = request.path_params["name"]
        model = self.models.get(name)
        if model is None:
            raise NotFound(f"unknown model '{name}'; this server serves {sorted(self.models)}")
        version = request.path_params.get("version")
        if version is not None and version != model.version:
            raise BadRequest(f"model '{name}' has no version '{version}'; its versions are [{model.version!r}]")
        return model


def _error(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


async def _read_body(request: Request, limit: int, progress: Callable[[], None]) -> bytes:
    """The raw body, or 413 past `limit` bytes (after reading and dropping a bounded rest, so the client
    is not cut off mid-upload before it can read the answer); `progress` is called as each piece arrives."""
    declared = request.headers.get("content-length", "")
    too_large = declared.isdigit() and int(declared) > limit
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            progress()
            if size > limit:
                too_large = True
            if too_large:
                if size > limit + _DRAIN_BYTES:
                    break
                continue
            chunks.append(chunk)
    except ClientDisconnect:
        raise ClientGone("the client closed the connection while sending its request") from None
    if too_large:
        raise PayloadTooLarge(f"request body of {declared or f'over {limit}'} bytes exceeds the limit of "
                              f"{limit} bytes (--max-body-mb)")
    return b"".join(chunks)


def create_app(models: Sequence[ServedModel], config: ServerConfig | None = None) -> Starlette:
    """The ASGI app serving `models` over the KServe v2 REST protocol.

    Examples:
        >>> from cellonnx.serve import ServedModel, ServerConfig, create_app
        >>> net = nn.Dense(4, 3)
        >>> net.set_inputs(Tensor(shape=(None, 4), dtype=ms.float32))
        >>> path = ms.export(net, Tensor(np.ones((1, 4), np.float32)), file_name="mlp")  # mlp.onnx
        >>> app = create_app([ServedModel("mlp.onnx")], ServerConfig(max_batch=16, batch_delay_ms=2))
        >>> from starlette.testclient import TestClient  # or: uvicorn.run(app, port=8000)
        >>> with TestClient(app) as client:
        ...     print(client.get("/v2/models/mlp").json()["inputs"])
        [{'name': 'x', 'datatype': 'FP32', 'shape': [-1, 4]}]
    """
    state = _State(models, config or ServerConfig())

    async def server_metadata(request: Request) -> Response:
        return JSONResponse({"name": SERVER_NAME, "version": __version__, "extensions": list(EXTENSIONS)})

    async def live(request: Request) -> Response:
        return JSONResponse({"live": True})

    async def ready(request: Request) -> Response:
        return JSONResponse({"ready": True})

    async def model_metadata(request: Request) -> Response:
        return JSONResponse(state.model(request).metadata())

    async def model_ready(request: Request) -> Response:
        model = state.model(request)
        return JSONResponse({"name": model.name, "ready": True})

    async def config_route(request: Request) -> Response:
        model = state.model(request)
        scheduler = state.schedulers[model.name]
        max_batch = state.config.max_batch if scheduler.batching else 0
        return JSONResponse(model_config(model.signature, model.name, max_batch, 1, model.device,
                                         int(state.config.batch_delay_ms * 1000)))

    async def infer(request: Request) -> Response:
        start = time.perf_counter()
        label, version, status = UNKNOWN_MODEL, "", 200
        try:
            model = state.model(request)
            label, version = model.name, model.version
            response = await _infer(request, model)
        except ServeError as exc:
            status = exc.status
            response = _error(exc.status, str(exc),
                              {"connection": "close"} if isinstance(exc, (PayloadTooLarge, ClientGone)) else None)
        except Exception as exc:  # noqa: BLE001 - an onnxruntime failure or a bug: logged, answered, counted
            _log.exception("inference on %s failed", request.url.path)
            status = 500
            response = _error(500, f"internal error: {type(exc).__name__}: {exc}")
        state.metrics.observe_request(label, version, time.perf_counter() - start, status)
        return response

    async def _infer(request: Request, model: ServedModel) -> Response:
        limit = state.config.max_body_bytes
        scheduler = state.schedulers[model.name]
        with scheduler.receiving() as upload:
            body = await _read_body(request, limit, upload.progress)
            body = compression.decompress(body, request.headers.get("content-encoding"), limit)
            header_length = codec.parse_header_length(request.headers.get(codec.HEADER_LENGTH), len(body))
            parsed = codec.decode_request(body, header_length)
            feeds = model.check_inputs(parsed.inputs)
            wanted = parsed.outputs or tuple(codec.RequestedOutput(n, parsed.binary_output)
                                             for n in model.output_names)
            model.check_outputs(o.name for o in wanted)
        results = await scheduler.infer(feeds, [o.name for o in wanted])
        outputs = [codec.OutputTensor(o.name, model.output_spec(o.name).datatype, results[o.name], o.binary)
                   for o in wanted]
        payload, headers = codec.encode_response(model.name, model.version, parsed.id, outputs)
        encoding = compression.choose_encoding(request.headers.get("accept-encoding"))
        if encoding and len(payload) >= compression.MIN_COMPRESS_BYTES:
            payload = compression.compress(payload, encoding)
            headers["content-encoding"] = encoding
        return Response(payload, headers=headers)

    async def metrics(request: Request) -> Response:
        body, content_type = state.metrics.render()
        return Response(body, headers={"content-type": content_type})

    async def serve_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ServeError)
        return _error(exc.status, str(exc))

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        message = {404: f"no route {request.url.path}", 405: f"method {request.method} not allowed on "
                   f"{request.url.path}"}.get(exc.status_code, str(exc.detail))
        return _error(exc.status_code, message, dict(exc.headers or {}))

    async def internal_error(request: Request, exc: Exception) -> Response:
        return _error(500, f"internal error: {type(exc).__name__}: {exc}")

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        for scheduler in state.schedulers.values():
            await scheduler.start()
        try:
            yield
        finally:
            for scheduler in state.schedulers.values():
                await scheduler.stop()
            state.executor.shutdown(wait=True)

    model_paths = ("/v2/models/{name}", "/v2/models/{name}/versions/{version}")
    routes = [Route("/v2", server_metadata), Route("/v2/health/live", live), Route("/v2/health/ready", ready),
              Route("/metrics", metrics)]
    for base in model_paths:
        routes += [Route(base, model_metadata), Route(base + "/ready", model_ready),
                   Route(base + "/config", config_route), Route(base + "/infer", infer, methods=["POST"])]
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={ServeError: serve_error, HTTPException: http_error,
                                        Exception: internal_error})
    app.state.serving = state
    return app
