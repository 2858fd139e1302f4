"""SequentialModule: modules chained so that each one's outputs are the next one's data (gradients flow
back the same way); ``add(module, take_labels=True)`` hands the batch's labels to a module,
``auto_wiring=True`` renames the incoming data to the module's data names."""
from __future__ import annotations

import copy
import logging
from typing import Any

from cellonnx.mxnet.module.base_module import DEFAULT_INIT, BaseModule

__all__ = ["SequentialModule"]


class SequentialModule(BaseModule):
    """A chain of modules run one after the other.

    Args:
        logger: where progress is logged. Default: the ``logging`` module.
    """

    META_TAKE_LABELS = "take_labels"
    META_AUTO_WIRING = "auto_wiring"

    def __init__(self, logger: Any = logging) -> None:
        super().__init__(logger=logger)
        self._modules: list[Any] = []
        self._metas: list[dict[str, Any]] = []
        self._label_shapes: Any = None
        self._data_shapes: Any = None
        self._meta_keys = {self.META_TAKE_LABELS, self.META_AUTO_WIRING}

    def add(self, module: Any, **kwargs: Any) -> SequentialModule:
        """Append ``module`` (``take_labels`` / ``auto_wiring`` keywords); returns self for chaining."""
        for key in kwargs:
            if key not in self._meta_keys:
                raise AssertionError(f'Unknown meta "{key}", a typo?')
        self._modules.append(module)
        self._metas.append(kwargs)
        self.binded = False
        self.params_initialized = False
        self.optimizer_initialized = False
        return self

    def _need(self, *states: str) -> None:
        for state in states:
            if not getattr(self, state):
                raise AssertionError(f"SequentialModule: {state.replace('_', ' ')} is required first")

    def _takes_labels(self, i: int) -> bool:
        return bool(self._metas[i].get(self.META_TAKE_LABELS, False))

    @property
    def data_names(self) -> list[str]:
        """The first module's data names."""
        return self._modules[0].data_names if self._modules else []

    @property
    def output_names(self) -> list[str]:
        """The last module's output names."""
        return self._modules[-1].output_names if self._modules else []

    @property
    def data_shapes(self) -> Any:
        self._need("binded")
        return self._modules[0].data_shapes

    @property
    def label_shapes(self) -> Any:
        self._need("binded")
        return self._label_shapes

    @property
    def output_shapes(self) -> Any:
        self._need("binded")
        return self._modules[-1].output_shapes

    def get_params(self) -> tuple[dict, dict]:
        """Every module's parameters in one pair of dicts."""
        self._need("binded", "params_initialized")
        arg_params: dict[str, Any] = {}
        aux_params: dict[str, Any] = {}
        for module in self._modules:
            arg, aux = module.get_params()
            arg_params.update(arg)
            aux_params.update(aux)
        return arg_params, aux_params

    def init_params(self, initializer: Any = DEFAULT_INIT, arg_params: dict | None = None,
                    aux_params: dict | None = None, allow_missing: bool = False, force_init: bool = False,
                    allow_extra: bool = False) -> None:
        """Initialize every module's parameters; a parameter name used by two modules is an error."""
        if self.params_initialized and not force_init:
            return
        self._need("binded")
        for module in self._modules:
            module.init_params(initializer=initializer, arg_params=arg_params, aux_params=aux_params,
                               allow_missing=allow_missing, force_init=force_init, allow_extra=allow_extra)
        for which in (0, 1):
            owner: dict[str, int] = {}
            for i, module in enumerate(self._modules):
                for name in module.get_params()[which]:
                    if name in owner:
                        j = owner[name]
                        raise AssertionError(f'Duplicated parameter names: name "{name}" in layer {i} '
                                             f"({type(self._modules[i])}) is already used in layer {j} "
                                             f"({type(self._modules[j])}).")
                    owner[name] = i
        self.params_initialized = True

    def bind(self, data_shapes: Any, label_shapes: Any = None, for_training: bool = True,
             inputs_need_grad: bool = False, force_rebind: bool = False, shared_module: Any = None,
             grad_req: Any = "write") -> None:
        """Bind each module to the previous one's output shapes (the first to ``data_shapes``)."""
        if self.binded and not force_rebind:
            self.logger.warning("Already bound, ignoring bind()")
            return
        if inputs_need_grad and for_training is not True:
            raise AssertionError("inputs_need_grad needs for_training=True")
        if shared_module is not None:
            raise AssertionError("Shared module is not supported")
        if not self._modules:
            raise AssertionError("Attempting to bind an empty SequentialModule")
        self.binded = True
        self._label_shapes = label_shapes
        my_data_shapes = data_shapes
        needs_label = False
        for i, module in enumerate(self._modules):
            my_label_shapes = label_shapes if self._takes_labels(i) else None
            needs_label = needs_label or self._takes_labels(i)
            if self._metas[i].get(self.META_AUTO_WIRING, False):
                names = module.data_names
                if len(names) != len(my_data_shapes):
                    raise AssertionError(f"auto_wiring: {len(my_data_shapes)} inputs for data names {names}")
                my_data_shapes = [(new, shape) for new, (_, shape) in zip(names, my_data_shapes)]
            module.bind(data_shapes=my_data_shapes, label_shapes=my_label_shapes, for_training=for_training,
                        inputs_need_grad=bool(inputs_need_grad or (for_training and i > 0)),
                        force_rebind=force_rebind, shared_module=None, grad_req=grad_req)
            my_data_shapes = module.output_shapes
        if not needs_label:
            self._label_shapes = None

    def init_optimizer(self, kvstore: Any = "local", optimizer: Any = "sgd",
                       optimizer_params: Any = (("learning_rate", 0.01),), force_init: bool = False) -> None:
        """Install the optimizer on every module."""
        self._need("binded", "params_initialized")
        if self.optimizer_initialized and not force_init:
            self.logger.warning("optimizer already initialized, ignoring.")
            return
        for module in self._modules:
            module.init_optimizer(kvstore=kvstore, optimizer=optimizer, optimizer_params=optimizer_params,
                                  force_init=force_init)
        self.optimizer_initialized = True

    def forward(self, data_batch: Any, is_train: bool | None = None) -> None:
        """Run the modules in order, each on the previous one's outputs."""
        self._need("binded", "params_initialized")
        data_batch = copy.copy(data_batch)
        for i, module in enumerate(self._modules):
            module.forward(data_batch, is_train=is_train)
            if i + 1 == len(self._modules):
                break
            data_batch.data = module.get_outputs()
            if hasattr(data_batch, "provide_data"):
                names = [x[0] for x in module.output_shapes]
                data_batch.provide_data = [(n, x.shape) for n, x in zip(names, data_batch.data)]

    def backward(self, out_grads: Any = None) -> None:
        """Back-propagate from the last module to the first, each one's input gradients the previous one's
        head gradients."""
        self._need("binded", "params_initialized")
        for i in reversed(range(len(self._modules))):
            self._modules[i].backward(out_grads=out_grads)
            if i == 0:
                break
            out_grads = self._modules[i].get_input_grads()

    def update(self) -> None:
        self._need("binded", "params_initialized", "optimizer_initialized")
        for module in self._modules:
            module.update()

    def get_outputs(self, merge_multi_context: bool = True) -> list[Any]:
        self._need("binded", "params_initialized")
        return self._modules[-1].get_outputs(merge_multi_context=merge_multi_context)

    def get_input_grads(self, merge_multi_context: bool = True) -> list[Any]:
        self._need("binded", "params_initialized", "inputs_need_grad")
        return self._modules[0].get_input_grads(merge_multi_context=merge_multi_context)

    def update_metric(self, eval_metric: Any, labels: Any, pre_sliced: bool = False) -> None:
        """Update the metric with the outputs of the modules that take labels."""
        self._need("binded", "params_initialized")
        for i, module in enumerate(self._modules):
            if self._takes_labels(i):
                module.update_metric(eval_metric, labels, pre_sliced)

    def install_monitor(self, mon: Any) -> None:
        self._need("binded")
        for module in self._modules:
            module.install_monitor(mon)
