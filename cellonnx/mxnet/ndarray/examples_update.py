"""Docstring examples of mx.nd's optimizer update operators,
and the descriptions of those whose implementation has none (checked against MXNet 1.9.1 by
tests/docs/mxnet_crosscheck.py)."""
from __future__ import annotations

EXAMPLES = {
    "sgd_update": """
    >>> from cellonnx.mxnet import nd
    >>> weight = nd.array([1.0, 2.0])
    >>> grad = nd.array([0.5, -1.0])
    >>> _ = nd.sgd_update(weight, grad, lr=0.1, wd=0.0, out=weight)
    >>> print(weight)
    <BLANKLINE>
    [0.95 2.1 ]
    <NDArray 2 @cpu(0)>
    """,
    "sgd_mom_update": """
    >>> from cellonnx.mxnet import nd
    >>> weight = nd.array([1.0, 2.0])
    >>> grad = nd.array([0.5, -1.0])
    >>> mom = nd.array([0.1, 0.1])
    >>> _ = nd.sgd_mom_update(weight, grad, mom, lr=0.1, momentum=0.9, out=weight)
    >>> print(weight)
    <BLANKLINE>
    [1.04 2.19]
    <NDArray 2 @cpu(0)>
    >>> print(mom)
    <BLANKLINE>
    [0.04 0.19]
    <NDArray 2 @cpu(0)>
    """,
    "nag_mom_update": """
    >>> from cellonnx.mxnet import nd
    >>> weight = nd.array([1.0, 2.0])
    >>> grad = nd.array([0.5, -1.0])
    >>> mom = nd.array([0.1, 0.1])
    >>> _ = nd.nag_mom_update(weight, grad, mom, lr=0.1, momentum=0.9, out=weight)
    >>> print(weight)
    <BLANKLINE>
    [0.986 2.271]
    <NDArray 2 @cpu(0)>
    >>> print(mom)
    <BLANKLINE>
    [0.04 0.19]
    <NDArray 2 @cpu(0)>
    """,
    "signsgd_update": """
    >>> from cellonnx.mxnet import nd
    >>> weight = nd.array([1.0, 2.0])
    >>> grad = nd.array([0.5, -1.0])
    >>> _ = nd.signsgd_update(weight, grad, lr=0.1, out=weight)
    >>> print(weight)
    <BLANKLINE>
    [0.9 2.1]
    <NDArray 2 @cpu(0)>
    """,
    "signum_update": """
    >>> from cellonnx.mxnet import nd
    >>> weight = nd.array([1.0, 2.0])
    >>> grad = nd.array([0.5, -1.0])
    >>> mom = nd.zeros((2,))
    >>> _ = nd.signum_update(weight, grad, mom, lr=0.1, momentum=0.9, out=weight)
    >>> print(weight)
    <BLANKLINE>
    [0.9 2.1]
    <NDArray 2 @cpu(0)>
    >>> print(mom)
    <BLANKLINE>
    [-0.05000001  0.10000002]
    <NDArray 2 @cpu(0)>
    """,
    "adam_update": """
    >>> from cellonnx.mxnet import nd
    >>> weight = nd.array([1.0, 2.0])
    >>> grad = nd.array([0.5, -1.0])
    >>> mean = nd.zeros((2,))
    >>> var = nd.zeros((2,))
    >>> _ = nd.adam_update(weight, grad, mean, var, lr=0.1, out=weight)
    >>> print(weight.asnumpy().round(4))
    [0.6838 2.3162]
    >>> print(mean.asnumpy().round(4))
    [ 0.05 -0.1 ]
    >>> print(var.asnumpy().round(6))
    [0.00025 0.001  ]
    """,
    "rmsprop_update": """
    >>> from cellonnx.mxnet import nd
    >>> weight = nd.array([1.0, 2.0])
    >>> grad = nd.array([0.5, -1.0])
    >>> n = nd.zeros((2,))
    >>> _ = nd.rmsprop_update(weight, grad, n, lr=0.1, gamma1=0.9, out=weight)
    >>> print(weight.asnumpy().round(4))
    [0.6838 2.3162]
    >>> print(n.asnumpy().round(4))
    [0.025 0.1  ]
    """,
    "rmspropalex_update": """
    >>> from cellonnx.mxnet import nd
    >>> weight = nd.array([1.0, 2.0])
    >>> grad = nd.array([0.5, -1.0])
    >>> n = nd.zeros((2,))
    >>> g = nd.zeros((2,))
    >>> delta = nd.zeros((2,))
    >>> _ = nd.rmspropalex_update(weight, grad, n, g, delta, lr=0.1, out=weight)
    >>> print(weight.asnumpy().round(4))
    [0.5412 2.4588]
    >>> print(n)
    <BLANKLINE>
    [0.0125     0.05000001]
    <NDArray 2 @cpu(0)>
    >>> print(g)
    <BLANKLINE>
    [ 0.02500001 -0.05000001]
    <NDArray 2 @cpu(0)>
    """,
    "ftml_update": """
    >>> from cellonnx.mxnet import nd
    >>> weight = nd.array([1.0, 2.0])
    >>> grad = nd.array([0.5, -1.0])
    >>> d = nd.zeros((2,))
    >>> v = nd.zeros((2,))
    >>> z = nd.zeros((2,))
    >>> _ = nd.ftml_update(weight, grad, d, v, z, lr=0.1, t=1, out=weight)
    >>> print(weight.asnumpy().round(4))
    [0.9 2.1]
    """,
    "ftrl_update": """
    >>> from cellonnx.mxnet import nd
    >>> weight = nd.array([1.0, 2.0])
    >>> grad = nd.array([0.5, -1.0])
    >>> z = nd.zeros((2,))
    >>> n = nd.zeros((2,))
    >>> _ = nd.ftrl_update(weight, grad, z, n, lr=0.1, out=weight)
    >>> print(weight.asnumpy().round(4))
    [0.2993 1.0495]
    >>> print(z.asnumpy().round(4))
    [ -4.5 -21. ]
    >>> print(n)
    <BLANKLINE>
    [0.25 1.  ]
    <NDArray 2 @cpu(0)>
    """,
    "lamb_update_phase1": """
    >>> from cellonnx.mxnet import nd
    >>> weight = nd.array([1.0, 2.0])
    >>> grad = nd.array([0.5, -1.0])
    >>> mean = nd.zeros((2,))
    >>> var = nd.zeros((2,))
    >>> g = nd.lamb_update_phase1(weight, grad, mean, var, t=1, wd=0.0)
    >>> print(g.asnumpy().round(4))
    [ 1. -1.]
    >>> print(mean)
    <BLANKLINE>
    [ 0.05000001 -0.10000002]
    <NDArray 2 @cpu(0)>
    """,
    "lamb_update_phase2": """
    >>> from cellonnx.mxnet import nd
    >>> weight = nd.array([1.0, 2.0])
    >>> grad = nd.array([0.5, -1.0])
    >>> g = nd.array([1.0, -1.0])
    >>> r1 = nd.norm(weight)
    >>> r2 = nd.norm(g)
    >>> nd.lamb_update_phase2(weight, g, r1, r2, lr=0.1, out=weight)
    <BLANKLINE>
    [0.8418861 2.158114 ]
    <NDArray 2 @cpu(0)>
    >>> print(weight.asnumpy().round(4))
    [0.8419 2.1581]
    """,
    "mp_lamb_update_phase1": """
    >>> from cellonnx.mxnet import nd
    >>> weight = nd.array([1.0, 2.0], dtype='float16')
    >>> grad = nd.array([0.5, -1.0], dtype='float16')
    >>> mean = nd.zeros((2,))
    >>> var = nd.zeros((2,))
    >>> weight32 = weight.astype('float32')
    >>> g = nd.mp_lamb_update_phase1(weight, grad, mean, var, weight32, t=1, wd=0.0)
    >>> print(g.asnumpy().round(4))
    [ 1. -1.]
    >>> g.dtype
    <class 'numpy.float32'>
    """,
    "mp_lamb_update_phase2": """
    >>> from cellonnx.mxnet import nd
    >>> weight = nd.array([1.0, 2.0], dtype='float16')
    >>> weight32 = weight.astype('float32')
    >>> g = nd.array([1.0, -1.0])
    >>> r1 = nd.norm(weight32)
    >>> r2 = nd.norm(g)
    >>> nd.mp_lamb_update_phase2(weight, g, r1, r2, weight32, lr=0.1, out=weight)
    <BLANKLINE>
    [0.842 2.158]
    <NDArray 2 @cpu(0)>
    >>> print(weight.asnumpy().round(3))
    [0.842 2.158]
    >>> print(weight32.asnumpy().round(4))
    [1. 2.]
    """,
    "mp_sgd_update": """
    >>> from cellonnx.mxnet import nd
    >>> weight = nd.array([1.0, 2.0], dtype='float16')
    >>> grad = nd.array([0.5, -1.0], dtype='float16')
    >>> weight32 = weight.astype('float32')
    >>> _ = nd.mp_sgd_update(weight, grad, weight32, lr=0.1, out=weight)
    >>> print(weight)
    <BLANKLINE>
    [0.95 2.1 ]
    <NDArray 2 @cpu(0)>
    >>> print(weight32)
    <BLANKLINE>
    [0.95 2.1 ]
    <NDArray 2 @cpu(0)>
    """,
    "mp_sgd_mom_update": """
    >>> from cellonnx.mxnet import nd
    >>> weight = nd.array([1.0, 2.0], dtype='float16')
    >>> grad = nd.array([0.5, -1.0], dtype='float16')
    >>> weight32 = weight.astype('float32')
    >>> mom = nd.zeros((2,))
    >>> _ = nd.mp_sgd_mom_update(weight, grad, mom, weight32, lr=0.1, momentum=0.9, out=weight)
    >>> print(weight32)
    <BLANKLINE>
    [0.95 2.1 ]
    <NDArray 2 @cpu(0)>
    >>> print(mom)
    <BLANKLINE>
    [-0.05  0.1 ]
    <NDArray 2 @cpu(0)>
    """,
    "mp_nag_mom_update": """
    >>> from cellonnx.mxnet import nd
    >>> weight = nd.array([1.0, 2.0], dtype='float16')
    >>> grad = nd.array([0.5, -1.0], dtype='float16')
    >>> weight32 = weight.astype('float32')
    >>> mom = nd.zeros((2,))
    >>> _ = nd.mp_nag_mom_update(weight, grad, mom, weight32, lr=0.1, momentum=0.9, out=weight)
    >>> print(weight32.asnumpy().round(4))
    [0.905 2.19 ]
    >>> print(mom)
    <BLANKLINE>
    [-0.05  0.1 ]
    <NDArray 2 @cpu(0)>
    """,
    "multi_sgd_update": """
    >>> from cellonnx.mxnet import nd
    >>> w1, g1 = nd.array([1.0, 2.0]), nd.array([1.0, 1.0])
    >>> w2, g2 = nd.array([3.0]), nd.array([-2.0])
    >>> _ = nd.multi_sgd_update(w1, g1, w2, g2, lrs=(0.1, 0.5), wds=(0.0, 0.0), num_weights=2, out=[w1, w2])
    >>> print(w1)
    <BLANKLINE>
    [0.9 1.9]
    <NDArray 2 @cpu(0)>
    >>> print(w2)
    <BLANKLINE>
    [4.]
    <NDArray 1 @cpu(0)>
    """,
    "multi_sgd_mom_update": """
    >>> from cellonnx.mxnet import nd
    >>> w1, g1, m1 = nd.array([1.0, 2.0]), nd.array([1.0, 1.0]), nd.zeros((2,))
    >>> w2, g2, m2 = nd.array([3.0]), nd.array([-2.0]), nd.zeros((1,))
    >>> _ = nd.multi_sgd_mom_update(w1, g1, m1, w2, g2, m2, lrs=(0.1, 0.5), wds=(0.0, 0.0), momentum=0.9,
    ...                         num_weights=2, out=[w1, w2])
    >>> print(w1)
    <BLANKLINE>
    [0.9 1.9]
    <NDArray 2 @cpu(0)>
    >>> print(m2)
    <BLANKLINE>
    [1.]
    <NDArray 1 @cpu(0)>
    """,
    "multi_mp_sgd_update": """
    >>> from cellonnx.mxnet import nd
    >>> w = nd.array([1.0, 2.0], dtype='float16')
    >>> g = nd.array([1.0, 1.0], dtype='float16')
    >>> w32 = w.astype('float32')
    >>> _ = nd.multi_mp_sgd_update(w, g, w32, lrs=(0.1,), wds=(0.0,), num_weights=1, out=[w])
    >>> print(w32)
    <BLANKLINE>
    [0.9 1.9]
    <NDArray 2 @cpu(0)>
    """,
    "multi_mp_sgd_mom_update": """
    >>> from cellonnx.mxnet import nd
    >>> w = nd.array([1.0, 2.0], dtype='float16')
    >>> g = nd.array([1.0, 1.0], dtype='float16')
    >>> m = nd.zeros((2,))
    >>> w32 = w.astype('float32')
    >>> _ = nd.multi_mp_sgd_mom_update(w, g, m, w32, lrs=(0.1,), wds=(0.0,), momentum=0.9, num_weights=1,
    ...                                out=[w])
    >>> print(w32)
    <BLANKLINE>
    [0.9 1.9]
    <NDArray 2 @cpu(0)>
    >>> print(m)
    <BLANKLINE>
    [-0.1 -0.1]
    <NDArray 2 @cpu(0)>
    """,
    "preloaded_multi_sgd_update": """
    >>> from cellonnx.mxnet import nd
    >>> w1, g1 = nd.array([1.0, 2.0]), nd.array([1.0, 1.0])
    >>> w2, g2 = nd.array([3.0]), nd.array([-2.0])
    >>> lrs, wds = nd.array([0.1, 0.5]), nd.array([0.0, 0.0])
    >>> _ = nd.preloaded_multi_sgd_update(w1, g1, w2, g2, lrs, wds, num_weights=2, out=[w1, w2])
    >>> print(w1)
    <BLANKLINE>
    [0.9 1.9]
    <NDArray 2 @cpu(0)>
    >>> print(w2)
    <BLANKLINE>
    [4.]
    <NDArray 1 @cpu(0)>
    """,
    "preloaded_multi_sgd_mom_update": """
    >>> from cellonnx.mxnet import nd
    >>> w1, g1, m1 = nd.array([1.0, 2.0]), nd.array([1.0, 1.0]), nd.zeros((2,))
    >>> lrs, wds = nd.array([0.1]), nd.array([0.0])
    >>> _ = nd.preloaded_multi_sgd_mom_update(w1, g1, m1, lrs, wds, momentum=0.9, num_weights=1, out=[w1])
    >>> print(w1)
    <BLANKLINE>
    [0.9 1.9]
    <NDArray 2 @cpu(0)>
    >>> print(m1)
    <BLANKLINE>
    [-0.1 -0.1]
    <NDArray 2 @cpu(0)>
    """,
    "preloaded_multi_mp_sgd_update": """
    >>> from cellonnx.mxnet import nd
    >>> w = nd.array([1.0, 2.0], dtype='float16')
    >>> g = nd.array([1.0, 1.0], dtype='float16')
    >>> w32 = w.astype('float32')
    >>> lrs, wds = nd.array([0.1]), nd.array([0.0])
    >>> _ = nd.preloaded_multi_mp_sgd_update(w, g, w32, lrs, wds, num_weights=1, out=[w])
    >>> print(w32)
    <BLANKLINE>
    [0.9 1.9]
    <NDArray 2 @cpu(0)>
    """,
    "preloaded_multi_mp_sgd_mom_update": """
    >>> from cellonnx.mxnet import nd
    >>> w = nd.array([1.0, 2.0], dtype='float16')
    >>> g = nd.array([1.0, 1.0], dtype='float16')
    >>> m = nd.zeros((2,))
    >>> w32 = w.astype('float32')
    >>> lrs, wds = nd.array([0.1]), nd.array([0.0])
    >>> _ = nd.preloaded_multi_mp_sgd_mom_update(w, g, m, w32, lrs, wds, momentum=0.9, num_weights=1, out=[w])
    >>> print(w32)
    <BLANKLINE>
    [0.9 1.9]
    <NDArray 2 @cpu(0)>
    >>> print(m)
    <BLANKLINE>
    [-0.1 -0.1]
    <NDArray 2 @cpu(0)>
    """,
    "multi_sum_sq": """
    >>> from cellonnx.mxnet import nd
    >>> a = nd.array([1.0, 2.0])
    >>> b = nd.array([[3.0], [4.0]])
    >>> print(nd.multi_sum_sq(a, b, num_arrays=2))
    <BLANKLINE>
    [ 5. 25.]
    <NDArray 2 @cpu(0)>
    """,
    "multi_lars": """
    >>> from cellonnx.mxnet import nd
    >>> lrs = nd.array([0.1, 0.1])
    >>> w_sq = nd.array([4.0, 1.0])
    >>> g_sq = nd.array([1.0, 0.0])
    >>> wds = nd.array([0.0, 0.0])
    >>> print(nd.multi_lars(lrs, w_sq, g_sq, wds, eta=0.5, eps=0.0))
    <BLANKLINE>
    [0.1 0.1]
    <NDArray 2 @cpu(0)>
    """,
    "all_finite": """
    >>> from cellonnx.mxnet import nd
    >>> print(nd.all_finite(nd.array([1.0, 2.0])))
    <BLANKLINE>
    [1.]
    <NDArray 1 @cpu(0)>
    >>> print(nd.all_finite(nd.array([1.0, float('inf')])))
    <BLANKLINE>
    [0.]
    <NDArray 1 @cpu(0)>
    """,
    "multi_all_finite": """
    >>> from cellonnx.mxnet import nd
    >>> a = nd.array([1.0, 2.0])
    >>> b = nd.array([float('nan')])
    >>> print(nd.multi_all_finite(a, a, num_arrays=2))
    <BLANKLINE>
    [1.]
    <NDArray 1 @cpu(0)>
    >>> print(nd.multi_all_finite(a, b, num_arrays=2))
    <BLANKLINE>
    [0.]
    <NDArray 1 @cpu(0)>
    """,
    "reset_arrays": """
    >>> from cellonnx.mxnet import nd
    >>> a = nd.array([1.0, 2.0])
    >>> b = nd.array([[3.0]])
    >>> nd.reset_arrays(a, b, num_arrays=2)
    []
    >>> print(a)
    <BLANKLINE>
    [0. 0.]
    <NDArray 2 @cpu(0)>
    >>> print(b)
    <BLANKLINE>
    [[0.]]
    <NDArray 1x1 @cpu(0)>
    """,
}

# the descriptions of the operators whose implementation has none
SUMMARIES = {
}
