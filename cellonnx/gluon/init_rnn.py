"""Initializers for recurrent weights: ``LSTMBias`` (zeros but the forget gate) and ``FusedRNN`` (a packed
fused-RNN parameter vector initialized gate by gate, as its unfused cells would be)."""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from cellonnx.gluon.init import _REGISTRY, Initializer, Uniform, _register

__all__ = ["FusedRNN", "LSTMBias"]


@_register()
class LSTMBias(Initializer):
    """Zeros, except the forget gate's quarter of an LSTM bias (gates i, f, c, o), set to ``forget_bias``.

    Args:
        forget_bias: the forget gate's bias (Jozefowicz et al. 2015 recommend 1.0). Default: 1.0.

    Examples:
        >>> import numpy as np
        >>> import cellonnx.mxnet as mx
        >>> arr = np.empty(8, np.float32)
        >>> mx.init.LSTMBias(forget_bias=1.0)._init_weight('lstm_i2h_bias', arr)
        >>> arr.tolist()
        [0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0]
    """

    def __init__(self, forget_bias: float = 1.0) -> None:
        super().__init__(forget_bias=forget_bias)
        self.forget_bias = forget_bias

    def _init_weight(self, name: str, arr: np.ndarray) -> None:
        arr[:] = 0.0
        num_hidden = int(arr.shape[0] / 4)
        arr[num_hidden : 2 * num_hidden] = self.forget_bias

    _init_bias = _init_weight


@_register()
class FusedRNN(Initializer):
    """Initialize the packed parameter vector of a fused RNN (``mx.rnn.FusedRNNCell``, the RNN operator):
    each gate's weight matrix by ``init``, the biases by ``init``'s bias rule, LSTM forget-gate biases to
    ``forget_bias``.

    Args:
        init: the initializer of the unpacked weights (or its JSON); None for Uniform().
        num_hidden, num_layers, mode, bidirectional: as given to FusedRNNCell.
        forget_bias: LSTM forget-gate bias. Default: 1.0.

    Examples:
        >>> import numpy as np
        >>> import cellonnx.mxnet as mx
        >>> init = mx.init.FusedRNN(mx.init.Xavier(), num_hidden=2, num_layers=1, mode='lstm')
        >>> arr = np.empty(4 * 2 * (3 + 2 + 2), np.float32)
        >>> init._init_weight('lstm_parameters', arr)
        >>> arr[-16:].tolist()
        [0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0]
    """

    def __init__(
        self,
        init: Any,
        num_hidden: int,
        num_layers: int,
        mode: str,
        bidirectional: bool = False,
        forget_bias: float = 1.0,
    ) -> None:
        if isinstance(init, str):
            klass, kwargs = json.loads(init)
            init = _REGISTRY[klass.lower()](**kwargs)
        super().__init__(
            init=init.dumps() if init is not None else None,
            num_hidden=num_hidden,
            num_layers=num_layers,
            mode=mode,
            bidirectional=bidirectional,
            forget_bias=forget_bias,
        )
        self._init = init
        self._num_hidden = num_hidden
        self._num_layers = num_layers
        self._mode = mode
        self._bidirectional = bidirectional
        self._forget_bias = forget_bias

    def _init_weight(self, name: str, arr: np.ndarray) -> None:
        from cellonnx.mxnet.rnn.rnn_cell import FusedRNNCell

        cell = FusedRNNCell(
            self._num_hidden,
            self._num_layers,
            self._mode,
            self._bidirectional,
            forget_bias=self._forget_bias,
            prefix="",
        )
        init = self._init if self._init is not None else Uniform()
        flat = arr.reshape(-1)
        h, b, m = self._num_hidden, 2 if self._bidirectional else 1, cell._num_gates
        num_input = flat.size // b // h // m - (self._num_layers - 1) * (h + b * h + 2) - h - 2
        for key, view in cell._slice_weights(flat, num_input, h).items():
            if self._mode == "lstm" and key.endswith("_f_bias"):
                view[...] = self._forget_bias
            elif key.endswith("_bias"):
                init._init_bias(key, view)
            else:
                init._init_weight(key, view)

    _init_bias = _init_weight
