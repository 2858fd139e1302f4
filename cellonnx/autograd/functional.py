"""MindSpore's function transforms built on the reverse-mode tape: ``jvp``, ``vjp``, ``jacfwd``, ``jacrev``,
``linearize``, ``derivative``, ``jet`` and ``get_grad``.

Forward mode comes from reverse mode by the double-vjp trick: for ``y = f(x)`` and a dummy cotangent ``u``,
``g(u) = J^T u`` is recorded (the backward pass is made of ops), and differentiating ``<g(u), v>`` with
respect
to ``u`` gives ``J v``. Higher orders (``derivative``, ``jet``) nest it along a scalar path ``x(t)``.
Results are detached unless an enclosing gradient computation is recording.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from cellonnx.autograd.tape import is_grad_enabled, run_backward, set_grad_enabled
from cellonnx.tensor import Parameter, Tensor

__all__ = ["derivative", "get_grad", "jacfwd", "jacrev", "jet", "jvp", "linearize", "stop_gradient_", "vjp"]

# nesting depth: a transform inside another's function keeps its graph so the outer one can differentiate it
_depth = [0]


def _keep_graph() -> bool:
    return _depth[0] > 1 and is_grad_enabled()


class _Nested:
    def __enter__(self) -> None:
        _depth[0] += 1

    def __exit__(self, *exc: Any) -> None:
        _depth[0] -= 1


def _as_tuple(x: Any, what: str) -> tuple[Tensor, ...]:
    items = tuple(x) if isinstance(x, (tuple, list)) else (x,)
    for t in items:
        if not isinstance(t, Tensor):
            raise TypeError(f"{what} must be a Tensor or a tuple / list of Tensors, but got "
                            f"{type(t).__name__}")
    return items


def _float_leaf(t: Tensor) -> Tensor:
    """A fresh leaf that requires grad (ints become float32, as MindSpore converts them)."""
    from cellonnx.ops import cast
    if t.requires_grad:
        return t  # a Parameter, or a value an enclosing transform differentiates: keep its history
    leaf = t.detach() if t.dtype.is_floating_point else cast(t, np.float32).detach()
    leaf.requires_grad = True
    return leaf


def _zeros_like(t: Tensor) -> Tensor:
    return Tensor._make(np.zeros_like(t._data))


def _finish(t: Tensor) -> Tensor:
    return t if _keep_graph() else t.detach()


def _outputs(out: Any, has_aux: bool, what: str) -> tuple[Any, tuple[Tensor, ...], Any]:
    """(the differentiated output as returned, its tensors, the aux outputs or None)."""
    if has_aux:
        if not isinstance(out, tuple) or len(out) < 2:
            raise ValueError(f"{what}: with has_aux=True the function must return more than one output")
        aux = out[1] if len(out) == 2 else out[1:]
        main = out[0]
    else:
        main, aux = out, None
    return main, _as_tuple(main, f"{what}: the function's output"), aux


def _cotangent_vjp(outs: Sequence[Tensor], cotangents: Sequence[Tensor], wrt: Sequence[Tensor],
                   create_graph: bool) -> list[Tensor]:
    """``J^T cotangent`` for each of ``wrt`` (zeros where an input does not reach the outputs)."""
    heads = [(o, c) for o, c in zip(outs, cotangents) if o.requires_grad]
    if not heads:
        return [_zeros_like(w) for w in wrt]
    grads = run_backward([h for h, _ in heads], [c for _, c in heads], create_graph=create_graph,
                         wrt=list(wrt))
    return [g if g is not None else _zeros_like(w) for g, w in zip(grads, wrt)]


class _Linearized:
    """``f`` run once at a point with the double-vjp graph kept: ``__call__(v)`` gives ``J v``."""

    def __init__(self, fn: Callable, primals: tuple[Tensor, ...], has_aux: bool, what: str) -> None:
        self.leaves = tuple(_float_leaf(p) for p in primals)
        with set_grad_enabled(True):
            out = fn(*self.leaves)
            self.main, self.outs, self.aux = _outputs(out, has_aux, what)
            self.dummies = []
            for o in self.outs:
                u = _zeros_like(o)
                u.requires_grad = True
                self.dummies.append(u)
            # J^T u, recorded: differentiating it with respect to u gives J v
            self.vjps = _cotangent_vjp(self.outs, self.dummies, self.leaves, create_graph=True)
        self.what = what

    def __call__(self, v: Any) -> Any:
        vs = _as_tuple(v, f"{self.what}: v")
        if len(vs) != len(self.leaves):
            raise ValueError(f"{self.what}: v has {len(vs)} tensors for {len(self.leaves)} inputs")
        for t, p in zip(vs, self.leaves):
            if tuple(t.shape) != tuple(p.shape):
                raise ValueError(f"{self.what}: v of shape {tuple(t.shape)} given for an input of shape "
                                 f"{tuple(p.shape)}")
        with set_grad_enabled(True):
            jv = _cotangent_vjp(self.vjps, vs, self.dummies, create_graph=_keep_graph())
        res = tuple(_finish(t) for t in jv)
        return res if isinstance(self.main, tuple) else res[0]

    def value(self) -> Any:
        if isinstance(self.main, tuple):
            return tuple(_finish(t) for t in self.main)
        return _finish(self.main)


def jvp(fn: Callable, inputs: Any, v: Any, has_aux: bool = False) -> tuple:
    """The Jacobian-vector product of ``fn`` at ``inputs`` along ``v``.

    Args:
        fn (Union[Function, Cell]): takes Tensors, returns a Tensor or a tuple of Tensors.
        inputs (Union[Tensor, tuple[Tensor], list[Tensor]]): where to differentiate.
        v (Union[Tensor, tuple[Tensor], list[Tensor]]): the tangent, shaped like ``inputs``.
        has_aux (bool): differentiate the first output only and return the others as they are. Default:
        ``False``.

    Returns:
        ``(fn(inputs), jvp)``, plus the aux outputs with ``has_aux``; ``jvp`` is shaped like the output.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([3.0]), ms.float32)
        >>> v = Tensor(np.array([1.0]), ms.float32)
        >>> output, tangent = ops.jvp(lambda x: x * x, x, v)
        >>> print(output, tangent)
        [9.] [6.]
    """
    with _Nested():
        lin = _Linearized(fn, _as_tuple(inputs, "jvp: inputs"), has_aux, "jvp")
        result = (lin.value(), lin(v))
    return result + (lin.aux,) if has_aux else result


def linearize(fn: Callable, inputs: Any) -> tuple[Any, Callable[[Any], Any]]:
    """``(fn(inputs), jvp_fn)``: ``jvp_fn(v)`` gives the Jacobian-vector product at ``inputs`` without running
    ``fn`` again.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> v = Tensor(np.array([1.0, 1.0]), ms.float32)
        >>> def f(t):
        ...     return t * t
        >>> output, jvp_fn = ops.linearize(f, (x,))
        >>> print(output)
        [1. 4.]
        >>> print(jvp_fn(v))
        [2. 4.]
    """
    with _Nested():
        lin = _Linearized(fn, _as_tuple(inputs, "linearize: inputs"), False, "linearize")
        value = lin.value()

    def jvp_fn(v: Any) -> Any:
        with _Nested():
            return lin(v)

    return value, jvp_fn


def _weight_list(weights: Any) -> list[Tensor]:
    if weights is None:
        return []
    if isinstance(weights, Tensor):
        return [weights]
    if hasattr(weights, "trainable_params"):
        return list(weights.trainable_params())
    return list(weights)


def vjp(fn: Callable, *inputs: Any, weights: Any = None, has_aux: bool = False) -> tuple:
    """``fn(*inputs)`` and the function giving vector-Jacobian products.

    Args:
        fn (Union[Function, Cell]): takes Tensors, returns a Tensor or a tuple of Tensors.
        inputs (Tensor): the inputs.
        weights (Union[ParameterTuple, Parameter, list[Parameter]], optional): Parameters whose products are
            also returned. Default: ``None``.
        has_aux (bool): differentiate the first output only and return the others as they are. Default:
        ``False``.

    Returns:
        ``(output, vjp_fn)`` (plus the aux outputs with ``has_aux``). ``vjp_fn(v)``, ``v`` shaped like the
        output,
        gives the tuple of the inputs' products, and with ``weights`` the pair (inputs' tuple, weights'
        tuple).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([3.0]), ms.float32)
        >>> output, vjp_fn = ops.vjp(lambda x: x * x, x)
        >>> print(vjp_fn(Tensor(np.array([1.0]), ms.float32)))
        (Tensor(shape=[1], dtype=Float32, value= [ 6.00000000e+00]),)
    """
    primals = _as_tuple(inputs, "vjp: inputs")
    ws = _weight_list(weights)
    with _Nested():
        leaves = tuple(_float_leaf(p) for p in primals)
        with set_grad_enabled(True):
            out = fn(*leaves)
        main, outs, aux = _outputs(out, has_aux, "vjp")
        keep = _keep_graph()

    def vjp_fn(*v: Any) -> Any:
        cot = _as_tuple(v[0] if len(v) == 1 and isinstance(v[0], (tuple, list)) else v, "vjp_fn: v")
        if len(cot) != len(outs):
            raise ValueError(f"vjp_fn: {len(cot)} vectors given for {len(outs)} outputs")
        with set_grad_enabled(True):
            grads = _cotangent_vjp(outs, cot, list(leaves) + ws, create_graph=keep)
        grads = [g if keep else g.detach() for g in grads]
        ig, wg = tuple(grads[:len(leaves)]), tuple(grads[len(leaves):])
        return (ig, wg) if weights is not None else ig

    value = tuple(_finish(t) for t in main) if isinstance(main, tuple) else _finish(main)
    return (value, vjp_fn, aux) if has_aux else (value, vjp_fn)


def _positions(grad_position: Any, n: int, what: str) -> tuple[tuple[int, ...], bool]:
    if isinstance(grad_position, int) and not isinstance(grad_position, bool):
        pos, single = (grad_position,), True
    elif isinstance(grad_position, tuple) and grad_position and all(isinstance(p, int)
                                                                     for p in grad_position):
        pos, single = grad_position, False
    else:
        raise TypeError(f"{what}: grad_position must be an int or a non-empty tuple of ints, got "
                        f"{grad_position!r}")
    for p in pos:
        if not -n <= p < n:
            raise ValueError(f"{what}: grad_position {p} is out of range for {n} inputs")
    return tuple(p % n for p in pos), single


def _jacobian(fn: Callable, grad_position: Any, has_aux: bool, forward: bool) -> Callable[..., Any]:
    what = "jacfwd" if forward else "jacrev"

    def jac_fn(*args: Any) -> Any:
        from cellonnx.ops import reshape, stack
        pos, single_in = _positions(grad_position, len(args), what)
        with _Nested():
            lin = _Linearized(fn, _as_tuple(args, f"{what}: inputs"), has_aux, what)
            outs, leaves = lin.outs, [lin.leaves[p] for p in pos]
            with set_grad_enabled(True):
                # blocks[o][i]: d out_o / d input_i, rows over the output elements
                blocks: list[list[Tensor]] = []
                for k, o in enumerate(outs):
                    row = []
                    for p, leaf in zip(pos, leaves):
                        if forward:
                            cols = []
                            for j in range(leaf.size):
                                e = np.zeros(leaf.size, leaf._data.dtype)
                                e[j] = 1
                                vs = [Tensor._make(e.reshape(leaf._data.shape)) if i == p else _zeros_like(t)
                                      for i, t in enumerate(lin.leaves)]
                                jv = _cotangent_vjp(lin.vjps, vs, lin.dummies, create_graph=_keep_graph())
                                cols.append(reshape(jv[k], (-1,)))
                            flat = stack(cols, -1) if cols else \
                                Tensor._make(np.zeros((o.size, 0), o._data.dtype))
                        else:
                            rows = []
                            for j in range(o.size):
                                e = np.zeros(o.size, o._data.dtype)
                                e[j] = 1
                                cots = [Tensor._make(e.reshape(o._data.shape)) if i == k else _zeros_like(t)
                                        for i, t in enumerate(outs)]
                                g = _cotangent_vjp(outs, cots, [leaf], create_graph=_keep_graph())[0]
                                rows.append(reshape(g, (-1,)))
                            flat = stack(rows, 0) if rows else \
                                Tensor._make(np.zeros((0, leaf.size), o._data.dtype))
                        row.append(_finish(reshape(flat, tuple(o.shape) + tuple(leaf.shape))))
                    blocks.append(row)
        per_out = [r[0] if single_in else tuple(r) for r in blocks]
        jac = per_out[0] if not isinstance(lin.main, tuple) else tuple(per_out)
        return (jac, lin.aux) if has_aux else jac

    return jac_fn


def jacfwd(fn: Callable, grad_position: Any = 0, has_aux: bool = False) -> Callable[..., Any]:
    """The function computing ``fn``'s Jacobian column by column (forward mode).

    The Jacobian of an output of shape S with respect to an input of shape T has shape S + T; several
    positions give a tuple per output, several outputs a tuple of those; with ``has_aux`` the result is
    ``(jacobian, aux)``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> def f(v):
        ...     return v * v
        >>> print(ops.jacfwd(f)(x))
        [[2. 0.]
         [0. 4.]]
    """
    return _jacobian(fn, grad_position, has_aux, True)


def jacrev(fn: Callable, grad_position: Any = 0, has_aux: bool = False) -> Callable[..., Any]:
    """The function computing ``fn``'s Jacobian row by row (reverse mode); shapes as ``jacfwd``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> def f(v):
        ...     return v * v
        >>> print(ops.jacrev(f)(x))
        [[2. 0.]
         [0. 4.]]
    """
    return _jacobian(fn, grad_position, has_aux, False)


def _taylor(fn: Callable, primals: tuple[Tensor, ...], series: tuple[Tensor, ...], order: int) -> tuple:
    """(fn(primals), [d^k/dt^k fn(x(t)) at t = 0 for k = 1 .. order]) along x(t) = x + sum_k s_k t^k / k!."""
    from cellonnx.ops import add, mul, unbind
    t0 = Tensor._make(np.zeros((), np.float32))
    rows = [unbind(s, 0) for s in series]

    def path(t: Tensor) -> Any:
        xs = []
        for x, s_rows in zip(primals, rows):
            xt = x
            for k, s_k in enumerate(s_rows):
                coeff = mul(t, 1.0)
                for _ in range(k):
                    coeff = mul(coeff, t)
                xt = add(xt, mul(s_k, mul(coeff, 1.0 / math.factorial(k + 1))))
            xs.append(xt)
        return fn(*xs)

    derivs: list[Any] = []
    g: Callable[[Tensor], Any] = path
    for _ in range(order):
        g = _dt(g)
        derivs.append(g(t0))
    with _Nested():
        value = fn(*primals)
    return value, derivs


def _dt(h: Callable[[Tensor], Any]) -> Callable[[Tensor], Any]:
    """``t -> d/dt h(t)`` for a scalar t (one forward-mode step, kept differentiable for the next)."""

    def dh(t: Tensor) -> Any:
        _depth[0] += 1  # always keep the graph: the next order differentiates this
        try:
            with set_grad_enabled(True):
                lin = _Linearized(h, (t,), False, "derivative")
                one = Tensor._make(np.ones((), t._data.dtype))
                jv = _cotangent_vjp(lin.vjps, [one], lin.dummies, create_graph=True)
        finally:
            _depth[0] -= 1
        return tuple(jv) if isinstance(lin.main, tuple) else jv[0]

    return dh


def _float_inputs(x: Any, what: str) -> tuple[Tensor, ...]:
    from cellonnx.ops import cast
    return tuple(t if t.dtype.is_floating_point else cast(t, np.float32) for t in _as_tuple(x, what))


def _detach_all(x: Any) -> Any:
    if isinstance(x, (tuple, list)):
        return type(x)(_detach_all(v) for v in x)
    return x.detach() if isinstance(x, Tensor) else x


def jet(fn: Callable, primals: Any, series: Any) -> tuple[Any, Any]:
    """The 1st to n-th derivatives of ``fn`` along the path whose derivatives at the primals are ``series``.

    Args:
        fn (Union[Cell, function]): the function.
        primals (Union[Tensor, tuple[Tensor]]): the inputs.
        series (Union[Tensor, tuple[Tensor]]): per input, shape (n,) + input shape: row i is the (i + 1)-th
            derivative of the input along the path.

    Returns:
        ``(fn(primals), out_series)``: row i of ``out_series`` is the (i + 1)-th derivative of the output.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> series = Tensor(np.array([[1.0, 1.0], [0.0, 0.0]]), ms.float32)
        >>> def f(t):
        ...     return t * t
        >>> out, derivs = ops.jet(f, x, series)
        >>> print(out)
        [1. 4.]
        >>> print(derivs)
        [[2. 4.]
         [2. 2.]]
    """
    from cellonnx.ops import stack
    xs = _float_inputs(primals, "jet: primals")
    ss = _float_inputs(series, "jet: series")
    if len(ss) != len(xs):
        raise ValueError(f"jet: {len(ss)} series for {len(xs)} primals")
    order = ss[0].shape[0]
    value, derivs = _taylor(fn, xs, ss, order)
    out: Any
    if isinstance(value, tuple):
        out = tuple(stack([d[i] for d in derivs], 0) for i in range(len(value)))
    else:
        out = stack(list(derivs), 0)
    return _detach_all(value), _detach_all(out)


def derivative(fn: Callable, primals: Any, order: int) -> tuple[Any, Any]:
    """``(fn(primals), its order-th derivative)`` along the direction of ones (first derivative of the inputs
    1, the higher ones 0).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> out, second = ops.derivative(ops.sin, x, 2)
        >>> print(second.asnumpy().round(4))
        [-0.8415 -0.9093]
    """
    from cellonnx.ops import ones_like, zeros_like
    if not isinstance(order, int) or order < 1:
        raise ValueError(f"derivative: order must be a positive int, got {order!r}")
    xs = _float_inputs(primals, "derivative: primals")
    series = []
    for x in xs:
        from cellonnx.ops import stack
        rows = [ones_like(x)] + [zeros_like(x) for _ in range(order - 1)]
        series.append(stack(rows, 0))
    value, derivs = _taylor(fn, xs, tuple(series), order)
    return _detach_all(value), _detach_all(derivs[-1])


def get_grad(gradients: Any, identifier: Any) -> Tensor:
    """The gradient for ``identifier`` (an input position or a Parameter) out of what ``grad`` /
    ``value_and_grad`` return with ``return_ids=True``.

    Raises:
        RuntimeError: no gradient carries that identifier.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> def f(t):
        ...     return (t * t).sum()
        >>> grads = ops.grad(f, grad_position=0, return_ids=True)(x)
        >>> print(ops.get_grad(grads, 0))
        [2. 4.]
    """
    if isinstance(identifier, Parameter):
        key: Any = identifier.name
    elif isinstance(identifier, int) and not isinstance(identifier, bool):
        key = identifier
    else:
        raise TypeError(f"get_grad: identifier must be an int position or a Parameter, got "
                        f"{type(identifier).__name__}")

    def find(g: Any) -> Any:
        if isinstance(g, tuple):
            is_pair = len(g) == 2 and isinstance(g[1], Tensor)
            if is_pair and isinstance(g[0], (int, str)) and not isinstance(g[0], bool):
                return g[1] if g[0] == key else None
            for item in g:
                found = find(item)
                if found is not None:
                    return found
        return None

    found = find(gradients)
    if found is None:
        raise RuntimeError(f"get_grad: no gradient for {identifier!r} (were the gradients computed with "
                           "return_ids=True, and is it one of the positions or weights asked for?)")
    return found


def stop_gradient_(input: Tensor) -> Tensor:
    """Cut ``input``'s gradient history in place (it becomes a leaf that takes no gradient); returns it.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> y = x * 2
        >>> out = ops.stop_gradient_(y)
        >>> print(y)
        [2. 4.]
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"stop_gradient_: input must be a Tensor, got {type(input).__name__}")
    input._node = None
    input._out_index = 0
    input.requires_grad = False
    return input
