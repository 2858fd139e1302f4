"""mx.io: DataDesc, DataBatch, DataIter and NDArrayIter (batches of in-memory arrays, with MXNet's
last-batch handling: 'pad' fills the last batch from the start, 'discard' drops it, 'roll_over' carries it
into the next epoch)."""
from __future__ import annotations

from collections import OrderedDict, namedtuple
from collections.abc import Iterator
from typing import Any

import numpy as np

from cellonnx.mxnet.ndarray.ndarray import NDArray, array
from cellonnx.tensor import Tensor

__all__ = ["DataBatch", "DataDesc", "DataIter", "NDArrayIter"]


class DataDesc(namedtuple("DataDesc", ["name", "shape"])):
    """Name and shape of one input or label (a 2-tuple, as MXNet's), with ``dtype`` and ``layout``
    attributes."""

    dtype: Any
    layout: str

    def __new__(cls, name: str, shape: tuple, dtype: Any = np.float32, layout: str = "NCHW") -> DataDesc:
        ret = super().__new__(cls, name, shape)
        ret.dtype = dtype
        ret.layout = layout
        return ret

    def __repr__(self) -> str:
        return f"DataDesc[{self.name},{self.shape},{self.dtype},{self.layout}]"

    @staticmethod
    def get_batch_axis(layout: str | None) -> int:
        """The axis of ``N`` in ``layout`` (0 for None, -1 when there is none)."""
        return 0 if layout is None else layout.find("N")

    @staticmethod
    def get_list(shapes: Any, types: Any) -> list[DataDesc]:
        """DataDescs from ``(name, shape)`` pairs and, if not None, ``(name, dtype)`` pairs."""
        if types is not None:
            type_dict = dict(types)
            return [DataDesc(x[0], x[1], type_dict[x[0]]) for x in shapes]
        return [DataDesc(x[0], x[1]) for x in shapes]


class DataBatch:
    """One batch: lists of data and label arrays, ``pad`` examples at the end that only fill the batch."""

    def __init__(self, data: list[NDArray], label: list[NDArray] | None = None, pad: int | None = None,
                 index: Any = None, bucket_key: Any = None, provide_data: Any = None,
                 provide_label: Any = None) -> None:
        if data is not None and not isinstance(data, (list, tuple)):
            raise TypeError("DataBatch: data must be a list of NDArrays")
        if label is not None and not isinstance(label, (list, tuple)):
            raise TypeError("DataBatch: label must be a list of NDArrays")
        self.data = data
        self.label = label
        self.pad = pad
        self.index = index
        self.bucket_key = bucket_key
        self.provide_data = provide_data
        self.provide_label = provide_label

    def __str__(self) -> str:
        shapes = [tuple(d.shape) for d in self.data]
        labels = [tuple(lb.shape) for lb in self.label] if self.label else None
        return f"{self.__class__.__name__}: data shapes: {shapes} label shapes: {labels}"


class DataIter:
    """Base class: ``next()`` gives a DataBatch (from ``iter_next``, ``getdata``, ``getlabel``, ``getpad``
    and ``getindex``, which subclasses define), ``reset()`` starts over; iterable."""

    def __init__(self, batch_size: int = 0) -> None:
        self.batch_size = batch_size

    def __iter__(self) -> Iterator[DataBatch]:
        return self

    def reset(self) -> None:
        """Start over from the beginning of the data."""

    def next(self) -> DataBatch:
        """The next batch; StopIteration at the end of the data."""
        if self.iter_next():
            return DataBatch(data=self.getdata(), label=self.getlabel(), pad=self.getpad(),
                             index=self.getindex())
        raise StopIteration

    def __next__(self) -> DataBatch:
        return self.next()

    def iter_next(self) -> bool:
        """Move to the next batch; False at the end."""
        return False

    def getdata(self) -> Any:
        """The data arrays of the current batch."""
        return None

    def getlabel(self) -> Any:
        """The label arrays of the current batch."""
        return None

    def getindex(self) -> Any:
        """The indices of the current batch's examples, or None."""
        return None

    def getpad(self) -> Any:
        """How many examples at the end of the current batch only fill it."""
        return None


def _init_data(data: Any, allow_empty: bool, default_name: str) -> list[tuple[str, np.ndarray]]:
    if data is None:
        if not allow_empty:
            raise ValueError("NDArrayIter: data is required")
        return []
    if isinstance(data, (np.ndarray, Tensor)):
        data = [data]
    if isinstance(data, list):
        data = OrderedDict((default_name if len(data) == 1 else f"_{i}_{default_name}", d)
                           for i, d in enumerate(data))
    if not isinstance(data, dict):
        raise TypeError("NDArrayIter: data and label must be arrays, a list of arrays or a dict of them")
    return [(k, v._data if isinstance(v, Tensor) else np.asarray(v)) for k, v in data.items()]


class NDArrayIter(DataIter):
    """Iterate over arrays in batches along axis 0.

    Args:
        data: an array, a list of arrays or a dict name -> array.
        label: the same for labels, or None.
        batch_size: Default: 1.
        shuffle: shuffle the examples at each reset. Default: False.
        last_batch_handle: 'pad', 'discard' or 'roll_over'. Default: 'pad'.
        data_name, label_name: names of single arrays. Default: 'data', 'softmax_label'.
    """

    def __init__(self, data: Any, label: Any = None, batch_size: int = 1, shuffle: bool = False,
                 last_batch_handle: str = "pad", data_name: str = "data", label_name: str = "softmax_label",
                 layout: str = "NCHW") -> None:
        super().__init__(batch_size)
        if last_batch_handle not in ("pad", "discard", "roll_over"):
            raise ValueError(f"NDArrayIter: last_batch_handle must be 'pad', 'discard' or 'roll_over', got "
                             f"{last_batch_handle!r}")
        self.data = _init_data(data, False, data_name)
        self.label = _init_data(label, True, label_name)
        self.idx = np.arange(self.data[0][1].shape[0])
        self.shuffle = shuffle
        self.last_batch_handle = last_batch_handle
        self.cursor = -batch_size
        self.num_data = self.idx.shape[0]
        self.layout = layout
        self._cache: tuple[list, list] | None = None
        self.reset()

    def _desc(self, items: list[tuple[str, np.ndarray]]) -> list[DataDesc]:
        return [DataDesc(k, (self.batch_size, *v.shape[1:]), v.dtype.type, self.layout) for k, v in items]

    @property
    def provide_data(self) -> list[DataDesc]:
        return self._desc(self.data)

    @property
    def provide_label(self) -> list[DataDesc]:
        return self._desc(self.label)

    def hard_reset(self) -> None:
        """Start over, dropping rolled-over examples."""
        self._shuffle()
        self.cursor = -self.batch_size
        self._cache = None

    def reset(self) -> None:
        self._shuffle()
        rolling = self.num_data - self.batch_size < self.cursor < self.num_data
        if self.last_batch_handle == "roll_over" and rolling:
            self.cursor = self.cursor - self.num_data - self.batch_size
        else:
            self.cursor = -self.batch_size

    def _shuffle(self) -> None:
        if self.shuffle:
            np.random.shuffle(self.idx)
            self.data = [(k, v[self.idx]) for k, v in self.data]
            self.label = [(k, v[self.idx]) for k, v in self.label]
            self.idx = np.arange(self.num_data)

    def iter_next(self) -> bool:
        self.cursor += self.batch_size
        return self.cursor < self.num_data

    def next(self) -> DataBatch:
        if not self.iter_next():
            raise StopIteration
        data, label = self._batch(self.data), self._batch(self.label)
        if data[0].shape[0] != self.batch_size:  # an incomplete last batch: kept for roll_over, else dropped
            self._cache = (data, label)
            raise StopIteration
        return DataBatch([array(d, dtype=d.dtype) for d in data], [array(lb, dtype=lb.dtype) for lb in label],
                         pad=self.getpad(), index=None)

    def _batch(self, source: list[tuple[str, np.ndarray]]) -> list[np.ndarray]:
        start, end = self.cursor, self.cursor + self.batch_size
        if self.last_batch_handle == "roll_over" and start < 0 and self._cache is not None:
            cached = self._cache[0] if source is self.data else self._cache[1]
            return [np.concatenate([c, v[:end]]) for c, v in zip(cached, (v for _, v in source))]
        if self.last_batch_handle == "pad" and end > self.num_data:
            out = []
            for _, v in source:
                rest = v[start:]
                missing = end - self.num_data
                fill = np.concatenate([v] * (missing // self.num_data + 1))[:missing]
                out.append(np.concatenate([rest, fill]))
            return out
        return [v[start:min(end, self.num_data)] for _, v in source]

    def getpad(self) -> int:
        if self.last_batch_handle == "pad" and self.cursor + self.batch_size > self.num_data:
            return self.cursor + self.batch_size - self.num_data
        if self.last_batch_handle == "roll_over" and -self.batch_size < self.cursor < 0:
            return -self.cursor
        return 0


# the iterators over other iterators and MXNet's native (C++) iterators, on top of the classes above
from cellonnx.mxnet.io_imagedet import ImageDetRecordIter  # noqa: E402
from cellonnx.mxnet.io_imagerec import (  # noqa: E402
    ImageRecordInt8Iter,
    ImageRecordIter,
    ImageRecordIter_v1,
    ImageRecordUInt8Iter,
    ImageRecordUInt8Iter_v1,
)
from cellonnx.mxnet.io_mnist import MNISTIter  # noqa: E402
from cellonnx.mxnet.io_native import MXDataIter  # noqa: E402
from cellonnx.mxnet.io_text import CSVIter, LibSVMIter  # noqa: E402
from cellonnx.mxnet.io_wrappers import PrefetchingIter, ResizeIter  # noqa: E402

__all__ += ["CSVIter", "ImageDetRecordIter", "ImageRecordInt8Iter", "ImageRecordIter", "ImageRecordIter_v1",
            "ImageRecordUInt8Iter", "ImageRecordUInt8Iter_v1", "LibSVMIter", "MNISTIter", "MXDataIter",
            "PrefetchingIter", "ResizeIter"]
