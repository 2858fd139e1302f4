"""``ops.TCPStore``: MindSpore's TCP key-value store, which processes use to exchange small values (addresses,
counters, flags) before or beside the collectives.

The master (``is_master=True``) serves the store on a thread of its own process; every store, the master's
too, talks to it over one TCP connection. A request is one frame: the operation (1 byte), the key's length
(4 bytes), the value's length (8 bytes), the key and the value; the answer is a status byte, a length and a
payload. Keys are UTF-8 strings under 4 KiB, values bytes under 1 GiB, as MindSpore's limits.
"""

from __future__ import annotations

import socket
import socketserver
import struct
import threading
import time
from datetime import timedelta
from typing import Any

__all__ = ["TCPStore"]

_REQUEST = struct.Struct("!BIQ")
_ANSWER = struct.Struct("!BQ")
_SET, _GET, _ADD, _DELETE, _JOIN, _WORKERS = range(6)
_OK, _MISSING, _ERROR = range(3)
MAX_KEY = 4096
MAX_VALUE = 1 << 30


def _read(sock: socket.socket, n: int) -> bytes:
    chunks, left = [], n
    while left:
        chunk = sock.recv(min(left, 1 << 20))
        if not chunk:
            raise ConnectionError("the TCPStore connection closed")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


class _State:
    def __init__(self) -> None:
        self.data: dict[str, bytes] = {}
        self.workers = 0
        self.changed = threading.Condition()


class _Handler(socketserver.BaseRequestHandler):
    server: Any

    def handle(self) -> None:
        state: _State = self.server.state
        sock = self.request
        while True:
            try:
                op, klen, vlen = _REQUEST.unpack(_read(sock, _REQUEST.size))
                if klen >= MAX_KEY or vlen >= MAX_VALUE:
                    self._answer(
                        _ERROR, f"key of {klen} bytes or value of {vlen} bytes is over the limit".encode()
                    )
                    return
                key = _read(sock, klen).decode("utf-8")
                value = _read(sock, vlen)
            except (ConnectionError, OSError, UnicodeDecodeError, struct.error):
                return
            self._answer(*self._serve(state, op, key, value))

    def _answer(self, status: int, payload: bytes = b"") -> None:
        self.request.sendall(_ANSWER.pack(status, len(payload)) + payload)

    @staticmethod
    def _serve(state: _State, op: int, key: str, value: bytes) -> tuple[int, bytes]:
        with state.changed:
            if op == _SET:
                state.data[key] = value
            elif op == _GET:
                if key not in state.data:
                    return _MISSING, b""
                return _OK, state.data[key]
            elif op == _ADD:
                try:
                    total = int(state.data.get(key, b"0")) + int(value)
                except ValueError:
                    return _ERROR, f"the value of key {key!r} is not an integer".encode()
                state.data[key] = str(total).encode()
                value = state.data[key]
            elif op == _DELETE:
                return _OK, b"1" if state.data.pop(key, None) is not None else b"0"
            elif op == _JOIN:
                state.workers += 1
            elif op == _WORKERS:
                return _OK, str(state.workers).encode()
            else:
                return _ERROR, f"unknown operation {op}".encode()
            state.changed.notify_all()
            return _OK, value


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int]) -> None:
        super().__init__(address, _Handler)
        self.state = _State()


def _check(name: str, value: Any, kind: type | tuple, arg: str) -> None:
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        kinds = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise TypeError(
            f"For '{name}', the argument '{arg}' must be type of {kinds}, but got '{arg}' type : "
            f"{type(value)}."
        )


class TCPStore:
    """A TCP key-value store shared by processes.

    Args:
        host_name (str): the address the master serves on and the others connect to.
        port (int): its port.
        world_size (int, optional): the number of store users (the clients and the master); the master waits
            for the others to connect when ``wait_for_workers``. Default: None (not fixed).
        is_master (bool): whether this process serves the store. Default: False.
        timeout (timedelta): how long to wait to connect, for the workers, and in ``get``. Default: 300 s.
        wait_for_workers (bool): whether the master waits for ``world_size - 1`` clients. Default: True.
        multi_tenant, master_listen_fd, use_libuv: accepted and ignored, as in MindSpore.

    Examples:
        >>> from cellonnx.ops import TCPStore
        >>> store = TCPStore("127.0.0.1", 0, is_master=True)
        >>> store.set("first_key", "first_value")
        >>> store.get("first_key")
        b'first_value'
        >>> store.add("count", 2), store.add("count", 3)
        (2, 5)
        >>> store.delete_key("count")
        True
    """

    def __init__(
        self,
        host_name: str,
        port: int,
        world_size: int | None = None,
        is_master: bool = False,
        timeout: timedelta = timedelta(seconds=300),
        wait_for_workers: bool = True,
        multi_tenant: bool = False,
        master_listen_fd: int | None = None,
        use_libuv: bool = True,
    ) -> None:
        _check("TCPStore", host_name, str, "host_name")
        _check("TCPStore", port, int, "port")
        _check("TCPStore", is_master, bool, "is_master")
        _check("TCPStore", timeout, timedelta, "timeout")
        _check("TCPStore", wait_for_workers, bool, "wait_for_workers")
        world_size = 1 if world_size is None else world_size
        _check("TCPStore", world_size, int, "world_size")
        if not 0 <= port <= 65535:
            raise ValueError(f"For 'TCPStore', the argument 'port' must be legal, but got {port}.")
        if world_size <= 0:
            raise ValueError(
                f"For 'TCPStore', the argument 'world_size' must be legal, but got {world_size}."
            )
        self.host, self.timeout = host_name, timeout.total_seconds()
        self._server: _Server | None = None
        self._lock = threading.Lock()
        if is_master:
            try:
                self._server = _Server((host_name, port))
            except OSError as exc:
                raise RuntimeError(f"TCPStore: cannot serve on {host_name}:{port}: {exc}") from None
            port = self._server.server_address[1]
            threading.Thread(target=self._server.serve_forever, name="TCPStore", daemon=True).start()
        self.port = port
        self._sock = self._connect()
        if not is_master:
            self._call(_JOIN, "", b"")
        elif wait_for_workers and world_size > 1:
            self._wait_for(
                lambda: int(self._call(_WORKERS, "", b"")) >= world_size - 1,
                f"{world_size - 1} workers to connect",
            )

    def _connect(self) -> socket.socket:
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                sock = socket.create_connection((self.host, self.port), timeout=max(self.timeout, 1.0))
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                return sock
            except OSError as exc:
                if time.monotonic() >= deadline:
                    raise RuntimeError(
                        f"TCPStore: no store answered at {self.host}:{self.port} within "
                        f"{self.timeout:g} s ({exc})"
                    ) from None
                time.sleep(0.05)

    def _wait_for(self, ready: Any, what: str) -> None:
        deadline = time.monotonic() + self.timeout
        while not ready():
            if time.monotonic() >= deadline:
                raise RuntimeError(f"TCPStore: timed out after {self.timeout:g} s waiting for {what}")
            time.sleep(0.01)

    def _call(self, op: int, key: str, value: bytes) -> bytes:
        raw = key.encode("utf-8")
        if len(raw) >= MAX_KEY:
            raise ValueError(f"TCPStore: the key must be under {MAX_KEY} bytes, but got {len(raw)}")
        if len(value) >= MAX_VALUE:
            raise ValueError(f"TCPStore: the value must be under 1 GiB, but got {len(value)} bytes")
        with self._lock:
            self._sock.sendall(_REQUEST.pack(op, len(raw), len(value)) + raw + value)
            status, n = _ANSWER.unpack(_read(self._sock, _ANSWER.size))
            payload = _read(self._sock, n)
        if status == _ERROR:
            raise RuntimeError(f"TCPStore: {payload.decode('utf-8', 'replace')}")
        if status == _MISSING:
            raise KeyError(key)
        return payload

    def add(self, key: str, amount: int) -> int:
        """Add ``amount`` to the counter ``key`` (created at 0) and return its new value."""
        _check("TCPStore.add", key, str, "key")
        _check("TCPStore.add", amount, int, "amount")
        return int(self._call(_ADD, key, str(amount).encode()))

    def set(self, key: str, value: bytes | str) -> None:
        """Store ``value`` (bytes, or a str stored as UTF-8) under ``key``."""
        _check("TCPStore.set", key, str, "key")
        _check("TCPStore.set", value, (bytes, str), "value")
        self._call(_SET, key, value.encode("utf-8") if isinstance(value, str) else value)

    def get(self, key: str) -> bytes:
        """The value under ``key``, waiting up to the store's timeout for another process to set it."""
        _check("TCPStore.get", key, str, "key")
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                return self._call(_GET, key, b"")
            except KeyError:
                if time.monotonic() >= deadline:
                    raise RuntimeError(
                        f"TCPStore.get: the key {key!r} was not set within {self.timeout:g} s"
                    ) from None
                time.sleep(0.01)

    def delete_key(self, key: str) -> bool:
        """Remove ``key``; whether it was there."""
        _check("TCPStore.delete_key", key, str, "key")
        return self._call(_DELETE, key, b"") == b"1"

    def __del__(self) -> None:
        try:
            self._sock.close()
            if self._server is not None:
                self._server.shutdown()
                self._server.server_close()
        except Exception:  # noqa: BLE001 (interpreter shutdown)
            pass
