"""The dataset pipeline: sources (GeneratorDataset, NumpySlicesDataset) and the operations chained on them
(shuffle, map, batch, repeat, project, rename, take, skip), with MindSpore's names and semantics.

One epoch of a node is a *plan*: either rows (an iterator of column tuples) or, for random-access sources not
yet passed through ``map``, an index array plus a gather function. ``batch`` over an index plan gathers whole
batches with NumPy fancy indexing, so a NumpySlicesDataset -> shuffle -> batch pipeline touches no Python per
sample.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from types import GeneratorType
from typing import TYPE_CHECKING, Any

import numpy as np

from cellonnx.dataset import config

if TYPE_CHECKING:
    from cellonnx.dataset.iterators import DictIterator, TupleIterator

__all__ = ["BatchInfo", "Dataset", "GeneratorDataset", "NumpySlicesDataset"]

Row = tuple  # a tuple of NumPy arrays, one per column


class _Indexed:
    """An epoch as indices into a random-access source: ``gather(idx)`` gives stacked columns for an index
    array, ``one(i)`` one row."""

    def __init__(self, idx: np.ndarray, gather: Callable[[np.ndarray], Row], one: Callable[[int], Row]) -> None:
        self.idx, self.gather, self.one = idx, gather, one

    def rows(self) -> Iterator[Row]:
        one = self.one
        return (one(int(i)) for i in self.idx)

    def with_columns(self, pick: Callable[[Row], Row]) -> _Indexed:
        gather, one = self.gather, self.one
        return _Indexed(self.idx, lambda idx: pick(gather(idx)), lambda i: pick(one(i)))


def _rows_of(plan: Any) -> Iterator[Row]:
    return plan.rows() if isinstance(plan, _Indexed) else plan


def _as_row(item: Any, ncols: int | None, where: str) -> Row:
    if isinstance(item, dict):
        item = tuple(item.values())
    if isinstance(item, np.ndarray) or not isinstance(item, (tuple, list)):
        item = (item,)
    row = tuple(np.asarray(x) for x in item)
    if ncols is not None and len(row) != ncols:
        raise RuntimeError(f"{where}: a row has {len(row)} columns but column_names names {ncols}")
    return row


class BatchInfo:
    """What ``per_batch_map`` receives last: the batch number and epoch number (both from 0).

    Examples:
        >>> import numpy as np
        >>> import cellonnx.dataset as ds
        >>> def add_batch_num(col, batch_info):
        ...     return ([c + batch_info.get_batch_num() for c in col],)
        >>> data = ds.NumpySlicesDataset({'x': np.zeros(4, np.int32)}, shuffle=False)
        >>> data = data.batch(2, per_batch_map=add_batch_num, input_columns=['x'])
        >>> for row in data.create_tuple_iterator(output_numpy=True):
        ...     print(row[0])
        [0 0]
        [1 1]
    """

    def __init__(self, batch_num: int, epoch_num: int) -> None:
        self._batch_num, self._epoch_num = batch_num, epoch_num

    def get_batch_num(self) -> int:
        return self._batch_num

    def get_epoch_num(self) -> int:
        return self._epoch_num


def _epoch_rng(seed: int | None, epoch: int, salt: int) -> np.random.Generator:
    if seed is None:
        return np.random.default_rng()
    return np.random.default_rng([seed, epoch, salt])


class Dataset:
    """Base class of dataset nodes: every operation returns a new node over this one.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> data = {"x": np.arange(6, dtype=np.float32).reshape(6, 1), "y": np.arange(6) % 2}
        >>> dataset = ms.dataset.NumpySlicesDataset(data, shuffle=False)
        >>> batched = dataset.map(lambda x: x * 10, input_columns=["x"]).batch(4)
        >>> batched.get_dataset_size()
        2
        >>> for x, y in batched.create_tuple_iterator(output_numpy=True):
        ...     print(x.ravel(), y)
        [ 0. 10. 20. 30.] [0 1 0 1]
        [40. 50.] [0 1]
    """

    def __init__(self, children: Sequence[Dataset] = (), num_parallel_workers: int | None = None) -> None:
        self.children = list(children)
        self.num_parallel_workers = num_parallel_workers

    # ------------------------------------------------------------------ to be defined by nodes
    def get_col_names(self) -> list[str]:
        """The column names, in output order."""
        return self.children[0].get_col_names()

    def _plan(self, seed: int | None, epoch: int) -> Any:
        raise NotImplementedError

    def _num_rows(self) -> int:
        return self.children[0]._num_rows()

    # ------------------------------------------------------------------ operations
    def batch(self, batch_size: int, drop_remainder: bool = False, num_parallel_workers: int | None = None,
              **kwargs: Any) -> Dataset:
        """Stack ``batch_size`` consecutive rows into one (columns must have equal shapes across the rows).

        Args:
            batch_size (int): rows per batch.
            drop_remainder (bool): drop a last, smaller batch. Default: ``False``.
            num_parallel_workers (int): accepted for compatibility.
            kwargs: ``per_batch_map`` (``callable(*column_lists, batch_info) -> tuple of columns``),
                ``input_columns``, ``output_columns``.
        """
        return BatchDataset(self, batch_size, drop_remainder, num_parallel_workers, **kwargs)

    def map(self, operations: Any, input_columns: Any = None, output_columns: Any = None,
            num_parallel_workers: int | None = None, **kwargs: Any) -> Dataset:
        """Apply ``operations`` (a callable or a list, chained) to ``input_columns`` of every row.

        Args:
            operations (Union[Callable, list[Callable]]): each gets the previous one's outputs.
            input_columns (Union[str, list[str]]): Default: the first column.
            output_columns (Union[str, list[str]]): names of the results. Default: the input columns.
        """
        return MapDataset(self, operations, input_columns, output_columns, num_parallel_workers)

    def shuffle(self, buffer_size: int) -> Dataset:
        """Shuffle with a buffer of ``buffer_size`` rows (a buffer at least the dataset size shuffles fully);
        seeded by ``dataset.config.set_seed`` / ``cellonnx.set_seed``, reshuffled every epoch."""
        return ShuffleDataset(self, buffer_size)

    def repeat(self, count: int | None = None) -> Dataset:
        """Repeat the pipeline ``count`` times (None or -1: forever)."""
        return RepeatDataset(self, count)

    def project(self, columns: Any) -> Dataset:
        """Keep only ``columns``, in that order."""
        return ProjectDataset(self, columns)

    def rename(self, input_columns: Any, output_columns: Any) -> Dataset:
        """Rename columns."""
        return RenameDataset(self, input_columns, output_columns)

    def take(self, count: int = -1) -> Dataset:
        """The first ``count`` rows (-1: all)."""
        return TakeDataset(self, count)

    def skip(self, count: int) -> Dataset:
        """All rows after the first ``count``."""
        return SkipDataset(self, count)

    # ------------------------------------------------------------------ iteration
    def create_tuple_iterator(self, columns: Any = None, num_epochs: int = -1, output_numpy: bool = False,
                              do_copy: bool = False) -> TupleIterator:
        """An iterator of rows as lists (Tensors, or NumPy arrays with ``output_numpy``); each ``for`` over it
        runs one epoch, up to ``num_epochs`` (-1: unlimited)."""
        from cellonnx.dataset.iterators import TupleIterator
        return TupleIterator(self, columns, num_epochs, output_numpy, do_copy)

    def create_dict_iterator(self, num_epochs: int = -1, output_numpy: bool = False,
                             do_copy: bool = False) -> DictIterator:
        """An iterator of rows as ``{column name: value}`` dicts."""
        from cellonnx.dataset.iterators import DictIterator
        return DictIterator(self, num_epochs, output_numpy, do_copy)

    def __iter__(self) -> Iterator[list]:
        return iter(self.create_tuple_iterator(num_epochs=1))

    def _epoch_rows(self, seed: int | None, epoch: int) -> Iterator[Row]:
        return _rows_of(self._plan(seed, epoch))

    # ------------------------------------------------------------------ information
    def get_dataset_size(self) -> int:
        """The number of rows (batches after ``batch``) in one epoch."""
        return self._num_rows()

    def get_batch_size(self) -> int:
        """The batch size (1 when not batched)."""
        return self.children[0].get_batch_size() if self.children else 1

    def get_repeat_count(self) -> int:
        return self.children[0].get_repeat_count() if self.children else 1

    def _first_row(self) -> Row:
        for row in self._epoch_rows(config.get_seed(), 0):
            return row
        raise RuntimeError(f"{type(self).__name__}: the dataset is empty")

    def output_shapes(self) -> list[list[int]]:
        """The shape of each column (of the first row)."""
        return [list(a.shape) for a in self._first_row()]

    def output_types(self) -> list[np.dtype]:
        """The NumPy dtype of each column (of the first row)."""
        return [a.dtype for a in self._first_row()]

    def reset(self) -> None:
        """Nothing to release: every iterator runs its own pass."""

    def __len__(self) -> int:
        return self.get_dataset_size()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(columns={self.get_col_names()})"


# ---------------------------------------------------------------------------- sources
def _select_order(n: int, shuffle: bool, num_samples: int | None, sampler: Any, num_shards: int | None,
                  shard_id: int | None, rng: np.random.Generator) -> np.ndarray:
    """The sample order of one epoch, as MindSpore's samplers choose it."""
    if sampler is not None:
        if hasattr(sampler, "order"):  # a sampler that needs the size (DistributedSampler)
            order = sampler.order(n, rng)
            return order if num_samples is None else order[:num_samples]
        if isinstance(sampler, (list, tuple, np.ndarray)):
            order = np.asarray(sampler, dtype=np.int64)
        elif isinstance(sampler, int):
            order = np.asarray([sampler], dtype=np.int64)
        elif hasattr(sampler, "__iter__"):
            order = np.fromiter((int(i) for i in sampler), dtype=np.int64)
        else:
            raise TypeError(f"unsupported sampler of type {type(sampler).__name__}")
        return order if num_samples is None else order[:num_samples]
    if num_shards is not None:
        order = rng.permutation(n) if shuffle else np.arange(n)
        per = math.ceil(n / num_shards)
        order = np.resize(order, per * num_shards)  # wrap around so every shard gets the same count
        order = order[shard_id::num_shards]
        return order if num_samples is None else order[:num_samples]
    if shuffle:
        if num_samples is not None:
            return rng.integers(0, n, num_samples)  # MindSpore: RandomSampler(replacement=True, num_samples)
        return rng.permutation(n)
    order = np.arange(n)
    return order if num_samples is None else order[:num_samples]


def _check_shards(num_shards: Any, shard_id: Any) -> None:
    if (num_shards is None) != (shard_id is None):
        raise ValueError("num_shards and shard_id must be given together")
    if num_shards is not None and not 0 <= shard_id < num_shards:
        raise ValueError(f"shard_id must be in [0, {num_shards}), got {shard_id}")


class GeneratorDataset(Dataset):
    """A dataset from Python: a random-access source (``__getitem__`` and ``__len__``), an iterable, or a
    generator function; each item is a tuple of arrays (one per column).

    Args:
        source (Union[Callable, Iterable, Random Accessible]): the data.
        column_names (Union[str, list[str]]): the column names (required).
        column_types (list): accepted for compatibility. Default: ``None``.
        schema: accepted for compatibility. Default: ``None``.
        num_samples (int): how many rows to read. Default: ``None`` (all).
        num_parallel_workers (int): accepted for compatibility. Default: ``1``.
        shuffle (bool): shuffle a random-access source (default ``None``: shuffled; iterables keep their order).
        sampler (Union[list, Iterable]): the indices to read. Default: ``None``.
        num_shards (int): split the source into this many shards. Default: ``None``.
        shard_id (int): the shard to read. Default: ``None``.

    Examples:
        >>> def gen():
        ...     for i in range(8):
        ...         yield np.array([i], np.float32), np.array(i % 2)
        >>> ds = ms.dataset.GeneratorDataset(gen, ["data", "label"]).batch(4)
    """

    def __init__(self, source: Any, column_names: Any = None, column_types: Any = None, schema: Any = None,
                 num_samples: int | None = None, num_parallel_workers: int = 1, shuffle: bool | None = None,
                 sampler: Any = None, num_shards: int | None = None, shard_id: int | None = None,
                 python_multiprocessing: bool = True, max_rowsize: Any = None, batch_sampler: Any = None,
                 collate_fn: Any = None) -> None:
        super().__init__((), num_parallel_workers)
        if column_names is None and schema is None:
            raise ValueError("GeneratorDataset: column_names (or schema) is required")
        names = [column_names] if isinstance(column_names, str) else list(column_names or [])
        if len(set(names)) != len(names):
            raise ValueError(f"GeneratorDataset: column_names has duplicates: {names}")
        _check_shards(num_shards, shard_id)
        if isinstance(source, zip):
            source = list(source)
        self.source = source
        self.column_names = names
        self.num_samples = num_samples
        self.shuffle_flag = True if shuffle is None else bool(shuffle)
        self.sampler = sampler
        self.num_shards, self.shard_id = num_shards, shard_id
        self._cache: list[Row] | None = None
        self.random_access = hasattr(source, "__getitem__") and hasattr(source, "__len__")
        if not self.random_access and not callable(source) and not hasattr(source, "__iter__"):
            raise TypeError(f"GeneratorDataset: source must be callable, iterable or random accessible, got "
                            f"{type(source).__name__}")

    def get_col_names(self) -> list[str]:
        return list(self.column_names)

    def _row_at(self, i: int) -> Row:
        return _as_row(self.source[i], len(self.column_names), "GeneratorDataset")

    def _gather(self, idx: np.ndarray) -> Row:
        rows = [self._row_at(int(i)) for i in idx]
        return tuple(_stack([r[c] for r in rows], c, self.column_names) for c in range(len(self.column_names)))

    def _plan(self, seed: int | None, epoch: int) -> Any:
        if self.random_access:
            order = _select_order(len(self.source), self.shuffle_flag, self.num_samples, self.sampler,
                                  self.num_shards, self.shard_id, _epoch_rng(seed, epoch, 0))
            return _Indexed(order, self._gather, self._row_at)
        return self._iter_rows()

    def _iter_rows(self) -> Iterator[Row]:
        if self._cache is not None:
            rows: Any = iter(self._cache)
        elif isinstance(self.source, GeneratorType):
            # a generator object runs once: keep its rows for the next epochs
            self._cache = [_as_row(x, len(self.column_names), "GeneratorDataset") for x in self.source]
            rows = iter(self._cache)
        else:
            it = self.source() if callable(self.source) and not hasattr(self.source, "__iter__") else self.source
            rows = (_as_row(x, len(self.column_names), "GeneratorDataset") for x in it)
        n = self.num_samples
        for k, row in enumerate(rows):
            if n is not None and k >= n:
                return
            if self.num_shards is None or k % self.num_shards == self.shard_id:
                yield row

    def _num_rows(self) -> int:
        if self.random_access:
            return len(_select_order(len(self.source), False, self.num_samples, self.sampler, self.num_shards,
                                     self.shard_id, np.random.default_rng(0)))
        return sum(1 for _ in self._iter_rows())


def _column(values: Any) -> Any:
    try:
        arr = np.asarray(values)
    except ValueError:   # ragged
        return [np.asarray(v) for v in values]
    if arr.dtype == object:
        return [np.asarray(v) for v in values]
    return arr


class NumpySlicesDataset(GeneratorDataset):
    """A dataset sliced along the first axis of in-memory data: a list / array (one column), a tuple (one column
    per element) or a dict (one column per key).

    Args:
        data (Union[list, tuple, dict, numpy.ndarray]): the data.
        column_names (list[str]): Default: the dict's keys, else ``column_0``, ``column_1`` ...
        num_samples (int): how many rows to read. Default: ``None`` (all).
        num_parallel_workers (int): accepted for compatibility. Default: ``1``.
        shuffle (bool): Default: ``None`` (shuffled).
        sampler, num_shards, shard_id: as in :class:`GeneratorDataset`.

    Examples:
        >>> data = {"x": np.random.rand(100, 3), "y": np.arange(100)}
        >>> ds = ms.dataset.NumpySlicesDataset(data, shuffle=False).batch(10)
    """

    def __init__(self, data: Any, column_names: Any = None, num_samples: int | None = None,
                 num_parallel_workers: int = 1, shuffle: bool | None = None, sampler: Any = None,
                 num_shards: int | None = None, shard_id: int | None = None) -> None:
        names: list[str] | None = None
        if isinstance(data, dict):
            names = list(data.keys())
            cols = tuple(getattr(v, "values", v) for v in data.values())
        elif isinstance(data, tuple):
            cols = data
        else:
            cols = (data,)
        columns = [_column(c) for c in cols]
        lengths = [len(c) for c in columns]
        if len(set(lengths)) > 1:
            raise ValueError(f"NumpySlicesDataset: the columns have different lengths {lengths}")
        if column_names is not None:
            names = [column_names] if isinstance(column_names, str) else list(column_names)
        elif names is None:
            names = [f"column_{i}" for i in range(len(columns))]
        if len(names) != len(columns):
            raise ValueError(f"NumpySlicesDataset: {len(names)} column names for {len(columns)} columns")
        self._columns = columns
        self._length = lengths[0] if lengths else 0
        super().__init__(_Slices(self), column_names=names, num_samples=num_samples,
                         num_parallel_workers=num_parallel_workers, shuffle=shuffle, sampler=sampler,
                         num_shards=num_shards, shard_id=shard_id)

    def _row_at(self, i: int) -> Row:
        return tuple(np.array(c[i]) for c in self._columns)

    def _gather(self, idx: np.ndarray) -> Row:
        return tuple(c[idx] if isinstance(c, np.ndarray) else
                     _stack([c[int(i)] for i in idx], k, self.column_names)
                     for k, c in enumerate(self._columns))


class _Slices:
    """The random-access view NumpySlicesDataset hands its GeneratorDataset base."""

    def __init__(self, owner: NumpySlicesDataset) -> None:
        self.owner = owner

    def __getitem__(self, i: int) -> Row:
        return self.owner._row_at(i)

    def __len__(self) -> int:
        return self.owner._length


def _stack(values: list[np.ndarray], col: int, names: Sequence[str]) -> np.ndarray:
    try:
        return np.stack(values)
    except ValueError:
        shapes = sorted({tuple(np.shape(v)) for v in values})
        raise RuntimeError(f"batch: column '{names[col]}' has rows of different shapes {shapes}; batching needs "
                           "equal shapes (pad or resize them in a map first)") from None


# ---------------------------------------------------------------------------- operations
def _names(value: Any, what: str) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return list(value)
    raise TypeError(f"{what} must be a str or a list of str, got {value!r}")


class BatchDataset(Dataset):
    def __init__(self, child: Dataset, batch_size: int, drop_remainder: bool = False,
                 num_parallel_workers: int | None = None, per_batch_map: Callable | None = None,
                 input_columns: Any = None, output_columns: Any = None, **_: Any) -> None:
        super().__init__([child], num_parallel_workers)
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size <= 0:
            raise ValueError(f"batch: batch_size must be a positive int, got {batch_size!r}")
        if not isinstance(drop_remainder, bool):
            raise TypeError(f"batch: drop_remainder must be a bool, got {type(drop_remainder).__name__}")
        self.batch_size, self.drop_remainder = batch_size, drop_remainder
        self.per_batch_map = per_batch_map
        cols = child.get_col_names()
        self.input_columns = _names(input_columns, "batch input_columns") if input_columns is not None else cols
        missing = [c for c in self.input_columns if c not in cols]
        if missing:
            raise ValueError(f"batch: input_columns {missing} are not columns of the dataset {cols}")
        self.output_columns = _names(output_columns, "batch output_columns") if output_columns is not None \
            else self.input_columns

    def get_col_names(self) -> list[str]:
        cols = self.children[0].get_col_names()
        if self.per_batch_map is None:
            return cols
        return _place(cols, self.input_columns, self.output_columns)

    def get_batch_size(self) -> int:
        return self.batch_size

    def _num_rows(self) -> int:
        n = self.children[0]._num_rows()
        return n // self.batch_size if self.drop_remainder else math.ceil(n / self.batch_size)

    def _plan(self, seed: int | None, epoch: int) -> Iterator[Row]:
        plan = self.children[0]._plan(seed, epoch)
        if isinstance(plan, _Indexed):
            idx, b = plan.idx, self.batch_size
            stop = len(idx) - len(idx) % b if self.drop_remainder else len(idx)
            batches: Iterator[Row] = (plan.gather(idx[s:s + b]) for s in range(0, stop, b))
        else:
            batches = self._stack_rows(plan)
        if self.per_batch_map is None:
            return batches
        return self._mapped(batches, epoch)

    def _stack_rows(self, rows: Iterator[Row]) -> Iterator[Row]:
        names = self.children[0].get_col_names()
        buf: list[Row] = []
        for row in rows:
            buf.append(row)
            if len(buf) == self.batch_size:
                yield tuple(_stack([r[c] for r in buf], c, names) for c in range(len(names)))
                buf = []
        if buf and not self.drop_remainder:
            yield tuple(_stack([r[c] for r in buf], c, names) for c in range(len(names)))

    def _mapped(self, batches: Iterator[Row], epoch: int) -> Iterator[Row]:
        cols = self.children[0].get_col_names()
        pos = [cols.index(c) for c in self.input_columns]
        for k, batch in enumerate(batches):
            args = [list(batch[p]) for p in pos]
            assert self.per_batch_map is not None
            out = self.per_batch_map(*args, BatchInfo(k, epoch))
            out = out if isinstance(out, tuple) else (out,)
            if len(out) != len(self.output_columns):
                raise RuntimeError(f"batch: per_batch_map returned {len(out)} columns, output_columns names "
                                   f"{len(self.output_columns)}")
            produced = {n: np.asarray(v) for n, v in zip(self.output_columns, out)}
            yield _assemble(cols, batch, self.input_columns, self.output_columns, produced)


def _place(cols: list[str], inputs: list[str], outputs: list[str]) -> list[str]:
    """Output column order of a map: the outputs take the place of the (first) input column, the other
    columns keep theirs."""
    first = min(cols.index(c) for c in inputs)
    before = [c for c in cols[:first] if c not in inputs]
    after = [c for c in cols[first:] if c not in inputs]
    return before + list(outputs) + after


def _assemble(cols: list[str], row: Row, inputs: list[str], outputs: list[str], produced: dict) -> Row:
    new = _place(cols, inputs, outputs)
    return tuple(produced[c] if c in produced else row[cols.index(c)] for c in new)


class MapDataset(Dataset):
    def __init__(self, child: Dataset, operations: Any, input_columns: Any = None, output_columns: Any = None,
                 num_parallel_workers: int | None = None) -> None:
        super().__init__([child], num_parallel_workers)
        ops = list(operations) if isinstance(operations, (list, tuple)) else [operations]
        for i, op in enumerate(ops):
            if not callable(op):
                raise TypeError(f"map: operations[{i}] is {type(op).__name__}, expected a callable")
        self.operations = ops
        cols = child.get_col_names()
        self.input_columns = _names(input_columns, "map input_columns") if input_columns is not None else cols[:1]
        missing = [c for c in self.input_columns if c not in cols]
        if missing:
            raise ValueError(f"map: input_columns {missing} are not columns of the dataset {cols}")
        self.output_columns = _names(output_columns, "map output_columns") if output_columns is not None \
            else list(self.input_columns)

    def get_col_names(self) -> list[str]:
        return _place(self.children[0].get_col_names(), self.input_columns, self.output_columns)

    def _plan(self, seed: int | None, epoch: int) -> Iterator[Row]:
        cols = self.children[0].get_col_names()
        pos = [cols.index(c) for c in self.input_columns]
        ops, outs, ins = self.operations, self.output_columns, self.input_columns
        for row in _rows_of(self.children[0]._plan(seed, epoch)):
            vals: Any = tuple(row[p] for p in pos)
            for op in ops:
                vals = op(*vals)
                vals = tuple(vals) if isinstance(vals, (tuple, list)) else (vals,)
            if len(vals) != len(outs):
                raise RuntimeError(f"map: the operations returned {len(vals)} columns, output_columns names "
                                   f"{len(outs)} ({outs})")
            produced = {n: (v.asnumpy() if hasattr(v, "asnumpy") else np.asarray(v)) for n, v in zip(outs, vals)}
            yield _assemble(cols, row, ins, outs, produced)


class ShuffleDataset(Dataset):
    def __init__(self, child: Dataset, buffer_size: int) -> None:
        super().__init__([child])
        if isinstance(buffer_size, bool) or not isinstance(buffer_size, int) or buffer_size < 2:
            raise ValueError(f"shuffle: buffer_size must be an int >= 2, got {buffer_size!r}")
        self.buffer_size = buffer_size

    def _plan(self, seed: int | None, epoch: int) -> Any:
        rng = _epoch_rng(seed, epoch, 1 + self._depth())
        plan = self.children[0]._plan(seed, epoch)
        if isinstance(plan, _Indexed):
            n = len(plan.idx)
            perm = rng.permutation(n) if self.buffer_size >= n else np.fromiter(
                _buffer_shuffle(iter(range(n)), self.buffer_size, rng), dtype=np.int64, count=n)
            return _Indexed(plan.idx[perm], plan.gather, plan.one)
        return _buffer_shuffle(plan, self.buffer_size, rng)

    def _depth(self) -> int:
        d, node = 0, self  # type: tuple[int, Dataset]
        while node.children:
            d, node = d + 1, node.children[0]
        return d


def _buffer_shuffle(items: Iterator[Any], size: int, rng: np.random.Generator) -> Iterator[Any]:
    """Fill a buffer of ``size``; then repeatedly emit a random buffered item and put the next one in its place."""
    buf: list[Any] = []
    for item in items:
        if len(buf) < size:
            buf.append(item)
            continue
        k = int(rng.integers(len(buf)))
        yield buf[k]
        buf[k] = item
    while buf:
        k = int(rng.integers(len(buf)))
        buf[k], buf[-1] = buf[-1], buf[k]
        yield buf.pop()


class RepeatDataset(Dataset):
    def __init__(self, child: Dataset, count: int | None = None) -> None:
        super().__init__([child])
        if count is None:
            count = -1
        if isinstance(count, bool) or not isinstance(count, int) or (count <= 0 and count != -1):
            raise ValueError(f"repeat: count must be a positive int or -1 (forever), got {count!r}")
        self.count = count

    def get_repeat_count(self) -> int:
        return self.count

    def _num_rows(self) -> int:
        if self.count == -1:
            raise RuntimeError("repeat(-1) is endless: it has no dataset size")
        return self.children[0]._num_rows() * self.count

    def _plan(self, seed: int | None, epoch: int) -> Iterator[Row]:
        k = 0
        while self.count == -1 or k < self.count:
            # each repetition reruns the child pipeline (a shuffle below draws a new order)
            yield from _rows_of(self.children[0]._plan(seed, epoch * max(self.count, 1) + k))
            k += 1


class ProjectDataset(Dataset):
    def __init__(self, child: Dataset, columns: Any) -> None:
        super().__init__([child])
        self.columns = _names(columns, "project columns")
        cols = child.get_col_names()
        missing = [c for c in self.columns if c not in cols]
        if missing:
            raise ValueError(f"project: columns {missing} are not columns of the dataset {cols}")
        self._pos = [cols.index(c) for c in self.columns]

    def get_col_names(self) -> list[str]:
        return list(self.columns)

    def _plan(self, seed: int | None, epoch: int) -> Any:
        pos = self._pos
        plan = self.children[0]._plan(seed, epoch)
        if isinstance(plan, _Indexed):
            return plan.with_columns(lambda row: tuple(row[p] for p in pos))
        return (tuple(row[p] for p in pos) for row in plan)


class RenameDataset(Dataset):
    def __init__(self, child: Dataset, input_columns: Any, output_columns: Any) -> None:
        super().__init__([child])
        ins, outs = _names(input_columns, "rename input_columns"), _names(output_columns, "rename output_columns")
        if len(ins) != len(outs):
            raise ValueError(f"rename: {len(ins)} input columns but {len(outs)} output columns")
        cols = child.get_col_names()
        missing = [c for c in ins if c not in cols]
        if missing:
            raise ValueError(f"rename: columns {missing} are not columns of the dataset {cols}")
        mapping = dict(zip(ins, outs))
        self._cols = [mapping.get(c, c) for c in cols]

    def get_col_names(self) -> list[str]:
        return list(self._cols)

    def _plan(self, seed: int | None, epoch: int) -> Any:
        return self.children[0]._plan(seed, epoch)


class TakeDataset(Dataset):
    def __init__(self, child: Dataset, count: int) -> None:
        super().__init__([child])
        if isinstance(count, bool) or not isinstance(count, int) or (count <= 0 and count != -1):
            raise ValueError(f"take: count must be a positive int or -1, got {count!r}")
        self.count = count

    def _num_rows(self) -> int:
        n = self.children[0]._num_rows()
        return n if self.count == -1 else min(n, self.count)

    def _plan(self, seed: int | None, epoch: int) -> Any:
        plan = self.children[0]._plan(seed, epoch)
        if self.count == -1:
            return plan
        if isinstance(plan, _Indexed):
            return _Indexed(plan.idx[:self.count], plan.gather, plan.one)
        return (row for _, row in zip(range(self.count), plan))


class SkipDataset(Dataset):
    def __init__(self, child: Dataset, count: int) -> None:
        super().__init__([child])
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ValueError(f"skip: count must be a non-negative int, got {count!r}")
        self.count = count

    def _num_rows(self) -> int:
        return max(self.children[0]._num_rows() - self.count, 0)

    def _plan(self, seed: int | None, epoch: int) -> Any:
        plan = self.children[0]._plan(seed, epoch)
        if isinstance(plan, _Indexed):
            return _Indexed(plan.idx[self.count:], plan.gather, plan.one)
        it = iter(plan)
        for _ in range(self.count):
            if next(it, None) is None:
                break
        return it
