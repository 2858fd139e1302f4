"""Hostile and damaged checkpoint files against every reader, longer than the test suite runs it.

    python bench/hostile_files.py [--cases 2000] [--seed 0]

Part 1: each file of tests/converters/hostile.py read in a fresh process: outcome, seconds to refuse, the
process's peak RSS. Part 2: mutation fuzzing (bit flips, truncation, huge numbers, wrong magic, spliced bytes)
of a valid file of every format, ``--cases`` mutants per format, each read in this process: outcomes by
exception type, the slowest read, the largest allocation (tracemalloc) relative to the file. Prints Markdown
tables for bench/RESULTS.md; any outcome other than a read or a CheckpointError is a bug.
"""
from __future__ import annotations

import argparse
import collections
import random
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import bench_env  # noqa: F401  (first: PYTHONPATH's .pth files)

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cellonnx.converters import FORMATS, read  # noqa: E402
from cellonnx.converters.errors import CheckpointError  # noqa: E402

from cellonnx.progress import track  # noqa: E402
from tests.converters.hostile import HOSTILE  # noqa: E402
from tests.converters.test_fuzz import SEEDS, _mutate, _seeds  # noqa: E402

_CHILD = """
import sys, time
from cellonnx.converters import read
from cellonnx.converters.errors import CheckpointError
start = time.monotonic()
try:
    read(sys.argv[1]); outcome = "read"
except CheckpointError:
    outcome = "CheckpointError"
except BaseException as exc:
    outcome = type(exc).__name__
peak = next(line.split()[1] for line in open("/proc/self/status") if line.startswith("VmHWM:"))
print(outcome, time.monotonic() - start, peak)
"""


def hostile_table(folder: Path) -> list[str]:
    rows = ["| hostile file | size | outcome | seconds to refuse | peak RSS of the reading process |",
            "|---|---|---|---|---|"]
    baseline = subprocess.run([sys.executable, "-c", "import cellonnx.converters; print(next(line.split()[1] "
                               "for line in open('/proc/self/status') if line.startswith('VmHWM:')))"],
                              capture_output=True, text=True)
    base_kb = int(baseline.stdout.strip())
    for case, (name, build, _) in HOSTILE.items():
        path = folder / name
        build(path)
        done = subprocess.run([sys.executable, "-c", _CHILD, str(path)], capture_output=True, text=True,
                              timeout=600)
        outcome, seconds, rss = done.stdout.split()
        rows.append(f"| {case} | {path.stat().st_size:,} B | {outcome} | {float(seconds):.2f} | "
                    f"{int(rss) / 1024:.0f} MiB ({(int(rss) - base_kb) / 1024:+.0f} over importing) |")
    return rows


def fuzz_table(folder: Path, cases: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    rows = ["| format | mutants | read | CheckpointError | anything else | slowest read | largest allocation "
            "(tracemalloc) beyond the file's size |", "|---|---|---|---|---|---|---|"]
    for fmt in track(sorted(FORMATS), "formats"):
        counts: collections.Counter = collections.Counter()
        slowest, worst = 0.0, 0.0
        path = folder / f"fuzz{Path(SEEDS[fmt]).suffix}"
        seeds = _seeds(folder, fmt)
        for i in range(cases):
            data = _mutate(rng, seeds[i % len(seeds)])
            path.write_bytes(data)
            tracemalloc.start()
            start = time.monotonic()
            try:
                read(path, fmt)
                counts["read"] += 1
            except CheckpointError:
                counts["CheckpointError"] += 1
            except Exception as exc:  # noqa: BLE001 - counted: a bug to fix
                counts[type(exc).__name__] += 1
            slowest = max(slowest, time.monotonic() - start)
            worst = max(worst, tracemalloc.get_traced_memory()[1] - len(data))
            tracemalloc.stop()
        other = sum(v for k, v in counts.items() if k not in ("read", "CheckpointError"))
        rows.append(f"| {fmt} | {cases} | {counts['read']} | {counts['CheckpointError']} | {other} "
                    f"{dict((k, v) for k, v in counts.items() if k not in ('read', 'CheckpointError')) or ''} | "
                    f"{slowest * 1000:.0f} ms | {worst / 1024:.0f} KiB |")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        print("\n".join(hostile_table(Path(tmp))))
        print()
        print("\n".join(fuzz_table(Path(tmp), args.cases, args.seed)))


if __name__ == "__main__":
    main()
