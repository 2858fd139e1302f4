"""The ASGI application: KServe v2 REST routes (Starlette) over the served models, plus /metrics; and, when
the config names a gRPC port, the KServe v2 gRPC service beside it on the same event loop and models.

    GET  /v2                                            server metadata
    GET  /v2/health/live, /v2/health/ready              health
    GET  /v2/models/{name}[/versions/{v}]               model metadata
    GET  /v2/models/{name}[/versions/{v}]/ready         model readiness
    GET  /v2/models/{name}[/versions/{v}]/config        Triton-style model config (JSON)
    POST /v2/models/{name}[/versions/{v}]/infer         inference (JSON or binary tensor data)
    GET  /v2/models[/{name}[/versions/{v}]]/stats       Triton's statistics extension
    POST /v2/repository/index                           Triton's model repository extension: the index,
    POST /v2/repository/models/{name}/load              model load
    POST /v2/repository/models/{name}/unload            and unload (model-control mode explicit)
    GET  /metrics                                       Prometheus text

Every error is answered as `{"error": "..."}` with its status; the server keeps serving.
"""
from __future__ import annotations

import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from cellonnx import __version__
from cellonnx.serve import codec, compression
from cellonnx.serve.config import ServerConfig
from cellonnx.serve.errors import BadRequest, ClientGone, PayloadTooLarge, ServeError
from cellonnx.serve.model import ServedModel
from cellonnx.serve.registry import Registry, Version
from cellonnx.serve.triton import config_json

_log = logging.getLogger("cellonnx.serve")
SERVER_NAME = "cellonnx"
EXTENSIONS = ("binary_tensor_data", "model_configuration", "model_repository", "statistics", "metrics")
# how much of an oversized body is still read (and dropped) so the client gets to see the 413
_DRAIN_BYTES = 64 * 2**20
_REPOSITORY_BODY_BYTES = 1 << 20

__all__ = ["EXTENSIONS", "SERVER_NAME", "ServerConfig", "create_app"]


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


async def _small_json(request: Request) -> dict[str, Any]:
    """The optional JSON object body of a repository request."""
    body = await _read_body(request, _REPOSITORY_BODY_BYTES, lambda: None)
    if not body.strip():
        return {}
    try:
        doc = json.loads(body)
    except ValueError as exc:
        raise BadRequest(f"malformed JSON in the request body: {exc}") from None
    if not isinstance(doc, dict):
        raise BadRequest(f"the request body must be a JSON object, got {type(doc).__name__}")
    return doc


def create_app(models: Sequence[ServedModel] | Registry, config: ServerConfig | None = None) -> Starlette:
    """The ASGI app serving `models` (ONNX files, or a Registry such as one over a Triton model repository)
    over the KServe v2 REST protocol, and over gRPC too when `config.grpc_port` is set (the port it bound is
    then ``app.state.grpc_port`` once the app has started).

    Examples:
        >>> app = create_app([ServedModel("mlp.onnx")], ServerConfig(max_batch=16, batch_delay_ms=2))
        >>> uvicorn.run(app, port=8000)
    """
    if isinstance(models, Registry):
        if config is not None and config is not models.config:
            raise ValueError("a Registry brings its own ServerConfig; pass config=None")
        registry = models
    else:
        registry = Registry(config or ServerConfig(), models)
    state = registry

    def path_version(request: Request) -> Version:
        return state.get(request.path_params["name"], request.path_params.get("version"))

    async def server_metadata(request: Request) -> Response:
        return JSONResponse({"name": SERVER_NAME, "version": __version__, "extensions": list(EXTENSIONS)})

    async def live(request: Request) -> Response:
        return JSONResponse({"live": True})

    async def ready(request: Request) -> Response:
        return JSONResponse({"ready": True})

    async def model_metadata(request: Request) -> Response:
        return JSONResponse(state.metadata(request.path_params["name"], request.path_params.get("version")))

    async def model_ready(request: Request) -> Response:
        served = path_version(request)
        return JSONResponse({"name": served.model.name, "ready": True})

    async def config_route(request: Request) -> Response:
        name = request.path_params["name"]
        path_version(request)
        return JSONResponse(config_json(state.entry(name).config))

    async def stats_route(request: Request) -> Response:
        rows = state.statistics(request.path_params.get("name", ""), request.path_params.get("version", ""))
        return JSONResponse({"model_stats": rows})

    async def repository_index(request: Request) -> Response:
        doc = await _small_json(request)
        ready_only = doc.get("ready", False)
        if not isinstance(ready_only, bool):
            raise BadRequest(f"'ready' must be true or false, got {ready_only!r}")
        return JSONResponse(state.index(ready_only))

    async def repository_load(request: Request) -> Response:
        doc = await _small_json(request)
        if doc.get("parameters"):
            raise BadRequest(f"load parameters {sorted(doc['parameters'])} are not supported by this server; "
                             "edit the model's folder instead")
        await state.load(request.path_params["name"])
        return JSONResponse({})

    async def repository_unload(request: Request) -> Response:
        await _small_json(request)
        await state.unload(request.path_params["name"])
        return JSONResponse({})

    async def infer(request: Request) -> Response:
        start = time.perf_counter()
        served: Version | None = None
        status, rows = 200, 0
        try:
            served = path_version(request)
            response, rows = await _infer(request, served)
        except ServeError as exc:
            status = exc.status
            close = isinstance(exc, (PayloadTooLarge, ClientGone))
            response = _error(exc.status, str(exc), {"connection": "close"} if close else None)
        except Exception as exc:  # noqa: BLE001 - an onnxruntime failure or a bug: logged, answered, counted
            _log.exception("inference on %s failed", request.url.path)
            status = 500
            response = _error(500, f"internal error: {type(exc).__name__}: {exc}")
        state.observe(served, time.perf_counter() - start, status, rows)
        return response

    async def _infer(request: Request, served: Version) -> tuple[Response, int]:
        limit = state.config.max_body_bytes
        model, scheduler = served.model, served.scheduler
        with scheduler.receiving() as upload:
            body = await _read_body(request, limit, upload.progress)
            body = compression.decompress(body, request.headers.get("content-encoding"), limit)
            header_length = codec.parse_header_length(request.headers.get(codec.HEADER_LENGTH), len(body))
            parsed = codec.decode_request(body, header_length)
            wanted = parsed.outputs or tuple(codec.RequestedOutput(n, parsed.binary_output)
                                             for n in model.output_names)
            feeds, names = served.prepare(parsed.inputs, [o.name for o in wanted])
        results = served.finish(await scheduler.infer(feeds, names))
        outputs = [codec.OutputTensor(o.name, model.output_spec(o.name).datatype, results[o.name], o.binary)
                   for o in wanted]
        payload, headers = codec.encode_response(model.name, model.version, parsed.id, outputs)
        encoding = compression.choose_encoding(request.headers.get("accept-encoding"))
        if encoding and len(payload) >= compression.MIN_COMPRESS_BYTES:
            payload = compression.compress(payload, encoding)
            headers["content-encoding"] = encoding
        first = next(iter(feeds.values()), None)
        return Response(payload, headers=headers), (first.shape[0] if first is not None and first.ndim else 1)

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
        await state.start()
        grpc_server = None
        try:
            if state.config.grpc_port is not None:
                from cellonnx.serve.grpc_service import start_grpc_server

                grpc_server, app.state.grpc_port = await start_grpc_server(
                    state, state.config.grpc_host, state.config.grpc_port)
            yield
        finally:
            if grpc_server is not None:
                await grpc_server.stop(grace=5)
            await state.stop()

    model_paths = ("/v2/models/{name}", "/v2/models/{name}/versions/{version}")
    routes = [Route("/v2", server_metadata), Route("/v2/health/live", live), Route("/v2/health/ready", ready),
              Route("/metrics", metrics), Route("/v2/models/stats", stats_route),
              Route("/v2/repository/index", repository_index, methods=["POST"]),
              Route("/v2/repository/models/{name}/load", repository_load, methods=["POST"]),
              Route("/v2/repository/models/{name}/unload", repository_unload, methods=["POST"])]
    for base in model_paths:
        routes += [Route(base, model_metadata), Route(base + "/ready", model_ready),
                   Route(base + "/config", config_route), Route(base + "/infer", infer, methods=["POST"]),
                   Route(base + "/stats", stats_route)]
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={ServeError: serve_error, HTTPException: http_error,
                                        Exception: internal_error})
    app.state.serving = state
    app.state.grpc_port = None
    return app
