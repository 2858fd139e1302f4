"""``SummaryCollector``: a Model.train callback writing TensorBoard summaries through ``SummaryRecord``."""
from __future__ import annotations

import re
from typing import Any, ClassVar

import numpy as np

from cellonnx import log as logger
from cellonnx.tensor import Tensor
from cellonnx.train.callback._callback import Callback, RunContext
from cellonnx.train.callback._landscape import LandscapeCollector
from cellonnx.train.summary._events import make_dir
from cellonnx.train.summary.summary_record import (
    SummaryRecord,
    _check_type,
    keep_operator_values,
    process_export_options,
)

_DEFAULT_TENSOR_LIMIT = 20
_DEFAULT_HISTOGRAM_COUNT = 5


class SummaryCollector(Callback):
    """Collect the loss, learning rate, evaluation metrics, parameter and gradient histograms, the input
    images and the network's graph during ``Model.train`` / ``Model.fit`` into a TensorBoard event file,
    together with what the summary operators (``ops.ScalarSummary`` ...) record inside ``construct``.

    Data is collected at the first step and then every ``collect_freq`` steps. Tags: ``loss/auto`` (the mean
    of the network's first output), ``learning_rate/auto``, ``input_data/auto`` (the first column when it
    holds NCHW images), ``{parameter}/auto`` and ``{parameter}/gradient/auto`` (histograms; the optimizer's
    first five parameters, or those ``histogram_regular`` matches), ``eval/{metric}/auto`` after each
    evaluation of ``Model.fit`` (at the last training step) or ``Model.eval``. The graph is the network
    exported to ONNX on the first batch, drawn by cell scope.

    Args:
        summary_dir (str): the folder of the event file (created if missing).
        collect_freq (int): collect every this many steps (> 0). Default: ``10``.
        num_process (int): accepted for MindSpore's signature. Default: ``32``.
        collect_specified_data (Union[None, dict]): what to collect, keys as MindSpore's: ``collect_metric``
            (loss, learning rate, evaluation metrics), ``collect_graph``, ``collect_input_data``,
            ``histogram_regular`` (a regular expression over parameter names; None: the first five), and the
            accepted MindInsight-only keys ``collect_train_lineage``, ``collect_eval_lineage``,
            ``collect_dataset_graph`` (not written: TensorBoard has no lineage), and ``collect_landscape``
            (a dict of ``landscape_size``, ``unit`` 'step' | 'epoch', ``num_samples``, ``create_landscape``
            and ``intervals``: the network's parameters are saved at those steps / epochs into
            ``{summary_dir}/ckpt_dir`` with a ``train_metadata.json`` for ``SummaryLandscape``; None: not
            collected). Default: ``None`` (collect everything but the landscape).
        keep_default_action (bool): with ``collect_specified_data``, still collect what it does not name.
            Default: ``True``.
        custom_lineage_data (Union[dict, None]): {str: int | float | str}, written once as text
            (``custom_lineage_data``). Default: ``None``.
        collect_tensor_freq (Optional[int]): the frequency of TensorSummary data (by default at most 20
            steps of it are written). Default: ``None``.
        max_file_size (Optional[int]): the most bytes the event file may take. Default: ``None``.
        export_options (Union[None, dict]): as ``SummaryRecord``'s. Default: ``None``.

    Raises:
        ValueError: a bad `collect_freq`, key of `collect_specified_data` or `histogram_regular`.
        TypeError: an argument of the wrong type.

    Examples:
        >>> from cellonnx.train import Model, SummaryCollector
        >>> net = nn.Dense(4, 2)
        >>> data = {"x": np.random.rand(32, 4).astype(np.float32), "y": np.arange(32, dtype=np.int32) % 2}
        >>> ds_train = ms.dataset.NumpySlicesDataset(data, shuffle=False).batch(16)
        >>> loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        >>> model = Model(net, loss_fn, nn.Momentum(net.trainable_params(), 0.01, 0.9))
        >>> summary_collector = SummaryCollector(summary_dir='./summary_dir', collect_freq=1)
        >>> model.train(1, ds_train, callbacks=[summary_collector])
    """

    _DEFAULT_SPECIFIED_DATA: ClassVar[dict[str, Any]] = {
        "collect_metric": True,
        "collect_graph": True,
        "collect_train_lineage": True,
        "collect_eval_lineage": True,
        "collect_input_data": True,
        "collect_dataset_graph": True,
        "histogram_regular": None,
        "collect_landscape": None,
    }

    def __init__(self, summary_dir: str, collect_freq: int = 10, num_process: int = 32,
                 collect_specified_data: dict | None = None, keep_default_action: bool = True,
                 custom_lineage_data: dict | None = None, collect_tensor_freq: int | None = None,
                 max_file_size: int | None = None, export_options: dict | None = None) -> None:
        super().__init__()
        self._summary_dir = make_dir(summary_dir, "summary_dir")
        self._check_positive("collect_freq", collect_freq)
        self._check_positive("collect_tensor_freq", collect_tensor_freq, allow_none=True)
        self._check_positive("max_file_size", max_file_size, allow_none=True)
        self._collect_freq = collect_freq
        self._collect_tensor_freq = collect_tensor_freq
        self._max_file_size = max_file_size
        self._export_options = process_export_options(export_options)
        _check_type("keep_default_action", keep_default_action, (bool,))
        self._collect_specified_data = self._process_specified_data(collect_specified_data,
                                                                    keep_default_action)
        self._custom_lineage_data = self._process_custom_lineage_data(custom_lineage_data)
        landscape = self._collect_specified_data.get("collect_landscape")
        self._landscape = LandscapeCollector(self._summary_dir, landscape) if landscape else None
        self._num_process = num_process
        self._record: SummaryRecord | None = None
        self._tensor_collect_range: range | None = None
        self._first_step = True
        self._has_saved_graph = False
        self._has_saved_custom_data = False
        self._due = False
        self._grads: tuple | None = None
        self._lr: Any = None
        self._hook: Any = None
        self._last_train_step = 0
        self._training = False

    # ---------------------------------------------------------------- argument checks (MindSpore's)
    def _check_positive(self, name: str, value: Any, allow_none: bool = False) -> None:
        if allow_none and value is None:
            return
        _check_type(name, value, (int,))
        if value <= 0:
            raise ValueError(f'For "{type(self).__name__}", the value of `{name}` should be greater than 0, '
                             f'but got '
                             f"`{value}`.")

    def _process_specified_data(self, specified: Any, action: bool) -> dict:
        _check_type("collect_specified_data", specified, (dict, type(None)))
        if specified is None:
            return dict(self._DEFAULT_SPECIFIED_DATA) if action else {}
        for key in specified:
            _check_type(key, key, (str,))
        unexpected = set(specified) - set(self._DEFAULT_SPECIFIED_DATA)
        if unexpected:
            raise ValueError(f'For "{type(self).__name__}", the keys {unexpected} of '
                             f'`collect_specified_data` are '
                             f"unsupported, expect the follow keys: {list(self._DEFAULT_SPECIFIED_DATA)}")
        if "histogram_regular" in specified:
            regular = specified["histogram_regular"]
            _check_type("histogram_regular", regular, (str, type(None)))
            if isinstance(regular, str):
                try:
                    re.compile(regular)
                except re.error as exc:
                    raise ValueError("For `collect_specified_data`, the value of `histogram_regular` is not "
                                     "a "
                                     f"valid regular expression. Detail: {exc}.") from exc
        for key in set(self._DEFAULT_SPECIFIED_DATA) - {"histogram_regular", "collect_landscape"}:
            if key in specified:
                _check_type(key, specified[key], (bool,))
        if "collect_landscape" in specified:
            _check_type("collect_landscape", specified["collect_landscape"], (dict, type(None)))
        return {**self._DEFAULT_SPECIFIED_DATA, **specified} if action else dict(specified)

    @staticmethod
    def _process_custom_lineage_data(data: Any) -> dict:
        if data is None:
            return {}
        _check_type("custom_lineage_data", data, (dict, type(None)))
        for key, value in data.items():
            _check_type(f"custom_lineage_data -> {key}", key, (str,))
            _check_type(f"the value of custom_lineage_data -> {key}", value, (int, str, float))
        return dict(data)

    # ---------------------------------------------------------------- the record's lifetime
    def __enter__(self) -> SummaryCollector:
        self._record = SummaryRecord(log_dir=self._summary_dir, max_file_size=self._max_file_size,
                                     raise_exception=False, export_options=self._export_options)
        self._first_step, self._has_saved_graph = True, False
        return self

    def __exit__(self, *err: Any) -> None:
        self._remove_hook()
        if self._record is not None:
            self._record.close()

    def _ensure_record(self) -> SummaryRecord:
        if self._record is None or self._record._status["closed"]:  # used outside a CallbackManager
            self.__enter__()
        assert self._record is not None
        return self._record

    def _check_callbacks(self, cb_params: Any) -> None:
        same = [cb for cb in cb_params.get("list_callback", []) if type(cb).__name__ == type(self).__name__]
        if len(same) > 1:
            raise ValueError(f"There are more than one {type(self).__name__} instance in callback list,but "
                             f"expected "
                             f"only one {type(self).__name__} instance.")

    # ---------------------------------------------------------------- training
    def on_train_begin(self, run_context: RunContext) -> None:
        cb_params = run_context.original_args()
        self._check_callbacks(cb_params)
        record = self._ensure_record()
        record.set_mode("train")
        self._training = True
        optimizer = self._get_optimizer(cb_params)
        if optimizer is not None and self._hook is None and self._wants_histograms():
            self._hook = optimizer.register_forward_pre_hook(self._optimizer_pre_hook)

    def _optimizer_pre_hook(self, cell: Any, args: tuple) -> None:
        if not self._due:
            return
        if args and isinstance(args[0], (tuple, list)):
            self._grads = tuple(args[0])
        if self._collect_specified_data.get("collect_metric"):
            self._lr = cell.get_lr()

    def _remove_hook(self) -> None:
        if self._hook is not None:
            self._hook.remove()
            self._hook = None

    def on_train_step_begin(self, run_context: RunContext) -> None:
        cb_params = run_context.original_args()
        step = cb_params.cur_step_num
        self._due = (self._first_step or step % self._collect_freq == 0
                     or step in self._tensor_range(cb_params))
        self._grads, self._lr = None, None
        if self._due and self._hook is None and self._collect_specified_data.get("collect_metric"):
            optimizer = self._get_optimizer(cb_params)
            self._lr = optimizer.get_lr() if optimizer is not None else None

    def on_train_step_end(self, run_context: RunContext) -> None:
        cb_params = run_context.original_args()
        record = self._ensure_record()
        step = cb_params.cur_step_num
        self._last_train_step = step
        if not self._has_saved_graph:
            self._collect_graph(cb_params, step)
            self._has_saved_graph = True
        if self._custom_lineage_data and not self._has_saved_custom_data:
            self._has_saved_custom_data = True
            self._write_custom_lineage_data(step)
        tensor_range = self._tensor_range(cb_params)
        if self._first_step:
            self._collect_at_step_end(cb_params, None)
            self._first_step = False
            record.flush()
        elif step % self._collect_freq == 0 and step in tensor_range:
            self._collect_at_step_end(cb_params, None)
        elif step in tensor_range:
            self._collect_at_step_end(cb_params, lambda plugin: plugin == "tensor")
        elif step % self._collect_freq == 0:
            self._collect_at_step_end(cb_params, lambda plugin: plugin != "tensor")
        else:
            from cellonnx.train.summary.summary_record import _operator_values

            _operator_values()  # a step not collected: its operator values are dropped
        if self._landscape is not None:
            self._landscape.step_end(cb_params)

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        self._record_metrics(run_context.original_args())
        if self._landscape is not None:
            self._landscape.epoch_end(run_context.original_args())

    def on_train_end(self, run_context: RunContext) -> None:
        self._remove_hook()
        self._training = False
        record = self._ensure_record()
        record.set_mode("eval")
        record.record(self._last_train_step)
        record.flush()
        if self._landscape is not None:
            self._landscape.end(run_context.original_args().batch_num)

    # ---------------------------------------------------------------- evaluation
    def on_eval_begin(self, run_context: RunContext) -> None:
        if not self._training:
            self._ensure_record().set_mode("eval")

    def on_eval_end(self, run_context: RunContext) -> None:
        from cellonnx.train.summary.summary_record import _operator_values

        _operator_values()  # summary operators are not recorded while evaluating
        self._record_metrics(run_context.original_args())

    def _record_metrics(self, cb_params: Any) -> None:
        """The evaluation results (Model.fit's, at the end of its epoch; Model.eval's) as scalars."""
        from cellonnx.train.summary._events import summary_proto

        metrics = cb_params.get("eval_results") or cb_params.get("metrics") or {}
        items = []
        if self._collect_specified_data.get("collect_metric"):
            for name, value in metrics.items():
                arr = np.asarray(value.asnumpy() if isinstance(value, Tensor) else value, dtype=np.float64)
                if arr.size == 1 and np.isfinite(arr).all():
                    items.append(("scalar", f"eval/{name}/auto", arr.reshape(1)))
        record = self._ensure_record()
        if items:
            record._file.write(self._last_train_step, summary=summary_proto(items))
        record.flush()

    # ---------------------------------------------------------------- what is collected
    def _tensor_range(self, cb_params: Any) -> range:
        if self._tensor_collect_range is None:
            total = int(cb_params.get("epoch_num", 1)) * int(cb_params.get("batch_num", 1))
            if self._collect_tensor_freq is not None:
                self._tensor_collect_range = range(0, total + 1, self._collect_tensor_freq)
            elif len(range(0, total + 1, self._collect_freq)) > _DEFAULT_TENSOR_LIMIT:
                freq = total // (_DEFAULT_TENSOR_LIMIT - 1)
                full = range(0, total + 1, freq) if freq > 1 else range(0, total + 1)
                limit = _DEFAULT_TENSOR_LIMIT if freq > 1 else _DEFAULT_TENSOR_LIMIT + 1
                self._tensor_collect_range = full[:limit]
            else:
                self._tensor_collect_range = range(0, total + 1, self._collect_freq)
        return self._tensor_collect_range

    def _collect_at_step_end(self, cb_params: Any, plugin_filter: Any) -> None:
        self._collect_input_data(cb_params)
        self._collect_metric(cb_params)
        self._collect_histogram(cb_params)
        self._ensure_record().record(cb_params.cur_step_num, plugin_filter=plugin_filter)

    def _write_custom_lineage_data(self, step: int) -> None:
        from tensorboardX.summary import text

        lines = "\n".join(f"| {k} | {v} |" for k, v in self._custom_lineage_data.items())
        record = self._ensure_record()
        record._file.write(step, summary=text("custom_lineage_data", f"| key | value |\n|---|---|\n{lines}"))

    def _collect_graph(self, cb_params: Any, step: int) -> None:
        if not self._collect_specified_data.get("collect_graph"):
            return
        network = cb_params.get("network")
        element = cb_params.get("train_dataset_element")
        if network is None or not element:
            return
        with_loss = cb_params.get("loss_fn") is not None and len(element) > 1
        inputs = tuple(element[:-1]) if with_loss else tuple(element)
        from cellonnx.graph.compile import export_model

        try:
            with keep_operator_values():
                model = export_model(network, *inputs)
        except Exception as exc:  # noqa: BLE001 - a network that cannot be traced keeps training
            logger.warning(f"SummaryCollector: the graph of {type(network).__name__} was not collected: "
                           f"{exc}")
            return
        self._ensure_record()._graph_event(step, model)

    def _collect_input_data(self, cb_params: Any) -> None:
        if not self._collect_specified_data.get("collect_input_data"):
            return
        element = cb_params.get("train_dataset_element")
        data = element[0] if isinstance(element, (list, tuple)) and element else element
        if not isinstance(data, Tensor) or data.ndim != 4 or data.shape[1] not in (1, 3) or 0 in data.shape:
            logger.warning("The input data of network are not image, so will not collect by "
                           "SummaryCollector.")
            self._collect_specified_data["collect_input_data"] = False
            return
        self._ensure_record().add_value("image", "input_data/auto", data)

    def _collect_metric(self, cb_params: Any) -> None:
        if not self._collect_specified_data.get("collect_metric"):
            return
        record = self._ensure_record()
        output = cb_params.get("net_outputs")
        loss = output[0] if isinstance(output, (list, tuple)) and output else output
        if isinstance(loss, (Tensor, int, float, np.ndarray)):
            value = np.asarray(loss.asnumpy() if isinstance(loss, Tensor) else loss, dtype=np.float64)
            if value.size:
                record.add_value("scalar", "loss/auto", Tensor(np.float32(value.mean())))
        lr = self._lr
        if isinstance(lr, (tuple, list)):
            lr = lr[0] if lr else None
        if isinstance(lr, Tensor) and lr.size >= 1:
            value = lr.asnumpy().reshape(-1)[:1].astype(np.float32)
            record.add_value("scalar", "learning_rate/auto", Tensor(value))

    def _wants_histograms(self) -> bool:
        return "histogram_regular" in self._collect_specified_data

    def _histogram_parameters(self, optimizer: Any) -> list:
        params = list(optimizer.parameters)
        regular = self._collect_specified_data.get("histogram_regular")
        if regular is not None:
            return [(i, p) for i, p in enumerate(params) if re.match(regular, p.name)]
        return list(enumerate(params))[:_DEFAULT_HISTOGRAM_COUNT]

    def _collect_histogram(self, cb_params: Any) -> None:
        if not self._wants_histograms():
            return
        optimizer = self._get_optimizer(cb_params)
        if optimizer is None:
            return
        record = self._ensure_record()
        grads = self._grads
        for i, param in self._histogram_parameters(optimizer):
            record.add_value("histogram", f"{param.name}/auto", Tensor(param.asnumpy()))
            if grads is not None and i < len(grads) and isinstance(grads[i], Tensor):
                record.add_value("histogram", f"{param.name}/gradient/auto", Tensor(grads[i].asnumpy()))

    @staticmethod
    def _get_optimizer(cb_params: Any) -> Any:
        from cellonnx.nn.optim.optimizer import Optimizer

        optimizer = cb_params.get("optimizer")
        if isinstance(optimizer, Optimizer):
            return optimizer
        network = cb_params.get("train_network")
        network = cb_params.get("eval_network") if network is None else network
        if network is None:
            return None
        for _, cell in network.cells_and_names():
            if isinstance(cell, Optimizer):
                return cell
        return None
