"""Metrics with MindSpore's names (``mindspore.train.metrics``, also found in ``nn`` and ``train``)."""
from __future__ import annotations

from typing import Any

from cellonnx.nn.metrics.accuracy import Accuracy
from cellonnx.nn.metrics.confusion_matrix import ConfusionMatrix, ConfusionMatrixMetric
from cellonnx.nn.metrics.error import MAE, MSE
from cellonnx.nn.metrics.fbeta import F1, Fbeta
from cellonnx.nn.metrics.loss import Loss
from cellonnx.nn.metrics.metric import EvaluationBase, Metric, rearrange_inputs
from cellonnx.nn.metrics.occlusion import OcclusionSensitivity
from cellonnx.nn.metrics.precision import Precision, Recall
from cellonnx.nn.metrics.roc import ROC, auc
from cellonnx.nn.metrics.similarity import CosineSimilarity, Dice
from cellonnx.nn.metrics.surface import HausdorffDistance, MeanSurfaceDistance, RootMeanSquareDistance
from cellonnx.nn.metrics.text import BleuScore, Perplexity
from cellonnx.nn.metrics.topk import Top1CategoricalAccuracy, Top5CategoricalAccuracy, TopKCategoricalAccuracy

__all__ = ["F1", "MAE", "MSE", "Accuracy", "EvaluationBase", "Fbeta", "Loss", "Metric", "Precision", "Recall",
           "Top1CategoricalAccuracy", "Top5CategoricalAccuracy", "TopKCategoricalAccuracy", "get_metric_fn",
           "get_metrics", "names", "rearrange_inputs"]
__all__ += ["ROC", "BleuScore", "ConfusionMatrix", "ConfusionMatrixMetric", "CosineSimilarity", "Dice",
            "HausdorffDistance", "MeanSurfaceDistance", "OcclusionSensitivity", "Perplexity",
            "RootMeanSquareDistance", "auc"]

__factory__: dict[str, Any] = {
    "accuracy": Accuracy,
    "acc": Accuracy,
    "precision": Precision,
    "recall": Recall,
    "F1": F1,
    "topk": TopKCategoricalAccuracy,
    "top_1_accuracy": Top1CategoricalAccuracy,
    "top_5_accuracy": Top5CategoricalAccuracy,
    "mae": MAE,
    "mse": MSE,
    "loss": Loss,
    "dice": Dice,
    "roc": ROC,
    "auc": auc,
    "bleu_score": BleuScore,
    "cosine_similarity": CosineSimilarity,
    "occlusion_sensitivity": OcclusionSensitivity,
    "hausdorff_distance": HausdorffDistance,
    "mean_surface_distance": MeanSurfaceDistance,
    "root_mean_square_distance": RootMeanSquareDistance,
    "perplexity": Perplexity,
    "confusion_matrix": ConfusionMatrix,
    "confusion_matrix_metric": ConfusionMatrixMetric,
}


def names() -> list[str]:
    """The names ``get_metric_fn`` and ``Model(metrics={...})`` accept, sorted.

    Examples:
        >>> from cellonnx import nn
        >>> 'accuracy' in nn.names()
        True
    """
    return sorted(__factory__)


def get_metric_fn(name: str, *args: Any, **kwargs: Any) -> Metric:
    """The metric called ``name`` (see ``names()``), built with ``args`` / ``kwargs``.

    Examples:
        >>> from cellonnx import nn
        >>> metric = nn.get_metric_fn('accuracy')
        >>> type(metric).__name__
        'Accuracy'
    """
    if name not in __factory__:
        raise KeyError(f"get_metric_fn: unknown metric {name!r}; known: {names()}")
    return __factory__[name](*args, **kwargs)


def get_metrics(metrics: Any) -> dict[str, Metric] | None:
    """A ``{name: Metric}`` dict from a dict of metrics or a set of names (None stays None).

    Examples:
        >>> from cellonnx import nn
        >>> sorted(nn.get_metrics({'accuracy', 'loss'}))
        ['accuracy', 'loss']
    """
    if metrics is None:
        return None
    if isinstance(metrics, dict):
        for key, m in metrics.items():
            if not isinstance(key, str) or not isinstance(m, Metric):
                raise TypeError(f"get_metrics: a metrics dict maps str to Metric, got {type(key).__name__} -> "
                                f"{type(m).__name__}")
        return metrics
    if isinstance(metrics, set):
        return {name: get_metric_fn(name) for name in metrics}
    raise TypeError(f"get_metrics: 'metrics' must be None, a dict or a set, got {type(metrics).__name__}")
