"""THOR (trace-based hardware-driven layer-oriented natural gradient descent): MindSpore's second-order
optimizer, the variant MindSpore runs off Ascend (``ThorGpu``).

Each Dense / Conv2d / Embedding layer of the network becomes its THOR layer (``DenseThor`` ...), which records
the covariance of its input (A) and of the gradient of its output (G). On a THOR step the optimizer inverts
the damped factors, ``(A + sqrt(d) I)^-1`` and ``(G / loss_scale^2 * batch_size^2 + sqrt(d) I)^-1``, in
diagonal blocks of 128 (MindSpore's CholeskyTrsm: each block through its Cholesky factor, the last block
padded with the identity), keeps them, and preconditions the layer's weight gradient ``g -> G^-1 g A^-1``
(UpdateThorGradient, blockwise). Between THOR steps (``thor`` False: every step but one in ``frequency``
when trained by ModelThor) the kept inverses are used again. LayerNorm gradients are divided by
``g^2 / batch_size + sqrt(d)``; the rest pass unchanged. Weight decay (by ``decay_filter``) and
clipping follow, then momentum (ApplyMomentum).
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from typing import Any

import numpy as np

from cellonnx import dtypes, ops
from cellonnx.graph.step_checks import after_step
from cellonnx.graph.trace import updates_unless
from cellonnx.nn import cell as _cell
from cellonnx.nn.cell import Cell
from cellonnx.nn.optim._thor_convert import ConvertNetUtils, layer_kinds
from cellonnx.nn.optim.optimizer import Optimizer, assign
from cellonnx.nn.parameter_tuple import ParameterTuple
from cellonnx.ops.registry import OpError
from cellonnx.tensor import Parameter, Tensor

__all__ = ["thor"]

OTHER, CONV, FC, EMBEDDING, LAYERNORM, BATCHNORM = -1, 1, 2, 3, 4, 5
SPLIT_DIM = 128
CLIP_VALUE = 1.0


def _not_positive_definite(name: str, detail: str) -> ValueError:
    return ValueError(f"For 'thor', the damped A / G factors of {name}'s layer are not positive definite "
                      f"(statistics not finite: the training diverged; a smaller learning rate or a larger "
                      f"damping helps): {detail}")


def _default_decay_filter(x: Parameter) -> bool:
    """MindSpore's default ``lambda x: x.name not in []``: every parameter."""
    return isinstance(x, Parameter)


def thor(net: Cell, learning_rate: Tensor, damping: Tensor, momentum: float, weight_decay: float = 0.0,
         loss_scale: float = 1.0, batch_size: int = 32, use_nesterov: bool = False,
         decay_filter: Callable[[Parameter], bool] = _default_decay_filter, split_indices: list | None = None,
         enable_clip_grad: bool = False, frequency: int = 100) -> ThorGpu:
    r"""Updates gradients by second-order algorithm--THOR.

    .. math::
        w_{i}^{(k+1)} \leftarrow w_{i}^{(k)}-\gamma\left(\left(A_{i-1}^{(k)}+\lambda I\right)^{-1}
        \otimes\left(G_{i}^{(k)}+\lambda I\right)^{-1}\right) \nabla_{w_{i}} J^{(k)}

    with :math:`A_{i-1} = E[a_{i-1} a_{i-1}^T]` the covariance of the layer's input and
    :math:`G_i = E[D_{s_i} D_{s_i}^T]` that of the gradient of its output. ``net``'s Dense, Conv2d, Embedding
    and EmbeddingLookup layers are converted to THOR layers in place (``ConvertNetUtils``). The numbers are
    MindSpore's GPU ones: the damping added is ``sqrt(damping[step])`` (divided by the normalizers first for
    convolutions), the inverses are taken in diagonal blocks of 128, and an embedding's G factor is the
    square of its inverse Cholesky factor, as MindSpore's kernels compute them.

    Args:
        net (Cell): the training network (converted in place).
        learning_rate (Tensor): the learning rate (a 1-D Tensor: one per step).
        damping (Tensor): the damping, one per step (read at the optimizer's own step count; 0 past its end,
            as MindSpore's GPU Gather).
        momentum (float): at least 0.0.
        weight_decay (Union[int, float]): added after the preconditioning. Default: ``0.0``.
        loss_scale (float): greater than 0. Default: ``1.0``.
        batch_size (int): the batch size (scales G). Default: ``32``.
        use_nesterov (bool): Default: ``False``.
        decay_filter (function): which parameters weight decay applies to. Default: every one.
        split_indices (list): the A/G all-reduce fusion split under data parallelism. Default: ``None``.
        enable_clip_grad (bool): clip each gradient to L2 norm 1.0. Default: ``False``.
        frequency (int): the period of the A/G statistics and inverses under ModelThor (at least 2).
            Default: ``100``.

    Returns:
        ThorGpu, the optimizer (an ``nn.Optimizer``; call it with the gradients).

    Raises:
        TypeError: `learning_rate` is not a Tensor; `momentum` not a float; `frequency` not an int.
        ValueError: `momentum` < 0; `frequency` < 2; `loss_scale` <= 0; `weight_decay` < 0.

    Examples:
        >>> net = nn.SequentialCell([nn.Dense(4, 3, activation="relu"), nn.Dense(3, 2)])
        >>> lr = Tensor(np.full(4, 0.1, np.float32))
        >>> opt = nn.thor(net, lr, Tensor(np.full(4, 0.03, np.float32)), 0.9, batch_size=8, frequency=2)
        >>> type(net[0]).__name__
        'DenseThor'
        >>> step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
        >>> loss = step(Tensor(np.ones((8, 4), np.float32)), Tensor(np.zeros((8, 2), np.float32)))
        >>> [tuple(p.shape) for p in opt.matrix_a]
        [(1, 1, 4, 4), (1, 1, 3, 3)]
    """
    ConvertNetUtils().convert_to_thor_net(net)
    return ThorGpu(net, learning_rate, damping, momentum, weight_decay, loss_scale, batch_size, use_nesterov,
                   decay_filter, split_indices=split_indices, enable_clip_grad=enable_clip_grad,
                   frequency=frequency)


def _check_param(momentum: Any, frequency: Any, lr: Any, cls_name: str) -> None:
    if not isinstance(momentum, float):
        raise TypeError(f"For '{cls_name}', the type of 'momentum' should be 'float', but got type "
                        f"'{type(momentum).__name__}'.")
    if momentum < 0.0:
        raise ValueError(f"For 'thor', the argument 'momentum' must be at least 0.0, but got 'momentum' "
                         f"{momentum}.")
    if isinstance(frequency, bool) or not isinstance(frequency, int):
        raise TypeError(f"For '{cls_name}', the type of 'frequency' should be 'int', but got type "
                        f"'{type(frequency).__name__}'.")
    if frequency < 2:
        raise ValueError(f"For 'thor', the argument 'frequency' must be at least 2, but got 'frequency' "
                         f"{frequency}.")
    if not isinstance(lr, Tensor):
        raise TypeError(f"For '{cls_name}', the type of 'learning rate' should be 'Tensor', but got type "
                        f"'{type(lr).__name__}'.")


def _matmul_shape(a_dim: int, g_dim: int, split: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The block layout of the kept inverses: A^-1 (batch_h, batch_w, s_a, s_a), G^-1 (batch_h, s_g, s_g)."""
    def blocks(dim: int) -> tuple[int, int]:
        if dim % split == 0:
            return dim // split, split
        if dim < split:
            return 1, dim
        return dim // split + 1, split

    batch_w, s_a = blocks(a_dim)
    batch_h, s_g = blocks(g_dim)
    return (batch_h, batch_w, s_a, s_a), (batch_h, s_g, s_g)


def _layer_counter_step(kind: int, counter: int, params: Sequence[Parameter], idx: int) -> int:
    """Advance the layer counter past params[idx] (MindSpore's walk: a layer ends at its bias, or at its
    weight when no bias follows; a norm layer at its beta)."""
    name = params[idx].name.lower()
    nxt_is_bias = idx < len(params) - 1 and "bias" in params[idx + 1].name.lower()
    if kind in (CONV, FC):
        return counter + 1 if "bias" in name or (idx < len(params) - 1 and not nxt_is_bias) else counter
    if kind in (LAYERNORM, BATCHNORM):
        return counter + 1 if "beta" in name else counter
    if "bias" in name:
        return counter + 1
    if "weight" in name:
        return counter + 1 if idx < len(params) - 1 and not nxt_is_bias else counter
    return counter + 1


def _blocks(m: Tensor, split: int) -> Tensor:
    """The diagonal blocks of a square matrix, (batch, s, s): one block when it is at most ``split`` wide,
    else blocks of ``split`` with the last one padded by the identity."""
    n = m.shape[0]
    if n <= split:
        return ops.reshape(m, (1, n, n))
    batch = math.ceil(n / split)
    pad = batch * split - n
    if pad:
        eye = np.zeros((batch * split,) * 2, np.float32)
        eye[n:, n:] = np.eye(pad, dtype=np.float32)
        m = ops.pad(m, (0, pad, 0, pad)) + Tensor(eye, m.dtype)
    return ops.stack([m[k * split:(k + 1) * split, k * split:(k + 1) * split] for k in range(batch)])


def _inverse_cholesky(blocks: Tensor) -> Tensor:
    """``L^-1`` of each block's Cholesky factor ``L L^T`` (CholeskyTrsm's output)."""
    return ops.inverse(ops.cholesky(blocks))


def _squared(x: Tensor) -> Tensor:
    """``X^T X`` of each ``X = L^-1``: the inverse of each block, (batch, s, s)."""
    return ops.matmul(ops.transpose(x, (0, 2, 1)), x)


def _block_inverse(m: Tensor, split: int) -> Tensor:
    """``(L^-1)^T L^-1`` of each diagonal block: the blockwise inverse, (batch, s, s)."""
    return _squared(_inverse_cholesky(_blocks(m, split)))


def _inverse_cholesky_stacked(blocks: list[Tensor]) -> list[Tensor]:
    """_inverse_cholesky of each stack of blocks (batch, s, s) by one call: every block padded with the
    identity to the largest s (its factor and the factor's inverse are then the block's, with the identity
    beside them), the results cropped back."""
    size = max(b.shape[-1] for b in blocks)
    padded = []
    for b in blocks:
        s = b.shape[-1]
        if s < size:
            eye = np.zeros((size, size), np.float32)
            eye[s:, s:] = np.eye(size - s, dtype=np.float32)
            b = ops.pad(b, (0, size - s, 0, size - s)) + Tensor(eye, b.dtype)
        padded.append(b)
    x = _inverse_cholesky(ops.concat(padded, 0) if len(padded) > 1 else padded[0])
    out, start = [], 0
    for b in blocks:
        k, s = b.shape[0], b.shape[-1]
        out.append(x[start:start + k, :s, :s])
        start += k
    return out


def _precondition(g_inv: Tensor, grad: Tensor, a_inv: Tensor) -> Tensor:
    """UpdateThorGradient: ``blockdiag(G^-1) g blockdiag(A^-1)`` for a (out, in) gradient, zero padded to
    whole blocks and cropped back."""
    bh, s_g = g_inv.shape[0], g_inv.shape[1]
    bw, s_a = a_inv.shape[1], a_inv.shape[2]
    out_dim, in_dim = grad.shape
    g = ops.pad(grad, (0, bw * s_a - in_dim, 0, bh * s_g - out_dim))
    t = ops.matmul(g_inv, ops.reshape(g, (bh, s_g, bw * s_a)))                  # (bh, s_g, bw * s_a)
    t = ops.transpose(ops.reshape(t, (bh, s_g, bw, s_a)), (0, 2, 1, 3))          # (bh, bw, s_g, s_a)
    t = ops.matmul(t, a_inv)
    t = ops.reshape(ops.transpose(t, (0, 2, 1, 3)), (bh * s_g, bw * s_a))
    return t[:out_dim, :in_dim]


class ThorGpu(Optimizer):
    """THOR's optimizer (built by :func:`thor`): see there for the arguments and the update.

    Attributes:
        matrix_a, matrix_g (ParameterTuple): the kept inverses ``matrix_a_inv_{i}`` / ``matrix_g_inv_{i}``
            of the i-th THOR layer.
        thor (bool): whether a call recomputes the inverses from the layers' statistics (``True``) or uses the
            kept ones.
    """

    _graph_attrs = ("thor",)  # a compiled step holds the inversion or not: one graph for each

    def __init__(self, net: Cell, learning_rate: Tensor, damping: Tensor, momentum: float,
                 weight_decay: float = 0.0, loss_scale: float = 1.0, batch_size: int = 32,
                 use_nesterov: bool = False,
                 decay_filter: Callable[[Parameter], bool] = _default_decay_filter,
                 split_indices: list | None = None, enable_clip_grad: bool = False,
                 frequency: int = 100) -> None:
        params = [p for p in net.get_parameters() if p.requires_grad]
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        _check_param(momentum, frequency, learning_rate, type(self).__name__)
        if not isinstance(use_nesterov, bool):
            raise TypeError(f"For '{type(self).__name__}', the type of 'use_nesterov' should be 'bool', but "
                            f"got type '{type(use_nesterov).__name__}'.")
        self.momentum = Parameter(np.asarray(momentum, np.float32), name="momentum")
        self.params = self.parameters
        self.use_nesterov = use_nesterov
        self.moments = self.params.clone(prefix="moments", init="zeros")
        self.net = net
        net_params = list(net.get_parameters())
        self.matrix_a_cov = ParameterTuple([p for p in net_params if "matrix_a" in p.name])
        self.matrix_g_cov = ParameterTuple([p for p in net_params if "matrix_g" in p.name])
        self.a_normalizer = ParameterTuple([p for p in net_params if "a_normalizer" in p.name])
        self.g_normalizer = ParameterTuple([p for p in net_params if "g_normalizer" in p.name])
        self.batch_size = float(batch_size)
        self.loss_scale_factor = 1.0 / (loss_scale * loss_scale)
        self.batch_size_scale = float(batch_size * batch_size)
        self.damping = damping
        self.split_dim = SPLIT_DIM
        self.cov_step = Parameter(np.zeros((1,), np.int32), name="cov_step", requires_grad=False)
        self.thor = True
        self.weight_fim_idx_map: tuple[int, ...] = ()
        self.weight_conv_idx_map: tuple[int, ...] = ()
        self.weight_layertype_idx_map: tuple[int, ...] = ()
        self.matrix_a_shape: tuple[tuple[int, ...], ...] = ()
        self._init_matrices_and_maps(net)
        self.weight_decay = weight_decay
        self.decay_flags = tuple(decay_filter(x) for x in self.params)
        self.enable_clip_grad = enable_clip_grad
        self.frequency = frequency
        self._define_reducer(split_indices)

    def get_frequency(self) -> int:
        """The period of THOR steps (``frequency``)."""
        return self.frequency

    def _init_matrices_and_maps(self, net: Cell) -> None:
        kinds = layer_kinds(net)
        inv_a: list[Parameter] = []
        inv_g: list[Parameter] = []
        counter = thor_count = conv_count = 0
        for idx, weight in enumerate(self.params):
            kind = kinds[counter]
            shape = tuple(weight.shape)
            is_weight = "bias" not in weight.name.lower()
            if kind in (CONV, FC) and is_weight:
                a_dim = shape[1] * (shape[2] * shape[3] if kind == CONV else 1)
                a_shape, g_shape = _matmul_shape(a_dim, shape[0], self.split_dim)
                inv_a.append(Parameter(np.zeros(a_shape, np.float32), name=f"matrix_a_inv_{thor_count}",
                                       requires_grad=False))
                inv_g.append(Parameter(np.zeros(g_shape, np.float32), name=f"matrix_g_inv_{thor_count}",
                                       requires_grad=False))
                self.matrix_a_shape += (a_shape,)
            elif kind == EMBEDDING:
                inv_a.append(Parameter(np.zeros(shape[:1], np.float32), name=f"matrix_a_inv_{thor_count}",
                                       requires_grad=False))
                inv_g.append(Parameter(np.zeros((shape[1], shape[1]), np.float32),
                                       name=f"matrix_g_inv_{thor_count}", requires_grad=False))
                self.matrix_a_shape += (shape[:1],)
            if kind in (CONV, FC, EMBEDDING) and is_weight:
                self.weight_fim_idx_map += (thor_count,)
                thor_count += 1
                self.weight_layertype_idx_map += (kind,)
                self.weight_conv_idx_map += (conv_count if kind == CONV else -1,)
                conv_count += kind == CONV
            else:
                self.weight_conv_idx_map += (-1,)
                self.weight_fim_idx_map += (-1,)
                self.weight_layertype_idx_map += (LAYERNORM if kind == LAYERNORM else OTHER,)
            if "output_bias" not in weight.name.lower():
                counter = _layer_counter_step(kind, counter, self.params, idx)
        self.thor_layer_count, self.conv_layer_count = thor_count, conv_count
        self.matrix_a = ParameterTuple(inv_a)
        self.matrix_g = ParameterTuple(inv_g)

    def _define_reducer(self, split_indices: list | None) -> None:
        from cellonnx import parallel_context as _parallel

        self.parallel_mode = _parallel.get_auto_parallel_context("parallel_mode")
        self.is_distributed = self.parallel_mode != "stand_alone"
        self.split_indices = split_indices
        if self.is_distributed:
            from cellonnx.nn.wrap.grad_reducer import DistributedGradReducer

            mean, degree = _parallel._get_gradients_mean(), _parallel._get_device_num()
            self.split_indices = split_indices or [len(self.matrix_a_cov) - 1]
            self.grad_reducer_a = DistributedGradReducer(self.matrix_a_cov, mean, degree)
            self.grad_reducer_g = DistributedGradReducer(self.matrix_a_cov, mean, degree)

    def _damping_step(self) -> Tensor:
        """damping[cov_step] as a float32 scalar; 0 past the end of the table (MindSpore's GPU Gather)."""
        table = self.damping if isinstance(self.damping, Tensor) else Tensor(np.asarray(self.damping))
        table = ops.cast(ops.reshape(table, (-1,)), dtypes.float32)
        size = table.shape[0]
        step = ops.reshape(self.cov_step, ())
        value = ops.gather(table, ops.clip_by_value(step, 0, size - 1), 0)
        inside = ops.logical_and(ops.ge(step, 0), ops.lt(step, size))
        return ops.where(inside, value, ops.zeros((), dtypes.float32))

    def _inverses(self, damping: Tensor) -> tuple[list[Tensor], list[Tensor]]:
        """The damped, inverted A and G of every THOR layer from the layers' current statistics."""
        layers = [self._damped(i, kind, damping) for i, kind in enumerate(self.weight_layertype_idx_map)
                  if kind in (CONV, FC, EMBEDDING)]
        stacked = None
        if _cell._TRACING:
            # a graph factors all the layers' blocks at once: its factorization costs per column (a Loop
            # iteration each), not per element (bench/RESULTS.md, the THOR step); eagerly, LAPACK per layer
            blocks = [_blocks(m, self.split_dim) for i, kind, a, g, _ in layers if kind != EMBEDDING
                      for m in (a, g)]
            try:
                stacked = iter(_inverse_cholesky_stacked(blocks)) if blocks else None
            except OpError:
                stacked = None   # the layers one by one below name the first not positive definite
        out_a: list[Tensor] = []
        out_g: list[Tensor] = []
        for i, kind, a, g, feature_map in layers:
            try:
                if kind == EMBEDDING:
                    a = ops.reciprocal(a)
                    x = _inverse_cholesky(g)
                    g = ops.matmul(x, x)
                else:
                    if stacked is not None:
                        a, g = _squared(next(stacked)), _squared(next(stacked))
                    else:
                        a, g = _block_inverse(a, self.split_dim), _block_inverse(g, self.split_dim)
                    a = ops.broadcast_to(a, self.matrix_a_shape[self.weight_fim_idx_map[i]])
            except OpError as exc:
                raise _not_positive_definite(self.params[i].name, str(exc)) from None
            out_a.append(a * feature_map)
            out_g.append(g * feature_map)
        if self.is_distributed:
            out_a = list(self.grad_reducer_a(tuple(out_a)))
            out_g = list(self.grad_reducer_g(tuple(out_g)))
        return out_a, out_g

    def _damped(self, i: int, kind: int, damping: Tensor) -> tuple[int, int, Tensor, Tensor, Tensor]:
        """(i, kind, damped A, damped G, the feature-map scale) of THOR layer ``i``; an embedding's A is its
        damped diagonal, not yet inverted."""
        count, conv = self.weight_fim_idx_map[i], self.weight_conv_idx_map[i]
        a = ops.cast(self.matrix_a_cov[count], dtypes.float32)
        g = ops.cast(self.matrix_g_cov[count], dtypes.float32)
        damping_a = damping_g = damping
        feature_map = Tensor(np.float32(1.0))
        if kind == CONV:
            a_norm = ops.reshape(ops.cast(self.a_normalizer[conv], dtypes.float32), ())
            g_norm = ops.reshape(ops.cast(self.g_normalizer[conv], dtypes.float32), ())
            damping_a = damping_a * (1.0 / a_norm)
            damping_g = damping_g * (1.0 / g_norm)
            feature_map = ops.sqrt(1.0 / a_norm)
        damping_a, damping_g = ops.sqrt(damping_a), ops.sqrt(damping_g)
        g = g * self.loss_scale_factor * self.batch_size_scale
        g = g + damping_g * Tensor(np.eye(g.shape[0], g.shape[1], dtype=np.float32))
        if kind == EMBEDDING:
            return i, kind, a * (1.0 / self.batch_size) + damping_a, g, feature_map
        return i, kind, a + damping_a * Tensor(np.eye(a.shape[0], dtype=np.float32)), g, feature_map

    def _layernorm(self, damping: Tensor, g: Tensor) -> Tensor:
        fim = ops.square(g) * (1.0 / self.batch_size) + ops.cast(ops.sqrt(damping), g.dtype)
        return ops.reciprocal(fim) * g

    def _not_finite(self, inverses: tuple[list[Tensor], list[Tensor]] | None) -> Tensor | None:
        """Whether some layer's new inverses are not finite (NaN statistics, factors that are not positive
        definite: a compiled step's Cholesky factor is then NaN where LAPACK's raises; an infinite variance
        gives its variable a zero row and column in both, as MindSpore's CholeskyTrsm), with a check
        that raises naming the first such layer: at once eagerly, after the step when compiled (which then
        skips its update, so the state is eager's). None without new inverses."""
        if inverses is None:
            return None
        layers = [self.params[i].name for i, kind in enumerate(self.weight_layertype_idx_map)
                  if kind in (CONV, FC, EMBEDDING)]
        finite = ops.stack([ops.logical_and(ops.all(ops.isfinite(a)), ops.all(ops.isfinite(g)))
                            for a, g in zip(*inverses)])

        def check(flags: np.ndarray) -> None:
            bad = [name for name, ok in zip(layers, flags) if not ok]
            if bad:
                raise _not_positive_definite(bad[0], "their inverses are not finite; the parameters and "
                                             "the optimizer state were left as they were")

        after_step(finite, check)
        return ops.logical_not(ops.all(finite))

    def _preconditioned(self, gradients: Sequence[Tensor], damping: Tensor,
                        inverses: tuple[list[Tensor], list[Tensor]] | None) -> tuple[Tensor, ...]:
        if inverses is not None:
            inv_a, inv_g = inverses
            for count, (a, g) in enumerate(zip(inv_a, inv_g)):
                assign(self.matrix_a[count], a)
                assign(self.matrix_g[count], g)
        new = []
        for i, g in enumerate(gradients):
            kind, count = self.weight_layertype_idx_map[i], self.weight_fim_idx_map[i]
            if kind in (CONV, FC):
                shape = tuple(g.shape)
                g = _precondition(self.matrix_g[count], ops.reshape(g, (shape[0], -1)), self.matrix_a[count])
                g = ops.reshape(g, shape)
            elif kind == EMBEDDING:
                g = ops.matmul(ops.expand_dims(self.matrix_a[count], 1) * g, self.matrix_g[count])
            elif kind == LAYERNORM:
                g = self._layernorm(damping, g)
            new.append(g)
        return tuple(new)

    def construct(self, gradients: Any) -> bool:
        grads = self.scale_grad(self._gradient_tensors(gradients))
        damping = self._damping_step()
        inverses = self._inverses(damping) if self.thor else None
        skip = self._not_finite(inverses)
        with nullcontext() if skip is None else updates_unless(skip):  # compiled: no update, as eager raises
            self._update(self._preconditioned(grads, damping, inverses))
        return True

    def _update(self, grads: tuple[Tensor, ...]) -> None:
        assign(self.cov_step, self.cov_step + Tensor(np.ones((1,), np.int32)))
        if self.weight_decay > 0:
            grads = tuple(ops.add(p * float(self.weight_decay), g) if flag else g
                          for flag, p, g in zip(self.decay_flags, self.params, grads))
        if self.enable_clip_grad:
            from cellonnx.nn.layer.basic import ClipByNorm

            clip = ClipByNorm()
            grads = tuple(clip(g, Tensor(np.array([CLIP_VALUE], np.float32), g.dtype)) for g in grads)
        lr = self.get_lr()
        self._advance()
        u = ops.cast(self.momentum, dtypes.float32)
        for p, g, mom in zip(self.params, grads, self.moments):
            v = mom * u + g
            step = g * lr + v * u * lr if self.use_nesterov else v * lr
            assign(mom, v)
            assign(p, p - step)
