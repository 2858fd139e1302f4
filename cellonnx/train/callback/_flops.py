"""FlopsUtilizationCollector: the model FLOPs utilization (MFU) and hardware FLOPs utilization (HFU) of each
training / evaluation step."""
from __future__ import annotations

import math
import os
import stat
import time
from typing import Any

import numpy as np

from cellonnx.ops import registry
from cellonnx.train.callback._callback import Callback, RunContext

__all__ = ["FlopsUtilizationCollector"]


def _size(shape: Any) -> int:
    return int(np.prod(shape, dtype=np.int64)) if len(shape) else 1


def op_flops(name: str, inputs: tuple, outs: tuple) -> int:
    """The multiply-add FLOPs (2 per multiply-accumulate) of one call of a matrix product or convolution
    primitive; 0 for every other op (MindSpore counts MatMul, BatchMatMul, Conv2D and attention the same
    way)."""
    if name in ("MatMul", "Gemm"):
        return 2 * _size(outs[0].shape) * int(inputs[0].shape[-1])
    if name == "Conv":         # x, w (Cout, Cin/groups, *kernel)
        return 2 * _size(outs[0].shape) * _size(inputs[1].shape[1:])
    if name == "ConvTranspose":  # u, w (Cin, Cout/groups, *kernel)
        return 2 * _size(inputs[0].shape) * _size(inputs[1].shape[1:])
    if name == "ConvGradWeight":  # x, dy -> dw (Cout, Cin/groups, *kernel)
        return 2 * _size(inputs[1].shape) * _size(outs[0].shape[1:])
    return 0


class _FlopCounter:
    """Adds up ``op_flops`` of every primitive call while active (chained to any trace hook already set)."""

    def __init__(self) -> None:
        self.flops = 0
        self._saved: Any = None

    def __enter__(self) -> _FlopCounter:
        self._saved = registry.TRACE_HOOK
        saved = self._saved

        def hook(op: Any, inputs: tuple, attrs: dict, outs: tuple) -> None:
            self.flops += op_flops(op.name, inputs, outs)
            if saved is not None:
                saved(op, inputs, attrs, outs)

        registry.TRACE_HOOK = hook
        return self

    def __exit__(self, *err: object) -> None:
        registry.TRACE_HOOK = self._saved


class FlopsUtilizationCollector(Callback):
    """Count the FLOPs of a step (the forward and backward matrix products and convolutions) and report the
    model / hardware FLOPs utilization, ``FLOPs / step time / computility``.

    The FLOPs are counted on the first step, from the primitives it calls (cellonnx runs eagerly, so no graph
    compilation is needed; MindSpore counts from its compiled graph and needs graph mode). Without
    recomputation
    the model and hardware FLOPs are equal, and on one device the full and shard counts too. Then, after each
    step whose number is not a multiple of ``data_size`` (MindSpore's rule), it prints
    ``Train per step time: ... ms mfu:...% hfu:...%``.

    Args:
        data_size (int): steps between reports (> 0).
        computility (int): the device's peak FLOPs per second. Default: ``1``.
        full_flops (bool): report the full model's FLOPs rather than one shard's. Default: ``True``.
        enable_ma_collector (bool): also write ``flops_rank_0.txt`` and ``time_step_rank_0.txt`` to
            ``$MA_LOG_DIR`` (default ``./``). Default: ``False``.

    Examples:
        >>> from cellonnx.train import FlopsUtilizationCollector, Model
        >>> net = nn.Dense(4, 2)
        >>> data = {"x": np.random.rand(64, 4).astype(np.float32), "y": np.arange(64, dtype=np.int32) % 2}
        >>> dataset = ms.dataset.NumpySlicesDataset(data, shuffle=False).batch(16)
        >>> loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        >>> model = Model(net, loss_fn, nn.Momentum(net.trainable_params(), 0.01, 0.9))
        >>> model.train(2, dataset, callbacks=[FlopsUtilizationCollector(dataset.get_dataset_size(),
        ...                                                              computility=10e6)])
        Full model flops is 512, Full hardware flops is 512, ... Shard hardware flops is 512.
        Train per step time: ... ms mfu:...% hfu:...%
        ...
    """

    def __init__(self, data_size: int, computility: Any = 1, full_flops: bool = True,
                 enable_ma_collector: bool = False) -> None:
        super().__init__()
        for name, v in (("full_flops", full_flops), ("enable_ma_collector", enable_ma_collector)):
            if not isinstance(v, bool):
                raise TypeError(f"For 'FlopsUtilizationCollector', the '{name}' must be a bool, but got "
                                f"{type(v).__name__}.")
        if isinstance(data_size, bool) or not isinstance(data_size, int) or data_size <= 0:
            raise TypeError("For 'FlopsUtilizationCollector', the 'data_size' must be a positive int, but "
                            f"got {data_size!r}.")
        self.data_size = data_size
        self.computility = computility
        self.full_flops = full_flops
        self.ma = enable_ma_collector
        self.verbose = not (computility == 1 and enable_ma_collector)
        self.step_time = time.time()
        self.full_model_flops = self.full_hardware_flops = 0
        self.shard_model_flops = self.shard_hardware_flops = 0
        self.full_mfu = self.full_hfu = self.shard_mfu = self.shard_hfu = 0.0
        self.mfu_calculated = False
        self.time_step_path = ""
        self.batch_step_size: int | None = None
        self._counter: _FlopCounter | None = None

    def step_begin(self, run_context: RunContext) -> None:
        if self.batch_step_size is None:
            batch_num = run_context.original_args().get("batch_num")
            self.batch_step_size = batch_num if isinstance(batch_num,
                                                           int) and batch_num > 0 else self.data_size
        if not self.mfu_calculated and self._counter is None:
            self._counter = _FlopCounter().__enter__()
        self.step_time = time.time()

    def _finish_count(self) -> None:
        counter, self._counter = self._counter, None
        if counter is None:
            return
        counter.__exit__()
        flops = counter.flops
        self.full_model_flops = self.full_hardware_flops = flops
        self.shard_model_flops = self.shard_hardware_flops = flops
        self.full_mfu = self.full_hfu = flops / self.computility
        self.shard_mfu = self.shard_hfu = flops / self.computility
        self.mfu_calculated = True
        if self.ma:
            folder = os.path.realpath(os.getenv("MA_LOG_DIR", "./"))
            stamp = round(time.time() * 1000)
            self.time_step_path = os.path.join(folder, "time_step_rank_0.txt")
            with os.fdopen(os.open(os.path.join(folder, "flops_rank_0.txt"), os.O_WRONLY | os.O_CREAT,
                                   stat.S_IWUSR | stat.S_IRUSR), "w") as f:
                f.write(f'flops{{type="model_flops", rank_id="0"}} {self.shard_model_flops} {stamp}\n')
                f.write(f'flops{{type="hardware_flops", rank_id="0"}} {self.shard_hardware_flops} {stamp}\n')
        if self.verbose:
            if self.full_flops:
                print(f"Full model flops is {self.full_model_flops}, Full hardware flops is "
                      f"{self.full_hardware_flops}, Shard model flops is {self.shard_model_flops}, Shard "
                      f"hardware flops is {self.shard_hardware_flops}.", flush=True)
            else:
                print(f"Shard model flops is {self.shard_model_flops}, Shard hardware flops is "
                      f"{self.shard_hardware_flops}.", flush=True)

    def step_end(self, run_context: RunContext) -> None:
        step_ms = (time.time() - self.step_time) * 1000
        self._finish_count()
        cb_params = run_context.original_args()
        if cb_params.get("dataset_sink_mode") and self.batch_step_size:
            step_ms /= self.batch_step_size
        if self.ma and self.time_step_path:
            with os.fdopen(os.open(self.time_step_path, os.O_WRONLY | os.O_CREAT,
                                   stat.S_IWUSR | stat.S_IRUSR),
                           "w") as f:
                f.write(f'time_monitor{{type="per_step_time", rank_id="0"}} {step_ms} '
                        f"{round(time.time() * 1000)}\n")
        if self.verbose and cb_params.cur_step_num % self.data_size:
            mfu, hfu = (self.full_mfu, self.full_hfu) if self.full_flops else (self.shard_mfu, self.shard_hfu)
            seconds = max(step_ms, 1e-9) / 1000

            def pct(label: str, value: float) -> str:
                return f"{label}{math.floor(value * 10 ** 4) / 10 ** 2:.2f}%"

            print(f"{cb_params.mode.title()} per step time: {step_ms:5.3f} ms" + pct(" mfu:", mfu / seconds)
                  + pct(" hfu:", hfu / seconds), flush=True)

    def end(self, run_context: RunContext) -> None:
        if self._counter is not None:
            self._counter.__exit__()
            self._counter = None
