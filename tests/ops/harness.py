"""The op test harness: one OpCase row checks an op's three faces against real references.

- forward: the float32 result against a NumPy reference computed in float64;
- gradient: value_and_grad in float64 against central finite differences (a random projection of the
  outputs, so the whole vector-Jacobian product is checked);
- lowering: the traced one-op model passes onnx.checker(full_check=True) and onnxruntime reproduces the
  eager forward (float32, rtol 1e-5 / atol 1e-6 unless the row says why).

Float32 results (the forward against the float64 reference, onnxruntime against eager) are compared with
tests/tolerance.py: a row's atol is taken relative to the output's scale once that passes 1, so a sum over many
large terms is judged by its rounding, on any BLAS kernel. Gradients are computed and checked in float64.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import onnx

from cellonnx import ops
from cellonnx.graph.trace import flatten_outputs, trace
from cellonnx.tensor import Tensor
from tests.ort_session import cpu_session
from tests.tolerance import assert_close


@dataclass
class OpCase:
    """One row of an op table.

    Args:
        name: test id.
        fn: the call under test, over Tensors (``lambda x, y: ops.add(x, y)``).
        inputs: NumPy arrays; float64 arrays run as float32 for forward/lowering and float64 for gradients.
        ref: NumPy reference over the same arrays (float64); None to skip the forward comparison
            (then say why in ``note``).
        grad: indices of inputs to check gradients for; None = every float input; () = none.
        second_order: also check the gradient of the gradient.
        lower: check the ONNX lowering; opsets lists which opsets (default: DEFAULT_OPSETS).
        rtol/atol: forward tolerances against the reference (atol scaled by the output's largest magnitude when
            that passes 1); ort_rtol/ort_atol: onnxruntime vs eager, likewise.
        note: why a tolerance or a skipped face differs from the defaults.
    """

    name: str
    fn: Callable[..., Any]
    inputs: Sequence[np.ndarray]
    ref: Callable[..., Any] | None = None
    grad: Sequence[int] | None = None
    second_order: bool = False
    lower: bool = True
    opsets: Sequence[int] | None = None
    rtol: float = 1e-5
    atol: float = 1e-6
    ort_rtol: float = 1e-5
    ort_atol: float = 1e-6
    grad_rtol: float = 1e-5
    grad_atol: float = 1e-7
    eps: float = 1e-6
    dynamic: bool = False
    note: str = ""
    params: dict = field(default_factory=dict)

    def __str__(self) -> str:
        return self.name


DEFAULT_OPSETS = (13, 18, 21)


def as_run_dtype(a: np.ndarray, float_dtype: Any = np.float32) -> np.ndarray:
    a = np.asarray(a)
    return a.astype(float_dtype) if a.dtype.kind == "f" else a


def _outputs(result: Any) -> list[np.ndarray]:
    return [t.asnumpy() for t in flatten_outputs(result)]


def check_forward(case: OpCase) -> None:
    if case.ref is None:
        return
    arrays = [as_run_dtype(a) for a in case.inputs]
    before = [np.array(a, copy=True) for a in arrays]
    got = _outputs(case.fn(*[Tensor(a) for a in arrays]))
    for i, (a, b) in enumerate(zip(arrays, before)):  # kernels may reuse, never overwrite, their inputs
        assert np.array_equal(a, b, equal_nan=a.dtype.kind in "fc"), f"{case.name}: input {i} was written to"
    want = case.ref(*[np.asarray(a) for a in case.inputs])
    want = [want] if not isinstance(want, (tuple, list)) else list(want)
    assert len(got) == len(want), f"{case.name}: {len(got)} outputs, reference has {len(want)}"
    for i, (g, w) in enumerate(zip(got, want)):
        w = np.asarray(w)
        assert g.shape == w.shape, f"{case.name} output {i}: shape {g.shape}, reference {w.shape}"
        if w.dtype.kind == "f":
            assert g.dtype == np.float32 or g.dtype.kind == "f", f"{case.name}: float32 in gave {g.dtype}"
        else:
            assert g.dtype.kind == w.dtype.kind or (w.dtype.kind in "iu" and g.dtype.kind in "iu"), \
                f"{case.name} output {i}: dtype {g.dtype}, reference {w.dtype}"
        assert_close(g, w, rtol=case.rtol, scale_rtol=case.atol, min_scale=1.0, what=f"{case.name} output {i}")


def _grad_indices(case: OpCase) -> list[int]:
    if case.grad is not None:
        return list(case.grad)
    probe = case.fn(*[Tensor(np.asarray(a)) for a in case.inputs])
    if not any(o.asnumpy().dtype.kind == "f" for o in flatten_outputs(probe)):
        return []  # comparisons, argmax, ...: no gradient to check
    return [i for i, a in enumerate(case.inputs) if np.asarray(a).dtype.kind == "f"]


def _projected(case: OpCase, idx: list[int], weights: list[np.ndarray] | None) -> tuple[Callable, list]:
    """f(*grad inputs) = sum_k <w_k, out_k> for float outputs, with the other inputs held fixed."""
    base = [np.asarray(a) for a in case.inputs]

    def f(*xs: Tensor) -> Tensor:
        args = [Tensor(a) if i not in idx else xs[idx.index(i)] for i, a in enumerate(base)]
        outs = [o for o in flatten_outputs(case.fn(*args)) if o.asnumpy().dtype.kind == "f"]
        total = None
        for o, w in zip(outs, weights):
            term = ops.sum(o * Tensor(w))
            total = term if total is None else total + term
        return total

    if weights is None:
        rng = np.random.default_rng(0)
        probe = case.fn(*[Tensor(a) for a in base])
        weights = [rng.standard_normal(o.shape) for o in flatten_outputs(probe) if o.asnumpy().dtype.kind == "f"]
    return f, weights


def as_tuple(grads: Any) -> tuple:
    """Gradients as a tuple (MindSpore returns one position's gradient bare, also for a 1-tuple position)."""
    return (grads,) if isinstance(grads, Tensor) else tuple(grads)


def _numeric_grad(f: Callable[..., Tensor], xs: list[np.ndarray], eps: float) -> list[np.ndarray]:
    grads = []
    for x in xs:
        g = np.zeros_like(x)
        flat = x.reshape(-1)
        for j in range(flat.size):
            old = flat[j]
            flat[j] = old + eps
            hi = f(*[Tensor(v) for v in xs]).item()
            flat[j] = old - eps
            lo = f(*[Tensor(v) for v in xs]).item()
            flat[j] = old
            g.reshape(-1)[j] = (hi - lo) / (2 * eps)
        grads.append(g)
    return grads


def check_grad(case: OpCase) -> None:
    idx = _grad_indices(case)
    if not idx:
        return
    f, _weights = _projected(case, idx, None)
    xs = [np.array(case.inputs[i], dtype=np.float64) for i in idx]
    _, analytic = ops.value_and_grad(f, grad_position=tuple(range(len(idx))))(*[Tensor(x) for x in xs])
    analytic = as_tuple(analytic)
    numeric = _numeric_grad(f, [x.copy() for x in xs], case.eps)
    for k, (a, n) in enumerate(zip(analytic, numeric)):
        assert a.shape == n.shape, f"{case.name}: gradient of input {idx[k]} has shape {a.shape}, expected {n.shape}"
        assert a.asnumpy().dtype == np.float64, f"{case.name}: float64 input got a {a.dtype} gradient"
        np.testing.assert_allclose(a.asnumpy(), n, rtol=case.grad_rtol, atol=case.grad_atol,
                                   err_msg=f"{case.name}: gradient of input {idx[k]}")
    if case.second_order:
        _check_second_order(case, f, xs)


def _check_second_order(case: OpCase, f: Callable, xs: list[np.ndarray]) -> None:
    n = len(xs)
    rng = np.random.default_rng(1)
    ws = [rng.standard_normal(x.shape) for x in xs]

    def h(*ts: Tensor) -> Tensor:
        gs = as_tuple(ops.grad(f, grad_position=tuple(range(n)))(*ts))
        total = None
        for gk, w in zip(gs, ws):
            term = ops.sum(gk * Tensor(w))
            total = term if total is None else total + term
        return total

    _, analytic = ops.value_and_grad(h, grad_position=tuple(range(n)))(*[Tensor(x) for x in xs])
    analytic = as_tuple(analytic)
    numeric = _numeric_grad(h, [x.copy() for x in xs], 1e-5)
    for k, (a, num) in enumerate(zip(analytic, numeric)):
        np.testing.assert_allclose(a.asnumpy(), num, rtol=1e-4, atol=1e-6,
                                   err_msg=f"{case.name}: second-order gradient of input {k}")


def export_case(case: OpCase, opset: int) -> tuple[onnx.ModelProto, list[np.ndarray], list[np.ndarray]]:
    arrays = [as_run_dtype(a) for a in case.inputs]
    examples = [Tensor(a) for a in arrays]
    specs = [(f"x{i}", t, [None if case.dynamic and j == 0 else d for j, d in enumerate(t.shape)])
             for i, t in enumerate(examples)]
    g, result = trace(case.fn, specs, opset=opset, name=case.name)
    model = g.model()
    return model, arrays, _outputs(result)


def check_lowering(case: OpCase, opset: int) -> None:
    model, arrays, eager = export_case(case, opset)
    onnx.checker.check_model(model, full_check=True)
    sess = cpu_session(model.SerializeToString())
    feeds = {i.name: a for i, a in zip(sess.get_inputs(), arrays)}
    got = sess.run(None, feeds)
    assert len(got) == len(eager), f"{case.name}: onnxruntime gave {len(got)} outputs, eager {len(eager)}"
    for i, (o, e) in enumerate(zip(got, eager)):
        assert o.shape == e.shape, f"{case.name} output {i}: onnxruntime shape {o.shape}, eager {e.shape}"
        assert o.dtype == e.dtype, f"{case.name} output {i}: onnxruntime dtype {o.dtype}, eager {e.dtype}"
        assert_close(o, e, rtol=case.ort_rtol, scale_rtol=case.ort_atol, min_scale=1.0,
                     what=f"{case.name} output {i} (opset {opset})")


def lowering_params(cases: Sequence[OpCase]) -> list[tuple[OpCase, int]]:
    return [(c, o) for c in cases if c.lower for o in (c.opsets or DEFAULT_OPSETS)]


def rand(*shape: int, seed: int = 0, low: float = -1.0, high: float = 1.0) -> np.ndarray:
    return np.random.default_rng(seed + 17 * len(shape)).uniform(low, high, shape)


# per-axis weights of a position in seed_of / seed_like: sin of their sum is spread over [-1, 1] like rand's
_SEED_STEPS = (0.7, 1.3, 2.9, 0.37, 1.9, 2.3)


def seed_of(shape: Sequence[int]) -> np.ndarray:
    """A gradient seed of ``shape`` made from positions only: ``sin`` of 1 plus the weighted sum of each
    element's (1-based) indices."""
    ones = np.ones(shape)
    return np.sin(sum((np.cumsum(ones, k) * _SEED_STEPS[k] for k in range(len(shape))), ones))


def seed_like(y: Any) -> Any:
    """seed_of(y.shape) computed by ops from y's shape alone (no constant of it), so a traced row whose
    loss weights its output by it holds at every size of a dynamic axis; no gradient flows through it.
    Computed in float64 and rounded to y's dtype once, as a float64 seed cast to it would be."""
    ones = ops.ones_like(y, dtype=np.float64)
    seed = ops.sin(sum((ops.cumsum(ones, k) * _SEED_STEPS[k] for k in range(y.ndim)), ones))
    return ops.cast(seed, y.dtype)


def positive(*shape: int, seed: int = 0) -> np.ndarray:
    return rand(*shape, seed=seed, low=0.5, high=2.0)
