"""Confusion matrices: ConfusionMatrix (the class-by-class count matrix) and ConfusionMatrixMetric (rates
such as
sensitivity, precision or the F1 score from per-sample, per-channel true / false positive / negative
counts)."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.nn.metrics.metric import Metric, rearrange_inputs

__all__ = ["ConfusionMatrix", "ConfusionMatrixMetric"]


class ConfusionMatrix(Metric):
    r"""The confusion matrix: entry (i, j) counts the samples of true class i predicted as class j.

    Predictions with one more dimension than the labels are scores (argmax over axis 1); float predictions of
    the labels' shape are probabilities of class 1 (compared with ``threshold``).

    Args:
        num_classes (int): the number of classes.
        normalize (str): ``'no_norm'``; ``'target'`` (each row sums to 1), ``'prediction'`` (each column) or
            ``'all'``; empty rows / columns become 0. Default: ``'no_norm'``.
        threshold (float): Default: ``0.5``.

    Examples:
        >>> m = nn.ConfusionMatrix(num_classes=2)
        >>> m.update(np.array([1, 0, 1, 0]), np.array([1, 0, 0, 1]))
        >>> m.eval()
        array([[1., 1.],
               [1., 1.]])
    """

    def __init__(self, num_classes: int, normalize: str = "no_norm", threshold: float = 0.5) -> None:
        super().__init__()
        if not isinstance(num_classes, int) or isinstance(num_classes, bool):
            raise TypeError(f"For 'ConfusionMatrix', the 'num_classes' must be an int, but got "
                            f"{type(num_classes).__name__}.")
        if normalize not in ("target", "prediction", "all", "no_norm"):
            raise ValueError("For 'ConfusionMatrix', the argument 'normalize' must be in ['all', "
                             f"'prediction', 'label', 'no_norm'(None)], but got {normalize}.")
        if not isinstance(threshold, float):
            raise TypeError(f"For 'ConfusionMatrix', the 'threshold' must be a float, but got "
                            f"{type(threshold).__name__}.")
        self.num_classes = num_classes
        self.normalize = normalize
        self.threshold = threshold
        self.clear()

    def clear(self) -> None:
        self.confusion_matrix = np.zeros((self.num_classes, self.num_classes))
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Args: the predictions (scores, probabilities or classes) and the true classes."""
        if len(inputs) != 2:
            raise ValueError("For 'ConfusionMatrix.update', it needs 2 inputs (predicted value, true "
                             f"value), but got {len(inputs)}.")
        y_pred, y = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        if y_pred.ndim not in (y.ndim, y.ndim + 1):
            raise ValueError("For 'ConfusionMatrix.update', predicted value (input[0]) and true value "
                             "(input[1]) "
                             "should have same dimensions, or the dimension of predicted value equals the "
                             "dimension "
                             f"of true value add 1, but got predicted value ndim: {y_pred.ndim}, true value "
                             f"ndim: {y.ndim}.")
        if y_pred.ndim == y.ndim + 1:
            y_pred = np.argmax(y_pred, axis=1)
        elif y_pred.dtype in (np.float16, np.float32, np.float64):
            y_pred = (y_pred >= self.threshold).astype(int)
        cells = (y.reshape(-1) * self.num_classes + y_pred.reshape(-1)).astype(int)
        counts = np.bincount(cells, minlength=self.num_classes ** 2)
        self.confusion_matrix += counts.reshape(self.num_classes, self.num_classes)
        self._is_update = True

    def eval(self) -> np.ndarray:
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        cm = self.confusion_matrix.astype(float)
        if self.normalize == "no_norm":
            return cm
        with np.errstate(invalid="ignore", divide="ignore"):
            if self.normalize == "target":
                out = cm / cm.sum(axis=1, keepdims=True)
            elif self.normalize == "prediction":
                out = cm / cm.sum(axis=0, keepdims=True)
            else:
                out = cm / cm.sum()
        out[np.isnan(out)] = 0
        return out


_ALIASES = {
    "tpr": ("sensitivity", "recall", "hit_rate", "true_positive_rate", "tpr"),
    "tnr": ("specificity", "selectivity", "true_negative_rate", "tnr"),
    "ppv": ("precision", "positive_predictive_value", "ppv"),
    "npv": ("negative_predictive_value", "npv"),
    "fnr": ("miss_rate", "false_negative_rate", "fnr"),
    "fpr": ("fall_out", "false_positive_rate", "fpr"),
    "fdr": ("false_discovery_rate", "fdr"),
    "for": ("false_omission_rate", "for"),
    "pt": ("prevalence_threshold", "pt"),
    "ts": ("threat_score", "critical_success_index", "ts", "csi"),
    "acc": ("accuracy", "acc"),
    "ba": ("balanced_accuracy", "ba"),
    "f1": ("f1_score", "f1"),
    "mcc": ("matthews_correlation_coefficient", "mcc"),
    "fm": ("fowlkes_mallows_index", "fm"),
    "bm": ("informedness", "bookmaker_informedness", "bm"),
    "mk": ("markedness", "deltap", "mk"),
}
_METRIC_OF = {alias: key for key, aliases in _ALIASES.items() for alias in aliases}


def _metric_key(name: str) -> str:
    key = _METRIC_OF.get(name.replace(" ", "_").lower())
    if key is None:
        raise NotImplementedError("The metric is not implemented.")
    return key


def _counts(y_pred: np.ndarray, y: np.ndarray, skip_channel: bool) -> np.ndarray:
    """(batch, channel, 4): true positives, false positives, true negatives, false negatives of binarized
    (batch, channel, ...) inputs. ``skip_channel=False`` drops channel 0 (MindSpore's rule)."""
    if not skip_channel:
        y = y[:, 1:] if y.shape[1] > 1 else y
        y_pred = y_pred[:, 1:] if y_pred.shape[1] > 1 else y_pred
    y, y_pred = y.astype(float), y_pred.astype(float)
    if y.shape != y_pred.shape:
        raise ValueError(f"For 'ConfusionMatrixMetric', y_shape {y.shape} must equal y_pred_shape "
                         f"{y_pred.shape}.")
    batch, channels = y_pred.shape[:2]
    y_pred, y = y_pred.reshape(batch, channels, -1), y.reshape(batch, channels, -1)
    tp = ((y_pred + y) == 2).astype(float).sum(axis=2)
    tn = ((y_pred + y) == 0).astype(float).sum(axis=2)
    p = y.sum(axis=2)
    n = y.shape[-1] - p
    return np.stack([tp, n - tn, tn, p - tp], axis=-1)


def _rate(key: str, counts: np.ndarray) -> np.ndarray:
    """The named rate of each (tp, fp, tn, fn) row; nan where its denominator is 0."""
    if counts.ndim == 1:
        counts = counts[None]
    if counts.shape[-1] != 4:
        raise ValueError("For 'ConfusionMatrix', the size of the last dimension of confusion_matrix must be "
                         f"4, but got {counts.shape[-1]}.")
    tp, fp, tn, fn = (counts[..., i] for i in range(4))
    p, n = tp + fn, fp + tn
    nan = np.array(float("nan"))
    with np.errstate(invalid="ignore", divide="ignore"):
        tpr = np.where(p > 0, tp / p, nan)
        tnr = np.where(n > 0, tn / n, nan)
        ppv = np.where(tp + fp > 0, tp / (tp + fp), nan)
        ratios: dict[str, tuple[Any, Any]] = {
            "tpr": (tp, p), "tnr": (tn, n), "ppv": (tp, tp + fp), "npv": (tn, tn + fn), "fnr": (fn, p),
            "fpr": (fp, n), "fdr": (fp, fp + tp), "for": (fn, fn + tn),
            "pt": (np.sqrt(tpr * (1.0 - tnr)) + tnr - 1.0, tpr + tnr - 1.0), "ts": (tp, tp + fn + fp),
            "acc": (tp + tn, p + n), "ba": (tpr + tnr, 2.0), "f1": (tp * 2.0, tp * 2.0 + fn + fp),
            "mcc": (tp * tn - fp * fn, np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))),
            "fm": (np.sqrt(ppv * tpr), 1.0), "bm": (tpr + tnr - 1.0, 1.0), "mk": (ppv + tn / (tn + fn) - 1.0,
                                                                                  1.0),
        }
        num, den = ratios[key]
        if isinstance(den, np.ndarray):
            return np.where(den != 0, num / den, nan)
        return num / den


def _reduce(chart: np.ndarray, decrease: str) -> tuple[np.ndarray, np.ndarray]:
    """(reduced values, how many were not nan) over the (batch, channel) axes, nan values left out."""
    nans = np.isnan(chart)
    not_nans = (~nans).astype(float)
    chart = np.where(nans, 0.0, chart)
    if decrease == "mean":
        count = not_nans.sum(axis=1)
        chart = np.where(count > 0, chart.sum(axis=1) / np.where(count > 0, count, 1), 0.0)
        count = (count > 0).astype(float).sum(axis=0)
        chart = np.where(count > 0, chart.sum(axis=0) / np.where(count > 0, count, 1), 0.0)
        return chart, count
    if decrease == "sum":
        return chart.sum(axis=(0, 1)), not_nans.sum(axis=(0, 1))
    if decrease in ("mean_batch", "mean_channel"):
        axis = 0 if decrease == "mean_batch" else 1
        count = not_nans.sum(axis=axis)
        return np.where(count > 0, chart.sum(axis=axis) / np.where(count > 0, count, 1), 0.0), count
    if decrease in ("sum_batch", "sum_channel"):
        axis = 0 if decrease == "sum_batch" else 1
        return chart.sum(axis=axis), not_nans.sum(axis=axis)
    return chart, not_nans


class ConfusionMatrixMetric(Metric):
    r"""Rates derived from the confusion matrix of binarized (one-hot) segmentations or classifications:
    sensitivity, specificity, precision, F1, MCC ... (``metric_name``, with the usual aliases).

    Inputs are (batch, channel, ...) arrays of 0 / 1. Each sample and channel gives true / false positive /
    negative counts. With ``calculation_method`` the rate is computed per sample and channel, reduced by
    ``decrease`` (nan values left out) and averaged over the updates; otherwise the counts are summed over
    everything seen and the rate computed once.

    Args:
        skip_channel (bool): keep channel 0; ``False`` drops it (MindSpore's rule). Default: ``True``.
        metric_name (str): Default: ``'sensitivity'``.
        calculation_method (bool): Default: ``False``.
        decrease (str): ``'none'``, ``'mean'``, ``'sum'``, ``'mean_batch'``, ``'sum_batch'``,
            ``'mean_channel'`` or ``'sum_channel'``. Default: ``'mean'``.

    Examples:
        >>> m = nn.ConfusionMatrixMetric(metric_name="tpr", calculation_method=True)
        >>> m.update(np.array([[[0], [1]], [[1], [0]]]), np.array([[[0], [1]], [[0], [1]]]))
    """

    def __init__(self, skip_channel: bool = True, metric_name: str = "sensitivity",
                 calculation_method: bool = False,
                 decrease: str = "mean") -> None:
        super().__init__()
        for name, v in (("skip_channel", skip_channel), ("calculation_method", calculation_method)):
            if not isinstance(v, bool):
                raise TypeError(f"For 'ConfusionMatrixMetric', the '{name}' must be a bool, but got "
                                f"{type(v).__name__}.")
        if not isinstance(metric_name, str):
            raise TypeError(f"For 'ConfusionMatrixMetric', the 'metric_name' must be a str, but got "
                            f"{type(metric_name).__name__}.")
        decreases = ["none", "mean", "sum", "mean_batch", "sum_batch", "mean_channel", "sum_channel"]
        if not isinstance(decrease, str) or decrease not in decreases:
            raise ValueError(f"For 'ConfusionMatrixMetric', the 'decrease' must be in {decreases}, but got "
                             f"{decrease!r}.")
        self.skip_channel = skip_channel
        self.metric_name = metric_name
        self.calculation_method = calculation_method
        self.decrease = decrease
        self.clear()

    def clear(self) -> None:
        self._total_num = 0.0
        self._class_num = 0
        self._total_tp = 0.0
        self._total_fp = 0.0
        self._total_tn = 0.0
        self._total_fn = 0.0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Args: the binarized prediction and label, (batch, channel, ...)."""
        if len(inputs) != 2:
            raise ValueError("For 'ConfusionMatrixMetric.update', it needs 2 inputs (predicted value, true "
                             f"value), but got {len(inputs)}.")
        y_pred, y = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        if not np.all(y.astype(np.uint8) == y):
            raise ValueError("For 'ConfusionMatrix.update', the true value (input[1]) must be a binarized "
                             "ndarray.")
        if y_pred.ndim < 2:
            raise ValueError("For 'ConfusionMatrix.update', the predicted value (input[0]) must have at "
                             f"least 2 dimensions, but got {y_pred.ndim}.")
        counts = _counts(y_pred, y, self.skip_channel)
        # one value per sample and channel (2-D inputs) has no per-sample rate: counted as without the method
        per_sample = self.calculation_method and not (y_pred.ndim == 2 or (y_pred.ndim == 3
                                                                            and y_pred.shape[-1] == 1))
        if per_sample:
            score, not_nans = _reduce(_rate(_metric_key(self.metric_name), counts), self.decrease)
            count = int(np.asarray(not_nans).item())
            self._total_num += np.asarray(score).item() * count
            self._class_num += count
        else:
            summed, _ = _reduce(counts, "sum")
            self._total_tp += summed[0].item()
            self._total_fp += summed[1].item()
            self._total_tn += summed[2].item()
            self._total_fn += summed[3].item()

    def eval(self) -> Any:
        if self.calculation_method and self._class_num:
            return self._total_num / self._class_num
        seen = self._total_tp or self._total_fp or self._total_tn or self._total_fn
        if self.calculation_method and not seen:
            raise RuntimeError("The 'ConfusionMatrixMetric' can not be calculated, because the number of "
                               "samples is "
                               "0, please check whether your inputs(predicted value, true value) are empty, "
                               "or has called update method before calling eval method.")
        counts = np.array([self._total_tp, self._total_fp, self._total_tn, self._total_fn])
        return _rate(_metric_key(self.metric_name), counts)
