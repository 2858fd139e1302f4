"""Quantization with MXNet 1.9.1's oneDNN fusions: ``quantize_model_mkldnn`` (a symbol and its parameters)
and ``quantize_net_v2`` / ``quantize_net`` (a Gluon HybridBlock, returned as a quantized SymbolBlock).

The float graph is partitioned by the MKLDNN_QUANTIZE backend (``_sg_mkldnn_conv`` /
``_sg_mkldnn_fully_connected``), quantized and calibrated on it, and partitioned again, which folds the
calibrated requantize / dequantize nodes into the fused layers.
"""
from __future__ import annotations

import os
import tempfile
import warnings
from typing import Any

from cellonnx.mxnet.device import Device, cpu
from cellonnx.mxnet.io import DataDesc, DataIter

__all__ = ["quantize_model_mkldnn", "quantize_net", "quantize_net_v2"]


def _is_cpu(ctx: Any) -> bool:
    return isinstance(ctx, Device) and ctx.device_type == "cpu"


def quantize_model_mkldnn(sym: Any, arg_params: dict[str, Any], aux_params: dict[str, Any],
                          data_names: Any = ("data",), label_names: Any = ("softmax_label",), ctx: Any = None,
                          excluded_sym_names: list[str] | None = None,
                          excluded_op_names: list[str] | None = None, calib_mode: str = "entropy",
                          calib_data: Any = None, num_calib_examples: int | None = None,
                          quantized_dtype: str = "int8", quantize_mode: str = "smart",
                          quantize_granularity: str = "tensor-wise",
                          logger: Any = None) -> tuple[Any, dict, dict]:
    """``quantize_model`` on the graph fused by oneDNN (MXNet's MKLDNN_QUANTIZE backend), fused again
    after calibration: returns (quantized symbol, quantized arg_params, aux_params).

    Examples:
        >>> import json
        >>> import numpy as np
        >>> import cellonnx.mxnet as mx
        >>> from cellonnx.mxnet.contrib.quantization import quantize_model_mkldnn
        >>> x = mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=2, name="fc0")
        >>> net = mx.sym.Activation(x, act_type="relu", name="relu0")
        >>> params = {"fc0_weight": mx.nd.array(np.eye(2, 3)), "fc0_bias": mx.nd.zeros(2)}
        >>> calib = mx.io.NDArrayIter(mx.nd.array(np.linspace(-1, 1, 12).reshape(4, 3)), batch_size=2)
        >>> qsym, qargs, _ = quantize_model_mkldnn(net, params, {}, calib_mode="naive", calib_data=calib,
        ...                                        label_names=None)
        >>> [n["name"] for n in json.loads(qsym.tojson())["nodes"] if n["op"] != "null"]
        ['data_quantize', 'quantized_sg_mkldnn_fully_connected_eltwise_0']
        >>> qsym.attr_dict()["quantized_sg_mkldnn_fully_connected_eltwise_0"]["enable_float_output"]
        'True'
    """
    from cellonnx.mxnet.contrib.quantization import quantize_model

    ctx = cpu() if ctx is None else ctx
    if not isinstance(ctx, Device):
        raise ValueError(f"currently only supports single ctx, while received {ctx}")
    if ctx.device_type != "cpu":
        raise ValueError("quantize_model_mkldnn only support Intel cpu platform with MKL-DNN Backend")
    sym = sym.get_backend_symbol("MKLDNN_QUANTIZE")
    qsym, qarg_params, aux_params = quantize_model(
        sym=sym, arg_params=arg_params, aux_params=aux_params, data_names=data_names, label_names=label_names,
        ctx=ctx, excluded_sym_names=excluded_sym_names, excluded_op_names=excluded_op_names,
        calib_mode=calib_mode, calib_data=calib_data, num_calib_examples=num_calib_examples,
        quantized_dtype=quantized_dtype, quantize_mode=quantize_mode,
        quantize_granularity=quantize_granularity, logger=logger)
    return qsym.get_backend_symbol("MKLDNN_QUANTIZE"), qarg_params, aux_params


class _LoaderIter(DataIter):
    """A Gluon DataLoader as the DataIter calibration reads (MXNet's _DataIterWrapper): the data of each
    batch (the first element of a tuple or list batch), named 'data'."""

    def __init__(self, loader: Any) -> None:
        super().__init__()
        self._loader = loader
        self._iter = iter(loader)
        first = self._first(next(iter(loader)))
        self.batch_size = first.shape[0]
        self.provide_data = [DataDesc(name="data", shape=first.shape, dtype=first.dtype)]
        self.provide_label = None

    @staticmethod
    def _first(batch: Any) -> Any:
        return batch[0] if isinstance(batch, (list, tuple)) else batch

    def reset(self) -> None:
        self._iter = iter(self._loader)

    def next(self) -> Any:
        from cellonnx.mxnet.io import DataBatch

        return DataBatch(data=[self._first(next(self._iter))])


def _export(network: Any, num_inputs: int) -> tuple[Any, dict, dict]:
    """The network's MXNet graph and parameters, as ``export`` and ``load_checkpoint`` give them in MXNet:
    the network called on variables ``data`` (``data0``, ``data1`` ... for several inputs)."""
    from cellonnx.mxnet import symbol

    names = ["data"] if num_inputs == 1 else [f"data{i}" for i in range(num_inputs)]
    out = network(*[symbol.var(n) for n in names])
    if isinstance(out, (list, tuple)):
        out = symbol.Group(list(out))
    params = {p.name: p.data() for p in network.collect_params().values()}
    args = {n: params[n] for n in out.list_arguments() if n in params}
    auxs = {n: params[n] for n in out.list_auxiliary_states() if n in params}
    return out, args, auxs


def quantize_net_v2(network: Any, quantized_dtype: str = "auto", quantize_mode: str = "full",
                    quantize_granularity: str = "tensor-wise", exclude_layers: list[str] | None = None,
                    exclude_layers_match: list[str] | None = None, exclude_operators: list[str] | None = None,
                    calib_data: Any = None, data_shapes: Any = None, calib_mode: str = "none",
                    num_calib_examples: int | None = None, ctx: Any = None, LayerOutputCollector: Any = None,
                    logger: Any = None) -> Any:
    """Quantize a Gluon HybridBlock with oneDNN's fused int8 layers: returns a SymbolBlock of the quantized
    graph with its parameters (MXNet 1.9.1's ``quantize_net_v2``).

    Args:
        network (HybridBlock): the float network (hybridized and exported here).
        quantized_dtype (str): 'auto' (uint8 for non-negative calibrated data), 'int8' or 'uint8'.
        quantize_mode (str): 'full' or 'smart'.
        quantize_granularity (str): 'tensor-wise' or 'channel-wise' (the fully-connected layers' weights).
        exclude_layers (list[str]): layers (of the fused graph) left in float.
        exclude_layers_match (list[str]): substrings; the float graph's layers whose name holds one are
            excluded.
        exclude_operators (list[str]): operators left in float.
        calib_data (DataIter or DataLoader): the calibration set.
        data_shapes (list[DataDesc]): the inputs' shapes when there is no calibration set.
        calib_mode (str): 'none', 'naive', 'entropy' or 'customize'.
        num_calib_examples (int): examples to calibrate on.
        ctx (Context): cpu.
        LayerOutputCollector: the collector of 'customize' calibration.
        logger: a logging object.

    Returns:
        SymbolBlock: the quantized network.

    Examples:
        >>> import numpy as np
        >>> import cellonnx.mxnet as mx
        >>> from cellonnx.mxnet.contrib.quantization import quantize_net_v2
        >>> net = mx.gluon.nn.Dense(3, in_units=4, prefix="dense0_")
        >>> net.initialize(mx.init.Constant(0.25))
        >>> x = mx.nd.array(np.linspace(0, 1, 8).reshape(2, 4))
        >>> calib = mx.io.NDArrayIter(x, batch_size=2)
        >>> qnet = quantize_net_v2(net, calib_data=calib, calib_mode="naive")
        >>> qnet(x).asnumpy().round(3)
        array([[0.213, 0.213, 0.213],
               [0.503, 0.503, 0.503]], dtype=float32)
    """
    from cellonnx import gluon
    from cellonnx.mxnet import ndarray as nd
    from cellonnx.mxnet.contrib.quantization import calib_graph, quantize_graph
    from cellonnx.mxnet.contrib.quantization.calibration import collect_layer_statistics
    from cellonnx.mxnet.symbol import var

    ctx = cpu() if ctx is None else ctx
    if logger:
        logger.info("Export HybridBlock")
    network.hybridize()
    if calib_data is not None:
        if isinstance(calib_data, DataIter):
            dshapes = calib_data.provide_data
        else:
            calib_data = _LoaderIter(calib_data)
            dshapes = calib_data.provide_data
        if not data_shapes:
            data_shapes = dshapes
    if not data_shapes:
        raise ValueError("data_shapes required")
    data_nd = [nd.zeros(shape.shape) for shape in data_shapes]
    network(*data_nd)
    symnet, args, auxs = _export(network, len(data_nd))
    exclude_layers = list(exclude_layers or [])
    for name_match in exclude_layers_match or []:
        for layer in list(symnet.get_internals()):
            if layer.name.find(name_match) != -1:
                exclude_layers.append(layer.name)
    if logger:
        logger.info(f"These layers have been excluded {exclude_layers}")
    if _is_cpu(ctx):
        symnet = symnet.get_backend_symbol("MKLDNN_QUANTIZE")
    qsym, qarg_params, aux_params, collector = quantize_graph(
        sym=symnet, arg_params=args, aux_params=auxs, ctx=ctx, excluded_sym_names=exclude_layers,
        excluded_op_names=list(exclude_operators or []), calib_mode=calib_mode,
        quantized_dtype=quantized_dtype, quantize_mode=quantize_mode,
        quantize_granularity=quantize_granularity, LayerOutputCollector=LayerOutputCollector, logger=logger)
    if calib_mode is not None and calib_mode != "none":
        if not isinstance(ctx, Device):
            raise ValueError(f"currently only supports single ctx, while received {ctx}")
        if calib_data is None:
            raise ValueError(f"calib_data must be provided when calib_mode={calib_mode}")
        if calib_mode not in ("naive", "entropy", "customize"):
            raise ValueError("please set calibration mode to naive or entropy.")
        data_names = [pair[0] for pair in calib_data.provide_data]
        num_examples = collect_layer_statistics(symnet, {**args, **auxs}, calib_data, collector,
                                                num_calib_examples, logger)
        if logger:
            logger.info(f"Collected layer output values from FP32 model using {num_examples} examples")
        qsym, qarg_params, aux_params = calib_graph(qsym=qsym, arg_params=args, aux_params=auxs,
                                                    collector=collector, calib_mode=calib_mode,
                                                    quantized_dtype=quantized_dtype, logger=logger)
    else:
        data_names = [pair[0] for pair in data_shapes]
    if _is_cpu(ctx):
        qsym = qsym.get_backend_symbol("MKLDNN_QUANTIZE")
    net = gluon.SymbolBlock(qsym, [var(name) for name in data_names])
    with tempfile.TemporaryDirectory() as tmp:
        fname = os.path.join(tmp, "tmpnet-quantized-0000.params")
        save = {f"arg:{k}": v for k, v in qarg_params.items()}
        save.update({f"aux:{k}": v for k, v in aux_params.items()})
        nd.save(fname, save)
        net.collect_params().load(fname, cast_dtype=True, dtype_source="saved")
    return net


def quantize_net(network: Any, quantized_dtype: str = "auto", quantize_mode: str = "full",
                 exclude_layers: list[str] | None = None, exclude_layers_match: list[str] | None = None,
                 exclude_operators: list[str] | None = None, calib_data: Any = None, data_shapes: Any = None,
                 calib_mode: str = "none", num_calib_examples: int | None = None, ctx: Any = None,
                 logger: Any = None) -> Any:
    """``quantize_net_v2`` with tensor-wise granularity (MXNet warns that it will be deprecated).

    Examples:
        >>> import warnings
        >>> import numpy as np
        >>> import cellonnx.mxnet as mx
        >>> from cellonnx.mxnet.contrib.quantization import quantize_net
        >>> net = mx.gluon.nn.Dense(2, in_units=2, prefix="dense0_")
        >>> net.initialize(mx.init.One())
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     qnet = quantize_net(net, data_shapes=[mx.io.DataDesc("data", (1, 2))])
        >>> type(qnet).__name__
        'SymbolBlock'
        >>> qnet(mx.nd.array([[0.5, -1.0]])).asnumpy()
        array([[-0.5019608, -0.5019608]], dtype=float32)
    """
    warnings.warn("WARNING: This will be deprecated after MXNet 2.0, please use quantize_net_v2.",
                  stacklevel=2)
    return quantize_net_v2(network=network, quantized_dtype=quantized_dtype, quantize_mode=quantize_mode,
                           quantize_granularity="tensor-wise", exclude_layers=exclude_layers,
                           exclude_layers_match=exclude_layers_match, exclude_operators=exclude_operators,
                           calib_data=calib_data, data_shapes=data_shapes, calib_mode=calib_mode,
                           num_calib_examples=num_calib_examples, ctx=ctx, LayerOutputCollector=None,
                           logger=logger)
