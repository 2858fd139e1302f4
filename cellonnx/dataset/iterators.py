"""Dataset iterators: rows as lists (TupleIterator) or dicts (DictIterator), of Tensors or NumPy arrays."""
from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import numpy as np

from cellonnx.dataset import config
from cellonnx.tensor import Tensor

if TYPE_CHECKING:
    from typing_extensions import Self

    from cellonnx.dataset.engine import Dataset

__all__ = ["DictIterator", "TupleIterator"]



def _to_tensor(a: np.ndarray) -> Any:
    if a.dtype.kind in "USO":
        return a  # strings and objects stay NumPy, as there is no string Tensor
    return Tensor._make(a)


class _Iterator:
    """One pipeline pass per epoch: ``for row in it`` runs an epoch; up to ``num_epochs`` epochs (-1: no limit)."""

    def __init__(self, dataset: Dataset, num_epochs: int, output_numpy: bool, do_copy: bool) -> None:
        if isinstance(num_epochs, bool) or not isinstance(num_epochs, int) or (num_epochs <= 0 and num_epochs != -1):
            raise ValueError(f"num_epochs must be a positive int or -1, got {num_epochs!r}")
        self.dataset = dataset
        self.num_epochs = num_epochs
        self.output_numpy = output_numpy
        self.do_copy = do_copy
        self._seed = config.get_seed()
        self._epoch = -1
        self._rows: Iterator[tuple] | None = None
        self._names = dataset.get_col_names()

    def _start_epoch(self) -> None:
        if self.num_epochs != -1 and self._epoch + 1 >= self.num_epochs:
            raise RuntimeError(f"the dataset iterator was created for num_epochs={self.num_epochs} and all of them "
                               "have been read; create a new iterator (or pass a larger num_epochs)")
        self._epoch += 1
        self._rows = self.dataset._epoch_rows(self._seed, self._epoch)

    def __iter__(self) -> Self:
        if self._rows is None:
            self._start_epoch()
        return self

    def _next_row(self) -> tuple:
        if self._rows is None:
            self._start_epoch()
        assert self._rows is not None
        try:
            return next(self._rows)
        except StopIteration:
            self._rows = None
            raise

    def _convert(self, row: tuple) -> list:
        if self.output_numpy:
            return [a.copy() if self.do_copy else a for a in row]
        return [_to_tensor(a.copy() if self.do_copy else a) for a in row]

    def get_col_names(self) -> list[str]:
        return list(self._names)

    def stop(self) -> None:
        """End the current epoch early."""
        self._rows = None


class TupleIterator(_Iterator):
    """Rows as lists, in column order (or the order of ``columns``).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> data = {"x": np.arange(4), "y": np.arange(4) * 2}
        >>> dataset = ms.dataset.NumpySlicesDataset(data, shuffle=False).batch(2)
        >>> for x, y in dataset.create_tuple_iterator():
        ...     print(type(x).__name__, x.shape)
        Tensor (2,)
        Tensor (2,)
    """

    def __init__(self, dataset: Dataset, columns: Any = None, num_epochs: int = -1, output_numpy: bool = False,
                 do_copy: bool = False) -> None:
        super().__init__(dataset, num_epochs, output_numpy, do_copy)
        if columns is None:
            self._pick: list[int] | None = None
        else:
            cols = [columns] if isinstance(columns, str) else list(columns)
            missing = [c for c in cols if c not in self._names]
            if missing:
                raise ValueError(f"create_tuple_iterator: columns {missing} are not columns of the dataset "
                                 f"{self._names}")
            self._pick = [self._names.index(c) for c in cols]

    def __next__(self) -> list:
        row = self._next_row()
        if self._pick is not None:
            row = tuple(row[i] for i in self._pick)
        return self._convert(row)


class DictIterator(_Iterator):
    """Rows as ``{column name: value}`` dicts.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> data = {"x": np.arange(4), "y": np.arange(4) * 2}
        >>> dataset = ms.dataset.NumpySlicesDataset(data, shuffle=False).batch(2)
        >>> for row in dataset.create_dict_iterator(output_numpy=True):
        ...     print(row["x"], row["y"])
        [0 1] [0 2]
        [2 3] [4 6]
    """

    def __init__(self, dataset: Dataset, num_epochs: int = -1, output_numpy: bool = False,
                 do_copy: bool = False) -> None:
        super().__init__(dataset, num_epochs, output_numpy, do_copy)

    def __next__(self) -> dict:
        return dict(zip(self._names, self._convert(self._next_row())))
