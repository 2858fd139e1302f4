"""Module: MXNet 1.x's symbolic training and inference wrapper. A Symbol bound (``Symbol.simple_bind``) to the
shapes of its data and labels, its parameters initialized or loaded from a checkpoint, an optimizer applied
after ``forward`` / ``backward``; ``fit``, ``score`` and ``predict`` come from BaseModule.

One context runs one executor (the contexts cellonnx has are all the host), so MXNet's executor group is the
executor itself; the parameters the module reports (``get_params``) are copies synchronised from it as in
MXNet.
"""
from __future__ import annotations

import json
import logging
import warnings
from collections import OrderedDict
from typing import Any

import numpy as np

from cellonnx.gluon import init as initializer_mod
from cellonnx.gluon import optimizer as opt
from cellonnx.mxnet import ndarray
from cellonnx.mxnet.device import Context, cpu
from cellonnx.mxnet.io import DataBatch, DataDesc
from cellonnx.mxnet.model import load_checkpoint
from cellonnx.mxnet.module.base_module import DEFAULT_INIT, BaseModule, _check_input_names, _parse_data_desc
from cellonnx.mxnet.module.kv_update import (
    create_kvstore,
    initialize_kvstore,
    update_params,
    update_params_on_kvstore,
)

__all__ = ["Module"]

_CPU = cpu()


class InitDesc(str):
    """A parameter's name with its symbol attributes (what MXNet hands an initializer)."""

    attrs: dict[str, str]
    global_init: Any

    def __new__(cls, name: str, attrs: dict[str, str] | None = None, global_init: Any = None) -> InitDesc:
        ret = super().__new__(cls, name)
        ret.attrs = attrs or {}
        ret.global_init = global_init
        return ret


def _initialize(initializer: Any, desc: InitDesc, arr: Any) -> None:
    """Run ``initializer`` on ``arr`` (an NDArray, filled in place); a variable's ``__init__`` attribute
    (``mx.sym.var('w', init=mx.init.One())``) overrides it as in MXNet."""
    own = desc.attrs.get("__init__")
    if own:
        name, kwargs = json.loads(own)
        initializer = initializer_mod.create(name) if not kwargs else \
            type(initializer_mod.create(name))(**kwargs)
    buf = np.array(arr.asnumpy())
    initializer(desc, buf)
    arr[:] = buf


class Module(BaseModule):
    """A symbol bound to data and label shapes, with parameters and an optimizer (``mx.mod.Module``).

    Args:
        symbol: the network; its outputs are the module's outputs.
        data_names: the arguments fed from each batch's data. Default: ('data',).
        label_names: the arguments fed from each batch's labels. Default: ('softmax_label',).
        logger: where ``fit`` logs. Default: the ``logging`` module.
        context: a Context or a list of them. Default: ``cpu()``.
        work_load_list: accepted for compatibility (one executor). Default: None.
        fixed_param_names: parameters that are not updated. Default: None.
        state_names: inputs that are states (set by ``set_states``, not by batches). Default: None.
        group2ctxs, compression_params: accepted for compatibility.
    """

    def __init__(self, symbol: Any, data_names: Any = ("data",), label_names: Any = ("softmax_label",),
                 logger: Any = logging, context: Any = _CPU, work_load_list: Any = None,
                 fixed_param_names: Any = None, state_names: Any = None, group2ctxs: Any = None,
                 compression_params: Any = None) -> None:
        super().__init__(logger=logger)
        if isinstance(context, Context):
            context = [context]
        self._context = list(context)
        if work_load_list is None:
            work_load_list = [1] * len(self._context)
        if len(work_load_list) != len(self._context):
            raise AssertionError(f"work_load_list has {len(work_load_list)} entries for "
                                 f"{len(self._context)} contexts")
        self._work_load_list = work_load_list
        self._group2ctxs = group2ctxs
        self._symbol = symbol
        data_names = list(data_names) if data_names is not None else []
        label_names = list(label_names) if label_names is not None else []
        state_names = list(state_names) if state_names is not None else []
        fixed_param_names = list(fixed_param_names) if fixed_param_names is not None else []
        _check_input_names(symbol, data_names, "data", True)
        _check_input_names(symbol, label_names, "label", False)
        _check_input_names(symbol, state_names, "state", True)
        _check_input_names(symbol, fixed_param_names, "fixed_param", True)
        arg_names = symbol.list_arguments()
        input_names = data_names + label_names + state_names
        self._param_names = [x for x in arg_names if x not in input_names]
        self._fixed_param_names = fixed_param_names
        self._aux_names = symbol.list_auxiliary_states()
        self._data_names = data_names
        self._label_names = label_names
        self._state_names = state_names
        self._output_names = symbol.list_outputs()
        self._arg_params: dict[str, Any] | None = None
        self._aux_params: dict[str, Any] | None = None
        self._params_dirty = False
        self._compression_params = compression_params
        self._optimizer: Any = None
        self._kvstore: Any = None
        self._update_on_kvstore: bool | None = None
        self._updater: Any = None
        self._preload_opt_states: str | None = None
        self._grad_req: Any = None
        self._exec: Any = None
        self._data_shapes: list[DataDesc] | None = None
        self._label_shapes: list[DataDesc] | None = None

    # ---------------------------------------------------------------- checkpoints
    @staticmethod
    def load(prefix: str, epoch: int, load_optimizer_states: bool = False, **kwargs: Any) -> Module:
        """A module from ``prefix-symbol.json`` and ``prefix-%04d.params`` (and the optimizer states of
        ``prefix-%04d.states`` when ``load_optimizer_states``); ``kwargs`` go to the constructor."""
        sym, args, auxs = load_checkpoint(prefix, epoch)
        mod = Module(symbol=sym, **kwargs)
        mod._arg_params = args
        mod._aux_params = auxs
        mod.params_initialized = True
        if load_optimizer_states:
            mod._preload_opt_states = "%s-%04d.states" % (prefix, epoch)  # noqa: UP031 - MXNet's naming
        return mod

    def save_checkpoint(self, prefix: str, epoch: int, save_optimizer_states: bool = False,
                        remove_amp_cast: bool = True) -> None:
        """Write ``prefix-symbol.json``, ``prefix-%04d.params`` (and ``prefix-%04d.states``)."""
        self._symbol.save(f"{prefix}-symbol.json", remove_amp_cast=remove_amp_cast)
        param_name = "%s-%04d.params" % (prefix, epoch)  # noqa: UP031 - MXNet's naming
        self.save_params(param_name)
        logging.info('Saved checkpoint to "%s"', param_name)
        if save_optimizer_states:
            state_name = "%s-%04d.states" % (prefix, epoch)  # noqa: UP031 - MXNet's naming
            self.save_optimizer_states(state_name)
            logging.info('Saved optimizer state to "%s"', state_name)

    def _reset_bind(self) -> None:
        self.binded = False
        self._exec = None
        self._data_shapes = None
        self._label_shapes = None

    # ---------------------------------------------------------------- descriptions
    @property
    def data_names(self) -> list[str]:
        """The names of the data inputs."""
        return self._data_names

    @property
    def label_names(self) -> list[str]:
        """The names of the label inputs."""
        return self._label_names

    @property
    def output_names(self) -> list[str]:
        """The names of the outputs."""
        return self._output_names

    @property
    def data_shapes(self) -> list[DataDesc]:
        """The DataDesc of each data input (after ``bind``)."""
        self._need("binded")
        return self._data_shapes  # type: ignore[return-value]

    @property
    def label_shapes(self) -> list[DataDesc] | None:
        """The DataDesc of each label input, or None when bound without labels."""
        self._need("binded")
        return self._label_shapes

    @property
    def output_shapes(self) -> list[tuple[str, tuple]]:
        """``(name, shape)`` of each output (after ``bind``)."""
        self._need("binded")
        shapes = {d.name: tuple(d.shape) for d in self._data_shapes + (self._label_shapes or [])}
        shapes = {k: v for k, v in shapes.items() if k in self._symbol.list_arguments()}
        _, out_shapes, _ = self._symbol.infer_shape(**shapes)
        return list(zip(self._output_names, [tuple(s) for s in out_shapes]))

    def _need(self, *states: str) -> None:
        for state in states:
            if not getattr(self, state):
                raise AssertionError(f"Module: {state.replace('_', ' ')} is required first "
                                     "(bind, init_params, init_optimizer)")

    # ---------------------------------------------------------------- parameters
    def get_params(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """``(arg_params, aux_params)``: the current parameters and auxiliary states by name."""
        self._need("params_initialized")
        if self._params_dirty:
            self._sync_params_from_devices()
        return self._arg_params, self._aux_params  # type: ignore[return-value]

    def init_params(self, initializer: Any = DEFAULT_INIT, arg_params: dict | None = None,
                    aux_params: dict | None = None, allow_missing: bool = False, force_init: bool = False,
                    allow_extra: bool = False) -> None:
        """Initialize the parameters and auxiliary states: from ``arg_params`` / ``aux_params`` where given,
        else with ``initializer`` (in name order, as MXNet)."""
        if self.params_initialized and not force_init:
            warnings.warn("Parameters already initialized and force_init=False. init_params call ignored.",
                          stacklevel=2)
            return
        self._need("binded")

        def _impl(name: InitDesc, arr: Any, cache: dict | None) -> None:
            if cache is not None:
                if name in cache:
                    if cache[name] is not arr:
                        value = cache[name]
                        arr[:] = value.asnumpy() if hasattr(value, "asnumpy") else np.asarray(value)
                else:
                    if not allow_missing:
                        raise RuntimeError(f"{name} is not presented")
                    if initializer is not None:
                        _initialize(initializer, name, arr)
            else:
                _initialize(initializer, name, arr)

        attrs = self._symbol.attr_dict()
        for name, arr in sorted(self._arg_params.items()):
            _impl(InitDesc(name, attrs.get(name)), arr, arg_params)
        for name, arr in sorted(self._aux_params.items()):
            _impl(InitDesc(name, attrs.get(name)), arr, aux_params)
        self.params_initialized = True
        self._params_dirty = False
        self._copy_params_to_exec(allow_extra=allow_extra)

    def set_params(self, arg_params: dict[str, Any], aux_params: dict[str, Any], allow_missing: bool = False,
                   force_init: bool = True, allow_extra: bool = False) -> None:
        """Set the parameters and auxiliary states from dicts by name."""
        if not allow_missing:
            self.init_params(initializer=None, arg_params=arg_params, aux_params=aux_params,
                             allow_missing=allow_missing, force_init=force_init, allow_extra=allow_extra)
            return
        if self.params_initialized and not force_init:
            warnings.warn("Parameters already initialized and force_init=False. set_params call ignored.",
                          stacklevel=2)
            return
        self._set_exec_params(arg_params, aux_params, allow_extra)
        self._params_dirty = True
        self.params_initialized = True

    def _set_exec_params(self, arg_params: dict, aux_params: dict, allow_extra: bool) -> None:
        self._exec.copy_params_from(arg_params, aux_params, allow_extra_params=allow_extra)

    def _copy_params_to_exec(self, allow_extra: bool = False) -> None:
        self._set_exec_params(self._arg_params, self._aux_params, allow_extra)

    def _sync_params_from_devices(self) -> None:
        arg_dict, aux_dict = self._exec.arg_dict, self._exec.aux_dict
        for name in self._param_names:
            self._arg_params[name][:] = arg_dict[name].asnumpy()
        for name in self._aux_names:
            self._aux_params[name][:] = aux_dict[name].asnumpy()
        self._params_dirty = False

    # ---------------------------------------------------------------- binding
    def bind(self, data_shapes: Any, label_shapes: Any = None, for_training: bool = True,
             inputs_need_grad: bool = False, force_rebind: bool = False, shared_module: Any = None,
             grad_req: Any = "write") -> None:
        """Allocate the executor for these input shapes (a list of DataDesc or ``(name, shape)``)."""
        if force_rebind:
            self._reset_bind()
        if self.binded:
            self.logger.warning("Already bound, ignoring bind()")
            return
        self.for_training = for_training
        self.inputs_need_grad = inputs_need_grad
        self._grad_req = grad_req
        if not for_training and inputs_need_grad:
            raise AssertionError("inputs_need_grad needs for_training=True")
        self._data_shapes, self._label_shapes = _parse_data_desc(self._data_names, self._label_names,
                                                                 data_shapes, label_shapes)
        self._exec = self._bind_exec(self._data_shapes, self._label_shapes, shared_module)
        self.binded = True
        if shared_module is not None:  # the buckets of a BucketingModule: one set of parameters
            self.params_initialized = True
            self._arg_params = shared_module._arg_params
            self._aux_params = shared_module._aux_params
        elif self.params_initialized:
            self._copy_params_to_exec()
        else:
            if self._arg_params is not None or self._aux_params is not None:
                raise AssertionError("Module.bind: parameters exist before initialization")
            arg_dict, aux_dict = self._exec.arg_dict, self._exec.aux_dict
            self._arg_params = {n: ndarray.zeros(arg_dict[n].shape, dtype=arg_dict[n].dtype)
                                for n in self._param_names}
            self._aux_params = {n: ndarray.zeros(aux_dict[n].shape, dtype=aux_dict[n].dtype)
                                for n in self._aux_names}
        if shared_module is not None and shared_module.optimizer_initialized:
            self.borrow_optimizer(shared_module)

    def _reqs(self) -> dict[str, str]:
        names = self._symbol.list_arguments()
        if not self.for_training:
            return dict.fromkeys(names, "null")
        if isinstance(self._grad_req, dict):
            base = self._grad_req
        elif isinstance(self._grad_req, (list, tuple)):
            base = dict(zip(names, self._grad_req))
        else:
            base = dict.fromkeys(names, self._grad_req)
        reqs = {}
        data = set(self._data_names)
        for name in names:
            if name in self._param_names:
                reqs[name] = "null" if name in self._fixed_param_names else base.get(name, "write")
            elif name in data:
                reqs[name] = base.get(name, "write") if self.inputs_need_grad else "null"
            else:
                reqs[name] = "null"
        return reqs

    def _input_shapes(self, data_shapes: list[DataDesc], label_shapes: list[DataDesc] | None) -> dict:
        args = set(self._symbol.list_arguments())
        shapes = {d.name: tuple(d.shape) for d in data_shapes}
        shapes.update({d.name: tuple(d.shape) for d in label_shapes or [] if d.name in args})
        return shapes

    def _bind_exec(self, data_shapes: list[DataDesc], label_shapes: list[DataDesc] | None,
                   shared_module: Any) -> Any:
        shapes = self._input_shapes(data_shapes, label_shapes)
        types = {d.name: d.dtype for d in data_shapes + (label_shapes or []) if d.name in shapes}
        exe = self._symbol.simple_bind(cpu(), grad_req=self._reqs(), type_dict=types, **shapes)
        if shared_module is not None:
            if not (shared_module.binded and shared_module.params_initialized):
                raise AssertionError("shared_module must be bound and initialized")
            other = shared_module._exec
            for i, name in enumerate(exe._arg_names):
                if name in self._param_names and name in other.arg_dict \
                        and tuple(other.arg_dict[name].shape) == tuple(exe.arg_arrays[i].shape):
                    j = other._arg_names.index(name)
                    exe.arg_arrays[i] = other.arg_arrays[j]
                    if exe.grad_arrays[i] is not None and other.grad_arrays[j] is not None:
                        exe.grad_arrays[i] = other.grad_arrays[j]
            for i, name in enumerate(exe._aux_names):
                if name in other.aux_dict:
                    exe.aux_arrays[i] = other.aux_dict[name]
        return exe

    def reshape(self, data_shapes: Any, label_shapes: Any = None) -> None:
        """Re-bind for new input shapes (another batch size), keeping the parameters."""
        self._need("binded")
        self._data_shapes, self._label_shapes = _parse_data_desc(self._data_names, self._label_names,
                                                                 data_shapes, label_shapes)
        shapes = self._input_shapes(self._data_shapes, self._label_shapes)
        monitor = self._exec._monitor
        self._exec = self._exec.reshape(partial_shaping=True, allow_up_sizing=True, **shapes)
        self._exec._monitor = monitor

    # ---------------------------------------------------------------- optimizer
    def init_optimizer(self, kvstore: Any = "local", optimizer: Any = "sgd",
                       optimizer_params: Any = (("learning_rate", 0.01),), force_init: bool = False) -> None:
        """Install the optimizer (a name with ``optimizer_params``, or an Optimizer); its gradients are
        rescaled by 1 / batch_size unless ``rescale_grad`` is given."""
        self._need("binded", "params_initialized")
        if self.optimizer_initialized and not force_init:
            self.logger.warning("optimizer already initialized, ignoring...")
            return
        if self._params_dirty:
            self._sync_params_from_devices()
        kv, update_on_kvstore = create_kvstore(kvstore, len(self._context))
        batch_size = self._data_shapes[0].shape[0]
        if kv is not None and "dist" in kv.type and "_sync" in kv.type:
            batch_size *= kv.num_workers
        rescale_grad = 1.0 / batch_size
        n_ctx = len(self._context)
        if update_on_kvstore:
            idx2name = dict(enumerate(self._param_names))
        else:
            idx2name = {i * n_ctx + k: n for k in range(n_ctx) for i, n in enumerate(self._param_names)}
        if isinstance(optimizer, str):
            optimizer_params = dict(optimizer_params)
            optimizer_params.setdefault("rescale_grad", rescale_grad)
            optimizer = opt.create(optimizer, sym=self.symbol, param_idx2name=idx2name, **optimizer_params)
        else:
            if not isinstance(optimizer, opt.Optimizer):
                raise AssertionError("optimizer must be a name or an Optimizer, got "
                                     f"{type(optimizer).__name__}")
            if optimizer.rescale_grad != rescale_grad:
                warnings.warn("Optimizer created manually outside Module but rescale_grad is not normalized "
                              f"to 1.0/batch_size/num_workers ({optimizer.rescale_grad} vs. {rescale_grad}). "
                              "Is this intended?", stacklevel=2)
            if not optimizer.idx2name:
                optimizer.idx2name = idx2name.copy()
        self._optimizer = optimizer
        self._kvstore = kv
        self._update_on_kvstore = update_on_kvstore
        self._updater = None
        if kv is not None:
            if self._compression_params:
                kv.set_gradient_compression(self._compression_params)
            if update_on_kvstore:
                kv.set_optimizer(self._optimizer)
            initialize_kvstore(kv, self._param_arrays(), self._arg_params, self._param_names,
                               update_on_kvstore)
        if not update_on_kvstore:
            self._updater = opt.get_updater(optimizer)
        self.optimizer_initialized = True
        if self._preload_opt_states is not None:
            self.load_optimizer_states(self._preload_opt_states)
            self._preload_opt_states = None

    def borrow_optimizer(self, shared_module: Module) -> None:
        """Use ``shared_module``'s optimizer, kvstore and updater (as BucketingModule's buckets do)."""
        if not shared_module.optimizer_initialized:
            raise AssertionError("borrow_optimizer: the shared module has no optimizer")
        self._optimizer = shared_module._optimizer
        self._kvstore = shared_module._kvstore
        self._update_on_kvstore = shared_module._update_on_kvstore
        self._updater = shared_module._updater
        self.optimizer_initialized = True

    def save_optimizer_states(self, fname: str) -> None:
        """Write the optimizer's states (the updater's pickle, as MXNet) to ``fname``."""
        self._need("optimizer_initialized")
        if self._update_on_kvstore:
            self._kvstore.save_optimizer_states(fname)
        else:
            with open(fname, "wb") as fout:
                fout.write(self._updater.get_states())

    def load_optimizer_states(self, fname: str) -> None:
        """Read optimizer states that ``save_optimizer_states`` wrote."""
        self._need("optimizer_initialized")
        if self._update_on_kvstore:
            self._kvstore.load_optimizer_states(fname)
        else:
            with open(fname, "rb") as fin:
                self._updater.set_states(fin.read())

    # ---------------------------------------------------------------- computation
    def _param_arrays(self) -> list[Any]:
        arg_dict = self._exec.arg_dict
        return [arg_dict[n] for n in self._param_names]

    def _grad_arrays(self) -> list[Any]:
        grad_dict = self._exec.grad_dict
        return [grad_dict[n] for n in self._param_names]

    def forward(self, data_batch: DataBatch, is_train: bool | None = None) -> None:
        """Run the network on a batch (re-binding first when its shapes differ from the bound ones)."""
        self._need("binded", "params_initialized")
        curr = tuple(tuple(d.shape) for d in self._data_shapes)
        new = tuple(tuple(d.shape) for d in data_batch.data)
        if curr != new:
            if getattr(data_batch, "provide_data", None):
                new_dshape = data_batch.provide_data
            else:
                new_dshape = [DataDesc(d.name, s, d.dtype, d.layout) for d, s in zip(self._data_shapes, new)]
            if getattr(data_batch, "provide_label", None):
                new_lshape = data_batch.provide_label
            elif getattr(data_batch, "label", None) and self._label_shapes:
                new_lshape = [DataDesc(d.name, tuple(lb.shape), d.dtype, d.layout)
                              for d, lb in zip(self._label_shapes, data_batch.label)]
            else:
                new_lshape = None
            self.reshape(new_dshape, new_lshape)
        if is_train is None:
            is_train = self.for_training
        arg_dict = self._exec.arg_dict
        for desc, value in zip(self._data_shapes, data_batch.data):
            arg_dict[desc.name][:] = value.asnumpy() if hasattr(value, "asnumpy") else np.asarray(value)
        if self._label_shapes and data_batch.label:
            for desc, value in zip(self._label_shapes, data_batch.label):
                if desc.name in arg_dict:
                    arg_dict[desc.name][:] = value.asnumpy() if hasattr(value, "asnumpy") \
                        else np.asarray(value)
        self._exec.forward(is_train=is_train)

    def backward(self, out_grads: Any = None) -> None:
        """Back-propagate into the gradients of the parameters (and inputs when ``inputs_need_grad``)."""
        self._need("binded", "params_initialized")
        if not self.for_training:
            raise AssertionError("backward needs a module bound with for_training=True")
        self._exec.backward(out_grads=out_grads)

    def update(self) -> None:
        """Apply the optimizer to every parameter that has a gradient."""
        self._need("binded", "params_initialized", "optimizer_initialized")
        self._params_dirty = True
        if self._update_on_kvstore:
            update_params_on_kvstore(self._param_arrays(), self._grad_arrays(), self._kvstore,
                                     self._param_names)
        else:
            update_params(self._param_arrays(), self._grad_arrays(), self._updater, len(self._context),
                          self._kvstore, self._param_names)

    def get_outputs(self, merge_multi_context: bool = True) -> list[Any]:
        """The outputs of the last forward (a list of lists when ``merge_multi_context`` is False)."""
        self._need("binded", "params_initialized")
        outputs = list(self._exec.outputs)
        return outputs if merge_multi_context else [[o] for o in outputs]

    def get_input_grads(self, merge_multi_context: bool = True) -> list[Any]:
        """The gradients of the data inputs (bound with ``inputs_need_grad=True``)."""
        self._need("binded", "params_initialized", "inputs_need_grad")
        grads = [self._exec.grad_dict[n] for n in self._data_names]
        return grads if merge_multi_context else [[g] for g in grads]

    def get_states(self, merge_multi_context: bool = True) -> list[Any]:
        """The arrays of the ``state_names`` inputs."""
        self._need("binded", "params_initialized")
        states = [self._exec.arg_dict[n] for n in self._state_names]
        return states if merge_multi_context else [[s] for s in states]

    def set_states(self, states: Any = None, value: Any = None) -> None:
        """Set the ``state_names`` inputs from arrays, or all of them to ``value``."""
        self._need("binded", "params_initialized")
        arg_dict = self._exec.arg_dict
        if states is not None:
            if value is not None:
                raise AssertionError("Only one of states & value can be specified.")
            for name, state in zip(self._state_names, states):
                state = state[0] if isinstance(state, (list, tuple)) else state
                arg_dict[name][:] = state.asnumpy() if hasattr(state, "asnumpy") else np.asarray(state)
        else:
            if value is None:
                raise AssertionError("One of states & value must be specified.")
            for name in self._state_names:
                arg_dict[name][:] = value

    def update_metric(self, eval_metric: Any, labels: Any, pre_sliced: bool = False) -> None:
        """Update ``eval_metric`` with the last outputs and ``labels``."""
        if pre_sliced:
            labels = labels[0]
        if isinstance(labels, dict):
            labels_ = OrderedDict(labels)
        else:
            names = [d.name for d in self._label_shapes] if self._label_shapes else self._label_names
            labels_ = OrderedDict(zip(names, labels or []))
        preds = OrderedDict(zip(self._output_names, self._exec.outputs))
        eval_metric.update_dict(labels_, preds)

    def install_monitor(self, mon: Any) -> None:
        """Install a Monitor on the executor."""
        self._need("binded")
        mon.install(self._exec)

    def prepare(self, data_batch: Any, sparse_row_id_fn: Any = None) -> None:
        """Prepare for a batch (row-sparse parameters are pulled from the kvstore here in MXNet)."""
        self._need("binded")
        if sparse_row_id_fn is not None and self._kvstore is not None and not self._update_on_kvstore:
            for name, row_ids in sparse_row_id_fn(data_batch).items():
                self._kvstore.row_sparse_pull(name, self._exec.arg_dict[name], row_ids=row_ids)
