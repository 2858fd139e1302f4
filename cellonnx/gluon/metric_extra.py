"""MXNet 1.9.1's MCC (Matthews correlation of binary predictions), PCC (the multiclass Matthews correlation
from a growing confusion matrix) and the Loss aliases Torch and Caffe, registered with the other metrics (so
``create('mcc')``, ``create('pcc')``, ``create('torch')`` and ``create('caffe')`` find them)."""
from __future__ import annotations

import math
from typing import Any

import numpy

from cellonnx.gluon.metric import EvalMetric, Loss, _np, check_label_shapes, register

__all__ = ["MCC", "PCC", "Caffe", "Torch"]


class _BinaryCounts:
    """True/false positive/negative counts, since the last local reset and since the last reset."""

    def __init__(self) -> None:
        self.local = numpy.zeros(4)  # tp, fp, fn, tn
        self.total = numpy.zeros(4)

    def update(self, label: Any, pred: Any, owner: str) -> None:
        p, lb = numpy.argmax(_np(pred), axis=1), _np(label).astype("int32")
        check_label_shapes(lb, p)
        if len(numpy.unique(lb)) > 2:
            raise ValueError(f"{owner} currently only supports binary classification.")
        pt, lt = p == 1, lb == 1
        counts = numpy.array([(pt & lt).sum(), (pt & ~lt).sum(), (~pt & lt).sum(), (~pt & ~lt).sum()], float)
        self.local += counts
        self.total += counts

    @staticmethod
    def matthewscc(counts: numpy.ndarray) -> float:
        if not counts.sum():
            return 0.0
        tp, fp, fn, tn = (float(c) for c in counts)
        denom = 1.0
        for t in (tp + fp, tp + fn, tn + fp, tn + fn):
            if t != 0.0:
                denom *= t
        return (tp * tn - fp * fn) / math.sqrt(denom)


class MCC(EvalMetric):
    r"""Matthews correlation coefficient of binary classification,
    :math:`(TP \cdot TN - FP \cdot FN) / \sqrt{(TP + FP)(TP + FN)(TN + FP)(TN + FN)}` (zero factors left out
    of the root); predictions are argmax-ed over axis 1, class 1 is positive.

    Args:
        name: Default: 'mcc'. output_names, label_names: Default: None.
        average: 'macro' (the mean of each update's coefficient) or 'micro' (the coefficient of all counts).
            Default: 'macro'.

    Raises:
        ValueError: labels of more than two classes.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> mcc = mx.metric.create('mcc')
        >>> preds = mx.nd.array([[0.3, 0.7], [0.8, 0.2], [0.4, 0.6], [0.1, 0.9]])
        >>> mcc.update([mx.nd.array([1, 0, 0, 1])], [preds])
        >>> print(mcc.get())
        ('mcc', 0.5773502691896258)
    """

    def __init__(self, name: str = "mcc", output_names: Any = None, label_names: Any = None,
                 average: str = "macro") -> None:
        self._average = average
        self._counts = _BinaryCounts()
        super().__init__(name, output_names=output_names, label_names=label_names, has_global_stats=True)

    def update(self, labels: Any, preds: Any) -> None:
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            self._counts.update(label, pred, "MCC")
        c = self._counts
        if self._average == "macro":
            self._add(c.matthewscc(c.local), 1)  # each update on its own: its counts are dropped after
            c.local[:] = 0
            c.total[:] = 0
        else:
            self.sum_metric = c.matthewscc(c.local) * c.local.sum()
            self.global_sum_metric = c.matthewscc(c.total) * c.total.sum()
            self.num_inst, self.global_num_inst = c.local.sum(), c.total.sum()

    def reset(self) -> None:
        super().reset()
        self.sum_metric = self.global_sum_metric = 0.0
        self.num_inst = self.global_num_inst = 0.0
        if hasattr(self, "_counts"):
            self._counts = _BinaryCounts()

    def reset_local(self) -> None:
        self.sum_metric = 0.0
        self.num_inst = 0.0
        self._counts.local[:] = 0


class PCC(EvalMetric):
    r"""Multiclass Matthews correlation coefficient from the confusion matrix :math:`C` (rows predictions,
    columns labels) of every update since the reset: :math:`\frac{\sum_k (C_{kk} n - x_k y_k)}{\sqrt{\sum_k
    x_k (n - x_k) \sum_k y_k (n - y_k)}}` with row sums :math:`x`, column sums :math:`y`, total :math:`n` (NaN
    where a factor is 0). Predictions of another shape than the labels are argmax-ed over axis 1; the matrix
    grows with the largest class seen.

    Args:
        name: Default: 'pcc'. output_names, label_names: Default: None. has_global_stats: Default: True.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> pcc = mx.metric.PCC()
        >>> pcc.update([mx.nd.array([0, 1, 2, 2])], [mx.nd.array([0, 1, 2, 1])])
        >>> print(pcc.get())
        ('pcc', 0.7)
    """

    def __init__(self, name: str = "pcc", output_names: Any = None, label_names: Any = None,
                 has_global_stats: bool = True) -> None:
        self.k = 2
        super().__init__(name, output_names=output_names, label_names=label_names,
                         has_global_stats=has_global_stats)

    def _grow(self, inc: int) -> None:
        self.lcm = numpy.pad(self.lcm, ((0, inc), (0, inc)), "constant", constant_values=0)
        self.gcm = numpy.pad(self.gcm, ((0, inc), (0, inc)), "constant", constant_values=0)
        self.k += inc

    @staticmethod
    def _calc_mcc(cmat: numpy.ndarray) -> float:
        n = cmat.sum()
        x, y = cmat.sum(axis=1), cmat.sum(axis=0)
        cov_xx, cov_yy = numpy.sum(x * (n - x)), numpy.sum(y * (n - y))
        if cov_xx == 0 or cov_yy == 0:
            return float("nan")
        cov_xy = numpy.sum(cmat.diagonal() * n - x * y)
        return float(cov_xy / (cov_xx * cov_yy) ** 0.5)

    def update(self, labels: Any, preds: Any) -> None:
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            lb, p = _np(label).astype("int32"), _np(pred)
            p = p.argmax(axis=1) if p.shape != lb.shape else p.astype("int32")
            n = int(max(p.max(), lb.max()))
            if n >= self.k:
                self._grow(n + 1 - self.k)
            bcm = numpy.zeros((self.k, self.k))
            for i, j in zip(p, lb):
                bcm[i, j] += 1
            self.lcm += bcm
            self.gcm += bcm
        self.num_inst += 1
        self.global_num_inst += 1

    @property
    def sum_metric(self) -> float:
        return self._calc_mcc(self.lcm) * self.num_inst

    @sum_metric.setter
    def sum_metric(self, _: float) -> None:
        pass  # derived from the confusion matrix

    @property
    def global_sum_metric(self) -> float:
        return self._calc_mcc(self.gcm) * self.global_num_inst

    @global_sum_metric.setter
    def global_sum_metric(self, _: float) -> None:
        pass

    def reset(self) -> None:
        self.global_num_inst = 0.0
        self.gcm = numpy.zeros((self.k, self.k))
        self.reset_local()

    def reset_local(self) -> None:
        self.num_inst = 0.0
        self.lcm = numpy.zeros((self.k, self.k))


class Torch(Loss):
    """Dummy metric for Torch criterions: the mean of the losses given as predictions (as :class:`Loss`).

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> m = mx.metric.create('torch')
        >>> m.update(None, [mx.nd.array([1.0, 2.0, 6.0])])
        >>> print(m.get())
        ('torch', 3.0)
    """

    def __init__(self, name: str = "torch", output_names: Any = None, label_names: Any = None) -> None:
        super().__init__(name, output_names=output_names, label_names=label_names)


class Caffe(Loss):
    """Dummy metric for Caffe criterions: the mean of the losses given as predictions (as :class:`Loss`).

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> m = mx.metric.create('caffe')
        >>> m.update(None, [mx.nd.array([1.0, 2.0])])
        >>> print(m.get())
        ('caffe', 1.5)
    """

    def __init__(self, name: str = "caffe", output_names: Any = None, label_names: Any = None) -> None:
        super().__init__(name, output_names=output_names, label_names=label_names)


for _klass in (MCC, PCC, Torch, Caffe):
    register(_klass)
