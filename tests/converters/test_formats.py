"""Table-driven: every dtype round-trips through every format; every format has a row."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from cellonnx.converters import FORMATS, get_format, read, write
from cellonnx.converters.errors import CheckpointError

from cellonnx import dtypes
from tests.converters.helpers import all_dtype_tensors, assert_same

# format -> (file name, metadata written, metadata expected back (subset), dtypes it cannot hold)
ROWS = {
    "onnx": ("w.onnx", {"epoch": 3}, {"epoch": "3"}, ()),
    "mindspore": ("w.ckpt", {"note": "hi"}, {"note": "hi"}, ()),
    "mxnet": ("w.params", None, {"named": True}, ()),
    "torch": ("w.pt", {"epoch": 3, "tag": "x"}, {"epoch": 3, "tag": "x"}, ()),
    "safetensors": ("w.safetensors", {"k": "v"}, {"k": "v"}, ()),
    "npz": ("w.npz", {"epoch": 3}, {"epoch": 3}, ()),
}


def test_every_format_has_a_row() -> None:
    assert sorted(ROWS) == sorted(FORMATS), "add a row to ROWS for each new format"


@pytest.mark.parametrize("name", sorted(ROWS))
def test_round_trip_every_dtype(tmp_path: Path, name: str) -> None:
    filename, metadata, meta_back, unsupported = ROWS[name]
    tensors = {k: v for k, v in all_dtype_tensors().items() if v.dtype not in unsupported}
    path = tmp_path / filename
    write(path, tensors, metadata=metadata)
    assert get_format(path).name == name
    got, meta = read(path)
    assert_same(got, tensors)
    assert {d.name for d in dtypes.ALL} <= {dtypes.dtype(a.dtype).name for a in got.values()}
    for key, value in meta_back.items():
        assert meta[key] == value


@pytest.mark.parametrize("name", sorted(ROWS))
def test_explicit_format_overrides_extension(tmp_path: Path, name: str) -> None:
    path = tmp_path / "weights.data"
    write(path, {"w": np.ones((2, 2), np.float32)}, name)
    got, _ = read(path, name)
    assert_same(got, {"w": np.ones((2, 2), np.float32)})


@pytest.mark.parametrize("name", sorted(ROWS))
def test_write_is_atomic_and_replaces(tmp_path: Path, name: str) -> None:
    path = tmp_path / ROWS[name][0]
    write(path, {"a": np.zeros(3, np.float32)})
    write(path, {"b": np.ones(2, np.int64)})
    got, _ = read(path)
    assert_same(got, {"b": np.ones(2, np.int64)})
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


@pytest.mark.parametrize("name", sorted(ROWS))
def test_wrong_format_is_a_checkpoint_error(tmp_path: Path, name: str) -> None:
    other = "npz" if name != "npz" else "mxnet"
    path = tmp_path / "x.bin"
    write(path, {"a": np.ones(4, np.float32)}, other)
    with pytest.raises(CheckpointError) as info:
        read(path, name)
    assert str(path) in str(info.value)


def test_unknown_extension_and_format() -> None:
    with pytest.raises(ValueError, match="extension"):
        get_format("model.weights")
    with pytest.raises(ValueError, match="unknown checkpoint format"):
        get_format("x.pt", "keras")


def test_crc_only_where_supported(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="crc_check"):
        write(tmp_path / "a.npz", {"a": np.ones(1)}, crc_check=True)
    for ext in (".ckpt", ".safetensors"):
        path = tmp_path / f"a{ext}"
        write(path, {"a": np.ones(3, np.float32), "n": np.array(4, np.int64)}, crc_check=True)
        assert np.array_equal(read(path, crc_check=True)[0]["a"], np.ones(3, np.float32))
        write(path, {"a": np.ones(3, np.float32)})
        with pytest.raises(CheckpointError, match="crc"):
            read(path, crc_check=True)


def test_writer_rejects_unknown_dtype(tmp_path: Path) -> None:
    with pytest.raises(CheckpointError, match="complex"):
        write(tmp_path / "a.ckpt", {"c": np.ones(2, np.complex64)})


def test_npz_bfloat16_reads_as_the_right_numbers_in_plain_numpy(tmp_path: Path) -> None:
    values = np.array([1.5, -2.25, 3.0e38, 0.0], dtype=dtypes.bfloat16.np_dtype)
    write(tmp_path / "b.npz", {"a": values})
    with np.load(tmp_path / "b.npz", allow_pickle=False) as plain:
        np.testing.assert_array_equal(plain["a"], values.astype(np.float64))
    back = read(tmp_path / "b.npz")[0]["a"]
    assert back.dtype == values.dtype
    np.testing.assert_array_equal(back.view(np.uint16), values.view(np.uint16))


def test_npz_bfloat16_written_as_bit_patterns_still_reads(tmp_path: Path) -> None:
    values = np.array([1.5, -2.25], dtype=dtypes.bfloat16.np_dtype)
    meta = json.dumps({"dtypes": {"a": "bfloat16"}, "metadata": {}})
    np.savez(tmp_path / "old.npz", a=values.view(np.uint16), __metadata__=np.array(meta))
    np.testing.assert_array_equal(read(tmp_path / "old.npz")[0]["a"].view(np.uint16), values.view(np.uint16))
