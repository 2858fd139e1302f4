"""SVRGModule: a Module trained with stochastic variance reduced gradients (MXNet 1.9.1's).

Every ``update_freq`` epochs ``update_full_grads`` snapshots the weights into an auxiliary Module and
averages, over the whole training set, the gradients at that snapshot (the full gradient). Each step then
uses ``g(w) - g(w_snapshot) + full_gradient`` on the batch instead of ``g(w)``: the auxiliary Module runs
every training batch beside the main one to give ``g(w_snapshot)``.
"""
from __future__ import annotations

import logging
import time
from typing import Any

from cellonnx.gluon import optimizer as opt
from cellonnx.mxnet import ndarray as nd
from cellonnx.mxnet.context import cpu
from cellonnx.mxnet.contrib.svrg_optimization.svrg_optimizer import _SVRGOptimizer
from cellonnx.mxnet.initializer import Uniform
from cellonnx.mxnet.module import Module
from cellonnx.mxnet.module.kv_update import create_kvstore

__all__ = ["SVRGModule"]

_CPU = cpu()  # MXNet's defaults: context=mx.cpu(), fit's initializer=mx.init.Uniform(0.01)
_DEFAULT_INIT = Uniform(0.01)


def _as_list(value: Any) -> list:
    return list(value) if isinstance(value, (list, tuple)) else [value]


class SVRGModule(Module):
    """A Module whose updates use SVRG's variance-reduced gradients.

    Args:
        symbol, data_names, label_names, logger, context, work_load_list, fixed_param_names, state_names,
            group2ctxs, compression_params: as Module's.
        update_freq: every how many epochs the full gradients are recomputed (a positive int).

    Raises:
        ValueError: ``update_freq`` is not positive.
        TypeError: ``update_freq`` is not an int.
    """

    def __init__(self, symbol: Any, data_names: Any = ("data",), label_names: Any = ("softmax_label",),
                 logger: Any = logging, context: Any = _CPU, work_load_list: Any = None,
                 fixed_param_names: Any = None, state_names: Any = None, group2ctxs: Any = None,
                 compression_params: Any = None, update_freq: int | None = None) -> None:
        super().__init__(symbol, data_names=data_names, label_names=label_names, logger=logger,
                         context=context, work_load_list=work_load_list, fixed_param_names=fixed_param_names,
                         state_names=state_names, group2ctxs=group2ctxs,
                         compression_params=compression_params)
        if isinstance(update_freq, int) and not isinstance(update_freq, bool):
            if update_freq <= 0:
                raise ValueError("update_freq in SVRGModule must be a positive integer to represent the "
                                 "frequency for calculating full gradients")
            self.update_freq = update_freq
        else:
            raise TypeError("update_freq in SVRGModule must be an integer to represent the frequency for "
                            "calculating full gradients")
        self._mod_aux = Module(symbol, data_names, label_names, logger, context, work_load_list,
                               fixed_param_names, state_names, group2ctxs, compression_params)
        self._param_dict: list[dict[str, Any]] | None = None
        self._ctx_len = len(self._context)

    def _reset_bind(self) -> None:
        super()._reset_bind()
        self._mod_aux._reset_bind()

    def reshape(self, data_shapes: Any, label_shapes: Any = None) -> None:
        """Reshape both the module and its auxiliary module."""
        super().reshape(data_shapes, label_shapes=label_shapes)
        self._mod_aux.reshape(data_shapes, label_shapes=label_shapes)

    def init_optimizer(self, kvstore: Any = "local", optimizer: Any = "sgd",
                       optimizer_params: Any = (("learning_rate", 0.01),), force_init: bool = False) -> None:
        """Install ``_SVRGOptimizer`` around ``optimizer`` (and the ``<param>_full`` keys of the KVStore)."""
        self._param_dict = [{key: nd.zeros(shape=value.shape) for key, value in self.get_params()[0].items()}
                            for _ in range(self._ctx_len)]
        svrg = self._create_optimizer(_SVRGOptimizer.__name__, default_opt=optimizer, kvstore=kvstore,
                                      optimizer_params=optimizer_params)
        super().init_optimizer(kvstore=kvstore, optimizer=svrg, optimizer_params=optimizer_params,
                               force_init=force_init)
        if self._kvstore:
            for idx, name in enumerate(self._param_names):
                self._kvstore.init(name + "_full", nd.zeros(shape=self._arg_params[name].shape))
                if self._update_on_kvstore:
                    self._kvstore.pull(name + "_full", self._param_arrays()[idx], priority=-idx)

    def _create_optimizer(self, optimizer: str, default_opt: Any, kvstore: Any, optimizer_params: Any) -> Any:
        """``_SVRGOptimizer`` with MXNet's rescale_grad (1 / batch size, times the workers of a dist_sync
        store) and index-to-name table (the parameters, then ``<param>_full``)."""
        batch_size = self._data_shapes[0].shape[0]
        kv_store, update_on_kvstore = create_kvstore(kvstore, self._ctx_len)
        if kv_store and "dist" in kv_store.type and "_sync" in kv_store.type:
            batch_size *= kv_store.num_workers
        rescale_grad = 1.0 / batch_size
        idx2name: dict[int, str] = {}
        if update_on_kvstore:
            idx2name.update(enumerate(self._param_names))
        else:
            for k in range(self._ctx_len):
                idx2name.update({i * self._ctx_len + k: n for i, n in enumerate(self._param_names)})
        for key in self._param_dict[0]:
            idx2name[max(idx2name) + 1] = key + "_full"
        params = dict(optimizer_params)
        params.setdefault("rescale_grad", rescale_grad)
        params["default_optimizer"] = default_opt
        params["param_idx2name"] = idx2name
        return opt.create(optimizer, **params)

    def bind(self, data_shapes: Any, label_shapes: Any = None, for_training: bool = True,
             inputs_need_grad: bool = False, force_rebind: bool = False, shared_module: Any = None,
             grad_req: Any = "write") -> None:
        """Bind the module and, for training, its auxiliary module."""
        super().bind(data_shapes, label_shapes, for_training, inputs_need_grad, force_rebind, shared_module,
                     grad_req)
        if for_training:
            self._mod_aux.bind(data_shapes, label_shapes, for_training, inputs_need_grad, force_rebind,
                               shared_module, grad_req)

    def forward(self, data_batch: Any, is_train: bool | None = None) -> None:
        """Forward the module, and the auxiliary module when training."""
        super().forward(data_batch, is_train)
        if is_train:
            self._mod_aux.forward(data_batch, is_train)

    def backward(self, out_grads: Any = None) -> None:
        """Backward the module and the auxiliary module."""
        super().backward(out_grads)
        if self._mod_aux.binded:
            self._mod_aux.backward(out_grads)

    def update(self) -> None:
        """Replace the gradients by SVRG's and apply the optimizer."""
        self._update_svrg_gradients()
        super().update()

    def update_full_grads(self, train_data: Any) -> None:
        """Snapshot the weights into the auxiliary module and average its gradients over ``train_data`` (a
        padded last batch counts for its share)."""
        arg, aux = self.get_params()
        self._mod_aux.set_params(arg_params=arg, aux_params=aux)
        train_data.reset()
        nbatch = 0
        padding = 0
        for batch in train_data:
            self._mod_aux.forward(batch, is_train=True)
            self._mod_aux.backward()
            nbatch += 1
            for ctx in range(self._ctx_len):
                for index, name in enumerate(self._param_names):
                    grads = self._mod_aux._grad_arrays()[index]
                    self._param_dict[ctx][name] = nd.broadcast_add(self._param_dict[ctx][name], grads)
            padding = batch.pad
        true_num_batch = nbatch - padding / train_data.batch_size
        for name in self._param_names:
            grad_list = []
            for i in range(self._ctx_len):
                self._param_dict[i][name] /= true_num_batch
                grad_list.append(self._param_dict[i][name])
            if self._kvstore:
                self._accumulate_kvstore(name, grad_list)

    def _accumulate_kvstore(self, key: str, value: list) -> None:
        """Sum the full gradients of ``key`` over devices and workers through the KVStore."""
        self._kvstore.push(key + "_full", value)
        self._kvstore._barrier()
        self._kvstore.pull(key + "_full", value)
        self._allocate_gradients(key, value)

    def _allocate_gradients(self, key: str, value: list) -> None:
        for i in range(self._ctx_len):
            self._param_dict[i][key] = value[i] / self._ctx_len

    def _svrg_grads_update_rule(self, g_curr_batch_curr_weight: list, g_curr_batch_special_weight: list,
                                g_special_weight_all_batch: list) -> list:
        """``g(w) - g(w_snapshot) + full_gradient``, in place in the first list's arrays."""
        for index, grad in enumerate(g_curr_batch_curr_weight):
            grad -= g_curr_batch_special_weight[index]
            grad += g_special_weight_all_batch[index]
        return g_curr_batch_curr_weight

    def _update_svrg_gradients(self) -> None:
        for ctx in range(self._ctx_len):
            for index, name in enumerate(self._param_names):
                g_curr = self._grad_arrays()[index]
                g_special = self._mod_aux._grad_arrays()[index]
                self._svrg_grads_update_rule([g_curr], [g_special], [self._param_dict[ctx][name]])

    def fit(self, train_data: Any, eval_data: Any = None, eval_metric: Any = "acc",
            epoch_end_callback: Any = None, batch_end_callback: Any = None, kvstore: Any = "local",
            optimizer: Any = "sgd", optimizer_params: Any = (("learning_rate", 0.01),),
            eval_end_callback: Any = None, eval_batch_end_callback: Any = None,
            initializer: Any = _DEFAULT_INIT,
            arg_params: dict | None = None, aux_params: dict | None = None, allow_missing: bool = False,
            force_rebind: bool = False, force_init: bool = False, begin_epoch: int = 0,
            num_epoch: int | None = None, validation_metric: Any = None, monitor: Any = None,
            sparse_row_id_fn: Any = None) -> None:
        """Module.fit with the full gradients recomputed every ``update_freq`` epochs."""
        eval_metric, validation_metric = self._fit_prepare(
            train_data, eval_metric, validation_metric, num_epoch, monitor, force_rebind,
            dict(initializer=initializer, arg_params=arg_params, aux_params=aux_params,
                 allow_missing=allow_missing, force_init=force_init),
            dict(kvstore=kvstore, optimizer=optimizer, optimizer_params=optimizer_params))
        for epoch in range(begin_epoch, num_epoch):
            eval_metric.reset()
            tic = time.time()
            if epoch % self.update_freq == 0:
                self.update_full_grads(train_data)
            train_data.reset()
            eval_name_vals = self._fit_batches(epoch, train_data, eval_metric, monitor, batch_end_callback,
                                               sparse_row_id_fn, eval_metric.get_name_value)
            for name, val in eval_name_vals:
                self.logger.info("Epoch[%d] Train-%s=%f", epoch, name, val)
            self.logger.info("Epoch[%d] Time cost=%.3f", epoch, time.time() - tic)
            arg_params, aux_params = self.get_params()
            self.set_params(arg_params, aux_params)
            if epoch_end_callback is not None:
                for callback in _as_list(epoch_end_callback):
                    callback(epoch, self.symbol, arg_params, aux_params)
            if eval_data:
                res = self.score(eval_data, validation_metric, score_end_callback=eval_end_callback,
                                 batch_end_callback=eval_batch_end_callback, epoch=epoch)
                for name, val in res:
                    self.logger.info("Epoch[%d] Validation-%s=%f", epoch, name, val)

    def prepare(self, data_batch: Any, sparse_row_id_fn: Any = None) -> None:
        """Prepare both modules for ``data_batch``."""
        super().prepare(data_batch, sparse_row_id_fn=sparse_row_id_fn)
        self._mod_aux.prepare(data_batch, sparse_row_id_fn=sparse_row_id_fn)
