"""mx.sym: MXNet 1.x's symbolic API, and the operator namespace ``hybrid_forward(F, ...)`` receives while a
hybridized block is traced.

Symbols are graphs: ``mx.sym.var('data')`` is a placeholder, every operator applied to Symbols adds a node
(``mx.sym.FullyConnected(data, num_hidden=10)`` creates ``fullyconnected0`` and its variables
``fullyconnected0_weight`` / ``_bias``), and a Symbol lists its arguments, infers shapes and types, saves
MXNet's symbol.json, binds to an Executor (forward / backward) and becomes a trainable ``gluon.SymbolBlock``;
the symbol interpreter of cellonnx.gluon.symbol runs it (the same that loads ``HybridBlock.export`` files).

While a hybridized block is traced, ``F`` is this namespace too: its operators called on the traced arrays
compute them with mx.nd's implementations (one table), and their results are NDArrays that pass
``isinstance(x, mx.sym.Symbol)``, so ``F is mx.sym`` code runs unchanged.
"""
from __future__ import annotations

import inspect
import sys
from collections.abc import Callable
from typing import Any

from cellonnx.gluon.symbol.compose import create
from cellonnx.gluon.symbol.symbol import Group, Symbol, Variable, is_symbol, load, load_json, var
from cellonnx.graph import trace as _trace
from cellonnx.mxnet import _op
from cellonnx.mxnet._docs import attach
from cellonnx.mxnet._errors import mx_errors
from cellonnx.mxnet.ndarray.examples import SUMMARIES as ND_SUMMARIES
from cellonnx.mxnet.ndarray.ndarray import NDArray
from cellonnx.mxnet.symbol import contrib, image
from cellonnx.mxnet.symbol.examples import EXAMPLES, SUMMARIES
from cellonnx.mxnet.symbol.examples_update import UPDATE_EXAMPLES, UPDATE_SUMMARIES
from cellonnx.tensor import Tensor


class _TracedSymbol(NDArray):
    """An operator result while a hybridized block is traced (an NDArray holding a traced value)."""

    __slots__ = ()


Symbol.register(_TracedSymbol)


def _symbolic(args: tuple, kwargs: dict[str, Any]) -> bool:
    """Whether a call builds a graph node: some argument is a Symbol, or none is an array and no block is
    being traced (``mx.sym.zeros(shape)``, ``mx.sym.FullyConnected(num_hidden=4)``)."""
    values = (*args, *kwargs.values())
    if any(is_symbol(v) for v in values):
        return True
    if _trace._current:
        return False
    return not any(isinstance(v, Tensor) or (isinstance(v, (list, tuple)) and any(isinstance(e, Tensor)
                                                                                    for e in v))
                   for v in values)


def _dual(name: str, op: str, eager: Callable[..., Any] | None,
          impl: Callable[..., Any] | None = None) -> Callable[..., Any]:
    """``mx.sym.<name>``: a graph node of operator ``op`` on Symbols, the computation on arrays."""
    hint = name.lower()

    @mx_errors
    def fn(*args: Any, **kwargs: Any) -> Any:
        if eager is None or _symbolic(args, kwargs):
            return create(op, hint, list(args), kwargs, symbol_cls=Symbol, signature=impl)
        return eager(*args, **kwargs)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = eager.__doc__ if eager is not None else f"MXNet's operator {op}."
    return fn


def _op_name(name: str) -> str | None:
    from cellonnx.gluon.symbol.spec import canonical

    return canonical(name)


def _array_only(name: str, eager: Callable[..., Any]) -> Callable[..., Any]:
    """``mx.sym.<name>`` of an operator MXNet 1.9.1 has no graph node for (isfinite, mish, moveaxis ...): it
    computes on arrays (``F.<name>`` in a traced ``hybrid_forward``); a Symbol argument is refused."""

    def fn(*args: Any, **kwargs: Any) -> Any:
        if any(is_symbol(v) for v in (*args, *kwargs.values())):
            raise TypeError(f"mx.sym.{name} computes on arrays only: MXNet 1.9.1 has no {name} operator to "
                            f"put in a symbol graph (call it on NDArrays, or as F.{name} in hybrid_forward)")
        return eager(*args, **kwargs)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = eager.__doc__
    return fn


# cellonnx's NumPy-style names of the operator table, on Symbols: MXNet's operators of the same meaning
_GRAPH_ALIASES = {
    **dict.fromkeys(("add", "plus"), "broadcast_add"),
    **dict.fromkeys(("sub", "minus", "subtract"), "broadcast_sub"),
    **dict.fromkeys(("mul", "multiply"), "broadcast_mul"),
    **dict.fromkeys(("div", "divide", "true_divide"), "broadcast_div"),
    **dict.fromkeys(("mod", "modulo"), "broadcast_mod"),
    **{n: f"broadcast_{n}" for n in ("equal", "not_equal", "greater", "greater_equal", "lesser",
                                     "lesser_equal", "logical_and", "logical_or", "logical_xor")},
    "AdaptiveAvgPooling2D": "_contrib_AdaptiveAvgPooling2D",
    "BilinearResize2D": "_contrib_BilinearResize2D",
    "sequence_mask": "SequenceMask",
    "eye": "_eye",
}

_module = sys.modules[__name__]
for _name, _impl in _op.TABLE.items():
    _eager = _op.wrap(_name, _impl, _TracedSymbol)
    _canonical = _op_name(_GRAPH_ALIASES.get(_name, _name))
    setattr(_module, _name, _array_only(_name, _eager) if _canonical is None
            else _dual(_name, _canonical, _eager, _impl))


# ---------------------------------------------------------------- MXNet's Python-level functions
def _scalar_or_symbol(name: str, sym_op: tuple[str, str], scalar_op: tuple[str, str],
                      rscalar_op: tuple[str, str] | None, eager: Callable[..., Any]) -> Callable[..., Any]:
    def fn(left: Any, right: Any, **kwargs: Any) -> Any:
        if not (is_symbol(left) or is_symbol(right)):
            return eager(left, right, **kwargs)
        if is_symbol(left) and is_symbol(right):
            return create(sym_op[0], sym_op[1], [left, right], kwargs, symbol_cls=Symbol)
        if is_symbol(left):
            return create(scalar_op[0], scalar_op[1], [left], {"scalar": right, **kwargs}, symbol_cls=Symbol)
        if rscalar_op is None:
            return create(scalar_op[0], scalar_op[1], [right], {"scalar": left, **kwargs}, symbol_cls=Symbol)
        return create(rscalar_op[0], rscalar_op[1], [right], {"scalar": left, **kwargs}, symbol_cls=Symbol)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = eager.__doc__
    return fn


for _name, _ops in {
    "maximum": (("_Maximum", "_maximum"), ("_MaximumScalar", "_maximumscalar"), None),
    "minimum": (("_Minimum", "_minimum"), ("_MinimumScalar", "_minimumscalar"), None),
    "hypot": (("_Hypot", "_hypot"), ("_HypotScalar", "_hypotscalar"), None),
    "power": (("_Power", "_power"), ("_PowerScalar", "_powerscalar"), ("_RPowerScalar", "_rpowerscalar")),
}.items():
    if _name in _op.TABLE:
        setattr(_module, _name, _scalar_or_symbol(_name, *_ops, getattr(_module, _name)))
pow = getattr(_module, "power", None)


def _creation(name: str, op: str, build: Callable[..., dict[str, Any]]) -> Callable[..., Any]:
    eager = getattr(_module, name)

    def fn(*args: Any, **kwargs: Any) -> Any:
        if _trace._current or any(isinstance(v, Tensor) for v in (*args, *kwargs.values())):
            return eager(*args, **kwargs)
        kwargs = dict(kwargs)
        kwargs.pop("ctx", None)
        attrs = build(*args, **kwargs)
        return create(op, op, [], attrs, symbol_cls=Symbol)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = eager.__doc__
    signature = inspect.signature(build).replace(return_annotation=inspect.Signature.empty)
    fn.__signature__ = signature  # type: ignore[attr-defined]  (MXNet's: the node's arguments)
    return fn


def _zeros_attrs(shape: Any, dtype: Any = None, **kwargs: Any) -> dict[str, Any]:
    return {"shape": shape, "dtype": "float32" if dtype is None else dtype, **kwargs}


def _full_attrs(shape: Any, val: Any, dtype: Any = None, **kwargs: Any) -> dict[str, Any]:
    return {"shape": shape, "value": val, "dtype": "float32" if dtype is None else dtype, **kwargs}


def _arange_attrs(start: Any, stop: Any = None, step: Any = 1.0, repeat: int = 1, infer_range: bool = False,
                  name: str | None = None, dtype: Any = None, **kwargs: Any) -> dict[str, Any]:
    return {"start": start, "stop": stop, "step": step, "repeat": repeat, "infer_range": infer_range,
            "name": name, "dtype": "float32" if dtype is None else dtype, **kwargs}


def _linspace_attrs(start: Any, stop: Any, num: int, endpoint: bool = True, name: str | None = None,
                    dtype: Any = None, **kwargs: Any) -> dict[str, Any]:
    return {"start": start, "stop": stop, "num": num, "endpoint": endpoint, "name": name,
            "dtype": "float32" if dtype is None else dtype, **kwargs}


for _name, _op_and_build in {"zeros": ("_zeros", _zeros_attrs), "ones": ("_ones", _zeros_attrs),
                             "full": ("_full", _full_attrs), "arange": ("_arange", _arange_attrs),
                             "linspace": ("_linspace", _linspace_attrs)}.items():
    if _name in _op.TABLE:
        setattr(_module, _name, _creation(_name, *_op_and_build))


def split_v2(ary: Any, indices_or_sections: Any, axis: int = 0, squeeze_axis: bool = False) -> Any:
    """Split ``ary`` along ``axis`` into equal sections (an int) or at the given indices (a tuple)."""
    if isinstance(indices_or_sections, int):
        return create("_split_v2", "_split_v2", [ary], {"axis": axis, "squeeze_axis": squeeze_axis,
                                                        "sections": indices_or_sections, "indices": ()},
                      symbol_cls=Symbol)
    indices = (0, *indices_or_sections)
    return create("_split_v2", "_split_v2", [ary], {"axis": axis, "squeeze_axis": squeeze_axis,
                                                    "indices": indices, "sections": 0}, symbol_cls=Symbol)


attach(vars(_module), {**EXAMPLES, **UPDATE_EXAMPLES}, {**ND_SUMMARIES, **SUMMARIES, **UPDATE_SUMMARIES})

__all__ = ["Group", "Symbol", "Variable", "contrib", "load", "load_json", "var",
           *(n for n in _op.TABLE if not n.startswith("_"))]
__all__ += ["image"]

from cellonnx.mxnet.symbol.histogram import histogram  # noqa: E402 - after the operator table's names

__all__ += ["histogram"]


def __getattr__(name: str) -> Any:
    if name == "np":
        from cellonnx.mxnet import numpy
        return numpy
    if name == "npx":
        from cellonnx.mxnet import numpy_extension
        return numpy_extension
    fn = _graph_operator(name)
    if fn is not None:
        setattr(_module, name, fn)
        return fn
    raise AttributeError(f"module 'mxnet.symbol' has no attribute '{name}'")


def _graph_operator(name: str) -> Any:
    """Every other operator of MXNet 1.9.1 under its names (SoftmaxOutput, SliceChannel, MakeLoss ...):
    a graph node on Symbols; on arrays, the interpreter's implementation where it has one."""
    from cellonnx.gluon.symbol.table import row_of

    op = _op_name(name) if not name.startswith("__") else None
    if op is None:
        return None
    row = row_of(op)
    return _dual(name, op, None if row is None else _op.wrap(name, row.fn, _TracedSymbol))


# mx.sym.contrib's operators that are MXNet graph operators (_contrib_BilinearResize2D, _contrib_fft ...):
# graph nodes on Symbols, as 1.x hybrid_forward(F, ...) code builds them; computed on arrays
for _name in _op.CONTRIB:
    _node = _op_name("_contrib_" + _name)
    if _node is not None and hasattr(contrib, _name):
        setattr(contrib, _name, _dual(_name, _node, getattr(contrib, _name), _op.CONTRIB[_name]))

from cellonnx.mxnet.symbol import linalg  # noqa: E402 - its names are the operators' above and __getattr__'s

for _name in linalg.__all__:  # mx.sym.linalg.potrf is mx.sym.linalg_potrf, as in MXNet
    setattr(linalg, _name, getattr(_module, "linalg_" + _name, None) or getattr(_module, "_linalg_" + _name))
__all__ += ["linalg"]
