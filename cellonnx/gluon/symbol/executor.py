"""The Executor of a bound symbol (``Symbol.bind`` / ``simple_bind`` / ``eval``), as MXNet 1.9.1's: arrays
bound to the arguments, their gradients and the auxiliary states; ``forward(is_train)`` runs the graph with
the symbol interpreter (recording gradients when training, when BatchNorm also moves its auxiliary states) and
``backward(out_grads)`` writes or adds the gradients into the bound gradient arrays. Loss outputs
(SoftmaxOutput, the regression outputs, MakeLoss) need no head gradient; other outputs do, as in MXNet.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import autograd as core_autograd
from cellonnx.gluon import autograd
from cellonnx.gluon.symbol.executor_monitor import BackwardTap, batch_norm_extras
from cellonnx.gluon.symbol.interpreter import Program
from cellonnx.gluon.symbol.monitor_inputs import forward_input_names
from cellonnx.gluon.symbol.spec import op_spec
from cellonnx.tensor import Tensor

__all__ = ["Executor", "bind", "simple_bind"]

_LOSS_OPS = frozenset({"SoftmaxOutput", "LinearRegressionOutput", "LogisticRegressionOutput",
                       "MAERegressionOutput", "SVMOutput", "MakeLoss", "make_loss"})
_REQS = ("write", "add", "null", "inplace")


def _custom_loss(node: Any) -> bool:
    """A Python operator declared without head gradients (``need_top_grad=False``): a loss output."""
    if node.op != "Custom":
        return False
    from cellonnx.gluon.symbol.custom_op import custom_prop

    return not custom_prop(node.attrs).need_top_grad_


def _nd(array: np.ndarray) -> Any:
    from cellonnx.mxnet.ndarray.ndarray import NDArray

    t = Tensor._make(array)
    t.__class__ = NDArray
    return t


def _as_nd(value: Any, what: str) -> Any:
    from cellonnx.mxnet.ndarray.ndarray import NDArray

    if isinstance(value, NDArray):
        return value
    if isinstance(value, Tensor):
        return _nd(value._data)
    if isinstance(value, np.ndarray):
        return _nd(value)
    raise TypeError(f"{what} must be NDArray, got {type(value).__name__}")


def _arrays(names: list[str], given: Any, what: str, allow_missing: bool) -> list[Any]:
    """``given`` (a list in ``names``' order or a dict by name) as a list of arrays (None where missing)."""
    if given is None:
        if allow_missing:
            return [None] * len(names)
        raise ValueError(f"{what} must be given ({len(names)} arrays: {names})")
    if isinstance(given, dict):
        out = []
        for name in names:
            if name not in given:
                if not allow_missing:
                    raise ValueError(f"key `{name}` is missing in `{what}`")
                out.append(None)
            else:
                out.append(None if given[name] is None else _as_nd(given[name], f"{what}['{name}']"))
        return out
    if isinstance(given, (list, tuple)):
        if len(given) != len(names):
            raise ValueError(f"Length of {what} does not match the number of arguments: {len(given)} given, "
                             f"{len(names)} expected ({names})")
        return [None if v is None else _as_nd(v, f"{what}[{i}]") for i, v in enumerate(given)]
    raise TypeError(f"Only accept list of NDArrays or dict of str to NDArray for {what}, got "
                    f"{type(given).__name__}")


def _reqs(names: list[str], grad_req: Any) -> list[str]:
    if isinstance(grad_req, str):
        reqs = [grad_req] * len(names)
    elif isinstance(grad_req, (list, tuple)):
        reqs = list(grad_req)
        if len(reqs) != len(names):
            raise ValueError(f"grad_req has {len(reqs)} entries for {len(names)} arguments")
    elif isinstance(grad_req, dict):
        reqs = [grad_req.get(n, "null") for n in names]
    else:
        raise TypeError(f"grad_req must be a str, a list or a dict, got {type(grad_req).__name__}")
    for r in reqs:
        if r not in _REQS:
            raise ValueError(f"grad_req must be one of {_REQS}, got {r!r}")
    return ["write" if r == "inplace" else r for r in reqs]


class Executor:
    """A symbol bound to arrays. Made by ``Symbol.bind``, ``simple_bind`` and ``eval``.

    Attributes:
        arg_arrays, grad_arrays, aux_arrays: the bound arrays in ``list_arguments`` /
            ``list_auxiliary_states`` order (None where an argument has no gradient array).
        outputs: the outputs of the last ``forward``.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> a, b = mx.sym.var('a'), mx.sym.var('b')
        >>> c = a * b
        >>> ex = c.bind(mx.cpu(), {'a': mx.nd.array([1, 2]), 'b': mx.nd.array([3, 4])},
        ...     args_grad={'a': mx.nd.zeros(2), 'b': mx.nd.zeros(2)})
        >>> print(ex.forward(is_train=True)[0].asnumpy())
        [3. 8.]
        >>> ex.backward(mx.nd.ones(2))
        >>> print(ex.grad_dict['a'].asnumpy())
        [3. 4.]
    """

    def __init__(
        self, symbol: Any, args: list[Any], grads: list[Any], reqs: list[str], aux: list[Any]
    ) -> None:
        self._symbol = symbol
        self._arg_names = symbol.list_arguments()
        self._aux_names = symbol.list_auxiliary_states()
        self._output_names = symbol.list_outputs()
        self._program = Program(*symbol._graph_view())
        self.arg_arrays = args
        self.grad_arrays = [g if r != "null" else None for g, r in zip(grads, reqs)]
        self._reqs = [r if g is not None else "null" for g, r in zip(grads, reqs)]
        self.aux_arrays = aux
        self.outputs: list[Any] = []
        self._recorded: tuple[list[Any], list[tuple[int, Any]]] | None = None
        self._monitor: Any = None
        self._monitor_all = False
        self._tap: BackwardTap | None = None
        self._step_inputs: list[Any] = []
        self._train = False
        self._moved_aux: list[np.ndarray] | None = None
        shapes = {}
        for name, value in zip(self._arg_names + self._aux_names, args + aux):
            shapes[name] = tuple(value.shape)
        self._shapes = shapes

    @staticmethod
    def _get_dict(names: list[str], arrays: list[Any]) -> dict[str, Any]:
        if len(set(names)) != len(names):
            raise ValueError(f"Duplicate names detected, {names}")
        return dict(zip(names, arrays))

    @property
    def arg_dict(self) -> dict[str, Any]:
        """The argument arrays by name."""
        return self._get_dict(self._arg_names, self.arg_arrays)

    @property
    def grad_dict(self) -> dict[str, Any]:
        """The gradient arrays by argument name (None for arguments without one)."""
        return self._get_dict(self._arg_names, self.grad_arrays)

    @property
    def aux_dict(self) -> dict[str, Any]:
        """The auxiliary state arrays by name."""
        return self._get_dict(self._aux_names, self.aux_arrays)

    @property
    def output_dict(self) -> dict[str, Any]:
        """The outputs of the last forward by output name."""
        return self._get_dict(self._output_names, self.outputs)

    def forward(self, is_train: bool = False, **kwargs: Any) -> list[Any]:
        """Compute the outputs; keyword arrays are first copied into the arguments of those names.

        Args:
            is_train: training mode (batch statistics, dropout; gradients recorded for ``backward``).
                Default: False.

        Returns:
            The outputs (also kept in ``outputs``).
        """
        if kwargs:
            arg_dict = self.arg_dict
            for name, array in kwargs.items():
                if name not in arg_dict:
                    raise TypeError(f"Unknown argument {name}")
                value = np.asarray(array.asnumpy() if hasattr(array, "asnumpy") else array)
                if tuple(arg_dict[name].shape) != value.shape:
                    raise ValueError(f"Shape not match! Argument {name}, need: "
                                     f"{tuple(arg_dict[name].shape)}, received: {value.shape}")
                arg_dict[name][:] = value
        values: dict[str, Any] = {}
        leaves: list[tuple[int, Any]] = []
        for i, (name, array, req) in enumerate(zip(self._arg_names, self.arg_arrays, self._reqs)):
            if is_train and req != "null":
                leaf = _nd(array._data)
                leaf.attach_grad()
                leaves.append((i, leaf))
                values[name] = leaf
            else:
                values[name] = array
        values.update(zip(self._aux_names, self.aux_arrays))
        after = self._monitor_step if self._monitor is not None else None
        self._train = is_train
        self._tap = (BackwardTap(set(self._aux_names), self._monitor_all)
                     if self._monitor is not None and is_train else None)
        hook = self._monitor_hook if self._monitor is not None else None
        if is_train:
            before = [a._data.copy() for a in self.aux_arrays]
            with autograd.record(train_mode=True):
                outs = self._program.run(values, hook=hook, after=after)
            self._recorded = (outs, leaves)
            # MXNet 1.9.1 moves the auxiliary states (BatchNorm's statistics) in backward, not in forward
            self._moved_aux = [a._data.copy() for a in self.aux_arrays]
            for a, b in zip(self.aux_arrays, before):
                a[:] = b
        else:
            with core_autograd.no_grad(), autograd.predict_mode():
                outs = self._program.run(values, hook=hook, after=after)
            self._recorded = None
            self._moved_aux = None
        self.outputs = [_nd(o._data) if isinstance(o, Tensor) else o for o in outs]
        return self.outputs

    def _monitor_hook(self, step: Any, inputs: list[Any]) -> None:
        self._step_inputs = list(inputs)
        if self._monitor_all:  # MXNet's monitor_all: the inputs, each variable's own name first
            graph = self._program.graph
            names = forward_input_names(step.node.op, step.attrs, len(inputs))
            for (nid, _), label, value in zip(step.inputs, names, inputs):
                if not isinstance(value, Tensor):
                    continue
                if graph.nodes[nid].op == "null":
                    self._monitor(graph.nodes[nid].name, _nd(np.array(value._data)))
                self._monitor(f"{step.node.name}_{label}", _nd(np.array(value._data)))
        if self._tap is not None:
            self._tap.hook(step, inputs, self._program.graph)

    def _monitor_step(self, step: Any, result: Any) -> None:
        """Hand the monitor every output of an operator, named as MXNet's executor names them
        (``<node>_output``, or ``<node>_output<i>`` for operators of several outputs; BatchNorm's
        ``_output``, ``_mean``, ``_var``)."""
        monitored: list[np.ndarray] = []

        def report(name: str, value: np.ndarray) -> None:
            monitored.append(value)
            self._monitor(name, _nd(value))

        if step.node.op == "BatchNorm" and isinstance(result, Tensor):
            report(f"{step.node.name}_output", np.array(result._data))
            extras = batch_norm_extras(step.attrs, self._step_inputs[0], self._step_inputs[3:5], self._train)
            for suffix, value in zip(("mean", "var"), extras):
                report(f"{step.node.name}_{suffix}", value)
        elif isinstance(result, (list, tuple)):
            for i, out in enumerate(result):
                if isinstance(out, Tensor):
                    report(f"{step.node.name}_output{i}", np.array(out._data))
        elif isinstance(result, Tensor):
            report(f"{step.node.name}_output", np.array(result._data))
        if self._tap is not None:
            self._tap.outputs(step, result, monitored)

    def _head_grads(self, out_grads: Any) -> list[Any]:
        outs = self._recorded[0] if self._recorded else []
        if out_grads is None:
            given: list[Any] = []
        elif isinstance(out_grads, dict):
            given = [out_grads.get(k) for k in self._output_names]
        elif isinstance(out_grads, (list, tuple)):
            given = list(out_grads)
        else:
            given = [out_grads]
        graph, heads = self._symbol._graph_view()
        grads = []
        for i, (nid, _) in enumerate(heads):
            spec = op_spec(graph.nodes[nid].op)
            g = given[i] if i < len(given) else None
            if g is None and (spec is None or spec.name not in _LOSS_OPS) \
                    and not _custom_loss(graph.nodes[nid]):
                raise ValueError(
                    f"Executor.backward: output {i} ('{self._output_names[i]}') is not a loss output "
                    "(SoftmaxOutput, MakeLoss ...), so its head gradient is required: pass out_grads"
                )
            grads.append(None if g is None else _as_nd(g, "out_grads").astype(outs[i].dtype))
        return grads

    def backward(self, out_grads: Any = None, is_train: bool = True) -> None:
        """Back-propagate from the outputs of the last ``forward(is_train=True)`` into the gradient arrays
        (written or added as each argument's grad_req says).

        Args:
            out_grads: the gradients of the outputs (an NDArray, a list, or a dict by output name); needed
                for every output that is not a loss output.
        """
        if self._recorded is None:
            raise RuntimeError("Executor.backward: call forward(is_train=True) first")
        outs, leaves = self._recorded
        heads = self._head_grads(out_grads)
        if self._moved_aux is not None:
            for a, moved in zip(self.aux_arrays, self._moved_aux):
                a[:] = moved
            self._moved_aux = None
        live = [(o, h) for o, h in zip(outs, heads) if isinstance(o, Tensor) and o.requires_grad]
        if not leaves:
            return
        if live:
            grads = autograd.grad([o for o, _ in live], [leaf for _, leaf in leaves],
                                  head_grads=[h for _, h in live], retain_graph=True)
        else:  # no output depends differentiably on the arguments (comparisons, shapes ...)
            grads = [None] * len(leaves)
        if self._tap is not None and self._monitor is not None:
            self._tap.report(outs, heads, self._monitor, _nd)
        for (i, leaf), g in zip(leaves, grads):
            target = self.grad_arrays[i]
            value = np.zeros(leaf.shape, leaf._data.dtype) if g is None else g._data
            if self._reqs[i] == "add":
                target[:] = target._data + value
            else:
                target[:] = value

    def copy_params_from(self, arg_params: dict[str, Any], aux_params: dict[str, Any] | None = None,
                         allow_extra_params: bool = False) -> None:
        """Copy values into the bound arguments and auxiliary states by name."""
        for params, names, arrays in ((arg_params, self._arg_names, self.arg_arrays),
                                      (aux_params or {}, self._aux_names, self.aux_arrays)):
            index = {n: i for i, n in enumerate(names)}
            for name, value in params.items():
                if name not in index:
                    if allow_extra_params:
                        continue
                    raise ValueError(f"Find name \"{name}\" that is not in the arguments")
                arrays[index[name]][:] = value.asnumpy() if hasattr(value, "asnumpy") else value

    def reshape(
        self, partial_shaping: bool = False, allow_up_sizing: bool = False, **kwargs: Any
    ) -> Executor:
        """A new executor for other input shapes, sharing the arrays whose shapes do not change."""
        arg_shapes, _, aux_shapes = self._symbol.infer_shape(**kwargs)
        if arg_shapes is None:
            raise ValueError("Insufficient argument shapes provided.")
        args, grads = [], []
        for name, shape, a, g in zip(self._arg_names, arg_shapes, self.arg_arrays, self.grad_arrays):
            if tuple(a.shape) == tuple(shape):
                args.append(a)
                grads.append(g)
                continue
            if name not in kwargs and not partial_shaping:
                raise AssertionError(f"Shape of unspecified array arg:{name} changed. This can cause the new "
                                     "executor to not share parameters with the old one. Please check for "
                                     "error in network. If this is intended, set partial_shaping=True to "
                                     "suppress this warning.")
            args.append(_nd(np.zeros(shape, a._data.dtype)))
            grads.append(None if g is None else _nd(np.zeros(shape, g._data.dtype)))
        aux = [a if tuple(a.shape) == tuple(s) else _nd(np.zeros(s, a._data.dtype))
               for a, s in zip(self.aux_arrays, aux_shapes)]
        return Executor(self._symbol, args, grads, list(self._reqs), aux)

    def set_monitor_callback(self, callback: Any, monitor_all: bool = False) -> None:
        """Call ``callback(name, array)`` with every operator's outputs during each forward, and with every
        backward node's outputs (``<node>_backward_output<i>``: the gradients of the node's inputs) during
        each backward; with ``monitor_all`` each node's inputs before its outputs (monitor_inputs.py)."""
        self._monitor = callback
        self._monitor_all = monitor_all

    def debug_str(self) -> str:
        return self._symbol.debug_str()


def bind(symbol: Any, args: Any, args_grad: Any, grad_req: Any, aux_states: Any) -> Executor:
    arg_names = symbol.list_arguments()
    aux_names = symbol.list_auxiliary_states()
    arg_arrays = _arrays(arg_names, args, "args", allow_missing=False)
    grad_arrays = _arrays(arg_names, args_grad, "args_grad", allow_missing=True)
    aux_arrays = _arrays(aux_names, aux_states if aux_names else (aux_states or []), "aux_states",
                         allow_missing=False)
    return Executor(symbol, arg_arrays, grad_arrays, _reqs(arg_names, grad_req), aux_arrays)


def simple_bind(symbol: Any, grad_req: Any, type_dict: Any, shapes: dict[str, Any]) -> Executor:
    arg_shapes, out_shapes, aux_shapes = symbol.infer_shape(**shapes)
    if arg_shapes is None:
        raise ValueError(f"simple_bind: the shapes of some arguments cannot be inferred from {shapes}; give "
                         "the input shapes by name")
    arg_types, _, aux_types = symbol.infer_type_partial(**(type_dict or {}))
    arg_names = symbol.list_arguments()
    reqs = _reqs(arg_names, grad_req)
    args = [_nd(np.zeros(s, t or np.float32)) for s, t in zip(arg_shapes, arg_types)]
    grads = [None if r == "null" else _nd(np.zeros(s, t or np.float32))
             for s, t, r in zip(arg_shapes, arg_types, reqs)]
    aux = [_nd(np.zeros(s, t or np.float32)) for s, t in zip(aux_shapes, aux_types)]
    executor = Executor(symbol, args, grads, reqs, aux)
    out_types = symbol.infer_type_partial(**(type_dict or {}))[1]
    executor.outputs = [_nd(np.zeros(s, t or np.float32)) for s, t in zip(out_shapes, out_types)]
    return executor
