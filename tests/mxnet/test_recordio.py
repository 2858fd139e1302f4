"""mx.recordio against files MXNet 1.9.1 wrote (tests/fixtures/mxnet/gen_recordio.py): reading them, writing
byte-identical files, the image-record header, and clear errors for damaged files."""
from __future__ import annotations

import json
import pickle
import struct
import sys
from pathlib import Path

import numpy as np
import pytest

import cellonnx.mxnet as mx

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet"
sys.path.insert(0, str(FIXTURES))
from gen_recordio import LABELS, MAGIC, RECORDS  # noqa: E402

HERE = FIXTURES / "recordio"
EXPECTED = json.loads((HERE / "expected.json").read_text())


def _write_plain(path: Path) -> None:
    rec = mx.recordio.MXRecordIO(str(path), "w")
    for r in RECORDS:
        rec.write(r)
    rec.close()


def test_reads_mxnet_file():
    rec = mx.recordio.MXRecordIO(str(HERE / "plain.rec"), "r")
    assert [rec.read() for _ in range(len(RECORDS) + 2)] == RECORDS + [None, None]
    rec.reset()
    assert rec.read() == RECORDS[0]
    rec.close()


def test_writes_mxnet_bytes(tmp_path):
    _write_plain(tmp_path / "plain.rec")
    assert (tmp_path / "plain.rec").read_bytes() == (HERE / "plain.rec").read_bytes()


def test_indexed_read_and_write(tmp_path):
    rec = mx.recordio.MXIndexedRecordIO(str(tmp_path / "i.idx"), str(tmp_path / "i.rec"), "w")
    tells = []
    for i, r in enumerate(RECORDS):
        tells.append(rec.tell())
        rec.write_idx(10 + i, r)
    rec.close()
    assert tells == EXPECTED["tells"]
    assert (tmp_path / "i.rec").read_bytes() == (HERE / "indexed.rec").read_bytes()
    assert (tmp_path / "i.idx").read_text() == (HERE / "indexed.idx").read_text()
    rec = mx.recordio.MXIndexedRecordIO(str(HERE / "indexed.idx"), str(HERE / "indexed.rec"), "r")
    assert rec.keys == [10 + i for i in range(len(RECORDS))]
    for i in reversed(range(len(RECORDS))):
        assert rec.read_idx(10 + i) == RECORDS[i]
    rec.seek(12)
    assert rec.read() == RECORDS[2] and rec.read() == RECORDS[3]
    clone = pickle.loads(pickle.dumps(rec))
    assert clone.read_idx(13) == RECORDS[3]
    rec = mx.recordio.MXIndexedRecordIO(str(HERE / "indexed.idx"), str(HERE / "indexed.rec"), "r",
                                        key_type=str)
    assert rec.keys[0] == "10" and rec.read_idx("11") == RECORDS[1]


@pytest.mark.parametrize("i", range(len(LABELS)))
def test_pack_unpack(i):
    rec = mx.recordio.MXIndexedRecordIO(str(HERE / "packed.idx"), str(HERE / "packed.rec"), "r")
    want = EXPECTED["packed"][i]
    s = rec.read_idx(i)
    header, payload = mx.recordio.unpack(s)
    label = header.label.tolist() if isinstance(header.label, np.ndarray) else header.label
    assert (header.flag, label) == (want["flag"], want["label"])
    assert (header.id, header.id2) == (want["id"], want["id2"])
    assert len(payload) == want["payload_len"]
    assert type(header).__name__ == "HEADER"
    repacked = mx.recordio.pack(mx.recordio.IRHeader(0, LABELS[i], 100 + i, i), payload)
    assert repacked == s and repacked[:64].hex() == want["packed_hex"]


def test_unpack_img_matches_imdecode():
    rec = mx.recordio.MXIndexedRecordIO(str(HERE / "packed.idx"), str(HERE / "packed.rec"), "r")
    s = rec.read_idx(len(LABELS) - 1)
    want = np.load(FIXTURES / "image" / "expected.npz")
    _, bgr = mx.recordio.unpack_img(s)
    np.testing.assert_array_equal(bgr, want["decode_bgr/photo.png"])
    _, color = mx.recordio.unpack_img(s, 1)
    np.testing.assert_array_equal(color, bgr)
    _, gray = mx.recordio.unpack_img(s, 0)
    np.testing.assert_array_equal(gray, want["decode_gray/photo.png"][:, :, 0])


@pytest.mark.parametrize("fmt", [".png", ".jpg"])
def test_pack_img_round_trip(fmt):
    img = np.load(FIXTURES / "image" / "expected.npz")["decode_bgr/photo.png"]
    s = mx.recordio.pack_img(mx.recordio.IRHeader(0, [1, 2], 3, 0), img, quality=95, img_fmt=fmt)
    header, out = mx.recordio.unpack_img(s, 1)
    assert header.flag == 2 and out.shape == img.shape
    if fmt == ".png":
        np.testing.assert_array_equal(out, img)
    else:  # lossy, but the channels must not be swapped
        err = np.abs(out.astype(int) - img).mean()
        assert err < 10 and err < np.abs(out.astype(int) - img[:, :, ::-1]).mean() / 3


def _damaged(tmp_path: Path, data: bytes) -> str:
    path = tmp_path / "bad.rec"
    path.write_bytes(data)
    return str(path)


@pytest.mark.parametrize("data, offset, what", [
    (MAGIC + struct.pack("<I", 8) + b"abc", 0, "past the end"),
    (MAGIC + struct.pack("<I", 4) + b"abcd" + b"\x01\x02", 12, "truncated part header"),
    (b"\x00\x11\x22\x33" + struct.pack("<I", 0), 0, "bad magic"),
    (MAGIC + struct.pack("<I", (1 << 29) - 1), 0, "past the end"),
    (MAGIC + struct.pack("<I", (2 << 29) | 4) + b"abcd", 0, "out of sequence"),
])
def test_damaged_files(tmp_path, data, offset, what):
    path = _damaged(tmp_path, data)
    rec = mx.recordio.MXRecordIO(path, "r")
    if offset:
        rec.read()
    with pytest.raises(mx.MXNetError, match=f"bad.rec' at byte offset {offset}: .*{what}"):
        rec.read()


def test_errors(tmp_path):
    with pytest.raises(ValueError, match="Invalid flag"):
        mx.recordio.MXRecordIO(str(tmp_path / "x.rec"), "a")
    with pytest.raises(mx.MXNetError, match="cannot open .*missing.rec"):
        mx.recordio.MXRecordIO(str(tmp_path / "missing.rec"), "r")
    rec = mx.recordio.MXRecordIO(str(tmp_path / "x.rec"), "w")
    with pytest.raises(TypeError, match="str"):
        rec.write("text")
    with pytest.raises(ValueError, match="at least 24 bytes"):
        mx.recordio.unpack(b"short")


def test_mxnet_reads_our_files(tmp_path):
    """The generator's --check reads files written here with MXNet (skipped where MXNet is absent)."""
    import subprocess

    python = Path("/work/envs/mxnet/bin/python")
    if not python.exists():
        pytest.skip("MXNet 1.9.1 is not installed here")
    _write_plain(tmp_path / "plain.rec")
    rec = mx.recordio.MXIndexedRecordIO(str(tmp_path / "indexed.idx"), str(tmp_path / "indexed.rec"), "w")
    for i, r in enumerate(RECORDS):
        rec.write_idx(10 + i, r)
    rec.close()
    out = subprocess.run([str(python), str(FIXTURES / "gen_recordio.py"), "--check", str(tmp_path)],
                         capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr[-2000:]


def test_damaged_index(tmp_path):
    (tmp_path / "i.idx").write_text("0\t0\n1\t99999\n")
    (tmp_path / "i.rec").write_bytes((HERE / "plain.rec").read_bytes()[:64])
    rec = mx.recordio.MXIndexedRecordIO(str(tmp_path / "i.idx"), str(tmp_path / "i.rec"), "r")
    assert rec.read_idx(0) == RECORDS[0]
    with pytest.raises(mx.MXNetError, match="i.rec' at byte offset 99999: offset of key 1 lies outside"):
        rec.read_idx(1)
    (tmp_path / "bad.idx").write_text("0\t0\nnot an index line\n")
    with pytest.raises(mx.MXNetError, match="line 2 of .*bad.idx"):
        mx.recordio.MXIndexedRecordIO(str(tmp_path / "bad.idx"), str(tmp_path / "i.rec"), "r")
