"""Docstring examples of mx.nd's elementwise math, arithmetic, comparisons and reductions,
and the descriptions of those whose implementation has none (checked against MXNet 1.9.1 by
tests/docs/mxnet_crosscheck.py)."""
from __future__ import annotations

EXAMPLES = {
    "arccos": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([-1.0, 0.0, 0.5])
    >>> print(nd.arccos(x).asnumpy().round(4))
    [3.1416 1.5708 1.0472]
    """,
    "arcsin": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([-1.0, 0.0, 0.5])
    >>> print(nd.arcsin(x).asnumpy().round(4))
    [-1.5708  0.      0.5236]
    """,
    "arctan": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([-1.0, 0.0, 1.0])
    >>> print(nd.arctan(x).asnumpy().round(4))
    [-0.7854  0.      0.7854]
    """,
    "arccosh": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([1.0, 2.0, 3.0])
    >>> print(nd.arccosh(x).asnumpy().round(4))
    [0.     1.317  1.7627]
    """,
    "arcsinh": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([-1.0, 0.0, 1.0])
    >>> print(nd.arcsinh(x).asnumpy().round(4))
    [-0.8814  0.      0.8814]
    """,
    "arctanh": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([-0.5, 0.0, 0.5])
    >>> print(nd.arctanh(x).asnumpy().round(4))
    [-0.5493  0.      0.5493]
    """,
    "cos": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([0.0, 1.0, 3.1416])
    >>> print(nd.cos(x).asnumpy().round(4))
    [ 1.      0.5403 -1.    ]
    """,
    "cosh": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([-1.0, 0.0, 1.0])
    >>> print(nd.cosh(x).asnumpy().round(4))
    [1.5431 1.     1.5431]
    """,
    "sin": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([0.0, 1.0, 1.5708])
    >>> print(nd.sin(x).asnumpy().round(4))
    [0.     0.8415 1.    ]
    """,
    "sinh": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([-1.0, 0.0, 1.0])
    >>> print(nd.sinh(x).asnumpy().round(4))
    [-1.1752  0.      1.1752]
    """,
    "tan": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([-1.0, 0.0, 1.0])
    >>> print(nd.tan(x).asnumpy().round(4))
    [-1.5574  0.      1.5574]
    """,
    "tanh": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([-1.0, 0.0, 1.0])
    >>> print(nd.tanh(x).asnumpy().round(4))
    [-0.7616  0.      0.7616]
    """,
    "erf": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([-1.0, 0.0, 0.5])
    >>> print(nd.erf(x).asnumpy().round(4))
    [-0.8427  0.      0.5205]
    """,
    "erfinv": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([-0.5, 0.0, 0.5])
    >>> print(nd.erfinv(x).asnumpy().round(4))
    [-0.4769  0.      0.4769]
    """,
    "expm1": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([-1.0, 0.0, 1e-05])
    >>> print(nd.expm1(x).asnumpy().round(4))
    [-0.6321  0.      0.    ]
    """,
    "log": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([1.0, 2.0, 10.0])
    >>> print(nd.log(x).asnumpy().round(4))
    [0.     0.6931 2.3026]
    """,
    "log10": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([1.0, 2.0, 100.0])
    >>> print(nd.log10(x).asnumpy().round(4))
    [0.    0.301 2.   ]
    """,
    "log2": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([1.0, 3.0, 8.0])
    >>> print(nd.log2(x).asnumpy().round(4))
    [0.    1.585 3.   ]
    """,
    "log1p": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([0.0, 1e-05, 1.0])
    >>> print(nd.log1p(x).asnumpy().round(4))
    [0.     0.     0.6931]
    """,
    "gamma": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([0.5, 1.0, 4.5])
    >>> print(nd.gamma(x).asnumpy().round(4))
    [ 1.7725  1.     11.6317]
    """,
    "gammaln": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([0.5, 1.0, 10.0])
    >>> print(nd.gammaln(x).asnumpy().round(4))
    [ 0.5724  0.     12.8018]
    """,
    "rsqrt": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([1.0, 4.0, 2.0])
    >>> print(nd.rsqrt(x).asnumpy().round(4))
    [1.     0.5    0.7071]
    """,
    "rcbrt": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([1.0, 8.0, 2.0])
    >>> print(nd.rcbrt(x).asnumpy().round(4))
    [1.     0.5    0.7937]
    """,
    "degrees": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([0.0, 1.5708, 3.1416])
    >>> print(nd.degrees(x).asnumpy().round(4))
    [  0.      90.0002 180.0004]
    """,
    "radians": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([0.0, 90.0, 180.0])
    >>> print(nd.radians(x).asnumpy().round(4))
    [0.     1.5708 3.1416]
    """,
    "cbrt": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([-8.0, 1.0, 27.0])
    >>> print(nd.cbrt(x))
    <BLANKLINE>
    [-2.  1.  3.]
    <NDArray 3 @cpu(0)>
    """,
    "sqrt": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([0.0, 4.0, 9.0])
    >>> print(nd.sqrt(x))
    <BLANKLINE>
    [0. 2. 3.]
    <NDArray 3 @cpu(0)>
    """,
    "reciprocal": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([-2.0, 1.0, 4.0])
    >>> print(nd.reciprocal(x))
    <BLANKLINE>
    [-0.5   1.    0.25]
    <NDArray 3 @cpu(0)>
    """,
    "negative": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([-2.0, 0.0, 1.5])
    >>> print(nd.negative(x))
    <BLANKLINE>
    [ 2.  -0.  -1.5]
    <NDArray 3 @cpu(0)>
    """,
    "sign": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([-2.0, 0.0, 1.5])
    >>> print(nd.sign(x))
    <BLANKLINE>
    [-1.  0.  1.]
    <NDArray 3 @cpu(0)>
    """,
    "ceil": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([-2.1, -1.9, 1.5, 1.9, 2.1])
    >>> print(nd.ceil(x))
    <BLANKLINE>
    [-2. -1.  2.  2.  3.]
    <NDArray 5 @cpu(0)>
    """,
    "floor": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([-2.1, -1.9, 1.5, 1.9, 2.1])
    >>> print(nd.floor(x))
    <BLANKLINE>
    [-3. -2.  1.  1.  2.]
    <NDArray 5 @cpu(0)>
    """,
    "fix": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([-2.1, -1.9, 1.9, 2.1])
    >>> print(nd.fix(x))
    <BLANKLINE>
    [-2. -1.  1.  2.]
    <NDArray 4 @cpu(0)>
    """,
    "trunc": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([-2.1, -1.9, 1.5, 1.9])
    >>> print(nd.trunc(x))
    <BLANKLINE>
    [-2. -1.  1.  1.]
    <NDArray 4 @cpu(0)>
    """,
    "rint": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([-2.5, -1.5, 0.5, 1.5, 2.5])
    >>> print(nd.rint(x))
    <BLANKLINE>
    [-3. -2.  0.  1.  2.]
    <NDArray 5 @cpu(0)>
    """,
    "round": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([-2.5, -1.5, 0.5, 1.5, 2.1])
    >>> print(nd.round(x))
    <BLANKLINE>
    [-3. -2.  1.  2.  2.]
    <NDArray 5 @cpu(0)>
    """,
    "isfinite": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([1.0, float('inf'), float('nan')])
    >>> print(nd.isfinite(x))
    <BLANKLINE>
    [ True False False]
    <NDArray 3 @cpu(0)>
    """,
    "isinf": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([1.0, float('-inf'), float('nan')])
    >>> print(nd.isinf(x))
    <BLANKLINE>
    [False  True False]
    <NDArray 3 @cpu(0)>
    """,
    "isnan": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([1.0, float('inf'), float('nan')])
    >>> print(nd.isnan(x))
    <BLANKLINE>
    [False False  True]
    <NDArray 3 @cpu(0)>
    """,
    "identity": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([1.0, 2.0])
    >>> print(nd.identity(x))
    <BLANKLINE>
    [1. 2.]
    <NDArray 2 @cpu(0)>
    """,
    "zeros_like": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([1.0, 2.0, 3.0])
    >>> print(nd.zeros_like(x))
    <BLANKLINE>
    [0. 0. 0.]
    <NDArray 3 @cpu(0)>
    """,
    "ones_like": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([1.0, 2.0, 3.0])
    >>> print(nd.ones_like(x))
    <BLANKLINE>
    [1. 1. 1.]
    <NDArray 3 @cpu(0)>
    """,
    "add": """
    >>> from cellonnx.mxnet import nd
    >>> a = nd.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> b = nd.array([[2.0, 2.0, 3.0], [1.0, 5.0, 4.0]])
    >>> print(nd.add(a, b))
    <BLANKLINE>
    [[ 3.  4.  6.]
     [ 5. 10. 10.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "sub": """
    >>> from cellonnx.mxnet import nd
    >>> a = nd.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> b = nd.array([[2.0, 2.0, 3.0], [1.0, 5.0, 4.0]])
    >>> print(nd.sub(a, b))
    <BLANKLINE>
    [[-1.  0.  0.]
     [ 3.  0.  2.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "subtract": """
    >>> from cellonnx.mxnet import nd
    >>> a = nd.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> b = nd.array([[2.0, 2.0, 3.0], [1.0, 5.0, 4.0]])
    >>> print(nd.subtract(a, b))
    <BLANKLINE>
    [[-1.  0.  0.]
     [ 3.  0.  2.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "minus": """
    >>> from cellonnx.mxnet import nd
    >>> a = nd.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> b = nd.array([[2.0, 2.0, 3.0], [1.0, 5.0, 4.0]])
    >>> print(nd.minus(a, b))
    <BLANKLINE>
    [[-1.  0.  0.]
     [ 3.  0.  2.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "plus": """
    >>> from cellonnx.mxnet import nd
    >>> a = nd.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> b = nd.array([[2.0, 2.0, 3.0], [1.0, 5.0, 4.0]])
    >>> print(nd.plus(a, b))
    <BLANKLINE>
    [[ 3.  4.  6.]
     [ 5. 10. 10.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "mul": """
    >>> from cellonnx.mxnet import nd
    >>> a = nd.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> b = nd.array([[2.0, 2.0, 3.0], [1.0, 5.0, 4.0]])
    >>> print(nd.mul(a, b))
    <BLANKLINE>
    [[ 2.  4.  9.]
     [ 4. 25. 24.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "multiply": """
    >>> from cellonnx.mxnet import nd
    >>> a = nd.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> b = nd.array([[2.0, 2.0, 3.0], [1.0, 5.0, 4.0]])
    >>> print(nd.multiply(a, b))
    <BLANKLINE>
    [[ 2.  4.  9.]
     [ 4. 25. 24.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "div": """
    >>> from cellonnx.mxnet import nd
    >>> a = nd.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> b = nd.array([[2.0, 2.0, 3.0], [1.0, 5.0, 4.0]])
    >>> print(nd.div(a, b))
    <BLANKLINE>
    [[0.5 1.  1. ]
     [4.  1.  1.5]]
    <NDArray 2x3 @cpu(0)>
    """,
    "divide": """
    >>> from cellonnx.mxnet import nd
    >>> a = nd.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> b = nd.array([[2.0, 2.0, 3.0], [1.0, 5.0, 4.0]])
    >>> print(nd.divide(a, b))
    <BLANKLINE>
    [[0.5 1.  1. ]
     [4.  1.  1.5]]
    <NDArray 2x3 @cpu(0)>
    """,
    "true_divide": """
    >>> from cellonnx.mxnet import nd
    >>> a = nd.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> b = nd.array([[2.0, 2.0, 3.0], [1.0, 5.0, 4.0]])
    >>> print(nd.true_divide(a, b))
    <BLANKLINE>
    [[0.5 1.  1. ]
     [4.  1.  1.5]]
    <NDArray 2x3 @cpu(0)>
    """,
    "mod": """
    >>> from cellonnx.mxnet import nd
    >>> a = nd.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> b = nd.array([[2.0, 2.0, 3.0], [1.0, 5.0, 4.0]])
    >>> print(nd.mod(a, b))
    <BLANKLINE>
    [[1. 0. 0.]
     [0. 0. 2.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "modulo": """
    >>> from cellonnx.mxnet import nd
    >>> a = nd.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> b = nd.array([[2.0, 2.0, 3.0], [1.0, 5.0, 4.0]])
    >>> print(nd.modulo(a, b))
    <BLANKLINE>
    [[1. 0. 0.]
     [0. 0. 2.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "power": """
    >>> from cellonnx.mxnet import nd
    >>> a = nd.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> b = nd.array([[2.0, 2.0, 3.0], [1.0, 5.0, 4.0]])
    >>> print(nd.power(a, b))
    <BLANKLINE>
    [[1.000e+00 4.000e+00 2.700e+01]
     [4.000e+00 3.125e+03 1.296e+03]]
    <NDArray 2x3 @cpu(0)>
    """,
    "minimum": """
    >>> from cellonnx.mxnet import nd
    >>> a = nd.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> b = nd.array([[2.0, 2.0, 3.0], [1.0, 5.0, 4.0]])
    >>> print(nd.minimum(a, b))
    <BLANKLINE>
    [[1. 2. 3.]
     [1. 5. 4.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "equal": """
    >>> from cellonnx.mxnet import nd
    >>> a = nd.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> b = nd.array([[2.0, 2.0, 3.0], [1.0, 5.0, 4.0]])
    >>> print(nd.equal(a, b))
    <BLANKLINE>
    [[0. 1. 1.]
     [0. 1. 0.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "not_equal": """
    >>> from cellonnx.mxnet import nd
    >>> a = nd.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> b = nd.array([[2.0, 2.0, 3.0], [1.0, 5.0, 4.0]])
    >>> print(nd.not_equal(a, b))
    <BLANKLINE>
    [[1. 0. 0.]
     [1. 0. 1.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "greater": """
    >>> from cellonnx.mxnet import nd
    >>> a = nd.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> b = nd.array([[2.0, 2.0, 3.0], [1.0, 5.0, 4.0]])
    >>> print(nd.greater(a, b))
    <BLANKLINE>
    [[0. 0. 0.]
     [1. 0. 1.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "greater_equal": """
    >>> from cellonnx.mxnet import nd
    >>> a = nd.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> b = nd.array([[2.0, 2.0, 3.0], [1.0, 5.0, 4.0]])
    >>> print(nd.greater_equal(a, b))
    <BLANKLINE>
    [[0. 1. 1.]
     [1. 1. 1.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "lesser": """
    >>> from cellonnx.mxnet import nd
    >>> a = nd.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> b = nd.array([[2.0, 2.0, 3.0], [1.0, 5.0, 4.0]])
    >>> print(nd.lesser(a, b))
    <BLANKLINE>
    [[1. 0. 0.]
     [0. 0. 0.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "lesser_equal": """
    >>> from cellonnx.mxnet import nd
    >>> a = nd.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> b = nd.array([[2.0, 2.0, 3.0], [1.0, 5.0, 4.0]])
    >>> print(nd.lesser_equal(a, b))
    <BLANKLINE>
    [[1. 1. 1.]
     [0. 1. 0.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "elemwise_sub": """
    >>> from cellonnx.mxnet import nd
    >>> a = nd.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> b = nd.array([[2.0, 2.0, 3.0], [1.0, 5.0, 4.0]])
    >>> print(nd.elemwise_sub(a, b))
    <BLANKLINE>
    [[-1.  0.  0.]
     [ 3.  0.  2.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "elemwise_mul": """
    >>> from cellonnx.mxnet import nd
    >>> a = nd.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> b = nd.array([[2.0, 2.0, 3.0], [1.0, 5.0, 4.0]])
    >>> print(nd.elemwise_mul(a, b))
    <BLANKLINE>
    [[ 2.  4.  9.]
     [ 4. 25. 24.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "elemwise_div": """
    >>> from cellonnx.mxnet import nd
    >>> a = nd.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> b = nd.array([[2.0, 2.0, 3.0], [1.0, 5.0, 4.0]])
    >>> print(nd.elemwise_div(a, b))
    <BLANKLINE>
    [[0.5 1.  1. ]
     [4.  1.  1.5]]
    <NDArray 2x3 @cpu(0)>
    """,
    "hypot": """
    >>> from cellonnx.mxnet import nd
    >>> a = nd.array([3.0, 5.0, 8.0])
    >>> b = nd.array([4.0, 12.0, 15.0])
    >>> print(nd.hypot(a, b))
    <BLANKLINE>
    [ 5. 13. 17.]
    <NDArray 3 @cpu(0)>
    """,
    "logical_and": """
    >>> from cellonnx.mxnet import nd
    >>> a = nd.array([0.0, 1.0, 2.0, 0.0])
    >>> b = nd.array([0.0, 0.0, 3.0, 4.0])
    >>> print(nd.logical_and(a, b))
    <BLANKLINE>
    [0. 0. 1. 0.]
    <NDArray 4 @cpu(0)>
    """,
    "logical_or": """
    >>> from cellonnx.mxnet import nd
    >>> a = nd.array([0.0, 1.0, 2.0, 0.0])
    >>> b = nd.array([0.0, 0.0, 3.0, 4.0])
    >>> print(nd.logical_or(a, b))
    <BLANKLINE>
    [0. 1. 1. 1.]
    <NDArray 4 @cpu(0)>
    """,
    "logical_xor": """
    >>> from cellonnx.mxnet import nd
    >>> a = nd.array([0.0, 1.0, 2.0, 0.0])
    >>> b = nd.array([0.0, 0.0, 3.0, 4.0])
    >>> print(nd.logical_xor(a, b))
    <BLANKLINE>
    [0. 1. 0. 1.]
    <NDArray 4 @cpu(0)>
    """,
    "logical_not": """
    >>> from cellonnx.mxnet import nd
    >>> print(nd.logical_not(nd.array([0.0, 1.0, -2.0])))
    <BLANKLINE>
    [1. 0. 0.]
    <NDArray 3 @cpu(0)>
    """,
    "ElementWiseSum": """
    >>> from cellonnx.mxnet import nd
    >>> a = nd.array([1.0, 2.0])
    >>> print(nd.ElementWiseSum(a, a * 2, a * 3))
    <BLANKLINE>
    [ 6. 12.]
    <NDArray 2 @cpu(0)>
    """,
    "add_n": """
    >>> from cellonnx.mxnet import nd
    >>> a = nd.array([1.0, 2.0])
    >>> print(nd.add_n(a, a * 2, a * 3))
    <BLANKLINE>
    [ 6. 12.]
    <NDArray 2 @cpu(0)>
    """,
    "broadcast_div": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> y = nd.array([[2.0], [3.0]])
    >>> print(nd.broadcast_div(x, y))
    <BLANKLINE>
    [[0.5       1.        1.5      ]
     [1.3333334 1.6666666 2.       ]]
    <NDArray 2x3 @cpu(0)>
    """,
    "broadcast_equal": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> y = nd.array([[2.0], [3.0]])
    >>> print(nd.broadcast_equal(x, y))
    <BLANKLINE>
    [[0. 1. 0.]
     [0. 0. 0.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "broadcast_greater": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> y = nd.array([[2.0], [3.0]])
    >>> print(nd.broadcast_greater(x, y))
    <BLANKLINE>
    [[0. 0. 1.]
     [1. 1. 1.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "broadcast_greater_equal": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> y = nd.array([[2.0], [3.0]])
    >>> print(nd.broadcast_greater_equal(x, y))
    <BLANKLINE>
    [[0. 1. 1.]
     [1. 1. 1.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "broadcast_lesser": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> y = nd.array([[2.0], [3.0]])
    >>> print(nd.broadcast_lesser(x, y))
    <BLANKLINE>
    [[1. 0. 0.]
     [0. 0. 0.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "broadcast_lesser_equal": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> y = nd.array([[2.0], [3.0]])
    >>> print(nd.broadcast_lesser_equal(x, y))
    <BLANKLINE>
    [[1. 1. 0.]
     [0. 0. 0.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "broadcast_maximum": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> y = nd.array([[2.0], [3.0]])
    >>> print(nd.broadcast_maximum(x, y))
    <BLANKLINE>
    [[2. 2. 3.]
     [4. 5. 6.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "broadcast_minimum": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> y = nd.array([[2.0], [3.0]])
    >>> print(nd.broadcast_minimum(x, y))
    <BLANKLINE>
    [[1. 2. 2.]
     [3. 3. 3.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "broadcast_minus": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> y = nd.array([[2.0], [3.0]])
    >>> print(nd.broadcast_minus(x, y))
    <BLANKLINE>
    [[-1.  0.  1.]
     [ 1.  2.  3.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "broadcast_mod": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> y = nd.array([[2.0], [3.0]])
    >>> print(nd.broadcast_mod(x, y))
    <BLANKLINE>
    [[1. 0. 1.]
     [1. 2. 0.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "broadcast_mul": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> y = nd.array([[2.0], [3.0]])
    >>> print(nd.broadcast_mul(x, y))
    <BLANKLINE>
    [[ 2.  4.  6.]
     [12. 15. 18.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "broadcast_not_equal": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> y = nd.array([[2.0], [3.0]])
    >>> print(nd.broadcast_not_equal(x, y))
    <BLANKLINE>
    [[1. 0. 1.]
     [1. 1. 1.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "broadcast_plus": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> y = nd.array([[2.0], [3.0]])
    >>> print(nd.broadcast_plus(x, y))
    <BLANKLINE>
    [[3. 4. 5.]
     [7. 8. 9.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "broadcast_power": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> y = nd.array([[2.0], [3.0]])
    >>> print(nd.broadcast_power(x, y))
    <BLANKLINE>
    [[  1.   4.   9.]
     [ 64. 125. 216.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "broadcast_sub": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> y = nd.array([[2.0], [3.0]])
    >>> print(nd.broadcast_sub(x, y))
    <BLANKLINE>
    [[-1.  0.  1.]
     [ 1.  2.  3.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "broadcast_hypot": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[3.0, 5.0]])
    >>> y = nd.array([[4.0], [12.0]])
    >>> print(nd.broadcast_hypot(x, y))
    <BLANKLINE>
    [[ 5.         6.4031243]
     [12.369317  13.       ]]
    <NDArray 2x2 @cpu(0)>
    """,
    "broadcast_logical_and": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[0.0, 1.0, 2.0]])
    >>> y = nd.array([[0.0], [1.0]])
    >>> print(nd.broadcast_logical_and(x, y))
    <BLANKLINE>
    [[0. 0. 0.]
     [0. 1. 1.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "broadcast_logical_or": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[0.0, 1.0, 2.0]])
    >>> y = nd.array([[0.0], [1.0]])
    >>> print(nd.broadcast_logical_or(x, y))
    <BLANKLINE>
    [[0. 1. 1.]
     [1. 1. 1.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "broadcast_logical_xor": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[0.0, 1.0, 2.0]])
    >>> y = nd.array([[0.0], [1.0]])
    >>> print(nd.broadcast_logical_xor(x, y))
    <BLANKLINE>
    [[0. 1. 1.]
     [1. 0. 0.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "broadcast_to": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[1.0, 2.0, 3.0]])
    >>> print(nd.broadcast_to(x, shape=(2, 3)))
    <BLANKLINE>
    [[1. 2. 3.]
     [1. 2. 3.]]
    <NDArray 2x3 @cpu(0)>
    >>> print(nd.broadcast_to(x, shape=(2, 0)))
    <BLANKLINE>
    [[1. 2. 3.]
     [1. 2. 3.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "broadcast_like": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[1.0, 2.0]])
    >>> y = nd.zeros((3, 2))
    >>> print(nd.broadcast_like(x, y))
    <BLANKLINE>
    [[1. 2.]
     [1. 2.]
     [1. 2.]]
    <NDArray 3x2 @cpu(0)>
    """,
    "broadcast_axis": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[[1.0], [2.0]]])
    >>> print(nd.broadcast_axis(x, axis=2, size=3))
    <BLANKLINE>
    [[[1. 1. 1.]
      [2. 2. 2.]]]
    <NDArray 1x2x3 @cpu(0)>
    >>> nd.broadcast_axis(x, axis=(0, 2), size=(2, 3)).shape
    (2, 2, 3)
    """,
    "broadcast_axes": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[1.0], [2.0]])
    >>> print(nd.broadcast_axes(x, axis=1, size=3))
    <BLANKLINE>
    [[1. 1. 1.]
     [2. 2. 2.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "argmin": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]])
    >>> print(nd.argmin(x, axis=1))
    <BLANKLINE>
    [1. 0.]
    <NDArray 2 @cpu(0)>
    >>> print(nd.argmin(x, axis=0))
    <BLANKLINE>
    [1. 0. 0.]
    <NDArray 3 @cpu(0)>
    """,
    "argmax_channel": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]])
    >>> print(nd.argmax_channel(x))
    <BLANKLINE>
    [0. 1.]
    <NDArray 2 @cpu(0)>
    """,
    "argsort": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]])
    >>> print(nd.argsort(x))
    <BLANKLINE>
    [[1. 2. 0.]
     [0. 2. 1.]]
    <NDArray 2x3 @cpu(0)>
    >>> print(nd.argsort(x, axis=0, is_ascend=False))
    <BLANKLINE>
    [[0. 1. 1.]
     [1. 0. 0.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "max_axis": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]])
    >>> print(nd.max_axis(x, axis=1))
    <BLANKLINE>
    [3. 5.]
    <NDArray 2 @cpu(0)>
    """,
    "min_axis": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]])
    >>> print(nd.min_axis(x, axis=1))
    <BLANKLINE>
    [1. 0.]
    <NDArray 2 @cpu(0)>
    """,
    "min": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]])
    >>> print(nd.min(x))
    <BLANKLINE>
    [0.]
    <NDArray 1 @cpu(0)>
    >>> print(nd.min(x, axis=0))
    <BLANKLINE>
    [0. 1. 2.]
    <NDArray 3 @cpu(0)>
    """,
    "sum_axis": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]])
    >>> print(nd.sum_axis(x, axis=1))
    <BLANKLINE>
    [6. 9.]
    <NDArray 2 @cpu(0)>
    >>> print(nd.sum_axis(x, axis=0, keepdims=True))
    <BLANKLINE>
    [[3. 6. 6.]]
    <NDArray 1x3 @cpu(0)>
    """,
    "prod": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]])
    >>> print(nd.prod(x, axis=1))
    <BLANKLINE>
    [6. 0.]
    <NDArray 2 @cpu(0)>
    >>> print(nd.prod(x, exclude=True, axis=0))
    <BLANKLINE>
    [6. 0.]
    <NDArray 2 @cpu(0)>
    """,
    "nansum": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[1.0, float('nan')], [3.0, 4.0]])
    >>> print(nd.nansum(x))
    <BLANKLINE>
    [8.]
    <NDArray 1 @cpu(0)>
    >>> print(nd.nansum(x, axis=1))
    <BLANKLINE>
    [1. 7.]
    <NDArray 2 @cpu(0)>
    """,
    "nanprod": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[1.0, float('nan')], [3.0, 4.0]])
    >>> print(nd.nanprod(x))
    <BLANKLINE>
    [12.]
    <NDArray 1 @cpu(0)>
    >>> print(nd.nanprod(x, axis=1))
    <BLANKLINE>
    [ 1. 12.]
    <NDArray 2 @cpu(0)>
    """,
    "cumsum": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> print(nd.cumsum(x, axis=1))
    <BLANKLINE>
    [[ 1.  3.  6.]
     [ 4.  9. 15.]]
    <NDArray 2x3 @cpu(0)>
    """,
    "moments": """
    >>> from cellonnx.mxnet import nd
    >>> x = nd.array([[1.0, 2.0], [3.0, 6.0]])
    >>> mean, var = nd.moments(x, axes=(0,))
    >>> print(mean)
    <BLANKLINE>
    [2. 4.]
    <NDArray 2 @cpu(0)>
    >>> print(var)
    <BLANKLINE>
    [1. 4.]
    <NDArray 2 @cpu(0)>
    """,
}

# the descriptions of the operators whose implementation has none
SUMMARIES = {
    "arccosh": "Inverse hyperbolic cosine, elementwise (x >= 1).",
    "arcsinh": "Inverse hyperbolic sine, elementwise.",
    "arctanh": "Inverse hyperbolic tangent, elementwise (|x| < 1).",
    "cosh": "Hyperbolic cosine, elementwise.",
    "sinh": "Hyperbolic sine, elementwise.",
    "tan": "Tangent, elementwise (radians).",
    "log10": "Base-10 logarithm, elementwise.",
    "log2": "Base-2 logarithm, elementwise.",
    "rcbrt": "Reciprocal of the cube root, elementwise.",
    "degrees": "Radians converted to degrees, elementwise.",
    "radians": "Degrees converted to radians, elementwise.",
    "cbrt": "Cube root, elementwise.",
    "fix": "Rounds each element toward zero.",
    "trunc": "Rounds each element toward zero.",
    "round": "Rounds each element to the nearest integer, a tie away from zero.",
    "identity": "A copy of ``data``.",
    "zeros_like": "An array of zeros of the shape and dtype of ``data``.",
    "ones_like": "An array of ones of the shape and dtype of ``data``.",
    "add": "``lhs + rhs``, elementwise with broadcasting (either may be a scalar).",
    "sub": "``lhs - rhs`` of two NDArrays of one shape.",
    "subtract": "``lhs - rhs``, elementwise with broadcasting (either may be a scalar).",
    "minus": "``lhs - rhs`` of two NDArrays of one shape.",
    "plus": "``lhs + rhs`` of two NDArrays of one shape.",
    "mul": "``lhs * rhs`` of two NDArrays of one shape.",
    "multiply": "``lhs * rhs``, elementwise with broadcasting (either may be a scalar).",
    "div": "``lhs / rhs`` of two NDArrays of one shape.",
    "divide": "``lhs / rhs``, elementwise with broadcasting (either may be a scalar).",
    "true_divide": "``lhs / rhs``, elementwise with broadcasting (either may be a scalar).",
    "mod": "``lhs mod rhs`` of two NDArrays of one shape.",
    "modulo": "``lhs mod rhs``, elementwise with broadcasting (either may be a scalar).",
    "power": "``base ** exp``, elementwise with broadcasting (either may be a scalar).",
    "minimum": "The smaller of two arrays, elementwise with broadcasting.",
    "equal": "``lhs == rhs``, elementwise with broadcasting, as 0/1 in the input's dtype.",
    "not_equal": "``lhs != rhs``, elementwise with broadcasting, as 0/1 in the input's dtype.",
    "greater": "``lhs > rhs``, elementwise with broadcasting, as 0/1 in the input's dtype.",
    "greater_equal": "``lhs >= rhs``, elementwise with broadcasting, as 0/1 in the input's dtype.",
    "lesser": "``lhs < rhs``, elementwise with broadcasting, as 0/1 in the input's dtype.",
    "lesser_equal": "``lhs <= rhs``, elementwise with broadcasting, as 0/1 in the input's dtype.",
    "elemwise_sub": "``lhs - rhs`` of two NDArrays of one shape.",
    "elemwise_mul": "``lhs * rhs`` of two NDArrays of one shape.",
    "elemwise_div": "``lhs / rhs`` of two NDArrays of one shape.",
    "hypot": "``sqrt(lhs ** 2 + rhs ** 2)`` of two NDArrays of one shape.",
    "logical_and": ("Logical and of ``lhs`` and ``rhs`` (nonzero is true), elementwise with broadcasting, as "
                    "0/1."),
    "logical_or": ("Logical or of ``lhs`` and ``rhs`` (nonzero is true), elementwise with broadcasting, as "
                   "0/1."),
    "logical_xor": ("Logical exclusive or of ``lhs`` and ``rhs`` (nonzero is true), elementwise with "
                    "broadcasting, as 0/1."),
    "logical_not": "Logical not (zero becomes 1, nonzero 0), elementwise.",
    "ElementWiseSum": "The elementwise sum of all the arguments (of one shape).",
    "add_n": "The elementwise sum of all the arguments (of one shape).",
    "broadcast_div": "``lhs / rhs`` with broadcasting.",
    "broadcast_equal": "``lhs == rhs`` with broadcasting, as 0/1 in the input's dtype.",
    "broadcast_greater": "``lhs > rhs`` with broadcasting, as 0/1 in the input's dtype.",
    "broadcast_greater_equal": "``lhs >= rhs`` with broadcasting, as 0/1 in the input's dtype.",
    "broadcast_lesser": "``lhs < rhs`` with broadcasting, as 0/1 in the input's dtype.",
    "broadcast_lesser_equal": "``lhs <= rhs`` with broadcasting, as 0/1 in the input's dtype.",
    "broadcast_maximum": "The larger of ``lhs`` and ``rhs``, elementwise with broadcasting.",
    "broadcast_minimum": "The smaller of ``lhs`` and ``rhs``, elementwise with broadcasting.",
    "broadcast_minus": "``lhs - rhs`` with broadcasting.",
    "broadcast_mod": "``lhs mod rhs`` with broadcasting.",
    "broadcast_mul": "``lhs * rhs`` with broadcasting.",
    "broadcast_not_equal": "``lhs != rhs`` with broadcasting, as 0/1 in the input's dtype.",
    "broadcast_plus": "``lhs + rhs`` with broadcasting.",
    "broadcast_power": "``lhs ** rhs`` with broadcasting.",
    "broadcast_sub": "``lhs - rhs`` with broadcasting.",
    "broadcast_hypot": "``sqrt(lhs ** 2 + rhs ** 2)`` with broadcasting.",
    "broadcast_logical_and": ("Logical and of ``lhs`` and ``rhs`` (nonzero is true) with broadcasting, as "
                              "0/1."),
    "broadcast_logical_or": "Logical or of ``lhs`` and ``rhs`` (nonzero is true) with broadcasting, as 0/1.",
    "broadcast_logical_xor": ("Logical exclusive or of ``lhs`` and ``rhs`` (nonzero is true) with "
                              "broadcasting, as 0/1."),
    "broadcast_like": "``lhs`` broadcast to the shape of ``rhs``.",
    "broadcast_axis": ("``data`` repeated along its size-1 ``axis`` to ``size`` (several axes and sizes at "
                       "once as tuples)."),
    "broadcast_axes": ("``data`` repeated along its size-1 ``axis`` to ``size`` (several axes and sizes at "
                       "once as tuples)."),
    "argmin": "The indices of the smallest elements along ``axis``, as floats (MXNet 1.x).",
    "argmax_channel": "The indices of the largest elements along the last axis, as floats.",
    "argsort": ("The indices that sort ``data`` along ``axis`` (Default: -1), ascending unless "
                "``is_ascend=False``, as floats."),
    "max_axis": "The maximum over ``axis`` (all axes when None).",
    "min_axis": "The minimum over ``axis`` (all axes when None).",
    "min": "The minimum over ``axis`` (all axes when None).",
    "sum_axis": "The sum over ``axis`` (all axes when None).",
    "prod": "The product over ``axis`` (all axes when None).",
    "nansum": "The sum over ``axis`` with NaN counted as 0.",
    "nanprod": "The product over ``axis`` with NaN counted as 1.",
    "cumsum": "The cumulative sum along ``axis`` (the flattened array when None).",
}
