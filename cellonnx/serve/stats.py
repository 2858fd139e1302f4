"""Per-version inference statistics in the form of Triton's statistics extension (ModelStatistics): what
`GET /v2/models/NAME/stats` and the gRPC ModelStatistics call answer. Updated on the event loop only."""
from __future__ import annotations

import time
from typing import Any

_PHASES = ("success", "fail", "queue", "compute_input", "compute_infer", "compute_output", "cache_hit",
           "cache_miss")


class _Duration:
    __slots__ = ("count", "ns")

    def __init__(self) -> None:
        self.count = 0
        self.ns = 0

    def add(self, seconds: float, count: int = 1) -> None:
        self.count += count
        self.ns += int(seconds * 1e9)

    def json(self) -> dict[str, int]:
        return {"count": self.count, "ns": self.ns}


class Statistics:
    """Counters of one served model version.

    inference_count: rows inferred for successful requests (a batch of 8 counts 8); execution_count:
    onnxruntime runs (a merged batch counts once); success/fail: requests and their time in the server;
    compute_infer: time inside onnxruntime per run; batch_stats: runs by batch size. The phases this server
    does not time apart (queue, compute_input/output, cache) stay at zero.
    """

    def __init__(self) -> None:
        self.last_inference_ms = 0
        self.inference_count = 0
        self.execution_count = 0
        self.phases = {name: _Duration() for name in _PHASES}
        self.batches: dict[int, _Duration] = {}

    def observe_request(self, seconds: float, rows: int, ok: bool) -> None:
        """One request answered after `seconds` in the server."""
        self.last_inference_ms = int(time.time() * 1000)
        if ok:
            self.phases["success"].add(seconds)
            self.inference_count += rows
        else:
            self.phases["fail"].add(seconds)

    def observe_run(self, rows: int, seconds: float) -> None:
        """One onnxruntime run over `rows` rows."""
        self.execution_count += 1
        self.phases["compute_infer"].add(seconds)
        self.batches.setdefault(rows, _Duration()).add(seconds)

    def json(self, name: str, version: str) -> dict[str, Any]:
        """This version's entry of `model_stats`, in the JSON form of Triton's ModelStatistics message."""
        return {"name": name, "version": version, "last_inference": self.last_inference_ms,
                "inference_count": self.inference_count, "execution_count": self.execution_count,
                "inference_stats": {k: v.json() for k, v in self.phases.items()},
                "batch_stats": [{"batch_size": size, "compute_input": {"count": d.count, "ns": 0},
                                 "compute_infer": d.json(), "compute_output": {"count": d.count, "ns": 0}}
                                for size, d in sorted(self.batches.items())]}
