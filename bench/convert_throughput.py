"""Checkpoint conversion throughput and peak memory (not run in CI).

    python bench/convert_throughput.py [--size-mb 1024] [--dir /tmp/cellonnx-bench]

Writes a ~size-mb float32 checkpoint in .pth, .ckpt and .params, then times each conversion in a fresh
subprocess (read + write through cellonnx.converters) and reports GB/s of checkpoint data and the child's peak RSS
(VmHWM) against the file size. Targets: >= 0.5 GB/s, peak RSS <= 1.5 x file size.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

CASES = [("src.pth", "out.safetensors"), ("src.ckpt", "out.safetensors"), ("src.params", "out.ckpt")]

CHILD = r"""
import json, os, sys, time
from cellonnx.converters import read, write
src, dst = sys.argv[1], sys.argv[2]
if len(sys.argv) > 3 and sys.argv[3] == "no-fsync":
    os.fsync = lambda fd: None  # measures the conversion without the durability flush
start = time.perf_counter()
tensors, _ = read(src)
write(dst, tensors)
elapsed = time.perf_counter() - start
peak_kb = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM"))
print(json.dumps({"seconds": elapsed, "peak_rss": peak_kb * 1024}))
"""


def make_tensors(size_mb: int) -> dict[str, np.ndarray]:
    """64 MiB-ish float32 tensors (like the layers of a large model) adding up to size_mb."""
    rng = np.random.default_rng(0)
    chunk = 16 * 1024 * 1024  # float32 elements per tensor: 64 MiB
    total = size_mb * 1024 * 1024 // 4
    out, i = {}, 0
    while total > 0:
        n = min(chunk, total)
        out[f"layers.{i}.weight"] = rng.standard_normal(n, dtype=np.float32).reshape(-1, 1024) if n % 1024 == 0 \
            else rng.standard_normal(n, dtype=np.float32)
        total -= n
        i += 1
    return out


def main() -> None:
    from cellonnx.progress import track

    parser = argparse.ArgumentParser()
    parser.add_argument("--size-mb", type=int, default=1024)
    parser.add_argument("--dir", default=None)
    parser.add_argument("--no-fsync", action="store_true",
                        help="skip the fsync of atomic writes (shows how much of the time is the disk flush)")
    args = parser.parse_args()
    from cellonnx.converters import write

    folder = Path(args.dir or tempfile.mkdtemp(prefix="cellonnx-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    tensors = make_tensors(args.size_mb)
    for src, _ in CASES:
        if not (folder / src).exists():
            write(folder / src, tensors)
    del tensors
    results = []
    for src, dst in track(CASES, "formats"):
        size = (folder / src).stat().st_size
        mode = ["no-fsync"] if args.no_fsync else []
        proc = subprocess.run([sys.executable, "-c", CHILD, str(folder / src), str(folder / dst), *mode],
                              capture_output=True, text=True, check=True, env=dict(os.environ))
        info = json.loads(proc.stdout)
        results.append({"conversion": f"{Path(src).suffix} -> {Path(dst).suffix}", "file_bytes": size,
                        "gb_per_s": size / info["seconds"] / 1e9, "seconds": info["seconds"],
                        "peak_rss_bytes": info["peak_rss"], "peak_rss_x_file": info["peak_rss"] / size})
        (folder / dst).unlink()
    print(f"{'conversion':<24} {'file MB':>9} {'s':>7} {'GB/s':>7} {'peak RSS MB':>12} {'x file':>7}")
    for r in results:
        print(f"{r['conversion']:<24} {r['file_bytes'] / 2**20:>9.0f} {r['seconds']:>7.2f} {r['gb_per_s']:>7.2f} "
              f"{r['peak_rss_bytes'] / 2**20:>12.0f} {r['peak_rss_x_file']:>7.2f}")
    print(json.dumps(results))


if __name__ == "__main__":
    main()
