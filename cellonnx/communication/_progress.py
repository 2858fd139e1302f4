"""Completing non-blocking MPI requests while the caller computes.

MPI advances a non-blocking collective only inside MPI calls. Where MPI runs with MPI_THREAD_MULTIPLE
(mpi4py's default), one background thread tests the requests in flight, in the order they were started,
sleeping briefly between tests so that it takes little CPU from the computation beside it; the GIL is
released inside MPI and during the sleeps. While a thread waits for a request there is no computation to
spare the CPU for, so the thread tests without sleeping until the wait ends. Elsewhere the requests
complete when they are waited for.
"""
from __future__ import annotations

import queue
import threading
import time
from typing import Any

from cellonnx.communication import _mpi

POLL_SECONDS = 2e-4


class Pending:
    """One request in flight: ``wait()`` returns once it completed."""

    __slots__ = ("done", "request")

    def __init__(self, request: Any, done: threading.Event | None) -> None:
        self.request = request
        self.done = done

    def wait(self) -> None:
        if self.done is None:
            self.request.Wait()
            return
        if self.done.is_set():
            return
        ENGINE.hurry(1)   # someone waits: the thread tests without sleeping until they stop
        try:
            self.done.wait()
        finally:
            ENGINE.hurry(-1)

    def test(self) -> bool:
        return self.request.Test() if self.done is None else self.done.is_set()


class _Engine:
    def __init__(self) -> None:
        self.queue: queue.SimpleQueue = queue.SimpleQueue()
        self.thread: threading.Thread | None = None
        self.waiters = 0   # threads blocked in Pending.wait: test without sleeping while there are any
        self.lock = threading.Lock()

    def hurry(self, delta: int) -> None:
        with self.lock:
            self.waiters += delta

    def _run(self) -> None:
        while True:
            request, done = self.queue.get()
            while not request.Test():
                if not self.waiters:
                    time.sleep(POLL_SECONDS)
            done.set()

    def submit(self, request: Any) -> Pending:
        mpi = _mpi.STATE.mpi
        if mpi.Query_thread() < mpi.THREAD_MULTIPLE:
            return Pending(request, None)
        if self.thread is None:
            self.thread = threading.Thread(target=self._run, name="cellonnx-mpi-progress", daemon=True)
            self.thread.start()
        done = threading.Event()
        self.queue.put((request, done))
        return Pending(request, done)


ENGINE = _Engine()


def submit(request: Any) -> Pending:
    """Hand a started request to the progress thread; wait on the returned handle."""
    return ENGINE.submit(request)


def direct(request: Any) -> Pending:
    """A handle on a started request that its waiter completes itself (started just before it is waited
    for: nothing to overlap)."""
    return Pending(request, None)


def progress(pending: list[Pending]) -> None:
    """Advance requests that have no progress thread (a call into MPI)."""
    raw = [p.request for p in pending if p.done is None]
    if raw:
        _mpi.STATE.mpi.Request.Testall(raw)
