"""Cells that split a batch into micro-batches along its first axis: GradAccumulationCell (the sum of the
network's outputs over ``micro_size`` slices, so their gradients accumulate) and MicroBatchInterleaved."""
from __future__ import annotations

from typing import Any

from cellonnx import ops
from cellonnx.nn.cell import Cell
from cellonnx.tensor import Tensor

__all__ = ["GradAccumulationCell", "MicroBatchInterleaved"]


def _micro_inputs(inputs: tuple, i: int, parts: int, owner: str) -> tuple:
    """The i-th of ``parts`` equal slices of every input along axis 0."""
    out = []
    for x in inputs:
        if not isinstance(x, Tensor):
            out.append(x)
            continue
        n = x.shape[0]
        if n % parts:
            raise ValueError(f"For '{owner}', the first dimension of every input ({n}) must be divisible by "
                             f"{parts}, but got an input of shape {x.shape}.")
        size = n // parts
        out.append(ops.narrow(x, 0, size * i, size))
    return tuple(out)


def _check_count(value: Any, name: str, owner: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"For '{owner}', the argument '{name}' must be integer, but got the type : "
                        f"{type(value)}.")
    if value <= 0:
        raise ValueError(f"For '{owner}', the argument '{name}' must be large than 0, but got {value}.")
    return value


class GradAccumulationCell(Cell):
    """Run the network on ``micro_size`` equal slices of the batch (axis 0) one after the other and return the
    sum of their outputs (usually losses): differentiating the sum accumulates the slices' gradients, for a
    batch too large to process at once.

    Args:
        network (Cell): the network with its loss.
        micro_size (int): the number of slices; each input's first dimension must be divisible by it.

    Examples:
        >>> backbone = nn.Dense(3, 2)
        >>> data, label = Tensor(np.ones((8, 3), np.float32)), Tensor(np.zeros((8, 2), np.float32))
        >>> optimizer = nn.SGD(backbone.trainable_params(), learning_rate=0.1)
        >>> net = nn.GradAccumulationCell(nn.WithLossCell(backbone, nn.MSELoss()), micro_size=4)
        >>> loss = nn.TrainOneStepCell(net, optimizer)(data, label)
    """

    def __init__(self, network: Cell, micro_size: int) -> None:
        super().__init__(auto_prefix=False)
        if not isinstance(network, Cell):
            raise TypeError("For 'GradAccumulationCell', the argument 'network' must cell type, but got the "
                            f"type : {type(network)}.")
        self.network = network
        self.micro_size = _check_count(micro_size, "micro_size", "GradAccumulationCell")

    def construct(self, *inputs: Any) -> Any:
        total = None
        for i in range(self.micro_size):
            out = self.network(*_micro_inputs(inputs, i, self.micro_size, "GradAccumulationCell"))
            total = out if total is None else ops.add(total, out)
        return total


class MicroBatchInterleaved(Cell):
    """Run the network on ``interleave_num`` equal slices of the batch (axis 0) and return the sum of the
    outputs. MindSpore interleaves the slices' computation and communication in model-parallel training; here
    the slices run one after the other, with the same result.

    Args:
        network (Cell): the network.
        interleave_num (int): the number of slices. Default: ``2``.

    Examples:
        >>> backbone = nn.Dense(3, 2)
        >>> net = nn.MicroBatchInterleaved(nn.WithLossCell(backbone, nn.MSELoss()), interleave_num=2)
        >>> loss = net(Tensor(np.ones((4, 3), np.float32)), Tensor(np.zeros((4, 2), np.float32)))
    """

    def __init__(self, network: Cell, interleave_num: int = 2) -> None:
        super().__init__(auto_prefix=False)
        self.interleave_num = _check_count(interleave_num, "interleave_num", "MicroBatchInterleaved")
        self.network = network

    def construct(self, *inputs: Any) -> Any:
        total: Any = 0.0
        for i in range(self.interleave_num):
            out = self.network(*_micro_inputs(inputs, i, self.interleave_num, "MicroBatchInterleaved"))
            total = ops.add(total, out)
        return total
