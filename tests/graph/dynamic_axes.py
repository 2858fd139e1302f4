"""The dynamic-axes check: a function of tensors (a layer's call, an op) traced with every axis that eager
accepts at other sizes declared dynamic, then run by onnxruntime at sizes other than the traced one against
eager at those sizes. A dim baked in while tracing (``int(x.shape[2])`` in a lowering or a layer) shows up
as an onnxruntime shape error or as values that differ from eager's.

Which axes are free is asked of eager: an axis group (the same size at the same axis of several inputs, as
a batch or a sequence length shared by inputs) is free when eager runs with that group at each of the check's
sizes. Axes of size 1 stay static (broadcast axes, mostly). New inputs take the example's values along the
axis, cycled, each float scaled by a factor in [0.8, 1.25] (same sign and range, no new ties; floats that
are all whole numbers, ids held as floats, are only cycled); an input sorted along its last axis (the
sequence searchsorted looks values up in) is sorted again.

A lowering that cannot follow a dynamic dim must say so while tracing (StaticDimRequired, or an error
saying it needs static dims): :func:`check` reports that as ``refused``; the graph is then not run. So is
a function that runs eagerly only (NotExportable: an op ONNX cannot express, or one computing with NumPy on
the values), which holds nothing of the example either.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from cellonnx.graph.trace import StaticDimRequired, flatten_outputs, trace
from cellonnx.ops.prims._eager import NotExportable
from cellonnx.tensor import Tensor
from tests.ort_session import cpu_session
from tests.tolerance import assert_close

RTOL, SCALE_RTOL = 1e-4, 1e-5  # SCALE_RTOL: of the output's scale, at least 1
STEPS = (1, 2, 5)  # each free axis of size s is checked at s + 1, s + 2 and s + 5
Axis = tuple[int, int]  # (input position, axis)


@dataclass
class Outcome:
    groups: list[list[Axis]]  # the free axis groups, each declared dynamic
    sizes: int  # how many sizes were run
    refused: str = ""  # the tracer's StaticDimRequired / needs-static-dims / NotExportable message


def _refusal(exc: BaseException) -> bool:
    """The tracer declined a dynamic dim, or the function's export, in words (not a silent bake, not an
    unrelated error)."""
    words = isinstance(exc, NotImplementedError) and "static" in str(exc) and "dims" in str(exc)
    return isinstance(exc, (StaticDimRequired, NotExportable)) or words


def _outputs(result: Any) -> list[np.ndarray]:
    return [t.asnumpy() for t in flatten_outputs(result)]


def resized(arrays: Sequence[np.ndarray], new: dict[Axis, int], seed: int) -> list[np.ndarray]:
    """``arrays`` with each (input, axis) in ``new`` at its new size."""
    rng = np.random.default_rng(seed)
    out = []
    for i, a in enumerate(arrays):
        changed = False
        for (j, axis), n in new.items():
            if j == i:
                a = np.take(a, np.arange(n) % a.shape[axis], axis=axis)
                changed = True
        if changed and a.dtype.kind == "f" and not np.array_equal(a, np.round(a)):  # float-held ids stay ids
            a = (a * rng.uniform(0.8, 1.25, a.shape)).astype(a.dtype)
        if changed and _sorted_rows(arrays[i]):
            a = np.sort(a, axis=-1)
        out.append(a)
    return out


def _sorted_rows(a: np.ndarray) -> bool:
    """Whether ``a`` (a float or integer array) is sorted along a last axis of more than two values."""
    return (a.dtype.kind in "fiu" and a.ndim >= 1 and a.shape[-1] > 2
            and bool((np.diff(a, axis=-1) >= 0).all()))


def _eager(fn: Callable[..., Any], arrays: Sequence[np.ndarray]) -> list[np.ndarray] | None:
    try:
        out = _outputs(fn(*[Tensor(a) for a in arrays]))
    except Exception:  # noqa: BLE001 - an axis eager refuses at another size is not free
        return None
    return out if all(np.isfinite(o).all() for o in out if o.dtype.kind == "f") else None


def _candidates(arrays: Sequence[np.ndarray], i: int, axis: int, loose: bool) -> list[list[Axis]]:
    size = arrays[i].shape[axis]
    rank = arrays[i].ndim
    keys: list[Callable[[int, int, np.ndarray], bool]] = [lambda j, a, x: a == axis]  # from the front (batch)
    if loose:
        keys += [lambda j, a, x: x.ndim - a == rank - axis,  # ... from the back (broadcast-aligned)
                 lambda j, a, x: True]  # every axis of that size
    same = [[(j, a) for j, x in enumerate(arrays) for a in range(x.ndim)
             if x.shape[a] == size and key(j, a, x)] for key in keys]
    return [[(i, axis)]] + [g for k, g in enumerate(same) if g not in same[:k] and len(g) > 1]


def free_groups(fn: Callable[..., Any], arrays: Sequence[np.ndarray], data: Sequence[int] | None = None,
                loose: bool = True) -> list[list[Axis]]:
    """The axis groups eager runs at every size of the check (see the module's docstring).

    ``data``: the inputs whose axes may be dynamic (None: all; an op's weights keep their shapes);
    ``loose``: group an axis with axes of its size counted from the back or at any position of the other
    inputs, where eager refuses it with the same axis only."""
    taken: set[Axis] = set()
    groups = []
    for i, x in enumerate(arrays):
        if data is not None and i not in data:
            continue
        for axis in range(x.ndim):
            if (i, axis) in taken or x.shape[axis] < 2:
                continue
            for group in _candidates(arrays, i, axis, loose):
                if any(ax in taken for ax in group):
                    continue
                size = x.shape[axis]
                runs = (_eager(fn, resized(arrays, dict.fromkeys(group, size + d), d)) for d in STEPS)
                if all(r is not None for r in runs):
                    groups.append(group)
                    taken.update(group)
                    break
    return groups


def check(fn: Callable[..., Any], arrays: Sequence[np.ndarray], what: str,
          params: Sequence[tuple[str, Any]] = (), data: Sequence[int] | None = None, loose: bool = True,
          groups: list[list[Axis]] | None = None) -> Outcome:
    """Trace ``fn`` at ``arrays`` with the free axes dynamic; onnxruntime equals eager at each other size.
    Where the tracer refuses them, the leading axes alone (the batch, as a compiled step declares it) are
    checked the same way."""
    arrays = [np.asarray(a) for a in arrays]
    groups = free_groups(fn, arrays, data, loose) if groups is None else groups
    if not groups:
        return Outcome([], 0)
    dynamic = {ax: f"n{k}" for k, g in enumerate(groups) for ax in g}  # one dim_param per group
    specs = [(f"x{i}", Tensor(a), [dynamic.get((i, k), d) for k, d in enumerate(a.shape)])
             for i, a in enumerate(arrays)]
    try:
        g, _ = trace(fn, specs, params, name="dynamic_axes")
    except Exception as exc:
        if not _refusal(exc):
            raise
        lead = [g for g in groups if any(axis == 0 for _, axis in g)]
        if lead and lead != groups:
            return check(fn, arrays, what, params, data, loose, lead)
        return Outcome(groups, 0, str(exc))
    sess = cpu_session(g.model().SerializeToString())
    names = [i.name for i in sess.get_inputs()]
    for d in STEPS:
        new = {ax: arrays[ax[0]].shape[ax[1]] + d for ax in dynamic}
        feeds_arrays = resized(arrays, new, d)
        eager = _eager(fn, feeds_arrays)
        assert eager is not None, f"{what}: eager failed at {new}"
        sizes = ", ".join(f"input {i} axis {a} = {n}" for (i, a), n in sorted(new.items()))
        try:
            got = sess.run(None, {n: feeds_arrays[int(n[1:])] for n in names})
        except Exception as e:  # noqa: BLE001 - named with the sizes below
            raise AssertionError(f"{what}: onnxruntime failed at {sizes}: {str(e)[:400]}") from None
        assert len(got) == len(eager), f"{what}: {len(got)} outputs, eager {len(eager)}"
        for k, (o, e) in enumerate(zip(got, eager)):
            assert o.shape == e.shape, f"{what} output {k} at {sizes}: onnxruntime {o.shape}, eager {e.shape}"
            if e.dtype.kind in "fc":
                assert_close(o, e, rtol=RTOL, scale_rtol=SCALE_RTOL, min_scale=1.0,
                             what=f"{what} output {k} at {sizes}")
            else:
                np.testing.assert_array_equal(o, e, err_msg=f"{what} output {k} at {sizes}")
    return Outcome(groups, len(STEPS))
