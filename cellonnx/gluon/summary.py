"""mxboard's ``SummaryWriter`` for Gluon code: scalars, histograms, images, text and the network's graph in a
TensorBoard event file (``from mxboard import SummaryWriter`` ports as ``from cellonnx.mxboard import
SummaryWriter``). The graph of a HybridBlock is its exported ONNX graph, drawn by block scope."""
from __future__ import annotations

import os
import platform
import tempfile
import time
from typing import Any

import numpy as np

from cellonnx.train.summary import _events

__all__ = ["SummaryWriter"]


def _array(value: Any) -> np.ndarray:
    return np.asarray(value.asnumpy() if hasattr(value, "asnumpy") else value)


def _default_bins() -> list[float]:
    """TensorFlow's default histogram buckets: +-1e-12 growing by 10% up to 1e20, and 0."""
    v, pos = 1e-12, []
    while v < 1e20:
        pos.append(v)
        v *= 1.1
    return [-x for x in reversed(pos)] + [0.0] + pos


def _image_hwc(image: np.ndarray) -> np.ndarray:
    """(H, W), (C, H, W) or (N, C, H, W) as one HWC uint8 image (a batch tiled in a square grid). Float
    values are scaled per image as mxboard does: all non-negative, the largest becomes 255; otherwise 0.0 goes
    to 127.5 and the values are scaled so that the smallest is 0 or the largest 255."""
    if image.ndim == 2:
        image = image[None]
    if image.ndim == 3:
        image = image[None]
    if image.ndim != 4 or image.shape[1] not in (1, 3, 4):
        raise ValueError(f"SummaryWriter.add_image: expected an image of shape (H, W), (C, H, W) or (N, C, "
                         f"H, W) "
                         f"with C 1, 3 or 4, got {image.shape}")
    if image.dtype != np.uint8:
        out = []
        for img in image.astype(np.float64):
            lo, hi = img.min(), img.max()
            if lo >= 0:
                img = img * (255.0 / hi) if hi > 0 else img
            else:
                scale = 127.5 / max(-lo, hi) if max(-lo, hi) > 0 else 1.0
                img = img * scale + 127.5
            out.append(np.clip(np.round(img), 0, 255))
        image = np.stack(out).astype(np.uint8)
    n, c, h, w = image.shape
    if c == 1:
        image = np.repeat(image, 3, axis=1)
        c = 3
    cols = int(np.ceil(np.sqrt(n)))
    rows = -(-n // cols)
    grid = np.zeros((rows * h, cols * w, c), np.uint8)
    for i in range(n):
        r, k = divmod(i, cols)
        grid[r * h:(r + 1) * h, k * w:(k + 1) * w] = image[i].transpose(1, 2, 0)
    return grid


class SummaryWriter:
    """Write TensorBoard summaries from Gluon code, as mxboard's ``SummaryWriter``.

    Args:
        logdir (str): the folder of the event file (created if missing).
        max_queue (int): accepted for mxboard's signature (events are written as they come). Default: ``10``.
        flush_secs (Number): flush at least this often, in seconds. Default: ``120``.
        filename_suffix (str): appended to the event file's name. Default: ``None``.
        verbose (bool): accepted for mxboard's signature. Default: ``True``.

    Examples:
        >>> with SummaryWriter(logdir='./logs') as sw:
        ...     sw.add_scalar(tag='cross_entropy', value=0.5, global_step=1)
        ...     sw.add_histogram(tag='fc1.weight', values=net.fc1.weight.data(), global_step=1)
        ...     sw.add_graph(net)  # a HybridBlock, hybridized and run once
    """

    def __init__(self, logdir: str, max_queue: int = 10, flush_secs: float = 120,
                 filename_suffix: str | None = None, verbose: bool = True) -> None:
        _events._tbx()
        self._logdir = _events.make_dir(logdir, "logdir")
        self._flush_secs = flush_secs
        self._suffix = filename_suffix or ""
        self._open()

    def _open(self) -> None:
        name = f"events.out.tfevents.{int(time.time())}.{platform.node()}{self._suffix}"
        self._file = _events.EventFile(os.path.join(self._logdir, name))
        self._last_flush = time.monotonic()

    def __enter__(self) -> SummaryWriter:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def get_logdir(self) -> str:
        """The folder the event file is written to."""
        return self._logdir

    def _write(self, step: Any, summary: Any = None, graph_def: bytes | None = None) -> None:
        self._file.write(0 if step is None else int(step), summary=summary, graph_def=graph_def)
        if time.monotonic() - self._last_flush >= self._flush_secs:
            self.flush()

    def add_scalar(self, tag: str, value: Any, global_step: int | None = None) -> None:
        """Add a scalar ``value`` (a number or a one-element array) under ``tag``."""
        arr = _array(value).astype(np.float64)
        if arr.size != 1:
            raise ValueError(f"SummaryWriter.add_scalar: '{tag}' needs one value, got shape {arr.shape}")
        self._write(global_step, _events.summary_proto([("scalar", tag, arr.reshape(1))]))

    def add_histogram(self, tag: str, values: Any, global_step: int | None = None, bins: Any = "default"
                      ) -> None:
        """Add a histogram of ``values``; ``bins`` is 'default' (TensorFlow's buckets), an int, a sequence of
        edges or one of NumPy's bin rules ('auto', 'fd' ...)."""
        from tensorboardX.proto.summary_pb2 import Summary
        from tensorboardX.summary import make_histogram

        arr = _array(values).astype(np.float64).reshape(-1)
        if arr.size == 0:
            raise ValueError(f"SummaryWriter.add_histogram: '{tag}' has no values")
        if isinstance(bins, str) and bins == "default":
            edges = np.asarray(_default_bins())
            lo, hi = np.searchsorted(edges, [arr.min(), arr.max()])
            bins = edges[max(lo - 1, 0):hi + 1]
            if len(bins) < 2:
                bins = 1
        histo = make_histogram(arr, bins)
        self._write(global_step, Summary(value=[Summary.Value(tag=tag, histo=histo)]))

    def add_image(self, tag: str, image: Any, global_step: int | None = None) -> None:
        """Add an image: (H, W), (C, H, W), or a batch (N, C, H, W) tiled in a square grid."""
        from tensorboardX.proto.summary_pb2 import Summary
        from tensorboardX.summary import make_image

        hwc = _image_hwc(_array(image))
        self._write(global_step, Summary(value=[Summary.Value(tag=tag, image=make_image(hwc))]))

    def add_text(self, tag: str, text: str, global_step: int | None = None) -> None:
        """Add a text (shown, as Markdown, on TensorBoard's text page)."""
        from tensorboardX.summary import text as text_summary

        self._write(global_step, text_summary(tag, text))

    def add_graph(self, net: Any) -> None:
        """Add the network's graph: a HybridBlock (hybridized and run forward once, as mxboard asks), an
        ``onnx.ModelProto`` or the path of an .onnx file."""
        import onnx

        from cellonnx.train.summary._graph import onnx_to_graph_def

        if isinstance(net, onnx.ModelProto):
            model = net
        elif isinstance(net, (str, os.PathLike)):
            model = onnx.load(str(net), load_external_data=False)
        elif hasattr(net, "export"):
            with tempfile.TemporaryDirectory() as tmp:
                model = onnx.load(net.export(os.path.join(tmp, "graph")))
        else:
            raise TypeError(f"SummaryWriter.add_graph: expected a HybridBlock, an onnx.ModelProto or an "
                            f".onnx "
                            f"path, got {type(net).__name__}")
        self._write(0, graph_def=onnx_to_graph_def(model).SerializeToString())

    def flush(self) -> None:
        """Write pending events to disk."""
        self._file.flush()
        self._last_flush = time.monotonic()

    def close(self) -> None:
        """Flush and close the event file."""
        self._file.close()

    def reopen(self) -> None:
        """Open a new event file in the same folder after ``close``."""
        if self._file.closed:
            self._open()
