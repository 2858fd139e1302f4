"""FeedForward: MXNet 1.x's deprecated estimator (``fit(X, y)`` / ``predict(X)`` on NumPy arrays or data
iterators). Training runs through Module with the optimizer FeedForward makes (gradients rescaled by
1 / batch_size, parameter names by index); prediction binds one inference executor."""
from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from cellonnx.gluon import init as initializer_mod
from cellonnx.gluon import metric
from cellonnx.gluon import optimizer as opt
from cellonnx.mxnet import io
from cellonnx.mxnet import ndarray as nd
from cellonnx.mxnet.device import Context, cpu
from cellonnx.mxnet.io import DataDesc

__all__ = ["FeedForward"]

_DEFAULT_INIT = initializer_mod.Uniform(0.01)


class FeedForward:
    """A symbol trained and run as an estimator (deprecated in MXNet: use ``mx.mod.Module``).

    Args:
        symbol: the network (or ``bucket_key -> symbol``).
        ctx: a Context or a list of them. Default: ``[cpu()]``.
        num_epoch: epochs ``fit`` trains for.
        epoch_size: accepted for compatibility (an epoch is one pass over the data).
        optimizer: a name or an Optimizer. Default: 'sgd'.
        initializer: for parameters not given. Default: ``Uniform(0.01)``.
        numpy_batch_size: the batch size for NumPy inputs. Default: 128.
        arg_params, aux_params: starting parameters by name.
        allow_extra_params: drop given parameters the symbol does not have. Default: False.
        begin_epoch: the first epoch's number. Default: 0.
        **kwargs: the optimizer's arguments (learning_rate, momentum, wd ...).
    """

    def __init__(self, symbol: Any, ctx: Any = None, num_epoch: int | None = None,
                 epoch_size: int | None = None, optimizer: Any = "sgd", initializer: Any = _DEFAULT_INIT,
                 numpy_batch_size: int = 128, arg_params: dict | None = None, aux_params: dict | None = None,
                 allow_extra_params: bool = False, begin_epoch: int = 0, **kwargs: Any) -> None:
        warnings.warn("mxnet.model.FeedForward has been deprecated. Please use mxnet.mod.Module instead.",
                      DeprecationWarning, stacklevel=2)
        from cellonnx.gluon.symbol.symbol import Symbol

        self.symbol, self.sym_gen = (symbol, None) if isinstance(symbol, Symbol) else (None, symbol)
        if self.sym_gen is not None and not callable(symbol):
            raise AssertionError("symbol must be a Symbol or a callable")
        self.arg_params, self.aux_params = arg_params, aux_params
        self.allow_extra_params = allow_extra_params
        if self.symbol is not None and allow_extra_params:
            if self.arg_params:
                names = set(self.symbol.list_arguments())
                self.arg_params = {k: v for k, v in self.arg_params.items() if k in names}
            if self.aux_params:
                names = set(self.symbol.list_auxiliary_states())
                self.aux_params = {k: v for k, v in self.aux_params.items() if k in names}
        self.ctx = [cpu()] if ctx is None else [ctx] if isinstance(ctx, Context) else list(ctx)
        self.num_epoch, self.epoch_size = num_epoch, epoch_size
        self.kwargs = kwargs.copy()
        self.optimizer, self.initializer = optimizer, initializer
        self.numpy_batch_size = numpy_batch_size
        self.begin_epoch = begin_epoch
        self._pred_exec: Any = None

    def _init_params(self, inputs: list[Any],
                     overwrite: bool = False) -> tuple[list[str], list[str], list[str]]:
        """Parameters for these input shapes: the given ones (unless ``overwrite``), else initialized."""
        from cellonnx.mxnet.module.module import InitDesc, _initialize

        inputs = [x if isinstance(x, DataDesc) else DataDesc(*x) for x in inputs]
        shapes = {d.name: tuple(d.shape) for d in inputs}
        arg_shapes, _, aux_shapes = self.symbol.infer_shape(**shapes)
        arg_names, aux_names = self.symbol.list_arguments(), self.symbol.list_auxiliary_states()
        param_names = [k for k in arg_names if k not in shapes]
        new_args = {k: nd.zeros(s) for k, s in zip(arg_names, arg_shapes) if k in param_names}
        new_aux = {k: nd.zeros(s) for k, s in zip(aux_names, aux_shapes)}
        for given, fresh in ((self.arg_params, new_args), (self.aux_params, new_aux)):
            for k, v in fresh.items():
                if given and k in given and not overwrite:
                    v[:] = given[k].asnumpy() if hasattr(given[k], "asnumpy") else given[k]
                else:
                    _initialize(self.initializer, InitDesc(k), v)
        self.arg_params, self.aux_params = new_args, new_aux
        return arg_names, param_names, aux_names

    def _init_iter(self, X: Any, y: Any, is_train: bool) -> Any:
        if isinstance(X, (np.ndarray, nd.NDArray)):
            if y is None:
                if is_train:
                    raise ValueError("y must be specified when X is numpy.ndarray")
                y = np.zeros(X.shape[0])
            if not isinstance(y, (np.ndarray, nd.NDArray)):
                raise TypeError("y must be ndarray when X is numpy.ndarray")
            if X.shape[0] != y.shape[0]:
                raise ValueError("The numbers of data points and labels not equal")
            if y.ndim == 2 and y.shape[1] == 1:
                y = y.flatten()
            if y.ndim != 1:
                raise ValueError("Label must be 1D or 2D (with 2nd dimension being 1)")
            batch = min(X.shape[0], self.numpy_batch_size)
            if is_train:
                return io.NDArrayIter(X, y, batch, shuffle=True, last_batch_handle="roll_over")
            return io.NDArrayIter(X, y, batch, shuffle=False)
        if not isinstance(X, io.DataIter):
            raise TypeError("X must be DataIter, NDArray or numpy.ndarray")
        return X

    def _init_eval_iter(self, eval_data: Any) -> Any:
        if eval_data is None or isinstance(eval_data, io.DataIter):
            return eval_data
        if isinstance(eval_data, (tuple, list)) and len(eval_data) == 2:
            if eval_data[0] is None:
                raise ValueError("Eval data is NONE")
            if eval_data[1] is None and isinstance(eval_data[0], io.DataIter):
                return eval_data[0]
            x = np.array(eval_data[0]) if isinstance(eval_data[0], list) else eval_data[0]
            y = np.array(eval_data[1]) if isinstance(eval_data[1], list) else eval_data[1]
            return self._init_iter(x, y, is_train=True)
        raise TypeError("Eval data must be DataIter, or NDArray/numpy.ndarray/list pair (i.e. tuple/list of "
                        "length 2)")

    def _predictor(self, data_shapes: list[Any]) -> Any:
        shapes = {name: tuple(v.shape) for name, v in self.arg_params.items()}
        shapes.update({d[0]: tuple(d[1]) for d in data_shapes})
        if self._pred_exec is not None:
            arg_shapes = self.symbol.infer_shape(**shapes)[0]
            if [tuple(s) for s in arg_shapes] == [tuple(a.shape) for a in self._pred_exec.arg_arrays]:
                return self._pred_exec
        exe = self.symbol.simple_bind(self.ctx[0], grad_req="null", **shapes)
        exe.copy_params_from(self.arg_params, self.aux_params)
        self._pred_exec = exe
        return exe

    def predict(self, X: Any, num_batch: int | None = None, return_data: bool = False,
                reset: bool = True) -> Any:
        """The outputs on ``X`` (NumPy arrays; one array for one output), padding removed; with
        ``return_data`` also the data and labels."""
        X = self._init_iter(X, None, is_train=False)
        if reset:
            X.reset()
        names = [x[0] for x in X.provide_data]
        exe = self._predictor(X.provide_data)
        outputs: list[list[np.ndarray]] = [[] for _ in exe.outputs]
        data: list[list[np.ndarray]] = [[] for _ in X.provide_data]
        labels: list[list[np.ndarray]] = [[] for _ in X.provide_label]
        for i, batch in enumerate(X):
            for name, value in zip(names, batch.data):
                exe.arg_dict[name][:] = value.asnumpy()
            exe.forward(is_train=False)
            real = X.batch_size - (batch.pad or 0)
            for store, out in zip(outputs, exe.outputs):
                store.append(out[0:real].asnumpy())
            if return_data:
                for store, x in zip(data, batch.data):
                    store.append(x[0:real].asnumpy())
                for store, x in zip(labels, batch.label):
                    store.append(x[0:real].asnumpy())
            if num_batch is not None and i + 1 == num_batch:
                break
        result: Any = [np.concatenate(x) for x in outputs]
        result = result[0] if len(result) == 1 else result
        if not return_data:
            return result
        data_out: Any = [np.concatenate(x) for x in data]
        label_out: Any = [np.concatenate(x) for x in labels]
        return (result, data_out[0] if len(data_out) == 1 else data_out,
                label_out[0] if len(label_out) == 1 else label_out)

    def score(self, X: Any, eval_metric: Any = "acc", num_batch: int | None = None,
              batch_end_callback: Any = None, reset: bool = True) -> float:
        """``eval_metric``'s value over ``X``."""
        from cellonnx.mxnet.model import BatchEndParam

        if not isinstance(eval_metric, metric.EvalMetric):
            eval_metric = metric.create(eval_metric)
        X = self._init_iter(X, None, is_train=False)
        if reset:
            X.reset()
        names = [x[0] for x in X.provide_data]
        exe = self._predictor(X.provide_data)
        for i, batch in enumerate(X):
            if num_batch is not None and i == num_batch:
                break
            for name, value in zip(names, batch.data):
                exe.arg_dict[name][:] = value.asnumpy()
            exe.forward(is_train=False)
            eval_metric.update(batch.label, exe.outputs)
            if batch_end_callback is not None:
                params = BatchEndParam(epoch=0, nbatch=i, eval_metric=eval_metric, locals=locals())
                many = isinstance(batch_end_callback, list)
                for cb in batch_end_callback if many else [batch_end_callback]:
                    cb(params)
        return eval_metric.get()[1]

    def fit(self, X: Any, y: Any = None, eval_data: Any = None, eval_metric: Any = "acc",
            epoch_end_callback: Any = None, batch_end_callback: Any = None, kvstore: Any = "local",
            logger: Any = None, work_load_list: Any = None, monitor: Any = None,
            eval_end_callback: Any = None, eval_batch_end_callback: Any = None) -> None:
        """Train for ``num_epoch`` epochs on ``X`` (a DataIter, or arrays with labels ``y``)."""
        import logging

        from cellonnx.mxnet.callback import LogValidationMetricsCallback
        from cellonnx.mxnet.module.module import Module

        data = self._init_iter(X, y, is_train=True)
        eval_data = self._init_eval_iter(eval_data)
        if self.sym_gen is not None:
            self.symbol = self.sym_gen(data.default_bucket_key)
        _, param_names, _ = self._init_params(list(data.provide_data) + list(data.provide_label))
        optimizer = self.optimizer
        if isinstance(optimizer, str):
            kwargs = {**self.kwargs, "sym": self.symbol, "param_idx2name": dict(enumerate(param_names))}
            optimizer = opt.create(optimizer, rescale_grad=1.0 / data.batch_size, **kwargs)
        elif not optimizer.idx2name:
            optimizer.idx2name = dict(enumerate(param_names))
        mod = Module(self.symbol, data_names=[x[0] for x in data.provide_data],
                     label_names=[x[0] for x in data.provide_label], logger=logger or logging,
                     context=self.ctx)
        mod.fit(data, eval_data=eval_data, eval_metric=eval_metric, epoch_end_callback=epoch_end_callback,
                batch_end_callback=batch_end_callback, kvstore=kvstore, optimizer=optimizer,
                eval_end_callback=eval_end_callback or LogValidationMetricsCallback(),
                eval_batch_end_callback=eval_batch_end_callback, arg_params=self.arg_params,
                aux_params=self.aux_params, begin_epoch=self.begin_epoch, num_epoch=self.num_epoch,
                monitor=monitor)
        arg, aux = mod.get_params()
        self.arg_params = {k: v.copy() for k, v in arg.items()}
        self.aux_params = {k: v.copy() for k, v in aux.items()}
        self._pred_exec = None

    def save(self, prefix: str, epoch: int | None = None, remove_amp_cast: bool = True) -> None:
        """Write the checkpoint (epoch ``num_epoch`` by default)."""
        from cellonnx.mxnet.model import save_checkpoint

        epoch = self.num_epoch if epoch is None else epoch
        if epoch is None:
            raise AssertionError("FeedForward.save: give the epoch (num_epoch is not set)")
        save_checkpoint(prefix, epoch, self.symbol, self.arg_params, self.aux_params, remove_amp_cast)

    @staticmethod
    def load(prefix: str, epoch: int, ctx: Any = None, **kwargs: Any) -> FeedForward:
        """A FeedForward from a checkpoint (training resumes at ``epoch``)."""
        from cellonnx.mxnet.model import load_checkpoint

        symbol, arg_params, aux_params = load_checkpoint(prefix, epoch)
        return FeedForward(symbol, ctx=ctx, arg_params=arg_params, aux_params=aux_params, begin_epoch=epoch,
                           **kwargs)

    @staticmethod
    def create(symbol: Any, X: Any, y: Any = None, ctx: Any = None, num_epoch: int | None = None,
               epoch_size: int | None = None, optimizer: Any = "sgd", initializer: Any = _DEFAULT_INIT,
               eval_data: Any = None, eval_metric: Any = "acc", epoch_end_callback: Any = None,
               batch_end_callback: Any = None, kvstore: Any = "local", logger: Any = None,
               work_load_list: Any = None, eval_end_callback: Any = None, eval_batch_end_callback: Any = None,
               **kwargs: Any) -> FeedForward:
        """A FeedForward made and fitted in one call."""
        model = FeedForward(symbol, ctx=ctx, num_epoch=num_epoch, epoch_size=epoch_size, optimizer=optimizer,
                            initializer=initializer, **kwargs)
        model.fit(X, y, eval_data=eval_data, eval_metric=eval_metric, epoch_end_callback=epoch_end_callback,
                  batch_end_callback=batch_end_callback, kvstore=kvstore, logger=logger,
                  work_load_list=work_load_list, eval_end_callback=eval_end_callback,
                  eval_batch_end_callback=eval_batch_end_callback)
        return model
