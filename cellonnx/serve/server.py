"""The uvicorn server for an app from ``create_app``: its HTTP protocol guarded by the app's connection limits
(cellonnx.serve.protocol), and the addresses it listens on known once it has started."""
from __future__ import annotations

import socket
from collections.abc import Callable

import uvicorn
from starlette.applications import Starlette

from cellonnx.serve.protocol import guarded


class Server(uvicorn.Server):
    """uvicorn.Server that reports where it listens once it has bound (``--port 0`` picks a free port).

    Args:
        config: the uvicorn configuration (``make_server`` builds it from the app's ServerConfig).
        on_listening: called with the ``host:port`` addresses once the server listens.

    Examples:
        >>> import threading, time
        >>> from cellonnx.serve import ServedModel, create_app, make_server
        >>> net = nn.Dense(4, 3)
        >>> net.set_inputs(Tensor(shape=(None, 4), dtype=ms.float32))
        >>> path = ms.export(net, Tensor(np.ones((1, 4), np.float32)), file_name="mlp")  # mlp.onnx
        >>> server = make_server(create_app([ServedModel("mlp.onnx")]), port=0, log_level="warning")
        >>> thread = threading.Thread(target=server.run)
        >>> thread.start()
        >>> while not server.started:
        ...     time.sleep(0.01)
        >>> server.addresses()
        ['127.0.0.1:...']
        >>> server.should_exit = True
        >>> thread.join()
    """

    def __init__(self, config: uvicorn.Config, on_listening: Callable[[list[str]], None] | None = None) -> None:
        super().__init__(config)
        self._on_listening = on_listening

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        """Start listening, then report the bound addresses to the ``on_listening`` callback."""
        await super().startup(sockets)
        if self._on_listening is not None and self.started:
            self._on_listening(self.addresses())

    def addresses(self) -> list[str]:
        """``host:port`` of every listening socket."""
        out = []
        for server in getattr(self, "servers", []):
            for sock in server.sockets:
                host, port = sock.getsockname()[:2]
                out.append(f"[{host}]:{port}" if ":" in host else f"{host}:{port}")
        return out


def make_server(app: Starlette, host: str = "127.0.0.1", port: int = 8000, log_level: str = "info",
                on_listening: Callable[[list[str]], None] | None = None) -> Server:
    """A server for ``app`` on ``host:port`` with the header/body timeouts and connection cap of the app's
    ServerConfig.

    Args:
        app: an app from ``create_app``.
        host: the address to listen on.
        port: the port (0: a free one, reported to ``on_listening`` and by ``Server.addresses``).
        log_level: uvicorn's log level.
        on_listening: called with the ``host:port`` addresses once the server listens.

    Returns:
        Server; ``server.run()`` serves until ``server.should_exit`` is set.

    Examples:
        >>> import threading
        >>> from cellonnx.serve import ServedModel, create_app, make_server
        >>> net = nn.Dense(4, 3)
        >>> net.set_inputs(Tensor(shape=(None, 4), dtype=ms.float32))
        >>> path = ms.export(net, Tensor(np.ones((1, 4), np.float32)), file_name="mlp")  # mlp.onnx
        >>> listening = threading.Event()
        >>> server = make_server(create_app([ServedModel("mlp.onnx")]), port=0, log_level="warning",
        ...                      on_listening=lambda addresses: listening.set())
        >>> thread = threading.Thread(target=server.run)
        >>> thread.start()
        >>> listening.wait(30)
        True
        >>> server.should_exit = True
        >>> thread.join()
    """
    config = app.state.serving.config
    protocol = guarded(config.header_timeout_s, config.body_timeout_s, config.max_connections)
    return Server(uvicorn.Config(app, host=host, port=port, log_level=log_level, access_log=False,
                                 lifespan="on", timeout_graceful_shutdown=10, http=protocol),
                  on_listening)
