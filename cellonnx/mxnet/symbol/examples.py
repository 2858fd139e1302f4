"""The docstring examples of mx.sym's operators: MXNet 1.x code as an MXNet user writes it (placeholders,
operators on Symbols, ``eval`` / ``infer_shape``). tests/fixtures/mxnet/gen_symbol_examples.py runs every one
with real MXNet 1.9.1 and records whether MXNet gives the same output; the names MXNet 1.9.1's mx.sym does
not have (cellonnx's NumPy-style aliases: ``mx.sym.add`` ...) run here only."""
from __future__ import annotations

EXAMPLES = {
    "abs": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.abs(x).eval(x=mx.nd.array([-0.5, 0.0, 1.5]))[0].asnumpy().round(4))
    [0.5 0.  1.5]
    """,
    "ceil": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.ceil(x).eval(x=mx.nd.array([-0.5, 0.0, 1.5]))[0].asnumpy().round(4))
    [-0.  0.  2.]
    """,
    "floor": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.floor(x).eval(x=mx.nd.array([-0.5, 0.0, 1.5]))[0].asnumpy().round(4))
    [-1.  0.  1.]
    """,
    "fix": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.fix(x).eval(x=mx.nd.array([-0.5, 0.0, 1.5]))[0].asnumpy().round(4))
    [-0.  0.  1.]
    """,
    "rint": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.rint(x).eval(x=mx.nd.array([-0.5, 0.0, 1.5]))[0].asnumpy().round(4))
    [-1.  0.  1.]
    """,
    "round": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.round(x).eval(x=mx.nd.array([-0.5, 0.0, 1.5]))[0].asnumpy().round(4))
    [-1.  0.  2.]
    """,
    "trunc": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.trunc(x).eval(x=mx.nd.array([-0.5, 0.0, 1.5]))[0].asnumpy().round(4))
    [-0.  0.  1.]
    """,
    "sign": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.sign(x).eval(x=mx.nd.array([-0.5, 0.0, 1.5]))[0].asnumpy().round(4))
    [-1.  0.  1.]
    """,
    "negative": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.negative(x).eval(x=mx.nd.array([-0.5, 0.0, 1.5]))[0].asnumpy().round(4))
    [ 0.5 -0.  -1.5]
    """,
    "square": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.square(x).eval(x=mx.nd.array([-0.5, 0.0, 1.5]))[0].asnumpy().round(4))
    [0.25 0.   2.25]
    """,
    "relu": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.relu(x).eval(x=mx.nd.array([-0.5, 0.0, 1.5]))[0].asnumpy().round(4))
    [0.  0.  1.5]
    """,
    "sigmoid": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.sigmoid(x).eval(x=mx.nd.array([-0.5, 0.0, 1.5]))[0].asnumpy().round(4))
    [0.3775 0.5    0.8176]
    """,
    "softsign": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.softsign(x).eval(x=mx.nd.array([-0.5, 0.0, 1.5]))[0].asnumpy().round(4))
    [-0.3333  0.      0.6   ]
    """,
    "tanh": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.tanh(x).eval(x=mx.nd.array([-0.5, 0.0, 1.5]))[0].asnumpy().round(4))
    [-0.4621  0.      0.9051]
    """,
    "sin": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.sin(x).eval(x=mx.nd.array([-0.5, 0.0, 1.5]))[0].asnumpy().round(4))
    [-0.4794  0.      0.9975]
    """,
    "cos": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.cos(x).eval(x=mx.nd.array([-0.5, 0.0, 1.5]))[0].asnumpy().round(4))
    [0.8776 1.     0.0707]
    """,
    "tan": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.tan(x).eval(x=mx.nd.array([-0.5, 0.0, 1.5]))[0].asnumpy().round(4))
    [-0.5463  0.     14.1014]
    """,
    "arctan": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.arctan(x).eval(x=mx.nd.array([-0.5, 0.0, 1.5]))[0].asnumpy().round(4))
    [-0.4636  0.      0.9828]
    """,
    "arcsinh": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.arcsinh(x).eval(x=mx.nd.array([-0.5, 0.0, 1.5]))[0].asnumpy().round(4))
    [-0.4812  0.      1.1948]
    """,
    "sinh": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.sinh(x).eval(x=mx.nd.array([-0.5, 0.0, 1.5]))[0].asnumpy().round(4))
    [-0.5211  0.      2.1293]
    """,
    "cosh": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.cosh(x).eval(x=mx.nd.array([-0.5, 0.0, 1.5]))[0].asnumpy().round(4))
    [1.1276 1.     2.3524]
    """,
    "exp": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.exp(x).eval(x=mx.nd.array([-0.5, 0.0, 1.5]))[0].asnumpy().round(4))
    [0.6065 1.     4.4817]
    """,
    "expm1": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.expm1(x).eval(x=mx.nd.array([-0.5, 0.0, 1.5]))[0].asnumpy().round(4))
    [-0.3935  0.      3.4817]
    """,
    "erf": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.erf(x).eval(x=mx.nd.array([-0.5, 0.0, 1.5]))[0].asnumpy().round(4))
    [-0.5205  0.      0.9661]
    """,
    "degrees": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.degrees(x).eval(x=mx.nd.array([-0.5, 0.0, 1.5]))[0].asnumpy().round(4))
    [-28.6479   0.      85.9437]
    """,
    "radians": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.radians(x).eval(x=mx.nd.array([-0.5, 0.0, 1.5]))[0].asnumpy().round(4))
    [-0.0087  0.      0.0262]
    """,
    "hard_sigmoid": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.hard_sigmoid(x).eval(x=mx.nd.array([-0.5, 0.0, 1.5]))[0].asnumpy().round(4))
    [0.4 0.5 0.8]
    """,
    "cbrt": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.cbrt(x).eval(x=mx.nd.array([-0.5, 0.0, 1.5]))[0].asnumpy().round(4))
    [-0.7937  0.      1.1447]
    """,
    "zeros_like": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.zeros_like(x).eval(x=mx.nd.array([-0.5, 0.0, 1.5]))[0].asnumpy().round(4))
    [0. 0. 0.]
    """,
    "ones_like": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.ones_like(x).eval(x=mx.nd.array([-0.5, 0.0, 1.5]))[0].asnumpy().round(4))
    [1. 1. 1.]
    """,
    "identity": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.identity(x).eval(x=mx.nd.array([-0.5, 0.0, 1.5]))[0].asnumpy().round(4))
    [-0.5  0.   1.5]
    """,
    "BlockGrad": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.BlockGrad(x).eval(x=mx.nd.array([-0.5, 0.0, 1.5]))[0].asnumpy().round(4))
    [-0.5  0.   1.5]
    """,
    "stop_gradient": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.stop_gradient(x).eval(x=mx.nd.array([-0.5, 0.0, 1.5]))[0].asnumpy().round(4))
    [-0.5  0.   1.5]
    """,
    "logical_not": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.logical_not(x).eval(x=mx.nd.array([-0.5, 0.0, 1.5]))[0].asnumpy().round(4))
    [0. 1. 0.]
    """,
    "arcsin": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.arcsin(x).eval(x=mx.nd.array([-0.5, 0.0, 0.5]))[0].asnumpy().round(4))
    [-0.5236  0.      0.5236]
    """,
    "arccos": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.arccos(x).eval(x=mx.nd.array([-0.5, 0.0, 0.5]))[0].asnumpy().round(4))
    [2.0944 1.5708 1.0472]
    """,
    "arctanh": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.arctanh(x).eval(x=mx.nd.array([-0.5, 0.0, 0.5]))[0].asnumpy().round(4))
    [-0.5493  0.      0.5493]
    """,
    "erfinv": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.erfinv(x).eval(x=mx.nd.array([-0.5, 0.0, 0.5]))[0].asnumpy().round(4))
    [-0.4769  0.      0.4769]
    """,
    "sqrt": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.sqrt(x).eval(x=mx.nd.array([1.0, 2.0, 4.0]))[0].asnumpy().round(4))
    [1.     1.4142 2.    ]
    """,
    "rsqrt": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.rsqrt(x).eval(x=mx.nd.array([1.0, 2.0, 4.0]))[0].asnumpy().round(4))
    [1.     0.7071 0.5   ]
    """,
    "log": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.log(x).eval(x=mx.nd.array([1.0, 2.0, 4.0]))[0].asnumpy().round(4))
    [0.     0.6931 1.3863]
    """,
    "log10": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.log10(x).eval(x=mx.nd.array([1.0, 2.0, 4.0]))[0].asnumpy().round(4))
    [0.     0.301  0.6021]
    """,
    "log2": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.log2(x).eval(x=mx.nd.array([1.0, 2.0, 4.0]))[0].asnumpy().round(4))
    [0. 1. 2.]
    """,
    "log1p": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.log1p(x).eval(x=mx.nd.array([1.0, 2.0, 4.0]))[0].asnumpy().round(4))
    [0.6931 1.0986 1.6094]
    """,
    "reciprocal": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.reciprocal(x).eval(x=mx.nd.array([1.0, 2.0, 4.0]))[0].asnumpy().round(4))
    [1.   0.5  0.25]
    """,
    "gamma": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.gamma(x).eval(x=mx.nd.array([1.0, 2.0, 4.0]))[0].asnumpy().round(4))
    [1. 1. 6.]
    """,
    "gammaln": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.gammaln(x).eval(x=mx.nd.array([1.0, 2.0, 4.0]))[0].asnumpy().round(4))
    [0.     0.     1.7918]
    """,
    "arccosh": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.arccosh(x).eval(x=mx.nd.array([1.0, 2.0, 4.0]))[0].asnumpy().round(4))
    [0.     1.317  2.0634]
    """,
    "rcbrt": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.rcbrt(x).eval(x=mx.nd.array([1.0, 2.0, 4.0]))[0].asnumpy().round(4))
    [1.     0.7937 0.63  ]
    """,
    "broadcast_add": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.broadcast_add(a, b).eval(a=mx.nd.array([[1, 2, 3]]),
    ...     b=mx.nd.array([[2], [1]]))[0].asnumpy())
    [[3. 4. 5.]
     [2. 3. 4.]]
    """,
    "broadcast_plus": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.broadcast_plus(a, b).eval(a=mx.nd.array([[1, 2, 3]]),
    ...     b=mx.nd.array([[2], [1]]))[0].asnumpy())
    [[3. 4. 5.]
     [2. 3. 4.]]
    """,
    "broadcast_sub": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.broadcast_sub(a, b).eval(a=mx.nd.array([[1, 2, 3]]),
    ...     b=mx.nd.array([[2], [1]]))[0].asnumpy())
    [[-1.  0.  1.]
     [ 0.  1.  2.]]
    """,
    "broadcast_minus": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.broadcast_minus(a, b).eval(a=mx.nd.array([[1, 2, 3]]),
    ...     b=mx.nd.array([[2], [1]]))[0].asnumpy())
    [[-1.  0.  1.]
     [ 0.  1.  2.]]
    """,
    "broadcast_mul": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.broadcast_mul(a, b).eval(a=mx.nd.array([[1, 2, 3]]),
    ...     b=mx.nd.array([[2], [1]]))[0].asnumpy())
    [[2. 4. 6.]
     [1. 2. 3.]]
    """,
    "broadcast_div": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.broadcast_div(a, b).eval(a=mx.nd.array([[1, 2, 3]]),
    ...     b=mx.nd.array([[2], [1]]))[0].asnumpy())
    [[0.5 1.  1.5]
     [1.  2.  3. ]]
    """,
    "broadcast_mod": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.broadcast_mod(a, b).eval(a=mx.nd.array([[1, 2, 3]]),
    ...     b=mx.nd.array([[2], [1]]))[0].asnumpy())
    [[1. 0. 1.]
     [0. 0. 0.]]
    """,
    "broadcast_power": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.broadcast_power(a, b).eval(a=mx.nd.array([[1, 2, 3]]),
    ...     b=mx.nd.array([[2], [1]]))[0].asnumpy())
    [[1. 4. 9.]
     [1. 2. 3.]]
    """,
    "broadcast_maximum": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.broadcast_maximum(a, b).eval(a=mx.nd.array([[1, 2, 3]]),
    ...     b=mx.nd.array([[2], [1]]))[0].asnumpy())
    [[2. 2. 3.]
     [1. 2. 3.]]
    """,
    "broadcast_minimum": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.broadcast_minimum(a, b).eval(a=mx.nd.array([[1, 2, 3]]),
    ...     b=mx.nd.array([[2], [1]]))[0].asnumpy())
    [[1. 2. 2.]
     [1. 1. 1.]]
    """,
    "broadcast_hypot": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.broadcast_hypot(a, b).eval(a=mx.nd.array([[1, 2, 3]]),
    ...     b=mx.nd.array([[2], [1]]))[0].asnumpy())
    [[2.236068  2.828427  3.6055512]
     [1.4142135 2.236068  3.1622777]]
    """,
    "broadcast_equal": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.broadcast_equal(a, b).eval(a=mx.nd.array([[1, 2, 3]]),
    ...     b=mx.nd.array([[2], [1]]))[0].asnumpy())
    [[0. 1. 0.]
     [1. 0. 0.]]
    """,
    "broadcast_not_equal": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.broadcast_not_equal(a, b).eval(a=mx.nd.array([[1, 2, 3]]),
    ...     b=mx.nd.array([[2], [1]]))[0].asnumpy())
    [[1. 0. 1.]
     [0. 1. 1.]]
    """,
    "broadcast_greater": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.broadcast_greater(a, b).eval(a=mx.nd.array([[1, 2, 3]]),
    ...     b=mx.nd.array([[2], [1]]))[0].asnumpy())
    [[0. 0. 1.]
     [0. 1. 1.]]
    """,
    "broadcast_greater_equal": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.broadcast_greater_equal(a, b).eval(a=mx.nd.array([[1, 2, 3]]),
    ...     b=mx.nd.array([[2], [1]]))[0].asnumpy())
    [[0. 1. 1.]
     [1. 1. 1.]]
    """,
    "broadcast_lesser": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.broadcast_lesser(a, b).eval(a=mx.nd.array([[1, 2, 3]]),
    ...     b=mx.nd.array([[2], [1]]))[0].asnumpy())
    [[1. 0. 0.]
     [0. 0. 0.]]
    """,
    "broadcast_lesser_equal": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.broadcast_lesser_equal(a, b).eval(a=mx.nd.array([[1, 2, 3]]),
    ...     b=mx.nd.array([[2], [1]]))[0].asnumpy())
    [[1. 1. 0.]
     [1. 0. 0.]]
    """,
    "broadcast_logical_and": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.broadcast_logical_and(a, b).eval(a=mx.nd.array([[1, 2, 3]]),
    ...     b=mx.nd.array([[2], [1]]))[0].asnumpy())
    [[1. 1. 1.]
     [1. 1. 1.]]
    """,
    "broadcast_logical_or": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.broadcast_logical_or(a, b).eval(a=mx.nd.array([[1, 2, 3]]),
    ...     b=mx.nd.array([[2], [1]]))[0].asnumpy())
    [[1. 1. 1.]
     [1. 1. 1.]]
    """,
    "broadcast_logical_xor": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.broadcast_logical_xor(a, b).eval(a=mx.nd.array([[1, 2, 3]]),
    ...     b=mx.nd.array([[2], [1]]))[0].asnumpy())
    [[0. 0. 0.]
     [0. 0. 0.]]
    """,
    "add": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.add(a, b).eval(a=mx.nd.array([[1, 2, 3]]), b=mx.nd.array([[2], [1]]))[0].asnumpy())
    [[3. 4. 5.]
     [2. 3. 4.]]
    """,
    "plus": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.plus(a, b).eval(a=mx.nd.array([[1, 2, 3]]), b=mx.nd.array([[2], [1]]))[0].asnumpy())
    [[3. 4. 5.]
     [2. 3. 4.]]
    """,
    "sub": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.sub(a, b).eval(a=mx.nd.array([[1, 2, 3]]), b=mx.nd.array([[2], [1]]))[0].asnumpy())
    [[-1.  0.  1.]
     [ 0.  1.  2.]]
    """,
    "minus": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.minus(a, b).eval(a=mx.nd.array([[1, 2, 3]]), b=mx.nd.array([[2], [1]]))[0].asnumpy())
    [[-1.  0.  1.]
     [ 0.  1.  2.]]
    """,
    "subtract": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.subtract(a, b).eval(a=mx.nd.array([[1, 2, 3]]), b=mx.nd.array([[2], [1]]))[0].asnumpy())
    [[-1.  0.  1.]
     [ 0.  1.  2.]]
    """,
    "mul": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.mul(a, b).eval(a=mx.nd.array([[1, 2, 3]]), b=mx.nd.array([[2], [1]]))[0].asnumpy())
    [[2. 4. 6.]
     [1. 2. 3.]]
    """,
    "multiply": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.multiply(a, b).eval(a=mx.nd.array([[1, 2, 3]]), b=mx.nd.array([[2], [1]]))[0].asnumpy())
    [[2. 4. 6.]
     [1. 2. 3.]]
    """,
    "div": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.div(a, b).eval(a=mx.nd.array([[1, 2, 3]]), b=mx.nd.array([[2], [1]]))[0].asnumpy())
    [[0.5 1.  1.5]
     [1.  2.  3. ]]
    """,
    "divide": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.divide(a, b).eval(a=mx.nd.array([[1, 2, 3]]), b=mx.nd.array([[2], [1]]))[0].asnumpy())
    [[0.5 1.  1.5]
     [1.  2.  3. ]]
    """,
    "true_divide": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.true_divide(a, b).eval(a=mx.nd.array([[1, 2, 3]]),
    ...     b=mx.nd.array([[2], [1]]))[0].asnumpy())
    [[0.5 1.  1.5]
     [1.  2.  3. ]]
    """,
    "mod": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.mod(a, b).eval(a=mx.nd.array([[1, 2, 3]]), b=mx.nd.array([[2], [1]]))[0].asnumpy())
    [[1. 0. 1.]
     [0. 0. 0.]]
    """,
    "modulo": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.modulo(a, b).eval(a=mx.nd.array([[1, 2, 3]]), b=mx.nd.array([[2], [1]]))[0].asnumpy())
    [[1. 0. 1.]
     [0. 0. 0.]]
    """,
    "equal": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.equal(a, b).eval(a=mx.nd.array([[1, 2, 3]]), b=mx.nd.array([[2], [1]]))[0].asnumpy())
    [[0. 1. 0.]
     [1. 0. 0.]]
    """,
    "not_equal": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.not_equal(a, b).eval(a=mx.nd.array([[1, 2, 3]]), b=mx.nd.array([[2], [1]]))[0].asnumpy())
    [[1. 0. 1.]
     [0. 1. 1.]]
    """,
    "greater": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.greater(a, b).eval(a=mx.nd.array([[1, 2, 3]]), b=mx.nd.array([[2], [1]]))[0].asnumpy())
    [[0. 0. 1.]
     [0. 1. 1.]]
    """,
    "greater_equal": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.greater_equal(a, b).eval(a=mx.nd.array([[1, 2, 3]]),
    ...     b=mx.nd.array([[2], [1]]))[0].asnumpy())
    [[0. 1. 1.]
     [1. 1. 1.]]
    """,
    "lesser": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.lesser(a, b).eval(a=mx.nd.array([[1, 2, 3]]), b=mx.nd.array([[2], [1]]))[0].asnumpy())
    [[1. 0. 0.]
     [0. 0. 0.]]
    """,
    "lesser_equal": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.lesser_equal(a, b).eval(a=mx.nd.array([[1, 2, 3]]),
    ...     b=mx.nd.array([[2], [1]]))[0].asnumpy())
    [[1. 1. 0.]
     [1. 0. 0.]]
    """,
    "logical_and": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.logical_and(a, b).eval(a=mx.nd.array([[1, 2, 3]]),
    ...     b=mx.nd.array([[2], [1]]))[0].asnumpy())
    [[1. 1. 1.]
     [1. 1. 1.]]
    """,
    "logical_or": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.logical_or(a, b).eval(a=mx.nd.array([[1, 2, 3]]),
    ...     b=mx.nd.array([[2], [1]]))[0].asnumpy())
    [[1. 1. 1.]
     [1. 1. 1.]]
    """,
    "logical_xor": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.logical_xor(a, b).eval(a=mx.nd.array([[1, 2, 3]]),
    ...     b=mx.nd.array([[2], [1]]))[0].asnumpy())
    [[0. 0. 0.]
     [0. 0. 0.]]
    """,
    "elemwise_add": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.elemwise_add(a, b).eval(a=mx.nd.array([[1, 2, 3]]),
    ...     b=mx.nd.array([[4, 5, 6]]))[0].asnumpy())
    [[5. 7. 9.]]
    """,
    "elemwise_sub": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.elemwise_sub(a, b).eval(a=mx.nd.array([[1, 2, 3]]),
    ...     b=mx.nd.array([[4, 5, 6]]))[0].asnumpy())
    [[-3. -3. -3.]]
    """,
    "elemwise_mul": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.elemwise_mul(a, b).eval(a=mx.nd.array([[1, 2, 3]]),
    ...     b=mx.nd.array([[4, 5, 6]]))[0].asnumpy())
    [[ 4. 10. 18.]]
    """,
    "elemwise_div": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.elemwise_div(a, b).eval(a=mx.nd.array([[1, 2, 3]]),
    ...     b=mx.nd.array([[4, 5, 6]]))[0].asnumpy())
    [[0.25 0.4  0.5 ]]
    """,
    "maximum": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.maximum(a, b).eval(a=mx.nd.array([1, 2, 3]), b=mx.nd.array([3, 2, 1]))[0].asnumpy())
    [3. 2. 3.]
    >>> print(mx.sym.maximum(a, 2).eval(a=mx.nd.array([1, 2, 3]))[0].asnumpy())
    [2. 2. 3.]
    """,
    "minimum": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.minimum(a, b).eval(a=mx.nd.array([1, 2, 3]), b=mx.nd.array([3, 2, 1]))[0].asnumpy())
    [1. 2. 1.]
    >>> print(mx.sym.minimum(a, 2).eval(a=mx.nd.array([1, 2, 3]))[0].asnumpy())
    [1. 2. 2.]
    """,
    "hypot": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.hypot(a, b).eval(a=mx.nd.array([1, 2, 3]), b=mx.nd.array([3, 2, 1]))[0].asnumpy())
    [3.1622777 2.828427  3.1622777]
    >>> print(mx.sym.hypot(a, 2).eval(a=mx.nd.array([1, 2, 3]))[0].asnumpy())
    [2.236068  2.828427  3.6055512]
    """,
    "power": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.power(a, b).eval(a=mx.nd.array([1, 2, 3]), b=mx.nd.array([3, 2, 1]))[0].asnumpy())
    [1. 4. 3.]
    >>> print(mx.sym.power(a, 2).eval(a=mx.nd.array([1, 2, 3]))[0].asnumpy())
    [1. 4. 9.]
    """,
    "sum": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.sum(x, axis=1).eval(x=mx.nd.array([[1, 5, 3], [4, 2, 6]]))[0].asnumpy())
    [ 9. 12.]
    """,
    "mean": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.mean(x, axis=0).eval(x=mx.nd.array([[1, 5, 3], [4, 2, 6]]))[0].asnumpy())
    [2.5 3.5 4.5]
    """,
    "prod": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.prod(x, axis=1).eval(x=mx.nd.array([[1, 5, 3], [4, 2, 6]]))[0].asnumpy())
    [15. 48.]
    """,
    "max": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.max(x, axis=1).eval(x=mx.nd.array([[1, 5, 3], [4, 2, 6]]))[0].asnumpy())
    [5. 6.]
    """,
    "min": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.min(x, axis=0).eval(x=mx.nd.array([[1, 5, 3], [4, 2, 6]]))[0].asnumpy())
    [1. 2. 3.]
    """,
    "nansum": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.nansum(x, axis=1).eval(x=mx.nd.array([[1, 5, 3], [4, 2, 6]]))[0].asnumpy())
    [ 9. 12.]
    """,
    "nanprod": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.nanprod(x, axis=1).eval(x=mx.nd.array([[1, 5, 3], [4, 2, 6]]))[0].asnumpy())
    [15. 48.]
    """,
    "sum_axis": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.sum_axis(x, axis=1).eval(x=mx.nd.array([[1, 5, 3], [4, 2, 6]]))[0].asnumpy())
    [ 9. 12.]
    """,
    "max_axis": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.max_axis(x, axis=1).eval(x=mx.nd.array([[1, 5, 3], [4, 2, 6]]))[0].asnumpy())
    [5. 6.]
    """,
    "min_axis": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.min_axis(x, axis=1).eval(x=mx.nd.array([[1, 5, 3], [4, 2, 6]]))[0].asnumpy())
    [1. 2.]
    """,
    "argmax": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.argmax(x, axis=1).eval(x=mx.nd.array([[1, 5, 3], [4, 2, 6]]))[0].asnumpy())
    [1. 2.]
    """,
    "argmin": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.argmin(x, axis=1).eval(x=mx.nd.array([[1, 5, 3], [4, 2, 6]]))[0].asnumpy())
    [0. 1.]
    """,
    "norm": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.norm(x, axis=1).eval(x=mx.nd.array([[3, 4], [6, 8]]))[0].asnumpy())
    [ 5. 10.]
    """,
    "sort": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.sort(x, axis=1).eval(x=mx.nd.array([[1, 5, 3], [4, 2, 6]]))[0].asnumpy())
    [[1. 3. 5.]
     [2. 4. 6.]]
    """,
    "argsort": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.argsort(x, axis=1).eval(x=mx.nd.array([[1, 5, 3], [4, 2, 6]]))[0].asnumpy())
    [[0. 2. 1.]
     [1. 0. 2.]]
    """,
    "cumsum": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.cumsum(x, axis=1).eval(x=mx.nd.array([[1, 5, 3], [4, 2, 6]]))[0].asnumpy())
    [[ 1.  6.  9.]
     [ 4.  6. 12.]]
    """,
    "argmax_channel": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.argmax_channel(x).eval(x=mx.nd.array([[1, 5, 3], [4, 2, 6]]))[0].asnumpy())
    [1. 2.]
    """,
    "topk": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.topk(x, k=2, ret_typ='value').eval(x=mx.nd.array([[1, 5, 3], [4, 2, 6]]))[0].asnumpy())
    [[5. 3.]
     [6. 4.]]
    """,
    "transpose": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.transpose(x).eval(x=mx.nd.array([[1, 5, 3], [4, 2, 6]]))[0].asnumpy())
    [[1. 4.]
     [5. 2.]
     [3. 6.]]
    """,
    "reshape": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.reshape(x, shape=(3, -1)).eval(x=mx.nd.array([[1, 5, 3], [4, 2, 6]]))[0].asnumpy())
    [[1. 5.]
     [3. 4.]
     [2. 6.]]
    """,
    "Reshape": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> mx.sym.Reshape(x, shape=(-1, 0)).infer_shape(x=(2, 3, 4))[1]
    [(8, 3)]
    """,
    "flatten": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> mx.sym.flatten(x).infer_shape(x=(2, 3, 4))[1]
    [(2, 12)]
    """,
    "Flatten": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> mx.sym.Flatten(x).infer_shape(x=(5, 2, 2))[1]
    [(5, 4)]
    """,
    "expand_dims": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> mx.sym.expand_dims(x, axis=1).infer_shape(x=(2, 3))[1]
    [(2, 1, 3)]
    """,
    "squeeze": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> mx.sym.squeeze(x, axis=1).infer_shape(x=(2, 1, 3))[1]
    [(2, 3)]
    """,
    "flip": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.flip(x, axis=1).eval(x=mx.nd.array([[1, 5, 3], [4, 2, 6]]))[0].asnumpy())
    [[3. 5. 1.]
     [6. 2. 4.]]
    """,
    "reverse": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.reverse(x, axis=0).eval(x=mx.nd.array([[1, 5, 3], [4, 2, 6]]))[0].asnumpy())
    [[4. 2. 6.]
     [1. 5. 3.]]
    """,
    "swapaxes": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.swapaxes(x, dim1=0, dim2=1).eval(x=mx.nd.array([[1, 5, 3], [4, 2, 6]]))[0].asnumpy())
    [[1. 4.]
     [5. 2.]
     [3. 6.]]
    """,
    "SwapAxis": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> mx.sym.SwapAxis(x, dim1=0, dim2=2).infer_shape(x=(2, 3, 4))[1]
    [(4, 3, 2)]
    """,
    "tile": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.tile(x, reps=(1, 2)).eval(x=mx.nd.array([[1, 5, 3], [4, 2, 6]]))[0].asnumpy())
    [[1. 5. 3. 1. 5. 3.]
     [4. 2. 6. 4. 2. 6.]]
    """,
    "repeat": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.repeat(x, repeats=2, axis=0).eval(x=mx.nd.array([[1, 5, 3], [4, 2, 6]]))[0].asnumpy())
    [[1. 5. 3.]
     [1. 5. 3.]
     [4. 2. 6.]
     [4. 2. 6.]]
    """,
    "broadcast_to": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.broadcast_to(x, shape=(2, 3)).eval(x=mx.nd.array([[1, 2, 3]]))[0].asnumpy())
    [[1. 2. 3.]
     [1. 2. 3.]]
    """,
    "broadcast_axis": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.broadcast_axis(x, axis=0, size=2).eval(x=mx.nd.array([[1, 2, 3]]))[0].asnumpy())
    [[1. 2. 3.]
     [1. 2. 3.]]
    """,
    "broadcast_axes": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.broadcast_axes(x, axis=1, size=2).eval(x=mx.nd.array([[1], [2]]))[0].asnumpy())
    [[1. 1.]
     [2. 2.]]
    """,
    "broadcast_like": """
    >>> import cellonnx.mxnet as mx
    >>> x, y = mx.sym.var('x'), mx.sym.var('y')
    >>> mx.sym.broadcast_like(x, y).infer_shape(x=(1, 3), y=(4, 3))[1]
    [(4, 3)]
    """,
    "reshape_like": """
    >>> import cellonnx.mxnet as mx
    >>> x, y = mx.sym.var('x'), mx.sym.var('y')
    >>> mx.sym.reshape_like(x, y).infer_shape(x=(2, 6), y=(3, 4))[1]
    [(3, 4)]
    """,
    "slice": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.slice(x, begin=(0, 1),
    ...     end=(2, 3)).eval(x=mx.nd.array([[1, 5, 3], [4, 2, 6]]))[0].asnumpy())
    [[5. 3.]
     [2. 6.]]
    """,
    "slice_axis": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.slice_axis(x, axis=1, begin=0,
    ...     end=2).eval(x=mx.nd.array([[1, 5, 3], [4, 2, 6]]))[0].asnumpy())
    [[1. 5.]
     [4. 2.]]
    """,
    "slice_like": """
    >>> import cellonnx.mxnet as mx
    >>> x, y = mx.sym.var('x'), mx.sym.var('y')
    >>> mx.sym.slice_like(x, y).infer_shape(x=(4, 5), y=(2, 3))[1]
    [(2, 3)]
    """,
    "split": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> mx.sym.split(x, num_outputs=3, axis=1).infer_shape(x=(2, 6))[1]
    [(2, 2), (2, 2), (2, 2)]
    """,
    "SliceChannel": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> parts = mx.sym.SliceChannel(x, num_outputs=3, name='split')
    >>> parts.list_outputs()
    ['split_output0', 'split_output1', 'split_output2']
    >>> print(parts[1].eval(x=mx.nd.array([[1, 5, 3], [4, 2, 6]]))[0].asnumpy())
    [[5.]
     [2.]]
    """,
    "split_v2": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> mx.sym.split_v2(x, (1,), axis=1).infer_shape(x=(2, 3))[1]
    [(2, 1), (2, 2)]
    """,
    "concat": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> mx.sym.concat(a, b, dim=1).infer_shape(a=(2, 3), b=(2, 4))[1]
    [(2, 7)]
    """,
    "Concat": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> c = mx.sym.Concat(a, b, dim=0, name='cat')
    >>> sorted(c.list_attr().items())
    [('dim', '0'), ('num_args', '2')]
    >>> c.infer_shape(a=(2, 3), b=(1, 3))[1]
    [(3, 3)]
    """,
    "stack": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> mx.sym.stack(a, b, axis=1).infer_shape(a=(2, 3), b=(2, 3))[1]
    [(2, 2, 3)]
    """,
    "add_n": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.add_n(a, b, a).eval(a=mx.nd.array([1, 2]), b=mx.nd.array([10, 20]))[0].asnumpy())
    [12. 24.]
    """,
    "ElementWiseSum": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.ElementWiseSum(a, b).eval(a=mx.nd.array([1, 2]), b=mx.nd.array([3, 4]))[0].asnumpy())
    [4. 6.]
    """,
    "depth_to_space": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> mx.sym.depth_to_space(x, block_size=2).infer_shape(x=(1, 8, 2, 3))[1]
    [(1, 2, 4, 6)]
    """,
    "space_to_depth": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> mx.sym.space_to_depth(x, block_size=2).infer_shape(x=(1, 2, 4, 6))[1]
    [(1, 8, 2, 3)]
    """,
    "pad": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> mx.sym.pad(x, mode='constant', pad_width=(0, 0, 0, 0, 1, 1, 2, 2)).infer_shape(x=(1, 1, 2, 3))[1]
    [(1, 1, 4, 7)]
    """,
    "Pad": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> y = mx.sym.Pad(x, mode='edge', pad_width=(0, 0, 0, 0, 0, 0, 1, 1))
    >>> print(y.eval(x=mx.nd.array([[[[1, 2]]]]))[0].asnumpy())
    [[[[1. 1. 2. 2.]]]]
    """,
    "diag": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.diag(x).eval(x=mx.nd.array([[1, 5, 3], [4, 2, 6]]))[0].asnumpy())
    [1. 2.]
    """,
    "take": """
    >>> import cellonnx.mxnet as mx
    >>> a, i = mx.sym.var('a'), mx.sym.var('i')
    >>> print(mx.sym.take(a, i).eval(a=mx.nd.array([[1, 2], [3, 4], [5, 6]]),
    ...     i=mx.nd.array([2, 0]))[0].asnumpy())
    [[5. 6.]
     [1. 2.]]
    """,
    "batch_take": """
    >>> import cellonnx.mxnet as mx
    >>> a, i = mx.sym.var('a'), mx.sym.var('i')
    >>> print(mx.sym.batch_take(a, i).eval(a=mx.nd.array([[1, 2], [3, 4]]),
    ...     i=mx.nd.array([1, 0], dtype='int32'))[0].asnumpy())
    [2. 3.]
    """,
    "pick": """
    >>> import cellonnx.mxnet as mx
    >>> a, i = mx.sym.var('a'), mx.sym.var('i')
    >>> print(mx.sym.pick(a, i, axis=1).eval(a=mx.nd.array([[1, 2], [3, 4]]),
    ...     i=mx.nd.array([1, 0]))[0].asnumpy())
    [2. 3.]
    """,
    "one_hot": """
    >>> import cellonnx.mxnet as mx
    >>> i = mx.sym.var('i')
    >>> print(mx.sym.one_hot(i, depth=3).eval(i=mx.nd.array([2, 0]))[0].asnumpy())
    [[0. 0. 1.]
     [1. 0. 0.]]
    """,
    "where": """
    >>> import cellonnx.mxnet as mx
    >>> c, a, b = mx.sym.var('c'), mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.where(c, a, b).eval(c=mx.nd.array([1, 0]), a=mx.nd.array([1, 2]),
    ...     b=mx.nd.array([7, 8]))[0].asnumpy())
    [1. 8.]
    """,
    "gather_nd": """
    >>> import cellonnx.mxnet as mx
    >>> a, i = mx.sym.var('a'), mx.sym.var('i')
    >>> print(mx.sym.gather_nd(a, i).eval(a=mx.nd.array([[1, 2], [3, 4]]),
    ...     i=mx.nd.array([[1, 0], [0, 1]]))[0].asnumpy())
    [3. 2.]
    """,
    "scatter_nd": """
    >>> import cellonnx.mxnet as mx
    >>> d, i = mx.sym.var('d'), mx.sym.var('i')
    >>> print(mx.sym.scatter_nd(d, i, shape=(2, 2)).eval(d=mx.nd.array([5, 6]),
    ...     i=mx.nd.array([[1, 0], [0, 1]]))[0].asnumpy())
    [[0. 6.]
     [5. 0.]]
    """,
    "clip": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.clip(x, a_min=2, a_max=4).eval(x=mx.nd.array([[1, 5, 3], [4, 2, 6]]))[0].asnumpy())
    [[2. 4. 3.]
     [4. 2. 4.]]
    """,
    "cast": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> mx.sym.cast(x, dtype='float16').infer_type(x='float32')[1]
    [<class 'numpy.float16'>]
    """,
    "Cast": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> y = mx.sym.Cast(x, dtype='int32')
    >>> print(y.eval(x=mx.nd.array([1.7, -2.2]))[0].asnumpy())
    [ 1 -2]
    """,
    "dot": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> mx.sym.dot(a, b, transpose_b=True).infer_shape(a=(2, 3), b=(4, 3))[1]
    [(2, 4)]
    """,
    "batch_dot": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> mx.sym.batch_dot(a, b).infer_shape(a=(5, 2, 3), b=(5, 3, 4))[1]
    [(5, 2, 4)]
    """,
    "khatri_rao": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.khatri_rao(a, b).eval(a=mx.nd.array([[1, 2]]),
    ...     b=mx.nd.array([[3, 4], [5, 6]]))[0].asnumpy())
    [[ 3.  8.]
     [ 5. 12.]]
    """,
    "shape_array": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.shape_array(x).eval(x=mx.nd.array([[1, 5, 3], [4, 2, 6]]))[0].asnumpy())
    [2 3]
    """,
    "size_array": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.size_array(x).eval(x=mx.nd.array([[1, 5, 3], [4, 2, 6]]))[0].asnumpy())
    [6]
    """,
    "softmax": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.softmax(x).eval(x=mx.nd.array([[1, 2, 3]]))[0].asnumpy().round(4))
    [[0.09   0.2447 0.6652]]
    """,
    "log_softmax": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.log_softmax(x).eval(x=mx.nd.array([[1, 2, 3]]))[0].asnumpy().round(4))
    [[-2.4076 -1.4076 -0.4076]]
    """,
    "softmin": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.softmin(x).eval(x=mx.nd.array([[1, 2, 3]]))[0].asnumpy().round(4))
    [[0.6652 0.2447 0.09  ]]
    """,
    "SoftmaxActivation": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.SoftmaxActivation(x).eval(x=mx.nd.array([[1, 2, 3]]))[0].asnumpy().round(4))
    [[0.09   0.2447 0.6652]]
    """,
    "smooth_l1": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.smooth_l1(x, scalar=1.0).eval(x=mx.nd.array([-2.0, 0.5]))[0].asnumpy())
    [1.5   0.125]
    """,
    "Activation": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> y = mx.sym.Activation(x, act_type='relu', name='relu1')
    >>> y.list_arguments()
    ['x']
    >>> print(y.eval(x=mx.nd.array([-1, 2]))[0].asnumpy())
    [0. 2.]
    """,
    "LeakyReLU": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> y = mx.sym.LeakyReLU(x, act_type='prelu', name='act')
    >>> y.list_arguments()
    ['x', 'act_gamma']
    >>> y.infer_shape(x=(2, 3, 4, 4))[0]
    [(2, 3, 4, 4), (3,)]
    """,
    "FullyConnected": """
    >>> import cellonnx.mxnet as mx
    >>> data = mx.sym.var('data')
    >>> fc = mx.sym.FullyConnected(data, num_hidden=4, name='fc1')
    >>> fc.list_arguments()
    ['data', 'fc1_weight', 'fc1_bias']
    >>> fc.infer_shape(data=(2, 3, 5))
    ([(2, 3, 5), (4, 15), (4,)], [(2, 4)], [])
    """,
    "Convolution": """
    >>> import cellonnx.mxnet as mx
    >>> data = mx.sym.var('data')
    >>> conv = mx.sym.Convolution(data, kernel=(3, 3), num_filter=8, pad=(1, 1), name='conv')
    >>> conv.list_arguments()
    ['data', 'conv_weight', 'conv_bias']
    >>> conv.infer_shape(data=(1, 3, 16, 16))
    ([(1, 3, 16, 16), (8, 3, 3, 3), (8,)], [(1, 8, 16, 16)], [])
    """,
    "Convolution_v1": """
    >>> import cellonnx.mxnet as mx
    >>> data = mx.sym.var('data')
    >>> conv = mx.sym.Convolution_v1(data, kernel=(3, 3), num_filter=2, name='conv')
    >>> conv.infer_shape(data=(1, 3, 5, 5))[1]
    [(1, 2, 3, 3)]
    """,
    "Deconvolution": """
    >>> import cellonnx.mxnet as mx
    >>> data = mx.sym.var('data')
    >>> up = mx.sym.Deconvolution(data, kernel=(2, 2), stride=(2, 2), num_filter=4, name='up')
    >>> up.infer_shape(data=(1, 8, 5, 5))
    ([(1, 8, 5, 5), (8, 4, 2, 2)], [(1, 4, 10, 10)], [])
    """,
    "Pooling": """
    >>> import cellonnx.mxnet as mx
    >>> data = mx.sym.var('data')
    >>> mx.sym.Pooling(data, kernel=(2, 2), stride=(2, 2), pool_type='max').infer_shape(data=(1, 3, 8, 8))[1]
    [(1, 3, 4, 4)]
    >>> mx.sym.Pooling(data, global_pool=True, pool_type='avg').infer_shape(data=(1, 3, 8, 8))[1]
    [(1, 3, 1, 1)]
    """,
    "Pooling_v1": """
    >>> import cellonnx.mxnet as mx
    >>> data = mx.sym.var('data')
    >>> mx.sym.Pooling_v1(data, kernel=(2, 2), pool_type='avg').infer_shape(data=(1, 3, 8, 8))[1]
    [(1, 3, 7, 7)]
    """,
    "BatchNorm": """
    >>> import cellonnx.mxnet as mx
    >>> data = mx.sym.var('data')
    >>> bn = mx.sym.BatchNorm(data, fix_gamma=False, name='bn')
    >>> bn.list_arguments()
    ['data', 'bn_gamma', 'bn_beta']
    >>> bn.list_auxiliary_states()
    ['bn_moving_mean', 'bn_moving_var']
    >>> bn.infer_shape(data=(2, 3, 4, 4))[2]
    [(3,), (3,)]
    """,
    "LayerNorm": """
    >>> import cellonnx.mxnet as mx
    >>> data = mx.sym.var('data')
    >>> ln = mx.sym.LayerNorm(data, name='ln')
    >>> ln.list_arguments()
    ['data', 'ln_gamma', 'ln_beta']
    >>> ln.infer_shape(data=(2, 5))[0]
    [(2, 5), (5,), (5,)]
    """,
    "GroupNorm": """
    >>> import cellonnx.mxnet as mx
    >>> data = mx.sym.var('data')
    >>> gn = mx.sym.GroupNorm(data, num_groups=2, name='gn')
    >>> gn.infer_shape(data=(2, 4, 3, 3))[0]
    [(2, 4, 3, 3), (2,), (2,)]
    """,
    "InstanceNorm": """
    >>> import cellonnx.mxnet as mx
    >>> data = mx.sym.var('data')
    >>> norm = mx.sym.InstanceNorm(data, name='norm')
    >>> norm.infer_shape(data=(2, 3, 5))[0]
    [(2, 3, 5), (3,), (3,)]
    """,
    "L2Normalization": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.L2Normalization(x).eval(x=mx.nd.array([[3, 4]]))[0].asnumpy())
    [[0.6 0.8]]
    """,
    "LRN": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> mx.sym.LRN(x, nsize=3).infer_shape(x=(1, 4, 2, 2))[1]
    [(1, 4, 2, 2)]
    """,
    "Dropout": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> y = mx.sym.Dropout(x, p=0.5)
    >>> print(y.eval(x=mx.nd.array([1, 2, 3]))[0].asnumpy())
    [1. 2. 3.]
    """,
    "Embedding": """
    >>> import cellonnx.mxnet as mx
    >>> data = mx.sym.var('data')
    >>> emb = mx.sym.Embedding(data, input_dim=10, output_dim=4, name='emb')
    >>> emb.list_arguments()
    ['data', 'emb_weight']
    >>> emb.infer_shape(data=(2, 3))
    ([(2, 3), (10, 4)], [(2, 3, 4)], [])
    """,
    "SoftmaxOutput": """
    >>> import cellonnx.mxnet as mx
    >>> data = mx.sym.var('data')
    >>> out = mx.sym.SoftmaxOutput(data, name='softmax')
    >>> out.list_arguments()
    ['data', 'softmax_label']
    >>> out.infer_shape(data=(4, 10))[0]
    [(4, 10), (4,)]
    """,
    "Softmax": """
    >>> import cellonnx.mxnet as mx
    >>> data = mx.sym.var('data')
    >>> mx.sym.Softmax(data, name='sm').list_arguments()
    ['data', 'sm_label']
    """,
    "MakeLoss": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> mx.sym.MakeLoss(mx.sym.square(x), name='loss').list_outputs()
    ['loss_output']
    """,
    "make_loss": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.make_loss(mx.sym.square(x)).eval(x=mx.nd.array([1, 2]))[0].asnumpy())
    [1. 4.]
    """,
    "UpSampling": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> mx.sym.UpSampling(x, scale=2, sample_type='nearest').infer_shape(x=(1, 3, 4, 4))[1]
    [(1, 3, 8, 8)]
    """,
    "SequenceMask": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.SequenceMask(x, value=-1).eval(x=mx.nd.array([[1, 2], [3, 4]]))[0].asnumpy())
    [[1. 2.]
     [3. 4.]]
    """,
    "SequenceLast": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.SequenceLast(x).eval(x=mx.nd.array([[1, 2], [3, 4]]))[0].asnumpy())
    [3. 4.]
    """,
    "SequenceReverse": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.SequenceReverse(x).eval(x=mx.nd.array([[1, 2], [3, 4]]))[0].asnumpy())
    [[3. 4.]
     [1. 2.]]
    """,
    "zeros": """
    >>> import cellonnx.mxnet as mx
    >>> print(mx.sym.zeros((2, 3)).eval()[0].asnumpy())
    [[0. 0. 0.]
     [0. 0. 0.]]
    """,
    "ones": """
    >>> import cellonnx.mxnet as mx
    >>> print(mx.sym.ones((2,), dtype='int32').eval()[0].asnumpy())
    [1 1]
    """,
    "full": """
    >>> import cellonnx.mxnet as mx
    >>> print(mx.sym.full((2, 2), 7).eval()[0].asnumpy())
    [[7. 7.]
     [7. 7.]]
    """,
    "arange": """
    >>> import cellonnx.mxnet as mx
    >>> print(mx.sym.arange(0, 6, step=2).eval()[0].asnumpy())
    [0. 2. 4.]
    """,
    "eye": """
    >>> import cellonnx.mxnet as mx
    >>> print(mx.sym.eye(3, k=1).eval()[0].asnumpy())
    [[0. 1. 0.]
     [0. 0. 1.]
     [0. 0. 0.]]
    """,
    "load": """
    >>> import cellonnx.mxnet as mx
    >>> fc = mx.sym.FullyConnected(mx.sym.var('data'), num_hidden=3, name='fc')
    >>> fc.save('fc-symbol.json')
    >>> mx.sym.load('fc-symbol.json').list_arguments()
    ['data', 'fc_weight', 'fc_bias']
    """,
    "load_json": """
    >>> import cellonnx.mxnet as mx
    >>> fc = mx.sym.FullyConnected(mx.sym.var('data'), num_hidden=3, name='fc')
    >>> mx.sym.load_json(fc.tojson()).list_outputs()
    ['fc_output']
    """,
    "Symbol": """
    >>> import cellonnx.mxnet as mx
    >>> a = mx.sym.var('a')
    >>> b = mx.sym.var('b')
    >>> c = 2 * a + b
    >>> c.list_arguments()
    ['a', 'b']
    >>> print(c.eval(a=mx.nd.array([1, 2]), b=mx.nd.array([10, 20]))[0].asnumpy())
    [12. 24.]
    """,
    "moments": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> mean, var = mx.sym.moments(x, axes=(1,))
    >>> print(mean.eval(x=mx.nd.array([[1, 3], [2, 6]]))[0].asnumpy())
    [2. 4.]
    """,
    "linalg_det": """
    >>> import cellonnx.mxnet as mx
    >>> a = mx.sym.var('a')
    >>> print(mx.sym.linalg_det(a).eval(a=mx.nd.array([[4.0, 2.0], [2.0, 3.0]]))[0].asnumpy().round(4))
    [8.]
    """,
    "linalg_inverse": """
    >>> import cellonnx.mxnet as mx
    >>> a = mx.sym.var('a')
    >>> print(mx.sym.linalg_inverse(a).eval(a=mx.nd.array([[4.0, 2.0], [2.0, 3.0]]))[0].asnumpy().round(4))
    [[ 0.375 -0.25 ]
     [-0.25   0.5  ]]
    """,
    "linalg_potrf": """
    >>> import cellonnx.mxnet as mx
    >>> a = mx.sym.var('a')
    >>> print(mx.sym.linalg_potrf(a).eval(a=mx.nd.array([[4.0, 2.0], [2.0, 3.0]]))[0].asnumpy().round(4))
    [[2.     0.    ]
     [1.     1.4142]]
    """,
    "linalg_potri": """
    >>> import cellonnx.mxnet as mx
    >>> a = mx.sym.var('a')
    >>> l = mx.sym.linalg_potrf(a)
    >>> print(mx.sym.linalg_potri(l).eval(a=mx.nd.array([[4.0, 2.0], [2.0, 3.0]]))[0].asnumpy().round(4))
    [[ 0.375 -0.25 ]
     [-0.25   0.5  ]]
    """,
    "linalg_sumlogdiag": """
    >>> import cellonnx.mxnet as mx
    >>> a = mx.sym.var('a')
    >>> print(mx.sym.linalg_sumlogdiag(a).eval(a=mx.nd.array([[4.0, 2.0], [2.0, 3.0]]))[0].asnumpy().round(4))
    [2.4849]
    """,
    "linalg_extractdiag": """
    >>> import cellonnx.mxnet as mx
    >>> a = mx.sym.var('a')
    >>> print(mx.sym.linalg_extractdiag(a).eval(a=mx.nd.array([[4.0, 2.0],
    ...     [2.0, 3.0]]))[0].asnumpy().round(4))
    [4. 3.]
    """,
    "linalg_makediag": """
    >>> import cellonnx.mxnet as mx
    >>> a = mx.sym.var('a')
    >>> print(mx.sym.linalg_makediag(a).eval(a=mx.nd.array([1.0, 2.0]))[0].asnumpy())
    [[1. 0.]
     [0. 2.]]
    """,
    "linalg_extracttrian": """
    >>> import cellonnx.mxnet as mx
    >>> a = mx.sym.var('a')
    >>> print(mx.sym.linalg_extracttrian(a).eval(a=mx.nd.array([[4.0, 2.0],
    ...     [2.0, 3.0]]))[0].asnumpy().round(4))
    [4. 2. 3.]
    """,
    "linalg_maketrian": """
    >>> import cellonnx.mxnet as mx
    >>> a = mx.sym.var('a')
    >>> print(mx.sym.linalg_maketrian(a).eval(a=mx.nd.array([1.0, 2.0, 3.0]))[0].asnumpy())
    [[1. 0.]
     [2. 3.]]
    """,
    "linalg_syrk": """
    >>> import cellonnx.mxnet as mx
    >>> a = mx.sym.var('a')
    >>> print(mx.sym.linalg_syrk(a).eval(a=mx.nd.array([[4.0, 2.0], [2.0, 3.0]]))[0].asnumpy().round(4))
    [[20. 14.]
     [14. 13.]]
    """,
    "linalg_gemm": """
    >>> import cellonnx.mxnet as mx
    >>> a, b, c = mx.sym.var('a'), mx.sym.var('b'), mx.sym.var('c')
    >>> print(mx.sym.linalg_gemm(a, b, c, alpha=2.0, beta=1.0).eval(a=mx.nd.array([[4.0, 2.0], [2.0, 3.0]]),
    ...     b=mx.nd.array([[4.0, 2.0], [2.0, 3.0]]), c=mx.nd.ones((2, 2)))[0].asnumpy())
    [[41. 29.]
     [29. 27.]]
    """,
    "linalg_trmm": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.linalg_trmm(a, b).eval(a=mx.nd.array([[4.0, 2.0], [2.0, 3.0]]),
    ...     b=mx.nd.ones((2, 2)))[0].asnumpy())
    [[4. 4.]
     [5. 5.]]
    """,
    "linalg_trsm": """
    >>> import cellonnx.mxnet as mx
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.linalg_trsm(a, b).eval(a=mx.nd.array([[4.0, 2.0], [2.0, 3.0]]),
    ...     b=mx.nd.ones((2, 2)))[0].asnumpy().round(4))
    [[0.25   0.25  ]
     [0.1667 0.1667]]
    """,
    "linalg_slogdet": """
    >>> import cellonnx.mxnet as mx
    >>> a = mx.sym.var('a')
    >>> sign, logdet = mx.sym.linalg_slogdet(a)
    >>> print(logdet.eval(a=mx.nd.array([[4.0, 2.0], [2.0, 3.0]]))[0].asnumpy().round(4))
    [2.0794]
    """,
    "linalg_gelqf": """
    >>> import cellonnx.mxnet as mx
    >>> a = mx.sym.var('a')
    >>> q, l = mx.sym.linalg_gelqf(a)
    >>> print(mx.sym.abs(l).eval(a=mx.nd.array([[3.0, 4.0]]))[0].asnumpy())
    [[5.]]
    """,
    "random_pdf_normal": """
    >>> import cellonnx.mxnet as mx
    >>> s, mu, sigma = mx.sym.var('s'), mx.sym.var('mu'), mx.sym.var('sigma')
    >>> print(mx.sym.random_pdf_normal(s, mu, sigma).eval(s=mx.nd.array([[0.0, 1.0]]), mu=mx.nd.array([0.0]),
    ...     sigma=mx.nd.array([1.0]))[0].asnumpy().round(4))
    [[0.3989 0.242 ]]
    """,
    "random_pdf_uniform": """
    >>> import cellonnx.mxnet as mx
    >>> s, lo, hi = mx.sym.var('s'), mx.sym.var('lo'), mx.sym.var('hi')
    >>> print(mx.sym.random_pdf_uniform(s, lo, hi).eval(s=mx.nd.array([[0.5, 1.5]]), lo=mx.nd.array([0.0]),
    ...     hi=mx.nd.array([2.0]))[0].asnumpy())
    [[0.5 0.5]]
    """,
    "random_pdf_exponential": """
    >>> import cellonnx.mxnet as mx
    >>> s, lam = mx.sym.var('s'), mx.sym.var('lam')
    >>> print(mx.sym.random_pdf_exponential(s, lam).eval(s=mx.nd.array([[0.0, 1.0]]),
    ...     lam=mx.nd.array([2.0]))[0].asnumpy().round(4))
    [[2.     0.2707]]
    """,
    "random_pdf_poisson": """
    >>> import cellonnx.mxnet as mx
    >>> s, lam = mx.sym.var('s'), mx.sym.var('lam')
    >>> print(mx.sym.random_pdf_poisson(s, lam).eval(s=mx.nd.array([[0.0, 2.0]]),
    ...     lam=mx.nd.array([1.0]))[0].asnumpy().round(4))
    [[0.3679 0.1839]]
    """,
    "random_pdf_gamma": """
    >>> import cellonnx.mxnet as mx
    >>> s, a, b = mx.sym.var('s'), mx.sym.var('a'), mx.sym.var('b')
    >>> print(mx.sym.random_pdf_gamma(s, a, b).eval(s=mx.nd.array([[1.0, 2.0]]), a=mx.nd.array([2.0]),
    ...     b=mx.nd.array([1.0]))[0].asnumpy().round(4))
    [[0.3679 0.2707]]
    """,
    "random_pdf_negative_binomial": """
    >>> import cellonnx.mxnet as mx
    >>> s, k, p = mx.sym.var('s'), mx.sym.var('k'), mx.sym.var('p')
    >>> print(mx.sym.random_pdf_negative_binomial(s, k, p).eval(s=mx.nd.array([[0.0, 1.0]]),
    ...     k=mx.nd.array([2.0]), p=mx.nd.array([0.5]))[0].asnumpy().round(4))
    [[0.25 0.25]]
    """,
    "random_pdf_generalized_negative_binomial": """
    >>> import cellonnx.mxnet as mx
    >>> s, mu, alpha = mx.sym.var('s'), mx.sym.var('mu'), mx.sym.var('alpha')
    >>> print(mx.sym.random_pdf_generalized_negative_binomial(s, mu, alpha).eval(s=mx.nd.array([[0.0, 1.0]]),
    ...     mu=mx.nd.array([1.0]), alpha=mx.nd.array([0.5]))[0].asnumpy().round(4))
    [[0.4444 0.2963]]
    """,
    "random_pdf_dirichlet": """
    >>> import cellonnx.mxnet as mx
    >>> s, alpha = mx.sym.var('s'), mx.sym.var('alpha')
    >>> print(mx.sym.random_pdf_dirichlet(s, alpha).eval(s=mx.nd.array([[[0.2, 0.8]]]),
    ...     alpha=mx.nd.array([[1.0, 2.0]]))[0].asnumpy().round(4))
    [[1.6]]
    """,
    "ravel_multi_index": """
    >>> import cellonnx.mxnet as mx
    >>> i = mx.sym.var('i')
    >>> print(mx.sym.ravel_multi_index(i, shape=(3, 4)).eval(i=mx.nd.array([[1, 2], [3, 0]]))[0].asnumpy())
    [7. 8.]
    """,
    "unravel_index": """
    >>> import cellonnx.mxnet as mx
    >>> i = mx.sym.var('i')
    >>> print(mx.sym.unravel_index(i, shape=(3, 4)).eval(i=mx.nd.array([7, 8]))[0].asnumpy())
    [[1. 2.]
     [3. 0.]]
    """,
    "softmax_cross_entropy": """
    >>> import cellonnx.mxnet as mx
    >>> x, y = mx.sym.var('x'), mx.sym.var('y')
    >>> print(mx.sym.softmax_cross_entropy(x, y).eval(x=mx.nd.array([[0.0, 0.0], [1.0, 3.0]]),
    ...     y=mx.nd.array([0, 1]))[0].asnumpy().round(4))
    [0.8201]
    """,
    "im2col": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> mx.sym.im2col(x, kernel=(2, 2)).infer_shape(x=(1, 3, 4, 4))[1]
    [(1, 12, 9)]
    """,
    "col2im": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> mx.sym.col2im(x, output_size=(4, 4), kernel=(2, 2)).infer_shape(x=(1, 12, 9))[1]
    [(1, 3, 4, 4)]
    """,
    "GridGenerator": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> mx.sym.GridGenerator(x, transform_type='affine', target_shape=(3, 4)).infer_shape(x=(2, 6))[1]
    [(2, 2, 3, 4)]
    """,
    "crop": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.crop(x, begin=(0, 1),
    ...     end=(2, 3)).eval(x=mx.nd.array([[1, 2, 3], [4, 5, 6]]))[0].asnumpy())
    [[2. 3.]
     [5. 6.]]
    """,
    "CTCLoss": """
    >>> import cellonnx.mxnet as mx
    >>> data, label = mx.sym.var('data'), mx.sym.var('label')
    >>> mx.sym.CTCLoss(data, label).infer_shape(data=(5, 2, 4), label=(2, 3))[1]
    [(2,)]
    """,
    "ctc_loss": """
    >>> import cellonnx.mxnet as mx
    >>> data, label = mx.sym.var('data'), mx.sym.var('label')
    >>> print(mx.sym.ctc_loss(data, label).eval(data=mx.nd.zeros((2, 1, 3)),
    ...     label=mx.nd.array([[1]]))[0].asnumpy().round(4))
    [1.0986]
    """,
    "all_finite": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> print(mx.sym.all_finite(x).eval(x=mx.nd.array([1.0, 2.0]))[0].asnumpy())
    [1.]
    """,
    "BilinearSampler": """
    >>> import cellonnx.mxnet as mx
    >>> data, grid = mx.sym.var('data'), mx.sym.var('grid')
    >>> mx.sym.BilinearSampler(data, grid).infer_shape(data=(1, 3, 4, 4), grid=(1, 2, 5, 6))[1]
    [(1, 3, 5, 6)]
    """,
    "SpatialTransformer": """
    >>> import cellonnx.mxnet as mx
    >>> data, loc = mx.sym.var('data'), mx.sym.var('loc')
    >>> mx.sym.SpatialTransformer(data, loc, target_shape=(2, 2), transform_type='affine',
    ...     sampler_type='bilinear').infer_shape(data=(1, 3, 4, 4), loc=(1, 6))[1]
    [(1, 3, 2, 2)]
    """,
    "AdaptiveAvgPooling2D": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> y = mx.sym.AdaptiveAvgPooling2D(x, output_size=1)
    >>> print(y.eval(x=mx.nd.arange(8).reshape((1, 2, 2, 2)))[0].asnumpy())
    [[[[1.5]]
    <BLANKLINE>
      [[5.5]]]]
    """,
    "BilinearResize2D": """
    >>> import cellonnx.mxnet as mx
    >>> x = mx.sym.var('x')
    >>> y = mx.sym.BilinearResize2D(x, height=2, width=2)
    >>> print(y.eval(x=mx.nd.arange(4).reshape((1, 1, 2, 2)))[0].asnumpy())
    [[[[0. 1.]
       [2. 3.]]]]
    """,
    "sequence_mask": """
    >>> import cellonnx.mxnet as mx
    >>> x, n = mx.sym.var('x'), mx.sym.var('n')
    >>> y = mx.sym.sequence_mask(x, n, use_sequence_length=True)
    >>> print(y.eval(x=mx.nd.ones((3, 2)), n=mx.nd.array([1, 2]))[0].asnumpy())
    [[1. 1.]
     [0. 1.]
     [0. 0.]]
    """,
}

_BROADCAST = "with broadcasting: the shapes are aligned from the right and axes of size 1 stretched"
SUMMARIES = {
    "AdaptiveAvgPooling2D": "Average pooling of NCHW data to a given output size (MXNet's "
    "contrib.AdaptiveAvgPooling2D).",
    "BilinearResize2D": "Bilinear resizing of NCHW data (MXNet's contrib.BilinearResize2D).",
    "fix": "Round each element toward zero.",
    "trunc": "Truncate each element toward zero (the integer part).",
    "rint": "Round each element to the nearest integer, halves toward the lower one (MXNet's rint).",
    "round": "Round each element to the nearest integer, halves away from zero.",
    "tan": "Elementwise tangent (radians).",
    "arcsinh": "Elementwise inverse hyperbolic sine.",
    "arccosh": "Elementwise inverse hyperbolic cosine (inputs >= 1).",
    "arctanh": "Elementwise inverse hyperbolic tangent (inputs in (-1, 1)).",
    "sinh": "Elementwise hyperbolic sine.",
    "cosh": "Elementwise hyperbolic cosine.",
    "degrees": "Convert angles from radians to degrees.",
    "radians": "Convert angles from degrees to radians.",
    "hard_sigmoid": "Hard sigmoid: max(0, min(1, alpha * x + beta)) with alpha 0.2 and beta 0.5 by default.",
    "cbrt": "Elementwise cube root.",
    "rcbrt": "Elementwise reciprocal cube root, 1 / cbrt(x).",
    "zeros_like": "An array of zeros of the input's shape and dtype.",
    "ones_like": "An array of ones of the input's shape and dtype.",
    "identity": "The input unchanged (a copy).",
    "logical_not": "Elementwise logical not: 1 where the input is 0, else 0.",
    "log10": "Elementwise base-10 logarithm.",
    "log2": "Elementwise base-2 logarithm.",
    "broadcast_plus": f"Elementwise sum {_BROADCAST} (broadcast_add).",
    "broadcast_sub": f"Elementwise difference {_BROADCAST}.",
    "broadcast_minus": f"Elementwise difference {_BROADCAST} (broadcast_sub).",
    "broadcast_mul": f"Elementwise product {_BROADCAST}.",
    "broadcast_div": f"Elementwise quotient {_BROADCAST}.",
    "broadcast_mod": f"Elementwise remainder (the divisor's sign) {_BROADCAST}.",
    "broadcast_power": f"Elementwise lhs ** rhs {_BROADCAST}.",
    "broadcast_maximum": f"Elementwise maximum {_BROADCAST}.",
    "broadcast_minimum": f"Elementwise minimum {_BROADCAST}.",
    "broadcast_hypot": f"Elementwise sqrt(lhs ** 2 + rhs ** 2) {_BROADCAST}.",
    "broadcast_equal": f"1 where lhs == rhs, else 0, {_BROADCAST}.",
    "broadcast_not_equal": f"1 where lhs != rhs, else 0, {_BROADCAST}.",
    "broadcast_greater": f"1 where lhs > rhs, else 0, {_BROADCAST}.",
    "broadcast_greater_equal": f"1 where lhs >= rhs, else 0, {_BROADCAST}.",
    "broadcast_lesser": f"1 where lhs < rhs, else 0, {_BROADCAST}.",
    "broadcast_lesser_equal": f"1 where lhs <= rhs, else 0, {_BROADCAST}.",
    "broadcast_logical_and": f"1 where both inputs are nonzero, else 0, {_BROADCAST}.",
    "broadcast_logical_or": f"1 where either input is nonzero, else 0, {_BROADCAST}.",
    "broadcast_logical_xor": f"1 where exactly one input is nonzero, else 0, {_BROADCAST}.",
    "add": f"Elementwise sum {_BROADCAST} (a broadcast_add node on Symbols).",
    "plus": f"Elementwise sum {_BROADCAST} (a broadcast_add node on Symbols).",
    "sub": f"Elementwise difference {_BROADCAST} (a broadcast_sub node on Symbols).",
    "minus": f"Elementwise difference {_BROADCAST} (a broadcast_sub node on Symbols).",
    "subtract": f"Elementwise difference {_BROADCAST} (a broadcast_sub node on Symbols).",
    "mul": f"Elementwise product {_BROADCAST} (a broadcast_mul node on Symbols).",
    "multiply": f"Elementwise product {_BROADCAST} (a broadcast_mul node on Symbols).",
    "div": f"Elementwise quotient {_BROADCAST} (a broadcast_div node on Symbols).",
    "divide": f"Elementwise quotient {_BROADCAST} (a broadcast_div node on Symbols).",
    "true_divide": f"Elementwise quotient {_BROADCAST} (a broadcast_div node on Symbols).",
    "mod": f"Elementwise remainder {_BROADCAST} (a broadcast_mod node on Symbols).",
    "modulo": f"Elementwise remainder {_BROADCAST} (a broadcast_mod node on Symbols).",
    "equal": f"1 where lhs == rhs, else 0, {_BROADCAST} (a broadcast_equal node on Symbols).",
    "not_equal": f"1 where lhs != rhs, else 0, {_BROADCAST} (a broadcast_not_equal node on Symbols).",
    "greater": f"1 where lhs > rhs, else 0, {_BROADCAST} (a broadcast_greater node on Symbols).",
    "greater_equal": f"1 where lhs >= rhs, else 0, {_BROADCAST} (a broadcast_greater_equal node).",
    "lesser": f"1 where lhs < rhs, else 0, {_BROADCAST} (a broadcast_lesser node on Symbols).",
    "lesser_equal": f"1 where lhs <= rhs, else 0, {_BROADCAST} (a broadcast_lesser_equal node).",
    "logical_and": f"1 where both inputs are nonzero, {_BROADCAST} (broadcast_logical_and).",
    "logical_or": f"1 where either input is nonzero, {_BROADCAST} (broadcast_logical_or).",
    "logical_xor": f"1 where exactly one input is nonzero, {_BROADCAST} (broadcast_logical_xor).",
    "elemwise_sub": "Elementwise difference of two arrays of the same shape.",
    "elemwise_mul": "Elementwise product of two arrays of the same shape.",
    "elemwise_div": "Elementwise quotient of two arrays of the same shape.",
    "minimum": "Elementwise minimum of two arrays (broadcast) or of an array and a number.",
    "hypot": "Elementwise sqrt(a ** 2 + b ** 2) of two arrays (broadcast) or of an array and a number.",
    "power": "Elementwise base ** exp of two arrays (broadcast) or of an array and a number.",
    "prod": "The product over the given axes (all when None).",
    "min": "The minimum over the given axes (all when None).",
    "nansum": "The sum over the given axes, NaN counted as zero.",
    "nanprod": "The product over the given axes, NaN counted as one.",
    "sum_axis": "The sum over the given axes (sum).",
    "max_axis": "The maximum over the given axes (max).",
    "min_axis": "The minimum over the given axes (min).",
    "argmin": "The indices of the minima along an axis (as floats, as MXNet 1.x returns them).",
    "argsort": "The indices that sort the input along an axis.",
    "cumsum": "The cumulative sum along an axis.",
    "argmax_channel": "The indices of the maxima along the last axis.",
    "flip": "Reverse the order of the elements along the given axes (reverse).",
    "reverse": "Reverse the order of the elements along the given axes.",
    "SwapAxis": "Swap two axes (swapaxes).",
    "repeat": "Repeat each element along an axis (the flattened input when no axis is given).",
    "broadcast_axis": "Stretch axes of size 1 to the given sizes.",
    "broadcast_axes": "Stretch axes of size 1 to the given sizes (broadcast_axis).",
    "broadcast_like": "Broadcast the first input to the shape of the second.",
    "slice_like": "Slice the first input to the shape of the second (on the given axes, all by default).",
    "add_n": "The elementwise sum of any number of arrays of the same shape.",
    "ElementWiseSum": "The elementwise sum of any number of arrays of the same shape (add_n).",
    "depth_to_space": "Move blocks of channels into spatial blocks: (N, C, H, W) -> (N, C/b^2, H*b, W*b).",
    "space_to_depth": "Move spatial blocks into channels: (N, C, H, W) -> (N, C*b^2, H/b, W/b).",
    "diag": "The k-th diagonal of a matrix, or a matrix with a vector on its k-th diagonal.",
    "Cast": "Cast to another dtype.",
    "softmin": "Softmax of the negated input along an axis.",
    "SoftmaxActivation": "Softmax over the last axis (mode 'instance') or the channel axis (mode 'channel').",
    "LayerNorm": "Layer normalization over an axis, with learnable gamma and beta of that axis' size.",
    "InstanceNorm": "Instance normalization: each sample and channel normalized over its spatial axes.",
    "L2Normalization": "Divide by the L2 norm over each instance, channel or spatial position.",
    "SoftmaxOutput": "Softmax of the input; its gradient is the cross-entropy loss's against the label.",
    "Softmax": "Softmax of the input with the cross-entropy loss's gradient (SoftmaxOutput).",
    "MakeLoss": "The input unchanged; its gradient is grad_scale (the input is treated as a loss).",
    "make_loss": "The input unchanged; its gradient is one (the input is treated as a loss).",
    "UpSampling": "Upsample by an integer scale (nearest, or bilinear with a learnable kernel).",
    "full": "An array of the given shape filled with a value.",
    "eye": "A 2-D array with ones on the k-th diagonal and zeros elsewhere.",
    "linalg_det": "The determinant of each square matrix (the last two axes).",
    "linalg_inverse": "The inverse of each square matrix (the last two axes).",
    "linalg_slogdet": "The sign and the log of the absolute value of each matrix's determinant.",
    "random_pdf_normal": "The density of normal distributions (mu, sigma) at the samples.",
    "random_pdf_uniform": "The density of uniform distributions on [low, high) at the samples.",
    "random_pdf_exponential": "The density of exponential distributions (rate lam) at the samples.",
    "random_pdf_poisson": "The probability of the samples under Poisson distributions (rate lam).",
    "random_pdf_negative_binomial": "The probability of the samples under negative binomial distributions "
    "(k failures, success probability p).",
    "softmax_cross_entropy": "The summed cross-entropy of softmax(data) against integer labels.",
}
