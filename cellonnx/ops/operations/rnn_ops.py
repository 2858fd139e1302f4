"""MindSpore's recurrent operator classes: ``ops.LSTM``, the whole multi-layer LSTM with its weights in one
flat tensor, as MindSpore's CPU kernel takes them (a row over ``ops.lstm``, see table.py), and the fused
cells ``ops.BasicLSTMCell``, ``ops.DynamicRNN`` and ``ops.DynamicGRUV2`` (rows over
cellonnx/ops/composite/rnn_fused.py, where their weight layouts are described).

The flat weight (``(weight_size, 1, 1)``, or any shape with that many elements) holds, in this order: every
``weight_ih`` (4 * hidden_size rows of the layer's input size), for each layer and within it the forward,
then the reverse direction; every ``weight_hh`` (4 * hidden_size, hidden_size) in the same order; and with
``has_bias`` one bias of 4 * hidden_size per layer and direction (nn.LSTM passes ``bias_ih + bias_hh``).
Gates are stacked i, f, g, o, as in nn.LSTM's parameters.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.ops.composite.rnn_fused import basic_lstm_cell, dynamic_gru_v2, dynamic_rnn
from cellonnx.ops.operations.table import Row, build
from cellonnx.tensor import Tensor


def _setup_lstm(prim: Any) -> None:
    name = prim.name
    for attr in ("input_size", "hidden_size", "num_layers"):
        value = getattr(prim, attr)
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ValueError(f"For '{name}', the '{attr}' must be a positive int, but got {value!r}.")
    for attr in ("has_bias", "bidirectional"):
        if not isinstance(getattr(prim, attr), bool):
            raise TypeError(f"For '{name}', the '{attr}' must be a bool, but got {getattr(prim, attr)!r}.")
    if not 0.0 <= float(prim.dropout) <= 1.0:
        raise ValueError(f"For '{name}', the 'dropout' must be in [0, 1], but got {prim.dropout!r}.")
    if prim.proj_size != 0:
        raise ValueError(f"For '{name}', a 'proj_size' other than 0 (an LSTM with projections) is not "
                         f"supported, but got {prim.proj_size!r}.")


def _layout(prim: Any) -> list[tuple[str, int, int, tuple[int, int]]]:
    """(kind, layer, direction, shape) of each block of the flat weight, in order."""
    dirs = 2 if prim.bidirectional else 1
    h = prim.hidden_size
    cells = [(layer, d) for layer in range(prim.num_layers) for d in range(dirs)]
    blocks = [("ih", layer, d, (4 * h, prim.input_size if layer == 0 else h * dirs)) for layer, d in cells]
    blocks += [("hh", layer, d, (4 * h, h)) for layer, d in cells]
    if prim.has_bias:
        blocks += [("b", layer, d, (4 * h, 1)) for layer, d in cells]
    return blocks


def _lstm(x: Tensor, h: Tensor, c: Tensor, w: Tensor, prim: Any) -> tuple[Tensor, ...]:
    """(output, h_n, c_n, reserve, state): reserve and state are MindSpore's kernel workspaces, given here
    as (1, 1) zeros."""
    from cellonnx.ops import lstm, reshape, zeros, zeros_like
    blocks = _layout(prim)
    sizes = [rows * cols for _, _, _, (rows, cols) in blocks]
    flat = reshape(w, (-1,))
    if int(flat.shape[0]) != sum(sizes):
        raise ValueError(f"For '{prim.name}', the weight has {int(flat.shape[0])} elements, but input_size "
                         f"{prim.input_size}, hidden_size {prim.hidden_size}, num_layers {prim.num_layers}, "
                         f"has_bias {prim.has_bias} and bidirectional {prim.bidirectional} need "
                         f"{sum(sizes)}.")
    parts: dict[tuple[str, int, int], Tensor] = {}
    start = 0
    for (kind, layer, d, (rows, cols)), size in zip(blocks, sizes):
        part = flat[start:start + size]
        parts[(kind, layer, d)] = reshape(part, (rows, cols)) if kind != "b" else part
        start += size
    weights = []
    for kind, layer, d, _ in blocks:
        if kind != "ih":
            continue
        weights += [parts[("ih", layer, d)], parts[("hh", layer, d)]]
        if prim.has_bias:  # the kernel's one bias is bias_ih + bias_hh
            bias = parts[("b", layer, d)]
            weights += [bias, zeros_like(bias)]
    out, (h_n, c_n) = lstm(x, (h, c), weights, prim.num_layers, prim.bidirectional, False, 0.0, False)
    workspace = zeros((1, 1), dtype=x.dtype)
    return out, h_n, c_n, workspace, workspace


def _check_types(prim: Any, **types: Any) -> None:
    for attr, kind in types.items():
        value = getattr(prim, attr)
        ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
        if not ok:
            raise TypeError(f"For '{prim.name}', the '{attr}' must be {kind.__name__}, but got "
                            f"{type(value).__name__} {value!r}.")


def _check_choice(prim: Any, attr: str, choices: tuple[str, ...]) -> None:
    if getattr(prim, attr) not in choices:
        raise ValueError(f"For '{prim.name}', the '{attr}' must be one of {list(choices)}, but got "
                         f"{getattr(prim, attr)!r}.")


def _check_keep_prob(prim: Any, applies: bool) -> None:
    if not 0.0 <= prim.keep_prob <= 1.0:
        raise ValueError(f"For '{prim.name}', the 'keep_prob' must be in [0.0, 1.0], but got "
                         f"{prim.keep_prob}.")
    if applies and prim.keep_prob != 1.0:
        # MindSpore documents no formula for the dropout its Ascend kernels apply (nor where its mask goes)
        raise ValueError(f"For '{prim.name}', a 'keep_prob' below 1.0 in training (dropout inside the fused "
                         f"kernel) is not supported, but got {prim.keep_prob}; apply nn.Dropout to the "
                         f"output.")


def _setup_basic_lstm_cell(prim: Any) -> None:
    _check_types(prim, keep_prob=float, forget_bias=float, state_is_tuple=bool)
    _check_choice(prim, "activation", ("tanh",))
    _check_keep_prob(prim, True)


def _setup_dynamic_rnn(prim: Any) -> None:
    _check_types(prim, cell_type=str, direction=str, cell_depth=int, use_peephole=bool, keep_prob=float,
                 cell_clip=float, num_proj=int, time_major=bool, activation=str, forget_bias=float,
                 is_training=bool)
    if prim.num_proj < 0:
        raise ValueError(f"For '{prim.name}', the 'num_proj' must be a non-negative int, but got "
                         f"{prim.num_proj}.")
    if not prim.time_major:
        raise ValueError(f"For '{prim.name}', the 'time_major' must be True (the only layout MindSpore "
                         f"supports), but got False.")
    _check_choice(prim, "cell_type", ("LSTM",))
    _check_choice(prim, "direction", ("UNIDIRECTIONAL",))
    _check_choice(prim, "activation", ("tanh",))
    _check_keep_prob(prim, prim.is_training)
    _fused_unsupported(prim, use_peephole=prim.use_peephole, num_proj=prim.num_proj > 0)


def _setup_dynamic_gru_v2(prim: Any) -> None:
    _check_types(prim, direction=str, cell_depth=int, keep_prob=float, cell_clip=float, num_proj=int,
                 time_major=bool, activation=str, gate_order=str, reset_after=bool, is_training=bool)
    if prim.num_proj < 0:
        raise ValueError(f"For '{prim.name}', the 'num_proj' must be a non-negative int, but got "
                         f"{prim.num_proj}.")
    _check_choice(prim, "direction", ("UNIDIRECTIONAL",))
    _check_choice(prim, "activation", ("tanh",))
    _check_choice(prim, "gate_order", ("zrh", "rzh"))
    _check_keep_prob(prim, prim.is_training)
    _fused_unsupported(prim, num_proj=prim.num_proj > 0, time_major=not prim.time_major,
                       cell_clip=prim.cell_clip > 0)


def _fused_unsupported(prim: Any, **flags: bool) -> None:
    """Options MindSpore accepts but whose math it does not document (they take no extra weights)."""
    bad = [name for name, on in flags.items() if on]
    if bad:
        raise ValueError(f"For '{prim.name}', {', '.join(f'{n}={getattr(prim, n)!r}' for n in bad)} is not "
                         f"supported: only the documented computation (no peephole, no projection, "
                         f"time-major input, GRU without cell_clip) is.")


def _no_seq_length(prim: Any, seq_length: Any) -> None:
    if seq_length is not None:
        raise ValueError(f"For '{prim.name}', 'seq_length' must be None (the only value MindSpore supports); "
                         f"mask the outputs by length instead, as nn.LSTM / nn.GRU do.")


def _basic_lstm_cell(x: Tensor, h: Tensor, c: Tensor, w: Tensor, b: Tensor, prim: Any) -> tuple[Tensor, ...]:
    from cellonnx.ops import cast
    ct, ht, *gates = basic_lstm_cell(x, h, c, w, b, prim.forget_bias)
    if ht._data.dtype == np.float32:  # MindSpore's kernel gives ht in float16 for its float16/32 inputs
        ht = cast(ht, np.float16)
    return (ct, ht, *gates)


def _dynamic_rnn(x: Tensor, w: Tensor, b: Tensor, seq_length: Any, init_h: Tensor, init_c: Tensor,
                 prim: Any) -> tuple[Tensor, ...]:
    _no_seq_length(prim, seq_length)
    return dynamic_rnn(x, w, b, init_h, init_c, prim.forget_bias, prim.cell_clip)


def _dynamic_gru_v2(x: Tensor, weight_input: Tensor, weight_hidden: Tensor, bias_input: Any, bias_hidden: Any,
                    seq_length: Any, init_h: Tensor, prim: Any) -> tuple[Tensor, ...]:
    _no_seq_length(prim, seq_length)
    return dynamic_gru_v2(x, weight_input, weight_hidden, bias_input, bias_hidden, init_h, prim.gate_order,
                          prim.reset_after)


ROWS = [
    Row("LSTM", "input_size, hidden_size, num_layers, has_bias, bidirectional, dropout, proj_size=0",
        "input, h, c, w", "_lstm(input, h, c, w, self)", _setup_lstm,
        summary="A multi-layer LSTM over ``(seq_len, batch, input_size)`` input, its weights flat in ``w``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> net = ops.LSTM(10, 2, 1, True, False, 0.0)
        >>> x = Tensor(np.ones((3, 2, 10)), ms.float32)
        >>> h0 = Tensor(np.ones((1, 2, 2)), ms.float32)
        >>> c0 = Tensor(np.ones((1, 2, 2)), ms.float32)
        >>> w = Tensor(np.ones((104, 1, 1)), ms.float32)
        >>> output, hn, cn, _, _ = net(x, h0, c0, w)
        >>> print(output[:, 0].asnumpy().round(4))
        [[0.964  0.964 ]
         [0.9951 0.9951]
         [0.9993 0.9993]]
        """),
    Row("BasicLSTMCell", "keep_prob=1.0, forget_bias=1.0, state_is_tuple=True, activation='tanh'",
        "x, h, c, w, b", "_basic_lstm_cell(x, h, c, w, b, self)", _setup_basic_lstm_cell,
        summary="One LSTM step (gates i, j, f, o) on ``x``, ``h``, ``c`` with weight ``w`` and bias ``b``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.ones((1, 2)), ms.float32)
        >>> h = Tensor(np.zeros((1, 2)), ms.float32)
        >>> c = Tensor(np.zeros((1, 2)), ms.float32)
        >>> w = Tensor(np.full((4, 8), 0.1), ms.float32)
        >>> b = Tensor(np.zeros(8), ms.float32)
        >>> ct, ht, it, jt, ft, ot, tanhct = ops.BasicLSTMCell()(x, h, c, w, b)
        >>> print(ht.asnumpy().round(4))
        [[0.0594 0.0594]]
        """),
    Row("DynamicRNN", "cell_type='LSTM', direction='UNIDIRECTIONAL', cell_depth=1, use_peephole=False, "
        "keep_prob=1.0, cell_clip=-1.0, num_proj=0, time_major=True, activation='tanh', forget_bias=0.0, "
        "is_training=True",
        "x, w, b, seq_length, init_h, init_c", "_dynamic_rnn(x, w, b, seq_length, init_h, init_c, self)",
        _setup_dynamic_rnn,
        summary="An LSTM over a whole ``(T, N, input_size)`` sequence with fused weights.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.ones((2, 1, 3)), ms.float32)
        >>> w = Tensor(np.full((3 + 2, 8), 0.1), ms.float32)
        >>> b = Tensor(np.zeros(8), ms.float32)
        >>> init_h = Tensor(np.zeros((1, 1, 2)), ms.float32)
        >>> init_c = Tensor(np.zeros((1, 1, 2)), ms.float32)
        >>> output = ops.DynamicRNN()(x, w, b, None, init_h, init_c)
        >>> print(output[0].shape)
        (2, 1, 2)
        """),
    Row("DynamicGRUV2", "direction='UNIDIRECTIONAL', cell_depth=1, keep_prob=1.0, cell_clip=-1.0, "
        "num_proj=0, time_major=True, activation='tanh', gate_order='rzh', reset_after=True, "
        "is_training=True",
        "x, weight_input, weight_hidden, bias_input, bias_hidden, seq_length, init_h",
        "_dynamic_gru_v2(x, weight_input, weight_hidden, bias_input, bias_hidden, seq_length, init_h, self)",
        _setup_dynamic_gru_v2,
        summary="A GRU over a whole ``(T, N, input_size)`` sequence with separate input and hidden weights.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.ones((2, 1, 3)), ms.float32)
        >>> weight_i = Tensor(np.full((3, 6), 0.1), ms.float32)
        >>> weight_h = Tensor(np.full((2, 6), 0.1), ms.float32)
        >>> bias_i = Tensor(np.zeros(6), ms.float32)
        >>> bias_h = Tensor(np.zeros(6), ms.float32)
        >>> init_h = Tensor(np.zeros((1, 2)), ms.float32)
        >>> output = ops.DynamicGRUV2()(x, weight_i, weight_h, bias_i, bias_h, None, init_h)
        >>> print(output[0].shape)
        (2, 1, 2)
        """),
]

CLASSES = build(ROWS, globals())
globals().update(CLASSES)
__all__ = list(CLASSES)
