"""The op table of the symbol interpreter: MXNet operator name -> a Row whose ``fn(*inputs, **attrs)``
computes the operator with cellonnx ops.

The implementations are MXNet's operators as cellonnx.mxnet implements them once for mx.nd / mx.sym
(``cellonnx.mxnet._op.TABLE``, MXNet's argument names and defaults), completed by the operators only
exported graphs use (cellonnx/gluon/symbol/ops_*.py: the scalar forms, RNN, the loss outputs,
detection's contrib operators ...). A Row adds what running a graph needs beyond the function: how to give
the node's parameters their shapes from its data input (SymbolBlock's deferred initialization), and
attributes that only tune MXNet's kernels.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from cellonnx.gluon.symbol.spec import aliases, canonical

__all__ = ["IGNORED_ATTRS", "Row", "all_rows", "row_of"]

# attributes that choose MXNet's kernels or calibrate quantization, never the result; num_args repeats the
# count of a variadic operator's inputs
IGNORED_ATTRS = frozenset(
    {
        "workspace",
        "cudnn_tune",
        "cudnn_off",
        "min_calib_range",
        "max_calib_range",
        "forward_stype",
        "sparse_grad",
        "num_args",
    }
)

ParamShapes = Callable[[dict[str, Any], tuple], dict[str, tuple]]


@dataclass(frozen=True)
class Row:
    """One operator.

    Args:
        fn: ``fn(*inputs, **attrs)`` -> a Tensor or a tuple of Tensors (one per output).
        param_shapes: ``(attrs, data shape) -> {input name: shape}`` for the inputs that are parameters
            (Convolution's weight and bias ...), or None.
        ignored: attributes of this operator that do not change its result.
    """

    fn: Callable[..., Any]
    param_shapes: ParamShapes | None = None
    ignored: frozenset[str] = field(default_factory=frozenset)


@cache
def _mxnet_ops() -> dict[str, Callable[..., Any]]:
    """mx.nd's operator implementations under their operator names (canonical or alias)."""
    from cellonnx.mxnet._op import CONTRIB, TABLE

    out = {name: fn for name, fn in TABLE.items() if canonical(name) is not None}
    out["_eye"] = TABLE["eye"]  # the node of mx.sym.eye
    out["_full"] = lambda shape=(), value=0.0, dtype=None, **_: TABLE["full"](shape, value, dtype=dtype)
    out.update({"_contrib_" + name: fn for name, fn in CONTRIB.items() if canonical("_contrib_" + name)})
    from cellonnx.mxnet._op.image import IMAGE

    out.update({"_image_" + name: fn for name, fn in IMAGE.items() if canonical("_image_" + name)})
    return out


@cache
def all_rows() -> dict[str, Row]:
    """Every operator the interpreter runs, by canonical name."""
    from cellonnx.gluon.symbol.ops_table import OPS
    from cellonnx.gluon.symbol.param_shapes import PARAM_SHAPES

    by_canonical: dict[str, list[str]] = {}
    for alias, target in aliases().items():
        by_canonical.setdefault(target, []).append(alias)
    mx = _mxnet_ops()
    rows: dict[str, Row] = {}
    for name in sorted({canonical(n) for n in (*OPS, *mx)} - {None}):
        names = [name, *sorted(by_canonical.get(name, ()))]
        fn = next((OPS[n] for n in names if n in OPS), None) or next(mx[n] for n in names if n in mx)
        rows[name] = Row(fn, PARAM_SHAPES.get(name))
    return rows


def row_of(name: str) -> Row | None:
    """The row of operator ``name`` (canonical name), None if the interpreter has none."""
    return all_rows().get(name)
