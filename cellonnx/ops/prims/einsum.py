"""Einstein summation as one primitive (NumPy's einsum forward, one ONNX Einsum node).

Equations are normalized first: the ellipsis is spelt out with letters, the implicit output (no ``->``)
made explicit, and the letters renamed a, b, c ... in order of appearance, so one equation string stands
for one contraction. The gradient of each operand is again an einsum (of the output gradient with the
other operands); a letter only that operand has is broadcast back, and a repeated letter (a diagonal) is
put back on its diagonal with an identity mask.
"""
from __future__ import annotations

import string
from typing import Any

import numpy as np

from cellonnx.ops.prims._util import result_dtype, to_tensor
from cellonnx.ops.prims.math import cast
from cellonnx.ops.registry import Op
from cellonnx.tensor import Tensor

_LETTERS = string.ascii_lowercase + string.ascii_uppercase


def normalize(equation: str, shapes: list[tuple[int, ...]]) -> tuple[list[str], str]:
    """(operand subscripts, output subscripts) with explicit letters only (see the module docstring)."""
    eq = equation.replace(" ", "")
    if "->" in eq:
        lhs, out = eq.split("->")
        explicit = True
    else:
        lhs, out, explicit = eq, "", False
    ins = lhs.split(",")
    if len(ins) != len(shapes):
        raise ValueError(f"einsum: equation {equation!r} names {len(ins)} operands, got {len(shapes)}")
    used = {c for c in eq if c.isalpha()}
    spare = [c for c in _LETTERS if c not in used]
    n_ell = 0
    for sub, shape in zip(ins, shapes):
        if "..." in sub:
            n_ell = max(n_ell, len(shape) - (len(sub) - 3))
    ell = "".join(spare[:n_ell])
    full_ins = []
    for sub, shape in zip(ins, shapes):
        if "..." in sub:
            k = len(shape) - (len(sub) - 3)
            sub = sub.replace("...", ell[n_ell - k:] if k else "")
        if len(sub) != len(shape):
            raise ValueError(f"einsum: subscripts {sub!r} do not match an operand of shape {tuple(shape)}")
        if not all(c.isalpha() for c in sub):
            raise ValueError(f"einsum: invalid subscripts in {equation!r}")
        full_ins.append(sub)
    if explicit:
        out = out.replace("...", ell)
    else:
        counts: dict[str, int] = {}
        for sub in full_ins:
            for c in sub:
                counts[c] = counts.get(c, 0) + 1
        out = ell + "".join(sorted(c for c, k in counts.items() if k == 1 and c not in ell))
    rename: dict[str, str] = {}
    for c in "".join(full_ins) + out:
        if c not in rename:
            rename[c] = _LETTERS[len(rename)]
    return ["".join(rename[c] for c in s) for s in full_ins], "".join(rename[c] for c in out)


class Einsum(Op):
    """``np.einsum(equation, *xs)`` for a normalized equation (see :func:`normalize`)."""

    def forward(self, *xs, equation):
        out = np.einsum(equation, *xs, optimize=len(xs) > 2)
        return np.asarray(out, dtype=xs[0].dtype) if out.dtype != xs[0].dtype else out

    def backward(self, ctx, g, *, equation):
        lhs, out = equation.split("->")
        ins = lhs.split(",")
        grads = []
        for i, (sub, x) in enumerate(zip(ins, ctx.inputs)):
            if not ctx.needs_grad(i):
                grads.append(None)
                continue
            others = [(s, t) for j, (s, t) in enumerate(zip(ins, ctx.inputs)) if j != i]
            grads.append(_operand_grad(g, out, others, sub, tuple(x.shape)))
        return tuple(grads)

    def lower(self, g, *xs, equation):
        return g.op("Einsum", *xs, equation=equation)


def _operand_grad(g: Tensor, out: str, others: list[tuple[str, Tensor]], target: str,
                  shape: tuple[int, ...]) -> Tensor:
    from cellonnx.ops.prims.creation import eye
    from cellonnx.ops.prims.math import cast, mul
    from cellonnx.ops.prims.shape import broadcast_to, reshape
    unique = "".join(dict.fromkeys(target))
    sizes = {c: d for c, d in zip(target, shape)}
    available = set(out) | {c for s, _ in others for c in s}
    present = "".join(c for c in unique if c in available)
    grad = einsum_normalized(",".join([out] + [s for s, _ in others]) + "->" + present,
                             [g] + [t for _, t in others])
    # letters only this operand has: summed away in the forward, so the gradient is constant along them
    if present != unique:
        grad = reshape(grad, tuple(sizes[c] if c in present else 1 for c in unique))
        grad = broadcast_to(grad, tuple(sizes[c] for c in unique))
    if unique == target:
        return grad
    # repeated letters: the first occurrence carries the axis, later ones are size 1 then masked by eye
    shape_first = []
    seen: dict[str, int] = {}
    for pos, c in enumerate(target):
        shape_first.append(sizes[c] if c not in seen else 1)
        seen.setdefault(c, pos)
    full = reshape(grad, tuple(shape_first))
    for pos, c in enumerate(target):
        first = seen[c]
        if first != pos:
            n = sizes[c]
            mask_shape = [1] * len(target)
            mask_shape[first] = n
            mask_shape[pos] = n
            mask = reshape(cast(eye(n, n), grad._data.dtype), tuple(mask_shape))
            full = mul(full, mask)
    return full


def einsum_normalized(equation: str, operands: list[Tensor]) -> Tensor:
    """Einsum on operands of one dtype with an explicit equation (renamed to canonical letters)."""
    ins, out = normalize(equation, [tuple(t._data.shape) for t in operands])
    return Einsum.apply(*operands, equation=",".join(ins) + "->" + out)


# ---------------------------------------------------------------- functional API (MindSpore names)
def einsum(equation: str, *operands: Any) -> Tensor:
    """Einstein summation: contracts ``operands`` as ``equation`` says (``'ij,jk->ik'``, with ``...`` for
    broadcast dimensions; without ``->`` the output holds the letters used once, in alphabetical order).

    Args:
        equation (str): the subscripts.
        operands (Tensor): the tensors (a single list or tuple of them is accepted too).

    Returns:
        Tensor, in the operands' promoted dtype.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> a = Tensor(np.arange(6).reshape(2, 3), ms.float32)
        >>> b = Tensor(np.arange(3), ms.float32)
        >>> print(ops.einsum('ij,j->i', a, b))
        [ 5. 14.]
    """
    if not isinstance(equation, str):
        raise TypeError(f"einsum: equation must be a str, got {type(equation).__name__}")
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    if not operands:
        raise ValueError("einsum: give at least one operand")
    ts = [to_tensor(t) for t in operands]
    target = ts[0]._data.dtype
    for t in ts[1:]:
        target = result_dtype(target, t._data.dtype)
    ts = [t if t._data.dtype == target else cast(t, target) for t in ts]
    ins, out = normalize(equation, [tuple(t._data.shape) for t in ts])
    return Einsum.apply(*ts, equation=",".join(ins) + "->" + out)


def einsum_ext(equation: str, *operands: Any) -> Tensor:
    """Einstein summation (as :func:`einsum`).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> a = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]]), ms.float32)
        >>> b = Tensor(np.array([1.0, 1.0]), ms.float32)
        >>> print(ops.einsum_ext('ij,j->i', a, b))
        [3. 7.]
    """
    return einsum(equation, *operands)


__all__ = ["einsum", "einsum_ext"]
