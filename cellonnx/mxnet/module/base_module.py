"""BaseModule: the training loops every MXNet 1.x module shares (``fit``, ``score``, ``predict``,
``iter_predict``, ``forward_backward``), written on the abstract computation a module implements (``bind``,
``init_params``, ``forward``, ``backward``, ``update``, ``get_outputs``, ``update_metric``)."""
from __future__ import annotations

import logging
import time
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np

from cellonnx.gluon import init as initializer_mod
from cellonnx.gluon import metric
from cellonnx.mxnet import ndarray
from cellonnx.mxnet.io import DataBatch, DataDesc, DataIter
from cellonnx.mxnet.model import BatchEndParam

__all__ = ["BaseModule"]

DEFAULT_INIT = initializer_mod.Uniform(0.01)  # MXNet's default, one shared instance


def _as_list(obj: Any) -> list[Any]:
    return list(obj) if isinstance(obj, (list, tuple)) else [obj]


def _check_input_names(symbol: Any, names: list[str], typename: str, throw: bool) -> None:
    """Every name of ``names`` must be an argument of ``symbol`` (an error, or a warning for labels)."""
    args = symbol.list_arguments()
    for name in names:
        if name in args:
            continue
        candidates = [a for a in args if not a.endswith(("_weight", "_bias", "_gamma", "_beta"))]
        msg = (f"You created Module with Module(..., {typename}_names={names}) but input with name "
               f"'{name}' is not found in symbol.list_arguments(). Did you mean one of:\n\t"
               + "\n\t".join(candidates))
        if throw:
            raise ValueError(msg)
        warnings.warn(msg, stacklevel=3)


def _check_names_match(data_names: list[str], data_shapes: list[DataDesc], name: str, throw: bool) -> None:
    actual = [x[0] for x in data_shapes]
    if sorted(data_names) != sorted(actual):
        msg = (f"Data provided by {name}_shapes don't match names specified by {name}_names "
               f"({data_shapes} vs. {data_names})")
        if throw:
            raise ValueError(msg)
        warnings.warn(msg, stacklevel=3)


def _parse_data_desc(data_names: list[str], label_names: list[str], data_shapes: Any,
                     label_shapes: Any) -> tuple[list[DataDesc], list[DataDesc] | None]:
    """The shapes as DataDesc lists, checked against the names."""
    data_shapes = [x if isinstance(x, DataDesc) else DataDesc(*x) for x in data_shapes]
    _check_names_match(data_names, data_shapes, "data", True)
    if label_shapes is not None:
        label_shapes = [x if isinstance(x, DataDesc) else DataDesc(*x) for x in label_shapes]
        _check_names_match(label_names, label_shapes, "label", False)
    else:
        _check_names_match(label_names, [], "label", False)
    return data_shapes, label_shapes


class BaseModule:
    """The base class of MXNet 1.x modules: a computation that binds to shapes, holds parameters and an
    optimizer, and runs forward / backward / update; ``fit``, ``score`` and ``predict`` are written on that.

    Args:
        logger: where progress is logged. Default: the ``logging`` module.
    """

    def __init__(self, logger: Any = logging) -> None:
        self.logger = logger
        self.binded = False
        self.for_training = False
        self.inputs_need_grad = False
        self.params_initialized = False
        self.optimizer_initialized = False
        self._symbol: Any = None
        self._total_exec_bytes = 0

    # ---------------------------------------------------------------- the loops
    def forward_backward(self, data_batch: DataBatch) -> None:
        """``forward(data_batch, is_train=True)`` then ``backward()``."""
        self.forward(data_batch, is_train=True)
        self.backward()

    def score(self, eval_data: DataIter, eval_metric: Any, num_batch: int | None = None,
              batch_end_callback: Any = None, score_end_callback: Any = None, reset: bool = True,
              epoch: int = 0, sparse_row_id_fn: Any = None) -> list[tuple[str, float]]:
        """Run the module over ``eval_data`` (predict mode) and return ``eval_metric``'s name-value pairs."""
        if not (self.binded and self.params_initialized):
            raise AssertionError("score: bind the module and initialize its parameters first")
        if reset:
            eval_data.reset()
        if not isinstance(eval_metric, metric.EvalMetric):
            eval_metric = metric.create(eval_metric)
        eval_metric.reset()
        actual_num_batch = 0
        for nbatch, eval_batch in enumerate(eval_data):
            if num_batch is not None and nbatch == num_batch:
                break
            self.prepare(eval_batch, sparse_row_id_fn=sparse_row_id_fn)
            self.forward(eval_batch, is_train=False)
            if isinstance(eval_batch, list):
                self.update_metric(eval_metric, [eb.label for eb in eval_batch], pre_sliced=True)
            else:
                self.update_metric(eval_metric, eval_batch.label)
            if batch_end_callback is not None:
                params = BatchEndParam(epoch=epoch, nbatch=nbatch, eval_metric=eval_metric, locals=locals())
                for callback in _as_list(batch_end_callback):
                    callback(params)
            actual_num_batch += 1
        if score_end_callback:
            params = BatchEndParam(epoch=epoch, nbatch=actual_num_batch, eval_metric=eval_metric,
                                   locals=locals())
            for callback in _as_list(score_end_callback):
                callback(params)
        return eval_metric.get_name_value()

    def iter_predict(self, eval_data: DataIter, num_batch: int | None = None, reset: bool = True,
                     sparse_row_id_fn: Any = None) -> Iterator[tuple[list[Any], int, DataBatch]]:
        """Yield ``(outputs, batch_number, batch)`` per batch (outputs without the padding)."""
        if not (self.binded and self.params_initialized):
            raise AssertionError("iter_predict: bind the module and initialize its parameters first")
        if reset:
            eval_data.reset()
        for nbatch, eval_batch in enumerate(eval_data):
            if num_batch is not None and nbatch == num_batch:
                break
            self.prepare(eval_batch, sparse_row_id_fn=sparse_row_id_fn)
            self.forward(eval_batch, is_train=False)
            pad = eval_batch.pad or 0
            outputs = [out[0:out.shape[0] - pad] for out in self.get_outputs()]
            yield outputs, nbatch, eval_batch

    def predict(self, eval_data: Any, num_batch: int | None = None, merge_batches: bool = True,
                reset: bool = True, always_output_list: bool = False, sparse_row_id_fn: Any = None) -> Any:
        """The outputs over ``eval_data`` (a DataIter, or one array run as one batch), batches concatenated
        when ``merge_batches``; one output is returned bare unless ``always_output_list``."""
        if not (self.binded and self.params_initialized):
            raise AssertionError("predict: bind the module and initialize its parameters first")
        if isinstance(eval_data, (ndarray.NDArray, np.ndarray)):
            if isinstance(eval_data, np.ndarray):
                eval_data = ndarray.array(eval_data)
            self.forward(DataBatch([eval_data]))
            return self.get_outputs()[0]
        if not isinstance(eval_data, DataIter):
            raise ValueError("eval_data must be of type NDArray or DataIter")
        if reset:
            eval_data.reset()
        output_list = []
        for nbatch, eval_batch in enumerate(eval_data):
            if num_batch is not None and nbatch == num_batch:
                break
            self.prepare(eval_batch, sparse_row_id_fn=sparse_row_id_fn)
            self.forward(eval_batch, is_train=False)
            pad = eval_batch.pad or 0
            output_list.append([out[0:out.shape[0] - pad].copy() for out in self.get_outputs()])
        if not output_list:
            return output_list
        if not merge_batches:
            return output_list
        num_outputs = len(output_list[0])
        for out in output_list:
            if len(out) != num_outputs:
                raise ValueError("Cannot merge batches, as num of outputs is not the same in mini-batches. "
                                 "Maybe bucketing is used?")
        merged = [ndarray.concat(*[out[i] for out in output_list], dim=0) for i in range(num_outputs)]
        if num_outputs == 1 and not always_output_list:
            return merged[0]
        return merged

    def _fit_prepare(self, train_data: DataIter, eval_metric: Any, validation_metric: Any,
                     num_epoch: int | None, monitor: Any, force_rebind: bool, init_params: dict,
                     init_optimizer: dict) -> tuple[Any, Any]:
        """fit's start: bind for training, install ``monitor``, initialize the parameters and the
        optimizer; returns the training metric (created from its name) and the validation metric."""
        if num_epoch is None:
            raise AssertionError("please specify number of epochs")
        self.bind(data_shapes=train_data.provide_data, label_shapes=train_data.provide_label,
                  for_training=True, force_rebind=force_rebind)
        if monitor is not None:
            self.install_monitor(monitor)
        self.init_params(**init_params)
        self.init_optimizer(**init_optimizer)
        if validation_metric is None:
            validation_metric = eval_metric
        if not isinstance(eval_metric, metric.EvalMetric):
            eval_metric = metric.create(eval_metric)
        return eval_metric, validation_metric

    def fit(self, train_data: DataIter, eval_data: DataIter | None = None, eval_metric: Any = "acc",
            epoch_end_callback: Any = None, batch_end_callback: Any = None, kvstore: Any = "local",
            optimizer: Any = "sgd", optimizer_params: Any = (("learning_rate", 0.01),),
            eval_end_callback: Any = None, eval_batch_end_callback: Any = None,
            initializer: Any = DEFAULT_INIT, arg_params: dict | None = None,
            aux_params: dict | None = None, allow_missing: bool = False, force_rebind: bool = False,
            force_init: bool = False, begin_epoch: int = 0, num_epoch: int | None = None,
            validation_metric: Any = None, monitor: Any = None, sparse_row_id_fn: Any = None) -> None:
        """Train the module: bind, initialize the parameters and the optimizer, then per epoch run every
        batch (forward, backward, update, metric, ``batch_end_callback``), log the training metric, call
        ``epoch_end_callback(epoch, symbol, arg_params, aux_params)`` and score ``eval_data``."""
        eval_metric, validation_metric = self._fit_prepare(
            train_data, eval_metric, validation_metric, num_epoch, monitor, force_rebind,
            dict(initializer=initializer, arg_params=arg_params, aux_params=aux_params,
                 allow_missing=allow_missing, force_init=force_init),
            dict(kvstore=kvstore, optimizer=optimizer, optimizer_params=optimizer_params))
        for epoch in range(begin_epoch, num_epoch):
            tic = time.time()
            eval_metric.reset()
            eval_name_vals = self._fit_batches(epoch, train_data, eval_metric, monitor, batch_end_callback,
                                               sparse_row_id_fn, eval_metric.get_global_name_value)
            for name, val in eval_name_vals:
                self.logger.info("Epoch[%d] Train-%s=%f", epoch, name, val)
            self.logger.info("Epoch[%d] Time cost=%.3f", epoch, time.time() - tic)
            arg_params_now, aux_params_now = self.get_params()
            self.set_params(arg_params_now, aux_params_now)
            if epoch_end_callback is not None:
                for callback in _as_list(epoch_end_callback):
                    callback(epoch, self.symbol, arg_params_now, aux_params_now)
            if eval_data is not None:
                res = self.score(eval_data, validation_metric, score_end_callback=eval_end_callback,
                                 batch_end_callback=eval_batch_end_callback, epoch=epoch)
                for name, val in res:
                    self.logger.info("Epoch[%d] Validation-%s=%f", epoch, name, val)
            train_data.reset()

    def _fit_batches(self, epoch: int, train_data: DataIter, eval_metric: Any, monitor: Any,
                     batch_end_callback: Any, sparse_row_id_fn: Any, name_values: Any) -> list:
        """One epoch of fit's batches (forward, backward, update, metric, ``batch_end_callback``); the
        training metric's ``name_values()`` read after the last batch, before its callback may reset it."""
        nbatch = 0
        data_iter = iter(train_data)
        end_of_batch = False
        next_data_batch = next(data_iter)
        eval_name_vals: list[tuple[str, float]] = []
        while not end_of_batch:
            data_batch = next_data_batch
            if monitor is not None:
                monitor.tic()
            self.forward_backward(data_batch)
            self.update()
            if isinstance(data_batch, list):
                self.update_metric(eval_metric, [db.label for db in data_batch], pre_sliced=True)
            else:
                self.update_metric(eval_metric, data_batch.label)
            try:
                next_data_batch = next(data_iter)
                self.prepare(next_data_batch, sparse_row_id_fn=sparse_row_id_fn)
            except StopIteration:
                end_of_batch = True
            if monitor is not None:
                monitor.toc_print()
            if end_of_batch:
                eval_name_vals = name_values()
            if batch_end_callback is not None:
                params = BatchEndParam(epoch=epoch, nbatch=nbatch, eval_metric=eval_metric, locals=locals())
                for callback in _as_list(batch_end_callback):
                    callback(params)
            nbatch += 1
        return eval_name_vals

    # ---------------------------------------------------------------- what a module describes
    @property
    def data_names(self) -> list[str]:
        raise NotImplementedError()

    @property
    def output_names(self) -> list[str]:
        raise NotImplementedError()

    @property
    def data_shapes(self) -> list[DataDesc]:
        raise NotImplementedError()

    @property
    def label_shapes(self) -> list[DataDesc] | None:
        raise NotImplementedError()

    @property
    def output_shapes(self) -> list[tuple[str, tuple]]:
        raise NotImplementedError()

    @property
    def symbol(self) -> Any:
        """The symbol of the module."""
        return self._symbol

    # ---------------------------------------------------------------- parameters
    def get_params(self) -> tuple[dict[str, Any], dict[str, Any]]:
        raise NotImplementedError()

    def init_params(self, initializer: Any = DEFAULT_INIT, arg_params: dict | None = None,
                    aux_params: dict | None = None, allow_missing: bool = False, force_init: bool = False,
                    allow_extra: bool = False) -> None:
        raise NotImplementedError()

    def set_params(self, arg_params: dict[str, Any], aux_params: dict[str, Any], allow_missing: bool = False,
                   force_init: bool = True, allow_extra: bool = False) -> None:
        """Set the parameters (and auxiliary states) from dicts by name."""
        self.init_params(initializer=None, arg_params=arg_params, aux_params=aux_params,
                         allow_missing=allow_missing, force_init=force_init, allow_extra=allow_extra)

    def save_params(self, fname: str) -> None:
        """Write the parameters to ``fname`` in MXNet's format (``arg:`` / ``aux:`` keys)."""
        arg_params, aux_params = self.get_params()
        save_dict = {f"arg:{k}": v for k, v in arg_params.items()}
        save_dict.update({f"aux:{k}": v for k, v in aux_params.items()})
        ndarray.save(fname, save_dict)

    def load_params(self, fname: str) -> None:
        """Read parameters ``save_params`` wrote (or a checkpoint's .params file) and set them."""
        save_dict = ndarray.load(fname)
        arg_params: dict[str, Any] = {}
        aux_params: dict[str, Any] = {}
        for k, value in save_dict.items():
            arg_type, _, name = k.partition(":")
            if arg_type == "arg":
                arg_params[name] = value
            elif arg_type == "aux":
                aux_params[name] = value
            else:
                raise ValueError(f"Invalid param file {fname}: key {k!r} is neither 'arg:' nor 'aux:'")
        self.set_params(arg_params, aux_params)

    def get_states(self, merge_multi_context: bool = True) -> list[Any]:
        """The states (RNN states named ``state_names``); a module without states has none."""
        if not (self.binded and self.params_initialized):
            raise AssertionError("get_states: bind the module and initialize its parameters first")
        if not merge_multi_context:
            raise AssertionError("get_states: only merge_multi_context=True is supported")
        return []

    def set_states(self, states: Any = None, value: Any = None) -> None:
        """Set the states from arrays or one value; a module without states has none."""
        if not (self.binded and self.params_initialized):
            raise AssertionError("set_states: bind the module and initialize its parameters first")
        if states or value:
            raise AssertionError("set_states: this module has no states")

    def install_monitor(self, mon: Any) -> None:
        raise NotImplementedError()

    def prepare(self, data_batch: Any, sparse_row_id_fn: Any = None) -> None:
        """Prepare for a batch (row-sparse parameters are pulled here in MXNet; nothing to do in one
        process)."""
        if sparse_row_id_fn is not None:
            warnings.warn("sparse_row_id_fn is not invoked for BaseModule.", UserWarning, stacklevel=2)

    # ---------------------------------------------------------------- computation
    def forward(self, data_batch: DataBatch, is_train: bool | None = None) -> None:
        raise NotImplementedError()

    def backward(self, out_grads: Any = None) -> None:
        raise NotImplementedError()

    def get_outputs(self, merge_multi_context: bool = True) -> list[Any]:
        raise NotImplementedError()

    def get_input_grads(self, merge_multi_context: bool = True) -> list[Any]:
        raise NotImplementedError()

    def update(self) -> None:
        raise NotImplementedError()

    def update_metric(self, eval_metric: Any, labels: Any, pre_sliced: bool = False) -> None:
        raise NotImplementedError()

    def bind(self, data_shapes: Any, label_shapes: Any = None, for_training: bool = True,
             inputs_need_grad: bool = False, force_rebind: bool = False, shared_module: Any = None,
             grad_req: Any = "write") -> None:
        raise NotImplementedError()

    def init_optimizer(self, kvstore: Any = "local", optimizer: Any = "sgd",
                       optimizer_params: Any = (("learning_rate", 0.01),), force_init: bool = False) -> None:
        raise NotImplementedError()
