"""Dynamic batching: concurrent requests to one model are stacked on the first axis, run once, and split back.

Each model has an asyncio queue and one collector task. The collector takes the oldest request, waits for a
free run slot (one per executor thread, so while every slot is busy the queue fills and the next batch
grows, as in Triton's dynamic batcher with no queue delay), then adds queued requests whose other axes
match until the batch reaches `max_batch` rows. While more requests to the model are still being received
(body read and decoded: see `receiving`) and their bytes keep arriving, it waits for them too, until the
oldest request has waited `delay` seconds; with none on the way it sends the batch at once, so a lone request
never waits, and an upload that has stalled (no bytes for a quarter of the delay, or 100 ms) holds up nobody;
a batch that has reached one of the model's preferred sizes (Triton's preferred_batch_size) leaves without
waiting either. Requests that are not batched take a run slot too, so `slots` bounds a model's runs in flight
(Triton's instance count). The run happens
on a thread executor, so the event loop keeps accepting requests. Requests that do not fit are kept, in
order, for the next batch.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field

import numpy as np

from cellonnx.serve.errors import Unavailable
from cellonnx.serve.model import ServedModel

_log = logging.getLogger("cellonnx.serve")
RunObserver = Callable[[int, int, float], None]  # (rows, requests, seconds)


class Upload:
    """A request being received: ``progress()`` is called as its bytes arrive."""

    __slots__ = ("last",)

    def __init__(self) -> None:
        self.last = time.monotonic()

    def progress(self) -> None:
        self.last = time.monotonic()


@dataclass(eq=False)
class _Job:
    feeds: Mapping[str, np.ndarray]
    outputs: tuple[str, ...]
    rows: int
    key: Hashable
    future: asyncio.Future[dict[str, np.ndarray]]
    enqueued: float = field(default_factory=time.monotonic)


def _batch_key(feeds: Mapping[str, np.ndarray]) -> tuple[int, Hashable] | None:
    """(rows, key) for a request that may be merged, or None when its inputs disagree on the first axis.
    Requests merge only when their keys (every input's name, dtype and non-first axes) are equal."""
    rows = {a.shape[0] for a in feeds.values()}
    if len(rows) != 1:
        return None
    key = tuple(sorted((name, a.dtype.str, a.shape[1:]) for name, a in feeds.items()))
    return rows.pop(), key


class Scheduler:
    """Runs one model's requests on `executor`, batching them when the model allows it.

    Args:
        model: the served model.
        executor: the threads that call onnxruntime.
        slots: how many runs of this model may be in flight at once (the executor's size).
        max_batch: most rows per merged run; 0 or 1 switches batching off.
        delay: seconds the oldest request may wait for requests still being received to join its batch.
        observe: called with (rows, requests, seconds) after every run.
        preferred: batch sizes (rows) at which a batch leaves without waiting for more.
    """

    def __init__(self, model: ServedModel, executor: Executor, slots: int, max_batch: int, delay: float,
                 observe: RunObserver | None = None, preferred: Sequence[int] = ()) -> None:
        self.model = model
        self.batching = model.batchable and max_batch > 1
        self._executor = executor
        self._slots_count = max(1, slots)
        self._max_batch = max_batch
        self._delay = max(0.0, delay)
        self._observe = observe or (lambda rows, requests, seconds: None)
        self._preferred = frozenset(preferred)
        self._queue: asyncio.Queue[_Job] | None = None
        self._slots: asyncio.Semaphore | None = None
        self._collector: asyncio.Task[None] | None = None
        self._runs: set[asyncio.Task[None]] = set()
        self._carry: deque[_Job] = deque()
        self._uploads: set[Upload] = set()
        # an upload with no bytes for this long holds up nobody (bytes of a moving upload come every few ms)
        self._stall = min(max(self._delay / 4, 0.001), 0.1)

    async def start(self) -> None:
        if self._slots is None:
            self._slots = asyncio.Semaphore(self._slots_count)
        if self.batching and self._collector is None:
            self._queue = asyncio.Queue()
            self._collector = asyncio.create_task(self._collect(), name=f"batcher:{self.model.name}")
            self._collector.add_done_callback(self._collector_done)

    def _collector_done(self, task: asyncio.Task[None]) -> None:
        if not task.cancelled() and task.exception() is not None:
            _log.error("the batcher of model '%s' stopped", self.model.name, exc_info=task.exception())

    async def stop(self) -> None:
        if self._collector is not None:
            self._collector.cancel()
            await asyncio.gather(self._collector, return_exceptions=True)
            self._collector = None
        await asyncio.gather(*self._runs, return_exceptions=True)
        pending = list(self._carry)
        self._carry.clear()
        while self._queue is not None and not self._queue.empty():
            pending.append(self._queue.get_nowait())
        for job in pending:
            if not job.future.done():
                job.future.set_exception(Unavailable("the server is shutting down"))

    @contextlib.contextmanager
    def receiving(self) -> Iterator[Upload]:
        """Wraps the reading and decoding of a request to this model, so a forming batch knows it is coming;
        call the upload's ``progress()`` as bytes arrive. Leave it right before `infer` (no await in between)."""
        upload = Upload()
        self._uploads.add(upload)
        try:
            yield upload
        finally:
            self._uploads.discard(upload)

    def _uploads_moving(self) -> bool:
        now = time.monotonic()
        return any(now - upload.last <= self._stall for upload in self._uploads)

    async def infer(self, feeds: Mapping[str, np.ndarray], outputs: Sequence[str]) -> dict[str, np.ndarray]:
        """The requested outputs for one request's checked feeds."""
        batch = _batch_key(feeds) if self.batching else None
        if batch is None or self._queue is None or self._collector is None or self._collector.done():
            first = next(iter(feeds.values()), None)
            rows = first.shape[0] if first is not None and first.ndim else 1
            if self._slots is None:
                return await self._run(feeds, tuple(outputs), rows, 1)
            async with self._slots:
                return await self._run(feeds, tuple(outputs), rows, 1)
        future: asyncio.Future[dict[str, np.ndarray]] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_Job(feeds, tuple(outputs), batch[0], batch[1], future))
        return await future

    async def _run(self, feeds: Mapping[str, np.ndarray], outputs: tuple[str, ...], rows: int,
                   requests: int) -> dict[str, np.ndarray]:
        loop = asyncio.get_running_loop()
        start = time.perf_counter()
        result = await loop.run_in_executor(self._executor, self.model.run, feeds, outputs)
        self._observe(rows, requests, time.perf_counter() - start)
        return result

    def _next_ready(self) -> _Job | None:
        if self._carry:
            return self._carry.popleft()
        assert self._queue is not None
        return None if self._queue.empty() else self._queue.get_nowait()

    async def _collect(self) -> None:
        assert self._queue is not None and self._slots is not None
        loop = asyncio.get_running_loop()
        while True:
            first = self._next_ready() or await self._queue.get()
            await self._slots.acquire()
            jobs, rows, held = [first], first.rows, []
            deadline = first.enqueued + self._delay
            while rows < self._max_batch:
                job = self._next_ready()
                if job is None:
                    wait = deadline - time.monotonic()
                    if wait <= 0 or rows in self._preferred or not self._uploads_moving():
                        break
                    try:  # (in steps, to see an upload stall)
                        job = await asyncio.wait_for(self._queue.get(), min(wait, self._stall))
                    except asyncio.TimeoutError:
                        continue
                if job.key == first.key and rows + job.rows <= self._max_batch:
                    jobs.append(job)
                    rows += job.rows
                else:
                    held.append(job)
            self._carry.extendleft(reversed(held))
            task = loop.create_task(self._execute(jobs))
            self._runs.add(task)
            task.add_done_callback(self._runs.discard)

    async def _execute(self, jobs: list[_Job]) -> None:
        assert self._slots is not None
        try:
            jobs = [j for j in jobs if not j.future.cancelled()]  # clients that went away
            if len(jobs) > 1:
                try:
                    results = await self._run_merged(jobs)
                except Exception:  # noqa: BLE001
                    results = None  # run them one by one below, so each request meets its own error
                if results is not None:
                    for job, result in zip(jobs, results):
                        if not job.future.done():
                            job.future.set_result(result)
                    return
            for job in jobs:
                try:
                    result = await self._run(job.feeds, job.outputs, job.rows, 1)
                except Exception as exc:  # noqa: BLE001 - handed to the waiting request
                    if not job.future.done():
                        job.future.set_exception(exc)
                else:
                    if not job.future.done():
                        job.future.set_result(result)
        finally:
            self._slots.release()

    async def _run_merged(self, jobs: list[_Job]) -> list[dict[str, np.ndarray]] | None:
        """One run over the stacked inputs, split back per job; None when an output's first axis does not
        follow the batch (the model is then not row-wise and each job runs alone)."""
        names = list(jobs[0].feeds)
        rows = sum(j.rows for j in jobs)
        feeds = {name: np.concatenate([j.feeds[name] for j in jobs]) for name in names}
        wanted = {name for j in jobs for name in j.outputs}
        outputs = tuple(name for name in self.model.output_names if name in wanted)
        merged = await self._run(feeds, outputs, rows, len(jobs))
        if any(a.ndim == 0 or a.shape[0] != rows for a in merged.values()):
            return None
        results, start = [], 0
        for job in jobs:
            stop = start + job.rows
            results.append({name: merged[name][start:stop] for name in job.outputs})
            start = stop
        return results
