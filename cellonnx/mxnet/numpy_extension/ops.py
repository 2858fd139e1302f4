"""mx.npx's operators: MXNet 2.x's names and signatures over the operator table's implementations."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cellonnx import ops as _ops
from cellonnx.mxnet import _op
from cellonnx.mxnet._errors import mx_errors
from cellonnx.mxnet._op.shape import infer_reshape as _legacy_reshape
from cellonnx.mxnet._placement import follow
from cellonnx.mxnet.numpy.multiarray import to_np
from cellonnx.tensor import Tensor

# npx name -> (operator of the table, 2.x keyword -> table keyword, 2.x defaults that differ)
_SPEC: dict[str, tuple[str, dict[str, str], dict[str, Any]]] = {
    "activation": ("Activation", {}, {}),
    "batch_norm": ("BatchNorm", {"x": "data", "running_mean": "moving_mean", "running_var": "moving_var"},
                   {}),
    "convolution": ("Convolution", {}, {}),
    "deconvolution": ("Deconvolution", {}, {}),
    "pooling": ("Pooling", {}, {}),
    "fully_connected": ("FullyConnected", {"x": "data"}, {"no_bias": True}),
    "dropout": ("Dropout", {}, {}),
    "embedding": ("Embedding", {}, {}),
    "layer_norm": ("LayerNorm", {}, {}),
    "group_norm": ("GroupNorm", {}, {"eps": 1e-3}),
    "instance_norm": ("InstanceNorm", {}, {}),
    "leaky_relu": ("LeakyReLU", {}, {}),
    "one_hot": ("one_hot", {"data": "indices"}, {}),
    "pick": ("pick", {}, {}),
    "topk": ("topk", {}, {}),
    "sequence_mask": ("SequenceMask", {}, {}),
    "batch_dot": ("batch_dot", {"a": "lhs", "b": "rhs"}, {}),
    "broadcast_like": ("broadcast_like", {}, {}),
    "reshape_like": ("reshape_like", {}, {}),
    "gather_nd": ("gather_nd", {}, {}),
    "batch_flatten": ("Flatten", {}, {}),
    "l2_normalization": ("L2Normalization", {}, {}),
    "relu": ("relu", {}, {}),
    "sigmoid": ("sigmoid", {}, {}),
    "stop_gradient": ("stop_gradient", {}, {}),
    "shape_array": ("shape_array", {}, {}),
    "smooth_l1": ("smooth_l1", {}, {}),
    "erf": ("erf", {}, {}),
    "erfinv": ("erfinv", {}, {}),
    "gamma": ("gamma", {}, {}),
    "gammaln": ("gammaln", {}, {}),
    "slice": ("slice", {}, {}),
    "upsampling": ("UpSampling", {}, {}),
}


def _on_symbols(args: tuple, kwargs: dict) -> bool:
    """Whether an operator is called on Symbols (a block traced to MXNet's operator graph, as MXNet 2.x's
    deferred compute records npx calls): it then adds the operator's node."""
    from cellonnx.gluon.symbol.symbol import is_symbol

    return any(is_symbol(a) for a in (*args, *kwargs.values()))


def _npx(name: str, table_name: str, renames: dict[str, str], defaults: dict[str, Any]) -> Callable[..., Any]:
    impl = _op.TABLE[table_name]

    @mx_errors
    def op(*args: Any, **kwargs: Any) -> Any:
        kwargs.pop("name", None)
        kwargs = {renames.get(k, k): v for k, v in kwargs.items() if v is not None or k in ("bias", "gamma")}
        for k, v in defaults.items():
            kwargs.setdefault(k, v)
        if _on_symbols(args, kwargs):
            from cellonnx.mxnet import symbol
            return getattr(symbol, table_name)(*args, **kwargs)
        return follow(to_np(impl(*args, **kwargs)), args, kwargs)
    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"MXNet 2.x's ``npx.{name}`` (MXNet 1.x's ``{table_name}``)."
    return op


for _name, (_table_name, _renames, _defaults) in _SPEC.items():
    globals()[_name] = _npx(_name, _table_name, _renames, _defaults)


def softmax(data: Tensor, axis: int = -1, length: Any = None, temperature: float | None = None,
            use_length: bool = False, dtype: Any = None) -> Any:
    """Softmax along ``axis`` (``length`` masks the steps past each length when use_length)."""
    if _on_symbols((data, length), {}):
        return _symbol_call("softmax", data, length, axis=axis, temperature=temperature,
                            use_length=use_length, dtype=dtype)
    return to_np(_op.TABLE["softmax"](data, length, axis, temperature, dtype, use_length))


def log_softmax(data: Tensor, axis: int = -1, length: Any = None, temperature: float | None = None,
                use_length: bool = False, dtype: Any = None) -> Any:
    """Log-softmax along ``axis`` (of ``data / temperature``)."""
    if _on_symbols((data,), {}):
        return _symbol_call("log_softmax", data, axis=axis, temperature=temperature, dtype=dtype)
    return to_np(_op.TABLE["log_softmax"](data, axis, temperature, dtype))


_SOFTMAX_DEFAULTS = {"axis": -1, "temperature": None, "use_length": False, "dtype": None}


def _symbol_call(op: str, data: Any, length: Any = None, **kwargs: Any) -> Any:
    """The mx.sym node of a softmax on Symbols, its attributes those that differ from the defaults (as the
    node MXNet records)."""
    from cellonnx.mxnet import symbol

    kwargs = {k: v for k, v in kwargs.items() if v != _SOFTMAX_DEFAULTS[k]}
    args = (data,) if length is None else (data, length)
    return getattr(symbol, op)(*args, **kwargs)


def masked_softmax(data: Tensor, mask: Tensor, axis: int = -1, temperature: float = 1.0,
                   normalize: bool = True) -> Any:
    """Softmax over the positions where ``mask`` is true (0 elsewhere)."""
    m = _ops.cast(mask, "bool") if mask._data.dtype.kind != "b" else mask
    m = _ops.broadcast_to(m, tuple(data.shape))
    x = _ops.where(m, _ops.div(data, float(temperature)), _ops.full_like(data, float("-inf")))
    return to_np(_ops.where(m, _ops.softmax(x, axis), _ops.zeros_like(data)))


def masked_log_softmax(data: Tensor, mask: Tensor, axis: int = -1, temperature: float = 1.0,
                       normalize: bool = True) -> Any:
    """Log-softmax over the positions where ``mask`` is true (-inf elsewhere)."""
    m = _ops.cast(mask, "bool") if mask._data.dtype.kind != "b" else mask
    m = _ops.broadcast_to(m, tuple(data.shape))
    x = _ops.where(m, _ops.div(data, float(temperature)), _ops.full_like(data, float("-inf")))
    return to_np(_ops.where(m, _ops.log_softmax(x, axis), _ops.full_like(data, float("-inf"))))


def arange_like(data: Tensor, start: float = 0.0, step: float = 1.0, repeat: int = 1, ctx: Any = None,
                axis: int | None = None) -> Any:
    """``start + step * (i // repeat)`` shaped like ``data`` (along its ``axis`` alone when given)."""
    return to_np(_op.CONTRIB["arange_like"](data, start, step, repeat, axis))


def infer_reshape(in_shape: tuple, newshape: tuple, reverse: bool = False) -> tuple:
    """MXNet 2.x's npx.reshape codes: -1 inferred, -2 copies a dim, -3 drops a dim of size 1, -4 copies the
    rest, -5 merges two dims, -6 splits one dim into the next two values."""
    legacy = {-2: 0, -4: -2, -5: -3, -6: -4}
    src, spec = list(in_shape), [int(s) for s in newshape]
    if reverse:
        src, spec = src[::-1], spec[::-1]
    kept, out_spec, i, j = [], [], 0, 0
    while j < len(spec):
        code = spec[j]
        if code == -3:
            i += 1
        elif code == -6:
            out_spec += [-4, spec[j + 1], spec[j + 2]]
            kept.append(src[i])
            i += 1
            j += 2
        elif code in (-4,):
            out_spec.append(-2)
            kept.extend(src[i:])
            i = len(src)
        elif code == -5:
            out_spec.append(-3)
            kept.extend(src[i:i + 2])
            i += 2
        else:
            out_spec.append(legacy.get(code, code))
            kept.append(src[i] if i < len(src) else 1)
            i += 1
        j += 1
    out = _legacy_reshape(tuple(kept), tuple(out_spec))
    return tuple(out[::-1]) if reverse else out


def reshape(a: Tensor, newshape: Any, reverse: bool = False, order: str = "C") -> Any:
    """Reshape with MXNet 2.x's special codes (see infer_reshape)."""
    newshape = (newshape,) if isinstance(newshape, int) else tuple(newshape)
    return to_np(_ops.reshape(a, infer_reshape(tuple(a.shape), newshape, reverse)))


__all__ = ["arange_like", "log_softmax", "masked_log_softmax", "masked_softmax", "reshape", "softmax",
           *(n for n in _SPEC)]
