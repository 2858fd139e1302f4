"""TensorBoard event files, written through tensorboardX's protocol buffers and record writer.

One ``EventFile`` is one file of length-prefixed, CRC-checked ``Event`` records, the first holding the file
version, as TensorBoard's loaders expect; ``summary_values`` turns the values that ``SummaryRecord`` collects
(scalar, histogram, image, tensor) into ``Summary.Value`` protos.
"""
from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from cellonnx import log as logger

# TensorBoard reads the files of a folder whose names hold "tfevents"
EVENT_FILE_NAME_MARK = ".out.tfevents.summary."
_RECORD_OVERHEAD = 16  # length (8), its CRC (4) and the data's CRC (4)

_DT = {"float16": 19, "float32": 1, "float64": 2, "int8": 6, "int16": 5, "int32": 3, "int64": 9,
       "uint8": 4, "uint16": 17, "uint32": 22, "uint64": 23, "bool": 10}


def _tbx() -> Any:
    try:
        import tensorboardX
    except ImportError:
        raise ImportError("cellonnx's summaries are written with tensorboardX: pip install "
                          "'cellonnx[summary]' "
                          "(or pip install tensorboardX)") from None
    return tensorboardX


def event_file_name(prefix: str, suffix: str, time_second: str, device_id: int = 0) -> str:
    """``prefix + '.out.tfevents.summary.' + seconds + '.' + device id + '.' + host + suffix``: MindSpore's
    naming, with the mark TensorBoard looks for in place of MindSpore's ``.out.events.summary.``."""
    import platform

    return f"{prefix}{EVENT_FILE_NAME_MARK}{time_second}.{device_id}.{platform.node()}{suffix}"


class EventFile:
    """An event file opened lazily on the first write; ``max_file_size`` bytes at most (None: no limit).

    A record that would pass the limit is not written and closes the file, as MindSpore's writer does; an
    OSError is logged, or raised with ``raise_exception``.
    """

    def __init__(self, path: str, max_file_size: int | None = None, raise_exception: bool = False) -> None:
        self.path = path
        self._left = max_file_size
        self._raise = raise_exception
        self._writer: Any = None
        self.closed = False

    def _open(self) -> Any:
        if self._writer is None:
            from tensorboardX.record_writer import RecordWriter

            self._writer = RecordWriter(self.path)
            version = self._event(file_version="brain.Event:2")
            self._write_bytes(version.SerializeToString())
        return self._writer

    @staticmethod
    def _event(step: int | None = None, **fields: Any) -> Any:
        from tensorboardX.proto.event_pb2 import Event

        event = Event(wall_time=time.time(), **fields)
        if step is not None:
            event.step = int(step)
        return event

    def _write_bytes(self, data: bytes) -> None:
        need = len(data) + _RECORD_OVERHEAD
        if self._left is not None:
            if need > self._left:
                logger.warning(f"SummaryRecord: 'max_file_size' reached: {self._left} bytes remain but "
                               f"{self.path} needs {need}; the file is closed")
                self.close()
                return
            self._left -= need
        self._writer.write(data)

    def write(self, step: int, summary: Any = None, graph_def: bytes | None = None) -> None:
        """Append one event: a ``Summary`` proto or a serialized ``GraphDef``."""
        if self.closed:
            return
        fields = {"summary": summary} if summary is not None else {"graph_def": graph_def}
        try:
            self._open()
            self._write_bytes(self._event(step, **fields).SerializeToString())
        except OSError as exc:
            logger.error(f"SummaryRecord: writing {self.path} failed: {exc}")
            self.close()
            if self._raise:
                raise

    def flush(self) -> None:
        if self._writer is not None and not self.closed:
            self._writer.flush()

    def close(self) -> None:
        if self._writer is not None and not self.closed:
            self._writer.close()
        self.closed = True


# ---------------------------------------------------------------- values -> Summary.Value
def _image_canvas(value: np.ndarray, columns: int = 8) -> np.ndarray:
    """NCHW images (C 1 or 3) on one HWC uint8 canvas, ``columns`` to a row; the values scaled as MindSpore
    does: uint8 as they are, [0, 1] times 255, anything else mapped linearly from its minimum."""
    n, c, h, w = value.shape
    x = value.astype(np.float32)
    if value.dtype != np.uint8:
        lo, hi = float(x.min()), float(x.max())
        if lo >= 0 and hi <= 1:
            x = x * 255
        else:
            x = (x - lo) * (255 / (hi - lo + 1) if hi != lo else 1.0)
    if c == 1:
        x = np.repeat(x, 3, axis=1)
    cols = min(n, columns)
    rows = -(-n // cols)
    canvas = np.zeros((rows * h, cols * w, 3), np.float32)
    for i in range(n):
        r, k = divmod(i, cols)
        canvas[r * h:(r + 1) * h, k * w:(k + 1) * w] = x[i].transpose(1, 2, 0)
    return np.clip(canvas, 0, 255).astype(np.uint8)


def _tensor_proto(value: np.ndarray) -> Any:
    from tensorboardX.proto.tensor_pb2 import TensorProto
    from tensorboardX.proto.tensor_shape_pb2 import TensorShapeProto

    if value.dtype.name not in _DT:
        value = value.astype(np.float32)
    shape = TensorShapeProto(dim=[TensorShapeProto.Dim(size=int(d)) for d in value.shape])
    return TensorProto(dtype=_DT[value.dtype.name], tensor_shape=shape,
                       tensor_content=np.ascontiguousarray(value).tobytes())


def _scalar(tag: str, value: np.ndarray) -> Any:
    from tensorboardX.proto.summary_pb2 import Summary

    return Summary.Value(tag=tag, simple_value=float(value.reshape(-1)[0]))


def _histogram(tag: str, value: np.ndarray) -> Any:
    from tensorboardX.proto.summary_pb2 import Summary
    from tensorboardX.summary import make_histogram

    finite = value.astype(np.float64).reshape(-1)
    finite = finite[np.isfinite(finite)]
    if finite.size == 0:
        finite = np.zeros(1)
    return Summary.Value(tag=tag, histo=make_histogram(finite, bins="auto", max_bins=90))


def _image(tag: str, value: np.ndarray) -> Any:
    from tensorboardX.proto.summary_pb2 import Summary
    from tensorboardX.summary import make_image

    return Summary.Value(tag=tag, image=make_image(_image_canvas(value)))


def _tensor(tag: str, value: np.ndarray) -> Any:
    from tensorboardX.proto.summary_pb2 import Summary, SummaryMetadata

    meta = SummaryMetadata(plugin_data=SummaryMetadata.PluginData(plugin_name="tensor"))
    return Summary.Value(tag=tag, tensor=_tensor_proto(value), metadata=meta)


_MAKERS: dict[str, Callable[[str, np.ndarray], Any]] = {
    "scalar": _scalar, "histogram": _histogram, "image": _image, "tensor": _tensor}


def summary_proto(items: list[tuple[str, str, np.ndarray]]) -> Any:
    """One ``Summary`` proto holding ``(plugin, tag, value)`` items."""
    _tbx()
    from tensorboardX.proto.summary_pb2 import Summary

    return Summary(value=[_MAKERS[plugin](tag, value) for plugin, tag, value in items])


def make_dir(path: str, arg_name: str) -> str:
    """``path`` made (with its parents) and returned as an absolute path; a clear error for a bad one."""
    if not isinstance(path, (str, os.PathLike)) or not str(path).strip():
        raise ValueError(f"The '{arg_name}' should be a non-empty path, but got {path!r}.")
    real = os.path.realpath(os.path.expanduser(str(path)))
    try:
        os.makedirs(real, exist_ok=True)
    except OSError as exc:
        raise ValueError(f"The '{arg_name}' {path!r} can not be created: {exc.strerror}.") from None
    return real
