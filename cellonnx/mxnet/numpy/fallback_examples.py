"""The docstring examples of mx.np's NumPy-run functions (cellonnx/mxnet/numpy/fallback.py): MXNet's calls,
as an MXNet user writes them."""
from __future__ import annotations

EXAMPLES = {
    "allclose": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> np.allclose(np.array([1.0, 2.0]), np.array([1.0, 2.000001]))
    True
    """,
    "alltrue": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.alltrue(np.array([1.0, 2.0])))
    True
    """,
    "argpartition": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.argpartition(np.array([3.0, 1.0, 2.0]), 1)[1])
    2
    """,
    "compress": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.compress([True, False, True], np.array([1.0, 2.0, 3.0])))
    [1. 3.]
    """,
    "extract": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> x = np.array([1.0, -2.0, 3.0])
    >>> print(np.extract(x > 0, x))
    [1. 3.]
    """,
    "flatnonzero": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.flatnonzero(np.array([[0.0, 1.0], [2.0, 0.0]])))
    [1 2]
    """,
    "frexp": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> m, e = np.frexp(np.array([8.0, 3.0]))
    >>> print(m, e)
    [0.5  0.75] [4 2]
    """,
    "i0": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.i0(np.array([0.0])))
    [0.99999994]
    """,
    "in1d": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.in1d(np.array([1.0, 2.0, 3.0]), np.array([2.0])))
    [False  True False]
    """,
    "ix_": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> rows, cols = np.ix_(np.array([0, 1], dtype='int64'), np.array([2], dtype='int64'))
    >>> print(rows.shape, cols.shape)
    (2, 1) (1, 1)
    """,
    "lexsort": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.lexsort((np.array([1.0, 2.0, 0.0]), np.array([1.0, 1.0, 2.0]))))
    [0 1 2]
    """,
    "min_scalar_type": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> np.min_scalar_type(10)
    dtype('uint8')
    """,
    "modf": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> frac, whole = np.modf(np.array([1.5, -2.25]))
    >>> print(frac, whole)
    [ 0.5  -0.25] [ 1. -2.]
    """,
    "msort": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.msort(np.array([[3.0, 1.0], [1.0, 2.0]])))
    [[1. 1.]
     [3. 2.]]
    """,
    "nanargmax": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.nanargmax(np.array([1.0, np.nan, 3.0])))
    2
    """,
    "nanargmin": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.nanargmin(np.array([1.0, np.nan, 0.5])))
    2
    """,
    "nancumprod": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.nancumprod(np.array([2.0, np.nan, 3.0])))
    [2. 2. 6.]
    """,
    "nanmedian": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.nanmedian(np.array([1.0, np.nan, 3.0])))
    2.0
    """,
    "nanpercentile": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.nanpercentile(np.array([1.0, np.nan, 3.0]), 50))
    2.0
    """,
    "nanprod": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.nanprod(np.array([2.0, np.nan, 3.0])))
    6.0
    """,
    "nanquantile": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.nanquantile(np.array([1.0, np.nan, 3.0]), 0.5))
    2.0
    """,
    "packbits": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.packbits(np.array([1, 0, 1], dtype='uint8')))
    [160]
    """,
    "partition": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.partition(np.array([3.0, 1.0, 2.0]), 1)[1])
    2.0
    """,
    "poly": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.poly(np.array([1.0, 2.0])))
    [ 1. -3.  2.]
    """,
    "polydiv": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> q, r = np.polydiv(np.array([1.0, -3.0, 2.0]), np.array([1.0, -1.0]))
    >>> print(q, r)
    [ 1. -2.] [0.]
    """,
    "polyfit": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> x = np.array([0.0, 1.0, 2.0])
    >>> print(np.polyfit(x, 2 * x + 1, 1).round(6))
    [2. 1.]
    """,
    "real": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.real(np.array([1.0, 2.0])))
    [1. 2.]
    """,
    "roots": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.roots(np.array([1.0, -3.0, 2.0])))
    [2. 1.]
    """,
    "setxor1d": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.setxor1d(np.array([1.0, 2.0, 3.0]), np.array([2.0, 4.0])))
    [1. 3. 4.]
    """,
    "spacing": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.spacing(np.array([1.0]))[0] > 0)
    True
    """,
    "trapz": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.trapz(np.array([1.0, 2.0, 3.0])))
    4.0
    """,
    "trim_zeros": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.trim_zeros(np.array([0.0, 1.0, 2.0, 0.0])))
    [1. 2.]
    """,
    "union1d": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.union1d(np.array([1.0, 3.0]), np.array([2.0, 3.0])))
    [1. 2. 3.]
    """,
    "unpackbits": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> print(np.unpackbits(np.array([5], dtype='uint8')))
    [0 0 0 0 0 1 0 1]
    """,
    "mirr": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> try:
    ...     np.mirr([-100.0, 50.0, 60.0], 0.1, 0.1)
    ... except RuntimeError as exc:
    ...     print(str(exc).split(' was')[0])
    In accordance with NEP 32, the function mirr
    """,
    "npv": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> try:
    ...     np.npv(0.1, [-100.0, 50.0, 60.0])
    ... except RuntimeError as exc:
    ...     print(str(exc).split(' was')[0])
    In accordance with NEP 32, the function npv
    """,
    "ppmt": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> try:
    ...     np.ppmt(0.1, 1, 2, 100.0)
    ... except RuntimeError as exc:
    ...     print(str(exc).split(' was')[0])
    In accordance with NEP 32, the function ppmt
    """,
    "pv": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> try:
    ...     np.pv(0.1, 2, -10.0)
    ... except RuntimeError as exc:
    ...     print(str(exc).split(' was')[0])
    In accordance with NEP 32, the function pv
    """,
    "rate": """
    >>> from cellonnx.mxnet import np, npx
    >>> npx.set_np()
    >>> try:
    ...     np.rate(2, -10.0, 15.0, 0.0)
    ... except RuntimeError as exc:
    ...     print(str(exc).split(' was')[0])
    In accordance with NEP 32, the function rate
    """,
}
