"""The examples of MXNet's gluon.nn basic-layers reference page (/work/shared/seeds/003_28ed677aedd976ff.txt)
run on cellonnx as written, with their documented outputs.

The page is MXNet 2.x's (``mx.np.array``, ``initialize(device=...)``); its extraction flattened the examples
into one line each: here they are written out again, statement by statement, with the imports the page
presumes (``mxnet`` rewritten to ``cellonnx.mxnet``, ``mxnet.gluon`` to ``cellonnx.gluon``: import lines
only). Each example runs prompt by prompt (tests/seeds/session.py).

- GroupNorm, InstanceNorm and LayerNorm print their results: compared number by number (tests/tolerance.py).
- The containers (Concatenate, HybridConcatenate, HybridSequential, Sequential) build networks of Dense
  layers that the page never calls; the probe initializes and calls them: their weights are a random draw, so
  the outputs are compared by shape, and the Identity branch of the concatenations by value.
- collect_params, setattr and share_parameters print nothing on the page; the probes check what the text says
  they do (the selected names, the attribute on every parameter, the tied Parameter objects).
- optimize_for(x, backend='myPart') needs a partitioning backend built as an MXNet extension library and
  loaded with ``mx.library.load``, which the page does not have either: it raises, naming the backend.

The page's class signatures and the Block methods it lists are checked against cellonnx.mxnet.gluon.nn when
the page itself is at hand (it is read for them).
"""
from __future__ import annotations

import inspect
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from tests.seeds import session
from tests.tolerance import assert_close

PAGE = Path("/work/shared/seeds/003_28ed677aedd976ff.txt")


def port(code: str) -> str:
    """``mxnet`` -> ``cellonnx.mxnet`` and ``mxnet.gluon`` -> ``cellonnx.gluon`` on import lines only."""
    out = []
    for line in code.splitlines():
        if re.match(r"\s*(import|from)\s+mxnet\b", line):
            line = re.sub(r"\bmxnet\.gluon\b", "cellonnx.gluon", line)
            line = re.sub(r"\bmxnet\b(?!\.gluon)", "cellonnx.mxnet", line)
            line = line.replace("import cellonnx.mxnet\n", "import cellonnx.mxnet as mxnet\n")
        out.append(line)
    return "\n".join(out) + "\n"


@dataclass(frozen=True)
class Example:
    name: str
    code: str
    printed: str = ""   # what the page prints after the last prompt


GLUON = "from mxnet.gluon import nn\n"
MX = "import mxnet as mx\nfrom mxnet import npx\nfrom mxnet.gluon import nn\n"

EXAMPLES = [
    Example("GroupNorm", MX + """from mxnet.gluon.nn import GroupNorm
# Input of shape (2, 3, 4)
x = mx.np.array([[[ 0, 1, 2, 3], [ 4, 5, 6, 7], [ 8, 9, 10, 11]],
                 [[12, 13, 14, 15], [16, 17, 18, 19], [20, 21, 22, 23]]])
# Group normalization is calculated with the above formula
layer = GroupNorm()
layer.initialize(device=mx.cpu(0))
layer(x)
""", """[[[-1.5932543 -1.3035717 -1.0138891 -0.7242065] [-0.4345239 -0.1448413 0.1448413 0.4345239]
[ 0.7242065 1.0138891 1.3035717 1.5932543]] [[-1.5932543 -1.3035717 -1.0138891 -0.7242065]
[-0.4345239 -0.1448413 0.1448413 0.4345239] [ 0.7242065 1.0138891 1.3035717 1.5932543]]]"""),
    Example("InstanceNorm", MX + """from mxnet.gluon.nn import InstanceNorm
# Input of shape (2,1,2)
x = mx.np.array([[[ 1.1, 2.2]],
                 [[ 3.3, 4.4]]])
# Instance normalization is calculated with the above formula
layer = InstanceNorm()
layer.initialize(device=mx.cpu(0))
layer(x)
""", "[[[-0.99998355 0.99998331]] [[-0.99998319 0.99998361]]]"),
    Example("LayerNorm", MX + """from mxnet.gluon.nn import LayerNorm
# Input of shape (2, 5)
x = mx.np.array([[1, 2, 3, 4, 5], [1, 1, 2, 2, 2]])
# Layer normalization is calculated with the above formula
layer = LayerNorm()
layer.initialize(device=mx.cpu(0))
layer(x)
""", "[[-1.41421 -0.707105 0. 0.707105 1.41421 ] [-1.2247195 -1.2247195 0.81647956 0.81647956 0.81647956]]"),
    Example("Concatenate", GLUON + """from mxnet.gluon.nn import Concatenate, Identity
net = Concatenate()
net.add(nn.Dense(10, activation='relu'))
net.add(nn.Dense(20))
net.add(Identity())
"""),
    Example("HybridConcatenate", GLUON + """from mxnet.gluon.nn import HybridConcatenate, Identity
net = HybridConcatenate()
net.add(nn.Dense(10, activation='relu'))
net.add(nn.Dense(20))
net.add(Identity())
"""),
    Example("HybridSequential", GLUON + """
net = nn.HybridSequential()
net.add(nn.Dense(10, activation='relu'))
net.add(nn.Dense(20))
net.hybridize()
"""),
    Example("Sequential", GLUON + """
net = nn.Sequential()
net.add(nn.Dense(10, activation='relu'))
net.add(nn.Dense(20))
"""),
    Example("HybridLambda('tanh')", GLUON + """from mxnet.gluon.nn import HybridLambda
block = HybridLambda('tanh')
"""),
    Example("HybridLambda(F.LeakyReLU)", GLUON + """from mxnet.gluon.nn import HybridLambda
block = HybridLambda(lambda F, x: F.LeakyReLU(x, slope=0.1))
"""),
    Example("Lambda('tanh')", GLUON + """from mxnet.gluon.nn import Lambda
block = Lambda('tanh')
"""),
    Example("Lambda(npx.leaky_relu)", MX + """from mxnet.gluon.nn import Lambda
block = Lambda(lambda x: npx.leaky_relu(x, slope=0.1))
"""),
    Example("collect_params", GLUON + """
class Model(nn.HybridBlock):  # the page's `model`: the parameters it names, and others
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2D(4, 3)
        self.bn = nn.BatchNorm()
        self.fc = nn.Dense(2)

    def forward(self, x):
        return self.fc(self.bn(self.conv1(x)))

model = Model()
selected = model.collect_params('conv1.weight|conv1.bias|fc.weight|fc.bias')
weights_and_biases = model.collect_params('.*weight|.*bias')
"""),
    Example("setattr", GLUON + """
model = nn.HybridSequential()
model.add(nn.Dense(4), nn.BatchNorm(), nn.Dense(2))
model.setattr('grad_req', 'null')
model.setattr('lr_mult', 0.5)
"""),
    Example("share_parameters", GLUON + """
dense0 = nn.Dense(20)
dense1 = nn.Dense(20)
dense1.share_parameters(dense0.collect_params())
"""),
    Example("optimize_for", MX + """
block = nn.HybridSequential()
block.add(nn.Dense(4))
block.initialize()
x = mx.np.ones((2, 3))
# partition and then export to file
block.optimize_for(x, backend='myPart')
block.export('partitioned')
"""),
]
BY_NAME = {e.name: e for e in EXAMPLES}
NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")


def run(name: str, tmp_path: Path) -> session.Session:
    return session.run(port(BY_NAME[name].code), tmp_path)


def params(names: list[str]) -> list[object]:
    return [pytest.param(n, id=n) for n in names]


def test_port_rewrites_import_lines_only() -> None:
    assert port("import mxnet as mx\nfrom mxnet.gluon import nn\nfrom mxnet import npx\nx = 'mxnet'\n") == (
        "import cellonnx.mxnet as mx\nfrom cellonnx.gluon import nn\nfrom cellonnx.mxnet import npx\n"
        "x = 'mxnet'\n")


@pytest.mark.parametrize("name", params([e.name for e in EXAMPLES if e.printed]))
def test_prints_what_the_page_prints(name: str, tmp_path: Path) -> None:
    ran = run(name, tmp_path)
    assert ran.errors == [], ran.errors
    want = np.array([float(v) for v in NUMBER.findall(BY_NAME[name].printed)])
    result = ran.namespace["layer"](ran.namespace["x"])
    assert type(result).__name__ == "ndarray", f"{name}: an mx.np.ndarray, got {type(result).__name__}"
    assert_close(result.asnumpy().reshape(-1), want, rtol=1e-5, scale_rtol=1e-6, what=name)
    assert [float(v) for v in NUMBER.findall(ran.output)] == pytest.approx(list(want), rel=1e-5, abs=1e-6)


@pytest.mark.parametrize("name", params(["Concatenate", "HybridConcatenate"]))
def test_concatenations(name: str, tmp_path: Path) -> None:
    ran = run(name, tmp_path)
    assert ran.errors == [], ran.errors
    net = ran.namespace["net"]
    net.initialize()
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    out = net(_tensor(x)).asnumpy()
    # Dense(10) and Dense(20) draw their weights at random: their 30 columns are compared by shape only
    assert out.shape == (3, 10 + 20 + 4)
    assert (out[:, :10] >= 0).all()  # relu
    np.testing.assert_array_equal(out[:, 30:], x)


def _tensor(x: np.ndarray) -> object:
    from cellonnx import Tensor

    return Tensor(x)


@pytest.mark.parametrize("name", params(["HybridSequential", "Sequential"]))
def test_sequentials(name: str, tmp_path: Path) -> None:
    ran = run(name, tmp_path)
    assert ran.errors == [], ran.errors
    net = ran.namespace["net"]
    net.initialize()
    x = _tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
    out = net(x)  # random weights: the shape only
    assert out.shape == (3, 20)
    first, second = net[0], net[1]  # the same weights, layer by layer
    want = second(first(x)).asnumpy()
    assert_close(out.asnumpy(), want, what=name)


@pytest.mark.parametrize("name, want", [
    pytest.param("HybridLambda('tanh')", "tanh", id="HybridLambda('tanh')"),
    pytest.param("HybridLambda(F.LeakyReLU)", "leaky", id="HybridLambda(F.LeakyReLU)"),
    pytest.param("Lambda('tanh')", "tanh", id="Lambda('tanh')"),
    pytest.param("Lambda(npx.leaky_relu)", "leaky", id="Lambda(npx.leaky_relu)"),
])
def test_lambdas(name: str, want: str, tmp_path: Path) -> None:
    ran = run(name, tmp_path)
    assert ran.errors == [], ran.errors
    x = np.array([[-2.0, -0.5, 0.0, 1.5]], np.float32)
    expected = np.tanh(x) if want == "tanh" else np.where(x > 0, x, 0.1 * x)
    block = ran.namespace["block"]
    assert_close(block(_tensor(x)).asnumpy(), expected, what=name)
    if hasattr(block, "hybridize"):
        block.hybridize()
        assert_close(block(_tensor(x)).asnumpy(), expected, what=f"hybridized {name}")


def test_collect_params_selects_by_regular_expression(tmp_path: Path) -> None:
    ran = run("collect_params", tmp_path)
    assert ran.errors == [], ran.errors
    names = ["conv1.weight", "conv1.bias", "fc.weight", "fc.bias"]
    assert list(ran.namespace["selected"]) == names
    assert list(ran.namespace["weights_and_biases"]) == names  # the BatchNorm's gamma / beta / running_* not


def test_setattr_sets_every_parameter(tmp_path: Path) -> None:
    ran = run("setattr", tmp_path)
    assert ran.errors == [], ran.errors
    params = list(ran.namespace["model"].collect_params().values())
    assert len(params) == 8
    assert {p.grad_req for p in params} == {"null"}
    assert {p.lr_mult for p in params} == {0.5}


def test_share_parameters_ties_the_parameter_objects(tmp_path: Path) -> None:
    ran = run("share_parameters", tmp_path)
    assert ran.errors == [], ran.errors
    dense0, dense1 = ran.namespace["dense0"], ran.namespace["dense1"]
    # "which equals to dense1.weight = dense0.weight; dense1.bias = dense0.bias"
    assert dense1.weight is dense0.weight and dense1.bias is dense0.bias
    dense0.initialize()
    x = _tensor(np.ones((2, 3), np.float32))
    np.testing.assert_array_equal(dense1(x).asnumpy(), dense0(x).asnumpy())


@pytest.mark.parametrize("name", params(["optimize_for"]))
def test_optimize_for_needs_the_pages_backend_library(name: str, tmp_path: Path) -> None:
    ran = run(name, tmp_path)
    lines = [line for line, _ in ran.errors]
    assert lines[0] == "block.optimize_for(x, backend='myPart')"
    assert "'myPart'" in ran.errors[0][1]


# ---------------------------------------------------------------- the page's signatures
NEEDS_PAGE = pytest.mark.skipif(not PAGE.is_file(), reason=f"{PAGE} (the reference page) is not here")


def _page_findall(pattern: str) -> list:
    return re.findall(pattern, PAGE.read_text(encoding="utf-8"), re.M) if PAGE.is_file() else []


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


@NEEDS_PAGE
@pytest.mark.parametrize("name, written", sorted(
    _page_findall(r"^- class mxnet\.gluon\.nn\.basic_layers\.(\w+)\((.*)\)\[source\]")))
def test_class_signature(name: str, written: str) -> None:
    from cellonnx.mxnet.gluon import nn

    want = _parameters(written)
    sig = inspect.signature(getattr(nn, name))
    got = [(p.name, p.default) for p in sig.parameters.values()
           if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    assert [n for n, _ in got] == [n for n, _ in want], f"nn.{name}{sig}"
    for (pname, default), (_, text) in zip(got, want):
        if text is None:
            assert default is inspect.Parameter.empty, f"nn.{name}: {pname} has a default, the page none"
        else:
            assert default == eval(text), f"nn.{name}: {pname}={default!r}, the page says {text}"


@NEEDS_PAGE
@pytest.mark.parametrize("name, args", sorted(set(_page_findall(r"^- (\w+)\((.*)\)¶"))))
def test_block_method_signature(name: str, args: str) -> None:
    from cellonnx.mxnet.gluon import nn

    owners = [c for c in (nn.HybridSequential, nn.Sequential, nn.Dense) if hasattr(c, name)]
    assert owners, f"no Block has {name}"
    want = [n for n, _ in _parameters(args)]
    if name == "infer_shape" and want == ["x"]:  # Dense.infer_shape(x, *args)
        owners = [nn.Dense]
    params = list(inspect.signature(getattr(owners[0], name)).parameters)
    assert [p for p in want if p not in params] == [], f"{name}({args}): parameters missing in {params}"


def test_mxnet_gluon_is_cellonnx_gluon() -> None:
    import cellonnx.gluon
    from cellonnx.mxnet import gluon

    assert gluon is cellonnx.gluon and gluon.nn is cellonnx.gluon.nn
