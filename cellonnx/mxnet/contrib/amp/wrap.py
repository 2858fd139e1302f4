"""What ``amp.init`` does to the mx.nd and mx.sym operator functions (MXNet 1.9.1's rules).

mx.nd: an operator of the low precision list casts its float32 / bfloat16 array arguments to the target type
before it runs (those of the float32 lists cast them to float32; the conditional ones only for the listed
attribute values; the widest-type ones cast target-type arguments to float32 when any argument is float32).
mx.sym: the operator's node gets ``amp_cast`` nodes on its inputs (auxiliary states excepted), and the
widest-type operators one ``amp_multicast`` over their Symbol arguments. Operators cellonnx does not have are
left out.
"""
from __future__ import annotations

import logging
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np

__all__ = ["wrap_loss_output_functions", "wrap_symbol_functions"]

_PREFIXES = ("_contrib_", "_linalg_", "_sparse_", "_image_", "_random_")
_CPU_FLOATS = ("bfloat16", "float32")


def _dtype_name(value: Any) -> str:
    return np.dtype(value).name


def _cast(value: Any, dtype: str) -> Any:
    """MXNet's ``_cast_symbol_NDArray``: a Symbol gets an amp_cast node; a float32 / bfloat16 array of
    another type is cast (the arrays live on the CPU); anything else passes."""
    from cellonnx.gluon.symbol.symbol import is_symbol
    from cellonnx.mxnet import ndarray, symbol
    from cellonnx.mxnet.ndarray.ndarray import NDArray

    if is_symbol(value):
        return symbol.amp_cast(value, dtype=dtype)
    if isinstance(value, NDArray):
        current = _dtype_name(value.dtype)
        if current != dtype and current in _CPU_FLOATS:
            return ndarray.amp_cast(value, dtype=dtype)
    return value


def _ndarray_wrapper(f: Callable, dtype: str, fp32_param: Any = None, cond_arg: Any = None) -> Callable:
    def new_fun(*args: Any, **kwargs: Any) -> Any:
        if cond_arg is not None and (cond_arg[0] not in kwargs or kwargs[cond_arg[0]] not in cond_arg[1]):
            return f(*args, **kwargs)
        if fp32_param:
            args = tuple(x if i < len(fp32_param) and fp32_param[i] else _cast(x, dtype)
                         for i, x in enumerate(args))
            kwargs = {k: v if k in fp32_param else _cast(v, dtype) for k, v in kwargs.items()}
        else:
            args = tuple(_cast(x, dtype) for x in args)
            kwargs = {k: _cast(v, dtype) for k, v in kwargs.items()}
        return f(*args, **kwargs)

    return _named(new_fun, f)


def _symbol_wrapper(f: Callable, dtype: str, fp32_param: Any = None, cond_arg: Any = None) -> Callable:
    from cellonnx.gluon.symbol.symbol import is_symbol
    from cellonnx.mxnet import symbol

    eager = _ndarray_wrapper(f, dtype, fp32_param, cond_arg)

    def new_fun(*args: Any, **kwargs: Any) -> Any:
        if not any(is_symbol(v) for v in (*args, *kwargs.values())):
            return eager(*args, **kwargs)  # arrays: a hybridized block being traced
        if cond_arg is not None and (cond_arg[0] not in kwargs or kwargs[cond_arg[0]] not in cond_arg[1]):
            return f(*args, **kwargs)
        sym = f(*args, **kwargs)
        node = sym._outputs[0][0]
        aux = set(sym.list_auxiliary_states())
        inputs = []
        for i, (child, k) in enumerate(node.inputs):
            keep = (child.is_variable and child.name in aux) or (fp32_param and i < len(fp32_param)
                                                                  and fp32_param[i])
            if keep:
                inputs.append((child, k))
            else:
                inputs.append(symbol.amp_cast(symbol.Symbol([(child, k)]), dtype=dtype)._outputs[0])
        node.inputs = inputs
        sym._view = None
        return sym

    return _named(new_fun, f)


def _widest_wrapper(f: Callable, target: str) -> Callable:
    from cellonnx.gluon.symbol.symbol import is_symbol
    from cellonnx.mxnet import ndarray, symbol
    from cellonnx.mxnet.ndarray.ndarray import NDArray

    def new_fun(*args: Any, **kwargs: Any) -> Any:
        args = list(args)
        found = [(args, i, a) for i, a in enumerate(args) if is_symbol(a) or isinstance(a, NDArray)]
        found += [(kwargs, k, a) for k, a in kwargs.items() if is_symbol(a) or isinstance(a, NDArray)]
        if not any(is_symbol(a) for _, _, a in found):
            widest = target
            if any(_dtype_name(a.dtype) == "float32" for _, _, a in found):
                widest = "float32"
            for holder, index, a in found:
                if _dtype_name(a.dtype) != widest and _dtype_name(a.dtype) == target:
                    holder[index] = ndarray.amp_cast(a, dtype=widest)
        else:
            casted = symbol.amp_multicast(*[a for _, _, a in found], num_outputs=len(found))
            for (holder, index, _), c in zip(found, casted):
                holder[index] = c
        return f(*args, **kwargs)

    return _named(new_fun, f)


def _named(new_fun: Callable, f: Callable) -> Callable:
    new_fun.__name__ = getattr(f, "__name__", "amp_op")
    new_fun.__qualname__ = new_fun.__name__
    new_fun.__module__ = getattr(f, "__module__", __name__)
    new_fun.__doc__ = f.__doc__
    new_fun.__wrapped_by_amp__ = f  # type: ignore[attr-defined]
    return new_fun


def _holder(name: str, module: ModuleType) -> tuple[str, Any] | None:
    """(function name, namespace) holding MXNet operator ``name`` in ``module`` (mx.nd or mx.sym), as
    MXNet's ``_get_fun_to_wrap`` finds it; None when cellonnx's namespace lacks it."""
    prefix = next((p for p in _PREFIXES if name.startswith(p)), "")
    if prefix and (prefix != "_random_" or name.endswith("_like")):
        func, holder = name[len(prefix):], getattr(module, prefix[1:-1], None)
    elif name.startswith("_"):
        func, holder = name, getattr(module, "_internal", None)
    else:
        func, holder = name, module
    if holder is None or not callable(getattr(holder, func, None)):
        return None
    return func, holder


def wrap_symbol_functions(module: ModuleType, target: str, target_precision_ops: list[str] | None,
                          conditional_fp32_ops: list | None, fp32_ops: list[str] | None,
                          symbolic: bool) -> None:
    """Replace ``module``'s operator functions by AMP's casting wrappers (in place, as MXNet does)."""
    from cellonnx.mxnet.contrib.amp import amp

    wrapper = _symbol_wrapper if symbolic else _ndarray_wrapper
    fp32_params = amp.list_lp16_use_fp32_params(target)
    plans: list[tuple[str, Callable[[Callable], Callable]]] = []
    for name in target_precision_ops if target_precision_ops is not None else amp.list_lp16_ops(target):
        params = fp32_params.get(name) if fp32_params else None
        plans.append((name, lambda f, p=params: wrapper(f, target, fp32_param=p)))
    for name in fp32_ops if fp32_ops is not None else amp.list_fp32_ops(target):
        plans.append((name, lambda f: wrapper(f, "float32")))
    conditional = conditional_fp32_ops if conditional_fp32_ops is not None else \
        amp.list_conditional_fp32_ops(target)
    for name, arg, values in conditional:
        plans.append((name, lambda f, c=(arg, values): wrapper(f, "float32", cond_arg=c)))
    for name in amp.list_widest_type_cast(target):
        plans.append((name, lambda f: _widest_wrapper(f, target)))
    for name, make in plans:
        found = _holder(name, module)
        if found is None:
            continue
        func, holder = found
        setattr(holder, func, make(getattr(holder, func)))


def wrap_loss_output_functions(module: ModuleType, scaler: Any, names: list[str], symbolic: bool) -> None:
    """mx.nd's loss output operators get ``grad_scale`` times the loss scale; mx.sym's warn that dynamic loss
    scaling does not reach symbolic execution."""
    for name in names:
        f = getattr(module, name, None)
        if f is None:
            continue
        if symbolic:
            def new_fun(*args: Any, _f: Callable = f, **kwargs: Any) -> Any:
                logging.warning("%s does not support dynamic loss scaling in symbolic and hybridized "
                                "execution.", _f.__name__)
                return _f(*args, **kwargs)
        else:
            def new_fun(*args: Any, _f: Callable = f, **kwargs: Any) -> Any:
                kwargs["grad_scale"] = kwargs.get("grad_scale", 1.0) * scaler.loss_scale \
                    if "grad_scale" in kwargs else scaler.loss_scale
                return _f(*args, **kwargs)
        setattr(module, name, _named(new_fun, f))
