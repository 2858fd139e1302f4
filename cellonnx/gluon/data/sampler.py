"""gluon.data samplers: the index orders a DataLoader draws samples in (MXNet 1.9.1's, and 2.x's
IntervalSampler). RandomSampler shuffles with NumPy's global generator, as MXNet does, so ``np.random.seed``
fixes its order."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

__all__ = ["BatchSampler", "FilterSampler", "IntervalSampler", "RandomSampler", "Sampler",
           "SequentialSampler"]

class Sampler:
    """Base class of samplers: an iterable of sample indices with a length.

    Examples:
        >>> from cellonnx.gluon.data import Sampler
        >>> class Evens(Sampler):
        ...     def __iter__(self):
        ...         return iter(range(0, 6, 2))
        ...     def __len__(self):
        ...         return 3
        >>> list(Evens())
        [0, 2, 4]
    """

    def __iter__(self) -> Iterator[Any]:
        raise NotImplementedError

    def __len__(self) -> int:
        raise NotImplementedError


class SequentialSampler(Sampler):
    """Samples ``start, start + 1, ..., start + length - 1`` in order.

    Args:
        length (int): the number of indices.
        start (int): the first index. Default: 0.

    Examples:
        >>> from cellonnx.gluon.data import SequentialSampler
        >>> list(SequentialSampler(4, start=2))
        [2, 3, 4, 5]
    """

    def __init__(self, length: int, start: int = 0) -> None:
        self._length = length
        self._start = start

    def __iter__(self) -> Iterator[int]:
        return iter(range(self._start, self._start + self._length))

    def __len__(self) -> int:
        return self._length


class RandomSampler(Sampler):
    """Samples ``[0, length)`` in a random order (``numpy.random.shuffle``, drawn at each iteration).

    Args:
        length (int): the number of indices.

    Examples:
        >>> import numpy as np
        >>> from cellonnx.gluon.data import RandomSampler
        >>> np.random.seed(0)
        >>> [int(i) for i in RandomSampler(5)]
        [2, 0, 1, 3, 4]
    """

    def __init__(self, length: int) -> None:
        self._length = length

    def __iter__(self) -> Iterator[Any]:
        indices = np.arange(self._length)
        np.random.shuffle(indices)
        return iter(indices)

    def __len__(self) -> int:
        return self._length


class FilterSampler(Sampler):
    """Samples the indices of the samples of ``dataset`` for which ``fn(sample)`` is true.

    Args:
        fn (Callable): the predicate.
        dataset (Dataset): the dataset (read once, when the sampler is made).

    Examples:
        >>> from cellonnx.gluon.data import FilterSampler, SimpleDataset
        >>> list(FilterSampler(lambda x: x % 3 == 0, SimpleDataset(list(range(10)))))
        [0, 3, 6, 9]
    """

    def __init__(self, fn: Callable[[Any], bool], dataset: Any) -> None:
        self._fn = fn
        self._dataset = dataset
        self._indices = [i for i, sample in enumerate(dataset) if fn(sample)]

    def __iter__(self) -> Iterator[int]:
        return iter(self._indices)

    def __len__(self) -> int:
        return len(self._indices)


class BatchSampler(Sampler):
    """Groups the indices of ``sampler`` into lists of ``batch_size``.

    Args:
        sampler (Sampler): the indices.
        batch_size (int): the size of a batch.
        last_batch (str): what to do with a last batch shorter than ``batch_size``: ``'keep'`` it,
            ``'discard'`` it, or ``'rollover'`` its indices into the first batch of the next epoch.
            Default: ``'keep'``.

    Raises:
        ValueError: ``last_batch`` is none of the three.

    Examples:
        >>> from cellonnx.gluon.data import BatchSampler, SequentialSampler
        >>> list(BatchSampler(SequentialSampler(7), 3, 'keep'))
        [[0, 1, 2], [3, 4, 5], [6]]
        >>> sampler = BatchSampler(SequentialSampler(7), 3, 'rollover')
        >>> list(sampler), list(sampler)
        ([[0, 1, 2], [3, 4, 5]], [[6, 0, 1], [2, 3, 4]])
    """

    def __init__(self, sampler: Any, batch_size: int, last_batch: str = "keep") -> None:
        self._sampler = sampler
        self._batch_size = batch_size
        self._last_batch = last_batch
        self._prev: list[Any] = []

    def _bad(self) -> ValueError:
        return ValueError(f"last_batch must be one of 'keep', 'discard', or 'rollover', but got "
                          f"{self._last_batch}")

    def __iter__(self) -> Iterator[list[Any]]:
        batch, self._prev = self._prev, []
        for i in self._sampler:
            batch.append(i)
            if len(batch) == self._batch_size:
                yield batch
                batch = []
        if batch:
            if self._last_batch == "keep":
                yield batch
            elif self._last_batch == "rollover":
                self._prev = batch
            elif self._last_batch != "discard":
                raise self._bad()

    def __len__(self) -> int:
        if self._last_batch == "keep":
            return (len(self._sampler) + self._batch_size - 1) // self._batch_size
        if self._last_batch == "discard":
            return len(self._sampler) // self._batch_size
        if self._last_batch == "rollover":
            return (len(self._prev) + len(self._sampler)) // self._batch_size
        raise self._bad()


class IntervalSampler(Sampler):
    """Samples ``[0, length)`` at a fixed interval: ``0, interval, 2 * interval, ...``, then (with
    ``rollover``) again from each skipped start, ``1, 1 + interval, ...`` (MXNet 2.x).

    Args:
        length (int): the number of indices.
        interval (int): the step; smaller than ``length``.
        rollover (bool): whether to go on from the skipped starts after the first pass. Default: True.

    Examples:
        >>> from cellonnx.gluon.data import IntervalSampler
        >>> list(IntervalSampler(7, interval=3))
        [0, 3, 6, 1, 4, 2, 5]
        >>> list(IntervalSampler(7, interval=3, rollover=False))
        [0, 3, 6]
    """

    def __init__(self, length: int, interval: int, rollover: bool = True) -> None:
        assert interval < length, f"Interval {interval} must be smaller than length {length}"
        self._length = length
        self._interval = interval
        self._rollover = rollover

    def __iter__(self) -> Iterator[int]:
        for i in range(self._interval if self._rollover else 1):
            yield from range(i, self._length, self._interval)

    def __len__(self) -> int:
        if self._rollover:
            return self._length
        return (self._length + self._interval - 1) // self._interval
