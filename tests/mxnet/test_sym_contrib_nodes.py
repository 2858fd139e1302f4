"""mx.sym.contrib's operators build MXNet graph nodes on Symbols (as 1.x ``hybrid_forward(F, ...)`` code under
hybridize does) and the node computes what mx.nd.contrib computes."""
from __future__ import annotations

import inspect

import numpy as np
import pytest

import cellonnx.mxnet as mx
from cellonnx.mxnet import _op
from cellonnx.mxnet.symbol import _op_name

GRAPH_OPERATORS = sorted(k for k in _op.CONTRIB if _op_name("_contrib_" + k))

# (name, attributes, input shapes)
CASES = [
    ("BilinearResize2D", {"height": 5, "width": 3}, [(2, 3, 4, 4)]),
    ("AdaptiveAvgPooling2D", {"output_size": (2, 3)}, [(1, 2, 6, 6)]),
    ("fft", {}, [(3, 8)]),
    ("count_sketch", {"out_dim": 5}, [(2, 6), (1, 6), (1, 6)]),
    ("index_copy", {}, [(4, 3), (2,), (2, 3)]),
]


def _inputs(name: str, shapes: list[tuple[int, ...]]) -> list[np.ndarray]:
    rng = np.random.default_rng(0)
    if name == "count_sketch":
        return [rng.standard_normal(shapes[0]).astype(np.float32),
                rng.integers(0, 5, shapes[1]).astype(np.float32),
                rng.choice([-1.0, 1.0], shapes[2]).astype(np.float32)]
    if name == "index_copy":
        return [np.zeros(shapes[0], np.float32), np.array([3, 1], np.float32),
                rng.standard_normal(shapes[2]).astype(np.float32)]
    return [rng.standard_normal(s).astype(np.float32) for s in shapes]


@pytest.mark.parametrize("name, attrs, shapes", CASES, ids=[c[0] for c in CASES])
def test_symbol_node_computes_the_array_operator(name: str, attrs: dict, shapes: list) -> None:
    arrays = _inputs(name, shapes)
    names = [f"in{i}" for i in range(len(arrays))]
    out = getattr(mx.sym.contrib, name)(*[mx.sym.var(n) for n in names], **attrs)
    assert isinstance(out, mx.sym.Symbol)
    assert f'"op": "{_op_name("_contrib_" + name)}"' in out.tojson()
    got = out.eval(**{n: mx.nd.array(a) for n, a in zip(names, arrays)})[0].asnumpy()
    want = getattr(mx.nd.contrib, name)(*[mx.nd.array(a) for a in arrays], **attrs).asnumpy()
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("name", GRAPH_OPERATORS)
def test_every_contrib_graph_operator_builds_a_node_on_symbols(name: str) -> None:
    """Called with Symbols for its data inputs, each builds its node, or names the attributes it still needs
    (never computes on the Symbol as if it were an array)."""
    params = [p.name for p in inspect.signature(_op.CONTRIB[name]).parameters.values()
              if p.default is inspect.Parameter.empty and p.kind == p.POSITIONAL_OR_KEYWORD]
    try:
        out = getattr(mx.sym.contrib, name)(*[mx.sym.var(p) for p in params or ["data"]])
    except mx.base.MXNetError as error:
        assert "required argument" in str(error)
        return
    assert isinstance(out, mx.sym.Symbol)
    assert _op_name("_contrib_" + name) in out.tojson()
