"""Which axis of each input holds the batch, for ``HybridBlock.export``'s dynamic batch.

Axis 0, except in a block built around gluon.rnn's fused layers (RNN, LSTM, GRU): their inputs follow the
first layer's ``layout`` (time-major 'TNC' keeps the batch on axis 1, as MXNet's language models feed
tokens), and their states are 'LNC' (``state_info``: layers x directions, batch, hidden) whatever the layout.
"""
from __future__ import annotations

from typing import Any

__all__ = ["batch_axes"]


def batch_axes(block: Any, shapes: list[tuple[int, ...]]) -> list[int]:
    """The batch axis of each input shape of ``block`` (its tensor arguments, flattened in order)."""
    from cellonnx.gluon.rnn.rnn_layer import _RNNLayer

    layer = next((b for _, b in block.cells_and_names() if isinstance(b, _RNNLayer)), None)
    if layer is None:
        return [0] * len(shapes)
    states = {(s["shape"][0], s["shape"][2]) for s in layer.state_info()}
    data_axis = layer._layout.find("N")
    out = []
    for shape in shapes:
        if len(shape) == 3 and (shape[0], shape[2]) in states:
            out.append(1)
        else:
            out.append(data_axis if len(shape) >= 2 else 0)
    return out
