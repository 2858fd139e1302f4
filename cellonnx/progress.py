"""Progress display for long command-line jobs (training, converting and exporting large files, the porting
and benchmark scripts): tqdm bars on stderr when it is a terminal, nothing otherwise (logs, pipes, CI).

``CELLONNX_PROGRESS=0`` turns the bars off on a terminal too; ``CELLONNX_PROGRESS=1`` forces them on.
"""
from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

__all__ = ["bar", "enabled", "stage", "track", "write_progress"]

T = TypeVar("T")


def enabled(stream: Any = None) -> bool:
    """Whether bars are shown: CELLONNX_PROGRESS when set, else whether ``stream`` (stderr) is a terminal."""
    forced = os.environ.get("CELLONNX_PROGRESS", "").strip()
    if forced in ("0", "1"):
        return forced == "1"
    stream = sys.stderr if stream is None else stream
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def bar(total: float | None = None, desc: str = "", unit: str = "it", unit_scale: bool = False,
        leave: bool = False) -> Any:
    """A tqdm bar on stderr (``update(n)``, ``set_postfix_str``, ``close``; a context manager), silent and
    free when bars are off. ``unit='B', unit_scale=True`` counts bytes as KB / MB / GB."""
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=desc, unit=unit, unit_scale=unit_scale,
                unit_divisor=1024 if unit == "B" else 1000, leave=leave, disable=not enabled(),
                file=sys.stderr, dynamic_ncols=True)


def track(iterable: Iterable[T], desc: str = "", total: int | None = None, unit: str = "it",
          leave: bool = False) -> Iterator[T]:
    """``iterable``'s items, with a bar counting them when bars are on."""
    if not enabled():
        yield from iterable
        return
    if total is None:
        total = len(iterable) if hasattr(iterable, "__len__") else None  # type: ignore[arg-type]
    with bar(total, desc, unit, leave=leave) as b:
        for item in iterable:
            yield item
            b.update(1)


@contextmanager
def stage(desc: str) -> Iterator[None]:
    """A step with no count to show (tracing a network, say): ``desc ...`` on stderr while it runs, then the
    seconds it took, when bars are on."""
    if not enabled():
        yield
        return
    start = time.perf_counter()
    print(f"{desc} ...", end="", file=sys.stderr, flush=True)
    try:
        yield
    finally:
        print(f"\r{desc}: {time.perf_counter() - start:.1f} s", file=sys.stderr, flush=True)


@contextmanager
def write_progress(total_bytes: int | None, desc: str) -> Iterator[None]:
    """Count the bytes the converters write (checkpoints, ONNX models and their data) on a bar."""
    from cellonnx.converters.binio import on_bytes_written

    if not enabled():
        yield
        return
    with bar(total_bytes, desc, unit="B", unit_scale=True) as b, on_bytes_written(b.update):
        yield
