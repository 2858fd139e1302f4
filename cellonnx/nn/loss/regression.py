"""Regression and likelihood loss cells (MindSpore 2.10's classes, defaults and argument checks): L1LossExt,
MAELoss, RMSELoss, HuberLoss, KLDivLoss, GaussianNLLLoss, PoissonNLLLoss and CTCLoss."""
from __future__ import annotations

import math
from typing import Any

from cellonnx import ops
from cellonnx.nn.loss.loss import LossBase, MSELoss, _check_tensor
from cellonnx.tensor import Tensor

__all__ = ["CTCLoss", "GaussianNLLLoss", "HuberLoss", "KLDivLoss", "L1LossExt", "MAELoss", "PoissonNLLLoss",
           "RMSELoss"]

_HALF_LN_2PI = 0.5 * math.log(2 * math.pi)


class L1LossExt(LossBase):
    r"""Mean absolute error :math:`|x - y|` of logits and labels that broadcast together.

    Args:
        reduction (str): ``'none'``, ``'mean'`` or ``'sum'``. Default: ``'mean'``.

    Inputs:
        - **logits** (Tensor) - predictions.
        - **labels** (Tensor) - targets, broadcastable with ``logits``.

    Examples:
        >>> x, y = Tensor(np.array([1., 2., 3.], np.float32)), Tensor(np.array([1., 2., 2.], np.float32))
        >>> print(nn.L1LossExt()(x, y))
        0.3333...
    """

    def __init__(self, reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.reduction = reduction

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        return ops.l1_loss(logits, labels, self.reduction)


class MAELoss(LossBase):
    r"""Mean absolute error :math:`|x - y|`, reduced (in float32) by ``reduction``.

    Args:
        reduction (str): ``'none'``, ``'mean'`` or ``'sum'``. Default: ``'mean'``.

    Inputs:
        - **logits** (Tensor) - :math:`(M, *)`.
        - **label** (Tensor) - broadcastable with ``logits``.

    Examples:
        >>> loss = nn.MAELoss()
    """

    def construct(self, logits: Tensor, label: Tensor) -> Tensor:
        _check_tensor("logits", logits, self.cls_name)
        _check_tensor("labels", label, self.cls_name)
        return self.get_loss(ops.abs(ops.sub(logits, label)))


class RMSELoss(LossBase):
    r"""Root mean square error :math:`\sqrt{\frac{1}{N}\sum_i (x_i - y_i)^2}`.

    Inputs:
        - **logits** (Tensor) - :math:`(N, *)`.
        - **label** (Tensor) - broadcastable with ``logits``.

    Examples:
        >>> loss = nn.RMSELoss()
    """

    def __init__(self) -> None:
        super().__init__()
        self.MSELoss = MSELoss()

    def construct(self, logits: Tensor, label: Tensor) -> Tensor:
        for t in (logits, label):
            if isinstance(t, Tensor) and t._data.dtype.kind == "u":
                raise TypeError(f"For 'RMSELoss', the parameters data type must not be unsigned, but got "
                                f"mindspore.{str(t.dtype).lower()}.")
        return ops.sqrt(self.MSELoss(logits, label))


class HuberLoss(LossBase):
    r"""Huber loss: :math:`0.5 d^2` where :math:`d = |x - y| < \delta`, else :math:`\delta (d - 0.5 \delta)`.

    Args:
        reduction (str): ``'none'``, ``'mean'`` or ``'sum'``. Default: ``'mean'``.
        delta (Union[int, float]): > 0. Default: ``1.0``.

    Inputs:
        - **logits** (Tensor) - predictions.
        - **labels** (Tensor) - targets, broadcastable with ``logits``.

    Examples:
        >>> loss = nn.HuberLoss(delta=0.5)
    """

    def __init__(self, reduction: str = "mean", delta: float = 1.0) -> None:
        super().__init__(reduction=reduction)
        self.reduction = reduction
        self.delta = delta

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        return ops.huber_loss(logits, labels, self.reduction, self.delta)


class KLDivLoss(LossBase):
    r"""Kullback-Leibler divergence :math:`y (\log y - x)` of log-probabilities ``logits`` from probabilities
    ``labels`` (see :func:`cellonnx.ops.kl_div`).

    Args:
        reduction (str): ``'none'``, ``'mean'``, ``'batchmean'`` or ``'sum'``. Default: ``'mean'``.

    Inputs:
        - **logits** (Tensor) - log-probabilities.
        - **labels** (Tensor) - probabilities, the shape of ``logits``.

    Examples:
        >>> loss = nn.KLDivLoss(reduction='batchmean')
    """

    def __init__(self, reduction: str = "mean") -> None:
        super().__init__()
        self.reduction = reduction

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        _check_tensor("logits", logits, self.cls_name)
        _check_tensor("labels", labels, self.cls_name)
        return ops.kl_div(logits, labels, self.reduction)


class GaussianNLLLoss(LossBase):
    r"""Gaussian negative log likelihood (see :func:`cellonnx.ops.gaussian_nll_loss`).

    Args:
        full (bool): add :math:`\frac{1}{2}\log(2\pi)`. Default: ``False``.
        eps (float): the variance's floor, > 0. Default: ``1e-6``.
        reduction (str): ``'none'``, ``'mean'`` or ``'sum'``. Default: ``'mean'``.

    Inputs:
        - **logits** (Tensor) - the means.
        - **labels** (Tensor) - the samples.
        - **var** (Tensor) - the variances.

    Examples:
        >>> loss = nn.GaussianNLLLoss(full=True)
    """

    def __init__(self, *, full: bool = False, eps: float = 1e-6, reduction: str = "mean") -> None:
        super().__init__()
        if not isinstance(eps, float) or not eps > 0:
            raise ValueError(f"For '{self.cls_name}', the 'eps' must be a float in (0, inf), but got "
                             f"{eps!r}.")
        if not isinstance(full, bool):
            raise TypeError(f"For '{self.cls_name}', the 'full' must be bool, but got {type(full).__name__}.")
        if reduction not in ("none", "mean", "sum"):
            raise ValueError("For 'gaussian_nll_loss', the 'reduction' must be in ['none', 'mean', 'sum'], "
                             f"but got {reduction}.")
        self.full = full
        self.eps = eps
        self.reduction = reduction

    def construct(self, logits: Tensor, labels: Tensor, var: Tensor) -> Tensor:
        for name, v in (("logits", logits), ("labels", labels), ("var", var)):
            _check_tensor(name, v, self.cls_name)
        return ops.gaussian_nll_loss(logits, labels, var, self.full, self.eps, self.reduction)


class PoissonNLLLoss(LossBase):
    r"""Poisson negative log likelihood of ``target`` counts.

    .. math::
        \text{loss} = \begin{cases} e^{x} - y x, & \text{log_input} \\ x - y \log(x + \epsilon), & \text{else}
        \end{cases}

    With ``full``, Stirling's term :math:`y \log y - y + \frac{1}{2}\log(2\pi y)` is added where
    :math:`y > 1`.

    Args:
        log_input (bool): the input is the log of the rate. Default: ``True``.
        full (bool): add Stirling's term. Default: ``False``.
        eps (float): Default: ``1e-08``.
        reduction (str): ``'none'``, ``'mean'`` or ``'sum'``. Default: ``'mean'``.

    Inputs:
        - **input** (Tensor) - rates (or their logs).
        - **target** (Tensor) - counts, the shape of ``input``; cast to its dtype.

    Examples:
        >>> loss = nn.PoissonNLLLoss(log_input=False, full=True)
    """

    def __init__(self, log_input: bool = True, full: bool = False, eps: float = 1e-08,
                 reduction: str = "mean") -> None:
        super().__init__(reduction=reduction)
        self.log_input = log_input
        self.full = full
        self.eps = eps

    def construct(self, input: Tensor, target: Tensor) -> Tensor:
        _check_tensor("input", input, self.cls_name)
        _check_tensor("target", target, self.cls_name)
        target = ops.cast(target, input.dtype)
        if self.log_input:
            loss = ops.sub(ops.exp(input), ops.mul(target, input))
        else:
            loss = ops.sub(input, ops.mul(target, ops.log(ops.add(input, self.eps))))
        if self.full:
            target = ops.maximum(target, self.eps)
            stirling = ops.add(ops.sub(ops.mul(ops.add(target, 0.5), ops.log(target)), target), _HALF_LN_2PI)
            loss = ops.add(loss, ops.where(ops.greater(target, 1), stirling, 0.0))
        return self.get_loss(loss)


class CTCLoss(LossBase):
    r"""Connectionist temporal classification loss (see :func:`cellonnx.ops.ctc_loss`).

    Args:
        blank (int): the blank label. Default: ``0``.
        reduction (str): ``'none'``, ``'mean'`` or ``'sum'``. Default: ``'mean'``.
        zero_infinity (bool): make infinite losses and their gradients 0. Default: ``False``.

    Inputs:
        - **log_probs** (Tensor) - :math:`(T, N, C)`, or :math:`(T, C)` for one sequence.
        - **targets** (Tensor) - :math:`(N, S)`, or :math:`(S,)` / :math:`(1, S)` for one sequence.
        - **input_lengths** (Union[Tensor, tuple]) - :math:`(N)`.
        - **target_lengths** (Union[Tensor, tuple]) - :math:`(N)`.

    Examples:
        >>> loss = nn.CTCLoss(blank=0, reduction='mean')
    """

    def __init__(self, blank: int = 0, reduction: str = "mean", zero_infinity: bool = False) -> None:
        super().__init__()
        self.blank = blank
        self.reduction = reduction
        self.zero_infinity = zero_infinity

    def construct(self, log_probs: Tensor, targets: Tensor, input_lengths: Any,
                  target_lengths: Any) -> Tensor:
        _check_tensor("log_probs", log_probs, self.cls_name)
        _check_tensor("targets", targets, self.cls_name)
        if log_probs.ndim == 2:
            if targets.ndim > 2:
                raise ValueError("For CTCLoss, when the shape of log_probs is (T, C), the dimension of "
                                 f"targets should be 1 or 2, but got {targets.ndim}.")
            if targets.ndim == 2 and targets.shape[0] != 1:
                raise ValueError(f"For CTCLoss, the first dimension of 2-D targets should be 1, but got "
                                 f"{targets.shape[0]}.")
            if targets.ndim == 1:
                targets = ops.expand_dims(targets, 0)
            loss, _ = ops.ctc_loss(ops.expand_dims(log_probs, -2), targets, input_lengths, target_lengths,
                                   self.blank, self.reduction, self.zero_infinity)
            return ops.squeeze(loss, 0) if self.reduction == "none" else loss
        loss, _ = ops.ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank, self.reduction,
                               self.zero_infinity)
        return loss

