"""Errors a request can cause, each carrying its HTTP status and its gRPC status code; the HTTP app turns any
of them into `{"error": "<message>"}` with that status, the gRPC service into that code and message, and the
server goes on serving."""
from __future__ import annotations


class ServeError(Exception):
    """A request the server refuses; `status` is the HTTP status code it answers with, `grpc_code` the name
    of the grpc.StatusCode."""

    status = 500
    grpc_code = "INTERNAL"


class BadRequest(ServeError):
    status = 400
    grpc_code = "INVALID_ARGUMENT"


class NotFound(ServeError):
    status = 404
    grpc_code = "NOT_FOUND"


class PayloadTooLarge(ServeError):
    status = 413
    grpc_code = "RESOURCE_EXHAUSTED"


class Unavailable(ServeError):
    status = 503
    grpc_code = "UNAVAILABLE"


class ClientGone(ServeError):
    """The client closed the connection before its request was read: nobody is left to answer (counted as
    499, the status nginx records for this, never as a server error)."""

    status = 499
    grpc_code = "CANCELLED"


class NotAllowed(ServeError):
    """A repository request the model-control mode does not allow (load/unload outside explicit mode)."""

    status = 400
    grpc_code = "FAILED_PRECONDITION"


class ModelLoadError(ValueError):
    """An ONNX file that cannot be served (unreadable, unsupported types, missing execution provider).

    Examples:
        >>> from cellonnx.serve import ModelLoadError, ServedModel
        >>> _ = open("broken.onnx", "wb").write(b"not a model")
        >>> try:
        ...     ServedModel("broken.onnx")
        ... except ModelLoadError as exc:
        ...     print(type(exc).__name__, isinstance(exc, ValueError))
        ModelLoadError True
    """
