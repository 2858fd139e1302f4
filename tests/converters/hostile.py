"""Hostile checkpoint files, each small, each built to make a careless reader crash, hang or allocate far more
than the file holds. Used by tests/converters/test_hostile.py and bench/hostile_files.py.

HOSTILE maps a case name to (file name, builder, the words the CheckpointError must carry).
"""
from __future__ import annotations

import struct
import zipfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
from onnx import TensorProto, helper

from cellonnx.converters import write


def _pth(path: Path, pickled: bytes) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        zf.writestr("archive/data.pkl", pickled)
        zf.writestr("archive/byteorder", "little")
        zf.writestr("archive/version", "3\n")


def nested_tuples(path: Path) -> None:
    """200,000 tuples each holding the next (TUPLE1 over and over): 464 bytes compressed."""
    _pth(path, b"\x80\x02)" + b"\x85" * 200_000 + b".")


def nested_frozensets(path: Path) -> None:
    """frozenset({frozenset({...})}) 200,000 deep through REDUCE of an allowed builtin."""
    n = 200_000
    _pth(path, b"\x80\x02c__builtin__\nfrozenset\nq\x00" + b"h\x00" * (n - 1) + b")R" + b"\x85\x85R" * (n - 1)
         + b".")


def huge_pickle(path: Path) -> None:
    """100 M DUP opcodes: a 97 KB file whose data.pkl inflates to 100 MB."""
    _pth(path, b"\x80\x02)" + b"2" * 100_000_000 + b".")


def dup_flood(path: Path) -> None:
    """150,000 DUP opcodes: a stack that only grows."""
    _pth(path, b"\x80\x02)" + b"2" * 150_000 + b".")


def dup_pop_loop(path: Path) -> None:
    """DUP, POP 600,000 times: a stack that never grows, an opcode count that does."""
    _pth(path, b"\x80\x02)" + b"20" * 600_000 + b".")


def bytearray_of_a_gigabyte(path: Path) -> None:
    """bytearray(10**9) from a 400-byte file."""
    _pth(path, b"\x80\x02c__builtin__\nbytearray\nJ\x00\xca\x9a;\x85R.")


def long_binary_int(path: Path) -> None:
    """LONG4 with 48,000 bytes of digits."""
    _pth(path, b"\x80\x02\x8b" + struct.pack("<I", 48_000) + b"\x01" * 48_000 + b".")


def long_decimal_int(path: Path) -> None:
    """A LONG opcode of 48,000 decimal digits."""
    _pth(path, b"\x80\x02L" + b"9" * 48_000 + b"L\n.")


def memo_index_far_ahead(path: Path) -> None:
    """LONG_BINPUT to entry 2**31: the C unpickler would grow its memo table to that size."""
    _pth(path, b"\x80\x02)r\xff\xff\xff\x7f.")


def _shared_stream_zip(path: Path, names: list[str], payload: bytes) -> None:
    """A zip whose central directory names every member at the same compressed bytes."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        zf.writestr(names[0], payload)
    raw = path.read_bytes()
    eocd = raw.rindex(b"PK\x05\x06")
    cd_size, cd_offset = struct.unpack("<II", raw[eocd + 12: eocd + 20])
    entry = raw[cd_offset: cd_offset + cd_size]
    name_len = struct.unpack("<H", entry[28:30])[0]
    entries = b"".join(entry[:28] + struct.pack("<H", len(n)) + entry[30:46] + n.encode() + entry[46 + name_len:]
                       for n in names)
    end = bytearray(raw[eocd:eocd + 22])
    struct.pack_into("<HHII", end, 8, len(names), len(names), len(entries), cd_offset)
    path.write_bytes(raw[:cd_offset] + entries + bytes(end))


def shared_stream_npz(path: Path) -> None:
    """64 .npy members, all pointing at one deflated 4 MB array."""
    import io
    buffer = io.BytesIO()
    np.lib.format.write_array(buffer, np.zeros(1 << 20, np.float32))
    _shared_stream_zip(path, [f"a{i:02d}.npy" for i in range(64)], buffer.getvalue())


def _torch_pickle(tensors: dict[str, tuple[int, tuple[int, ...], tuple[int, ...]]]) -> bytes:
    """The data.pkl torch.save writes for {name: (storage elements, size, stride)} float32 tensors, storage
    keys "0", "1", ... in order (pickled by the project's own torch writer)."""
    import io

    from cellonnx.converters import torch_format as tf

    class View(tf._Tensor):
        def __init__(self, storage: tf._Storage, size: tuple[int, ...], stride: tuple[int, ...]) -> None:
            self.storage, self.shape, self.stride = storage, size, stride

        def reduce(self) -> tuple:
            return tf._Global("torch._utils", "_rebuild_tensor_v2"), \
                (self.storage, 0, self.shape, self.stride, False, tf._EMPTY_HOOKS)

    state = {}
    for i, (name, (numel, size, stride)) in enumerate(tensors.items()):
        storage = tf._Storage(str(i), np.zeros(0, np.float32))
        storage.numel = numel
        state[name] = View(storage, size, stride)
    buffer = io.BytesIO()
    tf._Pickler(buffer).dump(state)
    return buffer.getvalue()


def shared_stream_pth(path: Path) -> None:
    """A torch zip whose 64 storages are one deflated 4 MB stream, and a pickle naming them all."""
    n = 1 << 20
    _shared_stream_zip(path, [f"archive/data/{i}" for i in range(64)], bytes(4 * n))
    with zipfile.ZipFile(path, "a", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("archive/data.pkl", _torch_pickle({f"t{i}": (n, (n,), (1,)) for i in range(64)}))
        zf.writestr("archive/version", "3\n")


def stride_zero_tensor(path: Path) -> None:
    """A (2**40, 2**40) tensor viewing one stored float with stride 0."""
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("archive/data.pkl", _torch_pickle({"x": (1, (2**40, 2**40), (0, 0))}))
        zf.writestr("archive/data/0", b"\0" * 4)
        zf.writestr("archive/version", "3\n")


def npy_header_token_error(path: Path) -> None:
    """An .npz member whose .npy header is an unterminated Python literal."""
    header = b"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), '''"
    header += b" " * (63 - (10 + len(header)) % 64) + b"\n"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("x.npy", b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header + b"\0" * 8)


def zip_from_the_future(path: Path) -> None:
    """An .npz whose directory says it needs zip version 25.5 to extract (zipfile raises NotImplementedError)."""
    write(path, {"w": np.ones(3, np.float32)})
    raw = bytearray(path.read_bytes())
    entry = raw.index(b"PK\x01\x02")
    raw[entry + 6: entry + 8] = struct.pack("<H", 255)
    path.write_bytes(bytes(raw))


def sparse_initializer_onnx(path: Path) -> None:
    values = helper.make_tensor("s", TensorProto.FLOAT, [1], [1.0])
    indices = helper.make_tensor("s_idx", TensorProto.INT64, [1], [0])
    sparse = helper.make_sparse_tensor(values, indices, [4])
    graph = helper.make_graph([], "g", [], [], sparse_initializer=[sparse])
    path.write_bytes(helper.make_model(graph).SerializeToString())


def empty_file(path: Path) -> None:
    path.write_bytes(b"")


def mindspore_file_named_pth(path: Path) -> None:
    """A MindSpore .ckpt saved under a .pth name."""
    real = path.with_suffix(".ckpt")
    write(real, {"w": np.ones(3, np.float32)})
    path.write_bytes(real.read_bytes())
    real.unlink()


Builder = Callable[[Path], None]
HOSTILE: dict[str, tuple[str, Builder, str]] = {
    "nested_tuples": ("deep.pth", nested_tuples, "nest deeper"),
    "nested_frozensets": ("deepset.pth", nested_frozensets, "objects on the unpickler's stack"),
    "huge_pickle": ("bigpickle.pth", huge_pickle, "holds 100,000,004 bytes"),
    "dup_flood": ("dup.pth", dup_flood, "more than 100,000 objects on the unpickler's stack"),
    "dup_pop_loop": ("duppop.pth", dup_pop_loop, "more than 1,000,000 opcodes"),
    "bytearray_of_a_gigabyte": ("bytes.pth", bytearray_of_a_gigabyte, "bytearray may only be rebuilt from bytes"),
    "long_binary_int": ("bigint.pth", long_binary_int, "an integer of 383,993 bits"),
    "long_decimal_int": ("textint.pth", long_decimal_int, "more than 4,300 decimal digits"),
    "memo_index_far_ahead": ("memo.pth", memo_index_far_ahead, "memo entry 2,147,483,647"),
    "shared_stream_npz": ("shared.npz", shared_stream_npz, "share bytes"),
    "shared_stream_pth": ("shared.pth", shared_stream_pth, "share bytes"),
    "stride_zero_tensor": ("stride0.pth", stride_zero_tensor, "bytes as a view of"),
    "npy_header_token_error": ("token.npz", npy_header_token_error, "unreadable .npy header"),
    "zip_from_the_future": ("future.npz", zip_from_the_future, "zip file version 25.5"),
    "sparse_initializer_onnx": ("sparse.onnx", sparse_initializer_onnx, "sparse initializers ('s'"),
    "empty_onnx": ("empty.onnx", empty_file, "is empty"),
    "empty_ckpt": ("empty.ckpt", empty_file, "is empty"),
    "mindspore_file_named_pth": ("ms.pth", mindspore_file_named_pth, "looks like a MindSpore .ckpt"),
}
