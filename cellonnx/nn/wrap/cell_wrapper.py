"""Wrapper cells: a network with its loss, its gradients, one training step, evaluation outputs."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from cellonnx import context as _ctx
from cellonnx.autograd.grad import GradOperation
from cellonnx.autograd.tape import run_backward, set_grad_enabled
from cellonnx.graph.trace import tracing_step
from cellonnx.nn import cell as _cell
from cellonnx.nn.cell import Cell
from cellonnx.nn.learning_rate_schedule import _eager
from cellonnx.nn.parameter_tuple import ParameterTuple
from cellonnx.parallel_context import _get_device_num, _get_gradients_mean, _is_data_parallel
from cellonnx.tensor import Parameter, Tensor

__all__ = ["ForwardValueAndGrad", "ParameterUpdate", "TrainOneStepCell", "WithEvalCell", "WithGradCell",
           "WithLossCell"]


class WithLossCell(Cell):
    r"""The backbone followed by the loss: ``loss_fn(backbone(data), label)``.

    Args:
        backbone (Cell): the network.
        loss_fn (Cell): the loss function.

    Inputs:
        - **data** (Tensor), **label** (Tensor).

    Outputs:
        Tensor, the loss.

    Examples:
        >>> net = nn.Dense(3, 2)
        >>> data, label = Tensor(np.ones((4, 3), np.float32)), Tensor(np.zeros((4, 2), np.float32))
        >>> net_with_loss = nn.WithLossCell(net, nn.MSELoss())
        >>> print(net_with_loss(data, label).shape)
        ()
    """

    def __init__(self, backbone: Cell, loss_fn: Any) -> None:
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self._loss_fn = loss_fn

    def construct(self, data: Any, label: Any) -> Any:
        return self._loss_fn(self._backbone(data), label)

    @property
    def backbone_network(self) -> Cell:
        """The backbone."""
        return self._backbone


def _loss_and_grads(network: Any, inputs: tuple, weights: Sequence[Parameter], sens: Any) -> tuple[Any, tuple]:
    """One forward pass recorded on the tape, one backward pass to ``weights``: (output, gradients).

    ``sens`` seeds the backward pass (None: ones); a weight the output does not depend on gets zeros."""
    with set_grad_enabled(True):
        out = network(*inputs)
    heads = [o for o in out if isinstance(o, Tensor)] if isinstance(out, tuple) else [out]
    heads = [h for h in heads if h.requires_grad]
    if not heads:
        return out, tuple(Tensor._make(np.zeros_like(w._data)) for w in weights)
    if sens is None:
        seeds: list[Any] = [None] * len(heads)
    elif isinstance(sens, Tensor) and tracing_step():  # a graph value (a loss scale held in the state)
        from cellonnx import ops
        seeds = [ops.broadcast_to(ops.cast(ops.reshape(sens, ()), h.dtype), h.shape) for h in heads]
    else:
        seeds = [np.full(h.shape, sens, dtype=h._data.dtype) if not isinstance(sens, Tensor) else
                 np.broadcast_to(sens.asnumpy().astype(h._data.dtype), h.shape) for h in heads]
    grads = run_backward(heads, seeds, wrt=list(weights))
    return out, tuple(g.detach() if g is not None else Tensor._make(np.zeros_like(w._data))
                      for g, w in zip(grads, weights))


class WithGradCell(Cell):
    r"""The gradients of the network's (loss) output with respect to its trainable parameters.

    Args:
        network (Cell): the network.
        loss_fn (Cell): when given, the gradients are of ``loss_fn(network(data), label)``. Default: ``None``.
        sens (Union[None, Tensor, Scalar, Tuple ...]): the backward seed. Default: ``None`` (ones).

    Outputs:
        tuple[Tensor], one gradient per trainable parameter.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> net = nn.Dense(3, 2)
        >>> grad_net = nn.WithGradCell(net, nn.MSELoss())
        >>> grads = grad_net(Tensor(np.ones((4, 3)), ms.float32), Tensor(np.zeros((4, 2)), ms.float32))
        >>> [g.shape for g in grads]
        [(2, 3), (2,)]
    """

    def __init__(self, network: Cell, loss_fn: Any = None, sens: Any = None) -> None:
        super().__init__(auto_prefix=False)
        self.network = network
        self.loss_fn = loss_fn
        self.weights = ParameterTuple(network.trainable_params())
        self.sens = sens
        self.network_with_loss = network if loss_fn is None else WithLossCell(self.network, self.loss_fn)
        self.network_with_loss.set_train()

    def construct(self, *inputs: Any) -> tuple:
        return _loss_and_grads(self.network_with_loss, inputs, self.weights, self.sens)[1]


class ForwardValueAndGrad(Cell):
    r"""The network's output and its gradients (``GradOperation`` semantics).

    Args:
        network (Cell): the network.
        weights (ParameterTuple): the parameters, with ``get_by_list``. Default: ``None``.
        get_all (bool): gradients of all inputs. Default: ``False``.
        get_by_list (bool): gradients of ``weights``. Default: ``False``.
        sens_param (bool): the last input is the backward seed. Default: ``False``.

    Outputs:
        (output, gradients).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> net = nn.WithLossCell(nn.Dense(3, 2), nn.MSELoss())
        >>> forward = nn.ForwardValueAndGrad(net, weights=net.trainable_params(), get_by_list=True)
        >>> loss, grads = forward(Tensor(np.ones((4, 3)), ms.float32), Tensor(np.zeros((4, 2)), ms.float32))
        >>> [g.shape for g in grads]
        [(2, 3), (2,)]
    """

    def __init__(self, network: Any, weights: Any = None, get_all: bool = False, get_by_list: bool = False,
                 sens_param: bool = False) -> None:
        super().__init__(auto_prefix=False)
        if not callable(network):
            raise TypeError(f"For 'ForwardValueAndGrad', 'network' must be a Cell or a function, got "
                            f"{type(network).__name__}")
        for key, v in (("get_all", get_all), ("get_by_list", get_by_list)):
            if not isinstance(v, bool):
                raise TypeError(f"For 'ForwardValueAndGrad', '{key}' must be a bool, got {type(v).__name__}")
        if get_by_list and not isinstance(weights, (ParameterTuple, tuple, list)):
            raise TypeError("For 'ForwardValueAndGrad', with get_by_list=True 'weights' must be a tuple/list of "
                            f"Parameters, got {type(weights).__name__}")
        self.network = network
        self.weights = weights
        self.get_all = get_all
        self.get_by_list = get_by_list
        self.sens_param = sens_param
        self.grad = GradOperation(get_all=get_all, get_by_list=get_by_list, sens_param=sens_param)

    def construct(self, *inputs: Any) -> tuple:
        fwd_inputs = inputs[:-1] if self.sens_param else inputs
        loss = self.network(*fwd_inputs)
        grad_fn = self.grad(self.network, self.weights) if self.get_by_list else self.grad(self.network)
        return loss, grad_fn(*inputs)


class TrainOneStepCell(Cell):
    r"""One training step: the network's loss, its gradients with respect to the optimizer's parameters
    (scaled by ``sens``), then the optimizer update. One forward and one backward pass.

    Args:
        network (Cell): the network with its loss (for example a :class:`WithLossCell`).
        optimizer (Optimizer): the optimizer.
        sens (numbers.Number): the backward seed (a loss scale). Default: ``None`` (1.0).
        return_grad (bool): also return ``{parameter name: gradient}``. Default: ``False``.

    Inputs:
        - **\*inputs** - the network's inputs.

    Outputs:
        Tensor, the loss (the value before the update); with ``return_grad``, (loss, gradients dict).

    Examples:
        >>> net = nn.Dense(3, 2)
        >>> data, label = Tensor(np.ones((4, 3), np.float32)), Tensor(np.zeros((4, 2), np.float32))
        >>> optim = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
        >>> train_net = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), optim)
        >>> loss = train_net(data, label)
    """

    def __init__(self, network: Cell, optimizer: Any, sens: Any = None, return_grad: bool = False) -> None:
        super().__init__(auto_prefix=False)
        self.network = network
        self.network.set_grad()
        self.optimizer = optimizer
        self.weights = optimizer.parameters
        if sens is not None and not isinstance(sens, Tensor) and sens == 0:
            raise ValueError("The input argument of 'sens' can not be 0.")
        self.sense_flag = sens is not None
        self.sens = 1.0 if sens is None else sens
        self.return_grad = return_grad
        if return_grad:
            self.weights_name = [p.name for p in optimizer.parameters]
        # as MindSpore: under DATA_PARALLEL / HYBRID_PARALLEL the gradients are all-reduced across the ranks;
        # otherwise an Identity child cell: the wrapper prints (grad_reducer): Identity() as in MindSpore
        from cellonnx.nn.layer.basic import Identity

        self.reducer_flag = _is_data_parallel()
        self.grad_reducer = Identity()
        if self.reducer_flag:
            from cellonnx.nn.wrap.grad_reducer import DistributedGradReducer

            self.grad_reducer = DistributedGradReducer(self.weights, _get_gradients_mean(), _get_device_num())

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if tracing_step():  # inside a compiled step (a jit function): part of its graph
            return self.run_construct(args, kwargs)
        if not _ctx.mode and not _cell._graph_depth[0] and not _cell._TRACING and not kwargs:
            from cellonnx.graph.compile import run_graph_mode  # GRAPH_MODE: one compiled step

            if not self._checked:
                self._self_check()
            return run_graph_mode(self, *args, step=True)
        return _eager(self, args, kwargs, traceable=False)

    def construct(self, *inputs: Any) -> Any:
        loss, grads = _loss_and_grads(self.network, inputs, self.weights, self.sens if self.sense_flag else None)
        grads = self.grad_reducer(grads)
        self.optimizer(grads)
        if self.return_grad:
            return loss, {name: g for name, g in zip(self.weights_name, grads)}
        return loss


class WithEvalCell(Cell):
    r"""The network's output and loss for evaluation: ``(loss, outputs, label)``.

    Args:
        network (Cell): the network.
        loss_fn (Cell): the loss function.
        add_cast_fp32 (bool): compute the loss on float32 outputs and labels. Default: ``False``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> net = nn.Dense(3, 2)
        >>> eval_net = nn.WithEvalCell(net, nn.MSELoss())
        >>> x = Tensor(np.ones((4, 3)), ms.float32)
        >>> label = Tensor(np.zeros((4, 2)), ms.float32)
        >>> loss, outputs, labels = eval_net(x, label)
        >>> outputs.shape
        (4, 2)
    """

    def __init__(self, network: Cell, loss_fn: Any, add_cast_fp32: bool = False) -> None:
        super().__init__(auto_prefix=False)
        if not isinstance(add_cast_fp32, bool):
            raise TypeError(f"For 'WithEvalCell', 'add_cast_fp32' must be a bool, got {type(add_cast_fp32).__name__}")
        self._network = network
        self._loss_fn = loss_fn
        self.add_cast_fp32 = add_cast_fp32

    def construct(self, data: Any, label: Any) -> tuple:
        outputs = self._network(data)
        if self.add_cast_fp32:
            from cellonnx.ops.prims.math import cast
            label = cast(label, np.float32) if isinstance(label, Tensor) and \
                label.asnumpy().dtype.kind == "f" else label
            outputs = cast(outputs, np.float32)
        return self._loss_fn(outputs, label), outputs, label


class ParameterUpdate(Cell):
    r"""Assign its input to a parameter and return the input (``nn.ParameterUpdate``).

    Args:
        param (Parameter): the parameter to overwrite.

    Examples:
        >>> net = nn.Dense(3, 2)
        >>> update = nn.ParameterUpdate(net.weight)
        >>> _ = update(Tensor(np.zeros((2, 3), np.float32)))
        >>> print(net.weight.asnumpy().sum())
        0.0
    """

    def __init__(self, param: Parameter) -> None:
        super().__init__(auto_prefix=False)
        if not isinstance(param, Parameter):
            raise TypeError(f"For 'ParameterUpdate', 'param' must be a Parameter, got {type(param).__name__}")
        self._param = param

    def construct(self, x: Any) -> Any:
        self._param.set_data(x)
        return x
