"""contrib.calibrate_entropy: the threshold of a symmetric histogram that minimizes the KL divergence
between the clipped distribution and its ``num_quantized_bins``-level quantization (MXNet 1.9.1's
operator, with its float32 arithmetic and its integer truncation of the histogram counts)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from cellonnx.mxnet._op.quantize import array, eager_only, listed
from cellonnx.tensor import Tensor

__all__ = ["CALIBRATE"]


def _fsum(values: np.ndarray) -> np.float32:
    """A float32 sum accumulated left to right (as std::accumulate does)."""
    return np.cumsum(values, dtype=np.float32)[-1] if values.size else np.float32(0.0)


def _smooth(p: np.ndarray, eps: float = 0.0001) -> np.ndarray | None:
    """Move ``eps`` of mass onto each empty bin, taken evenly from the others (None when impossible)."""
    zeros = p == 0
    n_zeros = int(zeros.sum())
    n_nonzeros = p.size - n_zeros
    if not n_nonzeros:
        return None
    eps1 = np.float32(np.float32(eps) * np.float32(n_zeros) / np.float32(n_nonzeros))
    if eps1 >= 1.0:
        return None
    return (p + (np.float32(eps) * zeros.astype(np.float32) - eps1 * (~zeros).astype(np.float32))).astype(
        np.float32)


def _divergence(p: np.ndarray, q: np.ndarray) -> np.float32:
    p = p / _fsum(p)
    q = q / _fsum(q)
    if not (np.all(p > 0) and np.all(q > 0)):
        raise ValueError("calibrate_entropy: a smoothed distribution has an empty bin")
    return _fsum((p * np.log(p / q)).astype(np.float32))


def calibrate_entropy(hist: Tensor, hist_edges: Tensor, num_quantized_bins: int = 255,
                      **_: Any) -> tuple[Tensor, Tensor]:
    """(threshold, divergence): of the thresholds ``hist_edges[zero + i + 1]`` for i from
    num_quantized_bins // 2 to the histogram's half, the one whose quantized distribution is closest."""
    eager_only("calibrate_entropy")
    h, edges = array(hist).astype(np.float32).reshape(-1), array(hist_edges).astype(np.float32).reshape(-1)
    if h.size + 1 != edges.size:
        raise ValueError(f"calibrate_entropy: hist_edges must have len(hist) + 1 = {h.size + 1} values, "
                         f"got {edges.size}")
    n_bins, n_q = h.size, int(num_quantized_bins)
    zero = n_bins // 2
    counts = h.astype(np.uint64).astype(np.int64)  # MXNet keeps the sliced counts as integers
    best, best_div = np.float32(0.0), np.float32(np.finfo(np.float32).max)
    for i in range(n_q // 2, zero + 1):
        start, stop = zero - i, zero + i + 1
        p = h[start:stop].copy()
        p[0] = _fsum(h[:start + 1])
        p[-1] = _fsum(h[stop - 1:])
        sliced = counts[start:stop].copy()
        sliced[0] = 0
        merged = sliced.size // n_q
        bins = np.add.reduceat(sliced[:n_q * merged], np.arange(0, n_q * merged, merged)).astype(np.int32)
        bins[-1] += np.int32(sliced[n_q * merged:].sum())
        # each quantized bin's count spread evenly over its source bins that are not empty (in the counts)
        seg = np.minimum(np.arange(sliced.size) // merged, n_q - 1)
        norm = np.bincount(seg, weights=(sliced != 0), minlength=n_q).astype(np.int64)
        with np.errstate(divide="ignore", invalid="ignore"):
            level = bins.astype(np.float32) / norm.astype(np.float32)
        q = np.where((p != 0) & (norm[seg] > 0), level[seg], np.float32(0)).astype(np.float32)
        ps, qs = _smooth(p), _smooth(q)
        div = np.float32(np.inf) if qs is None else _divergence(ps, qs)
        if div < best_div:
            best_div, best = div, edges[stop]
    return Tensor(np.array([best], np.float32)), Tensor(np.array([best_div], np.float32))


CALIBRATE: dict[str, Callable[..., Any]] = {"calibrate_entropy": listed(calibrate_entropy)}
