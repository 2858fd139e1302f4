"""MXNet semantics rows: each is (id, statements) run with ``mx`` bound to real MXNet 1.9.1
(tests/fixtures/mxnet/gen_semantics.py) and to cellonnx.mxnet (test_semantics.py); the statements leave
their answer in ``out`` (compared as its ``str``), or raise (compared by whether the error is an
mx.base.MXNetError). NumPy only at import time (the generator imports it under MXNet's python).
"""
from __future__ import annotations

__all__ = ["CASES", "run"]

_DENSE = "d = mx.gluon.nn.Dense(2, in_units=2)\n"
_GRAPH = ("import numpy\nd = numpy.arange(1, 12, dtype=numpy.int64)\n"
          "g = mx.nd.sparse.csr_matrix((d, numpy.array([1, 2, 4, 0, 3, 2, 4, 0, 1, 2, 3]), "
          "numpy.array([0, 3, 5, 5, 7, 11])), shape=(5, 5), dtype='int64')\n")
_CSR = ("import numpy\ncsr = mx.nd.sparse.csr_matrix((numpy.array([1, 2, 3, 4], numpy.float32), "
        "numpy.array([1, 2, 0, 2]), numpy.array([0, 2, 3, 4])), shape=(3, 3))\n")
_CACHED = ("a, b = mx.sym.var('a'), mx.sym.var('b')\n"
           "s = mx.sym.FullyConnected(a, num_hidden=2, name='fc') + b\nop = mx.nd.CachedOp(s)\n"
           "_ARGS = [mx.nd.array([[1, -2, 3]]), mx.nd.array([[1, 2, 3], [-1, 0, 2]]), "
           "mx.nd.array([0.5, -0.5]), mx.nd.array([[1, 2]])]\n")

CASES: list[tuple[str, str]] = [
    # errors of operators are MXNetError
    ("err_nd_dot", "mx.nd.dot(mx.nd.ones((2, 3)), mx.nd.ones((2, 3)))"),
    ("err_nd_add_method", "mx.nd.ones((2, 3)) + mx.nd.ones((3, 3))"),
    ("err_nd_broadcast_add", "mx.nd.broadcast_add(mx.nd.ones((2, 3)), mx.nd.ones((3, 3)))"),
    ("err_nd_reshape", "mx.nd.ones((2, 3)).reshape((5,))"),
    ("err_nd_fc", "mx.nd.FullyConnected(mx.nd.ones((2, 3)), mx.nd.ones((4, 4)), mx.nd.ones((4,)), "
     "num_hidden=4)"),
    ("err_nd_concat", "mx.nd.concat(mx.nd.ones((2, 3)), mx.nd.ones((3, 2)), dim=0)"),
    ("err_np_add", "mx.np.ones((2, 3)) + mx.np.ones((3, 3))"),
    ("err_np_dot", "mx.np.dot(mx.np.ones((2, 3)), mx.np.ones((2, 3)))"),
    ("err_np_concatenate", "mx.np.concatenate([mx.np.ones((2, 3)), mx.np.ones((3, 2))], axis=0)"),
    ("err_npx_fc", "mx.npx.fully_connected(mx.np.ones((2, 3)), mx.np.ones((4, 4)), num_hidden=4)"),
    ("err_contrib_index_copy", "mx.nd.contrib.index_copy(mx.nd.ones((3, 2)), mx.nd.array([0, 1]), "
     "mx.nd.ones((3, 2)))"),
    # rint: ties go to the integer below
    ("rint_nd", "out = mx.nd.rint(mx.nd.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49, 3.5]))"
     ".asnumpy().tolist()"),
    ("rint_np", "out = mx.np.rint(mx.np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49, 3.5]))"
     ".asnumpy().tolist()"),
    # nd.array: float32 unless given a dtype or an NDArray (a NumPy array's dtype is not kept)
    ("nd_array_dtype", "import numpy\nout = [mx.nd.array(numpy.arange(3)).dtype, "
     "mx.nd.array(numpy.linspace(0, 1, 3)).dtype, mx.nd.array(numpy.ones(2, numpy.float16)).dtype, "
     "mx.nd.array(mx.nd.array([1], dtype='int32')).dtype, mx.nd.array([1, 2]).dtype, "
     "mx.nd.array(numpy.arange(3), dtype='int64').dtype, mx.nd.array(numpy.float64(2.5)).dtype]"),
    # x.grad has the array's type
    ("grad_np_type", "a = mx.np.array([1.0, 2.0]); a.attach_grad()\nwith mx.autograd.record():\n"
     "    y = (a * a).sum()\ny.backward(); out = (type(a.grad).__name__, a.grad.asnumpy().tolist())"),
    ("grad_nd_type", "a = mx.nd.array([1.0, 2.0]); a.attach_grad()\nwith mx.autograd.record():\n"
     "    y = (a * a).sum()\ny.backward(); out = (type(a.grad).__name__, a.grad.asnumpy().tolist())"),
    # arrays keep their context
    ("ctx_array", "a = mx.nd.array([1, 2], ctx=mx.cpu(1)); out = (a.ctx, a.context)"),
    ("ctx_ops", "a = mx.nd.array([1, 2], ctx=mx.cpu(1))\n"
     "out = [(a + 1).ctx, (1 + a).ctx, mx.nd.relu(a).ctx, a.T.ctx, a[0].ctx, a.sum().ctx, "
     "a.astype('int32').ctx, a.copy().ctx, a.reshape((2, 1)).ctx, (a + mx.nd.array([1, 2])).ctx, "
     "(mx.nd.array([1, 2]) + a).ctx]"),
    ("ctx_creation", "out = [mx.nd.ones((2,), ctx=mx.cpu(2)).context, mx.nd.zeros((2,), ctx=mx.cpu(2)).ctx, "
     "mx.nd.arange(3, ctx=mx.cpu(2)).ctx, mx.nd.full((2,), 3, ctx=mx.cpu(2)).ctx]"),
    ("ctx_move", "a = mx.nd.array([1, 2], ctx=mx.cpu(1))\n"
     "out = [a.as_in_context(mx.cpu(3)).ctx, a.copyto(mx.cpu(4)).ctx, a.as_in_context(a.ctx) is a, "
     "a.copyto(a.ctx) is a, repr(a)]"),
    ("ctx_with", "with mx.Context(mx.cpu(5)):\n"
     "    out = [mx.nd.array([1]).ctx, mx.nd.zeros((1,)).ctx, mx.current_context(), mx.np.array([1]).ctx, "
     "mx.nd.array([1], ctx=mx.cpu(0)).ctx, (mx.nd.array([1], ctx=mx.cpu(0)) + 1).ctx, mx.nd.arange(3).ctx, "
     "mx.np.zeros(2).ctx, mx.nd.empty((2,)).ctx]\nout.append(mx.current_context())"),
    ("ctx_np", "p = mx.np.array([1, 2], ctx=mx.cpu(1))\n"
     "out = [p.ctx, mx.np.sin(p).ctx, mx.npx.relu(p).ctx, (p * 2).ctx, p.T.ctx, p[0].ctx, p.sum().ctx, "
     "p.as_in_context(mx.cpu(2)).ctx, p.copyto(mx.cpu(3)).ctx, mx.np.ones(2, ctx=mx.cpu(4)).ctx]"),
    ("ctx_grad", "a = mx.nd.array([1.0, 2.0], ctx=mx.cpu(1)); a.attach_grad()\nwith mx.autograd.record():\n"
     "    y = (a * a).sum()\ny.backward(); out = a.grad.ctx"),
    ("ctx_gluon_list", _DENSE + "d.initialize(ctx=[mx.cpu(0), mx.cpu(1)])\n"
     "out = [d.weight.list_ctx(), d.weight.data(mx.cpu(1)).ctx, [x.ctx for x in d.weight.list_data()], "
     "d.weight.data().ctx, d.collect_params().list_ctx()]"),
    ("ctx_gluon_missing", _DENSE + "d.initialize(ctx=[mx.cpu(0), mx.cpu(1)])\n"
     "try:\n    d.weight.data(mx.cpu(2))\nexcept RuntimeError as e:\n"
     "    out = str(e).split(' It was')[1]"),
    ("ctx_gluon_reset", _DENSE + "d.initialize(ctx=mx.cpu(1))\nd.collect_params().reset_ctx(mx.cpu(3))\n"
     "out = [d.weight.list_ctx(), d.weight.data().ctx, d(mx.nd.ones((1, 2), ctx=mx.cpu(3))).ctx]"),
    ("ctx_gluon_default", "with mx.cpu(2):\n    " + _DENSE.replace("\n", "\n    ") + "d.initialize()\n"
     "out = [d.weight.list_ctx(), d.weight.data().ctx]"),
    ("ctx_gpu_refused", "mx.nd.array([1], ctx=mx.gpu(0))"),
    # nd.CachedOp: a symbol called on arrays in list_inputs() order
    ("cachedop", _CACHED + "out = (op.__class__.__name__, op(*_ARGS).asnumpy().tolist())"),
    ("cachedop_group", _CACHED + "op = mx.nd.CachedOp(mx.sym.Group([s, mx.sym.relu(a) * 2]), "
     "flags=[('static_alloc', True)])\nout = [o.asnumpy().tolist() for o in op(*_ARGS)]"),
    ("cachedop_grad", _CACHED + "x = _ARGS[0]; x.attach_grad()\nwith mx.autograd.record():\n"
     "    y = op(*_ARGS)\ny.backward(); out = x.grad.asnumpy().tolist()"),
    ("cachedop_count", _CACHED + "op(*_ARGS[:2])"),
    # DLPack
    ("dlpack_read", "x = mx.nd.array([[1, 2], [3, 4]])\ny = mx.nd.from_dlpack(mx.nd.to_dlpack_for_read(x))\n"
     "out = (type(y).__name__, y.asnumpy().tolist(), y.dtype)"),
    ("dlpack_method", "x = mx.nd.array([1, 2, 3], dtype='int32')\n"
     "out = mx.nd.from_dlpack(x.to_dlpack_for_write()).asnumpy().tolist()"),
    ("dlpack_numpy_producer", "import numpy\nsrc = numpy.arange(4, dtype=numpy.float32)\n"
     "y = mx.nd.from_dlpack(src.__dlpack__()); src[0] = 7; out = y.asnumpy().tolist()"),
    # group_adagrad_update (MXNet's CPU kernel takes a row-sparse gradient)
    ("group_adagrad_update", "import numpy\n"
     "w = mx.nd.array(numpy.arange(12).reshape(4, 3) / 10.0, dtype='float32')\nh = mx.nd.ones((4, 1)) * 0.5\n"
     "g = mx.nd.sparse.row_sparse_array((numpy.array([[1, -2, 3], [2, 0.5, -1]], numpy.float32), [1, 3]), "
     "shape=(4, 3))\nr = mx.nd.contrib.group_adagrad_update(w, g, h, lr=0.1, "
     "rescale_grad=2.0, clip_gradient=2.5, epsilon=1e-3, out=w)\n"
     "out = [r is w, w.asnumpy().round(5).tolist(), h.asnumpy().round(5).tolist()]"),
    # CSR functions, samplers and SparseEmbedding of nd.contrib
    ("getnnz", _CSR + "out = [mx.nd.contrib.getnnz(csr).asnumpy().tolist(), "
     "mx.nd.contrib.getnnz(csr, axis=1).asnumpy().tolist(), mx.nd.contrib.getnnz(csr, axis=1).dtype]"),
    ("getnnz_axis0", _CSR + "mx.nd.contrib.getnnz(csr, axis=0)"),
    ("edge_id", _CSR + "r = mx.nd.contrib.edge_id(csr, mx.nd.array([0, 0, 2, 1, 1]), "
     "mx.nd.array([1, 0, 2, 0, 2]))\n"
     "out = (r.asnumpy().tolist(), r.dtype)"),
    ("dgl_adjacency", _GRAPH + "a = mx.nd.contrib.dgl_adjacency(g)\n"
     "out = [a.stype, a.dtype, a.asnumpy().tolist(), a.indices.asnumpy().tolist(), "
     "a.indptr.asnumpy().tolist()]"),
    ("dgl_subgraph", _GRAPH + "subs = mx.nd.contrib.dgl_subgraph(g, mx.nd.array([0, 2, 4], dtype='int64'), "
     "mx.nd.array([1, 2, 3], dtype='int64'), return_mapping=True)\n"
     "out = [(s.stype, s.dtype, s.asnumpy().tolist(), s.indices.asnumpy().tolist()) for s in subs]"),
    ("rand_zipfian", "s, t, c = mx.nd.contrib.rand_zipfian(mx.nd.array([3, 0, 7]), 6, 10)\n"
     "out = [s.shape, s.dtype, bool(((s.asnumpy() >= 0) & (s.asnumpy() < 10)).all()), "
     "t.asnumpy().round(6).tolist(), c.shape, "
     "bool(abs(c.asnumpy() - mx.nd.contrib.rand_zipfian(s, 6, 10)[1].asnumpy()).max() < 1e-9)]"),
    ("sparse_embedding", "w = mx.nd.array([[0, 1], [2, 3], [4, 5], [6, 7]])\n"
     "w.attach_grad(stype='row_sparse')\nwith mx.autograd.record():\n"
     "    y = mx.nd.contrib.SparseEmbedding(mx.nd.array([[2, 0], [2, 3]]), w, 4, 2)\n"
     "y.backward(mx.nd.arange(8).reshape((2, 2, 2)))\n"
     "out = [y.asnumpy().tolist(), w.grad.asnumpy().tolist(), w.grad.stype]"),
    # LBSGD's states (the accumulated gradients and the warmup counters) survive get_states / set_states
    ("lbsgd_states", "import numpy\nmake = lambda: mx.optimizer.LBSGD(learning_rate=0.1, momentum=0.9, "
     "batch_scale=2, warmup_epochs=2, updates_per_epoch=2, warmup_strategy='lars')\n"
     "u = mx.optimizer.get_updater(make())\nw = mx.nd.array(numpy.linspace(-1, 1, 4).reshape(2, 2))\n"
     "for k in range(3):\n    u(0, mx.nd.array(numpy.full((2, 2), 0.1 * (k + 1))), w)\n"
     "restored = []\nfor dump in (True, False):\n    v = mx.optimizer.get_updater(make())\n"
     "    v.set_states(u.get_states(dump_optimizer=dump))\n    w2 = w.copy()\n"
     "    for k in range(3):\n        v(0, mx.nd.array(numpy.full((2, 2), 0.2 * (k + 1))), w2)\n"
     "    restored.append(w2.asnumpy().round(5).tolist())\nout = restored"),
    ("contrib_reexports", "out = [mx.nd.contrib.current_context(), "
     "mx.nd.contrib.uniform(shape=(2, 3)).shape]"),
]


def run(mx: object, code: str) -> tuple[str, str, BaseException | None]:
    """('ok', str(out), None) or ('error', 'MXNetError' / the builtin class name of what was raised, the
    error)."""
    scope: dict = {"mx": mx}
    if "out =" not in code and "out.append" not in code:
        *body, last = code.split("\n")
        code = "\n".join([*body, "out = " + last])
    try:
        exec(code, scope)  # noqa: S102
        answer = str(scope.get("out"))  # MXNet raises an operator's error when its result is read
    except Exception as exc:  # noqa: BLE001 - the row's answer
        return "error", "MXNetError" if isinstance(exc, mx.base.MXNetError) else type(exc).__name__, exc
    return "ok", answer, None
