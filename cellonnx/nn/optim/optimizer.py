"""Optimizer: the base cell of every update rule, with MindSpore's parameter groups, learning-rate and
weight-decay handling, loss-scale restoring and gradient centralization.

SGD, Momentum, Adam, AdamWeightDecay, Lamb and LARS update with NumPy on the parameters' arrays (no autograd
recording) and call ``Parameter.mark_updated()`` so compiled graphs pick up the new weights. The others write
their update in cellonnx ops (``_prepared_tensors`` then ``assign``), so that a training step can be traced
whole. A user subclass writes ``construct(self, gradients)`` over ``self.parameters`` with ``get_lr()``,
``decay_weight``, ``gradients_centralization`` and ``scale_grad`` (all in ops), exactly as in MindSpore.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from cellonnx import ops
from cellonnx.autograd.tape import no_grad
from cellonnx.graph.trace import tracing_step
from cellonnx.nn.cell import Cell
from cellonnx.nn.learning_rate_schedule import LearningRateSchedule, _eager
from cellonnx.nn.parameter_tuple import ParameterTuple
from cellonnx.tensor import Parameter, Tensor

__all__ = ["Optimizer", "assign", "opt_init_args_register"]

_F32 = np.float32


def opt_init_args_register(fn: Callable) -> Callable:
    """Decorator for optimizer ``__init__``: remembers the constructor arguments (``init_args``,
    ``init_learning_rate``, ``init_params``) as MindSpore does, so an optimizer can be described or rebuilt.

    Examples:
        >>> from cellonnx.nn.optim.optimizer import opt_init_args_register
        >>> class MySGD(nn.Optimizer):
        ...     @opt_init_args_register
        ...     def __init__(self, params, learning_rate=0.1, momentum=0.0):
        ...         super().__init__(learning_rate, params)
        ...         self.momentum = momentum
        >>> net = nn.Dense(2, 1)
        >>> opt = MySGD(net.trainable_params(), momentum=0.9)
        >>> print(opt.init_args, opt.init_learning_rate)
        {'momentum': 0.9} 0.1
        >>> print([p.name for p in opt.init_params['params']])
        ['weight', 'bias']
    """
    import functools
    import inspect

    sig = inspect.signature(fn)

    @functools.wraps(fn)
    def deco(self: Any, *args: Any, **kwargs: Any) -> None:
        bound = sig.bind(self, *args, **kwargs)
        bound.apply_defaults()
        arguments = dict(bound.arguments)
        arguments.pop("self")
        fn(self, *args, **kwargs)
        if "params" in arguments:
            object.__setattr__(self, "init_params", {"params": arguments.pop("params")})
        if "optimizer" in arguments:
            object.__setattr__(self, "init_params", {"params": arguments.pop("optimizer").init_params["params"]})
        if "learning_rate" in arguments:
            lr = arguments.pop("learning_rate")
            if isinstance(lr, Tensor):
                lr = lr.asnumpy().tolist()
            object.__setattr__(self, "init_learning_rate", None if isinstance(lr, Cell) else lr)
        object.__setattr__(self, "init_args", arguments)

    return deco


def _scalar(t: Any) -> np.float32:
    """A schedule's / weight-decay cell's output as one float32."""
    arr = t.asnumpy() if isinstance(t, Tensor) else np.asarray(t)
    if arr.size != 1:
        raise ValueError(f"Optimizer: a learning rate / weight decay schedule returned shape {arr.shape}, "
                         "expected a scalar")
    return _F32(arr.reshape(()))


class _ConvertToCell(LearningRateSchedule):
    """A fixed learning rate inside a group whose other rates are dynamic."""

    def __init__(self, learning_rate: Parameter) -> None:
        super().__init__()
        self.learning_rate = learning_rate

    def construct(self, global_step: Any) -> Tensor:
        return ops.reshape(ops.cast(self.learning_rate, _F32), ())


class _IteratorLearningRate(LearningRateSchedule):
    """A learning rate given per step (list, 1-D array or Tensor): step i uses entry i."""

    def __init__(self, learning_rate: Tensor, name: str) -> None:
        super().__init__()
        if learning_rate.ndim != 1:
            raise ValueError(f"Optimizer: a per-step learning rate must be 1-D, got shape {learning_rate.shape}")
        self.learning_rate = Parameter(learning_rate.asnumpy().astype(_F32), name=name, requires_grad=False)

    def construct(self, global_step: Any) -> Tensor:
        if tracing_step():  # the step is a graph value: gather the entry in the graph
            index = ops.cast(ops.reshape(global_step, ()), np.int64)
            return ops.gather(self.learning_rate, index, 0)
        table = self.learning_rate.asnumpy()
        step = int(np.asarray(global_step.asnumpy() if isinstance(global_step, Tensor) else global_step)
                   .reshape(-1)[0])
        if not 0 <= step < table.shape[0]:
            raise IndexError(f"Optimizer: step {step} has no learning rate: the per-step learning rate list "
                             f"'{self.learning_rate.name}' has {table.shape[0]} entries (MindSpore's Gather raises "
                             "the same way)")
        return Tensor._make(table[step].copy())


class _WrappedWeightDecay(Cell):
    """A dynamic weight decay (a cell of the step), times the loss scale."""

    def __init__(self, weight_decay: Any, loss_scale: float = 1.0) -> None:
        super().__init__()
        self.weight_decay = weight_decay
        self.loss_scale = loss_scale

    def construct(self, global_step: Any) -> Tensor:
        wd = self.weight_decay(global_step)
        if isinstance(wd, Tensor):
            if wd.size != 1:
                raise ValueError(f"Optimizer: a weight decay schedule returned shape {tuple(wd.shape)}, "
                                 "expected a scalar")
            return ops.mul(ops.reshape(ops.cast(wd, _F32), ()), _F32(self.loss_scale))
        return Tensor._make(np.asarray(_scalar(wd) * _F32(self.loss_scale)))


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, (bool, np.bool_))


class Optimizer(Cell):
    """Base class for updating parameters; subclass it and write ``construct(self, gradients)``.

    Parameters can be grouped: each group may set its own ``lr``, ``weight_decay`` and ``grad_centralization``;
    ``{'order_params': params}`` orders the optimizer's parameters. Without groups, ``weight_decay`` applies to
    the parameters whose names contain neither 'beta' nor 'gamma'; with groups, to every parameter of a group
    whose weight decay is above 0.

    Args:
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): a fixed rate (float, int or
            0-d Tensor), one rate per step (1-D Tensor, list; step i takes entry i) or a schedule cell called with
            the global step.
        parameters (Union[list[Parameter], list[dict]]): the parameters, or parameter groups (keys 'params', 'lr',
            'weight_decay', 'grad_centralization', 'order_params').
        weight_decay (Union[float, int, Cell]): L2 penalty, or a cell of the global step. Default: ``0.0``.
        loss_scale (float): divide the gradients by this (the loss was scaled by it). Default: ``1.0``.

    Examples:
        >>> class MyMomentum(nn.Optimizer):
        ...     def __init__(self, params, learning_rate, momentum=0.9):
        ...         super().__init__(learning_rate, params)
        ...         self.moments = self.parameters.clone(prefix="moments", init="zeros")
        ...         self.momentum = momentum
        ...     def construct(self, gradients):
        ...         lr = self.get_lr()
        ...         gradients = self.scale_grad(self.gradients_centralization(self.decay_weight(gradients)))
        ...         for p, m, g in zip(self.parameters, self.moments, gradients):
        ...             m.set_data(m * self.momentum + g)
        ...             p.set_data(p - lr * m)
        ...         return True
    """

    _support_parallel_optimizer = False
    learning_rate: Any
    weight_decay: Any
    decay_flags: tuple
    dynamic_decay_flags: Any
    parameters: ParameterTuple

    def __init__(self, learning_rate: Any, parameters: Any, weight_decay: Any = 0.0, loss_scale: float = 1.0) -> None:
        super().__init__(auto_prefix=False)
        parameters = self._parameters_base_check(parameters, "parameters")
        if not all(isinstance(x, Parameter) for x in parameters) and not all(isinstance(x, dict) for x in parameters):
            raise TypeError(f"For '{type(self).__name__}', every element of 'parameters' must be a Parameter or "
                            "every element a dict (parameter groups)")
        if isinstance(loss_scale, int) and not isinstance(loss_scale, bool):
            loss_scale = float(loss_scale)
        if not isinstance(loss_scale, float):
            raise TypeError(f"For '{type(self).__name__}', 'loss_scale' must be a float, got "
                            f"{type(loss_scale).__name__}")
        if loss_scale <= 0.0:
            raise ValueError(f"For '{type(self).__name__}', 'loss_scale' must be > 0, got {loss_scale}")
        self.loss_scale = loss_scale
        self.dynamic_weight_decay = False
        self.grad_centralization = False
        self.dynamic_lr = False
        self.global_step = Parameter(np.zeros((1,), np.int32), name="global_step", requires_grad=False)
        self.is_group = False
        self.is_group_lr = False
        self.is_group_params_ordered = False
        learning_rate = self._preprocess_single_lr(learning_rate)
        if isinstance(parameters[0], dict):
            self.is_group = True
            self.group_params: list[Parameter] = []
            self.group_lr: list[Any] = []
            self.group_weight_decay: list[Any] = []
            self.group_grad_centralization: list[bool] = []
            self._init_group_params(parameters, learning_rate, weight_decay, self.grad_centralization)
        self._init_opt_attrs(learning_rate, parameters, weight_decay)

    # ------------------------------------------------------------------ construction
    @staticmethod
    def _parameters_base_check(parameters: Any, what: str) -> list:
        if parameters is None:
            raise ValueError(f"For 'Optimizer', the argument {what} can not be None")
        if isinstance(parameters, (Tensor, str)) or not isinstance(parameters, Iterable):
            raise TypeError(f"For 'Optimizer', the argument {what} must be an iterable of Parameters or dicts, "
                            f"got {type(parameters).__name__}")
        parameters = list(parameters)
        if not parameters:
            raise ValueError(f"For 'Optimizer', the argument {what} must not be empty")
        return parameters

    def _init_opt_attrs(self, learning_rate: Any, parameters: list, weight_decay: Any) -> None:
        weight_decay = self._preprocess_weight_decay(weight_decay)
        if self.is_group_lr:
            self.learning_rate = _LrList(self.group_lr) if self.dynamic_lr else ParameterTuple(self.group_lr)
        else:
            self.learning_rate = self._build_single_lr(learning_rate, "learning_rate")
        if self.is_group:
            self.parameters = ParameterTuple(self.group_params)
            self.decay_flags = tuple(isinstance(x, Cell) or x > 0 for x in self.group_weight_decay)
            self.dynamic_decay_flags = tuple(isinstance(x, Cell) for x in self.group_weight_decay)
            self.weight_decay = tuple(self.group_weight_decay)
            self.exec_weight_decay = any(self.decay_flags)
            self.grad_centralization_flags = tuple(self.group_grad_centralization)
        else:
            self.parameters = ParameterTuple(parameters)
            self.decay_flags = tuple("beta" not in p.name and "gamma" not in p.name for p in self.parameters)
            self.dynamic_decay_flags = isinstance(weight_decay, Cell)
            self.exec_weight_decay = isinstance(weight_decay, Cell) or weight_decay > 0
            self.weight_decay = weight_decay
        self.reciprocal_scale = _F32(1.0 / self.loss_scale)
        self.need_scale = self.loss_scale != 1.0
        self.param_length = len(self.parameters)
        self.optim_filter = (True,) * self.param_length
        self.use_parallel = False

    def _preprocess_weight_decay(self, weight_decay: Any) -> Any:
        if _is_number(weight_decay):
            weight_decay = float(weight_decay)
            if weight_decay < 0.0:
                raise ValueError(f"For '{type(self).__name__}', 'weight_decay' must be >= 0, got {weight_decay}")
            return weight_decay * self.loss_scale
        if isinstance(weight_decay, Cell) or callable(weight_decay):
            self.dynamic_weight_decay = True
            return _WrappedWeightDecay(weight_decay, self.loss_scale)
        raise TypeError(f"For '{type(self).__name__}', 'weight_decay' must be an int, a float or a Cell, got "
                        f"{type(weight_decay).__name__}")

    def _preprocess_single_lr(self, learning_rate: Any) -> Any:
        """Check a learning rate; return a float, a 0-d/1-D float32 Tensor or a LearningRateSchedule."""
        name = type(self).__name__
        if _is_number(learning_rate):
            learning_rate = float(learning_rate)
            if learning_rate < 0.0:
                raise ValueError(f"For '{name}', the learning rate must be >= 0, got {learning_rate}")
            return learning_rate
        if isinstance(learning_rate, Tensor) and learning_rate.ndim == 0:
            return Tensor(learning_rate.asnumpy().astype(_F32))
        self.dynamic_lr = True
        if isinstance(learning_rate, LearningRateSchedule):
            return learning_rate
        if isinstance(learning_rate, Tensor):
            if learning_rate.ndim > 1:
                raise ValueError(f"For '{name}', a Tensor learning rate must be 0-d or 1-D, got "
                                 f"{learning_rate.ndim}-D")
            return Tensor(learning_rate.asnumpy().astype(_F32))
        if isinstance(learning_rate, Iterable) and not isinstance(learning_rate, (str, dict)):
            return Tensor(np.array(list(learning_rate), dtype=_F32))
        raise TypeError(f"For '{name}', 'learning_rate' must be an int, float, Tensor, Iterable or "
                        f"LearningRateSchedule, got {type(learning_rate).__name__}")

    def _build_single_lr(self, learning_rate: Any, name: str) -> Any:
        if isinstance(learning_rate, float) or (isinstance(learning_rate, Tensor) and learning_rate.ndim == 0):
            value = np.asarray(learning_rate.asnumpy() if isinstance(learning_rate, Tensor) else learning_rate,
                               dtype=_F32)
            lr = Parameter(value, name=name, requires_grad=False)
            if self.is_group_lr and self.dynamic_lr:
                return _ConvertToCell(lr)
            return lr
        if isinstance(learning_rate, Tensor) and learning_rate.ndim == 1:
            return _IteratorLearningRate(learning_rate, name)
        return learning_rate

    def _check_group_params(self, parameters: list) -> None:
        keys = ("params", "lr", "weight_decay", "order_params", "grad_centralization")
        for group in parameters:
            bad = [k for k in group if k not in keys]
            if bad:
                raise KeyError(f"For 'Optimizer', the keys of a parameter group must be in {list(keys)}, got {bad}")
            if "order_params" in group:
                if len(group) > 1:
                    raise ValueError("For 'Optimizer', the 'order_params' group must hold only the 'order_params' "
                                     f"key, got {list(group)}")
                if not isinstance(group["order_params"], Iterable):
                    raise TypeError("For 'Optimizer', 'order_params' must be an iterable of Parameters, got "
                                    f"{type(group['order_params']).__name__}")
                continue
            if "params" not in group:
                raise KeyError("For 'Optimizer', every parameter group needs a 'params' key")
            for i, p in enumerate(self._parameters_base_check(group["params"], "group 'params'")):
                if not isinstance(p, Parameter):
                    raise TypeError(f"For 'Optimizer', the group parameters must be Parameters, got "
                                    f"{type(p).__name__} at index {i}")

    def _parse_group_params(self, parameters: list, learning_rate: Any) -> None:
        self._check_group_params(parameters)
        tensor_lr_length = learning_rate.size if isinstance(learning_rate, Tensor) and learning_rate.ndim == 1 \
            else 0
        for group in parameters:
            if "order_params" in group:
                self.is_group_params_ordered = True
                continue
            if "lr" in group:
                self.is_group_lr = True
                group_lr = self._preprocess_single_lr(group["lr"])
                if isinstance(group_lr, Tensor) and group_lr.ndim == 1:
                    if tensor_lr_length == 0:
                        tensor_lr_length = group_lr.size
                    elif group_lr.size != tensor_lr_length:
                        raise ValueError("For 'Optimizer', the per-step learning rates of the groups must all have "
                                         f"the length of 'learning_rate' ({tensor_lr_length}), got {group_lr.size}")

    def _init_group_params(self, parameters: list, learning_rate: Any, weight_decay: Any,
                           grad_centralization: bool) -> None:
        self._parse_group_params(parameters, learning_rate)
        default_lr = self._build_single_lr(learning_rate, "learning_rate")
        seen: set[str] = set()
        ordered: list = []
        for num, group in enumerate(parameters):
            if "order_params" in group:
                ordered = list(group["order_params"])
                continue
            params = list(group["params"])
            self.group_params += params
            if "lr" in group:
                lr = self._build_single_lr(self._preprocess_single_lr(group["lr"]), f"learning_rate_group_{num}")
            else:
                lr = default_lr
            wd = self._preprocess_weight_decay(group.get("weight_decay", weight_decay))
            if "grad_centralization" in group:
                gc = group["grad_centralization"]
                if not isinstance(gc, bool):
                    raise TypeError(f"For 'Optimizer', 'grad_centralization' must be a bool, got {type(gc).__name__}")
                self.grad_centralization = gc
            else:
                gc = grad_centralization
            for p in params:
                if p.name in seen:
                    raise RuntimeError(f"For 'Optimizer', the parameter {p.name} is given twice; each parameter "
                                       "may appear in one group only")
                seen.add(p.name)
                self.group_lr.append(lr)
                self.group_weight_decay.append(wd)
                self.group_grad_centralization.append(gc)
        if self.is_group_params_ordered and ordered:
            self._order_and_adjust_group_params(ordered)

    def _order_and_adjust_group_params(self, ordered: list) -> None:
        if len(ordered) != len(self.group_params):
            raise ValueError(f"For 'Optimizer', 'order_params' has {len(ordered)} parameters but the groups hold "
                             f"{len(self.group_params)}")
        names = [p.name for p in ordered]
        n = len(names)
        out: list[list[Any]] = [[None] * n for _ in range(4)]
        for p, lr, wd, gc in zip(self.group_params, self.group_lr, self.group_weight_decay,
                                 self.group_grad_centralization):
            if p.name not in names:
                raise ValueError(f"For 'Optimizer', the parameter {p.name} of a group is not in 'order_params'")
            i = names.index(p.name)
            out[0][i], out[1][i], out[2][i], out[3][i] = p, lr, wd, gc
        self.group_params, self.group_lr, self.group_weight_decay, self.group_grad_centralization = out

    # ------------------------------------------------------------------ MindSpore's public helpers
    @property
    def unique(self) -> bool:
        return getattr(self, "_unique", True)

    @unique.setter
    def unique(self, value: bool) -> None:
        if not isinstance(value, bool):
            raise TypeError(f"For 'Optimizer', 'unique' must be a bool, got {type(value).__name__}")
        object.__setattr__(self, "_unique", value)

    @property
    def target(self) -> str:
        return "CPU"

    @target.setter
    def target(self, value: str) -> None:
        if value not in ("CPU", "Ascend", "GPU"):
            raise ValueError(f"For 'Optimizer', 'target' must be 'CPU', 'Ascend' or 'GPU', got {value!r}")
        if value != "CPU":
            raise NotImplementedError(f"Optimizer.target = {value!r}: cellonnx updates parameters with NumPy on "
                                      "the host; a device-side update would need that device's kernels")

    def get_lr(self) -> Any:
        """The learning rate of the current step: a Tensor, or one per parameter (a tuple) with group rates."""
        lr = self.learning_rate
        if self.dynamic_lr:
            if self.is_group_lr:
                return tuple(cell(self.global_step).reshape(()) for cell in self.learning_rate)
            return self.learning_rate(self.global_step).reshape(())
        return lr

    def get_weight_decay(self) -> Any:
        """The weight decay of the current step (times the loss scale), one per parameter with groups."""
        if self.dynamic_weight_decay:
            if self.is_group:
                return tuple(wd(self.global_step) if flag else wd
                             for wd, flag in zip(self.weight_decay, self.dynamic_decay_flags))
            return self.weight_decay(self.global_step)
        return self.weight_decay

    def get_lr_parameter(self, param: Any) -> Any:
        """The learning rate (Parameter, or schedule cell when dynamic) of ``param`` or of each in a list."""
        params = [param] if isinstance(param, Parameter) else param
        if not isinstance(params, list):
            raise TypeError(f"get_lr_parameter: 'param' must be a Parameter or a list, got {type(param).__name__}")
        ids = [id(p) for p in self.parameters]
        out = []
        for p in params:
            if id(p) not in ids:
                raise ValueError(f"get_lr_parameter: the parameter {p.name} is not in this optimizer")
            lr = self.learning_rate[ids.index(id(p))] if self.is_group_lr else self.learning_rate
            out.append(lr.learning_rate if isinstance(lr, (_ConvertToCell, _IteratorLearningRate)) else lr)
        return out if isinstance(param, list) else out[0]

    def flatten_gradients(self, gradients: Any) -> Any:
        return gradients

    def decay_weight(self, gradients: Sequence[Tensor]) -> tuple:
        """Add ``weight_decay * weight`` (the decay in the weight's dtype) to each gradient whose decay flag
        is set."""
        if not self.exec_weight_decay:
            return tuple(gradients)
        out = []
        for p, g, wd in zip(self.parameters, gradients, self._weight_decay_tensors()):
            out.append(g if wd is None else ops.add(ops.mul(p, ops.cast(wd, p.dtype)), g))
        return tuple(out)

    def gradients_centralization(self, gradients: Sequence[Tensor]) -> tuple:
        """Subtract the mean over all axes but the first, for groups with grad_centralization (only gradients
        whose second dimension is a multiple of 16, as MindSpore's kernel)."""
        if not self.is_group or not any(self.grad_centralization_flags):
            return tuple(gradients)
        out = []
        for g, flag in zip(gradients, self.grad_centralization_flags):
            if flag and g.ndim >= 2 and g.shape[1] % 16 == 0:
                g = ops.sub(g, ops.mean(g, tuple(range(1, g.ndim)), True))
            out.append(g)
        return tuple(out)

    def scale_grad(self, gradients: Sequence[Tensor]) -> tuple:
        """Divide the gradients by the loss scale."""
        if not self.need_scale:
            return tuple(gradients)
        return tuple(ops.mul(g, Tensor(self.reciprocal_scale, g.dtype)) for g in gradients)

    def _weight_decay_tensors(self) -> list[Tensor | None]:
        """This step's weight decay (times the loss scale) for each parameter as a Tensor; None where it is
        not applied (each dynamic decay evaluated once)."""
        if self.is_group:
            out: list[Tensor | None] = []
            cache: dict[int, Tensor] = {}
            for wd, flag, dyn in zip(self.weight_decay, self.decay_flags, self.dynamic_decay_flags):
                if not flag:
                    out.append(None)
                elif dyn:
                    if id(wd) not in cache:
                        cache[id(wd)] = ops.reshape(wd(self.global_step), ())
                    out.append(cache[id(wd)])
                else:
                    out.append(Tensor(_F32(wd)))
            return out
        if self.dynamic_weight_decay:
            v = ops.reshape(self.weight_decay(self.global_step), ())
        else:
            v = Tensor(_F32(self.weight_decay))
        return [v if f else None for f in self.decay_flags]

    def _gradient_tensors(self, gradients: Any) -> tuple[Tensor, ...]:
        """The gradients as Tensors, checked against the parameters (count and shapes)."""
        if isinstance(gradients, Tensor) or not isinstance(gradients, (tuple, list)):
            raise TypeError(f"For '{type(self).__name__}', the 'grads' must be a tuple of Tensor aligned "
                            "with "
                            f"optimizer.parameters, got {type(gradients).__name__}")
        if len(gradients) != self.param_length:
            raise ValueError(f"For '{type(self).__name__}', got {len(gradients)} gradients for "
                             f"{self.param_length} parameters")
        out = []
        for p, g in zip(self.parameters, gradients):
            g = g if isinstance(g, Tensor) else Tensor(np.asarray(g))
            if g._data.shape != p._data.shape:  # (the concrete shapes: a traced one may hold symbolic dims)
                raise ValueError(f"For '{type(self).__name__}', gradient of shape {g.shape} for parameter "
                                 f"{p.name} of shape {p.shape}")
            out.append(g)
        return tuple(out)

    def _lr_tensors(self) -> list[Tensor]:
        """This step's learning rate for each parameter (``get_lr()`` spread over the parameters)."""
        lr = self.get_lr()
        return list(lr) if self.is_group_lr else [lr] * self.param_length

    def _prepared_tensors(self, gradients: Any) -> tuple[tuple[Tensor, ...], list[Tensor]]:
        """MindSpore's order in ops: decay_weight -> gradients_centralization -> scale_grad -> get_lr ->
        global_step += 1; returns the gradients and each parameter's learning rate."""
        grads = self._gradient_tensors(gradients)
        grads = self.scale_grad(self.gradients_centralization(self.decay_weight(grads)))
        lrs = self._lr_tensors()
        self._advance()
        return grads, lrs

    def broadcast_params(self, optim_result: Any) -> Any:
        raise NotImplementedError("Optimizer.broadcast_params: the parallel optimizer needs a device cluster "
                                  "(one parameter shard per rank); cellonnx trains on one host")

    def construct(self, *hyper_params: Any) -> Any:
        raise NotImplementedError(f"{type(self).__name__}.construct(gradients) is not written; an Optimizer "
                                  "subclass must define it")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        with no_grad():
            if tracing_step():
                return self._construct_traced(*args, **kwargs)
            return _eager(self, args, kwargs, traceable=False)

    def _construct_traced(self, *args: Any, **kwargs: Any) -> Any:
        """The update while a training step is compiled: ``construct`` itself, written in ops (as every
        user optimizer is); the built-in optimizers with a NumPy fast path override this with its ops form."""
        if not self._checked:
            self._self_check()
        return self.run_construct(args, kwargs)

    # ------------------------------------------------------------------ NumPy fast path for built-in optimizers
    def _check_gradients(self, gradients: Any) -> list[np.ndarray]:
        if isinstance(gradients, Tensor) or not isinstance(gradients, (tuple, list)):
            raise TypeError(f"{type(self).__name__}(gradients): gradients must be a tuple of Tensors aligned with "
                            f"optimizer.parameters, got {type(gradients).__name__}")
        if len(gradients) != self.param_length:
            raise ValueError(f"{type(self).__name__}(gradients): got {len(gradients)} gradients for "
                             f"{self.param_length} parameters")
        out = []
        for p, g in zip(self.parameters, gradients):
            a = _arr(g)
            if a.shape != p.asnumpy().shape:
                raise ValueError(f"{type(self).__name__}: gradient of shape {a.shape} for parameter {p.name} of "
                                 f"shape {p.asnumpy().shape}")
            out.append(a)
        return out

    def _lrs_np(self) -> list[np.float32]:
        """This step's learning rate for each parameter (each schedule evaluated once)."""
        if not self.dynamic_lr:
            if self.is_group_lr:
                return [_F32(lr.asnumpy()) for lr in self.learning_rate]
            v = _F32(self.learning_rate.asnumpy())
            return [v] * self.param_length
        if not self.is_group_lr:
            v = _scalar(self.learning_rate(self.global_step))
            return [v] * self.param_length
        cache: dict[int, np.float32] = {}
        out = []
        for cell in self.learning_rate:
            key = id(cell)
            if key not in cache:
                cache[key] = _scalar(cell(self.global_step))
            out.append(cache[key])
        return out

    def _weight_decays_np(self) -> list[np.float32 | None]:
        """This step's weight decay (times loss scale) for each parameter; None where it is not applied."""
        if self.is_group:
            out: list[np.float32 | None] = []
            cache: dict[int, np.float32] = {}
            for wd, flag, dyn in zip(self.weight_decay, self.decay_flags, self.dynamic_decay_flags):
                if not flag:
                    out.append(None)
                elif dyn:
                    if id(wd) not in cache:
                        cache[id(wd)] = _scalar(wd(self.global_step))
                    out.append(cache[id(wd)])
                else:
                    out.append(_F32(wd))
            return out
        if self.dynamic_weight_decay:
            v = _scalar(self.weight_decay(self.global_step))
        else:
            v = _F32(self.weight_decay)
        return [v if f else None for f in self.decay_flags]

    def _decay_np(self, grads: list[np.ndarray], wds: list[np.float32 | None]) -> list[np.ndarray]:
        if not self.exec_weight_decay:
            return grads
        return [g if wd is None else p.asnumpy() * wd.astype(p.asnumpy().dtype) + g
                for p, g, wd in zip(self.parameters, grads, wds)]

    def _centralize_np(self, grads: list[np.ndarray]) -> list[np.ndarray]:
        if not self.is_group or not any(self.grad_centralization_flags):
            return grads
        out = []
        for g, flag in zip(grads, self.grad_centralization_flags):
            if flag and g.ndim >= 2 and g.shape[1] % 16 == 0:
                g = g - g.mean(axis=tuple(range(1, g.ndim)), keepdims=True, dtype=_F32).astype(g.dtype)
            out.append(g)
        return out

    def _scale_np(self, grads: list[np.ndarray]) -> list[np.ndarray]:
        if not self.need_scale:
            return grads
        return [g * self.reciprocal_scale.astype(g.dtype) for g in grads]

    def _advance(self) -> None:
        """global_step += 1 (after the learning rate of this step was read)."""
        if tracing_step():
            assign(self.global_step, ops.add(self.global_step, 1))
            return
        gs = self.global_step.asnumpy()
        gs += 1
        self.global_step.mark_updated()

    def _prepared(self, gradients: Any) -> tuple[list[np.ndarray], list[np.float32]]:
        """MindSpore's order: decay_weight -> gradients_centralization -> scale_grad -> get_lr -> step += 1."""
        grads = self._check_gradients(gradients)
        if self.exec_weight_decay:
            grads = self._decay_np(grads, self._weight_decays_np())
        grads = self._centralize_np(grads)
        grads = self._scale_np(grads)
        lrs = self._lrs_np()
        self._advance()
        return grads, lrs

    def extend_repr(self) -> str:
        return ""


class _LrList(Cell):
    """The dynamic learning rates of parameter groups (a CellList that keeps one entry per parameter, repeats
    included, as MindSpore's group learning rate list)."""

    def __init__(self, cells: list) -> None:
        super().__init__(auto_prefix=False)
        object.__setattr__(self, "_lr_cells", list(cells))
        seen: set[int] = set()
        for c in cells:
            if id(c) not in seen:
                seen.add(id(c))
                self.insert_child_to_cell(f"{len(seen) - 1}", c)

    def __iter__(self) -> Any:
        return iter(self._lr_cells)

    def __len__(self) -> int:
        return len(self._lr_cells)

    def __getitem__(self, i: int) -> Any:
        return self._lr_cells[i]

    def construct(self, *args: Any) -> Any:
        raise TypeError("the group learning-rate list is not callable; call its entries")


def assign(p: Parameter, value: Any) -> None:
    """Write ``value`` (a Tensor computed with ops, cast to ``p``'s dtype) into the optimizer state or
    parameter ``p``, as MindSpore's Assign: the one place an ops-written update mutates state (while a
    training step is traced, the graph's value of ``p`` from then on)."""
    from cellonnx.ops.prims.getitem import _rebind_in_trace

    new = value if isinstance(value, Tensor) else Tensor(np.asarray(value))
    if new._data.dtype != p._data.dtype:
        new = ops.cast(new, p._data.dtype)
    if new._data.shape != p._data.shape:
        new = ops.broadcast_to(new, p._data.shape)
    _rebind_in_trace(new, p)  # while tracing, the graph reads the new value wherever it reads p
    arr = new._data
    if arr is getattr(value, "_data", None) or not arr.flags.owndata or not arr.flags.writeable:
        arr = arr.copy()
    p._assign_array(arr)


def _arr(t: Any) -> np.ndarray:
    if isinstance(t, Tensor):
        return t.asnumpy()
    return np.asarray(t)


def writable(p: Parameter) -> np.ndarray:
    """``p``'s array, ready to be updated in place (a read-only array is swapped for a copy first); call
    ``p.mark_updated()`` after writing."""
    a = p.asnumpy()
    if not a.flags.writeable:
        a = a.copy()
        p._assign_array(a)
    return a


def update_param(p: Parameter, new: np.ndarray) -> None:
    """Write ``new`` into ``p``: in place when the shapes and dtypes allow it (other holders of the array see the
    update, as with MindSpore's Assign), then bump the version so compiled graphs refresh."""
    cur = p.asnumpy()
    if cur.shape == new.shape and cur.flags.writeable:
        np.copyto(cur, new, casting="unsafe")
        p.mark_updated()
    else:
        p._assign_array(new.astype(cur.dtype, copy=False))
