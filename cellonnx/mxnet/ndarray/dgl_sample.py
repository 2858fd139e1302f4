"""mx.nd.contrib's DGL neighbour samplers and their compaction, as MXNet 1.9.1's CPU operators compute them.

From each array of seed vertices, a breadth-first walk of ``num_hops`` hops over a CSR graph keeps at most
``num_neighbor`` neighbours per visited vertex (all of them when it has no more; otherwise a uniform draw
without replacement, or one weighted by ``probability`` of the neighbour) until ``max_num_vertices`` vertices
are held. As in MXNet, one random seed serves every vertex of a call, so vertices of the same degree keep the
same neighbour positions, and the weighted sampler sorts the kept neighbours and their edge ids separately.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.mxnet import _op
from cellonnx.mxnet.base import MXNetError
from cellonnx.mxnet.ndarray.ndarray import NDArray
from cellonnx.mxnet.ndarray.random import randint
from cellonnx.tensor import Tensor

__all__ = ["dgl_csr_neighbor_non_uniform_sample", "dgl_csr_neighbor_uniform_sample", "dgl_graph_compact"]


def _nd(values: np.ndarray) -> NDArray:
    return _op.retype(Tensor(np.ascontiguousarray(values)), NDArray)  # type: ignore[no-any-return]


def _csr(values: np.ndarray, columns: np.ndarray, indptr: np.ndarray, shape: tuple[int, int]) -> Any:
    from cellonnx.mxnet.ndarray.sparse import csr_matrix

    return csr_matrix((values, np.asarray(columns, np.int64), np.asarray(indptr, np.int64)), shape=shape,
                      dtype=values.dtype)


def _csr_parts(graph: Any, op: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    if getattr(graph, "stype", "default") != "csr":
        raise MXNetError(f"{op}: csr_matrix must be a CSRNDArray, got storage type "
                         f"{getattr(graph, 'stype', None)!r}")
    if graph.ndim != 2 or graph.shape[0] != graph.shape[1]:
        raise MXNetError(f"{op}: csr_matrix must be a square 2-D graph, got shape {graph.shape}")
    return graph.data._data, graph.indices._data.astype(np.int64), graph.indptr._data.astype(np.int64)


def _pick(degree: int, num: int, weights: np.ndarray | None, seed: int) -> np.ndarray:
    """Sorted positions of ``num`` of ``degree`` neighbours drawn without replacement (weighted by
    ``weights`` when given), from a generator seeded with the call's ``seed``."""
    rng = np.random.default_rng(seed)
    if weights is None:
        return np.sort(rng.choice(degree, num, replace=False))
    p = weights.astype(np.float64)
    return np.sort(rng.choice(degree, num, replace=False, p=p / p.sum()))


def _sample(graph: Any, seeds: Any, probability: np.ndarray | None, num_hops: int, num_neighbor: int,
            max_num_vertices: int, seed: int, op: str) -> tuple[NDArray, Any, NDArray, np.ndarray]:
    """(vertex ids + count, sampled CSR, layers, the vertex ids held) of one seed array."""
    values, columns, indptr = _csr_parts(graph, op)
    starts = seeds._data.astype(np.int64).reshape(-1)
    if max_num_vertices < len(starts):
        raise MXNetError(f"{op}: max_num_vertices ({max_num_vertices}) must be at least the number of seeds "
                         f"({len(starts)})")
    held: set[int] = set()
    queue: list[tuple[int, int]] = []
    for v in starts.tolist():
        if v not in held:
            held.add(v)
            queue.append((v, 0))
    neighbours: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    i = 0
    while i < len(queue) and len(held) < max_num_vertices:
        vertex, level = queue[i]
        i += 1
        if level >= num_hops:
            continue
        row = slice(indptr[vertex], indptr[vertex + 1])
        cols, eids = columns[row], values[row]
        if len(cols) > num_neighbor:
            weights = None if probability is None else probability[cols]
            kept = _pick(len(cols), num_neighbor, weights, seed)
            cols, eids = cols[kept], eids[kept]
            if probability is not None:  # MXNet sorts the two lists each on its own
                cols, eids = np.sort(cols), np.sort(eids)
        neighbours[vertex] = (cols, eids)
        for c in cols.tolist():
            if len(held) >= max_num_vertices:
                break
            if c not in held:
                held.add(c)
                queue.append((c, level + 1))
    queue.sort(key=lambda vl: vl[0])
    ids = np.zeros(max_num_vertices + 1, seeds._data.dtype)
    layers = np.zeros(max_num_vertices, seeds._data.dtype)
    ids[:len(queue)] = [v for v, _ in queue]
    layers[:len(queue)] = [lv for _, lv in queue]
    ids[max_num_vertices] = len(held)
    rows = [neighbours.get(v, (columns[:0], values[:0])) for v, _ in queue]
    rows += [(columns[:0], values[:0])] * (max_num_vertices - len(rows))
    pointers = np.concatenate([[0], np.cumsum([len(c) for c, _ in rows])])
    sub = _csr(np.concatenate([e for _, e in rows]).astype(values.dtype),
               np.concatenate([c for c, _ in rows]), pointers, (max_num_vertices, int(graph.shape[1])))
    return _nd(ids), sub, _nd(layers), ids[:len(queue)]


def _call_seed() -> int:
    return int(randint(0, 2**31 - 1, shape=(1,), dtype="int64").asnumpy()[0])


def dgl_csr_neighbor_uniform_sample(csr_matrix: Any, *seed_arrays: Any, num_hops: int = 1,
                                    num_neighbor: int = 2, max_num_vertices: int = 100,
                                    **_: Any) -> list[Any]:
    """Sample subgraphs around each seed array, neighbours drawn uniformly.

    Returns, per seed array in order, three sets: the sampled vertex ids (sorted, length max_num_vertices + 1,
    the last element their count), the sampled edges as a (max_num_vertices, N) CSRNDArray whose row i holds
    the i-th vertex's kept neighbours with their edge ids, and the hop at which each vertex was reached.

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> import numpy as np
        >>> parts = (np.arange(1, 7), np.array([1, 2, 0, 2, 0, 1]), np.array([0, 2, 4, 6]))
        >>> graph = mx.nd.sparse.csr_matrix(parts, shape=(3, 3), dtype='int64')
        >>> ids, sub, layer = mx.nd.contrib.dgl_csr_neighbor_uniform_sample(
        ...     graph, mx.nd.array([0], dtype='int64'), num_neighbor=2, max_num_vertices=4)
        >>> print(ids.asnumpy(), layer.asnumpy())
        [0 1 2 0 3] [0 1 1 0]
        >>> print(sub.asnumpy())
        [[0 1 2]
         [0 0 0]
         [0 0 0]
         [0 0 0]]
    """
    seed = _call_seed()
    outs = [_sample(csr_matrix, s, None, int(num_hops), int(num_neighbor), int(max_num_vertices), seed,
                    "dgl_csr_neighbor_uniform_sample")[:3] for s in seed_arrays]
    return [o[k] for k in range(3) for o in outs]


def dgl_csr_neighbor_non_uniform_sample(csr_matrix: Any, probability: Any, *seed_arrays: Any,
                                        num_hops: int = 1, num_neighbor: int = 2,
                                        max_num_vertices: int = 100, **_: Any) -> list[Any]:
    """Sample subgraphs around each seed array, neighbours drawn with weights ``probability[neighbour]``.

    Returns four sets: those of :func:`dgl_csr_neighbor_uniform_sample`, with each sampled vertex's
    probability (float32, length max_num_vertices) before the layers.

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> import numpy as np
        >>> parts = (np.arange(1, 7), np.array([1, 2, 0, 2, 0, 1]), np.array([0, 2, 4, 6]))
        >>> graph = mx.nd.sparse.csr_matrix(parts, shape=(3, 3), dtype='int64')
        >>> prob = mx.nd.array([0.5, 0.2, 0.3])
        >>> ids, sub, p, layer = mx.nd.contrib.dgl_csr_neighbor_non_uniform_sample(
        ...     graph, prob, mx.nd.array([1], dtype='int64'), num_neighbor=2, max_num_vertices=3)
        >>> print(ids.asnumpy(), p.asnumpy())
        [0 1 2 3] [0.5 0.2 0.3]
    """
    weights = probability._data.reshape(-1)
    seed = _call_seed()
    outs = []
    for s in seed_arrays:
        ids, sub, layer, held = _sample(csr_matrix, s, weights, int(num_hops), int(num_neighbor),
                                        int(max_num_vertices), seed, "dgl_csr_neighbor_non_uniform_sample")
        sub_prob = np.zeros(int(max_num_vertices), probability._data.dtype)
        sub_prob[:len(held)] = weights[held]
        outs.append((ids, sub, _nd(sub_prob), layer))
    return [o[k] for k in range(4) for o in outs]


def dgl_graph_compact(*graph_data: Any, graph_sizes: Any, return_mapping: bool, **_: Any) -> Any:
    """Drop the empty rows and columns of sampled subgraphs: for graphs g_0..g_k-1 followed by their vertex
    arrays v_0..v_k-1 (the samplers' first outputs), a (graph_sizes[i], graph_sizes[i]) CSRNDArray whose
    columns are renumbered by their position in v_i and whose edges are numbered 0, 1, ... in order. With
    ``return_mapping``, MXNet also lists a second set of outputs that it leaves empty: here all-zero CSRs.

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> import numpy as np
        >>> parts = (np.arange(1, 7), np.array([1, 2, 0, 2, 0, 1]), np.array([0, 2, 4, 6]))
        >>> graph = mx.nd.sparse.csr_matrix(parts, shape=(3, 3), dtype='int64')
        >>> ids, sub, _ = mx.nd.contrib.dgl_csr_neighbor_uniform_sample(
        ...     graph, mx.nd.array([2], dtype='int64'), max_num_vertices=3)
        >>> compact = mx.nd.contrib.dgl_graph_compact(sub, ids, graph_sizes=(3,), return_mapping=False)
        >>> print(compact.asnumpy())
        [[0 0 0]
         [0 0 0]
         [0 1 0]]
    """
    sizes = (int(graph_sizes),) if isinstance(graph_sizes, (int, np.integer)) else tuple(
        int(s) for s in graph_sizes)
    k = len(graph_data) // 2
    if len(graph_data) != 2 * k or k == 0 or len(sizes) != k:
        raise MXNetError(f"dgl_graph_compact: expects k graphs then their k vertex arrays with k "
                         f"graph_sizes, "
                         f"got {len(graph_data)} arrays and graph_sizes {sizes}")
    outs, empties = [], []
    for graph, vids, size in zip(graph_data[:k], graph_data[k:], sizes):
        if getattr(graph, "stype", "default") != "csr":
            raise MXNetError("dgl_graph_compact: the graphs must be CSRNDArrays")
        columns, indptr = graph.indices._data.astype(np.int64), graph.indptr._data.astype(np.int64)
        row_ids = vids._data.astype(np.int64).reshape(-1)
        if len(row_ids) != len(indptr) or int(row_ids[-1]) != size:
            raise MXNetError(f"dgl_graph_compact: the vertex array ({len(row_ids)} values, count "
                             f"{int(row_ids[-1])}) must have the graph's rows + 1 values ({len(indptr)}) and "
                             f"end with graph_size {size}")
        where = {int(v): i for i, v in enumerate(row_ids[:size])}
        missing = sorted({int(c) for c in columns} - where.keys())
        if missing:
            raise MXNetError(f"dgl_graph_compact: edges reach vertices {missing} that the vertex array lacks")
        renumbered = np.array([where[int(c)] for c in columns], np.int64)
        outs.append(_csr(np.arange(len(columns), dtype=np.int64), renumbered, indptr[:size + 1],
                         (size, size)))
        empties.append(_csr(np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(size + 1, np.int64),
                            (size, size)))
    outs += empties if return_mapping else []
    return outs[0] if len(outs) == 1 else outs
