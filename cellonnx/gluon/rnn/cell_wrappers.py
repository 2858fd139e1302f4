"""gluon.rnn's cells made of cells: SequentialRNNCell / HybridSequentialRNNCell (stacks), BidirectionalCell
(a forward and a reverse cell, unrolled only), DropoutCell, and the modifiers over one base cell -
ModifierCell, ZoneoutCell, ResidualCell, VariationalDropoutCell."""
from __future__ import annotations

from typing import Any

from cellonnx import ops
from cellonnx.gluon.nn.basic_layers import dropout, training
from cellonnx.gluon.rnn.cell_base import (
    HybridRecurrentCell,
    RecurrentCell,
    _like,
    default_states,
    format_outputs,
    merge_steps,
    reverse_steps,
    split_steps,
    time_mask,
)
from cellonnx.tensor import Tensor

__all__ = ["BidirectionalCell", "DropoutCell", "HybridSequentialRNNCell", "ModifierCell", "ResidualCell",
           "SequentialRNNCell", "VariationalDropoutCell", "ZoneoutCell"]


def _children(cell: Any) -> list[Any]:
    return list(cell._cells.values())


def _states_info(cells: list[Any], batch_size: int) -> list[dict[str, Any]]:
    return [info for c in cells for info in c.state_info(batch_size)]


class _Stack:
    """What SequentialRNNCell and HybridSequentialRNNCell share."""

    def add(self, cell: Any) -> None:
        """Append ``cell`` to the stack."""
        self.register_child(cell)  # type: ignore[attr-defined]

    def state_info(self, batch_size: int = 0) -> list[dict[str, Any]]:
        """The states of every cell, in order."""
        return _states_info(_children(self), batch_size)

    def begin_state(self, **kwargs: Any) -> list[Any]:
        """The begin states of every cell, in order (arguments as ``RecurrentCell.begin_state``)."""
        if self._modified:  # type: ignore[attr-defined]
            raise AssertionError("After applying modifier cells (e.g. ZoneoutCell) the base cell cannot be "
                                 "called directly. Call the modifier cell instead.")
        return [s for c in _children(self) for s in c.begin_state(**kwargs)]

    def _step(self, inputs: Any, states: Any) -> tuple[Any, list[Any]]:
        self.__dict__["_counter"] += 1
        next_states: list[Any] = []
        p = 0
        for cell in _children(self):
            if isinstance(cell, BidirectionalCell):
                raise AssertionError("BidirectionalCell cannot be stepped; use unroll")
            n = len(cell.state_info())
            inputs, state = cell(inputs, list(states[p:p + n]))
            p += n
            next_states += list(state)
        return inputs, next_states

    def unroll(self, length: int, inputs: Any, begin_state: Any = None, layout: str = "NTC",
               merge_outputs: bool | None = None, valid_length: Any = None) -> tuple[Any, list[Any]]:
        """Unroll every cell in turn over the sequence (see ``RecurrentCell.unroll``)."""
        self.reset()  # type: ignore[attr-defined]
        axis = layout.find("T")
        cells = _children(self)
        if begin_state is None:
            first = split_steps(inputs, axis)[0]
            begin_state = default_states(self, first)
        p = 0
        next_states: list[Any] = []
        for i, cell in enumerate(cells):
            n = len(cell.state_info())
            inputs, states = cell.unroll(length, inputs, begin_state=list(begin_state[p:p + n]),
                                         layout=layout,
                                         merge_outputs=None if i < len(cells) - 1 else merge_outputs,
                                         valid_length=valid_length)
            p += n
            next_states += list(states)
        return inputs, next_states

    def __getitem__(self, i: int) -> Any:
        return _children(self)[i]

    def __len__(self) -> int:
        return len(_children(self))

    def __repr__(self) -> str:
        lines = "\n".join(f"({i}): {'  '.join(repr(c).splitlines(True))}"
                          for i, c in enumerate(_children(self)))
        return f"{type(self).__name__}(\n{lines}\n)"


class SequentialRNNCell(_Stack, RecurrentCell):
    """Cells stacked one on another: each cell's output is the next one's input.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> net = mx.gluon.rnn.SequentialRNNCell()
        >>> net.add(mx.gluon.rnn.LSTMCell(4, input_size=3))
        >>> net.add(mx.gluon.rnn.GRUCell(2, input_size=4))
        >>> net.initialize()
        >>> out, states = net.unroll(5, mx.nd.ones((2, 5, 3)), merge_outputs=True)
        >>> out.shape, len(states)
        ((2, 5, 2), 3)
    """

    def __call__(self, inputs: Any, states: Any) -> tuple[Any, list[Any]]:
        return self._step(inputs, states)


class HybridSequentialRNNCell(_Stack, HybridRecurrentCell):
    """Hybridizable cells stacked one on another: each cell's output is the next one's input.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> net = mx.gluon.rnn.HybridSequentialRNNCell()
        >>> net.add(mx.gluon.rnn.RNNCell(3, input_size=2))
        >>> net.add(mx.gluon.rnn.RNNCell(3, input_size=3))
        >>> net.initialize()
        >>> out, states = net(mx.nd.ones((4, 2)), net.begin_state(batch_size=4))
        >>> out.shape, len(states)
        ((4, 3), 2)
    """

    def __call__(self, inputs: Any, states: Any = None, *args: Any, **kwargs: Any) -> tuple[Any, list[Any]]:
        return self._step(inputs, states or [])

    def forward(self, inputs: Any, states: Any) -> tuple[Any, list[Any]]:
        return self._step(inputs, states)


class DropoutCell(HybridRecurrentCell):
    """Dropout on the inputs of each step (no states); in inference it passes them on.

    Args:
        rate: fraction of the inputs dropped.
        axes: axes along which one mask value is shared. Default: ().
        prefix, params: MXNet 1.x's block prefix and shared parameters. Default: None.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> cell = mx.gluon.rnn.DropoutCell(0.5)
        >>> out, states = cell(mx.nd.ones((2, 3)), [])
        >>> out.asnumpy().tolist(), states
        ([[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]], [])
    """

    def __init__(self, rate: float, axes: Any = (), prefix: str | None = None, params: Any = None,
                 **kwargs: Any) -> None:
        if not isinstance(rate, (int, float)):
            raise AssertionError("rate must be a number")
        super().__init__(prefix=prefix, params=params, **kwargs)
        self._rate = float(rate)
        self._axes = axes

    def __repr__(self) -> str:
        return f"DropoutCell(rate={self._rate}, axes={self._axes})"

    def state_info(self, batch_size: int = 0) -> list[dict[str, Any]]:
        """No states."""
        return []

    def _alias(self) -> str:
        return "dropout"

    def forward(self, inputs: Any, states: Any) -> tuple[Any, list[Any]]:
        if self._rate > 0 and training(self):
            inputs = dropout(inputs, self._rate, self._axes)
        return inputs, list(states)

    def unroll(self, length: int, inputs: Any, begin_state: Any = None, layout: str = "NTC",
               merge_outputs: bool | None = None, valid_length: Any = None) -> tuple[Any, list[Any]]:
        """Dropout over the whole sequence at once (see ``RecurrentCell.unroll``)."""
        self.reset()
        axis = layout.find("T")
        if merge_outputs is False or (isinstance(inputs, (list, tuple)) and merge_outputs is None):
            steps = split_steps(inputs, axis)
            return [self.forward(s, [])[0] for s in steps], list(begin_state or [])
        merged = format_outputs(inputs, axis, True)
        return self.forward(merged, [])[0], list(begin_state or [])


class ModifierCell(HybridRecurrentCell):
    """The base of cells that modify one base cell (ZoneoutCell, ResidualCell ...); after wrapping, the base
    cell is called through the modifier only.

    Args:
        base_cell: the cell modified.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> cell = mx.gluon.rnn.ResidualCell(mx.gluon.rnn.GRUCell(3, input_size=3))
        >>> isinstance(cell, mx.gluon.rnn.ModifierCell)
        True
    """

    def __init__(self, base_cell: Any) -> None:
        if base_cell._modified:
            raise AssertionError(f"Cell {base_cell.name} is already modified. One cell cannot be modified "
                                 "twice")
        base_cell.__dict__["_modified"] = True
        super().__init__(prefix=base_cell.prefix + self._alias(), params=None)
        self.base_cell = base_cell

    @property
    def params(self) -> Any:
        return self.base_cell.params

    def state_info(self, batch_size: int = 0) -> list[dict[str, Any]]:
        """The base cell's states."""
        return self.base_cell.state_info(batch_size)

    def begin_state(self, batch_size: int = 0, func: Any = None, **kwargs: Any) -> list[Any]:
        """The base cell's begin states."""
        if self._modified:
            raise AssertionError("After applying modifier cells (e.g. DropoutCell) the base cell cannot be "
                                 "called directly. Call the modifier cell instead.")
        self.base_cell.__dict__["_modified"] = False
        try:
            return self.base_cell.begin_state(batch_size=batch_size, func=func, **kwargs)
        finally:
            self.base_cell.__dict__["_modified"] = True

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.base_cell!r})"


class ZoneoutCell(ModifierCell):
    """Zoneout (Krueger et al. 2016): in training each output and state unit keeps its previous value with
    probability ``zoneout_outputs`` / ``zoneout_states``; in inference the base cell's values pass.

    Args:
        base_cell: the cell modified (not a BidirectionalCell).
        zoneout_outputs: probability of keeping the previous output. Default: 0.
        zoneout_states: probability of keeping the previous state. Default: 0.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> cell = mx.gluon.rnn.ZoneoutCell(mx.gluon.rnn.RNNCell(3, input_size=2), 0.3, 0.2)
        >>> cell.initialize()
        >>> out, states = cell.unroll(4, mx.nd.ones((2, 4, 2)), merge_outputs=True)
        >>> out.shape
        (2, 4, 3)
    """

    def __init__(self, base_cell: Any, zoneout_outputs: float = 0.0, zoneout_states: float = 0.0) -> None:
        if isinstance(base_cell, BidirectionalCell):
            raise AssertionError("BidirectionalCell doesn't support zoneout since it doesn't support step. "
                                 "Please add ZoneoutCell to the cells underneath instead.")
        super().__init__(base_cell)
        self.zoneout_outputs = zoneout_outputs
        self.zoneout_states = zoneout_states
        self.__dict__["_prev_output"] = None

    def __repr__(self) -> str:
        return (f"ZoneoutCell(p_out={self.zoneout_outputs}, p_state={self.zoneout_states}, "
                f"{self.base_cell!r})")

    def _alias(self) -> str:
        return "zoneout"

    def reset(self) -> None:
        super().reset()
        self.__dict__["_prev_output"] = None

    def forward(self, inputs: Any, states: Any) -> tuple[Any, list[Any]]:
        next_output, next_states = self.base_cell(inputs, states)
        train = training(self)

        def keep_new(p: float, like: Tensor) -> Tensor:
            return dropout(ops.ones_like(like), p) if train else ops.ones_like(like)

        prev = self._prev_output if self._prev_output is not None else ops.zeros_like(next_output)
        output = ops.where(keep_new(self.zoneout_outputs, next_output) != 0, next_output, prev) \
            if self.zoneout_outputs != 0 else next_output
        if self.zoneout_states != 0:
            next_states = [ops.where(keep_new(self.zoneout_states, new) != 0, new, old)
                           for new, old in zip(next_states, states)]
        self.__dict__["_prev_output"] = output
        return output, list(next_states)


class ResidualCell(ModifierCell):
    """Adds the input to the base cell's output (Wu et al. 2016).

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> cell = mx.gluon.rnn.ResidualCell(mx.gluon.rnn.GRUCell(3, input_size=3))
        >>> cell.initialize()
        >>> out, states = cell.unroll(2, mx.nd.ones((1, 2, 3)), merge_outputs=True)
        >>> out.shape
        (1, 2, 3)
    """

    def forward(self, inputs: Any, states: Any) -> tuple[Any, list[Any]]:
        output, states = self.base_cell(inputs, states)
        return output + inputs, list(states)

    def unroll(self, length: int, inputs: Any, begin_state: Any = None, layout: str = "NTC",
               merge_outputs: bool | None = None, valid_length: Any = None) -> tuple[Any, list[Any]]:
        """The base cell unrolled, plus the inputs (see ``RecurrentCell.unroll``)."""
        self.reset()
        self.base_cell.__dict__["_modified"] = False
        try:
            outputs, states = self.base_cell.unroll(length, inputs, begin_state=begin_state, layout=layout,
                                                    merge_outputs=merge_outputs, valid_length=valid_length)
        finally:
            self.base_cell.__dict__["_modified"] = True
        axis = layout.find("T")
        merge = not isinstance(outputs, (list, tuple)) if merge_outputs is None else merge_outputs
        x = format_outputs(inputs, axis, True)
        if valid_length is not None:
            x = _mask_merged(x, valid_length, axis)
        if merge:
            return _like(outputs + x, outputs), states
        return [o + i for o, i in zip(outputs, split_steps(x, axis))], states


def _mask_merged(x: Tensor, valid_length: Any, axis: int) -> Tensor:
    mask = time_mask(valid_length, x.shape[axis], x)  # (T, N, 1)
    if axis == 1:
        mask = ops.transpose(mask, (1, 0, 2))
    return _like(x * mask, x)


class BidirectionalCell(HybridRecurrentCell):
    """A forward cell and a reverse cell over the same sequence, their outputs concatenated; it is unrolled
    only (a single step has no reverse).

    Args:
        l_cell: the forward cell.
        r_cell: the reverse cell.
        output_prefix: prefix of the output names. Default: 'bi_'.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> rnn = mx.gluon.rnn
        >>> cell = rnn.BidirectionalCell(rnn.LSTMCell(3, input_size=2), rnn.LSTMCell(3, input_size=2))
        >>> cell.initialize()
        >>> out, states = cell.unroll(4, mx.nd.ones((2, 4, 2)), merge_outputs=True)
        >>> out.shape, len(states)
        ((2, 4, 6), 4)
    """

    def __init__(self, l_cell: Any, r_cell: Any, output_prefix: str = "bi_") -> None:
        super().__init__(prefix="", params=None)
        self.register_child(l_cell, "l_cell")
        self.register_child(r_cell, "r_cell")
        self._output_prefix = output_prefix

    def __call__(self, inputs: Any, states: Any = None, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("Bidirectional cannot be stepped. Please use unroll")

    def __repr__(self) -> str:
        l_cell, r_cell = _children(self)
        return f"BidirectionalCell(forward={l_cell!r}, backward={r_cell!r})"

    def state_info(self, batch_size: int = 0) -> list[dict[str, Any]]:
        """The forward cell's states, then the reverse cell's."""
        return _states_info(_children(self), batch_size)

    def begin_state(self, **kwargs: Any) -> list[Any]:
        """The forward cell's begin states, then the reverse cell's."""
        return [s for c in _children(self) for s in c.begin_state(**kwargs)]

    def unroll(self, length: int, inputs: Any, begin_state: Any = None, layout: str = "NTC",
               merge_outputs: bool | None = None, valid_length: Any = None) -> tuple[Any, list[Any]]:
        """Unroll the forward cell over the sequence and the reverse cell over it reversed (within each
        sample's ``valid_length``), and concatenate their outputs (see ``RecurrentCell.unroll``)."""
        self.reset()
        axis = layout.find("T")
        steps = split_steps(inputs, axis)
        l_cell, r_cell = _children(self)
        if begin_state is None:
            begin_state = default_states(self, steps[0])
        n_l = len(l_cell.state_info())
        l_out, l_states = l_cell.unroll(length, steps, begin_state=list(begin_state[:n_l]), layout=layout,
                                        merge_outputs=merge_outputs, valid_length=valid_length)
        r_out, r_states = r_cell.unroll(length, reverse_steps(steps, valid_length),
                                        begin_state=list(begin_state[n_l:]), layout=layout,
                                        merge_outputs=False, valid_length=valid_length)
        r_out = reverse_steps(split_steps(r_out, axis), valid_length)
        merge = not isinstance(l_out, (list, tuple)) if merge_outputs is None else merge_outputs
        if merge:
            outputs: Any = _like(ops.concat([format_outputs(l_out, axis, True), merge_steps(r_out, axis)],
                                            axis=2), steps[0])
            if valid_length is not None:
                outputs = _mask_merged(outputs, valid_length, axis)
        else:
            outputs = [_like(ops.concat([a, b], axis=1), a) for a, b in zip(split_steps(l_out, axis), r_out)]
            if valid_length is not None:
                mask = time_mask(valid_length, len(outputs), outputs[0])
                outputs = [_like(o * mask[t], o) for t, o in enumerate(outputs)]
        return outputs, list(l_states) + list(r_states)


class VariationalDropoutCell(ModifierCell):
    """Variational dropout (Gal and Ghahramani 2016): one dropout mask per sequence, kept across the steps
    until ``reset()``, on the inputs, the first state and the outputs; identity in inference.

    Args:
        base_cell: the cell modified.
        drop_inputs, drop_states, drop_outputs: dropout rates. Default: 0.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> cell = mx.gluon.rnn.VariationalDropoutCell(mx.gluon.rnn.LSTMCell(3, input_size=2), 0.2, 0.2, 0.2)
        >>> cell.initialize()
        >>> out, states = cell.unroll(4, mx.nd.ones((2, 4, 2)), merge_outputs=True)
        >>> out.shape
        (2, 4, 3)
    """

    def __init__(self, base_cell: Any, drop_inputs: float = 0.0, drop_states: float = 0.0,
                 drop_outputs: float = 0.0) -> None:
        if drop_states and isinstance(base_cell, BidirectionalCell):
            raise AssertionError("BidirectionalCell doesn't support variational state dropout. Please add "
                                 "VariationalDropoutCell to the cells underneath instead.")
        super().__init__(base_cell)
        self.drop_inputs = drop_inputs
        self.drop_states = drop_states
        self.drop_outputs = drop_outputs
        self.reset()

    def _alias(self) -> str:
        return "vardrop"

    def reset(self) -> None:
        super().reset()
        for name in ("drop_inputs_mask", "drop_states_mask", "drop_outputs_mask"):
            self.__dict__[name] = None

    def __repr__(self) -> str:
        return f"VariationalDropoutCell(p_out = {self.drop_outputs}, p_state = {self.drop_states})"

    def _mask(self, name: str, rate: float, like: Tensor) -> Tensor | None:
        if not rate or not training(self):
            return None
        if self.__dict__[name] is None:
            self.__dict__[name] = dropout(ops.ones_like(like), rate)
        return self.__dict__[name]

    def forward(self, inputs: Any, states: Any) -> tuple[Any, list[Any]]:
        states = list(states)
        m = self._mask("drop_states_mask", self.drop_states, states[0])
        if m is not None:
            states[0] = states[0] * m
        m = self._mask("drop_inputs_mask", self.drop_inputs, inputs)
        if m is not None:
            inputs = inputs * m
        output, next_states = self.base_cell(inputs, states)
        m = self._mask("drop_outputs_mask", self.drop_outputs, output)
        if m is not None:
            output = output * m
        return output, list(next_states)

    def unroll(self, length: int, inputs: Any, begin_state: Any = None, layout: str = "NTC",
               merge_outputs: bool | None = None, valid_length: Any = None) -> tuple[Any, list[Any]]:
        """Unroll with the masks drawn once for the whole sequence (see ``RecurrentCell.unroll``)."""
        self.reset()
        self.base_cell.reset()
        if begin_state is None:
            first = split_steps(inputs, layout.find("T"))[0]
            begin_state = default_states(self, first)
        return RecurrentCell.unroll(self, length, inputs, begin_state, layout, merge_outputs, valid_length)
