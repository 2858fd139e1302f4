"""gluon.rnn's cell protocol: RecurrentCell (one step ``cell(inputs, states) -> (output, new_states)``,
``state_info``, ``begin_state``, ``unroll`` over a sequence with ``valid_length`` and ``merge_outputs``) and
HybridRecurrentCell, whose step compiles when hybridized (its states travel as separate tensors)."""
from __future__ import annotations

from typing import Any

from cellonnx import ops
from cellonnx.gluon.block import Block
from cellonnx.gluon.hybrid import HybridBlock
from cellonnx.tensor import Tensor

__all__ = ["HybridRecurrentCell", "RecurrentCell"]


def as_list(states: Any) -> list:
    return list(states) if isinstance(states, (list, tuple)) else [states]


def default_states(cell: Any, first: Any, **kwargs: Any) -> list[Any]:
    """``cell.begin_state`` for the batch of ``first`` (one step of the inputs). While a trace runs with the
    batch dynamic, the zeros are made as long as the batch is at run time (zeros of the example's batch
    would be constants of the graph: another batch size fails in onnxruntime)."""
    from cellonnx.graph.symint import is_symbolic
    from cellonnx.mxnet import ndarray

    batch = first.shape[0]
    if not is_symbolic(batch):
        return cell.begin_state(batch_size=int(batch), **kwargs)
    column = first[(slice(None),) + (slice(0, 1),) * (first.ndim - 1)]  # (batch, 1, ...)

    def zeros(shape: Any, dtype: Any = None, name: Any = None, **_: Any) -> Any:
        lead = ndarray.zeros_like(column).reshape((-1,) + (1,) * (len(shape) - 1))
        rest = ndarray.zeros((1, *shape[1:]), dtype=dtype or first.dtype)
        return lead.astype(rest.dtype) + rest

    return cell.begin_state(batch_size=int(batch), func=zeros, **kwargs)


def split_steps(inputs: Any, axis: int) -> list[Tensor]:
    """A sequence tensor as a list of its steps along ``axis`` (a list stays as it is)."""
    if isinstance(inputs, (list, tuple)):
        return list(inputs)
    return [inputs[(slice(None),) * axis + (t,)] for t in range(int(inputs.shape[axis]))]


def merge_steps(steps: list[Tensor], axis: int) -> Tensor:
    return _like(ops.stack(list(steps), axis=axis), steps[0])


def _like(out: Tensor, ref: Any) -> Tensor:
    cls = type(ref)
    if isinstance(out, Tensor) and type(out) is Tensor and getattr(cls, "_gluon_array", False):
        out.__class__ = cls
    return out


def format_outputs(outputs: Any, axis: int, merge: bool | None) -> Any:
    """Outputs merged into one tensor (``merge`` True), as a list of steps (False), or as they are (None)."""
    if merge is True and isinstance(outputs, (list, tuple)):
        return merge_steps(list(outputs), axis)
    if merge is False and not isinstance(outputs, (list, tuple)):
        return split_steps(outputs, axis)
    return outputs


def time_mask(valid_length: Any, steps: int, like: Tensor) -> Tensor:
    """(T, N, 1) of 1 where step t < valid_length[n], else 0."""
    vl = valid_length if isinstance(valid_length, Tensor) else Tensor(valid_length)
    idx = ops.arange(0, steps).astype(like.dtype)
    live = ops.expand_dims(idx, 1) < ops.expand_dims(vl.astype(like.dtype), 0)
    return ops.expand_dims(live.astype(like.dtype), 2)


def last_valid(steps: list[Tensor], valid_length: Any) -> Tensor:
    """The step at valid_length - 1 of each sample (MXNet's SequenceLast)."""
    stacked = ops.stack(list(steps), axis=0)
    vl = valid_length if isinstance(valid_length, Tensor) else Tensor(valid_length)
    idx = ops.arange(0, len(steps)).astype(stacked.dtype)
    pick = ops.expand_dims(idx, 1) == ops.expand_dims(vl.astype(stacked.dtype) - 1, 0)
    pick = pick.astype(stacked.dtype).reshape(tuple(pick.shape) + (1,) * (stacked.ndim - 2))
    return _like(ops.sum(stacked * pick, 0), steps[0])


def reverse_steps(steps: list[Tensor], valid_length: Any) -> list[Tensor]:
    """The steps reversed, each sample within its valid length (MXNet's SequenceReverse)."""
    if valid_length is None:
        return list(reversed(steps))
    stacked = ops.stack(list(steps), axis=0)
    n = len(steps)
    vl = valid_length if isinstance(valid_length, Tensor) else Tensor(valid_length)
    vl = vl.astype(stacked.dtype)
    idx = ops.arange(0, n).astype(stacked.dtype)
    # source step for output step t: vl - 1 - t while t < vl, else t
    src = ops.expand_dims(vl, 0) - 1 - ops.expand_dims(idx, 1)
    src = ops.where(src >= 0, src, ops.expand_dims(idx, 1) + ops.expand_dims(vl, 0) * 0)  # (T, N)
    out = []
    for t in range(n):
        sel = (ops.expand_dims(src[t], 0) == ops.expand_dims(idx, 1)).astype(stacked.dtype)  # (T, N)
        sel = sel.reshape(tuple(sel.shape) + (1,) * (stacked.ndim - 2))
        out.append(_like(ops.sum(stacked * sel, 0), steps[0]))
    return out


def begin_states(infos: list[dict[str, Any]], func: Any, kwargs: dict[str, Any], names: list[str],
                 drop_name: bool = False) -> list[Any]:
    """States made by ``func`` (zeros of the current array kind by default) from ``state_info``, the i-th
    named ``names[i]`` when ``func`` takes a name (a ``name`` in the infos or ``kwargs`` dropped with
    ``drop_name``)."""
    from cellonnx.mxnet import ndarray
    from cellonnx.mxnet import numpy as mnp
    from cellonnx.mxnet.util import is_np_array

    if func is None:
        func = mnp.zeros if is_np_array() else ndarray.zeros
    states = []
    for info, name in zip(infos, names):
        info = {k: v for k, v in dict(info or {}, **kwargs).items() if not k.startswith("__")}
        if drop_name:
            info.pop("name", None)
        try:
            states.append(func(name=name, **info))
        except TypeError:
            states.append(func(**info))
    return states


class RecurrentCell(Block):
    """The base of recurrent cells: one step ``cell(inputs, states) -> (output, new_states)``.

    Args:
        prefix: the 1.x block prefix. Default: None.
        params: shared parameters (1.x). Default: None.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> cell = mx.gluon.rnn.RNNCell(3, input_size=2)
        >>> isinstance(cell, mx.gluon.rnn.RecurrentCell)
        True
    """

    def __init__(self, prefix: str | None = None, params: Any = None, **kwargs: Any) -> None:
        super().__init__(prefix=prefix, params=params, **kwargs)
        self.__dict__["_modified"] = False
        self.reset()

    def reset(self) -> None:
        """Reset the step counters before the cell is used for another sequence."""
        self.__dict__["_init_counter"] = -1
        self.__dict__["_counter"] = -1
        for cell in self._children_cells():
            if isinstance(cell, RecurrentCell):
                cell.reset()

    def _children_cells(self) -> list[Any]:
        return [c for _, c in self.name_cells().items()] if hasattr(self, "name_cells") else []

    def state_info(self, batch_size: int = 0) -> list[dict[str, Any]]:
        """Shape and layout of each state."""
        raise NotImplementedError()

    def begin_state(self, batch_size: int = 0, func: Any = None, **kwargs: Any) -> list[Any]:
        """Initial states: ``func(shape=..., **kwargs)`` per state of ``state_info(batch_size)``, zeros of
        the current array kind (mx.nd, or mx.np under ``set_np``) by default.

        Args:
            batch_size: size of the batch.
            func: makes a state from ``shape`` and ``**kwargs``. Default: zeros.
            kwargs: more arguments for ``func`` (``dtype`` ...).

        Returns:
            list: the states.
        """
        if self._modified:
            raise AssertionError("After applying modifier cells (e.g. ZoneoutCell) the base cell cannot be "
                                 "called directly. Call the modifier cell instead.")
        infos = self.state_info(batch_size)
        first = self._init_counter + 1
        self.__dict__["_init_counter"] = self._init_counter + len(infos)
        return begin_states(infos, func, kwargs,
                            [f"{self.prefix}begin_state_{first + i}" for i in range(len(infos))])

    def unroll(self, length: int, inputs: Any, begin_state: Any = None, layout: str = "NTC",
               merge_outputs: bool | None = None, valid_length: Any = None) -> tuple[Any, list[Any]]:
        """Run the cell over ``length`` steps.

        Args:
            length: number of steps.
            inputs: (N, T, C) with layout 'NTC', (T, N, C) with 'TNC', or a list of (N, C) steps.
            begin_state: initial states; None for ``begin_state()``'s zeros. Default: None.
            layout: 'NTC' or 'TNC'. Default: 'NTC'.
            merge_outputs: True for one output tensor, False for a list of steps, None for whichever is at
                hand. Default: None.
            valid_length: (N,) lengths; outputs past them are 0 and the states are those at the last valid
                step. Default: None.

        Returns:
            (outputs, states).
        """
        self.reset()
        axis = layout.find("T")
        steps = split_steps(inputs, axis)
        if length is not None and len(steps) != length:
            raise ValueError(f"{type(self).__name__}.unroll: length={length} but the inputs have "
                             f"{len(steps)} steps")
        states = begin_state if begin_state is not None else \
            default_states(self, steps[0], dtype=_dtype_name(steps[0]))
        outputs, all_states = [], []
        for x in steps:
            out, states = self(x, states)
            outputs.append(out)
            if valid_length is not None:
                all_states.append(states)
        if valid_length is not None:
            states = [last_valid(list(s), valid_length) for s in zip(*all_states)]
            mask = time_mask(valid_length, len(outputs), outputs[0])
            outputs = [_like(o * mask[t], o) for t, o in enumerate(outputs)]
        return format_outputs(outputs, axis, merge_outputs), states

    def _get_activation(self, F: Any, inputs: Tensor, activation: Any, **kwargs: Any) -> Tensor:
        return apply_activation(inputs, activation)

    def __call__(self, inputs: Any, states: Any, *args: Any, **kwargs: Any) -> Any:
        self.__dict__["_counter"] = self._counter + 1
        return super().__call__(inputs, states, *args, **kwargs)


def _dtype_name(t: Tensor) -> str:
    return str(t.asnumpy().dtype) if hasattr(t, "asnumpy") else "float32"


def lstm_update(i: Tensor, f: Tensor, c: Tensor, o: Tensor, prev_c: Tensor, activation: Any,
                recurrent_activation: Any) -> tuple[Tensor, Tensor]:
    """An LSTM step from its gate pre-activations: (next h, next c)."""
    rec = recurrent_activation
    next_c = apply_activation(f, rec) * prev_c + apply_activation(i, rec) * apply_activation(c, activation)
    return apply_activation(o, rec) * apply_activation(next_c, activation), next_c


def gru_update(i2h: tuple, h2h: tuple, h: Tensor, activation: Any, recurrent_activation: Any) -> Tensor:
    """A GRU step (cuDNN's: the reset gate multiplies the recurrent candidate) from the (r, z, n) parts of the
    input and recurrent projections: the next h."""
    r = apply_activation(i2h[0] + h2h[0], recurrent_activation)
    z = apply_activation(i2h[1] + h2h[1], recurrent_activation)
    n = apply_activation(i2h[2] + r * h2h[2], activation)
    return (1 - z) * n + z * h


def apply_activation(x: Tensor, activation: Any) -> Tensor:
    """An activation by MXNet name ('tanh', 'relu', 'sigmoid', 'softsign', or any Activation act_type), or
    a block / callable."""
    simple = {"tanh": ops.tanh, "relu": ops.relu, "sigmoid": ops.sigmoid,
              "softsign": lambda v: v / (1 + ops.abs(v)), "softrelu": ops.softplus}
    if isinstance(activation, str):
        if activation not in simple:
            raise ValueError(f"recurrent cell: unknown activation {activation!r}; expected one of "
                             f"{sorted(simple)} or a block")
        return simple[activation](x)
    return activation(x)


class HybridRecurrentCell(RecurrentCell, HybridBlock):
    """A recurrent cell whose step can be hybridized: ``forward(inputs, states)`` uses only tensor
    operations.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> cell = mx.gluon.rnn.LSTMCell(3, input_size=2)
        >>> isinstance(cell, mx.gluon.rnn.HybridRecurrentCell)
        True
    """

    def __call__(self, inputs: Any, states: Any = None, *args: Any, **kwargs: Any) -> Any:
        if self.__dict__.get("_flat_call"):  # re-entered by tracing / compiling: the flat form
            flat = (inputs,) + (() if states is None else (states,)) + args
            return HybridBlock.__call__(self, *flat, **kwargs)
        self.__dict__["_counter"] = self._counter + 1
        states = [] if states is None else as_list(states)
        self.__dict__["_n_states"] = len(states)
        self.__dict__["_flat_call"] = True
        try:
            out = HybridBlock.__call__(self, inputs, *states, *args, **kwargs)
        finally:
            self.__dict__["_flat_call"] = False
        if isinstance(out, tuple) and len(out) == 1 + len(self.state_info()) and not getattr(
                self, "_nested_out", False):
            return out[0], list(out[1:])
        return out

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "forward" in cls.__dict__:  # the step runs with its states as separate tensors (see __call__)
            cls.construct = HybridRecurrentCell._flat_step  # type: ignore[method-assign]

    def _flat_step(self, inputs: Any, *states: Any) -> Any:
        n = self.__dict__.get("_n_states", len(states))
        out, new = self.forward(inputs, list(states[:n]), *states[n:])
        return (out, *as_list(new))
