"""LossMonitor, TimeMonitor and a progress bar for long loops."""
from __future__ import annotations

import time
from typing import Any

import numpy as np

from cellonnx.train.callback._callback import Callback, RunContext, _handle_loss

__all__ = ["LossMonitor", "ProgressBar", "TimeMonitor"]


class LossMonitor(Callback):
    """Print the loss every ``per_print_times`` steps, in MindSpore's format
    ``epoch: 1 step: 5, loss is 0.2439``, and the evaluation metrics after an epoch of ``Model.fit``; stop
    training with ValueError when the loss is nan or inf.

    Args:
        per_print_times (int): steps between prints (0: never). Default: ``1``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn
        >>> from cellonnx.train import Model, LossMonitor
        >>> net = nn.Dense(4, 2, weight_init='zeros', bias_init='zeros')
        >>> data = {"x": np.ones((8, 4), np.float32), "y": np.zeros(8, np.int32)}
        >>> dataset = ms.dataset.NumpySlicesDataset(data, shuffle=False).batch(4)
        >>> loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')
        >>> model = Model(net, loss_fn, nn.SGD(net.trainable_params(), 0.0))
        >>> model.train(1, dataset, callbacks=[LossMonitor(per_print_times=2)])
        epoch: 1 step: 2, loss is 0.693147...
    """

    def __init__(self, per_print_times: int = 1) -> None:
        super().__init__()
        if isinstance(per_print_times, bool) or not isinstance(per_print_times, int) or per_print_times < 0:
            raise ValueError(f"LossMonitor: per_print_times must be a non-negative int, got {per_print_times!r}")
        self._per_print_times = per_print_times
        self._last_print_time = 0

    def step_end(self, run_context: RunContext) -> None:
        cb_params = run_context.original_args()
        cur_epoch_num = cb_params.get("cur_epoch_num", 1)
        loss = _handle_loss(cb_params.net_outputs)
        cur_step_in_epoch = (cb_params.cur_step_num - 1) % cb_params.batch_num + 1
        if isinstance(loss, float) and (np.isnan(loss) or np.isinf(loss)):
            raise ValueError(f"In epoch: {cur_epoch_num} step: {cur_step_in_epoch}, loss is NAN or INF, training "
                             "process cannot continue, terminating training.")
        if self._per_print_times != 0 and cb_params.cur_step_num <= self._last_print_time:
            while cb_params.cur_step_num <= self._last_print_time:
                self._last_print_time -= max(self._per_print_times,
                                             cb_params.batch_num if cb_params.get("dataset_sink_mode") else 1)
        if self._per_print_times != 0 and cb_params.cur_step_num - self._last_print_time >= self._per_print_times:
            self._last_print_time = cb_params.cur_step_num
            print(f"epoch: {cur_epoch_num} step: {cur_step_in_epoch}, loss is {loss}", flush=True)

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        cb_params = run_context.original_args()
        metrics = cb_params.get("metrics")
        if metrics:
            print(f"Eval result: epoch {cb_params.cur_epoch_num}, metrics: {metrics}")


class TimeMonitor(Callback):
    """Print the epoch time and the time per step, as ``Train epoch time: 12.345 ms, per step time: 1.234 ms``.

    Args:
        data_size (int): steps per epoch, when the run does not know it. Default: ``None``.
        data_time (bool): also report the time spent waiting for data. Default: ``False``.

    Examples:
        >>> from cellonnx.train import TimeMonitor
        >>> time_monitor = TimeMonitor(data_size=100)
        >>> print(type(time_monitor).__name__)
        TimeMonitor
    """

    def __init__(self, data_size: int | None = None, data_time: bool = False) -> None:
        super().__init__()
        if not isinstance(data_time, bool):
            raise TypeError(f"TimeMonitor: data_time must be a bool, got {type(data_time).__name__}")
        self.data_size = data_size
        self.epoch_time = time.time()
        self.data_time = data_time
        self.data_time_sum = 0.0
        self.data_time_start = 0.0

    def on_train_step_begin(self, run_context: RunContext) -> None:
        if self.data_time:
            self.data_time_sum += time.time() - self.data_time_start

    def on_train_step_end(self, run_context: RunContext) -> None:
        if self.data_time:
            self.data_time_start = time.time()

    def epoch_begin(self, run_context: RunContext) -> None:
        self.epoch_time = time.time()
        if self.data_time:
            self.data_time_sum = 0.0
            self.data_time_start = time.time()

    def epoch_end(self, run_context: RunContext) -> None:
        epoch_ms = (time.time() - self.epoch_time) * 1000
        cb_params = run_context.original_args()
        step_size = self.data_size
        batch_num = cb_params.get("batch_num")
        if isinstance(batch_num, int) and batch_num > 0:
            step_size = batch_num
        if not isinstance(step_size, int) or step_size <= 0:
            raise ValueError(f"TimeMonitor: the steps per epoch are unknown (data_size={self.data_size!r})")
        mode = cb_params.get("mode", "")
        log = f"{mode.title()} epoch time: {epoch_ms:5.3f} ms, per step time: {epoch_ms / step_size:5.3f} ms"
        if self.data_time:
            log += f" (data time: {self.data_time_sum * 1000 / step_size:5.3f} ms)"
        print(log, flush=True)


class ProgressBar(Callback):
    """A tqdm progress bar over the steps of each epoch, showing the loss.

    ``Model.train`` adds one by itself for long loops (``progress_bar='auto'``: when an epoch has at least 100
    steps and the output is a terminal).

    Args:
        leave (bool): keep each epoch's finished bar on screen. Default: ``True``.

    Examples:
        >>> from cellonnx.train import ProgressBar
        >>> bar = ProgressBar(leave=False)
        >>> print(bar.leave)
        False
    """

    def __init__(self, leave: bool = True) -> None:
        super().__init__()
        self.leave = leave
        self._bar: Any = None

    def on_train_epoch_begin(self, run_context: RunContext) -> None:
        try:
            from tqdm.auto import tqdm
        except ImportError:  # tqdm is a declared dependency; keep working without it
            tqdm = _TextBar
        cb = run_context.original_args()
        self._close()
        self._bar = tqdm(total=cb.get("batch_num"), desc=f"epoch {cb.get('cur_epoch_num')}/{cb.get('epoch_num')}",
                         leave=self.leave, unit="step")

    def on_train_step_end(self, run_context: RunContext) -> None:
        if self._bar is None:
            return
        self._bar.update(1)
        loss = _handle_loss(run_context.original_args().get("net_outputs"))
        if isinstance(loss, float):
            self._bar.set_postfix(loss=f"{loss:.4f}", refresh=False)

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        self._close()

    def on_train_end(self, run_context: RunContext) -> None:
        self._close()

    def _close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __exit__(self, *err: object) -> None:
        self._close()


class _TextBar:
    """A minimal stand-in for tqdm: one stderr line rewritten in place."""

    def __init__(self, total: int | None, desc: str, leave: bool = True, unit: str = "it") -> None:
        self.total, self.desc, self.leave, self.unit = total, desc, leave, unit
        self.n = 0
        self.postfix = ""

    def update(self, n: int = 1) -> None:
        self.n += n
        self._draw()

    def set_postfix(self, refresh: bool = True, **kw: Any) -> None:
        self.postfix = ", ".join(f"{k}={v}" for k, v in kw.items())

    def _draw(self) -> None:
        import sys
        total = "?" if self.total is None else self.total
        sys.stderr.write(f"\r{self.desc}: {self.n}/{total} {self.unit}s {self.postfix}")
        sys.stderr.flush()

    def close(self) -> None:
        import sys
        sys.stderr.write("\n" if self.leave else "\r")
        sys.stderr.flush()
