"""ModelThor: Model training a THOR-optimized network with THOR's step schedule."""
from __future__ import annotations

from typing import Any

from cellonnx.nn.cell import Cell
from cellonnx.train.callback._callback import CallbackManager, InternalCallbackParam, RunContext
from cellonnx.train.model import Model, _transfer_tensor_to_tuple

__all__ = ["ModelThor"]


class ModelThor(Model):
    """A Model whose optimizer is THOR's (``nn.thor``), built by ``ConvertModelUtils.convert_to_thor_model``.

    With ``dataset_sink_mode=True`` it runs MindSpore's GPU schedule: one THOR step (the layers record their
    statistics and the optimizer inverts them: ``thor`` flags True) and then ``frequency - 1`` first-order
    steps reusing the inverses (flags False), callbacks' ``step_end`` after the THOR step and after the last
    step of each first-order run. Without sink mode every step is a THOR step, as in MindSpore.

    Args:
        network (Cell): the network (or a TrainOneStepCell holding the THOR optimizer).
        loss_fn, optimizer, metrics, eval_network, eval_indexes, amp_level, kwargs: as Model.
    """

    def __init__(self, network: Cell, loss_fn: Any = None, optimizer: Any = None, metrics: Any = None,
                 eval_network: Any = None, eval_indexes: list | None = None, amp_level: str = "O0",
                 **kwargs: Any) -> None:
        super().__init__(network, loss_fn, optimizer, metrics, eval_network, eval_indexes, amp_level,
                         **kwargs)
        opt = optimizer if optimizer is not None else getattr(network, "optimizer", None)
        if opt is None or not hasattr(opt, "get_frequency"):
            raise TypeError("ModelThor: the optimizer (given, or the TrainOneStepCell's) must be THOR's "
                            "(nn.thor)")
        if self._optimizer is None:
            self._optimizer = opt
        self._frequency = opt.get_frequency()
        self.switch_branch_one = True
        self.index_first_order = 0
        self._sink = False

    def train(self, epoch: int, train_dataset: Any, callbacks: Any = None, dataset_sink_mode: bool = False,
              sink_size: int = -1, initial_epoch: int = 0) -> None:
        """As Model.train; ``dataset_sink_mode=True`` runs THOR's schedule (see the class)."""
        self._sink = dataset_sink_mode
        try:
            super().train(epoch, train_dataset, callbacks, dataset_sink_mode, sink_size, initial_epoch)
        finally:
            self._sink = False

    def _train_process(self, epoch: int, train_dataset: Any, list_callback: CallbackManager,
                       cb_params: InternalCallbackParam, initial_epoch: int,
                       valid_infos: tuple | None) -> None:
        if not self._sink:
            self._train_network.add_flags_recursive(thor=True)
            super()._train_process(epoch, train_dataset, list_callback, cb_params, initial_epoch, valid_infos)
            return
        if valid_infos is not None and valid_infos[0] is not None:
            raise ValueError("Evaluation in training is currently not supported in the second-order scenario "
                             "of thor.")
        iter_first_order = self._frequency - 1
        iterator = train_dataset.create_tuple_iterator(num_epochs=epoch - initial_epoch, do_copy=False)
        cb_params.dataset_sink_mode = True
        run_context = RunContext(cb_params)
        list_callback.on_train_begin(run_context)
        for i in range(initial_epoch, epoch):
            cb_params.cur_epoch_num = i + 1
            self._current_epoch_num = cb_params.cur_epoch_num
            list_callback.on_train_epoch_begin(run_context)
            for next_element in iterator:
                inputs = _transfer_tensor_to_tuple(next_element)
                list_callback.on_train_step_begin(run_context)
                cb_params.cur_step_num += 1
                self._train_network.add_flags_recursive(thor=self.switch_branch_one)
                self._check_network_mode(self._train_network, True)
                cb_params.net_outputs = self._train_network(*inputs)
                if self.switch_branch_one:
                    self.switch_branch_one = False
                    list_callback.on_train_step_end(run_context)
                else:
                    self.index_first_order += 1
                    if self.index_first_order == iter_first_order:
                        self.index_first_order = 0
                        self.switch_branch_one = True
                        list_callback.on_train_step_end(run_context)
                if run_context.get_stop_requested():
                    iterator.stop()
                    break
            train_dataset.reset()
            list_callback.on_train_epoch_end(run_context)
            if run_context.get_stop_requested():
                break
        list_callback.on_train_end(run_context)
