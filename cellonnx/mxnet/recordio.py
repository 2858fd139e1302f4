"""mx.recordio: MXNet's RecordIO files (dmlc-core's format), read and written in Python byte for byte.

A record is stored as one or more parts, each ``magic (0xced7230a, little-endian uint32)``, ``lrec (uint32:
continue flag << 29 | part length)`` and the part's bytes padded with zeros to a multiple of 4. A record whose
data holds the magic number at a 4-byte aligned offset is cut there (flags 1 start, 2 middle, 3 end; 0 a whole
record) and the magic is put back when it is read. ``MXIndexedRecordIO`` keeps ``key<TAB>offset`` lines in
an .idx file. ``pack`` / ``unpack`` add and strip the image-record header (``IfQQ``: flag, label, id, id2; a
label array stored after it as float32 with its length in ``flag``); ``pack_img`` / ``unpack_img`` encode
and decode the image with Pillow, in OpenCV's BGR channel order as MXNet's cv2 calls do.
"""
from __future__ import annotations

import io
import numbers
import os
import struct
import threading
from collections import namedtuple
from multiprocessing import current_process
from typing import Any

import numpy as np

from cellonnx.mxnet.base import MXNetError

__all__ = ["IRHeader", "MXIndexedRecordIO", "MXRecordIO", "pack", "pack_img", "unpack", "unpack_img"]

_MAGIC = 0xCED7230A
_MAGIC_BYTES = struct.pack("<I", _MAGIC)
_MAX_LEN = 1 << 29


def _flag(lrec: int) -> int:
    return lrec >> 29


def _length(lrec: int) -> int:
    return lrec & (_MAX_LEN - 1)


def _pad(n: int) -> int:
    return (n + 3) & ~3


def _parts(buf: bytes) -> list[tuple[int, bytes]]:
    """(continue flag, bytes) of each part dmlc's RecordIOWriter writes for one record."""
    parts: list[tuple[int, bytes]] = []
    start = 0
    view = memoryview(buf)
    pos = buf.find(_MAGIC_BYTES)
    while pos != -1 and pos + 4 <= len(buf) - len(buf) % 4:
        if pos % 4 == 0:
            parts.append((1 if start == 0 else 2, bytes(view[start:pos])))
            start = pos + 4
            pos = buf.find(_MAGIC_BYTES, start)
        else:
            pos = buf.find(_MAGIC_BYTES, pos + 1)
    parts.append((3 if start != 0 else 0, bytes(view[start:])))
    return parts


class MXRecordIO:
    """Reads or writes a RecordIO file sequentially.

    Args:
        uri (str): path of the record file.
        flag (str): ``'w'`` to write (the file is truncated) or ``'r'`` to read.

    Raises:
        ValueError: ``flag`` is neither ``'r'`` nor ``'w'``.
        MXNetError: the file cannot be opened, or a record read is truncated or has a bad magic number
            (the message names the file and the byte offset).

    Examples:
        >>> import os, tempfile
        >>> from cellonnx import mxnet as mx
        >>> path = os.path.join(tempfile.mkdtemp(), 'tmp.rec')
        >>> record = mx.recordio.MXRecordIO(path, 'w')
        >>> for i in range(3):
        ...     record.write(b'record_%d' % i)
        >>> record.close()
        >>> record = mx.recordio.MXRecordIO(path, 'r')
        >>> [record.read() for _ in range(4)]
        [b'record_0', b'record_1', b'record_2', None]
        >>> record.close()
    """

    def __init__(self, uri: str, flag: str) -> None:
        self.uri = os.fspath(uri)
        self.flag = flag
        self.pid: int | None = None
        self.is_open = False
        self._file: Any = None
        self.open()

    def open(self) -> None:
        """Opens the record file (a writer truncates it)."""
        if self.flag == "w":
            mode, self.writable = "wb", True
        elif self.flag == "r":
            mode, self.writable = "rb", False
        else:
            raise ValueError(f"Invalid flag {self.flag}")
        try:
            self._file = open(self.uri, mode)
        except OSError as exc:
            action = "writing" if self.writable else "reading"
            raise MXNetError(f"MXRecordIO: cannot open {self.uri!r} for {action} ({exc.strerror})") from None
        self._size = os.fstat(self._file.fileno()).st_size if not self.writable else 0
        self._lock = threading.Lock()  # read_idx's seek and read, for DataLoader's worker threads
        self.pid = current_process().pid
        self.is_open = True

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - nothing to report while the interpreter tears down
            pass

    def __getstate__(self) -> dict[str, Any]:
        is_open = self.is_open
        self.close()
        state = dict(self.__dict__)
        state["is_open"] = is_open
        state["_file"] = None
        state["_lock"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__ = state
        is_open = state["is_open"]
        self.is_open = False
        if is_open:
            self.open()

    def _check_pid(self, allow_reset: bool = False) -> None:
        if self.pid != current_process().pid:
            if allow_reset:
                self.reset()
            else:
                raise RuntimeError("Forbidden operation in multiple processes")

    def close(self) -> None:
        """Closes the record file."""
        if not self.is_open:
            return
        self._file.close()
        self.is_open = False
        self.pid = None

    def reset(self) -> None:
        """Goes back to the first record (a writer truncates the file to empty)."""
        self.close()
        self.open()

    def write(self, buf: bytes) -> None:
        """Appends ``buf`` (bytes-like) as one record."""
        assert self.writable
        self._check_pid(allow_reset=False)
        if isinstance(buf, str):
            raise TypeError("MXRecordIO.write: bytes or bytearray expected, got str")
        data = bytes(buf)
        if len(data) >= _MAX_LEN:
            raise MXNetError("MXRecordIO.write: RecordIO only accept record less than 2^29 bytes, "
                             f"got {len(data)}")
        out = io.BytesIO()
        for cflag, part in _parts(data):
            out.write(_MAGIC_BYTES)
            out.write(struct.pack("<I", (cflag << 29) | len(part)))
            out.write(part)
            out.write(b"\0" * (_pad(len(part)) - len(part)))
        self._file.write(out.getvalue())

    def _fail(self, offset: int, what: str) -> MXNetError:
        return MXNetError(f"Invalid RecordIO File {self.uri!r} at byte offset {offset}: {what}")

    def read(self) -> bytes | None:
        """The next record's bytes, or None at the end of the file."""
        assert not self.writable
        self._check_pid(allow_reset=False)
        chunks: list[bytes] = []
        while True:
            offset = self._file.tell()
            head = self._file.read(8)
            if not head and not chunks:
                return None
            if len(head) != 8:
                raise self._fail(offset, f"truncated part header ({len(head)} of 8 bytes)")
            magic, lrec = struct.unpack("<II", head)
            if magic != _MAGIC:
                raise self._fail(offset, f"bad magic number 0x{magic:08x} (expected 0x{_MAGIC:08x})")
            cflag, length = _flag(lrec), _length(lrec)
            if (cflag in (0, 1)) != (not chunks):
                raise self._fail(offset, f"part with continue flag {cflag} out of sequence")
            if offset + 8 + _pad(length) > self._size:
                raise self._fail(offset, f"record length {length} runs past the end of the file "
                                         f"({self._size} bytes)")
            chunks.append(self._file.read(_pad(length))[:length])
            if cflag in (0, 3):
                return _MAGIC_BYTES.join(chunks)

    def _seek(self, pos: int) -> None:
        self._file.seek(pos)

    def _tell(self) -> int:
        return self._file.tell()


class MXIndexedRecordIO(MXRecordIO):
    """Reads or writes a RecordIO file with random access through an index file of ``key<TAB>offset`` lines.

    Args:
        idx_path (str): path of the index (.idx) file.
        uri (str): path of the record file.
        flag (str): ``'w'`` or ``'r'``.
        key_type (type): the type keys are read back as. Default: ``int``.

    Examples:
        >>> import os, tempfile
        >>> from cellonnx import mxnet as mx
        >>> root = tempfile.mkdtemp()
        >>> idx, rec = os.path.join(root, 'tmp.idx'), os.path.join(root, 'tmp.rec')
        >>> record = mx.recordio.MXIndexedRecordIO(idx, rec, 'w')
        >>> for i in range(5):
        ...     record.write_idx(i, b'record_%d' % i)
        >>> record.tell()
        80
        >>> record.close()
        >>> record = mx.recordio.MXIndexedRecordIO(idx, rec, 'r')
        >>> record.keys
        [0, 1, 2, 3, 4]
        >>> record.read_idx(3)
        b'record_3'
    """

    def __init__(self, idx_path: str, uri: str, flag: str, key_type: type = int) -> None:
        self.idx_path = idx_path
        self.idx: dict[Any, int] = {}
        self.keys: list[Any] = []
        self.key_type = key_type
        self.fidx: Any = None
        super().__init__(uri, flag)

    def open(self) -> None:
        super().open()
        self.idx = {}
        self.keys = []
        self.fidx = open(self.idx_path, self.flag)
        if not self.writable:
            for number, line in enumerate(iter(self.fidx.readline, ""), 1):
                fields = line.strip().split("\t")
                if len(fields) < 2:
                    raise MXNetError(f"MXIndexedRecordIO: line {number} of {self.idx_path!r} is not "
                                     f"'key<TAB>offset': {line.strip()!r}")
                key = self.key_type(fields[0])
                self.idx[key] = int(fields[1])
                self.keys.append(key)

    def close(self) -> None:
        """Closes the record and index files."""
        if not self.is_open:
            return
        super().close()
        self.fidx.close()

    def __getstate__(self) -> dict[str, Any]:
        state = super().__getstate__()
        state["fidx"] = None
        return state

    def seek(self, idx: Any) -> None:
        """Moves the read position to the record of key ``idx``."""
        assert not self.writable
        self._check_pid(allow_reset=True)
        pos = self.idx[idx]
        if pos < 0 or pos > self._size:
            raise self._fail(pos, f"offset of key {idx!r} lies outside the file ({self._size} bytes)")
        self._seek(pos)

    def tell(self) -> int:
        """The writer's current position (the offset the next record gets)."""
        assert self.writable
        return self._tell()

    def read_idx(self, idx: Any) -> bytes | None:
        """The record of key ``idx``."""
        with self._lock:
            self.seek(idx)
            return self.read()

    def write_idx(self, idx: Any, buf: bytes) -> None:
        """Appends ``buf`` as the record of key ``idx``."""
        key = self.key_type(idx)
        pos = self.tell()
        self.write(buf)
        self.fidx.write(f"{key!s}\t{pos:d}\n")
        self.idx[key] = pos
        self.keys.append(key)


IRHeader = namedtuple("HEADER", ["flag", "label", "id", "id2"])
IRHeader.__doc__ = """The header of an image record: ``flag`` (the label's length when it is an array),
``label`` (a number or an array of float32), ``id`` and ``id2`` (the record's id, high bits in id2).

Examples:
    >>> from cellonnx import mxnet as mx
    >>> mx.recordio.IRHeader(0, 4.0, 7, 0)
    HEADER(flag=0, label=4.0, id=7, id2=0)
"""

_IR_FORMAT = "IfQQ"
_IR_SIZE = struct.calcsize(_IR_FORMAT)


def pack(header: Any, s: bytes) -> bytes:
    """Prepend an image-record header (and an array label) to ``s``.

    Args:
        header (IRHeader): the header; a label that is not a number is stored as float32 after it.
        s (bytes): the payload.

    Returns:
        bytes, the packed record.

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> packed = mx.recordio.pack(mx.recordio.IRHeader(0, [1, 2], 5, 0), b'abc')
        >>> len(packed), mx.recordio.unpack(packed)[1]
        (35, b'abc')
    """
    header = IRHeader(*header)
    if isinstance(header.label, numbers.Number):
        header = header._replace(flag=0)
    else:
        label = np.asarray(header.label.asnumpy() if hasattr(header.label, "asnumpy") else header.label,
                           dtype=np.float32)
        header = header._replace(flag=label.size, label=0)
        s = label.tobytes() + s
    return struct.pack(_IR_FORMAT, *header) + s


def unpack(s: bytes) -> tuple[Any, bytes]:
    """Split a packed record into its header and payload.

    Args:
        s (bytes): a record as ``MXRecordIO.read`` returns it.

    Returns:
        (IRHeader, bytes), the header (its label an array of float32 when ``flag > 0``) and the payload.

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> mx.recordio.unpack(mx.recordio.pack(mx.recordio.IRHeader(0, 3.0, 9, 0), b'xy'))
        (HEADER(flag=0, label=3.0, id=9, id2=0), b'xy')
    """
    if len(s) < _IR_SIZE:
        raise ValueError(f"unpack: a record is at least {_IR_SIZE} bytes (its header), got {len(s)}")
    header = IRHeader(*struct.unpack(_IR_FORMAT, s[:_IR_SIZE]))
    s = s[_IR_SIZE:]
    if header.flag > 0:
        if len(s) < header.flag * 4:
            raise ValueError(f"unpack: the header says {header.flag} float32 labels, but only {len(s)} bytes "
                             "follow it")
        header = header._replace(label=np.frombuffer(s, np.float32, header.flag))
        s = s[header.flag * 4:]
    return header, s


def unpack_img(s: bytes, iscolor: int = -1) -> tuple[Any, np.ndarray]:
    """Unpack a record and decode its image as ``cv2.imdecode`` does (BGR channel order).

    Args:
        s (bytes): a record as ``MXRecordIO.read`` returns it.
        iscolor (int): 1 for a (H, W, 3) BGR image, 0 for a (H, W) grayscale one, -1 for the image as stored
            ((H, W) grayscale, (H, W, 3) BGR or (H, W, 4) BGRA). Default: -1.

    Returns:
        (IRHeader, numpy.ndarray), the header and the uint8 image.

    Examples:
        >>> import numpy as np
        >>> from cellonnx import mxnet as mx
        >>> img = np.zeros((2, 3, 3), np.uint8); img[..., 0] = 255
        >>> s = mx.recordio.pack_img(mx.recordio.IRHeader(0, 1.0, 0, 0), img, img_fmt='.png')
        >>> header, out = mx.recordio.unpack_img(s)
        >>> out.shape, int(out[0, 0, 0]), int(out[0, 0, 2])
        ((2, 3, 3), 255, 0)
    """
    from cellonnx.mxnet.recordio_image import decode

    header, s = unpack(s)
    return header, decode(s, iscolor)


def pack_img(header: Any, img: Any, quality: int = 95, img_fmt: str = ".jpg") -> bytes:
    """Encode a BGR (or grayscale) uint8 image as JPEG or PNG and pack it with ``header``.

    Args:
        header (IRHeader): the header.
        img (numpy.ndarray): (H, W) or (H, W, 3) BGR image, as OpenCV holds it.
        quality (int): JPEG quality (0-100), or PNG compression level (clipped to 9). Default: 95.
        img_fmt (str): ``'.jpg'`` / ``'.jpeg'`` or ``'.png'``. Default: ``'.jpg'``.

    Returns:
        bytes, the packed record.

    Examples:
        >>> import numpy as np
        >>> from cellonnx import mxnet as mx
        >>> s = mx.recordio.pack_img(mx.recordio.IRHeader(0, 2.0, 1, 0), np.zeros((4, 4, 3), np.uint8))
        >>> mx.recordio.unpack(s)[1][:2]
        b'\\xff\\xd8'
    """
    from cellonnx.mxnet.recordio_image import encode

    return pack(header, encode(img, quality, img_fmt))
