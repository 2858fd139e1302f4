"""mx.kvstore.KVStoreServer: the server role of MXNet's distributed key-value store.

MXNet's 'dist_*' stores run parameter servers: processes started with ``DMLC_ROLE=server`` (or
``scheduler``) enter the server loop when ``mxnet`` is imported and exit when the job ends, so the user's
script never runs past its import there. cellonnx's 'dist_sync' stores need no server: the workers (the
processes of an MPI job) sum their pushes with an all-reduce. A process started with DMLC_ROLE=server or
scheduler therefore has nothing to serve: importing cellonnx.mxnet logs that and exits with status 0, as
MXNet's server would at the end of the job, and the script's code after the import does not run there
either. ``KVStoreServer(kv).run()`` returns at once for the same reason; its controller applies the
commands a worker sends (0: a pickled optimizer for ``set_optimizer``).
"""
from __future__ import annotations

import logging
import os
import pickle
import sys
from collections.abc import Callable
from typing import Any

__all__ = ["KVStoreServer"]

_SERVER_ROLES = ("server", "scheduler")


class KVStoreServer:
    """The key-value store server of a distributed KVStore.

    Args:
        kvstore: the KVStore it serves.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> server = mx.kvstore.KVStoreServer(mx.kv.create("local"))
        >>> server.run()  # cellonnx's stores need no server loop: nothing to serve
    """

    def __init__(self, kvstore: Any) -> None:
        self.kvstore = kvstore
        self.handle = kvstore
        self.init_logginig = False

    def _controller(self) -> Callable[[int, bytes, Any], None]:
        """The handler of the commands workers send: 0 sets the store's optimizer (pickled)."""

        def server_controller(cmd_id: int, cmd_body: bytes, _: Any) -> None:
            if not self.init_logginig:
                head = "%(asctime)-15s Server[" + str(self.kvstore.rank) + "] %(message)s"
                logging.basicConfig(level=logging.DEBUG, format=head)
                self.init_logginig = True
            if cmd_id == 0:
                self.kvstore.set_optimizer(pickle.loads(cmd_body))
            else:
                print("server %d, unknown command (%d, %s)" % (self.kvstore.rank, cmd_id, cmd_body))  # noqa: UP031

        return server_controller

    def run(self) -> None:
        """Serve until the job ends. cellonnx's distributed stores sum pushes with an all-reduce among the
        workers, so there are no requests to serve and this returns at once."""
        logging.info("KVStoreServer: cellonnx's %s store all-reduces among its workers over MPI; no server "
                     "loop to run", self.kvstore.type)


def _init_kvstore_server_module() -> None:
    """In a process started as a parameter server or scheduler (DMLC_ROLE), end the process: there is no
    server work in cellonnx's all-reduce stores (MXNet serves, then exits, in such a process)."""
    role = os.environ.get("DMLC_ROLE", "worker")
    if role in _SERVER_ROLES:
        logging.warning("DMLC_ROLE=%s: cellonnx's distributed KVStore has no %s role (its workers all-reduce "
                        "over MPI); this process exits as MXNet's %s does when the job ends. Start only the "
                        "workers (mpirun -n N python train.py).", role, role, role)
        sys.exit()


_init_kvstore_server_module()
