"""gluon.nn normalization layers with MXNet 2.x signatures: BatchNorm, SyncBatchNorm, InstanceNorm, LayerNorm,
GroupNorm.

MXNet facts kept here: BatchNorm's running statistics follow ``running = momentum * running + (1 - momentum) *
batch`` with the *biased* batch variance; ``scale=False`` fixes gamma at 1 (MXNet's fix_gamma) and a training
pass stores 1 in it (MXNet 1.9 CPU writes the running statistics and the fixed gamma in the backward pass,
after a training forward; here the training forward writes them, so they agree once backward has run);
InstanceNorm's default is ``scale=False``; MXNet 1.x stored GroupNorm gamma/beta per group (shape
(num_groups,)), 2.x per channel
- per-group values loaded from a 1.x file are expanded to per-channel.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import ops
from cellonnx.converters.mapping import convert_names
from cellonnx.gluon.hybrid import HybridBlock
from cellonnx.gluon.nn.basic_layers import training
from cellonnx.gluon.parameter import Parameter
from cellonnx.graph import trace as _trace
from cellonnx.ops.prims.norm import BatchNormInfer, BatchNormTrain
from cellonnx.tensor import Parameter as CoreParameter
from cellonnx.tensor import Tensor

__all__ = ["BatchNorm", "GroupNorm", "InstanceNorm", "LayerNorm", "SyncBatchNorm"]


def _to_axis(x: Tensor, axis: int, target: int) -> tuple[Tensor, list[int] | None]:
    """``x`` with ``axis`` moved to position ``target``, and the permutation that moves it back."""
    nd = x.ndim
    axis, target = axis % nd, target % nd
    if axis == target:
        return x, None
    perm = [i for i in range(nd) if i != axis]
    perm.insert(target, axis)
    back = [perm.index(i) for i in range(nd)]
    return ops.transpose(x, tuple(perm)), back


def batch_norm(x: Tensor, gamma: Tensor, beta: Tensor, running_mean: Tensor, running_var: Tensor, eps: float,
               momentum: float, fix_gamma: bool, use_global_stats: bool, axis: int, train: bool) -> Tensor:
    """MXNet's BatchNorm over channel ``axis``: batch statistics when ``train`` (and not use_global_stats),
    which also move the running statistics (``momentum`` weighs the old value, the batch variance is the
    biased one); the running statistics otherwise. ``fix_gamma`` uses 1 for gamma and stores 1 in it after a
    training pass."""
    x, back = _to_axis(x, axis, 1)
    g = ops.ones_like(gamma) if fix_gamma else gamma
    if train and not use_global_stats:
        y, mean, var = BatchNormTrain.apply(x, g, beta, eps=eps)
        if not _trace._current:
            m = x._data.size // x._data.shape[1]
            biased = var._data * ((m - 1) / m)  # the op reports the unbiased variance; MXNet keeps the biased
            for stat, batch in ((running_mean, mean._data), (running_var, biased)):
                new = (momentum * stat._data + (1.0 - momentum) * batch).astype(stat._data.dtype)
                if isinstance(stat, CoreParameter):
                    stat._assign_array(new)
                else:
                    stat._data = new
            if fix_gamma and isinstance(gamma, CoreParameter):  # MXNet stores the fixed gamma as 1
                gamma._assign_array(np.ones_like(gamma._data))
        elif _trace.tracing_step():  # a compiled training graph: the update is part of it
            _traced_update(x, mean, var, running_mean, running_var, momentum)
            if fix_gamma and isinstance(gamma, CoreParameter):
                from cellonnx.ops.operations._util import assign_to

                assign_to(gamma, ops.ones_like(gamma), "BatchNorm")
    else:
        y = BatchNormInfer.apply(x, running_mean, running_var, g, beta, eps=eps)
    return ops.transpose(y, tuple(back)) if back is not None else y


def _traced_update(x: Tensor, mean: Tensor, var: Tensor, running_mean: Tensor, running_var: Tensor,
                   momentum: float) -> None:
    """The running statistics' update as graph values (the batch size may be a dynamic dim)."""
    from cellonnx.ops.operations._util import assign_to
    from cellonnx.ops.prims.array_misc import dyn_shape

    m = ops.div(ops.prod(ops.cast(dyn_shape(x), var.dtype)), float(x._data.shape[1]))
    biased = ops.mul(var, ops.div(ops.sub(m, 1.0), m))
    for stat, batch in ((running_mean, mean), (running_var, biased)):
        if isinstance(stat, CoreParameter):
            assign_to(stat, ops.add(ops.mul(stat, momentum), ops.mul(batch, 1.0 - momentum)), "BatchNorm")


def _channel_params(owner: HybridBlock, scale: bool, center: bool, in_channels: int, gamma_init: Any,
                    beta_init: Any) -> None:
    owner.gamma = Parameter("gamma", grad_req="write" if scale else "null", shape=(in_channels,),
                            init=gamma_init,
                            allow_deferred_init=True, differentiable=scale)
    owner.beta = Parameter("beta", grad_req="write" if center else "null", shape=(in_channels,),
                           init=beta_init,
                           allow_deferred_init=True, differentiable=center)


class BatchNorm(HybridBlock):
    """Batch normalization over the channel ``axis``: batch statistics in training (``autograd.record()``),
    running statistics in inference.

    Args:
        axis: the channel axis. Default: 1.
        momentum: weight of the old running statistic. Default: 0.9.
        epsilon: added to the variance. Default: 1e-5.
        center: learn beta. Default: True.
        scale: learn gamma; False fixes it at 1. Default: True.
        use_global_stats: always normalize with the running statistics. Default: False.
        beta_initializer, gamma_initializer, running_mean_initializer, running_variance_initializer: Default:
            'zeros', 'ones', 'zeros', 'ones'.
        in_channels: channel count; 0 infers it at the first forward pass. Default: 0.

    Parameters are gamma, beta, running_mean and running_var (the last two with grad_req 'null').

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> from cellonnx.mxnet import np, npx, gluon, autograd
        >>> npx.set_np()
        >>> bn = gluon.nn.BatchNorm(in_channels=2)
        >>> bn.initialize()
        >>> x = np.array([[1.0, 2.0], [3.0, 6.0]])
        >>> print(bn(x))
        [[0.999995 1.99999 ]
         [2.999985 5.99997 ]]
        >>> with autograd.record():
        ...     y = bn(x)
        >>> print(y.asnumpy().round(4))
        [[-1. -1.]
         [ 1.  1.]]
    """

    def __init__(self, axis: int = 1, momentum: float = 0.9, epsilon: float = 1e-5, center: bool = True,
                 scale: bool = True, use_global_stats: bool = False, beta_initializer: Any = "zeros",
                 gamma_initializer: Any = "ones", running_mean_initializer: Any = "zeros",
                 running_variance_initializer: Any = "ones", in_channels: int = 0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._kwargs = {"axis": axis, "eps": epsilon, "momentum": momentum, "fix_gamma": not scale,
                        "use_global_stats": use_global_stats}
        self._axis = axis
        _channel_params(self, scale, center, in_channels, gamma_initializer, beta_initializer)
        self.running_mean = Parameter("running_mean", grad_req="null", shape=(in_channels,),
                                      init=running_mean_initializer, allow_deferred_init=True,
                                      differentiable=False)
        self.running_var = Parameter("running_var", grad_req="null", shape=(in_channels,),
                                     init=running_variance_initializer, allow_deferred_init=True,
                                     differentiable=False)

    def cast(self, dtype: Any) -> BatchNorm:
        # as MXNet: batch norm statistics stay in float32 when the network goes to float16
        super().cast("float32" if np.dtype(getattr(dtype, "np_dtype", dtype)) == np.float16 else dtype)
        return self

    def infer_shape(self, x: Tensor, *args: Any) -> None:
        c = int(x.shape[self._axis % x.ndim])
        for p in (self.gamma, self.beta, self.running_mean, self.running_var):
            p.shape = (c,)

    def forward(self, x: Tensor) -> Tensor:
        k = self._kwargs
        return batch_norm(x, self.gamma, self.beta, self.running_mean, self.running_var, float(k["eps"]),
                          float(k["momentum"]), bool(k["fix_gamma"]), bool(k["use_global_stats"]), self._axis,
                          training(self))

    def __repr__(self) -> str:
        content = ", ".join(f"{k}={v!r}" for k, v in self._kwargs.items())
        c = self.gamma.shape[0] if self.gamma.shape else 0
        return f"{type(self).__name__}({content}, in_channels={c if c else None})"


class SyncBatchNorm(BatchNorm):
    """Batch normalization with statistics synchronized across devices: with ``num_devices`` > 1 the batch
    statistics are those of every rank's batch together (one device per MPI rank; see docs/distributed.md);
    with one device it is BatchNorm over the channel axis 1.

    Args:
        in_channels, momentum, epsilon, center, scale, use_global_stats, *_initializer: as BatchNorm.
        num_devices: devices (ranks) to synchronize over; the run's rank count, or 1 / None.

    Examples:
        >>> from cellonnx import gluon
        >>> from cellonnx.mxnet import nd
        >>> from cellonnx.gluon.contrib.nn import SyncBatchNorm
        >>> bn = SyncBatchNorm(in_channels=2)
        >>> bn.initialize()
        >>> x = nd.array([[1.0, 2.0], [3.0, 6.0]])
        >>> print(bn(x).asnumpy().round(4))
        [[1. 2.]
         [3. 6.]]
        >>> from cellonnx.mxnet import autograd
        >>> with autograd.record():
        ...     y = bn(x)
        >>> print(y.asnumpy().round(4))
        [[-1. -1.]
         [ 1.  1.]]
    """

    def __init__(self, in_channels: int = 0, num_devices: int | None = None, momentum: float = 0.9,
                 epsilon: float = 1e-5, center: bool = True, scale: bool = True,
                 use_global_stats: bool = False,
                 beta_initializer: Any = "zeros", gamma_initializer: Any = "ones",
                 running_mean_initializer: Any = "zeros", running_variance_initializer: Any = "ones",
                 **kwargs: Any) -> None:
        ndev = 1 if num_devices is None else num_devices
        if ndev > 1:
            _check_devices(ndev)
        super().__init__(1, momentum, epsilon, center, scale, use_global_stats, beta_initializer,
                         gamma_initializer, running_mean_initializer, running_variance_initializer,
                         in_channels, **kwargs)
        self._kwargs["ndev"] = ndev

    def forward(self, x: Tensor) -> Tensor:
        k = self._kwargs
        if k["ndev"] == 1 or not training(self) or k["use_global_stats"]:
            return super().forward(x)
        from cellonnx.communication.sync_norm import batch_statistics

        mean, var, _ = batch_statistics(x)  # over every rank's batch: MXNet keeps the biased variance
        shape = (1, -1) + (1,) * (x.ndim - 2)
        gamma = ops.ones_like(self.gamma) if k["fix_gamma"] else self.gamma
        scale = ops.mul(ops.rsqrt(ops.add(var, float(k["eps"]))), gamma)
        y = ops.add(ops.mul(ops.sub(x, ops.reshape(mean, shape)), ops.reshape(scale, shape)),
                    ops.reshape(self.beta, shape))
        if not _trace._current:
            mom = float(k["momentum"])
            for stat, batch in ((self.running_mean, mean._data), (self.running_var, var._data)):
                stat._assign_array((mom * stat._data + (1.0 - mom) * batch).astype(stat._data.dtype))
        return y


def _check_devices(ndev: int) -> None:
    """num_devices > 1: one device per MPI rank, so the run must have that many ranks."""
    from cellonnx.communication import _mpi

    size = _mpi.STATE.world.Get_size() if _mpi.initialized() else 1
    if size != ndev:
        raise ValueError(f"SyncBatchNorm(num_devices={ndev}): the statistics are synchronized across "
                         f"the ranks of a distributed run, one device per rank, but this run has {size} "
                         f"(start it with `mpirun -n {ndev}` and call cellonnx.communication.init() first)")


class _OneAxisNorm(HybridBlock):
    """InstanceNorm and LayerNorm: gamma and beta over the channels of one ``axis``, inferred at the first
    call."""

    def __init__(self, axis: int, epsilon: float, center: bool, scale: bool, beta_initializer: Any,
                 gamma_initializer: Any, in_channels: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._kwargs = {"eps": epsilon, "axis": axis, "center": center, "scale": scale}
        self._axis = axis
        self._epsilon = epsilon
        _channel_params(self, scale, center, in_channels, gamma_initializer, beta_initializer)

    def infer_shape(self, x: Tensor, *args: Any) -> None:
        c = int(x.shape[self._axis % x.ndim])
        self.gamma.shape = (c,)
        self.beta.shape = (c,)

    def __repr__(self) -> str:
        content = ", ".join(f"{k}={v!r}" for k, v in self._kwargs.items())
        c = self.gamma.shape[0] if self.gamma.shape else 0
        return f"{type(self).__name__}({content}, in_channels={c})"


class InstanceNorm(_OneAxisNorm):
    """Instance normalization: each sample's channel normalized over the other axes,
    ``(x - mean) / sqrt(var + epsilon) * gamma + beta``.

    Args:
        axis: the channel axis. Default: 1.
        epsilon: Default: 1e-5.
        center: learn beta. Default: True.
        scale: learn gamma. Default: False (MXNet's default).
        beta_initializer, gamma_initializer: Default: 'zeros', 'ones'.
        in_channels: 0 infers it at the first forward pass. Default: 0.

    Examples:
        >>> from cellonnx.mxnet import gluon, nd
        >>> norm = gluon.nn.InstanceNorm(in_channels=2)
        >>> norm.initialize()
        >>> x = nd.array([[[1.0, 3.0], [2.0, 6.0]]])
        >>> print(norm(x).asnumpy().round(4))
        [[[-1.  1.]
          [-1.  1.]]]
    """

    def __init__(self, axis: int = 1, epsilon: float = 1e-5, center: bool = True, scale: bool = False,
                 beta_initializer: Any = "zeros", gamma_initializer: Any = "ones", in_channels: int = 0,
                 **kwargs: Any) -> None:
        super().__init__(axis, epsilon, center, scale, beta_initializer, gamma_initializer, in_channels,
                         **kwargs)

    def forward(self, x: Tensor) -> Tensor:
        x, back = _to_axis(x, self._axis, 1)
        y = ops.instance_norm(x, weight=self.gamma, bias=self.beta, eps=float(self._epsilon))
        return ops.transpose(y, tuple(back)) if back is not None else y


class LayerNorm(_OneAxisNorm):
    """Layer normalization over one ``axis``: ``(x - mean) / sqrt(var + epsilon) * gamma + beta``.

    Args:
        axis: the normalized axis. Default: -1.
        epsilon: Default: 1e-5.
        center, scale: learn beta / gamma. Default: True.
        beta_initializer, gamma_initializer: Default: 'zeros', 'ones'.
        in_channels: size of ``axis``; 0 infers it at the first forward pass. Default: 0.

    Examples:
        >>> from cellonnx.mxnet import np, npx, gluon
        >>> npx.set_np()
        >>> ln = gluon.nn.LayerNorm(in_channels=4)
        >>> ln.initialize()
        >>> x = np.array([[1.0, 2.0, 3.0, 4.0]])
        >>> print(ln(x).asnumpy().round(4))
        [[-1.3416 -0.4472  0.4472  1.3416]]
    """

    def __init__(self, axis: int = -1, epsilon: float = 1e-5, center: bool = True, scale: bool = True,
                 beta_initializer: Any = "zeros", gamma_initializer: Any = "ones", in_channels: int = 0,
                 **kwargs: Any) -> None:
        super().__init__(axis, epsilon, center, scale, beta_initializer, gamma_initializer, in_channels,
                         **kwargs)

    def forward(self, x: Tensor) -> Tensor:
        x, back = _to_axis(x, self._axis, -1)
        y = ops.layer_norm_axes(x, -1, -1, self.gamma, self.beta, float(self._epsilon))
        return ops.transpose(y, tuple(back)) if back is not None else y


class GroupNorm(HybridBlock):
    """Group normalization: the channels (axis 1) split into ``num_groups`` groups, each normalized over its
    channels and the other axes, then per-channel gamma and beta.

    Args:
        num_groups: Default: 1.
        epsilon: Default: 1e-5.
        center, scale: learn beta / gamma. Default: True.
        beta_initializer, gamma_initializer: Default: 'zeros', 'ones'.
        in_channels: channel count; 0 infers it at the first forward pass. Default: 0.

    MXNet 1.x files hold per-group gamma/beta (shape (num_groups,)); loading them expands each group's value
    to its channels.

    Examples:
        >>> from cellonnx.mxnet import gluon, nd
        >>> gn = gluon.nn.GroupNorm(num_groups=2)
        >>> gn.initialize()
        >>> x = nd.arange(8).reshape((1, 4, 2))
        >>> print(gn(x).asnumpy().round(4))
        [[[-1.3416 -0.4472]
          [ 0.4472  1.3416]
          [-1.3416 -0.4472]
          [ 0.4472  1.3416]]]
    """

    def __init__(self, num_groups: int = 1, epsilon: float = 1e-5, center: bool = True, scale: bool = True,
                 beta_initializer: Any = "zeros", gamma_initializer: Any = "ones", in_channels: int = 0,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if in_channels % num_groups:
            raise ValueError(f"GroupNorm: in_channels {in_channels} is not divisible by num_groups "
                             f"{num_groups}")
        self._kwargs = {"eps": epsilon, "num_groups": num_groups, "center": center, "scale": scale}
        self._num_groups = num_groups
        self._epsilon = epsilon
        _channel_params(self, scale, center, in_channels, gamma_initializer, beta_initializer)

    def infer_shape(self, x: Tensor, *args: Any) -> None:
        self.gamma.shape = (int(x.shape[1]),)
        self.beta.shape = (int(x.shape[1]),)

    def _convert_loaded(self, local: str, value: Any) -> Any:
        if local not in ("gamma", "beta"):
            return value
        arr = np.asarray(value)
        channels = self.gamma.shape[0] if self.gamma.shape else 0
        if arr.shape != (self._num_groups,) or channels == self._num_groups:
            return arr
        if not channels:
            return None  # per-group values and the channel count unknown until the first forward pass
        spec = {local: {"kind": "GroupNorm", "num_groups": self._num_groups, "num_channels": channels}}
        return convert_names({local: arr}, spec, "mxnet1", "mxnet").tensors[local]

    def forward(self, x: Tensor) -> Tensor:
        return ops.group_norm(x, self._num_groups, self.gamma, self.beta, float(self._epsilon))

    def __repr__(self) -> str:
        content = ", ".join(f"{k}={v!r}" for k, v in self._kwargs.items())
        return f"GroupNorm({content}, in_channels={self.gamma.shape[0] if self.gamma.shape else 0})"
