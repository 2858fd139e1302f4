"""uvicorn's HTTP protocol with the deadlines and the connection cap it lacks.

A client that opens connections and sends half a request header (or half a body) and then nothing holds a file
descriptor for as long as it likes; a few hundred such sockets exhaust the process's descriptors and real
clients get connection resets. Here:

- a request's header must be complete within ``header_timeout`` seconds of its first byte (or of the
  connection, for the first request), else the server answers 408 and closes the connection;
- a body must keep coming: no gap between its chunks longer than ``body_timeout`` seconds (408 and close);
- the server holds at most ``max_connections`` connections: at the cap, a new connection first evicts one that
  is waiting for a request header (one that sent part of a header first, then one that never sent anything,
  then an idle keep-alive connection; the longest-waiting of a kind), and is answered 503 when there is none.
"""
from __future__ import annotations

import asyncio
import resource
import time
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

_RESERVED_FDS = 64  # model files, onnxruntime, logs: what the process needs beside its sockets


def default_max_connections() -> int:
    """What the open-file limit leaves for sockets (at most 4,096)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return 4096
    return max(8, min(4096, soft - _RESERVED_FDS))


def _response(status: bytes, message: str) -> bytes:
    body = message.encode()
    return (b"HTTP/1.1 " + status + b"\r\ncontent-type: application/json\r\nconnection: close\r\n"
            b"content-length: " + str(len(body)).encode() + b"\r\n\r\n" + body)


_TIMEOUT = b"408 Request Timeout"
_BUSY = b"503 Service Unavailable"


class GuardedProtocol(HttpToolsProtocol):
    """HttpToolsProtocol plus header/body deadlines and a connection cap (class attributes, see ``guarded``)."""

    header_timeout: float = 10.0
    body_timeout: float = 30.0
    max_connections: int = 1024

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._waiting_since: float | None = None  # when this connection began waiting for a request header
        self._partial = False   # part of a request header has arrived
        self._served = False    # it has completed a request (an idle keep-alive connection, not a stranger)
        self._evicted = False

    # ---------------------------------------------------------------- connections
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        if len(self.connections) >= self.max_connections and not self._evict_one():
            transport.write(_response(_BUSY, '{"error": "the server holds its maximum number of connections; '
                                             'retry later"}'))
            transport.close()
            self.transport = transport
            self._evicted = True
            return
        super().connection_made(transport)
        self._await_header()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        if not self._evicted:  # (a connection refused at the cap was never registered)
            super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._evicted:
            return
        if self._waiting_since is not None:
            self._partial = True
            if self._deadline is None:  # a keep-alive connection begins its next request: the header is due
                self._arm(self.header_timeout, "request header")
        super().data_received(data)

    def _evict_one(self) -> bool:
        waiting = [c for c in self.connections if isinstance(c, GuardedProtocol) and c._waiting_since is not None]
        if not waiting:
            return False
        victim = min(waiting, key=lambda c: (not c._partial, c._served, c._waiting_since or 0.0))
        victim._expire("the server needed the connection for another client")
        return True

    # ---------------------------------------------------------------- per request
    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._deadline is None:  # a pipelined request's header: due within the timeout too
            self._arm(self.header_timeout, "request header")

    def on_headers_complete(self) -> None:
        super().on_headers_complete()
        self._waiting_since = None
        self._partial = False
        self._arm(self.body_timeout, "request body")

    def on_body(self, body: bytes) -> None:
        super().on_body(body)
        self._arm(self.body_timeout, "request body")

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._disarm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._served = True
        self._disarm()
        if not self.transport.is_closing():  # idle: uvicorn's keep-alive timeout closes it, unless it is evicted
            self._waiting_since = time.monotonic()

    # ---------------------------------------------------------------- timers
    def _await_header(self) -> None:
        self._waiting_since = time.monotonic()
        self._arm(self.header_timeout, "request header")

    def _arm(self, seconds: float, what: str) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(seconds, self._expire, f"no complete {what} within {seconds:g} s")

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expire(self, why: str) -> None:
        """408 and close; an idle keep-alive connection (no request begun) is closed without a word, as
        uvicorn's keep-alive timeout does, so a client never reads a 408 for a request it is only sending."""
        idle = self._waiting_since is not None and not self._partial and self._served
        self._deadline = None
        self._waiting_since = None
        if self.transport.is_closing():
            return
        if not idle and (self.cycle is None or not self.cycle.response_started):
            self.transport.write(_response(_TIMEOUT, '{"error": "' + why + '"}'))
        self.transport.close()


def guarded(header_timeout: float, body_timeout: float, max_connections: int) -> type[GuardedProtocol]:
    """A GuardedProtocol class with these limits, for ``uvicorn.Config(http=...)``."""
    return type("GuardedProtocol", (GuardedProtocol,), {"header_timeout": header_timeout,
                                                        "body_timeout": body_timeout,
                                                        "max_connections": max_connections})
