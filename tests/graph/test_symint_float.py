"""A dynamic dim read as a Python number while tracing: int arithmetic (``n // 2``, ``n ** 2``, ``round(n)``,
``abs(n)``, NumPy ints) stays a graph value read at run time; a float made of it (``float(n)``, ``n / 2``,
``n * 1.0``, ``np.sqrt(n)``, ``np.float32(2) * n``) would be the traced size in every run, so it raises
StaticDimRequired naming the line that made it. Static dims are plain ints, free to become floats."""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import onnxruntime as ort
import pytest

from cellonnx.graph.symint import SymInt
from cellonnx.graph.trace import StaticDimRequired, trace
from cellonnx.tensor import Tensor
from tests.tolerance import assert_close

# name: a function of the batch size n giving an int that scales x
STAYS_DYNAMIC: dict[str, Callable[[Any], Any]] = {
    "n // 2": lambda n: n // 2,
    "n % 3 + 1": lambda n: n % 3 + 1,
    "n ** 2": lambda n: n ** 2,
    "(1 - n) ** 3 + n ** 1": lambda n: (1 - n) ** 3 + n ** 1,
    "round(n)": lambda n: round(n),
    "math.ceil(n)": lambda n: math.ceil(n),
    "math.floor(n)": lambda n: math.floor(n),
    "abs(1 - n)": lambda n: abs(1 - n),
    "divmod(n, 2)[0] + 1": lambda n: divmod(n, 2)[0] + 1,
    "np.int64(2) * n": lambda n: np.int64(2) * n,
    "n - np.int32(1)": lambda n: n - np.int32(1),
}

# name: a function of the batch size n making a float of it
FLOAT_READS: dict[str, Callable[[Any], Any]] = {
    "float(n)": lambda n: float(n),
    "n / 2": lambda n: n / 2,
    "2 / n": lambda n: 2 / n,
    "n * 1.0": lambda n: n * 1.0,
    "n + 0.5": lambda n: n + 0.5,
    "n - 0.5": lambda n: n - 0.5,
    "n // 2.0": lambda n: n // 2.0,
    "n ** 0.5": lambda n: n ** 0.5,
    "math.sqrt(n)": lambda n: math.sqrt(n),
    "np.sqrt(n)": lambda n: np.sqrt(n),
    "np.float32(n)": lambda n: np.float32(n),
    "np.float32(2) * n": lambda n: np.float32(2) * n,
    "n * np.float64(0.5)": lambda n: n * np.float64(0.5),
    "np.asarray(n, np.float32)": lambda n: np.asarray(n, np.float32),
    "round(n / 2)": lambda n: round(n / 2),
    "f'{n:.1f}'": lambda n: f"{n:.1f}",
}


# A float on the left computes without asking the int (float.__mul__ reads its value from the C int, and
# so do math.log / log2 / log10): these stay the traced size, a limit docs/compiled_training.md names (why:
# the comment above SymInt.__float__).
LEFT_FLOATS: dict[str, Callable[[Any], Any]] = {
    "1.0 * n": lambda n: 1.0 * n, "0.5 + n": lambda n: 0.5 + n, "2.0 ** n": lambda n: 2.0 ** n,
    "2.0 / n": lambda n: 2.0 / n, "1.5 - n": lambda n: 1.5 - n, "7.0 // n": lambda n: 7.0 // n,
    "math.log(n)": lambda n: math.log(n), "math.log2(n)": lambda n: math.log2(n),
    "math.log10(n)": lambda n: math.log10(n),
}


def _trace(fn: Callable[[Tensor], Any]) -> ort.InferenceSession:
    g, _ = trace(fn, [("x", Tensor(np.ones((4, 3), np.float32)), [None, 3])])
    return ort.InferenceSession(g.model().SerializeToString(), providers=["CPUExecutionProvider"])


@pytest.mark.parametrize("name", sorted(STAYS_DYNAMIC))
def test_int_arithmetic_of_a_dim_stays_dynamic(name: str) -> None:
    form = STAYS_DYNAMIC[name]
    seen = []

    def fn(x: Tensor) -> Tensor:
        value = form(x.shape[0])
        seen.append(value)
        return x * value

    session = _trace(fn)
    assert isinstance(seen[0], SymInt), f"{name} gave {type(seen[0]).__name__}"
    for n in (1, 2, 3, 5, 8):
        x = np.random.default_rng(n).standard_normal((n, 3)).astype(np.float32)
        (got,) = session.run(None, {"x": x})
        assert_close(got, x * np.float32(form(n)), rtol=1e-6, what=f"{name} at batch {n}")


@pytest.mark.parametrize("name", sorted(FLOAT_READS))
def test_a_float_of_a_dynamic_dim_raises_naming_the_line(name: str) -> None:
    form = FLOAT_READS[name]
    with pytest.raises(StaticDimRequired, match=r"test_symint_float.py:\d+: .*graph would hold as 4"):
        _trace(lambda x: x * 0.0 + len(str(form(x.shape[0]))))


@pytest.mark.parametrize("name", sorted(LEFT_FLOATS))
def test_a_float_on_the_left_is_the_known_limit(name: str) -> None:
    """Kept as a record: when one of these starts raising, move it to FLOAT_READS and update the docs."""
    seen = []
    _trace(lambda x: seen.append(LEFT_FLOATS[name](x.shape[0])) or x * 1.0)
    assert seen == [LEFT_FLOATS[name](4)]


def test_static_dims_are_plain_ints() -> None:
    """Only the declared dynamic dim is a SymInt: an attention scale of the last dim stays a Python float."""
    seen = []

    def fn(x: Tensor) -> Tensor:
        seen.append(x.shape)
        return x / math.sqrt(x.shape[-1]) + float(x.shape[1]) / 2

    session = _trace(fn)
    assert isinstance(seen[0][0], SymInt) and type(seen[0][1]) is int
    x = np.arange(15, dtype=np.float32).reshape(5, 3)
    (got,) = session.run(None, {"x": x})
    assert_close(got, x / np.sqrt(3.0) + 1.5, rtol=1e-6, what="scaled by the static dim")


def test_outside_a_trace_a_dim_reads_as_its_value() -> None:
    """A SymInt kept past its trace (a cell attribute) is a plain number again."""
    dims = []
    _trace(lambda x: dims.append(x.shape[0]) or x * 1.0)
    n = dims[0]
    assert (float(n), n / 2, n * 1.0, np.sqrt(n), np.float32(2) * n) == (4.0, 2.0, 4.0, 2.0, 8.0)


def _triplet_p0(x: Tensor) -> Tensor:
    from cellonnx import ops
    return ops.triplet_margin_loss(x, x * 2.0, x + 1.0, p=0, reduction="none")


def _library_ops() -> dict[str, tuple[Callable[[Tensor], Any], Callable[[np.ndarray], np.ndarray]]]:
    from cellonnx import ops
    from cellonnx.gluon.symbol import ops_extra
    from cellonnx.mxnet._op import CONTRIB

    def soft_margin(x: np.ndarray) -> np.ndarray:
        t = (x > 0).astype(np.float64)
        return (t * np.logaddexp(0, -x) + (1 - t) * np.logaddexp(0, x)).mean(-1)

    return {
        "multilabel_soft_margin_loss": (
            lambda x: ops.multilabel_soft_margin_loss(x, ops.cast(x > 0, x.dtype), reduction="none"),
            soft_margin),
        "gluon _contrib_div_sqrt_dim": (ops_extra.div_sqrt_dim, lambda x: x / np.sqrt(x.shape[-1])),
        "mx.nd.contrib.div_sqrt_dim": (CONTRIB["div_sqrt_dim"], lambda x: x / np.sqrt(x.shape[-1])),
    }


@pytest.mark.parametrize("name", ["multilabel_soft_margin_loss", "gluon _contrib_div_sqrt_dim",
                                  "mx.nd.contrib.div_sqrt_dim"])
def test_library_ops_read_a_dynamic_last_dim_at_run_time(name: str) -> None:
    """Ops that divided by a float of a dim (or of the example's shape): traced with every dim dynamic, they
    are right at other sizes."""
    fn, reference = _library_ops()[name]
    g, _ = trace(fn, [("x", Tensor(np.ones((4, 5), np.float32)), [None, None])])
    session = ort.InferenceSession(g.model().SerializeToString(), providers=["CPUExecutionProvider"])
    for shape in ((4, 5), (3, 7), (2, 2)):
        x = np.random.default_rng(shape[1]).standard_normal(shape).astype(np.float32)
        (got,) = session.run(None, {"x": x})
        assert_close(got, reference(x.astype(np.float64)), rtol=1e-5, what=f"{name} at {shape}")


def test_triplet_margin_loss_p0_reads_its_sizes_at_run_time() -> None:
    g, _ = trace(_triplet_p0, [("x", Tensor(np.ones((4, 5, 3), np.float32)), [None, None, 3])])
    session = ort.InferenceSession(g.model().SerializeToString(), providers=["CPUExecutionProvider"])
    for shape in ((4, 5, 3), (3, 7, 3)):
        x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
        (got,) = session.run(None, {"x": x})
        assert_close(got, _triplet_p0(Tensor(x)).asnumpy(), rtol=1e-6, what=f"at {shape}")
        assert got.shape == (shape[0], 3)


def test_interleaved_attention_reads_its_length_at_run_time() -> None:
    """MXNet's interleaved attention ops over (T, N, heads * 3 * D), traced with T and N dynamic (a hybridized
    block's axis 0 is T here)."""
    from cellonnx.gluon.symbol import ops_extra

    def attend(x: Tensor) -> Tensor:
        scores = ops_extra.interleaved_qk(x, heads=2)
        return ops_extra.interleaved_valatt(x, scores, heads=2)

    g, _ = trace(attend, [("x", Tensor(np.ones((4, 3, 12), np.float32)), [None, None, 12])])
    session = ort.InferenceSession(g.model().SerializeToString(), providers=["CPUExecutionProvider"])
    for shape in ((4, 3, 12), (6, 3, 12), (2, 5, 12)):
        x = np.random.default_rng(shape[0]).standard_normal(shape).astype(np.float32)
        (got,) = session.run(None, {"x": x})
        assert_close(got, attend(Tensor(x)).asnumpy(), rtol=1e-5, what=f"at {shape}")
