"""MXNet's optimizers for gluon.Trainer, with MXNet 1.9's update formulas (its adam_update / sgd_mom_update
kernels), on NumPy arrays.

    SGD:  g = clip(rescale_grad * grad, clip_gradient) + wd * w
          state = momentum * state - lr * g;  w += state          (w -= lr * g without momentum)
    Adam: g = clip(rescale_grad * grad + wd * w, clip_gradient)   (wd is added before clipping here)
          m = beta1 * m + (1 - beta1) * g;  v = beta2 * v + (1 - beta2) * g^2
          w -= lr * sqrt(1 - beta2^t) / (1 - beta1^t) * m / (sqrt(v) + epsilon)

lr and wd are multiplied by each parameter's lr_mult / wd_mult; t counts the updates of each parameter.
These differ from MindSpore's (cellonnx.nn.optim: the momentum is accumulated before the learning rate is
applied, Adam's weight decay is folded in differently, and there is no rescale_grad / clip_gradient), so they
are written here rather than reused.
"""
from __future__ import annotations

import functools
import math
import os
import pickle
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from cellonnx.gluon.optimizer_sparse import sparse_rows
from cellonnx.tensor import Tensor

__all__ = ["DCASGD", "FTML", "LAMB", "LARS", "LBSGD", "NAG", "SGD", "SGLD", "AdaDelta", "AdaGrad", "Adam",
           "Adamax", "Ftrl", "Nadam", "Optimizer", "RMSProp", "Signum", "Test", "Updater", "ccSGD", "create",
           "get_updater", "register"]

_REGISTRY: dict[str, type[Optimizer]] = {}


def _register(cls: type[Optimizer]) -> type[Optimizer]:
    _REGISTRY[cls.__name__.lower()] = cls
    return cls


class Optimizer:
    """Base class: holds the learning rate, weight decay, gradient rescaling and clipping, and per-parameter
    update counts.

    Args:
        rescale_grad: gradients are multiplied by it (Trainer.step sets it to 1 / batch_size). Default: 1.0.
        param_idx2name: index -> parameter name; a name not ending in ``_weight`` or ``_gamma`` gets a weight
            decay multiplier of 0 (as MXNet's Module does). Default: None.
        wd: weight decay. Default: 0.0.
        clip_gradient: clip gradients to [-clip_gradient, clip_gradient]; None (or 0) for no clipping.
        learning_rate: Default: 0.01 (0.001 for Adam); None with an lr_scheduler. Given with an lr_scheduler
            whose base_lr differs, it replaces that base_lr.
        lr_scheduler: a callable ``num_update -> learning rate`` (mx.lr_scheduler). Default: None.
        sym: a Symbol whose ``__lr_mult__`` / ``__wd_mult__`` attributes set multipliers by name.
            Default: None.
        begin_num_update: the update count to start from. Default: 0.
        multi_precision: keep a float32 master copy of float16 weights and update that. Default: False.
        param_dict: index -> Parameter (for lr_mult / wd_mult); set by Trainer.

    Examples:
        >>> from cellonnx.gluon import optimizer
        >>> names = {0: 'fc_weight', 1: 'fc_bias'}
        >>> sgd = optimizer.create('sgd', learning_rate=0.1, wd=0.01, param_idx2name=names)
        >>> sgd.set_lr_mult({0: 0.5})
        >>> sgd._get_lr(0), sgd._get_wd(0), sgd._get_wd(1)
        (0.05, 0.01, 0.0)
    """

    opt_registry = _REGISTRY

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _accept_tensors(cls)

    def __init__(self, rescale_grad: float = 1.0, param_idx2name: dict | None = None, wd: float = 0.0,
                 clip_gradient: float | None = None, learning_rate: float | None = None,
                 lr_scheduler: Callable[[int], float] | None = None, sym: Any = None, begin_num_update: int = 0,
                 multi_precision: bool = False, param_dict: dict | None = None) -> None:
        self.rescale_grad = rescale_grad
        self.lr_scheduler = lr_scheduler
        if lr_scheduler is None and learning_rate is None:
            learning_rate = 0.01
        self.lr = learning_rate
        if lr_scheduler is not None and learning_rate is not None \
                and getattr(lr_scheduler, "base_lr", learning_rate) != learning_rate:
            print(UserWarning("learning rate from ``lr_scheduler`` has been overwritten by ``learning_rate`` "
                              "in optimizer."))
            lr_scheduler.base_lr = learning_rate  # type: ignore[attr-defined]
        self.wd = wd
        self.lr_mult: dict[Any, float] = {}
        self.wd_mult: dict[Any, float] = {}
        self.clip_gradient = clip_gradient
        self.multi_precision = multi_precision
        self.begin_num_update = begin_num_update
        self.num_update = begin_num_update
        self._all_index_update_counts: dict[int, dict[int, int]] = {0: {}}
        self._index_update_count: dict[int, int] = self._all_index_update_counts[0]
        self.aggregate_num = 0
        if param_idx2name is None:
            param_idx2name = {}
        if not isinstance(param_idx2name, dict):
            raise TypeError(f"param_idx2name should be a dict of param indexes to names, got "
                            f"{type(param_idx2name).__name__}")
        self.idx2name = dict(param_idx2name)
        self.sym_info = (sym.attr_dict(), sym.list_arguments()) if sym is not None else ()
        self.param_dict = param_dict if param_dict else {}
        self.set_lr_mult({})
        self.set_wd_mult({})

    @staticmethod
    def register(klass: type[Optimizer]) -> type[Optimizer]:
        """Class decorator: make ``create('<lower-case class name>')`` build ``klass``."""
        name = klass.__name__.lower()
        old = _REGISTRY.get(name)
        if old is not None and old is not klass:
            warnings.warn(f"WARNING: New optimizer {klass.__module__}.{klass.__name__} is overriding "
                          f"existing optimizer {old.__module__}.{old.__name__}", stacklevel=2)
        _REGISTRY[name] = klass
        return klass

    @staticmethod
    def create_optimizer(name: str, **kwargs: Any) -> Optimizer:
        """An optimizer from its registered name (case-insensitive) and keyword arguments."""
        return create(name, **kwargs)

    @property
    def learning_rate(self) -> float:
        if self.lr_scheduler is not None:
            return float(self.lr_scheduler(self.num_update))
        return float(self.lr)  # type: ignore[arg-type]

    def set_learning_rate(self, lr: float) -> None:
        if self.lr_scheduler is not None:
            raise UserWarning("LRScheduler of the optimizer has already been defined. Note that set_learning_rate "
                              "can mutate the value of the learning rate of the optimizer only when the LRScheduler "
                              "of the optimizer is undefined.")
        self.lr = lr

    def set_lr_scale(self, args_lrscale: Any) -> None:
        """Deprecated in MXNet: use ``set_lr_mult``."""
        raise DeprecationWarning

    def set_lr_mult(self, args_lr_mult: dict) -> None:
        """Per-parameter learning-rate multipliers, keyed by index or (with ``sym``) by name; the symbol's
        ``__lr_mult__`` attributes come first. A Trainer's Parameter ``lr_mult`` takes precedence over
        both."""
        self.lr_mult = {}
        if self.sym_info:
            attr, arg_names = self.sym_info
            for name in arg_names:
                if name in attr and "__lr_mult__" in attr[name]:
                    self.lr_mult[name] = float(attr[name]["__lr_mult__"])
        self.lr_mult.update(args_lr_mult)

    def set_wd_mult(self, args_wd_mult: dict) -> None:
        """Per-parameter weight-decay multipliers, keyed by index or name: names from ``param_idx2name`` not
        ending in ``_weight`` / ``_gamma`` get 0, then the symbol's ``__wd_mult__`` attributes, then these."""
        self.wd_mult = {}
        for n in self.idx2name.values():
            if not self._decays(n):
                self.wd_mult[n] = 0.0
        if self.sym_info:
            attr, arg_names = self.sym_info
            for name in arg_names:
                if name in attr and "__wd_mult__" in attr[name]:
                    self.wd_mult[name] = float(attr[name]["__wd_mult__"])
        self.wd_mult.update(args_wd_mult)

    @staticmethod
    def _decays(name: str) -> bool:
        return name.endswith("_weight") or name.endswith("_gamma")

    def _set_current_context(self, device_id: int) -> None:
        self._index_update_count = self._all_index_update_counts.setdefault(device_id, {})

    def _update_count(self, index: Any) -> int:
        """Count one more update of ``index`` (or of each index of a list); the count of the last."""
        count = 0
        for idx in index if isinstance(index, (list, tuple)) else [index]:
            count = self._index_update_count.get(idx, self.begin_num_update) + 1
            self._index_update_count[idx] = count
            self.num_update = max(count, self.num_update)
        return count

    def _scheduled_lr(self) -> float:
        return float(self.lr_scheduler(self.num_update)) if self.lr_scheduler is not None else float(self.lr)

    def _mults(self, indices: list, base: float, table: dict, attr: str) -> list[float]:
        out = [base] * len(indices)
        for k, index in enumerate(indices):
            if index in self.param_dict:
                out[k] *= getattr(self.param_dict[index], attr, 1.0)
            elif index in table:
                out[k] *= table[index]
            elif index in self.idx2name:
                out[k] *= table.get(self.idx2name[index], 1.0)
        return out

    def _get_lrs(self, indices: list) -> list[float]:
        return self._mults(indices, self._scheduled_lr(), self.lr_mult, "lr_mult")

    def _get_lr(self, index: Any) -> float:
        return self._get_lrs([index])[0]

    def _get_wds(self, indices: list) -> list[float]:
        return self._mults(indices, self.wd, self.wd_mult, "wd_mult")

    def _get_wd(self, index: Any) -> float:
        return self._get_wds([index])[0]

    def _clip(self, g: np.ndarray) -> np.ndarray:
        """Clipping as MXNet's update kernels do it: only with a non-zero clip_gradient."""
        if self.clip_gradient:
            return np.clip(g, -self.clip_gradient, self.clip_gradient)
        return g

    def _clip_py(self, g: np.ndarray) -> np.ndarray:
        """Clipping as MXNet's optimizers written in Python do it: whenever clip_gradient is not None."""
        if self.clip_gradient is not None:
            return np.clip(g, -self.clip_gradient, self.clip_gradient)
        return g

    def create_state(self, index: Any, weight: np.ndarray) -> Any:
        """The state (momenta, moments...) of one weight; None for a stateless optimizer."""
        return None

    def create_state_multi_precision(self, index: Any, weight: np.ndarray) -> Any:
        """``create_state``, or with multi_precision and a float16 weight ``(float32 master copy, state)``."""
        if self.multi_precision and weight.dtype == np.float16:
            master = weight.astype(np.float32)
            return (master, self.create_state(index, master))
        _warn_float16(self, weight)
        return self.create_state(index, weight)

    def update(self, index: Any, weight: Any, grad: Any, state: Any) -> Any:
        """The new value of ``weight`` (arrays are not modified in place; states are). With lists (as
        ``Updater`` passes a group of weights), the list of new values."""
        if isinstance(index, (list, tuple)):
            return [self.update(i, w, g, s) for i, w, g, s in zip(index, weight, grad, state)]
        raise NotImplementedError(f"{type(self).__name__} must define update")

    def update_rows(self, index: Any, weight: np.ndarray, rows: np.ndarray, grad: np.ndarray,
                    state: Any) -> np.ndarray:
        """A lazy update (MXNet's ``lazy_update`` with a row-sparse gradient): the rows ``rows`` of ``weight``
        and of its states take the update with ``grad`` (those rows' gradient); the other rows, their
        states included, are left alone. For optimizers whose update is row by row."""
        rows_state = _state_rows(state, rows)
        new = weight.copy()
        new[rows] = self.update_multi_precision(index, weight[rows], grad, rows_state)
        _put_state_rows(state, rows_state, rows)
        return new

    def update_multi_precision(self, index: Any, weight: Any, grad: Any, state: Any) -> Any:
        """``update``, or with multi_precision and a float16 weight the update of its float32 master copy
        (the gradient cast to float32), returned cast to float16."""
        if isinstance(index, (list, tuple)):
            return [self.update_multi_precision(i, w, g, s) for i, w, g, s in zip(index, weight, grad, state)]
        if self.multi_precision and weight.dtype == np.float16:
            master, inner = state
            master[...] = self.update(index, master, grad.astype(np.float32), inner)
            return master.astype(np.float16)
        return self.update(index, weight, grad, state)

    def _saved_attrs(self) -> dict[str, Any]:
        """Scalars an optimizer changes as it runs (beyond update counts), saved by Trainer.save_states."""
        return {}

    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        state.pop("param_dict", None)
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__ = state
        self.param_dict = {}


register = Optimizer.register


def _accept_tensors(cls: type) -> None:
    """Let ``cls``'s own create_state / update methods take Tensors (mx.nd arrays) as MXNet's take NDArrays:
    states are then NumPy arrays, and ``update`` writes the new value into the weight and returns None."""
    for name, wrap in (("create_state", _creating), ("create_state_multi_precision", _creating),
                       ("update", _updating), ("update_multi_precision", _updating)):
        fn = getattr(cls, name, None)
        if fn is not None and not getattr(fn, "_tensor_aware", False):
            setattr(cls, name, wrap(fn))


def _is_tensor(x: Any) -> bool:
    return isinstance(x, Tensor)


def _creating(fn: Callable) -> Callable:
    @functools.wraps(fn)
    def create(self: Optimizer, index: Any, weight: Any) -> Any:
        return fn(self, index, weight._data if _is_tensor(weight) else weight)

    create._tensor_aware = True  # type: ignore[attr-defined]
    return create


def _updating(fn: Callable) -> Callable:
    @functools.wraps(fn)
    def update(self: Optimizer, index: Any, weight: Any, grad: Any, state: Any) -> Any:
        many = isinstance(index, (list, tuple))
        first = weight[0] if many and weight else weight
        if not _is_tensor(first):
            return fn(self, index, weight, grad, state)
        weights, grads = (list(weight), list(grad)) if many else ([weight], [grad])
        arrays = [w._data for w in weights]
        grad_arrays = [np.asarray(_array(g), a.dtype) for g, a in zip(grads, arrays)]
        new = fn(self, index, arrays if many else arrays[0], grad_arrays if many else grad_arrays[0], state)
        for w, value in zip(weights, new if many else [new]):
            _write(w, value)
        return None

    update._tensor_aware = True  # type: ignore[attr-defined]
    return update


def _warn_float16(opt: Optimizer, weight: np.ndarray) -> None:
    if weight.dtype == np.float16 and not opt.multi_precision:
        warnings.warn("Accumulating with float16 in optimizer can lead to poor accuracy or slow convergence. "
                      "Consider using multi_precision=True option of the optimizer", stacklevel=3)


_accept_tensors(Optimizer)


class _MasterSecond:
    """For SGD-like optimizers, whose float16 state is ``(state, float32 master copy)`` as in MXNet."""

    def create_state_multi_precision(self, index: Any, weight: np.ndarray) -> Any:
        if self.multi_precision and weight.dtype == np.float16:  # type: ignore[attr-defined]
            master = weight.astype(np.float32)
            return (self.create_state(index, master), master)  # type: ignore[attr-defined]
        _warn_float16(self, weight)  # type: ignore[arg-type]
        return self.create_state(index, weight)  # type: ignore[attr-defined]

    def update_multi_precision(self, index: Any, weight: Any, grad: Any, state: Any) -> Any:
        if isinstance(index, (list, tuple)):
            return [self.update_multi_precision(i, w, g, s) for i, w, g, s in zip(index, weight, grad, state)]
        if self.multi_precision and weight.dtype == np.float16:  # type: ignore[attr-defined]
            inner, master = state
            master[...] = self.update(index, master, grad.astype(np.float32), inner)  # type: ignore[attr-defined]
            return master.astype(np.float16)
        return self.update(index, weight, grad, state)  # type: ignore[attr-defined]


@_register
class SGD(_MasterSecond, Optimizer):
    """Stochastic gradient descent with momentum and weight decay (see the module docstring).

    Args:
        momentum: Default: 0.0.
        lazy_update: with a row-sparse gradient (``grad_stype='row_sparse'``), update only its rows (weight
            decay and states included), as MXNet's lazy update. Default: True.
    """

    def __init__(self, momentum: float = 0.0, lazy_update: bool = True, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.momentum = momentum
        self.lazy_update = lazy_update
        self.aggregate_num = _aggregation_size(4)

    def create_state(self, index: int, weight: np.ndarray) -> Any:
        return np.zeros_like(weight) if self.momentum != 0.0 else None

    def update(self, index: int, weight: np.ndarray, grad: np.ndarray, state: Any) -> np.ndarray:
        self._update_count(index)
        lr, wd = self._get_lr(index), self._get_wd(index)
        dt = weight.dtype.type
        g = self._clip(grad * dt(self.rescale_grad)) + dt(wd) * weight
        if state is None:
            return (weight - dt(lr) * g).astype(weight.dtype, copy=False)
        state[...] = dt(self.momentum) * state - dt(lr) * g
        return (weight + state).astype(weight.dtype, copy=False)


@_register
class Adam(Optimizer):
    """Adam (see the module docstring for the exact update).

    Args:
        learning_rate: Default: 0.001.
        beta1, beta2: Default: 0.9, 0.999.
        epsilon: added to sqrt(v). Default: 1e-8.
        lazy_update: with a row-sparse gradient (``grad_stype='row_sparse'``), update only its rows (weight
            decay and states included), as MXNet's lazy update. Default: True.
    """

    def __init__(self, learning_rate: float = 0.001, beta1: float = 0.9, beta2: float = 0.999,
                 epsilon: float = 1e-8, lazy_update: bool = True, **kwargs: Any) -> None:
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.beta1 = beta1
        self.beta2 = beta2
        self.epsilon = epsilon
        self.lazy_update = lazy_update

    def create_state(self, index: int, weight: np.ndarray) -> Any:
        return (np.zeros_like(weight), np.zeros_like(weight))

    def update(self, index: int, weight: np.ndarray, grad: np.ndarray, state: Any) -> np.ndarray:
        t = self._update_count(index)
        lr, wd = self._get_lr(index), self._get_wd(index)
        lr *= math.sqrt(1.0 - self.beta2 ** t) / (1.0 - self.beta1 ** t)
        dt = weight.dtype.type
        g = self._clip(grad * dt(self.rescale_grad) + dt(wd) * weight)
        mean, var = state
        b1, b2 = dt(self.beta1), dt(self.beta2)  # the kernel's (1 - beta) is a float32 difference
        mean[...] = b1 * mean + (dt(1) - b1) * g
        var[...] = b2 * var + (dt(1) - b2) * np.square(g)
        return (weight - dt(lr) * mean / (np.sqrt(var) + dt(self.epsilon))).astype(weight.dtype, copy=False)


def _aggregation_size(default: int) -> int:
    return int(os.getenv("MXNET_OPTIMIZER_AGGREGATION_SIZE", str(default)))


def apply_updates(opt: Optimizer, states: dict, items: list[tuple[Any, np.ndarray, np.ndarray]]) -> list:
    """Update ``items`` (index, weight, gradient) as MXNet's Updater does, creating missing states: weights
    grouped by dtype, and an optimizer with ``aggregate_num`` > 0 given groups of that many at once (LARS
    and LAMB compute per group). Returns the new weights in the order of ``items``."""
    for idx, weight, _ in items:
        if idx not in states:
            states[idx] = opt.create_state_multi_precision(idx, weight)
    new: dict[Any, np.ndarray] = {}
    if opt.aggregate_num > 0:
        by_dtype: dict[Any, list] = {}
        for item in items:
            by_dtype.setdefault(item[1].dtype, []).append(item)
        for group in by_dtype.values():
            for start in range(0, len(group), opt.aggregate_num):
                chunk = group[start:start + opt.aggregate_num]
                idxs, ws, gs = (list(t) for t in zip(*chunk))
                outs = opt.update_multi_precision(idxs, ws, gs, [states[i] for i in idxs])
                new.update(zip(idxs, outs))
    else:
        for idx, weight, grad in items:
            new[idx] = opt.update_multi_precision(idx, weight, grad, states[idx])
    return [new[idx] for idx, _, _ in items]


class Updater:
    """Apply an optimizer to (index, grad, weight) triples, keeping a state per index (MXNet's kvstore
    updater; ``gluon.Trainer`` holds one). Weights are Tensors (NDArrays), updated in place.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> updater = mx.optimizer.get_updater(mx.optimizer.create('sgd', learning_rate=0.1, momentum=0.9))
        >>> w, g = mx.nd.ones((2,)), mx.nd.ones((2,))
        >>> updater(0, g, w)
        >>> updater(0, g, w)
        >>> print(w.asnumpy())
        [0.71 0.71]
        >>> again = mx.optimizer.get_updater(mx.optimizer.create('sgd', learning_rate=0.1, momentum=0.9))
        >>> again.set_states(updater.get_states())
        >>> print(again.states[0])
        [-0.19 -0.19]
    """

    def __init__(self, optimizer: Optimizer) -> None:
        self.optimizer = optimizer
        self.states: dict[Any, Any] = {}
        self.states_synced: dict[Any, bool] = {}
        self.aggregate_updates = optimizer.aggregate_num > 0

    def __call__(self, index: Any, grad: Any, weight: Any) -> None:
        indices = list(index) if isinstance(index, (list, tuple)) else [index]
        grads = list(grad) if isinstance(grad, (list, tuple)) else [grad]
        weights = list(weight) if isinstance(weight, (list, tuple)) else [weight]
        items, dense = [], []
        for i, g, w in zip(indices, grads, weights):
            key = i.decode() if isinstance(i, bytes) else i
            self.states_synced[key] = True
            warr = _array(w)
            rows = sparse_rows(self.optimizer, key, g, getattr(w, "stype", "default"))
            if rows is not None:  # MXNet's sparse kernel: the gradient's rows alone
                if key not in self.states:
                    self.states[key] = self.optimizer.create_state_multi_precision(key, warr)
                _write(w, self.optimizer.update_rows(key, np.asarray(warr), rows,
                                                     np.asarray(g.data._data, warr.dtype), self.states[key]))
                continue
            items.append((key, warr, np.asarray(_array(g), warr.dtype)))
            dense.append(w)
        for w, new in zip(dense, apply_updates(self.optimizer, self.states, items)):
            _write(w, new)

    def set_states(self, states: bytes) -> None:
        """Restore what ``get_states`` returned (with the optimizer too when it was dumped)."""
        loaded = pickle.loads(states)
        if isinstance(loaded, tuple) and len(loaded) == 2:
            self.states, self.optimizer = loaded
        else:
            self.states = loaded
        self.states_synced = dict.fromkeys(self.states, False)

    def get_states(self, dump_optimizer: bool = False) -> bytes:
        """The states as a pickle (with the optimizer: its learning rate, schedule and counts)."""
        return pickle.dumps((self.states, self.optimizer) if dump_optimizer else self.states)


def get_updater(optimizer: Optimizer) -> Updater:
    """An ``Updater`` of ``optimizer``."""
    return Updater(optimizer)


def _array(x: Any) -> np.ndarray:
    return x._data if hasattr(x, "_data") else np.asarray(x)


def _write(w: Any, new: np.ndarray) -> None:
    if hasattr(w, "_assign_array"):
        w._assign_array(np.ascontiguousarray(new, dtype=w._data.dtype))
    elif hasattr(w, "_data"):
        w._data = np.ascontiguousarray(new, dtype=w._data.dtype)
    else:
        w[...] = new


def _state_rows(state: Any, rows: np.ndarray) -> Any:
    if state is None:
        return None
    if isinstance(state, np.ndarray):
        return state[rows]
    return type(state)(_state_rows(s, rows) for s in state)


def _put_state_rows(state: Any, taken: Any, rows: np.ndarray) -> None:
    if isinstance(state, np.ndarray):
        state[rows] = taken
    elif isinstance(state, (tuple, list)):
        for s, t in zip(state, taken):
            _put_state_rows(s, t, rows)


def create(name: str | Optimizer, **kwargs: Any) -> Optimizer:
    """An optimizer from its registered name (case-insensitive: 'sgd', 'adam', 'rmsprop'...) and keyword
    arguments, or an instance as is."""
    if isinstance(name, Optimizer):
        if kwargs:
            raise ValueError("optimizer_params must be None if optimizer is an instance of Optimizer instead of str")
        return name
    cls = _REGISTRY.get(str(name).lower())
    if cls is None:
        raise ValueError(f"unknown optimizer {name!r}; cellonnx.gluon has {sorted(_REGISTRY)} (or pass an "
                         "Optimizer instance)")
    return cls(**kwargs)


# the rest of MXNet's catalogue registers itself on import
from cellonnx.gluon.optimizer_adaptive import (  # noqa: E402
    FTML,
    LAMB,
    AdaDelta,
    AdaGrad,
    Adamax,
    Ftrl,
    Nadam,
    RMSProp,
    Test,
)
from cellonnx.gluon.optimizer_contrib import GroupAdaGrad  # noqa: E402, F401 - registers (mx.optimizer.contrib)
from cellonnx.gluon.optimizer_sgd import DCASGD, LARS, LBSGD, NAG, SGLD, Signum, ccSGD  # noqa: E402
