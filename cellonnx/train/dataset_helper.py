"""Dataset sinking on the host: DatasetHelper, connect_network_with_dataset and data_sink.

MindSpore's sink mode sends batches ahead into a device queue that the network reads with a GetNext op.
cellonnx has no device queue (onnxruntime receives host arrays), so a "sink" is a host iterator over the
dataset that the connected network (or sunk function) pulls its next batch from: the calling code is the same
and so are the numbers; only the transfer is not overlapped with the computation.
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import Any

from cellonnx import dtypes
from cellonnx.nn.cell import Cell
from cellonnx.tensor import Tensor

__all__ = ["DatasetHelper", "connect_network_with_dataset", "data_sink"]


class _HostQueue:
    """The batches of a dataset, epoch after epoch without end (what a device queue would receive)."""

    def __init__(self, dataset: Any, epoch_num: int = -1) -> None:
        self.dataset = dataset
        self._iterator = dataset.create_tuple_iterator(num_epochs=epoch_num, do_copy=False)
        self._rows: Iterator | None = None

    def next(self) -> tuple:
        for _ in range(2):
            if self._rows is None:
                self._rows = iter(self._iterator)
            try:
                row = next(self._rows)
            except StopIteration:
                self._rows = None
                continue
            return tuple(row) if isinstance(row, (list, tuple)) else (row,)
        raise RuntimeError("data sink: the dataset has no more data (its epochs are used up)")


class DatasetHelper:
    """Iterate a dataset for a training loop, in sink mode or not.

    Not sunk, iterating yields each batch (a list of Tensors), for ``epoch_num`` epochs. Sunk, iterating
    yields
    ``()`` once per step of a sink (``sink_size`` steps, the dataset size with -1), and a network passed to
    :func:`connect_network_with_dataset` reads each step's batch itself.

    Args:
        dataset (Dataset): the data.
        dataset_sink_mode (bool): Default: ``True``.
        sink_size (int): steps per sink, -1 for the dataset size. Default: ``-1``.
        epoch_num (int): epochs to feed. Default: ``1``.

    Examples:
        >>> from cellonnx.train import DatasetHelper, connect_network_with_dataset
        >>> net = nn.Dense(4, 2)
        >>> data = {"x": np.random.rand(64, 4).astype(np.float32), "y": np.arange(64, dtype=np.int32) % 2}
        >>> dataset = ms.dataset.NumpySlicesDataset(data, shuffle=False).batch(16)
        >>> loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        >>> train_net = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), nn.SGD(net.trainable_params()))
        >>> helper = DatasetHelper(dataset, dataset_sink_mode=True)
        >>> net = connect_network_with_dataset(train_net, helper)
        >>> for inputs in helper:
        ...     loss = net(*inputs)
    """

    def __init__(self, dataset: Any, dataset_sink_mode: bool = True, sink_size: int = -1,
                 epoch_num: int = 1) -> None:
        if not isinstance(dataset_sink_mode, bool):
            raise TypeError(f"For 'DatasetHelper', 'dataset_sink_mode' must be a bool, but got "
                            f"{type(dataset_sink_mode).__name__}.")
        if isinstance(sink_size, bool) or not isinstance(sink_size, int):
            raise TypeError("For 'DatasetHelper', 'sink_size' must be an int, but got "
                            f"{type(sink_size).__name__}.")
        if sink_size < -1 or sink_size == 0:
            raise ValueError(f"The 'sink_size' must be -1 or positive, but got sink_size {sink_size}.")
        self.dataset = dataset
        self.dataset_sink_mode = dataset_sink_mode
        self._sink_size = dataset.get_dataset_size() if sink_size == -1 else sink_size
        self._epoch_num = epoch_num
        self.queue: _HostQueue | None = _HostQueue(dataset, epoch_num) if dataset_sink_mode else None

    def __iter__(self) -> Iterator:
        if not self.dataset_sink_mode:
            return iter(self.dataset.create_tuple_iterator(num_epochs=self._epoch_num, do_copy=False))
        return iter([()] * self._sink_size)

    def sink_size(self) -> int:
        """Steps per sink (1 when not sunk)."""
        return self._sink_size if self.dataset_sink_mode else 1

    def types_shapes(self) -> tuple[list, list]:
        """The dtypes and shapes of the dataset's columns."""
        return self.dataset.output_types(), self.dataset.output_shapes()

    def get_data_info(self) -> tuple[list, list]:
        return self.types_shapes()

    def stop_send(self) -> None:
        """Nothing is sent ahead on the host."""

    def continue_send(self) -> None:
        """Nothing is sent ahead on the host."""

    def release(self) -> None:
        self.queue = None

    def get_mbuf_queue_size(self) -> int:
        return 0


class _SinkNetwork(Cell):
    """The network fed by its DatasetHelper: a call without inputs takes the next batch."""

    def __init__(self, network: Cell, helper: DatasetHelper) -> None:
        super().__init__(auto_prefix=False)
        self.network = network
        object.__setattr__(self, "_helper", helper)

    def construct(self, *inputs: Any) -> Any:
        if not inputs:
            queue = self._helper.queue
            if queue is None:
                raise RuntimeError("connect_network_with_dataset: the DatasetHelper was released")
            inputs = queue.next()
        return self.network(*inputs)


def connect_network_with_dataset(network: Cell, dataset_helper: DatasetHelper) -> Cell:
    """The network reading its inputs from ``dataset_helper`` (sink mode): calling it with no arguments runs
    it on the next batch.

    Args:
        network (Cell): the training (or evaluation) network.
        dataset_helper (DatasetHelper): a helper in sink mode.

    Returns:
        Cell, the connected network (the same one for the same helper and network).

    Raises:
        RuntimeError: the helper is not in sink mode.
        ValueError: the dataset is already connected to another network.

    Examples:
        >>> import cellonnx.dataset as ds
        >>> from cellonnx.train import DatasetHelper, connect_network_with_dataset
        >>> data = ds.NumpySlicesDataset({"x": np.arange(6, dtype=np.float32).reshape(3, 2)}, shuffle=False)
        >>> helper = DatasetHelper(data.batch(2), dataset_sink_mode=True)
        >>> class Total(nn.Cell):
        ...     def construct(self, x):
        ...         return x.sum()
        >>> net = connect_network_with_dataset(Total(), helper)
        >>> print(net(), net())
        6.0 9.0
    """
    if not dataset_helper.dataset_sink_mode:
        raise RuntimeError("The API 'connect_network_with_dataset' should be called in dataset sink mode.")
    dataset = dataset_helper.dataset
    connected = getattr(dataset, "__network__", None)
    if connected is not None and connected is not network:
        raise ValueError("The dataset has been connected to other network, please check the code.")
    dataset.__network__ = network
    sink = getattr(dataset_helper, "_sink_network", None)
    if sink is None or sink.network is not network:
        sink = _SinkNetwork(network, dataset_helper)
        dataset_helper._sink_network = sink
    return sink


def data_sink(fn: Callable, dataset: Any, sink_size: int = 1, jit_config: Any = None,
              input_signature: Any = None) -> Callable:
    """``fn`` fed from ``dataset``: each call of the returned function runs ``fn(*batch)`` on the next
    ``sink_size`` batches (cycling through the epochs) and returns the last result.

    Args:
        fn (Callable): the step function (a training step, a Cell ...).
        dataset (Dataset): the data.
        sink_size (int): batches per call, > 0. Default: ``1``.
        jit_config (JitConfig): accepted; the function runs eagerly. Default: ``None``.
        input_signature (Union[Tensor, list, tuple]): the inputs' expected shapes and dtypes, checked against
            the dataset's. Default: ``None``.

    Returns:
        Callable, the sunk function.

    Examples:
        >>> net = nn.Dense(4, 2)
        >>> data = {"x": np.random.rand(64, 4).astype(np.float32), "y": np.arange(64, dtype=np.int32) % 2}
        >>> dataset = ms.dataset.NumpySlicesDataset(data, shuffle=False).batch(16)
        >>> loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        >>> train_step = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), nn.SGD(net.trainable_params()))
        >>> sink_step = ms.data_sink(train_step, dataset, sink_size=4)
        >>> for _ in range(dataset.get_dataset_size() // 4):
        ...     loss = sink_step()
    """
    if isinstance(sink_size, bool) or not isinstance(sink_size, int):
        raise TypeError("For 'Data sink', the 'sink_size' must be an int, but got "
                        f"{type(sink_size).__name__}.")
    if sink_size <= 0:
        raise ValueError(f"The 'sink_size' must be positive, but got sink_size {sink_size}.")
    if hasattr(dataset, "__transfer_dataset__"):
        raise ValueError("The dataset has been used with network.")
    if input_signature is not None:
        _check_signature(input_signature, dataset)
    queue = _HostQueue(dataset)
    dataset.__transfer_dataset__ = queue

    @functools.wraps(fn)
    def sink_process(*args: Any, **kwargs: Any) -> Any:
        out = None
        for _ in range(sink_size):
            out = fn(*queue.next())
        return out

    return sink_process


def _check_signature(signature: Any, dataset: Any) -> None:
    specs = signature if isinstance(signature, (list, tuple)) else [signature]
    shapes, types = dataset.output_shapes(), dataset.output_types()
    if len(specs) != len(shapes):
        raise ValueError(f"The length of 'input_signature' ({len(specs)}) must equal the number of dataset "
                         f"columns ({len(shapes)}).")
    for i, (spec, shape, dtype) in enumerate(zip(specs, shapes, types)):
        if not isinstance(spec, Tensor):
            raise TypeError(f"input_signature[{i}] must be a Tensor, but got {type(spec).__name__}.")
        want = tuple(spec.shape)
        if len(want) != len(shape) or any(w not in (None, -1, s) for w, s in zip(want, shape)):
            raise ValueError(f"input_signature[{i}] has shape {want}, but the dataset column has "
                             f"{tuple(shape)}.")
        if dtypes.dtype(spec.dtype) != dtypes.dtype(dtype):
            raise ValueError(f"input_signature[{i}] has dtype {spec.dtype}, but the dataset column has "
                             f"{dtype}.")
