"""BucketingModule: one Module per bucket key (sequence length ...), built by ``sym_gen(key)`` on first use
and sharing the default bucket's parameters and optimizer; each batch runs on the module of its
``bucket_key``."""
from __future__ import annotations

import logging
import warnings
from typing import Any

import numpy as np

from cellonnx.mxnet import ndarray as nd
from cellonnx.mxnet import symbol as sym
from cellonnx.mxnet.device import cpu
from cellonnx.mxnet.model import load_params
from cellonnx.mxnet.module.base_module import DEFAULT_INIT, BaseModule, _check_input_names
from cellonnx.mxnet.module.module import Module
from cellonnx.mxnet.name import NameManager

__all__ = ["BucketingModule"]

_CPU = cpu()


class BucketingModule(BaseModule):
    """A module whose network depends on the batch's bucket key.

    Args:
        sym_gen: ``bucket_key -> (symbol, data_names, label_names)``.
        default_bucket_key: the key of the largest bucket (its module holds the parameters).
        logger, context, work_load_list, fixed_param_names, state_names, group2ctxs, compression_params: as
            Module's.
    """

    def __init__(self, sym_gen: Any, default_bucket_key: Any = None, logger: Any = logging,
                 context: Any = _CPU, work_load_list: Any = None, fixed_param_names: Any = None,
                 state_names: Any = None, group2ctxs: Any = None, compression_params: Any = None) -> None:
        super().__init__(logger=logger)
        if default_bucket_key is None:
            raise AssertionError("BucketingModule needs default_bucket_key")
        self._default_bucket_key = default_bucket_key
        self._sym_gen = sym_gen
        symbol, data_names, label_names = self._call_sym_gen(default_bucket_key)
        state_names = list(state_names) if state_names is not None else []
        fixed_param_names = list(fixed_param_names) if fixed_param_names is not None else []
        _check_input_names(symbol, list(data_names or []), "data", True)
        _check_input_names(symbol, list(label_names or []), "label", False)
        _check_input_names(symbol, state_names, "state", True)
        _check_input_names(symbol, fixed_param_names, "fixed_param", True)
        self._compression_params = compression_params
        self._fixed_param_names = fixed_param_names
        self._state_names = state_names
        self._context = context
        self._work_load_list = work_load_list
        self._group2ctxs = group2ctxs
        self._buckets: dict[Any, Module] = {}
        self._curr_module: Module | None = None
        self._curr_bucket_key: Any = None
        self._params_dirty = False
        self._monitor: Any = None
        self._grad_req: Any = None

    def _reset_bind(self) -> None:
        self.binded = False
        self._buckets = {}
        self._curr_module = None
        self._curr_bucket_key = None

    def _call_sym_gen(self, *args: Any, **kwargs: Any) -> Any:
        with NameManager():
            return self._sym_gen(*args, **kwargs)

    def _module(self, symbol: Any, data_names: Any, label_names: Any) -> Module:
        return Module(symbol, data_names, label_names, logger=self.logger, context=self._context,
                      work_load_list=self._work_load_list, fixed_param_names=self._fixed_param_names,
                      state_names=self._state_names, group2ctxs=self._group2ctxs,
                      compression_params=self._compression_params)

    def _need(self, *states: str) -> None:
        for state in states:
            if not getattr(self, state):
                raise AssertionError(f"BucketingModule: {state.replace('_', ' ')} is required first")

    @property
    def data_names(self) -> list[str]:
        """The data names of the current bucket (the default bucket's before binding)."""
        if self.binded:
            return self._curr_module.data_names
        return self._call_sym_gen(self._default_bucket_key)[1]

    @property
    def output_names(self) -> list[str]:
        """The output names of the current bucket (the default bucket's before binding)."""
        if self.binded:
            return self._curr_module.output_names
        return self._call_sym_gen(self._default_bucket_key)[0].list_outputs()

    @property
    def data_shapes(self) -> Any:
        self._need("binded")
        return self._curr_module.data_shapes

    @property
    def label_shapes(self) -> Any:
        self._need("binded")
        return self._curr_module.label_shapes

    @property
    def output_shapes(self) -> Any:
        self._need("binded")
        return self._curr_module.output_shapes

    @property
    def symbol(self) -> Any:
        """The current bucket's symbol."""
        self._need("binded")
        return self._curr_module.symbol

    def get_params(self) -> tuple[dict, dict]:
        """The parameters (shared by every bucket)."""
        self._need("params_initialized")
        self._curr_module._params_dirty = self._params_dirty
        params = self._curr_module.get_params()
        self._params_dirty = False
        return params

    def set_params(self, arg_params: dict, aux_params: dict, allow_missing: bool = False,
                   force_init: bool = True, allow_extra: bool = False) -> None:
        """Set the parameters from dicts by name."""
        if not allow_missing:
            self.init_params(initializer=None, arg_params=arg_params, aux_params=aux_params,
                             allow_missing=allow_missing, force_init=force_init)
            return
        if self.params_initialized and not force_init:
            warnings.warn("Parameters already initialized and force_init=False. set_params call ignored.",
                          stacklevel=2)
            return
        self._curr_module.set_params(arg_params, aux_params, allow_missing=allow_missing,
                                     force_init=force_init, allow_extra=allow_extra)
        self._params_dirty = True
        self.params_initialized = True

    def init_params(self, initializer: Any = DEFAULT_INIT, arg_params: dict | None = None,
                    aux_params: dict | None = None, allow_missing: bool = False, force_init: bool = False,
                    allow_extra: bool = False) -> None:
        """Initialize the parameters (of the current bucket, which the others share)."""
        if self.params_initialized and not force_init:
            return
        self._need("binded")
        self._curr_module.init_params(initializer=initializer, arg_params=arg_params, aux_params=aux_params,
                                      allow_missing=allow_missing, force_init=force_init,
                                      allow_extra=allow_extra)
        self._params_dirty = False
        self.params_initialized = True

    def get_states(self, merge_multi_context: bool = True) -> list[Any]:
        self._need("binded", "params_initialized")
        return self._curr_module.get_states(merge_multi_context=merge_multi_context)

    def set_states(self, states: Any = None, value: Any = None) -> None:
        self._need("binded", "params_initialized")
        self._curr_module.set_states(states, value)

    def bind(self, data_shapes: Any, label_shapes: Any = None, for_training: bool = True,
             inputs_need_grad: bool = False, force_rebind: bool = False, shared_module: Any = None,
             grad_req: Any = "write") -> None:
        """Bind the default bucket's module (the others bind when their keys first come)."""
        if self.params_initialized:
            arg_params, aux_params = self.get_params()
        if force_rebind:
            self._reset_bind()
        if self.binded:
            self.logger.warning("Already bound, ignoring bind()")
            return
        if shared_module is not None:
            raise AssertionError("shared_module for BucketingModule is not supported")
        self.for_training = for_training
        self.inputs_need_grad = inputs_need_grad
        self.binded = True
        self._grad_req = grad_req
        key = self._default_bucket_key
        module = self._buckets.get(key) or self._module(*self._call_sym_gen(key))
        module.bind(data_shapes, label_shapes, for_training, inputs_need_grad, force_rebind=False,
                    shared_module=None, grad_req=self._grad_req)
        self._curr_module, self._curr_bucket_key = module, key
        self._buckets[key] = module
        if self.params_initialized:
            self.set_params(arg_params, aux_params)

    def switch_bucket(self, bucket_key: Any, data_shapes: Any, label_shapes: Any = None) -> None:
        """Make ``bucket_key``'s module current, building and binding it (sharing the default bucket's
        parameters) on first use."""
        self._need("binded")
        if bucket_key not in self._buckets:
            module = self._module(*self._call_sym_gen(bucket_key))
            module.bind(data_shapes, label_shapes, self._curr_module.for_training,
                        self._curr_module.inputs_need_grad, force_rebind=False,
                        shared_module=self._buckets[self._default_bucket_key], grad_req=self._grad_req)
            if self._monitor is not None:
                module.install_monitor(self._monitor)
            self._buckets[bucket_key] = module
        elif not self._buckets[bucket_key].binded:
            self._buckets[bucket_key].bind(data_shapes, label_shapes, self._curr_module.for_training,
                                           self._curr_module.inputs_need_grad, force_rebind=False,
                                           shared_module=self._buckets[self._default_bucket_key],
                                           grad_req=self._grad_req)
        self._curr_module = self._buckets[bucket_key]
        self._curr_bucket_key = bucket_key

    def init_optimizer(self, kvstore: Any = "local", optimizer: Any = "sgd",
                       optimizer_params: Any = (("learning_rate", 0.01),), force_init: bool = False) -> None:
        """Install the optimizer on the current module; every bucket borrows it."""
        self._need("binded", "params_initialized")
        if self.optimizer_initialized and not force_init:
            self.logger.warning("optimizer already initialized, ignoring.")
            return
        self._curr_module.init_optimizer(kvstore, optimizer, optimizer_params, force_init=force_init)
        for mod in self._buckets.values():
            if mod is not self._curr_module:
                mod.borrow_optimizer(self._curr_module)
        self.optimizer_initialized = True

    def prepare(self, data_batch: Any, sparse_row_id_fn: Any = None) -> None:
        self._need("binded", "params_initialized")
        original = self._curr_bucket_key
        self.switch_bucket(data_batch.bucket_key, data_batch.provide_data, data_batch.provide_label)
        self._curr_module.prepare(data_batch, sparse_row_id_fn=sparse_row_id_fn)
        self.switch_bucket(original, None, None)

    def forward(self, data_batch: Any, is_train: bool | None = None) -> None:
        """Run the batch on its bucket's module."""
        self._need("binded", "params_initialized")
        self.switch_bucket(data_batch.bucket_key, data_batch.provide_data, data_batch.provide_label)
        self._curr_module.forward(data_batch, is_train=is_train)

    def backward(self, out_grads: Any = None) -> None:
        self._need("binded", "params_initialized")
        self._curr_module.backward(out_grads=out_grads)

    def update(self) -> None:
        self._need("binded", "params_initialized", "optimizer_initialized")
        self._params_dirty = True
        self._curr_module.update()

    def get_outputs(self, merge_multi_context: bool = True) -> list[Any]:
        self._need("binded", "params_initialized")
        return self._curr_module.get_outputs(merge_multi_context=merge_multi_context)

    def get_input_grads(self, merge_multi_context: bool = True) -> list[Any]:
        self._need("binded", "params_initialized", "inputs_need_grad")
        return self._curr_module.get_input_grads(merge_multi_context=merge_multi_context)

    def update_metric(self, eval_metric: Any, labels: Any, pre_sliced: bool = False) -> None:
        self._need("binded", "params_initialized")
        self._curr_module.update_metric(eval_metric, labels, pre_sliced)

    def install_monitor(self, mon: Any) -> None:
        self._need("binded")
        self._monitor = mon
        for mod in self._buckets.values():
            mod.install_monitor(mon)

    def save_checkpoint(self, prefix: str, epoch: int, remove_amp_cast: bool = False) -> None:
        """Write ``prefix-%04d.params``, ``prefix-<key>-symbol.json`` per bucket and ``prefix.buckets``."""
        if not self._buckets:
            raise AssertionError("Empty BucketingModule cannot be saved")
        self.save_params("%s-%04d.params" % (prefix, epoch))  # noqa: UP031 - MXNet's naming
        for bucket_key in self._buckets:
            symbol, _, _ = self._sym_gen(bucket_key)
            symbol.save(f"{prefix}-{bucket_key}-symbol.json", remove_amp_cast=remove_amp_cast)
        nd.save(f"{prefix}.buckets", nd.array(list(self._buckets.keys()), dtype=np.int32))

    @staticmethod
    def load_dict(sym_dict: dict[Any, Any] | None = None, sym_gen: Any = None, default_bucket_key: Any = None,
                  arg_params: dict[str, Any] | None = None, aux_params: dict[str, Any] | None = None,
                  **kwargs: Any) -> BucketingModule:
        """A BucketingModule from a dict of bucket key to symbol and the shared parameters."""
        assert sym_dict is not None, "sym_dict needs to be provided for BucketingModule.load_dict"
        assert arg_params is not None, "arg_params need to be provided for BucketingModule.load_dict"
        assert aux_params is not None, "aux_params need to be provided for BucketingModule.load_dict"
        assert default_bucket_key is not None, \
            "default_bucket_key needs to be provided for BucketingModule.load_dict"
        mod = BucketingModule(sym_gen, default_bucket_key, **kwargs)
        for bucket_key, loaded in sym_dict.items():
            _, data_names, label_names = sym_gen(default_bucket_key)
            mod._buckets[bucket_key] = Module(loaded, data_names, label_names, **kwargs)
            if bucket_key == default_bucket_key:
                mod._curr_module = mod._buckets[bucket_key]
        mod._curr_module._arg_params = arg_params
        mod._curr_module._aux_params = aux_params
        mod._curr_module.params_initialized = True
        mod.params_initialized = True
        return mod

    @staticmethod
    def load(prefix: str, epoch: int, sym_gen: Any = None, default_bucket_key: Any = None,
             **kwargs: Any) -> BucketingModule:
        """A BucketingModule from ``save_checkpoint``'s files."""
        if sym_gen is None:
            raise AssertionError("sym_gen is required for loading BucketingModule")
        if default_bucket_key is None:
            raise AssertionError("default_bucket_key is required for loading BucketingModule")
        buckets = [int(k) for k in nd.load(f"{prefix}.buckets")[0].asnumpy().astype("int32")]
        mod = BucketingModule(sym_gen, default_bucket_key, **kwargs)
        for bucket_key in buckets:
            _, data_names, label_names = sym_gen(bucket_key)
            symbol = sym.load(f"{prefix}-{bucket_key}-symbol.json")
            mod._buckets[bucket_key] = Module(symbol, data_names, label_names, **kwargs)
            if bucket_key == default_bucket_key:
                mod._curr_module = mod._buckets[bucket_key]
        arg_params, aux_params = load_params(prefix, epoch)
        mod._curr_module._arg_params = arg_params
        mod._curr_module._aux_params = aux_params
        mod._curr_module.params_initialized = True
        mod.params_initialized = True
        return mod
