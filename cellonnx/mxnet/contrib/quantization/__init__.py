"""``mx.contrib.quantization``: MXNet 1.9.1's int8 quantization of symbolic models.

``quantize_model`` rewrites a float symbol with MXNet's graph pass (quantized operators, quantize /
requantize / dequantize nodes; parameters quantized offline), calibrates it on data (``calib_mode``
'naive': the layer outputs' min / max; 'entropy': KL-divergence thresholds; 'none': ranges computed at
run time) and returns the quantized symbol and parameters, as MXNet writes them. ``quantize_graph`` and
``calib_graph`` are the same in two steps around a collector the caller feeds.

Examples:
    >>> import numpy as np
    >>> import cellonnx.mxnet as mx
    >>> from cellonnx.mxnet.contrib import quantization
    >>> data = mx.sym.var("data")
    >>> net = mx.sym.FullyConnected(data, num_hidden=2, name="fc0")
    >>> params = {"fc0_weight": mx.nd.array(np.eye(2, 3)), "fc0_bias": mx.nd.zeros(2)}
    >>> qsym, qargs, _ = quantization.quantize_model(net, params, {}, calib_mode="none")
    >>> qsym.list_outputs()
    ['fc0_dequantize_output']
    >>> qsym.list_arguments()[:3]
    ['data', 'fc0_weight_quantize', 'fc0_bias_quantize']
    >>> qargs["fc0_weight_quantize"].asnumpy()
    array([[127,   0,   0],
           [  0, 127,   0]], dtype=int8)
"""
from __future__ import annotations

import logging
import os
from typing import Any

import numpy as np

from cellonnx.mxnet import ndarray as nd
from cellonnx.mxnet.contrib.quantization.calibration import (
    LayerHistogramCollector,
    LayerOutputMinMaxCollector,
    collect_layer_statistics,
    combine_histogram,
    optimal_thresholds,
)
from cellonnx.mxnet.contrib.quantization.gluon_net import quantize_model_mkldnn, quantize_net, quantize_net_v2
from cellonnx.mxnet.contrib.quantization.graph_pass import quantize_graph_json, set_calib_table
from cellonnx.mxnet.device import Device, cpu
from cellonnx.mxnet.io import DataIter

__all__ = ["calib_graph", "combine_histogram", "quantize_graph", "quantize_model", "quantize_model_mkldnn",
           "quantize_net", "quantize_net_v2"]

_LayerHistogramCollector = LayerHistogramCollector
_LayerOutputMinMaxCollector = LayerOutputMinMaxCollector


def _symbol_module() -> Any:
    from cellonnx.mxnet import symbol

    return symbol


def _quantize_symbol(sym: Any, ctx: Any, excluded_symbols: list[str] | None = None,
                     excluded_operators: list[str] | None = None, offline_params: list[str] | None = None,
                     quantized_dtype: str = "int8", quantize_mode: str = "smart",
                     quantize_granularity: str = "tensor-wise") -> tuple[Any, list[str]]:
    """The quantized symbol of ``sym`` and the names of the layer outputs its calibration needs."""
    if excluded_symbols is not None and not isinstance(excluded_symbols, list):
        raise AssertionError("excluded_symbols must be a list")
    if excluded_operators is not None and not isinstance(excluded_operators, list):
        raise AssertionError("excluded_operators must be a list")
    text, calib = quantize_graph_json(sym.tojson(), excluded_symbols, excluded_operators, offline_params,
                                      quantized_dtype, quantize_mode, quantize_granularity)
    return _symbol_module().load_json(text), calib


def _first(value: Any) -> float:
    """A threshold (a number, or a 1-element array as entropy calibration gives) as a float."""
    return float(np.asarray(value, dtype=np.float64).reshape(-1)[0])


def _calibrate_quantized_sym(qsym: Any, th_dict: dict[str, tuple] | None) -> Any:
    """``qsym`` with the thresholds of ``th_dict`` (layer output name -> (min, max)) set on its quantize
    and requantize nodes."""
    if not th_dict:
        return qsym
    table = {k: (_first(v[0]), _first(v[1])) for k, v in th_dict.items()}
    return _symbol_module().load_json(set_calib_table(qsym.tojson(), table))


def _quantize_params(qsym: Any, params: dict[str, Any], th_dict: dict[str, tuple]) -> dict[str, Any]:
    """The quantized symbol's parameters: weights and biases quantized to int8 over their own range
    (``<name>_quantize`` with ``_min`` / ``_max``), other parameters as they are."""
    out: dict[str, Any] = {}
    for name in qsym.list_arguments():
        if name.endswith(("weight_quantize", "bias_quantize")):
            param = params[name[:-len("_quantize")]]
            val, vmin, vmax = nd.contrib.quantize(data=param, min_range=nd.min(param),
                                                  max_range=nd.max(param), out_type="int8")
            out[name], out[name + "_min"], out[name + "_max"] = val, vmin, vmax
        elif name in params:
            out[name] = params[name]
        elif name.endswith("_min") and name[:-len("_min")] in th_dict:
            out[name] = nd.array([th_dict[name[:-len("_min")]][0]])
        elif name.endswith("_max") and name[:-len("_min")] in th_dict:  # MXNet strips 4 characters here too
            out[name] = nd.array([th_dict[name[:-len("_min")]][1]])
    return out


def _check(excluded_sym_names: Any, excluded_op_names: Any, quantized_dtype: str,
           quantize_granularity: str) -> tuple[list[str], list[str]]:
    excluded_sym_names = [] if excluded_sym_names is None else excluded_sym_names
    if not isinstance(excluded_sym_names, list):
        raise ValueError("excluded_sym_names must be a list of strings representing the names of the "
                         "symbols that will not be quantized, while received type "
                         f"{type(excluded_sym_names)}")
    excluded_op_names = [] if excluded_op_names is None else excluded_op_names
    if not isinstance(excluded_op_names, list):
        raise ValueError("excluded_op_names must be a list of strings representing the names of the "
                         "operators that will not be quantized, while received type "
                         f"{type(excluded_op_names)}")
    if quantized_dtype not in ("int8", "uint8", "auto"):
        raise ValueError(f"unknown quantized_dtype {quantized_dtype} received, expected `int8`, `uint8` or "
                         "`auto`")
    if quantize_granularity not in ("tensor-wise", "channel-wise"):
        raise ValueError(f"unkonwn quantize_granularity {quantize_granularity} received, expected "
                         "`tensor-wise` or `channel-wise`.")
    return excluded_sym_names, excluded_op_names


def quantize_model(sym: Any, arg_params: dict[str, Any], aux_params: dict[str, Any],
                   data_names: Any = ("data",), label_names: Any = ("softmax_label",), ctx: Any = None,
                   excluded_sym_names: list[str] | None = None, excluded_op_names: list[str] | None = None,
                   calib_mode: str = "entropy", calib_data: Any = None, num_calib_examples: int | None = None,
                   quantized_dtype: str = "int8", quantize_mode: str = "smart",
                   quantize_granularity: str = "tensor-wise", logger: Any = None) -> tuple[Any, dict, dict]:
    """Quantize a float symbol and its parameters to int8, calibrated on ``calib_data``.

    Args:
        sym (Symbol): the float network.
        arg_params (dict): its arguments' values (quantized offline when they are weights or biases).
        aux_params (dict): its auxiliary states (returned as they are).
        data_names, label_names: the data iterator's input names (labels are not fed to the network).
        ctx (Context): where the calibration runs (cpu).
        excluded_sym_names (list[str]): layers left in float.
        excluded_op_names (list[str]): operators left in float ('Pooling', 'Concat' ...).
        calib_mode (str): 'none' (ranges computed at run time), 'naive' (layer outputs' min / max) or
            'entropy' (KL-divergence thresholds).
        calib_data (DataIter): the calibration set (for 'naive' and 'entropy').
        num_calib_examples (int): examples to calibrate on (the whole set by default).
        quantized_dtype (str): 'int8', 'uint8' or 'auto' (uint8 for non-negative calibrated data).
        quantize_mode (str): 'smart' (support operators only between quantized layers) or 'full'.
        quantize_granularity (str): 'tensor-wise'.
        logger: a logging object.

    Returns:
        tuple: (quantized symbol, quantized arg_params, aux_params).

    Examples:
        >>> import numpy as np
        >>> import cellonnx.mxnet as mx
        >>> from cellonnx.mxnet.contrib.quantization import quantize_model
        >>> net = mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=2, name="fc0")
        >>> params = {"fc0_weight": mx.nd.array(np.eye(2, 3)), "fc0_bias": mx.nd.zeros(2)}
        >>> calib = mx.io.NDArrayIter(mx.nd.array(np.linspace(-1, 1, 12).reshape(4, 3)), batch_size=2)
        >>> qsym, qargs, _ = quantize_model(net, params, {}, calib_mode="naive", calib_data=calib,
        ...                                 label_names=None)
        >>> qsym.attr_dict()["requantize_fc0"]["max_calib_range"]
        '0.818182'
    """
    excluded_sym_names, excluded_op_names = _check(excluded_sym_names, excluded_op_names, quantized_dtype,
                                                   quantize_granularity)
    ctx = cpu() if ctx is None else ctx
    if logger:
        os.environ["MXNET_QUANTIZATION_VERBOSE"] = "1"
        logger.info("Quantizing symbol")
    qsym, calib_layer = _quantize_symbol(sym, ctx, excluded_sym_names, excluded_op_names, list(arg_params),
                                         quantized_dtype, quantize_mode, quantize_granularity)
    th_dict: dict[str, tuple] = {}
    if calib_mode is not None and calib_mode != "none":
        if not isinstance(ctx, Device):
            raise ValueError(f"currently only supports single ctx, while received {ctx}")
        if calib_data is None:
            raise ValueError(f"calib_data must be provided when calib_mode={calib_mode}")
        if not isinstance(calib_data, DataIter):
            raise ValueError(f"calib_data must be of DataIter type when calib_mode={calib_mode}, while "
                             f"received type {type(calib_data)}")
        params = {**arg_params, **aux_params}
        if calib_mode == "entropy":
            collector: Any = LayerHistogramCollector(include_layer=calib_layer, logger=logger)
            collect_layer_statistics(sym, params, calib_data, collector, num_calib_examples, logger)
            th_dict = optimal_thresholds(collector.hist_dict, quantized_dtype, logger=logger)
        elif calib_mode == "naive":
            collector = LayerOutputMinMaxCollector(quantized_dtype, include_layer=calib_layer, logger=logger)
            collect_layer_statistics(sym, params, calib_data, collector, num_calib_examples, logger)
            th_dict = collector.min_max_dict
        else:
            raise ValueError(f"unknown calibration mode {calib_mode} received, expected `none`, `naive`, or "
                             "`entropy`")
        qsym = _calibrate_quantized_sym(qsym, th_dict)
    if logger:
        logger.info("Quantizing parameters")
    return qsym, _quantize_params(qsym, arg_params, th_dict), aux_params


def quantize_graph(sym: Any, arg_params: dict[str, Any], aux_params: dict[str, Any], ctx: Any = None,
                   excluded_sym_names: list[str] | None = None, excluded_op_names: list[str] | None = None,
                   calib_mode: str = "entropy", quantized_dtype: str = "int8", quantize_mode: str = "full",
                   quantize_granularity: str = "tensor-wise", LayerOutputCollector: Any = None,
                   logger: Any = None) -> tuple[Any, dict, dict, Any]:
    """Quantize a float symbol without calibrating it: returns (quantized symbol, quantized arg_params,
    aux_params, collector), the collector (for 'naive', 'entropy' or the 'customize' one given) to be fed
    the float model's layer outputs with ``collector.collect(name, array)`` before ``calib_graph``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx.mxnet as mx
        >>> from cellonnx.mxnet.contrib.quantization import quantize_graph
        >>> net = mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=2, name="fc0")
        >>> params = {"fc0_weight": mx.nd.array(np.eye(2, 3)), "fc0_bias": mx.nd.zeros(2)}
        >>> qsym, qargs, _, collector = quantize_graph(net, params, {}, calib_mode="naive")
        >>> sorted(collector.include_layer)
        ['data', 'fc0_output']
    """
    excluded_sym_names, excluded_op_names = _check(excluded_sym_names, excluded_op_names, quantized_dtype,
                                                   quantize_granularity)
    ctx = cpu() if ctx is None else ctx
    if not isinstance(ctx, Device):
        raise ValueError(f"currently only supports single ctx, while received {ctx}")
    qsym, calib_layer = _quantize_symbol(sym, ctx, excluded_sym_names, excluded_op_names, list(arg_params),
                                         quantized_dtype, quantize_mode, quantize_granularity)
    collector = None
    if calib_mode is not None and calib_mode != "none":
        if calib_mode == "entropy":
            collector = LayerHistogramCollector(include_layer=calib_layer, logger=logger)
        elif calib_mode == "naive":
            collector = LayerOutputMinMaxCollector(quantized_dtype, include_layer=calib_layer, logger=logger)
        elif calib_mode == "customize" and LayerOutputCollector is not None:
            collector = LayerOutputCollector
        else:
            raise ValueError(f"unknown calibration mode {calib_mode} received, expected `none`, `naive`, "
                             "`entropy` or `customize`")
    return qsym, _quantize_params(qsym, arg_params, {}), aux_params, collector


def calib_graph(qsym: Any, arg_params: dict[str, Any], aux_params: dict[str, Any], collector: Any,
                calib_mode: str = "entropy", quantized_dtype: str = "int8",
                logger: Any = logging) -> tuple[Any, dict, dict]:
    """Set the thresholds a collector gathered into a quantized symbol (from ``quantize_graph``): returns
    (calibrated symbol, quantized arg_params, aux_params).

    Examples:
        >>> import numpy as np
        >>> import cellonnx.mxnet as mx
        >>> from cellonnx.mxnet.contrib.quantization import calib_graph, quantize_graph
        >>> net = mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=2, name="fc0")
        >>> params = {"fc0_weight": mx.nd.array(np.eye(2, 3)), "fc0_bias": mx.nd.zeros(2)}
        >>> qsym, qargs, aux, collector = quantize_graph(net, params, {}, calib_mode="naive")
        >>> collector.collect("data", mx.nd.array([[-2.0, 0.5, 1.0]]))
        >>> qsym, qargs, aux = calib_graph(qsym, params, aux, collector, calib_mode="naive", logger=None)
        >>> qsym.attr_dict()["data_quantize"]["min_calib_range"]
        '-2.000000'
    """
    if calib_mode is None or calib_mode == "none":
        raise ValueError("please set calibration mode to naive or entropy.")
    if calib_mode == "entropy":
        th_dict = optimal_thresholds(collector.hist_dict, quantized_dtype, logger=logger)
    elif calib_mode in ("naive", "customize"):
        th_dict = collector.min_max_dict
    else:
        raise ValueError(f"unknown calibration mode {calib_mode} received, expected `none`, `naive`, "
                         "`entropy` or `customize`")
    qsym = _calibrate_quantized_sym(qsym, th_dict)
    return qsym, _quantize_params(qsym, arg_params, th_dict), aux_params
