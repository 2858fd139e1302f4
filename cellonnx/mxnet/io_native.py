"""What MXNet's C++ data iterators share, in NumPy: ``MXDataIter`` (the iterator object that ``CSVIter``,
``MNISTIter``, ``ImageRecordIter`` ... return), the batch loader that groups examples into batches, and
the C++ shuffle.

The batch loader behaves as MXNet's: with ``round_batch`` (the default) a short last batch is completed from
the start of the data (``pad`` counts those examples) and the next epoch, after ``reset()``, starts where
that left off; without it the rows past the end keep what the previous batch had there. A shuffle with
``seed`` is libstdc++'s ``std::shuffle`` over ``std::mt19937(seed)``, so the order is MXNet's.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import numpy as np

from cellonnx.mxnet.base import MXNetError
from cellonnx.mxnet.io import DataBatch, DataDesc, DataIter

__all__ = ["MXDataIter"]

_DTYPES = ("bfloat16", "float16", "float32", "float64", "int32", "int64", "int8", "uint8")


class Handle(Protocol):
    """The native side of an MXDataIter: ``before_first()``, ``next() -> bool``, and the current batch's
    ``value() -> (data, label, index, pad)`` (arrays wrapped as NDArrays)."""

    def before_first(self) -> None: ...

    def next(self) -> bool: ...

    def value(self) -> tuple[Any, Any, Any, int]: ...


class MXDataIter(DataIter):
    """The iterator that MXNet's native iterators (``CSVIter``, ``LibSVMIter``, ``MNISTIter``,
    ``ImageRecordIter`` ...) return: it reads the first batch at once for ``provide_data`` /
    ``provide_label`` (one data and one label array, named ``data_name`` and ``label_name``).

    Args:
        handle: the native iterator.
        data_name (str): Default: 'data'.
        label_name (str): Default: 'softmax_label'.
    """

    def __init__(self, handle: Handle, data_name: str = "data", label_name: str = "softmax_label",
                 **_: Any) -> None:
        super().__init__()
        self.handle = handle
        self._debug_skip_load = False
        self._debug_at_begin = True
        self.first_batch: DataBatch | None = None
        self.first_batch = self.next()
        data, label = self.first_batch.data[0], self.first_batch.label[0]
        self.provide_data = [DataDesc(data_name, tuple(data.shape), np.dtype(data.dtype).type)]
        self.provide_label = [DataDesc(label_name, tuple(label.shape), np.dtype(label.dtype).type)]
        self.batch_size = int(data.shape[0])

    def debug_skip_load(self) -> None:
        """From now on, give the first batch again and again (to time a network without the loading)."""
        self._debug_skip_load = True

    def reset(self) -> None:
        self._debug_at_begin = True
        self.first_batch = None
        self.handle.before_first()

    def next(self) -> DataBatch:
        if self._debug_skip_load and not self._debug_at_begin:
            return DataBatch(data=[self.getdata()], label=[self.getlabel()], pad=self.getpad(),
                             index=self.getindex())
        if self.first_batch is not None:
            batch, self.first_batch = self.first_batch, None
            return batch
        self._debug_at_begin = False
        if self.handle.next():
            return DataBatch(data=[self.getdata()], label=[self.getlabel()], pad=self.getpad(),
                             index=self.getindex())
        raise StopIteration

    def iter_next(self) -> bool:
        if self.first_batch is not None:
            return True
        return bool(self.handle.next())

    def getdata(self) -> Any:
        return self.handle.value()[0]

    def getlabel(self) -> Any:
        return self.handle.value()[1]

    def getindex(self) -> Any:
        return self.handle.value()[2]

    def getpad(self) -> int:
        return int(self.handle.value()[3])


def native(name: str, doc: str, make: Callable[..., Handle]) -> Callable[..., MXDataIter]:
    """The creator function ``name`` (keyword arguments only, as MXNet's) of an MXDataIter over
    ``make(**kwargs)``."""

    def creator(*args: Any, **kwargs: Any) -> MXDataIter:
        if args:
            raise TypeError(f"{name} can only accept keyword arguments")
        names = {k: kwargs[k] for k in ("data_name", "label_name") if k in kwargs}
        return MXDataIter(make(**kwargs), **names)

    creator.__name__ = creator.__qualname__ = name
    creator.__doc__ = doc
    return creator


def out_dtype(dtype: Any, name: str, supported: tuple[str, ...] = _DTYPES) -> np.dtype | None:
    """The ``dtype`` argument of the native iterators: None (or 'None') keeps the type; MXNet takes any of
    _DTYPES but its iterators fail (or crash) on those outside ``supported``."""
    if dtype is None or str(dtype) == "None":
        return None
    if str(dtype) not in _DTYPES:
        raise MXNetError(f"{name}: dtype {dtype!r} is not one of None, {', '.join(_DTYPES)}")
    if str(dtype) not in supported:
        raise MXNetError(f"{name}: {dtype} is not supported for {name} (it gives {', '.join(supported)})")
    if str(dtype) == "bfloat16":
        raise MXNetError(f"{name}: dtype 'bfloat16' has no NumPy type here; use 'float16' or 'float32'")
    return np.dtype(str(dtype))


def shape_arg(value: Any, what: str) -> tuple[int, ...]:
    """A Shape(tuple) argument given as a tuple, an int or MXNet's string form '(3, 2)'."""
    if isinstance(value, str):
        value = tuple(int(v) for v in value.strip("()[] ").split(",") if v.strip())
    elif isinstance(value, (int, np.integer)):
        value = (int(value),)
    shape = tuple(int(v) for v in value)
    if not shape or any(v <= 0 for v in shape):
        raise MXNetError(f"{what}: a shape of positive sizes is required, got {value!r}")
    return shape


def flag(value: Any) -> bool:
    """A boolean argument given as a bool, an int or a string ('True', '1', 'false' ...)."""
    if isinstance(value, str):
        return value.strip().lower() in ("1", "true")
    return bool(value)


def label_batch_shape(batch_size: int, label_shape: tuple[int, ...]) -> tuple[int, ...]:
    """The label batch's shape: (batch,) for one label per example, else (batch, *label_shape)."""
    return (batch_size,) if label_shape == (1,) else (batch_size, *label_shape)


class BatchLoader:
    """Examples from ``source`` (``before_first()``, ``next() -> (index, data, label) or None``) grouped
    into dense batches as MXNet's BatchLoader does."""

    def __init__(self, source: Any, batch_size: int, data_shape: tuple, label_shape: tuple,
                 round_batch: bool, dtype: np.dtype | None, data_dtype: Any = np.float32,
                 label_dtype: Any = np.float32, report_short_pad: bool = True) -> None:
        if batch_size <= 0:
            raise MXNetError(f"batch_size must be positive, got {batch_size}")
        self.source = source
        self.batch_size = batch_size
        self.round_batch = round_batch
        self.dtype = dtype
        self.data = np.zeros((batch_size, *data_shape), data_dtype)
        self.label = np.zeros(label_batch_shape(batch_size, label_shape), label_dtype)
        self.index = np.zeros(batch_size, np.uint64)
        self.pad = 0
        self.num_overflow = 0
        self.report_short_pad = report_short_pad  # False: a short batch without round_batch says pad 0

    def before_first(self) -> None:
        if not self.round_batch or self.num_overflow == 0:
            self.source.start_slot = 0  # where in a batch the source's next pass begins
            self.source.before_first()
        else:
            self.num_overflow = 0

    def _put(self, top: int, inst: tuple) -> None:
        index, data, label = inst
        self.index[top] = index
        self.data[top] = np.reshape(data, self.data.shape[1:])
        self.label[top] = np.reshape(label, self.label.shape[1:])

    def next(self) -> bool:
        self.pad = 0
        if self.num_overflow:
            return False
        top = 0
        while (inst := self.source.next()) is not None:
            self._put(top, inst)
            top += 1
            if top >= self.batch_size:
                return True
        if not top:
            return False
        if self.round_batch:
            self.source.start_slot = top
            self.source.before_first()
            while top < self.batch_size:
                inst = self.source.next()
                if inst is None:
                    raise MXNetError("number of input must be bigger than batch size")
                self._put(top, inst)
                top += 1
                self.num_overflow += 1
            self.pad = self.num_overflow
        else:
            self.pad = self.batch_size - top if self.report_short_pad else 0
        return True

    def value(self) -> tuple[Any, Any, Any, int]:
        from cellonnx.mxnet.ndarray import array

        data, label = self.data, self.label
        if self.dtype is not None:
            data, label = data.astype(self.dtype), label.astype(self.dtype)
        return array(data, dtype=data.dtype), array(label, dtype=label.dtype), self.index.copy(), self.pad


def _mt19937(seed: int) -> Callable[[], int]:
    bits = np.random.MT19937(0)
    bits._legacy_seeding(int(seed) & 0xFFFFFFFF)  # std::mt19937(seed): MT's init_genrand
    return lambda: int(bits.random_raw())


def _uniform_int(gen: Callable[[], int], high: int) -> int:
    """libstdc++'s uniform_int_distribution(0, high) over a 32-bit generator (scaling with rejection)."""
    if high == 0xFFFFFFFF:
        return gen()
    span = high + 1
    scaling = 0xFFFFFFFF // span
    past = span * scaling
    while True:
        r = gen()
        if r < past:
            return r // scaling


def cxx_shuffle(items: list, seed: int) -> list:
    """``items`` shuffled in place as ``std::shuffle(begin, end, std::mt19937(seed))`` does in MXNet's
    build (the one-swap-per-element loop)."""
    gen = _mt19937(seed)
    for i in range(1, len(items)):
        j = _uniform_int(gen, i)
        items[i], items[j] = items[j], items[i]
    return items
