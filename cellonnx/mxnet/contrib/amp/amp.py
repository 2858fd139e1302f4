"""``mx.contrib.amp``: automatic mixed precision as MXNet 1.9.1 has it.

Training: ``amp.init()`` wraps the mx.nd / mx.sym operator functions so that the operators of the low
precision list cast their float inputs to the target type and those of the float32 lists cast them back;
``amp.init_trainer(trainer)`` gives a Gluon Trainer the dynamic loss scaler, ``with amp.scale_loss(loss,
trainer) as scaled:`` multiplies the loss by the scale (and the Trainer divides the gradients by it), and the
Trainer skips a step whose gradients overflowed. Inference: ``convert_symbol`` / ``convert_model`` /
``convert_hybrid_block`` / ``convert_bucketing_module`` insert ``amp_cast`` / ``amp_multicast`` nodes by the
same lists (reduce_precision.py).
"""
from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from typing import Any

import numpy as np

from cellonnx.mxnet.contrib.amp import lists
from cellonnx.mxnet.contrib.amp.loss_scaler import LossScaler
from cellonnx.mxnet.contrib.amp.wrap import wrap_loss_output_functions, wrap_symbol_functions

__all__ = ["convert_bucketing_module", "convert_hybrid_block", "convert_model", "convert_symbol", "init",
           "init_trainer", "list_conditional_fp32_ops", "list_fp32_ops", "list_loss_output_functions",
           "list_lp16_fp32_ops", "list_lp16_ops", "list_lp16_use_fp32_params", "list_widest_type_cast",
           "scale_loss", "unscale"]

_state: dict[str, Any] = {"initialized": False, "loss_scale_initialized": False, "loss_scaler": None}


def _low(target_dtype: Any) -> str:
    """'float16' or 'bfloat16' for the spellings MXNet accepts."""
    if isinstance(target_dtype, str) and target_dtype in ("float16", "bfloat16"):
        return target_dtype
    try:
        name = np.dtype(target_dtype).name
    except TypeError:
        name = str(target_dtype)
    if name in ("float16", "bfloat16"):
        return name
    raise AssertionError("not supported type")


def _lists(target_dtype: Any) -> Any:
    return lists.symbol_fp16 if _low(target_dtype) == "float16" else lists.symbol_bf16


def list_lp16_ops(target_dtype: Any) -> list[str]:
    """The operators AMP runs in ``target_dtype`` ('float16' or 'bfloat16').

    Examples:
        >>> from cellonnx.mxnet.contrib import amp
        >>> amp.list_lp16_ops("bfloat16")
        ['Convolution', 'FullyConnected']
    """
    mod = _lists(target_dtype)
    return mod.FP16_FUNCS if mod is lists.symbol_fp16 else mod.BF16_FUNCS


def list_fp32_ops(target_dtype: Any) -> list[str]:
    """The operators AMP runs in float32 (overflow-prone: exp, log, softmax, norms, reductions ...).

    Examples:
        >>> from cellonnx.mxnet.contrib import amp
        >>> "softmax" in amp.list_fp32_ops("float16")
        True
    """
    return _lists(target_dtype).FP32_FUNCS


def list_lp16_fp32_ops(target_dtype: Any) -> list[str]:
    """The operators that run in either type (their inputs' type is kept).

    Examples:
        >>> from cellonnx.mxnet.contrib import amp
        >>> "Pooling" in amp.list_lp16_fp32_ops("bfloat16")
        True
    """
    mod = _lists(target_dtype)
    return mod.FP16_FP32_FUNCS if mod is lists.symbol_fp16 else mod.BF16_FP32_FUNCS


def list_conditional_fp32_ops(target_dtype: Any) -> list[tuple[str, str, list[str]]]:
    """(operator, attribute, values): the operator runs in float32 when the attribute has one of the values.

    Examples:
        >>> from cellonnx.mxnet.contrib import amp
        >>> amp.list_conditional_fp32_ops("float16")[0]
        ('Activation', 'act_type', ['softrelu'])
    """
    return _lists(target_dtype).CONDITIONAL_FP32_FUNCS


def list_widest_type_cast(target_dtype: Any) -> list[str]:
    """The operators of several inputs that run in the widest of their inputs' types.

    Examples:
        >>> from cellonnx.mxnet.contrib import amp
        >>> "elemwise_add" in amp.list_widest_type_cast("float16")
        True
    """
    return _lists(target_dtype).WIDEST_TYPE_CASTS


def list_loss_output_functions(target_dtype: Any) -> list[str]:
    """The loss output operators whose ``grad_scale`` AMP multiplies by the loss scale.

    Examples:
        >>> from cellonnx.mxnet.contrib import amp
        >>> amp.list_loss_output_functions("float16")[0]
        'SoftmaxOutput'
    """
    return _lists(target_dtype).LOSS_OUTPUT_FUNCTIONS


def list_lp16_use_fp32_params(target_dtype: Any) -> dict[str, list[str]] | None:
    """Per operator, the parameters that stay float32 in the target type (None for float16).

    Examples:
        >>> from cellonnx.mxnet.contrib import amp
        >>> amp.list_lp16_use_fp32_params("bfloat16")["BatchNorm"]
        ['', 'gamma', 'beta', 'moving_mean', 'moving_var']
    """
    if _low(target_dtype) == "float16":
        return None
    return lists.symbol_bf16.BF16_USE_FP32_PARAMS


def init(target_dtype: Any = "float16", target_precision_ops: list[str] | None = None,
         conditional_fp32_ops: list[tuple[str, str, list[str]]] | None = None,
         fp32_ops: list[str] | None = None) -> None:
    """Initialize AMP (automatic mixed precision): wrap the mx.nd and mx.sym operators by the lists (the
    defaults of ``target_dtype``, or the lists given) and create the loss scaler. Call it before building
    the model; a second call does nothing.

    Args:
        target_dtype: 'float16' or 'bfloat16'. Default: 'float16'.
        target_precision_ops: operator names to run in ``target_dtype``. Default: ``list_lp16_ops``.
        conditional_fp32_ops: (operator, attribute, values) run in float32. Default: the list's.
        fp32_ops: operator names to run in float32. Default: ``list_fp32_ops``.

    Examples:
        >>> from cellonnx.mxnet.contrib import amp
        >>> amp.init("bfloat16")  # doctest: +SKIP
    """
    if _state["initialized"]:
        return
    if not (isinstance(target_dtype, str) and target_dtype in ("float16", "bfloat16")) and \
            getattr(np.dtype(target_dtype), "name", None) not in ("float16", "bfloat16"):
        raise AssertionError("AMP currently supports only float16 or bfloat16 as a target_dtype")
    from cellonnx.mxnet import ndarray, symbol

    _state["initialized"] = True
    logging.info("Using AMP")
    low = _low(target_dtype)
    wrap_symbol_functions(symbol, low, target_precision_ops, conditional_fp32_ops, fp32_ops, symbolic=True)
    wrap_symbol_functions(ndarray, low, target_precision_ops, conditional_fp32_ops, fp32_ops, symbolic=False)
    scaler = LossScaler()
    _state["loss_scaler"] = scaler
    wrap_loss_output_functions(ndarray, scaler, list_loss_output_functions(low), symbolic=False)
    wrap_loss_output_functions(symbol, scaler, list_loss_output_functions(low), symbolic=True)


def _check_trainer(optimizer_or_trainer: Any) -> None:
    from cellonnx.gluon.trainer import Trainer
    from cellonnx.mxnet.optimizer import Optimizer

    if isinstance(optimizer_or_trainer, Trainer):
        return
    if isinstance(optimizer_or_trainer, Optimizer):
        raise TypeError("AMP is currently only compatible with Gluon Trainer")
    raise TypeError("optimizer_or_trainer should be a Gluon Trainer or an optimizer, instead is "
                    f"{type(optimizer_or_trainer)}")


def init_trainer(optimizer_or_trainer: Any) -> None:
    """Give a Gluon Trainer AMP's dynamic loss scaling (the first Trainer gets ``init``'s scaler, later ones
    a new one each).

    Raises:
        AssertionError: ``init`` was not called.
        TypeError: not a Gluon Trainer (an Optimizer is refused too, as in MXNet).
    """
    if not _state["initialized"]:
        raise AssertionError("AMP not initialized, did you forget to call amp.init()?")
    if not _state["loss_scale_initialized"]:
        _state["loss_scale_initialized"] = True
        scaler = _state["loss_scaler"]
    else:
        scaler = LossScaler()
    _check_trainer(optimizer_or_trainer)
    optimizer_or_trainer._amp_loss_scaler = scaler
    optimizer_or_trainer._amp_original_scale = optimizer_or_trainer._scale


@contextlib.contextmanager
def scale_loss(loss: Any, optimizer_or_trainer: Any) -> Iterator[Any]:
    """Context manager yielding the loss (or list of losses) times the current loss scale; the Trainer's
    gradient scale becomes its original scale divided by the loss scale.

    Raises:
        AssertionError: the trainer has no loss scaler (``init_trainer`` not called).
    """
    if getattr(optimizer_or_trainer, "_amp_loss_scaler", None) is None:
        raise AssertionError("Loss scaler is not initialized, did you forget to call amp.init_trainer()?")
    scale = optimizer_or_trainer._amp_loss_scaler.loss_scale
    optimizer_or_trainer._scale = optimizer_or_trainer._amp_original_scale / scale
    if isinstance(loss, (list, tuple)):
        yield [item * scale for item in loss]
    else:
        yield scale * loss


def unscale(optimizer_or_trainer: Any) -> None:
    """Multiply the Trainer's gradients by its gradient scale and set that scale to 1 (to read or clip the
    true gradients before ``step``)."""
    _check_trainer(optimizer_or_trainer)
    scale = optimizer_or_trainer._scale
    for p in optimizer_or_trainer._params:
        if getattr(p, "grad_req", "write") == "null" or p.grad is None:
            continue
        grad = p.grad
        grad._data = (grad._data * np.asarray(scale, dtype=np.float64)).astype(grad._data.dtype)
    optimizer_or_trainer._scale = 1.0


def _resolve_lists(sym: Any, target_dtype: str, target_dtype_ops: list[str] | None,
                   fp32_ops: list[str] | None, conditional_fp32_ops: list | None) -> tuple:
    if target_dtype_ops is not None:
        assert isinstance(target_dtype_ops, list), "target_dtype_ops should be a list of strs"
    else:
        target_dtype_ops = list_lp16_ops(target_dtype)
    if fp32_ops is not None:
        assert isinstance(fp32_ops, list), "fp32_ops should be a list of strs"
    else:
        fp32_ops = list_fp32_ops(target_dtype)
    if conditional_fp32_ops is not None:
        assert isinstance(conditional_fp32_ops, list), "conditional_fp32_ops should be a list"
    else:
        conditional_fp32_ops = list_conditional_fp32_ops(target_dtype)
    for entry in conditional_fp32_ops:
        assert isinstance(entry[0], str) and isinstance(entry[1], str) and isinstance(entry[2], list), \
            "conditional_fp32_ops should be a list of (str, str, list of str)"
    conditional_names = [c[0] for c in conditional_fp32_ops]
    for first, second, what in ((target_dtype_ops, fp32_ops, "target_dtype_ops and fp32_ops"),
                                (target_dtype_ops, conditional_names,
                                 "target_dtype_ops and conditional_fp32_ops"),
                                (conditional_names, fp32_ops, "fp32_ops and conditional_fp32_ops")):
        common = set(first) & set(second)
        assert not common, f"Ops cannot be in two or more lists. Common ops in {what} {common}"
    legal = set(list_lp16_ops(target_dtype) + list_fp32_ops(target_dtype) + list_lp16_fp32_ops(target_dtype)
                + [c[0] for c in list_conditional_fp32_ops(target_dtype)])
    illegal = set(target_dtype_ops + fp32_ops + conditional_names) - legal
    assert not illegal, ("Can only choose ops from one of the three lists for lp16_ops and fp32_ops "
                         "1. amp.list_lp16_ops(target_dtype) 2. amp.list_fp32_ops(target_dtype) "
                         "3. amp.list_lp16_fp32_ops(target_dtype) "
                         "4. amp.list_conditional_fp32_ops(target_dtype) "
                         f"Op {illegal} not in any of them")
    return target_dtype_ops, fp32_ops, conditional_fp32_ops


def convert_symbol(sym: Any, target_dtype: str = "float16", target_dtype_ops: list[str] | None = None,
                   fp32_ops: list[str] | None = None, conditional_fp32_ops: list | None = None,
                   excluded_sym_names: list[str] | None = None, data_names: list[str] | None = None,
                   cast_optional_params: bool = False) -> Any:
    """A copy of a float32 symbol with ``amp_cast`` / ``amp_multicast`` nodes inserted by the AMP lists, so
    the operators of the low precision list run in ``target_dtype`` (MXNet's ReducePrecision pass).

    Args:
        sym: the float32 Symbol.
        target_dtype: 'float16' or 'bfloat16'. Default: 'float16'.
        target_dtype_ops, fp32_ops, conditional_fp32_ops: override the default lists.
        excluded_sym_names: node names kept in float32.
        data_names: the inputs that are data (default: the inputs without a ``__dtype__`` attribute).
        cast_optional_params: leave the parameters of low precision operators uncast, to be stored in
            ``target_dtype``. Default: False.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> from cellonnx.mxnet.contrib import amp
        >>> fc = mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=2, name="fc")
        >>> out = amp.convert_symbol(mx.sym.softmax(fc, name="sm"), target_dtype="bfloat16")
        >>> [n for n in out.get_internals().list_outputs() if "amp_cast" in n]
        ['data_amp_cast_bfloat16_output', 'fc_weight_amp_cast_bfloat16_output', \
'fc_bias_amp_cast_bfloat16_output', 'fc_output_amp_cast_float32_output']
    """
    from cellonnx.gluon.symbol.symbol import is_symbol
    from cellonnx.mxnet.contrib.amp.reduce_precision import reduce_precision
    from cellonnx.mxnet.symbol import Symbol

    assert is_symbol(sym), "First argument to convert_symbol should be Symbol"
    assert target_dtype in ("float16", "bfloat16"), \
        "Only target_dtype float16 and bfloat16 are supported currently"
    target_dtype_ops, fp32_ops, conditional_fp32_ops = _resolve_lists(sym, target_dtype, target_dtype_ops,
                                                                      fp32_ops, conditional_fp32_ops)
    if excluded_sym_names is not None:
        assert isinstance(excluded_sym_names, list), "excluded_sym_names should be a list of strs"
    attr_dict = sym.attr_dict()
    if data_names is None:
        data_names = [n for n in sym.list_inputs() if "__dtype__" not in attr_dict.get(n, {})]
    outputs = reduce_precision(sym._outputs, target_dtype, target_dtype_ops, fp32_ops,
                               list_widest_type_cast(target_dtype), conditional_fp32_ops,
                               excluded_sym_names or [], data_names, cast_optional_params)
    return Symbol(outputs, getattr(sym, "_source", "<symbol>"))


def _cast_params(sym: Any, params: dict[str, Any], names: list[str]) -> None:
    """Cast the entries of ``params`` whose variable carries a ``__dtype__`` attribute to that type."""
    from cellonnx.gluon.symbol.block import _TYPE_FLAGS

    attr_dict = sym.attr_dict()
    for name in names:
        flag = attr_dict.get(name, {}).get("__dtype__")
        if name in params and flag not in (None, "-1"):
            params[name] = params[name].astype(np.dtype(_TYPE_FLAGS[int(flag)]).name)


def convert_model(sym: Any, arg_params: dict[str, Any], aux_params: dict[str, Any],
                  target_dtype: str = "float16", target_dtype_ops: list[str] | None = None,
                  fp32_ops: list[str] | None = None, conditional_fp32_ops: list | None = None,
                  excluded_sym_names: list[str] | None = None,
                  cast_optional_params: bool = False) -> tuple[Any, dict[str, Any], dict[str, Any]]:
    """``convert_symbol`` of a model's symbol (its data: the inputs that are not parameters), and its
    parameters cast to the types the converted symbol records for them.

    Returns:
        (converted symbol, arg_params, aux_params).
    """
    assert target_dtype in ("float16", "bfloat16"), \
        "Only target_dtype float16 and bfloat16 are supported currently"
    assert isinstance(arg_params, dict), \
        "Second argument to convert_model should be a dict of name to ndarray"
    assert isinstance(aux_params, dict), "Third argument to convert_model should be a dict of name to ndarray"
    param_names = list(arg_params) + list(aux_params)
    data_names = [n for n in sym.list_inputs() if n not in param_names]
    sym = convert_symbol(sym, target_dtype, target_dtype_ops, fp32_ops, conditional_fp32_ops,
                         excluded_sym_names, data_names, cast_optional_params)
    _cast_params(sym, arg_params, sym.list_arguments())
    _cast_params(sym, aux_params, sym.list_auxiliary_states())
    return sym, arg_params, aux_params


def convert_hybrid_block(block: Any, target_dtype: str = "float16", target_dtype_ops: list[str] | None = None,
                         fp32_ops: list[str] | None = None, conditional_fp32_ops: list | None = None,
                         excluded_sym_names: list[str] | None = None, ctx: Any = None,
                         cast_optional_params: bool = False) -> Any:
    """A SymbolBlock running ``convert_symbol`` of a hybridized block's graph, with the block's parameters.

    The graph is the block traced on Symbols (one variable per input tensor, lists flattened: ``data`` or
    ``data0``, ``data1`` ...): Gluon 1.x code through ``hybrid_forward(F, ...)``, Gluon 2.x code through
    ``forward`` (its gluon.nn / gluon.rnn layers and mx.npx operators add MXNet's operator nodes, as MXNet
    2.x's tracing does), so both forms of a network convert to the same graph.

    Raises:
        RuntimeError: the block has not run once since ``hybridize()``.
        NotImplementedError: the block's code does not trace to MXNet operators.
    """
    from cellonnx.gluon import HybridBlock, SymbolBlock

    assert isinstance(block, HybridBlock), "block input should be a HybridBlock"
    graph = _cached_graph(block)
    if graph is None:
        raise RuntimeError("Please first call block.hybridize() and then run forward with this block at "
                           "least once before calling export.")
    inputs, sym = graph
    converted = convert_symbol(sym, target_dtype, target_dtype_ops, fp32_ops, conditional_fp32_ops,
                               excluded_sym_names, data_names=[i.name for i in inputs],
                               cast_optional_params=cast_optional_params)
    values = {name: p.data() for name, p in block.collect_params().items()}
    out = SymbolBlock(converted, inputs)
    params = out.collect_params()
    for name, p in params.items():
        if name in values:
            p.set_data(values[name])
    return out


def _cached_graph(block: Any) -> tuple[list[Any], Any] | None:
    """(input variables, output symbol) of a block that has run once since ``hybridize()``: a SymbolBlock's
    own graph, or the block traced on Symbols - Gluon 1.x code through ``hybrid_forward(F, ...)`` with F
    mx.sym, Gluon 2.x code through its ``forward`` (its gluon.nn layers and mx.npx operators add MXNet's
    nodes, ``p.data()`` is the parameter's variable), as MXNet 2.x traces a block; None before a run."""
    from cellonnx.gluon import SymbolBlock
    from cellonnx.gluon.symbol.layer_symbols import tracing
    from cellonnx.mxnet import symbol

    if isinstance(block, SymbolBlock):
        return [symbol.var(n) for n in block._input_names], block.symbol
    in_args = getattr(block, "_in_args", None)
    if not in_args:
        return None
    # one variable per tensor, lists flattened (a recurrent model's states), named as MXNet's _get_graph does
    count = len(_leaves(in_args))
    names = iter(["data"] if count == 1 else [f"data{i}" for i in range(count)])
    inputs: list[Any] = []

    def var(a: Any) -> Any:
        if type(a) in (list, tuple):
            return type(a)(var(x) for x in a)
        inputs.append(symbol.var(next(names)))
        return inputs[-1]
    args = [var(a) for a in in_args]
    flags = dict(getattr(block, "_hybrid_flags", {}) or {})
    block.hybridize(False)  # run the block's code on the Symbols instead of compiling
    try:
        with tracing(block):
            out = block(*args)
    except (AttributeError, TypeError) as error:
        raise NotImplementedError(
            f"convert_hybrid_block: {type(block).__name__} does not trace to MXNet operators on Symbols "
            f"({error}); export it and convert the SymbolBlock of the export, or use convert_symbol"
        ) from error
    finally:
        block.hybridize(True, **flags)
    if isinstance(out, (list, tuple)):
        out = symbol.Group(_leaves(out))
    return inputs, out


def _leaves(value: Any) -> list[Any]:
    """The items of nested lists and tuples, in order."""
    if type(value) in (list, tuple):
        return [leaf for v in value for leaf in _leaves(v)]
    return [value]


def convert_bucketing_module(bucketing_mod: Any, target_dtype: str = "float16",
                             target_dtype_ops: list[str] | None = None, fp32_ops: list[str] | None = None,
                             conditional_fp32_ops: list | None = None,
                             excluded_sym_names: list[str] | None = None,
                             cast_optional_params: bool = False) -> Any:
    """A BucketingModule whose buckets' symbols are ``convert_model``-ed, with the module's parameters."""
    from cellonnx.mxnet.module import BucketingModule

    assert isinstance(bucketing_mod, BucketingModule), "module should be instance of bucketing module"
    assert len(bucketing_mod._buckets) > 0, "Bucketing Module should not be empty"
    assert bucketing_mod.params_initialized, \
        "bucketing_mod params should be initialized for mixed precision conversion"
    arg_params, aux_params = bucketing_mod.get_params()
    sym_dict = {}
    for key, mod in bucketing_mod._buckets.items():
        sym_dict[key], arg_params, aux_params = convert_model(
            mod.symbol, arg_params, aux_params, target_dtype=target_dtype, target_dtype_ops=target_dtype_ops,
            fp32_ops=fp32_ops, conditional_fp32_ops=conditional_fp32_ops,
            excluded_sym_names=excluded_sym_names,
            cast_optional_params=cast_optional_params)
    return BucketingModule.load_dict(sym_dict, sym_gen=bucketing_mod._sym_gen, arg_params=arg_params,
                                     aux_params=aux_params,
                                     default_bucket_key=bucketing_mod._default_bucket_key)
