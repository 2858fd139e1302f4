"""The KServe v2 / Triton gRPC inference service (inference.GRPCInferenceService of Triton's
grpc_service.proto, with the messages and stubs tritonclient ships) over the same registry as the HTTP app:
the same models, schedulers (batching), limits, metrics and statistics, on the same event loop (grpc.aio).

Calls: ServerLive, ServerReady, ModelReady, ServerMetadata, ModelMetadata, ModelConfig, ModelStatistics,
ModelInfer, ModelStreamInfer (responses in request order; a failed request answers with `error_message`
and the stream goes on), RepositoryIndex, RepositoryModelLoad, RepositoryModelUnload. The shared-memory,
trace and log calls answer UNIMPLEMENTED.

A refused request is answered with the gRPC status of its error (INVALID_ARGUMENT, NOT_FOUND, UNAVAILABLE,
FAILED_PRECONDITION ...) and the same message the HTTP endpoint gives; messages over the body limit get
RESOURCE_EXHAUSTED from gRPC itself, and so do calls past the cap on calls in flight.
"""
from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator
from typing import Any

import grpc
from google.protobuf import json_format
from tritonclient.grpc import service_pb2, service_pb2_grpc

from cellonnx import __version__
from cellonnx.serve import grpc_codec
from cellonnx.serve.errors import ServeError
from cellonnx.serve.registry import Registry, Version

_log = logging.getLogger("cellonnx.serve")
STREAM_WINDOW = 64  # requests of one stream running at once; the stream reads no further meanwhile


class _Refused(Exception):
    def __init__(self, code: grpc.StatusCode, message: str) -> None:
        super().__init__(message)
        self.code = code


def _code(exc: ServeError) -> grpc.StatusCode:
    return grpc.StatusCode[exc.grpc_code]


class InferenceService(service_pb2_grpc.GRPCInferenceServiceServicer):
    """GRPCInferenceService over a Registry (grpc.aio handlers)."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry

    # ---------------------------------------------------------------- health and metadata
    async def ServerLive(self, request: Any, context: grpc.aio.ServicerContext) -> Any:
        return service_pb2.ServerLiveResponse(live=True)

    async def ServerReady(self, request: Any, context: grpc.aio.ServicerContext) -> Any:
        return service_pb2.ServerReadyResponse(ready=True)

    async def ModelReady(self, request: Any, context: grpc.aio.ServicerContext) -> Any:
        return service_pb2.ModelReadyResponse(ready=self.registry.is_ready(request.name, request.version))

    async def ServerMetadata(self, request: Any, context: grpc.aio.ServicerContext) -> Any:
        from cellonnx.serve.app import EXTENSIONS, SERVER_NAME

        return service_pb2.ServerMetadataResponse(name=SERVER_NAME, version=__version__,
                                                  extensions=list(EXTENSIONS))

    async def ModelMetadata(self, request: Any, context: grpc.aio.ServicerContext) -> Any:
        meta = await self._call(context, self.registry.metadata, request.name, request.version)
        return json_format.ParseDict(meta, service_pb2.ModelMetadataResponse())

    async def ModelConfig(self, request: Any, context: grpc.aio.ServicerContext) -> Any:
        def config() -> Any:
            self.registry.get(request.name, request.version)
            return self.registry.entry(request.name).config

        return service_pb2.ModelConfigResponse(config=await self._call(context, config))

    async def ModelStatistics(self, request: Any, context: grpc.aio.ServicerContext) -> Any:
        rows = await self._call(context, self.registry.statistics, request.name, request.version)
        return json_format.ParseDict({"model_stats": rows}, service_pb2.ModelStatisticsResponse())

    # ---------------------------------------------------------------- repository
    async def RepositoryIndex(self, request: Any, context: grpc.aio.ServicerContext) -> Any:
        response = service_pb2.RepositoryIndexResponse()
        for row in self.registry.index(request.ready):
            response.models.add(**row)
        return response

    async def RepositoryModelLoad(self, request: Any, context: grpc.aio.ServicerContext) -> Any:
        if request.parameters:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT,
                                f"load parameters {sorted(request.parameters)} are not supported by this "
                                "server; edit the model's folder instead")
        await self._call_async(context, self.registry.load(request.model_name))
        return service_pb2.RepositoryModelLoadResponse()

    async def RepositoryModelUnload(self, request: Any, context: grpc.aio.ServicerContext) -> Any:
        await self._call_async(context, self.registry.unload(request.model_name))
        return service_pb2.RepositoryModelUnloadResponse()

    # ---------------------------------------------------------------- inference
    async def ModelInfer(self, request: Any, context: grpc.aio.ServicerContext) -> Any:
        try:
            return await self._infer(request)
        except _Refused as exc:
            await context.abort(exc.code, str(exc))

    async def ModelStreamInfer(self, request_iterator: AsyncIterator[Any],
                               context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
        pending: asyncio.Queue[asyncio.Task[Any] | None] = asyncio.Queue(STREAM_WINDOW)

        async def read() -> None:
            try:
                async for request in request_iterator:
                    await pending.put(asyncio.ensure_future(self._stream_one(request)))
            finally:
                await pending.put(None)

        reader = asyncio.ensure_future(read())
        try:
            while True:
                task = await pending.get()
                if task is None:
                    break
                yield await task
            await reader
        finally:
            reader.cancel()
            while not pending.empty():
                task = pending.get_nowait()
                if task is not None:
                    task.cancel()

    async def _stream_one(self, request: Any) -> Any:
        try:
            return service_pb2.ModelStreamInferResponse(infer_response=await self._infer(request))
        except _Refused as exc:
            return service_pb2.ModelStreamInferResponse(
                error_message=str(exc),
                infer_response=service_pb2.ModelInferResponse(model_name=request.model_name,
                                                              model_version=request.model_version,
                                                              id=request.id))

    async def _infer(self, request: Any) -> Any:
        """One inference; _Refused with the status and message when it fails (counted in the metrics)."""
        start = time.perf_counter()
        served: Version | None = None
        status, rows = 200, 0
        try:
            served = self.registry.get(request.model_name, request.model_version)
            inputs, wanted = grpc_codec.decode_request(request)
            feeds, names = served.prepare(inputs, wanted)
            results = served.finish(await served.scheduler.infer(feeds, names))
            model = served.model
            response = grpc_codec.encode_response(
                model.name, model.version, request.id,
                [(n, model.output_spec(n).datatype, results[n]) for n in names])
            first = next(iter(feeds.values()), None)
            rows = first.shape[0] if first is not None and first.ndim else 1
            return response
        except ServeError as exc:
            status = exc.status
            raise _Refused(_code(exc), str(exc)) from None
        except Exception as exc:  # noqa: BLE001 - an onnxruntime failure or a bug: logged, answered, counted
            _log.exception("gRPC inference on model '%s' failed", request.model_name)
            status = 500
            raise _Refused(grpc.StatusCode.INTERNAL, f"internal error: {type(exc).__name__}: {exc}") from None
        finally:
            self.registry.observe(served, time.perf_counter() - start, status, rows)

    # ---------------------------------------------------------------- errors
    async def _call(self, context: grpc.aio.ServicerContext, function: Any, *args: Any) -> Any:
        try:
            return function(*args)
        except ServeError as exc:
            await context.abort(_code(exc), str(exc))

    async def _call_async(self, context: grpc.aio.ServicerContext, awaitable: Any) -> Any:
        try:
            return await awaitable
        except ServeError as exc:
            await context.abort(_code(exc), str(exc))


def server_options(registry: Registry) -> list[tuple[str, int]]:
    limit = registry.config.max_body_bytes
    return [("grpc.max_receive_message_length", limit), ("grpc.max_send_message_length", -1),
            ("grpc.so_reuseport", 0)]


async def start_grpc_server(registry: Registry, host: str, port: int) -> tuple[grpc.aio.Server, int]:
    """Start the service on host:port (0: any free port) on the running loop; returns the server and the
    port it bound."""
    server = grpc.aio.server(options=server_options(registry),
                             maximum_concurrent_rpcs=registry.config.max_connections)
    service_pb2_grpc.add_GRPCInferenceServiceServicer_to_server(InferenceService(registry), server)
    address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    try:
        bound = server.add_insecure_port(address)
    except RuntimeError as exc:
        raise OSError(f"cannot listen for gRPC on {address}: {exc}") from None
    if not bound:
        raise OSError(f"cannot listen for gRPC on {address}")
    await server.start()
    return server, bound


__all__ = ["InferenceService", "start_grpc_server"]
