"""KVStore: MXNet's key-value store for data-parallel training, in one process ('local', 'device') or over
the processes of an MPI job ('dist_sync', 'dist_device_sync': what is pushed is summed over the workers with
an all-reduce, as MXNet's synchronous parameter server sums the workers' pushes).

A push sums the values given for a key (one per device); with an optimizer set (``set_optimizer``) the sum
is the gradient the store's updater applies to the stored weight, else the sum replaces the stored value.
A pull copies the stored value out.
"""
from __future__ import annotations

import pickle
from typing import Any

import numpy as np

from cellonnx.mxnet.base import MXNetError
from cellonnx.mxnet.kvstore.base import KVStoreBase
from cellonnx.mxnet.kvstore.compression import GradientCompression
from cellonnx.tensor import Tensor

__all__ = ["KVStore"]

_LOCAL = ("local", "device", "local_update_cpu", "local_allreduce_cpu", "local_allreduce_device")
_DIST = ("dist_sync", "dist_sync_device", "dist_device_sync")


def _nd(array: np.ndarray) -> Any:
    from cellonnx.mxnet.ndarray.ndarray import NDArray

    t = Tensor._make(array)
    t.__class__ = NDArray
    return t


def _pairs(keys: Any, values: Any, what: str) -> list[tuple[Any, list[Any]]]:
    """``(key, [arrays])`` per key: one key with an array or a list of arrays (one per device), or a list
    of keys with one such entry each. int and str keys cannot be mixed, as in MXNet."""
    if isinstance(keys, (list, tuple)):
        if not isinstance(values, (list, tuple)) or len(keys) != len(values):
            raise AssertionError(f"KVStore.{what}: {len(keys)} keys need as many values")
        pairs = [p for k, v in zip(keys, values) for p in _pairs(k, v, what)]
        if len({isinstance(k, str) for k, _ in pairs}) > 1:
            raise AssertionError("inconsistent types of keys detected.")
        return pairs
    if not isinstance(keys, (int, str)):
        raise AssertionError(f"unexpected type for keys: {type(keys)}")
    arrays = list(values) if isinstance(values, (list, tuple)) else [values]
    for a in arrays:
        if not isinstance(a, Tensor):
            raise AssertionError(f"KVStore.{what}: values must be NDArrays, got {type(a).__name__}")
    return [(keys, arrays)]


class KVStore(KVStoreBase):
    """A key-value store (made by ``mx.kv.create``): ``init`` keys, ``push`` values (summed), ``pull``
    them back, ``pushpull`` both; ``set_optimizer`` makes pushes gradients that update the stored weights.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> kv = mx.kv.create('local')
        >>> kv.init(3, mx.nd.ones((2, 3)) * 2)
        >>> kv.push(3, [mx.nd.ones((2, 3)), mx.nd.ones((2, 3))])
        >>> a = mx.nd.zeros((2, 3))
        >>> kv.pull(3, out=a)
        >>> print(a.asnumpy())
        [[2. 2. 2.]
         [2. 2. 2.]]
    """

    def __init__(self, name: str = "local") -> None:
        if name not in _LOCAL + _DIST:
            if name.startswith("dist") or name in ("nccl", "horovod", "byteps"):
                raise ValueError(f"KVStore '{name}' is not supported: cellonnx runs the stores {_LOCAL} in "
                                 f"one process and the synchronous stores {_DIST} over MPI")
            raise ValueError(f"Unknown KVStore type '{name}'")
        self._type = name
        self._store: dict[Any, np.ndarray] = {}
        self._key_type: type | None = None
        self._row_sparse: set[Any] = set()
        self._updater: Any = None
        self._compression: GradientCompression | None = None
        self._dist = name in _DIST
        if self._dist:
            from cellonnx.communication import _mpi, management

            if not _mpi.initialized():
                management.init()

    # ---------------------------------------------------------------- properties
    @property
    def type(self) -> str:
        """The store's type ('local', 'device', 'dist_sync' ...)."""
        return self._type

    @property
    def rank(self) -> int:
        """This worker's rank (0 in one process)."""
        if not self._dist:
            return 0
        from cellonnx.communication import management

        return management.get_rank()

    @property
    def num_workers(self) -> int:
        """The number of workers (1 in one process)."""
        if not self._dist:
            return 1
        from cellonnx.communication import management

        return management.get_group_size()

    def is_capable(self, capability: str) -> bool:
        """Whether the store supports ``capability``: 'optimizer' (it can run the updates)."""
        if capability.lower() == KVStoreBase.OPTIMIZER:
            return True
        raise ValueError(f"Unknown capability: {capability}")

    # ---------------------------------------------------------------- data
    def _reduce(self, key: Any, arrays: list[Any]) -> np.ndarray:
        values = [np.asarray(a.asnumpy() if hasattr(a, "asnumpy") else a._data) for a in arrays]
        if self._compression is not None and len(values) > 1:
            values = [self._compression.compress((key, i), v) for i, v in enumerate(values)]
        total = values[0].copy()
        for v in values[1:]:
            total = total + v
        if self._dist:
            from cellonnx.communication import _mpi

            total = _mpi.allreduce_array(total, "sum", None, "KVStore.push")
        return total.astype(values[0].dtype, copy=False)

    def init(self, key: Any, value: Any) -> None:
        """Initialize keys with values (in a distributed store, rank 0's values)."""
        for k, arrays in _pairs(key, value, "init"):
            if self._key_type is None:
                self._key_type = type(k)
            elif not isinstance(k, self._key_type):
                raise MXNetError("Check failed: key_type_ == key_type : Mixed key types are not allowed")
            if k in self._store:
                raise MXNetError(f"duplicate init of key {k}")
            if getattr(arrays[0], "stype", "default") == "row_sparse":
                self._row_sparse.add(k)
            data = np.array(arrays[0].asnumpy())
            if self._dist:
                from cellonnx.communication import _mpi

                data = _mpi.broadcast_array(data, 0, None, "KVStore.init")
            self._store[k] = data

    def _stored(self, key: Any, what: str) -> np.ndarray:
        if key not in self._store:
            raise MXNetError(f"KVStore.{what}: key {key!r} has not been initialized (call init first)")
        return self._store[key]

    def push(self, key: Any, value: Any, priority: int = 0) -> None:
        """Push values (summed per key); with an optimizer set, the sum is a gradient applied to the
        stored weight, else it replaces the stored value."""
        for k, arrays in _pairs(key, value, "push"):
            stored = self._stored(k, "push")
            merged = self._reduce(k, arrays)
            if self._updater is not None:
                weight = _nd(stored)
                self._updater(k, _nd(merged), weight)
                self._store[k] = np.asarray(weight._data)
            else:
                self._store[k] = merged.astype(stored.dtype, copy=False)

    def pull(self, key: Any, out: Any = None, priority: int = 0, ignore_sparse: bool = True) -> None:
        """Copy the stored values into ``out`` (an array, or one per device)."""
        if out is None:
            raise AssertionError("KVStore.pull: out must be given")
        for k, arrays in _pairs(key, out, "pull"):
            stored = self._stored(k, "pull")
            for a in arrays:
                if getattr(a, "stype", "default") != "default" and ignore_sparse:
                    continue
                a[:] = stored

    def pushpull(self, key: Any, value: Any, out: Any = None, priority: int = 0) -> None:
        """``push`` then ``pull`` (into ``value`` when ``out`` is None)."""
        self.push(key, value, priority)
        self.pull(key, out if out is not None else value, priority)

    def broadcast(self, key: Any, value: Any, out: Any, priority: int = 0) -> None:
        """Initialize keys with ``value`` (rank 0's) and pull them into ``out``."""
        self.init(key, value)
        self.pull(key, out, priority)

    def row_sparse_pull(self, key: Any, out: Any = None, priority: int = 0, row_ids: Any = None) -> None:
        """Pull only the rows ``row_ids`` of the stored values into row-sparse ``out`` arrays."""
        if out is None:
            raise AssertionError("KVStore.row_sparse_pull: out must be given")
        if row_ids is None:
            raise AssertionError("KVStore.row_sparse_pull: row_ids must be given")
        single = not isinstance(key, (list, tuple))
        outs = _pairs(key, out, "row_sparse_pull")
        ids = [row_ids] if single and not isinstance(row_ids, (list, tuple)) else list(row_ids)
        flat_ids = ids
        n_out = sum(len(a) for _, a in outs)
        if len(flat_ids) == 1 and n_out > 1:
            flat_ids = flat_ids * n_out
        if len(flat_ids) != n_out:
            raise AssertionError(f"the number of row_ids ({len(flat_ids)}) doesn't match the number of "
                                 f"outputs ({n_out})")
        from cellonnx.mxnet.ndarray import sparse

        i = 0
        for k, arrays in outs:
            stored = self._stored(k, "row_sparse_pull")
            if k not in self._row_sparse:
                raise MXNetError(f"KVStore.row_sparse_pull: key {k!r} holds a dense array; PullRowSparse "
                                 "expects row_sparse src NDArray")
            for a in arrays:
                rows = np.unique(np.asarray(flat_ids[i].asnumpy() if hasattr(flat_ids[i], "asnumpy")
                                            else flat_ids[i]).astype(np.int64))
                i += 1
                if isinstance(a, sparse.RowSparseNDArray):
                    a._store((stored[rows].astype(stored.dtype), rows))
                else:
                    dense = np.zeros_like(stored)
                    dense[rows] = stored[rows]
                    a[:] = dense

    # ---------------------------------------------------------------- optimizer
    def set_optimizer(self, optimizer: Any) -> None:
        """Apply ``optimizer`` to every push from now on (the store's updater)."""
        from cellonnx.gluon import optimizer as opt

        self._set_updater(opt.get_updater(optimizer))

    def _set_updater(self, updater: Any) -> None:
        self._updater = updater

    def set_gradient_compression(self, compression_params: dict[str, Any]) -> None:
        """Compress what each device pushes (``{'type': '2bit', 'threshold': 0.5}``: values quantized to
        -threshold, 0 or +threshold, the rest kept as a residual for the next push); 'device' and 'dist'
        stores only, as in MXNet."""
        if "device" not in self._type and "dist" not in self._type:
            raise Exception("Gradient compression is not supported for this type of kvstore")
        self._compression = GradientCompression(compression_params)

    def save_optimizer_states(self, fname: str, dump_optimizer: bool = False) -> None:
        """Write the updater's states (and the optimizer when ``dump_optimizer``) to ``fname``."""
        if self._updater is None:
            raise AssertionError("Cannot save states for distributed training")
        with open(fname, "wb") as fout:
            fout.write(self._updater.get_states(dump_optimizer))

    def load_optimizer_states(self, fname: str) -> None:
        """Read states ``save_optimizer_states`` wrote."""
        if self._updater is None:
            raise AssertionError("Cannot load states for distributed training")
        with open(fname, "rb") as fin:
            self._updater.set_states(fin.read())

    def _barrier(self) -> None:
        if self._dist:
            from cellonnx.communication import _mpi

            _mpi.comm(None, "KVStore._barrier").Barrier()

    def __getstate__(self) -> dict[str, Any]:
        raise pickle.PicklingError("a KVStore cannot be pickled")
