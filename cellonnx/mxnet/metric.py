"""mx.metric (MXNet 1.x): gluon.metric's metrics."""
from __future__ import annotations

from cellonnx.gluon.metric import (
    F1,
    MAE,
    MSE,
    RMSE,
    Accuracy,
    CompositeEvalMetric,
    CrossEntropy,
    CustomMetric,
    EvalMetric,
    Loss,
    NegativeLogLikelihood,
    PearsonCorrelation,
    Perplexity,
    TopKAccuracy,
    check_label_shapes,
    create,
    np,
    register,
)
from cellonnx.gluon.metric import _alias as alias
from cellonnx.gluon.metric_extra import MCC, PCC, Caffe, Torch

__all__ = ["F1", "MAE", "MSE", "RMSE", "Accuracy", "CompositeEvalMetric", "CrossEntropy", "CustomMetric",
           "EvalMetric", "Loss", "NegativeLogLikelihood", "PearsonCorrelation", "Perplexity", "TopKAccuracy",
           "check_label_shapes", "create", "np", "register"]
__all__ += ["MCC", "PCC", "Caffe", "Torch", "alias"]
