"""mxnet.profiler: a profile of the cellonnx operators run while the profiler's state is 'run' (every
primitive op of the eager forward and backward, timed as the op registry runs it), with MXNet's user
annotations (Domain, Task, Frame, Event, Counter, Marker). ``dump`` writes the Chrome trace JSON MXNet
writes (``{"traceEvents": [...], "displayTimeUnit": "ms"}``: process-name metadata, operator begin / end
pairs under ``cat: "operator"``, tasks and frames as async begin / end, counters, instant markers);
``dumps`` gives the aggregate statistics table (``aggregate_stats=True``).

Operators carry cellonnx's primitive names (``Mul``, ``Gemm`` ...), not MXNet's kernels; graphs run by
onnxruntime are profiled by onnxruntime itself.
"""
from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["Counter", "Domain", "Event", "Frame", "Marker", "Task", "dump", "dump_profile", "dumps", "pause",
           "profiler_set_config", "profiler_set_state", "resume", "scope", "set_config", "set_state"]

_CONFIG_KEYS = {"profile_all", "profile_symbolic", "profile_imperative", "profile_memory", "profile_api",
                "filename", "continuous_dump", "dump_period", "aggregate_stats", "profile_process"}


class _State:
    def __init__(self) -> None:
        self.config: dict[str, Any] = {"filename": "profile.json", "aggregate_stats": False}
        self.running = False
        self.paused = False
        self.events: list[dict[str, Any]] = []
        self.stats: dict[str, dict[str, list[float]]] = {}
        self.saved_apply: Any = None
        self.scope = "<unk>:"
        self.lock = threading.Lock()


_STATE = _State()
_PID_OPERATOR = 0


def _now_us() -> int:
    return int(time.time() * 1e6)


def _tid() -> int:
    return threading.get_ident()


def _record(category: str, name: str, begin_us: int, end_us: int) -> None:
    if end_us >= begin_us:
        _STATE.stats.setdefault(category, {}).setdefault(name, []).append((end_us - begin_us) / 1000.0)


def _hook() -> None:
    from cellonnx.ops import registry

    inner = registry.apply
    _STATE.saved_apply = inner

    def profiled_apply(op: Any, inputs: tuple, attrs: dict) -> Any:
        if _STATE.paused:
            return inner(op, inputs, attrs)
        begin = _now_us()
        try:
            return inner(op, inputs, attrs)
        finally:
            end = _now_us()
            name = op.name if _STATE.scope == "<unk>:" else _STATE.scope + op.name
            with _STATE.lock:
                tid = _tid()
                _STATE.events.append({"name": name, "cat": "operator", "ph": "B", "ts": begin,
                                      "pid": _PID_OPERATOR, "tid": tid})
                _STATE.events.append({"name": name, "cat": "operator", "ph": "E", "ts": end,
                                      "pid": _PID_OPERATOR, "tid": tid})
                _record("operator", name, begin, end)

    registry.apply = profiled_apply


def _unhook() -> None:
    from cellonnx.ops import registry

    if _STATE.saved_apply is not None:
        registry.apply = _STATE.saved_apply
        _STATE.saved_apply = None


def set_config(**kwargs: Any) -> None:
    """Configure the profiler: ``filename`` (where ``dump`` writes; default 'profile.json'),
    ``aggregate_stats`` (keep the statistics ``dumps`` reports), ``profile_all`` / ``profile_imperative``
    / ``profile_symbolic`` / ``profile_memory`` / ``profile_api``, ``continuous_dump``, ``dump_period``.

    Raises:
        ValueError: an unknown setting.
    """
    kwargs.pop("profile_process", None)
    unknown = set(kwargs) - _CONFIG_KEYS
    if unknown:
        raise ValueError(f"profiler.set_config: unknown setting(s) {sorted(unknown)}; known: "
                         f"{sorted(_CONFIG_KEYS)}")
    _STATE.config.update(kwargs)


def profiler_set_config(mode: str = "symbolic", filename: str = "profile.json") -> None:
    """Deprecated form of ``set_config``: mode 'all' or 'symbolic' and the file name."""
    set_config(profile_all=mode == "all", profile_symbolic=True, filename=filename)


def set_state(state: str = "stop", profile_process: str = "worker") -> None:
    """Start ('run') or stop ('stop') collecting.

    Raises:
        ValueError: a state other than 'run' or 'stop'.
    """
    if state not in ("run", "stop"):
        raise ValueError(f"profiler.set_state: state must be 'run' or 'stop', got {state!r}")
    if state == "run" and not _STATE.running:
        _hook()
        _STATE.running = True
    elif state == "stop" and _STATE.running:
        _unhook()
        _STATE.running = False


def profiler_set_state(state: str = "stop") -> None:
    """Deprecated form of ``set_state``."""
    set_state(state)


def pause(profile_process: str = "worker") -> None:
    """Stop recording without stopping the profiler."""
    _STATE.paused = True


def resume(profile_process: str = "worker") -> None:
    """Record again after ``pause``."""
    _STATE.paused = False


def _trace() -> dict[str, Any]:
    meta = [{"ph": "M", "args": {"name": "cpu/0"}, "pid": _PID_OPERATOR, "name": "process_name"}]
    pids = {}
    for e in _STATE.events:
        if e["cat"] != "operator" and e["cat"] not in pids:
            pids[e["cat"]] = e["pid"]
    meta += [{"ph": "M", "args": {"name": cat}, "pid": pid, "name": "process_name"}
             for cat, pid in pids.items()]
    return {"traceEvents": meta + list(_STATE.events), "displayTimeUnit": "ms"}


def dump(finished: bool = True, profile_process: str = "worker") -> None:
    """Write the trace collected so far to the configured file (Chrome trace JSON, viewable in
    chrome://tracing or Perfetto); ``finished`` clears it after."""
    path = _STATE.config.get("filename", "profile.json")
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(_trace(), f, indent=2)
    if finished:
        _STATE.events = []


def dump_profile() -> None:
    """Deprecated form of ``dump``."""
    dump(True)


_HEADER = ("Name                          Total Count        Time (ms)    Min Time (ms)    Max Time (ms)    "
           "Avg Time (ms)")
_RULE = ("----                          -----------        ---------    -------------    -------------    "
         "-------------")


def dumps(reset: bool = False, format: str = "table", sort_by: str = "total",
          ascending: bool = False) -> str:
    """The aggregate statistics (``set_config(aggregate_stats=True)``): per category (the operators, each
    domain), each name's count and total / min / max / average time in ms, as a table or JSON.

    Raises:
        ValueError: an unknown ``format`` or ``sort_by``.
    """
    if format not in ("table", "json"):
        raise ValueError(f"profiler.dumps: format must be 'table' or 'json', got {format!r}")
    keys = {"total": lambda v: sum(v), "avg": lambda v: sum(v) / len(v), "min": min, "max": max,
            "count": len}
    if sort_by not in keys:
        raise ValueError(f"profiler.dumps: sort_by must be one of {sorted(keys)}, got {sort_by!r}")
    stats = _STATE.stats if _STATE.config.get("aggregate_stats") else {}
    if format == "json":
        out = {"Time": {cat: {name: {"Total Count": len(v), "Total Time": sum(v), "Min Time": min(v),
                                     "Max Time": max(v), "Avg Time": sum(v) / len(v)}
                              for name, v in rows.items()} for cat, rows in stats.items()},
               "Unit": {"Time": "ms"}}
        text = json.dumps(out)
    else:
        lines = ["", "Profile Statistics:", "\tNote the difference in units for different entries."]
        for cat, rows in stats.items():
            lines += [cat, "=================", _HEADER, _RULE]
            ordered = sorted(rows.items(), key=lambda kv: keys[sort_by](kv[1]), reverse=not ascending)
            for name, v in ordered:
                lines.append(f"{name:<30}{len(v):>11}{sum(v):>17.4f}{min(v):>17.4f}{max(v):>17.4f}"
                             f"{sum(v) / len(v):>17.4f}")
            lines.append("")
        text = "\n".join(lines)
    if reset:
        _STATE.stats = {}
    return text


@contextmanager
def scope(name: str = "<unk>:", append_mode: bool = False) -> Iterator[None]:
    """Name the operators recorded inside: each is recorded as ``<name><op>`` (a ':' ends the name)."""
    name = name if name.endswith(":") else name + ":"
    old = _STATE.scope
    _STATE.scope = (old if append_mode and old != "<unk>:" else "") + name
    try:
        yield
    finally:
        _STATE.scope = old


class Domain:
    """A group of user annotations (their category in the trace)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.pid = abs(hash(("domain", name))) % (2**63)

    def __str__(self) -> str:
        return self.name

    def new_task(self, name: str) -> Task:
        """A Task of this domain."""
        return Task(self, name)

    def new_frame(self, name: str) -> Frame:
        """A Frame of this domain."""
        return Frame(self, name)

    def new_counter(self, name: str, value: int | None = None) -> Counter:
        """A Counter of this domain."""
        return Counter(self, name, value)

    def new_marker(self, name: str) -> Marker:
        """A Marker of this domain."""
        return Marker(self, name)


def _emit(event: dict[str, Any]) -> None:
    if _STATE.running and not _STATE.paused:
        with _STATE.lock:
            _STATE.events.append(event)


class _Duration:
    """A named span: ``start()`` / ``stop()`` (async begin / end events in the trace)."""

    _category: str = ""

    def __init__(self, domain: Domain, name: str) -> None:
        self.name = name
        self._domain = domain
        self._begin: int | None = None

    def start(self) -> None:
        """Begin the span."""
        self._begin = _now_us()
        _emit({"name": self.name, "cat": self._domain.name, "ph": "b", "ts": self._begin, "id": id(self),
               "pid": self._domain.pid, "tid": _tid()})

    def stop(self) -> None:
        """End the span."""
        end = _now_us()
        _emit({"name": self.name, "cat": self._domain.name, "ph": "e", "ts": end, "id": id(self),
               "pid": self._domain.pid, "tid": _tid()})
        if self._begin is not None and _STATE.running and not _STATE.paused:
            _record(self._domain.name, self.name, self._begin, end)
        self._begin = None

    def __str__(self) -> str:
        return self.name


class Task(_Duration):
    """A unit of work of a thread; the statistics of all its passes are added up."""


class Frame(_Duration):
    """A span like a Task, for per-iteration work (a training step)."""


class Event(_Duration):
    """A named span not tied to a domain."""

    def __init__(self, name: str) -> None:
        super().__init__(Domain("Custom Events"), name)


class Counter:
    """A named value of a domain recorded in the trace each time it changes (``+=``, ``-=``,
    ``set_value``)."""

    def __init__(self, domain: Domain, name: str, value: int | None = None) -> None:
        self.name = name
        self._domain = domain
        self._value = 0
        if value is not None:
            self.set_value(value)

    def _emit(self) -> None:
        _emit({"name": self.name, "cat": self._domain.name, "ph": "C", "ts": _now_us(),
               "args": {self.name: self._value}, "pid": self._domain.pid, "tid": _tid()})

    def set_value(self, value: int) -> None:
        """Set the value."""
        self._value = int(value)
        self._emit()

    def increment(self, delta: int = 1) -> None:
        """Add ``delta``."""
        self.set_value(self._value + delta)

    def decrement(self, delta: int = 1) -> None:
        """Subtract ``delta``."""
        self.set_value(self._value - delta)

    def __iadd__(self, delta: int) -> Counter:
        self.increment(delta)
        return self

    def __isub__(self, delta: int) -> Counter:
        self.decrement(delta)
        return self

    def __str__(self) -> str:
        return self.name


class Marker:
    """An instant event of a domain (``mark(scope)``: 'process', 'thread' or 'global')."""

    def __init__(self, domain: Domain, name: str) -> None:
        self.name = name
        self._domain = domain

    def mark(self, scope: str = "process") -> None:
        """Record the instant."""
        cat = self._domain.name + ",instant_marker"
        _emit({"name": self.name, "cat": cat, "ph": "n", "ts": _now_us(), "s": scope[0],
               "pid": abs(hash(("marker", cat))) % (2**63), "tid": _tid()})
