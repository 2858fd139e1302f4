"""gluon.data throughput: reading a RecordIO file (cellonnx's Python reader against MXNet 1.9.1's C++ one,
when MXNet's environment is there) and a DataLoader over ImageRecordDataset with an image pipeline, in this
process, with worker processes and with worker threads.

    python bench/gluon_data.py [--records 2000] [--blocks 3] [--mxnet /work/envs/mxnet/bin/python]

Timings are blocks of whole passes with a pause between blocks; the figures are the median block (the
DataLoader's epochs after a first one, which starts the workers and compiles the hybridized transforms).
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

READ_MXNET = """
import sys, time
import mxnet as mx
rec = mx.recordio.MXRecordIO(sys.argv[1], 'r')
t = time.perf_counter(); n = 0
while True:
    r = rec.read()
    if r is None: break
    n += len(r)
print(time.perf_counter() - t, n)
"""


def write_rec(root: Path, records: int) -> Path:
    import cellonnx.mxnet as mx

    rng = np.random.default_rng(0)
    idx, path = root / "bench.idx", root / "bench.rec"
    rec = mx.recordio.MXIndexedRecordIO(str(idx), str(path), "w")
    yy, xx = np.mgrid[0:64, 0:64]
    for i in range(records):
        img = np.stack([xx * 3, yy * 3, (xx + yy) * 2], -1) + rng.integers(0, 30, (64, 64, 3))
        rec.write_idx(i, mx.recordio.pack_img(mx.recordio.IRHeader(0, float(i % 10), i, 0),
                                              np.clip(img, 0, 255).astype(np.uint8), quality=90))
    rec.close()
    return path


def read_ours(path: Path) -> float:
    import cellonnx.mxnet as mx

    rec = mx.recordio.MXRecordIO(str(path), "r")
    t = time.perf_counter()
    while rec.read() is not None:
        pass
    return time.perf_counter() - t


def make_loader(path: Path, **kwargs: object) -> object:
    from cellonnx.gluon.data import DataLoader
    from cellonnx.gluon.data.vision import ImageRecordDataset, transforms

    pipeline = transforms.Compose([transforms.Resize(32), transforms.ToTensor(),
                                   transforms.Normalize((0.5, 0.5, 0.5), (0.25, 0.25, 0.25))])
    data = ImageRecordDataset(str(path)).transform_first(pipeline)
    return DataLoader(data, batch_size=32, **kwargs)


def loader_pass(loader: object) -> float:
    """One epoch (the workers, and each one's compiled transform graph, persist across epochs)."""
    t = time.perf_counter()
    for _ in loader:
        pass
    return time.perf_counter() - t


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--records", type=int, default=2000)
    parser.add_argument("--blocks", type=int, default=3)
    parser.add_argument("--mxnet", default="/work/envs/mxnet/bin/python")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = write_rec(Path(tmp), args.records)
        size = os.path.getsize(path) / 2**20
        print(f"{args.records} JPEG records, {size:.1f} MiB")
        ours, theirs = [], []
        for _ in range(args.blocks):
            ours.append(min(read_ours(path) for _ in range(3)))
            time.sleep(1)
            if Path(args.mxnet).exists():
                runs = [float(subprocess.run([args.mxnet, "-c", READ_MXNET, str(path)], capture_output=True,
                                             text=True, check=True).stdout.split()[0]) for _ in range(3)]
                theirs.append(min(runs))
                time.sleep(1)
        line = f"read .rec: cellonnx {size / statistics.median(ours):.0f} MiB/s"
        if theirs:
            line += (f", MXNet 1.9.1 {size / statistics.median(theirs):.0f} MiB/s "
                     f"(cellonnx / MXNet time {statistics.median(ours) / statistics.median(theirs):.2f}x)")
        print(line)
        for name, kwargs in [("in process", {}), ("2 worker processes", {"num_workers": 2}),
                             ("2 worker threads", {"num_workers": 2, "thread_pool": True})]:
            loader = make_loader(path, **kwargs)
            first = loader_pass(loader)
            times = []
            for _ in range(args.blocks):
                times.append(loader_pass(loader))
                time.sleep(1)
            print(f"DataLoader, {name}: {args.records / statistics.median(times):.0f} images/s "
                  f"(first epoch {args.records / first:.0f} images/s)")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    main()
