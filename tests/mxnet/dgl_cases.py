"""Rows for mx.nd.contrib's DGL samplers and dgl_graph_compact, run by real MXNet 1.9.1
(tests/fixtures/mxnet/gen_dgl.py) and by cellonnx.mxnet (test_dgl.py). NumPy only.

A row: (id, operator, graph name, seed lists, kwargs). In the deterministic rows every visited vertex has at
most ``num_neighbor`` neighbours, so MXNet's result does not depend on its random draw; the random rows
(``RANDOM``) are checked for the properties every sample has."""
from __future__ import annotations

from typing import Any

import numpy as np


def _complete(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The complete graph on n vertices (no self loops), edge ids 1, 2, ... row by row."""
    cols = np.array([c for r in range(n) for c in range(n) if c != r], np.int64)
    indptr = np.arange(0, n * (n - 1) + 1, n - 1, dtype=np.int64)
    return np.arange(1, len(cols) + 1, dtype=np.int64), cols, indptr


def _chain() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A path 0-1-2-...-7 with both directions, edge ids 10, 11, ... in CSR order."""
    rows: list[list[int]] = [[1]] + [[v - 1, v + 1] for v in range(1, 7)] + [[6]]
    cols = np.array([c for r in rows for c in r], np.int64)
    indptr = np.concatenate([[0], np.cumsum([len(r) for r in rows])]).astype(np.int64)
    return np.arange(10, 10 + len(cols), dtype=np.int64), cols, indptr


GRAPHS = {"complete5": (_complete(5), 5), "chain8": (_chain(), 8)}
PROBABILITY = {"complete5": [0.9, 0.8, 0.2, 0.4, 0.1], "chain8": [0.1 * (i + 1) for i in range(8)]}

# deterministic: chain8 has degree <= 2, complete5 degree 4
CASES: list[tuple[str, str, str, list[list[int]], dict[str, Any]]] = [
    ("uniform_one_hop", "uniform", "chain8", [[3]], {"num_hops": 1, "num_neighbor": 2,
                                                     "max_num_vertices": 6}),
    ("uniform_two_hops", "uniform", "chain8", [[0, 5]], {"num_hops": 2, "num_neighbor": 2,
                                                          "max_num_vertices": 8}),
    ("uniform_truncated", "uniform", "chain8", [[2]], {"num_hops": 3, "num_neighbor": 3,
                                                        "max_num_vertices": 4}),
    ("uniform_two_seed_arrays", "uniform", "complete5", [[0, 1], [4]],
     {"num_hops": 1, "num_neighbor": 4, "max_num_vertices": 5}),
    ("uniform_repeated_seed", "uniform", "chain8", [[4, 4, 1]], {"num_hops": 1, "num_neighbor": 5,
                                                                  "max_num_vertices": 9}),
    ("non_uniform_one_hop", "non_uniform", "complete5", [[0, 2]], {"num_hops": 1, "num_neighbor": 4,
                                                                   "max_num_vertices": 5}),
    ("non_uniform_two_hops", "non_uniform", "chain8", [[7], [0, 3]], {"num_hops": 2, "num_neighbor": 2,
                                                                      "max_num_vertices": 6}),
]

# random: the neighbour draw matters
RANDOM: list[tuple[str, str, str, list[list[int]], dict[str, Any]]] = [
    ("uniform_draw", "uniform", "complete5", [[0, 1, 2, 3, 4]], {"num_hops": 1, "num_neighbor": 2,
                                                                 "max_num_vertices": 5}),
    ("uniform_draw_many", "uniform", "complete5", [[1]], {"num_hops": 2, "num_neighbor": 3,
                                                          "max_num_vertices": 5}),
    ("non_uniform_draw", "non_uniform", "complete5", [[0, 1, 2, 3, 4]], {"num_hops": 1, "num_neighbor": 2,
                                                                         "max_num_vertices": 5}),
]

# dgl_graph_compact over the samples of these deterministic rows
COMPACT = ["uniform_one_hop", "uniform_two_hops", "uniform_two_seed_arrays", "non_uniform_two_hops"]


def run(nd: Any, row: tuple) -> list[Any]:
    """The sampler's outputs for ``row`` with the namespace ``nd`` (MXNet's or cellonnx's)."""
    _, kind, graph_name, seeds, kwargs = row
    (values, cols, indptr), n = GRAPHS[graph_name]
    graph = nd.sparse.csr_matrix((values, cols, indptr), shape=(n, n), dtype="int64")
    seed_arrays = [nd.array(s, dtype="int64") for s in seeds]
    if kind == "uniform":
        return list(nd.contrib.dgl_csr_neighbor_uniform_sample(graph, *seed_arrays, **kwargs))
    prob = nd.array(PROBABILITY[graph_name], dtype="float32")
    return list(nd.contrib.dgl_csr_neighbor_non_uniform_sample(graph, prob, *seed_arrays, **kwargs))


def compact(nd: Any, row: tuple, outs: list[Any], return_mapping: bool) -> list[Any]:
    """dgl_graph_compact of a sampler's outputs."""
    k = len(row[3])
    ids, subs = outs[:k], outs[k:2 * k]
    sizes = tuple(int(i.asnumpy()[-1]) for i in ids)
    got = nd.contrib.dgl_graph_compact(*subs, *ids, graph_sizes=sizes, return_mapping=return_mapping)
    return list(got) if isinstance(got, (list, tuple)) else [got]
