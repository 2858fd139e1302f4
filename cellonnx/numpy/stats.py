"""Sorted search, counting and statistics: searchsorted, digitize, interp, bincount, histograms, cov and
corrcoef (mindspore.numpy.math_ops / array_creations)."""
from __future__ import annotations

import builtins
import math
from typing import Any

import numpy as np

from cellonnx import ops as F
from cellonnx.graph.trace import require_static
from cellonnx.numpy._utils import as_float, at, cast, finish, is_int, to_tensor, to_tensors
from cellonnx.numpy.creation import linspace
from cellonnx.numpy.manipulation import _lead, concatenate, flip, stack
from cellonnx.numpy.matrix import diag
from cellonnx.numpy.reductions import average
from cellonnx.ops import registry
from cellonnx.ops.prims._util import promote as promote_tensors
from cellonnx.tensor import Tensor


def searchsorted(a: Any, v: Any, side: str = "left", sorter: Any = None) -> Tensor:
    """Finds the indices where elements should be inserted to keep a sorted 1-D tensor sorted.

    Args:
        a (Tensor): a 1-D tensor, ascending (or put in order by ``sorter``).
        v (Union[Tensor, int, float, list]): the values to insert.
        side (str): 'left' (the first suitable index) or 'right' (the last). Default: 'left'.
        sorter (Tensor, optional): the indices that sort ``a``.

    Returns:
        Tensor, int32, of ``v``'s shape.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.searchsorted(mnp.array([1, 2, 3, 4, 5]), mnp.array([3, 0, 6])))
        [2 0 5]
    """
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right', got {side!r}")
    a, v = to_tensors(a, v)
    if a.ndim != 1:
        raise ValueError(f"searchsorted: a must be 1-D, got shape {tuple(a.shape)}")
    if sorter is not None:
        s = to_tensor(sorter)
        if s.ndim != 1 or s.size != a.size:
            raise ValueError(f"searchsorted: sorter must be 1-D of the size of a ({a.size}), got shape "
                             f"{tuple(s.shape)}")
        a = F.gather(a, s, 0)
    a, v = promote_tensors(a, v)
    require_static(a.shape[0], "searchsorted's binary search (log2 of the sorted length) unrolls and")
    n = int(a.size)
    lo = F.zeros(tuple(v.shape), dtype=np.int32)
    hi = F.full(tuple(v.shape), n, dtype=np.int32)
    if n == 0:
        return hi
    before = F.less_equal if side == "left" else F.less
    # binary search: the answer stays in [lo, hi]; one step past log2(n + 1) settles the last interval
    for _ in range(math.ceil(math.log2(n + 1)) + 1):
        mid = F.floor_div(F.add(lo, hi), 2)
        go_left = before(v, F.gather(a, mid, 0))
        lo, hi = F.where(go_left, lo, mid), F.where(go_left, mid, hi)
    return hi


def digitize(x: Any, bins: Any, right: bool = False) -> Tensor:
    """Returns the indices of the bins to which each value belongs.

    Args:
        x (Tensor): the values.
        bins (Tensor): 1-D, increasing or decreasing.
        right (bool): the bins include their right edge instead of their left one. Default: False.

    Returns:
        Tensor, int32, of ``x``'s shape.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.digitize(mnp.array([0.5, 1.5, 2.5]), mnp.array([1.0, 2.0])))
        [0 1 2]
    """
    x, bins = to_tensors(x, bins)
    if bins.ndim != 1:
        raise ValueError(f"digitize: bins must be 1-D, got shape {tuple(bins.shape)}")
    if x.size == 0:
        return x
    if bins.size == 0:
        return F.zeros(tuple(x.shape), dtype=np.int32)
    side = "left" if right else "right"
    increasing = searchsorted(bins, x, side)
    decreasing = F.sub(int(bins.size), searchsorted(flip(bins), x, side))
    return F.where(F.less_equal(bins[0], bins[-1]), increasing, decreasing)


def interp(x: Any, xp: Any, fp: Any, left: Any = None, right: Any = None) -> Tensor:
    """One-dimensional linear interpolation for monotonically increasing sample points.

    Args:
        x (Tensor): where to evaluate.
        xp (Tensor): 1-D increasing x-coordinates of the samples.
        fp (Tensor): 1-D y-coordinates of the samples.
        left (float, optional): the value below ``xp[0]``. Default: ``fp[0]``.
        right (float, optional): the value above ``xp[-1]``. Default: ``fp[-1]``.

    Returns:
        Tensor, float32, of ``x``'s shape.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.interp(mnp.array([0.5, 1.5]), mnp.array([0.0, 1.0, 2.0]), mnp.array([0.0, 10.0, 40.0])))
        [ 5. 25.]
    """
    x, xp, fp = to_tensors(x, xp, fp)
    if xp.ndim != 1 or fp.ndim != 1:
        raise ValueError("interp: xp and fp must be 1-D sequences")
    n = int(xp.size)
    if int(fp.size) != n:
        raise ValueError(f"interp: fp has {int(fp.size)} values for {n} sample points")
    xp, fp = cast(xp, np.float32), cast(fp, np.float32)
    x = as_float(x)
    i1 = F.clamp(searchsorted(xp, x), 0, n - 1)
    i0 = F.clamp(F.sub(i1, 1), 0, n - 1)
    x0, x1 = F.gather(xp, i0, 0), F.gather(xp, i1, 0)
    y0, y1 = F.gather(fp, i0, 0), F.gather(fp, i1, 0)
    same = F.equal(x0, x1)
    span = F.where(same, 1.0, F.sub(x1, x0))
    res = F.div(F.add(F.mul(y0, F.sub(x1, x)), F.mul(y1, F.sub(x, x0))), span)
    res = F.where(same, y0, res)
    low = fp[0] if left is None else left
    high = fp[-1] if right is None else right
    res = F.where(F.less(x, xp[0]), low, res)
    return F.where(F.greater(x, xp[-1]), high, res)


def bincount(x: Any, weights: Any = None, minlength: int = 0, length: int | None = None) -> Tensor:
    """Counts the occurrences of each value in a 1-D tensor of non-negative integers.

    Args:
        x (Tensor): 1-D integers (negative values count as 0).
        weights (Tensor, optional): a weight per element; the counts become sums of weights.
        minlength (int): a minimum number of bins. Default: 0.
        length (int, optional): the number of bins (values beyond are not counted); needed in a traced graph.
            Default: max(x) + 1 (at least ``minlength``).

    Returns:
        Tensor, float32 (as MindSpore's), of ``length`` bins.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.bincount(mnp.array([0, 1, 1, 3])))
        [1. 2. 0. 1.]
    """
    x = to_tensor(x)
    if x.ndim != 1:
        raise ValueError(f"bincount: x must be 1-D, got shape {tuple(x.shape)}")
    if not is_int(x):
        raise TypeError(f"bincount: x must hold integers, got {x.dtype}")
    x = F.maximum(x, 0)
    if length is None:
        if registry.TRACE_HOOK is not None:
            raise ValueError("bincount: give length in a traced graph (the number of bins depends on data)")
        length = max(int(x._data.max()) if x.size else 0, int(minlength) - 1) + 1
    w = F.ones(tuple(x.shape), dtype=np.float32) if weights is None else cast(to_tensor(weights), np.float32)
    if weights is not None and tuple(w.shape) != tuple(x.shape):
        raise ValueError(f"bincount: x and weights must have the same length, got {tuple(x.shape)} and "
                         f"{tuple(w.shape)}")
    inside = F.less(x, int(length))
    zeros = F.zeros((int(length),), dtype=np.float32)
    # int64 positions: index_add's ScatterND lowering takes no int32 indices
    return F.index_add(zeros, cast(F.where(inside, x, 0), np.int64), F.where(inside, w, 0.0), 0)


def histogram_bin_edges(a: Any, bins: Any = 10, range: Any = None, weights: Any = None) -> Tensor:
    """Computes the edges of the bins used by ``histogram``.

    Args:
        a (Tensor): the data (flattened).
        bins (Union[int, tuple, list, Tensor]): a number of equal-width bins, or the edges themselves.
            Default: 10.
        range (tuple[float, float], optional): the lower and upper edges. Default: the data's minimum and
            maximum (widened by 0.5 each way when they are equal).
        weights (Tensor, optional): not used for the edges; checked against ``a``'s shape.

    Returns:
        Tensor, float32 (given edges keep their dtype).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.histogram_bin_edges(mnp.array([1.0, 2.0, 3.0]), bins=2))
        [1. 2. 3.]
    """
    a = to_tensor(a)
    if weights is not None and tuple(to_tensor(weights).shape) != tuple(a.shape):
        raise ValueError("histogram_bin_edges: weights must have the shape of a")
    if isinstance(bins, (tuple, list, Tensor)):
        edges = to_tensor(bins)
        if edges.ndim != 1:
            raise ValueError("histogram_bin_edges: bins must be 1-D when given as edges")
        return edges
    if isinstance(bins, str):
        raise NotImplementedError("histogram_bin_edges: string values for bins are not implemented")
    a = cast(F.reshape(a, (-1,)), np.float32)
    if range is None:
        start, end = F.amin(a), F.amax(a)
    else:
        if not isinstance(range, (tuple, list)) or len(range) != 2:
            raise ValueError(f"histogram_bin_edges: range must be (start, end), got {range!r}")
        if range[0] > range[1]:
            raise ValueError(f"histogram_bin_edges: range must not end below its start, got {range}")
        start, end = to_tensors(float(range[0]), float(range[1]))
    flat = F.equal(start, end)
    lo, hi = F.where(flat, F.sub(start, 0.5), start), F.where(flat, F.add(end, 0.5), end)
    return linspace(lo, hi, int(bins) + 1)


def _widths(edges: Tensor) -> Tensor:
    return F.sub(at(edges, slice(1, None)), at(edges, slice(None, -1)))


def _bin_index(values: Tensor, edges: Tensor) -> Tensor:
    """The bin of each value: searchsorted right, with the last edge inside the last bin."""
    n = int(edges.size)
    idx = searchsorted(edges, values, "right")
    return F.where(F.equal(values, at(edges, -1)), n - 1, idx)


def histogram(a: Any, bins: Any = 10, range: Any = None, weights: Any = None,
              density: bool = False) -> tuple[Tensor, Tensor]:
    """Computes the histogram of a dataset.

    Args:
        a (Tensor): the data (flattened).
        bins (Union[int, tuple, list, Tensor]): a number of equal-width bins or the edges. Default: 10.
        range (tuple[float, float], optional): the lower and upper edges. Default: the data's range.
        weights (Tensor, optional): a weight per value.
        density (bool): normalise to a probability density. Default: False.

    Returns:
        Tuple (counts, float32, and the edges).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> hist, edges = mnp.histogram(mnp.array([1.0, 2.0, 2.0, 3.0]), bins=2)
        >>> print(hist)
        [1. 3.]
        >>> print(edges)
        [1. 2. 3.]
    """
    a = F.reshape(to_tensor(a), (-1,))
    if weights is not None:
        weights = F.reshape(to_tensor(weights), (-1,))
    edges = histogram_bin_edges(a, bins, range, weights)
    n = int(edges.size)
    count = at(bincount(_bin_index(a, edges), weights, length=n), slice(1, None))
    if count.size == 0 or not density:
        return count, edges
    widths = _widths(edges)
    return F.div(F.div(count, widths), F.sum(count)), edges


def histogramdd(sample: Any, bins: Any = 10, range: Any = None, weights: Any = None,
                density: bool = False) -> tuple[Tensor, list[Tensor]]:
    """Computes the multidimensional histogram of some data.

    Args:
        sample (Union[Tensor, tuple, list]): an (N, D) tensor, or D 1-D sequences of N values.
        bins (Union[int, tuple, list]): bins per dimension (a number or edges), or one number for all.
            Default: 10.
        range (Union[tuple, list], optional): a (start, end) pair (or None) per dimension.
        weights (Tensor, optional): a weight per sample.
        density (bool): normalise to a probability density. Default: False.

    Returns:
        Tuple (counts of shape (bins_0, ..., bins_{D-1}), float32, and the list of edges per dimension).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> sample = mnp.array([[0.1, 0.2], [0.4, 0.7], [0.6, 0.3], [0.9, 0.8]])
        >>> hist, edges = mnp.histogramdd(sample, bins=2)
        >>> print(hist)
        [[1. 1.]
         [1. 1.]]
    """
    if isinstance(sample, (tuple, list)):
        sample = stack([to_tensor(s) for s in sample], -1)
    sample = to_tensor(sample)
    if sample.ndim != 2:
        raise ValueError(f"histogramdd: sample must be 2-D (N, D), got shape {tuple(sample.shape)}")
    require_static(sample.shape[1], "histogramdd returns one edge array per dimension (their count) and")
    d = int(sample.shape[1])
    if isinstance(bins, int):
        bins = [bins] * d
    if not isinstance(bins, (tuple, list, Tensor)) or len(bins) != d:
        raise ValueError(f"histogramdd: bins must be an int or one entry per dimension ({d})")
    ranges = [None] * d if range is None else list(range)
    if len(ranges) != d:
        raise ValueError(f"histogramdd: range must have one entry per dimension ({d})")
    columns = [at(sample, (slice(None), i)) for i in builtins.range(d)]
    per_dim: Any = bins
    edges = [histogram_bin_edges(columns[i], per_dim[i], ranges[i], None) for i in builtins.range(d)]
    sizes = [int(e.size) + 1 for e in edges]
    flat = None
    stride = 1
    for i in builtins.range(d - 1, -1, -1):
        term = F.mul(_bin_index(columns[i], edges[i]), stride)
        flat = term if flat is None else F.add(flat, term)
        stride *= sizes[i]
    count = F.reshape(bincount(flat, weights, length=stride), tuple(sizes))
    count = at(count, tuple(slice(1, -1) for _ in builtins.range(d)))
    if density:
        total = F.sum(count)
        for i in builtins.range(d):
            shape = [1] * d
            shape[i] = int(edges[i].size) - 1
            count = F.div(count, F.reshape(_widths(edges[i]), tuple(shape)))
        count = F.div(count, total)
    return count, edges



def histogram2d(x: Any, y: Any, bins: Any = 10, range: Any = None, weights: Any = None,
                density: bool = False) -> tuple[Tensor, Tensor, Tensor]:
    """Computes the two-dimensional histogram of two data samples.

    Args:
        x (Tensor): the first coordinates.
        y (Tensor): the second coordinates.
        bins (Union[int, tuple, list]): bins per dimension, or one number for both. Default: 10.
        range (Union[tuple, list], optional): [[xmin, xmax], [ymin, ymax]].
        weights (Tensor, optional): a weight per sample.
        density (bool): normalise to a probability density. Default: False.

    Returns:
        Tuple (counts, x edges, y edges).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.array([0.1, 0.4, 0.6, 0.9])
        >>> y = mnp.array([0.2, 0.7, 0.3, 0.8])
        >>> hist, xedges, yedges = mnp.histogram2d(x, y, bins=2)
        >>> print(hist)
        [[1. 1.]
         [1. 1.]]
    """
    count, edges = histogramdd((x, y), bins=bins, range=range, weights=weights, density=density)
    return count, edges[0], edges[1]


def _cov_input(t: Any, rowvar: bool) -> Tensor:
    t = to_tensor(t)
    if t.ndim > 2:
        raise ValueError(f"cov: the input must have at most two dimensions, got shape {tuple(t.shape)}")
    t = cast(t, np.float32)
    if t.size == 0:
        raise ValueError("cov: the input must not be empty")
    t = _lead(t, 2)
    if not isinstance(rowvar, bool):
        raise TypeError(f"cov: rowvar must be a bool, got {type(rowvar).__name__}")
    if not rowvar and int(t.shape[0]) != 1:
        t = F.transpose(t, (1, 0))
    return t


def _cov_weights(w: Any, n: int, name: str, integer: bool) -> Tensor:
    w = to_tensor(w)
    if integer and not is_int(w):
        raise TypeError(f"cov: {name} must be integers, got {w.dtype}")
    if w.ndim > 1:
        raise ValueError(f"cov: {name} must be 1-D, got shape {tuple(w.shape)}")
    if int(w.shape[0]) != int(n):
        raise ValueError(f"cov: {name} has {int(w.shape[0])} entries for {n} observations")
    return F.abs(cast(w, np.float32))


def cov(m: Any, y: Any = None, rowvar: bool = True, bias: bool = False, ddof: int | None = None,
        fweights: Any = None, aweights: Any = None, dtype: Any = None) -> Tensor:
    """Estimates a covariance matrix, given data and weights.

    Args:
        m (Tensor): 1-D or 2-D; each row a variable, each column an observation (unless ``rowvar`` is False).
        y (Tensor, optional): more variables, in ``m``'s layout.
        rowvar (bool): rows are variables. Default: True.
        bias (bool): normalise by N instead of N - 1. Default: False.
        ddof (int, optional): overrides ``bias``: normalise by N - ddof.
        fweights (Tensor, optional): 1-D integer frequency weights per observation.
        aweights (Tensor, optional): 1-D observation weights.
        dtype (Union[DType, str], optional): cast the result to it. Default: float32.

    Returns:
        Tensor (computed in float32; a single variable gives a scalar).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.cov(mnp.array([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]])))
        [[ 1. -1.]
         [-1.  1.]]
    """
    m = _cov_input(m, rowvar)
    if y is not None:
        m = concatenate((m, _cov_input(y, rowvar)), 0)
    if ddof is None:
        ddof = 0 if bias else 1
    n = m.shape[1]  # the observations: a dynamic count stays a graph value
    w = None if fweights is None else _cov_weights(fweights, n, "fweights", True)
    aw = None
    if aweights is not None:
        aw = _cov_weights(aweights, n, "aweights", False)
        w = aw if w is None else F.mul(w, aw)
    avg = average(m, 1, w)
    if w is None:
        fact: Any = Tensor(n - ddof, np.float32)
    else:
        w_sum = F.sum(w)
        if ddof == 0:
            fact = w_sum
        elif aw is None:
            fact = F.sub(w_sum, float(ddof))
        else:
            fact = F.sub(w_sum, F.div(F.mul(F.sum(F.mul(w, aw)), float(ddof)), w_sum))
    centered = F.sub(m, F.expand_dims(avg, -1))
    weighted = centered if w is None else F.mul(centered, w)
    res = F.squeeze(F.div(F.matmul(centered, F.transpose(weighted, (1, 0))), fact))
    return finish(res, dtype)


def corrcoef(x: Any, y: Any = None, rowvar: bool = True, dtype: Any = None) -> Tensor:
    """Returns Pearson product-moment correlation coefficients.

    Args:
        x (Tensor): variables and observations, as for ``cov``.
        y (Tensor, optional): more variables.
        rowvar (bool): rows are variables. Default: True.
        dtype (Union[DType, str], optional): cast the result to it.

    Returns:
        Tensor, clipped to [-1, 1].

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.corrcoef(mnp.array([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]])))
        [[ 1. -1.]
         [-1.  1.]]
    """
    c = cov(x, y, rowvar)
    if c.ndim == 0:
        return finish(F.div(c, c), dtype)
    std = F.sqrt(diag(c))
    c = F.div(F.div(c, F.expand_dims(std, -1)), F.expand_dims(std, 0))
    return finish(F.clamp(c, -1.0, 1.0), dtype)

__all__ = ["bincount", "corrcoef", "cov", "digitize", "histogram", "histogram2d", "histogram_bin_edges",
           "histogramdd", "interp", "searchsorted"]
