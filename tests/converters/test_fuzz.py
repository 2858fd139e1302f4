"""Damaged files of every format: only CheckpointError escapes, quickly, without allocating past the file's size."""
from __future__ import annotations

import random
import struct
import time
import tracemalloc
import zipfile
from pathlib import Path

import numpy as np
import pytest
from cellonnx.converters import FORMATS, read, write
from cellonnx.converters import mindspore_proto as pb
from cellonnx.converters.errors import CheckpointError
from onnx import TensorProto, helper

from tests.converters.helpers import FIXTURES

SEEDS = {"onnx": "w.onnx", "mindspore": "w.ckpt", "mxnet": "w.params", "torch": "w.pt",
         "safetensors": "w.safetensors", "npz": "w.npz"}
REAL = {"mindspore": ["mindspore/all_dtypes_crc.ckpt"], "mxnet": ["mxnet/dict_v2.params", "mxnet/dict_v3.params"],
        "torch": ["torch/all_dtypes_legacy.pt", "torch/views_zip.pt"]}
CASES_PER_SEED = 100
SLACK = 2 << 20  # interpreter and parser bookkeeping


def test_every_format_is_fuzzed() -> None:
    assert sorted(SEEDS) == sorted(FORMATS)


def _seeds(tmp_path: Path, fmt: str) -> list[bytes]:
    path = tmp_path / SEEDS[fmt]
    tensors = {"w": np.arange(12, dtype=np.float32).reshape(3, 4), "b": np.ones(3, np.int64),
               "s": np.array(2.0, np.float16)}
    kwargs = {"crc_check": True} if FORMATS[fmt].crc else {}
    write(path, tensors, metadata={"note": "x"} if fmt in ("mindspore", "safetensors", "npz") else None,
          **kwargs)
    return [path.read_bytes()] + [(FIXTURES / p).read_bytes() for p in REAL.get(fmt, [])]


def _mutate(rng: random.Random, data: bytes) -> bytes:
    b = bytearray(data)
    kind = rng.randrange(5)
    if kind == 0:  # bit flips
        for _ in range(rng.randint(1, 8)):
            i = rng.randrange(len(b))
            b[i] ^= 1 << rng.randrange(8)
    elif kind == 1:  # truncation
        del b[rng.randrange(len(b)):]
    elif kind == 2:  # a huge number written somewhere
        i = rng.randrange(max(len(b) - 8, 1))
        b[i: i + 8] = struct.pack("<q", rng.choice([2**40, 2**62, -1, 2**31, 2**63 - 1]))
    elif kind == 3:  # wrong magic
        b[: 8] = bytes(rng.randrange(256) for _ in range(8))
    else:  # random bytes spliced in
        i = rng.randrange(len(b))
        b[i:i] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 32)))
    return bytes(b)


def _read_bounded(path: Path, fmt: str) -> None:
    size = path.stat().st_size
    tracemalloc.start()
    try:
        read(path, fmt)
    except CheckpointError:
        pass
    finally:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    assert peak <= size + SLACK, f"{fmt}: {peak} bytes allocated reading a {size}-byte file"


@pytest.mark.parametrize("fmt", sorted(SEEDS))
def test_mutated_files(tmp_path: Path, fmt: str) -> None:
    rng = random.Random(f"cellonnx-{fmt}")
    start = time.process_time()  # CPU time: a busy machine slows the wall clock, not the work
    path = tmp_path / f"fuzz{Path(SEEDS[fmt]).suffix}"
    for seed in _seeds(tmp_path, fmt):
        for _ in range(CASES_PER_SEED):
            path.write_bytes(_mutate(rng, seed))
            _read_bounded(path, fmt)
    assert time.process_time() - start < 20


def _huge(tmp_path: Path) -> dict[str, Path]:
    """One file per format claiming a ~1 TB tensor with a few bytes of data."""
    big = 1 << 40
    out = {}
    p = tmp_path / "huge.params"
    write(p, {"x": np.ones(2, np.float32)})
    raw = bytearray(p.read_bytes())
    raw[24 + 12: 24 + 20] = struct.pack("<q", big)  # list header (24) + magic, stype, ndim (12): first dim
    p.write_bytes(bytes(raw))
    out["mxnet"] = p
    p = tmp_path / "huge.ckpt"
    ck = pb.Checkpoint()
    v = ck.value.add(tag="x")
    v.tensor.dims.extend([big])
    v.tensor.tensor_type = "Float32"
    v.tensor.tensor_content = b"\0" * 8
    p.write_bytes(ck.SerializeToString())
    out["mindspore"] = p
    p = tmp_path / "huge.npz"
    with zipfile.ZipFile(p, "w") as zf, zf.open("x.npy", "w") as f:
        np.lib.format.write_array_header_1_0(f, {"descr": "<f4", "fortran_order": False, "shape": (big,)})
        f.write(b"\0" * 8)
    out["npz"] = p
    p = tmp_path / "huge.onnx"
    t = TensorProto(name="x", data_type=TensorProto.FLOAT, dims=[big], raw_data=b"\0" * 8)
    p.write_bytes(helper.make_model(helper.make_graph([], "g", [], [], [t])).SerializeToString())
    out["onnx"] = p
    p = tmp_path / "huge.safetensors"
    header = b'{"x":{"dtype":"F32","shape":[1099511627776],"data_offsets":[0,8]}}'
    p.write_bytes(struct.pack("<Q", len(header)) + header + b"\0" * 8)
    out["safetensors"] = p
    p = tmp_path / "huge.pt"
    write(p, {"x": np.ones(2, np.float32)})
    raw = p.read_bytes()
    # the size tuple (2,) is BININT1 2 + TUPLE1: make it a 4-byte BININT of 2**30 elements
    patched = raw.replace(b"K\x02\x85", b"J\x00\x00\x00\x40\x85", 1)
    with zipfile.ZipFile(p) as zf:
        members = {i.filename: zf.read(i) for i in zf.infolist()}
    pkl = next(k for k in members if k.endswith("data.pkl"))
    assert patched != raw
    members[pkl] = members[pkl].replace(b"K\x02\x85", b"J\x00\x00\x00\x40\x85", 1)
    with zipfile.ZipFile(p, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    out["torch"] = p
    return out


def test_huge_dims_are_refused_without_allocating(tmp_path: Path) -> None:
    files = _huge(tmp_path)
    assert sorted(files) == sorted(FORMATS)
    for fmt, path in files.items():
        tracemalloc.start()
        with pytest.raises(CheckpointError):
            read(path)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        assert peak < SLACK, (fmt, peak)
