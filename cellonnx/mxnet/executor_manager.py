"""mxnet.executor_manager: data parallelism over bound executors, as MXNet 1.x's FeedForward trained: a
batch is cut into slices by each device's share of the work, every device runs its own executor of the
symbol on its slice (parameters bound per device, the data and label arrays shared between the executor
groups of one manager), and the parameters are gathered back as the devices' average.

Each device's executor is an ``Executor`` of ``Symbol.bind``; devices are named by Contexts as in MXNet and
run on the host.
"""
from __future__ import annotations

import logging
from typing import Any

import numpy as np

from cellonnx.mxnet import ndarray as nd
from cellonnx.mxnet.base import mx_real_t
from cellonnx.mxnet.context import cpu
from cellonnx.mxnet.io import DataDesc

__all__ = ["DataDesc", "DataParallelExecutorGroup", "DataParallelExecutorManager", "cpu", "mx_real_t"]


def _split_input_slice(batch_size: int, work_load_list: list[float]) -> list[slice]:
    """The slices of a batch of ``batch_size`` rows, one per device, sized by its share of
    ``work_load_list`` (rounded; the last device takes the rows rounding left over).

    Raises:
        ValueError: a slice would be empty ('Too many slices. Some splits are empty.').
    """
    total = sum(work_load_list)
    sizes = [round(load * batch_size / total) for load in work_load_list]
    if sum(sizes) < batch_size:
        sizes[-1] += batch_size - sum(sizes)
    slices = []
    stop = 0
    for size in sizes:
        start = int(min(stop, batch_size))
        stop = int(min(start + size, batch_size))
        if start >= stop:
            raise ValueError("Too many slices. Some splits are empty.")
        slices.append(slice(start, stop))
    return slices


def _check_arguments(symbol: Any) -> None:
    """Raise ValueError when ``symbol`` names an argument or an auxiliary state twice."""
    arg_names = symbol.list_arguments()
    seen: set[str] = set()
    for name in arg_names:
        if name in seen:
            raise ValueError(f'Find duplicated argument name "{name}", please make the weight name '
                             f"non-duplicated(using name arguments), arguments are {arg_names}")
        seen.add(name)
    aux_names = symbol.list_auxiliary_states()
    seen = set()
    for name in aux_names:
        if name in seen:
            raise ValueError(f'Find duplicated auxiliary param name "{name}", please make the weight name '
                             f"non-duplicated(using name arguments), arguments are {arg_names}, auxiliary "
                             f"params are {aux_names}")
        seen.add(name)


def _load_general(data: list[Any], targets: list[Any]) -> None:
    """Copy each source array into its target: one array, or ``(slice, array)`` pairs taking the rows of
    each slice."""
    for source, target in zip(data, targets):
        if isinstance(target, nd.NDArray):
            source.copyto(target)
            continue
        if target[-1][0].stop != source.shape[0]:
            raise AssertionError(f"Batch size miss match. Expected {target[-1][0].stop}, got "
                                 f"{source.shape[0]}")
        for rows, array in target:
            source[rows].copyto(array)


def _load_data(batch: Any, targets: list[Any]) -> None:
    """Copy a batch's data arrays into the (sliced) targets."""
    _load_general(batch.data, targets)


def _load_label(batch: Any, targets: list[Any]) -> None:
    """Copy a batch's label arrays into the (sliced) targets."""
    _load_general(batch.label, targets)


def _bind_exec(sym: Any, ctx: Any, input_shapes: dict[str, tuple], param_names: list[str],
               need_grad: bool | set[str] = False, base_exec: Any = None,
               shared_data_arrays: dict[str, Any] | None = None, input_types: dict[str, Any] | None = None,
               logger: Any = logging) -> Any:
    """Bind ``sym`` on ``ctx`` for ``input_shapes``: the parameters (``param_names``) come from
    ``base_exec`` when given (sharing its arrays and gradients) or are new zero arrays; the other
    arguments (data, labels) come from ``shared_data_arrays`` by name when they are large enough (kept there
    for the next bind). ``need_grad``: True for every argument but the inputs, a set of names, or False."""
    arg_shapes, _, aux_shapes = sym.infer_shape(**input_shapes)
    if arg_shapes is None:
        raise AssertionError(f"cannot infer the shapes of {sym.list_arguments()} from {input_shapes}")
    if input_types is None:
        input_types = {name: mx_real_t for name in input_shapes}
    arg_types, _, aux_types = sym.infer_type(**input_types)
    if arg_types is None:
        raise AssertionError(f"cannot infer the dtypes of {sym.list_arguments()} from {input_types}")
    arg_names = sym.list_arguments()
    grad_arrays: dict[str, Any] | None = None if need_grad is False else {}
    if need_grad is False:
        need_grad = set()
    elif need_grad is True:
        need_grad = set(arg_names) - set(input_shapes)
    elif not isinstance(need_grad, set):
        raise AssertionError("need_grad must be boolean or set.")
    grad_req = {name: "write" if name in need_grad else "null" for name in arg_names}

    arg_arrays = []
    for name, shape, dtype in zip(arg_names, arg_shapes, arg_types):
        if name not in param_names:
            array = None
            if shared_data_arrays is not None and name in shared_data_arrays:
                array = shared_data_arrays[name]
                if np.prod(array.shape) >= np.prod(shape):
                    if np.dtype(dtype) != np.dtype(array.dtype):
                        raise AssertionError(f"{name}: dtype {array.dtype}, need {np.dtype(dtype)}")
                    array = array.reshape(shape)
                else:
                    logger.warning('bucketing: data "%s" has a shape %s, which is larger than already '
                                   "allocated shape %s. Need to re-allocate. Consider putting "
                                   "default_bucket_key to be the bucket taking the largest input for better "
                                   "memory sharing.", name, shape, array.shape)
                    array = None
            if array is None:
                array = nd.zeros(shape, ctx, dtype=dtype)
                if shared_data_arrays is not None:
                    shared_data_arrays[name] = array
        elif base_exec is None:
            array = nd.zeros(shape, ctx, dtype=dtype)
            if name in need_grad and grad_arrays is not None:
                grad_arrays[name] = nd.zeros(shape, ctx, dtype=dtype)
        else:
            array = base_exec.arg_dict[name]
            if tuple(array.shape) != tuple(shape) or np.dtype(array.dtype) != np.dtype(dtype):
                raise AssertionError(f"{name}: the shared executor's array is {tuple(array.shape)} "
                                     f"{array.dtype}, need {tuple(shape)} {np.dtype(dtype)}")
            if name in need_grad and grad_arrays is not None:
                grad_arrays[name] = base_exec.grad_dict[name]
        arg_arrays.append(array)

    if base_exec is None:
        aux_arrays = [nd.zeros(s, ctx, dtype=t) for s, t in zip(aux_shapes, aux_types)]
    else:
        for shape, dtype, array in zip(aux_shapes, aux_types, base_exec.aux_arrays):
            if tuple(array.shape) != tuple(shape) or np.dtype(array.dtype) != np.dtype(dtype):
                raise AssertionError("the shared executor's auxiliary states differ in shape or dtype")
        aux_arrays = list(base_exec.aux_arrays)
    return sym.bind(ctx=ctx, args=arg_arrays, args_grad=grad_arrays, aux_states=aux_arrays,
                    grad_req=grad_req, shared_exec=base_exec)


class DataParallelExecutorGroup:
    """One executor of ``sym`` per device, each bound for its slice of the batch.

    Args:
        sym (Symbol): the network.
        arg_names (list[str]): ``sym.list_arguments()``.
        param_names (list[str]): the trainable parameters' names.
        ctx (list[Context]): the devices.
        slices (list[slice]): each device's rows of a batch.
        train_data: a DataIter or DataBatch (its ``provide_data`` / ``provide_label`` give the shapes).
        shared_group (DataParallelExecutorGroup): a group whose parameters (and data arrays) to share.
            Default: None.
    """

    def __init__(self, sym: Any, arg_names: list[str], param_names: list[str], ctx: list[Any],
                 slices: list[slice], train_data: Any, shared_group: DataParallelExecutorGroup | None = None
                 ) -> None:
        _check_arguments(sym)
        self.shared_data_arrays = ([{} for _ in ctx] if shared_group is None
                                   else shared_group.shared_data_arrays)
        self.data_names = [desc[0] for desc in train_data.provide_data]
        self.label_names = [desc[0] for desc in train_data.provide_label]
        self.aux_names = sym.list_auxiliary_states()
        self.param_idx = [i for i, name in enumerate(arg_names) if name in param_names]
        self.param_names = [arg_names[i] for i in self.param_idx]
        self.train_execs = []
        for i, device in enumerate(ctx):
            shapes, types = {}, {}
            for desc in train_data.provide_data + train_data.provide_label:
                shapes[desc[0]] = (slices[i].stop - slices[i].start, *desc[1][1:])
                types[desc[0]] = desc.dtype if isinstance(desc, DataDesc) else mx_real_t
            shared = None if shared_group is None else shared_group.train_execs[i]
            self.train_execs.append(_bind_exec(
                sym, device, shapes, self.param_names, need_grad=True, base_exec=shared,
                shared_data_arrays=self.shared_data_arrays[i], input_types=types))
        self.data_arrays = [[(slices[i], e.arg_dict[name]) for i, e in enumerate(self.train_execs)]
                            for name in self.data_names]
        self.label_arrays = [[(slices[i], e.arg_dict[name]) for i, e in enumerate(self.train_execs)]
                             for name in self.label_names]
        self.param_arrays = [[e.arg_arrays[i] for e in self.train_execs] for i in self.param_idx]
        self.grad_arrays = [[e.grad_arrays[i] for e in self.train_execs] for i in self.param_idx]
        self.aux_arrays = [[e.aux_arrays[i] for e in self.train_execs] for i in range(len(self.aux_names))]
        self.slices = slices

    def load_data_batch(self, data_batch: Any) -> None:
        """Copy the batch's data and labels into each device's slice."""
        _load_data(data_batch, self.data_arrays)
        _load_label(data_batch, self.label_arrays)

    def forward(self, is_train: bool = False) -> None:
        """Run every device's forward."""
        for executor in self.train_execs:
            executor.forward(is_train=is_train)

    def backward(self) -> None:
        """Run every device's backward."""
        for executor in self.train_execs:
            executor.backward()

    def update_metric(self, metric: Any, labels: list[Any], pre_sliced: bool = False) -> None:
        """Update ``metric`` with each device's outputs and its slice of ``labels`` (``pre_sliced``: the
        labels are given per device already)."""
        for i, (executor, rows) in enumerate(zip(self.train_execs, self.slices)):
            device_labels = labels[i] if pre_sliced else [label[rows] for label in labels]
            metric.update(device_labels, executor.outputs)


class DataParallelExecutorManager:
    """Train a symbol data-parallel over several devices (MXNet 1.x FeedForward's executor manager).

    Args:
        symbol (Symbol): the network's output.
        ctx (list[Context]): the devices.
        train_data (DataIter): the training data (its batch size and shapes).
        arg_names (list[str]): the symbol's arguments.
        param_names (list[str]): the trainable parameters among them.
        aux_names (list[str]): the symbol's auxiliary states.
        work_load_list (list[float]): each device's share of a batch. Default: None (equal shares).
        logger: where to log. Default: None (the logging module).
        sym_gen: ``bucket_key -> Symbol`` for bucketing. Default: None.

    Examples:
        >>> import numpy as np
        >>> import cellonnx.mxnet as mx
        >>> net = mx.sym.FullyConnected(mx.sym.var('data'), num_hidden=2, name='fc')
        >>> net = mx.sym.SoftmaxOutput(net, name='softmax')
        >>> it = mx.io.NDArrayIter(np.ones((4, 3)), np.zeros(4), batch_size=4)
        >>> args = net.list_arguments()
        >>> manager = mx.model.DataParallelExecutorManager(net, [mx.cpu(0), mx.cpu(1)], it, args,
        ...     ['fc_weight', 'fc_bias'], [])
        >>> manager.slices
        [slice(0, 2, None), slice(2, 4, None)]
    """

    def __init__(self, symbol: Any, ctx: list[Any], train_data: Any, arg_names: list[str],
                 param_names: list[str], aux_names: list[str], work_load_list: list[float] | None = None,
                 logger: Any = None, sym_gen: Any = None) -> None:
        if logger is None:
            logger = logging
        logger.info("Start training with %s", str(ctx))
        if work_load_list is None:
            work_load_list = [1] * len(ctx)
        if not isinstance(work_load_list, list) or len(work_load_list) != len(ctx):
            raise AssertionError("Invalid settings for work load. ")
        self.slices = _split_input_slice(train_data.batch_size, work_load_list)
        self.arg_names = arg_names
        self.param_names = param_names
        self.aux_names = aux_names
        self.ctx = ctx
        self.execgrp = DataParallelExecutorGroup(symbol, arg_names, param_names, ctx, self.slices, train_data)
        self.symbol = symbol
        self.sym_gen = sym_gen
        self.curr_execgrp: DataParallelExecutorGroup | None = None  # set by load_data_batch
        if sym_gen is not None:
            self.execgrp_bucket = {train_data.default_bucket_key: self.execgrp}

    def install_monitor(self, monitor: Any) -> None:
        """Install ``monitor`` (mx.mon.Monitor) on every device's executor."""
        if self.sym_gen is not None:
            raise NotImplementedError("Monitoring is not implemented for bucketing")
        for executor in self.execgrp.train_execs:
            monitor.install(executor)

    def set_params(self, arg_params: dict[str, Any], aux_params: dict[str, Any]) -> None:
        """Copy parameter and auxiliary state values (by name) into every device's executor."""
        for executor in self.execgrp.train_execs:
            executor.copy_params_from(arg_params, aux_params)

    def copy_to(self, arg_params: dict[str, Any], aux_params: dict[str, Any]) -> None:
        """Write the devices' average of every parameter and auxiliary state into ``arg_params`` /
        ``aux_params`` (in place, in their dtypes)."""
        for names, blocks, target in ((self.param_names, self.param_arrays, arg_params),
                                      (self.aux_names, self.aux_arrays, aux_params)):
            for name, block in zip(names, blocks):
                mean = sum(w.copyto(cpu()) for w in block) / len(block)
                mean.astype(target[name].dtype).copyto(target[name])

    @property
    def param_arrays(self) -> list[list[Any]]:
        """Each parameter's arrays, one per device."""
        return self.execgrp.param_arrays

    @property
    def grad_arrays(self) -> list[list[Any]]:
        """Each parameter's gradient arrays, one per device."""
        return self.execgrp.grad_arrays

    @property
    def aux_arrays(self) -> list[list[Any]]:
        """Each auxiliary state's arrays, one per device."""
        return self.execgrp.aux_arrays

    def load_data_batch(self, data_batch: Any) -> None:
        """Load a batch into the devices (with bucketing: into its bucket's executor group, bound on first
        use and sharing the parameters)."""
        if self.sym_gen is not None:
            key = data_batch.bucket_key
            if key not in self.execgrp_bucket:
                self.execgrp_bucket[key] = DataParallelExecutorGroup(
                    self.sym_gen(key), self.arg_names, self.param_names, self.ctx, self.slices, data_batch,
                    shared_group=self.execgrp)
            self.curr_execgrp = self.execgrp_bucket[key]
        else:
            self.curr_execgrp = self.execgrp
        self.curr_execgrp.load_data_batch(data_batch)

    def forward(self, is_train: bool = False) -> None:
        """Run the current executor group's forward."""
        self._current().forward(is_train=is_train)

    def backward(self) -> None:
        """Run the current executor group's backward."""
        self._current().backward()

    def update_metric(self, metric: Any, labels: list[Any], pre_sliced: bool = False) -> None:
        """Update ``metric`` with the current executor group's outputs."""
        self._current().update_metric(metric, labels, pre_sliced)

    def _current(self) -> DataParallelExecutorGroup:
        if self.curr_execgrp is None:
            raise AttributeError("'NoneType' object has no attribute 'forward': call load_data_batch first")
        return self.curr_execgrp
