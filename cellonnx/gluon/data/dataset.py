"""gluon.data datasets: Dataset (transform, transform_first, filter, shard, take, sample), SimpleDataset,
ArrayDataset and RecordFileDataset, as MXNet 1.9.1 has them."""
from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from cellonnx.tensor import Tensor

__all__ = ["ArrayDataset", "Dataset", "RecordFileDataset", "SimpleDataset"]


class Dataset:
    """Base class of datasets: ``__getitem__`` and ``__len__``, and the derived views below.

    Examples:
        >>> from cellonnx.gluon.data import SimpleDataset
        >>> data = SimpleDataset(list(range(10)))
        >>> list(data.filter(lambda x: x % 2).transform(lambda x: x * 10))
        [10, 30, 50, 70, 90]
        >>> list(data.shard(3, 0)), list(data.shard(3, 2)), list(data.take(2))
        ([0, 1, 2, 3], [7, 8, 9], [0, 1])
    """

    def __getitem__(self, idx: int) -> Any:
        raise NotImplementedError

    def __len__(self) -> int:
        raise NotImplementedError

    def filter(self, fn: Callable[[Any], bool]) -> Dataset:
        """The samples for which ``fn(sample)`` is true."""
        from cellonnx.gluon.data.sampler import FilterSampler

        return _SampledDataset(self, FilterSampler(fn, self))

    def shard(self, num_shards: int, index: int) -> Dataset:
        """The ``index``-th of ``num_shards`` contiguous parts (the first ``len % num_shards`` one longer)."""
        assert index < num_shards, "Shard index of out bound: %d out of %d" % (index, num_shards)  # noqa: UP031
        assert num_shards > 0, "Number of shards must be greater than 0"
        assert index >= 0, "Index must be non-negative"
        length = len(self)
        shard_len, rest = divmod(length, num_shards)
        start = shard_len * index + min(index, rest)
        end = start + shard_len + (index < rest)
        from cellonnx.gluon.data.sampler import SequentialSampler

        return _SampledDataset(self, SequentialSampler(end - start, start))

    def take(self, count: int | None) -> Dataset:
        """The first ``count`` samples (all of them for None or a count past the end)."""
        if count is None or count > len(self):
            count = len(self)
        from cellonnx.gluon.data.sampler import SequentialSampler

        return _SampledDataset(self, SequentialSampler(count))

    def sample(self, sampler: Any) -> Dataset:
        """The samples at the indices ``sampler`` gives (a gluon.data.Sampler)."""
        from cellonnx.gluon.data.sampler import Sampler

        if not isinstance(sampler, Sampler):
            raise TypeError(f"Invalid sampler type: {type(sampler)}. Expected gluon.data.Sampler instead.")
        return _SampledDataset(self, sampler)

    def transform(self, fn: Callable[..., Any], lazy: bool = True) -> Dataset:
        """``fn`` applied to each sample (a tuple sample is passed as ``fn(*sample)``); ``lazy=False``
        applies it to all samples now."""
        trans = _LazyTransformDataset(self, fn)
        if lazy:
            return trans
        return SimpleDataset(list(trans))

    def transform_first(self, fn: Callable[[Any], Any], lazy: bool = True) -> Dataset:
        """``fn`` applied to the first element of each sample (the data, leaving the label)."""
        return self.transform(_TransformFirstClosure(fn), lazy)


class SimpleDataset(Dataset):
    """A dataset over any object with ``__getitem__`` and ``__len__`` (a list, an array ...).

    Args:
        data: the samples.

    Examples:
        >>> from cellonnx.gluon.data import SimpleDataset
        >>> data = SimpleDataset([(1, 'a'), (2, 'b')])
        >>> len(data), data[1]
        (2, (2, 'b'))
        >>> data.transform_first(lambda x: x + 10)[0]
        (11, 'a')
    """

    def __init__(self, data: Any) -> None:
        self._data = data

    def __len__(self) -> int:
        return len(self._data)

    def __getitem__(self, idx: int) -> Any:
        return self._data[idx]


class _LazyTransformDataset(Dataset):
    def __init__(self, data: Any, fn: Callable[..., Any]) -> None:
        self._data = data
        self._fn = fn

    def __len__(self) -> int:
        return len(self._data)

    def __getitem__(self, idx: int) -> Any:
        item = self._data[idx]
        if isinstance(item, tuple):
            return self._fn(*item)
        return self._fn(item)


class _TransformFirstClosure:
    """``fn`` on the first element of a sample (a class, so that it pickles into worker processes)."""

    def __init__(self, fn: Callable[[Any], Any]) -> None:
        self._fn = fn

    def __call__(self, x: Any, *args: Any) -> Any:
        if args:
            return (self._fn(x), *args)
        return self._fn(x)


class _SampledDataset(Dataset):
    def __init__(self, dataset: Any, sampler: Any) -> None:
        self._dataset = dataset
        self._sampler = sampler
        self._indices = list(iter(sampler))

    def __len__(self) -> int:
        return len(self._sampler)

    def __getitem__(self, idx: int) -> Any:
        return self._dataset[self._indices[idx]]


class ArrayDataset(Dataset):
    """A dataset combining arrays (or lists) of one length: sample ``i`` is ``(a[i], b[i], ...)``, or
    ``a[i]`` for one array. A 1-D NDArray is held as a NumPy array, as MXNet does, so its items are scalars.

    Args:
        *args: the arrays.

    Examples:
        >>> import numpy as np
        >>> from cellonnx import mxnet as mx
        >>> from cellonnx.gluon.data import ArrayDataset
        >>> data = ArrayDataset(mx.nd.arange(6).reshape((3, 2)), mx.nd.array([0, 1, 0]))
        >>> x, y = data[1]
        >>> x.asnumpy().tolist(), float(y)
        ([2.0, 3.0], 1.0)
    """

    def __init__(self, *args: Any) -> None:
        assert len(args) > 0, "Needs at least 1 arrays"
        self._length = len(args[0])
        self._data = []
        for i, data in enumerate(args):
            assert len(data) == self._length, (
                f"All arrays must have the same length; array[0] has length {self._length} "
                f"while array[{i + 1}] has {len(data)}.")
            if isinstance(data, Tensor) and len(data.shape) == 1:
                data = data.asnumpy()
            self._data.append(data)

    def __getitem__(self, idx: int) -> Any:
        if len(self._data) == 1:
            return self._data[0][idx]
        return tuple(data[idx] for data in self._data)

    def __len__(self) -> int:
        return self._length


class RecordFileDataset(Dataset):
    """The raw records of a RecordIO file (its index file is the same path with ``.idx``), in index order.

    Args:
        filename (str): path of the .rec file.

    Examples:
        >>> import os, tempfile
        >>> from cellonnx import mxnet as mx
        >>> from cellonnx.gluon.data import RecordFileDataset
        >>> root = tempfile.mkdtemp()
        >>> rec = mx.recordio.MXIndexedRecordIO(os.path.join(root, 'd.idx'), os.path.join(root, 'd.rec'), 'w')
        >>> for i in range(3):
        ...     rec.write_idx(i, b'item%d' % i)
        >>> rec.close()
        >>> data = RecordFileDataset(os.path.join(root, 'd.rec'))
        >>> len(data), data[2]
        (3, b'item2')
    """

    def __init__(self, filename: str) -> None:
        from cellonnx.mxnet import recordio

        self.idx_file = os.path.splitext(filename)[0] + ".idx"
        self.filename = filename
        self._record = recordio.MXIndexedRecordIO(self.idx_file, self.filename, "r")

    def __getitem__(self, idx: int) -> Any:
        return self._record.read_idx(self._record.keys[idx])

    def __len__(self) -> int:
        return len(self._record.keys)


class _DownloadedDataset(Dataset):
    """A dataset read from files in a local ``root`` folder by ``_get_data``."""

    def __init__(self, root: str, transform: Callable[..., Any] | None) -> None:
        super().__init__()
        self._transform = transform
        self._data: Any = None
        self._label: Any = None
        root = os.path.expanduser(root)
        self._root = root
        if not os.path.isdir(root):
            os.makedirs(root)
        self._get_data()

    def __getitem__(self, idx: int) -> Any:
        if self._transform is not None:
            return self._transform(self._data[idx], self._label[idx])
        return self._data[idx], self._label[idx]

    def __len__(self) -> int:
        return len(self._label)

    def _get_data(self) -> None:
        raise NotImplementedError
