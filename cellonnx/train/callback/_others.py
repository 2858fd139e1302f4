"""Small callbacks: LambdaCallback, History, EarlyStopping."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from cellonnx.tensor import Tensor
from cellonnx.train.callback._callback import Callback, RunContext, _handle_loss

__all__ = ["EarlyStopping", "History", "LambdaCallback"]


class LambdaCallback(Callback):
    """A callback from functions: each argument, when given, is called with the RunContext at that hook.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn
        >>> from cellonnx.train import Model, LambdaCallback
        >>> net = nn.Dense(4, 2)
        >>> data = {"x": np.ones((8, 4), np.float32), "y": np.zeros(8, np.int32)}
        >>> dataset = ms.dataset.NumpySlicesDataset(data, shuffle=False).batch(4)
        >>> loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')
        >>> model = Model(net, loss_fn, nn.SGD(net.trainable_params()))
        >>> epochs = []
        >>> def record_epoch(run_context):
        ...     epochs.append(run_context.original_args().cur_epoch_num)
        >>> done = LambdaCallback(on_train_epoch_end=record_epoch)
        >>> model.train(2, dataset, callbacks=[done])
        >>> epochs
        [1, 2]
    """

    def __init__(self, on_train_epoch_begin: Callable | None = None, on_train_epoch_end: Callable | None = None,
                 on_train_step_begin: Callable | None = None, on_train_step_end: Callable | None = None,
                 on_train_begin: Callable | None = None, on_train_end: Callable | None = None,
                 on_eval_epoch_begin: Callable | None = None, on_eval_epoch_end: Callable | None = None,
                 on_eval_step_begin: Callable | None = None, on_eval_step_end: Callable | None = None,
                 on_eval_begin: Callable | None = None, on_eval_end: Callable | None = None) -> None:
        super().__init__()
        for name, fn in dict(locals()).items():
            if name.startswith("on_") and fn is not None:
                setattr(self, name, fn)


class History(Callback):
    """Record each epoch's network output (the mean loss) and, in ``Model.fit``, the evaluation metrics into
    ``history`` (``{'net_output': [...], 'accuracy': [...]}``) and the epoch numbers into ``epoch``.

    As MindSpore, ``Model.fit`` leaves History out of its evaluations: ``epoch`` lists the training epochs
    only, and each evaluation's metrics join the entry of the epoch it followed.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn
        >>> from cellonnx.train import Model, History
        >>> net = nn.Dense(4, 2)
        >>> data = {"x": np.ones((8, 4), np.float32), "y": np.zeros(8, np.int32)}
        >>> dataset = ms.dataset.NumpySlicesDataset(data, shuffle=False).batch(4)
        >>> loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')
        >>> model = Model(net, loss_fn, nn.SGD(net.trainable_params()))
        >>> history = History()
        >>> model.train(3, dataset, callbacks=[history])
        >>> history.epoch['epoch']
        [1, 2, 3]
        >>> len(history.history['net_output'])
        3
    """

    def __init__(self) -> None:
        super().__init__()
        self.history: dict[str, list] = {}
        self.epoch: dict[str, list] | None = None

    def begin(self, run_context: RunContext) -> None:
        self.epoch = {"epoch": []}

    def epoch_end(self, run_context: RunContext) -> None:
        cb = run_context.original_args()
        if self.epoch is None:
            self.epoch = {"epoch": []}
        self.epoch["epoch"].append(cb.get("cur_epoch_num", 1))
        out = cb.get("net_outputs")
        if isinstance(out, (tuple, list)) and out and isinstance(out[0], Tensor):
            out = out[0]
        if isinstance(out, Tensor):
            out = np.mean(out.asnumpy())
        current = {"net_output": out}
        current.update(cb.get("metrics") or {})
        for key, value in current.items():
            self.history.setdefault(key, []).append(value)


_SMALLER_BETTER = ("hausdorff_distance", "mae", "mse", "loss", "perplexity", "mean_surface_distance",
                   "root_mean_square_distance", "eval_loss")


class EarlyStopping(Callback):
    """Stop training when the monitored value stops improving (MindSpore's rule: a counter grows every epoch,
    resets on improvement, and training stops once it reaches ``patience``).

    Args:
        monitor (str): 'loss' (the training loss), or 'eval_loss' / a metric name (needs ``Model.fit``).
            Default: ``'eval_loss'``.
        min_delta (float): the smallest change that counts as an improvement. Default: ``0``.
        patience (int): Default: ``0`` (stop at the first monitored epoch).
        verbose (bool): print the epoch it stopped at. Default: ``False``.
        mode (str): 'min', 'max' or 'auto' (min for loss-like names). Default: ``'auto'``.
        baseline (float): improvements only reset the counter once they beat it. Default: ``None``.
        restore_best_weights (bool): put the best epoch's weights back when stopping. Default: ``False``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn
        >>> from cellonnx.train import Model, EarlyStopping
        >>> net = nn.Dense(4, 2)
        >>> data = {"x": np.ones((8, 4), np.float32), "y": np.zeros(8, np.int32)}
        >>> dataset = ms.dataset.NumpySlicesDataset(data, shuffle=False).batch(4)
        >>> loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')
        >>> model = Model(net, loss_fn, nn.SGD(net.trainable_params(), 0.0), metrics={'loss'})
        >>> stop = EarlyStopping(monitor='eval_loss', patience=1)
        >>> model.fit(10, dataset, dataset, callbacks=[stop])
        >>> stop.stopped_epoch
        2
    """

    def __init__(self, monitor: str = "eval_loss", min_delta: float = 0, patience: int = 0, verbose: bool = False,
                 mode: str = "auto", baseline: float | None = None, restore_best_weights: bool = False) -> None:
        super().__init__()
        if not isinstance(monitor, str):
            raise TypeError(f"EarlyStopping: monitor must be a str, got {type(monitor).__name__}")
        if mode not in ("auto", "min", "max"):
            raise ValueError(f"EarlyStopping: mode should be 'auto', 'min' or 'max', got {mode!r}")
        if isinstance(patience, bool) or not isinstance(patience, int) or patience < 0:
            raise ValueError(f"EarlyStopping: patience must be a non-negative int, got {patience!r}")
        self.monitor, self.patience, self.verbose, self.mode = monitor, patience, verbose, mode
        self.min_delta = abs(min_delta)
        self.baseline = baseline
        self.restore_best_weights = restore_best_weights
        self._smaller = mode == "min" or (mode == "auto" and monitor in _SMALLER_BETTER)
        self.wait = 0
        self.stopped_epoch = 0
        self.best = np.inf if self._smaller else -np.inf
        self.best_weights: dict[str, np.ndarray] | None = None

    def _is_improvement(self, a: float, b: float) -> bool:
        return bool(a < b - self.min_delta) if self._smaller else bool(a > b + self.min_delta)

    def on_train_begin(self, run_context: RunContext) -> None:
        self.wait, self.stopped_epoch = 0, 0
        self.best = np.inf if self._smaller else -np.inf
        self.best_weights = None

    def _value(self, cb: Any) -> Any:
        if self.monitor == "loss":
            return _handle_loss(cb.get("net_outputs"))
        return (cb.get("eval_results") or {}).get(self.monitor)

    @staticmethod
    def _weights(cb: Any) -> dict[str, np.ndarray]:
        return {p.name: p.asnumpy().copy() for p in cb.train_network.get_parameters()}

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        cb = run_context.original_args()
        value = self._value(cb)
        if value is None:
            return
        value = float(np.mean(value.asnumpy() if isinstance(value, Tensor) else value))
        if self.restore_best_weights and self.best_weights is None:
            self.best_weights = self._weights(cb)
        self.wait += 1
        if self._is_improvement(value, self.best):
            self.best = value
            if self.restore_best_weights:
                self.best_weights = self._weights(cb)
            if self.baseline is None or self._is_improvement(value, self.baseline):
                self.wait = 0
        if self.wait >= self.patience:
            self.stopped_epoch = cb.get("cur_epoch_num")
            run_context.request_stop()
            if self.restore_best_weights and self.best_weights is not None:
                if self.verbose:
                    print("Restoring model weights from the end of the best epoch.")
                for p in cb.train_network.get_parameters():
                    if p.name in self.best_weights:
                        p.set_data(self.best_weights[p.name])

    def on_train_end(self, run_context: RunContext) -> None:
        if self.stopped_epoch > 0 and self.verbose:
            print(f"Epoch {self.stopped_epoch:05d}: early stopping")
