"""Loss scaling for mixed-precision training: the update cells that manage the scale and the training step
that skips the update when the scaled gradients overflow."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import ops
from cellonnx.dtypes import bool_ as ms_bool
from cellonnx.graph.trace import tracing_step, updates_unless
from cellonnx.nn.cell import Cell
from cellonnx.nn.optim.optimizer import assign
from cellonnx.nn.wrap.cell_wrapper import TrainOneStepCell, _loss_and_grads
from cellonnx.tensor import Parameter, Tensor

__all__ = ["DynamicLossScaleUpdateCell", "FixedLossScaleUpdateCell", "TrainOneStepWithLossScaleCell"]

_F32 = np.float32


def _flag(x: Any) -> bool:
    return bool(np.asarray(x.asnumpy() if isinstance(x, Tensor) else x).all())


class DynamicLossScaleUpdateCell(Cell):
    r"""Grow the loss scale by ``scale_factor`` after ``scale_window`` steps without overflow; on an overflow
    divide it by ``scale_factor`` (not below 1).

    Args:
        loss_scale_value (float): the initial scale.
        scale_factor (int): the growth / shrink factor.
        scale_window (int): overflow-free steps before the scale grows.

    Keyword Args:
        init_loss_scale (float): the older ``mindspore.nn`` catalogue's spelling of ``loss_scale_value``.

    Inputs:
        - **loss_scale** (Parameter) - the scale, updated in place.
        - **overflow** (bool) - whether this step overflowed.

    Outputs:
        bool, the overflow flag passed through.

    Examples:
        >>> net = nn.Dense(3, 2)
        >>> data, label = Tensor(np.ones((4, 3), np.float32)), Tensor(np.zeros((4, 2), np.float32))
        >>> net_with_loss = nn.WithLossCell(net, nn.MSELoss())
        >>> optimizer = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
        >>> manager = nn.DynamicLossScaleUpdateCell(loss_scale_value=2**12, scale_factor=2, scale_window=1000)
        >>> train_net = nn.TrainOneStepWithLossScaleCell(net_with_loss, optimizer, scale_sense=manager)
    """

    def __init__(self, loss_scale_value: float | None = None, scale_factor: int | None = None,
                 scale_window: int | None = None, *, init_loss_scale: float | None = None) -> None:
        if init_loss_scale is not None:  # the older catalogue's example spells loss_scale_value so
            loss_scale_value = init_loss_scale
        for name, value in (("loss_scale_value", loss_scale_value), ("scale_factor", scale_factor),
                            ("scale_window", scale_window)):
            if value is None:
                raise TypeError(f"For 'DynamicLossScaleUpdateCell', missing a required argument: '{name}'")
        super().__init__()
        self.scale_window = int(scale_window)
        self.scale_factor = _F32(scale_factor)
        self.loss_scale_value = loss_scale_value
        self.cur_iter = Parameter(np.asarray(1, np.int32), name="current_iterator_step", requires_grad=False)
        self.last_overflow_iter = Parameter(np.asarray(0, np.int32), name="last_overflow_iterator_step",
                                            requires_grad=False)
        self.minimum_loss_scale = _F32(1.0)

    def get_loss_scale(self) -> float:
        """The initial loss scale."""
        return self.loss_scale_value

    def construct(self, loss_scale: Parameter, overflow: Any) -> Any:
        if tracing_step():
            return self._construct_traced(loss_scale, overflow)
        of = _flag(overflow)
        scale = loss_scale.asnumpy().astype(_F32)
        cur, last = int(self.cur_iter.asnumpy()), int(self.last_overflow_iter.asnumpy())
        if of:
            scale = np.maximum(scale * (_F32(1.0) / self.scale_factor), self.minimum_loss_scale)
        should_inc = self.scale_window <= cur - last
        if of or should_inc:
            self.last_overflow_iter.set_data(np.asarray(cur, np.int32))
        if should_inc and not of:
            scale = scale * self.scale_factor
        loss_scale.set_data(scale.astype(loss_scale.asnumpy().dtype))
        self.cur_iter.set_data(np.asarray(cur + 1, np.int32))
        return overflow

    def _construct_traced(self, loss_scale: Parameter, overflow: Any) -> Any:
        """The update above in ops, for a compiled training step."""
        of = ops.reshape(ops.cast(overflow, ms_bool), ())
        scale = ops.cast(loss_scale, _F32)
        cur, last = self.cur_iter, self.last_overflow_iter
        shrunk = ops.maximum(ops.mul(scale, _F32(1.0) / self.scale_factor), Tensor(self.minimum_loss_scale))
        scale = ops.where(of, shrunk, scale)
        should_inc = ops.ge(ops.sub(cur, last), self.scale_window)
        assign(last, ops.where(ops.logical_or(of, should_inc), cur, last))
        scale = ops.where(ops.logical_and(should_inc, ops.logical_not(of)), ops.mul(scale, self.scale_factor),
                          scale)
        assign(loss_scale, scale)
        assign(cur, ops.add(cur, 1))
        return overflow


class FixedLossScaleUpdateCell(Cell):
    r"""A constant loss scale: the update cell leaves it alone and passes the overflow flag through.

    Args:
        loss_scale_value (float): the loss scale.

    Examples:
        >>> from cellonnx import nn
        >>> manager = nn.FixedLossScaleUpdateCell(loss_scale_value=1024)
        >>> manager.get_loss_scale()
        1024
    """

    def __init__(self, loss_scale_value: float) -> None:
        super().__init__()
        self.loss_scale_value = loss_scale_value

    def get_loss_scale(self) -> float:
        return self.loss_scale_value

    def construct(self, _: Any, overflow: Any) -> Any:
        return overflow


class TrainOneStepWithLossScaleCell(TrainOneStepCell):
    r"""A training step with loss scaling: the backward pass is seeded with the scale, the gradients are divided
    by it, and when any gradient is inf/nan the optimizer update is skipped (the update cell, if given, adjusts
    the scale).

    Args:
        network (Cell): the network with its loss.
        optimizer (Optimizer): the optimizer.
        scale_sense (Union[Tensor, Cell]): a :class:`DynamicLossScaleUpdateCell` /
            :class:`FixedLossScaleUpdateCell`, or a scale Tensor of shape () or (1,).

    Keyword Args:
        scale_update_cell (Cell): MindSpore 0.x's name of ``scale_sense`` (it wins when given).

    Outputs:
        (loss, overflow, loss scale): the loss Tensor, a bool Tensor, and the scale Parameter (its value after
        this step's update).

    Examples:
        >>> net = nn.Dense(3, 2)
        >>> data, label = Tensor(np.ones((4, 3), np.float32)), Tensor(np.zeros((4, 2), np.float32))
        >>> net_with_loss = nn.WithLossCell(net, nn.MSELoss())
        >>> optimizer = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
        >>> manager = nn.DynamicLossScaleUpdateCell(loss_scale_value=2**12, scale_factor=2, scale_window=1000)
        >>> train_net = nn.TrainOneStepWithLossScaleCell(net_with_loss, optimizer, scale_sense=manager)
        >>> loss, overflow, scale = train_net(data, label)
    """

    def __init__(self, network: Cell, optimizer: Any, scale_sense: Any = None, *,
                 scale_update_cell: Cell | None = None) -> None:
        if scale_update_cell is not None:  # MindSpore 0.x's name of scale_sense
            scale_sense = scale_update_cell
        super().__init__(network, optimizer, sens=None)
        self.loss_scaling_manager = None
        if isinstance(scale_sense, Cell):
            self.loss_scaling_manager = scale_sense
            self.scale_sense = Parameter(np.asarray(scale_sense.get_loss_scale(), _F32), name="scale_sense",
                                         requires_grad=False)
        elif isinstance(scale_sense, Tensor):
            if tuple(scale_sense.shape) not in ((1,), ()):
                raise ValueError("For 'TrainOneStepWithLossScaleCell', the shape of 'scale_sense' must be (1,) or "
                                 f"(), got {tuple(scale_sense.shape)}")
            self.scale_sense = Parameter(scale_sense.asnumpy().copy(), name="scale_sense", requires_grad=False)
        else:
            raise TypeError("For 'TrainOneStepWithLossScaleCell', 'scale_sense' must be a Cell or a Tensor, got "
                            f"{type(scale_sense).__name__}")

    def construct(self, *inputs: Any) -> tuple:
        if tracing_step():
            return self._construct_traced(*inputs)
        scaling_sens = self.scale_sense
        scale = scaling_sens.asnumpy().reshape(-1)[0]
        loss, grads = _loss_and_grads(self.network, inputs, self.weights, scale)
        if self.reducer_flag:
            # all-reduced before the unscaling (the same numbers: the scale is a factor of every term), so the
            # all-reduces started during the backward pass are the ones used
            grads = self.grad_reducer(grads)
        grads = tuple(Tensor._make(g.asnumpy() * (_F32(1.0) / _F32(scale)).astype(g.asnumpy().dtype))
                      for g in grads)
        status, grads = self.start_overflow_check(None, grads)
        cond = self.get_overflow_status(status, grads)
        overflow = self.process_loss_scale(cond)
        if not _flag(overflow):
            self.optimizer(grads)
        return loss, cond, scaling_sens

    def _construct_traced(self, *inputs: Any) -> tuple:
        """The step above in ops, for a compiled training step: the overflow check is a graph value and the
        update is skipped by selecting the old state where it is set."""
        scaling_sens = self.scale_sense
        scale = ops.cast(ops.reshape(scaling_sens, ()), _F32)
        loss, grads = _loss_and_grads(self.network, inputs, self.weights, scale)
        if self.reducer_flag:
            grads = self.grad_reducer(grads)
        inv = ops.div(_F32(1.0), scale)
        grads = tuple(ops.mul(g, ops.cast(inv, g.dtype)) for g in grads)
        finite = [ops.all(ops.isfinite(g)) for g in grads]
        ok = finite[0]
        for f in finite[1:]:
            ok = ops.logical_and(ok, f)
        cond = ops.logical_not(ok)
        overflow = self.process_loss_scale(cond)
        with updates_unless(ops.reshape(ops.cast(overflow, ms_bool), ())):
            self.optimizer(grads)
        return loss, cond, scaling_sens

    def set_sense_scale(self, sens: Tensor) -> None:
        """Set the loss scale to ``sens``."""
        if not isinstance(sens, Tensor):
            raise TypeError(f"For 'TrainOneStepWithLossScaleCell', 'sens' must be a Tensor, got "
                            f"{type(sens).__name__}")
        self.scale_sense.set_data(sens)

    def start_overflow_check(self, pre_cond: Any, compute_input: Any) -> tuple:
        """Nothing to clear on the host: returns (status, compute_input)."""
        return None, compute_input

    def get_overflow_status(self, status: Any, compute_output: Any) -> Tensor:
        """True (a bool Tensor) when any value in ``compute_output`` is inf or nan."""
        bad = any(not np.isfinite(g.asnumpy()).all() for g in compute_output)
        if self.reducer_flag:  # every rank skips the step when any rank overflowed
            from cellonnx.communication import _mpi

            bad = bool(_mpi.allreduce_array(np.asarray(bad), "max", self.grad_reducer.group,
                                            "TrainOneStepWithLossScaleCell"))
        return Tensor._make(np.asarray(bad))

    def process_loss_scale(self, overflow: Any) -> Any:
        """Let the update cell adjust the scale; returns the overflow flag."""
        if self.loss_scaling_manager is not None:
            return self.loss_scaling_manager(self.scale_sense, overflow)
        return overflow
