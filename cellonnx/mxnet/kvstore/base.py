"""KVStoreBase: the interface of MXNet's key-value stores, their registry and ``create``."""
from __future__ import annotations

import warnings
from typing import Any

__all__ = ["KVStoreBase", "create"]


class KVStoreBase:
    """The interface of a key-value store for data-parallel training: ``broadcast`` initial values,
    ``pushpull`` gradients (summed over devices and workers), an optimizer run by the store.

    ``KVStoreBase.register`` adds a subclass under its lower-case class name, which ``create`` then builds.
    """

    OPTIMIZER = "optimizer"
    kv_registry: dict[str, type] = {}  # noqa: RUF012 - MXNet's class-level registry

    def broadcast(self, key: Any, value: Any, out: Any, priority: int = 0) -> None:
        """Copy ``value`` (rank 0's) into ``out``."""
        raise NotImplementedError()

    def pushpull(self, key: Any, value: Any, out: Any = None, priority: int = 0) -> None:
        """Sum ``value`` over devices and workers into ``out`` (into ``value`` when out is None)."""
        raise NotImplementedError()

    def set_optimizer(self, optimizer: Any) -> None:
        """Have the store apply ``optimizer`` to what is pushed."""
        raise NotImplementedError()

    def is_capable(self, capability: str) -> bool:
        """Whether the store supports ``capability`` (``KVStoreBase.OPTIMIZER``)."""
        raise NotImplementedError()

    def save_optimizer_states(self, fname: str, dump_optimizer: bool = False) -> None:
        """Write the optimizer's states to ``fname``."""
        raise NotImplementedError()

    def load_optimizer_states(self, fname: str) -> None:
        """Read the optimizer's states from ``fname``."""
        raise NotImplementedError()

    @property
    def type(self) -> str:
        """The store's type name."""
        raise NotImplementedError()

    @property
    def rank(self) -> int:
        """This worker's rank."""
        raise NotImplementedError()

    @property
    def num_workers(self) -> int:
        """The number of workers."""
        raise NotImplementedError()

    @staticmethod
    def register(klass: type) -> type:
        """Register a KVStoreBase subclass under its lower-case class name (a class decorator)."""
        if not isinstance(klass, type):
            raise AssertionError(f"register takes a class, got {type(klass).__name__}")
        name = klass.__name__.lower()
        old = KVStoreBase.kv_registry.get(name)
        if old is not None:
            warnings.warn(f"WARNING: New kvstore {klass.__module__}.{klass.__name__} is overriding existing "
                          f"kvstore {old.__module__}.{old.__name__}", stacklevel=2)
        KVStoreBase.kv_registry[name] = klass
        return klass


def create(name: str = "local") -> Any:
    """A key-value store: 'local' / 'device' (one process), 'dist_sync' / 'dist_device_sync' (the
    processes of an MPI job), or a name registered with ``KVStoreBase.register``.

    Raises:
        TypeError: ``name`` is not a string.
        ValueError: an unknown store type, or one cellonnx does not run ('dist_async', 'nccl', ...).
    """
    if not isinstance(name, str):
        raise TypeError("name must be a string")
    name = name.lower()
    if name in KVStoreBase.kv_registry:
        return KVStoreBase.kv_registry[name]()
    from cellonnx.mxnet.kvstore.kvstore import KVStore

    return KVStore(name)
