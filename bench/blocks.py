"""Timing several implementations side by side without one stealing the cores from the next.

Idle OpenBLAS and onnxruntime thread pools keep spinning for a while after their work, so whatever runs right
after them runs slower: interleaved step by step in one process, PyTorch's LeNet-5 step read 7.1 ms against
2.5-3.1 ms in blocks. Each side therefore runs blocks of several steps, with a pause between blocks (long
enough for the pools to go to sleep), the order of the sides alternating from round to round so that
drifting load from other processes hits all of them alike.
"""
from __future__ import annotations

import time
from collections.abc import Callable

PAUSE_S = 0.3


def timed(fn: Callable[[], object], n: int, clock: Callable[[], float] = time.perf_counter) -> list[float]:
    """Seconds taken by each of ``n`` calls of ``fn``, by ``clock``: wall time, or ``time.thread_time`` for
    the CPU time of the calling thread (with one onnxruntime / BLAS thread all the work runs there, and
    other processes' load does not count)."""
    out = []
    for _ in range(n):
        t = clock()
        fn()
        out.append(clock() - t)
    return out


def in_blocks(sides: dict[str, Callable[[int], list[float]]], rounds: int, steps: int,
              pause: float = PAUSE_S) -> dict[str, list[float]]:
    """Every side's step times: ``sides[name](n)`` runs n steps and returns their times; each round runs one
    block of ``steps`` per side, pausing ``pause`` seconds before every block."""
    times: dict[str, list[float]] = {k: [] for k in sides}
    order = list(sides)
    for r in range(rounds):
        for name in order if r % 2 == 0 else order[::-1]:
            time.sleep(pause)
            times[name] += sides[name](steps)
    return times
