"""mx.nd.contrib's DGL samplers and dgl_graph_compact: the deterministic rows of dgl_cases.py against real
MXNet 1.9.1 (tests/fixtures/mxnet/dgl.npz, written by gen_dgl.py), the random rows for the properties every
sample has."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import cellonnx.mxnet as mx
from cellonnx.mxnet import nd
from cellonnx.mxnet.base import MXNetError
from tests.mxnet import dgl_cases

WANT = dict(np.load(Path(__file__).resolve().parents[1] / "fixtures" / "mxnet" / "dgl.npz"))
ROWS = {row[0]: row for row in dgl_cases.CASES}


def _check(key: str, got: list, counts: list[int] | None = None) -> None:
    """Compare outputs; with ``counts`` (a sampler's), only the first counts[i] values of its 1-D outputs
    (and the ids' last) are compared: MXNet leaves the rest of those buffers unwritten."""
    depth = key.count("/") + 1
    n = len({k.split("/")[-1] for k in WANT if k.startswith(f"{key}/") and k.count("/") == depth})
    assert len(got) == n, f"{key}: {len(got)} outputs, MXNet {n}"
    for i, g in enumerate(got):
        want = WANT[f"{key}/{i}"]
        assert g.shape == want.shape and g.dtype == want.dtype, (
            f"{key}/{i}: {g.shape} {g.dtype}, MXNet {want.shape} {want.dtype}")
        got_values = g.asnumpy()
        if counts is not None and g.ndim == 1:
            valid = counts[i % len(counts)]
            tail = [-1] if i < len(counts) else []  # the vertex ids end with their count
            got_values, want = got_values[[*range(valid), *tail]], want[[*range(valid), *tail]]
        np.testing.assert_array_equal(got_values, want, err_msg=f"{key} output {i}")
        if f"{key}/{i}/indptr" in WANT:
            assert g.stype == "csr"
            for part in ("data", "indices", "indptr"):
                np.testing.assert_array_equal(getattr(g, part).asnumpy(), WANT[f"{key}/{i}/{part}"],
                                              err_msg=f"{key} output {i} {part}")


@pytest.mark.parametrize("row", dgl_cases.CASES, ids=[r[0] for r in dgl_cases.CASES])
def test_sampler_matches_mxnet(row: tuple) -> None:
    outs = dgl_cases.run(nd, row)
    counts = [int(WANT[f"{row[0]}/{j}"][-1]) for j in range(len(row[3]))]
    _check(row[0], outs, counts)


@pytest.mark.parametrize("case_id", dgl_cases.COMPACT)
def test_compact_matches_mxnet(case_id: str) -> None:
    samples = dgl_cases.run(nd, ROWS[case_id])
    _check(f"compact/{case_id}", dgl_cases.compact(nd, ROWS[case_id], samples, False))
    mapped = dgl_cases.compact(nd, ROWS[case_id], samples, True)
    k = len(mapped) // 2
    _check(f"compact_mapping/{case_id}", mapped[:k])
    for i, m in enumerate(mapped[k:]):  # MXNet leaves the mapping outputs empty
        assert m.shape == tuple(WANT[f"compact_mapping/{case_id}/{k + i}/shape"])
        assert m.data.shape[0] == int(WANT[f"compact_mapping/{case_id}/{k + i}/nnz"])


@pytest.mark.parametrize("row", dgl_cases.RANDOM, ids=[r[0] for r in dgl_cases.RANDOM])
@pytest.mark.parametrize("draw", range(3))
def test_random_sample_properties(row: tuple, draw: int) -> None:
    """Each visited vertex keeps num_neighbor of its edges (all when it has no more), the vertex list is
    sorted and closed under the kept edges, and layers count hops from the seeds."""
    mx.random.seed(draw)
    _, kind, graph_name, seeds, kwargs = row
    (values, cols, indptr), n = dgl_cases.GRAPHS[graph_name]
    outs = dgl_cases.run(nd, row)
    k, sets = len(seeds), 3 if kind == "uniform" else 4
    assert len(outs) == sets * k
    edges = {int(e): (r, int(c)) for r in range(n) for e, c in zip(values[indptr[r]:indptr[r + 1]],
                                                                    cols[indptr[r]:indptr[r + 1]])}
    for j in range(k):
        ids, sub, layer = outs[j].asnumpy(), outs[k + j], outs[(sets - 1) * k + j].asnumpy()
        count = int(ids[-1])
        vertices = ids[:count]
        assert count <= kwargs["max_num_vertices"] and np.all(np.diff(vertices) > 0)
        assert set(seeds[j]) <= set(vertices.tolist())
        assert np.all(layer[:count] <= kwargs["num_hops"]) and np.all(layer[count:] == 0)
        assert all(layer[list(vertices).index(s)] == 0 for s in seeds[j])
        ptr, got_cols, got_edges = sub.indptr.asnumpy(), sub.indices.asnumpy(), sub.data.asnumpy()
        for r, v in enumerate(vertices):
            row_cols, row_edges = got_cols[ptr[r]:ptr[r + 1]], got_edges[ptr[r]:ptr[r + 1]]
            if len(row_edges) == 0:
                continue
            degree = int(indptr[v + 1] - indptr[v])
            assert len(row_edges) == min(degree, kwargs["num_neighbor"])
            assert len(set(row_edges.tolist())) == len(row_edges)
            assert all(edges[int(e)][0] == v for e in row_edges), "a kept edge leaves its row's vertex"
            assert set(row_cols.tolist()) == {edges[int(e)][1] for e in row_edges}
            assert set(row_cols.tolist()) <= set(vertices.tolist()) or count == kwargs["max_num_vertices"]
        if kind == "non_uniform":
            prob = np.asarray(dgl_cases.PROBABILITY[graph_name], np.float32)
            np.testing.assert_array_equal(outs[2 * k + j].asnumpy()[:count], prob[vertices])


def test_uniform_draw_is_spread() -> None:
    """Over many calls every neighbour of a vertex is drawn, about equally often."""
    (values, cols, indptr), n = dgl_cases.GRAPHS["complete5"]
    graph = nd.sparse.csr_matrix((values, cols, indptr), shape=(n, n), dtype="int64")
    counts = np.zeros(n)
    mx.random.seed(1)
    for _ in range(400):
        _, sub, _ = nd.contrib.dgl_csr_neighbor_uniform_sample(graph, nd.array([0], dtype="int64"),
                                                               num_neighbor=1, max_num_vertices=5)
        counts[sub.indices.asnumpy()] += 1
    assert counts[0] == 0 and np.all(np.abs(counts[1:] - 100) < 40), counts


def test_errors_name_the_operator() -> None:
    (values, cols, indptr), n = dgl_cases.GRAPHS["chain8"]
    graph = nd.sparse.csr_matrix((values, cols, indptr), shape=(n, n), dtype="int64")
    with pytest.raises(MXNetError, match="dgl_csr_neighbor_uniform_sample: max_num_vertices"):
        nd.contrib.dgl_csr_neighbor_uniform_sample(graph, nd.array([0, 1, 2], dtype="int64"),
                                                   max_num_vertices=2)
    with pytest.raises(MXNetError, match="CSRNDArray"):
        nd.contrib.dgl_csr_neighbor_uniform_sample(nd.zeros((3, 3)), nd.array([0], dtype="int64"))
