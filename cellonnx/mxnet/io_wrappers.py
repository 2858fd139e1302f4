"""mx.io's iterators over other iterators: ResizeIter (a fixed number of batches per epoch) and
PrefetchingIter (the next batches of one or more iterators read by background threads)."""
from __future__ import annotations

import threading
from typing import Any

from cellonnx.mxnet.io import DataBatch, DataDesc, DataIter

__all__ = ["PrefetchingIter", "ResizeIter"]


class _FromCurrentBatch(DataIter):
    """An iterator whose ``getdata`` / ``getlabel`` / ``getindex`` / ``getpad`` read ``current_batch``."""

    current_batch: DataBatch | None = None

    def getdata(self) -> Any:
        return self.current_batch.data

    def getlabel(self) -> Any:
        return self.current_batch.label

    def getindex(self) -> Any:
        return self.current_batch.index

    def getpad(self) -> Any:
        return self.current_batch.pad


class ResizeIter(_FromCurrentBatch):
    """``size`` batches per epoch from ``data_iter``, which is reset and read on when it runs out.

    Args:
        data_iter (DataIter): the iterator to resize.
        size (int): batches per epoch.
        reset_internal (bool): reset ``data_iter`` too at each ``reset()``. Default: True.

    Examples:
        >>> import numpy as np
        >>> import cellonnx.mxnet as mx
        >>> it = mx.io.ResizeIter(mx.io.NDArrayIter(np.arange(5.0), batch_size=2), 4)
        >>> [b.data[0].asnumpy().tolist() for b in it]
        [[0.0, 1.0], [2.0, 3.0], [4.0, 0.0], [0.0, 1.0]]
    """

    def __init__(self, data_iter: DataIter, size: int, reset_internal: bool = True) -> None:
        super().__init__()
        self.data_iter = data_iter
        self.size = size
        self.reset_internal = reset_internal
        self.cur = 0
        self.current_batch: DataBatch | None = None
        self.provide_data = data_iter.provide_data
        self.provide_label = data_iter.provide_label
        self.batch_size = data_iter.batch_size
        if hasattr(data_iter, "default_bucket_key"):
            self.default_bucket_key = data_iter.default_bucket_key

    def reset(self) -> None:
        self.cur = 0
        if self.reset_internal:
            self.data_iter.reset()

    def iter_next(self) -> bool:
        if self.cur == self.size:
            return False
        try:
            self.current_batch = self.data_iter.next()
        except StopIteration:
            self.data_iter.reset()
            self.current_batch = self.data_iter.next()
        self.cur += 1
        return True


def _renamed(descs: list, renames: list | None) -> list:
    if renames is None:
        return [x for descs_i in descs for x in descs_i]
    return [DataDesc(r[x.name], x.shape, x.dtype) if isinstance(x, DataDesc) else DataDesc(*x)
            for r, descs_i in zip(renames, descs) for x in descs_i]


class PrefetchingIter(_FromCurrentBatch):
    """The batches of ``iters`` (one or several iterators read in step), each read ahead by a thread; a
    batch holds the data and labels of all of them.

    Args:
        iters (DataIter or list): the iterators.
        rename_data (list of dict): per iterator, ``{old name: new name}`` for its ``provide_data``.
        rename_label (list of dict): the same for ``provide_label``.

    Raises:
        ValueError: the iterators run out at different batches, or give different pads.

    Examples:
        >>> import numpy as np
        >>> import cellonnx.mxnet as mx
        >>> a = mx.io.NDArrayIter({"data": np.ones((4, 2))}, batch_size=2)
        >>> b = mx.io.NDArrayIter({"data": np.zeros((4, 3))}, batch_size=2)
        >>> it = mx.io.PrefetchingIter([a, b], rename_data=[{"data": "a"}, {"data": "b"}])
        >>> [(d.name, d.shape) for d in it.provide_data]
        [('a', (2, 2)), ('b', (2, 3))]
        >>> [[tuple(x.shape) for x in batch.data] for batch in it]
        [[(2, 2), (2, 3)], [(2, 2), (2, 3)]]
    """

    def __init__(self, iters: Any, rename_data: list | None = None, rename_label: list | None = None) -> None:
        super().__init__()
        if not isinstance(iters, list):
            iters = [iters]
        if not iters:
            raise ValueError("PrefetchingIter: give at least one iterator")
        self.n_iter = len(iters)
        self.iters = iters
        self.rename_data = rename_data
        self.rename_label = rename_label
        self.batch_size = self.provide_data[0][1][0]
        self.data_ready = [threading.Event() for _ in range(self.n_iter)]
        self.data_taken = [threading.Event() for _ in range(self.n_iter)]
        for event in self.data_taken:
            event.set()
        self.started = True
        self.current_batch: DataBatch | None = None
        self.next_batch: list[Any] = [None] * self.n_iter
        self._errors: list[BaseException | None] = [None] * self.n_iter
        self.prefetch_threads = [threading.Thread(target=self._prefetch, args=(i,), daemon=True)
                                 for i in range(self.n_iter)]
        for thread in self.prefetch_threads:
            thread.start()

    def _prefetch(self, i: int) -> None:
        while True:
            self.data_taken[i].wait()
            if not self.started:
                break
            try:
                self.next_batch[i] = self.iters[i].next()
            except StopIteration:
                self.next_batch[i] = None
            except Exception as exc:  # noqa: BLE001 - handed to the reading thread
                self.next_batch[i] = None
                self._errors[i] = exc
            self.data_taken[i].clear()
            self.data_ready[i].set()

    def __del__(self) -> None:
        self.started = False
        for event in getattr(self, "data_taken", []):
            event.set()
        for thread in getattr(self, "prefetch_threads", []):
            thread.join()

    @property
    def provide_data(self) -> list:
        return _renamed([i.provide_data for i in self.iters], self.rename_data)

    @property
    def provide_label(self) -> list:
        return _renamed([i.provide_label for i in self.iters], self.rename_label)

    def reset(self) -> None:
        for event in self.data_ready:
            event.wait()
        for it in self.iters:
            it.reset()
        self._errors = [None] * self.n_iter
        for event in self.data_ready:
            event.clear()
        for event in self.data_taken:
            event.set()

    def iter_next(self) -> bool:
        for event in self.data_ready:
            event.wait()
        for err in self._errors:
            if err is not None:
                raise err
        if self.next_batch[0] is None:
            if any(b is not None for b in self.next_batch):
                raise ValueError("PrefetchingIter: the iterators give different numbers of batches")
            return False
        if any(b is None or b.pad != self.next_batch[0].pad for b in self.next_batch):
            raise ValueError("PrefetchingIter: the iterators give different numbers of batches or pads")
        self.current_batch = DataBatch([x for b in self.next_batch for x in b.data],
                                       [x for b in self.next_batch for x in (b.label or [])],
                                       self.next_batch[0].pad, self.next_batch[0].index,
                                       provide_data=self.provide_data, provide_label=self.provide_label)
        for event in self.data_ready:
            event.clear()
        for event in self.data_taken:
            event.set()
        return True

    def next(self) -> DataBatch:
        if self.iter_next():
            return self.current_batch
        raise StopIteration
