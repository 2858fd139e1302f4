"""mxnet.monitor: Monitor, the statistics of a module's arrays (every operator's outputs in forward, every
backward node's outputs (``<node>_backward_output<i>``, the gradients of the node's inputs) in backward, then
the arguments and the auxiliary states) every ``interval`` batches, for debugging (``Module.install_monitor``
/ ``fit(monitor=...)``)."""
from __future__ import annotations

import logging
import re
from math import sqrt
from typing import Any

from cellonnx.mxnet import ndarray
from cellonnx.mxnet.ndarray import NDArray

__all__ = ["Monitor"]


class Monitor:
    """Collect a statistic of the arrays whose names match ``pattern`` every ``interval`` batches.

    Args:
        interval: batches between collections.
        stat_func: NDArray -> NDArray statistic. Default: ``norm(x) / sqrt(x.size)``.
        pattern: a regular expression the names must match. Default: '.*'.
        sort: sort the results by name. Default: False.
        monitor_all: also report every operator's inputs, forward and backward, as MXNet names them
            (``<node>_<input name>``, after the variable's own name for a variable input;
            ``<node>_backward_<input>`` for the backward nodes of the operators in
            cellonnx/gluon/symbol/monitor_inputs.json). Default: False.
    """

    def __init__(self, interval: int, stat_func: Any = None, pattern: str = ".*", sort: bool = False,
                 monitor_all: bool = False) -> None:
        if stat_func is None:
            def asum_stat(x: Any) -> Any:
                return ndarray.norm(x) / sqrt(x.size)

            stat_func = asum_stat
        self.stat_func = stat_func
        self.interval = interval
        self.activated = False
        self.queue: list[tuple[int, str, Any]] = []
        self.step = 0
        self.exes: list[Any] = []
        self.re_prog = re.compile(pattern)
        self.sort = sort
        self.monitor_all = monitor_all

        def stat_helper(name: str, array: Any) -> None:
            if not self.activated or not self.re_prog.match(name):
                return
            self.queue.append((self.step, name, self.stat_func(array)))

        self.stat_helper = stat_helper

    def install(self, exe: Any) -> None:
        """Install the monitor on an executor (several may be installed)."""
        exe.set_monitor_callback(self.stat_helper, self.monitor_all)
        self.exes.append(exe)

    def tic(self) -> None:
        """Start collecting for this batch (call before forward)."""
        if self.step % self.interval == 0:
            self.queue = []
            self.activated = True
        self.step += 1

    def toc(self) -> list[tuple[int, str, str]]:
        """Stop collecting: ``(step, name, statistic as text)`` for the batch (the arguments and auxiliary
        states added after the outputs)."""
        if not self.activated:
            return []
        for exe in self.exes:
            for name, array in zip(exe._symbol.list_arguments(), exe.arg_arrays):
                if self.re_prog.match(name):
                    self.queue.append((self.step, name, self.stat_func(array)))
            for name, array in zip(exe._symbol.list_auxiliary_states(), exe.aux_arrays):
                if self.re_prog.match(name):
                    self.queue.append((self.step, name, self.stat_func(array)))
        self.activated = False
        res = []
        if self.sort:
            self.queue.sort(key=lambda x: x[1])
        for n, k, v_list in self.queue:
            if isinstance(v_list, NDArray):
                v_list = [v_list]
            text = ""
            for v in v_list:
                if tuple(v.shape) == (1,):
                    text += str(v.asscalar()) + "\t"
                else:
                    text += str(v.asnumpy()) + "\t"
            res.append((n, k, text))
        self.queue = []
        return res

    def toc_print(self) -> None:
        """``toc`` and log the results."""
        for n, k, v in self.toc():
            logging.info("Batch: {:7d} {:30s} {:s}".format(n, k, v))  # noqa: UP032 - MXNet's format
