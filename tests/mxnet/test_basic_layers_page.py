"""MXNet's gluon.nn basic-layers reference page (/work/shared/seeds/003_28ed677aedd976ff.txt): every class
signature on it is cellonnx.mxnet.gluon.nn's, every Block method it lists exists with its parameters, and its
examples run with their documented outputs.

The page lost its code indentation; its ``>>>`` examples are one line each, the printed result after the
last statement. They are read from the page and run as written (with ``mx`` = cellonnx.mxnet and the
page's names imported).
"""
from __future__ import annotations

import inspect
import re
from pathlib import Path

import numpy as np
import pytest
from cellonnx.mxnet.gluon import nn

import cellonnx.mxnet as mx
from cellonnx.mxnet import gluon, npx
from tests.tolerance import assert_close

PAGE = Path("/work/shared/seeds/003_28ed677aedd976ff.txt")
pytestmark = pytest.mark.skipif(not PAGE.is_file(), reason=f"{PAGE} (the reference page) is not here")


def page() -> str:
    return PAGE.read_text(encoding="utf-8")


def class_signatures() -> dict[str, str]:
    return dict(re.findall(r"^- class mxnet\.gluon\.nn\.basic_layers\.(\w+)\((.*)\)\[source\]", page(), re.M))


def method_signatures() -> set[tuple[str, str]]:
    return set(re.findall(r"^- (\w+)\((.*)\)¶", page(), re.M))


def _parameters(text: str) -> list[tuple[str, str | None]]:
    """(name, default as written) of a signature's named parameters (``*args`` / ``**kwargs`` left out)."""
    out = []
    for part in re.split(r",\s*(?![^()]*\))", text):
        part = part.strip()
        if not part or part.startswith("*"):
            continue
        name, _, default = part.partition("=")
        out.append((name, default or None))
    return out


@pytest.mark.parametrize("name", sorted(class_signatures()))
def test_class_signature(name: str) -> None:
    written = _parameters(class_signatures()[name])
    sig = inspect.signature(getattr(nn, name))
    got = [(p.name, p.default) for p in sig.parameters.values()
           if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    assert [n for n, _ in got] == [n for n, _ in written], f"nn.{name}{sig}"
    for (pname, default), (_, text) in zip(got, written):
        if text is None:
            assert default is inspect.Parameter.empty, f"nn.{name}: {pname} has a default, the page none"
        else:
            assert default == eval(text), f"nn.{name}: {pname}={default!r}, the page says {text}"


@pytest.mark.parametrize("name, args", sorted(method_signatures()))
def test_block_method_signature(name: str, args: str) -> None:
    owners = [c for c in (nn.HybridSequential, nn.Sequential, nn.Dense) if hasattr(c, name)]
    assert owners, f"no Block has {name}"
    want = [n for n, _ in _parameters(args)]
    if name == "infer_shape" and want == ["x"]:  # Dense.infer_shape(x, *args)
        owners = [nn.Dense]
    params = list(inspect.signature(getattr(owners[0], name)).parameters)
    assert [p for p in want if p not in params] == [], f"{name}({args}): parameters missing in {params}"


def examples() -> list[tuple[list[str], np.ndarray]]:
    """(statements, printed result) of each ``>>>`` example with an output."""
    out = []
    for line in page().splitlines():
        if not line.startswith(">>>"):
            continue
        parts = [p.strip() for p in line.split(">>>") if p.strip()]
        last = parts[-1]
        call, _, printed = last.partition(" [")
        statements = [p.lstrip(". ") for p in parts[:-1] if not p.startswith("#")]
        statements = [re.sub(r"\s+\.\.\.\s+", " ", s) for s in statements]
        values = np.array([float(v) for v in re.findall(r"-?\d+\.?\d*(?:e-?\d+)?",
                                                        "[" + printed)], np.float32)
        out.append((statements + [call], values))
    return out


@pytest.mark.parametrize("statements, expected", examples(),
                         ids=lambda v: v[2] if isinstance(v, list) else "")
def test_documented_example(statements: list[str], expected: np.ndarray) -> None:
    namespace = {"mx": mx, "nn": nn, "npx": npx, **{n: getattr(nn, n) for n in nn.__all__}}
    for statement in statements[:-1]:
        exec(statement, namespace)  # noqa: S102 - the page's own example code
    result = eval(statements[-1], namespace)
    assert type(result).__name__ == "ndarray"
    assert_close(result.asnumpy().reshape(-1), expected, rtol=1e-5, scale_rtol=1e-6, what=statements[-1])


def test_the_pages_container_examples() -> None:
    """Concatenate, HybridConcatenate, HybridSequential and Sequential as the page builds them."""
    x = mx.np.array(np.arange(12, dtype=np.float32).reshape(3, 4))
    for make in (nn.Concatenate, nn.HybridConcatenate):
        net = make()
        net.add(nn.Dense(10, activation="relu"))
        net.add(nn.Dense(20))
        net.add(nn.Identity())
        net.initialize()
        out = net(x)
        assert out.shape == (3, 34)
        np.testing.assert_array_equal(out.asnumpy()[:, 30:], x.asnumpy())
    net = nn.HybridSequential()
    net.add(nn.Dense(10, activation="relu"))
    net.add(nn.Dense(20))
    net.hybridize()
    net.initialize()
    eager = nn.Sequential()
    eager.add(nn.Dense(10, activation="relu"))
    eager.add(nn.Dense(20))
    eager.initialize()
    assert net(x).shape == eager(x).shape == (3, 20)


def test_the_pages_lambda_examples() -> None:
    """HybridLambda('tanh'), HybridLambda(lambda F, x: F.LeakyReLU(x, slope=0.1)), Lambda('tanh') and
    Lambda(lambda x: npx.leaky_relu(x, slope=0.1)), eagerly and hybridized."""
    x = mx.nd.array([[-2.0, -0.5, 0.0, 1.5]])
    leaky = np.where(x.asnumpy() > 0, x.asnumpy(), 0.1 * x.asnumpy())
    for block, want in ((nn.HybridLambda("tanh"), np.tanh(x.asnumpy())),
                        (nn.HybridLambda(lambda F, x: F.LeakyReLU(x, slope=0.1)), leaky)):
        assert_close(block(x).asnumpy(), want, what=repr(block))
        block.hybridize()
        assert_close(block(x).asnumpy(), want, what=f"hybridized {block!r}")
    assert_close(nn.Lambda("tanh")(x).asnumpy(), np.tanh(x.asnumpy()), what="Lambda('tanh')")
    block = nn.Lambda(lambda x: npx.leaky_relu(x, slope=0.1))
    assert_close(block(x.as_np_ndarray()).asnumpy(), leaky, what="Lambda(npx.leaky_relu)")


def test_gluon_is_cellonnx_gluon() -> None:
    import cellonnx.gluon

    assert gluon is cellonnx.gluon
    assert nn is cellonnx.gluon.nn
