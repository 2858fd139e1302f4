"""``npx.rnn``: MXNet 2.x's name for the fused RNN operator (``nd.RNN`` in 1.x), results as mx.np arrays."""
from __future__ import annotations

from typing import Any

from cellonnx.mxnet.numpy.multiarray import to_np
from cellonnx.tensor import Tensor

__all__ = ["rnn"]


def rnn(data: Tensor, parameters: Tensor, state: Tensor, state_cell: Tensor | None = None,
        sequence_length: Tensor | None = None, mode: str = "lstm", state_size: int = 0, num_layers: int = 1,
        bidirectional: bool = False, state_outputs: bool = False, p: float = 0.0,
        use_sequence_length: bool = False, projection_size: int | None = None,
        lstm_state_clip_min: float | None = None, lstm_state_clip_max: float | None = None,
        lstm_state_clip_nan: bool = False) -> Any:
    """A stacked (bidirectional) RNN over a whole sequence: MXNet's fused operator, modes 'rnn_relu',
    'rnn_tanh', 'lstm' (with ``projection_size`` and clipped cell states) and 'gru', all weights in one flat
    ``parameters`` vector (per layer and direction the i2h then h2h (then h2r) matrices, then all biases).

    Args:
        data: (T, N, C).
        parameters: the flat weight vector.
        state: (num_layers * D, N, H or projection_size).
        state_cell: (num_layers * D, N, H), LSTM only.
        sequence_length: (N,) valid lengths, with ``use_sequence_length``.
        mode: 'rnn_relu', 'rnn_tanh', 'lstm' or 'gru'. Default: 'lstm'.
        state_size: H.
        num_layers: stacked layers. Default: 1.
        bidirectional: D = 2. Default: False.
        state_outputs: also return the final states. Default: False.
        p: dropout between layers in training. Default: 0.
        use_sequence_length: take ``sequence_length``. Default: False.
        projection_size, lstm_state_clip_min, lstm_state_clip_max, lstm_state_clip_nan: LSTM only.

    Returns:
        out (T, N, D * H); with ``state_outputs`` [out, h_n(, c_n)].

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> x = np.ones((5, 2, 3))
        >>> params = np.ones((3 * 4 * (3 + 4 + 2),)) * 0.1
        >>> out, h = npx.rnn(x, params, np.zeros((1, 2, 4)), mode='gru', state_size=4, state_outputs=True)
        >>> out.shape, h.shape
        ((5, 2, 4), (1, 2, 4))
    """
    from cellonnx.gluon.symbol.ops_rnn import rnn as fused

    out = fused(data, parameters, state, state_cell=state_cell, sequence_length=sequence_length, mode=mode,
                state_size=state_size, num_layers=num_layers, bidirectional=bidirectional, p=p,
                state_outputs=state_outputs, projection_size=projection_size,
                lstm_state_clip_min=lstm_state_clip_min, lstm_state_clip_max=lstm_state_clip_max,
                lstm_state_clip_nan=lstm_state_clip_nan, use_sequence_length=use_sequence_length)
    return [to_np(o) for o in out] if isinstance(out, list) else to_np(out)
