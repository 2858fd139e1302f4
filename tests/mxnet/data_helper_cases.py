"""Files for the mx.test_utils data helper tests, written the same way for real MXNet (the generator) and for
cellonnx (the tests): a tiny MNIST in MXNet's file names (gzip'd idx files in the current directory, the
ubyte files in ``data/``), a zip and a bz2 archive."""
from __future__ import annotations

import bz2
import gzip
import os
import struct
import zipfile

import numpy as np

N_TRAIN, N_TEST = 6, 4


def _idx(images: bool, n: int, seed: int) -> bytes:
    rng = np.random.default_rng(seed)
    if images:
        pixels = rng.integers(0, 256, (n, 28, 28), dtype=np.uint8)
        return struct.pack(">IIII", 2051, n, 28, 28) + pixels.tobytes()
    return struct.pack(">II", 2049, n) + rng.integers(0, 10, n, dtype=np.uint8).tobytes()


def write_files(folder: str) -> None:
    """The MNIST .gz files in ``folder``, the ubyte files in ``folder/data``, ``folder/z/pack.zip`` and
    ``folder/text.bz2`` (MXNet's get_bz2_data joins data_dir to the archive's path twice, so
only data_dir "." finds it where it extracts from)."""
    os.makedirs(os.path.join(folder, "data"), exist_ok=True)
    for prefix, n, seed in (("train", N_TRAIN, 0), ("t10k", N_TEST, 1)):
        for kind, images in (("images-idx3", True), ("labels-idx1", False)):
            raw = _idx(images, n, seed)
            name = f"{prefix}-{kind}-ubyte"
            with gzip.open(os.path.join(folder, name + ".gz"), "wb") as f:
                f.write(raw)
            with open(os.path.join(folder, "data", name), "wb") as f:
                f.write(raw)
    os.makedirs(os.path.join(folder, "z"), exist_ok=True)
    with zipfile.ZipFile(os.path.join(folder, "z", "pack.zip"), "w") as zf:
        zf.writestr("inner/a.txt", "zip contents\n")
    with open(os.path.join(folder, "text.bz2"), "wb") as f:
        f.write(bz2.compress(b"line one\nline two\n"))
