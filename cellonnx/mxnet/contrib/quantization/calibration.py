"""Calibration of a quantized graph as MXNet 1.9.1 does it: collectors of the float model's layer outputs
(min / max for ``naive``, 8001-bin histograms for ``entropy``), the KL-divergence thresholds computed by
``contrib.calibrate_entropy``, and running the float symbol over the calibration data."""
from __future__ import annotations

import logging
from typing import Any

import numpy as np

from cellonnx.mxnet import ndarray as nd
from cellonnx.mxnet.io import DataIter

__all__ = ["LayerHistogramCollector", "LayerOutputMinMaxCollector", "collect_layer_statistics",
           "combine_histogram", "optimal_threshold", "optimal_thresholds"]


def _numpy(arr: Any) -> np.ndarray:
    return arr.asnumpy() if hasattr(arr, "asnumpy") else np.asarray(arr)


def combine_histogram(old_hist: tuple, arr: Any, new_min: float, new_max: float, new_th: float) -> tuple:
    """Add ``arr`` to a layer's histogram ``(hist, edges, min, max, th)``; when ``arr`` reaches past the
    histogram's range ``+-th``, the histogram grows by whole bins on both sides to cover it."""
    hist0, edges0, min0, max0, th0 = old_hist
    arr = _numpy(arr)
    if new_th <= th0:
        hist, _ = np.histogram(arr, bins=len(hist0), range=(-th0, th0))
        return hist0 + hist, edges0, min(min0, new_min), max(max0, new_max), th0
    step = 2 * th0 / len(hist0)
    extra = int((new_th - th0) // step + 1)
    bins = extra * 2 + len(hist0)
    th = extra * step + th0
    hist, edges = np.histogram(arr, bins=bins, range=(-th, th))
    hist[extra:bins - extra] += hist0
    return hist, edges, min(min0, new_min), max(max0, new_max), th


class LayerHistogramCollector:
    """Collects each included layer's output histogram (``hist_dict``: name -> (hist, edges, min, max,
    th)) for entropy calibration."""

    def __init__(self, num_bins: int = 8001, include_layer: Any = None, logger: Any = None) -> None:
        self.hist_dict: dict[str, tuple] = {}
        self.num_bins = num_bins
        self.include_layer = include_layer
        self.logger = logger

    def collect(self, name: str, arr: Any) -> None:
        """Add output ``arr`` of layer ``name`` (ignored unless the layer is included)."""
        if self.include_layer is not None and name not in self.include_layer:
            return
        arr = _numpy(arr)
        low, high = np.min(arr), np.max(arr)
        th = max(abs(low), abs(high))
        if name in self.hist_dict:
            self.hist_dict[name] = combine_histogram(self.hist_dict[name], arr, low, high, th)
        else:
            hist, edges = np.histogram(arr, bins=self.num_bins, range=(-th, th))
            self.hist_dict[name] = (hist, edges, low, high, th)


class LayerOutputMinMaxCollector:
    """Collects each included layer's output range (``min_max_dict``: name -> (min, max)) for naive
    calibration."""

    def __init__(self, quantized_dtype: str, include_layer: Any = None, logger: Any = None) -> None:
        self.min_max_dict: dict[str, tuple] = {}
        self.quantized_dtype = quantized_dtype
        self.include_layer = include_layer
        self.logger = logger

    def collect(self, name: str, arr: Any) -> None:
        """Widen layer ``name``'s range by output ``arr`` (ignored unless the layer is included)."""
        if self.include_layer is not None and name not in self.include_layer:
            return
        arr = _numpy(arr)
        low, high = np.float32(arr.min()), np.float32(arr.max())
        if name in self.min_max_dict:
            old = self.min_max_dict[name]
            self.min_max_dict[name] = (min(old[0], low), max(old[1], high))
        else:
            self.min_max_dict[name] = (low, high)


def optimal_threshold(hist_data: tuple, quantized_dtype: str, num_quantized_bins: int = 255) -> tuple:
    """(min, max, threshold, divergence) of one layer's histogram; non-negative layers quantized to uint8
    (or 'auto') use twice the levels."""
    hist, edges, low, high, _ = hist_data
    if len(hist) % 2 != 1:
        raise ValueError(f"calibration: the histogram must have an odd number of bins, got {len(hist)}")
    if low >= 0 and quantized_dtype in ("auto", "uint8"):
        num_quantized_bins = num_quantized_bins * 2 + 1
    threshold, divergence = nd.contrib.calibrate_entropy(
        hist=nd.array(np.asarray(hist, np.float32)), hist_edges=nd.array(np.asarray(edges, np.float32)),
        num_quantized_bins=num_quantized_bins)
    return low, high, threshold.asnumpy(), divergence.asnumpy()


def optimal_thresholds(hist_dict: dict[str, tuple], quantized_dtype: str, num_quantized_bins: int = 255,
                       logger: Any = None) -> dict[str, tuple]:
    """Every layer's calibrated range from its histogram: (0, th) for non-negative layers quantized to
    uint8 (or 'auto'), (-th, th) otherwise."""
    th_dict = {}
    for name in list(hist_dict):
        low, high, th, divergence = optimal_threshold(hist_dict[name], quantized_dtype, num_quantized_bins)
        th_dict[name] = (0, th) if low >= 0 and quantized_dtype in ("auto", "uint8") else (-th, th)
        del hist_dict[name]
        if logger:
            logger.debug("layer=%s, min_val=%f, max_val=%f, th=%f, divergence=%f",
                         name, low, high, float(th[0]), float(divergence[0]))
    return th_dict


def collect_layer_statistics(sym: Any, params: dict[str, Any], data: Any, collector: Any,
                             max_num_examples: int | None = None,
                             logger: logging.Logger | None = None) -> int:
    """Run the float symbol over ``data`` (a DataIter) and hand every included layer output to
    ``collector.collect(name, array)``; returns the number of examples seen."""
    if not isinstance(data, DataIter):
        raise ValueError(f"Only supports data as a type of DataIter, while received type {type(data)}")
    from cellonnx.mxnet import symbol

    internals = sym.get_internals()
    names = [n for n in internals.list_outputs() if collector.include_layer is None or
             n in collector.include_layer]
    group = symbol.Group([internals[n] for n in names])
    data_names = [d.name for d in data.provide_data]
    batches = examples = 0
    for batch in data:
        feeds = dict(zip(data_names, batch.data))
        outs = group.eval(**{k: v for k, v in params.items() if k in group.list_inputs()}, **feeds)
        for name, out in zip(names, outs):
            collector.collect(name, out)
        batches += 1
        examples += data.batch_size
        if max_num_examples is not None and examples >= max_num_examples:
            break
    if logger is not None:
        logger.info("Collected statistics from %d batches with batch_size=%d", batches, data.batch_size)
    return examples
