"""Evaluation metrics (MXNet 1.x's ``mx.metric``, 2.x's ``gluon.metric``): update with lists of labels and
predictions (arrays), read ``get()`` -> (name, value), with MXNet 1.9's definitions (per-sample averages for
Accuracy / CrossEntropy, per-batch averages for MAE / MSE / RMSE, exp of the mean negative log-likelihood for
Perplexity)."""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy

__all__ = [
    "F1",
    "MAE",
    "MSE",
    "RMSE",
    "Accuracy",
    "CompositeEvalMetric",
    "CrossEntropy",
    "CustomMetric",
    "EvalMetric",
    "Loss",
    "NegativeLogLikelihood",
    "PearsonCorrelation",
    "Perplexity",
    "TopKAccuracy",
    "check_label_shapes",
    "create",
    "np",
    "register",
]

_REGISTRY: dict[str, type] = {}


def register(klass: type, *aliases: str) -> type:
    for name in (klass.__name__.lower(), *aliases):
        _REGISTRY[name] = klass
    return klass


def _alias(*names: str) -> Callable[[type], type]:
    return lambda klass: register(klass, *names)


def _np(x: Any) -> numpy.ndarray:
    return x.asnumpy() if hasattr(x, "asnumpy") else numpy.asarray(x)


def check_label_shapes(labels: Any, preds: Any, wrap: bool = False, shape: bool = False) -> Any:
    """Check that labels and predictions pair up (by count, or by shape with ``shape``); with ``wrap``, a
    single array becomes a list."""
    if not shape:
        n_label, n_pred = len(labels), len(preds)
    else:
        n_label, n_pred = labels.shape, preds.shape
    if n_label != n_pred:
        raise ValueError(f"Shape of labels {n_label} does not match shape of predictions {n_pred}")
    if wrap:
        labels = [labels] if not isinstance(labels, (list, tuple)) else labels
        preds = [preds] if not isinstance(preds, (list, tuple)) else preds
    return labels, preds


class EvalMetric:
    """Base class: ``sum_metric / num_inst`` since the last reset (and since the first, ``get_global``)."""

    def __init__(self, name: str, output_names: Any = None, label_names: Any = None, **kwargs: Any) -> None:
        self.name = str(name)
        self.output_names = output_names
        self.label_names = label_names
        self._has_global_stats = kwargs.pop("has_global_stats", False)
        self._kwargs = kwargs
        self.reset()

    def __str__(self) -> str:
        return f"EvalMetric: {dict(self.get_name_value())}"

    def get_config(self) -> dict:
        return {"metric": type(self).__name__, "name": self.name, "output_names": self.output_names,
                "label_names": self.label_names, **self._kwargs}

    def update_dict(self, label: dict, pred: dict) -> None:
        preds = [pred[n] for n in self.output_names] if self.output_names is not None else list(pred.values())
        labels = [label[n] for n in self.label_names] if self.label_names is not None \
            else list(label.values())
        self.update(labels, preds)

    def update(self, labels: Any, preds: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__} must define update")

    def _add(self, value: float, count: int) -> None:
        self.sum_metric += value
        self.global_sum_metric += value
        self.num_inst += count
        self.global_num_inst += count

    def reset(self) -> None:
        self.num_inst = 0
        self.sum_metric = 0.0
        self.global_num_inst = 0
        self.global_sum_metric = 0.0

    def reset_local(self) -> None:
        self.num_inst = 0
        self.sum_metric = 0.0

    def get(self) -> tuple[str, float]:
        if self.num_inst == 0:
            return (self.name, float("nan"))
        return (self.name, self.sum_metric / self.num_inst)

    def get_global(self) -> tuple[str, float]:
        if not self._has_global_stats:
            return self.get()
        if self.global_num_inst == 0:
            return (self.name, float("nan"))
        return (self.name, self.global_sum_metric / self.global_num_inst)

    def get_name_value(self) -> list[tuple[str, float]]:
        name, value = self.get()
        if not isinstance(name, list):
            name, value = [name], [value]
        return list(zip(name, value))

    def get_global_name_value(self) -> list[tuple[str, float]]:
        name, value = self.get_global()
        if not isinstance(name, list):
            name, value = [name], [value]
        return list(zip(name, value))


@_alias("composite")
class CompositeEvalMetric(EvalMetric):
    """Several metrics updated together; ``get()`` gives lists of names and values."""

    def __init__(self, metrics: Any = None, name: str = "composite", output_names: Any = None,
                 label_names: Any = None) -> None:
        self.metrics = [create(m) for m in (metrics or [])]
        super().__init__(name, output_names=output_names, label_names=label_names, has_global_stats=True)

    def add(self, metric: Any) -> None:
        self.metrics.append(create(metric))

    def get_metric(self, index: int) -> EvalMetric:
        return self.metrics[index]

    def update(self, labels: Any, preds: Any) -> None:
        for m in self.metrics:
            m.update(labels, preds)

    def reset(self) -> None:
        for m in getattr(self, "metrics", []):
            m.reset()

    def reset_local(self) -> None:
        for m in self.metrics:
            m.reset_local()

    def get(self) -> tuple[list[str], list[float]]:  # type: ignore[override]
        names, values = [], []
        for m in self.metrics:
            n, v = m.get()
            names += n if isinstance(n, list) else [n]
            values += v if isinstance(v, list) else [v]
        return names, values

    def get_global(self) -> tuple[list[str], list[float]]:  # type: ignore[override]
        names, values = [], []
        for m in self.metrics:
            n, v = m.get_global()
            names += n if isinstance(n, list) else [n]
            values += v if isinstance(v, list) else [v]
        return names, values


@_alias("acc")
class Accuracy(EvalMetric):
    """Fraction of correct predictions; predictions with more axes than the labels are argmax-ed along
    ``axis`` (Default: 1)."""

    def __init__(self, axis: int = 1, name: str = "accuracy", output_names: Any = None,
                 label_names: Any = None) -> None:
        super().__init__(name, axis=axis, output_names=output_names, label_names=label_names,
                         has_global_stats=True)
        self.axis = axis

    def update(self, labels: Any, preds: Any) -> None:
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            p, lb = _np(pred), _np(label)
            if p.shape != lb.shape:
                p = numpy.argmax(p, axis=self.axis)
            p, lb = p.astype("int32").ravel(), lb.astype("int32").ravel()
            check_label_shapes(lb, p)
            self._add(float((p == lb).sum()), len(p))


@_alias("top_k_accuracy", "top_k_acc")
class TopKAccuracy(EvalMetric):
    """Fraction of labels among the ``top_k`` highest predictions."""

    def __init__(self, top_k: int = 1, name: str = "top_k_accuracy", output_names: Any = None,
                 label_names: Any = None) -> None:
        super().__init__(name, top_k=top_k, output_names=output_names, label_names=label_names,
                         has_global_stats=True)
        if top_k <= 1:
            raise ValueError("Please use Accuracy if top_k is no more than 1")
        self.top_k = top_k
        self.name += f"_{top_k}"

    def update(self, labels: Any, preds: Any) -> None:
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            p, lb = _np(pred).astype("float32"), _np(label).astype("int32")
            order = numpy.argsort(p, axis=-1)[..., ::-1][..., :self.top_k]
            hits = (order == lb.reshape(-1, 1)).any(axis=1) if p.ndim == 2 else order.ravel() == lb.ravel()
            self._add(float(hits.sum()), p.shape[0])


class F1(EvalMetric):
    """F1 score of binary classification (class 1 positive; predictions argmax-ed over axis 1)."""

    def __init__(self, name: str = "f1", output_names: Any = None, label_names: Any = None,
                 average: str = "macro") -> None:
        self.average = average
        super().__init__(name, output_names=output_names, label_names=label_names, has_global_stats=True)

    def reset(self) -> None:
        super().reset()
        self._tp = self._fp = self._fn = 0

    def update(self, labels: Any, preds: Any) -> None:
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            p, lb = numpy.argmax(_np(pred), axis=1), _np(label).astype("int32").ravel()
            if len(numpy.unique(lb)) > 2:
                raise ValueError("F1 currently only supports binary classification.")
            tp, fp, fn = int(((p == 1) & (lb == 1)).sum()), int(((p == 1) & (lb != 1)).sum()), int(
                ((p != 1) & (lb == 1)).sum())
            if self.average == "macro":
                prec = tp / (tp + fp) if tp + fp else 0.0
                rec = tp / (tp + fn) if tp + fn else 0.0
                self._add(2 * prec * rec / (prec + rec) if prec + rec else 0.0, 1)
            else:
                self._tp, self._fp, self._fn = self._tp + tp, self._fp + fp, self._fn + fn
                prec = self._tp / (self._tp + self._fp) if self._tp + self._fp else 0.0
                rec = self._tp / (self._tp + self._fn) if self._tp + self._fn else 0.0
                f = 2 * prec * rec / (prec + rec) if prec + rec else 0.0
                self.sum_metric = self.global_sum_metric = f
                self.num_inst = self.global_num_inst = 1


def _pair_2d(label: Any, pred: Any) -> tuple[numpy.ndarray, numpy.ndarray]:
    lb, p = _np(label), _np(pred)
    if lb.ndim == 1:
        lb = lb.reshape(lb.shape[0], 1)
    if p.ndim == 1:
        p = p.reshape(p.shape[0], 1)
    return lb, p


class MAE(EvalMetric):
    """Mean absolute error, averaged per batch."""

    def __init__(self, name: str = "mae", output_names: Any = None, label_names: Any = None) -> None:
        super().__init__(name, output_names=output_names, label_names=label_names, has_global_stats=True)

    def update(self, labels: Any, preds: Any) -> None:
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            lb, p = _pair_2d(label, pred)
            self._add(float(numpy.abs(lb - p).mean()), 1)


class MSE(EvalMetric):
    """Mean squared error, averaged per batch."""

    def __init__(self, name: str = "mse", output_names: Any = None, label_names: Any = None) -> None:
        super().__init__(name, output_names=output_names, label_names=label_names, has_global_stats=True)

    def update(self, labels: Any, preds: Any) -> None:
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            lb, p = _pair_2d(label, pred)
            self._add(float(((lb - p) ** 2.0).mean()), 1)


class RMSE(EvalMetric):
    """Root mean squared error of each batch, averaged over batches."""

    def __init__(self, name: str = "rmse", output_names: Any = None, label_names: Any = None) -> None:
        super().__init__(name, output_names=output_names, label_names=label_names, has_global_stats=True)

    def update(self, labels: Any, preds: Any) -> None:
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            lb, p = _pair_2d(label, pred)
            self._add(float(numpy.sqrt(((lb - p) ** 2.0).mean())), 1)


@_alias("ce")
class CrossEntropy(EvalMetric):
    """Mean of -log(probability of the label) over samples (predictions are probabilities)."""

    def __init__(self, eps: float = 1e-12, name: str = "cross-entropy", output_names: Any = None,
                 label_names: Any = None) -> None:
        super().__init__(name, eps=eps, output_names=output_names, label_names=label_names,
                         has_global_stats=True)
        self.eps = eps

    def update(self, labels: Any, preds: Any) -> None:
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            lb, p = _np(label).ravel(), _np(pred)
            prob = p[numpy.arange(lb.shape[0]), numpy.int64(lb)]
            self._add(float((-numpy.log(prob + self.eps)).sum()), lb.shape[0])


@_alias("nll_loss")
class NegativeLogLikelihood(CrossEntropy):
    """Mean negative log-likelihood of the labels (as CrossEntropy)."""

    def __init__(self, eps: float = 1e-12, name: str = "nll-loss", output_names: Any = None,
                 label_names: Any = None) -> None:
        super().__init__(eps, name, output_names, label_names)


class Perplexity(EvalMetric):
    """exp of the mean negative log-probability of the labels (positions with ``ignore_label`` skipped)."""

    def __init__(self, ignore_label: int | None, axis: int = -1, name: str = "perplexity",
                 output_names: Any = None, label_names: Any = None) -> None:
        super().__init__(name, ignore_label=ignore_label, output_names=output_names, label_names=label_names,
                         has_global_stats=True)
        self.ignore_label = ignore_label
        self.axis = axis

    def update(self, labels: Any, preds: Any) -> None:
        if len(labels) != len(preds):
            raise ValueError(f"{len(labels)} labels for {len(preds)} predictions")
        loss, num = 0.0, 0
        for label, pred in zip(labels, preds):
            p, lb = _np(pred), _np(label).astype("int64")
            probs = numpy.take_along_axis(numpy.moveaxis(p, self.axis, -1).reshape(-1, p.shape[self.axis]),
                                       lb.reshape(-1, 1), axis=1).ravel()
            if self.ignore_label is not None:
                keep = lb.ravel() != self.ignore_label
                probs = probs[keep]
            loss -= float(numpy.sum(numpy.log(numpy.maximum(1e-10, probs))))
            num += probs.size
        self._add(loss, num)

    def get(self) -> tuple[str, float]:
        if self.num_inst == 0:
            return (self.name, float("nan"))
        return (self.name, math.exp(self.sum_metric / self.num_inst))

    def get_global(self) -> tuple[str, float]:
        if self.global_num_inst == 0:
            return (self.name, float("nan"))
        return (self.name, math.exp(self.global_sum_metric / self.global_num_inst))


@_alias("pearsonr")
class PearsonCorrelation(EvalMetric):
    """Pearson correlation of predictions and labels, averaged per batch."""

    def __init__(self, name: str = "pearsonr", output_names: Any = None, label_names: Any = None) -> None:
        super().__init__(name, output_names=output_names, label_names=label_names, has_global_stats=True)

    def update(self, labels: Any, preds: Any) -> None:
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            self._add(float(numpy.corrcoef(_np(pred).ravel(), _np(label).ravel())[0, 1]), 1)


class Loss(EvalMetric):
    """Mean of the loss values given as predictions (labels ignored)."""

    def __init__(self, name: str = "loss", output_names: Any = None, label_names: Any = None) -> None:
        super().__init__(name, output_names=output_names, label_names=label_names, has_global_stats=True)

    def update(self, _: Any, preds: Any) -> None:
        for pred in preds if isinstance(preds, (list, tuple)) else [preds]:
            p = _np(pred)
            self._add(float(p.sum()), p.size)


class CustomMetric(EvalMetric):
    """A metric from ``feval(label, pred) -> value`` (or (sum, count)) on NumPy arrays."""

    def __init__(self, feval: Callable, name: str | None = None, allow_extra_outputs: bool = False,
                 output_names: Any = None, label_names: Any = None) -> None:
        if name is None:
            name = feval.__name__
            if "<" in name:
                name = f"custom({name})"
        super().__init__(name, feval=feval, allow_extra_outputs=allow_extra_outputs,
                         output_names=output_names,
                         label_names=label_names, has_global_stats=True)
        self._feval = feval
        self._allow_extra_outputs = allow_extra_outputs

    def update(self, labels: Any, preds: Any) -> None:
        if not self._allow_extra_outputs:
            labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            result = self._feval(_np(label), _np(pred))
            if isinstance(result, tuple):
                self._add(float(result[0]), int(result[1]))
            else:
                self._add(float(result), 1)


def np(numpy_feval: Callable, name: str | None = None, allow_extra_outputs: bool = False) -> CustomMetric:
    """A CustomMetric from a function of NumPy arrays."""
    def feval(label: Any, pred: Any) -> Any:
        return numpy_feval(label, pred)
    feval.__name__ = numpy_feval.__name__
    return CustomMetric(feval, name, allow_extra_outputs)


for _cls in (F1, MAE, MSE, RMSE, Perplexity, Loss, CustomMetric):
    register(_cls)


def create(metric: Any, *args: Any, **kwargs: Any) -> EvalMetric:
    """A metric from an EvalMetric, a name ('acc', 'ce', 'mse' ...), a function, or a list of these."""
    if callable(metric) and not isinstance(metric, (EvalMetric, type)):
        return CustomMetric(metric, *args, **kwargs)
    if isinstance(metric, EvalMetric):
        return metric
    if isinstance(metric, list):
        return CompositeEvalMetric([create(m, *args, **kwargs) for m in metric])
    if isinstance(metric, str):
        klass = _REGISTRY.get(metric.lower())
        if klass is None:
            raise ValueError(f"unknown metric {metric!r}; expected one of {sorted(_REGISTRY)}")
        return klass(*args, **kwargs)
    raise TypeError(f"metric must be an EvalMetric, a name, a function or a list, got "
                    f"{type(metric).__name__}")


from cellonnx.gluon.metric_extra import MCC, PCC  # noqa: E402  (registers MCC, PCC, Torch and Caffe too)

__all__ += ["MCC", "PCC"]
