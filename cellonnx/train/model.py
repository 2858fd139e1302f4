"""Model: the high-level training / evaluation / prediction API (``mindspore.train.Model``)."""
from __future__ import annotations

import copy
import sys
from collections.abc import Iterable
from typing import Any

import numpy as np

from cellonnx import parallel_context as _parallel
from cellonnx.nn.cell import Cell
from cellonnx.nn.metrics import Loss, Metric, get_metric_fn, get_metrics
from cellonnx.nn.wrap import WithEvalCell, WithLossCell
from cellonnx.tensor import Tensor
from cellonnx.train import amp
from cellonnx.train.callback._callback import Callback, CallbackManager, InternalCallbackParam, RunContext
from cellonnx.train.callback._monitors import ProgressBar, TimeMonitor

__all__ = ["Model"]

_KWARGS = ("loss_scale_manager", "keep_batchnorm_fp32", "boost_config_dict", "acc_level", "progress_bar")

# The class names MindSpore 2.10 counts as its own built-in callbacks (``mindspore.train.callback.__all__``),
# plus cellonnx's ProgressBar. Model.fit runs none of them during its evaluations except TimeMonitor; like
# MindSpore, the test is on the class name, so a user's subclass under another name takes part.
_BUILTIN_CALLBACKS = frozenset((
    "Callback", "LossMonitor", "TimeMonitor", "ModelCheckpoint", "FlopsUtilizationCollector",
    "SummaryCollector", "CheckpointConfig", "RunContext", "LearningRateScheduler", "SummaryLandscape",
    "History", "LambdaCallback", "ReduceLROnPlateau", "EarlyStopping", "OnRequestExit", "BackupAndRestore",
    "TrainFaultTolerance", "ProgressBar"))


def _transfer_tensor_to_tuple(inputs: Any) -> tuple:
    if isinstance(inputs, Tensor):
        return (inputs,)
    return tuple(inputs)


class Model:
    """High-level training and evaluation: wraps the network with its loss and optimizer into a training step,
    runs the epochs over a dataset with callbacks, and evaluates metrics.

    Args:
        network (Cell): the network (with its loss when ``loss_fn`` is None).
        loss_fn (Cell): the loss. Default: ``None``.
        optimizer (Optimizer): the optimizer; without one, ``train`` is not available. Default: ``None``.
        metrics (Union[dict, set]): metrics for ``eval``: a set of names ({'accuracy', 'loss'}) or a
            ``{name: Metric}`` dict. Default: ``None``.
        eval_network (Cell): the network ``eval`` runs (its outputs feed the metrics). Default: a
            ``WithEvalCell(network, loss_fn)``.
        eval_indexes (list): positions of (loss, prediction, label) in ``eval_network``'s outputs.
            Default: ``None``.
        amp_level (str): mixed precision level 'O0' / 'O1' / 'O2' / 'O3' / 'auto'. Default: ``'O0'``.
        boost_level (str): only 'O0'. Default: ``'O0'``.
        kwargs: ``loss_scale_manager`` (a LossScaleManager), ``keep_batchnorm_fp32`` (bool), and cellonnx's
            ``progress_bar`` (True, False or 'auto': a tqdm bar when an epoch has >= 100 steps on a terminal).

    Examples:
        >>> from cellonnx.train import Model
        >>> net = nn.Dense(4, 2)
        >>> data = {"x": np.random.rand(64, 4).astype(np.float32), "y": np.arange(64, dtype=np.int32) % 2}
        >>> dataset = ms.dataset.NumpySlicesDataset(data, shuffle=False).batch(16)
        >>> loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        >>> model = Model(net, loss_fn=nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean'),
        ...               optimizer=nn.Momentum(net.trainable_params(), 0.01, 0.9), metrics={'accuracy'})
        >>> model.train(2, dataset)
        >>> sorted(model.eval(dataset))
        ['accuracy']
    """

    def __init__(self, network: Cell, loss_fn: Any = None, optimizer: Any = None, metrics: Any = None,
                 eval_network: Any = None, eval_indexes: list | None = None, amp_level: str = "O0",
                 boost_level: str = "O0", **kwargs: Any) -> None:
        bad = [k for k in kwargs if k not in _KWARGS]
        if bad:
            raise ValueError(f"Model: unsupported keyword arguments {bad}; accepted: {list(_KWARGS)}")
        if not isinstance(network, Cell):
            raise TypeError(f"Model: 'network' must be a Cell, got {type(network).__name__}")
        if optimizer is None and amp_level != "O0":
            raise ValueError("Model: mixed precision (amp_level != 'O0') needs an optimizer; set amp_level='O0' "
                             "or give the optimizer")
        self._network = network
        self._loss_fn = loss_fn
        self._optimizer = optimizer
        self._loss_scale_manager = kwargs.get("loss_scale_manager")
        self._loss_scale_manager_set = "loss_scale_manager" in kwargs
        self._keep_bn_fp32 = kwargs.get("keep_batchnorm_fp32")
        self._progress_bar = kwargs.get("progress_bar", "auto")
        self._amp_level = amp_level
        self._boost_level = boost_level
        self._metrics = metrics
        self._eval_indexes: list | None = None
        self._train_network = self._build_train_network()
        self._build_eval_network(metrics, eval_network, eval_indexes)
        self._predict_network = network
        self._current_epoch_num = 0
        self._current_step_num = 0
        self.epoch_iter = 0
        self._backbone_is_train = True
        self.batch_num = -1

    # ------------------------------------------------------------------ building
    def _build_train_network(self) -> Cell:
        network = self._network
        if self._loss_scale_manager is not None and self._optimizer is None:
            raise ValueError("Model: 'optimizer' can not be None when 'loss_scale_manager' is set")
        if self._optimizer is not None:
            config: dict[str, Any] = {}
            if self._loss_scale_manager_set:
                config["loss_scale_manager"] = self._loss_scale_manager
            if self._keep_bn_fp32 is not None:
                config["keep_batchnorm_fp32"] = self._keep_bn_fp32
            return amp.build_train_network(network, self._optimizer, self._loss_fn, level=self._amp_level,
                                           boost_level=self._boost_level, **config)
        if self._loss_fn is not None:
            return WithLossCell(network, self._loss_fn)
        return network

    def _build_eval_network(self, metrics: Any, eval_network: Any, eval_indexes: Any) -> None:
        self._metric_fns: dict[str, Metric] = get_metrics(metrics) or {}
        if not self._metric_fns:
            self._eval_network = eval_network
            return
        if eval_network is not None:
            if eval_indexes is not None and not (isinstance(eval_indexes, list) and len(eval_indexes) == 3):
                raise ValueError(f"Model: 'eval_indexes' must be None or a list of 3 positions, got {eval_indexes!r}")
            self._eval_network = eval_network
            self._eval_indexes = eval_indexes
            return
        if self._loss_fn is None:
            raise ValueError("Model: with 'metrics' set, 'eval_network' must be given, or 'loss_fn' so that "
                             "WithEvalCell(network, loss_fn) can be built (for one data, one label, one output)")
        self._eval_network = WithEvalCell(self._network, self._loss_fn, self._amp_level in ("O2", "O3", "auto"))
        self._eval_indexes = [0, 1, 2]

    # ------------------------------------------------------------------ metrics
    def _clear_metrics(self) -> None:
        for metric in self._metric_fns.values():
            metric.clear()

    def _update_metrics(self, outputs: Any) -> None:
        if isinstance(outputs, Tensor):
            outputs = (outputs,)
        if not isinstance(outputs, tuple):
            raise ValueError(  # noqa: TRY004  (MindSpore raises ValueError here)
                f"Model.eval: the evaluation network must return a tuple, got {type(outputs).__name__}")
        if self._eval_indexes is not None and len(outputs) < 3:
            raise ValueError(f"Model.eval: the evaluation network returned {len(outputs)} outputs; with "
                             "eval_indexes it must return at least 3 (loss, prediction, label)")
        for metric in self._metric_fns.values():
            if self._eval_indexes is None:
                metric.update(*outputs)
            elif isinstance(metric, Loss):
                metric.update(outputs[self._eval_indexes[0]])
            else:
                metric.update(outputs[self._eval_indexes[1]], outputs[self._eval_indexes[2]])

    def _get_metrics(self) -> dict[str, Any]:
        return {key: value.eval() for key, value in self._metric_fns.items()}

    # ------------------------------------------------------------------ helpers
    def _check_network_mode(self, network: Cell, is_train: bool) -> Cell:
        if self._backbone_is_train != is_train:
            network.set_train(is_train)
            self._backbone_is_train = is_train
        if not is_train:
            network.set_grad(False)
        return network

    @staticmethod
    def _transform_callbacks(callbacks: Any) -> list[Callback]:
        if callbacks is None:
            return []
        if isinstance(callbacks, Iterable):
            return list(callbacks)
        return [callbacks]

    def _check_reuse_dataset(self, dataset: Any) -> None:
        if not hasattr(dataset, "__model_hash__"):
            dataset.__model_hash__ = hash(self)
        if dataset.__model_hash__ != hash(self):
            raise RuntimeError("Model.train: this dataset object was already used by another Model's train; "
                               "create a new dataset")

    def _want_progress_bar(self, callbacks: list, steps: int) -> bool:
        if any(isinstance(c, ProgressBar) for c in callbacks):
            return False
        if self._progress_bar == "auto":
            return steps >= 100 and sys.stderr.isatty()
        return bool(self._progress_bar)

    # ------------------------------------------------------------------ training
    def train(self, epoch: int, train_dataset: Any, callbacks: Any = None, dataset_sink_mode: bool = False,
              sink_size: int = -1, initial_epoch: int = 0) -> None:
        """Train ``epoch`` epochs over ``train_dataset`` (each row: (data, label) with a loss_fn, else the
        network's inputs).

        Args:
            epoch (int): the number of epochs (the last one, with ``initial_epoch``).
            train_dataset (Dataset): the training data.
            callbacks (Union[Callback, list[Callback]]): Default: ``None``.
            dataset_sink_mode (bool): accepted; data is always fed from the host here, as MindSpore does on CPU.
                Default: ``False``.
            sink_size (int): accepted with dataset_sink_mode. Default: ``-1``.
            initial_epoch (int): resume at this epoch. Default: ``0``.
        """
        self._check_train_args(epoch, dataset_sink_mode, sink_size, initial_epoch)
        self._train(epoch, train_dataset, callbacks, initial_epoch=initial_epoch)

    def fit(self, epoch: int, train_dataset: Any, valid_dataset: Any = None, valid_frequency: Any = 1,
            callbacks: Any = None, dataset_sink_mode: bool = False, valid_dataset_sink_mode: bool = False,
            sink_size: int = -1, initial_epoch: int = 0) -> None:
        """Train, evaluating on ``valid_dataset`` every ``valid_frequency`` epochs (an int, or a list of epoch
        numbers); the results reach callbacks as ``cb_params.metrics`` / ``eval_results`` (with 'eval_loss').
        As MindSpore, the evaluations run the user's callbacks and TimeMonitor, not the other built-in ones
        (History, LambdaCallback, ModelCheckpoint, LossMonitor, EarlyStopping ...)."""
        self._check_train_args(epoch, dataset_sink_mode, sink_size, initial_epoch)
        if valid_dataset is not None and not self._metric_fns:
            raise ValueError("Model.fit: evaluating 'valid_dataset' needs 'metrics' in the Model")
        if not isinstance(valid_frequency, (int, list)) or isinstance(valid_frequency, bool):
            raise TypeError(f"Model.fit: valid_frequency must be an int or a list, got {type(valid_frequency).__name__}")
        self._train(epoch, train_dataset, callbacks, initial_epoch=initial_epoch,
                    valid_infos=(valid_dataset, valid_frequency))

    def _check_train_args(self, epoch: Any, dataset_sink_mode: Any, sink_size: Any, initial_epoch: Any) -> None:
        if self._optimizer is None:
            raise ValueError("Model.train: the Model has no optimizer; give one to train")
        if isinstance(epoch, bool) or not isinstance(epoch, int) or epoch <= 0:
            raise ValueError(f"Model.train: epoch must be a positive int, got {epoch!r}")
        if not isinstance(dataset_sink_mode, bool):
            raise TypeError(f"Model.train: dataset_sink_mode must be a bool, got {type(dataset_sink_mode).__name__}")
        if isinstance(sink_size, bool) or not isinstance(sink_size, int):
            raise TypeError(f"Model.train: sink_size must be an int, got {type(sink_size).__name__}")
        if isinstance(initial_epoch, bool) or not isinstance(initial_epoch, int) or initial_epoch < 0:
            raise ValueError(f"Model.train: initial_epoch must be a non-negative int, got {initial_epoch!r}")
        if initial_epoch >= epoch:
            raise ValueError(f"Model.train: epoch ({epoch}) must be greater than initial_epoch ({initial_epoch})")

    def _train(self, epoch: int, train_dataset: Any, callbacks: Any, initial_epoch: int = 0,
               valid_infos: tuple | None = None) -> None:
        cb_params = InternalCallbackParam()
        cb_params.cur_step_num = 0
        cb_params.train_network = self._train_network
        cb_params.epoch_num = epoch - initial_epoch
        cb_params.batch_num = train_dataset.get_dataset_size()
        self.batch_num = cb_params.batch_num
        cb_params.mode = "train"
        cb_params.loss_fn = self._loss_fn
        cb_params.optimizer = self._optimizer
        cb_params.parallel_mode = _parallel.get_auto_parallel_context("parallel_mode")
        cb_params.device_number = _parallel.get_auto_parallel_context("device_num")
        cb_params.train_dataset = train_dataset
        cb_params.list_callback = self._transform_callbacks(callbacks)
        if self._want_progress_bar(cb_params.list_callback, cb_params.batch_num):
            cb_params.list_callback.append(ProgressBar(leave=False))
        cb_params.train_dataset_element = None
        cb_params.network = self._network
        cb_params.last_save_ckpt_step = None
        cb_params.latest_ckpt_file = None
        cb_params.loss_scale_mananger = self._loss_scale_manager
        cb_params.initial_step = 0
        with CallbackManager(cb_params.list_callback) as list_callback:
            self._check_reuse_dataset(train_dataset)
            self._train_process(epoch, train_dataset, list_callback, cb_params, initial_epoch, valid_infos)

    def _train_process(self, epoch: int, train_dataset: Any, list_callback: CallbackManager,
                       cb_params: InternalCallbackParam, initial_epoch: int, valid_infos: tuple | None) -> None:
        iterator = train_dataset.create_tuple_iterator(num_epochs=epoch - initial_epoch, do_copy=False)
        cb_params.dataset_sink_mode = False
        run_context = RunContext(cb_params)
        list_callback.on_train_begin(run_context)
        for i in range(initial_epoch, epoch):
            cb_params.cur_epoch_num = i + 1
            self._current_epoch_num = cb_params.cur_epoch_num
            self._current_step_num = 0
            list_callback.on_train_epoch_begin(run_context)
            for next_element in iterator:
                n_elem = len(next_element)
                next_element = _transfer_tensor_to_tuple(next_element)
                if self._loss_fn is not None and n_elem != 2:
                    raise ValueError(f"Model.train: with a loss_fn, each row of 'train_dataset' must hold 2 columns "
                                     f"(data, label), got {n_elem}")
                cb_params.cur_step_num += 1
                self._current_step_num = int((cb_params.cur_step_num - 1) % max(cb_params.batch_num, 1) + 1)
                cb_params.train_dataset_element = next_element
                list_callback.on_train_step_begin(run_context)
                self._check_network_mode(self._train_network, True)
                outputs = self._train_network(*next_element)
                cb_params.net_outputs = outputs
                if self._loss_scale_manager is not None and \
                        getattr(self._loss_scale_manager, "get_drop_overflow_update", lambda: False)():
                    overflow = bool(np.all(outputs[1].asnumpy()))
                    self._loss_scale_manager.update_loss_scale(overflow)
                list_callback.on_train_step_end(run_context)
                if run_context.get_stop_requested():
                    iterator.stop()
                    break
            self._eval_during_train(valid_infos, cb_params, list_callback)
            train_dataset.reset()
            list_callback.on_train_epoch_end(run_context)
            cb_params.pop("metrics", None)
            cb_params.pop("eval_results", None)
            if run_context.get_stop_requested():
                break
        list_callback.on_train_end(run_context)

    @staticmethod
    def _should_eval(epoch: int, valid_frequency: Any) -> bool:
        return epoch % valid_frequency == 0 if isinstance(valid_frequency, int) else epoch in valid_frequency

    def _eval_during_train(self, valid_infos: tuple | None, cb_params: InternalCallbackParam,
                           list_callback: CallbackManager) -> None:
        if not valid_infos or valid_infos[0] is None or not self._should_eval(cb_params.cur_epoch_num,
                                                                              valid_infos[1]):
            return
        saved = {k: cb_params[k] for k in ("mode", "cur_step_num", "batch_num", "net_outputs") if k in cb_params}
        valid_dataset = valid_infos[0]
        cb_params.eval_network = self._eval_network
        cb_params.valid_dataset = valid_dataset
        cb_params.batch_num = valid_dataset.get_dataset_size()
        cb_params.mode = "eval"
        cb_params.cur_step_num = 0
        self._clear_metrics()
        eval_callbacks = [cb for cb in list_callback.callbacks
                          if type(cb).__name__ not in _BUILTIN_CALLBACKS or isinstance(cb, TimeMonitor)]
        with CallbackManager(eval_callbacks) as eval_list:
            self._eval_process(valid_dataset, eval_list, cb_params, add_eval_loss=True)
        cb_params.update(saved)

    # ------------------------------------------------------------------ evaluation and prediction
    def eval(self, valid_dataset: Any, callbacks: Any = None, dataset_sink_mode: bool = False) -> dict[str, Any]:
        """Run the evaluation network over ``valid_dataset`` and return ``{metric name: value}``.

        Args:
            valid_dataset (Dataset): rows of (data, label).
            callbacks (Union[Callback, list[Callback]]): their on_eval_* hooks run. Default: ``None``.
            dataset_sink_mode (bool): accepted; data is fed from the host. Default: ``False``.
        """
        if not isinstance(dataset_sink_mode, bool):
            raise TypeError(f"Model.eval: dataset_sink_mode must be a bool, got {type(dataset_sink_mode).__name__}")
        if not self._metric_fns:
            raise ValueError("Model.eval: the Model has no 'metrics'; set metrics (for example {'accuracy'}) to "
                             "evaluate")
        cb_params = InternalCallbackParam()
        cb_params.eval_network = self._eval_network
        cb_params.valid_dataset = valid_dataset
        cb_params.batch_num = valid_dataset.get_dataset_size()
        cb_params.mode = "eval"
        cb_params.cur_step_num = 0
        cb_params.list_callback = self._transform_callbacks(callbacks)
        cb_params.network = self._network
        self._clear_metrics()
        with CallbackManager(cb_params.list_callback) as list_callback:
            return self._eval_process(valid_dataset, list_callback, cb_params)

    def _eval_process(self, valid_dataset: Any, list_callback: CallbackManager, cb_params: InternalCallbackParam,
                      add_eval_loss: bool = False) -> dict[str, Any]:
        run_context = RunContext(cb_params)
        cb_params.dataset_sink_mode = False
        list_callback.on_eval_begin(run_context)
        list_callback.on_eval_epoch_begin(run_context)
        eval_loss: Metric | None = get_metric_fn("loss") if add_eval_loss else None
        for next_element in valid_dataset.create_tuple_iterator(num_epochs=1):
            cb_params.cur_step_num += 1
            next_element = _transfer_tensor_to_tuple(next_element)
            cb_params.eval_dataset_element = next_element
            list_callback.on_eval_step_begin(run_context)
            self._check_network_mode(self._eval_network, False)
            outputs = self._eval_network(*next_element)
            cb_params.net_outputs = outputs
            list_callback.on_eval_step_end(run_context)
            self._update_metrics(outputs)
            if eval_loss is not None and self._eval_indexes is not None:
                eval_loss.update(outputs[self._eval_indexes[0]])
            if run_context.get_stop_requested():
                break
        list_callback.on_eval_epoch_end(run_context)
        valid_dataset.reset()
        metrics = self._get_metrics()
        cb_params.metrics = metrics
        if eval_loss is not None and self._eval_indexes is not None:
            cb_params.eval_results = copy.deepcopy(metrics)
            cb_params.eval_results["eval_loss"] = eval_loss.eval()
        list_callback.on_eval_end(run_context)
        return metrics

    def predict(self, *predict_data: Any, backend: Any = None, config: Any = None) -> Any:
        """The network's output for ``predict_data`` in inference mode (dropout off, batch norm statistics).

        Args:
            predict_data (Union[Tensor, list[Tensor], tuple[Tensor]]): the inputs.
            backend: None; 'lite' (MindSpore Lite) is not available and falls back, as MindSpore does.
        """
        if backend not in ("lite", None):
            raise ValueError(f"Model.predict: backend must be 'lite' or None, got {backend!r}")
        for item in predict_data:
            if isinstance(item, Tensor) and item.size == 0:
                raise ValueError("Model.predict: the input data can not be empty")
            if item is not None and not isinstance(item, (Tensor, int, float, str, list, tuple, dict)):
                raise TypeError(f"Model.predict: inputs must be Tensor, None, int, float, str or a "
                                f"tuple/list/dict of them, got {type(item).__name__}")
        self._check_network_mode(self._predict_network, False)
        return self._predict_network(*predict_data)

    def build(self, train_dataset: Any = None, valid_dataset: Any = None, sink_size: int = -1, epoch: int = 1,
              sink_mode: bool = True) -> None:
        """Nothing to compile ahead: networks run eagerly (``Cell.compile`` builds ONNX graphs)."""

    @property
    def train_network(self) -> Cell:
        """The training network (with loss and optimizer)."""
        return self._train_network

    @property
    def predict_network(self) -> Cell:
        return self._predict_network

    @property
    def eval_network(self) -> Any:
        return self._eval_network
