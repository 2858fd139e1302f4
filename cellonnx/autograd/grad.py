"""The gradient API with MindSpore's semantics: value_and_grad, grad, GradOperation, stop_gradient."""
from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

import numpy as np

from cellonnx.autograd.tape import run_backward, set_grad_enabled
from cellonnx.tensor import Parameter, Tensor


def _positions(grad_position: Any, n_args: int) -> tuple[int, ...]:
    if grad_position is None:
        return ()
    pos = (grad_position,) if isinstance(grad_position, int) else tuple(grad_position)
    for p in pos:
        if not -n_args <= p < n_args:
            raise IndexError(f"grad_position {p} is out of range for {n_args} positional arguments")
    return tuple(p % n_args for p in pos)


def _weights(weights: Any) -> list[Parameter]:
    if weights is None:
        return []
    if isinstance(weights, Tensor):
        return [weights]  # type: ignore[list-item]
    if hasattr(weights, "trainable_params"):
        return list(weights.trainable_params())
    if isinstance(weights, dict):
        return list(weights.values())
    return list(weights)


def _zero_grad_like(t: Tensor) -> Tensor:
    from cellonnx.graph import trace
    if trace._current:  # traced: zeros of the input's runtime shape (its batch dim may be dynamic)
        from cellonnx import ops
        return ops.zeros_like(t)
    return Tensor._make(np.zeros_like(t._data))


def _compute(fn: Callable, args: tuple, kwargs: dict, positions: tuple[int, ...], weights: list[Parameter],
             has_aux: bool, sens: Any, create_graph: bool) -> tuple[Any, tuple, tuple]:
    call_args = list(args)
    tracked: list[Tensor] = []
    for p in positions:
        a = call_args[p]
        if not isinstance(a, Tensor):
            raise TypeError(f"grad_position {p}: argument is {type(a).__name__}, expected a Tensor")
        if a.requires_grad:
            t = a  # already tracked (a parameter, or an input of an enclosing gradient): keep its history
        else:
            t = a.detach()  # (aliases the traced value while tracing)
            t.requires_grad = True
        call_args[p] = t
        tracked.append(t)
    with set_grad_enabled(True):
        out = fn(*call_args, **kwargs)
    if isinstance(out, tuple):
        if not out:
            raise ValueError("value_and_grad: the function returned an empty tuple")
        loss = out[0]
        # MindSpore: without has_aux, the gradient is of the sum over all outputs
        heads = [out[0]] if has_aux else [o for o in out if isinstance(o, Tensor)]
    else:
        loss, heads = out, [out]
    heads = [h for h in heads if h.requires_grad]
    wrt = tracked + list(weights)
    if not heads:
        grads: list[Tensor | None] = [None] * len(wrt)
    else:
        seeds: list[Any] = [sens] * len(heads) if sens is not None else [None] * len(heads)
        if sens is not None and isinstance(sens, (tuple, list)):
            seeds = list(sens)
        grads = run_backward(heads, seeds, create_graph=create_graph, wrt=wrt)
    full = tuple(g if g is not None else _zero_grad_like(t) for g, t in zip(grads, wrt))
    if not create_graph:
        full = tuple(g.detach() for g in full)
    return out if has_aux or isinstance(out, tuple) else loss, full[:len(tracked)], full[len(tracked):]


def _with_ids(inputs: tuple, weights: tuple, positions: tuple[int, ...], params: list[Parameter]) -> tuple:
    """``return_ids``: each gradient paired with its input position or its parameter's name."""
    return (tuple((p, g) for p, g in zip(positions, inputs)),
            tuple((getattr(w, "name", str(i)), g) for i, (w, g) in enumerate(zip(params, weights))))


def _pack(inputs: tuple, weights: tuple, positions_given: bool, single_position: bool,
          has_weights: bool) -> Any:
    # MindSpore returns a bare tensor for one position, also when it is given as a 1-tuple
    ig: Any = inputs[0] if len(inputs) == 1 else inputs
    if positions_given and has_weights:
        return ig, weights
    if has_weights:
        return weights
    return ig


def _split_sens(args: tuple, kwargs: dict, sens_param: bool) -> tuple[tuple, dict, Any]:
    """With ``sens_param``, the sensitivity: the keyword ``sens`` if given, else the last positional
    argument (MindSpore's rule)."""
    if not sens_param:
        return args, kwargs, None
    if "sens" in kwargs:
        kwargs = dict(kwargs)
        return args, kwargs, kwargs.pop("sens")
    if not args:
        raise ValueError("grad(sens_param=True): the sensitivity must be given as the last positional "
                         "argument or as the keyword 'sens', but the call has no arguments")
    return args[:-1], kwargs, args[-1]


def value_and_grad(fn: Callable, grad_position: Any = 0, weights: Any = None, has_aux: bool = False,
                   return_ids: bool = False, sens_param: bool = False) -> Callable[..., tuple[Any, Any]]:
    """Wrap ``fn`` to return ``(fn(*args), gradients)``, as ``mindspore.value_and_grad``.

    Args:
        grad_position: int or tuple of ints: which positional arguments to differentiate; None with
            ``weights`` for the weights' gradients only.
        weights: Parameters (a list, a ParameterTuple, or a Cell's trainable_params()).
        has_aux: fn returns (loss, aux...); only loss is differentiated, aux is returned as is.
        return_ids: pair each gradient with its position or its parameter's name, for ``ops.get_grad``.
        sens_param: the call passes the sensitivity (the gradient with respect to the output) as its last
            positional argument, or as the keyword ``sens``; otherwise it is ones like the output.

    Returns:
        A function giving (value, grads): grads is the input gradient (a tuple for several positions),
        the weights' gradient tuple, or (inputs' grads, weights' grads) when both are asked for.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([3.0]), ms.float32)
        >>> value, grad = ops.value_and_grad(lambda x: x * x)(x)
        >>> print(value, grad)
        [9.] [6.]
    """
    body = _value_and_grad_body(fn, grad_position, weights, has_aux, return_ids, sens_param)
    return _graph_mode_call(body, fn, sens_param, "value_and_grad",
                            (grad_position, has_aux, return_ids, sens_param), weights)


def _value_and_grad_body(fn: Callable, grad_position: Any, weights: Any, has_aux: bool, return_ids: bool,
                         sens_param: bool) -> Callable[..., tuple[Any, Any]]:
    """value_and_grad's function as it runs eagerly."""
    if grad_position is None and weights is None:
        raise ValueError("value_and_grad: grad_position and weights cannot both be None")
    create_graph = True

    def wrapper(*args: Any, **kwargs: Any) -> tuple[Any, Any]:
        from cellonnx.autograd.tape import is_grad_enabled
        args, kwargs, sens = _split_sens(args, kwargs, sens_param)
        positions = _positions(grad_position, len(args))
        ws = _weights(weights)
        value, ig, wg = _compute(fn, args, kwargs, positions, ws, has_aux, sens,
                                 create_graph and is_grad_enabled() and _nested[0] > 1)
        if return_ids:
            ig, wg = _with_ids(ig, wg, positions, ws)
        return value, _pack(ig, wg, grad_position is not None, isinstance(grad_position, int),
                            weights is not None)

    return _nesting(wrapper)


def grad(fn: Callable, grad_position: Any = 0, weights: Any = None, has_aux: bool = False,
         return_ids: bool = False, sens_param: bool = False) -> Callable[..., Any]:
    """``mindspore.grad``: like value_and_grad but returns only the gradients (and aux with has_aux).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([3.0]), ms.float32)
        >>> print(ops.grad(lambda x: x * x)(x))
        [6.]
    """
    vg = _value_and_grad_body(fn, grad_position, weights, has_aux, return_ids, sens_param)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        value, grads = vg(*args, **kwargs)
        if has_aux:
            return grads, value[1:] if isinstance(value, tuple) else ()
        return grads

    return _graph_mode_call(wrapper, fn, sens_param, "grad", (grad_position, has_aux, return_ids, sens_param),
                            weights)


class _GradFunction:
    """What the compiled graphs of gradient functions made alike are cached on (see ``_cache_owner``)."""

    __slots__ = ("__weakref__",)


# fn -> {(api, options, weights) -> _GradFunction}: lives as long as fn does
_OWNERS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _hashable(value: Any) -> Any:
    return tuple(_hashable(v) for v in value) if isinstance(value, list) else value


def _cache_owner(fn: Callable, api: str, options: tuple, weights: Any) -> _GradFunction | None:
    """The cache of every gradient function of ``fn`` made with the same API, options and weights: MindSpore
    compiles ``grad(net)(x)`` once however often the gradient function is made again (a loop calling
    ``ops.grad(net)(x)``). None where ``fn`` or the weights cannot be weakly referenced (the cache is then the
    gradient function's own)."""
    target, key_fn = fn, None
    if hasattr(fn, "__self__") and hasattr(fn, "__func__"):   # a bound method is made anew at each access
        target, key_fn = fn.__self__, fn.__func__
    try:
        held = weights if isinstance(weights, (list, tuple)) else () if weights is None else (weights,)
        key = (api, key_fn, _hashable(options), type(weights).__name__, tuple(weakref.ref(w) for w in held))
        per_fn = _OWNERS.setdefault(target, {})
    except TypeError:   # not weakly referenceable, or an unhashable option
        return None
    return per_fn.setdefault(key, _GradFunction())


def _graph_mode_call(compute: Callable, fn: Callable, sens_param: bool, api: str, options: tuple = (),
                     weights: Any = None) -> Callable:
    """``compute`` (a gradient function's eager body) called as MindSpore calls it: in GRAPH_MODE a top-level
    call compiles (cellonnx/graph/grad_call.py), as MindSpore wraps it in ``jit``; gradient functions of the
    same function, options and weights share their compiled graphs."""
    what = f"the {api} function of {getattr(fn, '__name__', type(fn).__name__)}"
    owner = _cache_owner(fn, api, options, weights)

    def call(*args: Any, **kwargs: Any) -> Any:
        from cellonnx import context
        if context.mode == context.GRAPH_MODE:
            from cellonnx.graph import grad_call
            if grad_call.graph_call_wanted():
                if sens_param and "sens" in kwargs:  # the keyword sensitivity is the last positional one
                    kwargs = dict(kwargs)
                    args = (*args, kwargs.pop("sens"))
                out = grad_call.run_grad_call(call.compiled_owner, compute, args, kwargs, what)
                if out is not grad_call.EAGER:
                    return out
        return compute(*args, **kwargs)

    call.__wrapped__ = compute  # type: ignore[attr-defined]
    call.compiled_owner = owner or call  # type: ignore[attr-defined]
    return call


# Nesting depth: a gradient computed inside another gradient's function must keep its graph
_nested = [0]


def _nesting(fn: Callable) -> Callable:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        _nested[0] += 1
        try:
            return fn(*args, **kwargs)
        finally:
            _nested[0] -= 1
    wrapper.__wrapped__ = fn  # type: ignore[attr-defined]
    return wrapper


class GradOperation:
    """``ops.GradOperation(get_all=False, get_by_list=False, sens_param=False)`` as in MindSpore:
    ``GradOperation(...)(net[, params])`` returns the gradient function.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> grad_all = ops.GradOperation(get_all=True)
        >>> def f(t):
        ...     return (t * t).sum()
        >>> print(grad_all(f)(x))
        (Tensor(shape=[2], dtype=Float32, value= [ 2.00000000e+00,  4.00000000e+00]),)
    """

    def __init__(self, get_all: bool = False, get_by_list: bool = False, sens_param: bool = False) -> None:
        self.get_all = get_all
        self.get_by_list = get_by_list
        self.sens_param = sens_param

    def __call__(self, fn: Callable, weights: Any = None) -> Callable[..., Any]:
        if self.get_by_list and weights is None:
            raise ValueError("GradOperation(get_by_list=True) needs the parameters: grad_op(net, params)")

        def grad_fn(*args: Any) -> Any:
            sens = None
            if self.sens_param:
                if not args:
                    raise ValueError("GradOperation(sens_param=True): the last argument must be the sens")
                args, sens = args[:-1], args[-1]
            n = len(args)
            positions = tuple(range(n)) if self.get_all else ((0,) if n else ())
            ws = _weights(weights) if self.get_by_list else []
            _nested[0] += 1
            try:
                from cellonnx.autograd.tape import is_grad_enabled
                _, ig, wg = _compute(fn, args, {}, positions, ws, False, sens,
                                     is_grad_enabled() and _nested[0] > 1)
            finally:
                _nested[0] -= 1
            if self.get_all and self.get_by_list:
                return ig, wg
            if self.get_by_list:
                return wg
            if self.get_all:
                return ig
            return ig[0] if ig else ()

        return _graph_mode_call(grad_fn, fn, False, "GradOperation",
                                (self.get_all, self.get_by_list, self.sens_param), weights)


def stop_gradient(value: Any) -> Any:
    """The value with its gradient history cut (tuples and lists element by element; other values as they
    are).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> def f(x):
        ...     return x * x + ops.stop_gradient(x * x)
        >>> x = Tensor(np.array([3.0]), ms.float32)
        >>> print(ms.grad(f)(x))
        [6.]
    """
    if isinstance(value, (tuple, list)):
        return type(value)(stop_gradient(x) for x in value)
    if isinstance(value, Tensor):
        return value.detach()
    return value
