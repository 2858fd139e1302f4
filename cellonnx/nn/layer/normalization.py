"""Normalization layers: BatchNorm1d/2d/3d, SyncBatchNorm, LayerNorm, LayerNormExt, GroupNorm,
InstanceNorm1d/2d/3d, with MindSpore's parameter names (gamma, beta, moving_mean, moving_variance), momentum
convention and operator attributes (bn_train / bn_infer, layer_norm, instance_bn)."""
from __future__ import annotations

from typing import Any

from cellonnx import dtypes, ops
from cellonnx.nn.cell import Cell
from cellonnx.nn.layer._primitive import Primitive
from cellonnx.nn.layer._util import check_positive_int, check_type, gamma_beta, moving_statistics, new_param
from cellonnx.tensor import Parameter, Tensor

__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "GroupNorm", "InstanceNorm1d", "InstanceNorm2d",
           "InstanceNorm3d", "LayerNorm", "LayerNormExt", "SyncBatchNorm"]


def _stats(x: Tensor, axes: tuple[int, ...]) -> tuple[Tensor, Tensor]:
    mean = ops.mean(x, axes)
    return mean, ops.mean(ops.square(x - ops.reshape(mean, (1, -1) + (1,) * (x.ndim - 2))), axes)


def _bn_train(x: Tensor, gamma: Tensor, beta: Tensor, mean: Tensor, variance: Tensor, *, epsilon: float,
              momentum: float) -> tuple[Tensor, ...]:
    """MindSpore's BatchNorm(is_training=True) call: (y, batch mean, batch variance, and the two again); the
    moving statistics are updated in place."""
    y = ops.batch_norm(x, mean, variance, gamma, beta, training=True, momentum=momentum, eps=epsilon)
    m, v = _stats(x, (0,) + tuple(range(2, x.ndim)))
    return y, m, v, m, v


def _bn_infer(x: Tensor, gamma: Tensor, beta: Tensor, mean: Tensor, variance: Tensor, *,
              epsilon: float) -> tuple[Tensor, ...]:
    y = ops.batch_norm(x, mean, variance, gamma, beta, training=False, eps=epsilon)
    return y, mean, variance, mean, variance


class _BatchNorm(Cell):
    _ranks: tuple[int, ...] = ()

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.9, affine: bool = True,
                 gamma_init: Any = "ones", beta_init: Any = "zeros", moving_mean_init: Any = "zeros",
                 moving_var_init: Any = "ones", use_batch_statistics: bool | None = None,
                 data_format: str = "NCHW", dtype: Any = dtypes.float32) -> None:
        super().__init__()
        owner = self.cls_name
        if isinstance(num_features, bool) or not isinstance(num_features, int):
            raise TypeError(f"For '{owner}', the 'num_features' must be int, but got {type(num_features).__name__}.")
        if num_features < 1:
            raise ValueError(f"For '{owner}', the 'num_features' must be at least 1, but got {num_features}.")
        if momentum < 0 or momentum > 1:
            raise ValueError(f"For '{owner}', the 'momentum' must be a number in range [0, 1], but got {momentum}.")
        if data_format != "NCHW":
            raise ValueError(f"For '{owner}', only the 'NCHW' format is supported, but got {data_format!r}.")
        if use_batch_statistics is not None and not isinstance(use_batch_statistics, bool):
            raise ValueError(f"For '{owner}', the 'use_batch_statistics' must be a boolean value or None, but got "
                             f"{use_batch_statistics}.")
        self.use_batch_statistics = use_batch_statistics
        self.num_features = num_features
        self.eps = eps
        self.format = data_format
        self.gamma_init, self.beta_init = gamma_init, beta_init
        self.moving_mean_init, self.moving_var_init = moving_mean_init, moving_var_init
        self.moving_mean, self.moving_variance = moving_statistics(moving_mean_init, moving_var_init,
                                                                   num_features, dtype)
        self.gamma, self.beta = gamma_beta(gamma_init, beta_init, num_features, dtype, affine)
        # MindSpore keeps the functional convention here: moving = (1 - self.momentum) * moving
        # + self.momentum * batch, i.e. the constructor's ``momentum`` weighs the old moving statistic
        self.momentum = 1.0 - momentum
        self.bn_train = Primitive("BatchNorm", _bn_train, epsilon=eps, momentum=self.momentum)
        self.bn_infer = Primitive("BatchNorm", _bn_infer, epsilon=eps)

    def _check_input_dim(self, x: Tensor) -> None:
        if x.ndim not in self._ranks:
            raise ValueError(f"For '{self.cls_name}', the input must have {' or '.join(map(str, self._ranks))} "
                             f"dims, but got {x.ndim} (shape {tuple(x.shape)}).")

    def construct(self, x: Tensor) -> Tensor:
        self._check_input_dim(x)
        use_batch = self.training if self.use_batch_statistics is None else self.use_batch_statistics
        return ops.batch_norm(x, self.moving_mean, self.moving_variance, self.gamma, self.beta,
                              training=use_batch, momentum=self.momentum, eps=self.eps)

    def extend_repr(self) -> str:
        return (f"num_features={self.num_features}, eps={self.eps}, momentum={1.0 - self.momentum}, "
                f"gamma={self.gamma}, beta={self.beta}, moving_mean={self.moving_mean}, "
                f"moving_variance={self.moving_variance}")


class BatchNorm1d(_BatchNorm):
    r"""Batch normalization over (N, C) or (N, C, L) inputs.

    In training (or with ``use_batch_statistics=True``) the output uses the batch statistics and the moving
    statistics are updated as ``moving = momentum * moving + (1 - momentum) * batch`` (the moving variance
    takes the unbiased batch variance); in evaluation the moving statistics are used.

    Args:
        num_features: C.
        eps: added to the variance. Default: 1e-5.
        momentum: weight of the old moving statistic. Default: 0.9.
        affine: whether gamma and beta are trained. Default: True.
        gamma_init, beta_init, moving_mean_init, moving_var_init: initializers. Default: 'ones', 'zeros',
            'zeros', 'ones'.
        use_batch_statistics: None (batch statistics in training, moving ones in evaluation), True or False.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> net = nn.BatchNorm1d(num_features=3)
        >>> x = Tensor(np.array([[1.0, 2.0, 3.0], [3.0, 6.0, 9.0]]), ms.float32)
        >>> print(net(x).asnumpy().round(4))
        [[1. 2. 3.]
         [3. 6. 9.]]
    """

    _ranks = (2, 3)


class BatchNorm2d(_BatchNorm):
    """Batch normalization over (N, C, H, W) inputs; arguments as BatchNorm1d.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> net = nn.BatchNorm2d(num_features=2)
        >>> x = Tensor(np.array([[[[1.0, 3.0]], [[2.0, 6.0]]]]), ms.float32)
        >>> x.shape
        (1, 2, 1, 2)
        >>> _ = net.set_train(True)
        >>> print(net(x).asnumpy().round(4))
        [[[[-1.  1.]]
        <BLANKLINE>
          [[-1.  1.]]]]
        >>> print(net.moving_mean.asnumpy().round(4))
        [0.2 0.4]
    """

    _ranks = (4,)


class BatchNorm3d(Cell):
    """Batch normalization over (N, C, D, H, W) inputs: as MindSpore, a BatchNorm2d (``bn2d``, whose
    parameters the checkpoint names ``bn2d.gamma`` ...) applied to the input viewed as (N, C, D * H, W).
    Arguments as BatchNorm1d.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> net = nn.BatchNorm3d(num_features=2)
        >>> x = Tensor(np.ones((1, 2, 2, 3, 3)), ms.float32)
        >>> net(x).shape
        (1, 2, 2, 3, 3)
    """

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.9, affine: bool = True,
                 gamma_init: Any = "ones", beta_init: Any = "zeros", moving_mean_init: Any = "zeros",
                 moving_var_init: Any = "ones", use_batch_statistics: bool | None = None,
                 dtype: Any = dtypes.float32) -> None:
        super().__init__()
        self.bn2d = BatchNorm2d(num_features, eps, momentum, affine, gamma_init, beta_init, moving_mean_init,
                                moving_var_init, use_batch_statistics, data_format="NCHW", dtype=dtype)

    def construct(self, x: Tensor) -> Tensor:
        if x.ndim != 5:
            raise ValueError(f"For '{self.cls_name}', the in_shape must have 5 dims, but got {x.ndim}.")
        shape = tuple(x.shape)
        out = self.bn2d(ops.reshape(x, (shape[0], shape[1], shape[2] * shape[3], shape[4])))
        return ops.reshape(out, shape)


class SyncBatchNorm(_BatchNorm):
    """Batch normalization whose batch statistics are those of every rank of a group (MindSpore's
    SyncBatchNorm over cellonnx.communication): with ``process_groups`` None, all ranks of the job once
    ``cellonnx.communication.init()`` has run under ``mpirun``; with a list of rank lists, each rank syncs with
    the ranks of its own list (a list of one rank, or 0 for ``process_groups``, normalizes locally). Without
    ``init()`` there is one rank and it is BatchNorm over (N, C) or (N, C, H, W) inputs.

    Args:
        num_features, eps, momentum, affine, gamma_init, beta_init, moving_mean_init, moving_var_init,
        use_batch_statistics, dtype: as BatchNorm1d. process_groups (list[list[int]], optional): Default None.

    Examples:
        >>> net = nn.SyncBatchNorm(num_features=2)
        >>> _ = net.set_train()
        >>> x = Tensor(np.array([[[[1.0]], [[2.0]]], [[[3.0]], [[6.0]]]]), ms.float32)
        >>> print(net(x).asnumpy().round(4).reshape(2, 2))
        [[-1. -1.]
         [ 1.  1.]]
        >>> print(net.moving_mean.asnumpy().round(4))
        [0.2 0.4]
    """

    _ranks = (2, 4)
    _groups: dict[str, str] = {}  # "0_1" -> the group created for ranks 0 and 1 (shared by every layer)

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.9, affine: bool = True,
                 gamma_init: Any = "ones", beta_init: Any = "zeros", moving_mean_init: Any = "zeros",
                 moving_var_init: Any = "ones", use_batch_statistics: bool | None = None,
                 process_groups: Any = None, dtype: Any = dtypes.float32) -> None:
        from cellonnx.communication import _mpi, management
        super().__init__(num_features, eps, momentum, affine, gamma_init, beta_init, moving_mean_init,
                         moving_var_init, use_batch_statistics, dtype=dtype)
        self.process_groups = process_groups
        self.is_global = False
        self.group_name: str | None = None
        if process_groups == 0:
            return
        if process_groups is not None and not isinstance(process_groups, list):
            raise TypeError(f"For '{self.cls_name}', 'process_groups' must be a list, but got "
                            f"{type(process_groups).__name__}.")
        if not _mpi.initialized():
            if process_groups is not None:
                raise RuntimeError(f"For '{self.cls_name}', 'process_groups' needs the communication started: "
                                   "call cellonnx.communication.init() in a job launched with mpirun.")
            return
        self.rank_id, self.rank_size = management.get_rank(), management.get_group_size()
        if process_groups is None:
            self.is_global = self.rank_size > 1
            self.group_name = management.GlobalComm.WORLD_COMM_GROUP if self.is_global else None
            self.group_device_num = self.rank_size
            return
        self._check_rank_ids(process_groups)
        for sub_group in process_groups:
            if not isinstance(sub_group, list):
                raise TypeError(f"For '{self.cls_name}', each entry of 'process_groups' must be a list, but "
                                f"got {type(sub_group).__name__}.")
            if self.rank_id in sub_group and len(sub_group) > 1:
                self.is_global, self.group_device_num = True, len(sub_group)
                self.group_name = self._group(sub_group)

    def _check_rank_ids(self, process_groups: list[Any]) -> None:
        seen: set[int] = set()
        for rank in (r for sub in process_groups for r in (sub if isinstance(sub, list) else [])):
            if isinstance(rank, bool) or not isinstance(rank, int) or not 0 <= rank < self.rank_size:
                raise ValueError(f"For '{self.cls_name}', rank id in 'process_groups' must be in range "
                                 f"[0, {self.rank_size}), but got {rank!r}.")
            if rank in seen:
                raise ValueError(f"For '{self.cls_name}', rank id in 'process_groups' must not be duplicated, "
                                 f"but got {process_groups}.")
            seen.add(rank)

    @classmethod
    def _group(cls, ranks: list[int]) -> str:
        """The group of ``ranks``, created once per job with MindSpore's naming (size and a hash)."""
        import hashlib

        from cellonnx.communication import management
        key = "_".join(str(r) for r in ranks)
        if key not in cls._groups:
            name = f"{len(ranks)}_{hashlib.sha256(key.encode()).hexdigest()}"
            management.create_group(name, ranks)
            cls._groups[key] = name
        return cls._groups[key]

    def construct(self, x: Tensor) -> Tensor:
        self._check_input_dim(x)
        use_batch = self.training if self.use_batch_statistics is None else self.use_batch_statistics
        if not (self.is_global and use_batch):
            return super().construct(x)
        from cellonnx.communication.sync_norm import sync_batch_norm
        return sync_batch_norm(x, self.moving_mean, self.moving_variance, self.gamma, self.beta, training=True,
                               momentum=self.momentum, eps=self.eps, group=self.group_name)


class LayerNorm(Cell):
    r"""Layer normalization: normalise over the axes from ``begin_norm_axis`` on, then scale by gamma and
    shift by beta (shaped ``normalized_shape``, applied from ``begin_params_axis`` on).

    Args:
        normalized_shape: tuple or list: the shape of gamma and beta.
        begin_norm_axis: first normalised axis. Default: -1.
        begin_params_axis: first axis gamma / beta apply to. Default: -1.
        gamma_init, beta_init: Default: 'ones', 'zeros'.
        epsilon: added to the variance. Default: 1e-7.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([[1.0, 2.0, 3.0, 4.0], [2.0, 2.0, 2.0, 2.0]]), ms.float32)
        >>> layer_norm = nn.LayerNorm((4,), begin_norm_axis=-1, begin_params_axis=-1)
        >>> print(layer_norm(x).asnumpy().round(4))
        [[-1.3416 -0.4472  0.4472  1.3416]
         [ 0.      0.      0.      0.    ]]
    """

    def __init__(self, normalized_shape: Any, begin_norm_axis: int = -1, begin_params_axis: int = -1,
                 gamma_init: Any = "ones", beta_init: Any = "zeros", epsilon: float = 1e-7,
                 dtype: Any = dtypes.float32) -> None:
        super().__init__()
        if not isinstance(normalized_shape, (tuple, list)):
            raise TypeError(f"For '{self.cls_name}', the type of 'normalized_shape' must be tuple[int] or list[int], "
                            f"but got {normalized_shape} and the type is {type(normalized_shape)}.")
        if not normalized_shape:
            raise ValueError("Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one "
                             f"element, but got normalized_shape = {normalized_shape}")
        self.normalized_shape = normalized_shape
        self.begin_norm_axis = begin_norm_axis
        self.begin_params_axis = begin_params_axis
        self.epsilon = epsilon
        self.gamma, self.beta = gamma_beta(gamma_init, beta_init, normalized_shape, dtype)
        self.layer_norm = Primitive("LayerNorm", _layer_norm_prim, begin_norm_axis=begin_norm_axis,
                                    begin_params_axis=begin_params_axis, epsilon=epsilon)

    def construct(self, input_x: Tensor) -> Tensor:
        dt = input_x.dtype
        gamma = self.gamma if self.gamma.dtype == dt else ops.cast(self.gamma, dt)
        beta = self.beta if self.beta.dtype == dt else ops.cast(self.beta, dt)
        return ops.layer_norm_axes(input_x, self.begin_norm_axis, self.begin_params_axis, gamma, beta, self.epsilon)

    def extend_repr(self) -> str:
        # MindSpore prints "gamma" without "=" here; kept as it prints
        return (f"normalized_shape={self.normalized_shape}, begin_norm_axis={self.begin_norm_axis}, "
                f"begin_params_axis={self.begin_params_axis}, gamma{self.gamma}, beta={self.beta}")


def _layer_norm_prim(x: Tensor, gamma: Tensor, beta: Tensor, *, begin_norm_axis: int, begin_params_axis: int,
                     epsilon: float) -> tuple[Tensor, Tensor, Tensor]:
    """MindSpore's LayerNorm call: (y, mean, variance), the statistics over the normalised axes (kept as
    1)."""
    y = ops.layer_norm_axes(x, begin_norm_axis, begin_params_axis, gamma, beta, epsilon)
    axes = tuple(range(begin_norm_axis % x.ndim, x.ndim))
    mean = ops.mean(x, axes, keep_dims=True)
    return y, mean, ops.mean(ops.square(x - mean), axes, keep_dims=True)


class LayerNormExt(Cell):
    r"""Layer normalization over the trailing ``normalized_shape`` dims with PyTorch-style arguments: the
    parameters are ``weight`` and ``bias``.

    Args:
        normalized_shape (Union[int, tuple[int], list[int]]): the normalised trailing shape.
        eps (float): Default: 1e-5.
        elementwise_affine (bool): learn ``weight`` (ones) and ``bias`` (zeros). Default: True.
        bias (bool): with elementwise_affine, whether there is a ``bias``. Default: True.
        dtype: parameter dtype. Default: None (float32).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> net = nn.LayerNormExt(normalized_shape=(4,))
        >>> x = Tensor(np.array([[1.0, 2.0, 3.0, 4.0]]), ms.float32)
        >>> print(net(x).asnumpy().round(4))
        [[-1.3416 -0.4472  0.4472  1.3416]]
    """

    def __init__(self, normalized_shape: Any, eps: float = 1e-5, elementwise_affine: bool = True,
                 bias: bool = True, dtype: Any = None) -> None:
        super().__init__()
        if isinstance(normalized_shape, int) and not isinstance(normalized_shape, bool):
            normalized_shape = (normalized_shape,)
        if not isinstance(normalized_shape, (tuple, list)):
            raise TypeError(f"For '{self.cls_name}', the type of 'normalized_shape' must be tuple[int] or "
                            f"list[int], but got {normalized_shape} and the type is "
                            f"{type(normalized_shape)}.")
        if not normalized_shape:
            raise ValueError("Expected normalized_shape to be at least 1-dimensional, i.e., containing at "
                             f"least one element, but got normalized_shape = {normalized_shape}")
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        dtype = dtypes.float32 if dtype is None else dtype
        self.weight: Parameter | None = None
        self.bias: Parameter | None = None
        if elementwise_affine:
            self.weight = new_param("ones", self.normalized_shape, dtype, "weight")
            if bias:
                self.bias = new_param("zeros", self.normalized_shape, dtype, "bias")

    def construct(self, input: Tensor) -> Tensor:
        return ops.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extend_repr(self) -> str:
        return (f"normalized_shape={self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}")


class GroupNorm(Cell):
    r"""Group normalization: the C channels of an (N, C, *) input split into ``num_groups`` groups, each
    normalised over its channels and spatial dims, then per-channel gamma and beta.

    Args:
        num_groups: number of groups (divides num_channels).
        num_channels: C.
        eps: Default: 1e-5. affine: whether gamma / beta train. Default: True.
        gamma_init, beta_init: Default: 'ones', 'zeros'.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> net = nn.GroupNorm(num_groups=2, num_channels=4)
        >>> x = Tensor(np.arange(8).reshape(1, 4, 1, 2), ms.float32)
        >>> print(net(x).asnumpy().round(4))
        [[[[-1.3416 -0.4472]]
        <BLANKLINE>
          [[ 0.4472  1.3416]]
        <BLANKLINE>
          [[-1.3416 -0.4472]]
        <BLANKLINE>
          [[ 0.4472  1.3416]]]]
    """

    def __init__(self, num_groups: int, num_channels: int, eps: float = 1e-5, affine: bool = True,
                 gamma_init: Any = "ones", beta_init: Any = "zeros", dtype: Any = dtypes.float32) -> None:
        super().__init__()
        owner = self.cls_name
        check_positive_int(owner, num_groups=num_groups, num_channels=num_channels)
        if num_channels % num_groups:
            raise ValueError(f"For '{owner}', the 'num_channels' must be divided by 'num_groups', but got "
                             f"'num_channels': {num_channels}, 'num_groups': {num_groups}.")
        check_type(owner, float, eps=eps)
        check_type(owner, bool, affine=affine)
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = eps
        self.affine = affine
        self.gamma, self.beta = gamma_beta(gamma_init, beta_init, num_channels, dtype, affine)

    def construct(self, x: Tensor) -> Tensor:
        if x.shape[1] != self.num_channels:
            raise ValueError(f"For '{self.cls_name}', the channel(the second dim of the input 'x') must be equal to "
                             f"num_channels, but got channel: {x.shape[1]}, num_channels: {self.num_channels}.")
        dt = x.dtype
        gamma = self.gamma if self.gamma.dtype == dt else ops.cast(self.gamma, dt)
        beta = self.beta if self.beta.dtype == dt else ops.cast(self.beta, dt)
        return ops.group_norm(x, self.num_groups, gamma, beta, self.eps)

    def extend_repr(self) -> str:
        return f"num_groups={self.num_groups}, num_channels={self.num_channels}"


class _InstanceNorm(Cell):
    _rank = 4

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.1, affine: bool = True,
                 gamma_init: Any = "ones", beta_init: Any = "zeros", dtype: Any = dtypes.float32) -> None:
        super().__init__()
        owner = self.cls_name
        if isinstance(num_features, bool) or not isinstance(num_features, int):
            raise TypeError(f"For '{owner}', the 'num_features' must be int, but got {type(num_features).__name__}.")
        check_type(owner, float, eps=eps, momentum=momentum)
        check_type(owner, bool, affine=affine)
        for key, val in (("gamma_init", gamma_init), ("beta_init", beta_init)):
            if isinstance(val, Tensor) and val.dtype != dtypes.float32:
                raise TypeError(f"For '{owner}', the type of '{key}' must be float32, but got {val.dtype}.")
        if num_features < 1:
            raise ValueError(f"For '{owner}', the 'num_features' must be at least 1, but got {num_features}.")
        if momentum < 0 or momentum > 1:
            raise ValueError(f"For '{owner}', the 'momentum' must be a number in range [0, 1], but got {momentum}.")
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.moving_mean, self.moving_variance = moving_statistics("zeros", "ones", num_features, dtype)
        self.gamma, self.beta = gamma_beta(gamma_init, beta_init, num_features, dtype, affine)
        self.instance_bn = Primitive("InstanceNorm", _instance_prim, epsilon=eps, momentum=momentum)

    def construct(self, x: Tensor) -> Tensor:
        if x.ndim != self._rank:
            raise ValueError(f"For '{self.cls_name}', the in_shape must have {self._rank} dims, "
                             f"but got {x.ndim}.")
        return ops.instance_norm(x, self.moving_mean, self.moving_variance, self.gamma, self.beta,
                                 use_input_stats=True, momentum=self.momentum, eps=self.eps)

    def extend_repr(self) -> str:
        return (f"num_features={self.num_features}, eps={self.eps}, momentum={self.momentum}, gamma={self.gamma}, "
                f"beta={self.beta}, moving_mean={self.moving_mean}, moving_variance={self.moving_variance}")


def _instance_prim(x: Tensor, gamma: Tensor, beta: Tensor, mean: Tensor, variance: Tensor, *, epsilon: float,
                   momentum: float) -> tuple[Tensor, Tensor, Tensor]:
    """MindSpore's InstanceNorm call: (y, updated moving mean, updated moving variance)."""
    y = ops.instance_norm(x, mean, variance, gamma, beta, use_input_stats=True, momentum=momentum,
                          eps=epsilon)
    return y, mean, variance


class InstanceNorm1d(_InstanceNorm):
    r"""Instance normalization over (N, C, L): each sample's channel is normalised over L with its own
    statistics (in training and evaluation, as MindSpore); the moving statistics are updated as
    ``moving = (1 - momentum) * moving + momentum * mean over the batch``.

    Args:
        num_features (int): C. eps (float): Default: 1e-5. momentum (float): Default: 0.1.
        affine (bool): whether gamma / beta train. Default: True.
        gamma_init, beta_init: Default: 'ones', 'zeros'.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> net = nn.InstanceNorm1d(2)
        >>> x = Tensor(np.array([[[1.0, 3.0], [2.0, 6.0]]]), ms.float32)
        >>> print(net(x).asnumpy().round(4))
        [[[-1.  1.]
          [-1.  1.]]]
    """

    _rank = 3


class InstanceNorm2d(_InstanceNorm):
    r"""Instance normalization over (N, C, H, W); arguments as InstanceNorm1d.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> net = nn.InstanceNorm2d(2)
        >>> x = Tensor(np.array([[[[1.0, 3.0]], [[2.0, 6.0]]]]), ms.float32)
        >>> print(net(x).asnumpy().round(4))
        [[[[-1.  1.]]
        <BLANKLINE>
          [[-1.  1.]]]]
    """

    _rank = 4


class InstanceNorm3d(_InstanceNorm):
    r"""Instance normalization over (N, C, D, H, W); arguments as InstanceNorm1d.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> net = nn.InstanceNorm3d(2)
        >>> net(Tensor(np.arange(16).reshape(1, 2, 2, 2, 2), ms.float32)).shape
        (1, 2, 2, 2, 2)
    """

    _rank = 5
