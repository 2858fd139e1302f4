"""mx.io's text-file iterators: CSVIter (dense rows of a CSV file) and LibSVMIter (CSR batches of a
zero-based LibSVM file), as MXNet's C++ iterators read them (see io_native.py for the batching)."""
from __future__ import annotations

import os
from typing import Any

import numpy as np

from cellonnx.mxnet.base import MXNetError
from cellonnx.mxnet.io_native import BatchLoader, flag, native, out_dtype, shape_arg

__all__ = ["CSVIter", "LibSVMIter"]


def _files(path: str, what: str) -> list[str]:
    """``path``, or the files of the folder ``path`` (sorted)."""
    if os.path.isdir(path):
        names = sorted(n for n in os.listdir(path) if os.path.isfile(os.path.join(path, n)))
        if not names:
            raise MXNetError(f"{what}: the folder {path} holds no files")
        return [os.path.join(path, n) for n in names]
    if not os.path.isfile(path):
        raise MXNetError(f"{what}: {path}: no such file")
    return [path]


def _lines(paths: list[str]) -> list[tuple[str, int, str]]:
    """(file, line number, text) of every non-blank line."""
    out = []
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            for no, line in enumerate(f, start=1):
                if line.strip():
                    out.append((path, no, line.strip()))
    return out


def _csv_rows(path: str, size: int, what: str, parse: type) -> np.ndarray:
    rows = []
    for file, no, line in _lines(_files(path, what)):
        fields = [v.strip() for v in line.rstrip(",").split(",")]
        try:
            values = [parse(float(v)) if parse is int else float(v) for v in fields]
        except ValueError:
            bad = next(v for v in fields if not _is_number(v))
            raise MXNetError(f"{what}: {file}, line {no}: {bad!r} is not a number") from None
        if len(values) != size:
            raise MXNetError(f"{what}: {file}, line {no}: {len(values)} values; the shape given needs {size}")
        rows.append(values)
    return np.asarray(rows, np.int64 if parse is int else np.float32).reshape(len(rows), size)


def _is_number(v: str) -> bool:
    try:
        float(v)
    except ValueError:
        return False
    return True


class _Rows:
    """Examples (index, data row, label row) of in-memory arrays, in order."""

    def __init__(self, data: np.ndarray, label: np.ndarray) -> None:
        self.data, self.label, self.pos = data, label, 0

    def before_first(self) -> None:
        self.pos = 0

    def next(self) -> tuple | None:
        if self.pos >= len(self.data):
            return None
        i = self.pos
        self.pos += 1
        return i, self.data[i], self.label[i]


def _make_csv(data_csv: str, data_shape: Any, batch_size: int, label_csv: str = "NULL",
              label_shape: Any = (1,), round_batch: bool = True, prefetch_buffer: int = 4,
              ctx: str = "gpu", dtype: Any = None, data_name: str = "data",
              label_name: str = "softmax_label") -> BatchLoader:
    data_shape = shape_arg(data_shape, "CSVIter data_shape")
    label_shape = shape_arg(label_shape, "CSVIter label_shape")
    typ = out_dtype(dtype, "CSVIter", ("float32", "int32", "int64"))
    parse = int if typ is not None and typ.kind == "i" and typ.itemsize >= 4 else float
    data = _csv_rows(data_csv, int(np.prod(data_shape)), "CSVIter", parse)
    if label_csv in (None, "NULL", ""):
        label = np.zeros((len(data), int(np.prod(label_shape))), data.dtype)
    else:
        label = _csv_rows(label_csv, int(np.prod(label_shape)), "CSVIter", parse)
        if len(label) != len(data):
            raise MXNetError(f"CSVIter: {label_csv} has {len(label)} rows, {data_csv} {len(data)}")
    if parse is int:
        typ = typ or np.dtype(np.int64)
        data, label = data.astype(typ), label.astype(typ)
    return BatchLoader(_Rows(data, label), int(batch_size), data_shape, label_shape, flag(round_batch), typ,
                       data.dtype, label.dtype)


CSVIter = native("CSVIter", """Batches of the rows of a CSV file (or of every file in a folder), each
row reshaped to ``data_shape``; labels from ``label_csv`` (rows of ``label_shape``) or all 0.

With ``round_batch`` (default) a short last batch is completed from the first rows (``pad`` counts them) and
the next epoch, after ``reset()``, continues after those; without it the rows past the end keep the previous
batch's. Values are float32, or int32 / int64 with ``dtype``.

Args:
    data_csv (str): the CSV file or folder.
    data_shape (tuple): the shape of one example.
    batch_size (int): rows per batch.
    label_csv (str): the label file or folder; 'NULL' for labels 0. Default: 'NULL'.
    label_shape (tuple): the shape of one label. Default: (1,).
    round_batch (bool): Default: True.
    prefetch_buffer, ctx: accepted, as MXNet's; no effect.
    dtype (str): None or 'float32'; 'int32' / 'int64' parse integers (no other type).

Returns:
    MXDataIter.

Examples:
    >>> import os, tempfile
    >>> import cellonnx.mxnet as mx
    >>> path = os.path.join(tempfile.mkdtemp(), "data.csv")
    >>> _ = open(path, "w").write("1,2,3\\n2,3,4\\n3,4,5\\n4,5,6\\n")
    >>> it = mx.io.CSVIter(data_csv=path, data_shape=(3,), batch_size=3)
    >>> [(b.data[0].asnumpy().tolist(), b.pad) for b in it]
    [([[1.0, 2.0, 3.0], [2.0, 3.0, 4.0], [3.0, 4.0, 5.0]], 0), ([[4.0, 5.0, 6.0], [1.0, 2.0, 3.0], \
[2.0, 3.0, 4.0]], 2)]
""", _make_csv)


def _seek_record(raw: bytes, pos: int) -> int:
    """dmlc's LineSplitter: from ``pos``, past the next newline and any newlines after it."""
    while pos < len(raw) and raw[pos] not in b"\r\n":
        pos += 1
    while pos < len(raw) and raw[pos] in b"\r\n":
        pos += 1
    return pos


def _part_lines(paths: list[str], num_parts: int, part_index: int) -> list[tuple[str, int, str]]:
    """The lines of part ``part_index`` of ``num_parts``, split by bytes as dmlc's InputSplit does: equal
    byte ranges, each boundary moved past the next line end (so parts may be uneven, or empty)."""
    blobs = []
    for path in paths:
        with open(path, "rb") as f:
            blobs.append((path, f.read()))
    starts = np.cumsum([0] + [len(b) for _, b in blobs])
    total = int(starts[-1])
    step = (total + num_parts - 1) // num_parts
    begin, end = min(step * part_index, total), min(step * (part_index + 1), total)
    raw = b"".join(b for _, b in blobs)

    def align(pos: int) -> int:
        return pos if pos in starts else _seek_record(raw, pos)

    begin, end = (align(begin), align(end)) if begin != end else (begin, end)
    out = []
    for (path, blob), start in zip(blobs, starts):
        lo, hi = max(begin - start, 0), min(end - start, len(blob))
        if lo >= hi:
            continue
        first_line = blob[:lo].count(b"\n") + 1
        for no, line in enumerate(blob[lo:hi].decode("utf-8", "replace").splitlines(), start=first_line):
            if line.strip():
                out.append((path, no, line.strip()))
    return out


def _libsvm_rows(lines: list[tuple[str, int, str]], width: int, what: str) -> list:
    rows = []
    for file, no, line in lines:
        fields = line.split()
        try:
            label = float(fields[0])
            pairs = [f.split(":") for f in fields[1:]]
            idx = np.asarray([int(p[0]) for p in pairs], np.int64)
            val = np.asarray([float(p[1]) for p in pairs], np.float32)
        except (ValueError, IndexError):
            raise MXNetError(f"{what}: {file}, line {no}: expected 'label index:value ...', got "
                             f"{line[:60]!r}") from None
        if idx.size and (idx.min() < 0 or idx.max() >= width):
            raise MXNetError(f"{what}: {file}, line {no}: feature index {int(idx.max())} is out of range "
                             f"for a row of {width} (indices are zero-based)")
        if idx.size > 1 and (np.diff(idx) <= 0).any():
            raise MXNetError(f"{what}: {file}, line {no}: the feature indices must be in ascending order")
        rows.append((label, idx, val))
    return rows


class _SparseLoader:
    """LibSVM rows grouped into CSR batches (labels dense, or CSR from a label file), always rounding the
    last batch with the first rows."""

    def __init__(self, data: list, label: list | None, batch_size: int, width: int, label_width: int,
                 dtype: np.dtype | None, bounds: tuple[int, int]) -> None:
        if batch_size <= 0:
            raise MXNetError(f"LibSVMIter: batch_size must be positive, got {batch_size}")
        self.rows = list(range(*bounds))
        self.data, self.label = data, label
        self.batch_size, self.width, self.label_width, self.dtype = batch_size, width, label_width, dtype
        self.pos, self.num_overflow, self.batch, self.pad = 0, 0, [], 0

    def before_first(self) -> None:
        if self.num_overflow == 0:
            self.pos = 0
        else:
            self.num_overflow = 0

    def _take(self) -> int | None:
        if self.pos >= len(self.rows):
            return None
        self.pos += 1
        return self.rows[self.pos - 1]

    def next(self) -> bool:
        self.pad = 0
        if self.num_overflow:
            return False
        batch = []
        while len(batch) < self.batch_size and (i := self._take()) is not None:
            batch.append(i)
        if not batch:
            return False
        if len(batch) < self.batch_size:
            self.pos = 0
            while len(batch) < self.batch_size:
                i = self._take()
                if i is None:
                    raise MXNetError("LibSVMIter: number of input must be bigger than batch size")
                batch.append(i)
                self.num_overflow += 1
            self.pad = self.num_overflow
        self.batch = batch
        return True

    def _csr(self, rows: list, width: int) -> Any:
        from cellonnx.mxnet.ndarray.sparse import csr_matrix

        indptr = np.cumsum([0] + [len(r[1]) for r in rows]).astype(np.int64)
        indices = np.concatenate([r[1] for r in rows]).astype(np.int64)
        values = np.concatenate([r[2] for r in rows]).astype(self.dtype or np.float32)
        return csr_matrix((values, indices, indptr), shape=(len(rows), width), dtype=values.dtype)

    def value(self) -> tuple[Any, Any, Any, int]:
        from cellonnx.mxnet.ndarray import array

        data = self._csr([self.data[i] for i in self.batch], self.width)
        if self.label is None:
            lab = np.asarray([self.data[i][0] for i in self.batch], self.dtype or np.float32)
            label = array(lab, dtype=lab.dtype)
        else:
            label = self._csr([self.label[i] for i in self.batch], self.label_width)
        return data, label, np.asarray(self.batch, np.uint64), self.pad


def _make_libsvm(data_libsvm: str, data_shape: Any, batch_size: int, label_libsvm: str = "NULL",
                 label_shape: Any = (1,), num_parts: int = 1, part_index: int = 0, round_batch: bool = True,
                 prefetch_buffer: int = 4, ctx: str = "gpu", dtype: Any = None, data_name: str = "data",
                 label_name: str = "softmax_label") -> _SparseLoader:
    data_shape = shape_arg(data_shape, "LibSVMIter data_shape")
    label_shape = shape_arg(label_shape, "LibSVMIter label_shape")
    if len(data_shape) != 1 or len(label_shape) != 1:
        raise MXNetError(f"LibSVMIter: data_shape and label_shape must be 1-D, got {data_shape} and "
                         f"{label_shape}")
    if not flag(round_batch):
        raise MXNetError("LibSVMIter: only round_batch=True is supported (as MXNet's)")
    num_parts, part_index = int(num_parts), int(part_index)
    if not 0 <= part_index < num_parts:
        raise MXNetError(f"LibSVMIter: part_index {part_index} must be in [0, num_parts={num_parts})")
    files = _files(data_libsvm, "LibSVMIter")
    data = _libsvm_rows(_part_lines(files, num_parts, part_index), data_shape[0], "LibSVMIter")
    label = None
    if label_libsvm not in (None, "NULL", ""):
        label_files = _files(label_libsvm, "LibSVMIter")
        label = _libsvm_rows(_part_lines(label_files, num_parts, part_index), label_shape[0], "LibSVMIter")
        if len(label) != len(data):
            raise MXNetError(f"LibSVMIter: {label_libsvm} has {len(label)} rows in this part, {data_libsvm} "
                             f"{len(data)}")
    return _SparseLoader(data, label, int(batch_size), data_shape[0], label_shape[0],
                         out_dtype(dtype, "LibSVMIter", ("float32",)), (0, len(data)))


LibSVMIter = native("LibSVMIter", """CSR batches of a LibSVM file (zero-based, ascending feature indices;
a file or a folder of them): ``label index:value ...`` per line.

The data of a batch is a CSRNDArray of (batch_size, data_shape[0]); the labels are the lines' first values
(a dense (batch_size,) array), or, with ``label_libsvm``, that file's features as a CSRNDArray of
(batch_size, label_shape[0]). A short last batch is completed from the first rows (``pad`` counts them) and
the next epoch continues after those. ``num_parts`` / ``part_index`` read one part of the file's bytes
(boundaries moved to line ends, as MXNet's reader splits; parts may be uneven or empty).

Args:
    data_libsvm (str): the file or folder.
    data_shape (tuple): (features,).
    batch_size (int): rows per batch.
    label_libsvm (str): a label file or 'NULL'. Default: 'NULL'.
    label_shape (tuple): (label features,). Default: (1,).
    num_parts, part_index (int): Default: 1, 0.
    round_batch (bool): must be True. Default: True.
    dtype (str): None or 'float32' (MXNet's iterator gives no other).

Returns:
    MXDataIter.

Examples:
    >>> import os, tempfile
    >>> import cellonnx.mxnet as mx
    >>> path = os.path.join(tempfile.mkdtemp(), "data.t")
    >>> _ = open(path, "w").write("1.0 0:0.5 2:1.2\\n-2.0\\n-3.0 0:0.6 1:2.4 2:1.2\\n")
    >>> batch = mx.io.LibSVMIter(data_libsvm=path, data_shape=(3,), batch_size=3).next()
    >>> batch.data[0].stype, batch.data[0].asnumpy().tolist()[0], batch.label[0].asnumpy().tolist()
    ('csr', [0.5, 0.0, 1.2000000476837158], [1.0, -2.0, -3.0])
""", _make_libsvm)
