"""gluon.Trainer: applies an optimizer to a set of parameters after ``backward``.

``step(batch_size)`` rescales gradients by ``rescale_grad / batch_size`` (MXNet's convention: losses are per
sample and summed by backward) and updates every parameter whose grad_req is not 'null'. A parameter whose
gradient was not written by a backward pass since the last step is refused unless ``ignore_stale_grad=True``
(then it is skipped).

Examples:
    >>> from cellonnx import gluon
    >>> from cellonnx.gluon import autograd, nn
    >>> net = nn.Dense(2, in_units=3)
    >>> net.initialize()
    >>> loss_fn = gluon.loss.L2Loss()
    >>> x, y = Tensor(np.ones((4, 3), np.float32)), Tensor(np.zeros((4, 2), np.float32))
    >>> trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1, 'momentum': 0.9})
    >>> with autograd.record():
    ...     loss = loss_fn(net(x), y)
    >>> loss.backward()
    >>> trainer.step(x.shape[0])
"""
from __future__ import annotations

import json
import os
from typing import Any

import numpy as np

from cellonnx.converters.atomic import atomic_write
from cellonnx.gluon import optimizer as opt
from cellonnx.gluon.optimizer_sparse import sparse_rows
from cellonnx.tensor import Parameter as CoreParameter

__all__ = ["Trainer"]


_DIST_SYNC = ("dist_sync", "dist_sync_device", "dist_device_sync")


def _grad_req(p: CoreParameter) -> str:
    return getattr(p, "grad_req", "write" if p.requires_grad else "null")


class Trainer:
    """Apply an optimizer to parameters.

    Args:
        params: a dict (``net.collect_params()``) or list of Parameters; shared parameters are updated once.
        optimizer: a registered name ('sgd', 'adam', 'nag', 'rmsprop', 'lamb'..., as mx.optimizer.create
            takes them) or an Optimizer.
        optimizer_params: keyword arguments of the optimizer (learning_rate, wd, momentum, clip_gradient, ...).
        kvstore: 'device', 'local' or None in one process; 'dist_sync' / 'dist_sync_device' sum the gradients
            across the ranks of an ``mpirun`` job (see docs/distributed.md); or an ``mx.kv.create(...)``
            store of those types.
        compression_params, update_on_kvstore: accepted for compatibility (one process).

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> from cellonnx.mxnet import np, npx, gluon, autograd
        >>> npx.set_np()
        >>> net = gluon.nn.Dense(1, in_units=2)
        >>> net.initialize(mx.init.Constant(1.0))
        >>> trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1})
        >>> x = np.array([[1.0, 2.0]])
        >>> with autograd.record():
        ...     loss = (net(x) ** 2).sum()
        >>> loss.backward()
        >>> trainer.step(1)
        >>> print(net.weight.data().asnumpy())
        [[ 0.39999998 -0.20000005]]
    """

    def __init__(self, params: Any, optimizer: Any, optimizer_params: dict | None = None, kvstore: Any = "device",
                 compression_params: Any = None, update_on_kvstore: Any = None) -> None:
        if isinstance(params, dict):
            params = [params[k] for k in sorted(params)]
        if not isinstance(params, (list, tuple)):
            raise ValueError(  # noqa: TRY004 - MXNet's exception type
                f"First argument must be a list or dict of Parameters, got {type(params)}.")
        self._params: list[CoreParameter] = []
        seen: set[int] = set()
        for p in params:
            if not isinstance(p, CoreParameter):
                raise ValueError(  # noqa: TRY004 - MXNet's exception type
                    f"First argument must be a list or dict of Parameters, got list of {type(p)}.")
            if id(p) not in seen:
                seen.add(id(p))
                self._params.append(p)
                p.__dict__["_trainer"] = self
        kvstore = getattr(kvstore, "type", kvstore)  # an mx.kv KVStore object: its type
        self._dist = isinstance(kvstore, str) and kvstore.startswith("dist")
        if self._dist and kvstore not in _DIST_SYNC:
            raise NotImplementedError(f"Trainer(kvstore={kvstore!r}): only synchronous distributed stores "
                                      f"{sorted(_DIST_SYNC)} are supported (gradients all-reduced over MPI)")
        if compression_params and self._dist:
            raise NotImplementedError("Trainer(compression_params=...): gradient compression is not "
                                      "supported across processes")
        if compression_params:  # one device: MXNet compresses nothing either (checked all the same)
            from cellonnx.mxnet.kvstore.compression import GradientCompression

            GradientCompression(compression_params)
        self._reduce_plan: Any = None
        if self._dist:
            from cellonnx.communication import _mpi, management

            if not _mpi.initialized():
                management.init()  # as MXNet's dist kvstore joins the job on creation
            # as the store's init: every rank starts from rank 0's values (those already initialized)
            for p in self._params:
                if getattr(p, "_deferred", None) is None and getattr(p, "_data", None) is not None \
                        and p._data.size:
                    p._assign_array(_mpi.broadcast_array(p._data, 0, None, "Trainer"))
        param_dict = dict(enumerate(self._params))
        if isinstance(optimizer, opt.Optimizer):
            if optimizer_params:
                raise ValueError("optimizer_params must be None if optimizer is an instance of Optimizer instead "
                                 "of str")
            self._optimizer = optimizer
            optimizer.param_dict = param_dict
        else:
            self._optimizer = opt.create(optimizer, param_dict=param_dict, **(optimizer_params or {}))
        self._scale = self._optimizer.rescale_grad
        self._states: dict[int, Any] = {}

    @property
    def optimizer(self) -> opt.Optimizer:
        return self._optimizer

    @property
    def learning_rate(self) -> float:
        return self._optimizer.learning_rate

    def set_learning_rate(self, lr: float) -> None:
        """Set the learning rate (not allowed with an lr_scheduler)."""
        self._optimizer.set_learning_rate(lr)

    def step(self, batch_size: int, ignore_stale_grad: bool = False) -> None:
        """One update with gradients rescaled by 1 / batch_size (call after backward, outside record()).

        Args:
            batch_size: samples the gradients were summed over; 1 if the loss was already averaged.
            ignore_stale_grad: skip (instead of refusing) parameters whose gradient is stale. Default: False.
        """
        self.allreduce_grads()
        self._update_only(batch_size, ignore_stale_grad)

    def allreduce_grads(self) -> None:
        """Sum the gradients across the processes of a distributed store ('dist_sync' ...): one all-reduce per
        bucket of fused gradients over MPI; nothing to do in one process."""
        if not self._dist:
            return
        from cellonnx.nn.wrap.grad_reducer import _Plan

        grads = [p.grad for p in self._params if _grad_req(p) != "null" and p.grad is not None]
        if self._reduce_plan is None or len(self._reduce_plan.params) != len(grads):
            self._reduce_plan = _Plan(grads, "hccl_world_group")
        for g, summed in zip(grads, self._reduce_plan.reduce(tuple(grads))):
            g._data = summed.astype(g._data.dtype, copy=False)

    def update(self, batch_size: int, ignore_stale_grad: bool = False) -> None:
        """The update half of ``step`` (after ``allreduce_grads``)."""
        self._update_only(batch_size, ignore_stale_grad)

    def _update_only(self, batch_size: int, ignore_stale_grad: bool) -> None:
        self._optimizer.rescale_grad = self._scale / batch_size
        self._update(ignore_stale_grad)

    def _update(self, ignore_stale_grad: bool) -> None:
        loss_scaler = getattr(self, "_amp_loss_scaler", None)  # mx.contrib.amp.init_trainer's
        if loss_scaler is not None and loss_scaler.has_overflow(self._params):
            return  # a step whose gradients overflowed is skipped, as MXNet's AMP does
        todo = []
        for i, p in enumerate(self._params):
            if _grad_req(p) == "null":
                continue
            fresh = getattr(p, "_fresh_grad", p.grad is not None)
            if not fresh:
                if not ignore_stale_grad:
                    raise UserWarning(f"Gradient of Parameter `{p.name}` on context cpu(0) has not been updated by "
                                      "backward since last `step`. This could mean a bug in your model that made it "
                                      "only use a subset of the Parameters (Blocks) for this iteration. If you are "
                                      "intentionally only using a subset, call step with ignore_stale_grad=True to "
                                      "suppress this warning and skip updating of Parameters with stale gradient")
                continue
            todo.append((i, p))
        items, dense = [], []
        for i, p in todo:
            weight, grad = p._data, p.grad
            rows = sparse_rows(self._optimizer, i, grad)  # a Parameter's value is dense
            if rows is not None:  # MXNet's sparse kernel: the gradient's rows alone
                if i not in self._states:
                    self._states[i] = self._optimizer.create_state_multi_precision(i, weight)
                new = self._optimizer.update_rows(i, weight, rows,
                                                  np.asarray(grad.data._data, weight.dtype), self._states[i])
                p._assign_array(np.ascontiguousarray(new, dtype=weight.dtype))
                p.__dict__["_fresh_grad"] = False
                continue
            values = grad._data if grad is not None else np.zeros_like(weight)
            items.append((i, weight, np.asarray(values, dtype=weight.dtype)))
            dense.append(p)
        for p, new in zip(dense, opt.apply_updates(self._optimizer, self._states, items)):
            p._assign_array(np.ascontiguousarray(new, dtype=p._data.dtype))
            p.__dict__["_fresh_grad"] = False

    # ---------------------------------------------------------------- optimizer state files
    def save_states(self, fname: str | os.PathLike[str]) -> None:
        """Write the optimizer states (momenta, moments, master copies, update counts and the scalars an
        optimizer keeps, such as Nadam's momentum schedule) to an .npz file."""
        arrays: dict[str, np.ndarray] = {}
        for i, state in self._states.items():
            for j, arr in enumerate(_flatten(state)):
                arrays[f"{i}.{j}"] = arr
        meta = {"counts": {str(k): v for k, v in self._optimizer._index_update_count.items()},
                "num_update": self._optimizer.num_update,
                "optimizer": self._optimizer._saved_attrs(),
                "layout": {str(i): _layout(s) for i, s in self._states.items()}}
        with atomic_write(fname) as f:
            np.savez(f, **{"__meta__": np.array(json.dumps(meta)), **arrays})  # type: ignore[arg-type]

    def load_states(self, fname: str | os.PathLike[str]) -> None:
        """Read what ``save_states`` wrote."""
        with np.load(fname, allow_pickle=False) as data:
            meta = json.loads(str(data["__meta__"]))
            self._states = {}
            for key, layout in meta["layout"].items():
                i = int(key)
                flat = [data[f"{i}.{j}"].copy() for j in range(_count(layout))]
                self._states[i] = _rebuild(layout, flat)
        counts = {int(k): v for k, v in meta["counts"].items()}
        self._optimizer._index_update_count = self._optimizer._all_index_update_counts[0] = counts
        self._optimizer.num_update = meta["num_update"]
        for name, value in meta.get("optimizer", {}).items():
            setattr(self._optimizer, name, value)


def _flatten(state: Any) -> list[np.ndarray]:
    if state is None:
        return []
    if isinstance(state, np.ndarray):
        return [state]
    return [a for s in state for a in _flatten(s)]


def _layout(state: Any) -> Any:
    if state is None:
        return None
    if isinstance(state, np.ndarray):
        return "array"
    if isinstance(state, (tuple, list)):
        return [_layout(s) for s in state]
    raise TypeError(f"Trainer.save_states: an optimizer state must be arrays, tuples of them or None, got "
                    f"{type(state).__name__}")


def _count(layout: Any) -> int:
    if layout is None:
        return 0
    if layout == "array":
        return 1
    return sum(_count(s) for s in layout)


def _rebuild(layout: Any, flat: list[np.ndarray]) -> Any:
    if layout is None:
        return None
    if layout == "array":
        return flat.pop(0)
    return tuple(_rebuild(s, flat) for s in layout)
