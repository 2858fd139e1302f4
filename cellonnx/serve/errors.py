"""Errors a request can cause, each carrying its HTTP status; the app turns any of them into
`{"error": "<message>"}` with that status, and the server goes on serving."""
from __future__ import annotations


class ServeError(Exception):
    """A request the server refuses; `status` is the HTTP status code it answers with."""

    status = 500


class BadRequest(ServeError):
    status = 400


class NotFound(ServeError):
    status = 404


class PayloadTooLarge(ServeError):
    status = 413


class Unavailable(ServeError):
    status = 503


class ClientGone(ServeError):
    """The client closed the connection before its request was read: nobody is left to answer (counted as
    499, the status nginx records for this, never as a server error)."""

    status = 499


class ModelLoadError(ValueError):
    """An ONNX file that cannot be served (unreadable, unsupported types, missing execution provider)."""
