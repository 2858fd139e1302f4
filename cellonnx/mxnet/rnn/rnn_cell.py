"""MXNet 1.x's symbolic recurrent cells (``mx.rnn``): each step composes mx.sym operators, so an unrolled
network is a Symbol to bind, train or export. RNNCell, LSTMCell, GRUCell, FusedRNNCell (one RNN operator
over a packed parameter vector), SequentialRNNCell, BidirectionalCell, DropoutCell and the modifiers
ZoneoutCell and ResidualCell, with MXNet's variable and node names (``lstm_i2h_weight``, ``lstm_t0_i2h``) and
``unpack_weights`` / ``pack_weights`` between fused and per-gate arrays."""

from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.mxnet import ndarray, symbol

__all__ = [
    "BaseRNNCell",
    "BidirectionalCell",
    "DropoutCell",
    "FusedRNNCell",
    "GRUCell",
    "LSTMCell",
    "ModifierCell",
    "RNNCell",
    "RNNParams",
    "ResidualCell",
    "SequentialRNNCell",
    "ZoneoutCell",
]

_GATES = {"rnn_relu": [""], "rnn_tanh": [""], "lstm": ["_i", "_f", "_c", "_o"], "gru": ["_r", "_z", "_o"]}


def _cells_state_info(cells: list[Any]) -> list[Any]:
    return [info for c in cells for info in c.state_info]


def _cells_begin_state(cells: list[Any], **kwargs: Any) -> list[Any]:
    return [s for c in cells for s in c.begin_state(**kwargs)]


def _cells_unpack_weights(cells: list[Any], args: dict[str, Any]) -> dict[str, Any]:
    for cell in cells:
        args = cell.unpack_weights(args)
    return args


def _cells_pack_weights(cells: list[Any], args: dict[str, Any]) -> dict[str, Any]:
    for cell in cells:
        args = cell.pack_weights(args)
    return args


def _normalize_sequence(
    length: int, inputs: Any, layout: str, merge: bool | None, in_layout: str | None = None
) -> tuple[Any, int]:
    """``inputs`` as one Symbol (``merge`` True), a list of step Symbols (False) or as given (None)."""
    if inputs is None:
        raise AssertionError(
            "unroll(inputs=None) has been deprecated. Please create input variables outside unroll."
        )
    axis = layout.find("T")
    in_axis = in_layout.find("T") if in_layout is not None else axis
    if isinstance(inputs, symbol.Symbol):
        if merge is False:
            if len(inputs.list_outputs()) != 1:
                raise AssertionError(
                    "unroll doesn't allow grouped symbol as input. Please convert to list with "
                    "list(inputs) first or let unroll handle splitting."
                )
            inputs = list(symbol.split(inputs, axis=in_axis, num_outputs=length, squeeze_axis=1))
    else:
        if length is not None and len(inputs) != length:
            raise AssertionError(f"unroll: {len(inputs)} inputs for length {length}")
        if merge is True:
            inputs = symbol.Concat(*[symbol.expand_dims(i, axis=axis) for i in inputs], dim=axis)
            in_axis = axis
    if isinstance(inputs, symbol.Symbol) and axis != in_axis:
        inputs = symbol.swapaxes(inputs, dim1=axis, dim2=in_axis)
    return inputs, axis


def _batch_states(states: Any, inputs: Any) -> list[Any]:
    """MXNet's begin states are ``zeros(shape=(0, ...))``, its shape inference filling the 0 with the batch
    size from the graph around them; here such a state becomes zeros with the step input's batch."""
    out = []
    for s in states:
        attrs = s.list_attr() if isinstance(s, symbol.Symbol) and s.get_children() is None else {}
        shape = attrs.get("shape")
        if shape is not None and "__shape__" not in attrs:
            dims = tuple(int(d) for d in shape.strip("()[] ").split(",") if d.strip())
            if dims and dims[0] == 0:
                col = symbol.slice_axis(symbol.flatten(inputs), axis=1, begin=0, end=1)  # (N, 1)
                col = symbol.reshape(symbol.zeros_like(col), shape=(0,) + (1,) * (len(dims) - 1))
                s = symbol.broadcast_to(col, shape=dims)
        out.append(s)
    return out


class RNNParams:
    """A container of the Variables of recurrent cells, for sharing them between cells.

    Args:
        prefix: prepended to the names of the variables it creates. Default: ''.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> params = mx.rnn.RNNParams('lstm_')
        >>> params.get('i2h_weight').name
        'lstm_i2h_weight'
    """

    def __init__(self, prefix: str = "") -> None:
        self._prefix = prefix
        self._params: dict[str, Any] = {}

    def get(self, name: str, **kwargs: Any) -> Any:
        """The Variable ``prefix + name``, created (with ``kwargs``) on first use."""
        name = self._prefix + name
        if name not in self._params:
            self._params[name] = symbol.Variable(name, **kwargs)
        return self._params[name]


class BaseRNNCell:
    """The base of mx.rnn's cells: ``cell(inputs, states) -> (output, states)`` on Symbols.

    Args:
        prefix: prefix of the layer and variable names. Default: ''.
        params: an RNNParams to share variables; None makes one. Default: None.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> cell = mx.rnn.RNNCell(4, prefix='rnn_')
        >>> isinstance(cell, mx.rnn.BaseRNNCell)
        True
    """

    def __init__(self, prefix: str = "", params: RNNParams | None = None) -> None:
        if params is None:
            params = RNNParams(prefix)
            self._own_params = True
        else:
            self._own_params = False
        self._prefix = prefix
        self._params = params
        self._modified = False
        self.reset()

    def reset(self) -> None:
        """Reset the step counters before the cell is used for another graph."""
        self._init_counter = -1
        self._counter = -1
        for cell in getattr(self, "_cells", []):
            cell.reset()

    def __call__(self, inputs: Any, states: Any) -> tuple[Any, list[Any]]:
        raise NotImplementedError()

    @property
    def params(self) -> RNNParams:
        """The cell's RNNParams."""
        self._own_params = False
        return self._params

    @property
    def state_info(self) -> list[Any]:
        """Shape and layout of each state."""
        raise NotImplementedError()

    @property
    def state_shape(self) -> list[Any]:
        """The shape of each state (0 for the batch)."""
        return [ele["shape"] for ele in self.state_info]

    @property
    def _gate_names(self) -> Any:
        return ()

    def begin_state(self, func: Any = None, **kwargs: Any) -> list[Any]:
        """Initial states: ``func(name=..., **info)`` per state (``mx.sym.zeros`` by default;
        ``mx.sym.Variable`` to feed them)."""
        if self._modified:
            raise AssertionError(
                "After applying modifier cells (e.g. DropoutCell) the base cell cannot be "
                "called directly. Call the modifier cell instead."
            )
        func = symbol.zeros if func is None else func
        states = []
        for info in self.state_info:
            self._init_counter += 1
            if info is not None:
                kwargs.update(info)
            name = f"{self._prefix}begin_state_{self._init_counter}"
            if func is symbol.zeros:
                states.append(func(name=name, **{k: v for k, v in kwargs.items() if k != "__layout__"}))
            else:
                states.append(func(name=name, **kwargs))
        return states

    def unpack_weights(self, args: dict[str, Any]) -> dict[str, Any]:
        """Split each fused i2h / h2h weight and bias into one array per gate (``lstm_i2h_i_weight``)."""
        args = args.copy()
        if not self._gate_names:
            return args
        h = self._num_hidden
        for group in ("i2h", "h2h"):
            weight = args.pop(f"{self._prefix}{group}_weight")
            bias = args.pop(f"{self._prefix}{group}_bias")
            for j, gate in enumerate(self._gate_names):
                args[f"{self._prefix}{group}{gate}_weight"] = weight[j * h : (j + 1) * h].copy()
                args[f"{self._prefix}{group}{gate}_bias"] = bias[j * h : (j + 1) * h].copy()
        return args

    def pack_weights(self, args: dict[str, Any]) -> dict[str, Any]:
        """The inverse of ``unpack_weights``."""
        args = args.copy()
        if not self._gate_names:
            return args
        for group in ("i2h", "h2h"):
            weight, bias = [], []
            for gate in self._gate_names:
                weight.append(args.pop(f"{self._prefix}{group}{gate}_weight"))
                bias.append(args.pop(f"{self._prefix}{group}{gate}_bias"))
            args[f"{self._prefix}{group}_weight"] = ndarray.concatenate(weight)
            args[f"{self._prefix}{group}_bias"] = ndarray.concatenate(bias)
        return args

    def unroll(
        self,
        length: int,
        inputs: Any,
        begin_state: Any = None,
        layout: str = "NTC",
        merge_outputs: bool | None = None,
    ) -> tuple[Any, list[Any]]:
        """Unroll the cell over ``length`` steps of ``inputs`` (a Symbol in ``layout`` or a list of step
        Symbols); returns (outputs: one Symbol with ``merge_outputs``, else a list; final states)."""
        self.reset()
        inputs, _ = _normalize_sequence(length, inputs, layout, False)
        states = self.begin_state() if begin_state is None else begin_state
        outputs = []
        for i in range(length):
            output, states = self(inputs[i], states)
            outputs.append(output)
        outputs, _ = _normalize_sequence(length, outputs, layout, merge_outputs)
        return outputs, states

    def _get_activation(self, inputs: Any, activation: Any, **kwargs: Any) -> Any:
        if isinstance(activation, str):
            return symbol.Activation(inputs, act_type=activation, **kwargs)
        return activation(inputs, **kwargs)


class RNNCell(BaseRNNCell):
    """A simple recurrent cell: ``act(FC(x) + FC(h))``.

    Args:
        num_hidden: number of units.
        activation: 'tanh' or 'relu' (or a function of a Symbol). Default: 'tanh'.
        prefix: Default: 'rnn_'.
        params: shared RNNParams. Default: None.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> cell = mx.rnn.RNNCell(4)
        >>> out, states = cell.unroll(3, mx.sym.Variable('data'), merge_outputs=True)
        >>> out.list_arguments()
        ['data', 'rnn_i2h_weight', 'rnn_i2h_bias', 'rnn_h2h_weight', 'rnn_h2h_bias']
    """

    def __init__(
        self, num_hidden: int, activation: Any = "tanh", prefix: str = "rnn_", params: RNNParams | None = None
    ) -> None:
        super().__init__(prefix=prefix, params=params)
        self._num_hidden = num_hidden
        self._activation = activation
        self._iW = self.params.get("i2h_weight")
        self._iB = self.params.get("i2h_bias")
        self._hW = self.params.get("h2h_weight")
        self._hB = self.params.get("h2h_bias")

    @property
    def state_info(self) -> list[Any]:
        return [{"shape": (0, self._num_hidden), "__layout__": "NC"}]

    @property
    def _gate_names(self) -> Any:
        return ("",)

    def __call__(self, inputs: Any, states: Any) -> tuple[Any, list[Any]]:
        self._counter += 1
        name = f"{self._prefix}t{self._counter}_"
        states = _batch_states(states, inputs)
        i2h = symbol.FullyConnected(
            data=inputs, weight=self._iW, bias=self._iB, num_hidden=self._num_hidden, name=f"{name}i2h"
        )
        h2h = symbol.FullyConnected(
            data=states[0], weight=self._hW, bias=self._hB, num_hidden=self._num_hidden, name=f"{name}h2h"
        )
        output = self._get_activation(i2h + h2h, self._activation, name=f"{name}out")
        return output, [output]


class LSTMCell(BaseRNNCell):
    """A long short-term memory cell (gates i, f, c, o); the i2h bias starts with ``forget_bias`` on the
    forget gate (``mx.init.LSTMBias``).

    Args:
        num_hidden: number of units.
        prefix: Default: 'lstm_'.
        params: shared RNNParams. Default: None.
        forget_bias: initial bias of the forget gate. Default: 1.0.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> cell = mx.rnn.LSTMCell(4)
        >>> out, states = cell.unroll(3, mx.sym.Variable('data'), merge_outputs=True)
        >>> out.infer_shape(data=(2, 3, 5))[1]
        [(2, 3, 4)]
    """

    def __init__(
        self,
        num_hidden: int,
        prefix: str = "lstm_",
        params: RNNParams | None = None,
        forget_bias: float = 1.0,
    ) -> None:
        from cellonnx.gluon.init_rnn import LSTMBias

        super().__init__(prefix=prefix, params=params)
        self._num_hidden = num_hidden
        self._iW = self.params.get("i2h_weight")
        self._hW = self.params.get("h2h_weight")
        self._iB = self.params.get("i2h_bias", init=LSTMBias(forget_bias=forget_bias))
        self._hB = self.params.get("h2h_bias")

    @property
    def state_info(self) -> list[Any]:
        return [
            {"shape": (0, self._num_hidden), "__layout__": "NC"},
            {"shape": (0, self._num_hidden), "__layout__": "NC"},
        ]

    @property
    def _gate_names(self) -> Any:
        return ["_i", "_f", "_c", "_o"]

    def __call__(self, inputs: Any, states: Any) -> tuple[Any, list[Any]]:
        self._counter += 1
        name = f"{self._prefix}t{self._counter}_"
        states = _batch_states(states, inputs)
        n = self._num_hidden
        i2h = symbol.FullyConnected(
            data=inputs, weight=self._iW, bias=self._iB, num_hidden=n * 4, name=f"{name}i2h"
        )
        h2h = symbol.FullyConnected(
            data=states[0], weight=self._hW, bias=self._hB, num_hidden=n * 4, name=f"{name}h2h"
        )
        gates = symbol.SliceChannel(i2h + h2h, num_outputs=4, name=f"{name}slice")
        in_gate = symbol.Activation(gates[0], act_type="sigmoid", name=f"{name}i")
        forget_gate = symbol.Activation(gates[1], act_type="sigmoid", name=f"{name}f")
        in_transform = symbol.Activation(gates[2], act_type="tanh", name=f"{name}c")
        out_gate = symbol.Activation(gates[3], act_type="sigmoid", name=f"{name}o")
        next_c = symbol.elemwise_add(forget_gate * states[1], in_gate * in_transform, name=f"{name}state")
        next_h = symbol.elemwise_mul(out_gate, symbol.Activation(next_c, act_type="tanh"), name=f"{name}out")
        return next_h, [next_h, next_c]


class GRUCell(BaseRNNCell):
    """A gated recurrent unit cell (gates r, z; the reset gate multiplies the recurrent projection).

    Args:
        num_hidden: number of units.
        prefix: Default: 'gru_'.
        params: shared RNNParams. Default: None.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> cell = mx.rnn.GRUCell(4)
        >>> out, states = cell(mx.sym.Variable('x'), cell.begin_state())
        >>> out.infer_shape(x=(2, 5))[1]
        [(2, 4)]
    """

    def __init__(self, num_hidden: int, prefix: str = "gru_", params: RNNParams | None = None) -> None:
        super().__init__(prefix=prefix, params=params)
        self._num_hidden = num_hidden
        self._iW = self.params.get("i2h_weight")
        self._iB = self.params.get("i2h_bias")
        self._hW = self.params.get("h2h_weight")
        self._hB = self.params.get("h2h_bias")

    @property
    def state_info(self) -> list[Any]:
        return [{"shape": (0, self._num_hidden), "__layout__": "NC"}]

    @property
    def _gate_names(self) -> Any:
        return ["_r", "_z", "_o"]

    def __call__(self, inputs: Any, states: Any) -> tuple[Any, list[Any]]:
        self._counter += 1
        name = f"{self._prefix}t{self._counter}_"
        states = _batch_states(states, inputs)
        n, prev = self._num_hidden, states[0]
        i2h = symbol.FullyConnected(
            data=inputs, weight=self._iW, bias=self._iB, num_hidden=n * 3, name=f"{name}_i2h"
        )
        h2h = symbol.FullyConnected(
            data=prev, weight=self._hW, bias=self._hB, num_hidden=n * 3, name=f"{name}_h2h"
        )
        i2h_r, i2h_z, i2h = symbol.SliceChannel(i2h, num_outputs=3, name=f"{name}_i2h_slice")
        h2h_r, h2h_z, h2h = symbol.SliceChannel(h2h, num_outputs=3, name=f"{name}_h2h_slice")
        reset_gate = symbol.Activation(i2h_r + h2h_r, act_type="sigmoid", name=f"{name}_r_act")
        update_gate = symbol.Activation(i2h_z + h2h_z, act_type="sigmoid", name=f"{name}_z_act")
        next_h_tmp = symbol.Activation(i2h + reset_gate * h2h, act_type="tanh", name=f"{name}_h_act")
        next_h = symbol.elemwise_add((1.0 - update_gate) * next_h_tmp, update_gate * prev, name=f"{name}out")
        return next_h, [next_h]


class FusedRNNCell(BaseRNNCell):
    """Stacked (bidirectional) RNN, LSTM or GRU layers as one RNN operator over a packed parameter vector
    (variable ``{prefix}parameters``, initialized by ``mx.init.FusedRNN``); unrolled only.

    Args:
        num_hidden: number of units.
        num_layers: stacked layers. Default: 1.
        mode: 'rnn_relu', 'rnn_tanh', 'lstm' or 'gru'. Default: 'lstm'.
        bidirectional: Default: False.
        dropout: dropout between layers in training. Default: 0.
        get_next_state: also return the final states. Default: False.
        forget_bias: initial forget-gate bias (LSTM). Default: 1.0.
        prefix: Default: '{mode}_'.
        params: shared RNNParams. Default: None.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> cell = mx.rnn.FusedRNNCell(4, num_layers=2, mode='gru', get_next_state=True)
        >>> out, states = cell.unroll(3, mx.sym.Variable('data'), layout='TNC', merge_outputs=True)
        >>> out.infer_shape(data=(3, 2, 5))[1]
        [(3, 2, 4)]
    """

    def __init__(
        self,
        num_hidden: int,
        num_layers: int = 1,
        mode: str = "lstm",
        bidirectional: bool = False,
        dropout: float = 0.0,
        get_next_state: bool = False,
        forget_bias: float = 1.0,
        prefix: str | None = None,
        params: RNNParams | None = None,
    ) -> None:
        from cellonnx.gluon.init_rnn import FusedRNN

        if prefix is None:
            prefix = f"{mode}_"
        super().__init__(prefix=prefix, params=params)
        self._num_hidden = num_hidden
        self._num_layers = num_layers
        self._mode = mode
        self._bidirectional = bidirectional
        self._dropout = dropout
        self._get_next_state = get_next_state
        self._directions = ["l", "r"] if bidirectional else ["l"]
        initializer = FusedRNN(None, num_hidden, num_layers, mode, bidirectional, forget_bias)
        self._parameter = self.params.get("parameters", init=initializer)

    @property
    def state_info(self) -> list[Any]:
        b = self._bidirectional + 1
        n = (self._mode == "lstm") + 1
        return [{"shape": (b * self._num_layers, 0, self._num_hidden), "__layout__": "LNC"} for _ in range(n)]

    @property
    def _gate_names(self) -> Any:
        return _GATES[self._mode]

    @property
    def _num_gates(self) -> int:
        return len(self._gate_names)

    def _slice_weights(self, arr: Any, li: int, lh: int) -> dict[str, Any]:
        """Views of the packed vector per layer, direction, group and gate (MXNet's layout)."""
        args = {}
        b = len(self._directions)
        p = 0
        for layer in range(self._num_layers):
            for d in self._directions:
                for gate in self._gate_names:
                    size = b * lh * lh if layer > 0 else li * lh
                    shape = (lh, b * lh) if layer > 0 else (lh, li)
                    args[f"{self._prefix}{d}{layer}_i2h{gate}_weight"] = arr[p : p + size].reshape(shape)
                    p += size
                for gate in self._gate_names:
                    args[f"{self._prefix}{d}{layer}_h2h{gate}_weight"] = arr[p : p + lh * lh].reshape(
                        (lh, lh)
                    )
                    p += lh * lh
        for layer in range(self._num_layers):
            for d in self._directions:
                for group in ("i2h", "h2h"):
                    for gate in self._gate_names:
                        args[f"{self._prefix}{d}{layer}_{group}{gate}_bias"] = arr[p : p + lh]
                        p += lh
        if p != arr.size:
            raise AssertionError("Invalid parameters size for FusedRNNCell")
        return args

    def unpack_weights(self, args: dict[str, Any]) -> dict[str, Any]:
        """Split ``{prefix}parameters`` into per layer, direction and gate arrays
        (``lstm_l0_i2h_i_weight``)."""
        args = args.copy()
        arr = args.pop(self._parameter.name)
        b, m, h = len(self._directions), self._num_gates, self._num_hidden
        num_input = arr.size // b // h // m - (self._num_layers - 1) * (h + b * h + 2) - h - 2
        flat = _as_numpy(arr)
        cls = type(arr) if isinstance(arr, ndarray.NDArray) else None
        for name, view in self._slice_weights(flat, num_input, h).items():
            args[name] = ndarray.array(view.copy()) if cls is not None else view.copy()
        return args

    def pack_weights(self, args: dict[str, Any]) -> dict[str, Any]:
        """The inverse of ``unpack_weights``."""
        args = args.copy()
        b, m, c, h = self._bidirectional + 1, self._num_gates, self._gate_names, self._num_hidden
        w0 = args[f"{self._prefix}l0_i2h{c[0]}_weight"]
        num_input = w0.shape[1]
        total = (num_input + h + 2) * h * m * b + (self._num_layers - 1) * m * h * (h + b * h + 2) * b
        arr = np.zeros((total,), dtype=_as_numpy(w0).dtype)
        for name, view in self._slice_weights(arr, num_input, h).items():
            view[...] = _as_numpy(args.pop(name))
        args[self._parameter.name] = (
            ndarray.array(arr, dtype=arr.dtype) if isinstance(w0, ndarray.NDArray) else arr
        )
        return args

    def __call__(self, inputs: Any, states: Any) -> tuple[Any, list[Any]]:
        raise NotImplementedError("FusedRNNCell cannot be stepped. Please use unroll")

    def unroll(
        self,
        length: int,
        inputs: Any,
        begin_state: Any = None,
        layout: str = "NTC",
        merge_outputs: bool | None = None,
    ) -> tuple[Any, list[Any]]:
        """One RNN operator over the sequence (see ``BaseRNNCell.unroll``)."""
        self.reset()
        inputs, axis = _normalize_sequence(length, inputs, layout, True)
        if axis == 1:
            inputs = symbol.swapaxes(inputs, dim1=0, dim2=1)
        elif axis != 0:
            raise AssertionError(f"Unsupported layout {layout}")
        states = self.begin_state() if begin_state is None else begin_state
        named = (
            {"state": states[0], "state_cell": states[1]} if self._mode == "lstm" else {"state": states[0]}
        )
        rnn = symbol.RNN(
            data=inputs,
            parameters=self._parameter,
            state_size=self._num_hidden,
            num_layers=self._num_layers,
            bidirectional=self._bidirectional,
            p=self._dropout,
            state_outputs=self._get_next_state,
            mode=self._mode,
            name=self._prefix + "rnn",
            **named,
        )
        if not self._get_next_state:
            outputs, states = rnn, []
        elif self._mode == "lstm":
            outputs, states = rnn[0], [rnn[1], rnn[2]]
        else:
            outputs, states = rnn[0], [rnn[1]]
        if axis == 1:
            outputs = symbol.swapaxes(outputs, dim1=0, dim2=1)
        outputs, _ = _normalize_sequence(length, outputs, layout, merge_outputs)
        return outputs, states

    def unfuse(self) -> SequentialRNNCell:
        """The same network as a SequentialRNNCell of unfused cells (their weights named as
        ``unpack_weights`` names the slices of the packed vector)."""

        def get_cell(cell_prefix: str) -> BaseRNNCell:
            if self._mode in ("rnn_relu", "rnn_tanh"):
                return RNNCell(self._num_hidden, activation=self._mode[4:], prefix=cell_prefix)
            return (
                LSTMCell(self._num_hidden, prefix=cell_prefix)
                if self._mode == "lstm"
                else GRUCell(self._num_hidden, prefix=cell_prefix)
            )

        stack = SequentialRNNCell()
        for i in range(self._num_layers):
            if self._bidirectional:
                stack.add(
                    BidirectionalCell(
                        get_cell(f"{self._prefix}l{i}_"),
                        get_cell(f"{self._prefix}r{i}_"),
                        output_prefix=f"{self._prefix}bi_l{i}_",
                    )
                )
            else:
                stack.add(get_cell(f"{self._prefix}l{i}_"))
            if self._dropout > 0 and i != self._num_layers - 1:
                stack.add(DropoutCell(self._dropout, prefix=f"{self._prefix}_dropout{i}_"))
        return stack


def _as_numpy(a: Any) -> np.ndarray:
    return a.asnumpy() if hasattr(a, "asnumpy") else np.asarray(a)


class SequentialRNNCell(BaseRNNCell):
    """Cells stacked one on another.

    Args:
        params: RNNParams shared by every cell added. Default: None.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> stack = mx.rnn.SequentialRNNCell()
        >>> stack.add(mx.rnn.LSTMCell(4, prefix='l0_'))
        >>> stack.add(mx.rnn.LSTMCell(4, prefix='l1_'))
        >>> out, states = stack.unroll(3, mx.sym.Variable('data'), merge_outputs=True)
        >>> len(states)
        4
    """

    def __init__(self, params: RNNParams | None = None) -> None:
        super().__init__(prefix="", params=params)
        self._override_cell_params = params is not None
        self._cells: list[BaseRNNCell] = []

    @property
    def _bidirectional(self) -> bool:
        return any(isinstance(c, BidirectionalCell) for c in self._cells)

    def add(self, cell: BaseRNNCell) -> None:
        """Append ``cell``."""
        self._cells.append(cell)
        if self._override_cell_params:
            if not cell._own_params:
                raise AssertionError("Either specify params for SequentialRNNCell or child cells, not both.")
            cell.params._params.update(self.params._params)
        self.params._params.update(cell.params._params)

    @property
    def state_info(self) -> list[Any]:
        return _cells_state_info(self._cells)

    def begin_state(self, **kwargs: Any) -> list[Any]:
        if self._modified:
            raise AssertionError(
                "After applying modifier cells (e.g. ZoneoutCell) the base cell cannot be "
                "called directly. Call the modifier cell instead."
            )
        return _cells_begin_state(self._cells, **kwargs)

    def unpack_weights(self, args: dict[str, Any]) -> dict[str, Any]:
        return _cells_unpack_weights(self._cells, args)

    def pack_weights(self, args: dict[str, Any]) -> dict[str, Any]:
        return _cells_pack_weights(self._cells, args)

    def __call__(self, inputs: Any, states: Any) -> tuple[Any, list[Any]]:
        self._counter += 1
        next_states: list[Any] = []
        p = 0
        for cell in self._cells:
            if isinstance(cell, BidirectionalCell):
                raise AssertionError("BidirectionalCell cannot be stepped; use unroll")
            n = len(cell.state_info)
            inputs, state = cell(inputs, states[p : p + n])
            p += n
            next_states += state
        return inputs, next_states

    def unroll(
        self,
        length: int,
        inputs: Any,
        begin_state: Any = None,
        layout: str = "NTC",
        merge_outputs: bool | None = None,
    ) -> tuple[Any, list[Any]]:
        """Each cell unrolled in turn (see ``BaseRNNCell.unroll``)."""
        self.reset()
        begin_state = self.begin_state() if begin_state is None else begin_state
        p = 0
        next_states: list[Any] = []
        for i, cell in enumerate(self._cells):
            n = len(cell.state_info)
            inputs, states = cell.unroll(
                length,
                inputs=inputs,
                begin_state=begin_state[p : p + n],
                layout=layout,
                merge_outputs=None if i < len(self._cells) - 1 else merge_outputs,
            )
            p += n
            next_states.extend(states)
        return inputs, next_states


class DropoutCell(BaseRNNCell):
    """Dropout on each step's input (no states).

    Args:
        dropout: the dropout probability.
        prefix: Default: 'dropout_'.
        params: Default: None.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> out, _ = mx.rnn.DropoutCell(0.5).unroll(3, mx.sym.Variable('data'), merge_outputs=True)
        >>> out.infer_shape(data=(2, 3, 4))[1]
        [(2, 3, 4)]
    """

    def __init__(self, dropout: float, prefix: str = "dropout_", params: RNNParams | None = None) -> None:
        super().__init__(prefix, params)
        if not isinstance(dropout, (int, float)):
            raise AssertionError("dropout probability must be a number")
        self.dropout = dropout

    @property
    def state_info(self) -> list[Any]:
        return []

    def __call__(self, inputs: Any, states: Any) -> tuple[Any, list[Any]]:
        if self.dropout > 0:
            inputs = symbol.Dropout(data=inputs, p=self.dropout)
        return inputs, states

    def unroll(
        self,
        length: int,
        inputs: Any,
        begin_state: Any = None,
        layout: str = "NTC",
        merge_outputs: bool | None = None,
    ) -> tuple[Any, list[Any]]:
        """Dropout on the whole sequence at once where it is one Symbol."""
        self.reset()
        inputs, _ = _normalize_sequence(length, inputs, layout, merge_outputs)
        if isinstance(inputs, symbol.Symbol):
            return self(inputs, [])
        return super().unroll(
            length, inputs, begin_state=begin_state, layout=layout, merge_outputs=merge_outputs
        )


class ModifierCell(BaseRNNCell):
    """The base of cells that modify one base cell; the base cell is then called through the modifier only.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> isinstance(mx.rnn.ResidualCell(mx.rnn.GRUCell(3)), mx.rnn.ModifierCell)
        True
    """

    def __init__(self, base_cell: BaseRNNCell) -> None:
        super().__init__()
        base_cell._modified = True
        self.base_cell = base_cell

    @property
    def params(self) -> RNNParams:
        self._own_params = False
        return self.base_cell.params

    @property
    def state_info(self) -> list[Any]:
        return self.base_cell.state_info

    def begin_state(self, init_sym: Any = None, **kwargs: Any) -> list[Any]:
        if self._modified:
            raise AssertionError(
                "After applying modifier cells (e.g. DropoutCell) the base cell cannot be "
                "called directly. Call the modifier cell instead."
            )
        self.base_cell._modified = False
        begin = self.base_cell.begin_state(init_sym, **kwargs)
        self.base_cell._modified = True
        return begin

    def unpack_weights(self, args: dict[str, Any]) -> dict[str, Any]:
        return self.base_cell.unpack_weights(args)

    def pack_weights(self, args: dict[str, Any]) -> dict[str, Any]:
        return self.base_cell.pack_weights(args)

    def __call__(self, inputs: Any, states: Any) -> tuple[Any, list[Any]]:
        raise NotImplementedError


class ZoneoutCell(ModifierCell):
    """Zoneout on the base cell's outputs and states (in training each unit keeps its previous value with the
    given probability).

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> cell = mx.rnn.ZoneoutCell(mx.rnn.RNNCell(3), zoneout_outputs=0.5, zoneout_states=0.5)
        >>> out, _ = cell.unroll(2, mx.sym.Variable('data'), merge_outputs=True)
        >>> out.infer_shape(data=(2, 2, 4))[1]
        [(2, 2, 3)]
    """

    def __init__(
        self, base_cell: BaseRNNCell, zoneout_outputs: float = 0.0, zoneout_states: float = 0.0
    ) -> None:
        if isinstance(base_cell, FusedRNNCell):
            raise AssertionError("FusedRNNCell doesn't support zoneout. Please unfuse first.")
        if isinstance(base_cell, BidirectionalCell):
            raise AssertionError(
                "BidirectionalCell doesn't support zoneout since it doesn't support step. Please "
                "add ZoneoutCell to the cells underneath instead."
            )
        super().__init__(base_cell)
        self.zoneout_outputs = zoneout_outputs
        self.zoneout_states = zoneout_states
        self.prev_output = None

    def reset(self) -> None:
        super().reset()
        self.prev_output = None

    def __call__(self, inputs: Any, states: Any) -> tuple[Any, list[Any]]:
        states = _batch_states(states, inputs)
        next_output, next_states = self.base_cell(inputs, states)

        def mask(p: float, like: Any) -> Any:
            return symbol.Dropout(symbol.ones_like(like), p=p)

        prev = self.prev_output if self.prev_output is not None else symbol.zeros_like(next_output)
        output = (
            symbol.where(mask(self.zoneout_outputs, next_output), next_output, prev)
            if self.zoneout_outputs != 0
            else next_output
        )
        if self.zoneout_states != 0:
            next_states = [
                symbol.where(mask(self.zoneout_states, new), new, old)
                for new, old in zip(next_states, states)
            ]
        self.prev_output = output
        return output, next_states


class ResidualCell(ModifierCell):
    """Adds the input to the base cell's output.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> cell = mx.rnn.ResidualCell(mx.rnn.GRUCell(4))
        >>> out, _ = cell.unroll(2, mx.sym.Variable('data'), merge_outputs=True)
        >>> out.infer_shape(data=(2, 2, 4))[1]
        [(2, 2, 4)]
    """

    def __call__(self, inputs: Any, states: Any) -> tuple[Any, list[Any]]:
        output, states = self.base_cell(inputs, states)
        return symbol.elemwise_add(output, inputs, name=f"{output.name}_plus_residual"), states

    def unroll(
        self,
        length: int,
        inputs: Any,
        begin_state: Any = None,
        layout: str = "NTC",
        merge_outputs: bool | None = None,
    ) -> tuple[Any, list[Any]]:
        """The base cell unrolled, plus the inputs."""
        self.reset()
        self.base_cell._modified = False
        outputs, states = self.base_cell.unroll(
            length, inputs=inputs, begin_state=begin_state, layout=layout, merge_outputs=merge_outputs
        )
        self.base_cell._modified = True
        merge = isinstance(outputs, symbol.Symbol) if merge_outputs is None else merge_outputs
        inputs, _ = _normalize_sequence(length, inputs, layout, merge)
        if merge:
            return symbol.elemwise_add(outputs, inputs, name=f"{outputs.name}_plus_residual"), states
        return [
            symbol.elemwise_add(o, i, name=f"{o.name}_plus_residual") for o, i in zip(outputs, inputs)
        ], states


class BidirectionalCell(BaseRNNCell):
    """A forward and a reverse cell over the same sequence, outputs concatenated; unrolled only.

    Args:
        l_cell: the forward cell.
        r_cell: the reverse cell.
        params: RNNParams shared by both. Default: None.
        output_prefix: Default: 'bi_'.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> cell = mx.rnn.BidirectionalCell(mx.rnn.LSTMCell(3, prefix='l_'), mx.rnn.LSTMCell(3, prefix='r_'))
        >>> out, states = cell.unroll(4, mx.sym.Variable('data'), merge_outputs=True)
        >>> out.infer_shape(data=(2, 4, 5))[1]
        [(2, 4, 6)]
    """

    def __init__(
        self,
        l_cell: BaseRNNCell,
        r_cell: BaseRNNCell,
        params: RNNParams | None = None,
        output_prefix: str = "bi_",
    ) -> None:
        super().__init__("", params=params)
        self._output_prefix = output_prefix
        self._override_cell_params = params is not None
        if self._override_cell_params:
            if not (l_cell._own_params and r_cell._own_params):
                raise AssertionError("Either specify params for BidirectionalCell or child cells, not both.")
            l_cell.params._params.update(self.params._params)
            r_cell.params._params.update(self.params._params)
        self.params._params.update(l_cell.params._params)
        self.params._params.update(r_cell.params._params)
        self._cells = [l_cell, r_cell]

    def unpack_weights(self, args: dict[str, Any]) -> dict[str, Any]:
        return _cells_unpack_weights(self._cells, args)

    def pack_weights(self, args: dict[str, Any]) -> dict[str, Any]:
        return _cells_pack_weights(self._cells, args)

    def __call__(self, inputs: Any, states: Any) -> tuple[Any, list[Any]]:
        raise NotImplementedError("Bidirectional cannot be stepped. Please use unroll")

    @property
    def state_info(self) -> list[Any]:
        return _cells_state_info(self._cells)

    def begin_state(self, **kwargs: Any) -> list[Any]:
        if self._modified:
            raise AssertionError(
                "After applying modifier cells (e.g. DropoutCell) the base cell cannot be "
                "called directly. Call the modifier cell instead."
            )
        return _cells_begin_state(self._cells, **kwargs)

    def unroll(
        self,
        length: int,
        inputs: Any,
        begin_state: Any = None,
        layout: str = "NTC",
        merge_outputs: bool | None = None,
    ) -> tuple[Any, list[Any]]:
        """The forward cell over the steps and the reverse cell over them reversed, outputs concatenated;
        the states are [forward states, reverse states]."""
        self.reset()
        inputs, axis = _normalize_sequence(length, inputs, layout, False)
        states = self.begin_state() if begin_state is None else begin_state
        l_cell, r_cell = self._cells
        n_l = len(l_cell.state_info)
        l_out, l_states = l_cell.unroll(
            length, inputs=inputs, begin_state=states[:n_l], layout=layout, merge_outputs=merge_outputs
        )
        r_out, r_states = r_cell.unroll(
            length,
            inputs=list(reversed(inputs)),
            begin_state=states[n_l:],
            layout=layout,
            merge_outputs=merge_outputs,
        )
        if merge_outputs is None:
            merge_outputs = isinstance(l_out, symbol.Symbol) and isinstance(r_out, symbol.Symbol)
            if not merge_outputs:
                if isinstance(l_out, symbol.Symbol):
                    l_out = list(symbol.SliceChannel(l_out, axis=axis, num_outputs=length, squeeze_axis=1))
                if isinstance(r_out, symbol.Symbol):
                    r_out = list(symbol.SliceChannel(r_out, axis=axis, num_outputs=length, squeeze_axis=1))
        if merge_outputs:
            l_out, r_out = [l_out], [symbol.reverse(r_out, axis=axis)]
        else:
            r_out = list(reversed(r_out))
        outputs = [
            symbol.Concat(
                a,
                b,
                dim=1 + int(merge_outputs),
                name=f"{self._output_prefix}out" if merge_outputs else f"{self._output_prefix}t{i}",
            )
            for i, (a, b) in enumerate(zip(l_out, r_out))
        ]
        return (outputs[0] if merge_outputs else outputs), [l_states, r_states]
