"""PythonModule (a module computed in Python, without parameters) and PythonLossModule (a loss whose
gradient ``grad_func(scores, labels)`` gives), as MXNet 1.x has them for SequentialModule chains."""
from __future__ import annotations

import logging
from typing import Any

from cellonnx.mxnet import ndarray as nd
from cellonnx.mxnet.module.base_module import DEFAULT_INIT, BaseModule

__all__ = ["PythonLossModule", "PythonModule"]


class PythonModule(BaseModule):
    """Base of modules written in Python: no parameters, no optimizer; subclasses compute the outputs
    (``forward`` / ``get_outputs``) and their shapes (``_compute_output_shapes``).

    As in MXNet, ``bind`` records the shapes without setting ``binded``.
    """

    def __init__(self, data_names: Any, label_names: Any, output_names: Any, logger: Any = logging) -> None:
        super().__init__(logger=logger)
        self._data_names = list(data_names) if isinstance(data_names, tuple) else data_names
        self._label_names = list(label_names) if isinstance(label_names, tuple) else label_names
        self._output_names = output_names
        self._data_shapes: Any = None
        self._label_shapes: Any = None
        self._output_shapes: Any = None

    @property
    def data_names(self) -> list[str]:
        return self._data_names

    @property
    def output_names(self) -> list[str]:
        return self._output_names

    @property
    def data_shapes(self) -> Any:
        return self._data_shapes

    @property
    def label_shapes(self) -> Any:
        return self._label_shapes

    @property
    def output_shapes(self) -> Any:
        return self._output_shapes

    def get_params(self) -> tuple[dict, dict]:
        """No parameters: ``({}, {})``."""
        return {}, {}

    def init_params(self, initializer: Any = DEFAULT_INIT, arg_params: dict | None = None,
                    aux_params: dict | None = None, allow_missing: bool = False, force_init: bool = False,
                    allow_extra: bool = False) -> None:
        """Nothing to initialize."""

    def update(self) -> None:
        """Nothing to update."""

    def update_metric(self, eval_metric: Any, labels: Any, pre_sliced: bool = False) -> None:
        """Update the metric with the labels and the outputs (nothing without labels)."""
        if self._label_shapes is None:
            return
        if pre_sliced:
            raise RuntimeError("PythonModule does not support presliced labels")
        eval_metric.update(labels, self.get_outputs())

    def bind(self, data_shapes: Any, label_shapes: Any = None, for_training: bool = True,
             inputs_need_grad: bool = False, force_rebind: bool = False, shared_module: Any = None,
             grad_req: Any = "write") -> None:
        """Record the shapes and compute the output shapes."""
        if self.binded and not force_rebind:
            self.logger.warning("Already bound, ignoring bind()")
            return
        if grad_req != "write":
            raise AssertionError("Python module only support write gradient")
        self.for_training = for_training
        self.inputs_need_grad = inputs_need_grad
        if [x[0] for x in data_shapes] != list(self._data_names):
            raise AssertionError(f"data_shapes {data_shapes} do not match data_names {self._data_names}")
        self._data_shapes = data_shapes
        self._label_shapes = label_shapes
        if label_shapes is not None:
            if self._label_names is None or [x[0] for x in label_shapes] != list(self._label_names):
                raise AssertionError(f"label_shapes {label_shapes} do not match label_names "
                                     f"{self._label_names}")
        self._output_shapes = self._compute_output_shapes()

    def _compute_output_shapes(self) -> list[tuple[str, tuple]]:
        raise NotImplementedError()

    def init_optimizer(self, kvstore: Any = "local", optimizer: Any = "sgd",
                       optimizer_params: Any = (("learning_rate", 0.01),), force_init: bool = False) -> None:
        """No optimizer is needed."""

    def install_monitor(self, mon: Any) -> None:
        raise NotImplementedError()


class PythonLossModule(PythonModule):
    """A loss computed in Python: its output is its input (the scores); ``backward`` sets the input gradient
    to ``grad_func(scores, labels)``.

    Args:
        name: the output is ``<name>_output``. Default: 'pyloss'.
        data_names, label_names: one name each. Default: ('data',), ('softmax_label',).
        logger: Default: the ``logging`` module.
        grad_func: ``(scores, labels) -> gradient`` (NDArrays; a NumPy array is converted).
    """

    def __init__(self, name: str = "pyloss", data_names: Any = ("data",),
                 label_names: Any = ("softmax_label",), logger: Any = logging, grad_func: Any = None) -> None:
        super().__init__(data_names, label_names, [name + "_output"], logger=logger)
        self._name = name
        if len(data_names) != 1 or len(label_names) != 1:
            raise AssertionError("PythonLossModule takes one data name and one label name")
        self._scores: Any = None
        self._labels: Any = None
        self._scores_grad: Any = None
        if grad_func is not None and not callable(grad_func):
            raise AssertionError("grad_func must be callable")
        self._grad_func = grad_func

    def _compute_output_shapes(self) -> list[tuple[str, tuple]]:
        return [(self._name + "_output", self._data_shapes[0][1])]

    def forward(self, data_batch: Any, is_train: bool | None = None) -> None:
        """Keep the scores (and, when training, the labels)."""
        self._scores = data_batch.data[0]
        if is_train is None:
            is_train = self.for_training
        if is_train:
            self._labels = data_batch.label[0]

    def get_outputs(self, merge_multi_context: bool = True) -> list[Any]:
        if merge_multi_context is not True:
            raise AssertionError("merge_multi_context must be True")
        return [self._scores]

    def backward(self, out_grads: Any = None) -> None:
        """The input gradient from ``grad_func``."""
        if out_grads is not None:
            raise AssertionError("For a loss module, out_grads should be None")
        if not self.for_training:
            raise AssertionError("backward needs for_training=True")
        self._backward_impl()

    def _backward_impl(self) -> None:
        if self._grad_func is None:
            raise NotImplementedError()
        grad = self._grad_func(self._scores, self._labels)
        self._scores_grad = grad if isinstance(grad, nd.NDArray) else nd.array(grad)

    def get_input_grads(self, merge_multi_context: bool = True) -> list[Any]:
        if merge_multi_context is not True:
            raise AssertionError("merge_multi_context must be True")
        return [self._scores_grad]

    def install_monitor(self, mon: Any) -> None:
        raise NotImplementedError()
