"""gluon.data.DataLoader: batches of a Dataset drawn through a BatchSampler and a batchify function, in this
process or by worker processes (``multiprocessing.Pool``, started by fork as MXNet's are on Linux, batches
sent back pickled) or worker threads (``thread_pool=True``), with ``prefetch`` batches requested ahead and a
``timeout`` per batch, as MXNet 1.9.1 does. A worker process that dies (a crash, the out-of-memory killer)
raises at once, naming its exit, instead of leaving its batch to the timeout."""
from __future__ import annotations

import gc
import io
import multiprocessing
import multiprocessing.pool
import pickle
import signal
import sys
import time
from collections.abc import Callable, Iterator
from multiprocessing.pool import ThreadPool
from multiprocessing.reduction import ForkingPickler
from typing import Any

import numpy as np

from cellonnx.gluon.data import sampler as _sampler
from cellonnx.tensor import Tensor

__all__ = ["DataLoader", "default_batchify_fn", "default_mp_batchify_fn"]


def _is_np() -> bool:
    from cellonnx.mxnet import util

    return util.is_np_array()


def default_batchify_fn(data: list[Any]) -> Any:
    """Stack a list of samples into a batch: arrays are stacked (``mx.np.stack`` under ``set_np()``,
    ``nd.stack`` otherwise), tuples field by field into a list, anything else through ``numpy.asarray``
    into an array of its dtype.

    Args:
        data (list): the samples.

    Returns:
        NDArray (mx.np.ndarray under ``set_np()``), or a list of them for tuple samples.

    Examples:
        >>> from cellonnx.gluon.data.dataloader import default_batchify_fn
        >>> x, y = default_batchify_fn([([1.0, 2.0], 0), ([3.0, 4.0], 1)])
        >>> x.shape, str(x.dtype), y.asnumpy().tolist()
        ((2, 2), 'float64', [0, 1])
    """
    if isinstance(data[0], Tensor):
        if _is_np():
            from cellonnx.mxnet import numpy as mx_np

            return mx_np.stack(data)
        from cellonnx.mxnet import ndarray as nd

        return nd.stack(*data)
    if isinstance(data[0], tuple):
        return [default_batchify_fn(list(i)) for i in zip(*data, strict=True)]
    arr = np.asarray(data)
    if _is_np():
        from cellonnx.mxnet.numpy import array
    else:
        from cellonnx.mxnet.ndarray import array
    return array(arr, dtype=arr.dtype)


def default_mp_batchify_fn(data: list[Any]) -> Any:
    """``default_batchify_fn`` as DataLoader's worker processes run it (MXNet puts the batch in shared
    memory; here it is pickled back to the main process).

    Examples:
        >>> from cellonnx.gluon.data.dataloader import default_mp_batchify_fn
        >>> default_mp_batchify_fn([1, 2, 3]).asnumpy().tolist()
        [1, 2, 3]
    """
    return default_batchify_fn(data)


def _as_in_context(data: Any, ctx: Any) -> Any:
    if isinstance(data, Tensor) and hasattr(data, "as_in_context"):
        return data.as_in_context(ctx)
    if isinstance(data, (list, tuple)):
        return [_as_in_context(d, ctx) for d in data]
    return data


def _thread_worker_initializer(active_shape: bool, active_array: bool) -> None:
    from cellonnx.mxnet.util import set_np

    set_np(shape=active_shape, array=active_array)


_worker_dataset: Any = None


def _worker_initializer(dataset: Any, active_shape: bool, active_array: bool) -> None:
    global _worker_dataset
    # The parent's objects are never collected here: their finalizers (a session's thread pool, an open
    # pool's queues) belong to the parent and can hang or crash a forked child.
    gc.freeze()
    _worker_dataset = dataset
    from cellonnx.mxnet.util import set_np

    set_np(shape=active_shape, array=active_array)


def _worker_fn(samples: list[Any], batchify_fn: Callable[[list[Any]], Any], dataset: Any = None) -> bytes:
    batch = batchify_fn([_worker_dataset[i] for i in samples])
    buf = io.BytesIO()
    ForkingPickler(buf, pickle.HIGHEST_PROTOCOL).dump(batch)
    return buf.getvalue()


def _thread_worker_fn(samples: list[Any], batchify_fn: Callable[[list[Any]], Any], dataset: Any) -> Any:
    return batchify_fn([dataset[i] for i in samples])


def _fork_pool(context: Any, num_workers: int, initargs: list[Any]) -> multiprocessing.pool.Pool:
    """A process pool forked with the collector frozen, so no child collects the parent's objects before its
    initializer freezes them for good (and the pages stay shared). A program that froze objects itself keeps
    its freeze as it is."""
    original = signal.signal(signal.SIGINT, signal.SIG_IGN)
    ours = gc.get_freeze_count() == 0
    if ours:
        gc.freeze()
    try:
        return context.Pool(num_workers, initializer=_worker_initializer, initargs=initargs)
    finally:
        if ours:
            gc.unfreeze()
        signal.signal(signal.SIGINT, original)


def _dead_worker(workers: list[Any]) -> str | None:
    """How one of the worker processes ended, if one has (they live as long as their pool)."""
    for worker in workers:
        code = worker.exitcode
        if code is not None:
            how = f"exited with code {code}"
            if code < 0:
                try:
                    how = f"was killed by {signal.Signals(-code).name}"
                except ValueError:
                    how = f"was killed by signal {-code}"
            return f"DataLoader worker (pid {worker.pid}) {how}"
    return None


class _MultiWorkerIter:
    """Batches computed by a worker pool, ``prefetch`` requested ahead, returned in the sampler's order."""

    def __init__(self, worker_pool: Any, batchify_fn: Callable[[list[Any]], Any], batch_sampler: Any,
                 pin_memory: bool = False, pin_device_id: int = 0,
                 worker_fn: Callable[..., Any] = _worker_fn, prefetch: int = 0, dataset: Any = None,
                 data_loader: Any = None, timeout: float = 120) -> None:
        self._worker_pool = worker_pool
        self._batchify_fn = batchify_fn
        self._batch_sampler = batch_sampler
        self._data_buffer: dict[int, Any] = {}
        self._rcvd_idx = 0
        self._sent_idx = 0
        self._iter = iter(self._batch_sampler)
        self._worker_fn = worker_fn
        self._pin_memory = pin_memory
        self._pin_device_id = pin_device_id
        self._dataset = dataset
        self._data_loader = data_loader
        self._timeout = timeout
        for _ in range(prefetch):
            self._push_next()

    def __len__(self) -> int:
        return len(self._batch_sampler)

    def _push_next(self) -> None:
        r = next(self._iter, None)
        if r is None:
            return
        self._data_buffer[self._sent_idx] = self._worker_pool.apply_async(
            self._worker_fn, (r, self._batchify_fn, self._dataset))
        self._sent_idx += 1

    def __next__(self) -> Any:
        self._push_next()
        if self._rcvd_idx == self._sent_idx:
            assert not self._data_buffer, "Data buffer should be empty at this moment"
            raise StopIteration
        ret = self._data_buffer.pop(self._rcvd_idx)
        try:
            batch = self._wait(ret)
            if self._dataset is None:
                batch = pickle.loads(batch)
            if self._pin_memory:
                from cellonnx.mxnet.device import cpu_pinned

                batch = _as_in_context(batch, cpu_pinned(self._pin_device_id))
            self._rcvd_idx += 1
            return batch
        except multiprocessing.TimeoutError:
            msg = (f"Worker timed out after {self._timeout} seconds. This might be caused by \n"
                   "- Slow transform. Please increase timeout to allow slower data loading in each worker.\n")
            if not isinstance(self._worker_pool, ThreadPool):
                msg += ("- Insufficient shared_memory if `timeout` is large enough.\n"
                        "Please consider reduce `num_workers` or increase shared_memory in system.\n")
            print(msg, file=sys.stderr)
            raise
        except Exception:
            self._worker_pool.terminate()
            raise

    def _wait(self, ret: Any) -> Any:
        """``ret.get(timeout)``, watching the worker processes: a dead one took its batch with it."""
        deadline = time.monotonic() + self._timeout
        while not ret.ready():
            left = deadline - time.monotonic()
            if left <= 0:
                break
            ret.wait(min(left, 0.5))
            dead = None if ret.ready() else _dead_worker(getattr(self._data_loader, "_worker_processes", []))
            if dead:
                raise RuntimeError(f"{dead} while loading a batch; its batch is lost. A transform that "
                                   "crashes, or the machine out of memory, can do this.")
        return ret.get(0)

    def next(self) -> Any:
        return self.__next__()

    def __iter__(self) -> _MultiWorkerIter:
        return self


class DataLoader:
    """Loads batches from a Dataset.

    Args:
        dataset (Dataset): the samples (anything with ``__getitem__`` and ``__len__``).
        batch_size (int): samples per batch; required unless ``batch_sampler`` is given.
        shuffle (bool): draw the samples in a random order (RandomSampler). Default: False.
        sampler (Sampler): the sample order; not with ``shuffle``.
        last_batch (str): ``'keep'``, ``'discard'`` or ``'rollover'`` (see BatchSampler). Default: None
            (``'keep'``).
        batch_sampler (Sampler): the batches of indices; not with batch_size, shuffle, sampler or last_batch.
        batchify_fn (Callable): makes a batch of a list of samples. Default: None (``default_batchify_fn``).
        num_workers (int): worker processes (threads with ``thread_pool``); 0 loads in this process.
            Default: 0.
        pin_memory (bool): put batches on ``cpu_pinned(pin_device_id)``. Default: False.
        pin_device_id (int): see pin_memory. Default: 0.
        prefetch (int): batches requested ahead from the workers. Default: None (``2 * num_workers``).
        thread_pool (bool): use threads instead of processes. Default: False.
        timeout (int): seconds to wait for a worker's batch. Default: 120.
        auto_reload (bool): start the workers on the next epoch as soon as one ends. Default: False.

    Raises:
        ValueError: batch_size missing, or sampler and shuffle, or batch_sampler with the arguments it
            replaces.

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> from cellonnx.gluon.data import ArrayDataset, DataLoader
        >>> data = ArrayDataset(mx.nd.arange(10).reshape((5, 2)), mx.nd.arange(5))
        >>> loader = DataLoader(data, batch_size=2, last_batch='discard')
        >>> [(x.shape, y.asnumpy().tolist()) for x, y in loader]
        [((2, 2), [0.0, 1.0]), ((2, 2), [2.0, 3.0])]
        >>> len(loader)
        2
    """

    def __init__(self, dataset: Any, batch_size: int | None = None, shuffle: bool = False,
                 sampler: Any = None, last_batch: str | None = None, batch_sampler: Any = None,
                 batchify_fn: Callable[[list[Any]], Any] | None = None, num_workers: int = 0,
                 pin_memory: bool = False, pin_device_id: int = 0, prefetch: int | None = None,
                 thread_pool: bool = False, timeout: int = 120, auto_reload: bool = False) -> None:
        self._dataset = dataset
        self._pin_memory = pin_memory
        self._pin_device_id = pin_device_id
        self._thread_pool = thread_pool
        self._timeout = timeout
        self._worker_pool: Any = None
        self._worker_processes: list[Any] = []
        assert timeout > 0, f"timeout must be positive, given {timeout}"
        if batch_sampler is None:
            if batch_size is None:
                raise ValueError("batch_size must be specified unless batch_sampler is specified")
            if sampler is None:
                sampler = (_sampler.RandomSampler(len(dataset)) if shuffle
                           else _sampler.SequentialSampler(len(dataset)))
            elif shuffle:
                raise ValueError("shuffle must not be specified if sampler is specified")
            batch_sampler = _sampler.BatchSampler(sampler, batch_size, last_batch if last_batch else "keep")
        elif batch_size is not None or shuffle or sampler is not None or last_batch is not None:
            raise ValueError("batch_size, shuffle, sampler and last_batch must not be specified if "
                             "batch_sampler is specified.")
        self._batch_sampler = batch_sampler
        self._num_workers = num_workers if num_workers >= 0 else 0
        self._prefetch = max(0, int(prefetch) if prefetch is not None else 2 * self._num_workers)
        if self._num_workers > 0:
            from cellonnx.mxnet.util import is_np_array, is_np_shape

            if self._thread_pool:
                self._worker_pool = ThreadPool(self._num_workers, initializer=_thread_worker_initializer,
                                               initargs=(is_np_shape(), is_np_array()))
            else:
                context = (multiprocessing.get_context("fork")
                           if "fork" in multiprocessing.get_all_start_methods() else multiprocessing)
                self._worker_pool = _fork_pool(context, self._num_workers,
                                               [self._dataset, is_np_shape(), is_np_array()])
                self._worker_processes = list(self._worker_pool._pool)
        if batchify_fn is None:
            self._batchify_fn = default_mp_batchify_fn if num_workers > 0 else default_batchify_fn
        else:
            self._batchify_fn = batchify_fn
        self.auto_reload = auto_reload
        self._iter: Any = None
        if self.auto_reload:
            self.refresh()

    def __iter__(self) -> Iterator[Any]:
        if self._iter is None:
            self.refresh()
        t = self._iter
        self._iter = None  # one iterator is never used twice
        yield from t
        if self._iter is None and self.auto_reload:
            self.refresh()

    def _prefetch_iter(self) -> Any:
        if self._num_workers == 0:
            def same_process_iter() -> Iterator[Any]:
                for batch in self._batch_sampler:
                    ret = self._batchify_fn([self._dataset[idx] for idx in batch])
                    if self._pin_memory:
                        from cellonnx.mxnet.device import cpu_pinned

                        ret = _as_in_context(ret, cpu_pinned(self._pin_device_id))
                    yield ret
            return same_process_iter()
        return _MultiWorkerIter(self._worker_pool, self._batchify_fn, self._batch_sampler,
                                pin_memory=self._pin_memory, pin_device_id=self._pin_device_id,
                                worker_fn=_thread_worker_fn if self._thread_pool else _worker_fn,
                                prefetch=self._prefetch, dataset=self._dataset if self._thread_pool else None,
                                data_loader=self, timeout=self._timeout)

    def __len__(self) -> int:
        return len(self._batch_sampler)

    def __del__(self) -> None:
        pool = getattr(self, "_worker_pool", None)
        if pool:
            assert isinstance(pool, multiprocessing.pool.Pool)
            pool.terminate()

    def refresh(self) -> None:
        """Start a new epoch's iterator (workers begin prefetching)."""
        self._iter = self._prefetch_iter()

    def clean(self) -> None:
        """Drop the prepared iterator."""
        self._iter = None
