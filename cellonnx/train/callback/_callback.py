"""Callback base class, the callback list runner and RunContext (MindSpore's training-loop hooks)."""
from __future__ import annotations

from contextlib import ExitStack
from typing import TYPE_CHECKING, Any

import numpy as np

from cellonnx.tensor import Tensor

__all__ = ["Callback", "CallbackManager", "InternalCallbackParam", "RunContext"]

if TYPE_CHECKING:
    from typing_extensions import Self


class Callback:
    """Base class of training / evaluation callbacks: override the hooks you need.

    The ``on_train_*`` / ``on_eval_*`` hooks call the older ``begin`` / ``epoch_begin`` / ``epoch_end`` /
    ``step_begin`` / ``step_end`` / ``end`` hooks by default, as MindSpore. Order of one training run:
    on_train_begin, then per epoch on_train_epoch_begin, per step on_train_step_begin / on_train_step_end,
    on_train_epoch_end, and finally on_train_end. Each hook gets a :class:`RunContext`;
    ``run_context.original_args()`` holds cur_epoch_num, cur_step_num, batch_num, epoch_num, net_outputs,
    train_network, optimizer, loss_fn, mode ...

    Examples:
        >>> from cellonnx.train import Callback
        >>> class StopAtLoss(Callback):
        ...     def on_train_step_end(self, run_context):
        ...         if float(run_context.original_args().net_outputs.asnumpy()) < 0.01:
        ...             run_context.request_stop()
    """

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *err: object) -> None:
        """Release resources here if any."""

    def begin(self, run_context: RunContext) -> None:
        """Called once before the network runs."""

    def epoch_begin(self, run_context: RunContext) -> None:
        """Called before each epoch."""

    def epoch_end(self, run_context: RunContext) -> None:
        """Called after each epoch."""

    def step_begin(self, run_context: RunContext) -> None:
        """Called before each step."""

    def step_end(self, run_context: RunContext) -> None:
        """Called after each step."""

    def end(self, run_context: RunContext) -> None:
        """Called once after the network ran."""

    def on_train_begin(self, run_context: RunContext) -> None:
        self.begin(run_context)

    def on_train_epoch_begin(self, run_context: RunContext) -> None:
        self.epoch_begin(run_context)

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        self.epoch_end(run_context)

    def on_train_step_begin(self, run_context: RunContext) -> None:
        self.step_begin(run_context)

    def on_train_step_end(self, run_context: RunContext) -> None:
        self.step_end(run_context)

    def on_train_end(self, run_context: RunContext) -> None:
        self.end(run_context)

    def on_eval_begin(self, run_context: RunContext) -> None:
        self.begin(run_context)

    def on_eval_epoch_begin(self, run_context: RunContext) -> None:
        self.epoch_begin(run_context)

    def on_eval_epoch_end(self, run_context: RunContext) -> None:
        self.epoch_end(run_context)

    def on_eval_step_begin(self, run_context: RunContext) -> None:
        self.step_begin(run_context)

    def on_eval_step_end(self, run_context: RunContext) -> None:
        self.step_end(run_context)

    def on_eval_end(self, run_context: RunContext) -> None:
        self.end(run_context)


_HOOKS = ("begin", "epoch_begin", "epoch_end", "step_begin", "step_end", "end",
          "on_train_begin", "on_train_epoch_begin", "on_train_epoch_end", "on_train_step_begin",
          "on_train_step_end", "on_train_end", "on_eval_begin", "on_eval_epoch_begin", "on_eval_epoch_end",
          "on_eval_step_begin", "on_eval_step_end", "on_eval_end")


class CallbackManager(Callback):
    """Runs a list of callbacks in order (entering each as a context manager for the run).

    Examples:
        >>> from cellonnx.train import Callback, CallbackManager, RunContext, InternalCallbackParam
        >>> class Hello(Callback):
        ...     def on_train_begin(self, run_context):
        ...         print('training starts')
        >>> cb_params = InternalCallbackParam()
        >>> with CallbackManager([Hello()]) as manager:
        ...     manager.on_train_begin(RunContext(cb_params))
        training starts
    """

    def __init__(self, callbacks: Any) -> None:
        self._callbacks: list[Callback] = []
        self._stack: ExitStack | None = None
        if isinstance(callbacks, Callback):
            self._callbacks.append(callbacks)
        elif isinstance(callbacks, (list, tuple)):
            for i, cb in enumerate(callbacks):
                if not isinstance(cb, Callback):
                    raise TypeError(f"callbacks[{i}] is {type(cb).__name__}; every callback must be a Callback")
                self._callbacks.append(cb)
        elif callbacks is not None:
            raise TypeError(f"'callbacks' must be a Callback or a list of Callbacks, got {type(callbacks).__name__}")

    def __enter__(self) -> Self:
        if self._stack is None:
            self._stack = ExitStack().__enter__()
            entered = []
            for cb in self._callbacks:
                target = self._stack.enter_context(cb)
                entered.append(target if isinstance(target, Callback) else cb)
            self._callbacks = entered
        return self

    @property
    def callbacks(self) -> list[Callback]:
        """The callbacks run, in order (after entering, the targets their ``__enter__`` returned)."""
        return self._callbacks

    def __exit__(self, *err: object) -> Any:
        stack, self._stack = self._stack, None
        return stack.__exit__(*err) if stack is not None else None  # type: ignore[arg-type]


def _fan_out(hook: str) -> Any:
    def run(self: CallbackManager, run_context: RunContext) -> None:
        for cb in self._callbacks:
            getattr(cb, hook)(run_context)
    run.__name__ = hook
    run.__doc__ = f"Call ``{hook}`` of every callback."
    return run


for _hook in _HOOKS:
    setattr(CallbackManager, _hook, _fan_out(_hook))


class InternalCallbackParam(dict):
    """The callback parameters: a dict whose keys are also attributes (``cb_params.cur_step_num``).

    Examples:
        >>> from cellonnx.train import InternalCallbackParam
        >>> cb_params = InternalCallbackParam()
        >>> cb_params.cur_step_num = 3
        >>> print(cb_params.cur_step_num)
        3
    """

    def __getattr__(self, key: str) -> Any:
        try:
            return self[key]
        except KeyError:
            raise AttributeError(f"callback parameters have no '{key}'; present: {sorted(self)}") from None

    def __setattr__(self, key: str, value: Any) -> None:
        self[key] = value


class RunContext:
    """What a callback receives: the run's parameters and a way to stop the run.

    Args:
        original_args (dict): the callback parameters.

    Examples:
        >>> from cellonnx.train import RunContext
        >>> run_context = RunContext({'epoch_num': 2})
        >>> print(run_context.original_args()['epoch_num'])
        2
    """

    def __init__(self, original_args: dict) -> None:
        if not isinstance(original_args, dict):
            raise TypeError(f"RunContext: original_args must be a dict, got {type(original_args).__name__}")
        self._original_args = original_args
        self._stop_requested = False

    def original_args(self) -> Any:
        """The callback parameters (cur_epoch_num, cur_step_num, net_outputs, ...)."""
        return self._original_args

    def request_stop(self) -> None:
        """Stop after the current step (training) or batch (evaluation)."""
        self._stop_requested = True

    def get_stop_requested(self) -> bool:
        return self._stop_requested


def _handle_loss(loss: Any) -> Any:
    """The loss to report from a step's outputs: the mean of a Tensor as float; the first of a tuple."""
    if isinstance(loss, (tuple, list)):
        if loss and isinstance(loss[0], Tensor):
            loss = loss[0]
    elif isinstance(loss, Tensor):
        loss = float(np.mean(loss.asnumpy()))
    return loss
