"""``mx.contrib.io``: DataLoaderIter, a gluon DataLoader seen as an ``mx.io.DataIter`` (so Module code can
train from it)."""
from __future__ import annotations

from typing import Any

from cellonnx.mxnet import ndarray as nd
from cellonnx.mxnet.io import DataDesc, DataIter

__all__ = ["DataDesc", "DataIter", "DataLoaderIter"]


class DataLoaderIter(DataIter):
    """An ``mx.io.DataIter`` over a ``gluon.data.DataLoader`` yielding ``(data, label)`` batches.

    Batches are cast to ``dtype``; a last batch smaller than the first is padded to the batch size (into a
    float32 array whose filling rows are uninitialised, as MXNet pads it) and its ``pad`` says how many rows
    only fill it.

    Args:
        loader (gluon.data.DataLoader): the loader; its first batch fixes ``batch_size`` and the shapes.
        data_name (str): name of the data input. Default: ``'data'``.
        label_name (str): name of the label input. Default: ``'softmax_label'``.
        dtype (str): type of the batches. Default: ``'float32'``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx.mxnet as mx
        >>> from cellonnx.mxnet.contrib.io import DataLoaderIter
        >>> data = mx.gluon.data.ArrayDataset(np.arange(10, dtype='float32').reshape(5, 2), np.arange(5))
        >>> it = DataLoaderIter(mx.gluon.data.DataLoader(data, batch_size=2))
        >>> it.provide_data[0].shape, it.provide_label[0].name
        ((2, 2), 'softmax_label')
        >>> [batch.pad for batch in it]
        [0, 0, 1]
    """

    def __init__(self, loader: Any, data_name: str = "data", label_name: str = "softmax_label",
                 dtype: str = "float32") -> None:
        super().__init__()
        self._loader = loader
        self._iter = iter(self._loader)
        data, label = next(self._iter)
        self.batch_size = data.shape[0]
        self.dtype = dtype
        self.provide_data = [DataDesc(data_name, data.shape, dtype)]
        self.provide_label = [DataDesc(label_name, label.shape, dtype)]
        self._current_batch: Any = None
        self.reset()

    def reset(self) -> None:
        """Start over from the loader's first batch."""
        self._iter = iter(self._loader)

    def iter_next(self) -> bool:
        """Move to the loader's next batch; False after its last."""
        self._current_batch = next(self._iter, None)
        return self._current_batch is not None

    def _padded(self, value: Any) -> list:
        if not self.getpad():
            return [value.astype(self.dtype)]
        ret = nd.empty(shape=[self.batch_size, *value.shape[1:]])  # float32, as MXNet pads
        ret[:value.shape[0]] = value.astype(self.dtype)
        return [ret]

    def getdata(self) -> list:
        """The current batch's data, cast to ``dtype`` and padded to the batch size."""
        return self._padded(self._current_batch[0])

    def getlabel(self) -> list:
        """The current batch's label, cast to ``dtype`` and padded to the batch size."""
        return self._padded(self._current_batch[1])

    def getpad(self) -> int:
        """How many rows of the current batch only fill it."""
        return self.batch_size - self._current_batch[0].shape[0]

    def getindex(self) -> None:
        """None: a DataLoader does not say which examples a batch holds."""
        return None
