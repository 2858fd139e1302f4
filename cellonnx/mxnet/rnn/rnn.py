"""Checkpoints of symbolic recurrent models (``mx.rnn.save_rnn_checkpoint`` ...): the cells' packed weights
are written unpacked (one array per gate, as unfused cells name them) so a fused and an unfused network load
each other's files, in MXNet's checkpoint format (``prefix-symbol.json``, ``prefix-0001.params`` with ``arg:``
and ``aux:`` keys)."""
from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

from cellonnx.mxnet import ndarray, symbol
from cellonnx.mxnet.rnn.rnn_cell import BaseRNNCell

__all__ = ["do_rnn_checkpoint", "load_rnn_checkpoint", "rnn_unroll", "save_rnn_checkpoint"]


def rnn_unroll(cell: BaseRNNCell, length: int, inputs: Any = None, begin_state: Any = None,
               input_prefix: str = "", layout: str = "NTC") -> Any:
    """Deprecated: ``cell.unroll``.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> import warnings
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter('ignore')
        ...     out, _ = mx.rnn.rnn_unroll(mx.rnn.RNNCell(2), 3, mx.sym.Variable('data'))
        >>> len(out)
        3
    """
    warnings.warn("rnn_unroll is deprecated. Please call cell.unroll directly.", stacklevel=2)
    return cell.unroll(length=length, inputs=inputs, begin_state=begin_state, layout=layout)


def _cells(cells: Any) -> list[BaseRNNCell]:
    return [cells] if isinstance(cells, BaseRNNCell) else list(cells)


def save_rnn_checkpoint(cells: Any, prefix: str, epoch: int, symbol: Any, arg_params: dict[str, Any],
                        aux_params: dict[str, Any]) -> None:
    """Save a checkpoint with the cells' weights unpacked.

    Args:
        cells: a cell or a list of cells of the network.
        prefix: path prefix of the files.
        epoch: the epoch number (``prefix-%04d.params``).
        symbol: the network's Symbol (``prefix-symbol.json``).
        arg_params, aux_params: name -> NDArray.

    Examples:
        >>> import cellonnx.mxnet as mx, tempfile, os
        >>> cell = mx.rnn.LSTMCell(2, prefix='l_')
        >>> out, _ = cell.unroll(2, mx.sym.Variable('data'), merge_outputs=True)
        >>> args = {'l_i2h_weight': mx.nd.ones((8, 3)), 'l_i2h_bias': mx.nd.zeros(8),
        ...         'l_h2h_weight': mx.nd.ones((8, 2)), 'l_h2h_bias': mx.nd.zeros(8)}
        >>> prefix = os.path.join(tempfile.mkdtemp(), 'lm')
        >>> mx.rnn.save_rnn_checkpoint(cell, prefix, 1, out, args, {})
        >>> sorted(mx.nd.load(prefix + '-0001.params'))[:2]
        ['arg:l_h2h_c_bias', 'arg:l_h2h_c_weight']
    """
    for cell in _cells(cells):
        arg_params = cell.unpack_weights(arg_params)
    if symbol is not None:
        symbol.save(f"{prefix}-symbol.json")
    saved = {f"arg:{k}": v for k, v in arg_params.items()}
    saved.update({f"aux:{k}": v for k, v in aux_params.items()})
    ndarray.save(f"{prefix}-{epoch:04d}.params", saved)


def load_rnn_checkpoint(cells: Any, prefix: str, epoch: int) -> tuple[Any, dict[str, Any], dict[str, Any]]:
    """Load a checkpoint written by ``save_rnn_checkpoint`` and pack the cells' weights again.

    Returns:
        (symbol, arg_params, aux_params).

    Examples:
        >>> import cellonnx.mxnet as mx, tempfile, os
        >>> cell = mx.rnn.GRUCell(2, prefix='g_')
        >>> out, _ = cell.unroll(2, mx.sym.Variable('data'), merge_outputs=True)
        >>> args = {'g_i2h_weight': mx.nd.ones((6, 3)), 'g_i2h_bias': mx.nd.zeros(6),
        ...         'g_h2h_weight': mx.nd.ones((6, 2)), 'g_h2h_bias': mx.nd.zeros(6)}
        >>> prefix = os.path.join(tempfile.mkdtemp(), 'lm')
        >>> mx.rnn.save_rnn_checkpoint(cell, prefix, 3, out, args, {})
        >>> sym, arg, aux = mx.rnn.load_rnn_checkpoint(cell, prefix, 3)
        >>> sorted(arg), arg['g_i2h_weight'].shape
        (['g_h2h_bias', 'g_h2h_weight', 'g_i2h_bias', 'g_i2h_weight'], (6, 3))
    """
    sym = symbol.load(f"{prefix}-symbol.json")
    loaded = ndarray.load(f"{prefix}-{epoch:04d}.params")
    arg = {k[4:]: v for k, v in loaded.items() if k.startswith("arg:")}
    aux = {k[4:]: v for k, v in loaded.items() if k.startswith("aux:")}
    for cell in _cells(cells):
        arg = cell.pack_weights(arg)
    return sym, arg, aux


def do_rnn_checkpoint(cells: Any, prefix: str, period: int = 1) -> Callable[..., None]:
    """An epoch-end callback that saves an RNN checkpoint every ``period`` epochs.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> callable(mx.rnn.do_rnn_checkpoint(mx.rnn.RNNCell(2), 'model'))
        True
    """
    period = int(max(1, period))

    def _callback(iter_no: int, sym: Any = None, arg: Any = None, aux: Any = None) -> None:
        if (iter_no + 1) % period == 0:
            save_rnn_checkpoint(cells, prefix, iter_no + 1, sym, arg, aux)

    return _callback
