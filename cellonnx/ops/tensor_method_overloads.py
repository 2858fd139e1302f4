"""The second spelling MindSpore 2.10's Tensor methods accept: its C++ binding takes each reduction and
shape method both NumPy-style (``x.sum(axis=1, keepdims=True)``) and torch-style (``x.sum(dim=1,
keepdim=True)``, ``x.sub(y, alpha=2)``, ``x.gather(dim, index)``). These wrap cellonnx's methods to take
both; a wrapper's signature shows both spellings."""
from __future__ import annotations

import inspect
from typing import Any

import numpy as np

from cellonnx import ops as F
from cellonnx.tensor import Tensor


def _aliased(fn: Any, renames: dict[str, str], ignored: dict[str, Any] | None = None) -> Any:
    """``fn`` taking MindSpore's other keyword names too: ``renames`` maps each to ``fn``'s own;
    ``ignored`` names (with their defaults) are accepted and dropped (``device``, ``non_blocking``)."""
    ignored = ignored or {}

    def method(self: Tensor, *args: Any, **kwargs: Any) -> Any:
        for name in ignored:
            kwargs.pop(name, None)
        for theirs, ours in renames.items():
            if theirs in kwargs:
                if ours in kwargs:
                    raise TypeError(f"Tensor.{fn.__name__}: got both {theirs!r} and {ours!r}")
                kwargs[ours] = kwargs.pop(theirs)
        return fn(self, *args, **kwargs)

    sig = inspect.signature(fn)
    params = list(sig.parameters.values())
    own = {p.name: p for p in params}
    extra = [inspect.Parameter(theirs, inspect.Parameter.KEYWORD_ONLY, default=own[ours].default)
             for theirs, ours in renames.items() if theirs not in own]
    extra += [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default)
              for name, default in ignored.items() if name not in own]
    varkw = [p for p in params if p.kind is p.VAR_KEYWORD]
    method.__signature__ = sig.replace(parameters=[p for p in params if p.kind is not p.VAR_KEYWORD]
                                       + extra + varkw)  # type: ignore[attr-defined]
    method.__name__ = getattr(fn, "__name__", "method")
    method.__doc__ = fn.__doc__
    return method


def _method(name: str) -> Any:
    fn = Tensor.__dict__[name]
    return fn.__func__ if isinstance(fn, staticmethod) else fn


def _sub(self: Tensor, other: Any, *, alpha: Any = 1) -> Tensor:
    return F.sub(self, other if alpha == 1 else F.mul(other, alpha))


def _mean(self: Tensor, axis: Any = None, keep_dims: bool = False, *, dtype: Any = None) -> Tensor:
    return F.mean(self if dtype is None else F.cast(self, dtype), axis, keep_dims)


def _gather(base: Any) -> Any:
    def gather(self: Tensor, input_indices: Any = None, axis: Any = None, batch_dims: int = 0, *,
               dim: Any = None, index: Any = None) -> Tensor:
        """``ops.gather(self, input_indices, axis)``; with ``dim`` and ``index`` (MindSpore's other form)
        the elements at ``index`` along ``dim`` (``ops.gather_elements``)."""
        if index is not None or dim is not None:
            return F.gather_elements(self, axis if dim is None else dim,
                                     input_indices if index is None else index)
        return base(self, input_indices, axis, batch_dims)
    return gather


def _scatter_add(base: Any) -> Any:
    def scatter_add(self: Tensor, *args: Any, dim: Any = None, index: Any = None, src: Any = None) -> Tensor:
        """``ops.scatter_add(self, indices, updates)``; with ``dim``, ``index`` and ``src`` (MindSpore's
        other form, also positional as ``(dim, index, src)``) ``src`` added at ``index`` along ``dim``."""
        from cellonnx.ops.tensor_methods_fill import _scatter_add as add_elements
        if dim is not None or len(args) == 3:
            d, i, s = args if len(args) == 3 else (dim, index, src)
            return add_elements(self, d, i, s)
        return base(self, *args)
    return scatter_add


def _take(self: Tensor, indices: Any, axis: int | None = None, mode: str = "clip") -> Tensor:
    """The elements at ``indices`` of the flattened tensor, or along ``axis`` (``numpy.take``);
    ``mode`` 'clip' clamps out-of-range indices, 'wrap' wraps them, 'raise' refuses them."""
    src = F.reshape(self, (-1,)) if axis is None else self
    ax = 0 if axis is None else axis
    n = src.shape[ax]
    idx = np.asarray(indices.asnumpy() if isinstance(indices, Tensor) else indices, np.int64)
    if mode == "wrap":
        idx = idx % n
    elif mode == "clip":
        idx = np.clip(idx, 0, n - 1)
    elif np.any((idx < -n) | (idx >= n)):
        raise IndexError(f"Tensor.take: an index is out of range for size {n}")
    return F.gather(src, Tensor(idx % n), ax)


def _flatten(base: Any) -> Any:
    def flatten(self: Tensor, order: Any = "C", *args: Any, start_dim: int = 0, end_dim: int = -1) -> Tensor:
        """``flatten(order='C', *, start_dim, end_dim)``, or MindSpore's other form
        ``flatten(start_dim=0, end_dim=-1)`` with the dims positional."""
        if isinstance(order, int):
            start_dim, end_dim, order = order, (args[0] if args else end_dim), "C"
        return base(self, order, start_dim=start_dim, end_dim=end_dim)
    return flatten


def _to(base: Any) -> Any:
    def to(self: Tensor, dtype: Any = None, non_blocking: bool = False, copy: bool = False) -> Tensor:
        """The tensor cast to ``dtype`` (itself without one; cellonnx tensors live on the host)."""
        return self if dtype is None else base(self, dtype)
    return to


def _topk(base: Any) -> Any:
    def topk(self: Tensor, k: int, dim: int = -1, largest: bool = True, sorted: bool = True) -> Any:
        return base(self, k, dim, largest, sorted)
    topk.__doc__ = base.__doc__
    return topk


def overloads() -> dict[str, Any]:
    """The wrapped methods, built from those attached now (call after the other tables are installed)."""
    reduce = {"dim": "axis", "keepdim": "keepdims"}
    reduce_ = {"dim": "axis", "keepdim": "keep_dims"}
    return {
        "sum": _aliased(_method("sum"), reduce),
        "mean": _aliased(_mean, reduce_),
        "prod": _aliased(_method("prod"), reduce_),
        "logsumexp": _aliased(_method("logsumexp"), reduce),
        "sort": _aliased(_method("sort"), {"dim": "axis"}, {"stable": False}),  # cellonnx's sort is stable
        "cumsum": _aliased(_method("cumsum"), {"dim": "axis"}),
        "unsqueeze": _aliased(_method("unsqueeze"), {"dim": "axis"}),
        "chunk": _aliased(_method("chunk"), {"dim": "axis"}),
        "split": _aliased(_method("split"), {"split_size": "split_size_or_sections", "dim": "axis"}),
        "repeat_interleave": _aliased(_method("repeat_interleave"), {"dim": "axis"}, {"output_size": None}),
        "narrow": _aliased(_method("narrow"), {"dim": "axis"}),
        "scatter": _aliased(_method("scatter"), {"dim": "axis"}),
        "matmul": _aliased(_method("matmul"), {"tensor2": "other"}),
        "new_empty": _aliased(_method("new_empty"), {}, {"device": None}),
        "sub": _sub, "gather": _gather(_method("gather")),
        "scatter_add": _scatter_add(_method("scatter_add")),
        "take": _take, "flatten": _flatten(_method("flatten")), "to": _to(_method("to")),
        "topk": _topk(_method("topk")),
    }
