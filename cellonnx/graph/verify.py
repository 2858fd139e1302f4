"""verify(): onnxruntime against eager, output by output, with a tolerance scaled to each output's magnitude.

A failure names its cause:

- a numerical difference: the graph runs with the right shapes but its values are off; the report gives the
  largest error relative to the output's scale (its largest finite magnitude) and the first node whose value
  diverges from eager, by cell scope;
- a dynamic dim baked in: with dims declared dynamic, the graph is run again at other sizes of them (and
  eager too); a graph that fails there, gives another shape, or values off by much more than rounding
  computes something from the example's size rather than from the input it is given.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import onnx
from onnx import helper

from cellonnx.graph import compile as C
from cellonnx.graph.runtime import Session
from cellonnx.graph.trace import flatten_outputs
from cellonnx.tensor import Tensor

# At another size of the dynamic dims, an error above the tolerance but below this fraction of the output's
# scale is a numerical difference (a longer reduction, another kernel); above it, values were computed from
# the example's size.
BAKED_FRACTION = 1e-3


@dataclass
class OutputError:
    """One output compared with eager: ``max_abs`` is the largest absolute error, ``max_rel`` the same
    relative to ``scale`` (the eager output's largest finite magnitude).

    Args:
        name: the output's name in the graph.
        max_abs: the largest absolute error (inf when the shapes differ).
        max_rel: ``max_abs / scale``.
        ok: whether every element is within the tolerance.
        scale: the eager output's largest finite magnitude.
        shape: the graph output's shape.
        expected_shape: the eager output's shape.

    Examples:
        >>> from cellonnx.graph.verify import OutputError
        >>> e = OutputError("y", max_abs=0.5, max_rel=0.25, ok=False, scale=2.0, shape=(2,),
        ...                 expected_shape=(2,))
        >>> print(e.status, e.shape_ok)
        MISMATCH True
    """

    name: str
    max_abs: float
    max_rel: float
    ok: bool
    scale: float = 1.0
    shape: tuple = ()
    expected_shape: tuple = ()

    @property
    def shape_ok(self) -> bool:
        return self.shape == self.expected_shape

    @property
    def status(self) -> str:
        return "ok" if self.ok else ("SHAPE" if not self.shape_ok else "MISMATCH")


@dataclass
class VerifyReport:
    """What ``verify`` found; ``passed`` is the verdict and ``cause`` (on a failure) says why, in one line.

    Args:
        outputs: one OutputError per graph output.
        passed: the verdict.
        first_divergence: on a numerical failure, the first graph node whose value differs from eager.
        baked_dims: how a dynamic dim was found baked in as a constant.
        numerical: numerical differences found (at the example's size or at others).
        notes: what could not be checked (no effect on the verdict).

    Examples:
        >>> from cellonnx.graph.verify import OutputError, VerifyReport
        >>> wrong = OutputError("y", float("inf"), float("inf"), False, 1.0, (2, 3), (2, 4))
        >>> report = VerifyReport([wrong], passed=False)
        >>> print(report.cause)
        output y has shape [2, 3] in the graph, [2, 4] eagerly: a lowering computes another shape
    """

    outputs: list[OutputError]
    passed: bool
    first_divergence: str | None = None
    baked_dims: list[str] = field(default_factory=list)
    numerical: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what could not be checked (no effect on the verdict)

    @property
    def cause(self) -> str | None:
        if self.passed:
            return None
        if self.baked_dims:
            return "a dynamic dim was baked in as a constant: " + self.baked_dims[0]
        wrong_shape = [o for o in self.outputs if not o.shape_ok]
        if wrong_shape:
            o = wrong_shape[0]
            return (f"output {o.name} has shape {list(o.shape)} in the graph, {list(o.expected_shape)} "
                    "eagerly: a lowering computes another shape")
        if self.numerical:
            return "numerical difference: " + self.numerical[0]
        return "outputs differ"

    def __str__(self) -> str:
        lines = [f"{'output':<24} {'max abs err':>12} {'err / scale':>12} {'scale':>10}  status"]
        for o in self.outputs:
            lines.append(f"{o.name:<24} {o.max_abs:>12.3e} {o.max_rel:>12.3e} {o.scale:>10.3g}  {o.status}")
            if not o.shape_ok:
                lines.append(f"  shape {list(o.shape)} in the graph, {list(o.expected_shape)} eagerly")
        if self.first_divergence:
            lines.append(f"first diverging node: {self.first_divergence}")
        for b in self.baked_dims:
            lines.append(f"baked-in dim: {b}")
        for n in self.numerical:
            lines.append(f"numerical difference: {n}")
        for n in self.notes:
            lines.append(f"note: {n}")
        if not self.passed:
            lines.append(f"cause: {self.cause}")
        lines.append("PASSED" if self.passed else "FAILED")
        return "\n".join(lines)


def scale_of(want: np.ndarray) -> float:
    """The largest finite magnitude of ``want`` (1.0 for an empty, all-zero or all-non-finite array).

    Args:
        want: the reference array.

    Returns:
        float, the scale that ``verify``'s ``scale_rtol`` is relative to.

    Examples:
        >>> import numpy as np
        >>> from cellonnx.graph.verify import scale_of
        >>> print(scale_of(np.array([1.0, -3.0, np.inf])), scale_of(np.zeros(2)))
        3.0 1.0
    """
    if want.dtype.kind not in "fciub":
        return 1.0
    a = np.abs(want.astype(np.float64) if want.dtype.kind != "c" else want)
    finite = a[np.isfinite(a)]
    return float(finite.max()) if finite.size and finite.max() > 0 else 1.0


def compare(name: str, got: np.ndarray, want: np.ndarray, rtol: float, atol: float,
            scale_rtol: float) -> OutputError:
    """``got`` within ``atol + rtol * |want| + scale_rtol * scale(want)`` of ``want``, element by element
    (NaN and inf must match); the scale term carries the rounding of sums whose terms are much larger than
    their result.

    Args:
        name: the output's name, kept in the result.
        got: the values to check.
        want: the reference values.
        rtol: tolerance relative to each reference element.
        atol: absolute tolerance.
        scale_rtol: tolerance relative to the reference's scale (``scale_of(want)``).

    Returns:
        OutputError; its ``ok`` is the verdict. Shapes that differ give ``ok=False`` and infinite errors.

    Examples:
        >>> import numpy as np
        >>> from cellonnx.graph.verify import compare
        >>> got, want = np.array([1.0, 2.001]), np.array([1.0, 2.0])
        >>> e = compare("y", got, want, rtol=1e-4, atol=0.0, scale_rtol=0.0)
        >>> print(e.ok, round(e.max_abs, 6), round(e.max_rel, 6))
        False 0.001 0.0005
        >>> print(compare("y", got, want, rtol=1e-3, atol=0.0, scale_rtol=0.0).ok)
        True
    """
    got, want = np.asarray(got), np.asarray(want)
    scale = scale_of(want)
    if got.shape != want.shape:
        return OutputError(name, float("inf"), float("inf"), False, scale, got.shape, want.shape)
    if got.size == 0:
        return OutputError(name, 0.0, 0.0, True, scale, got.shape, want.shape)
    if want.dtype.kind == "b" or got.dtype.kind == "b":
        diff = (got != want).astype(np.float64)
        ok = not diff.any()
        return OutputError(name, float(diff.max()), float(diff.max()), ok, scale, got.shape, want.shape)
    g, w = got.astype(np.complex128 if got.dtype.kind == "c" else np.float64), \
        want.astype(np.complex128 if want.dtype.kind == "c" else np.float64)
    with np.errstate(invalid="ignore"):
        diff = np.abs(g - w)
        same_special = (np.isnan(g) & np.isnan(w)) | (np.isinf(w) & (g == w))
        ok_mask = (diff <= atol + rtol * np.abs(w) + scale_rtol * scale) | same_special
    diff = np.where(same_special, 0.0, np.nan_to_num(diff, nan=np.inf))
    max_abs = float(diff.max())
    return OutputError(name, max_abs, max_abs / scale, bool(ok_mask.all()), scale, got.shape, want.shape)


def _compare(names: Sequence[str], got: Sequence[np.ndarray], want: Sequence[np.ndarray], rtol: float,
             atol: float, scale_rtol: float = 1e-5) -> list[OutputError]:
    return [compare(n, g, w, rtol, atol, scale_rtol) for n, g, w in zip(names, got, want)]


def _feeds(traced: C.Traced, inputs: Sequence[Any]) -> dict[str, np.ndarray]:
    return {n: np.require(inputs[p]._data, requirements="C")
            for n, p in zip(traced.input_names, traced.input_positions)}


def eager_outputs(net: Any, inputs: Sequence[Any]) -> list[np.ndarray]:
    """``net(*inputs)`` run eagerly (PyNative, whatever the context's mode), flattened to arrays.

    Args:
        net: the network (a Cell or any callable on Tensors).
        inputs: its input Tensors.

    Returns:
        list of numpy.ndarray, the outputs in ``flatten_outputs`` order (nested tuples flattened).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, nn
        >>> from cellonnx.graph.verify import eager_outputs
        >>> net = nn.Dense(2, 1, weight_init='ones', bias_init='zeros')
        >>> print(eager_outputs(net, [Tensor(np.array([[1.0, 2.0]]), ms.float32)]))
        [array([[3.]], dtype=float32)]
    """
    from cellonnx import context

    saved = context.mode
    context.mode = context.PYNATIVE_MODE
    try:
        return [t.asnumpy() for t in flatten_outputs(net(*inputs))]
    finally:
        context.mode = saved


def verify(net: Any, *inputs: Any, rtol: float = 1e-4, atol: float = 0.0, scale_rtol: float = 1e-5,
           opset: int | None = None, device_target: str = "CPU") -> VerifyReport:
    """Compare ``net``'s compiled graph in onnxruntime with its eager output on ``inputs``.

    Each element may differ by ``atol + rtol * |eager| + scale_rtol * scale``, ``scale`` being the output's
    largest finite magnitude. With dims declared dynamic (``net.set_inputs``), the graph is also run at
    other sizes of them, so a size baked into the graph is caught even where the example hides it.

    Args:
        net: the network (a Cell).
        inputs: example input Tensors.
        rtol, atol, scale_rtol: the tolerance, as above.
        opset: ONNX opset to trace at.
        device_target: "CPU" or "GPU" (onnxruntime's CUDA provider).

    Returns:
        A VerifyReport (printable): ``report.passed`` is the verdict, ``report.cause`` names what failed.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, nn
        >>> net = nn.Dense(2, 1, weight_init='ones', bias_init='zeros')
        >>> x = Tensor(np.array([[1.0, 2.0]]), ms.float32)
        >>> report = ms.verify(net, x)
        >>> print(report.passed)
        True
    """
    traced = C.trace_cell(net, inputs, opset)
    eager = [t.asnumpy() for t in flatten_outputs(traced.eager)]
    sess = Session(C.serialize(traced.model), device_target)
    got = sess.run(_feeds(traced, inputs))
    errors = _compare(traced.output_names, got, eager, rtol, atol, scale_rtol)
    report = VerifyReport(errors, all(e.ok for e in errors))
    if not report.passed:
        report.numerical = [_numerical_note(e, "") for e in errors if not e.ok and e.shape_ok]
        report.first_divergence = first_divergence(net, inputs, opset, rtol, atol, device_target, scale_rtol)
    ok = {e.name for e in errors if e.ok}  # an output already wrong at the traced size says nothing of dims
    others = _other_sizes(C.input_specs(net, inputs), inputs)
    for sizes, other in others:
        findings = _check_other_size(lambda feeds: sess.run(feeds), _feeds(traced, other),
                                     lambda other=other: eager_outputs(net, other), traced.output_names, ok,
                                     sizes, rtol, atol, scale_rtol)
        report.baked_dims += findings.baked
        report.numerical += findings.numerical
        report.notes += findings.notes
        if findings.baked:
            break
    report.passed = report.passed and not report.baked_dims and not report.numerical
    return report


def _numerical_note(e: OutputError, where: str) -> str:
    return (f"output {e.name}{where}: max error {e.max_rel:.3e} of its scale {e.scale:.3g} "
            f"(max abs {e.max_abs:.3e})")


def _other_sizes(specs: Sequence[tuple[int, Tensor, Sequence[Any]]], inputs: Sequence[Any]
                ) -> list[tuple[str, list[Any]]]:
    """Inputs with every dynamic dim at two other sizes (one and four more than the example's), made by
    repeating the example's data; each with a description of the sizes ("x: batch 3")."""
    if not any(d is None for _, _, shape in specs for d in shape):
        return []
    out = []
    for extra in (1, 4):
        other = list(inputs)
        parts = []
        for pos, t, shape in specs:
            new_shape = [d + extra if s is None else d for d, s in zip(t._data.shape, shape)]
            parts += [f"input {pos} dim {k} = {n}" for k, (n, s) in enumerate(zip(new_shape, shape))
                      if s is None]
            other[pos] = Tensor(grow(t._data, new_shape))
        out.append((", ".join(parts), other))
    return out


def grow(arr: np.ndarray, shape: Sequence[int]) -> np.ndarray:
    """``arr`` repeated along its axes and cut to ``shape`` (C-contiguous): the example's data at another
    size, as ``verify`` feeds a graph at other sizes of its dynamic dims.

    Args:
        arr: the example array.
        shape: the new shape, of the same rank (zeros where ``arr`` is empty along an axis that grows).

    Returns:
        numpy.ndarray of ``shape`` and ``arr``'s dtype.

    Examples:
        >>> import numpy as np
        >>> from cellonnx.graph.verify import grow
        >>> print(grow(np.array([[1, 2], [3, 4]]), [3, 3]))
        [[1 2 1]
         [3 4 3]
         [1 2 1]]
    """
    reps = [-(-n // o) if o else 1 for n, o in zip(shape, arr.shape)]
    if any(o == 0 and n for n, o in zip(shape, arr.shape)):
        return np.zeros(shape, arr.dtype)
    return np.require(np.tile(arr, reps)[tuple(slice(0, n) for n in shape)], requirements="C")


@dataclass
class _Findings:
    baked: list[str] = field(default_factory=list)
    numerical: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _check_other_size(run_graph: Callable[[dict], list], feeds: dict[str, np.ndarray],
                      run_eager: Callable[[], list], output_names: Sequence[str], ok: set[str], sizes: str,
                      rtol: float, atol: float, scale_rtol: float) -> _Findings:
    """The graph and eager at another size of the dynamic dims: a graph that fails, gives another shape or
    values off by more than ``BAKED_FRACTION`` of the scale has a size baked in; a smaller error above the
    tolerance is a numerical difference."""
    found = _Findings()
    try:
        want = run_eager()
    except Exception as exc:  # the network itself rejects the other size: nothing to conclude
        found.notes.append(f"eager run at {sizes} failed ({type(exc).__name__}: {exc}); dynamic dims "
                               "could not be checked")
        return found
    try:
        got = run_graph(feeds)
    except Exception as exc:
        found.baked.append(f"the graph fails at {sizes}, where eager runs: {str(exc).splitlines()[0]}")
        return found
    for e in _compare(output_names, got, want, rtol, atol, scale_rtol):
        if e.ok or e.name not in ok:
            continue
        if not e.shape_ok:
            found.baked.append(f"output {e.name} has shape {list(e.shape)} at {sizes}, eager "
                               f"{list(e.expected_shape)}")
        elif e.max_rel > BAKED_FRACTION:
            found.baked.append(f"output {e.name} differs at {sizes} by {e.max_rel:.3g} of its scale "
                               f"{e.scale:.3g} (max abs {e.max_abs:.3e}), exact at the example's size: a "
                               "value computed from a dynamic dim was kept as a constant")
        else:
            found.numerical.append(_numerical_note(e, f" at {sizes}"))
    return found


def first_divergence(net: Any, inputs: Sequence[Any], opset: int | None, rtol: float, atol: float,
                     device_target: str = "CPU", scale_rtol: float = 1e-5) -> str | None:
    """Run the unoptimized trace with every node output exposed; the first node (in graph order) whose
    output differs from the eager value recorded while tracing.

    Args:
        net: the network (a Cell).
        inputs: example input Tensors.
        opset: ONNX opset to trace at (None: the context's).
        rtol, atol, scale_rtol: the tolerance, as in ``compare``.
        device_target: "CPU" or "GPU".

    Returns:
        str naming the node (``"name (OpType), ..."``) and how it differs, or None when every node agrees.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, nn
        >>> from cellonnx.graph.verify import first_divergence
        >>> net = nn.Dense(2, 1, weight_init='ones', bias_init='zeros')
        >>> x = Tensor(np.array([[1.0, 2.0]]), ms.float32)
        >>> print(first_divergence(net, [x], None, rtol=1e-4, atol=0.0))
        None
    """
    from cellonnx.graph import trace as T

    values: dict[str, np.ndarray] = {}
    original_bind = T.Tracer.bind

    def recording_bind(self: Any, t: Tensor, name: str, const: bool = False) -> None:
        original_bind(self, t, name, const)
        if not const:
            values[name] = t._data

    T.Tracer.bind = recording_bind  # type: ignore[method-assign]
    try:
        traced = C.trace_cell(net, inputs, opset, optimize_graph=False)
    finally:
        T.Tracer.bind = original_bind  # type: ignore[method-assign]
    # a value renamed to a graph output is recorded under its old name: the eager outputs give it its new one
    for name, t in zip(traced.output_names, flatten_outputs(traced.eager)):
        values.setdefault(name, t._data)
    model = onnx.ModelProto()
    model.CopyFrom(traced.model)
    existing = {o.name for o in model.graph.output}
    for node in model.graph.node:
        for o in node.output:
            if o in values and o not in existing:
                model.graph.output.append(helper.make_empty_tensor_value_info(o))
    sess = Session(model.SerializeToString(), device_target,
                   graph_optimization=__import__("onnxruntime").GraphOptimizationLevel.ORT_DISABLE_ALL)
    outs = dict(zip(sess.output_names, sess.run(_feeds(traced, inputs))))
    for node in model.graph.node:
        for o in node.output:
            if o in values and o in outs:
                e = compare(o, outs[o], values[o], rtol, atol, scale_rtol)
                if not e.ok:
                    detail = (f"shape {list(e.shape)}, eager {list(e.expected_shape)}" if not e.shape_ok else
                              f"max abs err {e.max_abs:.3e}, {e.max_rel:.3e} of its scale")
                    return f"{node.name} ({node.op_type}), {detail}"
    return None
