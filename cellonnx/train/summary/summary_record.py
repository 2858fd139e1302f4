"""``SummaryRecord``: MindSpore's summary writer, producing TensorBoard event files.

Values come from ``add_value`` and from the summary operators (``ops.ScalarSummary`` ...) run inside
``construct``; ``record(step)`` writes them as one event of that step. The network's graph is the exported
ONNX graph drawn by cell scope (see ``_graph``). Files are written by tensorboardX, in the calling thread.
"""
from __future__ import annotations

import atexit
import os
import re
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from cellonnx import log as logger
from cellonnx.tensor import Tensor
from cellonnx.train.summary import _events

_instance_lock = threading.Lock()
_DEFAULT_EXPORT_OPTIONS = {"tensor_format": {"npy", None}}
_VALUE_PLUGINS = ("tensor", "scalar", "image", "histogram")
_ALL_PLUGINS = ("tensor", "scalar", "image", "histogram", "train_lineage", "eval_lineage", "dataset_graph",
                "custom_lineage_data", "graph", "LANDSCAPE")
_NAME_PATTERN = re.compile(r"^[A-Za-z0-9_.\-/]*$")


def _check_type(arg_name: str, value: Any, types: tuple) -> None:
    if (isinstance(value, bool) and bool not in types) or not isinstance(value, types):
        raise TypeError(f"For `{arg_name}` the type should be a valid type of {[t.__name__ for t in types]}, "
                        f"but got {type(value).__name__}.")


def _check_str_by_regular(target: str) -> None:
    if not _NAME_PATTERN.match(target):
        raise ValueError(f"'{target}' is illegal, it should match the regular expression "
                         f"'{_NAME_PATTERN.pattern}'.")


def process_export_options(export_options: Any) -> dict | None:
    """Check ``export_options`` (only ``{'tensor_format': 'npy' | None}``) as MindSpore does."""
    if export_options is None:
        return None
    _check_type("export_options", export_options, (dict, type(None)))
    for option, fmt in export_options.items():
        _check_type("export_option", option, (str,))
        _check_type("export_format", fmt, (str, type(None)))
    unexpected = set(export_options) - set(_DEFAULT_EXPORT_OPTIONS)
    if unexpected:
        raise ValueError(f'For "SummaryRecord", the keys {unexpected} of "export_options" are unsupported, '
                         f"expect the follow keys: {list(_DEFAULT_EXPORT_OPTIONS)}")
    for option, fmt in export_options.items():
        if fmt not in _DEFAULT_EXPORT_OPTIONS[option]:
            raise ValueError(f'For "SummaryRecord", the export_format {{{fmt!r}}} of "export_options" are '
                             f"unsupported for {option}, expect the follow values: "
                             f"{list(_DEFAULT_EXPORT_OPTIONS[option])}")
    return export_options


def check_to_numpy(plugin: str, value: Tensor, summary_name: str = "SummaryRecord") -> np.ndarray:
    """The value as a NumPy copy, checked for its plugin: a scalar holds one element, an image is 4-D (NCHW),
    a tensor or histogram is not 0-D (MindSpore's rules and messages)."""
    arr = np.array(value.asnumpy(), copy=True)
    if plugin == "scalar" and arr.size != 1:
        raise ValueError(f'For "{summary_name}", the v rank must be less than or equal to 1, but got '
                         f'{len(arr)}.')
    if plugin == "image" and arr.ndim != 4:
        raise ValueError(f'For "{summary_name}", the tensor seems not to hold a valid image.')
    if plugin in ("tensor", "histogram") and arr.ndim == 0:
        raise ValueError(f'For "{summary_name}", the value should not be empty.')
    return arr


def _operator_values() -> dict[tuple[str, str], Tensor]:
    """What the summary operators recorded since the last call, as {(plugin, tag): value}; emptied."""
    from cellonnx.ops.operations import debug_ops

    taken = {}
    for plugin, values in debug_ops.SUMMARY_DATA.items():
        for tag, value in values.items():
            taken[(plugin, tag)] = value
        values.clear()
    return taken


@contextmanager
def keep_operator_values() -> Iterator[None]:
    """Leave what the summary operators recorded as it was: tracing a network for its graph runs them on the
    example inputs, and those values are not the training's."""
    from cellonnx.ops.operations import debug_ops

    saved = {plugin: dict(values) for plugin, values in debug_ops.SUMMARY_DATA.items()}
    try:
        yield
    finally:
        for plugin, values in debug_ops.SUMMARY_DATA.items():
            values.clear()
            values.update(saved.get(plugin, {}))


class SummaryRecord:
    """Record scalars, histograms, images, tensors and the network's graph into a TensorBoard event file.

    The file is created lazily in ``log_dir`` and written by ``record``. Besides the values given to
    ``add_value``, ``record`` takes what the summary operators (``ops.ScalarSummary``,
    ``ops.HistogramSummary``, ``ops.ImageSummary``, ``ops.TensorSummary``) recorded while the network ran
    (in 'train' mode).

    Note:
        Only one SummaryRecord may be open at a time. Close it (``close()`` or a ``with`` block). The file is
        named ``{file_prefix}.out.tfevents.summary.{seconds}.{device id}.{host}{file_suffix}``: MindSpore's
        naming with TensorBoard's ``tfevents`` mark, so ``tensorboard --logdir`` finds it (MindInsight's
        lineage files are not written).

    Args:
        log_dir (str): the folder for the summary file (created if missing).
        file_prefix (str): the file name's prefix. Default: ``"events"``.
        file_suffix (str): the file name's suffix. Default: ``"_MS"``.
        num_process (int): accepted for MindSpore's signature; the file is written in the calling thread.
            Default: ``32``.
        network (Cell): the network whose graph is recorded at the first ``record`` (traced on its declared
            ``set_inputs``). Default: ``None``.
        max_file_size (int, optional): the most bytes the file may take. Default: ``None`` (no limit).
        raise_exception (bool): raise, rather than log, an OSError met while writing. Default: ``False``.
        export_options (Union[None, dict]): ``{'tensor_format': 'npy'}`` also saves each tensor value as a
            ``.npy`` file under ``log_dir/export_{seconds}/tensor/``. Default: ``None``.

    Raises:
        TypeError: `max_file_size` is not an int, or `file_prefix` / `file_suffix` is not a str.
        RuntimeError: another SummaryRecord is open.

    Examples:
        >>> with ms.SummaryRecord(log_dir="./summary_dir") as summary_record:
        ...     summary_record.add_value('scalar', 'loss', ms.Tensor(0.1))
        ...     _ = summary_record.record(1)
    """

    count = 0

    def __init__(self, log_dir: str, file_prefix: str = "events", file_suffix: str = "_MS",
                 num_process: int = 32, network: Any = None, max_file_size: int | None = None,
                 raise_exception: bool = False, export_options: dict | None = None) -> None:
        with _instance_lock:
            self._check_count()
            SummaryRecord.count += 1
        self._status = {"closed": False, "has_graph": False}
        try:
            self._initialize(log_dir, file_prefix, file_suffix, num_process, network, max_file_size,
                             raise_exception, export_options)
        except (TypeError, ValueError, ImportError):
            with _instance_lock:
                SummaryRecord.count -= 1
            raise

    def _initialize(self, log_dir: str, file_prefix: str, file_suffix: str, num_process: int, network: Any,
                    max_file_size: Any, raise_exception: Any, export_options: Any) -> None:
        from cellonnx.nn.cell import Cell

        _events._tbx()
        self._mode = "train"
        self._data_pool: dict[str, list[dict]] = defaultdict(list)
        self.base_log_dir = _events.make_dir(log_dir, "log_dir")
        if not isinstance(max_file_size, (int, type(None))) or isinstance(max_file_size, bool):
            raise TypeError(f"For 'SummaryRecord', the 'max_file_size' should be int type, but got type "
                            f"{type(max_file_size)}")
        if not isinstance(file_prefix, str) or not isinstance(file_suffix, str):
            raise TypeError(f"For 'SummaryRecord', `file_prefix` and `file_suffix`  should be str, but got "
                            f"type "
                            f"{type(file_prefix)}")
        _check_str_by_regular(file_prefix)
        _check_str_by_regular(file_suffix)
        if max_file_size is not None and max_file_size < 0:
            logger.warning(f"For 'SummaryRecord', the 'max_file_size' should be greater than 0. but got "
                           f"value "
                           f"{max_file_size}.")
            max_file_size = None
        _check_type("raise_exception", raise_exception, (bool,))
        _check_type("network", network, (Cell, type(None)))
        self.file_prefix, self.file_suffix = file_prefix, file_suffix
        self.network = network
        self.max_file_size = max_file_size
        self.raise_exception = raise_exception
        self._num_process = num_process
        self._export_options = process_export_options(export_options)
        seconds = int(time.time())
        name = _events.event_file_name(file_prefix, file_suffix, str(seconds))
        while os.path.exists(os.path.join(self.base_log_dir, name)):  # another record of this second: keep it
            seconds += 1
            name = _events.event_file_name(file_prefix, file_suffix, str(seconds))
        time_second = str(seconds)
        self.file_info = {"file_name": name, "file_path": os.path.join(self.base_log_dir, name)}
        self._export_dir = (os.path.join(self.base_log_dir, f"export_{time_second}")
                            if self._export_options is not None else "")
        self._file = _events.EventFile(self.file_info["file_path"], max_file_size, raise_exception)
        _operator_values()  # values recorded before this SummaryRecord existed are not its own
        atexit.register(self.close)

    @classmethod
    def _check_count(cls) -> None:
        if cls.count > 0:
            raise RuntimeError(
                f"For '{cls.__name__}', only one instance is supported in a training process, you are "
                f"trying to "
                f"create a new one when the existing instance number is {cls.count}. Please check your "
                f"scripts.")

    def __enter__(self) -> SummaryRecord:
        if self._status["closed"]:
            raise ValueError(f'For "{type(self).__name__}", SummaryRecord has been closed, please check if '
                             f'close() '
                             "method is called")
        return self

    def __exit__(self, *err: Any) -> None:
        self.close()

    def set_mode(self, mode: str) -> None:
        """Set the running phase, 'train' or 'eval'; in 'eval' the summary operators' values are not recorded.

        Raises:
            ValueError: `mode` is neither.
        """
        if mode not in ("train", "eval"):
            raise ValueError(f'For "{type(self).__name__}.set_mode", {mode!r} is not a recognized mode, '
                             f'expect the '
                             'parameter "mode" is "train" or "eval"')
        self._mode = mode

    def add_value(self, plugin: str, name: str, value: Any) -> None:
        """Add a value to be written by the next ``record``.

        Args:
            plugin (str): 'scalar', 'histogram', 'image' (NCHW, C 1 or 3) or 'tensor'; also 'graph' (an
                ``onnx.ModelProto`` or a tensorboardX ``GraphDef``) and 'landscape' (a ``LossLandscape`` of
                ``SummaryLandscape``, written as tensors ``{name}/landscape/x`` ...).
            name (str): the tag.
            value (Union[Tensor, onnx.ModelProto]): the value.

        Raises:
            ValueError: `plugin` is not one of these, or `name` is not a non-empty str.
            TypeError: `value` is not a Tensor for 'scalar', 'image', 'tensor' or 'histogram'.
        """
        if plugin in _VALUE_PLUGINS:
            if not name or not isinstance(name, str):
                raise ValueError(f'For "{type(self).__name__}", the parameter "name" type should be str, '
                                 f'but got '
                                 f"{type(name)}.")
            if not isinstance(value, Tensor):
                raise TypeError(f'For "{type(self).__name__}", the parameter "value" expect to be Tensor, '
                                f'but got '
                                f"{type(value).__name__}")
            arr = check_to_numpy(plugin, value)
            if name in {item["tag"] for item in self._data_pool[plugin]}:
                logger.warning(f'For "{type(self).__name__}.add_value", {name + "/" + plugin!r} has '
                               f'duplicate '
                               "values. Only the newest one will be recorded.")
                self._data_pool[plugin] = [d for d in self._data_pool[plugin] if d["tag"] != name]
            data: dict[str, Any] = {"tag": name, "value": arr}
            option = f"{plugin}_format"
            if self._export_options is not None and option in self._export_options:
                data["export_option"] = self._export_options[option]
            self._data_pool[plugin].append(data)
        elif plugin == "graph":
            self._data_pool[plugin].append({"value": value})
        elif plugin in ("landscape", "LANDSCAPE"):
            if not hasattr(value, "tensors"):
                raise TypeError(f'For "{type(self).__name__}", a landscape value should be a LossLandscape '
                                f"(SummaryLandscape writes them), but got {type(value).__name__}")
            for suffix, arr in value.tensors():  # each field a tensor under the landscape's tag
                self._data_pool["tensor"].append({"tag": f"{name}/{suffix}",
                                                  "value": np.array(arr, copy=True)})
        elif plugin in _ALL_PLUGINS:
            logger.warning(f"SummaryRecord.add_value: {plugin!r} data is MindInsight's and is not written to "
                           "TensorBoard event files; ignored")
        else:
            raise ValueError(f'For "{type(self).__name__}.add_value", no such "plugin" of {plugin!r} , '
                             f'expect value '
                             "is one of [tensor, scalar, image, histogram, train_lineage, eval_lineage, "
                             "dataset_graph, custom_lineage_data, graph, landscape]")

    def _graph_event(self, step: int, value: Any) -> None:
        import onnx

        from cellonnx.train.summary._graph import onnx_to_graph_def

        graph = onnx_to_graph_def(value) if isinstance(value, onnx.ModelProto) else value
        self._file.write(step, graph_def=graph.SerializeToString())

    def _network_graph(self, network: Any) -> Any:
        from cellonnx.graph.compile import export_model

        try:
            with keep_operator_values():
                return export_model(network)
        except Exception as exc:  # noqa: BLE001 - a graph that cannot be traced is reported, not fatal
            logger.warning(f"SummaryRecord: the graph of {type(network).__name__} was not recorded: {exc}")
            return None

    def record(self, step: int, train_network: Any = None, plugin_filter: Callable[[str], bool] | None = None
               ) -> bool:
        """Write the values added since the last call (and the summary operators' values) as step ``step``.

        Args:
            step (int): the training step.
            train_network (Cell): a network whose graph is recorded when ``network`` gave none.
                Default: ``None``.
            plugin_filter (Callable[[str], bool], optional): write only the plugins it accepts.
                Default: ``None``.

        Returns:
            bool, whether the record was written.

        Raises:
            TypeError: `step` is not an int, or `train_network` is not a Cell.
        """
        from cellonnx.nn.cell import Cell

        _check_type("step", step, (int,))
        _check_type("train_network", train_network, (Cell, type(None)))
        if self._status["closed"]:
            logger.error(f"For '{type(self).__name__}', The record writer is closed, please check if "
                         f"close() method "
                         "is called")
            return False
        if self.network is not None and not self._status["has_graph"]:
            model = self._network_graph(self.network)
            if model is None and train_network is not None:
                model = self._network_graph(train_network)
            if model is not None:
                self._graph_event(step, model)
                self._status["has_graph"] = True
        if self._mode == "train":
            for (plugin, tag), value in _operator_values().items():
                self.add_value(plugin, tag, value)
        else:
            _operator_values()
        pool, self._data_pool = self._data_pool, defaultdict(list)
        if plugin_filter is not None:
            pool = defaultdict(list, {p: d for p, d in pool.items() if plugin_filter(p)})
        for item in pool.pop("graph", []):
            self._graph_event(step, item["value"])
        items = [(plugin, d["tag"], d["value"]) for plugin, data in pool.items() for d in data]
        if items:
            self._file.write(step, summary=_events.summary_proto(items))
        for plugin, data in pool.items():
            for d in data:
                if d.get("export_option") == "npy":
                    self._export_npy(plugin, d["tag"], step, d["value"])
        return True

    def _export_npy(self, plugin: str, tag: str, step: int, value: np.ndarray) -> None:
        from urllib.parse import quote

        folder = os.path.join(self._export_dir, plugin)
        os.makedirs(folder, exist_ok=True)
        np.save(os.path.join(folder, f"{quote(tag, safe='')}_{step}.npy"), value)

    @property
    def log_dir(self) -> str:
        """The full path of the event file."""
        return self.file_info["file_path"]

    def flush(self) -> None:
        """Write what is buffered to disk."""
        if self._status["closed"]:
            logger.error(f"For '{type(self).__name__}', the record writer is closed and can not flush, "
                         f"please check "
                         "if close() method is called")
        else:
            self._file.flush()

    def close(self) -> None:
        """Flush and close the event file; the next SummaryRecord may then be opened."""
        if self._status["closed"]:
            return
        atexit.unregister(self.close)
        self._file.close()
        self._status["closed"] = True
        with _instance_lock:
            SummaryRecord.count -= 1
