"""The docstring examples of mx.sym's optimizer update operators and of the names MXNet 1.9.1's mx.sym
cannot run: plain data, like examples.py (tests/fixtures/mxnet/gen_symbol_examples.py runs these tables
with real MXNet 1.9.1 too).

MXNet 1.9.1 lists its update operators (sgd_update, adam_update, the multi-tensor updates ...) in mx.sym,
but composing most of them on Symbols fails ("Not enough argument to call operator": they are written for
mx.nd's in-place calls), and the multi-tensor ones compose but cannot run (their shapes stay unknown).
cellonnx's compose and evaluate; ``ND_FORMS`` holds, for each such name, the same call through mx.nd,
which MXNet 1.9.1 runs: it must print what the Symbol example prints (tests/mxnet/test_symbol_examples.py).
``CELLONNX_ONLY`` names what MXNet's mx.sym lacks or cannot run at all, and why.
"""
from __future__ import annotations

_ARRAY_ONLY = ("computes on arrays only (F.{0} in a traced hybrid_forward); MXNet 1.9.1's mx.sym has no {0}, "
               "and a Symbol argument raises TypeError")
CELLONNX_ONLY = {
    **{name: _ARRAY_ONLY.format(name) for name in ("isfinite", "isinf", "isnan", "mish", "log_sigmoid",
                                                   "moveaxis", "empty")},
    "reset_arrays": "MXNet 1.9.1 aborts (segmentation fault) composing reset_arrays on a Symbol; cellonnx's "
    "zeroes arrays in place, and on Symbols makes a node with no output to evaluate",
}

_ERR = "TypeError: mx.sym.{0} computes on arrays only: MXNet 1.9.1 has no {0} operator to put in a ..."


def _array_only(name: str, printed: str, rounded: bool = False) -> str:
    """The example of an array-only name: ``F.<name>(x)`` in a hybridized block, then a Symbol refused."""
    values = "mx.nd.array([-1.0, 0.0, 1.0, float('inf'), float('nan')])"
    return f"""
    >>> import cellonnx.mxnet as mx
    >>> class Net(mx.gluon.HybridBlock):
    ...     def hybrid_forward(self, F, x):
    ...         return F.{name}(x)
    >>> net = Net()
    >>> net.hybridize()
    >>> print(net({values}).asnumpy(){'.round(4)' if rounded else ''})
    {printed}
    >>> mx.sym.{name}(mx.sym.var('x'))
    Traceback (most recent call last):
    ...
    {_ERR.format(name)}
    """


UPDATE_EXAMPLES = {
    "sgd_update": """
    >>> import cellonnx.mxnet as mx
    >>> weight, grad = mx.sym.var('weight'), mx.sym.var('grad')
    >>> out = mx.sym.sgd_update(weight, grad, lr=0.1, wd=0.0)
    >>> outs = out.eval(weight=mx.nd.array([1.0, 2.0]), grad=mx.nd.array([0.5, -1.0]))
    >>> print(outs[0].asnumpy().round(4))
    [0.95 2.1 ]
    """,
    "sgd_mom_update": """
    >>> import cellonnx.mxnet as mx
    >>> weight, grad, mom = mx.sym.var('weight'), mx.sym.var('grad'), mx.sym.var('mom')
    >>> out = mx.sym.sgd_mom_update(weight, grad, mom, lr=0.1, momentum=0.9)
    >>> outs = out.eval(weight=mx.nd.array([1.0, 2.0]), grad=mx.nd.array([0.5, -1.0]),
    ... mom=mx.nd.array([0.1, 0.1]))
    >>> print(outs[0].asnumpy().round(4))
    [1.04 2.19]
    """,
    "nag_mom_update": """
    >>> import cellonnx.mxnet as mx
    >>> weight, grad, mom = mx.sym.var('weight'), mx.sym.var('grad'), mx.sym.var('mom')
    >>> out = mx.sym.nag_mom_update(weight, grad, mom, lr=0.1, momentum=0.9)
    >>> outs = out.eval(weight=mx.nd.array([1.0, 2.0]), grad=mx.nd.array([0.5, -1.0]),
    ... mom=mx.nd.array([0.1, 0.1]))
    >>> print(outs[0].asnumpy().round(4))
    [0.986 2.271]
    """,
    "signsgd_update": """
    >>> import cellonnx.mxnet as mx
    >>> weight, grad = mx.sym.var('weight'), mx.sym.var('grad')
    >>> out = mx.sym.signsgd_update(weight, grad, lr=0.1)
    >>> outs = out.eval(weight=mx.nd.array([1.0, 2.0]), grad=mx.nd.array([0.5, -1.0]))
    >>> print(outs[0].asnumpy().round(4))
    [0.9 2.1]
    """,
    "signum_update": """
    >>> import cellonnx.mxnet as mx
    >>> weight, grad, mom = mx.sym.var('weight'), mx.sym.var('grad'), mx.sym.var('mom')
    >>> out = mx.sym.signum_update(weight, grad, mom, lr=0.1, momentum=0.9)
    >>> outs = out.eval(weight=mx.nd.array([1.0, 2.0]), grad=mx.nd.array([0.5, -1.0]),
    ... mom=mx.nd.array([0.0, 0.0]))
    >>> print(outs[0].asnumpy().round(4))
    [0.9 2.1]
    """,
    "rmsprop_update": """
    >>> import cellonnx.mxnet as mx
    >>> weight, grad, n = mx.sym.var('weight'), mx.sym.var('grad'), mx.sym.var('n')
    >>> out = mx.sym.rmsprop_update(weight, grad, n, lr=0.01)
    >>> outs = out.eval(weight=mx.nd.array([1.0, 2.0]), grad=mx.nd.array([0.5, -1.0]),
    ... n=mx.nd.array([0.0, 0.0]))
    >>> print(outs[0].asnumpy().round(4))
    [0.9553 2.0447]
    """,
    "rmspropalex_update": """
    >>> import cellonnx.mxnet as mx
    >>> weight, grad, n = mx.sym.var('weight'), mx.sym.var('grad'), mx.sym.var('n')
    >>> g, delta = mx.sym.var('g'), mx.sym.var('delta')
    >>> out = mx.sym.rmspropalex_update(weight, grad, n, g, delta, lr=0.01)
    >>> outs = out.eval(weight=mx.nd.array([1.0, 2.0]), grad=mx.nd.array([0.5, -1.0]),
    ... n=mx.nd.array([0.0, 0.0]), g=mx.nd.array([0.0, 0.0]), delta=mx.nd.array([0.0, 0.0]))
    >>> print(outs[0].asnumpy().round(4))
    [0.9541 2.0459]
    """,
    "adam_update": """
    >>> import cellonnx.mxnet as mx
    >>> weight, grad, mean = mx.sym.var('weight'), mx.sym.var('grad'), mx.sym.var('mean')
    >>> var, = mx.sym.var('var')
    >>> out = mx.sym.adam_update(weight, grad, mean, var, lr=0.1)
    >>> outs = out.eval(weight=mx.nd.array([1.0, 2.0]), grad=mx.nd.array([0.5, -1.0]),
    ... mean=mx.nd.array([0.0, 0.0]), var=mx.nd.array([0.0, 0.0]))
    >>> print(outs[0].asnumpy().round(4))
    [0.6838 2.3162]
    """,
    "ftml_update": """
    >>> import cellonnx.mxnet as mx
    >>> weight, grad, d = mx.sym.var('weight'), mx.sym.var('grad'), mx.sym.var('d')
    >>> v, z = mx.sym.var('v'), mx.sym.var('z')
    >>> out = mx.sym.ftml_update(weight, grad, d, v, z, lr=0.1, t=1)
    >>> outs = out.eval(weight=mx.nd.array([1.0, 2.0]), grad=mx.nd.array([0.5, -1.0]),
    ... d=mx.nd.array([0.0, 0.0]), v=mx.nd.array([0.0, 0.0]), z=mx.nd.array([0.0, 0.0]))
    >>> print(outs[0].asnumpy().round(4))
    [0.9 2.1]
    """,
    "ftrl_update": """
    >>> import cellonnx.mxnet as mx
    >>> weight, grad, z = mx.sym.var('weight'), mx.sym.var('grad'), mx.sym.var('z')
    >>> n, = mx.sym.var('n')
    >>> out = mx.sym.ftrl_update(weight, grad, z, n, lr=0.1)
    >>> outs = out.eval(weight=mx.nd.array([1.0, 2.0]), grad=mx.nd.array([0.5, -1.0]),
    ... z=mx.nd.array([0.0, 0.0]), n=mx.nd.array([0.0, 0.0]))
    >>> print(outs[0].asnumpy().round(4))
    [0.2993 1.0495]
    """,
    "lamb_update_phase1": """
    >>> import cellonnx.mxnet as mx
    >>> weight, grad, mean = mx.sym.var('weight'), mx.sym.var('grad'), mx.sym.var('mean')
    >>> var, = mx.sym.var('var')
    >>> out = mx.sym.lamb_update_phase1(weight, grad, mean, var, t=1, wd=0.0)
    >>> outs = out.eval(weight=mx.nd.array([1.0, 2.0]), grad=mx.nd.array([0.5, -1.0]),
    ... mean=mx.nd.array([0.0, 0.0]), var=mx.nd.array([0.0, 0.0]))
    >>> print(outs[0].asnumpy().round(4))
    [ 1. -1.]
    """,
    "lamb_update_phase2": """
    >>> import cellonnx.mxnet as mx
    >>> weight, g, r1 = mx.sym.var('weight'), mx.sym.var('g'), mx.sym.var('r1')
    >>> r2, = mx.sym.var('r2')
    >>> out = mx.sym.lamb_update_phase2(weight, g, r1, r2, lr=0.1)
    >>> outs = out.eval(weight=mx.nd.array([1.0, 2.0]), g=mx.nd.array([1.0, -1.0]),
    ... r1=mx.nd.array([2.0]), r2=mx.nd.array([1.0]))
    >>> print(outs[0].asnumpy().round(4))
    [0.8 2.2]
    """,
    "mp_sgd_update": """
    >>> import cellonnx.mxnet as mx
    >>> weight, grad, weight32 = mx.sym.var('weight'), mx.sym.var('grad'), mx.sym.var('weight32')
    >>> out = mx.sym.mp_sgd_update(weight, grad, weight32, lr=0.1)
    >>> outs = out.eval(weight=mx.nd.array([1.0, 2.0], dtype='float16'),
    ... grad=mx.nd.array([0.5, -1.0], dtype='float16'), weight32=mx.nd.array([1.0, 2.0]))
    >>> print(outs[0].asnumpy().round(4))
    [0.95 2.1 ]
    """,
    "mp_sgd_mom_update": """
    >>> import cellonnx.mxnet as mx
    >>> weight, grad, mom = mx.sym.var('weight'), mx.sym.var('grad'), mx.sym.var('mom')
    >>> weight32, = mx.sym.var('weight32')
    >>> out = mx.sym.mp_sgd_mom_update(weight, grad, mom, weight32, lr=0.1, momentum=0.9)
    >>> outs = out.eval(weight=mx.nd.array([1.0, 2.0], dtype='float16'),
    ... grad=mx.nd.array([0.5, -1.0], dtype='float16'), mom=mx.nd.array([0.1, 0.1]),
    ... weight32=mx.nd.array([1.0, 2.0]))
    >>> print(outs[0].asnumpy().round(4))
    [1.04 2.19]
    """,
    "mp_nag_mom_update": """
    >>> import cellonnx.mxnet as mx
    >>> weight, grad, mom = mx.sym.var('weight'), mx.sym.var('grad'), mx.sym.var('mom')
    >>> weight32, = mx.sym.var('weight32')
    >>> out = mx.sym.mp_nag_mom_update(weight, grad, mom, weight32, lr=0.1, momentum=0.9)
    >>> outs = out.eval(weight=mx.nd.array([1.0, 2.0], dtype='float16'),
    ... grad=mx.nd.array([0.5, -1.0], dtype='float16'), mom=mx.nd.array([0.1, 0.1]),
    ... weight32=mx.nd.array([1.0, 2.0]))
    >>> print(outs[0].asnumpy().round(4))
    [0.986 2.271]
    """,
    "mp_lamb_update_phase1": """
    >>> import cellonnx.mxnet as mx
    >>> weight, grad, mean = mx.sym.var('weight'), mx.sym.var('grad'), mx.sym.var('mean')
    >>> var, weight32 = mx.sym.var('var'), mx.sym.var('weight32')
    >>> out = mx.sym.mp_lamb_update_phase1(weight, grad, mean, var, weight32, t=1, wd=0.0)
    >>> outs = out.eval(weight=mx.nd.array([1.0, 2.0], dtype='float16'),
    ... grad=mx.nd.array([0.5, -1.0], dtype='float16'), mean=mx.nd.array([0.0, 0.0]),
    ... var=mx.nd.array([0.0, 0.0]), weight32=mx.nd.array([1.0, 2.0]))
    >>> print(outs[0].asnumpy().round(4))
    [ 1. -1.]
    """,
    "mp_lamb_update_phase2": """
    >>> import cellonnx.mxnet as mx
    >>> weight, g, r1 = mx.sym.var('weight'), mx.sym.var('g'), mx.sym.var('r1')
    >>> r2, weight32 = mx.sym.var('r2'), mx.sym.var('weight32')
    >>> out = mx.sym.mp_lamb_update_phase2(weight, g, r1, r2, weight32, lr=0.1)
    >>> outs = out.eval(weight=mx.nd.array([1.0, 2.0], dtype='float16'), g=mx.nd.array([1.0, -1.0]),
    ... r1=mx.nd.array([2.0]), r2=mx.nd.array([1.0]), weight32=mx.nd.array([1.0, 2.0]))
    >>> print(outs[0].asnumpy().round(4))
    [0.8 2.2]
    """,
    "multi_sgd_update": """
    >>> import cellonnx.mxnet as mx
    >>> w1, g1, w2 = mx.sym.var('w1'), mx.sym.var('g1'), mx.sym.var('w2')
    >>> g2, = mx.sym.var('g2')
    >>> out = mx.sym.multi_sgd_update(w1, g1, w2, g2, lrs=(0.1, 0.5), wds=(0.0, 0.0), num_weights=2)
    >>> outs = out.eval(w1=mx.nd.array([1.0, 2.0]), g1=mx.nd.array([1.0, 1.0]), w2=mx.nd.array([3.0]),
    ... g2=mx.nd.array([-2.0]))
    >>> print(outs[0].asnumpy().round(4))
    [0.9 1.9]
    >>> print(outs[1].asnumpy().round(4))
    [4.]
    """,
    "multi_sgd_mom_update": """
    >>> import cellonnx.mxnet as mx
    >>> w1, g1, m1 = mx.sym.var('w1'), mx.sym.var('g1'), mx.sym.var('m1')
    >>> w2, g2, m2 = mx.sym.var('w2'), mx.sym.var('g2'), mx.sym.var('m2')
    >>> out = mx.sym.multi_sgd_mom_update(w1, g1, m1, w2, g2, m2, lrs=(0.1, 0.5),
    ... wds=(0.0, 0.0), momentum=0.9, num_weights=2)
    >>> outs = out.eval(w1=mx.nd.array([1.0, 2.0]), g1=mx.nd.array([1.0, 1.0]),
    ... m1=mx.nd.array([0.0, 0.0]), w2=mx.nd.array([3.0]), g2=mx.nd.array([-2.0]), m2=mx.nd.array([0.5]))
    >>> print(outs[0].asnumpy().round(4))
    [0.9 1.9]
    >>> print(outs[1].asnumpy().round(4))
    [4.45]
    """,
    "multi_mp_sgd_update": """
    >>> import cellonnx.mxnet as mx
    >>> w1, g1, w32_1 = mx.sym.var('w1'), mx.sym.var('g1'), mx.sym.var('w32_1')
    >>> w2, g2, w32_2 = mx.sym.var('w2'), mx.sym.var('g2'), mx.sym.var('w32_2')
    >>> out = mx.sym.multi_mp_sgd_update(w1, g1, w32_1, w2, g2, w32_2, lrs=(0.1, 0.5),
    ... wds=(0.0, 0.0), num_weights=2)
    >>> outs = out.eval(w1=mx.nd.array([1.0, 2.0], dtype='float16'), g1=mx.nd.array([1.0, 1.0],
    ... dtype='float16'), w32_1=mx.nd.array([1.0, 2.0]), w2=mx.nd.array([3.0], dtype='float16'),
    ... g2=mx.nd.array([-2.0], dtype='float16'), w32_2=mx.nd.array([3.0]))
    >>> print(outs[0].asnumpy().round(4))
    [0.9 1.9]
    >>> print(outs[1].asnumpy().round(4))
    [4.]
    """,
    "multi_mp_sgd_mom_update": """
    >>> import cellonnx.mxnet as mx
    >>> w1, g1, m1 = mx.sym.var('w1'), mx.sym.var('g1'), mx.sym.var('m1')
    >>> w32_1, w2, g2 = mx.sym.var('w32_1'), mx.sym.var('w2'), mx.sym.var('g2')
    >>> m2, w32_2 = mx.sym.var('m2'), mx.sym.var('w32_2')
    >>> out = mx.sym.multi_mp_sgd_mom_update(w1, g1, m1, w32_1, w2, g2, m2, w32_2, lrs=(0.1, 0.5),
    ... wds=(0.0, 0.0), momentum=0.9, num_weights=2)
    >>> outs = out.eval(w1=mx.nd.array([1.0, 2.0], dtype='float16'), g1=mx.nd.array([1.0, 1.0],
    ... dtype='float16'), m1=mx.nd.array([0.0, 0.0]), w32_1=mx.nd.array([1.0, 2.0]),
    ... w2=mx.nd.array([3.0], dtype='float16'), g2=mx.nd.array([-2.0], dtype='float16'),
    ... m2=mx.nd.array([0.5]), w32_2=mx.nd.array([3.0]))
    >>> print(outs[0].asnumpy().round(4))
    [0.9 1.9]
    >>> print(outs[1].asnumpy().round(4))
    [4.45]
    """,
    "preloaded_multi_sgd_update": """
    >>> import cellonnx.mxnet as mx
    >>> w1, g1, w2 = mx.sym.var('w1'), mx.sym.var('g1'), mx.sym.var('w2')
    >>> g2, lrs, wds = mx.sym.var('g2'), mx.sym.var('lrs'), mx.sym.var('wds')
    >>> out = mx.sym.preloaded_multi_sgd_update(w1, g1, w2, g2, lrs, wds, num_weights=2)
    >>> outs = out.eval(w1=mx.nd.array([1.0, 2.0]), g1=mx.nd.array([1.0, 1.0]), w2=mx.nd.array([3.0]),
    ... g2=mx.nd.array([-2.0]), lrs=mx.nd.array([0.1, 0.5]), wds=mx.nd.array([0.0, 0.0]))
    >>> print(outs[0].asnumpy().round(4))
    [0.9 1.9]
    >>> print(outs[1].asnumpy().round(4))
    [4.]
    """,
    "preloaded_multi_sgd_mom_update": """
    >>> import cellonnx.mxnet as mx
    >>> w1, g1, m1 = mx.sym.var('w1'), mx.sym.var('g1'), mx.sym.var('m1')
    >>> w2, g2, m2 = mx.sym.var('w2'), mx.sym.var('g2'), mx.sym.var('m2')
    >>> lrs, wds = mx.sym.var('lrs'), mx.sym.var('wds')
    >>> out = mx.sym.preloaded_multi_sgd_mom_update(w1, g1, m1, w2, g2, m2, lrs, wds,
    ... momentum=0.9, num_weights=2)
    >>> outs = out.eval(w1=mx.nd.array([1.0, 2.0]), g1=mx.nd.array([1.0, 1.0]),
    ... m1=mx.nd.array([0.0, 0.0]), w2=mx.nd.array([3.0]), g2=mx.nd.array([-2.0]),
    ... m2=mx.nd.array([0.5]), lrs=mx.nd.array([0.1, 0.5]), wds=mx.nd.array([0.0, 0.0]))
    >>> print(outs[0].asnumpy().round(4))
    [0.9 1.9]
    >>> print(outs[1].asnumpy().round(4))
    [4.45]
    """,
    "preloaded_multi_mp_sgd_update": """
    >>> import cellonnx.mxnet as mx
    >>> w1, g1, w32_1 = mx.sym.var('w1'), mx.sym.var('g1'), mx.sym.var('w32_1')
    >>> w2, g2, w32_2 = mx.sym.var('w2'), mx.sym.var('g2'), mx.sym.var('w32_2')
    >>> lrs, wds = mx.sym.var('lrs'), mx.sym.var('wds')
    >>> out = mx.sym.preloaded_multi_mp_sgd_update(w1, g1, w32_1, w2, g2, w32_2, lrs, wds, num_weights=2)
    >>> outs = out.eval(w1=mx.nd.array([1.0, 2.0], dtype='float16'), g1=mx.nd.array([1.0, 1.0],
    ... dtype='float16'), w32_1=mx.nd.array([1.0, 2.0]), w2=mx.nd.array([3.0], dtype='float16'),
    ... g2=mx.nd.array([-2.0], dtype='float16'), w32_2=mx.nd.array([3.0]),
    ... lrs=mx.nd.array([0.1, 0.5]), wds=mx.nd.array([0.0, 0.0]))
    >>> print(outs[0].asnumpy().round(4))
    [0.9 1.9]
    >>> print(outs[1].asnumpy().round(4))
    [4.]
    """,
    "preloaded_multi_mp_sgd_mom_update": """
    >>> import cellonnx.mxnet as mx
    >>> w1, g1, m1 = mx.sym.var('w1'), mx.sym.var('g1'), mx.sym.var('m1')
    >>> w32_1, w2, g2 = mx.sym.var('w32_1'), mx.sym.var('w2'), mx.sym.var('g2')
    >>> m2, w32_2, lrs = mx.sym.var('m2'), mx.sym.var('w32_2'), mx.sym.var('lrs')
    >>> wds, = mx.sym.var('wds')
    >>> out = mx.sym.preloaded_multi_mp_sgd_mom_update(w1, g1, m1, w32_1, w2, g2, m2, w32_2, lrs, wds,
    ... momentum=0.9, num_weights=2)
    >>> outs = out.eval(w1=mx.nd.array([1.0, 2.0], dtype='float16'), g1=mx.nd.array([1.0, 1.0],
    ... dtype='float16'), m1=mx.nd.array([0.0, 0.0]), w32_1=mx.nd.array([1.0, 2.0]),
    ... w2=mx.nd.array([3.0], dtype='float16'), g2=mx.nd.array([-2.0], dtype='float16'),
    ... m2=mx.nd.array([0.5]), w32_2=mx.nd.array([3.0]), lrs=mx.nd.array([0.1, 0.5]),
    ... wds=mx.nd.array([0.0, 0.0]))
    >>> print(outs[0].asnumpy().round(4))
    [0.9 1.9]
    >>> print(outs[1].asnumpy().round(4))
    [4.45]
    """,
    "fill_element_0index": """
    >>> import cellonnx.mxnet as mx
    >>> lhs, mhs, rhs = mx.sym.var('lhs'), mx.sym.var('mhs'), mx.sym.var('rhs')
    >>> out = mx.sym.fill_element_0index(lhs, mhs, rhs)
    >>> outs = out.eval(lhs=mx.nd.array([[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]),
    ... mhs=mx.nd.array([7.0, 8.0]), rhs=mx.nd.array([2.0, 0.0]))
    >>> print(outs[0].asnumpy().round(4))
    [[0. 0. 7.]
     [8. 0. 0.]]
    """,
    "multi_sum_sq": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> out = mx.sym.multi_sum_sq(a, b, num_arrays=2)
    >>> print(out.eval(a=mx.nd.array([1.0, 2.0]), b=mx.nd.array([0.5, -1.0]))[0].asnumpy().round(4))
    [5.   1.25]
    """,
    "multi_all_finite": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> out = mx.sym.multi_all_finite(a, b, num_arrays=2)
    >>> print(out.eval(a=mx.nd.array([1.0, 2.0]), b=mx.nd.array([0.5, -1.0]))[0].asnumpy())
    [1.]
    >>> print(out.eval(a=mx.nd.array([1.0, 2.0]), b=mx.nd.array([0.5, float('inf')]))[0].asnumpy())
    [0.]
    """,
    "multi_lars": """
    >>> import cellonnx.mxnet as mx
    >>> lrs, w_sq, g_sq = mx.sym.var('lrs'), mx.sym.var('w_sq'), mx.sym.var('g_sq')
    >>> wds = mx.sym.var('wds')
    >>> out = mx.sym.multi_lars(lrs, w_sq, g_sq, wds, eta=1.0, eps=0.0)
    >>> outs = out.eval(lrs=mx.nd.array([0.1, 0.1]), w_sq=mx.nd.array([1.0, 4.0]),
    ... g_sq=mx.nd.array([4.0, 1.0]), wds=mx.nd.array([0.0, 0.0]))
    >>> print(outs[0].asnumpy().round(4))
    [0.05 0.2 ]
    """,
    "reset_arrays": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.nd.array([1.0, 2.0]), mx.nd.array([[3.0]])
    >>> mx.sym.reset_arrays(a, b, num_arrays=2)
    []
    >>> print(a.asnumpy(), b.asnumpy())
    [0. 0.] [[0.]]
    >>> out = mx.sym.reset_arrays(mx.sym.var('a'), num_arrays=1)
    >>> out.eval(a=mx.nd.array([1.0, 2.0]))
    Traceback (most recent call last):
    ...
    cellonnx.gluon.symbol.interpreter.SymbolError: <symbol>: node 1 'reset_arrays0' (reset_arrays): ...
    """,
    "isfinite": _array_only("isfinite", "[ True  True  True False False]"),
    "isinf": _array_only("isinf", "[False False False  True False]"),
    "isnan": _array_only("isnan", "[False False False False  True]"),
    "mish": _array_only("mish", "[-0.3034  0.      0.8651     inf     nan]", rounded=True),
    "log_sigmoid": _array_only("log_sigmoid", "[-1.3133 -0.6931 -0.3133 -0.         nan]",
                                  rounded=True),
    "moveaxis": """
    >>> import cellonnx.mxnet as mx
    >>> class Net(mx.gluon.HybridBlock):
    ...     def hybrid_forward(self, F, x):
    ...         return F.moveaxis(x, 0, 2)
    >>> net = Net()
    >>> net.hybridize()
    >>> print(net(mx.nd.zeros((2, 3, 4))).shape)
    (3, 4, 2)
    >>> mx.sym.moveaxis(mx.sym.var('x'), 0, 2)
    Traceback (most recent call last):
    ...
    TypeError: mx.sym.moveaxis computes on arrays only: MXNet 1.9.1 has no moveaxis operator to put in a ...
    """,
    "empty": """
    >>> import cellonnx.mxnet as mx
    >>> class Net(mx.gluon.HybridBlock):
    ...     def hybrid_forward(self, F, x):
    ...         return x + F.empty((2, 3)).shape[1]
    >>> net = Net()
    >>> net.hybridize()
    >>> print(net(mx.nd.array([1.0, 2.0])).asnumpy())
    [4. 5.]
    """,
    "linspace": """
    >>> import cellonnx.mxnet as mx
    >>> s = mx.sym.linspace(0, 1, 5)  # a _linspace node, evaluated when the graph runs
    >>> s.infer_shape()
    ([], [(5,)], [])
    >>> print(s.eval()[0].asnumpy())
    [0.   0.25 0.5  0.75 1.  ]
    >>> print(mx.sym.linspace(1, 2, 4, endpoint=False).eval()[0].asnumpy())
    [1.   1.25 1.5  1.75]
    """,
}

UPDATE_SUMMARIES = {
    "moveaxis": "Move an axis of an array to another position (the other axes keep their order).",
    "empty": "An array of the given shape whose values are not set (cellonnx's are zeros).",
    "linspace": "Return evenly spaced numbers within a specified interval: a Symbol of MXNet's _linspace "
    "operator, ``num`` values from ``start`` to ``stop`` (``stop`` left out when ``endpoint`` is False), "
    "float32 unless ``dtype`` is given.",
}

ND_FORMS = {
    "sgd_update": """
    >>> import cellonnx.mxnet as mx
    >>> outs = [mx.nd.sgd_update(mx.nd.array([1.0, 2.0]), mx.nd.array([0.5, -1.0]), lr=0.1, wd=0.0)]
    >>> print(outs[0].asnumpy().round(4))
    [0.95 2.1 ]
    """,
    "sgd_mom_update": """
    >>> import cellonnx.mxnet as mx
    >>> outs = [mx.nd.sgd_mom_update(mx.nd.array([1.0, 2.0]), mx.nd.array([0.5, -1.0]), mx.nd.array([0.1,
    ... 0.1]), lr=0.1, momentum=0.9)]
    >>> print(outs[0].asnumpy().round(4))
    [1.04 2.19]
    """,
    "nag_mom_update": """
    >>> import cellonnx.mxnet as mx
    >>> outs = [mx.nd.nag_mom_update(mx.nd.array([1.0, 2.0]), mx.nd.array([0.5, -1.0]), mx.nd.array([0.1,
    ... 0.1]), lr=0.1, momentum=0.9)]
    >>> print(outs[0].asnumpy().round(4))
    [0.986 2.271]
    """,
    "signsgd_update": """
    >>> import cellonnx.mxnet as mx
    >>> outs = [mx.nd.signsgd_update(mx.nd.array([1.0, 2.0]), mx.nd.array([0.5, -1.0]), lr=0.1)]
    >>> print(outs[0].asnumpy().round(4))
    [0.9 2.1]
    """,
    "signum_update": """
    >>> import cellonnx.mxnet as mx
    >>> outs = [mx.nd.signum_update(mx.nd.array([1.0, 2.0]), mx.nd.array([0.5, -1.0]), mx.nd.array([0.0,
    ... 0.0]), lr=0.1, momentum=0.9)]
    >>> print(outs[0].asnumpy().round(4))
    [0.9 2.1]
    """,
    "rmsprop_update": """
    >>> import cellonnx.mxnet as mx
    >>> outs = [mx.nd.rmsprop_update(mx.nd.array([1.0, 2.0]), mx.nd.array([0.5, -1.0]), mx.nd.array([0.0,
    ... 0.0]), lr=0.01)]
    >>> print(outs[0].asnumpy().round(4))
    [0.9553 2.0447]
    """,
    "rmspropalex_update": """
    >>> import cellonnx.mxnet as mx
    >>> outs = [mx.nd.rmspropalex_update(mx.nd.array([1.0, 2.0]), mx.nd.array([0.5, -1.0]),
    ... mx.nd.array([0.0, 0.0]), mx.nd.array([0.0, 0.0]), mx.nd.array([0.0, 0.0]), lr=0.01)]
    >>> print(outs[0].asnumpy().round(4))
    [0.9541 2.0459]
    """,
    "adam_update": """
    >>> import cellonnx.mxnet as mx
    >>> outs = [mx.nd.adam_update(mx.nd.array([1.0, 2.0]), mx.nd.array([0.5, -1.0]), mx.nd.array([0.0,
    ... 0.0]), mx.nd.array([0.0, 0.0]), lr=0.1)]
    >>> print(outs[0].asnumpy().round(4))
    [0.6838 2.3162]
    """,
    "ftml_update": """
    >>> import cellonnx.mxnet as mx
    >>> outs = [mx.nd.ftml_update(mx.nd.array([1.0, 2.0]), mx.nd.array([0.5, -1.0]), mx.nd.array([0.0,
    ... 0.0]), mx.nd.array([0.0, 0.0]), mx.nd.array([0.0, 0.0]), lr=0.1, t=1)]
    >>> print(outs[0].asnumpy().round(4))
    [0.9 2.1]
    """,
    "ftrl_update": """
    >>> import cellonnx.mxnet as mx
    >>> outs = [mx.nd.ftrl_update(mx.nd.array([1.0, 2.0]), mx.nd.array([0.5, -1.0]), mx.nd.array([0.0,
    ... 0.0]), mx.nd.array([0.0, 0.0]), lr=0.1)]
    >>> print(outs[0].asnumpy().round(4))
    [0.2993 1.0495]
    """,
    "lamb_update_phase1": """
    >>> import cellonnx.mxnet as mx
    >>> outs = [mx.nd.lamb_update_phase1(mx.nd.array([1.0, 2.0]), mx.nd.array([0.5, -1.0]),
    ... mx.nd.array([0.0, 0.0]), mx.nd.array([0.0, 0.0]), t=1, wd=0.0)]
    >>> print(outs[0].asnumpy().round(4))
    [ 1. -1.]
    """,
    "lamb_update_phase2": """
    >>> import cellonnx.mxnet as mx
    >>> outs = [mx.nd.lamb_update_phase2(mx.nd.array([1.0, 2.0]), mx.nd.array([1.0, -1.0]),
    ... mx.nd.array([2.0]), mx.nd.array([1.0]), lr=0.1)]
    >>> print(outs[0].asnumpy().round(4))
    [0.8 2.2]
    """,
    "mp_sgd_update": """
    >>> import cellonnx.mxnet as mx
    >>> outs = [mx.nd.mp_sgd_update(mx.nd.array([1.0, 2.0],
    ... dtype='float16'), mx.nd.array([0.5, -1.0], dtype='float16'), mx.nd.array([1.0, 2.0]), lr=0.1)]
    >>> print(outs[0].asnumpy().round(4))
    [0.95 2.1 ]
    """,
    "mp_sgd_mom_update": """
    >>> import cellonnx.mxnet as mx
    >>> outs = [mx.nd.mp_sgd_mom_update(mx.nd.array([1.0, 2.0],
    ... dtype='float16'), mx.nd.array([0.5, -1.0],
    ... dtype='float16'), mx.nd.array([0.1, 0.1]), mx.nd.array([1.0, 2.0]), lr=0.1, momentum=0.9)]
    >>> print(outs[0].asnumpy().round(4))
    [1.04 2.19]
    """,
    "mp_nag_mom_update": """
    >>> import cellonnx.mxnet as mx
    >>> outs = [mx.nd.mp_nag_mom_update(mx.nd.array([1.0, 2.0],
    ... dtype='float16'), mx.nd.array([0.5, -1.0],
    ... dtype='float16'), mx.nd.array([0.1, 0.1]), mx.nd.array([1.0, 2.0]), lr=0.1, momentum=0.9)]
    >>> print(outs[0].asnumpy().round(4))
    [0.986 2.271]
    """,
    "mp_lamb_update_phase1": """
    >>> import cellonnx.mxnet as mx
    >>> outs = [mx.nd.mp_lamb_update_phase1(mx.nd.array([1.0, 2.0],
    ... dtype='float16'), mx.nd.array([0.5, -1.0],
    ... dtype='float16'), mx.nd.array([0.0, 0.0]), mx.nd.array([0.0, 0.0]), mx.nd.array([1.0, 2.0]),
    ... t=1, wd=0.0)]
    >>> print(outs[0].asnumpy().round(4))
    [ 1. -1.]
    """,
    "mp_lamb_update_phase2": """
    >>> import cellonnx.mxnet as mx
    >>> outs = [mx.nd.mp_lamb_update_phase2(mx.nd.array([1.0, 2.0],
    ... dtype='float16'), mx.nd.array([1.0, -1.0]), mx.nd.array([2.0]), mx.nd.array([1.0]),
    ... mx.nd.array([1.0, 2.0]), lr=0.1)]
    >>> print(outs[0].asnumpy().round(4))
    [0.8 2.2]
    """,
    "multi_sgd_update": """
    >>> import cellonnx.mxnet as mx
    >>> w1 = mx.nd.array([1.0, 2.0])
    >>> g1 = mx.nd.array([1.0, 1.0])
    >>> w2 = mx.nd.array([3.0])
    >>> g2 = mx.nd.array([-2.0])
    >>> _ = mx.nd.multi_sgd_update(w1, g1, w2, g2, lrs=(0.1, 0.5), wds=(0.0, 0.0), num_weights=2,
    ... out=[w1, w2])
    >>> outs = [w1, w2]
    >>> print(outs[0].asnumpy().round(4))
    [0.9 1.9]
    >>> print(outs[1].asnumpy().round(4))
    [4.]
    """,
    "multi_sgd_mom_update": """
    >>> import cellonnx.mxnet as mx
    >>> w1 = mx.nd.array([1.0, 2.0])
    >>> g1 = mx.nd.array([1.0, 1.0])
    >>> m1 = mx.nd.array([0.0, 0.0])
    >>> w2 = mx.nd.array([3.0])
    >>> g2 = mx.nd.array([-2.0])
    >>> m2 = mx.nd.array([0.5])
    >>> _ = mx.nd.multi_sgd_mom_update(w1, g1, m1, w2, g2, m2, lrs=(0.1, 0.5), wds=(0.0, 0.0),
    ... momentum=0.9, num_weights=2, out=[w1, w2])
    >>> outs = [w1, w2]
    >>> print(outs[0].asnumpy().round(4))
    [0.9 1.9]
    >>> print(outs[1].asnumpy().round(4))
    [4.45]
    """,
    "multi_mp_sgd_update": """
    >>> import cellonnx.mxnet as mx
    >>> w1 = mx.nd.array([1.0, 2.0], dtype='float16')
    >>> g1 = mx.nd.array([1.0, 1.0], dtype='float16')
    >>> w32_1 = mx.nd.array([1.0, 2.0])
    >>> w2 = mx.nd.array([3.0], dtype='float16')
    >>> g2 = mx.nd.array([-2.0], dtype='float16')
    >>> w32_2 = mx.nd.array([3.0])
    >>> _ = mx.nd.multi_mp_sgd_update(w1, g1, w32_1, w2, g2, w32_2, lrs=(0.1, 0.5),
    ... wds=(0.0, 0.0), num_weights=2, out=[w1, w2])
    >>> outs = [w1, w2]
    >>> print(outs[0].asnumpy().round(4))
    [0.9 1.9]
    >>> print(outs[1].asnumpy().round(4))
    [4.]
    """,
    "multi_mp_sgd_mom_update": """
    >>> import cellonnx.mxnet as mx
    >>> w1 = mx.nd.array([1.0, 2.0], dtype='float16')
    >>> g1 = mx.nd.array([1.0, 1.0], dtype='float16')
    >>> m1 = mx.nd.array([0.0, 0.0])
    >>> w32_1 = mx.nd.array([1.0, 2.0])
    >>> w2 = mx.nd.array([3.0], dtype='float16')
    >>> g2 = mx.nd.array([-2.0], dtype='float16')
    >>> m2 = mx.nd.array([0.5])
    >>> w32_2 = mx.nd.array([3.0])
    >>> _ = mx.nd.multi_mp_sgd_mom_update(w1, g1, m1, w32_1, w2, g2, m2, w32_2, lrs=(0.1, 0.5),
    ... wds=(0.0, 0.0), momentum=0.9, num_weights=2, out=[w1, w2])
    >>> outs = [w1, w2]
    >>> print(outs[0].asnumpy().round(4))
    [0.9 1.9]
    >>> print(outs[1].asnumpy().round(4))
    [4.45]
    """,
    "preloaded_multi_sgd_update": """
    >>> import cellonnx.mxnet as mx
    >>> w1 = mx.nd.array([1.0, 2.0])
    >>> g1 = mx.nd.array([1.0, 1.0])
    >>> w2 = mx.nd.array([3.0])
    >>> g2 = mx.nd.array([-2.0])
    >>> lrs = mx.nd.array([0.1, 0.5])
    >>> wds = mx.nd.array([0.0, 0.0])
    >>> _ = mx.nd.preloaded_multi_sgd_update(w1, g1, w2, g2, lrs, wds, num_weights=2, out=[w1, w2])
    >>> outs = [w1, w2]
    >>> print(outs[0].asnumpy().round(4))
    [0.9 1.9]
    >>> print(outs[1].asnumpy().round(4))
    [4.]
    """,
    "preloaded_multi_sgd_mom_update": """
    >>> import cellonnx.mxnet as mx
    >>> w1 = mx.nd.array([1.0, 2.0])
    >>> g1 = mx.nd.array([1.0, 1.0])
    >>> m1 = mx.nd.array([0.0, 0.0])
    >>> w2 = mx.nd.array([3.0])
    >>> g2 = mx.nd.array([-2.0])
    >>> m2 = mx.nd.array([0.5])
    >>> lrs = mx.nd.array([0.1, 0.5])
    >>> wds = mx.nd.array([0.0, 0.0])
    >>> _ = mx.nd.preloaded_multi_sgd_mom_update(w1, g1, m1, w2, g2, m2, lrs, wds,
    ... momentum=0.9, num_weights=2, out=[w1, w2])
    >>> outs = [w1, w2]
    >>> print(outs[0].asnumpy().round(4))
    [0.9 1.9]
    >>> print(outs[1].asnumpy().round(4))
    [4.45]
    """,
    "preloaded_multi_mp_sgd_update": """
    >>> import cellonnx.mxnet as mx
    >>> w1 = mx.nd.array([1.0, 2.0], dtype='float16')
    >>> g1 = mx.nd.array([1.0, 1.0], dtype='float16')
    >>> w32_1 = mx.nd.array([1.0, 2.0])
    >>> w2 = mx.nd.array([3.0], dtype='float16')
    >>> g2 = mx.nd.array([-2.0], dtype='float16')
    >>> w32_2 = mx.nd.array([3.0])
    >>> lrs = mx.nd.array([0.1, 0.5])
    >>> wds = mx.nd.array([0.0, 0.0])
    >>> _ = mx.nd.preloaded_multi_mp_sgd_update(w1, g1, w32_1, w2, g2, w32_2, lrs, wds,
    ... num_weights=2, out=[w1, w2])
    >>> outs = [w1, w2]
    >>> print(outs[0].asnumpy().round(4))
    [0.9 1.9]
    >>> print(outs[1].asnumpy().round(4))
    [4.]
    """,
    "preloaded_multi_mp_sgd_mom_update": """
    >>> import cellonnx.mxnet as mx
    >>> w1 = mx.nd.array([1.0, 2.0], dtype='float16')
    >>> g1 = mx.nd.array([1.0, 1.0], dtype='float16')
    >>> m1 = mx.nd.array([0.0, 0.0])
    >>> w32_1 = mx.nd.array([1.0, 2.0])
    >>> w2 = mx.nd.array([3.0], dtype='float16')
    >>> g2 = mx.nd.array([-2.0], dtype='float16')
    >>> m2 = mx.nd.array([0.5])
    >>> w32_2 = mx.nd.array([3.0])
    >>> lrs = mx.nd.array([0.1, 0.5])
    >>> wds = mx.nd.array([0.0, 0.0])
    >>> _ = mx.nd.preloaded_multi_mp_sgd_mom_update(w1, g1, m1, w32_1, w2, g2, m2, w32_2, lrs, wds,
    ... momentum=0.9, num_weights=2, out=[w1, w2])
    >>> outs = [w1, w2]
    >>> print(outs[0].asnumpy().round(4))
    [0.9 1.9]
    >>> print(outs[1].asnumpy().round(4))
    [4.45]
    """,
    "fill_element_0index": """
    >>> import cellonnx.mxnet as mx
    >>> outs = [mx.nd.fill_element_0index(mx.nd.array([[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]),
    ... mx.nd.array([7.0, 8.0]), mx.nd.array([2.0, 0.0]))]
    >>> print(outs[0].asnumpy().round(4))
    [[0. 0. 7.]
     [8. 0. 0.]]
    """,
}
