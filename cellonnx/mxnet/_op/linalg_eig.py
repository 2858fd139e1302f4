"""MXNet's symmetric eigendecomposition operator ``linalg_syevd``: (U, L) with ``U @ A = diag(L) @ U``, the
eigenvectors as U's rows, L ascending; each row's sign makes its largest-magnitude element positive (MXNet's
choice, so results are deterministic). Differentiable (cellonnx's Eigh primitive)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cellonnx import ops
from cellonnx.ops.prims.decomp import Eigh
from cellonnx.tensor import Tensor

__all__ = ["SYEVD", "linalg_syevd"]


def linalg_syevd(A: Tensor, **_: Any) -> tuple[Tensor, Tensor]:
    """(U, L) of (a batch of) symmetric matrices A: ``U @ A = diag(L) @ U``, U orthonormal with the
    eigenvectors as rows, L ascending."""
    if len(A.shape) < 2 or A.shape[-1] != A.shape[-2]:
        raise ValueError(f"linalg_syevd: expected (a batch of) square matrices, got shape {tuple(A.shape)}")
    w, v = Eigh.apply(A, upper=False)
    u = ops.swapaxes(v, -1, -2)
    # the sign of each row's largest-magnitude element (a constant: the sign choice has no gradient)
    biggest = ops.argmax(ops.abs(ops.stop_gradient(u)), -1, True)
    sign = ops.sign(ops.gather_elements(ops.stop_gradient(u), -1, biggest))
    sign = ops.where(ops.equal(sign, 0), ops.ones_like(sign), sign)
    return ops.mul(u, sign), w


# MXNet 1.9.1 names it _linalg_syevd only (mx.nd.linalg.syevd, the graph node of exported models)
SYEVD: dict[str, Callable[..., Any]] = {"_linalg_syevd": linalg_syevd}
