"""MindSpore's ``ops.LSTM`` operator class: the whole multi-layer LSTM with its weights in one flat tensor,
as MindSpore's CPU kernel takes them: a table row over ``ops.lstm`` (see table.py).

The flat weight (``(weight_size, 1, 1)``, or any shape with that many elements) holds, in this order: every
``weight_ih`` (4 * hidden_size rows of the layer's input size), for each layer and within it the forward,
then the reverse direction; every ``weight_hh`` (4 * hidden_size, hidden_size) in the same order; and with
``has_bias`` one bias of 4 * hidden_size per layer and direction (nn.LSTM passes ``bias_ih + bias_hh``).
Gates are stacked i, f, g, o, as in nn.LSTM's parameters.
"""
from __future__ import annotations

from typing import Any

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


ROWS = [
    Row("LSTM", "input_size, hidden_size, num_layers, has_bias, bidirectional, dropout, proj_size=0",
        "input, h, c, w", "_lstm(input, h, c, w, self)", _setup_lstm),
]

CLASSES = build(ROWS, globals())
globals().update(CLASSES)
__all__ = list(CLASSES)
