"""``mindspore.Profiler`` over cellonnx's eager execution: the wall time of every primitive op run while
profiling (forward and backward, as the op registry runs them), per op and per step.

    >>> prof = ms.Profiler(output_path="./data")   # starts collecting (start_profile=True)
    >>> y = nn.Dense(3, 2)(ops.ones((4, 3)))       # the ops to profile (a training loop, say)
    >>> prof.analyse()                             # stops and writes ./data/profiler/...
    >>> sorted((row["op_name"], row["calls"]) for row in prof.statistics())  # (listed slowest first)
    [('Fill', 1), ('Gemm', 1)]

``analyse`` writes ``op_statistic.csv`` (op name, calls, total / average / max time in microseconds, share of
the profiled time), ``step_trace_time.csv`` (the time of each ``step()``), ``trace_view.json`` (one Chrome
trace event per op call, viewable in chrome://tracing or Perfetto) and ``profiler_metadata.json``
(``add_metadata``). MindSpore's device-side options (``profiler_level``, ``aic_metrics``, ``activities`` ...)
are accepted and recorded; there is no NPU here to collect them from. Graphs run by onnxruntime (compiled
cells, ``serve``) are not broken into ops: onnxruntime's own profiler does that
(``SessionOptions.enable_profiling``).
"""
from __future__ import annotations

import csv
import json
import os
import time
from typing import Any

from cellonnx.ops import registry

__all__ = ["Profiler"]

_ACTIVE: list[Profiler] = []


class Profiler:
    """Collect the time of each eager op (see the module docstring).

    Args:
        output_path (str, optional): where ``analyse`` writes (under ``<output_path>/profiler``).
            Default: ``"./data"``.
        start_profile (bool, optional): start collecting at construction. Default: ``True``.
        **kwargs: MindSpore's other options, recorded in the metadata.

    Raises:
        RuntimeError: another Profiler is collecting.

    Examples:
        >>> prof = ms.Profiler(output_path="./data")
        >>> y = ops.relu(ops.ones((4, 3)) - 0.5)
        >>> prof.analyse()
        >>> print(sorted((row["op_name"], row["calls"]) for row in prof.statistics()))
        [('Fill', 1), ('Relu', 1), ('Sub', 1)]
    """

    def __init__(self, **kwargs: Any) -> None:
        self.output_path = os.path.abspath(str(kwargs.pop("output_path", "./data")))
        self.start_profile = bool(kwargs.pop("start_profile", True))
        self.options = dict(kwargs)
        self.events: list[tuple[str, float, float, int]] = []  # (op, start s, duration s, step)
        self.step_times: list[float] = []
        self.metadata: dict[str, Any] = {}
        self._step = 0
        self._step_start: float | None = None
        self._origin = time.perf_counter()
        self._saved_apply: Any = None
        if self.start_profile:
            self.start()

    # ---- collecting
    @property
    def is_running(self) -> bool:
        return self._saved_apply is not None

    def start(self) -> None:
        """Start collecting (a no-op when collecting already)."""
        if self.is_running:
            return
        if _ACTIVE:
            raise RuntimeError("Profiler.start: another Profiler is collecting; stop it first")
        inner = registry.apply
        events, origin = self.events, self._origin

        def timed_apply(op: Any, inputs: tuple, attrs: dict) -> Any:
            begin = time.perf_counter()
            try:
                return inner(op, inputs, attrs)
            finally:
                events.append((op.name, begin - origin, time.perf_counter() - begin, self._step))

        self._saved_apply = inner
        registry.apply = timed_apply
        _ACTIVE.append(self)
        self._step_start = time.perf_counter()

    def stop(self) -> None:
        """Stop collecting (a no-op when not collecting)."""
        if not self.is_running:
            return
        registry.apply = self._saved_apply
        self._saved_apply = None
        _ACTIVE.remove(self)

    def step(self) -> None:
        """Mark the end of a training step: the time since the previous one is recorded."""
        now = time.perf_counter()
        if self._step_start is not None:
            self.step_times.append(now - self._step_start)
        self._step_start = now
        self._step += 1

    def add_metadata(self, key: str, value: str) -> None:
        """Record a string under ``key`` in profiler_metadata.json."""
        if not isinstance(key, str) or not isinstance(value, str):
            raise TypeError("Profiler.add_metadata: key and value must be str")
        self.metadata[key] = value

    def add_metadata_json(self, key: str, value: str) -> None:
        """Record a JSON string, stored decoded, under ``key``."""
        if not isinstance(key, str) or not isinstance(value, str):
            raise TypeError("Profiler.add_metadata_json: key and value must be str")
        self.metadata[key] = json.loads(value)

    # ---- results
    def statistics(self) -> list[dict[str, Any]]:
        """Per op: name, calls, total / average / max microseconds and share of the profiled op time,
        largest total first."""
        totals: dict[str, list[float]] = {}
        for name, _, duration, _ in self.events:
            totals.setdefault(name, []).append(duration)
        whole = sum(sum(v) for v in totals.values()) or 1.0
        rows = [{"op_name": name, "calls": len(v), "total_us": sum(v) * 1e6, "avg_us": sum(v) / len(v) * 1e6,
                 "max_us": max(v) * 1e6, "ratio": sum(v) / whole} for name, v in totals.items()]
        return sorted(rows, key=lambda r: -r["total_us"])

    def op_analyse(self, op_name: str | list[str], device_id: int | None = None) -> str:
        """The statistics of ``op_name`` (a name or a list of names) as a JSON string."""
        names = [op_name] if isinstance(op_name, str) else list(op_name)
        if not names or not all(isinstance(n, str) for n in names):
            raise TypeError("Profiler.op_analyse: op_name must be a str or a list of str")
        return json.dumps([row for row in self.statistics() if row["op_name"] in names])

    def analyse(self, offline_path: str | None = None, pretty: bool = False, step_list: Any = None,
                mode: str = "sync") -> None:
        """Stop collecting and write the results (see the module docstring) under
        ``<output_path or offline_path>/profiler``; ``step_list`` keeps only those steps' ops."""
        self.stop()
        if not self.step_times and self._step_start is not None:  # no step() called: the run is one step
            self.step_times.append(time.perf_counter() - self._step_start)
        events = self.events if step_list is None else [e for e in self.events if e[3] in set(step_list)]
        folder = os.path.join(offline_path or self.output_path, "profiler")
        os.makedirs(folder, exist_ok=True)
        kept, self.events = self.events, events
        try:
            rows = self.statistics()
        finally:
            self.events = kept
        with open(os.path.join(folder, "op_statistic.csv"), "w", newline="") as f:
            writer = csv.DictWriter(f, ["op_name", "calls", "total_us", "avg_us", "max_us", "ratio"])
            writer.writeheader()
            writer.writerows(rows)
        with open(os.path.join(folder, "step_trace_time.csv"), "w", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(["step", "time_us"])
            writer.writerows([i, t * 1e6] for i, t in enumerate(self.step_times))
        trace = [{"name": name, "ph": "X", "ts": start * 1e6, "dur": duration * 1e6, "pid": os.getpid(),
                  "tid": 0, "args": {"step": step}} for name, start, duration, step in events]
        with open(os.path.join(folder, "trace_view.json"), "w") as f:
            json.dump(trace, f, indent=1 if pretty else None)
        with open(os.path.join(folder, "profiler_metadata.json"), "w") as f:
            json.dump({**self.metadata, "options": {k: repr(v) for k, v in self.options.items()}}, f,
                      indent=1 if pretty else None)

    @classmethod
    def offline_analyse(cls, path: str, pretty: bool = False, step_list: Any = None,
                        data_simplification: bool = True) -> None:
        """Rewrite ``op_statistic.csv`` under ``<path>/profiler`` from its ``trace_view.json``."""
        folder = os.path.join(path, "profiler")
        with open(os.path.join(folder, "trace_view.json")) as f:
            trace = json.load(f)
        prof = cls(output_path=path, start_profile=False)
        prof.events = [(e["name"], e["ts"] / 1e6, e["dur"] / 1e6, e.get("args", {}).get("step", 0))
                       for e in trace]
        prof.analyse(pretty=pretty, step_list=step_list)

    def __enter__(self) -> Profiler:
        self.start()
        return self

    def __exit__(self, exc_type: Any, exc_value: Any, traceback: Any) -> None:
        self.stop()

    def __del__(self) -> None:
        try:
            self.stop()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass
